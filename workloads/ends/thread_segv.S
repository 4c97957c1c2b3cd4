/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thread_segv: the second thread dies of SIGSEGV, ending the program,
 * while the main thread spins (tests/integration/run_endings.sh).  The
 * child runs N software prefetches and loads from address 0.  The clone
 * is that of workloads/micro/threads.S (its comment gives the conventions
 * and flags).
 *
 * With the memory model the child's records are all still in its batch
 * when the fault ends the program (N prefetches are fewer than a batch of
 * records, and the child made no system call): the dying thread's batch
 * runs (docs/event-source.md "Batches").
 *
 *   SW_prefetch:u = N            exactly
 *   exit status   = 128 + 11
 */
#define N 1001
#define CLONE_FLAGS 0x350f00
#define STACK_BIAS 2047
#define MIN_FRAME 176
#define CSTACK_SIZE 8192

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(CLONE_FLAGS), %o0
	or	%o0, %lo(CLONE_FLAGS), %o0		! flags
	sethi	%hi(cstack + CSTACK_SIZE - MIN_FRAME - STACK_BIAS), %o1
	or	%o1, %lo(cstack + CSTACK_SIZE - MIN_FRAME - STACK_BIAS), %o1	! child %sp
	sethi	%hi(tid), %l1
	or	%l1, %lo(tid), %l1			! %l1 = &tid
	mov	%l1, %o2				! parent_tid
	clr	%o3					! tls
	mov	%l1, %o4				! child_tid
	mov	217, %g1				! clone
	ta	0x6d
	bcs,pn	%xcc, .Lfail
	 nop
	brnz,pn	%o1, .Lchild				! %o1 = 1: child
	 nop

	/* main thread: spin until the fault ends every thread */
.Lspin:
	ba,pt	%xcc, .Lspin
	 nop

	/* child thread: N prefetches, then a load from address 0 */
.Lchild:
	sethi	%hi(N), %l0
	or	%l0, %lo(N), %l0
.Lcloop:
	prefetch [%l1], 0				! SW_prefetch
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lcloop
	 nop
	ldx	[%g0], %o3				! SIGSEGV

.Lfail:
	mov	188, %g1				! exit_group(1)
	mov	1, %o0
	ta	0x6d
	.size	_start, . - _start

	.data
	.align	8
tid:	.word	-1

	.bss
	.align	16
cstack:	.skip	CSTACK_SIZE
