/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * branches: every kind of control transfer with a known taken/not-taken
 * pattern.  TABLE 10-2 sl=3 mask 0x01 (Branches: Bicc, BPcc, BPr, CALL,
 * JMPL, RETURN; ret/retl are JMPL) and sl=4 mask 0x02 (taken branches).
 * A branch is "taken" when it transfers control: a conditional branch
 * whose condition holds, or BA/CALL/JMPL (always).  BN is never taken.
 * Annulling only decides whether the delay slot runs: a conditional
 * branch with ,a runs its delay slot only when taken; BA,a and BN,a
 * never run it.
 *
 * The loop runs for i = 0 .. N-1 (N = 120, a multiple of 8, so each
 * pattern below divides evenly).  Per iteration:
 *
 *   insn  kind                        runs           taken
 *   A1    andcc (OTHER)               always
 *   A2    be,a %icc  (BPcc, annulled) always         i even      (N/2)
 *   A3    delay of A2 (OTHER)         i even  (N/2)
 *   A4    fall-through (OTHER)        i odd   (N/2)
 *   A5    andcc (OTHER)               always
 *   A6    bne (Bicc)                  always         i%4 != 0    (3N/4)
 *   A7    delay nop (OTHER)           always
 *   A8    fall-through (OTHER)        i%4 == 0 (N/4)
 *   A9    ba,a (Bicc)                 always         always
 *   A10   delay of ba,a               never
 *   A11   bn (Bicc)                   always         never
 *   A12   delay of bn (OTHER)         always
 *   A13   bn,a (Bicc)                 always         never
 *   A14   delay of bn,a               never
 *   A15   ba,pt %xcc (BPcc)           always         always
 *   A16   delay of ba (OTHER)         always
 *   A17   skipped by ba               never
 *   A18   and (OTHER)                 always
 *   A19   brnz,pn (BPr)               always         i&4 != 0    (N/2)
 *   A20   delay nop (OTHER)           always
 *   A21   fall-through (OTHER)        i&4 == 0 (N/2)
 *   A22   brgez,a (BPr, annulled)     always         always (i >= 0)
 *   A23   delay of A22 (OTHER)        always
 *   A23x  skipped by A22              never
 *   A24   brlz,a (BPr, annulled)      always         never
 *   A25   delay of A24                never
 *   A26   call leaf (CALL)            always         always
 *   A27   delay nop (OTHER)           always
 *   A28   jmpl %l6, %o7 (JMPL)        always         always
 *   A29   delay nop (OTHER)           always
 *   A30   add (OTHER)                 always
 *   A31   cmp (OTHER)                 always
 *   A32   bl (Bicc)                   always         i+1 < N     (N-1)
 *   A33   delay nop (OTHER)           always
 *   L1    retl (JMPL) in leaf         2 per iter     always
 *   L2    delay nop (OTHER)           2 per iter
 *
 *   Branches per iteration: A2 A6 A9 A11 A13 A15 A19 A22 A24 A26 A28 A32
 *   + 2x L1 = 14.  Always-taken ones: A9 A15 A22 A26 A28 + 2x L1 = 7.
 *   OTHER per iteration, unconditional: A1 A5 A7 A12 A16 A18 A20 A23 A27
 *   A29 A30 A31 A33 + 2x L2 = 15, plus exactly one of A3/A4 = 16.
 *
 *   Prologue P1-P7: 7 OTHER.  Exit E1-E3: 3 OTHER.
 *
 *   Branches    = 14N                                  = 1680
 *   Br_taken    = 7N + N/2 + 3N/4 + N/2 + (N-1)        = 840+60+90+60+119 = 1169
 *   Instr_other = 7 + 16N + N/4 (A8) + N/2 (A21) + 3   = 7+1920+30+60+3 = 2020
 *   Instr_all   = Branches + Instr_other               = 3700
 *   others 0
 */
#define N 120

	.text
	.globl	_start
	.type	_start, #function
_start:
	clr	%l0			! P1 i = 0
	clr	%l1			! P2
	clr	%l2			! P3
	clr	%l3			! P4
	clr	%l4			! P5
	sethi	%hi(leaf), %l6		! P6
	or	%l6, %lo(leaf), %l6	! P7
.Lloop:
	andcc	%l0, 1, %g0		! A1
	be,a	%icc, 1f		! A2  taken iff i even
	 add	%l1, 1, %l1		! A3  only when taken
	add	%l2, 1, %l2		! A4  only when not taken
1:	andcc	%l0, 3, %g0		! A5
	bne	2f			! A6  taken iff i%4 != 0
	 nop				! A7
	add	%l3, 1, %l3		! A8  only when i%4 == 0
2:	ba,a	3f			! A9  always taken, delay annulled
	 add	%l4, 100, %l4		! A10 never runs
3:	bn	4f			! A11 never taken, delay runs
	 add	%l4, 1, %l4		! A12
	bn,a	4f			! A13 never taken, delay annulled
	 add	%l4, 100, %l4		! A14 never runs
4:	ba,pt	%xcc, 5f		! A15 always taken, delay runs
	 add	%l4, 2, %l4		! A16
	add	%l4, 100, %l4		! A17 never runs (jumped over)
5:	and	%l0, 4, %l5		! A18
	brnz,pn	%l5, 6f			! A19 taken iff i&4
	 nop				! A20
	add	%l4, 1, %l4		! A21 only when i&4 == 0
6:	brgez,a	%l0, 7f			! A22 always taken (i >= 0), delay runs
	 add	%l4, 1, %l4		! A23
	add	%l4, 100, %l4		! A23x never runs (jumped over)
7:	brlz,a	%l0, 8f			! A24 never taken (i >= 0), delay annulled
	 add	%l4, 100, %l4		! A25 never runs
	call	leaf			! A26 CALL
	 nop				! A27
	jmpl	%l6, %o7		! A28 JMPL (indirect call)
	 nop				! A29
8:	add	%l0, 1, %l0		! A30 i++
	cmp	%l0, N			! A31
	bl	.Lloop			! A32 taken while i < N
	 nop				! A33

	mov	1, %g1			! E1
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.type	leaf, #function
leaf:
	retl				! L1 JMPL
	 nop				! L2
	.size	leaf, . - leaf
