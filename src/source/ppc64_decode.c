/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ppc64_decode.c - 64-bit PowerPC instruction decoder into the generic
 * classes of hvpmu/insn.h (layer 1, event source; hvpmu/ppc64_decode.h).
 *
 * Models what one Power instruction word is, for the machine and the PMU
 * devices: Power ISA Version 2.06 Revision B (POWER7), Book I, with the
 * Book II storage-control and synchronization instructions and the Book
 * III instructions a user program can meet only as privileged-instruction
 * traps.  Opcodes are those of the instruction descriptions and of
 * Appendix "Opcode Maps" (primary opcodes; the extended-opcode tables of
 * primary 19, 30, 31, 58, 59, 62 and 63).  Sections cited: Book I §1.6
 * "Instruction Formats" (the fields), §2.4 "Branch Instructions" (BO,
 * BH, LK, AA and the "branch always" BO encoding), §3.3 "Fixed-Point
 * Facility Instructions" (the load and store pages: sizes, update forms,
 * byte-reversed, multiple, string; the arithmetic, compare, trap,
 * logical, rotate/shift pages; "Move To/From System Register"), §4.6 the
 * floating-point instructions, Chapter 5 Vector (VMX), Chapter 7 VSX;
 * Book II §3.2 "Cache Management Instructions" (dcbt, dcbtst, dcbz),
 * §3.3 "Synchronization Instructions" (sync, lwarx/stwcx., isync, eieio).
 * Encodings were cross-checked with GNU binutils 2.40
 * (`powerpc64-linux-gnu-objdump -M power7`; tests/unit/test_ppc64_decode.c).
 * Classes and the choices the ISA leaves open: docs/ppc64-isa.md.
 *
 * The decoder is table-driven: the primary opcode selects an entry, an
 * entry either names the sub-table (and the field that indexes it) that
 * decides, or describes the instruction.  The tables are constant data;
 * the functions are pure.
 */
#include "hvpmu/ppc64_decode.h"

#include <stdbool.h>
#include <stddef.h>

/* ------------------------------------------------------------------------
 * Instruction fields (Book I §1.6, "Instruction Fields"), as (shift,
 * length) pairs of the host-order word.  The ISA numbers bits from 0 (the
 * most significant) to 31: field bits a:b are shift 31 - b, length b - a + 1.
 * ------------------------------------------------------------------------ */
#define F_PO      26, 6   /* 0:5   primary opcode */
#define F_RT      21, 5   /* 6:10  RT, RS, FRT, BO, TO, TH */
#define F_RA      16, 5   /* 11:15 RA, BI */
#define F_RB      11, 5   /* 16:20 RB, NB */
#define F_BH      11, 2   /* 19:20 BH (XL-form branches) */
#define F_XO10     1, 10  /* 21:30 X/XL/XFX-form extended opcode */
#define F_XO5      1, 5   /* 26:30 A-form extended opcode */
#define F_XO_MD    1, 4   /* 27:30 MD-form XO (27:29) with sh5, MDS-form XO */
#define F_XO_DS    0, 2   /* 30:31 DS-form extended opcode */
#define F_D        0, 16  /* 16:31 D, SI, UI */
#define F_LI       2, 24  /* 6:29  LI */
#define F_BD       2, 14  /* 16:29 BD */
#define F_AA       1, 1   /* 30    AA */
#define F_LK       0, 1   /* 31    LK */
#define F_LEV      5, 7   /* 20:26 LEV (sc) */
#define F_SC1      1, 1   /* 30    1: sc; 0 with bit 31 = 1: scv (Power ISA 3.0) */

static inline uint32_t fld(uint32_t insn, unsigned shift, unsigned len)
{
	return (insn >> shift) & ((1u << len) - 1u);
}
#define FIELD(insn, f) fld((insn), f)
#define FIELD_SHIFT(f) FIELD_SHIFT_(f)
#define FIELD_SHIFT_(shift, len) (shift)
#define FIELD_LEN(f) FIELD_LEN_(f)
#define FIELD_LEN_(shift, len) (len)

enum {
	INSN_BYTES = 4,
	WORD_SHIFT = 2,      /* LI, BD and DS count 4-byte words */
	NGPR = 32,
	XO5_A_FORM = 0x10,   /* 59/63: an A-form XO (26:30) is 16..31, an X-form one has bit 26 = 0 */
	XO5_ISEL = 15,       /* 31: isel is A-form with XO 01111 (every XO10 = 32k + 15) */
	BO_ALWAYS = 0x14,    /* BO_0 (ignore CR) and BO_2 (do not decrement CTR): 1z1zz */
	BO_NO_CTR = 0x04,    /* BO_2 */
	BI_LAST = 31,        /* `bcl 20,31,$+4` reads the PC, it is no call (§2.4) */
	SC_LEV_HV = 1,       /* sc 1: hypervisor call (Book III §4.3.1) */
	STRING_MAX = 32,     /* lswi/stswi: NB = 0 means 32 bytes */
};

