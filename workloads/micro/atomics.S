/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomics: LDSTUB, LDSTUBA, SWAP, SWAPA, CASA, CASXA on a .bss buffer.
 * TABLE 10-2 sl=4 mask 0x08 (atomics: LDSTUB/A, CASA/XA, SWAP/A; the PCBE
 * writes 0x18, we use 0x08).  In sl=3 these are OTHER (footnote 9 lists
 * CASA, CASXA, LDSTUB, LDSTUBA, SWAP, SWAPA).
 *
 * N = 500 iterations.  Per iteration:
 *   ldstub, ldstuba #ASI_P, swap, swapa #ASI_P, casx (= casxa #ASI_P),
 *   cas (= casa #ASI_P)             6 ATOMIC, each OTHER in sl=3
 *   ldx                              1 LD
 *   stb                              1 ST
 *   subcc, delay nop                 2 OTHER
 *   bne,pt %xcc (BPcc)               1 BRANCH, taken N-1 times
 *                                   = 11 instructions
 *   Prologue P1-P5: 5 OTHER.  Exit E1-E3: 3 OTHER.
 *
 *   Instr_all   = 5 + 11N + 3        = 5508
 *   Branches    = N                  = 500
 *   Br_taken    = N - 1              = 499
 *   Instr_ld    = N                  = 500
 *   Instr_st    = N                  = 500
 *   Instr_other = 5 + 8N + 3         = 4008
 *   Atomics     = 6N                 = 3000
 *   others 0
 */
#define N 500

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! P1 OTHER
	or	%o0, %lo(buf), %o0	! P2 OTHER
	add	%o0, 8, %o5		! P3 OTHER  &buf[8]  (64-bit word)
	add	%o0, 16, %l1		! P4 OTHER  &buf[16] (32-bit word)
	mov	N, %l0			! P5 OTHER
.Lloop:
	ldstub	[%o0], %o1		! ATOMIC OTHER
	ldstuba	[%o0] 0x80, %o1		! ATOMIC OTHER  LDSTUBA ASI_P
	swap	[%o0 + 4], %o2		! ATOMIC OTHER
	swapa	[%o0 + %g0] 0x80, %o2	! ATOMIC OTHER  SWAPA ASI_P
	ldx	[%o5], %o3		! LD
	casx	[%o5], %o3, %o4		! ATOMIC OTHER  CASXA ASI_P (compare equal: swaps)
	cas	[%l1], %g0, %o4		! ATOMIC OTHER  CASA ASI_P
	stb	%g0, [%o0]		! ST  release the ldstub byte
	subcc	%l0, 1, %l0		! OTHER
	bne,pt	%xcc, .Lloop		! BRANCH (BPcc)
	 nop				! OTHER

	mov	1, %g1			! E1
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	64
buf:	.skip	64
