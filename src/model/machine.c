/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine model (layer 2), its core: strands, privilege modes, the
 * instruction-driven timing model (%tick), syncs and overflow scheduling
 * (hvpmu/machine.h), traps towards the hypervisor, and branch outcomes into
 * the predictor and the pipeline timing.  The memory hierarchy is in
 * memhier.c, the PMU devices and their registers in regbus.c
 * (machine_internal.h).  Timing: docs/timing-model.md.
 */
#include <stdlib.h>
#include <string.h>
#include "kernel.h"
#include "dispatch.h"
#include "machine_internal.h"
#include "platform.h"

/* TLBs, the address space, and the DRAM models; latencies of tablewalk
 * references follow the memory model's (docs/tlb-model.md). */
static int create_mmu(struct hvpmu_machine *m)
{
	const struct platform_rec *pr = platform_of(&m->md);
	const struct tlb_chip *chip = pr->tlb;
	struct tlb_mmu_config cfg = chip->mmu;
	const struct hvpmu_md_memory *mem = &m->md.mem;

	cfg.ref_cycles[TLB_REF_L2] = mem->l2.latency;
	cfg.ref_cycles[TLB_REF_L3] = mem->l2.latency + mem->l3.latency;
	cfg.ref_cycles[TLB_REF_MEM] = mem->l2.latency + mem->l3.latency + mem->mem_latency;
	if (tlb_mmu_create(&cfg, &m->mmu))
		return -1;
	for (uint32_t i = 0; i < m->nstrands; i++) {
		m->s[i].wctx.m = m;
		m->s[i].wctx.strand = i;
		if (tlb_create(&chip->itlb, TLB_SIDE_I, &m->s[i].itlb) ||
		    tlb_create(&chip->dtlb, TLB_SIDE_D, &m->s[i].dtlb))
			return -1;
	}
	m->ndram = pr->dram_channels ? pr->dram_channels : m->nmcu;
	m->dram_channel = pr->dram_channel;
	m->dram = calloc(m->ndram, sizeof *m->dram);
	if (!m->dram)
		return -1;
	for (uint32_t i = 0; i < m->ndram; i++)
		if (dram_init(&m->dram[i], NULL))
			return -1;
	return 0;
}

/* The most cycles one instruction may take (syncs are spaced by it,
 * docs/timing-model.md), with and without the memory model. */
static void insn_bounds(struct hvpmu_machine *m, const struct hvpmu_md *md)
{
	/* worst case per instruction: a block access's micro-ops, a taken CTI,
	 * and full misses for its fetch and for a data access crossing lines */
	m->max_insn_cycles = (uint64_t)md->timing.insn_cycles * BLOCK_UOPS + md->timing.taken_cti_cycles +
			     MAX_MISSES_PER_INSN * ((uint64_t)md->mem.l2.latency + md->mem.l3.latency +
						    md->mem.mem_latency + (md->chips > 1 ? md->remote_latency : 0));
	/* pipeline timing (docs/timing-model.md): a mispredict or BTC bubble,
	 * microtag replays and DRAM queueing on every line */
	m->max_insn_cycles += (uint64_t)md->timing.mispredict_cycles + md->timing.btc_cycles +
			      MAX_MISSES_PER_INSN * ((uint64_t)md->timing.utag_cycles + md->timing.dram_wait_cap);
	/* request buffers: an access's buffer waits are capped at one memory
	 * round trip (l2b_miss(), docs/memory-model.md "L2 buffers") */
	m->l2b_cap = (uint64_t)md->mem.l2.latency + md->mem.l3.latency + md->mem.mem_latency +
		     (md->chips > 1 ? md->remote_latency : 0);
	m->max_insn_cycles += MAX_MISSES_PER_INSN * m->l2b_cap;
	/* store buffer: each store of a block store may wait for the oldest
	 * entry of a full buffer to leave (docs/memory-model.md "Store buffer") */
	m->max_insn_cycles += (uint64_t)BLOCK_UOPS * (md->mem.stbuf.drain_latency +
						     (uint64_t)md->mem.stbuf.entries * md->mem.stbuf.drain_interval);
	if (m->max_insn_cycles == 0)
		m->max_insn_cycles = 1;
	/* without the memory model no instruction misses, waits or
	 * mispredicts (the timing model runs with it): micro-ops and a taken
	 * CTI only.  The tighter bound spaces the syncs that approach a
	 * deadline (machine_schedule()) far less densely. */
	m->max_insn_cycles_nomem = (uint64_t)md->timing.insn_cycles * BLOCK_UOPS + md->timing.taken_cti_cycles;
	if (m->max_insn_cycles_nomem == 0)
		m->max_insn_cycles_nomem = 1;
}

