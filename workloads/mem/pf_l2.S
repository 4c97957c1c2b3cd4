/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pf_l2: software prefetches destined for L2 (TABLE 10-2 sl=21) and
 * dropped at the D-cache (sl=18 0x02); the prefetch address is recovered
 * from an EARLIER donor (docs/prefetch-model.md).
 *
 * One LDX per 32-byte line over N = 256 lines (8 KB, fits L1D), R = 2
 * passes; each iteration also prefetches, with #one_read (fcn 1: L2 only),
 * the line D = 16 ahead: `prefetch [%o0 + 512]` after `ldx [%o0]` (the
 * donor: same base %o0, not written in between; address = donor + 512).
 * The page-aligned buffer holds N + D lines.  The prologue's
 * `prefetch [%o3]` has no donor (%o3 is written just before it and used
 * by no data access): it is unresolved and not modeled -- if it were
 * issued it would count once more in sl=21.
 *
 * Pass 1: prefetches of lines 16..271 miss L1D and L2 (never touched);
 *   the 64-byte L3 line of an even line comes from memory, the odd line
 *   after it hits L3: Data_pref_hit_local = 128, Data_pref_hit_L3 = 128.
 *   Loads: lines 0..15 miss L1D and L2 (8 from memory, 8 hit L3), lines
 *   16..255 miss L1D and hit L2 (prefetched): 256 misses, 8 local.
 * Pass 2: lines 16..255 are in L1D (loaded in pass 1): their prefetches
 *   are dropped, SW_pref_drop_DC_hit = 240; lines 256..271 are in L2 only:
 *   Data_pref_hit_L2 = 16.  Loads all hit L1D.
 *   SW_prefetch = 2N + 1 = 513, Instr_ld = 2N = 512,
 *   DC_miss_nospec = 256, DC_miss_L2_L3_hit_nospec = 248,
 *   DC_miss_local_hit_nospec = 8.
 */
#define N 256
#define R 2
#define D 16

	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o2		! buffer base
	or	%o2, %lo(buf), %o2
	add	%o2, 64, %o3
	prefetch [%o3], 1		! unresolved: no donor uses %o3
	mov	R, %l0			! passes left
.Lpass:
	mov	%o2, %o0		! p = buf
	set	N, %o1			! lines left in this pass
.Lline:
	ldx	[%o0], %o4		! donor
	prefetch [%o0 + D * 32], 1	! line D ahead, #one_read: to L2
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
buf:	.skip	(N + D) * 32
