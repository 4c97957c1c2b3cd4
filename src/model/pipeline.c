/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pipeline timing of a SPARC T4 strand: BTC, mispredict penalty, I-cache
 * microtags, DRAM queueing wait (see pipeline.h; docs/timing-model.md).
 * TABLE 10-2 of sparc-t4-performance-instrumentation.md names the events:
 * sl=5 0x08 "BTC miss", sl=8 0x08 "BTC target incorrect", sl=7 microtag
 * outcomes, sl=1 0x01 Sel-pipe-drain (footnote 10).
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "dram.h"
#include "pipeline.h"

void pipe_strand_init(struct pipe_strand *p)
{
	memset(p, 0, sizeof *p);
}

int pipe_utag_init(struct pipe_utag *u, uint32_t sets, uint32_t ways)
{
	memset(u, 0, sizeof *u);
	if (!sets || !ways)
		return -1;
	u->w = calloc((size_t)sets * ways, sizeof *u->w);
	if (!u->w)
		return -1;
	for (size_t i = 0; i < (size_t)sets * ways; i++)
		u->w[i].utag = PIPE_UTAG_NONE;
	u->sets = sets;
	u->ways = ways;
	return 0;
}

void pipe_utag_fini(struct pipe_utag *u)
{
	free(u->w);
	memset(u, 0, sizeof *u);
}

/* 1 if way w of the set at `base` holds a line still in the L1I.  The
 * fetched line itself counts as it was before this fetch (`present`);
 * other lines are probed, and entries of invalidated lines are emptied. */
static int alive(struct pipe_utag *u, uint32_t base, uint32_t w, uint64_t pline, int present,
		 int (*probe)(const void *, uint64_t), const void *ctx)
{
	uint64_t k = u->w[base + w].line;

	if (!k)
		return 0;
	if (k == pline + 1)
		return present;
	if (!probe(ctx, k - 1)) {
		u->w[base + w].line = 0;
		u->w[base + w].utag = PIPE_UTAG_NONE;
		return 0;
	}
	return 1;
}

enum pipe_utag_outcome pipe_utag_fetch(struct pipe_utag *u, uint64_t va, uint64_t pline, int present,
				       uint64_t evicted_line, int (*probe)(const void *ctx, uint64_t line),
				       const void *ctx)
{
	uint32_t base = (uint32_t)(pline & (u->sets - 1)) * u->ways;
	uint64_t ut = (va >> PIPE_UTAG_SHIFT) & PIPE_UTAG_MASK;
	int wu = -1, wp = -1;
	enum pipe_utag_outcome out;

	for (uint32_t w = 0; w < u->ways; w++) {
		if (present && u->w[base + w].line == pline + 1)
			wp = (int)w;
		if (wu < 0 && u->w[base + w].utag == ut && alive(u, base, w, pline, present, probe, ctx)) {
			wu = (int)w; /* the predicted way: first microtag match */
			if (wu == wp)
				return PIPE_UTAG_HIT; /* the common case: nothing to train */
		}
	}
	if (wu < 0)
		out = present ? PIPE_UTAG_MISS_PTAG_HIT : PIPE_UTAG_MISS_PTAG_MISS;
	else if (!present)
		out = PIPE_UTAG_HIT_PTAG_MISS;
	else
		out = wu == wp ? PIPE_UTAG_HIT : PIPE_UTAG_WAY_MISMATCH;
	if (present && wp >= 0) { /* retrain the way that holds the line */
		u->w[base + (uint32_t)wp].utag = ut;
		return out;
	}
	/* a fill: drop stale entries of this line (it was invalidated), then
	 * take the way of the evicted line, else an empty or dead one */
	for (uint32_t w = 0; w < u->ways; w++)
		if (u->w[base + w].line == pline + 1) {
			u->w[base + w].line = 0;
			u->w[base + w].utag = PIPE_UTAG_NONE;
		}
	for (uint32_t w = 0; wp < 0 && w < u->ways; w++)
		if (evicted_line != UINT64_MAX && u->w[base + w].line == evicted_line + 1)
			wp = (int)w;
	for (uint32_t w = 0; wp < 0 && w < u->ways; w++)
		if (!alive(u, base, w, pline, 0, probe, ctx))
			wp = (int)w;
	if (wp < 0) /* cannot happen while the L1I and the array agree */
		wp = 0;
	u->w[base + (uint32_t)wp].line = pline + 1;
	u->w[base + (uint32_t)wp].utag = ut;
	return out;
}

uint64_t pipe_dram_read_wait(const struct dram *d, uint64_t now, uint64_t paddr, uint64_t cap)
{
	struct dram_addr a;
	uint64_t wait, busy = d->cfg.bank_busy_cycles, ahead = 0;
	const struct dram_req *me = NULL;

	dram_map(paddr, &a);
	for (uint32_t i = d->rq.n; i-- > 0;)
		if (d->rq.e[i].line == a.line) {
			me = &d->rq.e[i];
			break;
		}
	wait = d->now > now ? d->now - now : 0;
	if (d->bank_free[a.channel][a.bank] > d->now)
		wait += d->bank_free[a.channel][a.bank] - d->now;
	for (uint32_t i = 0; i < d->rq.n; i++) {
		const struct dram_req *r = &d->rq.e[i];

		if (r != me && r->channel == a.channel && r->bank == a.bank && (!me || r->seq < me->seq))
			ahead++;
	}
	if (d->draining)
		for (uint32_t i = 0; i < d->wq.n; i++)
			ahead += d->wq.e[i].channel == a.channel && d->wq.e[i].bank == a.bank;
	else if (me)
		ahead += me->wait_for;
	wait += ahead * busy;
	return wait < cap ? wait : cap;
}