/* The cores' caches and request buffers, the chips' last levels, and
 * coherence between them.  HVPMU_OK, HVPMU_ENOMEM or HVPMU_EINVAL (a
 * geometry the caches refuse); destroy cleans up. */
static int create_caches(struct hvpmu_machine *m, const struct hvpmu_md *md)
{
	m->ncores = md->chips * md->cores_per_chip;
	m->cores = calloc(m->ncores, sizeof *m->cores);
	m->l3 = calloc(md->chips, sizeof *m->l3);
	m->l3mb = calloc(md->chips, sizeof *m->l3mb);
	if (!m->cores || !m->l3 || !m->l3mb)
		return HVPMU_ENOMEM;
	/* request buffers (src/model/l2buf.h); T1 (no private L2): all 0 */
	for (uint32_t c = 0; c < m->ncores; c++) {
		l2buf_init(&m->cores[c].l1mb, md->mem.buf.l1d_miss);
		l2buf_init(&m->cores[c].l2mb, md->mem.l2.size ? md->mem.buf.l2_miss : 0);
		l2buf_init(&m->cores[c].l2fb, md->mem.l2.size ? md->mem.buf.l2_fill : 0);
		l2buf_init(&m->cores[c].l2wb, md->mem.l2.size ? md->mem.buf.l2_wb : 0);
	}
	for (uint32_t c = 0; c < md->chips; c++)
		l2buf_init(&m->l3mb[c], md->mem.l2.size ? md->mem.buf.l3_miss : 0);
	for (uint32_t c = 0; c < m->ncores; c++)
		if (cache_init(&m->cores[c].l1i, md->mem.l1i.size, md->mem.l1i.ways, md->mem.l1i.line) ||
		    cache_init(&m->cores[c].l1d, md->mem.l1d.size, md->mem.l1d.ways, md->mem.l1d.line) ||
		    (md->mem.l2.size &&
		     cache_init(&m->cores[c].l2, md->mem.l2.size, md->mem.l2.ways, md->mem.l2.line)) ||
		    pipe_utag_init(&m->cores[c].utag, m->cores[c].l1i.sets, m->cores[c].l1i.ways))
			return HVPMU_EINVAL;
	for (uint32_t c = 0; c < md->chips; c++) /* size 0: no shared last level (Origin) */
		if (md->mem.l3.size && cache_init(&m->l3[c], md->mem.l3.size, md->mem.l3.ways, md->mem.l3.line))
			return HVPMU_EINVAL;
	if (coh_init(&m->coh, m->ncores, md->chips, md->home_shift))
		return HVPMU_EINVAL;
	for (uint32_t c = 0; c < m->ncores; c++) {
		m->cores[c].idx = c;
		m->cores[c].chip = m->coh.core[c].chip;
		m->coh.core[c].l1i = &m->cores[c].l1i;
		m->coh.core[c].l1d = &m->cores[c].l1d;
		m->coh.core[c].l2 = &m->cores[c].l2;
	}
	return HVPMU_OK;
}

/* Each strand in its reset state: its core and last level, user mode,
 * its predictor, pipeline, store buffer and PMU.  HVPMU_OK, HVPMU_EINVAL
 * (a store buffer it refuses) or HVPMU_ENOMEM. */
static int create_strands(struct hvpmu_machine *m, const struct hvpmu_md *md)
{
	for (uint32_t i = 0; i < m->nstrands; i++) {
		m->s[i].core = &m->cores[i / md->strands_per_core];
		m->s[i].l3 = &m->l3[i / (md->strands_per_core * md->cores_per_chip)];
	}
	for (uint32_t i = 0; i < m->nstrands; i++) {
		m->s[i].act.next_check = UINT64_MAX;
		m->s[i].act.mem_next_check = UINT64_MAX;
		m->s[i].mode = HVPMU_MODE_USER;
		m->s[i].ctx = USER_CTX;
		m->s[i].user_ctx = USER_CTX;
		m->s[i].ipage_vpn = UINT64_MAX; /* none */
		bpred_init(&m->s[i].bp, platform_of(md)->call_return_offset);
		pipe_strand_init(&m->s[i].pipe);
		if (stbuf_init(&m->s[i].sb, md->mem.stbuf.entries, md->mem.stbuf.commit_cycles,
			       md->mem.stbuf.drain_latency, md->mem.stbuf.drain_interval))
			return HVPMU_EINVAL;
		if (!(m->s[i].pmu = m->ops->create(m->class_flags)))
			return HVPMU_ENOMEM;
	}
	return HVPMU_OK;
}

