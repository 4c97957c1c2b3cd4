/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine model (layer 2), its memory hierarchy (docs/memory-model.md):
 * the ITLB/DTLB and TSB walks (docs/tlb-model.md), L1I/L1D/L2/L3 caches,
 * coherence between cores and chips (docs/coherence-model.md), the L1D /
 * L2 / L3 request buffers, the store buffer, software and hardware
 * prefetch (docs/prefetch-model.md), DRAM traffic (docs/dram-model.md)
 * and the instruction fetch with its microtags (docs/timing-model.md).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "machine_internal.h"

/* ---- memory hierarchy (docs/memory-model.md) ---- */

void hvpmu_machine_enable_memory(struct hvpmu_machine *m, int on)
{
	hvpmu_machine_set_features(m, on ? m->requested | HVPMU_FEAT_MEMORY
					 : m->requested & (HVPMU_FEAT_TAKEN | HVPMU_FEAT_BRANCHES));
}

int hvpmu_machine_memory_enabled(const struct hvpmu_machine *m) { return m->ref_strands != 0; }

/* The parts the request needs (parts.c, docs/memory-model.md "Model
 * parts"); the strands' derived flags follow. */
void hvpmu_machine_set_features(struct hvpmu_machine *m, unsigned features)
{
	m->requested = features;
	m->parts = hvpmu_md_parts(&m->md, features);
	m->ref_strands = m->parts & HVPMU_PART_CORE ? m->nstrands : 0;
	machine_apply_parts(m);
}

unsigned hvpmu_machine_parts(const struct hvpmu_machine *m) { return m->parts; }

/* What the source reports: conditional outcomes if asked for, every CTI's
 * outcome for the predictor or the branch timing (the Origin's timing has
 * no branch rule: there only a counter of outcomes asks, its back-end's
 * HVPMU_FEAT_BRANCHES), references for the rest. */
unsigned hvpmu_machine_features(const struct hvpmu_machine *m)
{
	return (m->requested & HVPMU_FEAT_TAKEN) |
	       (m->parts & (HVPMU_PART_BPRED | HVPMU_PART_BTC) ? HVPMU_FEAT_BRANCHES : 0u) |
	       (m->ref_strands ? HVPMU_FEAT_MEMORY : 0u);
}

/* Where a miss was served (latency(), the events below). */
enum served {
	SERVED_L1, SERVED_L2, SERVED_L3, SERVED_MEM,
	/* coherence (docs/coherence-model.md) */
	SERVED_C2C,        /* another core's L2 on the same chip */
	SERVED_C2C_REMOTE, /* another core's L2 on another chip */
	SERVED_L3_REMOTE,  /* the home chip's L3, another chip */
	SERVED_MEM_REMOTE, /* the home chip's memory, another chip */
	SERVED_N,
};
_Static_assert(SERVED_N <= sizeof ((struct hvpmu_machine *)0)->served_latency / sizeof(uint64_t),
	       "a latency per served kind");

static uint64_t latency_of(const struct hvpmu_machine *m, enum served from);

void machine_apply_parts(struct hvpmu_machine *m)
{
	int bufs = (m->parts & HVPMU_PART_BUFFERS) != 0;

	for (unsigned k = 0; k < SERVED_N; k++)
		m->served_latency[k] = latency_of(m, (enum served)k);
	for (uint32_t c = 0; c < m->ncores; c++) {
		struct core *k = &m->cores[c];

		k->l2bufs = bufs && k->l2.sets && (k->l2mb.n || k->l2fb.n || k->l2wb.n || m->l3mb[k->chip].n);
		k->l1bufs = bufs && k->l1mb.n;
		k->dup_track = k->nrunning > 1 && k->l1bufs;
		k->utag_on = (m->parts & HVPMU_PART_UTAG) != 0;
	}
}

/* The TABLE 10-2 event of an L1I miss, an L1D load miss and a store by
 * where it was served: sl=5/11 and sl=16/23 fold local L2, local C2C and
 * local L3 into mask 0x01; remote L3 / memory / C2C are mask 0x04 (sl=11
 * 0x02).  sl=22 has no remote-L3 bit: such a store is a "store hit in L3"
 * (docs/coherence-model.md). */
static const uint8_t ic_event[SERVED_N] = {
	[SERVED_L2] = HVPMU_MEV_IC_MISS_L2L3, [SERVED_L3] = HVPMU_MEV_IC_MISS_L2L3,
	[SERVED_C2C] = HVPMU_MEV_IC_MISS_L2L3, [SERVED_MEM] = HVPMU_MEV_IC_MISS_MEM,
	[SERVED_C2C_REMOTE] = HVPMU_MEV_IC_MISS_REMOTE, [SERVED_L3_REMOTE] = HVPMU_MEV_IC_MISS_REMOTE,
	[SERVED_MEM_REMOTE] = HVPMU_MEV_IC_MISS_REMOTE,
};
static const uint8_t dc_event[SERVED_N] = {
	[SERVED_L2] = HVPMU_MEV_DC_MISS_L2L3, [SERVED_L3] = HVPMU_MEV_DC_MISS_L2L3,
	[SERVED_C2C] = HVPMU_MEV_DC_MISS_L2L3, [SERVED_MEM] = HVPMU_MEV_DC_MISS_MEM,
	[SERVED_C2C_REMOTE] = HVPMU_MEV_DC_MISS_REMOTE, [SERVED_L3_REMOTE] = HVPMU_MEV_DC_MISS_REMOTE,
	[SERVED_MEM_REMOTE] = HVPMU_MEV_DC_MISS_REMOTE,
};

/* The event of an L1D miss by the instruction of class flags `f`: an
 * ordinary load's by where it was served, or the one event of the block
 * loads, atomics and software prefetches (hvpmu/machine.h). */
static inline unsigned dc_miss_event(uint32_t f, unsigned from)
{
	return (f & (HVPMU_IC_BLOCK | HVPMU_IC_PREFETCH | HVPMU_IC_ATOMIC)) ? HVPMU_MEV_DC_MISS_SPECIAL : dc_event[from];
}
/* sl=21 (L2-destined prefetches): 0x01 L2, 0x04 L3 - any chip's, and a
 * line another L2 supplies (the table has no remote-L3 or C2C bit) -,
 * 0x08 local memory, 0x10 remote memory (docs/prefetch-model.md). */
static const uint8_t pf_event[SERVED_N] = {
	[SERVED_L2] = HVPMU_MEV_PF_HIT_L2, [SERVED_L3] = HVPMU_MEV_PF_HIT_L3,
	[SERVED_C2C] = HVPMU_MEV_PF_HIT_L3, [SERVED_C2C_REMOTE] = HVPMU_MEV_PF_HIT_L3,
	[SERVED_L3_REMOTE] = HVPMU_MEV_PF_HIT_L3, [SERVED_MEM] = HVPMU_MEV_PF_HIT_MEM,
	[SERVED_MEM_REMOTE] = HVPMU_MEV_PF_HIT_REMOTE,
};
static const uint8_t st_event[SERVED_N] = {
	[SERVED_L2] = HVPMU_MEV_ST_HIT_L2, [SERVED_L3] = HVPMU_MEV_ST_HIT_L3,
	[SERVED_MEM] = HVPMU_MEV_ST_MEM, [SERVED_C2C] = HVPMU_MEV_ST_L2_LOCAL_C2C,
	[SERVED_C2C_REMOTE] = HVPMU_MEV_ST_L2_REMOTE_C2C, [SERVED_L3_REMOTE] = HVPMU_MEV_ST_HIT_L3,
	[SERVED_MEM_REMOTE] = HVPMU_MEV_ST_REMOTE,
};

static struct core *core_of(struct hvpmu_machine *m, uint32_t strand)
{
	return m->s[strand].core;
}

static struct cache *l3_of(struct hvpmu_machine *m, uint32_t strand)
{
	return m->s[strand].l3;
}

/* The strand's current cycle, and the chip's (the DRAM models' clock). */
uint64_t machine_strand_now(struct hvpmu_machine *m, uint32_t strand)
{
	const struct strand *s = &m->s[strand];
	uint64_t now = tick_of(s) + s->pending[HVPMU_MODE_USER] + s->pending[HVPMU_MODE_PRIV] +
		       s->pending[HVPMU_MODE_HYPER];

	if (now > m->chip_now)
		m->chip_now = now;
	return m->chip_now;
}

