/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * windows: deep recursion with SAVE/RESTORE/RETURN, so that the register
 * windows overflow and underflow many times.  QEMU handles each spill
 * (on SAVE) and fill (on RESTORE or RETURN) as a trap that leaves the
 * translation block early and then restarts the same instruction; the
 * counts below are architectural: each instruction counts once, however
 * often QEMU restarts it.  Fills happen both on a RESTORE in a delay slot
 * (rec_a) and on RETURN (rec_b).
 *
 * rec_a(n) and rec_b(n) both compute n (n == 0 -> 0, else callee(n-1) + 1)
 * and call each other: rec_a(D) -> rec_b(D-1) -> rec_a(D-2) ... With D
 * even, rec_a runs for n = D, D-2, ..., 2 and the base case n = 0, rec_b
 * for n = D-1, ..., 1; rec_b never reaches its base case (B8, B9 never run).
 *
 *   rec_a, n > 0 (7 instructions, 3 BRANCH of which 2 taken, 4 OTHER):
 *     A1 save, A2 brz,pn (BPr, not taken), A3 sub (delay), A4 call rec_b,
 *     A5 nop, A6 ret (JMPL), A7 restore (delay)
 *   rec_a, n == 0 (5 instructions, 2 BRANCH both taken, 3 OTHER):
 *     A1 save, A2 brz,pn (taken), A3 sub (delay), A8 return (RETURN),
 *     A9 mov (delay, runs in the caller window)
 *   rec_b, n > 0 (8 instructions, 3 BRANCH of which 2 taken, 5 OTHER):
 *     B1 save, B2 brz,pn (not taken), B3 sub (delay), B4 call rec_a,
 *     B5 nop, B6 mov, B7 return (RETURN), B10 add (delay, caller window)
 *
 * Main loop: R = 20 rounds of rec_a(D), D = 30 (31 nested SAVEs; QEMU
 * models 8 windows, so every round spills and fills about 25 times).
 *   per round: M1 mov, M2 call (taken), M3 nop, M4 add, M5 subcc,
 *   M6 bne %xcc (BPcc, taken R-1 times in total), M7 nop
 *   + (D/2) x rec_a(n > 0) + (D/2) x rec_b(n > 0) + 1 x rec_a(0)
 *   = 7 + 15*7 + 15*8 + 5 = 237 instructions
 *   Prologue P1-P2: 2 OTHER.  Exit E1-E3: 3 OTHER; E2 puts
 *   (sum of the R results) - R*D in the exit status, so a correct run
 *   exits with 0.
 *
 *   Instr_all   = 2 + 237R + 3                             = 4745
 *   Branches    = R(2 + 15*3 + 15*3 + 2)                   = 1880
 *   Br_taken    = R(1 + 15*2 + 15*2 + 2) + (R-1)           = 1279
 *   Instr_other = 2 + R(5 + 15*4 + 15*5 + 3) + 3           = 2865
 *   others 0
 */
#define R 20
#define D 30

	.text
	.globl	_start
	.type	_start, #function
_start:
	mov	R, %l0			! P1
	clr	%l1			! P2 sum of results
.Lround:
	mov	D, %o0			! M1
	call	rec_a			! M2
	 nop				! M3
	add	%l1, %o0, %l1		! M4
	subcc	%l0, 1, %l0		! M5
	bne	%xcc, .Lround		! M6
	 nop				! M7

	mov	1, %g1			! E1
	sub	%l1, R * D, %o0		! E2 status 0 when every rec_a(D) returned D
	ta	0x6d			! E3
	.size	_start, . - _start

	.type	rec_a, #function
rec_a:
	save	%sp, -192, %sp		! A1
	brz,pn	%i0, .Lbase_a		! A2
	 sub	%i0, 1, %o0		! A3
	call	rec_b			! A4
	 nop				! A5
	ret				! A6
	 restore %o0, 1, %o0		! A7 caller %o0 = rec_b(n-1) + 1
.Lbase_a:
	return	%i7 + 8			! A8
	 mov	0, %o0			! A9 caller %o0 = 0
	.size	rec_a, . - rec_a

	.type	rec_b, #function
rec_b:
	save	%sp, -192, %sp		! B1
	brz,pn	%i0, .Lbase_b		! B2
	 sub	%i0, 1, %o0		! B3
	call	rec_a			! B4
	 nop				! B5
	mov	%o0, %i0		! B6 keep rec_a(n-1) across the RETURN
	return	%i7 + 8			! B7
	 add	%o0, 1, %o0		! B10 caller %o0 = rec_a(n-1) + 1
.Lbase_b:
	return	%i7 + 8			! B8 (not reached for even D)
	 mov	0, %o0			! B9 (not reached for even D)
	.size	rec_b, . - rec_b
