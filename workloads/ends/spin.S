/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spin: an endless loop, for runs that something outside ends (a signal
 * to the process group, to the tool, to the emulator;
 * tests/integration/run_endings.sh).  Its counts are unknown in advance
 * but tied: after n passes (a signal is taken between passes, and the OS
 * tick that publishes counts syncs the strand between blocks)
 *
 *   Instr_all = 3n     Branches = n     Instr_other = 2n
 */
	.text
	.globl	_start
	.type	_start, #function
_start:
.Lloop:
	add	%l0, 1, %l0		! OTHER
	ba,pt	%xcc, .Lloop		! BRANCH
	 nop				! OTHER
	.size	_start, . - _start