/* Short names for the flag bits. */
#define BR   ((uint32_t)HVPMU_IC_BRANCH)
#define FPU  ((uint32_t)HVPMU_IC_FP)
#define LD   ((uint32_t)HVPMU_IC_LOAD)
#define ST   ((uint32_t)HVPMU_IC_STORE)
#define SPR  ((uint32_t)HVPMU_IC_SPR)
#define OTH  ((uint32_t)HVPMU_IC_OTHER)
#define ILL  ((uint32_t)(HVPMU_IC_OTHER | HVPMU_IC_ILLEGAL))

/* ------------------------------------------------------------------------
 * Table entries.
 * ------------------------------------------------------------------------ */

/* Sub-tables, each indexed by one field. */
enum table_id {
	T_NONE = 0, T_19, T_30, T_31, T_57, T_58, T_59A, T_59X, T_61, T_62, T_63A, T_63X, T_COUNT
};

/* Control-transfer kinds (§2.4). */
enum cti_kind {
	CTI_NONE = 0,
	CTI_B,     /* b: EXTS(LI || 0b00), relative unless AA */
	CTI_BC,    /* bc: EXTS(BD || 0b00), relative unless AA; BO decides */
	CTI_BCLR,  /* bclr: LR; BO decides */
	CTI_BCCTR, /* bcctr, bctar: CTR / TAR; BO_2 must be 1 */
	CTI_SC,    /* sc: LEV 0 a system call, LEV 1 a hypervisor call */
};

/* General-purpose registers an instruction may write. */
enum write_kind {
	W_NONE = 0,
	W_RT,     /* RT (6:10) */
	W_RA,     /* RA (11:15): logical, shift, rotate, extend; update-form stores */
	W_RT_RA,  /* RT and RA: update-form integer loads */
	W_MULTI,  /* RT..31: lmw */
	W_ALL,    /* any: sc, traps, strings, quadword pairs */
};

/* How many registers an instruction moves (its micro-ops). */
enum uops_kind { U_ONE = 0, U_LMW, U_LSWI };

/* Address forms (enum hvpmu_ppc64_addr_form). */
enum { A_NONE = HVPMU_PA_NONE, A_D = HVPMU_PA_D, A_X = HVPMU_PA_X, A_RA = HVPMU_PA_RA };

struct op {
	uint32_t flags;  /* enum hvpmu_ic_flags of the instruction; 0: undefined */
	uint8_t next;    /* enum table_id: the sub-table that decides, T_NONE: this entry */
	uint8_t split;   /* 59/63: the sub-table when the XO5 field is an X-form one (< 16) */
	uint8_t cti;     /* enum cti_kind */
	uint8_t addr;    /* A_NONE, A_D, A_X, A_RA */
	uint8_t ds;      /* DS-form: the displacement is EXTS(DS || 0b00) */
	uint8_t size;    /* bytes per access (0: none, or known only at run time) */
	uint8_t update;  /* update form: RA receives the effective address */
	uint8_t donor;   /* reported by QEMU once at its effective address */
	uint8_t wr;      /* enum write_kind */
	uint8_t uops;    /* enum uops_kind */
};

struct table {
	const struct op *ops;
	uint8_t shift, len; /* the field that indexes it */
};

