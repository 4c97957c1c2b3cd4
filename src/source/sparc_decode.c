/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sparc_decode.c - SPARC V9 instruction classifier for the SPARC T4 PMU
 * (layer 1, event source).
 *
 * Models which T4 performance-counter instruction groups one instruction
 * word belongs to, per sparc-t4-performance-instrumentation.md:
 *   - TABLE 10-2 sl=3 (mask 0x01 branches, 0x02 FGU + crypto, 0x04 loads,
 *     0x08 stores, 0x10 SPR ring ops, 0x20 other) and footnotes 5-9;
 *   - TABLE 10-2 sl=4 (mask 0x04 `sethi %hi(0xfc000),%g0`, 0x08 atomics,
 *     0x10 software prefetch, 0x20 block loads/stores by ASI);
 *   - TABLE 10-1 footnote 1 (next-to-commit instructions);
 *   - TABLE 10-2 footnote 12 (micro-op counts).
 * Footnote 5 (the FGU list) is not public for T4; reference/t4-events.md §2
 * gives the T2 analogue.  Encodings are SPARC V9 plus the Oracle SPARC
 * Architecture 2011 additions that T4 implements (VIS 1-3, FMAF, crypto,
 * CBcond, PAUSE), cross-checked against GNU binutils 2.40
 * (`objdump -m sparc:v9e`, "OSA2011 and T4 additions").  Every choice the
 * spec leaves open is recorded in docs/t4-instruction-groups.md.
 *
 * The decoder is pure: all tables below are constant data.
 */
#include "hvpmu/sparc_decode.h"

#include <stdbool.h>
#include <stddef.h>

/* ------------------------------------------------------------------------
 * Instruction fields, named once: (shift, length) pairs for fld().
 * ------------------------------------------------------------------------ */
#define F_OP        30, 2   /* format selector */
#define F_RD        25, 5   /* rd; also fcn, cond (Bicc), prefetch fcn */
#define F_OP2       22, 3   /* format 2 (op = 0) sub-opcode */
#define F_OP3       19, 6   /* format 3 opcode */
#define F_RS1       14, 5
#define F_I         13, 1   /* immediate / %asi select */
#define F_ASI        5, 8   /* immediate ASI (i = 0) */
#define F_OPF        5, 9   /* FPop / IMPDEP1 opcode */
#define F_OP5        5, 4   /* four-operand FMA / crypto opcode */
#define F_IMM22      0, 22  /* SETHI */
#define F_COND      25, 4   /* Bicc, BPcc, FBfcc, FBPfcc, CBcc, Tcc */
#define F_ANNUL     29, 1   /* a: Bicc, BPcc, BPr, FBfcc, FBPfcc, CBcc (SPARC V9 6.3.4.1) */
#define F_RCOND_BR  25, 3   /* BPr */
#define F_BIT28     28, 1   /* op2 = 3: 0 = BPr, 1 = CBcond (OSA 2011) */
#define F_CB_CHI    29, 1   /* CBcond cond[3] */
#define F_CB_CLO    25, 3   /* CBcond cond[2:0] */
#define F_BPCC_CC   20, 2   /* BPcc cc1:cc0 */
#define F_DISP30     0, 30  /* CALL */
#define F_DISP22     0, 22  /* Bicc, FBfcc, CBcc */
#define F_DISP19     0, 19  /* BPcc, FBPfcc */
#define F_D16HI     20, 2   /* BPr */
#define F_D16LO      0, 14
#define F_D10HI     19, 2   /* CBcond */
#define F_D10LO      5, 8
#define F_MEMBAR     0, 7   /* cmask[6:4] | mmask[3:0] */
#define F_TCC_CC    11, 2   /* Tcc cc1:cc0 */
#define F_MOV_CC2   18, 1   /* MOVcc: 1 = integer condition codes */
#define F_MOV_CC    11, 2   /* MOVcc cc1:cc0 */
#define F_MOVR_RCOND 10, 3  /* MOVr */

/* Width of a field named above. */
#define FIELD_LEN(f) FIELD_LEN_(f)
#define FIELD_LEN_(shift, len) (len)

enum {
	DISP30_BITS = FIELD_LEN(F_DISP30),
	DISP22_BITS = FIELD_LEN(F_DISP22),
	DISP19_BITS = FIELD_LEN(F_DISP19),
	D16LO_BITS = FIELD_LEN(F_D16LO),
	DISP16_BITS = FIELD_LEN(F_D16HI) + FIELD_LEN(F_D16LO),
	D10LO_BITS = FIELD_LEN(F_D10LO),
	DISP10_BITS = FIELD_LEN(F_D10HI) + FIELD_LEN(F_D10LO),
	CB_CLO_BITS = FIELD_LEN(F_CB_CLO), /* CBcond cond = c_hi : c_lo */
	INSN_BYTES_LOG2 = 2,  /* displacements count 4-byte words */
	ASI_WORD_BITS = 32,   /* ASI bitmaps: 8 words of 32 bits */
	ASI_WORDS = 8,
	OPCODE3_COUNT = 1 << FIELD_LEN(F_OP3),
	ASR_COUNT = 1 << FIELD_LEN(F_RS1),
};

static inline uint32_t fld(uint32_t insn, unsigned shift, unsigned len)
{
	return (insn >> shift) & ((1u << len) - 1u);
}
#define FIELD(insn, f) fld((insn), f)

/* op (TABLE A-1 of SPARC V9) */
enum { OP_FMT2 = 0, OP_CALL = 1, OP_ARITH = 2, OP_MEM = 3 };

/* op2 for op = 0 */
enum {
	OP2_ILLTRAP = 0, OP2_BPCC = 1, OP2_BICC = 2, OP2_BPR = 3,
	OP2_SETHI = 4, OP2_FBPFCC = 5, OP2_FBFCC = 6, OP2_CBCC = 7,
};

/* Branch / trap condition values shared by Bicc, FBfcc, CBcc, Tcc, CBcond. */
enum { COND_NEVER = 0x0, COND_ALWAYS = 0x8 };
/* Integer condition-code selectors (BPcc, Tcc, MOVcc): 1 and 3 are reserved. */
enum { CC_ICC = 0, CC_XCC = 2 };
/* Register conditions (BPr, MOVr, FMOVr): 0 and 4 are reserved. */
enum { RCOND_RSVD_0 = 0, RCOND_RSVD_4 = 4 };

enum { REG_G0 = 0, REG_O7 = 15, REG_I7 = 31 };
#define F_SIMM13     0, 13  /* format 3 immediate (i = 1) */
#define RET_OFFSET 8        /* ret / retl return to call site + 8 */
/* sethi %hi(0xfc000), %g0: the software count instruction (TABLE 10-2 sl=4 mask 0x04). */
#define SWCOUNT_HI_VALUE 0xfc000u
#define HI_SHIFT 10u
enum { SWCOUNT_IMM22 = SWCOUNT_HI_VALUE >> HI_SHIFT };

/* MEMBAR mask bits (SPARC V9 A.32): mmask[3:0], cmask[6:4]. */
enum {
	MEMBAR_LOADLOAD = 0x01,
	MEMBAR_STORELOAD = 0x02,
	MEMBAR_LOADSTORE = 0x04,
	MEMBAR_STORESTORE = 0x08,
	MEMBAR_LOOKASIDE = 0x10,
	MEMBAR_MEMISSUE = 0x20,
	MEMBAR_SYNC = 0x40,
};
/* Footnote 7/9: MEMBAR #Lookaside and MEMBAR #LoadStore are "other". */
#define MEMBAR_OTHER_BITS ((uint32_t)(MEMBAR_LOADSTORE | MEMBAR_LOOKASIDE))

/* Micro-op counts (TABLE 10-2 footnote 12). */
enum { UOPS_ONE = 1, UOPS_TWIN = 2, UOPS_BLOCK = 8 };

