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
#include "clone_thread.inc"

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
	CLONE_THREAD .Lchild, .Lfail

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
	PREFETCHES N
	mov	1, %g1					! exit
	clr	%o0
	ta	0x6d

.Lfail:
	FAIL_EXIT
	.size	_start, . - _start

	.data
	.align	8
tid:	.word	-1

	CSTACK
