/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mixed: every instruction group of TABLE 10-2 sl=3 and sl=4 in one
 * program: integer ALU, loads and stores, a data-dependent branch pattern,
 * atomics, prefetches, software counts, FP, calls through CALL and JMPL,
 * recursion deep enough to spill/fill register windows, plus a one-off
 * block with SPR ring ops (WRASI/WRY/WRCCR/WRFPRS, footnote 8), the RD*
 * instructions that footnote 6 counts as loads, RDPC (OTHER, footnote 9),
 * MEMBAR/STBAR/FLUSH (stores except MEMBAR #LoadStore and #Lookaside,
 * footnotes 7 and 9), STFSR/LDFSR, block load/store (ASI 0xf0, sl=4 mask
 * 0x20; also a load / a store in sl=3), alternate-space accesses with an
 * immediate ASI, and a getpid system call in the middle of the run.
 *
 * ---- Prologue P1-P11 (once): 11 OTHER
 * ---- One-off block O1-O26 (once):
 *   SPR   O1 O3 O5 O7                                    4
 *   LD    O2 O4 O6 O8 (RDASI RDY RDCCR RDFPRS), O17 LDFSR,
 *         O18 LDDFA_0XF0 (block), O20 LDUWA_0X80, O24-O26 LDDF LDDF LDF  10
 *   ST    O10 membar #StoreLoad, O13 membar #Sync, O14 stbar, O15 flush,
 *         O16 STFSR, O19 STDFA_0XF0 (block), O21 STXA_0X80      7
 *   OTHER O9 rd %pc, O11 membar #LoadStore, O12 membar #Lookaside,
 *         O22 mov, O23 ta (getpid)                               5
 *   BLOCK O18 O19                                                2
 * ---- Main loop, i = 0 .. N-1, N = 408.  Every iteration:
 *   OTHER I1-I4, M1-M3, D1, T1-T3, F1-F2, S1, C2, C4, W1, W3, L1, L2, L4
 *         and the leaf delay nop twice                          23
 *   LD    M5, M7, D2                                             3
 *   ST    M4, M6, T4, G6                                         4
 *   FGU   G1-G4                                                  4
 *   BRANCH D3, G5, C1, C3, W2, L3 and the leaf retl twice        8
 *   = 42, plus exactly one of D4 (D3 taken) / D5 (D3 not taken): +1 OTHER
 *   ATOMIC T1-T3 (3), SW_PREFETCH F1-F2 (2), SWCOUNT S1 (1)
 *   Taken: G5, C1, C3, leaf retl x2 always; D3 when pat[i & 15] != 0;
 *   W2 when i % 4 != 0; L3 for all but the last iteration.
 * ---- D3 pattern: pat[] has 8 non-zero bytes in 16 and 5 in its first 8;
 *   N = 408 = 25*16 + 8, so D3 is taken T = 25*8 + 5 = 205 times,
 *   D4 runs T times, D5 (a software count) N - T = 203 times.
 * ---- i % 4 == 0 (Q = N/4 = 102 iterations): W4 call (taken), W5 mov
 *   (OTHER), and rec(10): 10 activations with n > 0 (7 insns: 3 BRANCH,
 *   2 taken, 4 OTHER) and one with n == 0 (5 insns: 2 BRANCH, 2 taken,
 *   3 OTHER) = 75 insns, 32 BRANCH, 22 taken, 43 OTHER.
 * ---- Exit E1-E3: 3 OTHER.
 * ---- The guest kernel's path of the getpid (docs/kernel-model.md),
 *   privileged, counted with user mode by default: 22 LD, 20 ST,
 *   258 OTHER = 300 (the exit runs none).
 *
 *   Instr_ld         = 10 + 3N + 22                         = 1256
 *   Instr_st         = 7 + 4N + 20                          = 1659
 *   SPR_ring_ops     = 4                                    = 4
 *   Instr_FGU_crypto = 4N                                   = 1632
 *   Branches         = 8N + Q(1 + 32)                       = 6630
 *   Br_taken         = T + 5N + 3N/4 + (N-1) + Q + 22Q
 *                    = 205 + 2040 + 306 + 407 + 102 + 2244  = 5304
 *   Instr_other      = 11 + 5 + 24N + Q(1 + 43) + 3 + 258   = 14557
 *   Instr_all        = 11 + 26 + 43N + Q(2 + 75) + 3 + 300  = 25738
 *   Sw_count_intr    = N + (N - T)                          = 611
 *   Atomics          = 3N                                   = 1224
 *   SW_prefetch      = 2N                                   = 816
 *   Block_ld_st      = 2                                    = 2
 */
