/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seq_l2: sequential loads over 64 KB (> L1D, < L2)
 *
 * Sequential 8-byte loads (LDX) over a 65536-byte .bss buffer (page
 * aligned), all four words of each 32-byte line in turn, repeated R times.
 * No stores, no stack.  Expected counts, their derivation and bounds:
 * docs/memory-validation.md; the figures are in workloads/mem/expected.txt.
 *
 * 64 KB exceeds the 16 KB L1D but fits the 128 KB L2: pass 1 misses L1D
 * on all 2048 lines (1024 from memory, 1024 from L3: 64-byte L3 lines),
 * every later pass misses L1D on all 2048 lines and hits L2 (LRU over a
 * sequential sweep four times the L1D size keeps nothing).  No L2 line is
 * ever evicted (4 buffer lines per 8-way L2 set).
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
#define BYTES 65536
#define R 4

#include "seq_loop.inc"
