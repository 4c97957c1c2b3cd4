/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Multi-core / multi-chip coherence rules (see coherence.h and
 * docs/coherence-model.md).
 */
#include <stdlib.h>
#include <string.h>
#include "coherence.h"

#define KEY_MASK (~CACHE_DIRTY)

int coh_init(struct coh *h, uint32_t ncores, uint32_t chips, uint32_t home_shift)
{
	memset(h, 0, sizeof *h);
	if (!ncores || !chips || ncores % chips || home_shift > 63)
		return -1;
	h->core = calloc(ncores, sizeof *h->core);
	h->active = calloc(ncores, sizeof *h->active);
	h->is_active = calloc(ncores, 1);
	if (!h->core || !h->active || !h->is_active) {
		coh_fini(h);
		return -1;
	}
	h->ncores = ncores;
	h->chips = chips;
	h->home_shift = home_shift;
	for (uint32_t i = 0; i < ncores; i++)
		h->core[i].chip = i / (ncores / chips);
	return 0;
}

void coh_fini(struct coh *h)
{
	free(h->core);
	free(h->active);
	free(h->is_active);
	memset(h, 0, sizeof *h);
}

void coh_activate(struct coh *h, uint32_t core)
{
	if (core >= h->ncores || h->is_active[core])
		return;
	h->is_active[core] = 1;
	h->active[h->nactive++] = core;
}

/* The tag word of `addr` in `c`, or NULL. */
static uint64_t *find(const struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	uint64_t *t = &c->tag[(size_t)(line & c->set_mask) << c->set_shift];

	for (uint32_t w = 0; w < c->ways; w++)
		if ((t[w] & KEY_MASK) == line + 1)
			return &t[w];
	return NULL;
}

int coh_l2_state(const struct cache *l2, uint64_t addr)
{
	const uint64_t *t = find(l2, addr);

	return !t ? 0 : (*t & CACHE_DIRTY) ? 2 : 1;
}

/* Drop the L2 line of `addr` from core `k` and the L1 lines it includes;
 * report each L1 line dropped. */
static void invalidate(struct coh *h, uint32_t k, uint64_t addr, coh_snoop_fn fn, void *ctx)
{
	const struct coh_core *c = &h->core[k];
	uint64_t byte = (addr >> c->l2->line_shift) << c->l2->line_shift;
	uint64_t end = byte + (UINT64_C(1) << c->l2->line_shift);

	cache_invalidate_line(c->l2, byte >> c->l2->line_shift);
	for (uint64_t b = byte; b < end; b += UINT64_C(1) << c->l1i->line_shift)
		if (cache_invalidate_line(c->l1i, b >> c->l1i->line_shift) && fn)
			fn(ctx, k, 1);
	for (uint64_t b = byte; b < end; b += UINT64_C(1) << c->l1d->line_shift)
		if (cache_invalidate_line(c->l1d, b >> c->l1d->line_shift) && fn)
			fn(ctx, k, 0);
}

enum coh_src coh_l2_miss(struct coh *h, uint32_t core, uint64_t addr, int store, int *writeback,
			 coh_snoop_fn fn, void *ctx)
{
	enum coh_src src = COH_NONE;

	*writeback = 0;
	for (uint32_t i = 0; i < h->nactive; i++) {
		uint32_t k = h->active[i];
		uint64_t *t;

		if (k == core || !(t = find(h->core[k].l2, addr)))
			continue;
		if (*t & CACHE_DIRTY) /* Modified: the owner supplies the line */
		{
			src = h->core[k].chip == h->core[core].chip ? COH_C2C_LOCAL : COH_C2C_REMOTE;
			h->owner_chip = h->core[k].chip;
		}
		if (store) {
			invalidate(h, k, addr, fn, ctx);
		} else if (*t & CACHE_DIRTY) { /* M -> S, the dirty data goes home */
			*t &= KEY_MASK;
			*writeback = 1;
		}
	}
	return src;
}

uint32_t coh_upgrade(struct coh *h, uint32_t core, uint64_t addr, coh_snoop_fn fn, void *ctx)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < h->nactive; i++) {
		uint32_t k = h->active[i];

		if (k != core && find(h->core[k].l2, addr)) {
			invalidate(h, k, addr, fn, ctx);
			n++;
		}
	}
	return n;
}
