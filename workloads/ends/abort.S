/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * abort: K iterations of a counted loop, then kill(getpid(), SIGABRT), as
 * abort(3) ends a program (tests/integration/run_endings.sh).  Linux
 * sparc64 system calls (asm/unistd_64.h): getpid 20, kill 37; SIGABRT 6.
 *
 *   S1-S2  sethi/or K into %l0            2 OTHER
 *   loop   subcc, bne,pt, delay nop       1 BRANCH + 2 OTHER, K times
 *   G1-G2  mov 20, ta 0x6d (getpid)       2 OTHER
 *   A1-A3  mov 6, mov 37, ta 0x6d (kill)  3 OTHER: the trap retires, the
 *                                         signal ends the program in it
 *
 *   Instr_all:u   = 2 + 3K + 5
 *   Branches:u    = K
 *   Instr_other:u = 2 + 2K + 5
 */
#define K 200000

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
	mov	20, %g1			! G1 getpid
	ta	0x6d			! G2 -> %o0 = pid
	mov	6, %o1			! A1 SIGABRT
	mov	37, %g1			! A2 kill
	ta	0x6d			! A3
	.size	_start, . - _start
