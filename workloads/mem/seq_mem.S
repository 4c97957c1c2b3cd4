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

#include "seq_loop.inc"
