/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipefill: a thread writes 1 MiB into a pipe that the main thread of the
 * same process reads (issue 27, threads in turns: docs/event-source.md
 * "Turns").  The pipe holds 64 KiB, so the writer blocks in write() until
 * the reader has made room: a thread that kept its turn while it sleeps
 * in write() would stop every other thread for good.  The reader sums the
 * bytes; exit status 0 when it read all of them, with the right sum.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define TOTAL (1 << 20)
#define CHUNK 4096

static int fd[2];

static void *writer(void *arg)
{
	static unsigned char buf[CHUNK];

	(void)arg;
	for (int i = 0; i < CHUNK; i++)
		buf[i] = (unsigned char)i;
	for (long done = 0; done < TOTAL;) {
		ssize_t n = write(fd[1], buf, CHUNK);

		if (n <= 0)
			exit(3);
		done += n;
	}
	close(fd[1]);
	return NULL;
}

int main(void)
{
	static unsigned char buf[CHUNK];
	pthread_t t;
	long got = 0, sum = 0;
	ssize_t n;

	if (pipe(fd) || pthread_create(&t, NULL, writer, NULL))
		return 2;
	while ((n = read(fd[0], buf, sizeof buf)) > 0) {
		got += n;
		for (ssize_t i = 0; i < n; i++)
			sum += buf[i];
	}
	pthread_join(t, NULL);
	/* each 4096-byte chunk holds 0..255 sixteen times */
	return got == TOTAL && sum == (long)(TOTAL / CHUNK) * 16 * (255 * 256 / 2) ? 0 : 1;
}