/* Short names for the flag bits. */
#define BR   ((uint32_t)HVPMU_IC_BRANCH)
#define FGU  ((uint32_t)HVPMU_IC_FP)
#define LD   ((uint32_t)HVPMU_IC_LOAD)
#define ST   ((uint32_t)HVPMU_IC_STORE)
#define SPR  ((uint32_t)HVPMU_IC_SPR)
#define OTH  ((uint32_t)HVPMU_IC_OTHER)
#define NTC  ((uint32_t)HVPMU_IC_NTC)
#define ILL  ((uint32_t)(HVPMU_IC_OTHER | HVPMU_IC_ILLEGAL))
#define ATOM ((uint32_t)(HVPMU_IC_OTHER | HVPMU_IC_ATOMIC | HVPMU_IC_NTC))
#define PREF ((uint32_t)(HVPMU_IC_OTHER | HVPMU_IC_PREFETCH))

/* ------------------------------------------------------------------------
 * ASI sets: 256-bit bitmaps built at compile time from lists transcribed
 * from the spec.  Each list is an X-macro of ASI values.
 * ------------------------------------------------------------------------ */
#define ASI_BIT_IN_WORD(a, w) \
	((((unsigned)(a) / ASI_WORD_BITS) == (w)) ? (1u << ((unsigned)(a) % ASI_WORD_BITS)) : 0u)
#define ASI_W0(a) | ASI_BIT_IN_WORD(a, 0)
#define ASI_W1(a) | ASI_BIT_IN_WORD(a, 1)
#define ASI_W2(a) | ASI_BIT_IN_WORD(a, 2)
#define ASI_W3(a) | ASI_BIT_IN_WORD(a, 3)
#define ASI_W4(a) | ASI_BIT_IN_WORD(a, 4)
#define ASI_W5(a) | ASI_BIT_IN_WORD(a, 5)
#define ASI_W6(a) | ASI_BIT_IN_WORD(a, 6)
#define ASI_W7(a) | ASI_BIT_IN_WORD(a, 7)
#define ASI_SET(LIST) { \
	0u LIST(ASI_W0), 0u LIST(ASI_W1), 0u LIST(ASI_W2), 0u LIST(ASI_W3), \
	0u LIST(ASI_W4), 0u LIST(ASI_W5), 0u LIST(ASI_W6), 0u LIST(ASI_W7) }
#define ASI_NONE(X)

/* TABLE 10-2 footnote 8: LDXA_0xZZ counted as SPR ring ops. */
#define FN8_LDXA_ASIS(X) \
	X(0x20) X(0x21) X(0x25) X(0x45) X(0x48) X(0x49) X(0x4C) X(0x4E) \
	X(0x4F) X(0x52) X(0x54) X(0x58) X(0x64) X(0x74) X(0xB0)
/* TABLE 10-2 footnote 8: STXA_0xZZ counted as SPR ring ops. */
#define FN8_STXA_ASIS(X) \
	X(0x20) X(0x21) X(0x25) X(0x42) X(0x45) X(0x4C) X(0x4E) X(0x4F) \
	X(0x50) X(0x52) X(0x54) X(0x57) X(0x58) X(0x5C) X(0x5F) X(0x64) \
	X(0x72) X(0xB0)
/* TABLE 10-2 sl=4 mask 0x20: block loads LDDFA_0xZZ. */
#define SL4_BLOCK_LDDFA_ASIS(X) X(0x16) X(0x1E) X(0xF0) X(0xF8)
/* TABLE 10-2 sl=4 mask 0x20: block stores STDFA_0xZZ. */
#define SL4_BLOCK_STDFA_ASIS(X) X(0x17) X(0xE0) X(0xF0) X(0xF8) X(0xF9)
/* Twin loads (footnote 12): LDDA / LDTXA with the TWINX ASIs (also footnote 6). */
#define TWIN_LDDA_ASIS(X) \
	X(0x22) X(0x23) X(0x26) X(0x27) X(0x2A) X(0x2B) X(0x2E) X(0x2F) \
	X(0xE2) X(0xE3) X(0xEA) X(0xEB)
/*
 * TABLE 10-1 footnote 1, non-translating / I/O ASIs (Table 9-3 is not in
 * our copy; see docs): ASI_REAL_IO{,_LITTLE} (I/O space), ASI_SCRATCHPAD,
 * ASI_MMU, ASI_QUEUE, ASI_PIC; plus the internal-register range below.
 */
#define NTC_SINGLE_ASIS(X) X(0x15) X(0x1D) X(0x20) X(0x21) X(0x25) X(0xB0)
enum { ASI_INTERNAL_FIRST = 0x40, ASI_INTERNAL_LAST = 0x7F };

/* Alternate-space instruction forms that have ASI-dependent behaviour. */
enum asi_form {
	FORM_PLAIN = 0, /* no ASI-specific classification */
	FORM_LDXA,
	FORM_STXA,
	FORM_LDDA,
	FORM_LDDFA,
	FORM_STDFA,
	FORM_COUNT
};

struct asi_form_sets {
	uint32_t spr[ASI_WORDS];   /* footnote 8 pairs: SPR ring op */
	uint32_t block[ASI_WORDS]; /* sl=4 mask 0x20: block, 8 uops */
	uint32_t twin[ASI_WORDS];  /* twin load, 2 uops */
};

static const struct asi_form_sets asi_forms[FORM_COUNT] = {
	[FORM_PLAIN] = { ASI_SET(ASI_NONE), ASI_SET(ASI_NONE), ASI_SET(ASI_NONE) },
	[FORM_LDXA] = { ASI_SET(FN8_LDXA_ASIS), ASI_SET(ASI_NONE), ASI_SET(ASI_NONE) },
	[FORM_STXA] = { ASI_SET(FN8_STXA_ASIS), ASI_SET(ASI_NONE), ASI_SET(ASI_NONE) },
	[FORM_LDDA] = { ASI_SET(ASI_NONE), ASI_SET(ASI_NONE), ASI_SET(TWIN_LDDA_ASIS) },
	[FORM_LDDFA] = { ASI_SET(ASI_NONE), ASI_SET(SL4_BLOCK_LDDFA_ASIS), ASI_SET(ASI_NONE) },
	[FORM_STDFA] = { ASI_SET(ASI_NONE), ASI_SET(SL4_BLOCK_STDFA_ASIS), ASI_SET(ASI_NONE) },
};

static const uint32_t ntc_single_asis[ASI_WORDS] = ASI_SET(NTC_SINGLE_ASIS);

static inline bool asi_in(const uint32_t set[ASI_WORDS], uint32_t asi)
{
	return (set[asi / ASI_WORD_BITS] >> (asi % ASI_WORD_BITS)) & 1u;
}

static inline bool asi_is_ntc(uint32_t asi)
{
	return asi_in(ntc_single_asis, asi) ||
	       (asi >= ASI_INTERNAL_FIRST && asi <= ASI_INTERNAL_LAST);
}

/* ------------------------------------------------------------------------
 * op = 2 (arithmetic, control, state registers, FPop, IMPDEP)
 * ------------------------------------------------------------------------ */
