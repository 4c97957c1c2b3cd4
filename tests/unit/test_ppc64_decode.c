/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_ppc64_decode.c - unit tests for the 64-bit PowerPC instruction set
 * behind the ISA seam: the decoder (src/source/ppc64_decode.c,
 * include/hvpmu/ppc64_decode.h), the descriptor hvpmu_isa_ppc64 and its
 * software-prefetch rules (src/source/isa_ppc64.c), with the classes and
 * choices of docs/ppc64-isa.md.
 *
 * Instruction words in the vector tables were produced by GNU as 2.40
 * (`powerpc64-linux-gnu-as -many`) and read back with
 * `powerpc64-linux-gnu-objdump -d -M any`, whose text is given beside each
 * word; entries in square brackets are encodings the assembler refuses,
 * built from their fields.  Branch targets are given relative to the
 * branch, or absolute for the AA = 1 forms.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hvpmu/isa.h"
#include "hvpmu/ppc64_decode.h"

#define X_LD HVPMU_IC_LOAD
#define X_ST HVPMU_IC_STORE
#define X_FP HVPMU_IC_FP
#define X_BR HVPMU_IC_BRANCH
#define X_SPR HVPMU_IC_SPR
#define X_OTH HVPMU_IC_OTHER
#define X_LL HVPMU_IC_LOAD_LINKED
#define X_SC HVPMU_IC_STORE_COND
#define X_PF HVPMU_IC_PREFETCH
#define X_BLK HVPMU_IC_BLOCK
#define X_NTC HVPMU_IC_NTC
#define X_ILL HVPMU_IC_ILLEGAL
#define X_SYS HVPMU_IC_SYSCALL
#define X_COND HVPMU_IC_CTI_COND
#define X_ALW HVPMU_IC_CTI_ALWAYS
#define X_CALL HVPMU_IC_CALL
#define X_RET HVPMU_IC_RET
#define X_IND HVPMU_IC_INDIRECT

/* Every flag the ppc64 decoder may set. */
#define PPC_FLAGS ((uint32_t)(HVPMU_IC_GROUPS | X_LL | X_SC | X_PF | X_BLK | X_NTC | X_ILL | X_SYS | \
	X_COND | X_ALW | X_CALL | X_RET | X_IND))

#define TEST_PC UINT64_C(0x0000000010000100)

struct vec {
	uint32_t word;
	uint32_t flags;
	const char *text;
};

