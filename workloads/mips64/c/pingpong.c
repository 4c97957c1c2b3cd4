/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pingpong N: one 128-byte line handed between two threads, N turns each
 * (the SGI Origin's coherence micro-benchmark of issue 13).  Run with
 * the second thread on another node (placement "spread": CPU 2, node 1).
 * The turns are ordered by pipes, never by spinning: each thread touches
 * the line only after a read() that returns after the other thread's
 * write(), which it issues after its own access, so the model sees the
 * accesses in the order the program imposes (workloads/mem/share_loop.inc
 * explains why).  `line` is first touched by the main thread on CPU 0:
 * its page is homed on node 0.
 *
 * Per turn, line[0] = line[0] + 1 is a load (the other CPU owns the line:
 * a read-shared intervention at the home, the line becomes shared) and a
 * store (an upgrade: one invalidation of the other sharer).  So the
 * difference between runs of 2N and N turns per thread is, at node 0's
 * Hub, 2N invalidations and 2N read-shared interventions, and nothing at
 * the other nodes; a few turns (196 to 203 per 200 observed under host
 * load) find the line's state changed by the timing of the host threads
 * (the child's start runs while the main thread takes its first turns),
 * so the test's bound on both is 5 % (tests/integration/run_mdperf.sh,
 * docs/origin-directory.md "Determinism").  Built with -z now
 * (workloads/mips64/CMakeLists.txt): lazy binding made the interventions
 * vary by about 85 per run.
 * Exit status 0: the line counted 2N increments.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long line[16] __attribute__((aligned(128)));
static int to_child[2], to_main[2];
static long n;

static void *child(void *arg)
{
	char b;

	(void)arg;
	for (long i = 0; i < n; i++) {
		if (read(to_child[0], &b, 1) != 1)
			exit(3);
		line[0] = line[0] + 1;
		if (write(to_main[1], &b, 1) != 1)
			exit(3);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char b = 0;

	n = argc > 1 ? atol(argv[1]) : 100;
	line[0] = 0; /* first touch: CPU 0, node 0 */
	if (n < 1 || pipe(to_child) || pipe(to_main) || pthread_create(&t, NULL, child, NULL))
		return 2;
	for (long i = 0; i < n; i++) {
		line[0] = line[0] + 1;
		if (write(to_child[1], &b, 1) != 1 || read(to_main[0], &b, 1) != 1)
			return 3;
	}
	pthread_join(t, NULL);
	return line[0] == 2 * n ? 0 : 1;
}
