/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mips64_decode.c - MIPS64 instruction decoder into the generic classes of
 * hvpmu/insn.h (layer 1, event source; hvpmu/mips64_decode.h).
 *
 * Models what one MIPS instruction word is, for the machine and the PMU
 * devices: MIPS IV as the R10000 implements it (MIPS IV Instruction Set,
 * Revision 3.2, 1995: the CPU and FPU instruction descriptions and the
 * "CPU Instruction Encoding" / "FPU Instruction Encoding" tables), plus
 * the MIPS64 Release 2 instructions of Debian's gcc-12 n64 code (MIPS64
 * Architecture for Programmers Volume II, MD00087 Rev. 3.02, Appendix A
 * "Instruction Bit Encodings": Table A.2 opcode, A.3 SPECIAL, A.4 REGIMM,
 * A.5 SPECIAL2, A.6 SPECIAL3, A.8-A.14 the shift/rotate and BSHFL
 * sub-fields, A.15-A.16 COP0, A.17-A.22 COP1, A.24 COP1X).  Encodings
 * were cross-checked with GNU binutils 2.40 (`mips64-linux-gnuabi64-objdump
 * -m mips:isa64r2` and `-m mips:10000`; tests/unit/test_mips64_decode.c).
 * Classes and the choices the manuals leave open: docs/mips64-isa.md.
 *
 * The decoder is table-driven: the major opcode selects an entry, an
 * entry either names the sub-table (and the field that indexes it) that
 * decides, or describes the instruction.  The tables are constant data;
 * the functions are pure.
 */
#include "hvpmu/mips64_decode.h"

#include <stdbool.h>
#include <stddef.h>

/* ------------------------------------------------------------------------
 * Instruction fields, named once: (shift, length) pairs for fld().
 * MIPS IV "CPU Instruction Formats" (I-type, J-type, R-type) and the FPU
 * formats (COP1 fmt, COP1X).
 * ------------------------------------------------------------------------ */
#define F_OP      26, 6   /* major opcode */
#define F_RS      21, 5   /* rs; base; COP0/COP1 sub-opcode (COP1: fmt) */
#define F_RT      16, 5   /* rt; REGIMM sub-opcode; PREF hint; COP1X index */
#define F_RD      11, 5   /* rd; fs; PREFX hint */
#define F_SA       6, 5   /* sa; fd; SRLV/BSHFL sub-opcode */
#define F_FUNCT    0, 6   /* SPECIAL, SPECIAL2, SPECIAL3, COP0 CO, COP1, COP1X function */
#define F_IMM16    0, 16  /* I-type immediate / branch offset */
#define F_INDEX    0, 26  /* J, JAL instr_index */
#define F_NDTF    16, 2   /* BC1: nd (bit 17, likely) and tf (bit 16) */

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
	IMM16_SIGN = 1u << (FIELD_LEN(F_IMM16) - 1),
	IMM16_SPAN = 1u << FIELD_LEN(F_IMM16),
	WORD_SHIFT = 2,     /* offsets and instr_index count 4-byte words */
	REG_ZERO = 0,       /* $0 reads 0 */
	REG_RA = 31,        /* $31 ($ra): the link register of JAL, BxxAL, `jalr` */
};
/* J / JAL: the target keeps the top bits of the delay slot's address
 * (MIPS IV J: "the remaining upper bits are the corresponding bits of the
 * address of the instruction in the delay slot"): a 256 MB region. */
#define REGION_MASK ((UINT64_C(1) << (FIELD_LEN(F_INDEX) + WORD_SHIFT)) - 1)

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
	T_NONE = 0, T_SPECIAL, T_REGIMM, T_COP0, T_COP0_CO, T_COP1, T_COP1_FN, T_BC1,
	T_COP1X, T_SPECIAL2, T_SPECIAL3, T_COUNT
};

/* Control-transfer kinds. */
enum cti_kind {
	CTI_NONE = 0,
	CTI_PCREL,  /* branch: pc + 4 + (simm16 << 2) */
	CTI_REGION, /* J, JAL: ((pc + 4) & ~REGION_MASK) | instr_index << 2 */
	CTI_JR,     /* JR: GPR[rs]; a return when rs = $31 */
	CTI_JALR,   /* JALR: GPR[rs], link in rd; a call when rd = $31 */
};

