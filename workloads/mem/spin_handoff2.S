/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spin_handoff2: two threads hand a line back and forth by spinning on it
 * (spin_loop.inc), N = 1000 turns per thread; run with `hvpmu stat
 * --placement spread` so the child runs on core 1.  The difference of
 * its counts and those of spin_handoff is N = 500 turns per thread.
 */
#define N 1000
#include "spin_loop.inc"
