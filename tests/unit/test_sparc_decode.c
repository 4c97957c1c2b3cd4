/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sparc_decode.c - unit tests for the SPARC T4 instruction classifier
 * (src/source/sparc_decode.c, include/hvpmu/sparc_decode.h).
 *
 * Checks the groups of sparc-t4-performance-instrumentation.md TABLE 10-2
 * sl=3 (footnotes 5-9) and sl=4, TABLE 10-1 footnote 1 (next-to-commit) and
 * TABLE 10-2 footnote 12 (micro-ops), with the choices of
 * docs/t4-instruction-groups.md.
 *
 * Instruction words in the vector tables were produced by GNU as 2.40
 * (`sparc64-linux-gnu-as -Av9v -64`); entries whose text is in square
 * brackets ("[op=2,op3=0x1d]") are encodings the assembler refuses, built
 * from their fields.  Branch targets are given relative to the branch.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hvpmu/sparc_decode.h"

/* Expected-flag shorthands used by the vector tables. */
#define X_BR HVPMU_IC_BRANCH
#define X_FGU HVPMU_IC_FP
#define X_LD HVPMU_IC_LOAD
#define X_ST HVPMU_IC_STORE
#define X_SPR HVPMU_IC_SPR
#define X_OTH HVPMU_IC_OTHER
#define X_SWCOUNT HVPMU_IC_SWCOUNT
#define X_ATOMIC HVPMU_IC_ATOMIC
#define X_PREFETCH HVPMU_IC_PREFETCH
#define X_BLOCK HVPMU_IC_BLOCK
#define X_NTC HVPMU_IC_NTC
#define X_CTI_COND HVPMU_IC_CTI_COND
#define X_CTI_ALWAYS HVPMU_IC_CTI_ALWAYS
#define X_ASI_REG HVPMU_IC_ALTSPACE_DYN
#define X_ILLEGAL HVPMU_IC_ILLEGAL
#define X_SYSCALL HVPMU_IC_SYSCALL
#define X_CALL HVPMU_IC_CALL
#define X_RET HVPMU_IC_RET
#define X_INDIRECT HVPMU_IC_INDIRECT

/* Every flag the header defines. */
#define ALL_FLAGS ((uint32_t)(X_BR | X_FGU | X_LD | X_ST | X_SPR | X_OTH | X_SWCOUNT | \
	X_ATOMIC | X_PREFETCH | X_BLOCK | X_NTC | X_CTI_COND | X_CTI_ALWAYS | X_ASI_REG | \
	X_ILLEGAL | X_SYSCALL | X_CALL | X_RET | X_INDIRECT))

/* Address the vectors are decoded at (any value works; see test_targets_wrap). */
#define TEST_PC UINT64_C(0x0000000100402000)

/* Field helpers for building words (SPARC V9 formats), independent of the decoder. */
#define W_OP(v) ((uint32_t)(v) << 30)
#define W_RD(v) ((uint32_t)(v) << 25)
#define W_OP2(v) ((uint32_t)(v) << 22)
#define W_OP3(v) ((uint32_t)(v) << 19)
#define W_RS1(v) ((uint32_t)(v) << 14)
#define W_I(v) ((uint32_t)(v) << 13)
#define W_ASI(v) ((uint32_t)(v) << 5)
#define W_OPF(v) ((uint32_t)(v) << 5)

enum { OP_FMT2 = 0, OP_CALL = 1, OP_ARITH = 2, OP_MEM = 3 };
enum { OP3_LDUWA = 0x10, OP3_LDXA = 0x1b, OP3_STXA = 0x1e, OP3_LDDA = 0x13, OP3_LDFA = 0x30,
       OP3_LDDFA = 0x33, OP3_STDFA = 0x37, OP3_ALT_FIRST = 0x10, OP3_ALT_END = 0x40,
       OP3_JMPL = 0x38, OP3_RETURN = 0x39, OP3_FPOP1 = 0x34, OP3_FPOP2 = 0x35,
       OP3_IMPDEP1 = 0x36, OP3_IMPDEP2 = 0x37, OP3_CRYPTO4 = 0x19 };
enum { OP2_ILLTRAP = 0, OP2_SETHI = 4 };
enum { N_ASI = 256, N_OP3 = 64, N_OPF = 512, N_OP5 = 16 };
/* BPr disp16 = d16hi[21:20] : d16lo[13:0]; CBcond disp10 = d10hi[20:19] : d10lo[12:5]. */
enum { D16LO_BITS = 14, D16HI_SHIFT = 20, D10LO_BITS = 8, D10HI_SHIFT = 19, D10LO_SHIFT = 5,
       CBCOND_BIT = 28 };

struct vec {
	uint32_t word;
	uint32_t flags;
	uint8_t uops;
	uint8_t asi;
	uint8_t has_target;
	int64_t delta; /* target - pc */
	const char *text;
};

/* footnote 6 loads */
static const struct vec vec_fn6_loads[] = {
	{ 0xc4084000, X_LD, 1, 0x00, 0, 0, "ldub [%g1], %g2" },
	{ 0xc4486001, X_LD, 1, 0x00, 0, 0, "ldsb [%g1+1], %g2" },
	{ 0xc4104000, X_LD, 1, 0x00, 0, 0, "lduh [%g1], %g2" },
	{ 0xc4504003, X_LD, 1, 0x00, 0, 0, "ldsh [%g1+%g3], %g2" },
	{ 0xc4004000, X_LD, 1, 0x00, 0, 0, "lduw [%g1], %g2" },
	{ 0xc4404000, X_LD, 1, 0x00, 0, 0, "ldsw [%g1], %g2" },
	{ 0xc4586008, X_LD, 1, 0x00, 0, 0, "ldx [%g1+8], %g2" },
	{ 0xc4184000, X_LD, 1, 0x00, 0, 0, "ldd [%g1], %g2" },
	{ 0xc3004000, X_LD, 1, 0x00, 0, 0, "ld [%g1], %f1" },
	{ 0xc5184000, X_LD, 1, 0x00, 0, 0, "ldd [%g1], %f2" },
	{ 0xc9104000, X_LD, 1, 0x00, 0, 0, "ldq [%g1], %f4" },
	{ 0xc1084000, X_LD, 1, 0x00, 0, 0, "ld [%g1], %fsr" },
	{ 0xc3084000, X_LD, 1, 0x00, 0, 0, "ldx [%g1], %fsr" },
	{ 0xc4885000, X_LD, 1, 0x80, 0, 0, "lduba [%g1] 0x80, %g2" },
	{ 0xc4c85160, X_LD, 1, 0x8b, 0, 0, "ldsba [%g1] 0x8b, %g2" },
	{ 0xc4904180, X_LD, 1, 0x0c, 0, 0, "lduha [%g1] 0x0c, %g2" },
	{ 0xc4d04280, X_LD, 1, 0x14, 0, 0, "ldsha [%g1] 0x14, %g2" },
	{ 0xc4805020, X_LD, 1, 0x81, 0, 0, "lduwa [%g1] 0x81, %g2" },
	{ 0xc4c05120, X_LD, 1, 0x89, 0, 0, "ldswa [%g1] 0x89, %g2" },
	{ 0xc4d85000, X_LD, 1, 0x80, 0, 0, "ldxa [%g1] 0x80, %g2" },
	{ 0xc4d84080, X_LD, 1, 0x04, 0, 0, "ldxa [%g1] 0x04, %g2" },
	{ 0xc3805040, X_LD, 1, 0x82, 0, 0, "lda [%g1] 0x82, %f1" },
	{ 0xc5985a00, X_LD, 1, 0xd0, 0, 0, "ldda [%g1] 0xd0, %f2" },
	{ 0xc9905000, X_LD, 1, 0x80, 0, 0, "ldqa [%g1] 0x80, %f4" },
	{ 0x83400000, X_LD | X_NTC, 1, 0x00, 0, 0, "rd %y, %g1" },
	{ 0x83408000, X_LD | X_NTC, 1, 0x00, 0, 0, "rd %ccr, %g1" },
	{ 0x8340c000, X_LD | X_NTC, 1, 0x00, 0, 0, "rd %asi, %g1" },
	{ 0x83410000, X_LD | X_NTC, 1, 0x00, 0, 0, "rd %tick, %g1" },
	{ 0x83418000, X_LD | X_NTC, 1, 0x00, 0, 0, "rd %fprs, %g1" },
	{ 0x8344c000, X_LD | X_NTC, 1, 0x00, 0, 0, "rd %gsr, %g1" },
	{ 0x83458000, X_LD | X_NTC, 1, 0x00, 0, 0, "rd %softint, %g1" },
	{ 0x83460000, X_LD | X_NTC, 1, 0x00, 0, 0, "rd %stick, %g1" },
	{ 0x83470000, X_LD | X_NTC, 1, 0x00, 0, 0, "rd %asr28, %g1" },
	{ 0x83518000, X_LD | X_NTC, 1, 0x00, 0, 0, "rdpr %pstate, %g1" },
	{ 0x8351c000, X_LD | X_NTC, 1, 0x00, 0, 0, "rdpr %tl, %g1" },
	{ 0x83480000, X_LD | X_NTC, 1, 0x00, 0, 0, "rdhpr %hpstate, %g1" },
	{ 0x83494000, X_LD | X_NTC, 1, 0x00, 0, 0, "rdhpr %htba, %g1" },
};

/* footnote 7 stores */
static const struct vec vec_fn7_stores[] = {
	{ 0xc4284000, X_ST, 1, 0x00, 0, 0, "stb %g2, [%g1]" },
	{ 0xc4304000, X_ST, 1, 0x00, 0, 0, "sth %g2, [%g1]" },
	{ 0xc4204000, X_ST, 1, 0x00, 0, 0, "stw %g2, [%g1]" },
	{ 0xc4706010, X_ST, 1, 0x00, 0, 0, "stx %g2, [%g1+16]" },
	{ 0xc4384000, X_ST, 1, 0x00, 0, 0, "std %g2, [%g1]" },
	{ 0xc3204000, X_ST, 1, 0x00, 0, 0, "st %f1, [%g1]" },
	{ 0xc5384000, X_ST, 1, 0x00, 0, 0, "std %f2, [%g1]" },
	{ 0xc9304000, X_ST, 1, 0x00, 0, 0, "stq %f4, [%g1]" },
	{ 0xc1284000, X_ST, 1, 0x00, 0, 0, "st %fsr, [%g1]" },
	{ 0xc3284000, X_ST, 1, 0x00, 0, 0, "stx %fsr, [%g1]" },
	{ 0xc4a85000, X_ST, 1, 0x80, 0, 0, "stba %g2, [%g1] 0x80" },
	{ 0xc4b04180, X_ST, 1, 0x0c, 0, 0, "stha %g2, [%g1] 0x0c" },
	{ 0xc4a04280, X_ST, 1, 0x14, 0, 0, "stwa %g2, [%g1] 0x14" },
	{ 0xc4f05c40, X_ST, 1, 0xe2, 0, 0, "stxa %g2, [%g1] 0xe2" },
	{ 0xc4f05e40, X_ST, 1, 0xf2, 0, 0, "stxa %g2, [%g1] 0xf2" },
	{ 0xc4b85000, X_ST, 1, 0x80, 0, 0, "stda %g2, [%g1] 0x80" },
	{ 0xc3a05020, X_ST, 1, 0x81, 0, 0, "sta %f1, [%g1] 0x81" },
	{ 0xc5b85800, X_ST, 1, 0xc0, 0, 0, "stda %f2, [%g1] 0xc0" },
	{ 0xc9b05000, X_ST, 1, 0x80, 0, 0, "stqa %f4, [%g1] 0x80" },
	{ 0x81d84000, X_ST, 1, 0x00, 0, 0, "flush %g1" },
	{ 0x8143c000, X_ST, 1, 0x00, 0, 0, "stbar" },
	{ 0x8143e002, X_ST, 1, 0x00, 0, 0, "membar #StoreLoad" },
	{ 0x8143e001, X_ST, 1, 0x00, 0, 0, "membar #LoadLoad" },
	{ 0x8143e008, X_ST, 1, 0x00, 0, 0, "membar #StoreStore" },
	{ 0x8143e040, X_ST, 1, 0x00, 0, 0, "membar #Sync" },
	{ 0x8143e020, X_ST, 1, 0x00, 0, 0, "membar #MemIssue" },
	{ 0x8143e00c, X_ST, 1, 0x00, 0, 0, "membar #LoadStore|#StoreStore" },
	{ 0x8143e050, X_ST, 1, 0x00, 0, 0, "membar #Lookaside|#Sync" },
};

