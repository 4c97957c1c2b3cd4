/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wb_evict: write-back of dirty L2 lines.  Phase 1 stores one word to each
 * of the NA = 256 lines of bufa (8 KB, one page): the stores miss L1D
 * (not allocated) and L2, which allocates each line dirty; half come from
 * memory, half from L3 (64-byte L3 lines).  Phase 2 loads one word from
 * each of the NB = 8192 lines of bufb (256 KB = 2x L2, 32 pages): every
 * L2 set receives 16 bufb lines, so LRU evicts all 256 dirty bufa lines
 * (written back to L3) and the bufb lines that arrive after a set is full.
 *   St_local = St_hit_L3 = NA/2 = 128, St_hit_L2 = 0
 *   L2_dirty_evict = NA = 256
 *   DC_miss_nospec = NB = 8192 (DC_miss_local_hit_nospec = NB/2 = 4096,
 *   DC_miss_L2_L3_hit_nospec = NB/2 = 4096)
 *   L2_clean_evict = (L2 fills) - 4096 lines of L2 - 256 dirty
 * (docs/memory-validation.md).
 *
 * Code: P1-P3, store loop (stx, subcc, bne,pt, add) NA times, Q1-Q3, load
 * loop (ldx, subcc, bne,pt, add) NB times, E1-E3.
 */
#define NA 256
#define NB 8192

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(bufa), %o0		! P1
	or	%o0, %lo(bufa), %o0	! P2
	set	NA, %o1			! P3 lines left
.Lst:
	stx	%o1, [%o0]		! dirty one L2 line
	subcc	%o1, 1, %o1
	bne,pt	%xcc, .Lst
	 add	%o0, 32, %o0
	sethi	%hi(bufb), %o0		! Q1
	or	%o0, %lo(bufb), %o0	! Q2
	set	NB, %o1			! Q3 lines left
.Lld:
	ldx	[%o0], %o4		! one load per line
	subcc	%o1, 1, %o1
	bne,pt	%xcc, .Lld
	 add	%o0, 32, %o0
	mov	1, %g1			! E1 exit(0)
	clr	%o0			! E2
	ta	0x6d			! E3
	.size	_start, . - _start

	.bss
	.align	8192
bufa:	.skip	NA * 32
	.align	8192
bufb:	.skip	NB * 32
