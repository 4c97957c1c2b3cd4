/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pf_l1: software prefetches into L1D (function codes 0 #n_reads and
 * 0x14 #n_reads_strong, which TABLE 10-2 sl=21 excludes) and their drops
 * at the D-cache (sl=18 0x02); the prefetch address is recovered from a
 * LATER donor (docs/prefetch-model.md): both prefetches come before
 * `ldx [%o0]` in the loop and are issued just before its access.
 *
 * One LDX per 32-byte line over N = 256 lines (8 KB, fits L1D), R = 2
 * passes.  Iteration i prefetches line i + 2 with fcn 0 and line i + 3
 * with fcn 0x14 (the buffer holds N + 3 lines).
 *
 * Pass 1: iteration 0 fills lines 2 and 3; from iteration 1 on, line i + 2
 *   was filled by the previous iteration's fcn 0x14 prefetch: dropped
 *   (255), and line i + 3 is filled.  Loads: lines 0 (memory) and 1 (L3:
 *   same 64-byte L3 line) miss; lines 2..255 were prefetched and hit.
 * Pass 2: lines 2..258 are all in L1D: all 2N prefetches are dropped.
 *   SW_pref_drop_DC_hit = 255 + 512 = 767, Data_pref_* = 0,
 *   SW_prefetch = 4N = 1024, Instr_ld = 2N = 512,
 *   DC_miss_nospec = 2, DC_miss_L2_L3_hit_nospec = 1,
 *   DC_miss_local_hit_nospec = 1.
 */
#define N 256
#define R 2

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o2		! buffer base
	or	%o2, %lo(buf), %o2
	mov	R, %l0			! passes left
.Lpass:
	mov	%o2, %o0		! p = buf
	set	N, %o1			! lines left in this pass
.Lline:
	prefetch [%o0 + 64], 0		! line i + 2, #n_reads: to L1D
	prefetch [%o0 + 96], 20		! line i + 3, #n_reads_strong: to L1D
	ldx	[%o0], %o4		! donor of both
	subcc	%o1, 1, %o1
	bne,pt	%xcc, .Lline
	 add	%o0, 32, %o0		! next line
	subcc	%l0, 1, %l0
	bne,pt	%xcc, .Lpass
	 nop
	mov	1, %g1			! exit(0)
	clr	%o0
	ta	0x6d
	.size	_start, . - _start

	.bss
	.align	8192
buf:	.skip	(N + 3) * 32