/* A line read from or written back to memory: the DRAM channel of the
 * line's home chip that owns it (the platform's rule: T4's MCU by
 * dram_map(), T1's L2 bank) queues it at the chip's current cycle. */
static void dram_traffic(struct hvpmu_machine *m, uint32_t strand, uint64_t addr, int write)
{
	uint32_t chip = coh_home(&m->coh, addr);
	unsigned port;
	struct dram *d;
	uint64_t now = machine_strand_now(m, strand);

	/* no DRAM model (SGI Origin: memory is behind its node's Hub), or
	 * nothing reads it (parts.c) */
	if (!m->ndram || !(m->parts & HVPMU_PART_DRAM))
		return;
	d = &m->dram[m->dram_channel(addr, chip, &port)]; /* the platform's rule (platform.h) */
	dram_request(d, now, addr, write, port);
	/* a read's queueing wait adds to the load's latency (pipeline.h) */
	if (!write && m->md.timing.dram_wait_cap)
		m->s[strand].dram_wait = pipe_dram_read_wait(d, now, addr, m->md.timing.dram_wait_cap);
}

/* Access the chip's last level.  A read allocates, reading memory on a
 * miss; so does a store from an L1 when there is no private L2 (T1: a
 * write-allocate, write-back shared L2).  An L2 write-back (`wb`, part of
 * a last-level line) marks a present line dirty, and goes on to memory
 * when the line is absent (no allocation: the rest of the line would be
 * stale).  A dirty victim is written back to memory.  1 on a hit. */
static inline __attribute__((always_inline)) int llc_access(struct hvpmu_machine *m, uint32_t strand,
							     uint64_t addr, int write, int wb)
{
	/* the L3 of the line's home chip (docs/coherence-model.md); one chip: the strand's */
	struct cache *l3 = m->md.chips > 1 ? &m->l3[coh_home(&m->coh, addr)] : l3_of(m, strand);
	struct cache_result r;

	if (__builtin_expect(!l3->sets, 0)) { /* no shared last level: memory serves */
		dram_traffic(m, strand, addr, wb);
		return 0;
	}
	cache_access(l3, addr, !wb, write, &r);
	if (!r.hit)
		dram_traffic(m, strand, addr, wb);
	if (r.evicted && r.evicted_dirty)
		dram_traffic(m, strand, r.evicted_line << l3->line_shift, 1);
	return r.hit;
}

/* Another core's store invalidated an L1 line of core `core`: sl=20 is not
 * strand-specific, the event counts on the strand that filled that core
 * last (it syncs at its next access: no precise location, none needed). */
static void snooped(void *ctx, uint32_t core, int icache)
{
	struct hvpmu_machine *m = ctx;
	struct strand *v = &m->s[m->cores[core].last_strand];

	mev_add(v, icache ? HVPMU_MEV_IC_SNOOP_INVAL : HVPMU_MEV_DC_SNOOP_INVAL, 1);
}

/* An L2 miss while other cores hold lines or on a multi-chip machine: a
 * dirty copy elsewhere is a cache-to-cache transfer (its data written home
 * on a load), otherwise the home chip's L3 or memory serves it; a store
 * invalidates all other copies. */
static __attribute__((noinline)) enum served coherent_miss(struct hvpmu_machine *m, uint32_t strand,
							   struct core *c, uint64_t addr, int write)
{
	int wb = 0;
	enum coh_src src = coh_on(&m->coh) ? coh_l2_miss(&m->coh, c->idx, addr, write, &wb, snooped, m)
					   : COH_NONE;
	/* the home: first touch on the Origin (origin_dir.c), else interleaved */
	uint32_t home = m->hub_act ? od_home(&m->od, addr, c->idx) : coh_home(&m->coh, addr);
	int remote = home != c->chip;

	if (wb)
		llc_access(m, strand, addr, 1, 1);
	if (m->xfer) { /* a line crosses the links (PAPR: dispatch.c) */
		uint32_t from = src == COH_C2C_REMOTE ? m->coh.owner_chip : src == COH_C2C_LOCAL ? c->chip : home;

		if (from != c->chip)
			m->xfer[from * m->md.chips + c->chip]++;
		if (wb) { /* the owner's dirty data written home */
			uint32_t wfrom = src == COH_C2C_REMOTE ? m->coh.owner_chip : c->chip;

			if (wfrom != home)
				m->xfer[wfrom * m->md.chips + home]++;
		}
	}
	if (src != COH_NONE)
		return src == COH_C2C_LOCAL ? SERVED_C2C : SERVED_C2C_REMOTE;
	if (llc_access(m, strand, addr, 0, 0))
		return remote ? SERVED_L3_REMOTE : SERVED_L3;
	return remote ? SERVED_MEM_REMOTE : SERVED_MEM;
}

/* ---- request buffers (src/model/l2buf.h, docs/memory-model.md "L2 buffers") ---- */

static uint64_t sb_clock(const struct hvpmu_machine *m, const struct strand *s, uint64_t pc);
static inline uint64_t latency(const struct hvpmu_machine *m, enum served from);

static int served_by_memory(enum served from)
{
	return from == SERVED_MEM || from == SERVED_MEM_REMOTE;
}

/*
 * An L2 miss of `addr` served by `from`, at the strand's cycle t of the
 * access being modeled: it holds an L2 miss-buffer entry until its fill
 * returns (the latency beyond L2), an L3 miss-buffer entry of the home
 * chip while memory serves it, then a fill-buffer entry for fill_cycles;
 * a dirty victim holds a writeback-buffer entry for the L3 latency.  A
 * full buffer counts its sl=24 event and the request waits for the first
 * entry released (also sl=24 0x20, once per request); the waits add up in
 * s->l2b_wait, which demand loads and fetches add to their latency.
 */
static __attribute__((noinline)) void l2b_miss(struct hvpmu_machine *m, uint32_t strand, uint64_t addr,
					       enum served from, int dirty_victim)
{
	struct strand *s = &m->s[strand];
	struct core *c = s->core;
	const struct hvpmu_md_memory *mem = &m->md.mem;
	uint64_t t = sb_clock(m, s, s->l2b_pc);
	uint64_t hold = latency(m, from) - mem->l2.latency, w;
	int stalled = 0;

	if (l2buf_full(&c->l2mb, t)) {
		mev_add(s, HVPMU_MEV_L2_MB_FULL, 1);
		stalled = 1;
	}
	w = l2buf_take(&c->l2mb, t, hold);
	if (served_by_memory(from)) {
		struct l2buf_pool *l3 = &m->l3mb[m->md.chips > 1 ? coh_home(&m->coh, addr) : c->chip];

		w += l2buf_take(l3, t + w, hold - mem->l3.latency);
	}
	if (l2buf_full(&c->l2fb, t + w + hold)) {
		mev_add(s, HVPMU_MEV_L2_FB_FULL, 1);
		stalled = 1;
	}
	w += l2buf_take(&c->l2fb, t + w + hold, mem->buf.fill_cycles);
	if (dirty_victim) {
		if (l2buf_full(&c->l2wb, t)) {
			mev_add(s, HVPMU_MEV_L2_WB_FULL, 1);
			stalled = 1;
		}
		w += l2buf_take(&c->l2wb, t, mem->l3.latency);
	}
	if (stalled)
		mev_add(s, HVPMU_MEV_L2_PIPE_STALL, 1);
	s->l2b_wait += w;
	if (s->l2b_wait > m->l2b_cap)
		s->l2b_wait = m->l2b_cap;
}

/* Prefetch outcomes besides a fill (prefetch_line()). */
enum { PF_FILLED = 0, PF_DC_HIT = 1, PF_DROPPED = 2 };

/*
 * May a prefetch of line `a` enter the buffers?  A software prefetch is
 * dropped at the D-cache when l1d_pf_drop L1D miss-buffer entries are held
 * and more than one strand of the core runs (TABLE 10-2 sl=18 0x04 note);
 * a prefetch missing L2 is dropped when the L2 miss buffer is full (sl=24
 * 0x10; sl=21 0x02 if L2-destined), one missing the home L3 too when the
 * L3 miss buffer is full (sl=21 0x20 if L2-destined).
 */
