/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dmaio N: N lines moved by DMA through the Hub's I/O interface (the SGI
 * Origin with "io_dma": 1, docs/origin-directory.md "I/O"; issue 31).
 *
 * Single-threaded: CPU 0, node 0, which is also the node of the I/O
 * interface, so every request is local (set 5).  The N lines are
 * consecutive lines of a buffer nothing else touches, first touched by
 * step 1 (homed on node 0).  Each step, per line, at node 0:
 *   1. CPU 0 stores to the line: a read-exclusive of an unowned line
 *      (reads, unowned, response, cpu0_reads; memory: 16 Hub cycles);
 *      CPU 0 holds it dirty.
 *   2. write() of the whole buffer to /dev/null: the device reads each
 *      line, read shared uncached: CPU 0 owns it, so an intervention
 *      read-shared uncached (interv_rdsh_unc, interv_inval, revision;
 *      4 Hub cycles, directory only), io_reads, reads, excl_other,
 *      response; CPU 0 keeps its line (R10000 event 12 and its hit, 28).
 *   3. read() of 64 bytes from /dev/zero into the middle of the line, one
 *      system call per line: part of a line, so read exclusive uncached:
 *      an intervention read-exclusive uncached (interv_rdex_unc,
 *      interv_inval, revision; 4 Hub cycles), io_reads, reads,
 *      excl_other, response; then the device writes the line back
 *      (write_replies, wb_ack; 16 Hub cycles); CPU 0's copy is
 *      invalidated (events 12, 28).
 *   4. CPU 0 loads the line: a miss, a read of an unowned line (reads,
 *      unowned, response, cpu0_reads; 16 Hub cycles); held clean.
 *   5. read() of the whole buffer from /dev/zero: each line a
 *      write-invalidate (io_wrinv, write_replies, other replies: its ack;
 *      16 Hub cycles) with an invalidation to CPU 0 (inval, interv_inval;
 *      events 13 and 29).
 * So runs of N and 2N lines differ at node 0 by exactly, per line: set 1
 * interv_inval 3, wb_ack 1, response 4, other 1; set 2 inval 1,
 * interv_rdex_unc 1, interv_rdsh_unc 1; set 3 reads 4, write_replies 2,
 * revision_replies 2; set 4 unowned 2, excl_other 2; set 5 cpu0_reads 2,
 * io_reads 2, io_wrinv 1; set 0 mem_dir_busy 64, dir_busy 8; nothing
 * else; and on CPU 0 events 12 and 28 two each, 13 and 29 one each
 * (tests/integration/run_origin_io.sh).  Without io_dma none of the I/O
 * reaches the directory.
 * Exit status 0: step 4 read the bytes step 1 stored (step 3 wrote
 * bytes 32-95 of each line); step 5 is not read back (that would be
 * another N reads).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#define LINE 128  /* the R10000 secondary line, the Origin's coherence unit */
#define MAXN 4096 /* 512 KB */

static char buf[MAXN * LINE] __attribute__((aligned(16384)));

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 64, sum = 0;
	int zero = open("/dev/zero", O_RDONLY), null = open("/dev/null", O_WRONLY);

	if (n < 1 || n > MAXN || zero < 0 || null < 0)
		return 2;
	for (long i = 0; i < n; i++) /* 1 */
		*(volatile char *)&buf[i * LINE] = 1;
	if (write(null, buf, (size_t)(n * LINE)) != n * LINE) /* 2 */
		return 2;
	for (long i = 0; i < n; i++) /* 3 */
		if (read(zero, buf + i * LINE + 32, 64) != 64)
			return 2;
	for (long i = 0; i < n; i++) /* 4 */
		sum += *(volatile char *)&buf[i * LINE];
	if (read(zero, buf, (size_t)(n * LINE)) != n * LINE) /* 5 */
		return 2;
	return sum == n ? 0 : 1; /* step 3 left byte 0 of each line alone */
}
