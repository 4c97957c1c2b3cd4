/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pipeline timing of a SPARC T4 strand (layer 2): the rules that turn
 * branch outcomes, I-cache fetches and memory stalls into cycles, and the
 * cause each cycle is charged to (enum hvpmu_pipe_cause), behind TABLE
 * 10-2 sl=1, 2, 5 (0x08), 7, 8, 9, 28 of
 * sparc-t4-performance-instrumentation.md.  docs/timing-model.md explains
 * every rule and figure; docs/machine-figures.md §5 cites the figures.
 *
 *   - branch target cache (BTC): PIPE_BTC_ENTRIES entries per strand,
 *     direct mapped by PC[7:2], tagged with PC[15:8]; only taken CTIs other
 *     than returns (the return stack predicts those) look it up and fill it.
 *     No entry: BTC miss; an entry whose target differs: BTC target
 *     incorrect.  Either costs the redirect bubble unless the CTI was
 *     mispredicted (the mispredict penalty covers it).
 *   - mispredict: a fixed penalty, refetch cycles first, then drain.
 *   - I-cache microtags: one 8-bit microtag (VA[19:12] of the line) per
 *     way of every L1I set, kept beside the tag cache in way order; a fetch
 *     predicts the first way whose microtag matches and checks the
 *     physical tag of that way.
 *   - DRAM queueing: the wait of a read behind the bank it needs, read
 *     from the DRAM model's queues when the read arrives.
 *
 * Plain data, allocation only in pipe_utag_init(), deterministic, not
 * thread-safe (one caller per strand / core, as the machine).
 */
#ifndef HVPMU_MODEL_PIPELINE_H
#define HVPMU_MODEL_PIPELINE_H

#include <stdint.h>
#include <string.h>
#include <hvpmu/machine.h>
#include <hvpmu/md.h>
#include <hvpmu/sparc_decode.h>

struct dram;

#define PIPE_BTC_ENTRIES 64     /* hvpmu's choice: docs/timing-model.md */
#define PIPE_BTC_INDEX_SHIFT 2  /* PC[7:2] */
#define PIPE_BTC_TAG_SHIFT 8    /* PC[15:8] */
#define PIPE_BTC_TAG_MASK 0xffu
#define PIPE_UTAG_SHIFT 12      /* microtag = VA[19:12] */
#define PIPE_UTAG_MASK 0xffu

struct pipe_btc_entry {
	uint64_t target;
	uint8_t tag;
	uint8_t valid;
};

/* Per strand. */
struct pipe_strand {
	struct pipe_btc_entry btc[PIPE_BTC_ENTRIES];
};

/* The BTC's verdict on a CTI (one field: the caller tests it with one
 * load, never two narrower stores read back as one wider load, which the
 * host cannot forward). */
enum pipe_btc_outcome {
	PIPE_BTC_HIT = 0,       /* no BTC event (or the CTI does not use the BTC) */
	PIPE_BTC_MISS,          /* HVPMU_MEV_BTC_MISS */
	PIPE_BTC_INCORRECT,     /* HVPMU_MEV_BTC_TARG_INCORRECT */
};

/* Stall cycles and front-end events one reported CTI produced. */
struct pipe_branch_cost {
	uint32_t causes;              /* bit c: cycles[c] is set (ISSUE never) */
	uint32_t btc;                 /* enum pipe_btc_outcome */
	uint64_t cycles[HVPMU_NPIPE]; /* user cycles by cause: only the causes' entries are written */
};

/* The cycles of cause k in *c (0 when not set). */
static inline uint64_t pipe_cost_cycles(const struct pipe_branch_cost *c, enum hvpmu_pipe_cause k)
{
	return (c->causes >> k) & 1u ? c->cycles[k] : 0;
}

void pipe_strand_init(struct pipe_strand *p);
/* The BTC's verdict on one executed CTI, trained: taken CTIs other than
 * returns (the return stack predicts those) look it up and fill it. */
static inline enum pipe_btc_outcome pipe_btc(struct pipe_strand *p, uint64_t pc, uint32_t f, int taken,
					     uint64_t target)
{
	struct pipe_btc_entry *e;
	uint8_t tag;
	enum pipe_btc_outcome btc;

	if (!taken || (f & HVPMU_IC_RET))
		return PIPE_BTC_HIT;
	e = &p->btc[(pc >> PIPE_BTC_INDEX_SHIFT) & (PIPE_BTC_ENTRIES - 1)];
	tag = (uint8_t)((pc >> PIPE_BTC_TAG_SHIFT) & PIPE_BTC_TAG_MASK);
	btc = !e->valid || e->tag != tag ? PIPE_BTC_MISS : e->target != target ? PIPE_BTC_INCORRECT : PIPE_BTC_HIT;
	e->valid = 1;
	e->tag = tag;
	e->target = target;
	return btc;
}

/*
 * One executed CTI (the call of hvpmu_machine_branch): `mispredicted` is
 * the branch predictor's verdict (bpred_update() >= 0).  Looks up and
 * trains the BTC and fills *cost with the timing of t.
 *
 * Inline: hvpmu_machine_branch() runs for every CTI, and the causes it
 * never sets fold away.
 */