enum op3_arith {
	OP3_ADD = 0x00, OP3_AND = 0x01, OP3_OR = 0x02, OP3_XOR = 0x03,
	OP3_SUB = 0x04, OP3_ANDN = 0x05, OP3_ORN = 0x06, OP3_XNOR = 0x07,
	OP3_ADDC = 0x08, OP3_MULX = 0x09, OP3_UMUL = 0x0a, OP3_SMUL = 0x0b,
	OP3_SUBC = 0x0c, OP3_UDIVX = 0x0d, OP3_UDIV = 0x0e, OP3_SDIV = 0x0f,
	OP3_ADDCC = 0x10, OP3_ANDCC = 0x11, OP3_ORCC = 0x12, OP3_XORCC = 0x13,
	OP3_SUBCC = 0x14, OP3_ANDNCC = 0x15, OP3_ORNCC = 0x16, OP3_XNORCC = 0x17,
	OP3_ADDCCC = 0x18, OP3_CRYPTO4 = 0x19, OP3_UMULCC = 0x1a, OP3_SMULCC = 0x1b,
	OP3_SUBCCC = 0x1c, OP3_RSVD_1D = 0x1d, OP3_UDIVCC = 0x1e, OP3_SDIVCC = 0x1f,
	OP3_TADDCC = 0x20, OP3_TSUBCC = 0x21, OP3_TADDCCTV = 0x22, OP3_TSUBCCTV = 0x23,
	OP3_MULSCC = 0x24, OP3_SLL = 0x25, OP3_SRL = 0x26, OP3_SRA = 0x27,
	OP3_RDASR = 0x28, OP3_RDHPR = 0x29, OP3_RDPR = 0x2a, OP3_FLUSHW = 0x2b,
	OP3_MOVCC = 0x2c, OP3_SDIVX = 0x2d, OP3_POPC = 0x2e, OP3_MOVR = 0x2f,
	OP3_WRASR = 0x30, OP3_SAVED = 0x31, OP3_WRPR = 0x32, OP3_WRHPR = 0x33,
	OP3_FPOP1 = 0x34, OP3_FPOP2 = 0x35, OP3_IMPDEP1 = 0x36, OP3_IMPDEP2 = 0x37,
	OP3_JMPL = 0x38, OP3_RETURN = 0x39, OP3_TCC = 0x3a, OP3_FLUSH = 0x3b,
	OP3_SAVE = 0x3c, OP3_RESTORE = 0x3d, OP3_DONE_RETRY = 0x3e, OP3_RSVD_3F = 0x3f,
};

enum arith_kind {
	A_PLAIN = 0, /* flags fixed by the table */
	A_RDASR,     /* RDY .. RDASR, STBAR, MEMBAR (rs1 selects) */
	A_WRASR,     /* WRY .. WRASR, SIR (rd selects) */
	A_FCN,       /* rd is a function code 0..fcn_last */
	A_MOVCC,
	A_MOVR,
	A_TCC,
	A_FPOP1,
	A_FPOP2,
	A_IMPDEP1,
	A_FOUR_OP,   /* op5-coded: FMA (IMPDEP2) and crypto rounds (op3 0x19) */
};

struct arith_desc {
	uint32_t flags;     /* A_PLAIN / A_FCN: result flags; A_FOUR_OP: group */
	uint8_t kind;       /* enum arith_kind */
	uint8_t fcn_last;   /* A_FCN: highest defined function code */
	uint16_t op5_valid; /* A_FOUR_OP: bit n set = op5 value n defined */
};

/* SAVED/RESTORED/ALLCLEAN/OTHERW/NORMALW/INVALW; DONE/RETRY. */
enum { FCN_INVALW = 5, FCN_RETRY = 1 };

/* IMPDEP2 FMA op5 = var[8:7] | size[6:5]; size 0 (IMA) and 3 (quad) are not on T4. */
enum { FMA_SIZE_S = 1, FMA_SIZE_D = 2, FMA_VAR_SHIFT = 2 };
enum { FMA_FMADD = 0, FMA_FMSUB = 1, FMA_FNMSUB = 2, FMA_FNMADD = 3 };
#define FMA_BIT(var, size) (1u << (((unsigned)(var) << FMA_VAR_SHIFT) | (unsigned)(size)))
#define FMA_SD(var) (FMA_BIT(var, FMA_SIZE_S) | FMA_BIT(var, FMA_SIZE_D))
#define FMA_OP5_VALID \
	((uint16_t)(FMA_SD(FMA_FMADD) | FMA_SD(FMA_FMSUB) | FMA_SD(FMA_FNMSUB) | FMA_SD(FMA_FNMADD)))
/*
 * op3 0x19 op5: AES_EROUND01/23, AES_DROUND01/23 (0-3), their _LAST forms
 * (4-7), AES_KEXPAND1 (8), DES_ROUND (9), KASUMI_FL_XOR/FI_XOR (10-11),
 * CAMELLIA_F (12).
 */
enum { CRYPTO4_OP5_LAST = 12 };
#define CRYPTO4_OP5_VALID ((uint16_t)((1u << (CRYPTO4_OP5_LAST + 1)) - 1u))

#define PLAIN(f) { .flags = (uint32_t)(f), .kind = A_PLAIN }

static const struct arith_desc arith_table[OPCODE3_COUNT] = {
	[OP3_ADD] = PLAIN(OTH), [OP3_AND] = PLAIN(OTH), [OP3_OR] = PLAIN(OTH),
	[OP3_XOR] = PLAIN(OTH), [OP3_SUB] = PLAIN(OTH), [OP3_ANDN] = PLAIN(OTH),
	[OP3_ORN] = PLAIN(OTH), [OP3_XNOR] = PLAIN(OTH), [OP3_ADDC] = PLAIN(OTH),
	[OP3_MULX] = PLAIN(OTH), [OP3_UMUL] = PLAIN(OTH), [OP3_SMUL] = PLAIN(OTH),
	[OP3_SUBC] = PLAIN(OTH), [OP3_UDIVX] = PLAIN(OTH), [OP3_UDIV] = PLAIN(OTH),
	[OP3_SDIV] = PLAIN(OTH), [OP3_ADDCC] = PLAIN(OTH), [OP3_ANDCC] = PLAIN(OTH),
	[OP3_ORCC] = PLAIN(OTH), [OP3_XORCC] = PLAIN(OTH), [OP3_SUBCC] = PLAIN(OTH),
	[OP3_ANDNCC] = PLAIN(OTH), [OP3_ORNCC] = PLAIN(OTH), [OP3_XNORCC] = PLAIN(OTH),
	[OP3_ADDCCC] = PLAIN(OTH),
	[OP3_CRYPTO4] = { .flags = (uint32_t)FGU, .kind = A_FOUR_OP, .op5_valid = CRYPTO4_OP5_VALID },
	[OP3_UMULCC] = PLAIN(OTH), [OP3_SMULCC] = PLAIN(OTH), [OP3_SUBCCC] = PLAIN(OTH),
	[OP3_RSVD_1D] = PLAIN(ILL),
	[OP3_UDIVCC] = PLAIN(OTH), [OP3_SDIVCC] = PLAIN(OTH),
	[OP3_TADDCC] = PLAIN(OTH), [OP3_TSUBCC] = PLAIN(OTH), [OP3_TADDCCTV] = PLAIN(OTH),
	[OP3_TSUBCCTV] = PLAIN(OTH), [OP3_MULSCC] = PLAIN(OTH), [OP3_SLL] = PLAIN(OTH),
	[OP3_SRL] = PLAIN(OTH), [OP3_SRA] = PLAIN(OTH),
	[OP3_RDASR] = { .kind = A_RDASR },
	[OP3_RDHPR] = PLAIN(LD | NTC),  /* footnote 6; TABLE 10-1 footnote 1 */
	[OP3_RDPR] = PLAIN(LD | NTC),   /* footnote 6; TABLE 10-1 footnote 1 */
	[OP3_FLUSHW] = PLAIN(OTH),
	[OP3_MOVCC] = { .kind = A_MOVCC },
	[OP3_SDIVX] = PLAIN(OTH), [OP3_POPC] = PLAIN(OTH),
	[OP3_MOVR] = { .kind = A_MOVR },
	[OP3_WRASR] = { .kind = A_WRASR },
	[OP3_SAVED] = { .flags = (uint32_t)OTH, .kind = A_FCN, .fcn_last = FCN_INVALW },
	[OP3_WRPR] = PLAIN(SPR | NTC),  /* footnote 8; TABLE 10-1 footnote 1 */
	[OP3_WRHPR] = PLAIN(SPR | NTC), /* footnote 8; TABLE 10-1 footnote 1 */
	[OP3_FPOP1] = { .kind = A_FPOP1 },
	[OP3_FPOP2] = { .kind = A_FPOP2 },
	[OP3_IMPDEP1] = { .kind = A_IMPDEP1 },
	[OP3_IMPDEP2] = { .flags = (uint32_t)FGU, .kind = A_FOUR_OP, .op5_valid = FMA_OP5_VALID },
	[OP3_JMPL] = PLAIN(BR | HVPMU_IC_CTI_ALWAYS),
	[OP3_RETURN] = PLAIN(BR | HVPMU_IC_CTI_ALWAYS),
	[OP3_TCC] = { .kind = A_TCC },
	[OP3_FLUSH] = PLAIN(ST),        /* footnote 7 */
	[OP3_SAVE] = PLAIN(OTH), [OP3_RESTORE] = PLAIN(OTH),
	[OP3_DONE_RETRY] = { .flags = (uint32_t)OTH, .kind = A_FCN, .fcn_last = FCN_RETRY },
	[OP3_RSVD_3F] = PLAIN(ILL),
};

