/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * remote N: a stream of reads over memory homed on another node (the SGI
 * Origin micro-benchmark of issue 13).  Run with placement "spread", so
 * that the second thread runs on CPU 2, node 1 (hvpmu_md_vcpu_strand).
 *
 * The child (CPU 2) first-touches N + 2 pages of 16 KB with one store to
 * the first line of each 8 KB half: IRIX homes a 16 KB page on the node
 * of the first CPU that touches it (docs/origin-directory.md
 * "Placement"), and hvpmu's frames are 8 KB, assigned in touch order
 * (docs/tlb-model.md "Physical addresses"), so one store per 8 KB both
 * gives the buffer consecutive frames and homes every 16 KB of them on
 * node 1 under either page size.  Only the first 16 KB may share its
 * physical page with a frame touched earlier by another thread: the
 * margin pages 0 and N + 1 are touched but never read.  Then the main
 * thread (CPU 0, node 0) reads the other 126 lines of pages 1..N, each
 * once, one byte per 128-byte line: lines nobody holds (unowned), which
 * node 1's memory serves to a remote CPU.
 *
 * So per page, node 1's Hub sees the child's 2 read-exclusives of
 * unowned lines (local: CPU 2 is node 1's CPU 0) and the main thread's
 * 126 reads of unowned lines (remote: not in node 1's set 5), all served
 * by memory, and the check's 2 interventions (below).  Runs of N and 2N
 * pages differ at node 1 by exactly 130 N reads and 2 N revision_replies
 * (set 3), 128 N unowned and 2 N excl_other (set 4), 130 N responses and
 * 2 N interv_inval (set 1), 2 N interv_rdsh (set 2), 2 N cpu0_reads (set
 * 5), 128 N * 16 Hub cycles of mem_dir_busy and 2 N * 4 of dir_busy (set
 * 0), and nothing else (tests/integration/run_mdperf_micro.sh).  The turns are
 * ordered by pipes, never by spinning (workloads/mips64/c/pingpong.c);
 * the child ends when told, while the main thread waits for it, so that
 * no page the C library touches is homed on node 1 or node 0 depending on
 * which thread the host ran first.  Last, the main thread reads back the
 * 2 lines per page the child stored to (the check): lines CPU 2 holds
 * exclusive, so a read of each is an intervention read-shared to CPU 2
 * and its revision reply, 2 N more reads, excl_other and responses.
 * Exit status 0: every line read was 0 and every touched line 1.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define PAGE 16384 /* IRIX's page: the unit of first-touch placement */
#define HALF 8192  /* hvpmu's frame */
#define LINE 128   /* the R10000 secondary line: the Origin's coherence unit */
#define MAXN 64

static volatile char buf[(MAXN + 2) * PAGE] __attribute__((aligned(PAGE)));
static int to_child[2], to_main[2];
static long n;

static void *child(void *arg)
{
	char b;

	(void)arg;
	if (read(to_child[0], &b, 1) != 1)
		exit(3);
	for (long off = 0; off < (n + 2) * PAGE; off += HALF)
		buf[off] = 1; /* first touch: CPU 2, node 1 */
	if (write(to_main[1], &b, 1) != 1 || read(to_child[0], &b, 1) != 1)
		exit(3); /* end when told: while the main thread waits for it */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char b = 0;
	long sum = 0;

	n = argc > 1 ? atol(argv[1]) : 8;
	if (n < 1 || n > MAXN || pipe(to_child) || pipe(to_main) || pthread_create(&t, NULL, child, NULL))
		return 2;
	if (write(to_child[1], &b, 1) != 1 || read(to_main[0], &b, 1) != 1)
		return 3;
	for (long p = 1; p <= n; p++)
		for (long l = 0; l < PAGE / LINE; l++)
			if (l % (HALF / LINE))
				sum += buf[p * PAGE + l * LINE]; /* a remote read of an unowned line */
	if (write(to_child[1], &b, 1) != 1)
		return 3;
	pthread_join(t, NULL);
	for (long off = 0; off < (n + 2) * PAGE; off += HALF)
		sum -= buf[off];
	return sum == -2 * (n + 2) ? 0 : 1;
}