/* When the encoding fixes a branch's outcome (gen_compute_branch() of
 * QEMU 7.2 target/mips/tcg/translate.c resolves the same cases). */
enum fixed_rule {
	FX_NONE = 0,
	FX_RS_EQ_RT, /* BEQ/BNE r,r: the comparison is of a register with itself */
	FX_RS_ZERO,  /* BLEZ/BGTZ/BLTZ/BGEZ(AL) $0: 0 compared with 0 */
};

/* Registers an instruction may write (for the prefetch donor rule). */
enum write_kind { W_NONE = 0, W_RT, W_RD, W_RA, W_ALL };

/* Fields an entry may check against its `valid` set. */
enum sel_field { S_NONE = 0, S_RS, S_SA };

/* Address forms (enum hvpmu_mips64_addr_form). */
enum { A_NONE = HVPMU_MA_NONE, A_IMM = HVPMU_MA_IMM, A_REG = HVPMU_MA_REG };

struct op {
	uint32_t flags;  /* enum hvpmu_ic_flags of the instruction; 0: undefined */
	uint32_t valid;  /* values of field `sel` that are defined (bit v: value v) */
	uint32_t mbz;    /* bits that must be 0: set, they select an instruction not decoded */
	uint8_t next;    /* enum table_id: the sub-table that decides, T_NONE: this entry */
	uint8_t sel;     /* enum sel_field: the field `valid` constrains, S_NONE: none */
	uint8_t cti;     /* enum cti_kind */
	uint8_t fixed;   /* enum fixed_rule (CTI_PCREL) */
	uint8_t taken;   /* the fixed outcome: 1 always taken, 0 never */
	uint8_t likely;  /* branch-likely: the delay slot runs only when taken */
	uint8_t addr;    /* A_NONE, A_IMM, A_REG */
	uint8_t donor;   /* reported by QEMU once at its effective address */
	uint8_t wr;      /* enum write_kind */
};

struct table {
	const struct op *ops;
	uint8_t shift, len; /* the field that indexes it */
};

/* Entry constructors. */
#define E(fl, ...) { .flags = (fl), __VA_ARGS__ }
#define SUB(t) { .next = (t) }
#define ALU_RD E(OTH, .wr = W_RD)                 /* integer op writing rd */
#define ALU_RT E(OTH, .wr = W_RT)                 /* integer op writing rt */
#define HILO E(OTH)                               /* writes HI/LO only */
#define TRAP E(OTH, .wr = W_ALL)                  /* the OS may change any register */
#define CP0 E(SPR)
#define FP E(FPU)
/* Memory accesses [GPR[rs] + simm16]; `d`: a recovery donor. */
#define LOAD(extra, d) E(LD | (extra), .addr = A_IMM, .donor = (d), .wr = W_RT)
#define FLOAD(d) E(LD, .addr = A_IMM, .donor = (d))            /* writes an FPR */
#define STORE(extra, d, w) E(ST | (extra), .addr = A_IMM, .donor = (d), .wr = (w))
/* COP1X [GPR[base] + GPR[index]] (MIPS IV LWXC1 .. SDXC1, MIPS64 LUXC1/SUXC1). */
#define XLOAD(d) E(LD, .addr = A_REG, .donor = (d))
#define XSTORE(d) E(ST, .addr = A_REG, .donor = (d))
/* PC-relative branches: `fx`/`tk` the fixed outcome, `lk` likely, `link` the
 * call flag and $31 write of the ...AL forms. */
#define BRANCH(fx, tk, lk, link) \
	E(BR | ((link) ? (uint32_t)HVPMU_IC_CALL : 0u), .cti = CTI_PCREL, .fixed = (fx), .taken = (tk), \
	  .likely = (lk), .wr = (link) ? W_RA : W_NONE)
#define BEQ_(lk) BRANCH(FX_RS_EQ_RT, 1, lk, 0)
#define BNE_(lk) BRANCH(FX_RS_EQ_RT, 0, lk, 0)
#define BZ_TAKEN(lk, link) BRANCH(FX_RS_ZERO, 1, lk, link)  /* BLEZ, BGEZ(AL): 0 <= 0, 0 >= 0 */
#define BZ_NEVER(lk, link) BRANCH(FX_RS_ZERO, 0, lk, link)  /* BGTZ, BLTZ(AL): 0 > 0, 0 < 0 */
#define BC1_(lk) BRANCH(FX_NONE, 0, lk, 0)
/* Entry defined only for some values (bit v of `mask`) of field `s`. */
#define ONLY(s, mask, ...) E(__VA_ARGS__, .sel = (s), .valid = (mask))
#define V(v) (1u << (v))

