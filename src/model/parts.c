/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which parts of the model run (docs/memory-model.md "Model parts"): the
 * outputs a counter reads (enum hvpmu_feature), the parts that produce
 * them (enum hvpmu_model_part), and the outputs those parts read in turn,
 * as data.  hvpmu_md_parts() runs the table to its closure on a machine
 * description: a part runs iff some requested output depends on it, so
 * that every requested output is the same as with every part on.
 *
 * The edges that carry a condition on the description are the ones where
 * a figure decides whether a part feeds another:
 *   - the clock (CYCLES) reads every part the description gives a cost:
 *     a store buffer with entries stalls stores, finite request buffers
 *     delay misses, the DRAM queues delay reads, microtag replays, branch
 *     bubbles and mispredict penalties cost cycles (docs/timing-model.md);
 *   - cache outcomes (CACHES) read the clock where the L1D / L2 / L3
 *     request buffers are finite: a prefetch is dropped, so fills no line,
 *     when a buffer is full at its cycle, and a load of a line another
 *     strand of the core is filling is a duplicate miss until the fill's
 *     cycle (docs/memory-model.md "L2 buffers"); and where the memory is
 *     behind the Origin's directory, whose busy lines NACK until a cycle
 *     (docs/origin-directory.md).  With unbounded buffers (UltraSPARC T1)
 *     nothing in the caches depends on time.
 * The TLBs read nothing of the caches or the clock: a tablewalk's TSB
 * probes go through L2, but where they are served changes only their
 * cycles and the tablewalk-reference events (CACHES).
 */
#include <hvpmu/hvpmu.h>
#include "machine_internal.h"
#include "platform.h"

#define MEV_F(e, f) [HVPMU_MEV_##e] = HVPMU_FEAT_##f

/* The output each memory event is (hvpmu/machine.h enum hvpmu_mem_event). */
static const uint16_t mev_feature[HVPMU_NMEV] = {
	MEV_F(IC_MISS_L2L3, CACHES), MEV_F(IC_MISS_MEM, CACHES), MEV_F(DC_MISS_L2L3, CACHES),
	MEV_F(DC_MISS_MEM, CACHES), MEV_F(ST_HIT_L2, CACHES), MEV_F(ST_HIT_L3, CACHES), MEV_F(ST_MEM, CACHES),
	MEV_F(L2_CLEAN_EVICT, CACHES), MEV_F(L2_DIRTY_EVICT, CACHES), MEV_F(IC_EVICT_INVAL, CACHES),
	MEV_F(DC_EVICT_INVAL, CACHES),
	MEV_F(ITLB_MISS, TLB), MEV_F(ITLB_FILL_8K, TLB), MEV_F(ITLB_FILL_64K, TLB), MEV_F(ITLB_FILL_4M, TLB),
	MEV_F(ITLB_FILL_256M, TLB), MEV_F(ITLB_FILL_2G, TLB), MEV_F(ITLB_FILL_TRAP, TLB),
	MEV_F(DTLB_FILL_8K, TLB), MEV_F(DTLB_FILL_64K, TLB), MEV_F(DTLB_FILL_4M, TLB),
	MEV_F(DTLB_FILL_256M, TLB), MEV_F(DTLB_FILL_2G, TLB), MEV_F(DTLB_FILL_TRAP, TLB),
	/* where a tablewalk's references were served: the caches' outcome */
	MEV_F(HWTW_I_L2, CACHES), MEV_F(HWTW_I_L3, CACHES), MEV_F(HWTW_I_MEM, CACHES),
	MEV_F(HWTW_D_L2, CACHES), MEV_F(HWTW_D_L3, CACHES), MEV_F(HWTW_D_MEM, CACHES),
	MEV_F(HWPF_DROP_DC_HIT, CACHES), MEV_F(SWPF_DROP_DC_HIT, CACHES), MEV_F(PF_HIT_L2, CACHES),
	MEV_F(PF_HIT_L3, CACHES), MEV_F(PF_HIT_MEM, CACHES), MEV_F(PF_HIT_REMOTE, CACHES),
	MEV_F(IC_MISS_REMOTE, CACHES), MEV_F(DC_MISS_REMOTE, CACHES), MEV_F(ST_L2_LOCAL_C2C, CACHES),
	MEV_F(ST_L2_REMOTE_C2C, CACHES), MEV_F(ST_REMOTE, CACHES), MEV_F(IC_SNOOP_INVAL, CACHES),
	MEV_F(DC_SNOOP_INVAL, CACHES),
	MEV_F(BTC_MISS, BTC), MEV_F(BTC_TARG_INCORRECT, BTC),
	MEV_F(MTAG_MISS_PTAG_MISS, UTAG), MEV_F(MTAG_MISS_PTAG_HIT, UTAG), MEV_F(MTAG_HIT_PTAG_MISS, UTAG),
	MEV_F(MTAG_WAY_MISMATCH, UTAG),
	MEV_F(RAW_SB_FULL, STBUF), MEV_F(RAW_SB_PARTIAL, STBUF), MEV_F(RAW_SQ_FULL, STBUF),
	MEV_F(RAW_SQ_PARTIAL, STBUF), MEV_F(SB_FULL_CYCLES, STBUF), MEV_F(SQ_TAG_WAIT, STBUF),
	MEV_F(SWPF_DROP_MB_FULL, BUFFERS), MEV_F(PF_DROP_L2, BUFFERS), MEV_F(PF_DROP_L3, BUFFERS),
	MEV_F(L2_FB_FULL, BUFFERS), MEV_F(L2_WB_FULL, BUFFERS), MEV_F(L2_MB_FULL, BUFFERS),
	MEV_F(L2_PIPE_STALL, BUFFERS),
	/* duplicate misses included: footnote 11, docs/coherence-model.md */
	MEV_F(DC_MISS_SPECIAL, CACHES),
};