/* Non-branches: loads, stores, arithmetic, SPR, FP/vector. */
static const struct vec vec_classes[] = {
	{ 0x88640008, X_LD, "lbz r3,8(r4)" },
	{ 0x8c640008, X_LD, "lbzu r3,8(r4)" },
	{ 0xa0640002, X_LD, "lhz r3,2(r4)" },
	{ 0xa4640002, X_LD, "lhzu r3,2(r4)" },
	{ 0xa8640002, X_LD, "lha r3,2(r4)" },
	{ 0xac640002, X_LD, "lhau r3,2(r4)" },
	{ 0x80640004, X_LD, "lwz r3,4(r4)" },
	{ 0x84640004, X_LD, "lwzu r3,4(r4)" },
	{ 0xe8640006, X_LD, "lwa r3,4(r4)" },
	{ 0xe8640010, X_LD, "ld r3,16(r4)" },
	{ 0xe864fff1, X_LD, "ldu r3,-16(r4)" },
	{ 0x7c6428ae, X_LD, "lbzx r3,r4,r5" },
	{ 0x7c6428ee, X_LD, "lbzux r3,r4,r5" },
	{ 0x7c642a2e, X_LD, "lhzx r3,r4,r5" },
	{ 0x7c642a6e, X_LD, "lhzux r3,r4,r5" },
	{ 0x7c642aae, X_LD, "lhax r3,r4,r5" },
	{ 0x7c642aee, X_LD, "lhaux r3,r4,r5" },
	{ 0x7c64282e, X_LD, "lwzx r3,r4,r5" },
	{ 0x7c64286e, X_LD, "lwzux r3,r4,r5" },
	{ 0x7c642aaa, X_LD, "lwax r3,r4,r5" },
	{ 0x7c642aea, X_LD, "lwaux r3,r4,r5" },
	{ 0x7c64282a, X_LD, "ldx r3,r4,r5" },
	{ 0x7c64286a, X_LD, "ldux r3,r4,r5" },
	{ 0x7c642e2c, X_LD, "lhbrx r3,r4,r5" },
	{ 0x7c642c2c, X_LD, "lwbrx r3,r4,r5" },
	{ 0x7c642c28, X_LD, "ldbrx r3,r4,r5" },
	{ 0xbb840008, X_LD|X_BLK, "lmw r28,8(r4)" },
	{ 0x7ca464aa, X_LD|X_BLK, "lswi r5,r4,12" },
	{ 0x7ca4342a, X_LD|X_BLK, "lswx r5,r4,r6" },
	{ 0x7c602028, X_LD|X_LL, "lwarx r3,0,r4" },
	{ 0x7c6020a8, X_LD|X_LL, "ldarx r3,0,r4" },
	{ 0x7c602068, X_LD|X_LL, "lbarx r3,0,r4" },
	{ 0x7c6020e8, X_LD|X_LL, "lharx r3,0,r4" },
	{ 0xc0240004, X_LD, "lfs f1,4(r4)" },
	{ 0xc4240004, X_LD, "lfsu f1,4(r4)" },
	{ 0xc8240008, X_LD, "lfd f1,8(r4)" },
	{ 0xcc240008, X_LD, "lfdu f1,8(r4)" },
	{ 0x7c242c2e, X_LD, "lfsx f1,r4,r5" },
	{ 0x7c242c6e, X_LD, "lfsux f1,r4,r5" },
	{ 0x7c242cae, X_LD, "lfdx f1,r4,r5" },
	{ 0x7c242cee, X_LD, "lfdux f1,r4,r5" },
	{ 0x7c242eae, X_LD, "lfiwax f1,r4,r5" },
	{ 0x7c242eee, X_LD, "lfiwzx f1,r4,r5" },
	{ 0x7c4428ce, X_LD, "lvx v2,r4,r5" },
	{ 0x7c442ace, X_LD, "lvxl v2,r4,r5" },
	{ 0x7c44280e, X_LD, "lvebx v2,r4,r5" },
	{ 0x7c44284e, X_LD, "lvehx v2,r4,r5" },
	{ 0x7c44288e, X_LD, "lvewx v2,r4,r5" },
	{ 0x7c442e98, X_LD, "lxvd2x vs2,r4,r5" },
	{ 0x7c442e18, X_LD, "lxvw4x vs2,r4,r5" },
	{ 0x7c442c98, X_LD, "lxsdx vs2,r4,r5" },
	{ 0x7c442a98, X_LD, "lxvdsx vs2,r4,r5" },
	{ 0xe0850010, X_LD, "lq r4,16(r5)" },
	{ 0x98640008, X_ST, "stb r3,8(r4)" },
	{ 0x9c640008, X_ST, "stbu r3,8(r4)" },
	{ 0xb0640002, X_ST, "sth r3,2(r4)" },
	{ 0xb4640002, X_ST, "sthu r3,2(r4)" },
	{ 0x90640004, X_ST, "stw r3,4(r4)" },
	{ 0x9421ffc0, X_ST, "stwu r1,-64(r1)" },
	{ 0xf8640010, X_ST, "std r3,16(r4)" },
	{ 0xf821ff81, X_ST, "stdu r1,-128(r1)" },
	{ 0x7c6429ae, X_ST, "stbx r3,r4,r5" },
	{ 0x7c6429ee, X_ST, "stbux r3,r4,r5" },
	{ 0x7c642b2e, X_ST, "sthx r3,r4,r5" },
	{ 0x7c642b6e, X_ST, "sthux r3,r4,r5" },
	{ 0x7c64292e, X_ST, "stwx r3,r4,r5" },
	{ 0x7c64296e, X_ST, "stwux r3,r4,r5" },
	{ 0x7c64292a, X_ST, "stdx r3,r4,r5" },
	{ 0x7c64296a, X_ST, "stdux r3,r4,r5" },
	{ 0x7c642f2c, X_ST, "sthbrx r3,r4,r5" },
	{ 0x7c642d2c, X_ST, "stwbrx r3,r4,r5" },
	{ 0x7c642d28, X_ST, "stdbrx r3,r4,r5" },
	{ 0xbf840008, X_ST|X_BLK, "stmw r28,8(r4)" },
	{ 0x7ca465aa, X_ST|X_BLK, "stswi r5,r4,12" },
	{ 0x7ca4352a, X_ST|X_BLK, "stswx r5,r4,r6" },
	{ 0x7c60212d, X_ST|X_SC, "stwcx. r3,0,r4" },
	{ 0x7c6021ad, X_ST|X_SC, "stdcx. r3,0,r4" },
	{ 0x7c60256d, X_ST|X_SC, "stbcx. r3,0,r4" },
	{ 0x7c6025ad, X_ST|X_SC, "sthcx. r3,0,r4" },
	{ 0xd0240004, X_ST, "stfs f1,4(r4)" },
	{ 0xd4240004, X_ST, "stfsu f1,4(r4)" },
	{ 0xd8240008, X_ST, "stfd f1,8(r4)" },
	{ 0xdc240008, X_ST, "stfdu f1,8(r4)" },
	{ 0x7c242d2e, X_ST, "stfsx f1,r4,r5" },
	{ 0x7c242d6e, X_ST, "stfsux f1,r4,r5" },
	{ 0x7c242dae, X_ST, "stfdx f1,r4,r5" },
	{ 0x7c242dee, X_ST, "stfdux f1,r4,r5" },
	{ 0x7c242fae, X_ST, "stfiwx f1,r4,r5" },
	{ 0x7c4429ce, X_ST, "stvx v2,r4,r5" },
	{ 0x7c442bce, X_ST, "stvxl v2,r4,r5" },
	{ 0x7c44290e, X_ST, "stvebx v2,r4,r5" },
	{ 0x7c44294e, X_ST, "stvehx v2,r4,r5" },
	{ 0x7c44298e, X_ST, "stvewx v2,r4,r5" },
	{ 0x7c442f98, X_ST, "stxvd2x vs2,r4,r5" },
	{ 0x7c442f18, X_ST, "stxvw4x vs2,r4,r5" },
	{ 0x7c442d98, X_ST, "stxsdx vs2,r4,r5" },
	{ 0xf8850012, X_ST, "stq r4,16(r5)" },
	{ 0x7c042fec, X_ST|X_BLK, "dcbz r4,r5" },
	{ 0x60000000, X_OTH, "nop" },
	{ 0x60830001, X_OTH, "ori r3,r4,1" },
	{ 0x7c832378, X_OTH, "mr r3,r4" },
	{ 0x3860ffff, X_OTH, "li r3,-1" },
	{ 0x3c600001, X_OTH, "lis r3,1" },
	{ 0x38640008, X_OTH, "addi r3,r4,8" },
	{ 0x3c640008, X_OTH, "addis r3,r4,8" },
	{ 0x30640001, X_OTH, "addic r3,r4,1" },
	{ 0x34640001, X_OTH, "addic. r3,r4,1" },
	{ 0x20640001, X_OTH, "subfic r3,r4,1" },
	{ 0x1c640003, X_OTH, "mulli r3,r4,3" },
	{ 0x7c642a14, X_OTH, "add r3,r4,r5" },
	{ 0x7c642e14, X_OTH, "addo r3,r4,r5" },
	{ 0x7c642a15, X_OTH, "add. r3,r4,r5" },
	{ 0x7c642850, X_OTH, "subf r3,r4,r5" },
	{ 0x7c642c51, X_OTH, "subfo. r3,r4,r5" },
	{ 0x7c6400d0, X_OTH, "neg r3,r4" },
	{ 0x7c642814, X_OTH, "addc r3,r4,r5" },
	{ 0x7c642914, X_OTH, "adde r3,r4,r5" },
	{ 0x7c640194, X_OTH, "addze r3,r4" },
	{ 0x7c6401d4, X_OTH, "addme r3,r4" },
	{ 0x7c642810, X_OTH, "subfc r3,r4,r5" },
	{ 0x7c642910, X_OTH, "subfe r3,r4,r5" },
	{ 0x7c640190, X_OTH, "subfze r3,r4" },
	{ 0x7c6401d0, X_OTH, "subfme r3,r4" },
	{ 0x7c6429d2, X_OTH, "mulld r3,r4,r5" },
	{ 0x7c6429d6, X_OTH, "mullw r3,r4,r5" },
	{ 0x7c642892, X_OTH, "mulhd r3,r4,r5" },
	{ 0x7c642812, X_OTH, "mulhdu r3,r4,r5" },
	{ 0x7c642896, X_OTH, "mulhw r3,r4,r5" },
	{ 0x7c642816, X_OTH, "mulhwu r3,r4,r5" },
	{ 0x7c642bd2, X_OTH, "divd r3,r4,r5" },
	{ 0x7c642b92, X_OTH, "divdu r3,r4,r5" },
	{ 0x7c642bd6, X_OTH, "divw r3,r4,r5" },
	{ 0x7c642b96, X_OTH, "divwu r3,r4,r5" },
	{ 0x7c642b52, X_OTH, "divde r3,r4,r5" },
	{ 0x7c642b12, X_OTH, "divdeu r3,r4,r5" },
	{ 0x7c642b56, X_OTH, "divwe r3,r4,r5" },
	{ 0x7c642b16, X_OTH, "divweu r3,r4,r5" },
	{ 0x7c832838, X_OTH, "and r3,r4,r5" },
	{ 0x7c832878, X_OTH, "andc r3,r4,r5" },
	{ 0x7c832b78, X_OTH, "or r3,r4,r5" },
	{ 0x7c832b38, X_OTH, "orc r3,r4,r5" },
	{ 0x7c832a78, X_OTH, "xor r3,r4,r5" },
	{ 0x7c832bb8, X_OTH, "nand r3,r4,r5" },
	{ 0x7c8328f8, X_OTH, "nor r3,r4,r5" },
	{ 0x7c832a38, X_OTH, "eqv r3,r4,r5" },
	{ 0x70830001, X_OTH, "andi. r3,r4,1" },
	{ 0x74830001, X_OTH, "andis. r3,r4,1" },
	{ 0x68830001, X_OTH, "xori r3,r4,1" },
	{ 0x6c830001, X_OTH, "xoris r3,r4,1" },
	{ 0x64830001, X_OTH, "oris r3,r4,1" },
	{ 0x7c830774, X_OTH, "extsb r3,r4" },
	{ 0x7c830734, X_OTH, "extsh r3,r4" },
	{ 0x7c8307b4, X_OTH, "extsw r3,r4" },
	{ 0x7c830034, X_OTH, "cntlzw r3,r4" },
	{ 0x7c830074, X_OTH, "cntlzd r3,r4" },
	{ 0x7c8300f4, X_OTH, "popcntb r3,r4" },
	{ 0x7c8302f4, X_OTH, "popcntw r3,r4" },
	{ 0x7c8303f4, X_OTH, "popcntd r3,r4" },
	{ 0x7c830134, X_OTH, "prtyw r3,r4" },
	{ 0x7c830174, X_OTH, "prtyd r3,r4" },
	{ 0x7c832bf8, X_OTH, "cmpb r3,r4,r5" },
	{ 0x7c8329f8, X_OTH, "bpermd r3,r4,r5" },
	{ 0x7c832830, X_OTH, "slw r3,r4,r5" },
	{ 0x7c832c30, X_OTH, "srw r3,r4,r5" },
	{ 0x7c832e30, X_OTH, "sraw r3,r4,r5" },
	{ 0x7c832e70, X_OTH, "srawi r3,r4,5" },
	{ 0x7c832836, X_OTH, "sld r3,r4,r5" },
	{ 0x7c832c36, X_OTH, "srd r3,r4,r5" },
	{ 0x7c832e34, X_OTH, "srad r3,r4,r5" },
	{ 0x7c832e74, X_OTH, "sradi r3,r4,5" },
	{ 0x7c834676, X_OTH, "sradi r3,r4,40" },
	{ 0x5483103a, X_OTH, "slwi r3,r4,2" },
	{ 0x5083103a, X_OTH, "rlwimi r3,r4,2,0,29" },
	{ 0x5c83283e, X_OTH, "rotlw r3,r4,r5" },
	{ 0x78831000, X_OTH, "rotldi r3,r4,2" },
	{ 0x78834002, X_OTH, "rotldi r3,r4,40" },
	{ 0x78831764, X_OTH, "sldi r3,r4,2" },
	{ 0x78831008, X_OTH, "rldic r3,r4,2,0" },
	{ 0x7883100c, X_OTH, "rldimi r3,r4,2,0" },
	{ 0x78832810, X_OTH, "rotld r3,r4,r5" },
	{ 0x78832ff2, X_OTH, "rldcr r3,r4,r5,63" },
	{ 0x7c64289e, X_OTH, "iseleq r3,r4,r5" },
	{ 0x7c642fde, X_OTH, "isel r3,r4,r5,4*cr7+so" },
	{ 0x7c242800, X_OTH, "cmpd r4,r5" },
	{ 0x7c042800, X_OTH, "cmpw r4,r5" },
	{ 0x7c242840, X_OTH, "cmpld r4,r5" },
	{ 0x7c042840, X_OTH, "cmplw r4,r5" },
	{ 0x2c240005, X_OTH, "cmpdi r4,5" },
	{ 0x28040005, X_OTH, "cmplwi r4,5" },
	{ 0x4cc63182, X_OTH, "crclr 4*cr1+eq" },
	{ 0x4c432382, X_OTH, "cror eq,so,4*cr1+lt" },
	{ 0x4c432202, X_OTH, "crand eq,so,4*cr1+lt" },
	{ 0x4c432102, X_OTH, "crandc eq,so,4*cr1+lt" },
	{ 0x4c432042, X_OTH, "crnor eq,so,4*cr1+lt" },
	{ 0x4c4321c2, X_OTH, "crnand eq,so,4*cr1+lt" },
	{ 0x4c432242, X_OTH, "creqv eq,so,4*cr1+lt" },
	{ 0x4c432342, X_OTH, "crorc eq,so,4*cr1+lt" },
	{ 0x4c880000, X_OTH, "mcrf cr1,cr2" },
	{ 0x7c600026, X_OTH, "mfcr r3" },
	{ 0x7c780026, X_OTH, "mfocrf r3,128" },
	{ 0x7c6ff120, X_OTH, "mtcr r3" },
	{ 0x7c780120, X_OTH, "mtocrf 128,r3" },
	{ 0x7c832008, X_OTH, "tweq r3,r4" },
	{ 0x0c830004, X_OTH, "tweqi r3,4" },
	{ 0x7c832088, X_OTH, "tdeq r3,r4" },
	{ 0x08830004, X_OTH, "tdeqi r3,4" },
	{ 0x7fe00008, X_OTH, "trap" },
	{ 0x44000002, X_OTH|X_SYS, "sc" },
	{ 0x7c0004ac, X_OTH|X_NTC, "hwsync" },
	{ 0x7c2004ac, X_OTH|X_NTC, "lwsync" },
	{ 0x7c4004ac, X_OTH|X_NTC, "ptesync" },
	{ 0x7c0006ac, X_OTH|X_NTC, "eieio" },
	{ 0x4c00012c, X_OTH|X_NTC, "isync" },
	{ 0x7c00222c, X_OTH|X_PF, "dcbtct 0,r4" },
	{ 0x7c03222c, X_OTH|X_PF, "dcbtct r3,r4" },
	{ 0x7c0021ec, X_OTH|X_PF, "dcbtstct 0,r4" },
	{ 0x7c0020ac, X_OTH, "dcbf 0,r4" },
	{ 0x7c00206c, X_OTH, "dcbst 0,r4" },
	{ 0x7c0027ac, X_OTH, "icbi 0,r4" },
	{ 0x44000001, X_OTH | X_SYS, "scv 0 (3.0: glibc's system call where the kernel offers it)" },
	{ 0x7c00003c, X_OTH, "wait (the 3.0 encoding)" },
	{ 0x7c00007c, X_OTH, "[wait: the 2.06 encoding, XO 62]" },
	{ 0x7c0802a6, X_SPR, "mflr r0" },
	{ 0x7c0803a6, X_SPR, "mtlr r0" },
	{ 0x7c6902a6, X_SPR, "mfctr r3" },
	{ 0x7c6903a6, X_SPR, "mtctr r3" },
	{ 0x7c6102a6, X_SPR, "mfxer r3" },
	{ 0x7c6103a6, X_SPR, "mtxer r3" },
	{ 0x7c6c42e6, X_SPR, "mftb r3" },
	{ 0x7c6042a6, X_SPR, "mfvrsave r3" },
	{ 0x7c6000a6, X_SPR, "mfmsr r3" },
	{ 0x7c600124, X_SPR, "mtmsr r3" },
	{ 0x7c600164, X_SPR, "mtmsrd r3" },
	{ 0x4c000024, X_SPR, "rfid" },
	{ 0x4c000224, X_SPR, "hrfid" },
	{ 0x7c602324, X_SPR, "slbmte r3,r4" },
	{ 0x7c001b64, X_SPR, "slbie r3" },
	{ 0x7c0003e4, X_SPR, "slbia" },
	{ 0x7c6026a6, X_SPR, "slbmfev r3,r4" },
	{ 0x7c602726, X_SPR, "slbmfee r3,r4" },
	{ 0x7c001a64, X_SPR, "tlbie r3,r0" },
	{ 0x7c001a24, X_SPR, "tlbiel r3" },
	{ 0x7c00046c, X_SPR, "tlbsync" },
	{ 0x7c0023ac, X_SPR, "dcbi 0,r4" },
	{ 0x7c6101a4, X_SPR, "mtsr 1,r3" },
	{ 0x7c6021e4, X_SPR, "mtsrin r3,r4" },
	{ 0x7c6104a6, X_SPR, "mfsr r3,1" },
	{ 0x7c602526, X_SPR, "mfsrin r3,r4" },
	{ 0x7c642eaa, X_SPR, "lbzcix r3,r4,r5" },
	{ 0x7c642e6a, X_SPR, "lhzcix r3,r4,r5" },
	{ 0x7c642e2a, X_SPR, "lwzcix r3,r4,r5" },
	{ 0x7c642eea, X_SPR, "ldcix r3,r4,r5" },
	{ 0x7c642faa, X_SPR, "stbcix r3,r4,r5" },
	{ 0x7c642f6a, X_SPR, "sthcix r3,r4,r5" },
	{ 0x7c642f2a, X_SPR, "stwcix r3,r4,r5" },
	{ 0x7c642fea, X_SPR, "stdcix r3,r4,r5" },
	{ 0x4c000324, X_SPR, "doze" },
	{ 0x4c000364, X_SPR, "nap" },
	{ 0x4c0003a4, X_SPR, "sleep" },
	{ 0x4c0003e4, X_SPR, "rvwinkle" },
	{ 0x44000022, X_SPR|X_SYS, "sc 1" },
	{ 0xfc22182a, X_FP, "fadd f1,f2,f3" },
	{ 0xec22182a, X_FP, "fadds f1,f2,f3" },
	{ 0xfc221828, X_FP, "fsub f1,f2,f3" },
	{ 0xec221828, X_FP, "fsubs f1,f2,f3" },
	{ 0xfc2200f2, X_FP, "fmul f1,f2,f3" },
	{ 0xec2200f2, X_FP, "fmuls f1,f2,f3" },
	{ 0xfc221824, X_FP, "fdiv f1,f2,f3" },
	{ 0xec221824, X_FP, "fdivs f1,f2,f3" },
	{ 0xfc20102c, X_FP, "fsqrt f1,f2" },
	{ 0xec20102c, X_FP, "fsqrts f1,f2" },
	{ 0xfc2220fa, X_FP, "fmadd f1,f2,f3,f4" },
	{ 0xec2220fa, X_FP, "fmadds f1,f2,f3,f4" },
	{ 0xfc2220f8, X_FP, "fmsub f1,f2,f3,f4" },
	{ 0xec2220f8, X_FP, "fmsubs f1,f2,f3,f4" },
	{ 0xfc2220fe, X_FP, "fnmadd f1,f2,f3,f4" },
	{ 0xec2220fe, X_FP, "fnmadds f1,f2,f3,f4" },
	{ 0xfc2220fc, X_FP, "fnmsub f1,f2,f3,f4" },
	{ 0xec2220fc, X_FP, "fnmsubs f1,f2,f3,f4" },
	{ 0xfc2220ee, X_FP, "fsel f1,f2,f3,f4" },
	{ 0xfc201030, X_FP, "fre f1,f2" },
	{ 0xec201030, X_FP, "fres f1,f2" },
	{ 0xfc201034, X_FP, "frsqrte f1,f2" },
	{ 0xec201034, X_FP, "frsqrtes f1,f2" },
	{ 0xfc201090, X_FP, "fmr f1,f2" },
	{ 0xfc201050, X_FP, "fneg f1,f2" },
	{ 0xfc201210, X_FP, "fabs f1,f2" },
	{ 0xfc201110, X_FP, "fnabs f1,f2" },
	{ 0xfc221810, X_FP, "fcpsgn f1,f2,f3" },
	{ 0xfc821800, X_FP, "fcmpu cr1,f2,f3" },
	{ 0xfc821840, X_FP, "fcmpo cr1,f2,f3" },
	{ 0xfc201018, X_FP, "frsp f1,f2" },
	{ 0xfc20101c, X_FP, "fctiw f1,f2" },
	{ 0xfc20101e, X_FP, "fctiwz f1,f2" },
	{ 0xfc20165c, X_FP, "fctid f1,f2" },
	{ 0xfc20165e, X_FP, "fctidz f1,f2" },
	{ 0xfc20169c, X_FP, "fcfid f1,f2" },
	{ 0xec20169c, X_FP, "fcfids f1,f2" },
	{ 0xfc20179c, X_FP, "fcfidu f1,f2" },
	{ 0xec20179c, X_FP, "fcfidus f1,f2" },
	{ 0xfc20175c, X_FP, "fctidu f1,f2" },
	{ 0xfc20175e, X_FP, "fctiduz f1,f2" },
	{ 0xfc20111c, X_FP, "fctiwu f1,f2" },
	{ 0xfc20111e, X_FP, "fctiwuz f1,f2" },
	{ 0xfc201310, X_FP, "frin f1,f2" },
	{ 0xfc201350, X_FP, "friz f1,f2" },
	{ 0xfc201390, X_FP, "frip f1,f2" },
	{ 0xfc2013d0, X_FP, "frim f1,f2" },
	{ 0xfc821900, X_FP, "ftdiv cr1,f2,f3" },
	{ 0xfc801140, X_FP, "ftsqrt cr1,f2" },
	{ 0xfc20048e, X_FP, "mffs f1" },
	{ 0xfdfe0d8e, X_FP, "mtfsf 255,f1" },
	{ 0xff80010c, X_FP, "mtfsfi 7,0" },
	{ 0xffe0008c, X_FP, "mtfsb0 31" },
	{ 0xffe0004c, X_FP, "mtfsb1 31" },
	{ 0xfc880080, X_FP, "mcrfs cr1,cr2" },
	{ 0x10432000, X_FP, "vaddubm v2,v3,v4" },
	{ 0x1043216b, X_FP, "vperm v2,v3,v4,v5" },
	{ 0x104214c4, X_FP, "vxor v2,v2,v2" },
	{ 0x10400604, X_FP, "mfvscr v2" },
	{ 0x7c44280c, X_FP, "lvsl v2,r4,r5" },
	{ 0x7c44284c, X_FP, "lvsr v2,r4,r5" },
	{ 0xf0432100, X_FP, "xsadddp vs2,vs3,vs4" },
	{ 0xf04324d0, X_FP, "xxlxor vs2,vs3,vs4" },
	{ 0xf0432308, X_FP, "xvmaddadp vs2,vs3,vs4" },
	{ 0xf0432150, X_FP, "xxpermdi vs2,vs3,vs4,1" },
};