/* footnote 8 SPR ring ops */
static const struct vec vec_fn8_spr[] = {
	{ 0xc4d84400, X_SPR | X_NTC, 1, 0x20, 0, 0, "ldxa [%g1] 0x20, %g2" },
	{ 0xc4d84420, X_SPR | X_NTC, 1, 0x21, 0, 0, "ldxa [%g1] 0x21, %g2" },
	{ 0xc4d844a0, X_SPR | X_NTC, 1, 0x25, 0, 0, "ldxa [%g1] 0x25, %g2" },
	{ 0xc4d849e0, X_SPR | X_NTC, 1, 0x4f, 0, 0, "ldxa [%g1] 0x4f, %g2" },
	{ 0xc4d85600, X_SPR | X_NTC, 1, 0xb0, 0, 0, "ldxa [%g1] 0xb0, %g2" },
	{ 0xc4f04400, X_SPR | X_NTC, 1, 0x20, 0, 0, "stxa %g2, [%g1] 0x20" },
	{ 0xc4f04840, X_SPR | X_NTC, 1, 0x42, 0, 0, "stxa %g2, [%g1] 0x42" },
	{ 0xc4f04ae0, X_SPR | X_NTC, 1, 0x57, 0, 0, "stxa %g2, [%g1] 0x57" },
	{ 0xc4f04c80, X_SPR | X_NTC, 1, 0x64, 0, 0, "stxa %g2, [%g1] 0x64" },
	{ 0xc4f05600, X_SPR | X_NTC, 1, 0xb0, 0, 0, "stxa %g2, [%g1] 0xb0" },
	{ 0x81800001, X_SPR | X_NTC, 1, 0x00, 0, 0, "wr %g1, %y" },
	{ 0x85806010, X_SPR | X_NTC, 1, 0x00, 0, 0, "wr %g1, 0x10, %ccr" },
	{ 0x87802080, X_SPR | X_NTC, 1, 0x00, 0, 0, "wr %g0, 0x80, %asi" },
	{ 0x8d802004, X_SPR | X_NTC, 1, 0x00, 0, 0, "wr %g0, 4, %fprs" },
	{ 0xa7806000, X_SPR | X_NTC, 1, 0x00, 0, 0, "wr %g1, 0, %gsr" },
	{ 0xad806000, X_SPR | X_NTC, 1, 0x00, 0, 0, "wr %g1, 0, %softint" },
	{ 0xb3806000, X_SPR | X_NTC, 1, 0x00, 0, 0, "wr %g1, 0, %stick_cmpr" },
	{ 0xb7802008, X_SPR | X_NTC, 1, 0x00, 0, 0, "pause 8" },
	{ 0x8d904000, X_SPR | X_NTC, 1, 0x00, 0, 0, "wrpr %g1, %pstate" },
	{ 0x91904000, X_SPR | X_NTC, 1, 0x00, 0, 0, "wrpr %g1, %pil" },
	{ 0x81984000, X_SPR | X_NTC, 1, 0x00, 0, 0, "wrhpr %g1, %hpstate" },
	{ 0x8b984000, X_SPR | X_NTC, 1, 0x00, 0, 0, "wrhpr %g1, %htba" },
};

/* footnote 9 other */
static const struct vec vec_fn9_other[] = {
	{ 0x86004002, X_OTH, 1, 0x00, 0, 0, "add %g1, %g2, %g3" },
	{ 0x86806001, X_OTH, 1, 0x00, 0, 0, "addcc %g1, 1, %g3" },
	{ 0x86404002, X_OTH, 1, 0x00, 0, 0, "addc %g1, %g2, %g3" },
	{ 0x86c04002, X_OTH, 1, 0x00, 0, 0, "addccc %g1, %g2, %g3" },
	{ 0x86084002, X_OTH, 1, 0x00, 0, 0, "and %g1, %g2, %g3" },
	{ 0x86884002, X_OTH, 1, 0x00, 0, 0, "andcc %g1, %g2, %g3" },
	{ 0x86284002, X_OTH, 1, 0x00, 0, 0, "andn %g1, %g2, %g3" },
	{ 0x86a84002, X_OTH, 1, 0x00, 0, 0, "andncc %g1, %g2, %g3" },
	{ 0x86104002, X_OTH, 1, 0x00, 0, 0, "or %g1, %g2, %g3" },
	{ 0x86904002, X_OTH, 1, 0x00, 0, 0, "orcc %g1, %g2, %g3" },
	{ 0x86b04002, X_OTH, 1, 0x00, 0, 0, "orncc %g1, %g2, %g3" },
	{ 0x86184002, X_OTH, 1, 0x00, 0, 0, "xor %g1, %g2, %g3" },
	{ 0x86984002, X_OTH, 1, 0x00, 0, 0, "xorcc %g1, %g2, %g3" },
	{ 0x86384002, X_OTH, 1, 0x00, 0, 0, "xnor %g1, %g2, %g3" },
	{ 0x86b84002, X_OTH, 1, 0x00, 0, 0, "xnorcc %g1, %g2, %g3" },
	{ 0x86204002, X_OTH, 1, 0x00, 0, 0, "sub %g1, %g2, %g3" },
	{ 0x86a04002, X_OTH, 1, 0x00, 0, 0, "subcc %g1, %g2, %g3" },
	{ 0x86604002, X_OTH, 1, 0x00, 0, 0, "subc %g1, %g2, %g3" },
	{ 0x86e04002, X_OTH, 1, 0x00, 0, 0, "subccc %g1, %g2, %g3" },
	{ 0x87004002, X_OTH, 1, 0x00, 0, 0, "taddcc %g1, %g2, %g3" },
	{ 0x87104002, X_OTH, 1, 0x00, 0, 0, "taddcctv %g1, %g2, %g3" },
	{ 0x87084002, X_OTH, 1, 0x00, 0, 0, "tsubcc %g1, %g2, %g3" },
	{ 0x87184002, X_OTH, 1, 0x00, 0, 0, "tsubcctv %g1, %g2, %g3" },
	{ 0x87204002, X_OTH, 1, 0x00, 0, 0, "mulscc %g1, %g2, %g3" },
	{ 0x87286003, X_OTH, 1, 0x00, 0, 0, "sll %g1, 3, %g3" },
	{ 0x87306003, X_OTH, 1, 0x00, 0, 0, "srl %g1, 3, %g3" },
	{ 0x87386003, X_OTH, 1, 0x00, 0, 0, "sra %g1, 3, %g3" },
	{ 0x87287021, X_OTH, 1, 0x00, 0, 0, "sllx %g1, 33, %g3" },
	{ 0x87307021, X_OTH, 1, 0x00, 0, 0, "srlx %g1, 33, %g3" },
	{ 0x87387021, X_OTH, 1, 0x00, 0, 0, "srax %g1, 33, %g3" },
	{ 0x86484002, X_OTH, 1, 0x00, 0, 0, "mulx %g1, %g2, %g3" },
	{ 0x86504002, X_OTH, 1, 0x00, 0, 0, "umul %g1, %g2, %g3" },
	{ 0x86584002, X_OTH, 1, 0x00, 0, 0, "smul %g1, %g2, %g3" },
	{ 0x87684002, X_OTH, 1, 0x00, 0, 0, "sdivx %g1, %g2, %g3" },
	{ 0x86684002, X_OTH, 1, 0x00, 0, 0, "udivx %g1, %g2, %g3" },
	{ 0x86704002, X_OTH, 1, 0x00, 0, 0, "udiv %g1, %g2, %g3" },
	{ 0x86f84002, X_OTH, 1, 0x00, 0, 0, "sdivcc %g1, %g2, %g3" },
	{ 0x87700001, X_OTH, 1, 0x00, 0, 0, "popc %g1, %g3" },
	{ 0x87664001, X_OTH, 1, 0x00, 0, 0, "movne %icc, %g1, %g3" },
	{ 0x87647005, X_OTH, 1, 0x00, 0, 0, "move %xcc, 5, %g3" },
	{ 0x87600001, X_OTH, 1, 0x00, 0, 0, "movn %fcc0, %g1, %g3" },
	{ 0x8761d801, X_OTH, 1, 0x00, 0, 0, "movu %fcc3, %g1, %g3" },
	{ 0x87784402, X_OTH, 1, 0x00, 0, 0, "movrz %g1, %g2, %g3" },
	{ 0x87787c07, X_OTH, 1, 0x00, 0, 0, "movrgez %g1, 7, %g3" },
	{ 0x9de3bf40, X_OTH, 1, 0x00, 0, 0, "save %sp, -192, %sp" },
	{ 0x81e80000, X_OTH, 1, 0x00, 0, 0, "restore" },
	{ 0x81880000, X_OTH, 1, 0x00, 0, 0, "saved" },
	{ 0x83880000, X_OTH, 1, 0x00, 0, 0, "restored" },
	{ 0x85880000, X_OTH, 1, 0x00, 0, 0, "allclean" },
	{ 0x87880000, X_OTH, 1, 0x00, 0, 0, "otherw" },
	{ 0x89880000, X_OTH, 1, 0x00, 0, 0, "normalw" },
	{ 0x8b880000, X_OTH, 1, 0x00, 0, 0, "INVALW (fcn 5; gas 2.40 spells it invalw) [op=2,rd=5,op3=0x31]" },
	{ 0x81580000, X_OTH, 1, 0x00, 0, 0, "flushw" },
	{ 0x81f00000, X_OTH, 1, 0x00, 0, 0, "done" },
	{ 0x83f00000, X_OTH, 1, 0x00, 0, 0, "retry" },
	{ 0xc7e05002, X_OTH | X_ATOMIC | X_NTC, 1, 0x80, 0, 0, "casa [%g1] 0x80, %g2, %g3" },
	{ 0xc7f05002, X_OTH | X_ATOMIC | X_NTC, 1, 0x80, 0, 0, "casxa [%g1] 0x80, %g2, %g3" },
	{ 0xc7e06002, X_OTH | X_ATOMIC | X_NTC | X_ASI_REG, 1, 0x00, 0, 0, "casa [%g1] %asi, %g2, %g3" },
	{ 0xc7f06002, X_OTH | X_ATOMIC | X_NTC | X_ASI_REG, 1, 0x00, 0, 0, "casxa [%g1] %asi, %g2, %g3" },
	{ 0xc4684000, X_OTH | X_ATOMIC | X_NTC, 1, 0x00, 0, 0, "ldstub [%g1], %g2" },
	{ 0xc4e85000, X_OTH | X_ATOMIC | X_NTC, 1, 0x80, 0, 0, "ldstuba [%g1] 0x80, %g2" },
	{ 0xc4784000, X_OTH | X_ATOMIC | X_NTC, 1, 0x00, 0, 0, "swap [%g1], %g2" },
	{ 0xc4f85020, X_OTH | X_ATOMIC | X_NTC, 1, 0x81, 0, 0, "swapa [%g1] 0x81, %g2" },
	{ 0xc4f86000, X_OTH | X_ATOMIC | X_NTC | X_ASI_REG, 1, 0x00, 0, 0, "swapa [%g1] %asi, %g2" },
	{ 0xc1684000, X_OTH | X_PREFETCH, 1, 0x00, 0, 0, "prefetch [%g1], 0" },
	{ 0xe9686040, X_OTH | X_PREFETCH, 1, 0x00, 0, 0, "prefetch [%g1+64], 20" },
	{ 0xc3e85000, X_OTH | X_PREFETCH, 1, 0x80, 0, 0, "prefetcha [%g1] 0x80, 1" },
	{ 0xc5e86000, X_OTH | X_PREFETCH | X_ASI_REG, 1, 0x00, 0, 0, "prefetcha [%g1+0] %asi, 2" },
	{ 0x83414000, X_OTH, 1, 0x00, 0, 0, "rd %pc, %g1" },
	{ 0x83468000, X_OTH | X_NTC, 1, 0x00, 0, 0, "rd %cfr, %g1" },
	{ 0xb5800001, X_OTH | X_NTC, 1, 0x00, 0, 0, "wr %g0, %g1, %cfr" },
	{ 0x03048d14, X_OTH, 1, 0x00, 0, 0, "sethi %hi(0x12345000), %g1" },
	{ 0x030003f0, X_OTH, 1, 0x00, 0, 0, "sethi %hi(0xfc000), %g1" },
	{ 0x010003f0, X_OTH | X_SWCOUNT, 1, 0x00, 0, 0, "sethi %hi(0xfc000), %g0" },
	{ 0x010003f1, X_OTH, 1, 0x00, 0, 0, "sethi %hi(0xfc400), %g0" },
	{ 0x01000000, X_OTH, 1, 0x00, 0, 0, "nop" },
	{ 0x01000001, X_OTH, 1, 0x00, 0, 0, "sethi %hi(0x400), %g0" },
	{ 0x8143e010, X_OTH, 1, 0x00, 0, 0, "membar #Lookaside" },
	{ 0x8143e004, X_OTH, 1, 0x00, 0, 0, "membar #LoadStore" },
	{ 0x8143e014, X_OTH, 1, 0x00, 0, 0, "membar #LoadStore|#Lookaside" },
	{ 0x8143e000, X_OTH, 1, 0x00, 0, 0, "membar 0" },
	{ 0x81b01021, X_OTH, 1, 0x00, 0, 0, "siam 1" },
	{ 0x83b02200, X_OTH, 1, 0x00, 0, 0, "movdtox %f0, %g1" },
	{ 0x81b02301, X_OTH, 1, 0x00, 0, 0, "movxtod %g1, %f0" },
	{ 0x83b02221, X_OTH, 1, 0x00, 0, 0, "movstouw %f1, %g1" },
	{ 0x83b02261, X_OTH, 1, 0x00, 0, 0, "movstosw %f1, %g1" },
	{ 0x83b02321, X_OTH, 1, 0x00, 0, 0, "movwtos %g1, %f1" },
	{ 0x87b04222, X_OTH, 1, 0x00, 0, 0, "addxc %g1, %g2, %g3" },
	{ 0x87b04262, X_OTH, 1, 0x00, 0, 0, "addxccc %g1, %g2, %g3" },
	{ 0x81d02005, X_OTH, 1, 0x00, 0, 0, "tn %icc, 5" },
	{ 0x91d0206d, X_OTH | X_SYSCALL, 1, 0x00, 0, 0, "ta 0x6d" },
	{ 0x91d03010, X_OTH | X_SYSCALL, 1, 0x00, 0, 0, "ta %xcc, 0x10" },
	{ 0x93d06003, X_OTH | X_SYSCALL, 1, 0x00, 0, 0, "tne %icc, %g1 + 3" },
	{ 0x8fd03001, X_OTH | X_SYSCALL, 1, 0x00, 0, 0, "tvs %xcc, 1" },
	{ 0x9f802000, X_OTH, 1, 0x00, 0, 0, "sir 0" },
};

