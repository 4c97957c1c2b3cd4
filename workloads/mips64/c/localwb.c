/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * localwb A B: local reads and writebacks of the two CPUs of one node
 * (the SGI Origin micro-benchmark of issue 13).  Run with the default
 * placement "pack": thread i on CPU i, so threads 2 and 3 run on CPUs 2
 * and 3, node 1's CPU 0 and CPU 1 (hvpmu_md_vcpu_strand; thread 1, on
 * CPU 1, only waits).  Node 0, home of the program and of its C library,
 * would also see their traffic, which varies with the host's timing of
 * the threads; node 1 is home of what threads 2 and 3 first touch, which
 * the others never use.  The threads start one at a time and end one at
 * a time after the work, so that no page the C library touches then is
 * homed on a node that depends on which thread the host ran first.
 *
 * Threads 2 and 3, in turn (ordered by pipes, never by spinning:
 * workloads/mips64/c/pingpong.c), each in a region of its own:
 *  1. touch the last line of every 8 KB of the region, in address order:
 *     hvpmu's frames are 8 KB, assigned in touch order (docs/tlb-model.md
 *     "Physical addresses"), so the region is physically contiguous and
 *     homed on node 1 (first touch, docs/origin-directory.md
 *     "Placement"), but for its first and last 16 KB, which may share a
 *     physical 16 KB page with a frame of another thread (margins, never
 *     used).  Always the whole region, whatever A and B: these touches
 *     cancel between runs.
 *  2. store to K lines a_i (A lines for CPU 2, B for CPU 3), never touched
 *     before (the other 63 lines of each 8 KB), then load the lines
 *     b_i = a_i + 2 MB, then c_i = a_i + 4 MB.  The R10000's secondary
 *     cache here is 4 MB, 2-way, 128-byte lines (md.c origin_memory):
 *     lines 2 MB apart in physical memory share a set, so c_i evicts a_i,
 *     the least recently used of {a_i, b_i}, which is dirty: one
 *     writeback, after which the directory has a_i unowned.  Set bits
 *     0-5 of the lines of step 1 are 63, never those of the a, b and c
 *     lines.
 *  3. load the lines a_i again (the check): reads of unowned lines, each
 *     evicting the clean b_i (no message).
 * Per line, node 1's Hub sees 4 local requests of unowned lines (a
 * read-exclusive, three reads), each served by memory, and one writeback,
 * from the thread's CPU.  So runs of (A, B) and (2A, 2B) differ at node 1
 * by exactly: cpu0_reads 4A, cpu0_wb A, cpu1_reads 4B, cpu1_wb B (set 5);
 * reads 4(A + B) and write_replies A + B (set 3); unowned 4(A + B) (set
 * 4); responses 4(A + B) and wb_acks A + B (set 1); mem_dir_busy
 * 16 * 5(A + B) Hub cycles (set 0); nothing else, and nothing at nodes 2
 * and 3 (tests/integration/run_mdperf_micro.sh).
 * Exit status 0: the stored lines read back as stored.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "turns.h"

#define LINE 128                   /* the R10000 secondary line */
#define FRAME 8192                 /* hvpmu's frame */
#define WAY (2L << 20)             /* 4 MB 2-way secondary cache: a set every 2 MB */
#define PER_FRAME (FRAME / LINE - 1) /* lines of a frame used by step 2 */
#define MAXK 512
#define SPAN ((MAXK + PER_FRAME - 1) / PER_FRAME * FRAME)
#define MARGIN (2 * FRAME)           /* 16 KB: IRIX's page */
#define REGION (MARGIN + 2 * WAY + SPAN + MARGIN)

static volatile char region[2][REGION] __attribute__((aligned(16384)));
static long lines[2]; /* lines of CPU 2 and CPU 3 */

/* Offset of the i-th line of step 2: lines 0..62 of each 8 KB after the margin. */
static long at(long i)
{
	return MARGIN + i / PER_FRAME * FRAME + i % PER_FRAME * LINE;
}

/* Steps 1-3 in region `which` (0: CPU 2, 1: CPU 3); returns -K. */
static long run(int which)
{
	volatile char *r = region[which];
	long k = lines[which], sum = 0;

	for (long off = FRAME - LINE; off < REGION; off += FRAME)
		sum += r[off]; /* step 1: frames in address order */
	for (long i = 0; i < k; i++)
		r[at(i)] = 1; /* a read-exclusive of an unowned line; dirty */
	for (long i = 0; i < k; i++)
		sum += r[WAY + at(i)]; /* b_i: a read; a_i, b_i fill the set */
	for (long i = 0; i < k; i++)
		sum += r[2 * WAY + at(i)]; /* c_i: a read; a_i is written back */
	for (long i = 0; i < k; i++)
		sum -= r[at(i)]; /* step 3: a read of an unowned line */
	return sum;
}

static void *thread(void *arg)
{
	long k = (long)arg, sum = 0;

	pass_turn(0); /* ready */
	if (k >= 2) { /* CPU 2 or 3: its turn */
		wait_turn((int)k);
		sum = run((int)k - 2) + lines[k - 2];
		pass_turn(0);
	}
	wait_turn((int)k); /* exit one at a time, at the end: see the top */
	return sum ? (void *)1 : NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	void *r;
	long bad = 0;

	lines[0] = argc > 1 ? atol(argv[1]) : 64;
	lines[1] = argc > 2 ? atol(argv[2]) : 64;
	if (lines[0] < 1 || lines[0] > MAXK || lines[1] < 1 || lines[1] > MAXK)
		return 2;
	for (int k = 0; k < 4; k++)
		if (pipe(to[k]))
			return 2;
	for (long k = 1; k < 4; k++) { /* one at a time: CPUs 1, 2, 3 in order */
		if (pthread_create(&t[k], NULL, thread, (void *)k))
			return 2;
		wait_turn(0);
	}
	pass_turn(2); /* CPU 2 (node 1's CPU 0), then CPU 3 (its CPU 1) */
	wait_turn(0);
	pass_turn(3);
	wait_turn(0);
	for (int k = 1; k < 4; k++) {
		pass_turn(k);
		pthread_join(t[k], &r);
		bad += r != NULL;
	}
	return bad ? 1 : 0;
}