static __attribute__((noinline)) int l2b_pf_admit(struct hvpmu_machine *m, uint32_t strand, uint64_t a, int sw,
						  int l2dest)
{
	struct strand *s = &m->s[strand];
	struct core *c = s->core;
	uint64_t t = sb_clock(m, s, s->l2b_pc);
	const struct cache *l3 = m->md.chips > 1 ? &m->l3[coh_home(&m->coh, a)] : s->l3;

	if (sw && c->nrunning > 1 && c->l1bufs && l2buf_busy(&c->l1mb, t) >= m->md.mem.buf.l1d_pf_drop) {
		mev_add(s, HVPMU_MEV_SWPF_DROP_MB_FULL, 1);
		return PF_DROPPED;
	}
	if (!c->l2bufs || cache_probe(&c->l2, a))
		return PF_FILLED;
	if (l2buf_full(&c->l2mb, t)) {
		mev_add(s, HVPMU_MEV_L2_MB_FULL, 1);
		if (l2dest)
			mev_add(s, HVPMU_MEV_PF_DROP_L2, 1);
		return PF_DROPPED;
	}
	if (l3->sets && !cache_probe(l3, a) && l2buf_full(&m->l3mb[l3 - m->l3], t)) {
		if (l2dest)
			mev_add(s, HVPMU_MEV_PF_DROP_L3, 1);
		return PF_DROPPED;
	}
	return PF_FILLED;
}

/* An L1D miss (load or prefetch) served by `from` holds an L1D miss-buffer
 * entry until its data returns; returns the cycles waited for the entry. */
static uint64_t l2b_l1_miss(struct hvpmu_machine *m, uint32_t strand, enum served from)
{
	struct strand *s = &m->s[strand];

	if (!s->core->l1bufs)
		return 0;
	return l2buf_take(&s->core->l1mb, sb_clock(m, s, s->l2b_pc), latency(m, from) + s->l2b_wait);
}

/*
 * TABLE 10-2 footnote 11: a load of strand `strand` that hits L1D in a
 * line another strand of the core missed and whose fill is still pending
 * at this strand's cycle is a duplicate miss: sl=16/23 count it ("count
 * primary and duplicate misses"), by where the primary miss was served,
 * and the load waits until the fill completes (data stall).  Only cores
 * with more than one running strand and a modeled L1D miss buffer (T4;
 * not T1, whose manual has no such rule) record fills (dref_line()).
 */
static __attribute__((noinline)) void dup_miss(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t a,
					       uint32_t f)
{
	struct strand *s = &m->s[strand];
	uint64_t t = sb_clock(m, s, pc), done;
	unsigned from;

	if (!l2buf_fill_pending(&s->core->fills, a >> s->core->l1d.line_shift, strand, t, &done, &from))
		return;
	mev_add(s, dc_miss_event(f, from), 1);
	if (!(f & HVPMU_IC_PREFETCH))
		charge(s, HVPMU_PIPE_DATA, done - t < m->l2b_cap ? done - t : m->l2b_cap);
	machine_mem_check(m, strand, pc);
}

/* SGI Origin: a directory event of CPU `cpu` (origin_dir.h) counts on
 * the strand that ran on it last, at its next sync (as snooped()). */
void machine_dir_event(void *ctx, uint32_t cpu, enum hvpmu_dir_event e)
{
	struct hvpmu_machine *m = ctx;

	if (cpu < m->ncores)
		m->s[m->cores[cpu].last_strand].dir_pending[e]++;
}

/* SGI Origin: the CPUs whose secondary cache holds the line of addr, before
 * a request of CPU `self` changes them (od_request()'s `holders`). */
static uint64_t origin_holders(const struct hvpmu_machine *m, uint32_t self, uint64_t addr)
{
	uint64_t h = 0;

	for (uint32_t i = 0; i < m->ncores; i++)
		if (i != self && m->cores[i].active && cache_probe(&m->cores[i].l2, addr))
			h |= UINT64_C(1) << (i % 64);
	return h;
}

/* SGI Origin: drop the line of pa from core `k`'s L2 and the L1 lines it
 * includes (a DMA write invalidated it). */
static void origin_drop(struct hvpmu_machine *m, uint32_t k, uint64_t pa)
{
	struct core *c = &m->cores[k];
	uint64_t byte = pa >> c->l2.line_shift << c->l2.line_shift;

	cache_invalidate_line(&c->l2, byte >> c->l2.line_shift);
	for (uint64_t b = byte; b < byte + (UINT64_C(1) << c->l2.line_shift); b += UINT64_C(1) << c->l1d.line_shift)
		cache_invalidate_line(&c->l1d, b >> c->l1d.line_shift);
	for (uint64_t b = byte; b < byte + (UINT64_C(1) << c->l2.line_shift); b += UINT64_C(1) << c->l1i.line_shift)
		cache_invalidate_line(&c->l1i, b >> c->l1i.line_shift);
}

/* The Hub whose I/O interface moves the program's bytes (docs/origin-directory.md "I/O"). */
#define ORIGIN_IO_NODE 0
#define ORIGIN_DMA_LINE 128 /* the coherence unit */

void hvpmu_machine_io_at(struct hvpmu_machine *m, uint32_t strand, int device_to_memory, uint64_t vaddr,
			 uint64_t bytes)
{
	uint64_t now, end = vaddr + bytes;

	hvpmu_machine_io(m, strand, device_to_memory, bytes); /* T1: the JBUS */
	if (!m->hub_act || !m->md.io_dma || !m->ref_strands || strand >= m->nstrands || !vaddr || !bytes ||
	    end < vaddr)
		return;
	now = machine_strand_now(m, strand);
	for (uint64_t va = vaddr & ~(uint64_t)(ORIGIN_DMA_LINE - 1); va < end; va += ORIGIN_DMA_LINE) {
		int whole = va >= vaddr && va + ORIGIN_DMA_LINE <= end;
		enum od_io r = !device_to_memory ? OD_IO_READ : whole ? OD_IO_WINV : OD_IO_RDEX;
		uint64_t pa, drop;

		/* the process's page table, not a CPU's TLB: the device has none */
		if (tlb_mmu_translate(m->mmu, m->s[strand].user_ctx, va, &pa, NULL))
			continue;
		drop = od_io_request(&m->od, m->hub_act, ORIGIN_IO_NODE % m->od.nodes, pa, r, now,
				     origin_holders(m, UINT32_MAX, pa));
		for (uint32_t k = 0; drop && k < m->ncores; k++)
			if (drop & (UINT64_C(1) << (k % 64)) && m->cores[k].active)
				origin_drop(m, k, pa);
	}
}

/*
 * Bring the line of `addr` into the core's L2 (and the L3) for a miss at L1
 * or a store; returns where it was found.  L2 is inclusive of the core's
 * L1s: a line it evicts is invalidated in L1I and L1D (sl=20 eviction
 * invalidations).  Writes allocate in L2 and mark the line dirty
 * (write-back L2).  With several active cores or chips the coherence rules
 * apply (coherent_miss(), docs/coherence-model.md).
 */
/* SGI Origin: request r of the strand's CPU at its home Hub (origin_dir.c);
 * a NACK's back-off adds to the access's wait. */
static __attribute__((noinline)) void origin_request(struct hvpmu_machine *m, uint32_t strand, uint64_t addr,
						    enum od_req r, uint64_t holders)
{
	struct strand *s = &m->s[strand];
	uint64_t w = od_request(&m->od, m->hub_act, s->core->idx, addr, r, machine_strand_now(m, strand), holders);

	if (w)
		s->l2b_wait = s->l2b_wait + w > m->l2b_cap ? m->l2b_cap : s->l2b_wait + w;
}

static enum served fill_l2(struct hvpmu_machine *m, uint32_t strand, uint64_t addr, int write)
{
	struct core *c = core_of(m, strand);
	struct strand *s = &m->s[strand];
	struct cache_result r2;
	enum served from = SERVED_L2;
	int coh, was_clean = 0;
	uint64_t holders = 0; /* Origin: the other CPUs holding the line, before this access */

