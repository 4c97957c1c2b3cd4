/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seq_small: sequential loads over 8 KB (fits L1D)
 *
 * Sequential 8-byte loads (LDX) over a 8192-byte .bss buffer (page
 * aligned), all four words of each 32-byte line in turn, repeated R times.
 * No stores, no stack.  Expected counts, their derivation and bounds:
 * docs/memory-validation.md; the figures are in workloads/mem/expected.txt.
 *
 * 8 KB fits the 16 KB L1D (and one 8 KB page): only the first pass
 * misses, once per 32-byte line (256 lines).  The L3 line is 64 bytes, so
 * the first line of each pair comes from memory and the second hits L3:
 *   DC_miss_nospec = 256, DC_miss_local_hit_nospec = 128,
 *   DC_miss_L2_L3_hit_nospec = 128; one DTLB fill after one fill trap.
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
#define BYTES 8192
#define R 8

#include "seq_loop.inc"
