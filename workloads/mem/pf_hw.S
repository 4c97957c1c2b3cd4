/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pf_hw: the L1D hardware prefetcher (docs/prefetch-model.md), run with
 * `hvpmu stat --hw-prefetch 1` (expected.txt: `pf_hw @stat ...`): on an
 * L1D load miss the next 32-byte line of the same 8 KB page is
 * prefetched into L1D, or dropped if L1D holds it (TABLE 10-2 sl=18 0x01).
 *
 * One LDX per line over two page-aligned 8 KB pages (256 lines each; the
 * two fill the 16 KB L1D exactly, 2 + 2 lines per 4-way set: nothing is
 * evicted):
 *   page A ascending: lines 0, 2, .., 254 miss (from memory: first half of
 *     their 64-byte L3 line) and prefetch the odd line after them, which
 *     then hits: 128 misses, 128 hardware prefetches, none dropped;
 *   page B descending from line 255: every line misses (the prefetcher
 *     only looks forward); line 255's next line is in another page (no
 *     prefetch), every other miss prefetches the line loaded just before
 *     it, which L1D holds: 255 dropped.  Odd lines come from memory, even
 *     ones hit L3 (the 64-byte L3 line came with the odd line).
 *   Instr_ld = 512, DC_miss_nospec = 128 + 256 = 384,
 *   DC_miss_local_hit_nospec = 128 + 128 = 256, DC_miss_L2_L3_hit_nospec = 128,
 *   DC_pref_drop_DC_hit = 255, SW_pref_drop = 0.
 */
#define LINES 256

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! page A
	or	%o0, %lo(buf), %o0
	set	LINES, %o1
.Lup:
	ldx	[%o0], %o4
	subcc	%o1, 1, %o1
	bne,pt	%xcc, .Lup
	 add	%o0, 32, %o0		! next line
	set	8192 - 32, %o2		! %o0 = page B: its last line
	add	%o0, %o2, %o0
	set	LINES, %o1
.Ldown:
	ldx	[%o0], %o4
	subcc	%o1, 1, %o1
	bne,pt	%xcc, .Ldown
	 sub	%o0, 32, %o0		! previous line
	mov	1, %g1			! exit(0)
	clr	%o0
	ta	0x6d
	.size	_start, . - _start

	.bss
	.align	8192
buf:	.skip	2 * 8192
