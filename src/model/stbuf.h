/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-strand store buffer (docs/memory-model.md "Store buffer"): a small
 * FIFO ring of (address, size, commit cycle, drain cycle) entries.
 *
 *  - A store enters at the strand's cycle `now`.  It commits (moves from
 *    the T4 store buffer to the store queue, TABLE 10-2 sl=19) at
 *    now + commit_cycles and leaves (is written to L2) at
 *      drain = max(now + drain_latency, now + commit_cycles,
 *                  drain of the previous store + drain_interval).
 *  - A store that finds all `entries` occupied stalls until the oldest
 *    entry leaves; stbuf_store() returns the stall cycles.
 *  - A load is checked against the entries still present: the youngest
 *    entry overlapping its bytes decides the outcome (youngest data wins):
 *    all the load's bytes inside that store = full RAW hit, otherwise
 *    partial; in the store buffer if that store has not committed yet,
 *    else in the store queue.  Store-buffer hits thus supersede
 *    store-queue hits (TABLE 10-2 sl=19 note).
 *  - full_cycles counts the cycles during which every entry was occupied
 *    (UltraSPARC T1 PICL SB_full), accounted up to the latest `now` seen
 *    (stbuf_store, stbuf_load, stbuf_advance).
 *  - `filter` has bit (granule mod 64) set for each 8-byte granule a
 *    present entry covers (per-bit entry counts keep it exact as entries
 *    leave).  stbuf_may_hit() is the hot-path test: a load whose granules
 *    miss the filter cannot hit, and need not be looked up.
 * Time never runs backwards here: an earlier `now` is taken as the latest
 * one seen.  Plain data, no allocation; one strand's thread at a time.
 */
#ifndef HVPMU_MODEL_STBUF_H
#define HVPMU_MODEL_STBUF_H

#include <stdint.h>

#define STBUF_MAX_ENTRIES 16 /* ring size (a power of two) */
#define STBUF_RING_MASK (STBUF_MAX_ENTRIES - 1)

/* Outcome of a load (enum order = sl=19 mask bit order). */
enum stbuf_raw {
	STBUF_RAW_SB_FULL = 0,    /* sl=19 mask 0x01 */
	STBUF_RAW_SB_PARTIAL = 1, /* 0x02 */
	STBUF_RAW_SQ_FULL = 2,    /* 0x04 */
	STBUF_RAW_SQ_PARTIAL = 3, /* 0x08 */
	STBUF_RAW_NONE = 4,
};

struct stbuf_entry {
	uint64_t addr;
	uint64_t commit;  /* cycle the store leaves the store buffer for the store queue */
	uint64_t drain;   /* cycle the store leaves the structure (written to L2) */
	uint64_t granules;/* its filter bits, stbuf_granules() */
	uint32_t size;
};

struct stbuf {
	uint64_t filter;       /* granules of the present entries, see above (first: the load fast path) */
	uint32_t head, n;      /* oldest entry, occupancy */
	uint32_t cap, commit_cycles, drain_latency, drain_interval;
	uint32_t enter_latency; /* max(drain_latency, commit_cycles) */
	uint64_t now;          /* latest cycle seen */
	uint64_t last_drain;   /* drain cycle of the youngest store so far */
	uint32_t thead;        /* stbuf_store_time(): next slot of tdrain */
	uint64_t tdrain[STBUF_MAX_ENTRIES]; /* ... the drain cycles of the last `cap` stores (0: none) */
	uint64_t full_mark;    /* while full: cycle up to which full_cycles is accounted */
	uint64_t full_cycles;  /* cycles with every entry occupied */
	struct stbuf_entry e[STBUF_MAX_ENTRIES];
	uint8_t gcount[64];    /* present entries covering each filter bit */
	uint64_t full_stalls;  /* stores that found the buffer full */
	uint64_t stall_cycles; /* cycles those stores waited */
};

/* Empty buffer with the given shape (md.h struct hvpmu_md_stbuf); returns
 * 0, or -1 if entries > STBUF_MAX_ENTRIES. */
int stbuf_init(struct stbuf *sb, uint32_t entries, uint32_t commit_cycles, uint32_t drain_latency,
	       uint32_t drain_interval);


/* A load of `size` bytes at `addr` at cycle `now`: its enum stbuf_raw. */
enum stbuf_raw stbuf_load(struct stbuf *sb, uint64_t now, uint64_t addr, uint32_t size);

/* Entries present at cycle `now` (advances the buffer to `now`). */
uint32_t stbuf_occupancy(struct stbuf *sb, uint64_t now);

/* Advance to `now`: entries leave, full cycles are accounted. */
void stbuf_advance(struct stbuf *sb, uint64_t now);

#define STBUF_GRANULE_SHIFT 3

/* Filter bits of the 8-byte granules of [addr, addr + size), size >= 1. */
static inline uint64_t stbuf_granules(uint64_t addr, uint32_t size)
{
	uint64_t g = addr >> STBUF_GRANULE_SHIFT, last = (addr + size - 1) >> STBUF_GRANULE_SHIFT;
	uint64_t bits = 0;

	if (g == last) /* the common case: an aligned access of up to 8 bytes */
		return UINT64_C(1) << (g & 63);
	if (last - g >= 63)
		return ~UINT64_C(0);
	for (; g <= last; g++)
		bits |= UINT64_C(1) << (g & 63);
	return bits;
}

