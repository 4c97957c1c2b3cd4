/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A set-associative cache of tags (layer 2): LRU replacement, optional
 * dirty state for write-back levels.  No data is stored.  Geometry comes
 * from the machine description (docs/machine-figures.md); one structure
 * serves every level (L1I, L1D, L2, L3).  Allocation only at creation.
 */
#ifndef HVPMU_MODEL_CACHE_H
#define HVPMU_MODEL_CACHE_H

#include <stdint.h>

struct cache {
	uint32_t sets, ways;
	uint32_t line_shift;
	uint32_t set_mask;
	uint64_t mru_key; /* key of the last access: at MRU of its set (0 = none) */
	uint64_t version; /* moves at every cache_access() and every line invalidated:
			     unchanged means no set changed (hvpmu_machine_ifetch_memo) */
	uint64_t *tag;    /* [sets * ways], MRU first, each set 64-byte aligned:
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
 * `write` marks the line dirty (write-back levels). */
void cache_access(struct cache *c, uint64_t addr, int allocate, int write, struct cache_result *r);
/*
 * Hot path: 1 if line address `line` is the most recently used line of its
 * set (a tag compare, no state change).  An access of such a line that
 * sets no dirty bit leaves the cache exactly as it was, so a caller may
 * skip cache_access() then; one that writes a write-back level may skip it
 * after cache_mru_set_dirty().
 */
static inline uint64_t *cache_mru_slot(const struct cache *c, uint64_t line)
{
	return &c->tag[(size_t)(line & c->set_mask) * c->ways];
}
static inline int cache_mru_hit(const struct cache *c, uint64_t line)
{
	return (*cache_mru_slot(c, line) & ~CACHE_DIRTY) == line + 1;
}
static inline void cache_mru_set_dirty(struct cache *c, uint64_t line)
{
	*cache_mru_slot(c, line) |= CACHE_DIRTY;
}

/* 1 if present (no state change). */
int cache_probe(const struct cache *c, uint64_t addr);
/* Drop the line holding `line` (a line address); returns 1 if it was present. */
int cache_invalidate_line(struct cache *c, uint64_t line);

#endif