	if (!c->l2.sets) /* no private L2 (T1): the shared level serves L1 misses */
		return llc_access(m, strand, addr, write, 0) ? SERVED_L3 : SERVED_MEM;
	if (__builtin_expect(!c->active, 0)) {
		c->active = 1;
		c->last_strand = strand;
		coh_activate(&m->coh, c->idx);
	}
	coh = coh_on(&m->coh);
	if (__builtin_expect(m->hub_act != NULL, 0)) {
		if (write) /* Origin: a store to a clean line upgrades */
			was_clean = coh_l2_state(&c->l2, addr) == 1;
		if (was_clean || (coh && !cache_probe(&c->l2, addr)))
			holders = origin_holders(m, c->idx, addr);
	}
	if (__builtin_expect(coh, 0)) {
		c->last_strand = strand;
		/* a store to a clean (Shared) line takes it from the other cores */
		if (write && coh_l2_state(&c->l2, addr) == 1)
			coh_upgrade(&m->coh, c->idx, addr, snooped, m);
	}
	cache_access(&c->l2, addr, 1, write, &r2);
	if (!r2.hit) {
		if (__builtin_expect(coh || m->md.chips > 1, 0))
			from = coherent_miss(m, strand, c, addr, write);
		else
			from = llc_access(m, strand, addr, 0, 0) ? SERVED_L3 : SERVED_MEM;
		if (c->l2bufs) /* request buffers (src/model/l2buf.h) */
			l2b_miss(m, strand, addr, from, r2.evicted && r2.evicted_dirty);
		if (__builtin_expect(m->hub_act != NULL, 0))
			origin_request(m, strand, addr, write ? OD_RDEX : OD_READ, holders);
	} else if (__builtin_expect(was_clean, 0)) {
		origin_request(m, strand, addr, OD_UPGRADE, holders);
	}
	if (r2.evicted) {
		uint64_t byte = r2.evicted_line << c->l2.line_shift;
		uint32_t l1 = 1u << c->l1i.line_shift;

		mev_add(s, r2.evicted_dirty ? HVPMU_MEV_L2_DIRTY_EVICT : HVPMU_MEV_L2_CLEAN_EVICT, 1);
		for (uint64_t b = byte; b < byte + (1u << c->l2.line_shift); b += l1) {
			if (cache_invalidate_line(&c->l1i, b >> c->l1i.line_shift))
				mev_add(s, HVPMU_MEV_IC_EVICT_INVAL, 1);
			if (cache_invalidate_line(&c->l1d, b >> c->l1d.line_shift))
				mev_add(s, HVPMU_MEV_DC_EVICT_INVAL, 1);
		}
		if (r2.evicted_dirty) /* the write-back lands in L3 */
			llc_access(m, strand, byte, 1, 1);
		if (r2.evicted_dirty && __builtin_expect(m->hub_act != NULL, 0)) /* Origin: to its home */
			origin_request(m, strand, byte, OD_WB, 0);
	}
	return from;
}

/* A C2C transfer costs an L3 access (the L3 bank forwards the request,
 * docs/machine-figures.md §2); another chip adds remote_latency.  Worked
 * out once per description (machine_apply_parts()): a table read per fill. */
static uint64_t latency_of(const struct hvpmu_machine *m, enum served from)
{
	const struct hvpmu_md_memory *mem = &m->md.mem;

	switch (from) {
	case SERVED_L2: return mem->l2.latency;
	case SERVED_L3: case SERVED_C2C: return mem->l2.latency + mem->l3.latency;
	case SERVED_MEM: return mem->l2.latency + mem->l3.latency + mem->mem_latency;
	case SERVED_C2C_REMOTE: case SERVED_L3_REMOTE:
		return mem->l2.latency + mem->l3.latency + m->md.remote_latency;
	case SERVED_MEM_REMOTE: return mem->l2.latency + mem->l3.latency + mem->mem_latency + m->md.remote_latency;
	default: return 0;
	}
}

static inline uint64_t latency(const struct hvpmu_machine *m, enum served from)
{
	return m->served_latency[from];
}

/* The wait of a fill served by `from`: its latency, and the DRAM
 * queueing of the strand's last memory read when memory served it. */
static uint64_t fill_wait(const struct hvpmu_machine *m, const struct strand *s, enum served from)
{
	return latency(m, from) + (served_by_memory(from) ? s->dram_wait : 0);
}

/* A tablewalk reference (TSB probe) goes through the strand's L2. */
static int walk_ref(void *ctx, uint64_t paddr)
{
	const struct walk_ctx *w = ctx;
	enum served from;

	/* Origin: the page table is the kernel's memory, which never
	 * migrates (docs/origin-directory.md "Migration") */
	w->m->od.kernel_ref = 1;
	from = fill_l2(w->m, w->strand, paddr, 0);
	w->m->od.kernel_ref = 0;
	/* sl=10: "hits in the L3 cache or hits in another L2 cache" is the L3 bit */
	switch (from) {
	case SERVED_L2: return TLB_REF_L2;
	case SERVED_L3: case SERVED_C2C: return TLB_REF_L3;
	default: return TLB_REF_MEM;
	}
}


/* Memory events of the tablewalk counters that moved from *b to s->ts. */
static void tlb_events(struct strand *s, enum tlb_side side, const struct tlb_stats *b)
{
	const struct tlb_stats *a = &s->ts;
	uint64_t d;
	int i_side = side == TLB_SIDE_I;

	if (i_side && (d = a->miss[side] - b->miss[side]))
		mev_add(s, HVPMU_MEV_ITLB_MISS, d);
	for (unsigned k = 0; k < TLB_NFILL; k++)
		if ((d = a->fill[side][k] - b->fill[side][k]))
			mev_add(s, (i_side ? HVPMU_MEV_ITLB_FILL_8K : HVPMU_MEV_DTLB_FILL_8K) + k, d);
	if ((d = a->fill_trap[side] - b->fill_trap[side]))
		mev_add(s, i_side ? HVPMU_MEV_ITLB_FILL_TRAP : HVPMU_MEV_DTLB_FILL_TRAP, d);
	for (unsigned r = 0; r < TLB_NREF; r++)
		if ((d = a->hwtw_ref[side][r] - b->hwtw_ref[side][r]))
			mev_add(s, (i_side ? HVPMU_MEV_HWTW_I_L2 : HVPMU_MEV_HWTW_D_L2) + r, d);
}

/*
 * Translate `va` of the user process through the strand's ITLB or DTLB:
 * a TLB hit costs nothing; a miss walks the TSB (references through L2),
 * fills or traps to the guest OS (docs/tlb-model.md), charges the walk to
 * user cycles and the fill-trap handler to privileged cycles.  Out of
 * modeled physical memory the address maps to itself.
 */
/* Hand the TSB hits of a walk (tlb_stats.tsb deltas) to the hypervisor's
 * miss handler: one call per hit, with that walk's %tick cycles. */
static void report_tsb_hits(struct hvpmu_machine *m, uint32_t strand, enum tlb_side side,
			    const struct tlb_stats *b)
{
	const struct tlb_stats *a = &m->s[strand].ts;

	for (unsigned cx = 0; cx < 2; cx++)
		for (unsigned code = 0; code < TLB_NPGSZ; code++) {
			uint64_t d = a->tsb[side][cx][code].hits - b->tsb[side][cx][code].hits;
			uint64_t t = a->tsb[side][cx][code].ticks - b->tsb[side][cx][code].ticks;

			for (uint64_t i = 0; i < d; i++)
				m->tsb_fn(m->tsb_ctx, strand, side == TLB_SIDE_D, (int)cx, code,
					  i + 1 < d ? t / d : t - (d - 1) * (t / d));
		}
}

static __attribute__((noinline)) uint64_t translate_slow(struct hvpmu_machine *m, uint32_t strand,
							 enum tlb_side side, uint64_t va, uint64_t pc)
{
	struct strand *s = &m->s[strand];
	struct tlb *t = side == TLB_SIDE_I ? s->itlb : s->dtlb;
	struct tlb_stats before;
	struct tlb_result res;
	uint64_t pa;

	if (side == TLB_SIDE_D) /* request buffers: the walk's references at the access's cycle */
		s->l2b_pc = pc;
	/* a hit: tlb_lookup() is tlb_access()'s hit path, which moves no
	 * counter and charges nothing, so the copy of the counters and the
	 * event scan below would find nothing to do */
	if (s->ctx < TLB_NCTX && tlb_lookup(t, s->ctx, va, &pa))
		return pa;
	before = s->ts;
	if (tlb_access(t, m->mmu, &s->ts, s->ctx, va, walk_ref, &s->wctx, &res) < 0)
		return va;
	/* an ITLB walk stalls fetch; a DTLB walk holds loads and stores at Pick */
	charge(s, side == TLB_SIDE_I ? HVPMU_PIPE_FETCH : HVPMU_PIPE_DTLB, res.walk_cycles);
	s->pending[HVPMU_MODE_PRIV] += res.trap_cycles;
	s->sb_other += res.trap_cycles;
	if (m->tsb_fn)
		report_tsb_hits(m, strand, side, &before);
	tlb_events(s, side, &before);
	machine_mem_check(m, strand, pc);
	return res.pa;
}

