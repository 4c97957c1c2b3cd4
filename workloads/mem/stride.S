/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stride: L1D conflict misses.  Five lines 4 KB apart (4 KB = 16 KB / 4
 * ways, the L1D set stride) all map to one set of the 4-way LRU L1D, so a
 * cyclic walk over them misses L1D on every access (each line was evicted
 * by the four others since its last use).  In the 8-way L2 (set stride
 * 16 KB) they occupy four sets, at most two lines per set: every L1D miss
 * after the first five hits L2.  The five lines lie in five different
 * 64-byte L3 lines, so the five cold misses all come from memory.
 * Compare stride4.S: the same walk over four lines only misses cold.
 *
 * Lines (byte offsets in the page-aligned .bss buffer): 0, 4096, 8192,
 * 12288, 16384, in pages 0, 0, 1, 1, 2.  N = 1000 iterations, each one
 * LDX per line.  Expected (docs/memory-validation.md):
 *   Instr_ld = DC_miss_nospec = 5N = 5000
 *   DC_miss_local_hit_nospec = 5, DC_miss_L2_L3_hit_nospec = 5N - 5
 *   DTLB_fill_8KB = DTLB_fill_trap = 3, L2_clean_evict = 0
 *
 * Code: P1-P7 once, the loop (5 ldx, subcc, bne,pt, nop) N times, E1-E3.
 */
#define N 1000

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! P1 buffer base
	or	%o0, %lo(buf), %o0	! P2
	sethi	%hi(4096), %l2		! P3 offsets of lines 1-4
	sethi	%hi(8192), %l3		! P4
	sethi	%hi(12288), %l4		! P5
	sethi	%hi(16384), %l5		! P6
	set	N, %o1			! P7 iterations left
.Lloop:
	ldx	[%o0], %o4		! line 0, L1D set 0
	ldx	[%o0 + %l2], %o4	! line 1, L1D set 0
	ldx	[%o0 + %l3], %o4	! line 2, L1D set 0
	ldx	[%o0 + %l4], %o4	! line 3, L1D set 0
	ldx	[%o0 + %l5], %o4	! line 4, L1D set 0: one more than the ways
	subcc	%o1, 1, %o1
	bne,pt	%xcc, .Lloop
	 nop
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	8192
buf:	.skip	16384 + 8