/*
 * State registers (RDASR op3 0x28 rs1 / WRASR op3 0x30 rd).  0 = reserved
 * encoding (illegal_instruction).  ASR 15 (STBAR, MEMBAR, SIR) is decoded
 * separately.  ASRs 16-31 are implementation dependent; all are accepted.
 */
enum asr {
	ASR_Y = 0, ASR_CCR = 2, ASR_ASI = 3, ASR_TICK = 4, ASR_PC = 5,
	ASR_FPRS = 6, ASR_MEMBAR_SIR = 15, ASR_PCR = 16, ASR_PIC = 17,
	ASR_DCR = 18, ASR_GSR = 19, ASR_SOFTINT_SET = 20, ASR_SOFTINT_CLR = 21,
	ASR_SOFTINT = 22, ASR_TICK_CMPR = 23, ASR_STICK = 24, ASR_STICK_CMPR = 25,
	ASR_CFR = 26, ASR_PAUSE = 27, ASR_IMPL_28 = 28, ASR_IMPL_29 = 29,
	ASR_IMPL_30 = 30, ASR_IMPL_31 = 31,
};

struct asr_desc {
	uint32_t rd; /* flags of the RD form, 0 = reserved */
	uint32_t wr; /* flags of the WR form, 0 = reserved */
};

#define ASR_RW(r, w) { .rd = (uint32_t)(r), .wr = (uint32_t)(w) }
#define ASR_GENERIC ASR_RW(LD | NTC, SPR | NTC) /* footnotes 6 and 8, TABLE 10-1 fn 1 */

static const struct asr_desc asr_table[ASR_COUNT] = {
	[ASR_Y] = ASR_GENERIC,                  /* RDY, WRY */
	[ASR_CCR] = ASR_GENERIC,                /* RDCCR, WRCCR */
	[ASR_ASI] = ASR_GENERIC,                /* RDASI, WRASI */
	[ASR_TICK] = ASR_RW(LD | NTC, 0),       /* RDTICK; V9 reserves WR to ASR 4 */
	[ASR_PC] = ASR_RW(OTH, 0),              /* RDPC: footnote 9, not NTC (docs) */
	[ASR_FPRS] = ASR_GENERIC,               /* RDFPRS, WRFPRS */
	[ASR_PCR] = ASR_GENERIC,
	[ASR_PIC] = ASR_GENERIC,
	[ASR_DCR] = ASR_GENERIC,
	[ASR_GSR] = ASR_GENERIC,                /* RDGSR, WRGSR */
	[ASR_SOFTINT_SET] = ASR_GENERIC,
	[ASR_SOFTINT_CLR] = ASR_GENERIC,
	[ASR_SOFTINT] = ASR_GENERIC,
	[ASR_TICK_CMPR] = ASR_GENERIC,
	[ASR_STICK] = ASR_GENERIC,              /* RDSTICK */
	[ASR_STICK_CMPR] = ASR_GENERIC,
	[ASR_CFR] = ASR_RW(OTH | NTC, OTH | NTC), /* RDCFR, WRCFR (and T1/T2 HALT): footnote 9 */
	[ASR_PAUSE] = ASR_GENERIC,              /* WRPAUSE: footnote 8 */
	[ASR_IMPL_28] = ASR_GENERIC,
	[ASR_IMPL_29] = ASR_GENERIC,
	[ASR_IMPL_30] = ASR_GENERIC,
	[ASR_IMPL_31] = ASR_GENERIC,
};

/* ------------------------------------------------------------------------
 * FPop1 / FPop2 / IMPDEP1 opf tables: sorted, disjoint ranges of defined
 * opf values on T4 (binutils `sparc:v9e`), with their group.  Anything
 * not listed is undefined (OTHER | ILLEGAL).
 * ------------------------------------------------------------------------ */
enum opf_class {
	OPF_FGU = 1,     /* footnote 5: FGU + crypto arithmetic */
	OPF_FGU_NTC,     /* crypto that TABLE 10-1 footnote 1 makes next-to-commit */
	OPF_OTHER,       /* footnote 9 names it (or its direct sibling) as other */
};

struct opf_range {
	uint16_t first, last;
	uint8_t cls; /* enum opf_class */
};

static const struct opf_range fpop1_ranges[] = {
	{ 0x001, 0x003, OPF_FGU }, /* FMOVs, FMOVd, FMOVq */
	{ 0x005, 0x007, OPF_FGU }, /* FNEGs, FNEGd, FNEGq */
	{ 0x009, 0x00b, OPF_FGU }, /* FABSs, FABSd, FABSq */
	{ 0x029, 0x02b, OPF_FGU }, /* FSQRTs, FSQRTd, FSQRTq */
	{ 0x041, 0x043, OPF_FGU }, /* FADDs, FADDd, FADDq */
	{ 0x045, 0x047, OPF_FGU }, /* FSUBs, FSUBd, FSUBq */
	{ 0x049, 0x04b, OPF_FGU }, /* FMULs, FMULd, FMULq */
	{ 0x04d, 0x04f, OPF_FGU }, /* FDIVs, FDIVd, FDIVq */
	{ 0x051, 0x052, OPF_FGU }, /* FNADDs, FNADDd */
	{ 0x059, 0x05a, OPF_FGU }, /* FNMULs, FNMULd */
	{ 0x061, 0x062, OPF_FGU }, /* FHADDs, FHADDd */
	{ 0x065, 0x066, OPF_FGU }, /* FHSUBs, FHSUBd */
	{ 0x069, 0x069, OPF_FGU }, /* FsMULd */
	{ 0x06e, 0x06e, OPF_FGU }, /* FdMULq */
	{ 0x071, 0x072, OPF_FGU }, /* FNHADDs, FNHADDd */
	{ 0x079, 0x079, OPF_FGU }, /* FNsMULd */
	{ 0x081, 0x084, OPF_FGU }, /* FsTOx, FdTOx, FqTOx, FxTOs */
	{ 0x088, 0x088, OPF_FGU }, /* FxTOd */
	{ 0x08c, 0x08c, OPF_FGU }, /* FxTOq */
	{ 0x0c4, 0x0c4, OPF_FGU }, /* FiTOs */
	{ 0x0c6, 0x0c9, OPF_FGU }, /* FdTOs, FqTOs, FiTOd, FsTOd */
	{ 0x0cb, 0x0ce, OPF_FGU }, /* FqTOd, FiTOq, FsTOq, FdTOq */
	{ 0x0d1, 0x0d3, OPF_FGU }, /* FsTOi, FdTOi, FqTOi */
};

