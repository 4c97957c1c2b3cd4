/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pc8: conditional branches WITHOUT the annul bit whose target is pc+8,
 * in the forms Bicc, BPcc (%icc and %xcc), BPr, FBfcc and FBPfcc (%fcc1),
 * each taken a known k of N times (k = 0, k = N and mixes).  The same loop
 * as annul.S with a = 0: SPARC V9 6.3.4.1, a conditional branch is taken
 * exactly when its condition holds; without the annul bit its delay slot
 * always runs, and the instruction after the delay slot is pc+8 whether
 * it was taken or not.  So neither the next block's address nor the delay
 * slot tells taken from not taken: the event source decides each from the
 * registers the branch tests, read before it runs (%ccr's icc / xcc in
 * `state`, the fcc fields of `fsr`, the integer register of a BPr;
 * docs/branch-prediction.md "Outcomes").  QEMU runs the delay slot in the
 * branch's block, so each branch is inside its block; pc8_edge.S has one
 * that ends its block.  TABLE 10-2 sl=3 mask 0x01 (Branches), sl=4 mask
 * 0x02 (Br_taken), sl=25 (mispredicts), sl=5 mask 0x08 (BTC_miss).
 *
 * The whole program lies in one 256-byte-aligned window of 256 bytes, so
 * every CTI has a direction counter and a BTC entry of its own.
 *
 * The loop runs for i = 0 .. N-1 (N = 64).  Per iteration all 25
 * instructions run (A1-A25 as in annul.S, every delay slot included):
 *
 *   A2   be .+8 (Bicc)                 taken always          (N)
 *   A5   bne,pt %icc .+8 (BPcc)        taken i odd           (N/2)
 *   A7   brnz %g0 .+8 (BPr)            never                 (0)
 *   A10  brz,pt %l6 .+8 (BPr)          taken i%4 in {0,1}    (N/2)
 *   A13  fbe .+8 (FBfcc, %fcc0)        taken i even          (N/2)
 *   A17  fbne,pt %fcc1 .+8 (FBPfcc)    never                 (0)
 *   A22  be,pn %xcc .+8 (BPcc)         taken i%4 == 3        (N/4)
 *   A24  brnz,pt %l1, .Lloop (BPr)     taken i+1 < N         (N-1)
 *
 *   Prologue P1-P7: 4 OTHER, 2 LD, 1 FGU.  Exit E1-E3: 3 OTHER.
 *   Instr_all        = 7 + 25N + 3                          = 1610
 *   Branches         = 8N                                   = 512
 *   Br_taken         = N + N/2 + N/2 + N/2 + N/4 + (N-1)    = 239
 *   Instr_FGU_crypto = 1 + 3N (A12 A15 A16) + N (A14)
 *                      + N (A18)                            = 321
 *   Instr_ld         = 2
 *   Instr_other      = 1610 - 321 - 2 - 512                 = 775
 *
 * Mispredicts: the same outcomes as annul.S, CTI by CTI (two-bit counters
 * from weakly not-taken): 1 + N/2 + 0 + 3N/4 + N + 0 + N/4 + 2
 *   Br_dir_mispred = Br_mispred = 163; no target mispredicts.
 *   Sel_pipe_drain_cycles = 21 * Br_mispred                 = 3423
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
	be	1f			! A2  Bicc, always taken
	 add	%l3, 1, %l3		! A3
1:	andcc	%l0, 1, %g0		! A4
	bne,pt	%icc, 2f		! A5  BPcc %icc, taken i odd
	 add	%l4, 1, %l4		! A6
2:	brnz	%g0, 3f			! A7  BPr, never taken
	 add	%l5, 1, %l5		! A8
3:	and	%l0, 2, %l6		! A9
	brz,pt	%l6, 4f		! A10 BPr, taken i%4 in {0,1}
	 add	%l7, 1, %l7		! A11
4:	fcmps	%fcc0, %f8, %f4		! A12
	fbe	5f			! A13 FBfcc, taken i even
	 fadds	%f8, %f6, %f10		! A14
5:	fsubs	%f6, %f8, %f8		! A15
	fcmps	%fcc1, %f4, %f4		! A16
	fbne,pt	%fcc1, 6f			! A17 FBPfcc %fcc1, never taken
	 fadds	%f4, %f6, %f12		! A18
6:	add	%l0, 1, %l0		! A19
	sub	%l1, 1, %l1		! A20
	andcc	%l0, 3, %g0		! A21
	be,pn	%xcc, 7f			! A22 BPcc %xcc, taken i%4 == 3; pc+8 is A24
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
