/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fork2: two processes of one image for --per-process on POWER (issue
 * 29).  The process forks (Linux ppc64 syscall 2; `sc` returns the
 * child's pid in r3 to the parent, 0 to the child, CR0.SO set on error),
 * each runs a counted loop, the child N times and the parent 2N, so their
 * rows differ; the parent waits for the child (wait4, 114) and both end
 * with exit_group (234).  Exit status 0: the fork and the wait worked and
 * the child exited 0.  Static, no libc; every source line is one
 * instruction.
 *
 * Instructions (`sc` returns to the next instruction, bso, in both):
 *   parent: li, sc, bso, mr, cmpdi, beq (not taken), li, mtctr [8]
 *     + 2 x 2N (addi; bdnz) + mr, addi, li, li, li, sc [6]
 *     + bso, lwz, cmpwi, bne, li, li, sc [7]              = 4N + 21 = 4021
 *   child:  bso, mr, cmpdi, beq (taken), li, mtctr [6]
 *     + 2 x N + li, li, sc [3]                             = 2N + 9  = 2009
 * Branches: parent bso, beq, 2N bdnz, bso, bne             = 2N + 4  = 2004
 *           child  bso, beq, N bdnz                        = N + 2   = 1002
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
	li	0, 2			/* fork */
	sc
	bso	.Lfail
	mr	31, 3
	cmpdi	31, 0
	beq	.Lchild
	li	6, 2*N			/* parent: 2N iterations */
	mtctr	6
.Lploop:
	addi	5, 5, 1
	bdnz	.Lploop
	mr	3, 31			/* wait4(pid, &status, 0, NULL) */
	addi	4, 1, -16
	li	5, 0
	li	6, 0
	li	0, 114
	sc
	bso	.Lfail
	lwz	7, -16(1)		/* the child's status: exit 0 is 0 */
	cmpwi	7, 0
	bne	.Lfail
	li	3, 0
	li	0, 234			/* exit_group(0) */
	sc
.Lchild:
	li	6, N			/* child: N iterations */
	mtctr	6
.Lcloop:
	addi	5, 5, 1
	bdnz	.Lcloop
	li	3, 0
	li	0, 234			/* exit_group(0) */
	sc
.Lfail:
	li	3, 1
	li	0, 234
	sc