/* Entry constructors. */
#define E(fl, ...) { .flags = (fl), __VA_ARGS__ }
#define SUB(t) { .next = (t) }
#define ALU_RT E(OTH, .wr = W_RT)   /* arithmetic: writes RT */
#define ALU_RA E(OTH, .wr = W_RA)   /* logical, shift, rotate: writes RA */
#define CMP E(OTH)                  /* compare, CR logical: writes a CR field */
#define TRAP E(OTH, .wr = W_ALL)    /* tw, td, twi, tdi: the OS may change any register */
#define PRIV E(SPR)
#define PRIV_RT E(SPR, .wr = W_RT)
#define FP E(FPU)
#define FP_RT E(FPU, .wr = W_RT)    /* a VSR -> GPR move (2.07) */
#define FP_RA E(FPU, .wr = W_RA)    /* mfvsrd, mfvsrwz: the GPR is the RA field */
/* Integer loads (§3.3, the fixed-point loads): D-form, DS-form, X-form, with update. */
#define LDI(sz) E(LD, .addr = A_D, .size = (sz), .donor = 1, .wr = W_RT)
#define LDIU(sz) E(LD, .addr = A_D, .size = (sz), .update = 1, .donor = 1, .wr = W_RT_RA)
#define LDDS(sz) E(LD, .addr = A_D, .ds = 1, .size = (sz), .donor = 1, .wr = W_RT)
#define LDDSU(sz) E(LD, .addr = A_D, .ds = 1, .size = (sz), .update = 1, .donor = 1, .wr = W_RT_RA)
#define LDX(sz) E(LD, .addr = A_X, .size = (sz), .donor = 1, .wr = W_RT)
#define LDXU(sz) E(LD, .addr = A_X, .size = (sz), .update = 1, .donor = 1, .wr = W_RT_RA)
#define LARX(sz) E(LD | HVPMU_IC_LOAD_LINKED, .addr = A_X, .size = (sz), .donor = 1, .wr = W_RT)
/* Floating-point loads (§4.6, the load pages): an FPR is written; the update forms write RA. */
#define LDF(sz) E(LD, .addr = A_D, .size = (sz), .donor = 1)
#define LDFU(sz) E(LD, .addr = A_D, .size = (sz), .update = 1, .donor = 1, .wr = W_RA)
#define LDFX(sz) E(LD, .addr = A_X, .size = (sz), .donor = 1)
#define LDFXU(sz) E(LD, .addr = A_X, .size = (sz), .update = 1, .donor = 1, .wr = W_RA)
/* Vector and VSX loads/stores (Chapters 5 and 7): several accesses or an aligned one. */
#define LDV(sz) E(LD, .addr = A_X, .size = (sz))
#define STV(sz) E(ST, .addr = A_X, .size = (sz))
/* Stores (§3.3 and §4.6, the store pages). */
#define STI(sz) E(ST, .addr = A_D, .size = (sz), .donor = 1)
#define STIU(sz) E(ST, .addr = A_D, .size = (sz), .update = 1, .donor = 1, .wr = W_RA)
#define STDS(sz) E(ST, .addr = A_D, .ds = 1, .size = (sz), .donor = 1)
#define STDSU(sz) E(ST, .addr = A_D, .ds = 1, .size = (sz), .update = 1, .donor = 1, .wr = W_RA)
#define STX(sz) E(ST, .addr = A_X, .size = (sz), .donor = 1)
#define STXU(sz) E(ST, .addr = A_X, .size = (sz), .update = 1, .donor = 1, .wr = W_RA)
#define STCX(sz) E(ST | HVPMU_IC_STORE_COND, .addr = A_X, .size = (sz))
/* Cache-inhibited loads and stores (Book III, hypervisor state). */
#define CI_LD PRIV_RT
#define CI_ST PRIV
/* XO-form arithmetic: with OE = 0 at XO and OE = 1 at XO + 512 (bit 21). */
#define OE_BIT 512
#define XO_FORM(x) [(x)] = ALU_RT, [(x) + OE_BIT] = ALU_RT

/* Primary opcode, bits 0:5 (Appendix "Opcode Maps", primary table).
 * 0, 1, 5, 6, 9 and 22 are not defined in 2.06 for a server processor. */