/* FPop2: FMOVcc opf = opf_cc[8:6] | low[5:0] (opf_cc 5 and 7 reserved); FMOVr rcond[7:5] (0, 4 reserved). */
static const struct opf_range fpop2_ranges[] = {
	{ 0x001, 0x003, OPF_FGU }, /* FMOV{s,d,q}cc %fcc0 */
	{ 0x025, 0x027, OPF_FGU }, /* FMOVR{s,d,q}Z */
	{ 0x041, 0x043, OPF_FGU }, /* FMOV{s,d,q}cc %fcc1 */
	{ 0x045, 0x047, OPF_FGU }, /* FMOVR{s,d,q}LEZ */
	{ 0x051, 0x053, OPF_FGU }, /* FCMPs, FCMPd, FCMPq */
	{ 0x055, 0x057, OPF_FGU }, /* FCMPEs, FCMPEd, FCMPEq */
	{ 0x065, 0x067, OPF_FGU }, /* FMOVR{s,d,q}LZ */
	{ 0x081, 0x083, OPF_FGU }, /* FMOV{s,d,q}cc %fcc2 */
	{ 0x0a5, 0x0a7, OPF_FGU }, /* FMOVR{s,d,q}NZ */
	{ 0x0c1, 0x0c3, OPF_FGU }, /* FMOV{s,d,q}cc %fcc3 */
	{ 0x0c5, 0x0c7, OPF_FGU }, /* FMOVR{s,d,q}GZ */
	{ 0x0e5, 0x0e7, OPF_FGU }, /* FMOVR{s,d,q}GEZ */
	{ 0x101, 0x103, OPF_FGU }, /* FMOV{s,d,q}cc %icc */
	{ 0x125, 0x127, OPF_FGU }, /* FMOVR{s,d,q}Z (opf_cc[2] = 1 alias) */
	{ 0x145, 0x147, OPF_FGU }, /* FMOVR{s,d,q}LEZ (alias) */
	{ 0x165, 0x167, OPF_FGU }, /* FMOVR{s,d,q}LZ (alias) */
	{ 0x181, 0x183, OPF_FGU }, /* FMOV{s,d,q}cc %xcc */
	{ 0x1a5, 0x1a7, OPF_FGU }, /* FMOVR{s,d,q}NZ (alias) */
	{ 0x1c5, 0x1c7, OPF_FGU }, /* FMOVR{s,d,q}GZ (alias) */
	{ 0x1e5, 0x1e7, OPF_FGU }, /* FMOVR{s,d,q}GEZ (alias) */
};

/* IMPDEP1: VIS 1-3, T4 crypto, and the FP<->integer moves. */
static const struct opf_range impdep1_ranges[] = {
	{ 0x000, 0x00b, OPF_FGU },   /* EDGE8/16/32{,N,L,LN}[cc] */
	{ 0x010, 0x010, OPF_FGU },   /* ARRAY8 */
	{ 0x011, 0x011, OPF_OTHER }, /* ADDXC (sibling of footnote 9's ADDXCcc) */
	{ 0x012, 0x012, OPF_FGU },   /* ARRAY16 */
	{ 0x013, 0x013, OPF_OTHER }, /* ADDXCcc: footnote 9 */
	{ 0x014, 0x014, OPF_FGU },   /* ARRAY32 */
	{ 0x016, 0x01b, OPF_FGU },   /* UMULXHI, LZCNT, ALIGNADDRESS, BMASK, ALIGNADDRESS_LITTLE, CMASK8 */
	{ 0x01d, 0x01d, OPF_FGU },   /* CMASK16 */
	{ 0x01f, 0x02f, OPF_FGU },   /* CMASK32, FPCMP{LE,NE,GT,EQ}{16,32}, FSLL/FSRL/FSLAS/FSRA{16,32} */
	{ 0x031, 0x031, OPF_FGU },   /* FMUL8x16 */
	{ 0x033, 0x033, OPF_FGU },   /* FMUL8x16AU */
	{ 0x035, 0x03b, OPF_FGU },   /* FMUL8x16AL, FMUL8SUx16, FMUL8ULx16, FMULD8SUx16, FMULD8ULx16, FPACK32, FPACK16 */
	{ 0x03d, 0x040, OPF_FGU },   /* FPACKFIX, PDIST, PDISTN, FMEAN16 */
	{ 0x042, 0x042, OPF_FGU },   /* FPADD64 */
	{ 0x044, 0x044, OPF_FGU },   /* FCHKSM16 */
	{ 0x046, 0x046, OPF_FGU },   /* FPSUB64 */
	{ 0x048, 0x048, OPF_FGU },   /* FALIGNDATA */
	{ 0x04b, 0x04d, OPF_FGU },   /* FPMERGE, BSHUFFLE, FEXPAND */
	{ 0x050, 0x080, OPF_FGU },   /* FPADD/FPSUB[S]{16,32}[s], F{ZERO,ONE,SRC,NOT,AND,OR,XOR,...}, SHUTDOWN */
	{ 0x081, 0x081, OPF_OTHER }, /* SIAM: footnote 9 */
	{ 0x110, 0x110, OPF_OTHER }, /* MOVdTOX: footnote 9 */
	{ 0x111, 0x111, OPF_OTHER }, /* MOVsTOuw (sibling of MOVdTOX) */
	{ 0x113, 0x113, OPF_OTHER }, /* MOVsTOsw (sibling of MOVdTOX) */
	{ 0x115, 0x116, OPF_FGU },   /* XMULX, XMULXHI */
	{ 0x118, 0x118, OPF_OTHER }, /* MOVxTOd: footnote 9 */
	{ 0x119, 0x119, OPF_OTHER }, /* MOVwTOs (sibling of MOVxTOd) */
	{ 0x120, 0x120, OPF_FGU },   /* FPCMPULE8 */
	{ 0x122, 0x122, OPF_FGU },   /* FPCMPUNE8 */
	{ 0x128, 0x128, OPF_FGU },   /* FPCMPUGT8 */
	{ 0x12a, 0x12a, OPF_FGU },   /* FPCMPUEQ8 */
	{ 0x130, 0x131, OPF_FGU },   /* AES_KEXPAND0, AES_KEXPAND2 */
	{ 0x134, 0x136, OPF_FGU },   /* DES_IP, DES_IIP, DES_KEXPAND */
	{ 0x138, 0x138, OPF_FGU },   /* KASUMI_FI_FI */
	{ 0x13c, 0x13d, OPF_FGU },   /* CAMELLIA_FL, CAMELLIA_FLI */
	{ 0x140, 0x143, OPF_FGU_NTC }, /* MD5, SHA1, SHA256, SHA512: TABLE 10-1 footnote 1 */
	{ 0x147, 0x147, OPF_FGU },   /* CRC32C */
	{ 0x148, 0x14a, OPF_FGU_NTC }, /* MPMUL, MONTMUL, MONTSQR: TABLE 10-1 footnote 1 */
	{ 0x151, 0x152, OPF_FGU },   /* FLCMPs, FLCMPd */
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Binary search of a sorted range table; 0 if opf is not defined. */
static uint8_t opf_lookup(const struct opf_range *tab, size_t n, uint32_t opf)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (opf < tab[mid].first)
			hi = mid;
		else if (opf > tab[mid].last)
			lo = mid + 1;
		else
			return tab[mid].cls;
	}
	return 0;
}

static uint32_t opf_flags(const struct opf_range *tab, size_t n, uint32_t opf)
{
	switch (opf_lookup(tab, n, opf)) {
	case OPF_FGU:
		return FGU;
	case OPF_FGU_NTC:
		return FGU | NTC;
	case OPF_OTHER:
		return OTH;
	default:
		return ILL;
	}
}

/* ------------------------------------------------------------------------
 * op = 3 (loads, stores, atomics, prefetch)
 * ------------------------------------------------------------------------ */
