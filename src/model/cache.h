/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A set-associative cache of tags (layer 2): LRU replacement, optional
 * dirty state for write-back levels.  No data is stored.  Geometry comes
 * from the machine description (docs/machine-figures.md); one structure
 * serves every level (L1I, L1D, L2, L3).  Allocation only at creation.
 */
#ifndef HVPMU_MODEL_CACHE_H
#define HVPMU_MODEL_CACHE_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

struct cache {
	uint32_t sets, ways;
	uint32_t line_shift;
	uint32_t set_mask;
	uint32_t set_shift; /* a set is 1 << set_shift tag words: ways rounded up to a power of two */
	uint64_t mru_key; /* key of the last access: at MRU of its set (0 = none) */
	uint64_t version; /* moves at every cache_access() and every line invalidated
			     (not at the L1I fetch fast path, which changes no set):
			     unchanged means no set changed (the L1I fetch memo,
			     docs/memory-model.md "Performance") */
	uint64_t *tag;    /* [sets << set_shift], a set's ways MRU first, from its
	                     start (indexed by a shift, not a multiply):
	                     line address + 1 (0 = invalid) | CACHE_DIRTY */
	void *mem;        /* the allocation holding tag[] */
};

/* Dirty bit of a tag word (line addresses stay below 2^59). */
#define CACHE_DIRTY (UINT64_C(1) << 63)

/* Outcome of an access. */
struct cache_result {
	int hit;
	int evicted;            /* a valid line was replaced */
	int evicted_dirty;
	uint64_t evicted_line;  /* its line address (byte address >> line_shift) */
};

/* size_bytes / (ways * line_bytes) sets, all powers of two.  0 or -1. */
int cache_init(struct cache *c, uint64_t size_bytes, uint32_t ways, uint32_t line_bytes);
void cache_fini(struct cache *c);

/* Look up `addr`; on a miss allocate it (LRU victim) when `allocate`.
 * `write` marks the line dirty (write-back levels).  Inline: callers pass
 * constants for `allocate` and `write`. */
/* The access of cache_access() for a set of `ways` ways (a constant in the
 * specialised copies below). */
static inline __attribute__((always_inline)) void
access_set(struct cache *c, uint64_t *t, uint32_t ways, uint64_t key, int allocate, uint64_t wbit,
	   uint64_t kmask, struct cache_result *r)
{
	uint64_t v;
	uint32_t w;

	for (w = 0; w < ways; w++)
		if ((t[w] & kmask) == key)
			break;
	if (w < ways) {
		uint32_t hit_way = w;

		v = t[w];
		/* ways 1..hit_way take their MRU-side neighbour: a fixed number of
		 * selects, not a loop whose length the branch predictor must guess */
		for (w = ways - 1; w; w--)
			t[w] = w <= hit_way ? t[w - 1] : t[w];
		t[0] = v | wbit;
		c->mru_key = key;
		r->hit = 1;
		return;
	}
	r->hit = 0;
	if (!allocate)
		return;
	c->mru_key = key;
	/* miss: the LRU way (last) is the victim; invalid ways are always last */
	v = t[ways - 1];
	if (v) {
		r->evicted = 1;
		r->evicted_dirty = (int)((v & ~kmask) >> 63);
		r->evicted_line = (v & kmask) - 1;
	}
	for (w = ways - 1; w; w--)
		t[w] = t[w - 1];
	t[0] = key | wbit;
}

/* `kmask`: ~CACHE_DIRTY, or ~0 for a cache never written (cache_access_clean()) */
static inline __attribute__((always_inline)) void cache_access_mask(struct cache *c, uint64_t addr, int allocate,
								     int write, uint64_t kmask, struct cache_result *r)
{
	uint64_t line = addr >> c->line_shift, key = line + 1;
	uint64_t *t = &c->tag[(size_t)(line & c->set_mask) << c->set_shift];
	uint64_t wbit = write ? CACHE_DIRTY : 0;

	c->version++;
	r->evicted = r->evicted_dirty = 0;
	if (key == c->mru_key) { /* the line accessed last: already MRU in its set */
		r->hit = 1;
		t[0] |= wbit;
		return;
	}
	/* a hit at way 0 (MRU of its set): access_set() would shift nothing */
	if ((t[0] & kmask) == key) {
		t[0] |= wbit;
		c->mru_key = key;
		r->hit = 1;
		return;
	}
	switch (c->ways) {
	case 4: access_set(c, t, 4, key, allocate, wbit, kmask, r); break;
	case 8: access_set(c, t, 8, key, allocate, wbit, kmask, r); break;
	case 16: access_set(c, t, 16, key, allocate, wbit, kmask, r); break;
	default: access_set(c, t, c->ways, key, allocate, wbit, kmask, r); break;
	}
}

