/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop_mem: integer loads and stores of every width to a .bss buffer.
 *
 * Counts are exact for the whole program (delay slots and the exit trap
 * included).  Groups: TABLE 10-2 sl=3 footnotes 6 (loads) and 7 (stores).
 *
 * N = 1000 iterations; each iteration works on its own 24-byte slot of buf
 * (8-byte aligned, as LDX/STX/LDD/STD require).
 *   P1-P4   prologue: sethi, or, mov, clr     1x      4 OTHER
 *   body    8 loads: LDX LDUB LDSH LDUW LDSW LDSB LDUH LDD
 *           5 stores: STX STB STH STW STD
 *           3 OTHER: add, add, subcc
 *           1 BRANCH: bg,a (BPcc, annulled)
 *                                             N x   17
 *   D1      delay slot of bg,a: runs only when the branch is taken,
 *           i.e. N-1 times (annulled on the final, not-taken pass)
 *                                        (N-1) x    1 OTHER
 *   E1-E3   exit                              1x      3 OTHER
 *
 *   Instr_all   = 4 + 17N + (N-1) + 3     = 18006
 *   Instr_ld    = 8N                      = 8000
 *   Instr_st    = 5N                      = 5000
 *   Branches    = N                       = 1000
 *   Br_taken    = N - 1                   = 999
 *   Instr_other = 4 + 3N + (N-1) + 3      = 4006
 *   others 0
 */
#define N 1000

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! P1 OTHER
	or	%o0, %lo(buf), %o0	! P2 OTHER
	mov	N, %o1			! P3 OTHER
	clr	%o2			! P4 OTHER
.Lloop:
	stx	%o1, [%o0]		! ST  STX
	ldx	[%o0], %o3		! LD  LDX
	add	%o2, %o3, %o2		! OTHER
	stb	%o3, [%o0 + 8]		! ST  STB
	ldub	[%o0 + 8], %o4		! LD  LDUB
	sth	%o4, [%o0 + 10]		! ST  STH
	ldsh	[%o0 + 10], %o5		! LD  LDSH
	stw	%o5, [%o0 + 12]		! ST  STW
	lduw	[%o0 + 12], %l0		! LD  LDUW
	ldsw	[%o0 + 12], %l1		! LD  LDSW
	ldsb	[%o0 + 8], %l2		! LD  LDSB
	lduh	[%o0 + 10], %l3		! LD  LDUH
	std	%o4, [%o0 + 16]		! ST  STD (twin store, %o4:%o5)
	ldd	[%o0 + 16], %l4		! LD  LDD (twin load into %l4:%l5)
	add	%o0, 24, %o0		! OTHER  next slot
	subcc	%o1, 1, %o1		! OTHER
	bg,a,pt	%xcc, .Lloop		! BRANCH (BPcc, annulled); taken while %o1 > 0
	 add	%o2, 1, %o2		! D1 OTHER  only when taken

	mov	1, %g1			! E1 OTHER
	clr	%o0			! E2 OTHER
	ta	0x6d			! E3 OTHER
	.size	_start, . - _start

	.bss
	.align	64
buf:	.skip	24 * N