/* COP1 fmt values (MIPS IV "FPU Instruction Encoding", MIPS64 Table A.17). */
enum { FMT_S = 16, FMT_D = 17, FMT_W = 20, FMT_L = 21, FMT_PS = 22 };
#define F_SD (V(FMT_S) | V(FMT_D))
#define F_SDPS (V(FMT_S) | V(FMT_D) | V(FMT_PS))
#define FPFMT(mask) ONLY(S_RS, (mask), FPU)
/* C.cond.fmt: bits 7:6 are 0 in MIPS IV and MIPS64 (Table A.18 note); the
 * MIPS-3D ASE, which neither the R10000 nor gcc's default code uses, puts
 * CABS.cond.fmt there. */
#define F_CCOND_MBZ 0xc0u
#define CCOND E(FPU, .sel = S_RS, .valid = F_SDPS, .mbz = F_CCOND_MBZ)

/* Major opcode, bits 31:26 (MIPS IV "CPU Instruction Encoding"; MIPS64
 * Table A.2).  COP2, LWC2, LDC2, SWC2, SDC2: the R10000 has no CP2 and
 * raises Coprocessor Unusable, as do QEMU 7.2's MIPS64 CPUs; JALX (MIPS16)
 * and opcode 0x1e (MDMX/MSA) and 0x3b are not MIPS IV: undefined. */
static const struct op major[64] = {
	[0x00] = SUB(T_SPECIAL),
	[0x01] = SUB(T_REGIMM),
	[0x02] = E(BR, .cti = CTI_REGION),                                 /* J */
	[0x03] = E(BR | HVPMU_IC_CALL, .cti = CTI_REGION, .wr = W_RA),     /* JAL */
	[0x04] = BEQ_(0),                                                  /* BEQ */
	[0x05] = BNE_(0),                                                  /* BNE */
	[0x06] = BZ_TAKEN(0, 0),                                           /* BLEZ */
	[0x07] = BZ_NEVER(0, 0),                                           /* BGTZ */
	[0x08] = ALU_RT, [0x09] = ALU_RT, [0x0a] = ALU_RT, [0x0b] = ALU_RT, /* ADDI ADDIU SLTI SLTIU */
	[0x0c] = ALU_RT, [0x0d] = ALU_RT, [0x0e] = ALU_RT, [0x0f] = ALU_RT, /* ANDI ORI XORI LUI */
	[0x10] = SUB(T_COP0),
	[0x11] = SUB(T_COP1),
	[0x13] = SUB(T_COP1X),
	[0x14] = BEQ_(1),                                                  /* BEQL */
	[0x15] = BNE_(1),                                                  /* BNEL */
	[0x16] = BZ_TAKEN(1, 0),                                           /* BLEZL */
	[0x17] = BZ_NEVER(1, 0),                                           /* BGTZL */
	[0x18] = ALU_RT, [0x19] = ALU_RT,                                  /* DADDI DADDIU */
	[0x1a] = LOAD(0, 0), [0x1b] = LOAD(0, 0),                          /* LDL LDR */
	[0x1c] = SUB(T_SPECIAL2),
	[0x1f] = SUB(T_SPECIAL3),
	[0x20] = LOAD(0, 1), [0x21] = LOAD(0, 1),                          /* LB LH */
	[0x22] = LOAD(0, 0), [0x23] = LOAD(0, 1),                          /* LWL LW */
	[0x24] = LOAD(0, 1), [0x25] = LOAD(0, 1),                          /* LBU LHU */
	[0x26] = LOAD(0, 0), [0x27] = LOAD(0, 1),                          /* LWR LWU */
	[0x28] = STORE(0, 1, W_NONE), [0x29] = STORE(0, 1, W_NONE),        /* SB SH */
	[0x2a] = STORE(0, 0, W_NONE), [0x2b] = STORE(0, 1, W_NONE),        /* SWL SW */
	[0x2c] = STORE(0, 0, W_NONE), [0x2d] = STORE(0, 0, W_NONE),        /* SDL SDR */
	[0x2e] = STORE(0, 0, W_NONE),                                      /* SWR */
	[0x2f] = E(SPR, .addr = A_IMM),                                    /* CACHE (privileged) */
	[0x30] = LOAD(HVPMU_IC_LOAD_LINKED, 1),                            /* LL */
	[0x31] = FLOAD(1),                                                 /* LWC1 */
	[0x33] = E(OTH | HVPMU_IC_PREFETCH, .addr = A_IMM),                /* PREF */
	[0x34] = LOAD(HVPMU_IC_LOAD_LINKED, 1),                            /* LLD */
	[0x35] = FLOAD(1),                                                 /* LDC1 */
	[0x37] = LOAD(0, 1),                                               /* LD */
	[0x38] = STORE(HVPMU_IC_STORE_COND, 0, W_RT),                      /* SC */
	[0x39] = STORE(0, 1, W_NONE),                                      /* SWC1 */
	[0x3c] = STORE(HVPMU_IC_STORE_COND, 0, W_RT),                      /* SCD */
	[0x3d] = STORE(0, 1, W_NONE),                                      /* SDC1 */
	[0x3f] = STORE(0, 1, W_NONE),                                      /* SD */
};