int hvpmu_machine_create(const struct hvpmu_md *md, struct hvpmu_machine **out)
{
	struct hvpmu_machine *m;
	uint32_t n;
	int rc;

	if (!md || !out)
		return HVPMU_EINVAL;
	n = hvpmu_md_nstrands(md);
	if (n == 0 || n > 4096 || !machine_pmu_ops_of(md->platform) ||
	    kernel_check(md))
		return HVPMU_EINVAL;
	m = calloc(1, sizeof *m);
	if (!m)
		return HVPMU_ENOMEM;
	m->md = *md;
	m->ops = machine_pmu_ops_of(md->platform);
	m->nstrands = n;
	insn_bounds(m, md);
	m->s = aligned_alloc(64, ((sizeof(struct strand) * n + 63) / 64) * 64);
	if (!m->s) {
		free(m);
		return HVPMU_ENOMEM;
	}
	memset(m->s, 0, sizeof(struct strand) * n);
	if ((rc = create_caches(m, md)) || (rc = create_strands(m, md)) || (rc = machine_devices_create(m)) ||
	    (rc = create_mmu(m)) || (rc = dispatch_create(m))) {
		hvpmu_machine_destroy(m);
		return rc == HVPMU_EINVAL ? HVPMU_EINVAL : HVPMU_ENOMEM;
	}
	hvpmu_machine_set_features(m, 0); /* instruction counts only, until the run says */
	*out = m;
	return HVPMU_OK;
}

void hvpmu_machine_destroy(struct hvpmu_machine *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; m->s && i < m->nstrands; i++)
		if (m->s[i].pmu)
			m->ops->destroy(m->s[i].pmu);
	dispatch_destroy(m);
	machine_devices_destroy(m);
	for (uint32_t c = 0; m->cores && c < m->ncores; c++) {
		cache_fini(&m->cores[c].l1i);
		cache_fini(&m->cores[c].l1d);
		cache_fini(&m->cores[c].l2);
		pipe_utag_fini(&m->cores[c].utag);
	}
	for (uint32_t c = 0; m->l3 && c < m->md.chips; c++)
		cache_fini(&m->l3[c]);
	coh_fini(&m->coh);
	for (uint32_t i = 0; m->s && i < m->nstrands; i++) {
		tlb_destroy(m->s[i].itlb);
		tlb_destroy(m->s[i].dtlb);
	}
	tlb_mmu_destroy(m->mmu);
	free(m->dram);
	free(m->cores);
	free(m->l3);
	free(m->l3mb);
	free(m->s);
	free(m);
}

const struct hvpmu_md *hvpmu_machine_md(const struct hvpmu_machine *m) { return &m->md; }
uint32_t hvpmu_machine_nstrands(const struct hvpmu_machine *m) { return m->nstrands; }

void hvpmu_machine_set_trap_handler(struct hvpmu_machine *m, hvpmu_trap_fn fn, void *ctx)
{
	m->trap_fn = fn;
	m->trap_ctx = ctx;
}

void hvpmu_machine_set_os_handler(struct hvpmu_machine *m, hvpmu_os_fn fn, void *ctx)
{
	m->os_fn = fn;
	m->os_ctx = ctx;
}

static void os_call(struct hvpmu_machine *m, const struct hvpmu_os_call *c)
{
	if (m->os_fn)
		m->os_fn(m->os_ctx, c);
}