/* The TLB-hit fast path inline, the walk out of line (its frame is large). */
static inline uint64_t translate(struct hvpmu_machine *m, uint32_t strand, enum tlb_side side, uint64_t va,
				 uint64_t pc)
{
	struct strand *s = &m->s[strand];
	uint64_t pa;

	if (tlb_hit_fast(side == TLB_SIDE_I ? s->itlb : s->dtlb, s->ctx, va, &pa))
		return pa;
	return translate_slow(m, strand, side, va, pc);
}

/* An access's events are in: sync if a counter could have wrapped. */
void machine_mem_check(struct hvpmu_machine *m, uint32_t strand, uint64_t pc)
{
	struct strand *s = &m->s[strand];

	if (s->act.mem_refs >= s->act.mem_next_check) {
		s->mem_pc = pc;
		machine_sync_strand(m, strand, NULL, NULL, 1);
	}
}

/* ---- prefetch (src/model/prefetch.c, docs/prefetch-model.md) ---- */

/* 8 KB base pages: the hardware prefetcher stays inside one (TTE size 0). */
#define PF_PAGE_SHIFT 13

/* A prefetch (`sw`: software) of physical line `a` into L1D (and L2) or
 * L2 only; PF_DC_HIT if it was dropped because L1D holds the line,
 * PF_DROPPED if a full buffer dropped it (l2b_pf_admit()).  No latency:
 * prefetches do not stall the strand. */
static int prefetch_line(struct hvpmu_machine *m, uint32_t strand, uint64_t a, int to_l1, int sw,
			 enum served *from)
{
	struct core *c = m->s[strand].core;
	struct cache_result r;

	if (cache_probe(&c->l1d, a))
		return PF_DC_HIT;
	if ((c->l1bufs || c->l2bufs) && l2b_pf_admit(m, strand, a, sw, sw && !to_l1))
		return PF_DROPPED;
	if (to_l1)
		cache_access_clean(&c->l1d, a, 1, &r);
	m->s[strand].l2b_wait = 0;
	*from = fill_l2(m, strand, a, 0);
	l2b_l1_miss(m, strand, *from); /* no wait charged: a prefetch does not stall */
	return PF_FILLED;
}

/* The L1D hardware prefetcher after a demand-load miss of line `a`. */
static void hw_prefetch(struct hvpmu_machine *m, uint32_t strand, uint64_t a)
{
	struct strand *s = &m->s[strand];
	uint64_t t[PF_HW_MAX_DEGREE];
	unsigned n = pf_hw_targets(m->md.mem.l1d_hw_prefetch, a, s->core->l1d.line_shift, PF_PAGE_SHIFT, t);
	enum served from;

	for (unsigned k = 0; k < n; k++) {
		s->pf.hw_issued++;
		if (prefetch_line(m, strand, t[k], 1, 0, &from) == PF_DC_HIT)
			mev_add(s, HVPMU_MEV_HWPF_DROP_DC_HIT, 1);
	}
}

void hvpmu_machine_prefetch(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t vaddr,
			    enum hvpmu_pf_dest dest)
{
	struct strand *s;
	enum served from;
	uint64_t a;
	int pf;

	if (strand >= m->ref_strands)
		return;
	s = &m->s[strand];
	s->l2b_pc = pc; /* request buffers: the access's cycle */
	s->pf.sw_issued++;
	if (dest == HVPMU_PF_NONE) {
		s->pf.sw_nop++;
		return;
	}
	a = translate(m, strand, TLB_SIDE_D, vaddr, pc) & ~((UINT64_C(1) << s->core->l1d.line_shift) - 1);
	pf = prefetch_line(m, strand, a, dest == HVPMU_PF_L1, 1, &from);
	if (pf == PF_DC_HIT)
		mev_add(s, HVPMU_MEV_SWPF_DROP_DC_HIT, 1);
	else if (pf == PF_FILLED && dest == HVPMU_PF_L2) /* sl=21 counts only prefetches destined for L2 */
		mev_add(s, pf_event[from], 1);
	machine_mem_check(m, strand, pc);
}

void hvpmu_machine_prefetch_unresolved(struct hvpmu_machine *m, uint32_t strand)
{
	if (strand < m->ref_strands)
		m->s[strand].pf.sw_unresolved++;
}

int hvpmu_machine_prefetch_stats(const struct hvpmu_machine *m, uint32_t strand, struct hvpmu_prefetch_stats *st)
{
	const struct pf_stats *p;

	if (strand >= m->nstrands || !st)
		return HVPMU_ERANGE;
	p = &m->s[strand].pf;
	*st = (struct hvpmu_prefetch_stats){ p->sw_issued, p->sw_nop, p->sw_unresolved, p->hw_issued };
	return HVPMU_OK;
}

/* ---- store buffer (src/model/stbuf.h, docs/memory-model.md "Store buffer") ---- */

#define SB_INSN_BYTES 4

/*
 * The strand's cycle at the instruction at `pc`, the store buffer's
 * clock: one insn_cycles per instruction of the blocks entered before the
 * current one (act.bound at its hvpmu_machine_ifetch) and of the current
 * block before `pc`, plus every cycle charged to the strand that is not an
 * instruction's own (miss and tablewalk latencies, store-buffer stalls,
 * fill traps, system calls: %tick + pending - the instruction cycles
 * folded in at syncs).
 */
static uint64_t sb_other_cycles(const struct strand *s)
{
	/* s->sb_other moves with every cycle charged outside the syncs
	 * (charge(), hvpmu_machine_add_cycles(), fill traps); a sync moves
	 * pending into cycles and adds as much to sb_icycles as to pending */
	assert(s->sb_other == tick_of(s) + s->pending[HVPMU_MODE_USER] + s->pending[HVPMU_MODE_PRIV] +
				      s->pending[HVPMU_MODE_HYPER] - s->sb_icycles);
	return s->sb_other;
}

static uint64_t sb_clock(const struct hvpmu_machine *m, const struct strand *s, uint64_t pc)
{
	uint64_t pos = s->sb_blk_pos, off = pc - s->sb_blk_vaddr;

	if (off < s->sb_blk_bytes)
		pos += off / SB_INSN_BYTES;
	return pos * m->md.timing.insn_cycles + sb_other_cycles(s);
}

/* At a sync between blocks: bring the buffer to the start of the next
 * block (act.bound - next_len), so that full cycles are counted up to
 * then, the last time at the exit. */
void machine_sb_sync(const struct hvpmu_machine *m, struct strand *s)
{
	if (!s->sb.n || !(m->parts & HVPMU_PART_SB_RAW)) /* full cycles: the addresses' part */
		return;
	stbuf_advance(&s->sb, (s->act.bound - s->next_len) * m->md.timing.insn_cycles + sb_other_cycles(s));
	s->act.mev[HVPMU_MEV_SB_FULL_CYCLES] = s->sb.full_cycles;
}

/* Full cycles accounted by the buffer since the last look: the SB_full
 * event (several at once: the sync bound advances by all of them). */
static void sb_full_events(struct hvpmu_machine *m, uint32_t strand, uint64_t pc)
{
	struct strand *s = &m->s[strand];
	uint64_t d = s->sb.full_cycles - s->act.mev[HVPMU_MEV_SB_FULL_CYCLES];

	if (d) {
		mev_add(s, HVPMU_MEV_SB_FULL_CYCLES, d);
		machine_mem_check(m, strand, pc);
	}
}

/* The store-buffer events of a store: its stall and the full cycles
 * accounted since the last look. */
static __attribute__((noinline)) void sb_store_events(struct hvpmu_machine *m, uint32_t strand, uint64_t pc,
						      uint64_t wait)
{
	struct strand *s = &m->s[strand];

	/* one ring holds the store buffer and the store queue: a store that
	 * finds it full waits for a store-buffer tag (sl=9 0x08, a pipeline
	 * cause) because the store queue has not drained (sl=20 0x10) */
	charge(s, HVPMU_PIPE_SBFULL, wait);
	if (wait) {
		mev_add(s, HVPMU_MEV_SQ_TAG_WAIT, wait);
		machine_mem_check(m, strand, pc);
	}
	sb_full_events(m, strand, pc);
}