/* footnote 5 FGU (+ crypto) */
static const struct vec vec_fn5_fgu[] = {
	{ 0x85a00821, X_FGU, 1, 0x00, 0, 0, "fadds %f0, %f1, %f2" },
	{ 0x89a00842, X_FGU, 1, 0x00, 0, 0, "faddd %f0, %f2, %f4" },
	{ 0x91a00864, X_FGU, 1, 0x00, 0, 0, "faddq %f0, %f4, %f8" },
	{ 0x89a008c2, X_FGU, 1, 0x00, 0, 0, "fsubd %f0, %f2, %f4" },
	{ 0x85a00921, X_FGU, 1, 0x00, 0, 0, "fmuls %f0, %f1, %f2" },
	{ 0x85a00d21, X_FGU, 1, 0x00, 0, 0, "fsmuld %f0, %f1, %f2" },
	{ 0x89a009c2, X_FGU, 1, 0x00, 0, 0, "fdivd %f0, %f2, %f4" },
	{ 0x85a00540, X_FGU, 1, 0x00, 0, 0, "fsqrtd %f0, %f2" },
	{ 0x83a00020, X_FGU, 1, 0x00, 0, 0, "fmovs %f0, %f1" },
	{ 0x85a000c0, X_FGU, 1, 0x00, 0, 0, "fnegd %f0, %f2" },
	{ 0x85a00140, X_FGU, 1, 0x00, 0, 0, "fabsd %f0, %f2" },
	{ 0x85a01900, X_FGU, 1, 0x00, 0, 0, "fitod %f0, %f2" },
	{ 0x85a01040, X_FGU, 1, 0x00, 0, 0, "fdtox %f0, %f2" },
	{ 0x85a01100, X_FGU, 1, 0x00, 0, 0, "fxtod %f0, %f2" },
	{ 0x83a01a20, X_FGU, 1, 0x00, 0, 0, "fstoi %f0, %f1" },
	{ 0x89a00a42, X_FGU, 1, 0x00, 0, 0, "fnaddd %f0, %f2, %f4" },
	{ 0x89a00c42, X_FGU, 1, 0x00, 0, 0, "fhaddd %f0, %f2, %f4" },
	{ 0x85a00f21, X_FGU, 1, 0x00, 0, 0, "fnsmuld %f0, %f1, %f2" },
	{ 0x83a80a42, X_FGU, 1, 0x00, 0, 0, "fcmpd %fcc1, %f0, %f2" },
	{ 0x81a80aa1, X_FGU, 1, 0x00, 0, 0, "fcmpes %fcc0, %f0, %f1" },
	{ 0x85a85040, X_FGU, 1, 0x00, 0, 0, "fmovdne %fcc2, %f0, %f2" },
	{ 0x83aa2020, X_FGU, 1, 0x00, 0, 0, "fmovsa %icc, %f0, %f1" },
	{ 0x85aab040, X_FGU, 1, 0x00, 0, 0, "fmovdg %xcc, %f0, %f2" },
	{ 0x85a844c0, X_FGU, 1, 0x00, 0, 0, "fmovrdz %g1, %f0, %f2" },
	{ 0x83a85ca0, X_FGU, 1, 0x00, 0, 0, "fmovrsgez %g1, %f0, %f1" },
	{ 0x8db80842, X_FGU, 1, 0x00, 0, 0, "fmaddd %f0, %f2, %f4, %f6" },
	{ 0x87b804a1, X_FGU, 1, 0x00, 0, 0, "fmsubs %f0, %f1, %f2, %f3" },
	{ 0x8db809c2, X_FGU, 1, 0x00, 0, 0, "fnmaddd %f0, %f2, %f4, %f6" },
	{ 0x87b80521, X_FGU, 1, 0x00, 0, 0, "fnmsubs %f0, %f1, %f2, %f3" },
	{ 0x89b00a02, X_FGU, 1, 0x00, 0, 0, "fpadd16 %f0, %f2, %f4" },
	{ 0x85b00ae1, X_FGU, 1, 0x00, 0, 0, "fpsub32s %f0, %f1, %f2" },
	{ 0x89b00842, X_FGU, 1, 0x00, 0, 0, "FPADD64 %f0, %f2, %f4 (VIS3; gas 2.40 wants vis3b) [op=2,rd=4,op3=0x36,opf=0x042,rs2=2]" },
	{ 0x89b00902, X_FGU, 1, 0x00, 0, 0, "faligndata %f0, %f2, %f4" },
	{ 0x81b00c00, X_FGU, 1, 0x00, 0, 0, "fzero %f0" },
	{ 0x83b00fe0, X_FGU, 1, 0x00, 0, 0, "fones %f1" },
	{ 0x89b00d82, X_FGU, 1, 0x00, 0, 0, "fxor %f0, %f2, %f4" },
	{ 0x85b00e80, X_FGU, 1, 0x00, 0, 0, "fsrc1 %f0, %f2" },
	{ 0x85b00961, X_FGU, 1, 0x00, 0, 0, "fpmerge %f0, %f1, %f2" },
	{ 0x85b009a1, X_FGU, 1, 0x00, 0, 0, "fexpand %f1, %f2" },
	{ 0x83b00760, X_FGU, 1, 0x00, 0, 0, "fpack16 %f0, %f1" },
	{ 0x89b04622, X_FGU, 1, 0x00, 0, 0, "fmul8x16 %f1, %f2, %f4" },
	{ 0x89b007c2, X_FGU, 1, 0x00, 0, 0, "pdist %f0, %f2, %f4" },
	{ 0x89b00982, X_FGU, 1, 0x00, 0, 0, "bshuffle %f0, %f2, %f4" },
	{ 0x83b00542, X_FGU, 1, 0x00, 0, 0, "fpcmpeq16 %f0, %f2, %g1" },
	{ 0x89b00522, X_FGU, 1, 0x00, 0, 0, "fslas16 %f0, %f2, %f4" },
	{ 0x89b00802, X_FGU, 1, 0x00, 0, 0, "fmean16 %f0, %f2, %f4" },
	{ 0x89b00882, X_FGU, 1, 0x00, 0, 0, "fchksm16 %f0, %f2, %f4" },
	{ 0x81b06a23, X_FGU, 1, 0x00, 0, 0, "flcmps %fcc0, %f1, %f3" },
	{ 0x87b04002, X_FGU, 1, 0x00, 0, 0, "edge8cc %g1, %g2, %g3" },
	{ 0x87b04202, X_FGU, 1, 0x00, 0, 0, "array8 %g1, %g2, %g3" },
	{ 0x87b04302, X_FGU, 1, 0x00, 0, 0, "alignaddr %g1, %g2, %g3" },
	{ 0x87b04322, X_FGU, 1, 0x00, 0, 0, "bmask %g1, %g2, %g3" },
	{ 0x87b002e1, X_FGU, 1, 0x00, 0, 0, "lzcnt %g1, %g3" },
	{ 0x87b042c2, X_FGU, 1, 0x00, 0, 0, "umulxhi %g1, %g2, %g3" },
	{ 0x87b062a2, X_FGU, 1, 0x00, 0, 0, "xmulx %g1, %g2, %g3" },
	{ 0x81b00361, X_FGU, 1, 0x00, 0, 0, "cmask8 %g1" },
	{ 0x8cc80802, X_FGU, 1, 0x00, 0, 0, "aes_eround01 %f0, %f2, %f4, %f6" },
	{ 0x8cc808e2, X_FGU, 1, 0x00, 0, 0, "aes_dround23_l %f0, %f2, %f4, %f6" },
	{ 0x8cc80902, X_FGU, 1, 0x00, 0, 0, "aes_kexpand1 %f0, %f2, 4, %f6" },
	{ 0x89b02602, X_FGU, 1, 0x00, 0, 0, "aes_kexpand0 %f0, %f2, %f4" },
	{ 0x8cc80922, X_FGU, 1, 0x00, 0, 0, "des_round %f0, %f2, %f4, %f6" },
	{ 0x85b02680, X_FGU, 1, 0x00, 0, 0, "des_ip %f0, %f2" },
	{ 0x8cc80962, X_FGU, 1, 0x00, 0, 0, "kasumi_fi_xor %f0, %f2, %f4, %f6" },
	{ 0x8cc80982, X_FGU, 1, 0x00, 0, 0, "camellia_f %f0, %f2, %f4, %f6" },
	{ 0x89b02782, X_FGU, 1, 0x00, 0, 0, "camellia_fl %f0, %f2, %f4" },
	{ 0x89b028e2, X_FGU, 1, 0x00, 0, 0, "crc32c %f0, %f2, %f4" },
	{ 0x81b02800, X_FGU | X_NTC, 1, 0x00, 0, 0, "md5" },
	{ 0x81b02820, X_FGU | X_NTC, 1, 0x00, 0, 0, "sha1" },
	{ 0x81b02840, X_FGU | X_NTC, 1, 0x00, 0, 0, "sha256" },
	{ 0x81b02860, X_FGU | X_NTC, 1, 0x00, 0, 0, "sha512" },
	{ 0x81b02901, X_FGU | X_NTC, 1, 0x00, 0, 0, "mpmul 1" },
	{ 0x81b02922, X_FGU | X_NTC, 1, 0x00, 0, 0, "montmul 2" },
	{ 0x81b02943, X_FGU | X_NTC, 1, 0x00, 0, 0, "montsqr 3" },
};