struct bvec {
	uint32_t word;
	uint32_t flags;
	uint8_t has_target;
	uint8_t absolute; /* AA = 1: target is `delta` itself */
	int64_t delta;    /* target - pc */
	const char *text;
};

/* Branches, at offset 0x00..0x64 of one section (objdump's targets). */
static const struct bvec vec_branches[] = {
	{ 0x48000068, X_BR | X_ALW, 1, 0, 0x68, "0: b 0x68" },
	{ 0x48000065, X_BR | X_ALW | X_CALL, 1, 0, 0x64, "4: bl 0x68" },
	{ 0x4bfffff8, X_BR | X_ALW, 1, 0, -8, "8: b 0x0" },
	{ 0x48000102, X_BR | X_ALW, 1, 1, 0x100, "c: ba 0x100" },
	{ 0x48000103, X_BR | X_ALW | X_CALL, 1, 1, 0x100, "10: bla 0x100" },
	{ 0x41820054, X_BR | X_COND, 1, 0, 0x54, "14: beq 0x68" },
	{ 0x408affe8, X_BR | X_COND, 1, 0, -0x18, "18: bne cr2,0x0" },
	{ 0x4200ffe4, X_BR | X_COND, 1, 0, -0x1c, "1c: bdnz 0x0" },
	{ 0x42400048, X_BR | X_COND, 1, 0, 0x48, "20: bdz 0x68" },
	{ 0x41020044, X_BR | X_COND, 1, 0, 0x44, "24: bdnzt eq,0x68" },
	{ 0x42800040, X_BR | X_ALW, 1, 0, 0x40, "28: bc 20,lt,0x68 (branch always)" },
	{ 0x429f0005, X_BR | X_ALW, 1, 0, 4, "2c: bcl 20,4*cr7+so,0x30 (reads the PC: no call)" },
	{ 0x41820039, X_BR | X_COND | X_CALL, 1, 0, 0x38, "30: beql 0x68" },
	{ 0x41820202, X_BR | X_COND, 1, 1, 0x200, "34: beqa 0x200" },
	{ 0x4e800020, X_BR | X_ALW | X_IND | X_RET, 0, 0, 0, "38: blr" },
	{ 0x4e800021, X_BR | X_ALW | X_IND | X_CALL, 0, 0, 0, "3c: blrl" },
	{ 0x4d820020, X_BR | X_COND | X_IND | X_RET, 0, 0, 0, "40: beqlr" },
	{ 0x4c860020, X_BR | X_COND | X_IND | X_RET, 0, 0, 0, "44: bnelr cr1" },
	{ 0x4e000020, X_BR | X_COND | X_IND | X_RET, 0, 0, 0, "48: bdnzlr" },
	{ 0x4e800820, X_BR | X_ALW | X_IND, 0, 0, 0, "4c: blr 1 (BH = 01: no return)" },
	{ 0x4e800420, X_BR | X_ALW | X_IND, 0, 0, 0, "50: bctr" },
	{ 0x4e800421, X_BR | X_ALW | X_IND | X_CALL, 0, 0, 0, "54: bctrl" },
	{ 0x4d820420, X_BR | X_COND | X_IND, 0, 0, 0, "58: beqctr" },
	{ 0x4c820421, X_BR | X_COND | X_IND | X_CALL, 0, 0, 0, "5c: bnectrl" },
	{ 0x4e000420, X_OTH | X_ILL, 0, 0, 0, "60: bcctr 16,lt (BO_2 = 0: invalid form)" },
	{ 0x4e800460, X_BR | X_ALW | X_IND, 0, 0, 0, "64: btar (2.07)" },
};

