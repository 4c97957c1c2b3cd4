/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thread_reuse: two threads one after the other, each running N software
 * prefetches and ending with exit (tests/integration/run_endings.sh).
 * QEMU gives the second thread the CPU index the first one freed (the
 * highest free): both must be counted.  The main thread clones a child,
 * waits on a futex for its exit (CLONE_CHILD_CLEARTID clears `tid` and
 * wakes it), and does so twice; the clone is that of
 * workloads/micro/threads.S (its comment gives the conventions and flags).
 *
 *   SW_prefetch:u = 2N           exactly
 *   exit status   = 0
 */
#define N 1000
#define ROUNDS 2
#define CLONE_FLAGS 0x350f00
#define STACK_BIAS 2047
#define MIN_FRAME 176
#define CSTACK_SIZE 8192

	.text
	.globl	_start
	.type	_start, #function
_start:
	mov	ROUNDS, %l3
.Lround:
	sethi	%hi(tid), %l1
	or	%l1, %lo(tid), %l1			! %l1 = &tid
	mov	-1, %o2
	stw	%o2, [%l1]				! tid = -1 until the clone sets it
	sethi	%hi(CLONE_FLAGS), %o0
	or	%o0, %lo(CLONE_FLAGS), %o0		! flags
	sethi	%hi(cstack + CSTACK_SIZE - MIN_FRAME - STACK_BIAS), %o1
	or	%o1, %lo(cstack + CSTACK_SIZE - MIN_FRAME - STACK_BIAS), %o1	! child %sp
	mov	%l1, %o2				! parent_tid
	clr	%o3					! tls
	mov	%l1, %o4				! child_tid
	mov	217, %g1				! clone
	ta	0x6d
	bcs,pn	%xcc, .Lfail
	 nop
	brnz,pn	%o1, .Lchild				! %o1 = 1: child
	 nop

	/* main thread: wait until the child's exit clears tid */
.Lwait:
	lduw	[%l1], %o2
	brz,pn	%o2, .Lnext
	 nop
	mov	%l1, %o0				! uaddr
	clr	%o1					! FUTEX_WAIT, val = %o2
	clr	%o3					! no timeout
	mov	142, %g1				! futex
	ta	0x6d
	ba,pt	%xcc, .Lwait
	 nop
.Lnext:
	subcc	%l3, 1, %l3
	bne,pt	%xcc, .Lround
	 nop
	mov	188, %g1				! exit_group(0)
	clr	%o0
	ta	0x6d

	/* child thread: N prefetches, then exit(0) of this thread */
.Lchild:
	sethi	%hi(N), %l0
	or	%l0, %lo(N), %l0
.Lcloop:
	prefetch [%l1], 0				! SW_prefetch
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lcloop
	 nop
	mov	1, %g1					! exit
	clr	%o0
	ta	0x6d

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