static inline __attribute__((always_inline)) void cache_access(struct cache *c, uint64_t addr, int allocate, int write,
								struct cache_result *r)
{
	cache_access_mask(c, addr, allocate, write, ~CACHE_DIRTY, r);
}

/* cache_access() without a write, for a cache never written (L1I, L1D:
 * see cache_mru_hit_clean()): no tag word carries CACHE_DIRTY, so the
 * compares need no mask and an evicted line is clean. */
static inline __attribute__((always_inline)) void cache_access_clean(struct cache *c, uint64_t addr, int allocate,
								      struct cache_result *r)
{
	cache_access_mask(c, addr, allocate, 0, ~UINT64_C(0), r);
}


/*
 * Hot path: 1 if line address `line` is the most recently used line of its
 * set (a tag compare, no state change).  An access of such a line that
 * sets no dirty bit leaves the cache exactly as it was, so a caller may
 * skip cache_access() then; one that writes a write-back level may skip it
 * after cache_mru_set_dirty().
 */
static inline uint64_t *cache_mru_slot(const struct cache *c, uint64_t line)
{
	return &c->tag[(size_t)(line & c->set_mask) << c->set_shift];
}
static inline int cache_mru_hit(const struct cache *c, uint64_t line)
{
	return (*cache_mru_slot(c, line) & ~CACHE_DIRTY) == line + 1;
}
/* cache_mru_hit() for a cache that is never written (every cache_access()
 * with write = 0: L1I, L1D -- write-through, the dirty bits live in L2):
 * its tag words never carry CACHE_DIRTY (only a write sets it, moves and
 * invalidations copy or clear whole words), so no mask is needed. */
static inline int cache_mru_hit_clean(const struct cache *c, uint64_t line)
{
	const uint64_t *slot = cache_mru_slot(c, line);

	assert(!(*slot & CACHE_DIRTY));
	return *slot == line + 1;
}
/* 1 if line address `line` is present (no state change): cache_probe()
 * inline, for a hot path. */
static inline int cache_holds(const struct cache *c, uint64_t line)
{
	const uint64_t *t = cache_mru_slot(c, line);

	for (uint32_t w = 0; w < c->ways; w++)
		if ((t[w] & ~CACHE_DIRTY) == line + 1)
			return 1;
	return 0;
}
/* cache_holds() for a cache never written (cache_mru_hit_clean()) */
static inline int cache_holds_clean(const struct cache *c, uint64_t line)
{
	const uint64_t *t = cache_mru_slot(c, line);

	for (uint32_t w = 0; w < c->ways; w++)
		if (t[w] == line + 1)
			return 1;
	return 0;
}
static inline void cache_mru_set_dirty(struct cache *c, uint64_t line)
{
	*cache_mru_slot(c, line) |= CACHE_DIRTY;
}

/* 1 if present (no state change). */
int cache_probe(const struct cache *c, uint64_t addr);
/* Drop the line holding `line` (a line address); returns 1 if it was present. */
int cache_invalidate_line(struct cache *c, uint64_t line);
/* Invalidate every line whose byte address is in one of the n ranges
 * [r[i].lo, r[i].hi) (sorted by lo, disjoint), dirty or not (no
 * write-back: memory given back, docs/service.md "Address spaces"); one
 * pass over the tags.  Returns the lines dropped. */
struct cache_range {
	uint64_t lo, hi;
};
uint64_t cache_drop_ranges(struct cache *c, const struct cache_range *r, size_t n);

#endif