/* SPECIAL function, bits 5:0 (MIPS64 Table A.3).  SRL/SRLV/DSRL/DSRL32/DSRLV
 * select the Release 2 rotates with rs or sa = 1 (Tables A.8-A.12). */
static const struct op special[64] = {
	[0x00] = ALU_RD,                                  /* SLL (NOP, SSNOP, EHB, PAUSE) */
	[0x01] = ALU_RD,                                  /* MOVF, MOVT */
	[0x02] = ONLY(S_RS, V(0) | V(1), OTH, .wr = W_RD), /* SRL, ROTR */
	[0x03] = ALU_RD,                                  /* SRA */
	[0x04] = ALU_RD,                                  /* SLLV */
	[0x06] = ONLY(S_SA, V(0) | V(1), OTH, .wr = W_RD), /* SRLV, ROTRV */
	[0x07] = ALU_RD,                                  /* SRAV */
	[0x08] = E(BR, .cti = CTI_JR),                    /* JR, JR.HB */
	[0x09] = E(BR, .cti = CTI_JALR, .wr = W_RD),      /* JALR, JALR.HB */
	[0x0a] = ALU_RD, [0x0b] = ALU_RD,                 /* MOVZ MOVN */
	[0x0c] = E(OTH | HVPMU_IC_SYSCALL, .wr = W_ALL),  /* SYSCALL */
	[0x0d] = TRAP,                                    /* BREAK */
	[0x0f] = E(OTH | HVPMU_IC_NTC),                   /* SYNC (any stype) */
	[0x10] = ALU_RD, [0x11] = HILO,                   /* MFHI MTHI */
	[0x12] = ALU_RD, [0x13] = HILO,                   /* MFLO MTLO */
	[0x14] = ALU_RD,                                  /* DSLLV */
	[0x16] = ONLY(S_SA, V(0) | V(1), OTH, .wr = W_RD), /* DSRLV, DROTRV */
	[0x17] = ALU_RD,                                  /* DSRAV */
	[0x18] = HILO, [0x19] = HILO, [0x1a] = HILO, [0x1b] = HILO, /* MULT MULTU DIV DIVU */
	[0x1c] = HILO, [0x1d] = HILO, [0x1e] = HILO, [0x1f] = HILO, /* DMULT DMULTU DDIV DDIVU */
	[0x20] = ALU_RD, [0x21] = ALU_RD, [0x22] = ALU_RD, [0x23] = ALU_RD, /* ADD ADDU SUB SUBU */
	[0x24] = ALU_RD, [0x25] = ALU_RD, [0x26] = ALU_RD, [0x27] = ALU_RD, /* AND OR XOR NOR */
	[0x2a] = ALU_RD, [0x2b] = ALU_RD,                 /* SLT SLTU */
	[0x2c] = ALU_RD, [0x2d] = ALU_RD, [0x2e] = ALU_RD, [0x2f] = ALU_RD, /* DADD DADDU DSUB DSUBU */
	[0x30] = TRAP, [0x31] = TRAP, [0x32] = TRAP, [0x33] = TRAP, /* TGE TGEU TLT TLTU */
	[0x34] = TRAP, [0x36] = TRAP,                     /* TEQ TNE */
	[0x38] = ALU_RD,                                  /* DSLL */
	[0x3a] = ONLY(S_RS, V(0) | V(1), OTH, .wr = W_RD), /* DSRL, DROTR */
	[0x3b] = ALU_RD, [0x3c] = ALU_RD,                 /* DSRA DSLL32 */
	[0x3e] = ONLY(S_RS, V(0) | V(1), OTH, .wr = W_RD), /* DSRL32, DROTR32 */
	[0x3f] = ALU_RD,                                  /* DSRA32 */
};