/* A store enters the buffer; a full buffer stalls the strand.  Inline:
 * without a stall and without new full cycles there is nothing to
 * account (charging 0 cycles changes nothing), the common case.  Without
 * HVPMU_PART_SB_RAW (parts.c) only the entries' drain cycles are kept:
 * the stalls come out the same, no address is kept for loads to look up
 * (the filter stays 0) and no full cycle is counted. */
static inline void sb_store(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t pa, unsigned size)
{
	struct strand *s = &m->s[strand];
	uint64_t wait;

	if (!(m->parts & HVPMU_PART_SB_RAW)) {
		if (m->parts & HVPMU_PART_SB) {
			wait = stbuf_store_time(&s->sb, sb_clock(m, s, pc));
			if (__builtin_expect(wait != 0, 0))
				sb_store_events(m, strand, pc, wait);
		}
		return;
	}
	wait = stbuf_store(&s->sb, sb_clock(m, s, pc), pa, size);
	if (__builtin_expect((wait | (s->sb.full_cycles ^ s->act.mev[HVPMU_MEV_SB_FULL_CYCLES])) != 0, 0))
		sb_store_events(m, strand, pc, wait);
}

/* A load looks for its bytes among the buffered stores (sl=19). */
static __attribute__((noinline)) void sb_load(struct hvpmu_machine *m, uint32_t strand, uint64_t pc,
					      uint64_t pa, unsigned size)
{
	struct strand *s = &m->s[strand];
	enum stbuf_raw raw = stbuf_load(&s->sb, sb_clock(m, s, pc), pa, size);

	sb_full_events(m, strand, pc);
	if (raw != STBUF_RAW_NONE) {
		mev_add(s, HVPMU_MEV_RAW_SB_FULL + raw, 1);
		machine_mem_check(m, strand, pc);
	}
}

/* One line of a data access (the slow part of hvpmu_machine_dref). */
static void dref_line(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t a, uint32_t f, int is_store)
{
	struct strand *s = &m->s[strand];
	struct core *c = s->core;
	struct cache_result r;
	enum served from;
	uint64_t bw;

	s->l2b_pc = pc; /* request buffers: the access's cycle */
	if (is_store) {
		/* L1D is write-through without write allocation: a store updates
		 * L1D if present and always goes to L2 */
		cache_access_clean(&c->l1d, a, 0, &r);
		from = fill_l2(m, strand, a, 1);
		mev_add(s, st_event[from], 1);
		/* stores retire into the store buffer: no latency charged */
	} else {
		cache_access_clean(&c->l1d, a, 1, &r);
		if (r.hit) {
			if (__builtin_expect(c->dup_track, 0)) /* footnote 11 duplicate misses */
				dup_miss(m, strand, pc, a, f);
			return; /* no event */
		}
		s->dram_wait = 0;
		s->l2b_wait = 0;
		from = fill_l2(m, strand, a, 0);
		bw = s->l2b_wait + l2b_l1_miss(m, strand, from); /* request buffers: waits for entries */
		if (bw > m->l2b_cap)
			bw = m->l2b_cap;
		if (m->md.mem.l1d_hw_prefetch && !(f & HVPMU_IC_PREFETCH))
			hw_prefetch(m, strand, a);
		mev_add(s, dc_miss_event(f, from), 1);
		/* software prefetches do not stall the pipeline */
		if (!(f & HVPMU_IC_PREFETCH)) {
			uint64_t wait = fill_wait(m, s, from) + bw;

			if (__builtin_expect(c->dup_track, 0)) { /* the fill is pending until the data returns */
				uint64_t t = sb_clock(m, s, pc);

				l2buf_fill_add(&c->fills, a >> c->l1d.line_shift, strand, t, t + wait, from);
			}
			charge(s, HVPMU_PIPE_DATA, wait);
		}
	}
	machine_mem_check(m, strand, pc);
}

/*
 * Fast path of a store to one line (docs/memory-model.md "Performance"):
 * when the line is the most recently used one of its L1D set and of its
 * L2 set, the store's L1D update and L2 hit leave both LRU orders alone and
 * only set the L2 line's dirty bit: a store hit in L2 (sl=22 0x01) and one
 * memory reference.  With other cores active (coherence on) the L2 line
 * must be dirty already: Modified, held by no other core, so nothing is
 * snooped (docs/coherence-model.md).  Returns 1 when it applied.
 */
static inline int store_fast(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t pa)
{
	struct strand *s = &m->s[strand];
	struct core *c = s->core;
	uint64_t l2line, *slot;

	if (!c->l2.sets || !c->active)
		return 0;
	l2line = pa >> c->l2.line_shift;
	slot = cache_mru_slot(&c->l2, l2line);
	if (*slot << 1 != (l2line + 1) << 1) /* the word without CACHE_DIRTY (bit 63; keys < 2^63, cache.h) */
		return 0;
	/* the L1D line MRU in its set, or not in L1D at all: L1D is not
	 * write-allocate, so the store's L1D lookup then misses and changes
	 * no set either (only the unused version would move).  After the L2
	 * check: the set search only for stores that can take this path. */
	if (!cache_mru_hit_clean(&c->l1d, pa >> c->l1d.line_shift) && cache_holds_clean(&c->l1d, pa >> c->l1d.line_shift))
		return 0;
	/* a store to a clean line: other cores may hold it (coherence), or
	 * the Origin's directory sees it (fill_l2(): an upgrade, or the
	 * R10000's event 30 for a clean-exclusive line) */
	if (coh_on(&m->coh) || __builtin_expect(m->hub_act != NULL, 0)) {
		if (!(*slot & CACHE_DIRTY))
			return 0;
		c->last_strand = strand;
	}
	*slot |= CACHE_DIRTY;
	mev_add(s, HVPMU_MEV_ST_HIT_L2, 1);
	machine_mem_check(m, strand, pc);
	return 1;
}

/* The lines of a data access past the fast paths (an access crossing a
 * line boundary touches each line). */
static void dref_lines(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t pa, unsigned size,
		       uint32_t f, int is_store)
{
	const struct cache *l1d = &m->s[strand].core->l1d;
	uint64_t last = (pa + size - 1) >> l1d->line_shift;

	for (uint64_t l = pa >> l1d->line_shift; l <= last; l++)
		dref_line(m, strand, pc, l << l1d->line_shift, f, is_store);
}

/* 1 if [pa, pa + size) lies in one L1D line. */
static inline int one_line(const struct cache *l1d, uint64_t pa, unsigned size)
{
	return (pa >> l1d->line_shift) == (pa + size - 1) >> l1d->line_shift;
}

/* The cache model of a store past store_fast() (out of line: the
 * common store stays small). */
static __attribute__((noinline)) void dref_store_lines(struct hvpmu_machine *m, uint32_t strand, uint64_t pc,
						       uint64_t pa, unsigned size, uint32_t f)
{
	dref_lines(m, strand, pc, pa, size, f, 1);
}

/* A store at physical address `pa`: the store buffer, then the store fast
 * path or the cache model. */
static __attribute__((noinline)) void dref_store(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t pa,
						 unsigned size, uint32_t f)
{
	/* called only from dref() (through dref_translate() too), which
	 * returns on size 0: stbuf_store() need not handle it */
	if (!size)
		__builtin_unreachable();
	sb_store(m, strand, pc, pa, size); /* store buffer: docs/memory-model.md */
	if (one_line(&m->s[strand].core->l1d, pa, size) && store_fast(m, strand, pc, pa))
		return;
	dref_store_lines(m, strand, pc, pa, size, f);
}

/* A load at physical address `pa` past the inline fast path of
 * hvpmu_machine_dref: the store-buffer lookup if its filter allows a hit,
 * then the L1D fast path or the cache model. */
static __attribute__((noinline)) void dref_load(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t pa,
						unsigned size, uint32_t f)
{
	struct strand *s = &m->s[strand];
	const struct core *c = s->core;

	if (s->sb.filter && stbuf_may_hit(&s->sb, pa, size) && !(f & HVPMU_IC_PREFETCH))
		sb_load(m, strand, pc, pa, size);
	/* the fast path of hvpmu_machine_dref, after the lookup */
	if (one_line(&c->l1d, pa, size) && cache_mru_hit_clean(&c->l1d, pa >> c->l1d.line_shift) && !c->dup_track)
		return;
	dref_lines(m, strand, pc, pa, size, f, 0);
}

