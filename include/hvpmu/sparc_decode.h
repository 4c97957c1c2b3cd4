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
#include <hvpmu/insn.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The flags are the generic instruction classes of hvpmu/insn.h.  How the
 * SPARC V9 instructions fall into them follows the groups the T4 PMU counts
 * (TABLE 10-2 sl=3 footnotes 5-9, sl=4), which the T4 PMU maps back with
 * its own table (src/pmu/t4_pmu.c):
 *   HVPMU_IC_BRANCH  Bicc, BPcc, BPr, CALL, CBcc, FBfcc, FBPfcc, JMPL, JPRIV, RETURN
 *   HVPMU_IC_FP      FGU + crypto arithmetic (footnote 5)
 *   HVPMU_IC_LOAD    loads (footnote 6);  HVPMU_IC_STORE stores (footnote 7)
 *   HVPMU_IC_SPR     SPR ring ops (footnote 8);  HVPMU_IC_OTHER the rest (footnote 9)
 *   HVPMU_IC_SWCOUNT sethi %hi(0xfc000),%g0;  HVPMU_IC_ATOMIC LDSTUB/A, CASA/CASXA, SWAP/A
 *   HVPMU_IC_PREFETCH PREFETCH, PREFETCHA;  HVPMU_IC_BLOCK LDDFA/STDFA with the block ASIs
 *   HVPMU_IC_NTC     next-to-commit instructions (TABLE 10-1 footnote 1)
 *   HVPMU_IC_ALTSPACE_DYN  alternate-space access whose ASI comes from %asi (i=1)
 *   HVPMU_IC_ILLEGAL encodings SPARC V9 / T4 do not define (counted as OTHER,
 *                    except a branch with a reserved cc / rcond / cond field
 *                    and V9-reserved op2 = 7, which keep HVPMU_IC_BRANCH;
 *                    docs/t4-instruction-groups.md)
 *   HVPMU_IC_SYSCALL Tcc (user code traps to the OS)
 *   HVPMU_IC_CTI_COND / _CTI_ALWAYS  conditional / always-taken CTIs (BA, FBA, CALL, JMPL, RETURN, ...)
 *   HVPMU_IC_CALL    CALL, or JMPL writing %o7;  HVPMU_IC_RET ret / retl / return %i7+8
 *   HVPMU_IC_INDIRECT JMPL / RETURN
 */

/* Decoded instruction. */
struct hvpmu_sparc_insn {
	uint32_t flags;   /* enum hvpmu_ic_flags (hvpmu/insn.h) */
	uint8_t uops;     /* micro-ops (TABLE 10-2 footnote 12): 8 for block ld/st, 2 for twin loads, else 1 */
	uint8_t asi;      /* immediate ASI of an alternate-space access, 0 if none or from %asi */
	uint8_t has_target; /* 1 if `target` is valid (PC-relative CTI: Bicc, BPcc, BPr, FBfcc, FBPfcc, CBcc, CALL) */
	uint8_t annul;    /* the a bit of a branch with a delay slot (Bicc, BPcc, BPr, FBfcc, FBPfcc,
	                     CBcc), else 0.  SPARC V9 6.3.4.1: a conditional branch (HVPMU_IC_CTI_COND)
	                     with a = 1 runs its delay slot only when it is taken; BA,a and BN,a
	                     never run it.  Not part of `flags`, so classes do not split on it. */
	uint64_t target;  /* absolute target address of a PC-relative CTI (pc + disp) */
};

/*
 * Decode `insn` (big-endian word already converted to host order) located at
 * virtual address `pc`.  Fills *out and returns out->flags.  Never fails:
 * undefined encodings are classified HVPMU_IC_OTHER | HVPMU_IC_ILLEGAL.
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

/*
 * 1 if `insn` (host order) may trap in user mode and, the trap handled
 * without running any program code, run again from its own address: the
 * register-window instructions SAVE (A.45), RESTORE (A.45), RETURN (A.44)
 * and FLUSHW (A.21), whose spill and fill traps the OS (QEMU's linux-user
 * cpu_loop) handles before it re-runs them, and Tcc (A.61), a system call
 * the OS restarts (-ERESTARTSYS) at the trap instruction; and LDSTUBA
 * (A.30), which QEMU with several threads runs again alone in an atomic
 * step (EXCP_ATOMIC) for the ASIs it has no parallel code for.  Else 0.  The
 * QEMU source's "totals only" mode relies on it (docs/event-source.md).
 * Pure function; thread-safe.
 */
int hvpmu_sparc_restarts(uint32_t insn);

#ifdef __cplusplus
}
#endif
#endif