/* branches */
static const struct vec vec_branches[] = {
	{ 0x12800010, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(0x40), "bne .+0x40" },
	{ 0x22bffff0, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(0x40), "be,a .-0x40" },
	{ 0x10800002, X_BR | X_CTI_ALWAYS, 1, 0x00, 1, INT64_C(8), "ba .+8" },
	{ 0x30bfffff, X_BR | X_CTI_ALWAYS, 1, 0x00, 1, -INT64_C(4), "ba,a .-4" },
	{ 0x00800003, X_BR, 1, 0x00, 1, INT64_C(12), "bn .+12" },
	{ 0x0e9fffff, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(0x7ffffc), "bvs .+0x7ffffc" },
	{ 0x1ea00000, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(0x800000), "bvc .-0x800000" },
	{ 0x1c480040, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(0x100), "bpos,pt %icc, .+0x100" },
	{ 0x1267ffc0, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(0x100), "bne,pn %xcc, .-0x100" },
	{ 0x106bffff, X_BR | X_CTI_ALWAYS, 1, 0x00, 1, INT64_C(0xffffc), "ba %xcc, .+0xffffc" },
	{ 0x304c0000, X_BR | X_CTI_ALWAYS, 1, 0x00, 1, -INT64_C(0x100000), "ba,a,pt %icc, .-0x100000" },
	{ 0x00480004, X_BR, 1, 0x00, 1, INT64_C(16), "bn %icc, .+16" },
	{ 0x02c84008, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(0x20), "brz %g1, .+0x20" },
	{ 0x24f87ff8, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(0x20), "brlez,a %g1, .-0x20" },
	{ 0x06d87fff, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(0x1fffc), "brlz %g1, .+0x1fffc" },
	{ 0x0ae04000, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(0x20000), "brnz,pn %g1, .-0x20000" },
	{ 0x0cc85000, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(0x4000), "brgz %g1, .+0x4000" },
	{ 0x0ef87000, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(0x4000), "brgez %g1, .-0x4000" },
	{ 0x03800020, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(0x80), "fbne .+0x80" },
	{ 0x2fa00000, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(0x800000), "fbu,a .-0x800000" },
	{ 0x119fffff, X_BR | X_CTI_ALWAYS, 1, 0x00, 1, INT64_C(0x7ffffc), "fba .+0x7ffffc" },
	{ 0x01800001, X_BR, 1, 0x00, 1, INT64_C(4), "fbn .+4" },
	{ 0x176bffff, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(0xffffc), "fbge %fcc2, .+0xffffc" },
	{ 0x1d740000, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(0x100000), "fbule,pn %fcc3, .-0x100000" },
	{ 0x115ffffe, X_BR | X_CTI_ALWAYS, 1, 0x00, 1, -INT64_C(8), "fba %fcc1, .-8" },
	{ 0x01480002, X_BR, 1, 0x00, 1, INT64_C(8), "fbn %fcc0, .+8" },
	{ 0x40000400, X_BR | X_CTI_ALWAYS | X_CALL, 1, 0x00, 1, INT64_C(0x1000), "call .+0x1000" },
	{ 0x7ffffc00, X_BR | X_CTI_ALWAYS | X_CALL, 1, 0x00, 1, -INT64_C(0x1000), "call .-0x1000" },
	{ 0x5fffffff, X_BR | X_CTI_ALWAYS | X_CALL, 1, 0x00, 1, INT64_C(0x7ffffffc), "call .+0x7ffffffc" },
	{ 0x60000000, X_BR | X_CTI_ALWAYS | X_CALL, 1, 0x00, 1, -INT64_C(0x80000000), "call .-0x80000000" },
	{ 0x9fc06008, X_BR | X_CTI_ALWAYS | X_INDIRECT | X_CALL, 1, 0x00, 0, 0, "jmpl %g1+8, %o7" },
	{ 0x81c04000, X_BR | X_CTI_ALWAYS | X_INDIRECT, 1, 0x00, 0, 0, "jmp %g1" },
	{ 0x81c7e008, X_BR | X_CTI_ALWAYS | X_INDIRECT | X_RET, 1, 0x00, 0, 0, "ret" },
	{ 0x81c3e008, X_BR | X_CTI_ALWAYS | X_INDIRECT | X_RET, 1, 0x00, 0, 0, "retl" },
	{ 0x81cfe008, X_BR | X_CTI_ALWAYS | X_INDIRECT | X_RET, 1, 0x00, 0, 0, "return %i7+8" },
	{ 0x32c85fe2, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(0x7fc), "cwbne %g1, %g2, .+0x7fc" },
	{ 0x12f06003, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(0x800), "cxbe %g1, 3, .-0x800" },
	{ 0x16c0605f, X_BR | X_CTI_COND, 1, 0x00, 1, INT64_C(8), "cwbl %g1, 31, .+8" },
	{ 0x38f85fe2, X_BR | X_CTI_COND, 1, 0x00, 1, -INT64_C(4), "cxbgu %g1, %g2, .-4" },
};

/* ASI-dependent classification */
static const struct vec vec_asi[] = {
	{ 0xc4d86000, X_LD | X_ASI_REG, 1, 0x00, 0, 0, "ldxa [%g1] %asi, %g2" },
	{ 0xc4f06000, X_ST | X_ASI_REG, 1, 0x00, 0, 0, "stxa %g2, [%g1] %asi" },
	{ 0xc1986000, X_LD | X_ASI_REG, 1, 0x00, 0, 0, "ldda [%g1] %asi, %f0" },
	{ 0xc1b86000, X_ST | X_ASI_REG, 1, 0x00, 0, 0, "stda %f0, [%g1] %asi" },
	{ 0xc4986000, X_LD | X_ASI_REG, 1, 0x00, 0, 0, "ldda [%g1] %asi, %g2" },
	{ 0xc4d84840, X_LD | X_NTC, 1, 0x42, 0, 0, "ldxa [%g1] 0x42, %g2" },
	{ 0xc4f04900, X_ST | X_NTC, 1, 0x48, 0, 0, "stxa %g2, [%g1] 0x48" },
	{ 0xc4d84820, X_LD | X_NTC, 1, 0x41, 0, 0, "ldxa [%g1] 0x41, %g2" },
	{ 0xc4d84c60, X_LD | X_NTC, 1, 0x63, 0, 0, "ldxa [%g1] 0x63, %g2" },
	{ 0xc4f04820, X_ST | X_NTC, 1, 0x41, 0, 0, "stxa %g2, [%g1] 0x41" },
	{ 0xc4f04e60, X_ST | X_NTC, 1, 0x73, 0, 0, "stxa %g2, [%g1] 0x73" },
	{ 0xc4804400, X_LD | X_NTC, 1, 0x20, 0, 0, "lduwa [%g1] 0x20, %g2" },
	{ 0xc4a04420, X_ST | X_NTC, 1, 0x21, 0, 0, "stwa %g2, [%g1] 0x21" },
	{ 0xc4d842a0, X_LD | X_NTC, 1, 0x15, 0, 0, "ldxa [%g1] 0x15, %g2" },
	{ 0xc4a843a0, X_ST | X_NTC, 1, 0x1d, 0, 0, "stba %g2, [%g1] 0x1d" },
	{ 0xc4d84280, X_LD, 1, 0x14, 0, 0, "ldxa [%g1] 0x14, %g2" },
	{ 0xc4d846c0, X_LD, 1, 0x36, 0, 0, "ldxa [%g1] 0x36, %g2" },
	{ 0xc4d84000, X_LD, 1, 0x00, 0, 0, "ldxa [%g1] 0x00, %g2" },
	{ 0xc4f05fe0, X_ST, 1, 0xff, 0, 0, "stxa %g2, [%g1] 0xff" },
	{ 0xc4985c40, X_LD, 2, 0xe2, 0, 0, "ldda [%g1] 0xe2, %g2" },
	{ 0xc49844e0, X_LD, 2, 0x27, 0, 0, "ldtxa [%g1] 0x27, %g2" },
	{ 0xc4984440, X_LD, 2, 0x22, 0, 0, "ldda [%g1] 0x22, %g2" },
	{ 0xc4985d60, X_LD, 2, 0xeb, 0, 0, "ldda [%g1] 0xeb, %g2" },
	{ 0xc4985000, X_LD, 1, 0x80, 0, 0, "ldda [%g1] 0x80, %g2" },
	{ 0xc4984480, X_LD, 1, 0x24, 0, 0, "ldda [%g1] 0x24, %g2" },
	{ 0xc4b844e0, X_ST, 1, 0x27, 0, 0, "stda %g2, [%g1] 0x27" },
	{ 0xc4d85c40, X_LD, 1, 0xe2, 0, 0, "ldxa [%g1] 0xe2, %g2" },
	{ 0xc1985c40, X_LD, 1, 0xe2, 0, 0, "ldda [%g1] 0xe2, %f0" },
	{ 0xc1985e00, X_LD | X_BLOCK, 8, 0xf0, 0, 0, "ldda [%g1] 0xf0, %f0" },
	{ 0xc1985f00, X_LD | X_BLOCK, 8, 0xf8, 0, 0, "ldda [%g1] 0xf8, %f0" },
	{ 0xc19842c0, X_LD | X_BLOCK, 8, 0x16, 0, 0, "ldda [%g1] 0x16, %f0" },
	{ 0xc19843c0, X_LD | X_BLOCK, 8, 0x1e, 0, 0, "ldda [%g1] 0x1e, %f0" },
	{ 0xc19842e0, X_LD, 1, 0x17, 0, 0, "ldda [%g1] 0x17, %f0" },
	{ 0xc1985e20, X_LD, 1, 0xf1, 0, 0, "ldda [%g1] 0xf1, %f0" },
	{ 0xc1b85e00, X_ST | X_BLOCK, 8, 0xf0, 0, 0, "stda %f0, [%g1] 0xf0" },
	{ 0xc1b85f00, X_ST | X_BLOCK, 8, 0xf8, 0, 0, "stda %f0, [%g1] 0xf8" },
	{ 0xc1b85f20, X_ST | X_BLOCK, 8, 0xf9, 0, 0, "stda %f0, [%g1] 0xf9" },
	{ 0xc1b85c00, X_ST | X_BLOCK, 8, 0xe0, 0, 0, "stda %f0, [%g1] 0xe0" },
	{ 0xc1b842e0, X_ST | X_BLOCK, 8, 0x17, 0, 0, "stda %f0, [%g1] 0x17" },
	{ 0xc1b842c0, X_ST, 1, 0x16, 0, 0, "stda %f0, [%g1] 0x16" },
	{ 0xc1b85c20, X_ST, 1, 0xe1, 0, 0, "stda %f0, [%g1] 0xe1" },
	{ 0xc3805e00, X_LD, 1, 0xf0, 0, 0, "lda [%g1] 0xf0, %f1" },
	{ 0xc4f05e00, X_ST, 1, 0xf0, 0, 0, "stxa %g2, [%g1] 0xf0" },
};

