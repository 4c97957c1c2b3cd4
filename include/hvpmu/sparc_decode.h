/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/sparc_decode.h - SPARC V9 instruction decoder for the event source
 * (layer 1 of ../shared/DESIGN.md).
 *
 * Classifies one 32-bit SPARC V9 instruction word into the SPARC T4
 * instruction groups that the T4 PMU counts:
 *   - TABLE 10-2 sl=3 (mask bits 0x01..0x20) and its footnotes 5-9,
 *   - TABLE 10-2 sl=4 (branches, taken branches, software count
 *     `sethi %hi(0xfc000),%g0`, atomics, software prefetch, block loads and
 *     stores by ASI),
 *   - TABLE 10-1 footnote 1 (next-to-commit instructions),
 *   - TABLE 10-2 footnote 12 (micro-op counts),
 * all in sparc-t4-performance-instrumentation.md.  Where the spec is silent
 * (e.g. instructions that footnotes 5-9 do not name), the choice is recorded
 * in docs/t4-instruction-groups.md.
 *
 * Decoding happens once per instruction at translation time, never on the
 * per-instruction hot path.  The function is pure: thread-safe, no
 * allocation, no global state.
 */
#ifndef HVPMU_SPARC_DECODE_H
#define HVPMU_SPARC_DECODE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Instruction flags.  Bits 0..5 equal the sl=3 mask bits of TABLE 10-2:
 * every instruction has exactly one of them set (the six groups partition
 * the instruction set: "Any other value ... 3F counts all instructions").
 */
enum hvpmu_si_flags {
	HVPMU_SI_BRANCH = 1u << 0,   /* sl=3 mask 0x01, sl=4 mask 0x01: Bicc, BPcc, BPr, CALL, CBcc, FBfcc, FBPfcc, JMPL, JPRIV, RETURN */
	HVPMU_SI_FGU = 1u << 1,      /* sl=3 mask 0x02: FGU + crypto arithmetic (footnote 5) */
	HVPMU_SI_LOAD = 1u << 2,     /* sl=3 mask 0x04: loads (footnote 6) */
	HVPMU_SI_STORE = 1u << 3,    /* sl=3 mask 0x08: stores (footnote 7) */
	HVPMU_SI_SPR = 1u << 4,      /* sl=3 mask 0x10: SPR ring ops (footnote 8) */
	HVPMU_SI_OTHER = 1u << 5,    /* sl=3 mask 0x20: all other instructions (footnote 9) */

	/* TABLE 10-2 sl=4 groups beyond "branches" (sl=4 mask 0x01 == HVPMU_SI_BRANCH) */
	HVPMU_SI_SWCOUNT = 1u << 6,  /* sl=4 mask 0x04: sethi %hi(0xfc000),%g0 */
	HVPMU_SI_ATOMIC = 1u << 7,   /* sl=4 mask 0x08: LDSTUB/A, CASA/CASXA, SWAP/A */
	HVPMU_SI_PREFETCH = 1u << 8, /* sl=4 mask 0x10: PREFETCH, PREFETCHA */
	HVPMU_SI_BLOCK = 1u << 9,    /* sl=4 mask 0x20: LDDFA/STDFA with the block ASIs listed */

	/* Properties */
	HVPMU_SI_NTC = 1u << 10,       /* next-to-commit instruction (TABLE 10-1 footnote 1) */
	HVPMU_SI_CTI_COND = 1u << 11,  /* conditional CTI: taken or not is known only at run time */
	HVPMU_SI_CTI_ALWAYS = 1u << 12,/* CTI that is always taken (BA, FBA, CALL, JMPL, RETURN, ...) */
	HVPMU_SI_ASI_REG = 1u << 13,   /* alternate-space access whose ASI comes from %asi (i=1):
	                                  the ASI is unknown at decode time; see docs */
	/* Exception to "counted as OTHER" below: a branch encoding with a reserved
	   cc / rcond / cond field (and V9-reserved op2 = 7) keeps HVPMU_SI_BRANCH
	   next to HVPMU_SI_ILLEGAL; see docs/t4-instruction-groups.md. */
	HVPMU_SI_ILLEGAL = 1u << 14,   /* encoding not defined by SPARC V9 / T4 (counted as OTHER) */
	HVPMU_SI_SYSCALL = 1u << 15,   /* Tcc (trap instruction); user code traps to the OS */

