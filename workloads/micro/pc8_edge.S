/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pc8_edge: a conditional branch without the annul bit whose target is
 * pc+8 that ENDS its translation block: it is the last word of an 8 KiB
 * page, so QEMU ends the block there and runs its delay slot, the first
 * word of the next page, as a block of its own; pc+8 follows (pc8.S has
 * such branches inside their blocks).  Taken i odd, N/2 of N times, read
 * from %icc before it runs (docs/branch-prediction.md "Outcomes").
 *
 *   P1 mov N, %l1; P2 clr %l0                      (OTHER)
 *   2042 nops up to the loop                       (OTHER)
 *   loop, i = 0 .. N-1 (N = 64), 7 per iteration:
 *     L1 andcc %l0, 1, %g0                         (OTHER)
 *     L2 add %l0, 1, %l0                           (OTHER)
 *     L3 sub %l1, 1, %l1                           (OTHER)
 *     L4 bne .+8 (Bicc, page offset 8188)          taken i odd (N/2)
 *     L5 nop, its delay slot (next page)           (OTHER)
 *     L6 brnz,pt %l1, .Lloop (BPr)                 taken i+1 < N (N-1)
 *     L7 nop                                       (OTHER)
 *   E1-E3 exit                                     (OTHER)
 *
 *   Instr_all   = 2 + 2042 + 7N + 3                = 2495
 *   Branches    = 2N                               = 128
 *   Br_taken    = N/2 + N - 1                      = 95
 *   Instr_other = 2495 - 128                       = 2367
 *   Direction mispredicts (two-bit counters from weakly not-taken): L4
 *   N T N T ... every taken one (N/2 = 32); L6 the first taken and the
 *   exit (2): Br_dir_mispred = 34.  Both CTIs' targets lie in the other
 *   8 KB page, so a taken one with the direction right looks its target
 *   up in the far table (docs/branch-prediction.md): L4 never is (every
 *   taken L4 is a direction mispredict); L6's second taken execution is,
 *   and misses once: Br_trg_mispred = 1.  Br_mispred = 35,
 *   Sel_pipe_drain_cycles = 21 * 35 = 735.  BTC_miss: L4 and L6 once = 2.
 */
#define N 64

	.text
	.align	8192
	.globl	_start
	.type	_start, #function
_start:
	mov	N, %l1			! P1
	clr	%l0			! P2
	.rept	2042
	nop
	.endr
.Lloop:
	andcc	%l0, 1, %g0		! L1 (page offset 8176)
	add	%l0, 1, %l0		! L2
	sub	%l1, 1, %l1		! L3
	bne	1f			! L4 (page offset 8188)
	 nop				! L5 (next page)
1:	brnz,pt	%l1, .Lloop		! L6
	 nop				! L7
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start