/* Undefined encodings. */
static const uint32_t vec_undefined[] = {
	0x00000000, /* primary 0 */
	0x14000000, /* [primary 5] */
	0x58000000, /* primary 22: rlmi (POWER, not 2.06) */
	0x44000000, /* svc 0,0,0 (bits 30:31 = 0b00: neither sc nor scv) */
	0x44000082, /* sc 4 (LEV reserved) */
	0x7c00003e, /* 31/31: lwepx (Book III-E only) */
	0x4c000002, /* [19/1] */
	0xec000026, /* [59 A-form XO 19] */
	0xfc000036, /* [63 A-form XO 27] */
	0xfc000004, /* 63 X-form XO 2: daddq (DFP, not decoded) */
	0xe8000003, /* [58 DS XO 3] */
	0xf8000003, /* [62 DS XO 3] */
	0x78000014, /* [30 MDS XO 10] */
};

static void check_vec(const struct vec *v)
{
	struct hvpmu_insn d;
	uint32_t f;

	memset(&d, 0xa5, sizeof d);
	f = hvpmu_ppc64_decode(v->word, TEST_PC, &d);
	if (f != v->flags || d.flags != f || d.annul || d.has_target || d.target)
		fail_msg("%08x %s: flags %#x, want %#x", v->word, v->text, f, v->flags);
}

