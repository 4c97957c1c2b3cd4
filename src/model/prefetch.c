/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The L1 D-cache hardware prefetcher policy of the machine (prefetch.h,
 * docs/prefetch-model.md).  Software prefetches reach the machine with
 * their address and destination (hvpmu_machine_prefetch); how a SPARC
 * prefetch's address and destination are found is the event source's
 * (src/source/sparc_prefetch.c).
 */
#include "prefetch.h"

/* ---- L1 D-cache hardware prefetcher (docs/prefetch-model.md) ---- */

unsigned pf_hw_targets(uint32_t degree, uint64_t pa, uint32_t line_shift, uint32_t page_shift, uint64_t *out)
{
	uint64_t line = pa >> line_shift;
	unsigned n = 0;

	for (uint32_t k = 1; k <= degree && n < PF_HW_MAX_DEGREE; k++) {
		uint64_t t = (line + k) << line_shift;

		if ((t >> page_shift) != (pa >> page_shift))
			break; /* the next physical page may belong to anything */
		out[n++] = t;
	}
	return n;
}
