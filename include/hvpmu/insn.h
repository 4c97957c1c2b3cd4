/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/insn.h - generic instruction classes: the vocabulary in which an
 * event source (layer 1) describes each retired instruction to the machine
 * (layer 2) and the PMU devices (layer 3), whatever the instruction set
 * (../shared/DESIGN.md "ISA" seam).
 *
 * An ISA's decoder (hvpmu/isa.h; SPARC V9: hvpmu/sparc_decode.h) gives
 * every instruction a set of these flags once, at translation time.  The
 * machine interns each distinct set into a class (hvpmu_machine_class)
 * and uses only the generic meaning: memory access kinds, micro-ops of
 * block transfers, control transfers for the branch predictor.  Each PMU
 * maps the classes to its own event codes with a table of its own
 * (src/pmu/: T4 TABLE 10-2 sl=3 / sl=4, T1 FP_instr_cnt): no bit here is a
 * hardware event code.
 *
 * Exactly one of the six group flags (LOAD, STORE, FP, BRANCH, SPR, OTHER)
 * is set for every instruction: they partition the instruction stream.
 * The rest are properties that combine with them.
 */
#ifndef HVPMU_INSN_H
#define HVPMU_INSN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hvpmu_ic_flags {
	/* groups: exactly one per instruction */
	HVPMU_IC_LOAD = 1u << 0,       /* reads data memory (and register reads that behave as loads) */
	HVPMU_IC_STORE = 1u << 1,      /* writes data memory */
	HVPMU_IC_FP = 1u << 2,         /* floating-point, graphics (SIMD) or crypto arithmetic */
	HVPMU_IC_BRANCH = 1u << 3,     /* control transfer: branches, calls, jumps, returns */
	HVPMU_IC_SPR = 1u << 4,        /* special / privileged register access and ring operations */
	HVPMU_IC_OTHER = 1u << 5,      /* every other instruction (integer arithmetic, ...) */

	/* memory properties */
	HVPMU_IC_ATOMIC = 1u << 6,     /* atomic read-modify-write (SPARC LDSTUB/CASA/SWAP) */
	HVPMU_IC_PREFETCH = 1u << 7,   /* software prefetch (no architectural effect) */
	HVPMU_IC_BLOCK = 1u << 8,      /* block transfer of several words: several micro-ops */
	HVPMU_IC_ALTSPACE_DYN = 1u << 9, /* alternate-space access whose space is known only at run time
	                                    (SPARC: the ASI comes from %asi) */
	HVPMU_IC_LOAD_LINKED = 1u << 10, /* load-linked / load-reserve (MIPS LL/LLD, POWER lwarx/ldarx) */
	HVPMU_IC_STORE_COND = 1u << 11,  /* store-conditional (MIPS SC/SCD, POWER stwcx./stdcx.) */

	/* other properties */
	HVPMU_IC_SWCOUNT = 1u << 12,   /* the software-count marker instruction (T4: sethi %hi(0xfc000),%g0) */
	HVPMU_IC_NTC = 1u << 13,       /* commits alone: next-to-commit (T4 TABLE 10-1 footnote 1) */
	HVPMU_IC_ILLEGAL = 1u << 14,   /* not a defined instruction (counted in its group, OTHER for most) */
	HVPMU_IC_SYSCALL = 1u << 15,   /* traps to the operating system (SPARC Tcc, MIPS SYSCALL, POWER sc) */

	/* control transfers, for the branch predictor and taken-branch counts */
	HVPMU_IC_CTI_COND = 1u << 16,  /* conditional: taken or not is known only at run time */
	HVPMU_IC_CTI_ALWAYS = 1u << 17,/* always taken */
	HVPMU_IC_CALL = 1u << 18,      /* a call: pushes the return-address stack */
	HVPMU_IC_RET = 1u << 19,       /* a return: pops it */
	HVPMU_IC_INDIRECT = 1u << 20,  /* target from a register */
};

/* The six group flags. */
#define HVPMU_IC_GROUPS (HVPMU_IC_LOAD | HVPMU_IC_STORE | HVPMU_IC_FP | HVPMU_IC_BRANCH | HVPMU_IC_SPR | HVPMU_IC_OTHER)

#ifdef __cplusplus
}
#endif
#endif