static const struct op primary[64] = {
	[2] = TRAP, [3] = TRAP,                             /* tdi twi */
	[4] = FP,                                           /* Vector (VMX): every word, §5 */
	[7] = ALU_RT, [8] = ALU_RT,                         /* mulli subfic */
	[10] = CMP, [11] = CMP,                             /* cmpli cmpi */
	[12] = ALU_RT, [13] = ALU_RT, [14] = ALU_RT, [15] = ALU_RT, /* addic addic. addi addis */
	[16] = E(BR, .cti = CTI_BC),                        /* bc */
	[17] = E(OTH | HVPMU_IC_SYSCALL, .cti = CTI_SC, .wr = W_ALL), /* sc, scv */
	[18] = E(BR, .cti = CTI_B),                         /* b */
	[19] = SUB(T_19),
	[20] = ALU_RA, [21] = ALU_RA, [23] = ALU_RA,        /* rlwimi rlwinm rlwnm */
	[24] = ALU_RA, [25] = ALU_RA, [26] = ALU_RA, [27] = ALU_RA, /* ori (nop) oris xori xoris */
	[28] = ALU_RA, [29] = ALU_RA,                       /* andi. andis. */
	[30] = SUB(T_30),
	[31] = SUB(T_31),
	[32] = LDI(4), [33] = LDIU(4), [34] = LDI(1), [35] = LDIU(1), /* lwz lwzu lbz lbzu */
	[36] = STI(4), [37] = STIU(4), [38] = STI(1), [39] = STIU(1), /* stw stwu stb stbu */
	[40] = LDI(2), [41] = LDIU(2), [42] = LDI(2), [43] = LDIU(2), /* lhz lhzu lha lhau */
	[44] = STI(2), [45] = STIU(2),                                /* sth sthu */
	[46] = E(LD | HVPMU_IC_BLOCK, .addr = A_D, .size = 4, .wr = W_MULTI, .uops = U_LMW), /* lmw */
	[47] = E(ST | HVPMU_IC_BLOCK, .addr = A_D, .size = 4, .uops = U_LMW),                /* stmw */
	[48] = LDF(4), [49] = LDFU(4), [50] = LDF(8), [51] = LDFU(8), /* lfs lfsu lfd lfdu */
	[52] = STI(4), [53] = STIU(4), [54] = STI(8), [55] = STIU(8), /* stfs stfsu stfd stfdu */
	[56] = E(LD, .addr = A_D, .size = 16, .wr = W_ALL),           /* lq (an even-odd GPR pair) */
	[57] = SUB(T_57),
	[58] = SUB(T_58),
	[59] = { .next = T_59A, .split = T_59X },
	[60] = FP,                                          /* VSX (XX1..XX4 forms, no storage access), §7 */
	[61] = SUB(T_61),
	[62] = SUB(T_62),
	[63] = { .next = T_63A, .split = T_63X },
};

/* Primary 19, XL-form XO 21:30: branches to LR/CTR/TAR, CR logical,
 * isync, and the Book III returns and power-saving instructions. */
static const struct op op19[1024] = {
	[0] = CMP,                                          /* mcrf */
	[16] = E(BR, .cti = CTI_BCLR),                      /* bclr */
	[18] = PRIV,                                        /* rfid */
	[33] = CMP, [129] = CMP, [193] = CMP, [225] = CMP,  /* crnor crandc crxor crnand */
	[257] = CMP, [289] = CMP, [417] = CMP, [449] = CMP, /* crand creqv crorc cror */
	[150] = E(OTH | HVPMU_IC_NTC),                      /* isync */
	[274] = PRIV,                                       /* hrfid */
	[402] = PRIV, [434] = PRIV, [466] = PRIV, [498] = PRIV, /* doze nap sleep rvwinkle */
	[528] = E(BR, .cti = CTI_BCCTR),                    /* bcctr */
	[560] = E(BR, .cti = CTI_BCCTR),                    /* bctar (2.07) */
};

/* Primary 30, MD-form XO 27:29 (bit 30 is sh5) and MDS-form XO 27:30. */
static const struct op op30[16] = {
	[0] = ALU_RA, [1] = ALU_RA, [2] = ALU_RA, [3] = ALU_RA, /* rldicl rldicr */
	[4] = ALU_RA, [5] = ALU_RA, [6] = ALU_RA, [7] = ALU_RA, /* rldic rldimi */
	[8] = ALU_RA, [9] = ALU_RA,                             /* rldcl rldcr */
};

/* Primary 31, X/XO/XFX/XS-form XO 21:30 (isel, A-form, is handled by
 * lookup()). */
