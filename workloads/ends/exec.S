/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec: K iterations of a counted loop, then execve("/bin/true"): the
 * program replaces itself (tests/integration/run_endings.sh).  Under
 * qemu-user the new image is the host's /bin/true (the sysroot has none),
 * which runs natively and exits 0; the counts stop at the call.  Linux
 * sparc64 execve is system call 59 (asm/unistd_64.h).
 *
 *   S1-S2  sethi/or K into %l0            2 OTHER
 *   loop   subcc, bne,pt, delay nop       1 BRANCH + 2 OTHER, K times
 *   E1-E7  path, argv, envp, execve       7 OTHER (the trap retires)
 *
 *   Instr_all:u = 2 + 3K + 7      Branches:u = K
 */
#define K 100000

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(K), %l0		! S1
	or	%l0, %lo(K), %l0	! S2
.Lloop:
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lloop
	 nop
	sethi	%hi(path), %o0		! E1
	or	%o0, %lo(path), %o0	! E2 path
	sethi	%hi(argv), %o1		! E3
	or	%o1, %lo(argv), %o1	! E4 argv = { path, NULL }
	clr	%o2			! E5 envp = NULL
	mov	59, %g1			! E6 execve
	ta	0x6d			! E7
	mov	1, %g1			! execve failed: exit(1)
	mov	1, %o0
	ta	0x6d
	.size	_start, . - _start

	.data
	.align	8
argv:	.xword	path, 0
path:	.asciz	"/bin/true"
