/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stride4: the control of stride.S.  Four lines 4 KB apart share one set
 * of the 4-way LRU L1D and fit it: only the four cold misses, all from
 * memory (four different 64-byte L3 lines).
 *
 * Lines (byte offsets in the page-aligned .bss buffer): 0, 4096, 8192,
 * 12288, in pages 0, 0, 1, 1.  N = 1000 iterations, each one LDX per line.
 * Expected (docs/memory-validation.md):
 *   Instr_ld = 4N = 4000, DC_miss_nospec = DC_miss_local_hit_nospec = 4,
 *   DC_miss_L2_L3_hit_nospec = 0, DTLB_fill_8KB = 2
 *
 * Code: P1-P6 once, the loop (4 ldx, subcc, bne,pt, nop) N times, E1-E3.
 */
#define N 1000

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! P1 buffer base
	or	%o0, %lo(buf), %o0	! P2
	sethi	%hi(4096), %l2		! P3 offsets of lines 1-3
	sethi	%hi(8192), %l3		! P4
	sethi	%hi(12288), %l4		! P5
	set	N, %o1			! P6 iterations left
.Lloop:
	ldx	[%o0], %o4		! line 0, L1D set 0
	ldx	[%o0 + %l2], %o4	! line 1, L1D set 0
	ldx	[%o0 + %l3], %o4	! line 2, L1D set 0
	ldx	[%o0 + %l4], %o4	! line 3, L1D set 0: four lines, four ways
	subcc	%o1, 1, %o1
	bne,pt	%xcc, .Lloop
	 nop
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	8192
buf:	.skip	12288 + 8
