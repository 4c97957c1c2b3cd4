/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prefetch: PREFETCH (function codes 0-3 and 20) and PREFETCHA.
 * TABLE 10-2 sl=4 mask 0x10 (software prefetch: PREFETCH and PREFETCHA);
 * in sl=3 both are OTHER (footnote 9).
 *
 * N = 400 iterations, each walking 64 bytes further into buf.  Per
 * iteration:
 *   5x prefetch + 1x prefetcha       6 SW_PREFETCH, each OTHER
 *   ldx                              1 LD
 *   add, subcc, delay nop            3 OTHER
 *   bne %xcc (BPcc)                  1 BRANCH, taken N-1 times
 *                                   = 11 instructions
 *   Prologue P1-P3: 3 OTHER.  Exit E1-E3: 3 OTHER.
 *
 *   Instr_all   = 3 + 11N + 3        = 4406
 *   Branches    = N                  = 400
 *   Br_taken    = N - 1              = 399
 *   Instr_ld    = N                  = 400
 *   Instr_other = 3 + 9N + 3         = 3606
 *   SW_prefetch = 6N                 = 2400
 *   others 0
 */
#define N 400

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! P1 OTHER
	or	%o0, %lo(buf), %o0	! P2 OTHER
	mov	N, %l0			! P3 OTHER
.Lloop:
	prefetch [%o0], 0		! PF  #n_reads
	prefetch [%o0 + 64], 1		! PF  #one_read
	prefetch [%o0 + 128], 2		! PF  #n_writes
	prefetch [%o0 + 192], 3		! PF  #one_write
	prefetch [%o0 + 256], 20	! PF  #n_reads_strong
	prefetcha [%o0 + %g0] 0x80, 0	! PF  PREFETCHA ASI_P
	ldx	[%o0], %o1		! LD
	add	%o0, 64, %o0		! OTHER
	subcc	%l0, 1, %l0		! OTHER
	bne	%xcc, .Lloop		! BRANCH (BPcc)
	 nop				! OTHER

	mov	1, %g1			! E1
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	64
buf:	.skip	64 * N + 320
