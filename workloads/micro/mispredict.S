/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mispredict: a loop whose inner branch alternates not-taken / taken, for
 * the pipeline timing of docs/timing-model.md (TABLE 10-2 sl=1 mask 0x01
 * Sel-pipe-drain, sl=25 Br_mispred, sl=5 mask 0x08 BTC miss).
 *
 * The loop runs for i = 0 .. N-1 (N = 200).  Per iteration:
 *
 *   insn  kind                      runs           taken
 *   A1    andcc i, 1 (OTHER)        always
 *   A2    bne,pt %icc (BPcc)        always         i odd (N/2)
 *   A3    delay nop (OTHER)         always
 *   A4    add (OTHER)               i even (N/2)
 *   A5    add i, 1 (OTHER)          always
 *   A6    subcc (OTHER)             always
 *   A7    bne,pt %xcc (BPcc)        always         i+1 < N (N-1)
 *   A8    delay nop (OTHER)         always
 *
 * Prologue P1-P2, exit E1-E3: 5 OTHER.
 *   Instr_all = 5 + 7N + N/2                                  = 1505
 *
 * Direction counters start weakly not-taken (docs/branch-prediction.md).
 * A2 sees N, T, N, T, ...: its counter moves 1 -> 0 -> 1 -> 0 ..., always
 * predicting not-taken, so every taken execution mispredicts: N/2.  A7 is
 * taken N-1 times, then falls through: it mispredicts on its first taken
 * execution and on the exit: 2.
 *   Br_mispred = N/2 + 2                                      = 102
 *   Sel_pipe_drain_cycles = 21 * Br_mispred (24-cycle penalty,
 *   3 refetch + 21 drain)                                     = 2142
 * The BTC misses once per taken CTI (A2 at i = 1, A7 at i = 0), both on a
 * mispredict, so they add no bubble:
 *   BTC_miss = 2, BTC_targ_incorrect = 0
 * One micro-op per instruction, in user mode: Sel_1:u = Pick_any:u =
 * Commit_1_or_2:u = 1505 (without :u they add the exit system call and
 * the ITLB fill trap, privileged work counted as issue cycles).
 */
#define N 200

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	mov	N, %o1			! P1 iterations left
	clr	%o2			! P2 i
.Lloop:
	andcc	%o2, 1, %g0		! A1
	bne,pt	%icc, .Lodd		! A2 taken when i is odd
	 nop				! A3
	add	%o3, 1, %o3		! A4 i even only
.Lodd:
	add	%o2, 1, %o2		! A5
	subcc	%o1, 1, %o1		! A6
	bne,pt	%xcc, .Lloop		! A7
	 nop				! A8
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start
