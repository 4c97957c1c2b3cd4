/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pc4: conditional branches whose target is pc+4, where they fall through
 * anyway (Power ISA 2.06B Book I 2.4: a bc is taken exactly when its BO
 * tests on CR bit BI and on CTR hold): the next instruction's address
 * cannot tell taken from not taken, so the event source reads CR and CTR
 * before each runs (docs/branch-prediction.md "Outcomes").  Static, no
 * libc; every source line is one instruction.
 *
 * The loop runs for i = 0 .. N-1 (N = 1000), counted by CTR.  Per
 * iteration:
 *
 *   insn  instruction              class             taken
 *   A1    andi. r11, r5, 1         OTHER
 *   A2    bne   0, .+4             BRANCH cond       i odd (N/2)
 *   A3    beq   0, .+4             BRANCH cond       i even (N/2)
 *   A4    cmpd  1, r5, r5          OTHER
 *   A5    bne   1, .+4             BRANCH cond       never
 *   A6    addi  r5, r5, 1          OTHER
 *   A7    bdnz  .Lloop             BRANCH cond       i+1 < N (N-1)
 *
 *   Prologue P1-P3: li r5 0, li r6 N (OTHER), mtctr (SPR).
 *   Exit E1-E3: 3 OTHER, `sc` exit(0).
 *
 *   instructions      = 3 + 7N + 3                       = 7006
 *   BRANCH            = 4N                               = 4000
 *   taken conditional = N/2 + N/2 + N - 1                = 1999
 */
#define N 1000

	.section ".opd", "aw"
	.align 3
	.globl _start
_start:
	.quad .L_start, .TOC.@tocbase, 0

	.section ".text"
	.align 2
.L_start:
	li	5, 0			/* P1 */
	li	6, N			/* P2 */
	mtctr	6			/* P3 */
.Lloop:
	andi.	11, 5, 1		/* A1 */
	bne	0, 1f			/* A2 */
1:	beq	0, 2f			/* A3 */
2:	cmpd	1, 5, 5			/* A4 */
	bne	1, 3f			/* A5 */
3:	addi	5, 5, 1			/* A6 */
	bdnz	.Lloop			/* A7 */
	li	3, 0			/* E1 */
	li	0, 1			/* E2: exit */
	sc				/* E3 */
