/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-strand store buffer: rules in stbuf.h, parameters and sources in
 * docs/memory-model.md "Store buffer" and docs/machine-figures.md.
 */
#include <string.h>
#include "stbuf.h"

#define RING_MASK (STBUF_MAX_ENTRIES - 1)
_Static_assert((STBUF_MAX_ENTRIES & RING_MASK) == 0, "ring size is a power of two");

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
	return 0;
}

/* Advance to `now`: drop the entries written to L2 by then (drain cycles
 * are non-decreasing, so from the head), accounting full cycles. */
static uint64_t advance(struct stbuf *sb, uint64_t now)
{
	if (now < sb->now)
		now = sb->now;
	sb->now = now;
	if (sb->n && sb->e[sb->head].drain <= now) {
		do {
			const struct stbuf_entry *e = &sb->e[sb->head];

			if (sb->n == sb->cap)
				sb->full_cycles += e->drain - sb->full_mark;
			for (uint64_t b = e->granules; b; b &= b - 1) {
				unsigned k = (unsigned)__builtin_ctzll(b);

				if (--sb->gcount[k] == 0)
					sb->filter &= ~(UINT64_C(1) << k);
			}
			sb->head = (sb->head + 1) & RING_MASK;
			sb->n--;
		} while (sb->n && sb->e[sb->head].drain <= now);
	}
	if (sb->n && sb->n == sb->cap) {
		sb->full_cycles += now - sb->full_mark;
		sb->full_mark = now;
	}
	return now;
}

uint64_t stbuf_store(struct stbuf *sb, uint64_t now, uint64_t addr, uint32_t size)
{
	struct stbuf_entry *e;
	uint64_t stall = 0, drain;

	if (!sb->cap)
		return 0;
	now = advance(sb, now);
	if (sb->n == sb->cap) { /* wait for the oldest entry to leave */
		stall = sb->e[sb->head].drain - now;
		sb->full_stalls++;
		sb->stall_cycles += stall;
		now = advance(sb, sb->e[sb->head].drain);
	}
	drain = now + (sb->drain_latency > sb->commit_cycles ? sb->drain_latency : sb->commit_cycles);
	if (drain < sb->last_drain + sb->drain_interval)
		drain = sb->last_drain + sb->drain_interval;
	sb->last_drain = drain;
	e = &sb->e[(sb->head + sb->n) & RING_MASK];
	e->addr = addr;
	e->size = size;
	e->commit = now + sb->commit_cycles;
	e->drain = drain;
	e->granules = stbuf_granules(addr, size ? size : 1);
	for (uint64_t b = e->granules; b; b &= b - 1)
		sb->gcount[__builtin_ctzll(b)]++;
	sb->filter |= e->granules;
	if (++sb->n == sb->cap)
		sb->full_mark = now;
	return stall;
}

enum stbuf_raw stbuf_load(struct stbuf *sb, uint64_t now, uint64_t addr, uint32_t size)
{
	if (!sb->n)
		return STBUF_RAW_NONE;
	now = advance(sb, now);
	for (uint32_t i = sb->n; i-- > 0;) { /* youngest first */
		const struct stbuf_entry *e = &sb->e[(sb->head + i) & RING_MASK];
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
	advance(sb, now);
}

uint32_t stbuf_occupancy(struct stbuf *sb, uint64_t now)
{
	advance(sb, now);
	return sb->n;
}
