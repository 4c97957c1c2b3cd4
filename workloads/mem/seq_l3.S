/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seq_l3: sequential loads over 1 MB (> L2, < L3)
 *
 * Sequential 8-byte loads (LDX) over a 1048576-byte .bss buffer (page
 * aligned), all four words of each 32-byte line in turn, repeated R times.
 * No stores, no stack.  Expected counts, their derivation and bounds:
 * docs/memory-validation.md; the figures are in workloads/mem/expected.txt.
 *
 * 1 MB exceeds the 128 KB L2 (64 buffer lines per 8-way L2 set, so LRU
 * evicts every line before it is reused) and fits the 4 MB L3 (4 buffer
 * lines per 16-way set): every pass misses L1D and L2 on all 32768 lines;
 * pass 1 takes half of them from memory, later passes hit L3.  The
 * buffer is 128 pages: exactly the DTLB's 128 entries, so the DTLB
 * misses only on first touch.
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
#define BYTES 1048576
#define R 3

#include "seq_loop.inc"