int hvpmu_machine_os_event(struct hvpmu_machine *m, const struct hvpmu_os_call *c)
{
	if (c->ev != HVPMU_OS_HALT && c->ev != HVPMU_OS_UNCOUNTED && c->strand >= m->nstrands)
		return HVPMU_ERANGE;
	switch (c->ev) {
	case HVPMU_OS_THREAD_START: /* the OS dispatches the thread in user mode */
		hvpmu_machine_set_mode(m, c->strand, HVPMU_MODE_USER);
		os_call(m, c);
		return HVPMU_OK;
	case HVPMU_OS_SYSCALL: /* the trap instruction retired in user mode; the OS runs privileged */
		hvpmu_machine_set_mode(m, c->strand, HVPMU_MODE_PRIV);
		os_call(m, c);
		return HVPMU_OK;
	case HVPMU_OS_SYSRET:
		os_call(m, c);
		hvpmu_machine_set_mode(m, c->strand, HVPMU_MODE_USER);
		return HVPMU_OK;
	case HVPMU_OS_THREAD_EXIT:
	case HVPMU_OS_HALT:
	case HVPMU_OS_PROCESS_EXIT:
	case HVPMU_OS_UNCOUNTED:
		os_call(m, c);
		return HVPMU_OK;
	default:
		return HVPMU_EINVAL;
	}
}

void hvpmu_machine_cycle_rule(const struct hvpmu_machine *m, struct hvpmu_cycle_rule *out)
{
	*out = (struct hvpmu_cycle_rule){ .insn_cycles = m->md.timing.insn_cycles, .block_uops = BLOCK_UOPS,
					  .taken_cti_cycles = m->md.timing.taken_cti_cycles };
}

int hvpmu_machine_class(struct hvpmu_machine *m, uint32_t si_flags)
{
	struct hvpmu_cycle_rule rule;

	for (unsigned k = 0; k < m->nclass; k++)
		if (m->class_flags[k] == si_flags)
			return (int)k;
	if (m->nclass == HVPMU_MAX_ICLASS)
		return HVPMU_EFULL;
	m->class_flags[m->nclass] = si_flags;
	hvpmu_machine_cycle_rule(m, &rule);
	m->class_cycles[m->nclass] = hvpmu_insn_cycles(&rule, si_flags);
	for (uint32_t i = 0; i < m->nstrands; i++)
		m->ops->classes_changed(m->s[i].pmu);
	return (int)m->nclass++;
}

uint32_t hvpmu_machine_class_flags(const struct hvpmu_machine *m, unsigned cls)
{
	return cls < HVPMU_MAX_ICLASS ? m->class_flags[cls] : 0;
}

struct hvpmu_activity *hvpmu_machine_activity(struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? &m->s[strand].act : NULL;
}

static void raise(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_trap_type tt,
		  uint32_t pic_mask, uint64_t tpc)
{
	struct hvpmu_trap t = { tt, strand, pic_mask, tpc, m->s[strand].mode };

	if (m->trap_fn)
		m->trap_fn(m->trap_ctx, &t);
}

/* Next point at which a PIC could wrap or the tick compare could match. */
void machine_schedule(struct hvpmu_machine *m, struct strand *s)
{
	uint64_t worst = m->ref_strands ? m->max_insn_cycles : m->max_insn_cycles_nomem;
	uint64_t h = m->ops->headroom(s->pmu, worst);
	uint64_t base = s->act.bound - s->next_len;

	s->insn_check = h >= UINT64_MAX - base ? UINT64_MAX : base + h; /* (hvpmu_machine_budget) */
	if (s->tick_cmpr) {
		uint64_t now = tick_of(s);
		uint64_t t = s->tick_cmpr > now ? (s->tick_cmpr - now + worst - 1) / worst : 0;

		if (t < h)
			h = t;
	}
	if (m->sync_period) { /* PAPR: by the dispatcher's next run, a period on if it is past */
		uint64_t now = tick_of(s), at = m->sync_at, t;

		if (at <= now)
			at += ((now - at) / m->sync_period + 1) * m->sync_period;
		t = (at - now + worst - 1) / worst;
		if (t < h)
			h = t;
	}
	s->act.next_check = h >= UINT64_MAX - base ? UINT64_MAX : base + h;
	s->mev_watch = m->ops->mem_watch(s->pmu); /* mev_add(): what moves mem_refs */
	h = m->ops->mem_headroom(s->pmu);
	s->act.mem_next_check = h >= UINT64_MAX - s->act.mem_refs ? UINT64_MAX : s->act.mem_refs + h;
}

/* ---- pipeline timing (docs/timing-model.md, src/model/pipeline.c) ---- */

/* The user cycles being fed (f->dcycles[USER]) by cause: the stalls
 * charged since the last feed, and the rest issue cycles (base CPI). */
