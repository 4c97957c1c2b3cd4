/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * share_pingpong: two threads sharing a line on one chip (T4-1), run with
 * `hvpmu stat --placement spread` so the child thread runs on core 1
 * (strand 8) and the main thread on core 0 (strand 0).  Body:
 * share_loop.inc (turns handed over through pipes); N = 500 turns per
 * thread.  Coherence model: docs/coherence-model.md; derivation:
 * docs/memory-validation.md "Two threads sharing a line".  Whole-program
 * counts, exact:
 *
 *   St_hit_L2         = 2N          each T store upgrades a line its core
 *                                   just read (Shared -> Modified)
 *   St_L2_local_C2C   = 2N - 1      each D store but the first finds D
 *                                   Modified in the other core's L2
 *   St_local          = 1           the first D store (cold line)
 *   DC_snoop_invalid  = 2N - 1      every T store but main's first drops
 *                                   the other core's L1D copy of T
 *   DC_miss_L2_L3_hit_nospec = 2N   T read from the other core's L2 (C2C):
 *                                   main N - 1 turns + its final read,
 *                                   child N turns
 *   DC_miss_local_hit_nospec = 2    the cold misses of T and tid
 *   IC_snoop_invalid  = 0           no store to code
 *   Instr_st          = 4N          two stores per turn
 */
#define N 500
#include "share_loop.inc"