static const struct op op31[1024] = {
	[0] = CMP, [32] = CMP,                              /* cmp cmpl */
	[4] = TRAP, [68] = TRAP,                            /* tw td */
	[6] = FP, [38] = FP,                                /* lvsl lvsr: permute control, no access */
	[7] = LDV(1), [39] = LDV(2), [71] = LDV(4),         /* lvebx lvehx lvewx */
	[103] = LDV(16), [359] = LDV(16),                   /* lvx lvxl */
	[135] = STV(1), [167] = STV(2), [199] = STV(4),     /* stvebx stvehx stvewx */
	[231] = STV(16), [487] = STV(16),                   /* stvx stvxl */
	XO_FORM(8), XO_FORM(10), XO_FORM(40), XO_FORM(104), /* subfc addc subf neg */
	XO_FORM(136), XO_FORM(138), XO_FORM(200), XO_FORM(202), /* subfe adde subfze addze */
	XO_FORM(232), XO_FORM(233), XO_FORM(234), XO_FORM(235), /* subfme mulld addme mullw */
	XO_FORM(266), XO_FORM(457), XO_FORM(459), XO_FORM(489), /* add divdu divwu divd */
	XO_FORM(491), XO_FORM(393), XO_FORM(395), XO_FORM(425), /* divw divdeu divweu divde */
	XO_FORM(427),                                       /* divwe */
	[9] = ALU_RT, [11] = ALU_RT, [73] = ALU_RT, [75] = ALU_RT, /* mulhdu mulhwu mulhd mulhw */
	[19] = E(OTH, .wr = W_RT),                          /* mfcr, mfocrf */
	[144] = CMP,                                        /* mtcrf, mtocrf */
	[512] = CMP,                                        /* mcrxr */
	[24] = ALU_RA, [26] = ALU_RA, [27] = ALU_RA, [28] = ALU_RA, /* slw cntlzw sld and */
	[58] = ALU_RA, [60] = ALU_RA, [122] = ALU_RA, [124] = ALU_RA, /* cntlzd andc popcntb nor */
	[154] = ALU_RA, [186] = ALU_RA, [252] = ALU_RA, [284] = ALU_RA, /* prtyw prtyd bpermd eqv */
	[316] = ALU_RA, [378] = ALU_RA, [412] = ALU_RA, [444] = ALU_RA, /* xor popcntw orc or */
	[476] = ALU_RA, [506] = ALU_RA, [508] = ALU_RA, [536] = ALU_RA, /* nand popcntd cmpb srw */
	[539] = ALU_RA, [792] = ALU_RA, [794] = ALU_RA, [824] = ALU_RA, /* srd sraw srad srawi */
	[826] = ALU_RA, [827] = ALU_RA,                     /* sradi (XS-form: sh5 in bit 30) */
	[922] = ALU_RA, [954] = ALU_RA, [986] = ALU_RA,     /* extsh extsb extsw */
	[20] = LARX(4), [84] = LARX(8), [52] = LARX(1), [116] = LARX(2), /* lwarx ldarx lbarx lharx */
	[276] = E(LD | HVPMU_IC_LOAD_LINKED, .addr = A_X, .size = 16, .wr = W_ALL), /* lqarx (2.07) */
	[150] = STCX(4), [214] = STCX(8), [694] = STCX(1), [726] = STCX(2), /* stwcx. stdcx. stbcx. sthcx. */
	[182] = STCX(16),                                   /* stqcx. (2.07) */
	[21] = LDX(8), [53] = LDXU(8), [23] = LDX(4), [55] = LDXU(4), /* ldx ldux lwzx lwzux */
	[87] = LDX(1), [119] = LDXU(1), [279] = LDX(2), [311] = LDXU(2), /* lbzx lbzux lhzx lhzux */
	[343] = LDX(2), [375] = LDXU(2), [341] = LDX(4), [373] = LDXU(4), /* lhax lhaux lwax lwaux */
	[790] = LDX(2), [534] = LDX(4), [532] = LDX(8),     /* lhbrx lwbrx ldbrx */
	[149] = STX(8), [181] = STXU(8), [151] = STX(4), [183] = STXU(4), /* stdx stdux stwx stwux */
	[215] = STX(1), [247] = STXU(1), [407] = STX(2), [439] = STXU(2), /* stbx stbux sthx sthux */
	[918] = STX(2), [662] = STX(4), [660] = STX(8),     /* sthbrx stwbrx stdbrx */
	[533] = E(LD | HVPMU_IC_BLOCK, .addr = A_X, .wr = W_ALL),                   /* lswx */
	[597] = E(LD | HVPMU_IC_BLOCK, .addr = A_RA, .size = 4, .wr = W_ALL, .uops = U_LSWI), /* lswi */
	[661] = E(ST | HVPMU_IC_BLOCK, .addr = A_X),                                /* stswx */
	[725] = E(ST | HVPMU_IC_BLOCK, .addr = A_RA, .size = 4, .uops = U_LSWI),    /* stswi */
	[535] = LDFX(4), [567] = LDFXU(4), [599] = LDFX(8), [631] = LDFXU(8), /* lfsx lfsux lfdx lfdux */
	[855] = LDFX(4), [887] = LDFX(4), [791] = LDV(16),  /* lfiwax lfiwzx lfdpx */
	[663] = STX(4), [695] = STXU(4), [727] = STX(8), [759] = STXU(8), /* stfsx stfsux stfdx stfdux */
	[983] = STX(4), [919] = STV(16),                    /* stfiwx stfdpx */
	[588] = LDV(8), [332] = LDV(8), [844] = LDV(16), [780] = LDV(16), /* lxsdx lxvdsx lxvd2x lxvw4x */
	[12] = LDV(4), [76] = LDV(4), [524] = LDV(4),       /* lxsiwzx lxsiwax lxsspx (2.07) */
	[716] = STV(8), [972] = STV(16), [908] = STV(16),   /* stxsdx stxvd2x stxvw4x */
	[140] = STV(4), [652] = STV(4),                     /* stxsiwx stxsspx (2.07) */
	[51] = FP_RA, [115] = FP_RA,                        /* mfvsrd mfvsrwz (2.07) */
	[179] = FP, [211] = FP, [243] = FP,                 /* mtvsrd mtvsrwa mtvsrwz (2.07) */
	[310] = E(LD, .addr = A_X, .size = 4, .wr = W_RT),  /* eciwx */
	[438] = E(ST, .addr = A_X, .size = 4),              /* ecowx */
	[278] = E(OTH | HVPMU_IC_PREFETCH, .addr = A_X),    /* dcbt */
	[246] = E(OTH | HVPMU_IC_PREFETCH, .addr = A_X),    /* dcbtst */
	[1014] = E(ST | HVPMU_IC_BLOCK, .addr = A_X),       /* dcbz: a whole cache block */
	[54] = E(OTH), [86] = E(OTH), [982] = E(OTH),       /* dcbst dcbf icbi */
	[22] = E(OTH),                                      /* icbt */
	[470] = PRIV,                                       /* dcbi */
	[598] = E(OTH | HVPMU_IC_NTC), [854] = E(OTH | HVPMU_IC_NTC), /* sync (lwsync, ptesync) eieio */
	[62] = E(OTH), [30] = E(OTH),                       /* wait (2.06), wait (3.0 encoding) */
	[339] = PRIV_RT, [467] = PRIV, [371] = PRIV_RT,     /* mfspr mtspr mftb */
	[83] = PRIV_RT, [146] = PRIV, [178] = PRIV,         /* mfmsr mtmsr mtmsrd */
	[210] = PRIV, [242] = PRIV, [595] = PRIV_RT, [659] = PRIV_RT, /* mtsr mtsrin mfsr mfsrin */
	[402] = PRIV, [434] = PRIV, [498] = PRIV,           /* slbmte slbie slbia */
	[851] = PRIV_RT, [915] = PRIV_RT,                   /* slbmfev slbmfee */
	[306] = PRIV, [274] = PRIV, [566] = PRIV,           /* tlbie tlbiel tlbsync */
	[206] = PRIV, [238] = PRIV,                         /* msgsnd msgclr */
	[853] = CI_LD, [821] = CI_LD, [789] = CI_LD, [885] = CI_LD, /* lbzcix lhzcix lwzcix ldcix */
	[981] = CI_ST, [949] = CI_ST, [917] = CI_ST, [1013] = CI_ST, /* stbcix sthcix stwcix stdcix */
};

