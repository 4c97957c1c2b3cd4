/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cleanst N: N lines loaded, then stored, by one CPU: each store finds
 * its line clean exclusive in the secondary cache (the R10000's event 30,
 * "Store/prefetch exclusive to clean block in scache"; issue 31).
 *
 * Single-threaded (CPU 0, node 0).  The N lines are consecutive lines of a
 * buffer nothing else touches, never touched before: each load misses the secondary cache and the home Hub gives the
 * unowned line exclusive (docs/origin-directory.md "Requests and their
 * messages"), so the CPU holds it clean exclusive; the store that follows
 * makes it dirty without a message to the Hub (an upgrade of a
 * clean-exclusive line) and counts event 30 once; nothing else is stored
 * to those lines.  The loads and stores are 2N lines apart in time, all
 * within 4 MB (no line is evicted: the secondary cache is 4 MB 2-way).
 * So runs of N and 2N lines differ by exactly, on CPU 0: N events 30
 * (Store/prefetch_exclusive_to_clean_block_in_scache), 0 events 31 (no
 * line is shared), N secondary-cache misses of loads (event 26), 0
 * external interventions or invalidations (events 12, 13, 28, 29: no
 * other CPU); tests/integration/run_r10k_dir.sh.
 * Exit status 0: the stores were seen.
 */
#include <stdlib.h>

#define LINE 128  /* the R10000 secondary line */
#define MAXN 8192 /* 1 MB */

static volatile char buf[MAXN * LINE] __attribute__((aligned(16384)));

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 64, sum = 0;

	if (n < 1 || n > MAXN)
		return 2;
	for (long i = 0; i < n; i++)
		sum += buf[i * LINE]; /* unowned -> exclusive: held clean */
	for (long i = 0; i < n; i++)
		buf[i * LINE] = 1;    /* clean exclusive -> dirty: event 30 */
	for (long i = 0; i < n; i++)
		sum -= buf[i * LINE]; /* L1D or L2 hits of its own dirty lines */
	return sum == -n ? 0 : 1;
}
