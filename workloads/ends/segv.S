/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * segv: K iterations of a counted loop, then a store to address 0, which
 * faults: the program dies of SIGSEGV (tests/integration/run_endings.sh).
 * The faulting store does not retire, so it counts in no event (it is the
 * first instruction of its translation block: a block left at its first
 * instruction adds nothing, docs/event-source.md).
 *
 *   S1-S2  sethi/or K into %l0            2 OTHER
 *   loop   subcc, bne,pt, delay nop       1 BRANCH + 2 OTHER, K times
 *   F1     stx %g0, [%g0]                 faults: not retired
 *
 *   Instr_all   = 2 + 3K
 *   Branches    = K          Br_taken = K - 1
 *   Instr_other = 2 + 2K     Instr_st = 0
 */
#define K 1000000

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(K), %l0		! S1
	or	%l0, %lo(K), %l0	! S2
.Lloop:
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lloop
	 nop
	stx	%g0, [%g0]		! F1: SIGSEGV
	.size	_start, . - _start
