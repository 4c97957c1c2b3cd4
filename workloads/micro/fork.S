/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fork: the guest process forks (clone without CLONE_VM: a child process,
 * with hvpmu's plugin state copied into it, as qemu-user forks itself);
 * the child runs N loads and exits, the parent waits for it, then runs M
 * loads and exits.  Each process writes its own counts at its exit; the
 * parent writes last (it waits for the child), so `hvpmu stat` reports
 * the parent's: its user-mode loads are exactly M (none before the fork).
 * Checked by tests/integration/run_model_thread.sh: the same counts with
 * and without the model thread, which the fork ends first (a child
 * process would have no model thread; docs/event-source.md).  Not listed
 * in expected.txt (the parent's Instr_all includes the kernel path of a
 * wait4 that may be restarted).
 *
 * Linux sparc64 system calls: number in %g1, arguments in %o0-%o5,
 * `ta 0x6d`, carry set on error.  clone 217 with flags SIGCHLD (20 on SPARC), child
 * stack 0 (the same stack, copied): both continue after the `ta`, %o1 = 0
 * in the parent and 1 in the child (see threads.S).  wait4 7 (pid -1,
 * status NULL, options 0, rusage NULL); exit_group 188.
 */
#define N 30000
#define M 20000
#define SIGCHLD 20				/* SPARC numbering (arch/sparc/include/uapi/asm/signal.h) */

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(word), %l1
	or	%l1, %lo(word), %l1			! %l1 = &word (both processes)
	mov	SIGCHLD, %o0				! flags
	clr	%o1					! child stack: the same
	clr	%o2
	clr	%o3
	clr	%o4
	mov	217, %g1				! clone
	ta	0x6d
	bcs,pn	%xcc, .Lfail
	 nop
	brnz,pn	%o1, .Lchild				! %o1 = 1: child
	 nop

	/* parent: wait for the child, then M loads */
.Lwait:
	mov	-1, %o0					! any child
	clr	%o1
	clr	%o2
	clr	%o3
	mov	7, %g1					! wait4
	ta	0x6d
	bcs,pn	%xcc, .Lwait				! EINTR: again
	 nop
	sethi	%hi(M), %l0
	or	%l0, %lo(M), %l0
.Lploop:
	ldx	[%l1], %g0				! #M loads
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lploop
	 nop
	mov	188, %g1				! exit_group(0)
	clr	%o0
	ta	0x6d

	/* child: N loads, then exit */
.Lchild:
	sethi	%hi(N), %l0
	or	%l0, %lo(N), %l0
.Lcloop:
	ldx	[%l1], %g0				! #N loads
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lcloop
	 nop
	mov	188, %g1				! exit_group(0)
	clr	%o0
	ta	0x6d

.Lfail:
	mov	188, %g1				! exit_group(1)
	mov	1, %o0
	ta	0x6d

	.data
	.align	8
word:	.xword	0
