/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * annul: annulled conditional branches whose target is pc+8 (the form GCC
 * emits for conditional stores and moves: `cmp; b<cc>,a .+8; <op>`), in
 * the four forms Bicc, BPcc, BPr and FBfcc, each taken a known k of N
 * times (k = 0, k = N and mixes).  SPARC V9 (6.3.4.1; A.3 BPr, A.4
 * FBfcc, A.6 Bicc, A.7 BPcc): a conditional branch is taken exactly when
 * its condition holds, and with the annul bit set its delay slot runs
 * only when it is taken.  The instruction after the delay slot is pc+8
 * either way, so only the delay slot tells taken from not taken
 * (docs/branch-prediction.md "Outcomes").  TABLE 10-2 sl=3 mask 0x01
 * (Branches), sl=4 mask 0x02 (Br_taken), sl=25 (mispredicts), sl=5 mask
 * 0x08 (BTC_miss).
 *
 * The whole program lies in one 256-byte-aligned window of 256 bytes, so
 * every CTI has a direction counter and a BTC entry of its own and every
 * target is in the CTI's page (no far-table lookup).
 *
 * The loop runs for i = 0 .. N-1 (N = 64, a multiple of 4).  Per iteration:
 *
 *   insn  kind                          runs      taken
 *   A1    cmp (OTHER)                   always
 *   A2    be,a .+8 (Bicc)               always    always          (N)
 *   A3    delay of A2 (OTHER)           N
 *   A4    andcc i, 1 (OTHER)            always
 *   A5    bne,a,pt %xcc .+8 (BPcc)      always    i odd           (N/2)
 *   A6    delay of A5 (OTHER)           N/2
 *   A7    brnz,a %g0 .+8 (BPr)          always    never           (0)
 *   A8    delay of A7                   never
 *   A9    and i, 2 (OTHER)              always
 *   A10   brz,a,pt .+8 (BPr)            always    i%4 in {0,1}    (N/2)
 *   A11   delay of A10 (OTHER)          N/2
 *   A12   fcmps %f8, %f4 (FGU)          always
 *   A13   fbe,a .+8 (FBfcc)             always    i even          (N/2)
 *   A14   delay of A13 (FGU)            N/2
 *   A15   fsubs (FGU) %f8 = 1 - %f8     always
 *   A16   fcmps %f4, %f4 (FGU)          always
 *   A17   fbne,a .+8 (FBfcc)            always    never           (0)
 *   A18   delay of A17                  never
 *   A19   add i, 1 (OTHER)              always
 *   A20   sub left, 1 (OTHER)           always
 *   A21   andcc i+1, 3 (OTHER)          always
 *   A22   be,a .+8 (Bicc); its pc+8     always    i%4 == 3        (N/4)
 *         is the loop's back edge
 *   A23   delay of A22 (OTHER)          N/4
 *   A24   brnz,pt left (BPr)            always    i+1 < N         (N-1)
 *   A25   delay nop (OTHER)             always
 *
 *   Prologue P1-P7: 4 OTHER, 2 LD, 1 FGU.  Exit E1-E3: 3 OTHER.
 *   %f4 = 0.0, %f6 = 1.0; %f8 starts at 0.0 and alternates 0.0, 1.0.
 *
 *   Always run per iteration: 18.  Delay slots: N + 3N/2 + N/4.
 *   Instr_all   = 7 + 18N + N + N/2 + N/2 + N/2 + N/4 + 3  = 1338
 *   Branches    = 8N                                          = 512
 *   Br_taken    = N + N/2 + N/2 + N/2 + N/4 + (N-1)           = 239
 *
 * Mispredicts (docs/branch-prediction.md: two-bit counters from weakly
 * not-taken; predicted taken at 2 and 3):
 *   A2  T every time: the first                               1
 *   A5  N T N T ...: counter 1 0 1 0 ..., every taken one     N/2 = 32
 *   A7, A17 never taken: counter stays low                    0
 *   A10 T T N N ...: counter 1 2 3 2 1 2 3 2 ...: 3 of 4      3N/4 = 48
 *   A13 T N T N ...: counter 1 2 1 2 ...: every one           N = 64
 *   A22 N N N T ...: counter 1 0 0 0 1 0 ...: every taken one N/4 = 16
 *   A24 the first taken and the exit                          2
 *   Br_dir_mispred = Br_mispred = 163; no target mispredicts.
 *   Sel_pipe_drain_cycles = 21 * Br_mispred (docs/timing-model.md:
 *   24-cycle penalty, 3 refetch + 21 drain)                  = 3423
 * BTC: each CTI that is ever taken misses once (A2 A5 A10 A13 A22 A24):
 *   BTC_miss = 6, BTC_targ_incorrect = 0.
 */
#define N 64

	.text
	.align	256
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(fdata), %o0		! P1 OTHER
	or	%o0, %lo(fdata), %o0	! P2 OTHER
	ld	[%o0], %f4		! P3 LD  0.0
	ld	[%o0 + 4], %f6		! P4 LD  1.0
	fmovs	%f4, %f8		! P5 FGU
	mov	N, %l1			! P6 OTHER iterations left
	clr	%l0			! P7 OTHER i
.Lloop:
	cmp	%l0, %l0		! A1
	be,a	1f			! A2  Bicc, always taken
	 add	%l3, 1, %l3		! A3
1:	andcc	%l0, 1, %g0		! A4
	bne,a,pt %xcc, 2f		! A5  BPcc, taken i odd
	 add	%l4, 1, %l4		! A6
2:	brnz,a	%g0, 3f			! A7  BPr, never taken
	 add	%l5, 1, %l5		! A8
3:	and	%l0, 2, %l6		! A9
	brz,a,pt %l6, 4f		! A10 BPr, taken i%4 in {0,1}
	 add	%l7, 1, %l7		! A11
4:	fcmps	%fcc0, %f8, %f4		! A12
	fbe,a	5f			! A13 FBfcc, taken i even
	 fadds	%f8, %f6, %f10		! A14
5:	fsubs	%f6, %f8, %f8		! A15
	fcmps	%fcc0, %f4, %f4		! A16
	fbne,a	6f			! A17 FBfcc, never taken
	 fadds	%f4, %f6, %f12		! A18
6:	add	%l0, 1, %l0		! A19
	sub	%l1, 1, %l1		! A20
	andcc	%l0, 3, %g0		! A21
	be,a	7f			! A22 Bicc, taken i%4 == 3; pc+8 is A24
	 add	%o3, 1, %o3		! A23
7:	brnz,pt	%l1, .Lloop		! A24
	 nop				! A25
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.section .rodata
	.align	4
fdata:	.word	0x00000000		! 0.0f
	.word	0x3f800000		! 1.0f
