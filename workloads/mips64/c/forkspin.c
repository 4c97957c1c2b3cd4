/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forkspin N: spin.c's two threads hand a line back and forth N turns
 * each, and halfway the main thread forks a child that exits at once
 * (issue 27: a fork -- QEMU's exclusive section -- while the other thread
 * waits for its turn outside QEMU's execution loop).  Exit status 0: the
 * line counted 2N turns and the child exited 0.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long line[16] __attribute__((aligned(128)));
static long n;

static int turns(long first, int fork_half)
{
	int status = 0;

	for (long t = first; t < 2 * n; t += 2) {
		while (__atomic_load_n(&line[0], __ATOMIC_ACQUIRE) != t)
			;
		if (fork_half && t == n - n % 2) { /* the main thread's turn halfway */
			pid_t c = fork();

			if (c == 0)
				_exit(0);
			if (c < 0 || waitpid(c, &status, 0) != c || status != 0)
				return -1;
		}
		__atomic_store_n(&line[0], t + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

static void *child(void *arg)
{
	(void)arg;
	turns(1, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	n = argc > 1 ? atol(argv[1]) : 100;
	if (n < 2 || pthread_create(&t, NULL, child, NULL))
		return 2;
	if (turns(0, 1))
		return 3;
	pthread_join(t, NULL);
	return line[0] == 2 * n ? 0 : 1;
}
