/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finite miss / fill / write-back buffers with occupancy in time
 * (docs/memory-model.md "L2 buffers"; TABLE 10-2 sl=18 0x04, sl=21 0x02 /
 * 0x20, sl=24 0x04 .. 0x20).
 *
 * A pool is `n` entries, each holding the cycle at which it is released.
 * A request at cycle `t` finds an entry free if that entry was released
 * at or before `t`; the pool is *full* at `t` when none is.
 *
 *  - l2buf_full(p, t): every entry is held at t.  A droppable request
 *    (a prefetch) that finds the pool full is dropped and takes nothing.
 *  - l2buf_take(p, t, hold): a request that cannot be dropped takes the
 *    entry released first.  If that is at or before t, it holds the entry
 *    from t for `hold` cycles and waits 0; otherwise it waits until the
 *    release r and holds the entry from r: the return value is r - t.
 *  - n = 0: the pool is unbounded (never full, never waits).
 *
 * Time is the requesting strand's own clock (the store buffer's clock,
 * sb_clock() in machine.c).  Requests are expected in nondecreasing time
 * (true for one strand; the strands of a core use their own clocks, so
 * across strands the order is approximate: docs/memory-model.md).
 * Plain data, no allocation; one strand's thread at a time.
 */
#ifndef HVPMU_MODEL_L2BUF_H
#define HVPMU_MODEL_L2BUF_H

#include <stdint.h>

#define L2BUF_MAX_ENTRIES 64

struct l2buf_pool {
	uint32_t n;                      /* entries; 0 = unbounded */
	uint64_t last_release;           /* latest release of any entry: the pool is empty from then on */
	uint32_t next;                   /* entry taken next when the pool is empty (round robin) */
	uint64_t rel[L2BUF_MAX_ENTRIES]; /* release cycle of each entry */
};

/* Empty pool of n entries (n > L2BUF_MAX_ENTRIES is taken as the maximum). */
void l2buf_init(struct l2buf_pool *p, uint32_t n);

/* Entries held at cycle t (released after t). */
unsigned l2buf_busy(const struct l2buf_pool *p, uint64_t t);

/* 1 if every entry is held at cycle t (never for an unbounded pool). */
static inline int l2buf_full(const struct l2buf_pool *p, uint64_t t)
{
	if (!p->n || t >= p->last_release)
		return 0;
	return l2buf_busy(p, t) >= p->n;
}

/* Take an entry at cycle t for `hold` cycles; returns the cycles waited
 * for it (0 if one was free at t). */
uint64_t l2buf_take(struct l2buf_pool *p, uint64_t t, uint64_t hold);

/*
 * Pending L1D fills of a core, for TABLE 10-2 footnote 11 duplicate
 * misses: the last L2BUF_FILLS demand misses (line, strand, the cycle the
 * miss was made and the cycle its fill completes, where it was served).
 * l2buf_fill_pending() finds a fill of `line` by a strand other than
 * `strand` pending at cycle t (missed at or before t, completing after
 * t): the load at t is a duplicate miss that waits until then.  A load
 * whose cycle precedes the other strand's miss is not one: in modeled
 * time it came first.
 */
#define L2BUF_FILLS 32

struct l2buf_fills {
	uint32_t next;
	uint64_t last_done;              /* latest completion: nothing pending from then on */
	uint64_t line[L2BUF_FILLS];
	uint64_t start[L2BUF_FILLS];
	uint64_t done[L2BUF_FILLS];
	uint32_t strand[L2BUF_FILLS];
	uint8_t from[L2BUF_FILLS];
};

void l2buf_fill_add(struct l2buf_fills *f, uint64_t line, uint32_t strand, uint64_t start, uint64_t done,
		    unsigned from);

/* 1 and *done, *from of the fill if one is pending, else 0. */
int l2buf_fill_pending(const struct l2buf_fills *f, uint64_t line, uint32_t strand, uint64_t t, uint64_t *done,
		       unsigned *from);

#endif
