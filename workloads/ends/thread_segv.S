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
#include "clone_thread.inc"

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(tid), %l1
	or	%l1, %lo(tid), %l1			! %l1 = &tid
	CLONE_THREAD .Lchild, .Lfail

	/* main thread: spin until the fault ends every thread */
.Lspin:
	ba,pt	%xcc, .Lspin
	 nop

	/* child thread: N prefetches, then a load from address 0 */
.Lchild:
	PREFETCHES N
	ldx	[%g0], %o3				! SIGSEGV

.Lfail:
	FAIL_EXIT
	.size	_start, . - _start

	.data
	.align	8
tid:	.word	-1

	CSTACK
