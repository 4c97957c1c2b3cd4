/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sharew N: N lines read by three CPUs, then written by the first of them:
 * the directory's shared -> exclusive transition (the SGI Origin
 * micro-benchmark of issue 13).  Run with placement "spread": threads 1,
 * 2, 3 on CPUs 2, 4, 6, one on each of nodes 1, 2, 3
 * (hvpmu_md_vcpu_strand); the main thread is CPU 0, node 0.
 *
 * Thread 3 (CPU 6) only places the buffer: it touches the last line of
 * every 8 KB of it, in address order.  hvpmu's frames are 8 KB, assigned
 * in touch order (docs/tlb-model.md "Physical addresses"), and a 16 KB
 * page is homed on the node of the first CPU that touches it
 * (docs/origin-directory.md "Placement"): node 3, but for the first and
 * last 16 KB, which may share a physical page with a frame of another
 * thread (margins, never used).  Always the whole buffer, whatever N:
 * these touches cancel between runs.  The N lines are the other 63 lines
 * of each 8 KB between the margins, never touched before.  Node 3 is the
 * home of nothing else the other threads use, so its Hub sees the
 * benchmark alone (node 0, home of the program and its C library, also
 * sees their traffic, which varies with the host's timing of the
 * threads).  Thread 3 is the last one created, so that the C library's
 * thread start was run (and its pages homed) before it; and the threads
 * start one at a time and end one at a time after the turns: a page the
 * C library of a starting or ending thread touches first is homed on its
 * node, and which thread comes first must not depend on the host.
 *
 * Then, in turn (ordered by pipes, never by spinning:
 * workloads/mips64/c/pingpong.c), over all N lines:
 *   CPU 0 loads each line:  unowned -> exclusive (CPU 0): a read, state
 *                           unowned, a response;
 *   CPU 2 loads each line:  exclusive (other) -> shared {0, 2}: a read,
 *                           state excl_other, a response, an intervention
 *                           read-shared to CPU 0 (interv_rdsh, and one
 *                           intervention/invalidate message), CPU 0's
 *                           revision reply;
 *   CPU 4 loads each line:  shared -> shared {0, 2, 4}: a read, state
 *                           shared, a response;
 *   CPU 0 stores each line: it holds the line clean, so an upgrade:
 *                           shared -> exclusive (CPU 0), a miscellaneous
 *                           request, two invalidations (CPUs 2 and 4), an
 *                           ack (a response).
 * So runs of N and 2N lines differ at node 3 by exactly, per line: 3 reads,
 * 1 misc_req, 1 revision_replies (set 3); 1 unowned, 1 excl_other, 1
 * shared (set 4); 4 responses, 3 interv_inval (set 1); 2 inval, 1
 * interv_rdsh (set 2); no local request (set 5: only CPUs of other nodes
 * touch the lines); 2 * 16 Hub cycles of mem_dir_busy (set 0: the two
 * reads memory serves) (tests/integration/run_mdperf_micro.sh, which
 * also explains the NACKs).
 * Exit status 0: the main thread's final check sees its stores (its own
 * dirty lines: no request).
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "turns.h"

#define LINE 128                     /* the R10000 secondary line */
#define FRAME 8192                   /* hvpmu's frame */
#define PER_FRAME (FRAME / LINE - 1) /* lines of a frame the turns use */
#define MAXN 504
#define MARGIN (2 * FRAME)           /* 16 KB: IRIX's page */
#define SPAN (MARGIN + (MAXN + PER_FRAME - 1) / PER_FRAME * FRAME + MARGIN)

static volatile char buf[SPAN] __attribute__((aligned(16384)));
static long n;

/* Offset of the i-th line: lines 0..62 of each 8 KB after the margin. */
static long at(long i)
{
	return MARGIN + i / PER_FRAME * FRAME + i % PER_FRAME * LINE;
}

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
	if (k == 3) {
		for (long off = FRAME - LINE; off < SPAN; off += FRAME)
			sum += buf[off]; /* frames in order, homed on node 3 */
		pass_turn(0);
	} else {
		sum = load_all();
		pass_turn(k == 1 ? 2 : 0); /* 1 -> 2 -> main */
	}
	wait_turn((int)k); /* exit one at a time, at the end: see the top */
	return sum ? (void *)1 : NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	void *r;
	long bad = 0;

	n = argc > 1 ? atol(argv[1]) : 63;
	if (n < 1 || n > MAXN)
		return 2;
	for (int k = 0; k < 4; k++)
		if (pipe(to[k]))
			return 2;
	for (long k = 1; k < 4; k++) { /* one at a time: CPUs 2, 4, 6 in order */
		if (pthread_create(&t[k], NULL, thread, (void *)k))
			return 2;
		wait_turn(0);
	}
	pass_turn(3); /* thread 3 places the buffer */
	wait_turn(0);
	bad += load_all(); /* unowned -> exclusive */
	pass_turn(1);      /* CPU 2, then CPU 4, load */
	wait_turn(0);
	for (long i = 0; i < n; i++)
		buf[at(i)] = 1; /* the upgrade: shared -> exclusive */
	for (int k = 1; k < 4; k++) {
		pass_turn(k);
		pthread_join(t[k], &r);
		bad += r != NULL;
	}
	return bad == 0 && load_all() == n ? 0 : 1;
}