static void pipe_feed(struct strand *s, struct hvpmu_pmu_feed *f)
{
	uint64_t stalls = 0;

	for (int c = HVPMU_PIPE_ISSUE + 1; c < HVPMU_NPIPE; c++) {
		f->dpipe[c] = s->pipe_pending[c];
		stalls += s->pipe_pending[c];
		s->pipe_pending[c] = 0;
	}
	f->dpipe[HVPMU_PIPE_ISSUE] = f->dcycles[HVPMU_MODE_USER] - stalls;
}

int hvpmu_machine_sync(struct hvpmu_machine *m, uint32_t strand,
		       const struct hvpmu_block *last, const struct hvpmu_block *next)
{
	return machine_sync_strand(m, strand, last, next, 0);
}

/* mid_block: called during a block (a memory access): the block being run
 * keeps counting towards the next check, so next_len is left alone. */
int machine_sync_strand(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_block *last,
		       const struct hvpmu_block *next, int mid_block)
{
	struct strand *s;
	uint64_t dclass[HVPMU_MAX_ICLASS];
	/* not zeroed (a store of its ~700 bytes at every sync): every field
	 * is assigned below, the arrays in full (dpipe by pipe_feed()) */
	struct hvpmu_pmu_feed f;
	struct hvpmu_pmu_feed_result r;
	uint64_t ucyc = 0, nz = 0;

	if (strand >= m->nstrands)
		return HVPMU_ERANGE;
	s = &m->s[strand];
	if (s->depth == 0 && !mid_block)
		s->next_len = next ? next->n : 0;
	for (unsigned k = 0; k < m->nclass; k++) {
		dclass[k] = s->act.icount[k] - s->synced[k];
		s->synced[k] = s->act.icount[k];
		if (dclass[k]) {
			nz |= UINT64_C(1) << k;
			ucyc += dclass[k] * m->class_cycles[k];
		}
	}
	f.dtaken_cond = s->act.taken_cond - s->synced_taken;
	s->synced_taken = s->act.taken_cond;
	for (int k = 0; k < HVPMU_NMISPRED; k++) {
		f.dmispred[k] = s->act.mispred[k] - s->synced_mispred[k];
		s->synced_mispred[k] = s->act.mispred[k];
	}
	if (s->depth == 0 && !mid_block) /* store buffer: full cycles up to now */
		machine_sb_sync(m, s);
	for (int k = 0; k < HVPMU_NMEV; k++) {
		f.dmev[k] = s->act.mev[k] - s->synced_mev[k];
		s->synced_mev[k] = s->act.mev[k];
	}
	memcpy(f.ddir, s->dir_pending, sizeof f.ddir);
	memset(s->dir_pending, 0, sizeof s->dir_pending);
	f.mem_pc = s->mem_pc;
	s->mem_pc = 0;
	s->pending[HVPMU_MODE_USER] += ucyc;
	s->sb_icycles += ucyc; /* store-buffer clock, sb_clock(): sb_other stays */
	for (int md = 0; md < HVPMU_NMODES; md++) {
		f.dcycles[md] = s->pending[md];
		s->cycles[md] += s->pending[md];
		s->pending[md] = 0;
	}
	pipe_feed(s, &f);
	f.dclass = dclass;
	f.dclass_nonzero = nz;
	f.last = last;
	f.next_pc = next ? next->vaddr : last ? last->vaddr + 4u * last->n : 0;
	f.mode = s->mode;
	m->ops->feed(s->pmu, &f, &r);

	/* a precise overflow in the kernel path (privileged mode) cannot trap
	 * there (the guest kernel is not run): it is delivered, not precise,
	 * on the return to user mode (docs/kernel-model.md) */
	if (s->mode == HVPMU_MODE_PRIV)
		s->late_precise |= r.precise_mask;
	/* traps are taken in user mode only; see hvpmu_machine_set_mode() */
	if (s->mode == HVPMU_MODE_USER && s->depth == 0) {
		s->depth++;
		/* one precise trap per overflowing instruction, in program order */
		for (uint32_t left = r.precise_mask; left;) {
			uint64_t tpc = UINT64_MAX;
			uint32_t mask = 0;

			for (unsigned i = 0; i < m->ops->npic; i++)
				if ((left & (1u << i)) && r.pic_tpc[i] < tpc)
					tpc = r.pic_tpc[i];
			for (unsigned i = 0; i < m->ops->npic; i++)
				if ((left & (1u << i)) && r.pic_tpc[i] == tpc)
					mask |= 1u << i;
			left &= ~mask;
			raise(m, strand, HVPMU_TT_PRECISE_PERF, mask, tpc);
		}
		if (r.disrupt_mask | s->late_precise) {
			m->ops->trap_taken(s->pmu);
			raise(m, strand, HVPMU_TT_DISRUPTING_PERF, r.disrupt_mask | s->late_precise, f.next_pc);
			s->late_precise = 0;
		}
		if (s->tick_cmpr && tick_of(s) >= s->tick_cmpr) {
			s->tick_cmpr = 0;
			raise(m, strand, HVPMU_TT_TIMER, 0, f.next_pc);
		}
		s->depth--;
	}
	if (s->depth == 0)
		machine_schedule(m, s);
	return HVPMU_OK;
}