/* REGIMM rt, bits 20:16 (MIPS64 Table A.4). */
static const struct op regimm[32] = {
	[0x00] = BZ_NEVER(0, 0), [0x01] = BZ_TAKEN(0, 0),   /* BLTZ BGEZ */
	[0x02] = BZ_NEVER(1, 0), [0x03] = BZ_TAKEN(1, 0),   /* BLTZL BGEZL */
	[0x08] = TRAP, [0x09] = TRAP, [0x0a] = TRAP, [0x0b] = TRAP, /* TGEI TGEIU TLTI TLTIU */
	[0x0c] = TRAP, [0x0e] = TRAP,                       /* TEQI TNEI */
	[0x10] = BZ_NEVER(0, 1), [0x11] = BZ_TAKEN(0, 1),   /* BLTZAL BGEZAL (bal) */
	[0x12] = BZ_NEVER(1, 1), [0x13] = BZ_TAKEN(1, 1),   /* BLTZALL BGEZALL */
	[0x1f] = E(OTH, .addr = A_IMM),                     /* SYNCI (Release 2, user mode) */
};

/* COP0 rs, bits 25:21 (MIPS64 Table A.15); CO = 1 (rs 0x10-0x1f) selects
 * by function (Table A.16).  All privileged. */
static const struct op cop0[32] = {
	[0x00] = E(SPR, .wr = W_RT), [0x01] = E(SPR, .wr = W_RT),  /* MFC0 DMFC0 */
	[0x04] = CP0, [0x05] = CP0,                               /* MTC0 DMTC0 */
	[0x0a] = E(SPR, .wr = W_RD),                              /* RDPGPR */
	[0x0b] = E(SPR, .wr = W_RT),                              /* MFMC0: DI, EI */
	[0x0e] = CP0,                                             /* WRPGPR */
	[0x10] = SUB(T_COP0_CO), [0x11] = SUB(T_COP0_CO), [0x12] = SUB(T_COP0_CO),
	[0x13] = SUB(T_COP0_CO), [0x14] = SUB(T_COP0_CO), [0x15] = SUB(T_COP0_CO),
	[0x16] = SUB(T_COP0_CO), [0x17] = SUB(T_COP0_CO), [0x18] = SUB(T_COP0_CO),
	[0x19] = SUB(T_COP0_CO), [0x1a] = SUB(T_COP0_CO), [0x1b] = SUB(T_COP0_CO),
	[0x1c] = SUB(T_COP0_CO), [0x1d] = SUB(T_COP0_CO), [0x1e] = SUB(T_COP0_CO),
	[0x1f] = SUB(T_COP0_CO),
};

static const struct op cop0_co[64] = {
	[0x01] = CP0, [0x02] = CP0, [0x06] = CP0, [0x08] = CP0, /* TLBR TLBWI TLBWR TLBP */
	[0x18] = E(SPR, .wr = W_ALL),                           /* ERET: leaves the handler */
	[0x1f] = E(SPR, .wr = W_ALL),                           /* DERET (EJTAG) */
	[0x20] = CP0,                                           /* WAIT */
};

/* COP1 rs, bits 25:21 (MIPS IV "FPU Instruction Encoding"; MIPS64 Table
 * A.17): moves, BC1 (by nd/tf, Table A.17 footnote), and the formats. */