/* isel RT,RA,RB,BC (A-form, XO 15). */
static const struct op isel = ALU_RT;

/* DS-form extended opcodes, bits 30:31. */
static const struct op op57[4] = { [0] = LDV(16) };                          /* lfdp */
static const struct op op58[4] = { [0] = LDDS(8), [1] = LDDSU(8), [2] = LDDS(4) }; /* ld ldu lwa */
static const struct op op61[4] = { [0] = STV(16) };                          /* stfdp */
static const struct op op62[4] = { [0] = STDS(8), [1] = STDSU(8),           /* std stdu */
				   [2] = E(ST, .addr = A_D, .ds = 1, .size = 16) }; /* stq */

/* Primary 59, A-form XO 26:30 (single precision, §4.6 the arithmetic pages). */
static const struct op op59a[32] = {
	[18] = FP, [20] = FP, [21] = FP, [22] = FP,         /* fdivs fsubs fadds fsqrts */
	[24] = FP, [25] = FP, [26] = FP,                    /* fres fmuls frsqrtes */
	[28] = FP, [29] = FP, [30] = FP, [31] = FP,         /* fmsubs fmadds fnmsubs fnmadds */
};

/* Primary 59, X-form XO 21:30. */
static const struct op op59x[1024] = {
	[846] = FP, [974] = FP,                             /* fcfids fcfidus */
};

/* Primary 63, A-form XO 26:30 (double precision). */
static const struct op op63a[32] = {
	[18] = FP, [20] = FP, [21] = FP, [22] = FP, [23] = FP, /* fdiv fsub fadd fsqrt fsel */
	[24] = FP, [25] = FP, [26] = FP,                    /* fre fmul frsqrte */
	[28] = FP, [29] = FP, [30] = FP, [31] = FP,         /* fmsub fmadd fnmsub fnmadd */
};

