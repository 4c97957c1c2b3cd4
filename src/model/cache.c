/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Set-associative LRU tag cache (see cache.h).
 *
 * Each set is an array of `ways` tag words kept in recency order (MRU
 * first), so a hit at way w shifts ways 0..w-1 down by one and a miss
 * evicts the last way.  The dirty bit lives in the tag word (one array, one
 * host cache line per set of up to 8 ways), and the usual geometries (4, 8,
 * 16 ways) get loops the compiler unrolls.  The outcome of every access is
 * that of plain LRU (tests/unit/test_memhier.c).  cache_access() itself is
 * inline in cache.h: its callers pass constant `allocate` and `write`.
 */
#include <stdlib.h>
#include <string.h>
#include "cache.h"

#define KEY_MASK (~CACHE_DIRTY)
#define SET_ALIGN 64

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

int cache_init(struct cache *c, uint64_t size, uint32_t ways, uint32_t line)
{
	uint64_t sets, bytes;
	uintptr_t p;

	memset(c, 0, sizeof *c);
	if (!is_pow2(line) || !ways || size % ((uint64_t)ways * line))
		return -1;
	sets = size / ((uint64_t)ways * line);
	if (!is_pow2(sets))
		return -1;
	c->sets = (uint32_t)sets;
	c->ways = ways;
	c->line_shift = (uint32_t)__builtin_ctz(line);
	c->set_mask = c->sets - 1;
	while ((UINT32_C(1) << c->set_shift) < ways)
		c->set_shift++;
	/* calloc (pages zeroed lazily: only the sets used become resident),
	 * aligned by hand */
	bytes = (sets << c->set_shift) * sizeof *c->tag;
	c->mem = calloc(1, bytes + SET_ALIGN);
	if (!c->mem)
		return -1;
	p = ((uintptr_t)c->mem + SET_ALIGN - 1) & ~(uintptr_t)(SET_ALIGN - 1);
	c->tag = (uint64_t *)p;
	return 0;
}

void cache_fini(struct cache *c)
{
	free(c->mem);
	memset(c, 0, sizeof *c);
}

int cache_probe(const struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	const uint64_t *t = &c->tag[(size_t)(line & c->set_mask) << c->set_shift];

	for (uint32_t w = 0; w < c->ways; w++)
		if ((t[w] & KEY_MASK) == line + 1)
			return 1;
	return 0;
}

int cache_invalidate_line(struct cache *c, uint64_t line)
{
	uint64_t *t = &c->tag[(size_t)(line & c->set_mask) << c->set_shift];
	uint32_t ways = c->ways;

	if (c->mru_key == line + 1)
		c->mru_key = 0;
	for (uint32_t w = 0; w < ways; w++) {
		if ((t[w] & KEY_MASK) != line + 1)
			continue;
		c->version++;
		/* close the gap, the invalid way goes last */
		for (; w + 1 < ways; w++)
			t[w] = t[w + 1];
		t[ways - 1] = 0;
		return 1;
	}
	return 0;
}

uint64_t cache_drop_ranges(struct cache *c, const struct cache_range *r, size_t n)
{
	uint64_t dropped = 0;

	if (!c->sets || !n)
		return 0;
	for (uint64_t set = 0; set < c->sets; set++) {
		uint64_t *t = &c->tag[(size_t)set << c->set_shift];
		uint32_t keep = 0;

		for (uint32_t w = 0; w < c->ways; w++) {
			uint64_t key = t[w] & KEY_MASK, a;
			size_t l = 0, h = n;

			if (key) {
				a = (key - 1) << c->line_shift;
				while (l < h) { /* the last range starting at or below a */
					size_t mid = l + (h - l) / 2;

					if (r[mid].lo <= a)
						l = mid + 1;
					else
						h = mid;
				}
				if (l && a < r[l - 1].hi) {
					if (c->mru_key == key)
						c->mru_key = 0;
					dropped++;
					continue;
				}
			}
			t[keep++] = t[w]; /* (order kept: MRU first; invalid ways go last) */
		}
		for (uint32_t w = keep; w < c->ways; w++)
			t[w] = 0;
	}
	if (dropped)
		c->version++;
	return dropped;
}
