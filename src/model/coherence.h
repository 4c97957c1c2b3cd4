/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Coherence between the cores and chips of one machine (layer 2,
 * docs/coherence-model.md): store invalidations of other cores' L1/L2
 * copies (TABLE 10-2 sl=20 snoop invalidations), L2 cache-to-cache
 * transfers of dirty lines (sl=22 0x04/0x08 and the "L2 cache to cache"
 * parts of sl=5/11/16/23), and the NUMA home chip of a physical address
 * (the "remote" outcomes of sl=5, 11, 16, 22, 23).
 *
 * States per L2 line, MESI-like, kept in the tag caches themselves: a line
 * dirty in one core's L2 is Modified and present in no other L2 or L1
 * (invariant kept by the rules below); a clean line may be Shared by any
 * number of cores.  The snoop filter is the set of active cores: only
 * cores that ever missed their L1 can hold lines, and they are probed on
 * an L2 miss or on a store to a clean L2 line.  While at most one core is
 * active nothing here runs (coh_on() is false).  No allocation after
 * coh_init(); bounded work: one L2 set probe per active core.
 */
#ifndef HVPMU_MODEL_COHERENCE_H
#define HVPMU_MODEL_COHERENCE_H

#include <stdint.h>
#include "cache.h"

/* The caches of one core, as the coherence rules see them. */
struct coh_core {
	struct cache *l1i, *l1d, *l2;
	uint32_t chip;
};

struct coh {
	struct coh_core *core;  /* [ncores] */
	uint32_t *active;       /* indices of the active cores, first-miss order */
	uint8_t *is_active;     /* [ncores] */
	uint32_t ncores, nactive;
	uint32_t chips, home_shift;
	uint32_t owner_chip;    /* chip of the owner the last COH_C2C_REMOTE came from */
};

/* Where coh_l2_miss() found the line. */
enum coh_src {
	COH_NONE = 0,       /* in no other L2 dirty: the L3 / memory serves it */
	COH_C2C_LOCAL = 1,  /* dirty in another core's L2 on the same chip */
	COH_C2C_REMOTE = 2, /* dirty in another core's L2 on another chip */
};

/* Called for every L1 line another core's store invalidated in `core`
 * (icache: L1I, else L1D). */
typedef void (*coh_snoop_fn)(void *ctx, uint32_t core, int icache);

/* ncores cores, `chips` chips; core i is on chip i / (ncores / chips).
 * The caller fills h->core[i] (caches) afterwards.  0 or -1 (ENOMEM). */
int coh_init(struct coh *h, uint32_t ncores, uint32_t chips, uint32_t home_shift);
void coh_fini(struct coh *h);

/* Home chip of physical address pa: (pa >> home_shift) % chips. */
static inline uint32_t coh_home(const struct coh *h, uint64_t pa)
{
	return h->chips > 1 ? (uint32_t)((pa >> h->home_shift) % h->chips) : 0;
}

/* More than one core can hold lines: the rules apply. */
static inline int coh_on(const struct coh *h) { return h->nactive > 1; }

/* Record that `core` is about to fill its caches for the first time
 * (its caches are empty until then). */
void coh_activate(struct coh *h, uint32_t core);

/* 1 if `addr` is present and clean in `l2`, 2 if present and dirty, 0 if absent. */
int coh_l2_state(const struct cache *l2, uint64_t addr);

/*
 * `core` misses its L2 on `addr` (before allocating it).  Looks for a dirty
 * copy in the other active cores' L2s: the owner (at most one) supplies the
 * line (cache-to-cache).  A load (`store` 0) leaves the owner a clean
 * (Shared) copy and sets *writeback so the caller writes the dirty data to
 * the home L3; a store invalidates every other copy (L2 and L1s), clean or
 * dirty (the dirty data moves to the requester).  Returns the source.
 */
enum coh_src coh_l2_miss(struct coh *h, uint32_t core, uint64_t addr, int store, int *writeback,
			 coh_snoop_fn fn, void *ctx);

/* `core` stores to `addr`, which its L2 holds clean: invalidate every other
 * core's copy (Shared -> Modified upgrade).  Returns the copies dropped. */
uint32_t coh_upgrade(struct coh *h, uint32_t core, uint64_t addr, coh_snoop_fn fn, void *ctx);

#endif