static void test_classes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof vec_classes / sizeof vec_classes[0]; i++)
		check_vec(&vec_classes[i]);
}

static void test_branches(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof vec_branches / sizeof vec_branches[0]; i++) {
		const struct bvec *v = &vec_branches[i];
		struct hvpmu_insn d;
		uint32_t f = hvpmu_ppc64_decode(v->word, TEST_PC, &d);
		uint64_t want = v->absolute ? (uint64_t)v->delta : TEST_PC + (uint64_t)v->delta;

		if (f != v->flags || d.has_target != v->has_target || d.annul || (v->has_target && d.target != want))
			fail_msg("%08x %s: flags %#x target %#llx, want %#x %#llx", v->word, v->text, f,
				 (unsigned long long)d.target, v->flags, (unsigned long long)want);
	}
}

static void test_undefined(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof vec_undefined / sizeof vec_undefined[0]; i++) {
		struct hvpmu_insn d;

		if (hvpmu_ppc64_decode(vec_undefined[i], TEST_PC, &d) != (X_OTH | X_ILL) || d.uops != 1)
			fail_msg("%08x: flags %#x, want undefined", vec_undefined[i], d.flags);
	}
}

/* Micro-ops: registers moved by lmw/stmw and lswi/stswi (header). */
static void test_uops(void **state)
{
	struct hvpmu_insn d;

	(void)state;
	hvpmu_ppc64_decode(0xbb840008, 0, &d); /* lmw r28,8(r4) */
	assert_int_equal(d.uops, 4);
	hvpmu_ppc64_decode(0xbc040008, 0, &d); /* stmw r0,8(r4) */
	assert_int_equal(d.uops, 32);
	hvpmu_ppc64_decode(0x7ca464aa, 0, &d); /* lswi r5,r4,12 */
	assert_int_equal(d.uops, 3);
	hvpmu_ppc64_decode(0x7ca404aa, 0, &d); /* lswi r5,r4,32 (NB = 0) */
	assert_int_equal(d.uops, 8);
	hvpmu_ppc64_decode(0x7ca46daa, 0, &d); /* stswi r5,r4,13 */
	assert_int_equal(d.uops, 4);
	hvpmu_ppc64_decode(0x7ca4342a, 0, &d); /* lswx r5,r4,r6: length at run time */
	assert_int_equal(d.uops, 1);
	assert_int_equal(d.flags, X_LD | X_BLK);
}

