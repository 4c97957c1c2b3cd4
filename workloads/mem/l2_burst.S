/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * l2_burst: the request buffers of docs/memory-model.md "L2 buffers"
 * (TABLE 10-2 sl=21 0x02, sl=24 0x10 / 0x20), one straight-line block (one
 * translation block: no branch before the exit).  Derivation in
 * docs/memory-validation.md (q).  Run without the kernel path
 * (nokernel.json): the exit's modeled kernel accesses would add misses.
 *
 * A. `ldx [%o0]` (the donor, line 0 of an untouched page: memory, 379
 *    cycles charged) then K = 40 prefetches #one_read (fcn 1: L2 only) of
 *    the lines at 64-byte steps 1..K (each its own L3 line: every one
 *    misses L2 and L3), one per cycle.  Every earlier miss-buffer entry
 *    is released by then (each is held at most 359 cycles, the donor's
 *    own miss separates them by 379).  Prefetches 1..16 take the 16 L2
 *    miss-buffer entries (held 359 cycles: L3 45 + memory 314) and count
 *    Data_pref_hit_local; prefetches 17..K find it full: dropped,
 *    Data_pref_drop_L2 = L2_miss_buf_full = K - 16 = 24.
 * B. `ldx [%o0 + 64 (K + 1)]`, an untouched line, one cycle after the last
 *    prefetch: the miss buffer is still full (the first entry is released
 *    359 - K = 319 cycles later): L2_miss_buf_full + 1, L2_pipe_stall 1;
 *    the load waits for that entry.
 * C. K stores `stx %g0, [%o1 + 64 k]` (k = 0..K-1, %o1 = %o0 + 4096, same
 *    page) to untouched lines, 720 + cycles after B (all entries
 *    released): the store buffer spaces them 1 then 2 cycles apart, all
 *    within 359 cycles: stores 1..16 take the entries, 17..K find the
 *    buffer full and are held back (not dropped): L2_miss_buf_full and
 *    L2_pipe_stall + K - 16.
 * Totals: L2_miss_buf_full = 2 (K - 16) + 1 = 49,
 *   L2_pipe_stall = K - 16 + 1 = 25, Data_pref_drop_L2 = 24,
 *   Data_pref_hit_local = 16, St_local = K = 40, DC_miss_local_hit_nospec = 2,
 *   L2_fill_buf_full = L2_wb_buf_full = Data_pref_drop_L3 =
 *   SW_pref_drop_buffer_full = 0 (one strand: fills arrive a cycle apart,
 *   4-cycle holds; no dirty victims; 16 < 32 L3 entries).
 */
	.text
	.align	64
	.globl	_start
	.type	_start, #function
_start:
	sethi	%hi(buf), %o0		! page-aligned buffer
	or	%o0, %lo(buf), %o0
	sethi	%hi(4096), %o1
	add	%o0, %o1, %o1		! store region: buf + 4096
	ldx	[%o0], %o4		! A: the donor, line 0
	prefetch [%o0 + 64], 1		! #one_read: L2 only
	prefetch [%o0 + 128], 1
	prefetch [%o0 + 192], 1
	prefetch [%o0 + 256], 1
	prefetch [%o0 + 320], 1
	prefetch [%o0 + 384], 1
	prefetch [%o0 + 448], 1
	prefetch [%o0 + 512], 1
	prefetch [%o0 + 576], 1
	prefetch [%o0 + 640], 1
	prefetch [%o0 + 704], 1
	prefetch [%o0 + 768], 1
	prefetch [%o0 + 832], 1
	prefetch [%o0 + 896], 1
	prefetch [%o0 + 960], 1
	prefetch [%o0 + 1024], 1
	prefetch [%o0 + 1088], 1
	prefetch [%o0 + 1152], 1
	prefetch [%o0 + 1216], 1
	prefetch [%o0 + 1280], 1
	prefetch [%o0 + 1344], 1
	prefetch [%o0 + 1408], 1
	prefetch [%o0 + 1472], 1
	prefetch [%o0 + 1536], 1
	prefetch [%o0 + 1600], 1
	prefetch [%o0 + 1664], 1
	prefetch [%o0 + 1728], 1
	prefetch [%o0 + 1792], 1
	prefetch [%o0 + 1856], 1
	prefetch [%o0 + 1920], 1
	prefetch [%o0 + 1984], 1
	prefetch [%o0 + 2048], 1
	prefetch [%o0 + 2112], 1
	prefetch [%o0 + 2176], 1
	prefetch [%o0 + 2240], 1
	prefetch [%o0 + 2304], 1
	prefetch [%o0 + 2368], 1
	prefetch [%o0 + 2432], 1
	prefetch [%o0 + 2496], 1
	prefetch [%o0 + 2560], 1
	ldx	[%o0 + 2624], %o5	! B: the miss buffer is full
	stx	%g0, [%o1 + 0]
	stx	%g0, [%o1 + 64]
	stx	%g0, [%o1 + 128]
	stx	%g0, [%o1 + 192]
	stx	%g0, [%o1 + 256]
	stx	%g0, [%o1 + 320]
	stx	%g0, [%o1 + 384]
	stx	%g0, [%o1 + 448]
	stx	%g0, [%o1 + 512]
	stx	%g0, [%o1 + 576]
	stx	%g0, [%o1 + 640]
	stx	%g0, [%o1 + 704]
	stx	%g0, [%o1 + 768]
	stx	%g0, [%o1 + 832]
	stx	%g0, [%o1 + 896]
	stx	%g0, [%o1 + 960]
	stx	%g0, [%o1 + 1024]
	stx	%g0, [%o1 + 1088]
	stx	%g0, [%o1 + 1152]
	stx	%g0, [%o1 + 1216]
	stx	%g0, [%o1 + 1280]
	stx	%g0, [%o1 + 1344]
	stx	%g0, [%o1 + 1408]
	stx	%g0, [%o1 + 1472]
	stx	%g0, [%o1 + 1536]
	stx	%g0, [%o1 + 1600]
	stx	%g0, [%o1 + 1664]
	stx	%g0, [%o1 + 1728]
	stx	%g0, [%o1 + 1792]
	stx	%g0, [%o1 + 1856]
	stx	%g0, [%o1 + 1920]
	stx	%g0, [%o1 + 1984]
	stx	%g0, [%o1 + 2048]
	stx	%g0, [%o1 + 2112]
	stx	%g0, [%o1 + 2176]
	stx	%g0, [%o1 + 2240]
	stx	%g0, [%o1 + 2304]
	stx	%g0, [%o1 + 2368]
	stx	%g0, [%o1 + 2432]
	stx	%g0, [%o1 + 2496]
	mov	1, %g1			! exit(0)
	clr	%o0
	ta	0x6d
	.size	_start, . - _start

	.bss
	.align	8192
buf:	.skip	8192