enum op3_mem {
	OP3_LDUW = 0x00, OP3_LDUB = 0x01, OP3_LDUH = 0x02, OP3_LDTW = 0x03,
	OP3_STW = 0x04, OP3_STB = 0x05, OP3_STH = 0x06, OP3_STTW = 0x07,
	OP3_LDSW = 0x08, OP3_LDSB = 0x09, OP3_LDSH = 0x0a, OP3_LDX = 0x0b,
	OP3_RSVD_0C = 0x0c, OP3_LDSTUB = 0x0d, OP3_STX = 0x0e, OP3_SWAP = 0x0f,
	OP3_LDUWA = 0x10, OP3_LDUBA = 0x11, OP3_LDUHA = 0x12, OP3_LDTWA = 0x13,
	OP3_STWA = 0x14, OP3_STBA = 0x15, OP3_STHA = 0x16, OP3_STTWA = 0x17,
	OP3_LDSWA = 0x18, OP3_LDSBA = 0x19, OP3_LDSHA = 0x1a, OP3_LDXA = 0x1b,
	OP3_RSVD_1C = 0x1c, OP3_LDSTUBA = 0x1d, OP3_STXA = 0x1e, OP3_SWAPA = 0x1f,
	OP3_LDF = 0x20, OP3_LDFSR = 0x21, OP3_LDQF = 0x22, OP3_LDDF = 0x23,
	OP3_STF = 0x24, OP3_STFSR = 0x25, OP3_STQF = 0x26, OP3_STDF = 0x27,
	OP3_PREFETCH = 0x2d,
	OP3_LDFA = 0x30, OP3_LDQFA = 0x32, OP3_LDDFA = 0x33,
	OP3_STFA = 0x34, OP3_STQFA = 0x36, OP3_STDFA = 0x37,
	OP3_CASA = 0x3c, OP3_PREFETCHA = 0x3d, OP3_CASXA = 0x3e,
};

enum mem_kind {
	M_PLAIN = 0,  /* flags fixed by the table (0 flags = reserved op3) */
	M_FSR,        /* LD[X]FSR / ST[X]FSR: rd 0 or 1 */
	M_ALT_LOAD,   /* alternate load: ASI-dependent group */
	M_ALT_STORE,  /* alternate store: ASI-dependent group */
	M_ALT_FIXED,  /* alternate atomic / prefetch: fixed flags + ASI */
};

struct mem_desc {
	uint32_t flags; /* M_PLAIN, M_FSR, M_ALT_FIXED */
	uint8_t kind;   /* enum mem_kind */
	uint8_t form;   /* enum asi_form for M_ALT_LOAD / M_ALT_STORE */
};

/* LDFSR/STFSR rd: 0 = LDFSR/STFSR, 1 = LDXFSR/STXFSR, others reserved on T4. */
enum { FSR_RD_LAST = 1 };

#define MPLAIN(f) { .flags = (uint32_t)(f), .kind = M_PLAIN }
#define MALT_LD(frm) { .kind = M_ALT_LOAD, .form = (frm) }
#define MALT_ST(frm) { .kind = M_ALT_STORE, .form = (frm) }
#define MALT_FIXED(f) { .flags = (uint32_t)(f), .kind = M_ALT_FIXED }

static const struct mem_desc mem_table[OPCODE3_COUNT] = {
	/* footnote 6 (LDUB: transcription omission, see docs) */
	[OP3_LDUW] = MPLAIN(LD), [OP3_LDUB] = MPLAIN(LD), [OP3_LDUH] = MPLAIN(LD),
	[OP3_LDTW] = MPLAIN(LD), [OP3_LDSW] = MPLAIN(LD), [OP3_LDSB] = MPLAIN(LD),
	[OP3_LDSH] = MPLAIN(LD), [OP3_LDX] = MPLAIN(LD),
	[OP3_LDF] = MPLAIN(LD), [OP3_LDQF] = MPLAIN(LD), [OP3_LDDF] = MPLAIN(LD),
	[OP3_LDFSR] = { .flags = (uint32_t)LD, .kind = M_FSR },
	/* footnote 7 (STB, STH: transcription omissions, see docs) */
	[OP3_STW] = MPLAIN(ST), [OP3_STB] = MPLAIN(ST), [OP3_STH] = MPLAIN(ST),
	[OP3_STTW] = MPLAIN(ST), [OP3_STX] = MPLAIN(ST),
	[OP3_STF] = MPLAIN(ST), [OP3_STQF] = MPLAIN(ST), [OP3_STDF] = MPLAIN(ST),
	[OP3_STFSR] = { .flags = (uint32_t)ST, .kind = M_FSR },
	/* footnote 9 + sl=4 atomics + TABLE 10-1 footnote 1 */
	[OP3_LDSTUB] = MPLAIN(ATOM), [OP3_SWAP] = MPLAIN(ATOM),
	[OP3_LDSTUBA] = MALT_FIXED(ATOM), [OP3_SWAPA] = MALT_FIXED(ATOM),
	[OP3_CASA] = MALT_FIXED(ATOM), [OP3_CASXA] = MALT_FIXED(ATOM),
	/* footnote 9 + sl=4 software prefetch */
	[OP3_PREFETCH] = MPLAIN(PREF), [OP3_PREFETCHA] = MALT_FIXED(PREF),
	/* alternate loads: footnotes 6 and 8 */
	[OP3_LDUWA] = MALT_LD(FORM_PLAIN), [OP3_LDUBA] = MALT_LD(FORM_PLAIN),
	[OP3_LDUHA] = MALT_LD(FORM_PLAIN), [OP3_LDTWA] = MALT_LD(FORM_LDDA),
	[OP3_LDSWA] = MALT_LD(FORM_PLAIN), [OP3_LDSBA] = MALT_LD(FORM_PLAIN),
	[OP3_LDSHA] = MALT_LD(FORM_PLAIN), [OP3_LDXA] = MALT_LD(FORM_LDXA),
	[OP3_LDFA] = MALT_LD(FORM_PLAIN), [OP3_LDQFA] = MALT_LD(FORM_PLAIN),
	[OP3_LDDFA] = MALT_LD(FORM_LDDFA),
	/* alternate stores: footnotes 7 and 8 */
	[OP3_STWA] = MALT_ST(FORM_PLAIN), [OP3_STBA] = MALT_ST(FORM_PLAIN),
	[OP3_STHA] = MALT_ST(FORM_PLAIN), [OP3_STTWA] = MALT_ST(FORM_PLAIN),
	[OP3_STXA] = MALT_ST(FORM_STXA), [OP3_STFA] = MALT_ST(FORM_PLAIN),
	[OP3_STQFA] = MALT_ST(FORM_PLAIN), [OP3_STDFA] = MALT_ST(FORM_STDFA),
	/* every other op3 (0x0c, 0x1c, 0x28-0x2c, 0x2e, 0x2f, 0x31, 0x35, 0x38-0x3b, 0x3f) is reserved */
};

/* ------------------------------------------------------------------------
 * Decoding
 * ------------------------------------------------------------------------ */
struct result {
	uint32_t flags;
	uint8_t uops;
	uint8_t asi;
	uint8_t has_target;
	uint8_t annul;
	uint64_t target;
};

/* pc + sign_extend(disp, bits) * 4, modulo 2^64. */
static uint64_t pc_relative(uint64_t pc, uint32_t disp, unsigned bits)
{
	uint64_t sign = UINT64_C(1) << (bits - 1);
	uint64_t words = ((uint64_t)disp ^ sign) - sign;

	return pc + (words << INSN_BYTES_LOG2);
}

static void set_target(struct result *r, uint64_t pc, uint32_t disp, unsigned bits)
{
	r->has_target = 1;
	r->target = pc_relative(pc, disp, bits);
}

/* A branch with a delay slot and an a bit (Bicc, BPcc, BPr, FBfcc, FBPfcc,
 * CBcc; SPARC V9 A.3-A.7): its target and annul bit. */
static void set_branch(struct result *r, uint32_t insn, uint64_t pc, uint32_t disp, unsigned bits)
{
	set_target(r, pc, disp, bits);
	r->annul = (uint8_t)FIELD(insn, F_ANNUL);
}

/* CTI flag of a cond-coded branch (Bicc, BPcc, FBfcc, FBPfcc, CBcc). */
static uint32_t cti_for_cond(uint32_t cond)
{
	if (cond == COND_ALWAYS)
		return HVPMU_IC_CTI_ALWAYS;
	if (cond == COND_NEVER)
		return 0;
	return HVPMU_IC_CTI_COND;
}

