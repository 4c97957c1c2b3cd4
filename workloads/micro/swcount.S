/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swcount: software count instructions, `sethi %hi(0xfc000), %g0`
 * (encoding 0x010003f0).  TABLE 10-2 sl=4 mask 0x04.  In sl=3 a SETHI to
 * %g0 is OTHER (footnote 9, SETHI_%G0).  Near misses that must NOT count:
 * the same sethi to %g1, a different immediate to %g0, and nop
 * (sethi 0, %g0).
 *
 * N = 1000 iterations.  Per iteration:
 *   S1  sethi %hi(0xfc000), %g0     SWCOUNT, OTHER
 *   S2  add                         OTHER
 *   S3  sethi %hi(0xfc000), %g0     SWCOUNT, OTHER
 *   S4  sethi %hi(0xfc000), %g1     OTHER (rd != %g0)
 *   S5  sethi %hi(0xfc400), %g0     OTHER (other immediate)
 *   S6  nop                         OTHER
 *   S7  subcc                       OTHER
 *   S8  bne,a %icc (BPcc, annulled) BRANCH, taken N-1 times
 *   S9  delay: sethi %hi(0xfc000), %g0, runs only when S8 is taken,
 *       i.e. N-1 times              SWCOUNT, OTHER
 *   Prologue P1-P2: 2 OTHER.  Exit E1-E3: 3 OTHER.
 *
 *   Instr_all     = 2 + 8N + (N-1) + 3   = 9004
 *   Branches      = N                    = 1000
 *   Br_taken      = N - 1                = 999
 *   Instr_other   = 2 + 7N + (N-1) + 3   = 8004
 *   Sw_count_intr = 2N + (N-1)           = 2999
 *   others 0
 */
#define N 1000

	.text
	.globl	_start
	.type	_start, #function
_start:
	mov	N, %l0			! P1
	clr	%l1			! P2
.Lloop:
	sethi	%hi(0xfc000), %g0	! S1 SWCOUNT
	add	%l1, 1, %l1		! S2
	sethi	%hi(0xfc000), %g0	! S3 SWCOUNT
	sethi	%hi(0xfc000), %g1	! S4 not a software count (rd = %g1)
	sethi	%hi(0xfc400), %g0	! S5 not a software count (imm22 0x3f1)
	nop				! S6 not a software count (imm22 0)
	subcc	%l0, 1, %l0		! S7
	bne,a	%icc, .Lloop		! S8 BRANCH
	 sethi	%hi(0xfc000), %g0	! S9 SWCOUNT, only when S8 is taken

	mov	1, %g1			! E1
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start
