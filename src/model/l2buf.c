/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finite buffers with occupancy in time (src/model/l2buf.h). */
#include "l2buf.h"

#include <string.h>

void l2buf_init(struct l2buf_pool *p, uint32_t n)
{
	memset(p, 0, sizeof *p);
	p->n = n > L2BUF_MAX_ENTRIES ? L2BUF_MAX_ENTRIES : n;
}

unsigned l2buf_busy(const struct l2buf_pool *p, uint64_t t)
{
	unsigned busy = 0;

	if (t >= p->last_release)
		return 0;
	for (uint32_t i = 0; i < p->n; i++)
		busy += p->rel[i] > t;
	return busy;
}

uint64_t l2buf_take(struct l2buf_pool *p, uint64_t t, uint64_t hold)
{
	uint32_t first = 0;
	uint64_t start, wait = 0;

	if (!p->n)
		return 0;
	if (t >= p->last_release) { /* empty: any entry (the common case: one blocking strand) */
		first = p->next;
		p->next = first + 1 == p->n ? 0 : first + 1;
		p->rel[first] = t + hold;
		p->last_release = t + hold;
		return 0;
	}
	for (uint32_t i = 1; i < p->n; i++)
		if (p->rel[i] < p->rel[first])
			first = i;
	start = t;
	if (p->rel[first] > t) {
		wait = p->rel[first] - t;
		start = p->rel[first];
	}
	p->rel[first] = start + hold;
	if (p->rel[first] > p->last_release)
		p->last_release = p->rel[first];
	return wait;
}

void l2buf_fill_add(struct l2buf_fills *f, uint64_t line, uint32_t strand, uint64_t start, uint64_t done,
		    unsigned from)
{
	uint32_t i = f->next;

	f->next = (i + 1) % L2BUF_FILLS;
	f->line[i] = line + 1; /* 0: an empty slot */
	f->start[i] = start;
	f->done[i] = done;
	f->strand[i] = strand;
	f->from[i] = (uint8_t)from;
	if (done > f->last_done)
		f->last_done = done;
}

int l2buf_fill_pending(const struct l2buf_fills *f, uint64_t line, uint32_t strand, uint64_t t, uint64_t *done,
		       unsigned *from)
{
	int found = 0;

	if (t >= f->last_done)
		return 0;
	for (uint32_t i = 0; i < L2BUF_FILLS; i++)
		if (f->line[i] == line + 1 && f->strand[i] != strand && f->start[i] <= t && f->done[i] > t &&
		    (!found || f->done[i] < *done)) { /* the earliest pending fill of the line */
			*done = f->done[i];
			*from = f->from[i];
			found = 1;
		}
	return found;
}
