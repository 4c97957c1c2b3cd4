/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spin N: pingpong.c's line handed between two threads N turns each, the
 * turns handed over by spinning on the line instead of through pipes: the
 * threads synchronize through memory only, as spinning code on the real
 * machine does (issue 27, "Threads as the machine runs them").  Run with
 * the second thread on another node (placement "spread").  Per turn the
 * waiting thread's load of the line finds it exclusive at the other node
 * (a read-shared intervention at the home, node 0) and its store
 * invalidates the other copy (one invalidation), so runs of N and 2N
 * differ by 2N of each at node 0 -- on a model that runs the threads in
 * modeled time; today's does not (bench/threads-spin.sh measures it).
 * Exit status 0: the line counted 2N turns.
 */
#include <pthread.h>
#include <stdlib.h>

static volatile long line[16] __attribute__((aligned(128)));
static long n;

static void turns(long first)
{
	for (long t = first; t < 2 * n; t += 2) {
		while (__atomic_load_n(&line[0], __ATOMIC_ACQUIRE) != t)
			;
		__atomic_store_n(&line[0], t + 1, __ATOMIC_RELEASE);
	}
}

static void *child(void *arg)
{
	(void)arg;
	turns(1);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	n = argc > 1 ? atol(argv[1]) : 100;
	line[0] = 0; /* first touch: CPU 0, node 0 */
	if (n < 1 || pthread_create(&t, NULL, child, NULL))
		return 2;
	turns(0);
	pthread_join(t, NULL);
	return line[0] == 2 * n ? 0 : 1;
}
