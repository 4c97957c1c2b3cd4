/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * share_2chip: share_pingpong across chips: `hvpmu stat -p t4-2
 * --placement spread` puts the child on chip 1 (strand 64); every line of
 * the program is homed on chip 0 (node-contiguous homes, docs/coherence-
 * model.md).  Body: share_loop.inc; N = 500.  Derivation:
 * docs/memory-validation.md "Two threads sharing a line".  Counts, exact:
 *
 *   St_hit_L2          = 2N
 *   St_L2_remote_C2C   = 2N - 1     D moves between the chips' L2s
 *   St_L2_local_C2C    = 0
 *   St_local           = 1          main's first D store (home chip 0)
 *   DC_snoop_invalid   = 2N - 1
 *   DC_miss_remote_L3_hit_nospec = 2N   the C2C reads of T, now across chips
 *   DC_miss_local_hit_nospec     = 2    the cold misses of T and tid (main,
 *                                   chip 0 = their home)
 *   DC_miss_L2_L3_hit_nospec     = 0
 */
#define N 500
#include "share_loop.inc"
