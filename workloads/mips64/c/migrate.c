/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * migrate N T: N pages of 16 KB placed on one node, read from another
 * until they migrate there, then read through the old translations (the
 * SGI Origin with "migration_threshold": T, docs/origin-directory.md
 * "Migration"; issue 31).  Run with placement "spread": threads 1, 2, 3
 * on CPUs 2, 4, 6, one on each of nodes 1, 2, 3 (hvpmu_md_vcpu_strand);
 * the main thread is CPU 0, node 0.  Threads start and end one at a
 * time, their turns ordered by pipes (workloads/mips64/c/pingpong.c).
 *
 *   1. Thread 2 (CPU 4, node 2) loads line 0 of every 16 KB page of the
 *      buffer, in address order, whatever N: each page is homed on node 2
 *      (first touch), its frames consecutive, node 2's count of requests
 *      to it 1.  The first and last 16 KB are margins, never used after
 *      (docs/origin-directory.md "Micro-benchmarks").
 *   2. Thread 3 (CPU 6, node 3) loads lines 1 .. T + 3 of each of the N
 *      pages: T + 2 remote reads of unowned lines at node 2; after the
 *      last of them node 3's count (T + 2) exceeds node 2's (1) by more
 *      than T and the page migrates to node 3, CPUs 4 and 6 holding
 *      translations of the old page.  Line T + 3: CPU 6's translation is
 *      stale: a read at node 2 that finds the poisoned state (an error
 *      reply, 4 Hub cycles of the directory), then the read at node 3,
 *      local (CPU 6 is node 3's CPU 0).
 *   3. Thread 2 (CPU 4) loads line 127 of each page: poisoned at node 2
 *      (local: node 2's CPU 0), then a remote read at node 3.
 * So runs of N and 2N pages differ by exactly, per page, at node 2: set 3
 * reads T + 4; set 4 unowned T + 2, poisoned 2; set 1 response T + 2,
 * other replies 2; set 5 cpu0_reads 1; set 0 mem_dir_busy 16 (T + 2),
 * dir_busy 8; and at node 3: reads 2, unowned 2, response 2, cpu0_reads
 * 1, mem_dir_busy 32; nothing else (tests/integration/run_origin_migrate.sh).
 * Without migration the pages stay on node 2 and nothing is poisoned.
 * Exit status 0: the threads ran.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "turns.h"

#define LINE 128                    /* the R10000 secondary line */
#define PAGE 16384                  /* IRIX's page, the unit of placement and migration */
#define MAXN 256
#define MARGIN PAGE
#define SPAN (MARGIN + MAXN * PAGE + MARGIN)

static volatile char buf[SPAN] __attribute__((aligned(16384)));
static long n, t;

static long page(long i) { return MARGIN + i * PAGE; }

static void *thread(void *arg)
{
	long k = (long)arg, sum = 0;

	pass_turn(0); /* ready */
	wait_turn((int)k);
	if (k == 2) { /* 1: place every page on node 2 */
		for (long off = 0; off < SPAN; off += PAGE)
			sum += buf[off];
		pass_turn(0);
		wait_turn((int)k);
		for (long i = 0; i < n; i++) /* 3: through the old translations */
			sum += buf[page(i) + (PAGE - LINE)];
		pass_turn(0);
	} else if (k == 3) { /* 2: the remote reads that make the pages migrate */
		for (long i = 0; i < n; i++)
			for (long l = 1; l <= t + 3; l++)
				sum += buf[page(i) + l * LINE];
		pass_turn(0);
	} else {
		pass_turn(0);
	}
	wait_turn((int)k); /* exit one at a time, at the end */
	return sum ? (void *)1 : NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[4];
	void *r;
	long bad = 0;

	n = argc > 1 ? atol(argv[1]) : 16;
	t = argc > 2 ? atol(argv[2]) : 8;
	if (n < 1 || n > MAXN || t < 0 || t + 3 >= PAGE / LINE)
		return 2;
	for (int k = 0; k < 4; k++)
		if (pipe(to[k]))
			return 2;
	for (long k = 1; k < 4; k++) { /* one at a time: CPUs 2, 4, 6 in order */
		if (pthread_create(&th[k], NULL, thread, (void *)k))
			return 2;
		wait_turn(0);
	}
	pass_turn(1); /* thread 1 has nothing to do */
	wait_turn(0);
	pass_turn(2); /* 1 */
	wait_turn(0);
	pass_turn(3); /* 2 */
	wait_turn(0);
	pass_turn(2); /* 3 */
	wait_turn(0);
	for (int k = 1; k < 4; k++) {
		pass_turn(k);
		pthread_join(th[k], &r);
		bad += r != NULL;
	}
	return bad == 0 ? 0 : 1;
}
