/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wideinv N: N lines read by 20 CPUs, then written by the first of them:
 * 19 invalidations per line, more than the home Hub's outgoing request
 * queue holds (MD_MOQ_SIZE: 18), so the home answers with a backoff and
 * the writer sends them itself (docs/origin-directory.md "Outgoing
 * queues"; issue 31).  Run on an Origin of 32 nodes with placement
 * "spread": guest thread k on node k (core 0), k < 32; the main thread
 * is thread 0 (CPU 0, node 0), threads 1-19 the readers (CPUs 2 .. 38,
 * nodes 1-19), thread 20 (CPU 40, node 20) places the buffer.
 *
 * As sharew.c: thread 20 touches the last line of every 8 KB of the
 * buffer in address order (its pages homed on node 20, home of nothing
 * else; the first and last 16 KB are margins); the threads start and end
 * one at a time; the turns are ordered by pipes.  Then, over the N lines
 * (the other 63 lines of each 8 KB):
 *   CPU 0 loads each line: unowned -> exclusive (CPU 0);
 *   CPU 2 loads each line: exclusive (other) -> shared {0, 2}: an
 *     intervention read-shared, its revision;
 *   CPUs 4 .. 38 load each line in turn: shared (18 reads);
 *   CPU 0 stores each line: an upgrade of a line shared with 19 other
 *     CPUs: the request queue cannot take 19 invalidations: a backoff
 *     reply, no invalidation from the home, then the ack.
 * So runs of N and 2N lines differ at node 20 by exactly, per line: set 3
 * reads 20, misc_req 1, revision_replies 1; set 4 unowned 1, excl_other
 * 1, shared 18; set 1 response 21, interv_inval 1 (the intervention),
 * backoff 1; set 2 interv_rdsh 1, inval 0; set 5 nothing; set 0
 * mem_dir_busy 19 * 16, dir_busy 2 * 4 (tests/integration/run_origin_backoff.sh).
 * Exit status 0: the main thread's final check sees its stores.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define READERS 19                  /* threads 1 .. 19 */
#define PLACER (READERS + 1)        /* thread 20 */
#define NT (PLACER + 1)
#define LINE 128
#define FRAME 8192
#define PER_FRAME (FRAME / LINE - 1)
#define MAXN 504
#define MARGIN (2 * FRAME)
#define SPAN (MARGIN + (MAXN + PER_FRAME - 1) / PER_FRAME * FRAME + MARGIN)

static volatile char buf[SPAN] __attribute__((aligned(16384)));
static long n;
static int to[NT][2]; /* to[k]: the turn of thread k */

static void wait_turn(int k)
{
	char b;

	if (read(to[k][0], &b, 1) != 1)
		exit(3);
}

static void pass_turn(int k)
{
	char b = 0;

	if (write(to[k][1], &b, 1) != 1)
		exit(3);
}

static long at(long i) { return MARGIN + i / PER_FRAME * FRAME + i % PER_FRAME * LINE; }

static long load_all(void)
{
	long sum = 0;

	for (long i = 0; i < n; i++)
		sum += buf[at(i)];
	return sum;
}

static void *thread(void *arg)
{
	long k = (long)arg, sum = 0;

	pass_turn(0); /* ready */
	wait_turn((int)k);
	if (k == PLACER) {
		for (long off = FRAME - LINE; off < SPAN; off += FRAME)
			sum += buf[off]; /* frames in order, homed on node 20 */
		pass_turn(0);
	} else {
		sum = load_all();
		pass_turn(k == READERS ? 0 : (int)k + 1); /* 1 -> 2 -> ... -> 19 -> main */
	}
	wait_turn((int)k); /* exit one at a time, at the end */
	return sum ? (void *)1 : NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NT];
	void *r;
	long bad = 0;

	n = argc > 1 ? atol(argv[1]) : 63;
	if (n < 1 || n > MAXN)
		return 2;
	for (int k = 0; k < NT; k++)
		if (pipe(to[k]))
			return 2;
	for (long k = 1; k < NT; k++) { /* one at a time, in order */
		if (pthread_create(&t[k], NULL, thread, (void *)k))
			return 2;
		wait_turn(0);
	}
	pass_turn(PLACER); /* the buffer placed */
	wait_turn(0);
	bad += load_all(); /* unowned -> exclusive */
	pass_turn(1);      /* the readers, in turn */
	wait_turn(0);
	for (long i = 0; i < n; i++)
		buf[at(i)] = 1; /* the upgrade: 19 invalidations, a backoff */
	for (int k = 1; k < NT; k++) {
		pass_turn(k);
		pthread_join(t[k], &r);
		bad += r != NULL;
	}
	return bad == 0 ? 0 : 1;
}