static inline void pipe_branch(struct pipe_strand *p, const struct hvpmu_md_timing *t, uint64_t pc, uint32_t f,
			       int taken, uint64_t target, int mispredicted, struct pipe_branch_cost *cost)
{
	/* per CTI: only what is set is written (no clearing of every cause) */
	cost->causes = 0;
	cost->btc = PIPE_BTC_HIT;
	if (mispredicted) {
		/* footnote 10: the correct path is fetched once the branch
		 * executes, then waits at Select until the branch commits */
		uint64_t refetch = t->refetch_cycles < t->mispredict_cycles ? t->refetch_cycles : t->mispredict_cycles;

		cost->cycles[HVPMU_PIPE_REFETCH] = refetch;
		cost->cycles[HVPMU_PIPE_DRAIN] = t->mispredict_cycles - refetch;
		cost->causes |= 1u << HVPMU_PIPE_REFETCH | 1u << HVPMU_PIPE_DRAIN;
	}
	/* the BTC redirects fetch to taken CTIs' targets; returns use the
	 * return stack */
	cost->btc = pipe_btc(p, pc, f, taken, target);
	if (cost->btc != PIPE_BTC_HIT && !mispredicted) {
		cost->cycles[HVPMU_PIPE_FETCH] = t->btc_cycles;
		cost->causes |= 1u << HVPMU_PIPE_FETCH;
	}
}

/* Outcome of a fetch's microtag lookup (TABLE 10-2 sl=7). */
enum pipe_utag_outcome {
	PIPE_UTAG_HIT = 0,          /* microtag and ptag hit the same way */
	PIPE_UTAG_MISS_PTAG_MISS,   /* no microtag matches, the line is absent */
	PIPE_UTAG_MISS_PTAG_HIT,    /* no microtag matches, the line is present */
	PIPE_UTAG_HIT_PTAG_MISS,    /* a microtag matches, the line is absent */
	PIPE_UTAG_WAY_MISMATCH,     /* a microtag matches, the line is in another way */
};

/* One way: its microtag beside the line it belongs to (a 4-way set is one
 * 64-byte host cache line). */
struct pipe_utag_way {
	uint64_t line;        /* physical line address + 1, 0 = empty */
	uint64_t utag;        /* PIPE_UTAG_NONE when empty */
};
/* The microtag of an empty way: matches no fetch.  (An empty way never
 * predicts anyway -- it is not alive -- so this only spares the hot path
 * the emptiness test.) */
#define PIPE_UTAG_NONE (PIPE_UTAG_MASK + 1)

/* Microtag array of one L1I: sets x ways, in way order. */
struct pipe_utag {
	uint32_t sets, ways;
	struct pipe_utag_way *w; /* [sets * ways] */
};

/* 0 or -1 (ENOMEM / bad geometry). */
int pipe_utag_init(struct pipe_utag *u, uint32_t sets, uint32_t ways);
void pipe_utag_fini(struct pipe_utag *u);
/*
 * A fetch of physical line `pline` (byte address >> line shift) at virtual
 * address `va`, given what the L1I tag cache just did: `present` (hit),
 * and the line it evicted to fill this one (`evicted_line`, or
 * UINT64_MAX).  `probe(ctx, line)` tells whether a line is still in the
 * L1I (invalidations bypass the microtags).  Updates the microtags (a fill
 * writes its way; a hit through a mismatch retrains) and returns the
 * outcome.
 */
enum pipe_utag_outcome pipe_utag_fetch(struct pipe_utag *u, uint64_t va, uint64_t pline, int present,
				       uint64_t evicted_line, int (*probe)(const void *ctx, uint64_t line),
				       const void *ctx);

/*
 * Hot path of pipe_utag_fetch() for a line present in the L1I (a tag-cache
 * hit): 1 if the first way whose microtag matches `va` (so not empty)
 * holds `pline`.  pipe_utag_fetch(present = 1) then returns
 * PIPE_UTAG_HIT and changes nothing -- exact: every earlier way fails its
 * microtag compare or is empty, so it probes no line and empties no entry,
 * and the matching way is the line's own (alive, nothing to retrain).
 * 0: call pipe_utag_fetch().
 */
static inline int pipe_utag_hit_fast(const struct pipe_utag *u, uint64_t va, uint64_t pline)
{
	const struct pipe_utag_way *w;
	uint64_t ut = (va >> PIPE_UTAG_SHIFT) & PIPE_UTAG_MASK;

	/* an empty way's microtag is PIPE_UTAG_NONE: a match is a live entry */
	if (u->ways == 4) { /* the T4 L1I: unrolled, the set found by a shift */
		w = &u->w[(size_t)(pline & (u->sets - 1)) * 4];
		if (w[0].utag == ut)
			return w[0].line == pline + 1;
		if (w[1].utag == ut)
			return w[1].line == pline + 1;
		if (w[2].utag == ut)
			return w[2].line == pline + 1;
		return w[3].utag == ut && w[3].line == pline + 1;
	}
	w = &u->w[(size_t)(pline & (u->sets - 1)) * u->ways];
	for (uint32_t i = 0; i < u->ways; i++)
		if (w[i].utag == ut)
			return w[i].line == pline + 1;
	return 0;
}

/*
 * Cycles a read of `paddr` that just entered DRAM model *d at `now` will
 * wait before its bank issues it (docs/timing-model.md "DRAM queueing"):
 * the time the model spent making room for it, the bank's remaining busy
 * time, and one bank cycle per request queued before it for the same bank
 * (older reads; queued writes while the model drains writes, and the writes
 * it is deferred behind).  At most `cap`.
 */
uint64_t pipe_dram_read_wait(const struct dram *d, uint64_t now, uint64_t paddr, uint64_t cap);

#endif