/* Primary 63, X/XFL-form XO 21:30: compares, moves, rounding, conversions,
 * FPSCR (§4.6). */
static const struct op op63x[1024] = {
	[0] = FP, [32] = FP, [128] = FP, [160] = FP,        /* fcmpu fcmpo ftdiv ftsqrt */
	[8] = FP, [40] = FP, [72] = FP, [136] = FP, [264] = FP, /* fcpsgn fneg fmr fnabs fabs */
	[12] = FP, [14] = FP, [15] = FP, [142] = FP, [143] = FP, /* frsp fctiw fctiwz fctiwu fctiwuz */
	[392] = FP, [424] = FP, [456] = FP, [488] = FP,     /* frin friz frip frim */
	[814] = FP, [815] = FP, [846] = FP,                 /* fctid fctidz fcfid */
	[942] = FP, [943] = FP, [974] = FP,                 /* fctidu fctiduz fcfidu */
	[38] = FP, [70] = FP, [64] = FP, [134] = FP,        /* mtfsb1 mtfsb0 mcrfs mtfsfi */
	[583] = FP, [711] = FP,                             /* mffs mtfsf */
};

static const struct table tables[T_COUNT] = {
	[T_19] = { op19, FIELD_SHIFT(F_XO10), FIELD_LEN(F_XO10) },
	[T_30] = { op30, FIELD_SHIFT(F_XO_MD), FIELD_LEN(F_XO_MD) },
	[T_31] = { op31, FIELD_SHIFT(F_XO10), FIELD_LEN(F_XO10) },
	[T_57] = { op57, FIELD_SHIFT(F_XO_DS), FIELD_LEN(F_XO_DS) },
	[T_58] = { op58, FIELD_SHIFT(F_XO_DS), FIELD_LEN(F_XO_DS) },
	[T_59A] = { op59a, FIELD_SHIFT(F_XO5), FIELD_LEN(F_XO5) },
	[T_59X] = { op59x, FIELD_SHIFT(F_XO10), FIELD_LEN(F_XO10) },
	[T_61] = { op61, FIELD_SHIFT(F_XO_DS), FIELD_LEN(F_XO_DS) },
	[T_62] = { op62, FIELD_SHIFT(F_XO_DS), FIELD_LEN(F_XO_DS) },
	[T_63A] = { op63a, FIELD_SHIFT(F_XO5), FIELD_LEN(F_XO5) },
	[T_63X] = { op63x, FIELD_SHIFT(F_XO10), FIELD_LEN(F_XO10) },
};

/* The entry that describes `insn`, or NULL if it is undefined.  At most
 * two lookups: primary, then one extended-opcode table. */
static const struct op *lookup(uint32_t insn)
{
	const struct op *e = &primary[FIELD(insn, F_PO)];

	if (e->next != T_NONE) {
		uint8_t id = e->next;
		const struct table *t;

		if (e->split != T_NONE && !(FIELD(insn, F_XO5) & XO5_A_FORM))
			id = e->split;
		if (id == T_31 && FIELD(insn, F_XO5) == XO5_ISEL)
			return &isel;
		t = &tables[id];
		e = &t->ops[fld(insn, t->shift, t->len)];
	}
	return e->flags ? e : NULL;
}

static inline int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t sign = UINT64_C(1) << (bits - 1);

	return (int64_t)((v ^ sign) - sign);
}

/* The BO field says "branch always" (§2.4, the BO field encodings: 1z1zz). */
static inline bool bo_always(uint32_t insn)
{
	return (FIELD(insn, F_RT) & BO_ALWAYS) == BO_ALWAYS;
}