/* undefined encodings */
static const struct vec vec_undefined[] = {
	{ 0x00000000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "illtrap 0" },
	{ 0x003fffff, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "illtrap 0x3fffff" },
	{ 0x84e80000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op=2 op3 0x1d (reserved) [op=2,rd=2,op3=0x1d]" },
	{ 0x85f80000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op=2 op3 0x3f (Fujitsu FUMADD, not T4) [op=2,rd=2,op3=0x3f]" },
	{ 0xc4600000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op=3 op3 0x0c (reserved) [op=3,rd=2,op3=0x0c]" },
	{ 0xc4e00000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op=3 op3 0x1c (reserved) [op=3,rd=2,op3=0x1c]" },
	{ 0xc5880000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op=3 op3 0x31 (reserved) [op=3,rd=2,op3=0x31]" },
	{ 0xc5a80000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op=3 op3 0x35 (reserved) [op=3,rd=2,op3=0x35]" },
	{ 0xc5c00000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op=3 op3 0x38 (reserved) [op=3,rd=2,op3=0x38]" },
	{ 0xc5400000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op=3 op3 0x28 (reserved) [op=3,rd=2,op3=0x28]" },
	{ 0xc5f80000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op=3 op3 0x3f (reserved) [op=3,rd=2,op3=0x3f]" },
	{ 0x85a00000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "FPop1 opf 0x000 (undefined) [op=2,rd=2,op3=0x34,opf=0x000]" },
	{ 0x85a03fe0, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "FPop1 opf 0x1ff (undefined) [op=2,rd=2,op3=0x34,opf=0x1ff]" },
	{ 0x85a018a0, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "FPop1 opf 0x0c5 (undefined) [op=2,rd=2,op3=0x34,opf=0x0c5]" },
	{ 0x85a82840, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "FPop2 FMOVdcc with opf_cc 5 (reserved) [op=2,rd=2,op3=0x35,opf=0x142]" },
	{ 0x85a83840, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "FPop2 FMOVdcc with opf_cc 7 (reserved) [op=2,rd=2,op3=0x35,opf=0x1c2]" },
	{ 0x85a800c0, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "FPop2 FMOVRd with rcond 0 (reserved) [op=2,rd=2,op3=0x35,opf=0x006]" },
	{ 0x85a810c0, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "FPop2 FMOVRd with rcond 4 (reserved) [op=2,rd=2,op3=0x35,opf=0x086]" },
	{ 0x85b03fe0, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "IMPDEP1 opf 0x1ff (undefined) [op=2,rd=2,op3=0x36,opf=0x1ff]" },
	{ 0x85b02020, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "IMPDEP1 opf 0x101 (undefined) [op=2,rd=2,op3=0x36,opf=0x101]" },
	{ 0x85b02480, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "IMPDEP1 opf 0x124 (FPADD8, VIS4: not T4) [op=2,rd=2,op3=0x36,opf=0x124]" },
	{ 0x85b80000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "IMPDEP2 op5 0 (FPMADDX, IMA: not T4) [op=2,rd=2,op3=0x37,op5=0]" },
	{ 0x85b80080, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "IMPDEP2 op5 4 (FPMADDXHI, IMA: not T4) [op=2,rd=2,op3=0x37,op5=4]" },
	{ 0x85b80060, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "IMPDEP2 op5 3 (quad FMA) [op=2,rd=2,op3=0x37,op5=3]" },
	{ 0x84c801a0, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op3 0x19 op5 13 (undefined) [op=2,rd=2,op3=0x19,op5=13]" },
	{ 0x84c801e0, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "op3 0x19 op5 15 (undefined) [op=2,rd=2,op3=0x19,op5=15]" },
	{ 0x8f785002, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "MOVr rcond 4 (reserved) [op=2,rd=7,op3=0x2f,movr=4,rs1=1,rs2=2]" },
	{ 0x8f784002, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "MOVr rcond 0 (reserved) [op=2,rd=7,op3=0x2f,movr=0,rs1=1,rs2=2]" },
	{ 0x8f640801, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "MOVcc integer cc 1 (reserved) [op=2,rd=7,op3=0x2c,movcc2=1,movcc=1,rs2=1]" },
	{ 0x8f641801, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "MOVcc integer cc 3 (reserved) [op=2,rd=7,op3=0x2c,movcc2=1,movcc=3,rs2=1]" },
	{ 0x8f601801, X_OTH, 1, 0x00, 0, 0, "MOVcc %fcc3 (defined) [op=2,rd=7,op3=0x2c,movcc2=0,movcc=3,rs2=1]" },
	{ 0x91d02805, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "Tcc cc 1 (reserved) [op=2,cond=8,op3=0x3a,i=1,tcc=1,simm8=5]" },
	{ 0x93d03805, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "Tcc cc 3 (reserved) [op=2,cond=9,op3=0x3a,i=1,tcc=3,simm8=5]" },
	{ 0x85f00000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "DONE/RETRY fcn 2 (reserved) [op=2,rd=2,op3=0x3e]" },
	{ 0xbff00000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "DONE/RETRY fcn 31 (reserved) [op=2,rd=31,op3=0x3e]" },
	{ 0x8d880000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "SAVED group fcn 6 (reserved) [op=2,rd=6,op3=0x31]" },
	{ 0x83404000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "RD %asr1 (reserved) [op=2,rd=1,op3=0x28,rs1=1]" },
	{ 0x8341c000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "RD %asr7 (reserved) [op=2,rd=1,op3=0x28,rs1=7]" },
	{ 0x83438000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "RD %asr14 (reserved) [op=2,rd=1,op3=0x28,rs1=14]" },
	{ 0x8343c000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "RD %asr15 with rd != 0 (reserved) [op=2,rd=1,op3=0x28,rs1=15]" },
	{ 0x83804000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "WR %asr1 (reserved) [op=2,rd=1,op3=0x30,rs1=1]" },
	{ 0x89804000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "WR %asr4 (reserved: use WRPR %tick) [op=2,rd=4,op3=0x30,rs1=1]" },
	{ 0x8b804000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "WR %asr5 (PC is read-only) [op=2,rd=5,op3=0x30,rs1=1]" },
	{ 0x9d804000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "WR %asr14 (reserved) [op=2,rd=14,op3=0x30,rs1=1]" },
	{ 0x9f806000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "WR %asr15 with rs1 != 0 (not SIR) [op=2,rd=15,op3=0x30,rs1=1,i=1]" },
	{ 0x9f800000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "WR %asr15 with i = 0 (not SIR) [op=2,rd=15,op3=0x30,rs1=0,i=0]" },
	{ 0xc5084000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "LDFSR-family rd 2 (reserved) [op=3,rd=2,op3=0x21,rs1=1]" },
	{ 0xc7084000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "LDFSR-family rd 3 (LDXEFSR, OSA 2015: not T4) [op=3,rd=3,op3=0x21,rs1=1]" },
	{ 0xc7284000, X_OTH | X_ILLEGAL, 1, 0x00, 0, 0, "STFSR-family rd 3 (reserved) [op=3,rd=3,op3=0x25,rs1=1]" },
	{ 0x00c04010, X_BR | X_CTI_COND | X_ILLEGAL, 1, 0x00, 1, INT64_C(0x40), "BPr rcond 0 (reserved) [op=0,rcond=0,op2=3,rs1=1,d16lo=0x10]" },
	{ 0x08c04010, X_BR | X_CTI_COND | X_ILLEGAL, 1, 0x00, 1, INT64_C(0x40), "BPr rcond 4 (reserved) [op=0,rcond=4,op2=3,rs1=1,d16lo=0x10]" },
	{ 0x10500010, X_BR | X_CTI_ALWAYS | X_ILLEGAL, 1, 0x00, 1, INT64_C(0x40), "BPA with cc 1 (reserved) [op=0,cond=8,op2=1,bpcc=1,disp19=0x10]" },
	{ 0x12700010, X_BR | X_CTI_COND | X_ILLEGAL, 1, 0x00, 1, INT64_C(0x40), "BPNE with cc 3 (reserved) [op=0,cond=9,op2=1,bpcc=3,disp19=0x10]" },
	{ 0x10c04082, X_BR | X_CTI_COND | X_ILLEGAL, 1, 0x00, 1, INT64_C(0x10), "CBcond cond 0 (reserved) [op=0,chi=0,cond=0,bit28=1,op2=3,rs1=1,d10lo=4,rs2=2]" },
	{ 0x30c04082, X_BR | X_CTI_COND | X_ILLEGAL, 1, 0x00, 1, INT64_C(0x10), "CBcond cond 8 (reserved) [op=0,chi=1,cond=0,bit28=1,op2=3,rs1=1,d10lo=4,rs2=2]" },
	{ 0x11c00010, X_BR | X_CTI_ALWAYS | X_ILLEGAL, 1, 0x00, 1, INT64_C(0x40), "op2 7 CBA (V8 CBccc, reserved in V9) [op=0,cond=8,op2=7,disp22=0x10]" },
	{ 0x03fffff0, X_BR | X_CTI_COND | X_ILLEGAL, 1, 0x00, 1, -INT64_C(0x40), "op2 7 cond 1 (V8 CBccc, reserved in V9) [op=0,cond=1,op2=7,disp22=0x3ffff0]" },
	{ 0x01c00010, X_BR | X_ILLEGAL, 1, 0x00, 1, INT64_C(0x40), "op2 7 CBN (V8 CBccc, reserved in V9) [op=0,cond=0,op2=7,disp22=0x10]" },
};

/*
 * Every (instruction, ASI) pair that TABLE 10-2 footnotes 6, 7 and 8 list,
 * extracted from the spec text: op3 of the alternate form, ASI, sl=3 group.
 */
struct asi_pair {
	uint8_t op3;
	uint8_t asi;
	uint32_t group;
	const char *name;
};

static const struct asi_pair footnote_pairs[] = {
	/* footnote 6: 130 pairs */
	{ 0x13, 0x14, X_LD, "LDDA_0X14" },
	{ 0x13, 0x15, X_LD, "LDDA_0X15" },
	{ 0x13, 0x1c, X_LD, "LDDA_0X1C" },
	{ 0x13, 0x1d, X_LD, "LDDA_0X1D" },
	{ 0x13, 0x22, X_LD, "LDDA_0X22" },
	{ 0x13, 0x23, X_LD, "LDDA_0X23" },
	{ 0x13, 0x26, X_LD, "LDDA_0X26" },
	{ 0x13, 0x27, X_LD, "LDDA_0X27" },
	{ 0x13, 0x2a, X_LD, "LDDA_0X2A" },
	{ 0x13, 0x2b, X_LD, "LDDA_0X2B" },
	{ 0x13, 0x2e, X_LD, "LDDA_0X2E" },
	{ 0x13, 0x2f, X_LD, "LDDA_0X2F" },
	{ 0x13, 0x80, X_LD, "LDDA_0X80" },
	{ 0x13, 0x82, X_LD, "LDDA_0X82" },
	{ 0x13, 0x88, X_LD, "LDDA_0X88" },
	{ 0x13, 0x8b, X_LD, "LDDA_0X8B" },
	{ 0x13, 0xe2, X_LD, "LDDA_0XE2" },
	{ 0x13, 0xe3, X_LD, "LDDA_0XE3" },
	{ 0x13, 0xea, X_LD, "LDDA_0XEA" },
	{ 0x13, 0xeb, X_LD, "LDDA_0XEB" },
	{ 0x33, 0x16, X_LD, "LDDFA_0X16" },
	{ 0x33, 0x1e, X_LD, "LDDFA_0X1E" },
	{ 0x33, 0x04, X_LD, "LDDFA_0X4" },
	{ 0x33, 0x80, X_LD, "LDDFA_0X80" },
	{ 0x33, 0x88, X_LD, "LDDFA_0X88" },
	{ 0x33, 0x89, X_LD, "LDDFA_0X89" },
	{ 0x33, 0x8a, X_LD, "LDDFA_0X8A" },
	{ 0x33, 0x0c, X_LD, "LDDFA_0XC" },
	{ 0x33, 0xd0, X_LD, "LDDFA_0XD0" },
	{ 0x33, 0xda, X_LD, "LDDFA_0XDA" },
	{ 0x33, 0xf0, X_LD, "LDDFA_0XF0" },
	{ 0x33, 0xf8, X_LD, "LDDFA_0XF8" },
	{ 0x30, 0x15, X_LD, "LDFA_0X15" },
	{ 0x30, 0x1d, X_LD, "LDFA_0X1D" },
	{ 0x30, 0x04, X_LD, "LDFA_0X4" },
	{ 0x30, 0x80, X_LD, "LDFA_0X80" },
	{ 0x30, 0x81, X_LD, "LDFA_0X81" },
	{ 0x30, 0x82, X_LD, "LDFA_0X82" },
	{ 0x30, 0x83, X_LD, "LDFA_0X83" },
	{ 0x30, 0x88, X_LD, "LDFA_0X88" },
	{ 0x30, 0x89, X_LD, "LDFA_0X89" },
	{ 0x30, 0x8b, X_LD, "LDFA_0X8B" },
	{ 0x30, 0x0c, X_LD, "LDFA_0XC" },
	{ 0x19, 0x14, X_LD, "LDSBA_0X14" },
	{ 0x19, 0x15, X_LD, "LDSBA_0X15" },
	{ 0x19, 0x1c, X_LD, "LDSBA_0X1C" },
	{ 0x19, 0x1d, X_LD, "LDSBA_0X1D" },
	{ 0x19, 0x31, X_LD, "LDSBA_0X31" },
	{ 0x19, 0x04, X_LD, "LDSBA_0X4" },
	{ 0x19, 0x80, X_LD, "LDSBA_0X80" },
	{ 0x19, 0x81, X_LD, "LDSBA_0X81" },
	{ 0x19, 0x88, X_LD, "LDSBA_0X88" },
	{ 0x19, 0x8b, X_LD, "LDSBA_0X8B" },
	{ 0x19, 0x0c, X_LD, "LDSBA_0XC" },
	{ 0x1a, 0x14, X_LD, "LDSHA_0X14" },
	{ 0x1a, 0x1c, X_LD, "LDSHA_0X1C" },
	{ 0x1a, 0x1d, X_LD, "LDSHA_0X1D" },
	{ 0x1a, 0x36, X_LD, "LDSHA_0X36" },
	{ 0x1a, 0x38, X_LD, "LDSHA_0X38" },
	{ 0x1a, 0x39, X_LD, "LDSHA_0X39" },
	{ 0x1a, 0x3e, X_LD, "LDSHA_0X3E" },
	{ 0x1a, 0x80, X_LD, "LDSHA_0X80" },
	{ 0x1a, 0x82, X_LD, "LDSHA_0X82" },
	{ 0x1a, 0x83, X_LD, "LDSHA_0X83" },
	{ 0x1a, 0x88, X_LD, "LDSHA_0X88" },
	{ 0x1a, 0x8a, X_LD, "LDSHA_0X8A" },
	{ 0x1a, 0x8b, X_LD, "LDSHA_0X8B" },
	{ 0x18, 0x14, X_LD, "LDSWA_0X14" },
	{ 0x18, 0x15, X_LD, "LDSWA_0X15" },
	{ 0x18, 0x1c, X_LD, "LDSWA_0X1C" },
	{ 0x18, 0x1d, X_LD, "LDSWA_0X1D" },
	{ 0x18, 0x36, X_LD, "LDSWA_0X36" },
	{ 0x18, 0x80, X_LD, "LDSWA_0X80" },
	{ 0x18, 0x83, X_LD, "LDSWA_0X83" },
	{ 0x18, 0x88, X_LD, "LDSWA_0X88" },
	{ 0x18, 0x89, X_LD, "LDSWA_0X89" },
	{ 0x18, 0x8b, X_LD, "LDSWA_0X8B" },
	{ 0x11, 0x14, X_LD, "LDUBA_0X14" },
	{ 0x11, 0x15, X_LD, "LDUBA_0X15" },
	{ 0x11, 0x1c, X_LD, "LDUBA_0X1C" },
	{ 0x11, 0x1d, X_LD, "LDUBA_0X1D" },
	{ 0x11, 0x30, X_LD, "LDUBA_0X30" },
	{ 0x11, 0x38, X_LD, "LDUBA_0X38" },
	{ 0x11, 0x04, X_LD, "LDUBA_0X4" },
	{ 0x11, 0x80, X_LD, "LDUBA_0X80" },
	{ 0x11, 0x88, X_LD, "LDUBA_0X88" },
	{ 0x11, 0x8b, X_LD, "LDUBA_0X8B" },
	{ 0x12, 0x14, X_LD, "LDUHA_0X14" },
	{ 0x12, 0x15, X_LD, "LDUHA_0X15" },
	{ 0x12, 0x1c, X_LD, "LDUHA_0X1C" },
	{ 0x12, 0x1d, X_LD, "LDUHA_0X1D" },
	{ 0x12, 0x39, X_LD, "LDUHA_0X39" },
	{ 0x12, 0x3e, X_LD, "LDUHA_0X3E" },
	{ 0x12, 0x04, X_LD, "LDUHA_0X4" },
	{ 0x12, 0x80, X_LD, "LDUHA_0X80" },
	{ 0x12, 0x83, X_LD, "LDUHA_0X83" },
	{ 0x12, 0x88, X_LD, "LDUHA_0X88" },
	{ 0x12, 0x0c, X_LD, "LDUHA_0XC" },
	{ 0x10, 0x14, X_LD, "LDUWA_0X14" },
	{ 0x10, 0x15, X_LD, "LDUWA_0X15" },
	{ 0x10, 0x1c, X_LD, "LDUWA_0X1C" },
	{ 0x10, 0x1d, X_LD, "LDUWA_0X1D" },
	{ 0x10, 0x31, X_LD, "LDUWA_0X31" },
	{ 0x10, 0x39, X_LD, "LDUWA_0X39" },
	{ 0x10, 0x3e, X_LD, "LDUWA_0X3E" },
	{ 0x10, 0x04, X_LD, "LDUWA_0X4" },
	{ 0x10, 0x80, X_LD, "LDUWA_0X80" },
	{ 0x10, 0x81, X_LD, "LDUWA_0X81" },
	{ 0x10, 0x82, X_LD, "LDUWA_0X82" },
	{ 0x10, 0x83, X_LD, "LDUWA_0X83" },
	{ 0x10, 0x88, X_LD, "LDUWA_0X88" },
	{ 0x10, 0x89, X_LD, "LDUWA_0X89" },
	{ 0x10, 0x8a, X_LD, "LDUWA_0X8A" },
	{ 0x10, 0x8b, X_LD, "LDUWA_0X8B" },
	{ 0x10, 0x0c, X_LD, "LDUWA_0XC" },
	{ 0x1b, 0x14, X_LD, "LDXA_0X14" },
	{ 0x1b, 0x15, X_LD, "LDXA_0X15" },
	{ 0x1b, 0x1c, X_LD, "LDXA_0X1C" },
	{ 0x1b, 0x1d, X_LD, "LDXA_0X1D" },
	{ 0x1b, 0x04, X_LD, "LDXA_0X4" },
	{ 0x1b, 0x41, X_LD, "LDXA_0X41" },
	{ 0x1b, 0x63, X_LD, "LDXA_0X63" },
	{ 0x1b, 0x80, X_LD, "LDXA_0X80" },
	{ 0x1b, 0x81, X_LD, "LDXA_0X81" },
	{ 0x1b, 0x82, X_LD, "LDXA_0X82" },
	{ 0x1b, 0x83, X_LD, "LDXA_0X83" },
	{ 0x1b, 0x88, X_LD, "LDXA_0X88" },
	{ 0x1b, 0x89, X_LD, "LDXA_0X89" },
	{ 0x1b, 0x8b, X_LD, "LDXA_0X8B" },
	{ 0x1b, 0x0c, X_LD, "LDXA_0XC" },
	/* footnote 7: 101 pairs */
	{ 0x15, 0x14, X_ST, "STBA_0X14" },
	{ 0x15, 0x15, X_ST, "STBA_0X15" },
	{ 0x15, 0x1c, X_ST, "STBA_0X1C" },
	{ 0x15, 0x1d, X_ST, "STBA_0X1D" },
	{ 0x15, 0x30, X_ST, "STBA_0X30" },
	{ 0x15, 0x31, X_ST, "STBA_0X31" },
	{ 0x15, 0x36, X_ST, "STBA_0X36" },
	{ 0x15, 0x38, X_ST, "STBA_0X38" },
	{ 0x15, 0x39, X_ST, "STBA_0X39" },
	{ 0x15, 0x3e, X_ST, "STBA_0X3E" },
	{ 0x15, 0x04, X_ST, "STBA_0X4" },
	{ 0x15, 0x80, X_ST, "STBA_0X80" },
	{ 0x15, 0x81, X_ST, "STBA_0X81" },
	{ 0x15, 0x88, X_ST, "STBA_0X88" },
	{ 0x15, 0x89, X_ST, "STBA_0X89" },
	{ 0x15, 0x0c, X_ST, "STBA_0XC" },
	{ 0x17, 0x14, X_ST, "STDA_0X14" },
	{ 0x17, 0x15, X_ST, "STDA_0X15" },
	{ 0x17, 0x1c, X_ST, "STDA_0X1C" },
	{ 0x17, 0x1d, X_ST, "STDA_0X1D" },
	{ 0x17, 0x27, X_ST, "STDA_0X27" },
	{ 0x17, 0x2f, X_ST, "STDA_0X2F" },
	{ 0x17, 0x04, X_ST, "STDA_0X4" },
	{ 0x17, 0x80, X_ST, "STDA_0X80" },
	{ 0x17, 0x88, X_ST, "STDA_0X88" },
	{ 0x17, 0xea, X_ST, "STDA_0XEA" },
	{ 0x17, 0xeb, X_ST, "STDA_0XEB" },
	{ 0x37, 0x17, X_ST, "STDFA_0X17" },
	{ 0x37, 0x04, X_ST, "STDFA_0X4" },
	{ 0x37, 0x80, X_ST, "STDFA_0X80" },
	{ 0x37, 0x88, X_ST, "STDFA_0X88" },
	{ 0x37, 0x89, X_ST, "STDFA_0X89" },
	{ 0x37, 0xc0, X_ST, "STDFA_0XC0" },
	{ 0x37, 0xc2, X_ST, "STDFA_0XC2" },
	{ 0x37, 0xc4, X_ST, "STDFA_0XC4" },
	{ 0x37, 0xc8, X_ST, "STDFA_0XC8" },
	{ 0x37, 0xca, X_ST, "STDFA_0XCA" },
	{ 0x37, 0xcb, X_ST, "STDFA_0XCB" },
	{ 0x37, 0xcc, X_ST, "STDFA_0XCC" },
	{ 0x37, 0xd1, X_ST, "STDFA_0XD1" },
	{ 0x37, 0xd3, X_ST, "STDFA_0XD3" },
	{ 0x37, 0xd9, X_ST, "STDFA_0XD9" },
	{ 0x37, 0xe0, X_ST, "STDFA_0XE0" },
	{ 0x37, 0xf0, X_ST, "STDFA_0XF0" },
	{ 0x37, 0xf8, X_ST, "STDFA_0XF8" },
	{ 0x37, 0xf9, X_ST, "STDFA_0XF9" },
	{ 0x34, 0x14, X_ST, "STFA_0X14" },
	{ 0x34, 0x15, X_ST, "STFA_0X15" },
	{ 0x34, 0x1c, X_ST, "STFA_0X1C" },
	{ 0x34, 0x04, X_ST, "STFA_0X4" },
	{ 0x34, 0x80, X_ST, "STFA_0X80" },
	{ 0x34, 0x81, X_ST, "STFA_0X81" },
	{ 0x34, 0x88, X_ST, "STFA_0X88" },
	{ 0x34, 0x89, X_ST, "STFA_0X89" },
	{ 0x34, 0x0c, X_ST, "STFA_0XC" },
	{ 0x16, 0x14, X_ST, "STHA_0X14" },
	{ 0x16, 0x15, X_ST, "STHA_0X15" },
	{ 0x16, 0x1c, X_ST, "STHA_0X1C" },
	{ 0x16, 0x1d, X_ST, "STHA_0X1D" },
	{ 0x16, 0x30, X_ST, "STHA_0X30" },
	{ 0x16, 0x31, X_ST, "STHA_0X31" },
	{ 0x16, 0x04, X_ST, "STHA_0X4" },
	{ 0x16, 0x80, X_ST, "STHA_0X80" },
	{ 0x16, 0x88, X_ST, "STHA_0X88" },
	{ 0x16, 0x0c, X_ST, "STHA_0XC" },
	{ 0x14, 0x14, X_ST, "STWA_0X14" },
	{ 0x14, 0x15, X_ST, "STWA_0X15" },
	{ 0x14, 0x1c, X_ST, "STWA_0X1C" },
	{ 0x14, 0x1d, X_ST, "STWA_0X1D" },
	{ 0x14, 0x38, X_ST, "STWA_0X38" },
	{ 0x14, 0x04, X_ST, "STWA_0X4" },
	{ 0x14, 0x80, X_ST, "STWA_0X80" },
	{ 0x14, 0x81, X_ST, "STWA_0X81" },
	{ 0x14, 0x88, X_ST, "STWA_0X88" },
	{ 0x14, 0x0c, X_ST, "STWA_0XC" },
	{ 0x1e, 0x14, X_ST, "STXA_0X14" },
	{ 0x1e, 0x15, X_ST, "STXA_0X15" },
	{ 0x1e, 0x1c, X_ST, "STXA_0X1C" },
	{ 0x1e, 0x1d, X_ST, "STXA_0X1D" },
	{ 0x1e, 0x22, X_ST, "STXA_0X22" },
	{ 0x1e, 0x23, X_ST, "STXA_0X23" },
	{ 0x1e, 0x26, X_ST, "STXA_0X26" },
	{ 0x1e, 0x27, X_ST, "STXA_0X27" },
	{ 0x1e, 0x2a, X_ST, "STXA_0X2A" },
	{ 0x1e, 0x2b, X_ST, "STXA_0X2B" },
	{ 0x1e, 0x2e, X_ST, "STXA_0X2E" },
	{ 0x1e, 0x2f, X_ST, "STXA_0X2F" },
	{ 0x1e, 0x41, X_ST, "STXA_0X41" },
	{ 0x1e, 0x73, X_ST, "STXA_0X73" },
	{ 0x1e, 0x80, X_ST, "STXA_0X80" },
	{ 0x1e, 0x81, X_ST, "STXA_0X81" },
	{ 0x1e, 0x88, X_ST, "STXA_0X88" },
	{ 0x1e, 0x0c, X_ST, "STXA_0XC" },
	{ 0x1e, 0xe2, X_ST, "STXA_0XE2" },
	{ 0x1e, 0xe3, X_ST, "STXA_0XE3" },
	{ 0x1e, 0xea, X_ST, "STXA_0XEA" },
	{ 0x1e, 0xeb, X_ST, "STXA_0XEB" },
	{ 0x1e, 0xf2, X_ST, "STXA_0XF2" },
	{ 0x1e, 0xf3, X_ST, "STXA_0XF3" },
	{ 0x1e, 0xfa, X_ST, "STXA_0XFA" },
	{ 0x1e, 0xfb, X_ST, "STXA_0XFB" },
	/* footnote 8: 33 pairs */
	{ 0x1b, 0x20, X_SPR, "LDXA_0X20" },
	{ 0x1b, 0x21, X_SPR, "LDXA_0X21" },
	{ 0x1b, 0x25, X_SPR, "LDXA_0X25" },
	{ 0x1b, 0x45, X_SPR, "LDXA_0X45" },
	{ 0x1b, 0x48, X_SPR, "LDXA_0X48" },
	{ 0x1b, 0x49, X_SPR, "LDXA_0X49" },
	{ 0x1b, 0x4c, X_SPR, "LDXA_0X4C" },
	{ 0x1b, 0x4e, X_SPR, "LDXA_0X4E" },
	{ 0x1b, 0x4f, X_SPR, "LDXA_0X4F" },
	{ 0x1b, 0x52, X_SPR, "LDXA_0X52" },
	{ 0x1b, 0x54, X_SPR, "LDXA_0X54" },
	{ 0x1b, 0x58, X_SPR, "LDXA_0X58" },
	{ 0x1b, 0x64, X_SPR, "LDXA_0X64" },
	{ 0x1b, 0x74, X_SPR, "LDXA_0X74" },
	{ 0x1b, 0xb0, X_SPR, "LDXA_0XB0" },
	{ 0x1e, 0x20, X_SPR, "STXA_0X20" },
	{ 0x1e, 0x21, X_SPR, "STXA_0X21" },
	{ 0x1e, 0x25, X_SPR, "STXA_0X25" },
	{ 0x1e, 0x42, X_SPR, "STXA_0X42" },
	{ 0x1e, 0x45, X_SPR, "STXA_0X45" },
	{ 0x1e, 0x4c, X_SPR, "STXA_0X4C" },
	{ 0x1e, 0x4e, X_SPR, "STXA_0X4E" },
	{ 0x1e, 0x4f, X_SPR, "STXA_0X4F" },
	{ 0x1e, 0x50, X_SPR, "STXA_0X50" },
	{ 0x1e, 0x52, X_SPR, "STXA_0X52" },
	{ 0x1e, 0x54, X_SPR, "STXA_0X54" },
	{ 0x1e, 0x57, X_SPR, "STXA_0X57" },
	{ 0x1e, 0x58, X_SPR, "STXA_0X58" },
	{ 0x1e, 0x5c, X_SPR, "STXA_0X5C" },
	{ 0x1e, 0x5f, X_SPR, "STXA_0X5F" },
	{ 0x1e, 0x64, X_SPR, "STXA_0X64" },
	{ 0x1e, 0x72, X_SPR, "STXA_0X72" },
	{ 0x1e, 0xb0, X_SPR, "STXA_0XB0" },
};

/* Fail with the offending word shown (the sweeps below decode millions of words). */
#define EXPECT(cond, w) \
	do { \
		if (!(cond)) { \
			print_error("word %08x: expected %s\n", (unsigned)(w), #cond); \
			fail(); \
		} \
	} while (0)

/* Decode `w` at `pc` into a struct pre-filled with garbage; check the result
 * mirrors the struct and the invariants every decode must satisfy. */
static uint32_t decode_checked(uint32_t w, uint64_t pc, struct hvpmu_sparc_insn *d)
{
	uint32_t flags, sl3;

	memset(d, 0xa5, sizeof(*d));
	flags = hvpmu_sparc_decode(w, pc, d);
	EXPECT(flags == d->flags, w);
	EXPECT((flags & ~ALL_FLAGS) == 0, w);

	/* sl=3: the six groups partition the instruction set. */
	sl3 = flags & HVPMU_IC_GROUPS;
	EXPECT(sl3 != 0 && (sl3 & (sl3 - 1)) == 0, w);

	/* footnote 12: 1, 2 (twin) or 8 (block) micro-ops; 8 exactly for block ld/st. */
	EXPECT(d->uops == 1 || d->uops == 2 || d->uops == 8, w);
	EXPECT((d->uops == 8) == ((flags & X_BLOCK) != 0), w);
	EXPECT(!(flags & X_BLOCK) || (flags & (X_LD | X_ST)), w);
	EXPECT(d->uops != 2 || (flags & HVPMU_IC_GROUPS) == X_LD, w);

	/* CTI properties only on branches, never both. */
	EXPECT(!((flags & X_CTI_COND) && (flags & X_CTI_ALWAYS)), w);
	EXPECT(!(flags & (X_CTI_COND | X_CTI_ALWAYS)) || (flags & X_BR), w);
	EXPECT(d->has_target == 0 || d->has_target == 1, w);
	EXPECT(!d->has_target || (flags & X_BR), w);
	EXPECT(d->has_target || d->target == 0, w);

	/* sl=4 atomics / prefetch / software count and Tcc are "other" instructions. */
	EXPECT(!(flags & (X_ATOMIC | X_PREFETCH | X_SWCOUNT | X_SYSCALL)) ||
	       (flags & HVPMU_IC_GROUPS) == X_OTH, w);
	/* Undefined encodings are OTHER, except malformed branches (docs). */
	EXPECT(!(flags & X_ILLEGAL) || (flags & (X_OTH | X_BR)), w);
	/* An ASI from %asi is not known at decode time. */
	EXPECT(!(flags & X_ASI_REG) || d->asi == 0, w);
	EXPECT(!((flags & (X_ASI_REG | X_BLOCK)) || d->asi != 0) || (w >> 30) == OP_MEM, w);
	return flags;
}

static void check_vectors(const struct vec *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct hvpmu_sparc_insn d;
		uint32_t flags = decode_checked(v[k].word, TEST_PC, &d);
		uint64_t want_target = v[k].has_target ? TEST_PC + (uint64_t)v[k].delta : 0;

		if (flags != v[k].flags || d.uops != v[k].uops || d.asi != v[k].asi ||
		    d.has_target != v[k].has_target || d.target != want_target)
			print_error("%08x  %s: flags %#x uops %u asi %#x target %d/%#llx\n",
				    v[k].word, v[k].text, flags, d.uops, d.asi, d.has_target,
				    (unsigned long long)d.target);
		assert_int_equal(flags, v[k].flags);
		assert_int_equal(d.uops, v[k].uops);
		assert_int_equal(d.asi, v[k].asi);
		assert_int_equal(d.has_target, v[k].has_target);
		assert_int_equal(d.target, want_target);
	}
}

#define CHECK_VECTORS(tab) check_vectors((tab), sizeof(tab) / sizeof((tab)[0]))

static void test_footnote6_loads(void **state)
{
	(void)state;
	CHECK_VECTORS(vec_fn6_loads);
}

static void test_footnote7_stores(void **state)
{
	(void)state;
	CHECK_VECTORS(vec_fn7_stores);
}

static void test_footnote8_spr(void **state)
{
	(void)state;
	CHECK_VECTORS(vec_fn8_spr);
}

static void test_footnote9_other(void **state)
{
	(void)state;
	CHECK_VECTORS(vec_fn9_other);
}

static void test_footnote5_fgu(void **state)
{
	(void)state;
	CHECK_VECTORS(vec_fn5_fgu);
}

static void test_branches(void **state)
{
	(void)state;
	CHECK_VECTORS(vec_branches);
}

static void test_asi_classification(void **state)
{
	(void)state;
	CHECK_VECTORS(vec_asi);
}

static void test_undefined(void **state)
{
	(void)state;
	CHECK_VECTORS(vec_undefined);
}

/* hvpmu_sparc_restarts(): the window instructions and Tcc may run again
 * from their own address after the OS handles their trap; nothing else
 * does (a fault goes to a signal handler).  Words from the vectors above. */
static void test_restarts(void **state)
{
	static const uint32_t yes[] = {
		0x9de3bf40, /* save %sp, -192, %sp */
		0x81e80000, /* restore */
		0x81cfe008, /* return %i7+8 */
		0x81580000, /* flushw */
		0x91d0206d, /* ta 0x6d */
		0x91d03010, /* ta %xcc, 0x10 */
	};
	static const uint32_t no[] = {
		0x81880000, /* saved (privileged: illegal in user mode) */
		0x83880000, /* restored */
		0x81c7e008, /* ret (jmpl) */
		0x9fc06008, /* jmpl %g1+8, %o7 */
		0x01000000, /* nop */
		0x40000010, /* call */
		0xc2002000, /* ld [%g0+0], %g1 */
		0xc2202000, /* st %g1, [%g0+0] */
	};

	(void)state;
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		assert_int_equal(hvpmu_sparc_restarts(yes[i]), 1);
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		assert_int_equal(hvpmu_sparc_restarts(no[i]), 0);
}

static uint32_t alt_word(uint32_t op3, uint32_t asi)
{
	/* even rd so LDDA/LDDFA forms are well formed; rs1 = %g1, i = 0 */
	return W_OP(OP_MEM) | W_RD(2) | W_OP3(op3) | W_RS1(1) | W_I(0) | W_ASI(asi);
}

/* Every (form, ASI) pair listed in footnotes 6, 7, 8 lands in that group. */
static void test_footnote_asi_pairs(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(footnote_pairs) / sizeof(footnote_pairs[0]); k++) {
		const struct asi_pair *p = &footnote_pairs[k];
		struct hvpmu_sparc_insn d;
		uint32_t flags = decode_checked(alt_word(p->op3, p->asi), TEST_PC, &d);

		if ((flags & HVPMU_IC_GROUPS) != p->group)
			print_error("%s: flags %#x\n", p->name, flags);
		assert_int_equal(flags & HVPMU_IC_GROUPS, p->group);
		assert_int_equal(d.asi, p->asi);
		assert_false(flags & X_ASI_REG);
		/* footnote-8 ASIs are non-translating: next-to-commit */
		if (p->group == X_SPR)
			assert_true(flags & X_NTC);
	}
}

static int listed(const uint8_t *set, size_t n, unsigned asi)
{
	for (size_t k = 0; k < n; k++)
		if (set[k] == asi)
			return 1;
	return 0;
}

/* All 256 ASIs for the forms with ASI-dependent behaviour. */
static void test_asi_sweep(void **state)
{
	static const uint8_t fn8_ldxa[] = { 0x20, 0x21, 0x25, 0x45, 0x48, 0x49, 0x4C, 0x4E,
					    0x4F, 0x52, 0x54, 0x58, 0x64, 0x74, 0xB0 };
	static const uint8_t fn8_stxa[] = { 0x20, 0x21, 0x25, 0x42, 0x45, 0x4C, 0x4E, 0x4F, 0x50,
					    0x52, 0x54, 0x57, 0x58, 0x5C, 0x5F, 0x64, 0x72, 0xB0 };
	static const uint8_t block_lddfa[] = { 0x16, 0x1E, 0xF0, 0xF8 };
	static const uint8_t block_stdfa[] = { 0x17, 0xE0, 0xF0, 0xF8, 0xF9 };
	static const uint8_t twin[] = { 0x22, 0x23, 0x26, 0x27, 0x2A, 0x2B, 0x2E, 0x2F,
					0xE2, 0xE3, 0xEA, 0xEB };
	(void)state;

	for (unsigned asi = 0; asi < N_ASI; asi++) {
		struct hvpmu_sparc_insn d;
		uint32_t f;

		f = decode_checked(alt_word(OP3_LDXA, asi), TEST_PC, &d);
		assert_int_equal(f & HVPMU_IC_GROUPS,
				 listed(fn8_ldxa, sizeof(fn8_ldxa), asi) ? X_SPR : X_LD);
		f = decode_checked(alt_word(OP3_STXA, asi), TEST_PC, &d);
		assert_int_equal(f & HVPMU_IC_GROUPS,
				 listed(fn8_stxa, sizeof(fn8_stxa), asi) ? X_SPR : X_ST);

		f = decode_checked(alt_word(OP3_LDDFA, asi), TEST_PC, &d);
		assert_int_equal(f & HVPMU_IC_GROUPS, X_LD);
		assert_int_equal((f & X_BLOCK) != 0, listed(block_lddfa, sizeof(block_lddfa), asi));
		assert_int_equal(d.uops, listed(block_lddfa, sizeof(block_lddfa), asi) ? 8 : 1);
		f = decode_checked(alt_word(OP3_STDFA, asi), TEST_PC, &d);
		assert_int_equal(f & HVPMU_IC_GROUPS, X_ST);
		assert_int_equal((f & X_BLOCK) != 0, listed(block_stdfa, sizeof(block_stdfa), asi));
		assert_int_equal(d.uops, listed(block_stdfa, sizeof(block_stdfa), asi) ? 8 : 1);

		f = decode_checked(alt_word(OP3_LDDA, asi), TEST_PC, &d);
		assert_int_equal(f & HVPMU_IC_GROUPS, X_LD);
		assert_int_equal(d.uops, listed(twin, sizeof(twin), asi) ? 2 : 1);

		/* Only LDXA / STXA have SPR pairs; only LDDFA / STDFA are block. */
		for (unsigned op3 = OP3_ALT_FIRST; op3 < OP3_ALT_END; op3++) {
			if (op3 == OP3_LDXA || op3 == OP3_STXA)
				continue;
			f = decode_checked(alt_word(op3, asi), TEST_PC, &d);
			assert_false(f & X_SPR);
			if (op3 != OP3_LDDFA && op3 != OP3_STDFA)
				assert_false(f & X_BLOCK);
		}
	}
}

/* TABLE 10-1 footnote 1 by ASI: footnote-8 ASIs, internal registers, I/O. */
static void test_ntc_by_asi(void **state)
{
	static const uint8_t ntc[] = { 0x15, 0x1D, 0x20, 0x21, 0x25, 0x40, 0x41, 0x4F, 0x63,
				       0x73, 0x7F, 0xB0 };
	static const uint8_t translating[] = { 0x04, 0x0C, 0x10, 0x11, 0x14, 0x16, 0x1C, 0x22,
					       0x30, 0x36, 0x3F, 0x80, 0x81, 0x88, 0xB1, 0xE2,
					       0xF0, 0xFF };
	(void)state;

	for (size_t k = 0; k < sizeof(ntc); k++) {
		struct hvpmu_sparc_insn d;

		assert_true(decode_checked(alt_word(OP3_LDUWA, ntc[k]), TEST_PC, &d) & X_NTC);
		assert_true(decode_checked(alt_word(OP3_STXA, ntc[k]), TEST_PC, &d) & X_NTC);
		assert_true(decode_checked(alt_word(OP3_LDFA, ntc[k]), TEST_PC, &d) & X_NTC);
	}
	for (size_t k = 0; k < sizeof(translating); k++) {
		struct hvpmu_sparc_insn d;

		assert_false(decode_checked(alt_word(OP3_LDUWA, translating[k]), TEST_PC, &d) & X_NTC);
		assert_false(decode_checked(alt_word(OP3_STXA, translating[k]), TEST_PC, &d) & X_NTC);
	}
	/* With i = 1 the ASI is unknown: no NTC from the ASI, ASI_REG instead. */
	{
		struct hvpmu_sparc_insn d;
		uint32_t f = decode_checked(alt_word(OP3_LDXA, 0) | W_I(1), TEST_PC, &d);

		assert_int_equal(f, X_LD | X_ASI_REG);
		f = decode_checked(alt_word(OP3_STXA, 0) | W_I(1), TEST_PC, &d);
		assert_int_equal(f, X_ST | X_ASI_REG);
	}
}

/* PC-relative targets from every format, decoded at pcs that wrap 2^64. */
static void test_targets_wrap(void **state)
{
	static const uint64_t pcs[] = { 0, 4, UINT64_C(0x7ffffffffffffffc), UINT64_C(0x8000000000000000),
					UINT64_C(0xfffffffffffffffc), UINT64_C(0xffffffff80000000) };
	(void)state;

	for (size_t p = 0; p < sizeof(pcs) / sizeof(pcs[0]); p++) {
		for (size_t k = 0; k < sizeof(vec_branches) / sizeof(vec_branches[0]); k++) {
			const struct vec *v = &vec_branches[k];
			struct hvpmu_sparc_insn d;

			decode_checked(v->word, pcs[p], &d);
			assert_int_equal(d.has_target, v->has_target);
			if (v->has_target)
				assert_int_equal(d.target, pcs[p] + (uint64_t)v->delta);
		}
	}
}

/*
 * Sign extension at the edges of every displacement width, built from
 * fields: disp30 (CALL), disp22 (Bicc), disp19 (BPcc), disp16 (BPr),
 * disp10 (CBcond).  Each entry: word with displacement 0, a function that
 * places a displacement, its width.
 */
static uint32_t place_disp30(uint32_t v) { return v; }
static uint32_t place_disp22(uint32_t v) { return v; }
static uint32_t place_disp19(uint32_t v) { return v; }
static uint32_t place_disp16(uint32_t v)
{
	return ((v >> D16LO_BITS) << D16HI_SHIFT) | (v & ((1u << D16LO_BITS) - 1u));
}

static uint32_t place_disp10(uint32_t v)
{
	return ((v >> D10LO_BITS) << D10HI_SHIFT) | ((v & ((1u << D10LO_BITS) - 1u)) << D10LO_SHIFT);
}

static void test_displacement_widths(void **state)
{
	static const struct {
		uint32_t base;
		uint32_t (*place)(uint32_t);
		unsigned bits;
		const char *name;
	} forms[] = {
		{ W_OP(OP_CALL), place_disp30, 30, "call disp30" },
		{ W_OP(OP_FMT2) | W_RD(0x9) | W_OP2(2), place_disp22, 22, "bne disp22" },
		{ W_OP(OP_FMT2) | W_RD(0x9) | W_OP2(1), place_disp19, 19, "bpne disp19" },
		{ W_OP(OP_FMT2) | W_RD(0x1) | W_OP2(3) | W_RS1(1), place_disp16, 16, "brz disp16" },
		{ W_OP(OP_FMT2) | (1u << CBCOND_BIT) | W_RD(0x9) | W_OP2(3) | W_RS1(1) | 2u, place_disp10, 10,
		  "cwbne disp10" },
	};
	(void)state;

	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		unsigned b = forms[f].bits;
		uint32_t field_mask = (uint32_t)((UINT64_C(1) << b) - 1);
		const int64_t cases[] = { 0, 1, -1, 2, -2, (INT64_C(1) << (b - 1)) - 1, -(INT64_C(1) << (b - 1)),
					  (INT64_C(1) << (b - 2)), -(INT64_C(1) << (b - 2)) - 1 };

		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			uint32_t w = forms[f].base | forms[f].place((uint32_t)cases[c] & field_mask);
			struct hvpmu_sparc_insn d;

			decode_checked(w, TEST_PC, &d);
			if (d.target != TEST_PC + (uint64_t)(cases[c] * 4))
				print_error("%s %lld\n", forms[f].name, (long long)cases[c]);
			assert_int_equal(d.has_target, 1);
			assert_int_equal(d.target, TEST_PC + (uint64_t)(cases[c] * 4));
		}
	}
}

/* Deterministic generator for the partition sample (xorshift32). */
static uint32_t next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static int is_branch_encoding(uint32_t w)
{
	uint32_t op = w >> 30, op2 = (w >> 22) & 7u, op3 = (w >> 19) & 0x3fu;

	if (op == OP_CALL)
		return 1;
	if (op == OP_FMT2)
		return op2 != OP2_ILLTRAP && op2 != OP2_SETHI;
	if (op == OP_ARITH)
		return op3 == OP3_JMPL || op3 == OP3_RETURN;
	return 0;
}

/*
 * TABLE 10-2 sl=3 "3F counts all instructions": exactly one group bit for
 * every word of a large sample (every op/op3 and op/op2 combination with
 * random remaining fields), for every opf / op5 of the FP opcode spaces, and
 * for every ASI of every memory opcode with i = 0 and i = 1.  The branch
 * group is checked against an independent reading of the branch encodings.
 */
static void test_partition(void **state)
{
	enum { SAMPLES = 4096 };
	uint32_t seed = 0x2545f491u;
	struct hvpmu_sparc_insn d;
	(void)state;

	for (uint32_t op = 0; op < 4; op++) {
		for (uint32_t op3 = 0; op3 < N_OP3; op3++) {
			for (unsigned k = 0; k < SAMPLES; k++) {
				uint32_t w = (next_random(&seed) & ~(W_OP(3) | W_OP3(0x3f))) | W_OP(op) | W_OP3(op3);
				uint32_t f = decode_checked(w, next_random(&seed), &d);

				assert_int_equal((f & X_BR) != 0, is_branch_encoding(w));
			}
		}
	}
	for (uint32_t op3 = OP3_FPOP1; op3 <= OP3_IMPDEP1; op3++) {
		for (uint32_t opf = 0; opf < N_OPF; opf++) {
			uint32_t w = W_OP(OP_ARITH) | W_RD(2) | W_OP3(op3) | W_RS1(4) | W_OPF(opf) | 6u;
			uint32_t f = decode_checked(w, TEST_PC, &d);

			assert_true(f & (X_FGU | X_OTH));
			assert_false(f & (X_SPR | X_LD | X_ST | X_BR));
		}
	}
	for (uint32_t op5 = 0; op5 < N_OP5; op5++) {
		uint32_t f1 = decode_checked(W_OP(OP_ARITH) | W_RD(2) | W_OP3(OP3_IMPDEP2) | W_OPF(op5), TEST_PC, &d);
		uint32_t f2 = decode_checked(W_OP(OP_ARITH) | W_RD(2) | W_OP3(OP3_CRYPTO4) | W_OPF(op5), TEST_PC, &d);

		assert_true(f1 & (X_FGU | X_OTH));
		assert_true(f2 & (X_FGU | X_OTH));
	}
	for (uint32_t op3 = 0; op3 < N_OP3; op3++)
		for (uint32_t asi = 0; asi < N_ASI; asi++) {
			decode_checked(alt_word(op3, asi), TEST_PC, &d);
			decode_checked(alt_word(op3, asi) | W_I(1), TEST_PC, &d);
		}
}

/*
 * The annul bit (SPARC V9 6.3.4.1, A.3-A.7): bit 29 of every format-2
 * branch with a delay slot (Bicc, BPcc, BPr, FBfcc, FBPfcc, CBcc), 0 for
 * everything else, CBcond (whose bit 29 is cond[3]) included.  Known
 * words as GNU as assembles them, then an independent reading of a large
 * random sample.
 */
static int annul_of_encoding(uint32_t w)
{
	uint32_t op2 = (w >> 22) & 7u;

	if (w >> 30 != OP_FMT2 || op2 == OP2_ILLTRAP || op2 == OP2_SETHI)
		return 0;
	if (op2 == 3 && (w >> CBCOND_BIT) & 1u) /* CBcond */
		return 0;
	return (int)((w >> 29) & 1u);
}

static void test_annul(void **state)
{
	static const struct {
		uint32_t word;
		uint8_t annul;
		uint32_t cti;
		const char *text;
	} v[] = {
		{ 0x22800002, 1, X_CTI_COND, "be,a .+8 (Bicc)" },
		{ 0x32680002, 1, X_CTI_COND, "bne,a,pt %xcc, .+8 (BPcc)" },
		{ 0x2ac80002, 1, X_CTI_COND, "brnz,a %g0, .+8 (BPr)" },
		{ 0x22cd8002, 1, X_CTI_COND, "brz,a %l6, .+8 (BPr)" },
		{ 0x33800002, 1, X_CTI_COND, "fbe,a .+8 (FBfcc)" },
		{ 0x33480002, 1, X_CTI_COND, "fbe,a,pt %fcc0, .+8 (FBPfcc)" },
		{ 0x0afc7fe9, 0, X_CTI_COND, "brnz %l1, .-0x5c (BPr)" },
		{ 0x12800002, 0, X_CTI_COND, "bne .+8 (Bicc)" },
		{ 0x30680002, 1, X_CTI_ALWAYS, "ba,a %xcc, .+8" },
		{ 0x20800002, 1, 0, "bn,a .+8" },
		{ 0x40000002, 0, X_CTI_ALWAYS, "call .+8" },
		{ 0x01000000, 0, 0, "nop" },
		{ 0x32c84002, 0, X_CTI_COND, "cwbne %g1, %g2, .+1024 (CBcond, bit 29 = cond[3])" },
	};
	uint32_t seed = 0x9e3779b9u;
	struct hvpmu_sparc_insn d;
	(void)state;

	for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
		uint32_t f = hvpmu_sparc_decode(v[k].word, TEST_PC, &d);

		if (d.annul != v[k].annul || (f & (X_CTI_COND | X_CTI_ALWAYS)) != v[k].cti)
			print_error("%08x %s: annul %u flags %#x\n", v[k].word, v[k].text, d.annul, f);
		assert_int_equal(d.annul, v[k].annul);
		assert_int_equal(f & (X_CTI_COND | X_CTI_ALWAYS), v[k].cti);
	}
	for (unsigned k = 0; k < 1u << 16; k++) {
		uint32_t w = next_random(&seed);

		hvpmu_sparc_decode(w, TEST_PC, &d);
		assert_int_equal(d.annul, annul_of_encoding(w));
	}
}

/* The six groups (hvpmu/insn.h) are the header's group mask, one bit each. */
static void test_sl3_mask(void **state)
{
	(void)state;
	assert_int_equal(HVPMU_IC_GROUPS, X_BR | X_FGU | X_LD | X_ST | X_SPR | X_OTH);
	assert_int_equal(__builtin_popcount(HVPMU_IC_GROUPS), 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sl3_mask),
		cmocka_unit_test(test_footnote5_fgu),
		cmocka_unit_test(test_footnote6_loads),
		cmocka_unit_test(test_footnote7_stores),
		cmocka_unit_test(test_footnote8_spr),
		cmocka_unit_test(test_footnote9_other),
		cmocka_unit_test(test_branches),
		cmocka_unit_test(test_asi_classification),
		cmocka_unit_test(test_undefined),
		cmocka_unit_test(test_restarts),
		cmocka_unit_test(test_footnote_asi_pairs),
		cmocka_unit_test(test_asi_sweep),
		cmocka_unit_test(test_ntc_by_asi),
		cmocka_unit_test(test_targets_wrap),
		cmocka_unit_test(test_displacement_widths),
		cmocka_unit_test(test_partition),
		cmocka_unit_test(test_annul),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
