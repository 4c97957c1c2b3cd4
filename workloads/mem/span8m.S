/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * span8m: huge_span.S without the madvise: the same R = 4 passes over the
 * P = 1024 8 KB pages of an 8 MB-aligned 8 MB of anonymous memory, mapped
 * with 8 KB pages (huge_span_loop.inc).
 *
 * DTLB (128 entries, LRU): P > 128, so every load misses in every pass
 * (each pass evicts the pages of the pass before in order).  Pass 1: per
 * page the walk finds no TSB entry, the fill trap writes it, the retry
 * fills: P traps, P fills.  Passes 2..R: the 8 KB TSB (8192 entries, one
 * per page here) holds every page: one walk and one fill per load.
 *   DTLB_fill_8KB = R * P = 4096, DTLB_fill_trap = P = 1024,
 *   DTLB_fill_4MB = 0, Instr_ld = R * P.
 * (docs/memory-validation.md)
 */
#define ADVISE 0
#define R 4
#include "huge_span_loop.inc"