/* A data access whose page misses the DTLB's MRU slot (four arguments,
 * as hvpmu_machine_dref_insn(): dref() reaches it with a tail call). */
static __attribute__((noinline)) void dref_translate(struct hvpmu_machine *m, uint32_t strand,
						     const struct hvpmu_dref_insn *d, uint64_t vaddr)
{
	uint64_t pa = translate(m, strand, TLB_SIDE_D, vaddr, d->pc);

	if (d->is_store)
		dref_store(m, strand, d->pc, pa, d->size, d->si_flags);
	else
		dref_load(m, strand, d->pc, pa, d->size, d->si_flags);
}

/*
 * SGI Origin: a load or store in the Hub's fetch-and-op region (md.h
 * fetchop_va; docs/origin-directory.md "Fetch-and-op"): an uncached
 * access, so no cache is looked up and none fills; a fetch-and-op at the
 * home Hub of its page (od_fetchop); a load waits for memory, the node's
 * or a remote one.  QEMU runs it as a plain access: the model counts the
 * reference, not the operation's value.
 */
static __attribute__((noinline)) void dref_fetchop(struct hvpmu_machine *m, uint32_t strand,
						   const struct hvpmu_dref_insn *d, uint64_t vaddr)
{
	struct strand *s = &m->s[strand];
	uint64_t pa = translate(m, strand, TLB_SIDE_D, vaddr, d->pc);
	uint32_t cpu = s->core->idx;

	od_fetchop(&m->od, m->hub_act, cpu, pa, d->is_store, machine_strand_now(m, strand));
	if (!d->is_store)
		charge(s, HVPMU_PIPE_DATA,
		       latency(m, od_home(&m->od, pa, cpu) == s->core->chip ? SERVED_MEM : SERVED_MEM_REMOTE));
}

/*
 * A data access.  Inline here only the common case of a load: a DTLB hit
 * in its MRU slot's page (tlb_hit_micro), no buffered store that could overlap
 * it (the store buffer's filter), and a line most recently used in its
 * L1D set -- a hit that changes nothing (cache_mru_hit_clean,
 * docs/memory-model.md "Performance"; not on a core with several running
 * strands: duplicate misses).  Everything else goes to the functions
 * above as tail calls, so this one stays small (few saved registers).
 * The instruction's pc and flags are read through `d` only off the fast
 * path (hvpmu_machine_dref_insn passes the source's own description).
 * `plain`: the caller knows that the strand takes references, the size
 * is not 0 and there is no fetch-and-op region (hvpmu_machine_dref_plain).
 */
static inline __attribute__((always_inline)) void dref(struct hvpmu_machine *m, uint32_t strand,
						       const struct hvpmu_dref_insn *d, uint64_t vaddr, int plain)
{
	struct strand *s;
	const struct core *c;
	unsigned size = d->size;
	uint64_t pa, filter;

	if (!plain && (strand >= m->ref_strands || !size))
		return;
	if (!plain && __builtin_expect(vaddr - m->fop_va < m->fop_bytes, 0)) { /* Origin: never when 0 bytes */
		dref_fetchop(m, strand, d, vaddr);
		return;
	}
	s = &m->s[strand];
	/* SPARC accesses are naturally aligned: one page.  A failed
	 * tlb_hit_micro() changes nothing: translate() does it all. */
	if (!tlb_hit_micro(s->dtlb, s->ctx, vaddr, &pa)) {
		dref_translate(m, strand, d, vaddr);
		return;
	}
	if (d->is_store) {
		dref_store(m, strand, d->pc, pa, size, d->si_flags);
		return;
	}
	c = s->core;
	/* with an empty filter (no store buffered, or none kept with its
	 * address: parts.c) no load finds a buffered store; else a load of one
	 * 8-byte granule whose filter bit is clear (stbuf_may_hit()); other
	 * loads take dref_load() */
	filter = s->sb.filter;
	if ((filter && ((pa >> STBUF_GRANULE_SHIFT) != (pa + size - 1) >> STBUF_GRANULE_SHIFT ||
			((filter >> ((pa >> STBUF_GRANULE_SHIFT) & 63)) & 1))) ||
	    !one_line(&c->l1d, pa, size) || !cache_mru_hit_clean(&c->l1d, pa >> c->l1d.line_shift) || c->dup_track)
		dref_load(m, strand, d->pc, pa, size, d->si_flags);
}

void hvpmu_machine_dref(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t vaddr,
			unsigned size, uint32_t f, int is_store)
{
	const struct hvpmu_dref_insn d = { .pc = pc, .si_flags = f, .size = size, .is_store = is_store != 0 };

	dref(m, strand, &d, vaddr, 0);
}

void hvpmu_machine_dref_insn(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_dref_insn *d,
			     uint64_t vaddr)
{
	dref(m, strand, d, vaddr, 0);
}

int hvpmu_machine_dref_plain_ok(const struct hvpmu_machine *m)
{
	return m->ref_strands != 0 && !m->fop_bytes;
}

void hvpmu_machine_dref_plain(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_dref_insn *d,
			      uint64_t vaddr)
{
	dref(m, strand, d, vaddr, 1);
}

static int l1i_probe(const void *ctx, uint64_t line)
{
	const struct cache *l1i = ctx;

	return cache_probe(l1i, line << l1i->line_shift);
}

/* The microtag lookup of a fetch of line `pa` at `va` that the L1I just
 * looked up (*r): sl=7 events and the replay cycles of a microtag miss
 * with ptag hit or a way mismatch.  Returns 1 when the fetch replayed
 * (a hit whose events are accounted here). */
static int fetch_utag(struct hvpmu_machine *m, struct strand *s, uint64_t va, uint64_t pa,
		      const struct cache_result *r)
{
	static const int8_t mev[] = {
		[PIPE_UTAG_HIT] = -1,
		[PIPE_UTAG_MISS_PTAG_MISS] = HVPMU_MEV_MTAG_MISS_PTAG_MISS,
		[PIPE_UTAG_MISS_PTAG_HIT] = HVPMU_MEV_MTAG_MISS_PTAG_HIT,
		[PIPE_UTAG_HIT_PTAG_MISS] = HVPMU_MEV_MTAG_HIT_PTAG_MISS,
		[PIPE_UTAG_WAY_MISMATCH] = HVPMU_MEV_MTAG_WAY_MISMATCH,
	};
	struct core *c = s->core;
	enum pipe_utag_outcome o;

	o = pipe_utag_fetch(&c->utag, va, pa >> c->l1i.line_shift, r->hit,
			    r->evicted ? r->evicted_line : UINT64_MAX, l1i_probe, &c->l1i);
	if (o == PIPE_UTAG_HIT)
		return 0;
	mev_add(s, (unsigned)mev[o], 1);
	if (!r->hit) /* the miss path counts the reference */
		return 0;
	charge(s, HVPMU_PIPE_FETCH, m->md.timing.utag_cycles);
	machine_mem_check(m, s->wctx.strand, va);
	return 1;
}

#define FETCH_PAGE_SHIFT 13 /* the smallest page: 8 KB */

/* The ITLB translation of a fetch past tlb_hit_micro() (out of line). */
static __attribute__((noinline)) uint64_t fetch_translate(struct hvpmu_machine *m, uint32_t strand, uint64_t va)
{
	return translate(m, strand, TLB_SIDE_I, va, va);
}

/* A fetched line `pa` (at `a`, first byte fetched `va`) past the fast
 * path: the L1I access, its microtag lookup, and on a miss the fill from
 * L2 and its latency. */
static __attribute__((noinline)) void fetch_line_slow(struct hvpmu_machine *m, uint32_t strand, uint64_t a,
						      uint64_t va, uint64_t pa)
{
	struct strand *s = &m->s[strand];
	struct core *c = s->core;
	struct cache_result r;
	enum served from;

	cache_access_clean(&c->l1i, pa, 1, &r);
	/* a hit whose microtag predicts its way: nothing to account */
	/* without microtags (parts.c) a hit is all there is */
	if (r.hit && (!c->utag_on || pipe_utag_hit_fast(&c->utag, a, pa >> c->l1i.line_shift)))
		return;
	if (c->utag_on && (fetch_utag(m, s, a, pa, &r) || r.hit))
		return;
	s->dram_wait = 0;
	s->l2b_wait = 0;
	from = fill_l2(m, strand, pa, 0);
	mev_add(s, ic_event[from], 1);
	charge(s, HVPMU_PIPE_FETCH, fill_wait(m, s, from) + s->l2b_wait);
	machine_mem_check(m, strand, va);
}

