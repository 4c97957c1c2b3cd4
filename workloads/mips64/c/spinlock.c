/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spinlock K: four threads take one ticket spinlock in turn, K times each
 * (issue 27): thread i takes tickets i, i + 4, i + 8, ..., so the lock
 * passes 0 -> 1 -> 2 -> 3 -> 0 ...; under it each adds one to a counter
 * in the lock's line.  Synchronization through memory only (LL/SC and
 * loads), no system call in the loop.  Exit status 0: the counter is 4K.
 */
#include <pthread.h>
#include <stdlib.h>

#define NT 4
static volatile long lock[16] __attribute__((aligned(128))); /* [0] now serving, [1] the counter */
static long k;

static void *worker(void *arg)
{
	long me = (long)arg;

	for (long r = 0; r < k; r++) {
		long ticket = r * NT + me;

		while (__atomic_load_n(&lock[0], __ATOMIC_ACQUIRE) != ticket)
			;
		lock[1] = lock[1] + 1;
		__atomic_store_n(&lock[0], ticket + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NT];

	k = argc > 1 ? atol(argv[1]) : 100;
	if (k < 1)
		return 2;
	for (long i = 1; i < NT; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 2;
	worker((void *)0);
	for (long i = 1; i < NT; i++)
		pthread_join(t[i], NULL);
	return lock[1] == NT * k ? 0 : 1;
}
