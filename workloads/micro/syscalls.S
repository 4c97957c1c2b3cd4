/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * syscalls: K = 50 passes; each loads one word of every one of P = 128
 * consecutive 8 KB pages of .bss, then calls getpid (Linux sparc64 20).
 * It exercises the guest kernel's system-call path of
 * docs/kernel-model.md: each getpid that returns runs the modeled path
 * (300 privileged instructions: 22 loads, 20 stores, 258 other), and the
 * P pages, more than the 64 DTLB entries of T1, evict the kernel's DTLB
 * entries between two calls.  Checked by tests/integration/run_kernel.sh
 * (ctx0 MMU statistics on t1, privileged counts on t4) and by
 * expected.txt (counts in user and privileged mode).
 *
 * User instructions:
 *   S1-S4   prologue                                    4 OTHER
 *   per pass (K):
 *     P1-P2   mov, mov                                  2 OTHER
 *     L1-L4   ldx, subcc, bne,pt, add (P times)         1 LD, 1 BRANCH, 2 OTHER
 *     G1-G2   mov 20, ta 0x6d (getpid)                  2 OTHER
 *     P3-P5   subcc, bne,pt, nop                        1 BRANCH, 2 OTHER
 *   E1-E3   exit(0)                                     3 OTHER
 * Kernel path per getpid (exit runs none): 22 LD, 20 ST, 258 OTHER.
 *
 *   Branches    = K*P + K                       = 6400 + 50          = 6450
 *   Br_taken    = K*(P-1) + (K-1)               = 6350 + 49          = 6399
 *   Instr_ld    = K*P + 22K                     = 6400 + 1100        = 7500
 *   Instr_st    = 20K                                                = 1000
 *   Instr_other = 4 + K*(2 + 2P + 2 + 2) + 3 + 258K
 *               = 4 + 13100 + 3 + 12900                              = 26007
 *   Instr_all   = 4 + K*(7 + 4P) + 3 + 300K     = 25957 + 15000      = 40957
 */
#define K 50
#define P 128

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o2		! S1 buffer base
	or	%o2, %lo(buf), %o2	! S2
	sethi	%hi(8192), %l2		! S3 page size
	mov	K, %l3			! S4 passes left
.Lpass:
	mov	%o2, %o0		! P1 p = buf
	mov	P, %o1			! P2 pages left in this pass
.Lpage:
	ldx	[%o0], %o4		! L1 one word per page
	subcc	%o1, 1, %o1		! L2
	bne,pt	%xcc, .Lpage		! L3
	 add	%o0, %l2, %o0		! L4 next page
	mov	20, %g1			! G1 getpid
	ta	0x6d			! G2
	subcc	%l3, 1, %l3		! P3
	bne,pt	%xcc, .Lpass		! P4
	 nop				! P5
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	8192
buf:	.skip	P * 8192