/* 0 if a load of [addr, addr + size) certainly finds no buffered store. */
static inline int stbuf_may_hit(const struct stbuf *sb, uint64_t addr, uint32_t size)
{
	return (sb->filter & stbuf_granules(addr, size)) != 0;
}

/* Inline: the per-store hot path. */

/* The oldest entry leaves: the filter counts of its granules go. */
static inline void stbuf_pop(struct stbuf *sb)
{
	uint64_t b = sb->e[sb->head].granules;

	if (b && !(b & (b - 1))) { /* one granule, the common case: the loop below, once */
		if (--sb->gcount[__builtin_ctzll(b)] == 0)
			sb->filter &= ~b;
	} else {
		for (; b; b &= b - 1) {
			unsigned k = (unsigned)__builtin_ctzll(b);

			if (--sb->gcount[k] == 0)
				sb->filter &= ~(UINT64_C(1) << k);
		}
	}
	sb->head = (sb->head + 1) & STBUF_RING_MASK;
	sb->n--;
}

/* Advance to `now`: drop the entries written to L2 by then (drain cycles
 * are non-decreasing, so from the head), accounting full cycles. */
static inline uint64_t stbuf_advance_inline(struct stbuf *sb, uint64_t now)
{
	if (now < sb->now)
		now = sb->now;
	sb->now = now;
	if (sb->n && sb->e[sb->head].drain <= now) {
		do {
			if (sb->n == sb->cap)
				sb->full_cycles += sb->e[sb->head].drain - sb->full_mark;
			stbuf_pop(sb);
		} while (sb->n && sb->e[sb->head].drain <= now);
	}
	if (sb->n && sb->n == sb->cap) {
		sb->full_cycles += now - sb->full_mark;
		sb->full_mark = now;
	}
	return now;
}

/* A store of `size` bytes at `addr` at cycle `now`; returns the stall
 * cycles (0 unless the buffer was full).  No-op when entries == 0. */
static inline uint64_t stbuf_store(struct stbuf *sb, uint64_t now, uint64_t addr, uint32_t size)
{
	struct stbuf_entry *e;
	uint64_t stall = 0, drain;

	if (!sb->cap)
		return 0;
	now = stbuf_advance_inline(sb, now);
	if (sb->n == sb->cap) { /* wait for the oldest entry to leave */
		stall = sb->e[sb->head].drain - now;
		sb->full_stalls++;
		sb->stall_cycles += stall;
		now = stbuf_advance_inline(sb, sb->e[sb->head].drain);
	}
	drain = now + sb->enter_latency;
	if (drain < sb->last_drain + sb->drain_interval)
		drain = sb->last_drain + sb->drain_interval;
	sb->last_drain = drain;
	e = &sb->e[(sb->head + sb->n) & STBUF_RING_MASK];
	e->addr = addr;
	e->size = size;
	e->commit = now + sb->commit_cycles;
	e->drain = drain;
	if ((addr >> STBUF_GRANULE_SHIFT) == (addr + (size ? size : 1) - 1) >> STBUF_GRANULE_SHIFT) {
		/* one granule, the common case: stbuf_granules() and the loop
		 * below for its single bit */
		unsigned k = (unsigned)(addr >> STBUF_GRANULE_SHIFT) & 63;

		e->granules = UINT64_C(1) << k;
		sb->gcount[k]++;
	} else {
		e->granules = stbuf_granules(addr, size ? size : 1);
		for (uint64_t b = e->granules; b; b &= b - 1)
			sb->gcount[__builtin_ctzll(b)]++;
	}
	sb->filter |= e->granules;
	if (++sb->n == sb->cap)
		sb->full_mark = now;
	return stall;
}

/*
 * A store's time alone (no address): the stall stbuf_store() returns for
 * the same sequence of `now`s, for a machine where nothing reads the
 * addresses (RAW hits) or the full cycles (parts.c).  It keeps only the
 * drain cycles of the last `cap` stores: drain cycles never decrease and
 * the present entries are the stores that have not drained, the youngest
 * ones, at most `cap`; so the buffer is full at `now` exactly when the
 * cap-th youngest store has not drained, and a store then waits until it
 * drains (stbuf_store(): until the oldest entry leaves).  Uses none of
 * the entries stbuf_store() and stbuf_load() use: a buffer is driven by
 * one or the other.
 */
static inline uint64_t stbuf_store_time(struct stbuf *sb, uint64_t now)
{
	uint64_t stall = 0, oldest, drain;

	if (!sb->cap)
		return 0;
	if (now < sb->now)
		now = sb->now;
	oldest = sb->tdrain[sb->thead];
	if (oldest > now) { /* full: wait for the oldest entry to leave */
		stall = oldest - now;
		sb->full_stalls++;
		sb->stall_cycles += stall;
		now = oldest;
	}
	sb->now = now;
	drain = now + sb->enter_latency;
	if (drain < sb->last_drain + sb->drain_interval)
		drain = sb->last_drain + sb->drain_interval;
	sb->last_drain = drain;
	sb->tdrain[sb->thead] = drain;
	sb->thead = sb->thead + 1 == sb->cap ? 0 : sb->thead + 1;
	return stall;
}

#endif
