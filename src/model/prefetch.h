/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Prefetch model internals of the machine (docs/prefetch-model.md).
 */
#ifndef HVPMU_MODEL_PREFETCH_H
#define HVPMU_MODEL_PREFETCH_H

#include <stdint.h>
#include <hvpmu/md.h>

/* Largest hardware-prefetch degree the machine honours. */
#define PF_HW_MAX_DEGREE HVPMU_MD_MAX_L1D_HW_PREFETCH

/* Per-strand prefetch statistics (hvpmu_machine_prefetch_stats()). */
struct pf_stats {
	uint64_t sw_issued;     /* software prefetches issued to the model */
	uint64_t sw_nop;        /* ... of which had a function code with no memory effect */
	uint64_t sw_unresolved; /* software prefetches whose address was not recovered */
	uint64_t hw_issued;     /* hardware prefetches issued (dropped ones included) */
};

/*
 * L1D hardware prefetcher policy: on an L1D demand-load miss of physical
 * address `pa`, the `degree` next lines (line size 1 << line_shift) that
 * lie in the same page (1 << page_shift bytes); at most PF_HW_MAX_DEGREE.
 * Writes their physical byte addresses to out[] and returns how many.
 */
unsigned pf_hw_targets(uint32_t degree, uint64_t pa, uint32_t line_shift, uint32_t page_shift, uint64_t *out);

#endif
