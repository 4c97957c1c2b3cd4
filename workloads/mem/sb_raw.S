/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sb_raw: loads that find their bytes in the store buffer or the store
 * queue (TABLE 10-2 sl=19; model: src/model/stbuf.h, T4 shape 8 entries,
 * commit after 4 cycles, drain after 20, one per 2 cycles).
 *
 * The warm-up load P4 brings buf's 32-byte line into L1D (and its page
 * into the DTLB), so every later load hits L1D and the store buffer's
 * clock moves exactly one cycle per instruction inside a block.  Per
 * iteration (one block, positions from its first instruction):
 *   0  stx [buf]      S1, 8 bytes: commits at 4, leaves at 20
 *   1  ldx [buf]      S1 is 1 cycle old:   store buffer, full RAW  (0x01)
 *   2  stw [buf+8]    S2, 4 bytes: commits at 6, leaves at 22
 *   3  ldx [buf+8]    S2 1 cycle old, 8 > 4 bytes: buffer, partial (0x02)
 *   6  ld  [buf+4]    inside S1, 6 >= 4 cycles: store queue, full  (0x04)
 *   7  ldx [buf+8]    S2 5 cycles old: store queue, partial        (0x08)
 *  22  ldx [buf]      S1 left at 20, S2 at 22: no hit
 * The next iteration starts 26 cycles later, after both stores left.
 * N = 64 iterations:
 *   Full_RAW_hit_st_buf = Partial_RAW_hit_st_buf = Full_RAW_hit_st_q
 *   = Partial_RAW_hit_st_q = N = 64; RAW_hit_st_buf = RAW_hit_st_q = 2N.
 *   Instr_ld = 1 + 5N = 321, Instr_st = 2N = 128, St_hit_L2 = 2N,
 *   DC_miss_nospec = 1 (P4).  (On T1, which drains one store per 22
 *   cycles, two stores per 26-cycle iteration fill the buffer: not a
 *   validation figure.)
 * (docs/memory-validation.md "sb_raw").
 */
#define N 64

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! P1 buffer base
	or	%o0, %lo(buf), %o0	! P2
	mov	N, %o1			! P3 iterations left
	ldx	[%o0], %o4		! P4 warm-up: DTLB fill, line into L1D
.Lloop:
	stx	%o1, [%o0]		!  0 S1
	ldx	[%o0], %o4		!  1 SB full
	stw	%o1, [%o0 + 8]		!  2 S2
	ldx	[%o0 + 8], %o5		!  3 SB partial
	nop				!  4
	nop				!  5
	ld	[%o0 + 4], %o4		!  6 SQ full
	ldx	[%o0 + 8], %o5		!  7 SQ partial
	nop				!  8
	nop				!  9
	nop				! 10
	nop				! 11
	nop				! 12
	nop				! 13
	nop				! 14
	nop				! 15
	nop				! 16
	nop				! 17
	nop				! 18
	nop				! 19
	nop				! 20
	nop				! 21
	ldx	[%o0], %o4		! 22 both stores gone
	subcc	%o1, 1, %o1		! 23
	bne,pt	%xcc, .Lloop		! 24
	 nop				! 25
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	8192
buf:	.skip	32