/* Flags of a control transfer; 0 if the form is invalid. */
static uint32_t cti_flags(const struct op *e, uint32_t insn, uint64_t pc, struct hvpmu_insn *out)
{
	uint32_t f = e->flags;
	uint64_t base = FIELD(insn, F_AA) ? 0 : pc;

	switch (e->cti) {
	case CTI_B:
		out->has_target = 1;
		out->target = base + (uint64_t)sext((uint64_t)FIELD(insn, F_LI) << WORD_SHIFT, FIELD_LEN(F_LI) + WORD_SHIFT);
		f |= HVPMU_IC_CTI_ALWAYS;
		if (FIELD(insn, F_LK))
			f |= HVPMU_IC_CALL;
		break;
	case CTI_BC: {
		int64_t disp = sext((uint64_t)FIELD(insn, F_BD) << WORD_SHIFT, FIELD_LEN(F_BD) + WORD_SHIFT);

		out->has_target = 1;
		out->target = base + (uint64_t)disp;
		f |= bo_always(insn) ? HVPMU_IC_CTI_ALWAYS : HVPMU_IC_CTI_COND;
		/* `bcl 20,31,$+4` puts the PC in LR; no return follows it */
		if (FIELD(insn, F_LK) && !(bo_always(insn) && FIELD(insn, F_RA) == BI_LAST && !FIELD(insn, F_AA) &&
					   disp == INSN_BYTES))
			f |= HVPMU_IC_CALL;
		break;
	}
	case CTI_BCLR:
		f |= HVPMU_IC_INDIRECT | (bo_always(insn) ? HVPMU_IC_CTI_ALWAYS : HVPMU_IC_CTI_COND);
		if (FIELD(insn, F_LK))
			f |= HVPMU_IC_CALL;
		else if (FIELD(insn, F_BH) == 0) /* BH = 00: "the instruction is a subroutine return" */
			f |= HVPMU_IC_RET;
		break;
	case CTI_BCCTR:
		if (!(FIELD(insn, F_RT) & BO_NO_CTR)) /* BO_2 = 0: "the instruction form is invalid" */
			return 0;
		f |= HVPMU_IC_INDIRECT | (bo_always(insn) ? HVPMU_IC_CTI_ALWAYS : HVPMU_IC_CTI_COND);
		if (FIELD(insn, F_LK))
			f |= HVPMU_IC_CALL;
		break;
	case CTI_SC:
		if (!FIELD(insn, F_SC1)) /* scv LEV (Power ISA 3.0; glibc's syscalls where the kernel has it) */
			return FIELD(insn, F_LK) ? f : 0;
		if (FIELD(insn, F_LEV) > SC_LEV_HV)
			return 0;
		if (FIELD(insn, F_LEV) == SC_LEV_HV)
			f = SPR | HVPMU_IC_SYSCALL;
		break;
	default:
		break;
	}
	return f;
}

uint32_t hvpmu_ppc64_decode(uint32_t insn, uint64_t pc, struct hvpmu_insn *out)
{
	const struct op *e = lookup(insn);
	uint32_t flags;

	*out = (struct hvpmu_insn){ .uops = 1 };
	if (!e || !(flags = cti_flags(e, insn, pc, out))) {
		*out = (struct hvpmu_insn){ .uops = 1, .flags = ILL };
		return ILL;
	}
	if (e->uops == U_LMW) {
		out->uops = (uint8_t)(NGPR - FIELD(insn, F_RT));
	} else if (e->uops == U_LSWI) {
		uint32_t nb = FIELD(insn, F_RB) ? FIELD(insn, F_RB) : STRING_MAX;

		out->uops = (uint8_t)((nb + e->size - 1) / e->size);
	}
	out->flags = flags;
	return flags;
}

void hvpmu_ppc64_operands(uint32_t insn, struct hvpmu_ppc64_operands *out)
{
	const struct op *e = lookup(insn);
	struct hvpmu_insn d;
	uint32_t rt = FIELD(insn, F_RT), ra = FIELD(insn, F_RA);

	*out = (struct hvpmu_ppc64_operands){ .form = HVPMU_PA_NONE };
	if (hvpmu_ppc64_decode(insn, 0, &d) & HVPMU_IC_ILLEGAL) { /* traps: the OS may change anything */
		out->writes = ~0u;
		return;
	}
	out->cti = (d.flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) != 0;
	out->form = e->addr;
	out->size = e->size;
	out->update = e->update;
	out->donor = e->donor;
	if (e->addr != A_NONE)
		out->ra = (uint8_t)ra;
	if (e->addr == A_X)
		out->rb = (uint8_t)FIELD(insn, F_RB);
	if (e->addr == A_D)
		out->offset = (int32_t)sext(e->ds ? FIELD(insn, F_D) & ~3u : FIELD(insn, F_D), FIELD_LEN(F_D));
	if (e->flags & HVPMU_IC_PREFETCH) {
		out->prefetch = 1;
		out->th = (uint8_t)rt;
	}
	switch (e->wr) {
	case W_RT: out->writes = 1u << rt; break;
	case W_RA: out->writes = 1u << ra; break;
	case W_RT_RA: out->writes = 1u << rt | 1u << ra; break;
	case W_MULTI: out->writes = ~0u << rt; break;
	case W_ALL: out->writes = ~0u; break;
	default: break;
	}
}
