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
 *    (UltraSPARC T1 PICL SB_full), accounted up to the latest `now` seen.
 * Time never runs backwards here: an earlier `now` is taken as the latest
 * one seen.  Plain data, no allocation; one strand's thread at a time.
 */
#ifndef HVPMU_MODEL_STBUF_H
#define HVPMU_MODEL_STBUF_H

#include <stdint.h>

#define STBUF_MAX_ENTRIES 16 /* ring size (a power of two) */

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
	uint32_t size;
};

struct stbuf {
	struct stbuf_entry e[STBUF_MAX_ENTRIES];
	uint32_t head, n;      /* oldest entry, occupancy */
	uint32_t cap, commit_cycles, drain_latency, drain_interval;
	uint64_t now;          /* latest cycle seen */
	uint64_t last_drain;   /* drain cycle of the youngest store so far */
	uint64_t full_mark;    /* while full: cycle up to which full_cycles is accounted */
	uint64_t full_cycles;  /* cycles with every entry occupied */
	uint64_t full_stalls;  /* stores that found the buffer full */
	uint64_t stall_cycles; /* cycles those stores waited */
};

/* Empty buffer with the given shape (md.h struct hvpmu_md_stbuf); returns
 * 0, or -1 if entries > STBUF_MAX_ENTRIES. */
int stbuf_init(struct stbuf *sb, uint32_t entries, uint32_t commit_cycles, uint32_t drain_latency,
	       uint32_t drain_interval);

/* A store of `size` bytes at `addr` at cycle `now`; returns the stall
 * cycles (0 unless the buffer was full).  No-op when entries == 0. */
uint64_t stbuf_store(struct stbuf *sb, uint64_t now, uint64_t addr, uint32_t size);

/* A load of `size` bytes at `addr` at cycle `now`: its enum stbuf_raw. */
enum stbuf_raw stbuf_load(struct stbuf *sb, uint64_t now, uint64_t addr, uint32_t size);

/* Entries present at cycle `now` (advances the buffer to `now`). */
uint32_t stbuf_occupancy(struct stbuf *sb, uint64_t now);

#endif