static inline bool int_cc_valid(uint32_t cc)
{
	return cc == CC_ICC || cc == CC_XCC;
}

static inline bool rcond_valid(uint32_t rcond)
{
	return rcond != RCOND_RSVD_0 && rcond != RCOND_RSVD_4;
}

static void decode_fmt2(uint32_t insn, uint64_t pc, struct result *r)
{
	uint32_t cond = FIELD(insn, F_COND);

	switch (FIELD(insn, F_OP2)) {
	case OP2_BICC:
	case OP2_FBFCC:
		r->flags = BR | cti_for_cond(cond);
		set_branch(r, insn, pc, FIELD(insn, F_DISP22), DISP22_BITS);
		break;
	case OP2_CBCC:
		/* V8 coprocessor branch: op2 = 7 is reserved in V9 (see docs). */
		r->flags = BR | HVPMU_IC_ILLEGAL | cti_for_cond(cond);
		set_branch(r, insn, pc, FIELD(insn, F_DISP22), DISP22_BITS);
		break;
	case OP2_BPCC:
		r->flags = BR | cti_for_cond(cond);
		if (!int_cc_valid(FIELD(insn, F_BPCC_CC)))
			r->flags |= HVPMU_IC_ILLEGAL;
		set_branch(r, insn, pc, FIELD(insn, F_DISP19), DISP19_BITS);
		break;
	case OP2_FBPFCC:
		r->flags = BR | cti_for_cond(cond);
		set_branch(r, insn, pc, FIELD(insn, F_DISP19), DISP19_BITS);
		break;
	case OP2_BPR:
		if (FIELD(insn, F_BIT28) == 0) {
			/* BPr: always conditional. */
			r->flags = BR | HVPMU_IC_CTI_COND;
			if (!rcond_valid(FIELD(insn, F_RCOND_BR)))
				r->flags |= HVPMU_IC_ILLEGAL;
			set_branch(r, insn, pc,
				   (FIELD(insn, F_D16HI) << D16LO_BITS) | FIELD(insn, F_D16LO),
				   DISP16_BITS);
		} else {
			/* CBcond (OSA 2011, T4): compare and branch, no delay slot. */
			uint32_t c = (FIELD(insn, F_CB_CHI) << CB_CLO_BITS) | FIELD(insn, F_CB_CLO);

			r->flags = BR | HVPMU_IC_CTI_COND;
			if (c == COND_NEVER || c == COND_ALWAYS)
				r->flags |= HVPMU_IC_ILLEGAL;
			set_target(r, pc,
				   (FIELD(insn, F_D10HI) << D10LO_BITS) | FIELD(insn, F_D10LO),
				   DISP10_BITS);
		}
		break;
	case OP2_SETHI:
		r->flags = OTH;
		if (FIELD(insn, F_RD) == REG_G0 && FIELD(insn, F_IMM22) == SWCOUNT_IMM22)
			r->flags |= HVPMU_IC_SWCOUNT;
		break;
	case OP2_ILLTRAP:
	default:
		r->flags = ILL;
		break;
	}
}

static uint32_t decode_rdasr(uint32_t insn)
{
	uint32_t asr = FIELD(insn, F_RS1);

	if (asr == ASR_MEMBAR_SIR) {
		if (FIELD(insn, F_RD) != REG_G0)
			return ILL;
		if (FIELD(insn, F_I) == 0)
			return ST; /* STBAR: footnote 7 */
		/* MEMBAR: footnote 7 except #Lookaside / #LoadStore (footnote 9). */
		return (FIELD(insn, F_MEMBAR) & ~MEMBAR_OTHER_BITS) ? ST : OTH;
	}
	return asr_table[asr].rd ? asr_table[asr].rd : ILL;
}

static uint32_t decode_wrasr(uint32_t insn)
{
	uint32_t asr = FIELD(insn, F_RD);

	if (asr == ASR_MEMBAR_SIR) {
		/* SIR: rd = 15, rs1 = 0, i = 1. */
		if (FIELD(insn, F_RS1) == REG_G0 && FIELD(insn, F_I) == 1)
			return OTH;
		return ILL;
	}
	return asr_table[asr].wr ? asr_table[asr].wr : ILL;
}

static void decode_arith(uint32_t insn, struct result *r)
{
	const struct arith_desc *d = &arith_table[FIELD(insn, F_OP3)];

	switch (d->kind) {
	case A_RDASR:
		r->flags = decode_rdasr(insn);
		break;
	case A_WRASR:
		r->flags = decode_wrasr(insn);
		break;
	case A_FCN:
		r->flags = FIELD(insn, F_RD) <= d->fcn_last ? d->flags : ILL;
		break;
	case A_MOVCC:
		/* cc2 = 0: %fcc0-3 (all defined); cc2 = 1: %icc / %xcc. */
		r->flags = (FIELD(insn, F_MOV_CC2) && !int_cc_valid(FIELD(insn, F_MOV_CC))) ? ILL : OTH;
		break;
	case A_MOVR:
		r->flags = rcond_valid(FIELD(insn, F_MOVR_RCOND)) ? OTH : ILL;
		break;
	case A_TCC:
		if (!int_cc_valid(FIELD(insn, F_TCC_CC)))
			r->flags = ILL;
		else if (FIELD(insn, F_COND) == COND_NEVER)
			r->flags = OTH; /* TN: footnote 9 */
		else
			r->flags = OTH | HVPMU_IC_SYSCALL;
		break;
	case A_FPOP1:
		r->flags = opf_flags(fpop1_ranges, COUNT_OF(fpop1_ranges), FIELD(insn, F_OPF));
		break;
	case A_FPOP2:
		r->flags = opf_flags(fpop2_ranges, COUNT_OF(fpop2_ranges), FIELD(insn, F_OPF));
		break;
	case A_IMPDEP1:
		r->flags = opf_flags(impdep1_ranges, COUNT_OF(impdep1_ranges), FIELD(insn, F_OPF));
		break;
	case A_FOUR_OP:
		r->flags = ((d->op5_valid >> FIELD(insn, F_OP5)) & 1u) ? d->flags : ILL;
		break;
	case A_PLAIN:
	default:
		r->flags = d->flags;
		break;
	}
}

/* Alternate-space part: %asi vs immediate ASI, per-form ASI sets, NTC. */
static void decode_alt(uint32_t insn, const struct mem_desc *d, struct result *r)
{
	const struct asi_form_sets *sets;
	uint32_t asi;

	if (FIELD(insn, F_I)) {
		/* ASI from %asi: unknown at decode time (see docs). */
		r->flags = (d->kind == M_ALT_FIXED) ? d->flags : (d->kind == M_ALT_LOAD ? LD : ST);
		r->flags |= HVPMU_IC_ALTSPACE_DYN;
		return;
	}
	asi = FIELD(insn, F_ASI);
	r->asi = (uint8_t)asi;
	if (d->kind == M_ALT_FIXED) {
		r->flags = d->flags;
		return;
	}
	sets = &asi_forms[d->form];
	if (asi_in(sets->spr, asi))
		r->flags = SPR;
	else
		r->flags = (d->kind == M_ALT_LOAD) ? LD : ST;
	if (asi_is_ntc(asi))
		r->flags |= NTC;
	if (asi_in(sets->block, asi)) {
		r->flags |= HVPMU_IC_BLOCK;
		r->uops = UOPS_BLOCK;
	} else if (asi_in(sets->twin, asi)) {
		r->uops = UOPS_TWIN;
	}
}

static void decode_mem(uint32_t insn, struct result *r)
{
	const struct mem_desc *d = &mem_table[FIELD(insn, F_OP3)];

	switch (d->kind) {
	case M_ALT_LOAD:
	case M_ALT_STORE:
	case M_ALT_FIXED:
		decode_alt(insn, d, r);
		break;
	case M_FSR:
		r->flags = FIELD(insn, F_RD) <= FSR_RD_LAST ? d->flags : ILL;
		break;
	case M_PLAIN:
	default:
		r->flags = d->flags ? d->flags : ILL;
		break;
	}
}

