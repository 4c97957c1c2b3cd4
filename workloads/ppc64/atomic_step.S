/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic_step: QEMU's atomic step (EXCP_ATOMIC) while another guest thread
 * waits for its turn (issue 27: QEMU's exclusive sections, docs/event-source.md
 * "Turns").  A 64-bit PowerPC (big-endian, ELFv1) program, static, no libc.
 *
 * The main thread clones a second one (clone flags and stack layout as
 * workloads/mem/spin_loop.inc: CLONE_VM | CLONE_FS | CLONE_FILES |
 * CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID |
 * CLONE_CHILD_CLEARTID); each thread then runs K = 2000 times
 *   stwat rS, rA, 24     (Power ISA 3.0 Book II §4.5 "Atomic Memory
 *                        Operations", store twin: if the words at EA and
 *                        EA+4 are equal, both become rS)
 * on a pair of words of its own (distinct 128-byte lines), with rS the
 * iteration number, so each pair stays equal and ends as K-1.  With two
 * threads QEMU translates in parallel mode (CF_PARALLEL), where it has no
 * atomic code for store twin: each one leaves the execution loop and
 * runs again in cpu_exec_step_atomic(), inside an exclusive section that
 * waits for every other vCPU to be outside its loop (QEMU 10.0
 * target/ppc/translate.c gen_st_atomic: "Store twin ... Restart with
 * exclusive lock"; accel/tcg/cpu-exec.c cpu_exec_step_atomic).  So every
 * iteration is an atomic step, most of them while the other thread waits
 * for its turn.
 *
 * The second thread then exits (exit 1; its tid is cleared and woken,
 * CLONE_CHILD_CLEARTID); the main thread waits for that (futex 221,
 * FUTEX_WAIT 0), checks both pairs and calls exit_group(0) (234), or
 * exit_group(1) if a pair is not K-1.  Linux ppc64 system calls: number in
 * r0, arguments r3..r7, `sc`; on error CR0.SO is set.  clone (120) takes
 * flags, stack, parent_tid, tls, child_tid (CLONE_BACKWARDS).
 */
#define K 2000
#define CLONE_FLAGS 0x350f00
#define CSTACK_SIZE 8192

	.section ".opd", "aw"
	.align 3
	.globl _start
_start:
	.quad .L_start, .TOC.@tocbase, 0

	.section ".text"
	.align 2
.L_start:
	lis	20, pairs@ha
	addi	20, 20, pairs@l		/* r20 = main's pair */
	addi	21, 20, 128		/* r21 = the second thread's pair */
	addi	22, 20, 256		/* r22 = &tid */
	lis	3, CLONE_FLAGS@h
	ori	3, 3, CLONE_FLAGS@l
	lis	4, (cstack + CSTACK_SIZE - 128)@ha
	addi	4, 4, (cstack + CSTACK_SIZE - 128)@l
	mr	5, 22			/* parent_tid */
	li	6, 0			/* tls */
	mr	7, 22			/* child_tid */
	li	0, 120			/* clone */
	sc
	bso	.Lfail
	cmpdi	0, 3, 0
	beq	0, .Lchild

	mr	23, 20			/* main: its own pair */
	bl	.Lsteps
.Lwait:					/* the second thread's exit clears tid */
	lwz	5, 0(22)
	cmpwi	0, 5, 0
	beq	0, .Ldone
	mr	3, 22
	li	4, 0			/* FUTEX_WAIT */
	li	6, 0			/* no timeout */
	li	0, 221			/* futex */
	sc
	b	.Lwait
.Ldone:
	li	24, K - 1
	lwz	5, 0(20)
	lwz	6, 4(20)
	lwz	7, 0(21)
	lwz	8, 4(21)
	cmpw	0, 5, 24
	bne	0, .Lfail
	cmpw	0, 6, 24
	bne	0, .Lfail
	cmpw	0, 7, 24
	bne	0, .Lfail
	cmpw	0, 8, 24
	bne	0, .Lfail
	li	3, 0
	li	0, 234			/* exit_group(0) */
	sc
.Lfail:
	li	3, 1
	li	0, 234			/* exit_group(1) */
	sc

.Lchild:
	mr	23, 21			/* the second thread: its pair */
	bl	.Lsteps
	li	3, 0
	li	0, 1			/* exit: this thread only */
	sc

/* K store twins on the pair at r23: iteration i stores i to both words */
.Lsteps:
	li	5, 0
	li	9, K
	mtctr	9
1:	stwat	5, 23, 24
	addi	5, 5, 1
	bdnz	1b
	blr

	.section ".bss"
	.align 7
pairs:
	.space 384
cstack:
	.space CSTACK_SIZE
