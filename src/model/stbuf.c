/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-strand store buffer: rules in stbuf.h, parameters and sources in
 * docs/memory-model.md "Store buffer" and docs/machine-figures.md.
 */
#include <string.h>
#include "stbuf.h"

_Static_assert((STBUF_MAX_ENTRIES & STBUF_RING_MASK) == 0, "ring size is a power of two");

int stbuf_init(struct stbuf *sb, uint32_t entries, uint32_t commit_cycles, uint32_t drain_latency,
	       uint32_t drain_interval)
{
	memset(sb, 0, sizeof *sb);
	if (entries > STBUF_MAX_ENTRIES)
		return -1;
	sb->cap = entries;
	sb->commit_cycles = commit_cycles;
	sb->drain_latency = drain_latency;
	sb->drain_interval = drain_interval;
	sb->enter_latency = drain_latency > commit_cycles ? drain_latency : commit_cycles;
	return 0;
}

enum stbuf_raw stbuf_load(struct stbuf *sb, uint64_t now, uint64_t addr, uint32_t size)
{
	if (!sb->n)
		return STBUF_RAW_NONE;
	now = stbuf_advance_inline(sb, now);
	for (uint32_t i = sb->n; i-- > 0;) { /* youngest first */
		const struct stbuf_entry *e = &sb->e[(sb->head + i) & STBUF_RING_MASK];
		int sq;

		if (addr >= e->addr + e->size || e->addr >= addr + size)
			continue;
		sq = now >= e->commit;
		if (e->addr <= addr && addr + size <= e->addr + e->size)
			return sq ? STBUF_RAW_SQ_FULL : STBUF_RAW_SB_FULL;
		return sq ? STBUF_RAW_SQ_PARTIAL : STBUF_RAW_SB_PARTIAL;
	}
	return STBUF_RAW_NONE;
}

void stbuf_advance(struct stbuf *sb, uint64_t now)
{
	stbuf_advance_inline(sb, now);
}

uint32_t stbuf_occupancy(struct stbuf *sb, uint64_t now)
{
	stbuf_advance_inline(sb, now);
	return sb->n;
}