/* The lines of a block past the fetch memo of hvpmu_machine_ifetch: one
 * translation per page, the L1I fast path inline, fetch_line_slow()
 * otherwise; then the block is remembered if it qualifies. */
static __attribute__((noinline)) void fetch_lines(struct hvpmu_machine *m, uint32_t strand, uint64_t vaddr,
						  uint32_t bytes, struct fetch_memo *memo)
{
	struct strand *s = &m->s[strand];
	struct core *c = s->core;
	uint64_t line, mask, page_va = UINT64_MAX, page_pa = 0, version = c->l1i.version;

	if (__builtin_expect(!s->l2b_ran, 0)) { /* a running strand of its core (sl=18 0x04) */
		s->l2b_ran = 1;
		c->nrunning++;
		c->dup_track = c->nrunning > 1 && c->l1bufs;
	}
	line = (uint64_t)1 << c->l1i.line_shift;
	mask = ~(line - 1);
	/* the page of the last fetch that hit the ITLB's MRU slot, if the ITLB
	 * has not changed since (its clock moves at every use of another
	 * entry, every fill and every demap): that entry is still the most
	 * recently used one, and translating again would change no stamp,
	 * clock or slot (at most the tlb->cur cache) */
	if (s->ipage_vpn == vaddr >> FETCH_PAGE_SHIFT && s->ipage_clock == s->itlb->clock) {
		page_va = s->ipage_vpn;
		page_pa = s->ipage_pa;
	}
	for (uint64_t a = vaddr & mask, end = (vaddr + bytes - 1) & mask;; a += line) {
		uint64_t pa;

		/* one translation per 8 KB page of the block: translating a later
		 * line of the page again would hit the entry just used, already
		 * the most recent one, and change nothing */
		if ((a >> FETCH_PAGE_SHIFT) == page_va) {
			pa = (page_pa | (a & ((UINT64_C(1) << FETCH_PAGE_SHIFT) - 1))) & mask;
		} else {
			uint64_t va = a > vaddr ? a : vaddr;

			page_va = va >> FETCH_PAGE_SHIFT;
			/* a failed tlb_hit_micro() changes nothing */
			if (tlb_hit_micro(s->itlb, s->ctx, va, &pa)) {
				s->ipage_vpn = page_va;
				s->ipage_pa = pa & ~((UINT64_C(1) << FETCH_PAGE_SHIFT) - 1);
				s->ipage_clock = s->itlb->clock;
			} else {
				pa = fetch_translate(m, strand, va);
			}
			page_pa = pa & ~((UINT64_C(1) << FETCH_PAGE_SHIFT) - 1);
			pa &= mask;
		}
		/* the line fetched last: a microtag hit (docs/timing-model.md) */
		if ((pa >> c->l1i.line_shift) + 1 != c->l1i.mru_key) {
			uint64_t pline = pa >> c->l1i.line_shift;

			/* a hit at way 0 whose microtag predicts its way: of
			 * cache_access() only mru_key would move (and the version,
			 * which this path leaves: no set changed), and the
			 * microtags change nothing */
			if (cache_mru_hit_clean(&c->l1i, pline) &&
			    (!c->utag_on || pipe_utag_hit_fast(&c->utag, a, pline)))
				c->l1i.mru_key = pline + 1;
			else
				fetch_line_slow(m, strand, a, a > vaddr ? a : vaddr, pa);
		}
		if (a == end)
			break;
	}
	/* remember a block of one page whose lines all took the fast path
	 * (the version stood still); its first line may have been skipped as
	 * the line fetched last: check that it is a fast-path hit too */
	if (c->l1i.version == version && (vaddr ^ (vaddr + bytes - 1)) >> FETCH_PAGE_SHIFT == 0 &&
	    c->l1i.line_shift <= FETCH_PAGE_SHIFT) {
		uint64_t pline = (page_pa | (vaddr & ((UINT64_C(1) << FETCH_PAGE_SHIFT) - 1))) >> c->l1i.line_shift;

		if (cache_mru_hit_clean(&c->l1i, pline) &&
		    (!c->utag_on || pipe_utag_hit_fast(&c->utag, vaddr & mask, pline))) {
			memo->vaddr = vaddr;
			memo->bytes = bytes;
			memo->version = version;
			memo->page_pa = page_pa;
			memo->last_key = c->l1i.mru_key;
		}
	}
}

/*
 * A block fetch.  Inline here only the fetch memo: this block (same start
 * and length, within one 8 KB page) was fetched before with every line a
 * fast-path hit of fetch_lines() -- at way 0 of its L1I set with a
 * microtag predicting it, or the line fetched last, also checked to be
 * one -- and the L1I version has not moved since.  The version moves at
 * every cache_access() and every invalidation of the L1I, and the
 * microtags change only in fetch_line_slow() after its cache_access():
 * so every set and microtag is as it was then.  If the strand's remembered
 * page (fetch_lines(): no translation needed) is the block's page and
 * maps to the same physical page, fetch_lines() would take the fast path
 * at every line again, of which only mru_key moves, to the last line.
 */
void hvpmu_machine_ifetch(struct hvpmu_machine *m, uint32_t strand, uint64_t vaddr, uint32_t bytes)
{
	struct strand *s;
	struct core *c;
	struct fetch_memo *memo;

	if (strand >= m->ref_strands || !bytes)
		return;
	s = &m->s[strand];
	s->sb_blk_vaddr = vaddr; /* the store buffer's clock, sb_clock() */
	s->sb_blk_bytes = bytes;
	s->sb_blk_pos = s->act.bound;
	s->l2b_pc = vaddr; /* request buffers: the fetch's cycle (block start) */
	c = s->core;
	/* (a strand's first fetch never hits the memo: fetch_lines() counts
	 * it as running) */
	memo = &s->fmemo[FETCH_MEMO_IDX(vaddr)];
	if (memo->vaddr == vaddr && memo->bytes == bytes && memo->version == c->l1i.version &&
	    s->ipage_vpn == vaddr >> FETCH_PAGE_SHIFT && s->ipage_pa == memo->page_pa &&
	    s->ipage_clock == s->itlb->clock) {
		c->l1i.mru_key = memo->last_key;
		return;
	}
	fetch_lines(m, strand, vaddr, bytes, memo);
}

int hvpmu_machine_map_large(struct hvpmu_machine *m, uint64_t va, uint64_t len, uint64_t bytes)
{
	return hvpmu_machine_map_large_ctx(m, USER_CTX, va, len, bytes);
}

int hvpmu_machine_map_large_ctx(struct hvpmu_machine *m, uint32_t ctx, uint64_t va, uint64_t len, uint64_t bytes)
{
	static const struct {
		uint64_t bytes;
		unsigned code;
	} sizes[] = {
		{ UINT64_C(64) << 10, TLB_PGSZ_64K }, { UINT64_C(4) << 20, TLB_PGSZ_4M },
		{ UINT64_C(256) << 20, TLB_PGSZ_256M }, { UINT64_C(2) << 30, TLB_PGSZ_2G },
	};

	for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (sizes[i].bytes == bytes) {
			if (ctx == 0 || ctx > HVPMU_CTX_MAX || tlb_mmu_add_region(m->mmu, ctx, va, len, sizes[i].code))
				return HVPMU_EINVAL;
			for (uint32_t k = 0; k < m->nstrands; k++) {
				tlb_demap_range(m->s[k].itlb, ctx, va, len);
				tlb_demap_range(m->s[k].dtlb, ctx, va, len);
			}
			return HVPMU_OK;
		}
	return HVPMU_EINVAL;
}

void hvpmu_machine_set_tsb_hit_handler(struct hvpmu_machine *m, hvpmu_tsb_hit_fn fn, void *ctx)
{
	m->tsb_fn = fn;
	m->tsb_ctx = ctx;
}

uint64_t hvpmu_machine_tsb_hits(const struct hvpmu_machine *m, uint32_t strand, int dmmu, int ctx_nonzero,
				unsigned size_code)
{
	if (strand >= m->nstrands || size_code >= TLB_NPGSZ)
		return 0;
	return m->s[strand].ts.tsb[dmmu ? TLB_SIDE_D : TLB_SIDE_I][ctx_nonzero ? 1 : 0][size_code].hits;
}
