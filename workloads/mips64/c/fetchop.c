/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fetchop N: fetch-and-ops on two variables of the Hub's fetch-and-op
 * region (the SGI Origin with "fetchop_va": 0x100000000 and
 * "fetchop_bytes": 16384, docs/origin-directory.md "Fetch-and-op"; issue
 * 31).
 *
 * The program maps 16 KB at 0x100000000 (MAP_FIXED), as an IRIX program
 * maps /dev/fetchop, and operates on two of its 64-byte variables (IRIX
 * FETCHOP_VAR_SIZE), A at 0 and B at 64, with the SN0 offsets: a load at
 * +8 is a fetch-and-increment, a store at +0 a store.  (QEMU runs them as
 * plain loads and stores: the model counts the references, not the
 * values; the program checks nothing of them.)  Single-threaded: CPU 0,
 * node 0, which first touches the page, so its home is node 0 and every
 * request is local.  The Hub's fetch-and-op cache holds one variable:
 *   1. N fetch-and-increments of A: the first misses, the others hit;
 *   2. N times a fetch-and-increment of B, then one of A: each misses
 *      (the cache holds the other one), 2N misses;
 *   3. N stores to A: A is cached (step 2 ended with it): N hits.
 * So runs of N and 2N differ at node 0 by exactly, per unit of N: set 3
 * fop_hit 2, fop_miss 2; set 1 response 3 (the loads' values), other
 * replies 1 (the stores' acks); set 5 cpu0_reads 4; set 0 misc_busy
 * 2 * 4 Hub cycles, mem_dir_busy 2 * 16; nothing else (no directory
 * state: the region is uncached) (tests/integration/run_origin_fetchop.sh).
 * Exit status 0: the region was mapped.
 */
#include <stdlib.h>
#include <sys/mman.h>

#define FETCHOP_VA 0x100000000UL
#define REGION 16384
#define VAR 64             /* FETCHOP_VAR_SIZE */
#define FETCHOP_INCREMENT 8
#define FETCHOP_STORE 0

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 64, sum = 0;
	volatile char *r = mmap((void *)FETCHOP_VA, REGION, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	volatile long *a_inc, *b_inc, *a_st;

	if (r == MAP_FAILED || n < 1)
		return 2;
	a_inc = (volatile long *)(r + FETCHOP_INCREMENT);
	b_inc = (volatile long *)(r + VAR + FETCHOP_INCREMENT);
	a_st = (volatile long *)(r + FETCHOP_STORE);
	for (long i = 0; i < n; i++) /* 1 */
		sum += *a_inc;
	for (long i = 0; i < n; i++) { /* 2 */
		sum += *b_inc;
		sum += *a_inc;
	}
	for (long i = 0; i < n; i++) /* 3 */
		*a_st = i;
	return sum == 0 ? 0 : 1;
}