/* Exactly one group for every primary opcode and a spread of extended
 * opcodes and register fields. */
static void test_partition(void **state)
{
	(void)state;
	for (uint32_t po = 0; po < 64; po++)
		for (uint32_t xo = 0; xo < 1024; xo++)
			for (uint32_t v = 0; v < 4; v++) {
				uint32_t w = po << 26 | xo << 1 | v * 0x00a51001u % 0x03fff800u | (v & 1);
				struct hvpmu_insn d;
				uint32_t f = hvpmu_ppc64_decode(w, TEST_PC, &d);
				uint32_t g = f & HVPMU_IC_GROUPS;

				if (g == 0 || (g & (g - 1)) || (f & ~PPC_FLAGS) || d.uops == 0 ||
				    ((f & HVPMU_IC_ILLEGAL) && f != (X_OTH | X_ILL)) ||
				    ((f & (X_COND | X_ALW)) && !(f & X_BR)))
					fail_msg("%08x: flags %#x", w, f);
			}
}

static void test_operands(void **state)
{
	struct hvpmu_ppc64_operands o;

	(void)state;
	hvpmu_ppc64_operands(0xe8640010, &o); /* ld r3,16(r4) */
	assert_int_equal(o.form, HVPMU_PA_D);
	assert_int_equal(o.ra, 4);
	assert_int_equal(o.offset, 16);
	assert_int_equal(o.size, 8);
	assert_true(o.donor);
	assert_false(o.update);
	assert_int_equal(o.writes, 1u << 3);
	hvpmu_ppc64_operands(0xe864fff1, &o); /* ldu r3,-16(r4): DS, update */
	assert_int_equal(o.offset, -16);
	assert_true(o.update);
	assert_int_equal(o.writes, 1u << 3 | 1u << 4);
	hvpmu_ppc64_operands(0xe8640012, &o); /* lwa r3,16(r4) */
	assert_int_equal(o.size, 4);
	assert_int_equal(o.offset, 16);
	hvpmu_ppc64_operands(0x9421ffc0, &o); /* stwu r1,-64(r1) */
	assert_int_equal(o.size, 4);
	assert_int_equal(o.offset, -64);
	assert_int_equal(o.writes, 1u << 1);
	hvpmu_ppc64_operands(0x7c64292a, &o); /* stdx r3,r4,r5 */
	assert_int_equal(o.form, HVPMU_PA_X);
	assert_int_equal(o.ra, 4);
	assert_int_equal(o.rb, 5);
	assert_int_equal(o.size, 8);
	assert_int_equal(o.writes, 0);
	hvpmu_ppc64_operands(0x7c642c2c, &o); /* lwbrx r3,r4,r5 */
	assert_int_equal(o.size, 4);
	assert_true(o.donor);
	hvpmu_ppc64_operands(0x7c00222c, &o); /* dcbt 0,r4 */
	assert_true(o.prefetch);
	assert_int_equal(o.th, 0);
	assert_int_equal(o.form, HVPMU_PA_X);
	assert_int_equal(o.ra, 0);
	assert_int_equal(o.rb, 4);
	hvpmu_ppc64_operands(0xbb840008, &o); /* lmw r28,8(r4) */
	assert_false(o.donor);
	assert_int_equal(o.writes, 0xf0000000u);
	hvpmu_ppc64_operands(0x7c832378, &o); /* mr r3,r4 (or: writes RA) */
	assert_int_equal(o.writes, 1u << 3);
	hvpmu_ppc64_operands(0x38640008, &o); /* addi r3,r4,8 */
	assert_int_equal(o.writes, 1u << 3);
	assert_int_equal(o.form, HVPMU_PA_NONE);
	hvpmu_ppc64_operands(0x44000002, &o); /* sc */
	assert_int_equal(o.writes, ~0u);
	hvpmu_ppc64_operands(0x4e800020, &o); /* blr */
	assert_true(o.cti);
	assert_int_equal(o.writes, 0);
	hvpmu_ppc64_operands(0x7c0802a6, &o); /* mflr r0 */
	assert_int_equal(o.writes, 1u);
}