int hvpmu_machine_set_mode(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_mode mode)
{
	if (strand >= m->nstrands || (unsigned)mode >= HVPMU_NMODES)
		return HVPMU_ERANGE;
	hvpmu_machine_sync(m, strand, NULL, NULL);
	m->s[strand].mode = mode;
	if (mode == HVPMU_MODE_USER) /* deliver what became due meanwhile */
		hvpmu_machine_sync(m, strand, NULL, NULL);
	return HVPMU_OK;
}

enum hvpmu_mode hvpmu_machine_mode(const struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? m->s[strand].mode : HVPMU_MODE_USER;
}

int hvpmu_machine_add_cycles(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_mode mode, uint64_t cycles)
{
	if (strand >= m->nstrands || (unsigned)mode >= HVPMU_NMODES)
		return HVPMU_ERANGE;
	m->s[strand].pending[mode] += cycles;
	m->s[strand].sb_other += cycles;
	return hvpmu_machine_sync(m, strand, NULL, NULL);
}

uint64_t hvpmu_machine_now(struct hvpmu_machine *m)
{
	uint64_t now = 0;

	for (uint32_t k = 0; k < m->nstrands; k++)
		if (tick_of(&m->s[k]) > now)
			now = tick_of(&m->s[k]);
	return now;
}

uint64_t hvpmu_machine_tick(struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? tick_of(&m->s[strand]) : 0;
}

int hvpmu_machine_budget(struct hvpmu_machine *m, uint32_t strand, uint64_t *insn_check, uint64_t *cycles)
{
	const struct strand *s;
	uint64_t now, h1, t0, due;

	if (strand >= m->nstrands)
		return HVPMU_ERANGE;
	if (m->ref_strands || m->sync_period ||
	    (hvpmu_machine_features(m) & (HVPMU_FEAT_MEMORY | HVPMU_FEAT_BRANCHES)))
		return HVPMU_EINVAL;
	s = &m->s[strand];
	/* what can come due in time, from the last sync (the PICs and %tick
	 * move only at syncs): the tick compare, or a PIC counting cycles,
	 * which wraps no sooner than headroom() at one cycle per instruction
	 * says, in cycles */
	h1 = m->ops->headroom(s->pmu, 1);
	t0 = tick_of(s);
	due = h1 >= UINT64_MAX - t0 ? UINT64_MAX : t0 + h1;
	if (s->tick_cmpr && s->tick_cmpr < due)
		due = s->tick_cmpr;
	/* the %tick a sync now would reach: its cycles not fed yet and those
	 * of the instructions retired since the last sync */
	now = time_of(s);
	for (unsigned k = 0; k < m->nclass; k++)
		now += (s->act.icount[k] - s->synced[k]) * m->class_cycles[k];
	*insn_check = s->insn_check;
	*cycles = due > now ? due - now : 0;
	return HVPMU_OK;
}

void machine_hold(struct hvpmu_machine *m, struct strand *s, uint64_t cycles)
{
	s->idle += cycles;
	s->sb_other += cycles; /* sb_other_cycles() follows %tick */
	machine_schedule(m, s);
}

void hvpmu_machine_dispatch(struct hvpmu_machine *m, uint64_t now)
{
	if (m)
		dispatch_run(m, now, 1);
}

void hvpmu_machine_dispatch_catch_up(struct hvpmu_machine *m, uint64_t now)
{
	if (m)
		dispatch_run(m, now, 0);
}