#define N 408

	.text
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %l7		! P1
	or	%l7, %lo(buf), %l7	! P2
	sethi	%hi(pat), %l6		! P3
	or	%l6, %lo(pat), %l6	! P4
	sethi	%hi(fdata), %l5		! P5
	or	%l5, %lo(fdata), %l5	! P6
	sethi	%hi(leaf), %l4		! P7
	or	%l4, %lo(leaf), %l4	! P8
	add	%l7, 192, %l3		! P9  atomics area
	clr	%l0			! P10 i
	clr	%l1			! P11 accumulator

	wr	%g0, 0x80, %asi		! O1  SPR  WRASI
	rd	%asi, %o1		! O2  LD   RDASI
	wr	%g0, 5, %y		! O3  SPR  WRY
	rd	%y, %o1			! O4  LD   RDY
	wr	%g0, 0, %ccr		! O5  SPR  WRCCR
	rd	%ccr, %o1		! O6  LD   RDCCR
	wr	%g0, 4, %fprs		! O7  SPR  WRFPRS (FEF stays set)
	rd	%fprs, %o1		! O8  LD   RDFPRS
	rd	%pc, %o1		! O9  OTHER RDPC
	membar	#StoreLoad		! O10 ST
	membar	#LoadStore		! O11 OTHER
	membar	#Lookaside		! O12 OTHER
	membar	#Sync			! O13 ST
	stbar				! O14 ST
	flush	%l7			! O15 ST
	st	%fsr, [%l7 + 64]	! O16 ST   STFSR
	ld	[%l7 + 64], %fsr	! O17 LD   LDFSR
	ldda	[%l7] 0xf0, %f0		! O18 LD   block load (ASI_BLK_P)
	stda	%f0, [%l7] 0xf0		! O19 ST   block store (ASI_BLK_P)
	lduwa	[%l7] 0x80, %o1		! O20 LD   LDUWA_0X80
	stxa	%g0, [%l7] 0x80		! O21 ST   STXA_0X80
	mov	20, %g1			! O22 OTHER getpid
	ta	0x6d			! O23 OTHER
	ldd	[%l5], %f0		! O24 LD   1.5
	ldd	[%l5 + 8], %f2		! O25 LD   0.5
	ld	[%l5 + 16], %f4		! O26 LD   3

.Lloop:
	add	%l1, %l0, %l1		! I1
	sllx	%l1, 1, %o1		! I2
	xor	%o1, %l0, %o1		! I3
	mulx	%o1, 3, %o1		! I4
	and	%l0, 31, %o2		! M1
	sllx	%o2, 3, %o2		! M2
	add	%o2, %l7, %o2		! M3  &buf[8 * (i & 31)]
	stx	%o1, [%o2 + 256]	! M4  ST
	ldx	[%o2 + 256], %o3	! M5  LD
	stb	%o3, [%o2 + 512]	! M6  ST
	ldub	[%o2 + 512], %o4	! M7  LD
	and	%l0, 15, %o5		! D1
	ldub	[%l6 + %o5], %o5	! D2  LD  pat[i & 15]
	brnz,a,pt %o5, 1f		! D3  BPr annulled; taken iff pat[i & 15] != 0
	 add	%l1, 1, %l1		! D4  only when taken
	sethi	%hi(0xfc000), %g0	! D5  SWCOUNT, only when not taken
1:	ldstub	[%l7 + 128], %o1	! T1  ATOMIC
	casx	[%l3], %g0, %o1		! T2  ATOMIC
	swap	[%l3 + 8], %o1		! T3  ATOMIC
	stb	%g0, [%l7 + 128]	! T4  ST
	prefetch [%o2 + 256], 0		! F1  PF
	prefetch [%o2 + 512], 2		! F2  PF
	sethi	%hi(0xfc000), %g0	! S1  SWCOUNT
	fitod	%f4, %f6		! G1  FGU 3.0
	faddd	%f6, %f0, %f8		! G2  FGU 4.5
	fmuld	%f8, %f2, %f10		! G3  FGU 2.25
	fcmpd	%fcc1, %f10, %f0	! G4  FGU 2.25 > 1.5
	fbg,a,pt %fcc1, 2f		! G5  FBPfcc annulled, taken
	 std	%f10, [%l7 + 72]	! G6  ST (delay, runs because taken)
	fmovd	%f0, %f12		! G7  never runs
2:	call	leaf			! C1
	 nop				! C2
	jmpl	%l4, %o7		! C3
	 nop				! C4
	andcc	%l0, 3, %g0		! W1
	bne,pt	%icc, 3f		! W2  taken iff i % 4 != 0
	 nop				! W3
	call	rec			! W4  only when i % 4 == 0
	 mov	10, %o0			! W5  only when i % 4 == 0
3:	add	%l0, 1, %l0		! L1
	cmp	%l0, N			! L2
	bl,pt	%icc, .Lloop		! L3
	 nop				! L4

	mov	1, %g1			! E1
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.type	leaf, #function
leaf:
	retl				! JMPL
	 nop
	.size	leaf, . - leaf

	.type	rec, #function
rec:
	save	%sp, -192, %sp		! R1
	brz,pn	%i0, .Lbase		! R2
	 sub	%i0, 1, %o0		! R3
	call	rec			! R4
	 nop				! R5
	ret				! R6
	 restore %o0, 1, %o0		! R7
.Lbase:
	return	%i7 + 8			! R8
	 mov	0, %o0			! R9
	.size	rec, . - rec

	.data
	.align	8
fdata:	.double	0r1.5
	.double	0r0.5
	.word	3, 0
pat:	.byte	1, 0, 0, 7, 1, 0x80, 0, 1	! 5 non-zero
	.byte	0, 0, 2, 0, 1, 0xff, 0, 0	! 3 non-zero

	.bss
	.align	64
buf:	.skip	1024