static void test_descriptor(void **state)
{
	const struct hvpmu_isa *isa = hvpmu_isa_by_name("ppc64");

	(void)state;
	assert_ptr_equal(isa, &hvpmu_isa_ppc64);
	assert_int_equal(isa->elf_machine, 21);
	assert_int_equal(isa->elf_class, 2);
	assert_int_equal(isa->elf_data, 2);
	assert_string_equal(isa->qemu_target, "ppc64");
	assert_string_equal(isa->qemu_user, "qemu-ppc64");
	assert_string_equal(isa->sysroot, "/usr/powerpc64-linux-gnu");
	assert_int_equal(isa->insn_bytes, 4);
	assert_int_equal(isa->big_endian, 1);
	assert_int_equal(isa->delay_slot, 0);
	assert_int_equal(isa->annul_in_block, 0);
	/* unistd_64.h of linux-libc-dev-ppc64-cross 6.1.4 */
	assert_int_equal(isa->sc.exit, 1);
	assert_int_equal(isa->sc.exit_group, 234);
	assert_int_equal(isa->sc.read, 3);
	assert_int_equal(isa->sc.write, 4);
	assert_int_equal(isa->sc.fork, 2);
	assert_int_equal(isa->sc.vfork, 189);
	assert_int_equal(isa->sc.clone, 120);
	assert_int_equal(isa->sc.clone3, 435);
	assert_int_equal(isa->sc.mmap, 90);
	assert_int_equal(isa->sc.madvise, 205);
	assert_int_equal(isa->sc.execve, 11);
	assert_int_equal(isa->sc.execveat, 362);
	assert_int_equal(isa->sc.futex, 221);
	assert_int_equal(isa->sc.waits[0], 3);
	assert_int_equal(isa->sc.waits[2], 114);
	assert_int_equal(isa->sc.waits[10], 142);
	assert_ptr_equal(isa->decode, hvpmu_ppc64_decode);
	{
		uint8_t code[4] = { 0x4e, 0x80, 0x00, 0x20 }; /* blr, big-endian */

		assert_int_equal(hvpmu_isa_word(isa, code), 0x4e800020);
	}
}

