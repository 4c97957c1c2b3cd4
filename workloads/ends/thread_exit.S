/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thread_exit: the program ends by exit_group(3) from its second thread
 * while the first one waits in futex (tests/integration/run_endings.sh).
 * The clone and the wait are those of workloads/micro/threads.S (its
 * comment gives the system-call conventions and the clone flags); the
 * wait blocks for good here, since the child ends every thread first.
 *
 * User-mode instructions (classes as TABLE 10-2; N child iterations):
 *   main:  A1-A11 clone                               11
 *          C1-C4  bcs, nop, brnz %o1, nop             4 (2 BRANCH)
 *          W1-W8  lduw tid, brz, nop, futex wait      8 (1 BRANCH, 1 LD)
 *   child: C1-C4                                      4 (2 BRANCH)
 *          K1-K2  N into %l0                          2
 *          loop   prefetch, subcc, bne,pt, nop        4 per iteration (1 BRANCH)
 *          X1-X3  exit_group(3)                       3
 *
 * The child's exit_group may come before the main thread reaches its
 * wait (the threads run on host threads of their own), so the main
 * thread's 12 instructions after the clone run in part or not at all:
 *
 *   SW_prefetch:u = N                                (the child's only)
 *   Instr_all:u   = 11 + 4 + 2 + 4N + 3 + m = 20 + 4N + m,   0 <= m <= 12
 *   Branches:u    = 2 + N + b,                                0 <= b <= 3
 */
#define N 100000
#define CLONE_FLAGS 0x350f00
#define STACK_BIAS 2047
#define MIN_FRAME 176
#define CSTACK_SIZE 8192

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(CLONE_FLAGS), %o0			! A1
	or	%o0, %lo(CLONE_FLAGS), %o0		! A2 flags
	sethi	%hi(cstack + CSTACK_SIZE - MIN_FRAME - STACK_BIAS), %o1	! A3
	or	%o1, %lo(cstack + CSTACK_SIZE - MIN_FRAME - STACK_BIAS), %o1	! A4 child %sp
	sethi	%hi(tid), %l1				! A5
	or	%l1, %lo(tid), %l1			! A6 %l1 = &tid
	mov	%l1, %o2				! A7 parent_tid
	clr	%o3					! A8 tls
	mov	%l1, %o4				! A9 child_tid
	mov	217, %g1				! A10 clone
	ta	0x6d					! A11
	bcs,pn	%xcc, .Lfail				! C1
	 nop						! C2
	brnz,pn	%o1, .Lchild				! C3 %o1 = 1: child
	 nop						! C4

	/* main thread: wait for a wake that never comes */
	lduw	[%l1], %o2				! W1 val = the child's tid
	brz,pn	%o2, .Lfail				! W2
	 nop						! W3
	mov	%l1, %o0				! W4 uaddr
	clr	%o1					! W5 FUTEX_WAIT
	clr	%o3					! W6 no timeout
	mov	142, %g1				! W7 futex
	ta	0x6d					! W8

.Lfail:
	mov	188, %g1				! exit_group(1): not reached
	mov	1, %o0
	ta	0x6d

	/* child thread: N iterations, then exit_group(3) for every thread */
.Lchild:
	sethi	%hi(N), %l0				! K1
	or	%l0, %lo(N), %l0			! K2
.Lcloop:
	prefetch [%l1], 0				! SW_prefetch
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lcloop
	 nop
	mov	188, %g1				! X1 exit_group
	mov	3, %o0					! X2 status 3
	ta	0x6d					! X3
	.size	_start, . - _start

	.data
	.align	8
tid:	.word	-1

	.bss
	.align	16
cstack:	.skip	CSTACK_SIZE