	/* CTI kinds for branch prediction (TABLE 10-2 sl=25) */
	HVPMU_SI_CALL = 1u << 16,      /* CALL, or JMPL writing %o7: pushes the return stack */
	HVPMU_SI_RET = 1u << 17,       /* ret / retl (JMPL %i7+8 / %o7+8, rd=%g0), RETURN %i7+8: pops it */
	HVPMU_SI_INDIRECT = 1u << 18,  /* JMPL / RETURN: target from registers */
};

/* Mask of the six sl=3 group bits. */
#define HVPMU_SI_SL3_MASK 0x3fu

/* Decoded instruction. */
struct hvpmu_sparc_insn {
	uint32_t flags;   /* enum hvpmu_si_flags */
	uint8_t uops;     /* micro-ops (TABLE 10-2 footnote 12): 8 for block ld/st, 2 for twin loads, else 1 */
	uint8_t asi;      /* immediate ASI of an alternate-space access, 0 if none or from %asi */
	uint8_t has_target; /* 1 if `target` is valid (PC-relative CTI: Bicc, BPcc, BPr, FBfcc, FBPfcc, CBcc, CALL) */
	uint8_t annul;    /* the a bit of a branch with a delay slot (Bicc, BPcc, BPr, FBfcc, FBPfcc,
	                     CBcc), else 0.  SPARC V9 6.3.4.1: a conditional branch (HVPMU_SI_CTI_COND)
	                     with a = 1 runs its delay slot only when it is taken; BA,a and BN,a
	                     never run it.  Not part of `flags`, so classes do not split on it. */
	uint64_t target;  /* absolute target address of a PC-relative CTI (pc + disp) */
};

/*
 * Decode `insn` (big-endian word already converted to host order) located at
 * virtual address `pc`.  Fills *out and returns out->flags.  Never fails:
 * undefined encodings are classified HVPMU_SI_OTHER | HVPMU_SI_ILLEGAL.
 * Pure function; thread-safe.
 */
uint32_t hvpmu_sparc_decode(uint32_t insn, uint64_t pc, struct hvpmu_sparc_insn *out);


/*
 * Operands of one instruction for the software-prefetch address recovery
 * rule (docs/prefetch-model.md): the address form of a data access, and
 * the integer registers the instruction may write.
 */
enum hvpmu_sparc_addr_form {
	HVPMU_SA_NONE = 0, /* not a prefetch nor a recovery donor */
	HVPMU_SA_IMM = 1,  /* [r[rs1] + simm13] (CASA/CASXA: [r[rs1]], simm13 = 0) */
	HVPMU_SA_REG = 2,  /* [r[rs1] + r[rs2]] */
};

struct hvpmu_sparc_operands {
	uint8_t form;     /* enum hvpmu_sparc_addr_form */
	uint8_t rs1, rs2; /* integer registers 0..31 (r0 = %g0 reads 0) */
	uint8_t prefetch; /* PREFETCH / PREFETCHA (SPARC V9 A.49) */
	uint8_t fcn;      /* prefetch function code (the rd field), prefetches only */
	uint8_t donor;    /* a data access QEMU reports once, at exactly its effective
	                     address: non-alternate LD*, ST*, LDTW/STTW, LDF/LDDF/STF/STDF,
	                     LDSTUB, SWAP, and CASA/CASXA */
	uint8_t cti;      /* a control transfer instruction */
	int32_t simm13;   /* sign-extended immediate (form IMM) */
	uint32_t writes;  /* bit r set: integer register r (1..31) may change; SAVE,
	                     RESTORE and RETURN set r8..r31 (new window), Tcc all */
};

/* Fill *out for `insn` (host order).  Pure function; thread-safe. */
void hvpmu_sparc_operands(uint32_t insn, struct hvpmu_sparc_operands *out);

#ifdef __cplusplus
}
#endif
#endif