static void test_prefetch_dest(void **state)
{
	const struct hvpmu_isa *isa = &hvpmu_isa_ppc64;

	(void)state;
	assert_int_equal(isa->prefetch_dest(0x7c00222c), HVPMU_PF_L1);   /* dcbt 0,r4 */
	assert_int_equal(isa->prefetch_dest(0x7c0021ec), HVPMU_PF_L2);   /* dcbtst 0,r4 */
	assert_int_equal(isa->prefetch_dest(0x7d00222c), HVPMU_PF_NONE); /* dcbtds 0,r4 (TH = 8: a stream) */
	assert_int_equal(isa->prefetch_dest(0x7d40222c), HVPMU_PF_NONE); /* dcbtds 0,r4,10 (stream control) */
	assert_int_equal(isa->prefetch_dest(0xe8640010), HVPMU_PF_NONE); /* ld */
}

static void test_prefetch_resolve(void **state)
{
	const struct hvpmu_isa *isa = &hvpmu_isa_ppc64;
	struct hvpmu_pf_link l;

	(void)state;
	{ /* earlier donor ldx r3,r4,r5; dcbt r4,r5 (same pair, either order) */
		const uint32_t w[] = { 0x7c64282a, 0x38c00001, 0x7c05222c };

		assert_int_equal(isa->prefetch_resolve(w, 3, 2, &l), HVPMU_PF_BEFORE);
		assert_int_equal(l.donor, 0);
		assert_int_equal(l.delta, 0);
	}
	{ /* dcbt 0,r4 then ld r3,16(r4): later donor, delta -16 */
		const uint32_t w[] = { 0x7c00222c, 0x38c00001, 0xe8640010 };

		assert_int_equal(isa->prefetch_resolve(w, 3, 0, &l), HVPMU_PF_AFTER);
		assert_int_equal(l.donor, 2);
		assert_int_equal(l.delta, -16);
	}
	{ /* ld r3,8(r4); addi r4,r4,8 (writes the base); dcbt 0,r4: no donor */
		const uint32_t w[] = { 0xe8640008, 0x38840008, 0x7c00222c };

		assert_int_equal(isa->prefetch_resolve(w, 3, 2, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* ldu r3,8(r4) writes r4 itself: not a donor for a later prefetch */
		const uint32_t w[] = { 0xe8640009, 0x7c00222c };

		assert_int_equal(isa->prefetch_resolve(w, 2, 1, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* dcbt 0,r4; lmw r28,8(r4) (no donor, writes r28-r31); ld r3,0(r4) */
		const uint32_t w[] = { 0x7c00222c, 0xbb840008, 0xe8640000 };

		assert_int_equal(isa->prefetch_resolve(w, 3, 0, &l), HVPMU_PF_AFTER);
		assert_int_equal(l.donor, 2);
	}
	{ /* dcbt 0,r4; b .+8 (ends the block); ld r3,0(r4) */
		const uint32_t w[] = { 0x7c00222c, 0x48000008, 0xe8640000 };

		assert_int_equal(isa->prefetch_resolve(w, 3, 0, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* RA = 0 reads 0, RB = 0 is r0: ldx r3,0,r0 is no donor for dcbt r0,r4 */
		const uint32_t w[] = { 0x7c60002a, 0x7c00222c };

		assert_int_equal(isa->prefetch_resolve(w, 2, 1, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* not a prefetch */
		const uint32_t w[] = { 0xe8640010 };

		assert_int_equal(isa->prefetch_resolve(w, 1, 0, &l), HVPMU_PF_UNRESOLVED);
		assert_int_equal(isa->prefetch_resolve(NULL, 0, 0, &l), HVPMU_PF_UNRESOLVED);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_branches),
		cmocka_unit_test(test_undefined),
		cmocka_unit_test(test_uops),
		cmocka_unit_test(test_partition),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_prefetch_dest),
		cmocka_unit_test(test_prefetch_resolve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
