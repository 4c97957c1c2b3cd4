/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tlb_span100: one LDX at offset 0 of each of P = 100 consecutive 8 KB pages of a
 * page-aligned .bss buffer, R = 4 passes.  The DTLB has 128 entries, fully
 * associative, LRU; the TSB (8192 entries, one per page) never conflicts
 * here.
 *
 * Pass 1 touches each page first: per page two tablewalks (the first
 * finds no TSB entry, a fill trap writes it, the retry fills the TLB), so
 * P fill traps, P fills, 2P tablewalk references.
 * P <= 128: later passes hit the DTLB.
 *   DTLB_fill_8KB = DTLB_fill_trap = P, DTLB_HWTW_all = DTLB_miss_asynch = 2P
 * Caches: every load is to offset 0 of a page, so all map to L1D set 0
 * (P > 4 lines: every load misses L1D) and to two L2 sets (P/2 > 8 lines
 * each: every load misses L2); the L3 holds them (32 sets, <= 7 each).
 *   DC_miss_nospec = R*P, DC_miss_local_hit_nospec = P (pass 1),
 *   DC_miss_L2_L3_hit_nospec = (R-1)*P
 * (docs/memory-validation.md).
 *
 * Code: P1-P4 once; per pass mov, mov P, the page loop (ldx, subcc,
 * bne,pt, add) P times, subcc, bne,pt, nop; E1-E3.  Instr_ld = R*P.
 */
#define P 100
#define R 4

#include "tlb_span_loop.inc"
