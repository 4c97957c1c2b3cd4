/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main_exit: the main thread calls exit_group(0) while its second thread
 * still runs (tests/integration/run_endings.sh).  The child runs N
 * software prefetches, says so in `done`, and spins until exit_group ends
 * it; the main thread spins on `done`, then exits.  The clone is that of
 * workloads/micro/threads.S (its comment gives the conventions and flags).
 *
 * With the memory model the child's last records are still in its batch
 * when the main thread exits (N prefetches are fewer than a batch of
 * records): they must run before the guest OS stops the counters at
 * exit_group (docs/event-source.md "Batches").
 *
 *   SW_prefetch:u = N            exactly, whatever the scheduling
 *   exit status   = 0
 */
#define N 1001
#include "clone_thread.inc"

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(tid), %l1
	or	%l1, %lo(tid), %l1			! %l1 = &tid
	sethi	%hi(done), %l2
	or	%l2, %lo(done), %l2			! %l2 = &done
	CLONE_THREAD .Lchild, .Lfail

	/* main thread: wait for `done`, then end every thread */
.Lwait:
	lduw	[%l2], %o2
	brz,pt	%o2, .Lwait
	 nop
	mov	188, %g1				! exit_group(0)
	clr	%o0
	ta	0x6d

	/* child thread: N prefetches, then `done`, then spin */
.Lchild:
	PREFETCHES N
	mov	1, %o3
	stw	%o3, [%l2]				! done = 1
.Lspin:
	ba,pt	%xcc, .Lspin
	 nop

.Lfail:
	FAIL_EXIT
	.size	_start, . - _start

	.data
	.align	8
tid:	.word	-1
done:	.word	0

	CSTACK
