/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fgu: floating-point operate instructions, FP loads/stores and FP
 * branches.  TABLE 10-2 sl=3 mask 0x02 (FGU + crypto arithmetic,
 * footnote 5: FPop1/FPop2 such as FADD, FSUB, FMUL, FDIV, FSQRT, FCMP,
 * the converts, FMOV, FNEG, FABS).  LDF/LDDF are loads (footnote 6),
 * STF/STDF stores (footnote 7), FBfcc/FBPfcc branches.
 *
 * Values: %f0 = 1.5, %f2 = 0.5, %f4 = (int) 3.
 * In the loop %f8 = 1.5 + 3.0 = 4.5, so fcmpd %f8, %f0 gives "greater":
 * fbg is taken, fbl and fbe,a are not taken.
 *
 * N = 300 iterations.  Per iteration:
 *   F1-F11 fitod faddd fmuld fsubd fdivd fsqrtd fnegd fabsd fmovd fdtoi
 *          fcmpd                              11 FGU
 *   F12    fbg,pt %fcc0 (FBPfcc)              BRANCH, taken
 *   F13    delay: std %f22 (STDF)             ST
 *   F14    skipped by F12                     never runs
 *   F15    fbl (FBfcc)                        BRANCH, not taken
 *   F16    delay: st %f24 (STF)               ST (not annulled: runs)
 *   F17    fbe,a (FBfcc, annulled)            BRANCH, not taken
 *   F18    delay of F17                       never runs (annulled)
 *   F18x   fmovd (fall-through of F17)        FGU
 *   F19    ld [..], %f4 (LDF)                 LD
 *   F20    subcc                              OTHER
 *   F21    bne,pt %xcc (BPcc)                 BRANCH, taken N-1 times
 *   F22    delay nop                          OTHER
 *          = 21 instructions per iteration
 *   Prologue: P1-P3 sethi, or, mov (3 OTHER); P4-P6 ldd, ldd, ld (3 LD).
 *   Exit E1-E3: 3 OTHER.
 *
 *   Instr_all        = 6 + 21N + 3        = 6309
 *   Instr_FGU_crypto = 12N                = 3600
 *   Branches         = 4N                 = 1200
 *   Br_taken         = N + (N-1)          = 599
 *   Instr_ld         = 3 + N              = 303
 *   Instr_st         = 2N                 = 600
 *   Instr_other      = 3 + 2N + 3         = 606
 *   others 0
 */
#define N 300

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(fdata), %o0		! P1 OTHER
	or	%o0, %lo(fdata), %o0	! P2 OTHER
	mov	N, %l0			! P3 OTHER
	ldd	[%o0], %f0		! P4 LD  LDDF 1.5
	ldd	[%o0 + 8], %f2		! P5 LD  LDDF 0.5
	ld	[%o0 + 16], %f4		! P6 LD  LDF  3
.Lloop:
	fitod	%f4, %f6		! F1  FGU 3.0
	faddd	%f0, %f6, %f8		! F2  FGU 4.5
	fmuld	%f8, %f2, %f10		! F3  FGU 2.25
	fsubd	%f10, %f0, %f12		! F4  FGU 0.75
	fdivd	%f12, %f2, %f14		! F5  FGU 1.5
	fsqrtd	%f14, %f16		! F6  FGU
	fnegd	%f16, %f18		! F7  FGU
	fabsd	%f18, %f20		! F8  FGU
	fmovd	%f20, %f22		! F9  FGU
	fdtoi	%f8, %f24		! F10 FGU 4
	fcmpd	%fcc0, %f8, %f0		! F11 FGU 4.5 > 1.5
	fbg,pt	%fcc0, 1f		! F12 BRANCH taken
	 std	%f22, [%o0 + 24]	! F13 ST
	faddd	%f0, %f0, %f0		! F14 never runs
1:	fbl	2f			! F15 BRANCH not taken
	 st	%f24, [%o0 + 32]	! F16 ST
	fbe,a	2f			! F17 BRANCH not taken, annulled
	 faddd	%f0, %f0, %f0		! F18 never runs
	fmovd	%f0, %f26		! F18x FGU
2:	ld	[%o0 + 16], %f4		! F19 LD
	subcc	%l0, 1, %l0		! F20 OTHER
	bne,pt	%xcc, .Lloop		! F21 BRANCH
	 nop				! F22 OTHER

	mov	1, %g1			! E1
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.data
	.align	8
fdata:	.double	0r1.5			! +0
	.double	0r0.5			! +8
	.word	3			! +16
	.word	0			! +20
	.skip	16			! +24 (std), +32 (st)