void hvpmu_machine_resume(struct hvpmu_machine *m, uint32_t strand)
{
	struct strand *s;
	uint64_t now = m->chip_now, own;

	if (strand >= m->nstrands)
		return;
	s = &m->s[strand];
	if (m->disp && dispatch_time(m)) {
		/* PAPR: the time every running strand has reached (the
		 * dispatcher's), not the furthest strand's: one it holds back
		 * waits ahead of it */
		now = dispatch_time(m);
	} else {
		for (uint32_t i = 0; i < m->nstrands; i++) /* chip_now moves with memory references only */
			if (time_of(&m->s[i]) > now)
				now = time_of(&m->s[i]);
	}
	own = time_of(s);
	if (own >= now)
		return;
	s->idle += now - own;
	s->sb_other += now - own; /* sb_other_cycles() follows %tick */
	m->chip_now = now;
	machine_schedule(m, s); /* a tick compare now due: at the next block's sync */
}

int hvpmu_machine_set_tick_compare(struct hvpmu_machine *m, uint32_t strand, uint64_t deadline)
{
	if (strand >= m->nstrands)
		return HVPMU_ERANGE;
	m->s[strand].tick_cmpr = deadline;
	if (m->s[strand].depth == 0)
		machine_schedule(m, &m->s[strand]);
	return HVPMU_OK;
}

uint64_t hvpmu_machine_retired(struct hvpmu_machine *m, uint32_t strand)
{
	uint64_t n = 0;

	if (strand >= m->nstrands)
		return 0;
	for (unsigned k = 0; k < m->nclass; k++)
		n += m->s[strand].synced[k];
	return n - m->s[strand].kretired;
}

uint64_t hvpmu_machine_retired_class(struct hvpmu_machine *m, uint32_t strand, uint32_t mask)
{
	uint64_t n = 0;

	if (strand >= m->nstrands)
		return 0;
	for (unsigned k = 0; k < m->nclass; k++)
		if (hvpmu_machine_class_flags(m, k) & mask)
			n += m->s[strand].synced[k];
	return n;
}

uint64_t hvpmu_machine_taken_cond(struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? m->s[strand].synced_taken : 0;
}

int hvpmu_machine_branch(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint32_t si_flags,
			 int taken, uint64_t target)
{
	struct strand *s;
	int kind;

	if (strand >= m->nstrands)
		return -1;
	s = &m->s[strand];
	kind = bpred_update(&s->bp, pc, si_flags, taken, target);
	if (kind >= 0)
		s->act.mispred[kind]++;
	/* the BTC and the branch timing only when something reads them
	 * (parts.c: BTC events, or the clock where branches cost cycles):
	 * pipe_branch()'s rules, charged directly (charging 0 changes nothing) */
	if (m->parts & HVPMU_PART_BTC) {
		const struct hvpmu_md_timing *t = &m->md.timing;
		enum pipe_btc_outcome btc = pipe_btc(&s->pipe, pc, si_flags, taken, target);

		if (kind >= 0) { /* footnote 10: the correct path is refetched, then drains */
			uint64_t refetch = t->refetch_cycles < t->mispredict_cycles ? t->refetch_cycles
										  : t->mispredict_cycles;

			charge(s, HVPMU_PIPE_REFETCH, refetch);
			charge(s, HVPMU_PIPE_DRAIN, t->mispredict_cycles - refetch);
		} else if (btc != PIPE_BTC_HIT) { /* the redirect bubble */
			charge(s, HVPMU_PIPE_FETCH, t->btc_cycles);
		}
		if (btc != PIPE_BTC_HIT) {
			mev_add(s, btc == PIPE_BTC_MISS ? HVPMU_MEV_BTC_MISS : HVPMU_MEV_BTC_TARG_INCORRECT, 1);
			machine_mem_check(m, strand, pc);
		}
	}
	return kind;
}

/* ---- hooks of the kernel path (kernel.c, docs/kernel-model.md) ---- */

void machine_set_ctx(struct hvpmu_machine *m, uint32_t strand, uint32_t ctx)
{
	m->s[strand].ctx = ctx;
	m->s[strand].ipage_vpn = UINT64_MAX; /* the fetch page shortcut was in the old context */
}

uint32_t machine_user_ctx(const struct hvpmu_machine *m, uint32_t strand)
{
	return m->s[strand].user_ctx;
}

