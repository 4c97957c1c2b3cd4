/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threads: two guest threads (qemu-sparc64 vCPUs 0 and 1, hvpmu strands 0
 * and 1), each running events the other never runs, so that the totals of
 * SW_prefetch and Sw_count_intr are exact whatever the scheduling is.
 * Checked by tests/integration/run_threads.sh (test integration.threads),
 * not listed in expected.txt: Instr_all is exact only up to the number of
 * passes through the main thread's futex wait loop.
 *
 * Linux sparc64 system calls: number in %g1, arguments in %o0-%o5,
 * `ta 0x6d`; on return the carry bit of %xcc is set on error (%o0 = errno)
 * and clear on success.  Numbers (arch/sparc/include/uapi/asm/unistd.h):
 * exit 1, futex 142, exit_group 188, clone 217.
 *
 * clone (sparc64 argument order, as glibc's sparc64/clone.S passes it):
 *   %o0 flags, %o1 child stack pointer, %o2 parent_tid, %o3 tls,
 *   %o4 child_tid.
 * %o1 is the child's %sp itself, i.e. with the stack BIAS (2047) already
 * subtracted and room for one 176-byte minimum frame (16 x 8-byte register
 * window save area + 6 x 8 outgoing argument words) at %sp + BIAS.
 * Return: both threads continue after the `ta`, told apart by %o1 (Linux
 * copy_thread: 0 in the parent, 1 in the child).  %o0 is the child's tid
 * in the parent; in the child it is the parent's pid under Linux and 0
 * under qemu-user (cpu_clone_regs_child), so only %o1 is tested.
 * Observed under qemu-sparc64 7.2: parent %o1 = 0, %o0 = the tid that
 * CLONE_PARENT_SETTID stored; child %o1 = 1, %o0 = 0.
 *
 * Flags: CLONE_VM 0x100 | CLONE_FS 0x200 | CLONE_FILES 0x400 |
 * CLONE_SIGHAND 0x800 | CLONE_THREAD 0x10000 | CLONE_SYSVSEM 0x40000 |
 * CLONE_PARENT_SETTID 0x100000 | CLONE_CHILD_CLEARTID 0x200000
 * = 0x350f00, no exit signal (a thread).  The word `tid` is both
 * parent_tid (set to the child's tid before clone returns) and child_tid
 * (set to 0 and futex-woken when the child exits).  It starts at -1 so
 * that it is non-zero until the child's exit even if PARENT_SETTID were
 * ignored.  The main thread waits with futex(&tid, FUTEX_WAIT (0, shared:
 * the exit-time wake is a shared FUTEX_WAKE), val, NULL) until it reads 0.
 *
 * Instructions (all classes per TABLE 10-2 as in the other micro files):
 *   main thread, before the trap:
 *     A1-A11  set flags, child sp, &tid; clone          11
 *   both threads, after the trap:
 *     C1-C4   bcs, delay nop, brnz %o1, delay nop        4 each
 *   child (vCPU 1):
 *     K1-K2   N into %l0                                 2
 *     loop    prefetch, subcc, bne, delay nop            4 per iteration
 *     X1-X3   exit(0)                                    3
 *   main (vCPU 0):
 *     L1-L2   M into %l0                                 2
 *     loop    sethi %hi(0xfc000), %g0, subcc, bne, nop   4 per iteration
 *     W1-W3   lduw tid, brz, delay nop                   3 per pass
 *     W4-W10  futex(FUTEX_WAIT) and ba back, delay nop   7 per pass that
 *                                                         does not leave
 *     E1-E3   exit_group(0)                              3
 * With N = 30000 child iterations, M = 20000 main iterations and k >= 0
 * futex passes (the last pass reads 0 and leaves after W3):
 *
 *   SW_prefetch   = N                                  = 30000
 *   Sw_count_intr = M                                  = 20000
 *   Instr_all     = main 11 + 4 + 2 + 4M + 10k + 3 + 3
 *                 + child 4 + 2 + 4N + 3
 *                 = 32 + 4(N + M) + 10k                = 200032 + 10k
 *                 + the guest kernel's path (docs/kernel-model.md, 300
 *                   instructions, counted in privileged mode) of the clone
 *                   and of each of the k futex calls  = + 300(1 + k)
 *
 * No prefetch and no `sethi %hi(0xfc000), %g0` run anywhere else (the
 * constants N and M are loaded with sethi to %l0, not %g0), in particular
 * none in the wait loop.  No save/restore: the child starts with clean
 * register windows and the parent's %l/%i registers.
 */
#define N 30000
#define M 20000
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
	or	%l1, %lo(tid), %l1			! A6 %l1 = &tid (both threads)
	mov	%l1, %o2				! A7 parent_tid
	clr	%o3					! A8 tls (unused)
	mov	%l1, %o4				! A9 child_tid
	mov	217, %g1				! A10 clone
	ta	0x6d					! A11
	bcs,pn	%xcc, .Lfail				! C1 clone failed
	 nop						! C2
	brnz,pn	%o1, .Lchild				! C3 %o1 = 1: child
	 nop						! C4

	/* main thread: M software count instructions */
	sethi	%hi(M), %l0				! L1
	or	%l0, %lo(M), %l0			! L2
.Lmloop:
	sethi	%hi(0xfc000), %g0			! SWCOUNT
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lmloop
	 nop

	/* wait for the child: its exit clears tid (CLONE_CHILD_CLEARTID) */
.Lwait:
	lduw	[%l1], %o2				! W1 val
	brz,pn	%o2, .Ldone				! W2
	 nop						! W3
	mov	%l1, %o0				! W4 uaddr
	clr	%o1					! W5 FUTEX_WAIT
	clr	%o3					! W6 no timeout
	mov	142, %g1				! W7 futex
	ta	0x6d					! W8 (EAGAIN/EINTR: read again)
	ba,pt	%xcc, .Lwait				! W9
	 nop						! W10
.Ldone:
	mov	188, %g1				! E1 exit_group
	clr	%o0					! E2
	ta	0x6d					! E3

	/* child thread: N software prefetches, then exit (this thread only) */
.Lchild:
	sethi	%hi(N), %l0				! K1
	or	%l0, %lo(N), %l0			! K2
.Lcloop:
	prefetch [%l1], 0				! PF #n_reads
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lcloop
	 nop
	mov	1, %g1					! X1 exit
	clr	%o0					! X2
	ta	0x6d					! X3

.Lfail:
	mov	188, %g1				! exit_group(1)
	mov	1, %o0
	ta	0x6d
	.size	_start, . - _start

	.data
	.align	8
tid:	.word	-1		/* parent_tid / child_tid; 0 once the child has exited */

	.bss
	.align	16
cstack:	.skip	CSTACK_SIZE	/* child stack; its %sp = top - MIN_FRAME - STACK_BIAS */
