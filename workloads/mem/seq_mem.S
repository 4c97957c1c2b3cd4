/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seq_mem: sequential loads over 8 MB (> L3)
 *
 * Sequential 8-byte loads (LDX) over a 8388608-byte .bss buffer (page
 * aligned), all four words of each 32-byte line in turn, repeated R times.
 * No stores, no stack.  Expected counts, their derivation and bounds:
 * docs/memory-validation.md; the figures are in workloads/mem/expected.txt.
 *
 * 8 MB exceeds the 4 MB L3 (32 buffer L3 lines per 16-way set, LRU): in
 * every pass the first 32-byte line of each 64-byte L3 line comes from
 * memory and the second one hits L3 (filled by the first).  1024 pages
 * exceed the 128-entry DTLB, so every pass misses the DTLB on every page;
 * the first pass also takes a fill trap per page (TSB entry not written
 * yet), later passes find the TSB entry.
 *
 * Code (all instructions lie in three 32-byte I-cache lines; _start is
 * 64-byte aligned):
 *   P1-P3     sethi, or, mov R                   1x
 *   pass:     mov, set LINES                     R x
 *   line:     4x ldx, subcc, bne,pt, add (delay) R x LINES
 *             subcc, bne,pt, nop                 R x
 *   E1-E3     exit                               1x
 *   Instr_ld = 4 * LINES * R
 */
#define BYTES 8388608
#define R 2
#define LINES (BYTES / 32)

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
	set	LINES, %o1		! lines left in this pass
.Lline:
	ldx	[%o0], %o4		! first word of the line: the only one that can miss
	ldx	[%o0 + 8], %o4
	ldx	[%o0 + 16], %o4
	ldx	[%o0 + 24], %o4
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
buf:	.skip	BYTES
