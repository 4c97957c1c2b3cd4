/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * st_then_ld: stores to a line, then loads of it.  The L1D is
 * write-through without write allocation, the L2 write-back with write
 * allocation (docs/memory-model.md).
 *
 * N = 128 lines (4 KB, one page, page aligned), R = 2 passes; per line
 *   stx [p]       S1: pass 1: misses L1D (no allocation) and L2; the L2
 *                 allocates the line (dirty), from memory for the first
 *                 32-byte half of each 64-byte L3 line, from L3 for the
 *                 second.  Pass 2: hits L1D (filled by L1), then L2.
 *   ldx [p]       L1: pass 1: misses L1D (S1 did not allocate it), hits
 *                 L2.  Pass 2: hits L1D.
 *   ldx [p+8]     L2: hits L1D.
 *   stx [p+16]    S2: hits L1D (updated) and, write-through, L2.
 *   St_local   = N/2 = 64,  St_hit_L3 = N/2 = 64,
 *   St_hit_L2  = N (S2, pass 1) + 2N (pass 2) = 384,
 *   DC_miss_nospec = DC_miss_L2_L3_hit_nospec = N = 128,
 *   DC_miss_local_hit_nospec = 0, L2 evictions 0, DTLB fills 1.
 * (docs/memory-validation.md).
 *
 * Code: P1-P3 once; per pass mov, mov N, the line loop (stx, ldx, ldx,
 * stx, subcc, bne,pt, add) N times, subcc, bne,pt, nop; E1-E3.
 * Instr_ld = Instr_st = 2*N*R = 512.
 */
#define N 128
#define R 2

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o2		! P1 buffer base
	or	%o2, %lo(buf), %o2	! P2
	mov	R, %o3			! P3 passes left
.Lpass:
	mov	%o2, %o0		! p = buf
	mov	N, %o1			! lines left in this pass
.Lline:
	stx	%o1, [%o0]		! S1
	ldx	[%o0], %o4		! L1
	ldx	[%o0 + 8], %o5		! L2
	stx	%o5, [%o0 + 16]		! S2
	subcc	%o1, 1, %o1
	bne,pt	%xcc, .Lline
	 add	%o0, 32, %o0		! next line
	subcc	%o3, 1, %o3
	bne,pt	%xcc, .Lpass
	 nop
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	8192
buf:	.skip	N * 32