static const struct op cop1[32] = {
	[0x00] = E(FPU, .wr = W_RT), [0x01] = E(FPU, .wr = W_RT), /* MFC1 DMFC1 */
	[0x02] = E(FPU, .wr = W_RT), [0x03] = E(FPU, .wr = W_RT), /* CFC1 MFHC1 */
	[0x04] = FP, [0x05] = FP, [0x06] = FP, [0x07] = FP,       /* MTC1 DMTC1 CTC1 MTHC1 */
	[0x08] = SUB(T_BC1),
	[FMT_S] = SUB(T_COP1_FN), [FMT_D] = SUB(T_COP1_FN), [FMT_W] = SUB(T_COP1_FN),
	[FMT_L] = SUB(T_COP1_FN), [FMT_PS] = SUB(T_COP1_FN),
};

/* BC1 nd:tf, bits 17:16. */
static const struct op bc1[4] = {
	[0] = BC1_(0), [1] = BC1_(0), /* BC1F BC1T */
	[2] = BC1_(1), [3] = BC1_(1), /* BC1FL BC1TL */
};

/* COP1 function for fmt S, D, W, L, PS (MIPS64 Tables A.18-A.21; MIPS IV
 * "FPU Instruction Encoding"), each with the formats it is defined for. */
static const struct op cop1_fn[64] = {
	[0x00] = FPFMT(F_SDPS), [0x01] = FPFMT(F_SDPS), [0x02] = FPFMT(F_SDPS), /* ADD SUB MUL */
	[0x03] = FPFMT(F_SD), [0x04] = FPFMT(F_SD),                             /* DIV SQRT */
	[0x05] = FPFMT(F_SDPS), [0x06] = FPFMT(F_SDPS), [0x07] = FPFMT(F_SDPS), /* ABS MOV NEG */
	[0x08] = FPFMT(F_SD), [0x09] = FPFMT(F_SD), [0x0a] = FPFMT(F_SD), [0x0b] = FPFMT(F_SD), /* ROUND.L .. FLOOR.L */
	[0x0c] = FPFMT(F_SD), [0x0d] = FPFMT(F_SD), [0x0e] = FPFMT(F_SD), [0x0f] = FPFMT(F_SD), /* ROUND.W .. FLOOR.W */
	[0x11] = FPFMT(F_SDPS),                                                 /* MOVF.fmt, MOVT.fmt */
	[0x12] = FPFMT(F_SDPS), [0x13] = FPFMT(F_SDPS),                         /* MOVZ.fmt MOVN.fmt */
	[0x15] = FPFMT(F_SD), [0x16] = FPFMT(F_SD),                             /* RECIP RSQRT */
	[0x20] = FPFMT(V(FMT_D) | V(FMT_W) | V(FMT_L) | V(FMT_PS)),             /* CVT.S (.PU for PS) */
	[0x21] = FPFMT(V(FMT_S) | V(FMT_W) | V(FMT_L)),                         /* CVT.D */
	[0x24] = FPFMT(F_SD), [0x25] = FPFMT(F_SD),                             /* CVT.W CVT.L */
	[0x26] = FPFMT(V(FMT_S)),                                               /* CVT.PS.S */
	[0x28] = FPFMT(V(FMT_PS)),                                              /* CVT.S.PL */
	[0x2c] = FPFMT(V(FMT_PS)), [0x2d] = FPFMT(V(FMT_PS)),                   /* PLL.PS PLU.PS */
	[0x2e] = FPFMT(V(FMT_PS)), [0x2f] = FPFMT(V(FMT_PS)),                   /* PUL.PS PUU.PS */
	[0x30] = CCOND, [0x31] = CCOND, [0x32] = CCOND, [0x33] = CCOND, /* C.F C.UN C.EQ C.UEQ */
	[0x34] = CCOND, [0x35] = CCOND, [0x36] = CCOND, [0x37] = CCOND, /* C.OLT C.ULT C.OLE C.ULE */
	[0x38] = CCOND, [0x39] = CCOND, [0x3a] = CCOND, [0x3b] = CCOND, /* C.SF C.NGLE C.SEQ C.NGL */
	[0x3c] = CCOND, [0x3d] = CCOND, [0x3e] = CCOND, [0x3f] = CCOND, /* C.LT C.NGE C.LE C.NGT */
};

/* COP1X function, bits 5:0 (MIPS IV "FPU Instruction Encoding" COP1X;
 * MIPS64 Table A.24). */