unsigned hvpmu_machine_mev_features(uint64_t mevs)
{
	unsigned f = 0;

	for (; mevs; mevs &= mevs - 1) {
		unsigned e = (unsigned)__builtin_ctzll(mevs);

		if (e < HVPMU_NMEV)
			f |= mev_feature[e];
	}
	return f;
}

/* When an edge holds, by the machine description. */
enum part_cond {
	ALWAYS,
	MD_STBUF,         /* the store buffer has entries */
	MD_BUFFERS,       /* some L1D / L2 / L3 request buffer is finite */
	MD_DRAM_WAIT,     /* reads wait in the DRAM queues */
	MD_UTAG_CYCLES,   /* microtag replays cost cycles */
	MD_BRANCH_CYCLES, /* mispredicts or BTC misses cost cycles */
	MD_TIMED_CACHES,  /* cache contents or events depend on cycles: finite request buffers, a directory */
};

static int holds(const struct hvpmu_md *md, enum part_cond c)
{
	const struct hvpmu_md_l2buf *b = &md->mem.buf;
	int buffers = b->l1d_miss || (md->mem.l2.size && (b->l2_miss || b->l2_fill || b->l2_wb || b->l3_miss));

	switch (c) {
	case ALWAYS: return 1;
	case MD_STBUF: return md->mem.stbuf.entries != 0;
	case MD_BUFFERS: return buffers;
	case MD_DRAM_WAIT: return md->timing.dram_wait_cap != 0;
	case MD_UTAG_CYCLES: return md->timing.utag_cycles != 0;
	case MD_BRANCH_CYCLES:
		return md->timing.mispredict_cycles || md->timing.refetch_cycles || md->timing.btc_cycles;
	case MD_TIMED_CACHES: return buffers || platform_of(md)->timed_caches;
	}
	return 1;
}

#define F(x) HVPMU_FEAT_##x
#define P(x) HVPMU_PART_##x

/* Output `feat` needs `parts`, and reads the outputs `reads`, when `when`
 * holds.  The order does not matter: hvpmu_md_parts() runs to a fixed
 * point. */
static const struct part_rule {
	unsigned feat;
	enum part_cond when;
	unsigned parts;
	unsigned reads;
} rules[] = {
	{ F(MEMORY), ALWAYS, 0, HVPMU_FEAT_MEMORY_OUTPUTS },
	{ F(BRANCHES), ALWAYS, P(BPRED), 0 },
	{ F(TLB), ALWAYS, P(CORE), 0 },
	{ F(CACHES), ALWAYS, P(CORE), 0 },
	{ F(CACHES), MD_TIMED_CACHES, 0, F(CYCLES) | F(BUFFERS) },
	{ F(BTC), ALWAYS, P(BTC), 0 },
	{ F(UTAG), ALWAYS, P(CORE) | P(UTAG), F(CACHES) },
	{ F(STBUF), ALWAYS, P(CORE) | P(SB) | P(SB_RAW), F(CYCLES) },
	{ F(BUFFERS), ALWAYS, P(CORE) | P(BUFFERS), F(CYCLES) | F(CACHES) },
	{ F(DRAM), ALWAYS, P(CORE) | P(DRAM), F(CYCLES) | F(CACHES) },
	/* the clock: the instructions' cycles and every stall charged */
	{ F(CYCLES), ALWAYS, P(CORE), F(CACHES) | F(TLB) },
	{ F(CYCLES), MD_STBUF, P(SB), 0 },
	{ F(CYCLES), MD_BUFFERS, P(BUFFERS), 0 },
	{ F(CYCLES), MD_DRAM_WAIT, P(DRAM), 0 },
	{ F(CYCLES), MD_UTAG_CYCLES, P(UTAG), 0 },
	{ F(CYCLES), MD_BRANCH_CYCLES, P(BTC) | P(BPRED), 0 },
};

unsigned hvpmu_md_parts(const struct hvpmu_md *md, unsigned features)
{
	unsigned parts = 0, seen;

	do {
		seen = features;
		for (unsigned i = 0; i < sizeof rules / sizeof rules[0]; i++)
			if ((features & rules[i].feat) && holds(md, rules[i].when)) {
				parts |= rules[i].parts;
				features |= rules[i].reads;
			}
	} while (features != seen);
	return parts;
}
