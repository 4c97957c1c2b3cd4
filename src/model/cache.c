/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Set-associative LRU tag cache (see cache.h). */
#include <stdlib.h>
#include <string.h>
#include "cache.h"

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

int cache_init(struct cache *c, uint64_t size, uint32_t ways, uint32_t line)
{
	uint64_t sets;

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
	c->tag = calloc(sets * ways, sizeof *c->tag);
	c->dirty = calloc(sets * ways, 1);
	if (!c->tag || !c->dirty) {
		cache_fini(c);
		return -1;
	}
	return 0;
}

void cache_fini(struct cache *c)
{
	free(c->tag);
	free(c->dirty);
	memset(c, 0, sizeof *c);
}

/* Move way w of the set to the MRU position (index 0). */
static void promote(uint64_t *t, uint8_t *d, uint32_t w)
{
	uint64_t tag = t[w];
	uint8_t dirty = d[w];

	memmove(t + 1, t, w * sizeof *t);
	memmove(d + 1, d, w);
	t[0] = tag;
	d[0] = dirty;
}

void cache_access(struct cache *c, uint64_t addr, int allocate, int write, struct cache_result *r)
{
	uint64_t line = addr >> c->line_shift, key = line + 1;
	uint64_t *t = &c->tag[(size_t)(line & c->set_mask) * c->ways];
	uint8_t *d = &c->dirty[(size_t)(line & c->set_mask) * c->ways];

	r->evicted = r->evicted_dirty = 0;
	if (key == c->mru_key) { /* the line accessed last: already MRU in its set */
		r->hit = 1;
		d[0] |= (uint8_t)(write != 0);
		return;
	}
	r->hit = 0;
	for (uint32_t w = 0; w < c->ways; w++) {
		if (t[w] != key)
			continue;
		r->hit = 1;
		if (w)
			promote(t, d, w);
		d[0] |= (uint8_t)(write != 0);
		c->mru_key = key;
		return;
	}
	if (!allocate)
		return;
	c->mru_key = key;
	/* miss: the LRU way (last) is the victim */
	if (t[c->ways - 1]) {
		r->evicted = 1;
		r->evicted_dirty = d[c->ways - 1];
		r->evicted_line = t[c->ways - 1] - 1;
	}
	t[c->ways - 1] = key;
	d[c->ways - 1] = (uint8_t)(write != 0);
	promote(t, d, c->ways - 1);
}

int cache_probe(const struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	const uint64_t *t = &c->tag[(size_t)(line & c->set_mask) * c->ways];

	for (uint32_t w = 0; w < c->ways; w++)
		if (t[w] == line + 1)
			return 1;
	return 0;
}

int cache_invalidate_line(struct cache *c, uint64_t line)
{
	uint64_t *t = &c->tag[(size_t)(line & c->set_mask) * c->ways];
	uint8_t *d = &c->dirty[(size_t)(line & c->set_mask) * c->ways];

	if (c->mru_key == line + 1)
		c->mru_key = 0;
	for (uint32_t w = 0; w < c->ways; w++) {
		if (t[w] != line + 1)
			continue;
		/* close the gap, invalid way goes last */
		memmove(t + w, t + w + 1, (c->ways - 1 - w) * sizeof *t);
		memmove(d + w, d + w + 1, c->ways - 1 - w);
		t[c->ways - 1] = 0;
		d[c->ways - 1] = 0;
		return 1;
	}
	return 0;
}