static const struct op cop1x[64] = {
	[0x00] = XLOAD(1), [0x01] = XLOAD(1), [0x05] = XLOAD(0),    /* LWXC1 LDXC1 LUXC1 */
	[0x08] = XSTORE(1), [0x09] = XSTORE(1), [0x0d] = XSTORE(0), /* SWXC1 SDXC1 SUXC1 */
	[0x0f] = E(OTH | HVPMU_IC_PREFETCH, .addr = A_REG),         /* PREFX */
	[0x1e] = FP,                                                /* ALNV.PS */
	[0x20] = FP, [0x21] = FP, [0x26] = FP,                      /* MADD.S .D .PS */
	[0x28] = FP, [0x29] = FP, [0x2e] = FP,                      /* MSUB */
	[0x30] = FP, [0x31] = FP, [0x36] = FP,                      /* NMADD */
	[0x38] = FP, [0x39] = FP, [0x3e] = FP,                      /* NMSUB */
};

/* SPECIAL2 function (MIPS64 Table A.5; not MIPS IV: Release 1 and up). */
static const struct op special2[64] = {
	[0x00] = HILO, [0x01] = HILO, [0x04] = HILO, [0x05] = HILO, /* MADD MADDU MSUB MSUBU */
	[0x02] = ALU_RD,                                            /* MUL */
	[0x20] = ALU_RD, [0x21] = ALU_RD, [0x24] = ALU_RD, [0x25] = ALU_RD, /* CLZ CLO DCLZ DCLO */
	[0x3f] = TRAP,                                              /* SDBBP */
};

/* SPECIAL3 function (MIPS64 Table A.6; Release 2), BSHFL / DBSHFL by sa
 * (Tables A.13, A.14). */
static const struct op special3[64] = {
	[0x00] = ALU_RT, [0x01] = ALU_RT, [0x02] = ALU_RT, [0x03] = ALU_RT, /* EXT DEXTM DEXTU DEXT */
	[0x04] = ALU_RT, [0x05] = ALU_RT, [0x06] = ALU_RT, [0x07] = ALU_RT, /* INS DINSM DINSU DINS */
	[0x20] = ONLY(S_SA, V(0x02) | V(0x10) | V(0x18), OTH, .wr = W_RD),   /* WSBH SEB SEH */
	[0x24] = ONLY(S_SA, V(0x02) | V(0x05), OTH, .wr = W_RD),             /* DSBH DSHD */
	[0x3b] = E(SPR, .wr = W_RT),                                        /* RDHWR */
};

static const struct table tables[T_COUNT] = {
	[T_SPECIAL] = { special, FIELD_SHIFT(F_FUNCT), FIELD_LEN(F_FUNCT) },
	[T_REGIMM] = { regimm, FIELD_SHIFT(F_RT), FIELD_LEN(F_RT) },
	[T_COP0] = { cop0, FIELD_SHIFT(F_RS), FIELD_LEN(F_RS) },
	[T_COP0_CO] = { cop0_co, FIELD_SHIFT(F_FUNCT), FIELD_LEN(F_FUNCT) },
	[T_COP1] = { cop1, FIELD_SHIFT(F_RS), FIELD_LEN(F_RS) },
	[T_COP1_FN] = { cop1_fn, FIELD_SHIFT(F_FUNCT), FIELD_LEN(F_FUNCT) },
	[T_BC1] = { bc1, FIELD_SHIFT(F_NDTF), FIELD_LEN(F_NDTF) },
	[T_COP1X] = { cop1x, FIELD_SHIFT(F_FUNCT), FIELD_LEN(F_FUNCT) },
	[T_SPECIAL2] = { special2, FIELD_SHIFT(F_FUNCT), FIELD_LEN(F_FUNCT) },
	[T_SPECIAL3] = { special3, FIELD_SHIFT(F_FUNCT), FIELD_LEN(F_FUNCT) },
};

/* The entry that describes `insn`, or NULL if it is undefined.  The
 * sub-tables form a tree (at most three lookups: COP1 fmt -> function). */
