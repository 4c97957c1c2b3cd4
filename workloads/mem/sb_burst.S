/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sb_burst: K = 16 back-to-back stores fill the strand's store buffer
 * (src/model/stbuf.h).  UltraSPARC T1 shape: 8 entries, one store at a
 * time to the L2, 22 cycles each; PICL SB_full counts the cycles the
 * buffer is full.
 *
 * P3 (a load) fills the DTLB first, so the stores add no latency and run
 * one per cycle from t0 (one block).  Store i leaves at d_i = t0+22(i+1).
 *   - stores 0-7 enter at t0..t0+7: full from t0+7;
 *   - store 8 arrives at t0+8, stalls until d_0 = t0+22 and enters: full
 *     t0+7..t0+22 = 15 cycles, and full again;
 *   - stores 9-15 each arrive 1 cycle after the previous one entered and
 *     wait for the next drain: 22 more full cycles each (7 x 22);
 *   - after store 15 (entered at d_7) the buffer stays full until d_8 =
 *     t0+198, 22 more cycles; the delay loop (16 x 3 instructions) makes
 *     sure that happens before the exit (the machine accounts full cycles
 *     up to the strand's cycle at its syncs, the last one at the exit).
 *   SB_full = 15 + 22 (K-9) + 22 = 15 + 22 (K-8) = 191 (t1),
 *   stall cycles 14 + 21 (K-9) = 161.
 * T4 (8 entries, drain after 20, one per 2 cycles): stores 8-15 stall
 * 12 + 7 x 1 = 19 cycles; no load finds a buffered store:
 *   RAW_hit_st_buf = RAW_hit_st_q = 0.  Instr_st = K = 16.
 * (docs/memory-validation.md "sb_burst").
 */
#define K 16
#define D 16

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! P1 buffer base
	or	%o0, %lo(buf), %o0	! P2
	ldx	[%o0], %o4		! P3 warm-up: DTLB fill
	stx	%o0, [%o0 + 0]		! store 0
	stx	%o0, [%o0 + 8]
	stx	%o0, [%o0 + 16]
	stx	%o0, [%o0 + 24]
	stx	%o0, [%o0 + 32]
	stx	%o0, [%o0 + 40]
	stx	%o0, [%o0 + 48]
	stx	%o0, [%o0 + 56]		! store 7: full
	stx	%o0, [%o0 + 64]		! store 8: stalls
	stx	%o0, [%o0 + 72]
	stx	%o0, [%o0 + 80]
	stx	%o0, [%o0 + 88]
	stx	%o0, [%o0 + 96]
	stx	%o0, [%o0 + 104]
	stx	%o0, [%o0 + 112]
	stx	%o0, [%o0 + 120]	! store 15
	mov	D, %o3			! delay loop: D x 3 instructions
.Ldelay:
	subcc	%o3, 1, %o3
	bne,pt	%xcc, .Ldelay
	 nop
	ldx	[%o0], %o4		! Lf (no store of buf's first words is left)
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	8192
buf:	.skip	K * 8