int hvpmu_machine_set_user_context(struct hvpmu_machine *m, uint32_t strand, uint32_t ctx)
{
	if (strand >= m->nstrands)
		return HVPMU_ERANGE;
	if (ctx == 0 || ctx > HVPMU_CTX_MAX)
		return HVPMU_EINVAL;
	if (m->s[strand].ctx == m->s[strand].user_ctx) /* in user mode: its translations change now */
		machine_set_ctx(m, strand, ctx);
	m->s[strand].user_ctx = ctx;
	return HVPMU_OK;
}

/* The physical blocks a freed context gave back (hvpmu_machine_context_free). */
struct freed {
	struct cache_range *r;
	size_t n, cap;
	int nomem;
};

static void on_freed(void *arg, uint64_t pa, uint64_t bytes)
{
	struct freed *f = arg;

	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		struct cache_range *r = realloc(f->r, cap * sizeof *r);

		if (!r) {
			f->nomem = 1;
			return;
		}
		f->r = r;
		f->cap = cap;
	}
	f->r[f->n++] = (struct cache_range){ pa, pa + bytes };
}

static int cmp_range(const void *a, const void *b)
{
	const struct cache_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int hvpmu_machine_context_alloc(struct hvpmu_machine *m, uint32_t *ctx)
{
	for (uint32_t c = 1; c <= HVPMU_CTX_MAX; c++)
		if (!m->ctx_used[c]) {
			m->ctx_used[c] = 1;
			*ctx = c;
			return HVPMU_OK;
		}
	return HVPMU_EFULL;
}

int hvpmu_machine_context_free(struct hvpmu_machine *m, uint32_t ctx)
{
	if (ctx == 0 || ctx > HVPMU_CTX_MAX || !m->ctx_used[ctx])
		return HVPMU_EINVAL;
	for (uint32_t k = 0; k < m->nstrands; k++) {
		struct strand *s = &m->s[k];

		tlb_demap_context(s->itlb, ctx);
		tlb_demap_context(s->dtlb, ctx);
		s->ipage_vpn = UINT64_MAX; /* the fetch page shortcut may be the context's */
		if (s->user_ctx == ctx) { /* (no thread of it runs any more) */
			s->user_ctx = USER_CTX;
			if (s->ctx == ctx)
				s->ctx = USER_CTX;
		}
	}
	m->ctx_used[ctx] = 0;
	{ /* its memory goes back cold: the caches drop its lines (no write-back:
	     the data is dead), so a later process's counts do not depend on
	     which frames it gets (docs/service.md "Address spaces") */
		struct freed fr = { 0 };
		int rc = tlb_mmu_free_context(m->mmu, ctx, on_freed, &fr);

		if (fr.n && !fr.nomem) {
			qsort(fr.r, fr.n, sizeof *fr.r, cmp_range);
			for (uint32_t c = 0; c < m->ncores; c++) {
				cache_drop_ranges(&m->cores[c].l1i, fr.r, fr.n);
				cache_drop_ranges(&m->cores[c].l1d, fr.r, fr.n);
				cache_drop_ranges(&m->cores[c].l2, fr.r, fr.n);
			}
			for (uint32_t c = 0; c < m->md.chips; c++)
				cache_drop_ranges(&m->l3[c], fr.r, fr.n);
		}
		free(fr.r);
		return rc ? rc : fr.nomem ? HVPMU_ENOMEM : HVPMU_OK;
	}
}

uint64_t hvpmu_machine_phys_free(const struct hvpmu_machine *m) { return tlb_mmu_phys_free(m->mmu); }

int machine_kernel_map(struct hvpmu_machine *m, uint64_t va, uint64_t len, unsigned code)
{
	return tlb_mmu_add_region(m->mmu, 0, va, len, code);
}

void machine_kernel_mapped(struct hvpmu_machine *m)
{
	m->kernel_mapped = 1;
}

int machine_kernel_is_mapped(const struct hvpmu_machine *m)
{
	return m->kernel_mapped;
}

int machine_retire(struct hvpmu_machine *m, uint32_t strand, uint32_t si_flags, uint64_t n)
{
	int cls = hvpmu_machine_class(m, si_flags);

	if (cls < 0)
		return cls;
	m->s[strand].act.icount[cls] += n;
	m->s[strand].kretired += n;
	return HVPMU_OK;
}