static const struct op *lookup(uint32_t insn)
{
	const struct op *e = &major[FIELD(insn, F_OP)];

	while (e->next != T_NONE) {
		const struct table *t = &tables[e->next];

		e = &t->ops[fld(insn, t->shift, t->len)];
	}
	if (e->flags == 0 || (insn & e->mbz) != 0)
		return NULL;
	if (e->sel != S_NONE) {
		uint32_t v = e->sel == S_RS ? FIELD(insn, F_RS) : FIELD(insn, F_SA);

		if (!((e->valid >> v) & 1u))
			return NULL;
	}
	return e;
}

static inline int64_t simm16(uint32_t insn)
{
	uint32_t imm = FIELD(insn, F_IMM16);

	return (int64_t)imm - ((imm & IMM16_SIGN) ? (int64_t)IMM16_SPAN : 0);
}

/* CTI flag of a PC-relative branch: fixed by the encoding, or conditional. */
static uint32_t branch_cti(const struct op *e, uint32_t insn)
{
	uint32_t rs = FIELD(insn, F_RS);
	bool fixed = (e->fixed == FX_RS_EQ_RT && rs == FIELD(insn, F_RT)) ||
		     (e->fixed == FX_RS_ZERO && rs == REG_ZERO);

	if (!fixed)
		return HVPMU_IC_CTI_COND;
	return e->taken ? HVPMU_IC_CTI_ALWAYS : 0; /* never taken: as SPARC's BN */
}

uint32_t hvpmu_mips64_decode(uint32_t insn, uint64_t pc, struct hvpmu_insn *out)
{
	const struct op *e = lookup(insn);
	uint32_t flags;

	*out = (struct hvpmu_insn){ .uops = 1 };
	if (!e) {
		out->flags = ILL;
		return ILL;
	}
	flags = e->flags;
	switch (e->cti) {
	case CTI_PCREL:
		flags |= branch_cti(e, insn);
		out->annul = e->likely;
		out->has_target = 1;
		out->target = pc + INSN_BYTES + ((uint64_t)simm16(insn) << WORD_SHIFT);
		break;
	case CTI_REGION:
		flags |= HVPMU_IC_CTI_ALWAYS;
		out->has_target = 1;
		out->target = ((pc + INSN_BYTES) & ~REGION_MASK) |
			      ((uint64_t)FIELD(insn, F_INDEX) << WORD_SHIFT);
		break;
	case CTI_JR:
		flags |= HVPMU_IC_CTI_ALWAYS | HVPMU_IC_INDIRECT;
		if (FIELD(insn, F_RS) == REG_RA)
			flags |= HVPMU_IC_RET;
		break;
	case CTI_JALR:
		flags |= HVPMU_IC_CTI_ALWAYS | HVPMU_IC_INDIRECT;
		if (FIELD(insn, F_RD) == REG_RA)
			flags |= HVPMU_IC_CALL;
		break;
	default:
		break;
	}
	out->flags = flags;
	return flags;
}

void hvpmu_mips64_operands(uint32_t insn, struct hvpmu_mips64_operands *out)
{
	const struct op *e = lookup(insn);
	struct hvpmu_insn d;

	*out = (struct hvpmu_mips64_operands){ .form = HVPMU_MA_NONE };
	if (!e) { /* undefined: traps, the OS may change anything */
		out->writes = ~1u;
		return;
	}
	hvpmu_mips64_decode(insn, 0, &d);
	out->cti = (d.flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) != 0;
	out->likely = e->likely;
	out->form = e->addr;
	out->donor = e->donor;
	out->base = (uint8_t)FIELD(insn, F_RS);
	if (e->addr == A_IMM)
		out->offset = (int32_t)simm16(insn);
	else if (e->addr == A_REG)
		out->index = (uint8_t)FIELD(insn, F_RT);
	else
		out->base = 0;
	if (e->flags & HVPMU_IC_PREFETCH) {
		out->prefetch = 1;
		out->hint = (uint8_t)(e->addr == A_REG ? FIELD(insn, F_RD) : FIELD(insn, F_RT));
	}
	switch (e->wr) {
	case W_RT: out->writes = 1u << FIELD(insn, F_RT); break;
	case W_RD: out->writes = 1u << FIELD(insn, F_RD); break;
	case W_RA: out->writes = 1u << REG_RA; break;
	case W_ALL: out->writes = ~0u; break;
	default: break;
	}
	out->writes &= ~(1u << REG_ZERO);
}