/* Prediction kind of JMPL / RETURN (SPARC V9 synthetic ret, retl, call). */
static uint32_t cti_kind(uint32_t insn)
{
	uint32_t op3 = FIELD(insn, F_OP3), rs1 = FIELD(insn, F_RS1);
	int ret8 = FIELD(insn, F_I) == 1 && FIELD(insn, F_SIMM13) == RET_OFFSET &&
		   (rs1 == REG_I7 || rs1 == REG_O7);

	if (op3 == OP3_RETURN)
		return HVPMU_IC_INDIRECT | (ret8 ? HVPMU_IC_RET : 0);
	if (op3 != OP3_JMPL)
		return 0;
	if (FIELD(insn, F_RD) == REG_O7)
		return HVPMU_IC_INDIRECT | HVPMU_IC_CALL;
	return HVPMU_IC_INDIRECT | (ret8 && FIELD(insn, F_RD) == REG_G0 ? HVPMU_IC_RET : 0);
}

uint32_t hvpmu_sparc_decode(uint32_t insn, uint64_t pc, struct hvpmu_sparc_insn *out)
{
	struct result r = { .flags = 0, .uops = UOPS_ONE };

	switch (FIELD(insn, F_OP)) {
	case OP_FMT2:
		decode_fmt2(insn, pc, &r);
		break;
	case OP_CALL:
		r.flags = BR | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_CALL;
		set_target(&r, pc, FIELD(insn, F_DISP30), DISP30_BITS);
		break;
	case OP_ARITH:
		decode_arith(insn, &r);
		if ((r.flags & HVPMU_IC_ILLEGAL) == 0)
			r.flags |= cti_kind(insn);
		break;
	case OP_MEM:
	default:
		decode_mem(insn, &r);
		break;
	}

	out->flags = r.flags;
	out->uops = r.uops;
	out->asi = r.asi;
	out->has_target = r.has_target;
	out->annul = r.annul;
	out->target = r.target; /* 0 unless has_target */
	return r.flags;
}

/* ------------------------------------------------------------------------
 * Operands for the software-prefetch address recovery rule
 * (docs/prefetch-model.md).  SPARC V9 A.49 (PREFETCH/PREFETCHA), A.27
 * (loads), A.52 (stores), A.9 (CASA): the effective address is
 * r[rs1] + (i ? sign_ext(simm13) : r[rs2]); CASA/CASXA use r[rs1] alone.
 * ------------------------------------------------------------------------ */
enum { REG_FIRST_WINDOWED = 8 };
#define WINDOWED_REGS (~((1u << REG_FIRST_WINDOWED) - 1u))
#define ALL_REGS (~1u) /* r1..r31 (r0 = %g0 is never written) */
#define SIMM13_SIGN (1u << (FIELD_LEN(F_SIMM13) - 1))

/* Integer register rd written by op = 2 (format 3 arithmetic) op3. */
static uint32_t arith_writes(uint32_t insn)
{
	uint32_t rd = 1u << FIELD(insn, F_RD);

	switch (FIELD(insn, F_OP3)) {
	case OP3_FPOP1: case OP3_FPOP2: case OP3_IMPDEP2: /* FP registers only */
	case OP3_WRASR: case OP3_SAVED: case OP3_WRPR: case OP3_WRHPR:
	case OP3_FLUSH: case OP3_FLUSHW:
		return 0;
	case OP3_SAVE: case OP3_RESTORE: case OP3_RETURN: /* new register window */
		return WINDOWED_REGS | rd;
	case OP3_TCC: case OP3_DONE_RETRY: /* the OS may change any register */
		return ALL_REGS;
	default: /* ALU, shifts, RD*, MOVcc, MOVr, POPC, JMPL, IMPDEP1 (VIS ops
		    with an integer rd; conservative for the others) */
		return rd;
	}
}

void hvpmu_sparc_operands(uint32_t insn, struct hvpmu_sparc_operands *o)
{
	uint32_t op = FIELD(insn, F_OP), op3 = FIELD(insn, F_OP3), rd = FIELD(insn, F_RD);
	uint32_t imm = FIELD(insn, F_SIMM13);
	struct hvpmu_sparc_insn d;

	*o = (struct hvpmu_sparc_operands){ 0 };
	hvpmu_sparc_decode(insn, 0, &d);
	o->cti = (d.flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) != 0;
	if (op == OP_FMT2) {
		o->writes = FIELD(insn, F_OP2) == OP2_SETHI ? 1u << rd : 0;
	} else if (op == OP_CALL) {
		o->writes = 1u << REG_O7;
	} else if (op == OP_ARITH) {
		o->writes = arith_writes(insn);
	}
	o->writes &= ALL_REGS;
	if (op != OP_MEM || (d.flags & HVPMU_IC_ILLEGAL))
		return;
	o->rs1 = (uint8_t)FIELD(insn, F_RS1);
	o->rs2 = (uint8_t)(insn & 0x1fu);
	o->simm13 = (int32_t)((imm ^ SIMM13_SIGN) - SIMM13_SIGN);
	o->form = FIELD(insn, F_I) ? HVPMU_SA_IMM : HVPMU_SA_REG;
	switch (op3) {
	case OP3_LDUW: case OP3_LDUB: case OP3_LDUH: case OP3_LDSW: case OP3_LDSB: case OP3_LDSH:
	case OP3_LDX: case OP3_LDSTUB: case OP3_SWAP:
		o->writes = (1u << rd) & ALL_REGS;
		o->donor = 1;
		break;
	case OP3_LDTW: /* rd, rd + 1 */
		o->writes = (3u << (rd & ~1u)) & ALL_REGS;
		o->donor = 1;
		break;
	case OP3_STW: case OP3_STB: case OP3_STH: case OP3_STTW: case OP3_STX:
	case OP3_LDF: case OP3_LDDF: case OP3_STF: case OP3_STDF:
		o->donor = 1;
		break;
	case OP3_CASA: case OP3_CASXA: /* address r[rs1]; rs2 is the compare value */
		o->writes = (1u << rd) & ALL_REGS;
		o->form = HVPMU_SA_IMM;
		o->simm13 = 0;
		o->donor = 1;
		break;
	case OP3_PREFETCH: case OP3_PREFETCHA:
		o->prefetch = 1;
		o->fcn = (uint8_t)rd;
		break;
	case OP3_LDUWA: case OP3_LDUBA: case OP3_LDUHA: case OP3_LDSWA: case OP3_LDSBA:
	case OP3_LDSHA: case OP3_LDXA: case OP3_LDSTUBA: case OP3_SWAPA:
		o->writes = (1u << rd) & ALL_REGS;
		break;
	case OP3_LDTWA:
		o->writes = (3u << (rd & ~1u)) & ALL_REGS;
		break;
	default: /* other stores, FP loads (quad, FSR, alternate): no integer rd */
		break;
	}
	if (!o->donor && !o->prefetch)
		o->form = HVPMU_SA_NONE; /* not used as an address source */
}

int hvpmu_sparc_restarts(uint32_t insn)
{
	/* ldstuba (op 3, op3 0x1d) with an ASI QEMU has no parallel code for
	 * (anything but the direct ones) leaves its block before it takes
	 * effect with several threads and runs again, alone, in
	 * cpu_exec_step_atomic() (QEMU 10.0 target/sparc/translate.c
	 * gen_ldstub_asi): every ldstuba is taken as one that may */
	if (FIELD(insn, F_OP) == OP_MEM && FIELD(insn, F_OP3) == OP3_LDSTUBA)
		return 1;
	if (FIELD(insn, F_OP) != OP_ARITH)
		return 0;
	switch (FIELD(insn, F_OP3)) {
	case OP3_SAVE: case OP3_RESTORE: case OP3_RETURN: case OP3_FLUSHW: case OP3_TCC:
		return 1;
	default:
		return 0;
	}
}
