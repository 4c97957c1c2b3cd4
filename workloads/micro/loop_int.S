/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop_int: a counted loop of integer ALU instructions (no memory access).
 *
 * Every count below is derived from the code and is exact for the whole
 * program (first instruction at _start to the exit trap, delay slots
 * included).  Event groups: sparc-t4-performance-instrumentation.md
 * TABLE 10-2 sl=3 / sl=4 and footnotes 6-9; names from
 * reference/t4-events.md section 4.
 *
 * Blocks and how often each instruction runs (N = 2000 iterations):
 *   P1-P3   prologue                          1x     3 OTHER
 *   B1-B12  ALU body                          N x   12 OTHER
 *   B13     subcc (loop counter)              N x    1 OTHER
 *   B14     bne (Bicc, not annulled)          N x    1 BRANCH, taken N-1 times
 *   B15     delay slot add (always runs)      N x    1 OTHER
 *   E1-E3   exit: mov, mov, ta 0x6d (Tcc)     1x     3 OTHER
 *
 *   Instr_all        = 3 + 15N + 3       = 30006
 *   Branches         = N                 = 2000
 *   Br_taken         = N - 1             = 1999
 *   Instr_other      = 3 + 14N + 3       = 28006
 *   all other events (FGU, ld, st, SPR, Sw_count_intr, Atomics,
 *   SW_prefetch, Block_ld_st) = 0
 *
 * MULX and the 32-bit shifts are not named in footnote 9; the six sl=3
 * groups partition the instruction set and they belong to none of
 * footnotes 5-8, so they count as OTHER.
 */
#define N 2000

	.text
	.globl	_start
	.type	_start, #function
_start:
	mov	N, %l0			! P1 OTHER  loop counter
	clr	%l1			! P2 OTHER  accumulator
	mov	7, %l2			! P3 OTHER
.Lloop:
	add	%l1, %l2, %l1		! B1  OTHER
	sub	%l1, 3, %l3		! B2  OTHER
	xor	%l3, %l2, %l3		! B3  OTHER
	and	%l3, 0xff, %l4		! B4  OTHER
	or	%l4, 0x100, %l4		! B5  OTHER
	sllx	%l4, 3, %l5		! B6  OTHER
	srlx	%l5, 1, %l5		! B7  OTHER
	sra	%l5, 2, %l6		! B8  OTHER
	mulx	%l6, 5, %l6		! B9  OTHER
	andn	%l1, %l6, %l7		! B10 OTHER
	xnor	%l7, %l2, %l7		! B11 OTHER
	add	%l2, 1, %l2		! B12 OTHER
	subcc	%l0, 1, %l0		! B13 OTHER
	bne	.Lloop			! B14 BRANCH (Bicc); taken while %l0 != 0
	 add	%l1, 1, %l1		! B15 OTHER  delay slot, runs every iteration

	mov	1, %g1			! E1 OTHER  exit syscall number
	clr	%o0			! E2 OTHER  status 0
	ta	0x6d			! E3 OTHER  (Tcc is not a branch)
	.size	_start, . - _start
