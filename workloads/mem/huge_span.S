/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * huge_span: R = 4 passes of one LDX at offset 0 of each of the P = 1024
 * 8 KB pages of an 8 MB-aligned 8 MB of anonymous memory that the program
 * madvise(MADV_HUGEPAGE)s (huge_span_loop.inc).  The plugin maps it with
 * two 4 MB pages (src/source/linux_mm.h: sparc64 Linux HPAGE_SIZE 8 MB of
 * two REAL_HPAGE 4 MB TTEs).
 *
 * DTLB: the first load in each 4 MB page misses; the walk finds no TSB
 * entry (the 4 MB TSB is empty), the fill trap writes it, the retry fills
 * the DTLB: DTLB_fill_4MB = 2, DTLB_fill_trap = 2, DTLB_fill_8KB = 0 (the
 * program touches no other data).  Two entries stay in the 128-entry DTLB
 * for all later loads.  Instr_ld = R * P.
 * The counterpart without madvise is span8m.S (docs/memory-validation.md).
 */
#define ADVISE 1
#define R 4
#include "huge_span_loop.inc"
