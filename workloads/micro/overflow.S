/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * overflow: a load-counting program for the precise overflow test.
 *
 * K = 1000.  The load labelled `ovf_insn` is the (K+1)-th = 1001st load
 * the program executes.  A PIC counting Instr_ld (sl=3 mask 0x04, a
 * precise event in TABLE 10-2) that starts at 0xffffffff - K reaches
 * 0xffffffff after K loads; the next load, ovf_insn, wraps it to 0, so the
 * precise_performance_event trap must report TPC = ovf_insn.
 * ovf_insn sits in straight-line code with a load right before it (the
 * K-th) and right after it (the K+2-th), so an off-by-one either way gives
 * a different TPC.
 *
 *   P1-P3  sethi, or, mov              3 OTHER
 *   loop1  333 iterations: ldx, lduw, ldub (3 LD), subcc (OTHER),
 *          bne,pt (BPcc, taken 332 times), nop (OTHER)
 *          -> loads 1..999
 *   Q1     ldx                         LD   load 1000 (the K-th)
 *   Q2     ovf_insn: ldx               LD   load 1001 (the K+1-th)
 *   Q3     ldx                         LD   load 1002
 *   Q4     mov                         OTHER
 *   loop2  100 iterations: 5 LD (ldx, ldsw, lduh, ldsb, ldx), subcc,
 *          bne (Bicc, taken 99 times), nop -> loads 1003..1502
 *   E1-E3  exit                        3 OTHER
 *
 *   Instr_ld    = 999 + 3 + 500                         = 1502
 *   Branches    = 333 + 100                             = 433
 *   Br_taken    = 332 + 99                              = 431
 *   Instr_other = 3 + 333*2 + 1 + 100*2 + 3             = 873
 *   Instr_all   = 1502 + 433 + 873                      = 2808
 *   others 0
 */
#define K 1000

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! P1
	or	%o0, %lo(buf), %o0	! P2
	mov	333, %l0		! P3
.Lloop1:
	ldx	[%o0], %o1		! LD
	lduw	[%o0 + 8], %o2		! LD
	ldub	[%o0 + 16], %o3		! LD
	subcc	%l0, 1, %l0		! OTHER
	bne,pt	%xcc, .Lloop1		! BRANCH
	 nop				! OTHER
	ldx	[%o0 + 24], %o4		! Q1 load K
	.globl	ovf_insn
ovf_insn:
	ldx	[%o0 + 32], %o5		! Q2 load K+1: the PIC wraps here
	ldx	[%o0 + 40], %o4		! Q3 load K+2
	mov	100, %l0		! Q4
.Lloop2:
	ldx	[%o0], %o1		! LD
	ldsw	[%o0 + 8], %o2		! LD
	lduh	[%o0 + 16], %o3		! LD
	ldsb	[%o0 + 24], %o4		! LD
	ldx	[%o0 + 32], %o5		! LD
	subcc	%l0, 1, %l0		! OTHER
	bne	.Lloop2			! BRANCH (Bicc)
	 nop				! OTHER

	mov	1, %g1			! E1
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	64
buf:	.skip	64
