/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine model (layer 2): strands, privilege modes, the instruction-driven
 * timing model (%tick) and the routing of activity into the per-strand T4
 * PMUs.  Overflow scheduling: see hvpmu/machine.h; timing: docs/timing-model.md.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "bpred.h"
#include "cache.h"
#include "dram.h"
#include "tlb.h"

/* TABLE 10-2 footnote 12: block loads and stores decode into 8 micro-ops. */
#define BLOCK_UOPS 8
/* fetch line + two data lines (an access crossing a line boundary) */
#define MAX_MISSES_PER_INSN 3

struct strand {
	struct hvpmu_activity act;        /* written by the event source */
	uint64_t synced[HVPMU_MAX_ICLASS];/* act.icount at the last sync */
	uint64_t synced_taken;
	uint64_t synced_mispred[HVPMU_NMISPRED];
	uint64_t synced_mev[HVPMU_NMEV];
	uint64_t mem_pc;                  /* PC of the access that triggered a sync, 0 if none */
	struct bpred bp;
	uint64_t cycles[HVPMU_NMODES];    /* modeled cycles per mode */
	uint64_t pending[HVPMU_NMODES];   /* cycles not yet fed to the PMU */
	uint64_t tick_cmpr;               /* 0 = disarmed */
	uint64_t next_len;                /* length of the block about to run (outer sync) */
	enum hvpmu_mode mode;
	unsigned depth;                   /* sync nesting (traps call back in) */
	struct core *core;                /* the strand's core and chip L3 */
	struct cache *l3;
	struct tlb *itlb, *dtlb;          /* docs/tlb-model.md */
	struct tlb_stats ts;
	struct walk_ctx { struct hvpmu_machine *m; uint32_t strand; } wctx;
	struct hvpmu_t4_pmu *pmu;         /* T4: PCR0-3 / PIC0-3 */
	struct hvpmu_t1_pmu *t1;          /* T1: %pcr / %pic */
	uint32_t t1_int15;                /* T1: overflow interrupt latched (SOFTINT 15), not yet taken */
};

struct core {
	struct cache l1i, l1d, l2;
};

/* The per-strand PMU of a platform (STYLE.md: chip differences as data). */
struct pmu_ops {
	int (*create)(struct strand *s, const uint32_t *class_flags);
	void (*destroy)(struct strand *s);
	void (*classes_changed)(struct strand *s);
	void (*feed)(struct strand *s, const struct hvpmu_t4_feed *f, struct hvpmu_t4_feed_result *r);
	uint64_t (*headroom)(const struct strand *s, uint64_t max_cycles_per_insn);
	uint64_t (*mem_headroom)(const struct strand *s);
};

static int t4_create(struct strand *s, const uint32_t *cf)
{
	return (s->pmu = hvpmu_t4_pmu_create(cf)) ? 0 : -1;
}
static void t4_destroy(struct strand *s) { hvpmu_t4_pmu_destroy(s->pmu); }
static void t4_classes(struct strand *s) { hvpmu_t4_pmu_classes_changed(s->pmu); }
static void t4_feed(struct strand *s, const struct hvpmu_t4_feed *f, struct hvpmu_t4_feed_result *r)
{
	hvpmu_t4_pmu_feed(s->pmu, f, r);
}
static uint64_t t4_headroom(const struct strand *s, uint64_t c) { return hvpmu_t4_pmu_headroom(s->pmu, c); }
static uint64_t t4_mem_headroom(const struct strand *s) { return hvpmu_t4_pmu_mem_headroom(s->pmu); }

static int t1_create(struct strand *s, const uint32_t *cf)
{
	return (s->t1 = hvpmu_t1_pmu_create(cf)) ? 0 : -1;
}
static void t1_destroy(struct strand *s) { hvpmu_t1_pmu_destroy(s->t1); }
static void t1_classes(struct strand *s) { (void)s; /* the T1 PMU reads the class table at each feed */ }
/* A T1 wrap latches SOFTINT 15: the interrupt (not precise) stays pending
 * until taken, and is reported as a disrupting PMU trap whose pic_mask
 * holds the HVPMU_T1_OVF_* halves. */
static void t1_feed(struct strand *s, const struct hvpmu_t4_feed *f, struct hvpmu_t4_feed_result *r)
{
	struct hvpmu_t1_feed tf = { 0 };
	struct hvpmu_t1_feed_result tr;

	tf.dclass = f->dclass;
	tf.dclass_nonzero = f->dclass_nonzero;
	memcpy(tf.dmev, f->dmev, sizeof tf.dmev);
	tf.next_pc = f->next_pc;
	hvpmu_t1_pmu_feed(s->t1, &tf, &tr);
	memset(r, 0, sizeof *r);
	r->ovf_mask = tr.ovf_mask;
	if (tr.int_level15)
		s->t1_int15 |= tr.ovf_mask;
	r->disrupt_mask = s->t1_int15;
}
static uint64_t t1_headroom(const struct strand *s, uint64_t c)
{
	(void)c;
	return hvpmu_t1_pmu_headroom(s->t1);
}
static uint64_t t1_mem_headroom(const struct strand *s) { return hvpmu_t1_pmu_mem_headroom(s->t1); }

static const struct pmu_ops pmu_ops[] = {
	[HVPMU_PLATFORM_T4] = { t4_create, t4_destroy, t4_classes, t4_feed, t4_headroom, t4_mem_headroom },
	[HVPMU_PLATFORM_T1] = { t1_create, t1_destroy, t1_classes, t1_feed, t1_headroom, t1_mem_headroom },
};

struct hvpmu_machine {
	struct hvpmu_md md;
	const struct pmu_ops *ops;
	int mem_on;
	uint32_t ncores;
	struct core *cores;
	struct cache *l3;                 /* one per chip */
	struct tlb_mmu *mmu;              /* the guest's address space (docs/tlb-model.md) */
	struct dram *dram;                /* one DRAM model per MCU (docs/dram-model.md) */
	uint64_t chip_now;                /* latest cycle a strand reached: the DRAM models' clock */
	uint32_t nstrands;
	unsigned nclass;
	uint32_t class_flags[HVPMU_MAX_ICLASS];
	uint64_t class_cycles[HVPMU_MAX_ICLASS];
	uint64_t max_insn_cycles;
	hvpmu_trap_fn trap_fn;
	void *trap_ctx;
	hvpmu_tsb_hit_fn tsb_fn;
	void *tsb_ctx;
	struct strand *s;
	uint32_t nmcu;                    /* HVPMU_T4_MCUS_PER_CHIP per chip (T4), 0 on T1 */
	uint32_t ndram;                   /* DRAM models: one per T4 MCU, one per T1 channel */
	struct hvpmu_t1_perfregs *t1regs; /* T1: chip-wide DRAM + JBUS PerfRegs */
	struct hvpmu_t1_jbus_activity jbus; /* T1: JBUS activity not yet counted */
	uint64_t jbus_now;                /* chip cycle up to which JBUS cycles were counted */
	struct hvpmu_t4_mcu **mcu;        /* chip-wide MCU DRAM counters (§10.5) */
};

/* UltraSPARC T1 memory system (docs/t1-platform.md): 4 DRAM channels, one
 * per L2 bank, banks interleaved on 64-byte lines (PA[7:6]); a 128-bit
 * J-Bus at 2.56 GB/s = 160 MHz, i.e. 2 JBus cycles per 15 CPU cycles at
 * 1.2 GHz; I/O modeled from the guest's read/write system calls. */
#define T1_DRAM_CHANNELS 4
#define T1_CHANNEL_SHIFT 6
#define JBUS_PER_CPU_NUM 2
#define JBUS_PER_CPU_DEN 15
#define JBUS_DMA_BYTES 64          /* one DMA transaction per 64-byte line */
#define JBUS_DMA_READ_LATENCY 16   /* JBus cycles: ~memory latency (120 CPU cycles) */
#define JBUS_PIO_READ_LATENCY 40   /* JBus cycles: a device status read */

/* Context number of the guest's user process (the kernel is ctx 0). */
#define USER_CTX 1

/* TLBs, the address space, and the DRAM models; latencies of tablewalk
 * references follow the memory model's (docs/tlb-model.md). */
static int create_mmu(struct hvpmu_machine *m)
{
	const struct tlb_chip *chip = m->md.platform == HVPMU_PLATFORM_T1 ? &tlb_chip_t1 : &tlb_chip_t4;
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
	m->ndram = m->md.platform == HVPMU_PLATFORM_T1 ? T1_DRAM_CHANNELS : m->nmcu;
	m->dram = calloc(m->ndram, sizeof *m->dram);
	if (!m->dram)
		return -1;
	for (uint32_t i = 0; i < m->ndram; i++)
		if (dram_init(&m->dram[i], NULL))
			return -1;
	return 0;
}

int hvpmu_machine_create(const struct hvpmu_md *md, struct hvpmu_machine **out)
{
	struct hvpmu_machine *m;
	uint32_t n;

	if (!md || !out)
		return HVPMU_EINVAL;
	n = hvpmu_md_nstrands(md);
	if (n == 0 || n > 4096 || (unsigned)md->platform >= sizeof pmu_ops / sizeof pmu_ops[0])
		return HVPMU_EINVAL;
	m = calloc(1, sizeof *m);
	if (!m)
		return HVPMU_ENOMEM;
	m->md = *md;
	m->ops = &pmu_ops[md->platform];
	m->nstrands = n;
	/* worst case per instruction: a block access's micro-ops, a taken CTI,
	 * and full misses for its fetch and for a data access crossing lines */
	m->max_insn_cycles = (uint64_t)md->timing.insn_cycles * BLOCK_UOPS + md->timing.taken_cti_cycles +
			     MAX_MISSES_PER_INSN * ((uint64_t)md->mem.l2.latency + md->mem.l3.latency +
						    md->mem.mem_latency);
	if (m->max_insn_cycles == 0)
		m->max_insn_cycles = 1;
	m->s = aligned_alloc(64, ((sizeof(struct strand) * n + 63) / 64) * 64);
	if (!m->s) {
		free(m);
		return HVPMU_ENOMEM;
	}
	memset(m->s, 0, sizeof(struct strand) * n);
	m->ncores = md->chips * md->cores_per_chip;
	m->cores = calloc(m->ncores, sizeof *m->cores);
	m->l3 = calloc(md->chips, sizeof *m->l3);
	if (!m->cores || !m->l3) {
		hvpmu_machine_destroy(m);
		return HVPMU_ENOMEM;
	}
	for (uint32_t c = 0; c < m->ncores; c++)
		if (cache_init(&m->cores[c].l1i, md->mem.l1i.size, md->mem.l1i.ways, md->mem.l1i.line) ||
		    cache_init(&m->cores[c].l1d, md->mem.l1d.size, md->mem.l1d.ways, md->mem.l1d.line) ||
		    (md->mem.l2.size &&
		     cache_init(&m->cores[c].l2, md->mem.l2.size, md->mem.l2.ways, md->mem.l2.line))) {
			hvpmu_machine_destroy(m);
			return HVPMU_EINVAL;
		}
	for (uint32_t c = 0; c < md->chips; c++)
		if (cache_init(&m->l3[c], md->mem.l3.size, md->mem.l3.ways, md->mem.l3.line)) {
			hvpmu_machine_destroy(m);
			return HVPMU_EINVAL;
		}
	for (uint32_t i = 0; i < n; i++) {
		m->s[i].core = &m->cores[i / md->strands_per_core];
		m->s[i].l3 = &m->l3[i / (md->strands_per_core * md->cores_per_chip)];
	}
	for (uint32_t i = 0; i < n; i++) {
		m->s[i].act.next_check = UINT64_MAX;
		m->s[i].act.mem_next_check = UINT64_MAX;
		m->s[i].mode = HVPMU_MODE_USER;
		bpred_init(&m->s[i].bp);
		if (m->ops->create(&m->s[i], m->class_flags)) {
			hvpmu_machine_destroy(m);
			return HVPMU_ENOMEM;
		}
	}
	m->nmcu = md->platform == HVPMU_PLATFORM_T4 ? md->chips * HVPMU_T4_MCUS_PER_CHIP : 0;
	m->mcu = calloc(m->nmcu + 1, sizeof *m->mcu);
	for (uint32_t i = 0; m->mcu && i < m->nmcu; i++)
		if (!(m->mcu[i] = hvpmu_t4_mcu_create())) {
			hvpmu_machine_destroy(m);
			return HVPMU_ENOMEM;
		}
	if (md->platform == HVPMU_PLATFORM_T1 && !(m->t1regs = hvpmu_t1_perfregs_create())) {
		hvpmu_machine_destroy(m);
		return HVPMU_ENOMEM;
	}
	if (!m->mcu || create_mmu(m)) {
		hvpmu_machine_destroy(m);
		return HVPMU_ENOMEM;
	}
	*out = m;
	return HVPMU_OK;
}

void hvpmu_machine_destroy(struct hvpmu_machine *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; m->s && i < m->nstrands; i++)
		if (m->s[i].pmu || m->s[i].t1)
			m->ops->destroy(&m->s[i]);
	for (uint32_t i = 0; m->mcu && i < m->nmcu; i++)
		hvpmu_t4_mcu_destroy(m->mcu[i]);
	free(m->mcu);
	for (uint32_t c = 0; m->cores && c < m->ncores; c++) {
		cache_fini(&m->cores[c].l1i);
		cache_fini(&m->cores[c].l1d);
		cache_fini(&m->cores[c].l2);
	}
	for (uint32_t c = 0; m->l3 && c < m->md.chips; c++)
		cache_fini(&m->l3[c]);
	for (uint32_t i = 0; m->s && i < m->nstrands; i++) {
		tlb_destroy(m->s[i].itlb);
		tlb_destroy(m->s[i].dtlb);
	}
	tlb_mmu_destroy(m->mmu);
	hvpmu_t1_perfregs_destroy(m->t1regs);
	free(m->dram);
	free(m->cores);
	free(m->l3);
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

int hvpmu_machine_class(struct hvpmu_machine *m, uint32_t si_flags)
{
	for (unsigned k = 0; k < m->nclass; k++)
		if (m->class_flags[k] == si_flags)
			return (int)k;
	if (m->nclass == HVPMU_MAX_ICLASS)
		return HVPMU_EFULL;
	m->class_flags[m->nclass] = si_flags;
	m->class_cycles[m->nclass] =
		(uint64_t)m->md.timing.insn_cycles * ((si_flags & HVPMU_SI_BLOCK) ? BLOCK_UOPS : 1) +
		((si_flags & HVPMU_SI_CTI_ALWAYS) ? m->md.timing.taken_cti_cycles : 0);
	for (uint32_t i = 0; i < m->nstrands; i++)
		m->ops->classes_changed(&m->s[i]);
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

static uint64_t tick_of(const struct strand *s)
{
	return s->cycles[HVPMU_MODE_USER] + s->cycles[HVPMU_MODE_PRIV] + s->cycles[HVPMU_MODE_HYPER];
}

static void raise(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_trap_type tt,
		  uint32_t pic_mask, uint64_t tpc)
{
	struct hvpmu_trap t = { tt, strand, pic_mask, tpc, m->s[strand].mode };

	if (m->trap_fn)
		m->trap_fn(m->trap_ctx, &t);
}

/* Next point at which a PIC could wrap or the tick compare could match. */
static void schedule(struct hvpmu_machine *m, struct strand *s)
{
	uint64_t h = m->ops->headroom(s, m->max_insn_cycles);
	uint64_t base = s->act.bound - s->next_len;

	if (s->tick_cmpr) {
		uint64_t now = tick_of(s);
		uint64_t t = s->tick_cmpr > now ? (s->tick_cmpr - now + m->max_insn_cycles - 1) / m->max_insn_cycles : 0;

		if (t < h)
			h = t;
	}
	s->act.next_check = h >= UINT64_MAX - base ? UINT64_MAX : base + h;
	h = m->ops->mem_headroom(s);
	s->act.mem_next_check = h >= UINT64_MAX - s->act.mem_refs ? UINT64_MAX : s->act.mem_refs + h;
}

static int sync_strand(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_block *last,
		       const struct hvpmu_block *next, int mid_block);

int hvpmu_machine_sync(struct hvpmu_machine *m, uint32_t strand,
		       const struct hvpmu_block *last, const struct hvpmu_block *next)
{
	return sync_strand(m, strand, last, next, 0);
}

/* mid_block: called during a block (a memory access): the block being run
 * keeps counting towards the next check, so next_len is left alone. */
static int sync_strand(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_block *last,
		       const struct hvpmu_block *next, int mid_block)
{
	struct strand *s;
	uint64_t dclass[HVPMU_MAX_ICLASS];
	struct hvpmu_t4_feed f = { 0 };
	struct hvpmu_t4_feed_result r;
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
	for (int k = 0; k < HVPMU_NMEV; k++) {
		f.dmev[k] = s->act.mev[k] - s->synced_mev[k];
		s->synced_mev[k] = s->act.mev[k];
	}
	f.mem_pc = s->mem_pc;
	s->mem_pc = 0;
	s->pending[HVPMU_MODE_USER] += ucyc;
	for (int md = 0; md < HVPMU_NMODES; md++) {
		f.dcycles[md] = s->pending[md];
		s->cycles[md] += s->pending[md];
		s->pending[md] = 0;
	}
	f.dclass = dclass;
	f.dclass_nonzero = nz;
	f.last = last;
	f.next_pc = next ? next->vaddr : last ? last->vaddr + 4u * last->n : 0;
	f.mode = s->mode;
	m->ops->feed(s, &f, &r);

	/* traps are taken in user mode only; see hvpmu_machine_set_mode() */
	if (s->mode == HVPMU_MODE_USER && s->depth == 0) {
		s->depth++;
		/* one precise trap per overflowing instruction, in program order */
		for (uint32_t left = r.precise_mask; left;) {
			uint64_t tpc = UINT64_MAX;
			uint32_t mask = 0;

			for (unsigned i = 0; i < HVPMU_T4_NPIC; i++)
				if ((left & (1u << i)) && r.pic_tpc[i] < tpc)
					tpc = r.pic_tpc[i];
			for (unsigned i = 0; i < HVPMU_T4_NPIC; i++)
				if ((left & (1u << i)) && r.pic_tpc[i] == tpc)
					mask |= 1u << i;
			left &= ~mask;
			raise(m, strand, HVPMU_TT_PRECISE_PERF, mask, tpc);
		}
		if (r.disrupt_mask) {
			s->t1_int15 = 0; /* taken */
			raise(m, strand, HVPMU_TT_DISRUPTING_PERF, r.disrupt_mask, f.next_pc);
		}
		if (s->tick_cmpr && tick_of(s) >= s->tick_cmpr) {
			s->tick_cmpr = 0;
			raise(m, strand, HVPMU_TT_TIMER, 0, f.next_pc);
		}
		s->depth--;
	}
	if (s->depth == 0)
		schedule(m, s);
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
	return hvpmu_machine_sync(m, strand, NULL, NULL);
}

uint64_t hvpmu_machine_tick(struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? tick_of(&m->s[strand]) : 0;
}

int hvpmu_machine_set_tick_compare(struct hvpmu_machine *m, uint32_t strand, uint64_t deadline)
{
	if (strand >= m->nstrands)
		return HVPMU_ERANGE;
	m->s[strand].tick_cmpr = deadline;
	if (m->s[strand].depth == 0)
		schedule(m, &m->s[strand]);
	return HVPMU_OK;
}

struct hvpmu_t4_pmu *hvpmu_machine_t4_pmu(struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? m->s[strand].pmu : NULL;
}

struct hvpmu_t1_pmu *hvpmu_machine_t1_pmu(struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? m->s[strand].t1 : NULL;
}

/* T1 %pcr (ASR 0x10) and %pic (ASR 0x11), niagara-perf-api.txt §2.1. */
int hvpmu_machine_rdasr(struct hvpmu_machine *m, uint32_t strand, unsigned asr, uint64_t *val)
{
	struct strand *s;

	if (strand >= m->nstrands || !m->s[strand].t1)
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	if (asr == HVPMU_T1_ASR_PCR)
		return hvpmu_t1_pcr_read(s->t1, s->mode, val);
	if (asr == HVPMU_T1_ASR_PIC)
		return hvpmu_t1_pic_read(s->t1, s->mode, val);
	return HVPMU_ERANGE;
}

int hvpmu_machine_wrasr(struct hvpmu_machine *m, uint32_t strand, unsigned asr, uint64_t val)
{
	struct strand *s;
	int rc;

	if (strand >= m->nstrands || !m->s[strand].t1)
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	if (asr == HVPMU_T1_ASR_PCR)
		rc = hvpmu_t1_pcr_write(s->t1, s->mode, val);
	else if (asr == HVPMU_T1_ASR_PIC)
		rc = hvpmu_t1_pic_write(s->t1, s->mode, val);
	else
		return HVPMU_ERANGE;
	if (s->depth == 0)
		schedule(m, s);
	return rc;
}

uint32_t hvpmu_machine_nmcu(const struct hvpmu_machine *m) { return m->nmcu; }

struct hvpmu_t4_mcu *hvpmu_machine_t4_mcu(struct hvpmu_machine *m, unsigned mcu)
{
	struct hvpmu_t4_mcu_activity act;

	if (mcu >= m->nmcu)
		return NULL;
	dram_advance(&m->dram[mcu], m->chip_now, &act);
	hvpmu_t4_mcu_count(m->mcu[mcu], &act);
	return m->mcu[mcu];
}

uint64_t hvpmu_machine_retired(struct hvpmu_machine *m, uint32_t strand)
{
	uint64_t n = 0;

	if (strand >= m->nstrands)
		return 0;
	for (unsigned k = 0; k < m->nclass; k++)
		n += m->s[strand].synced[k];
	return n;
}

/* VA of PCRn / PICn: n * 8 (TABLE 10-1, TABLE 10-3). */
#define PMU_VA_STRIDE 8

static int pmu_reg_index(uint64_t va, unsigned *idx)
{
	if (va % PMU_VA_STRIDE || va / PMU_VA_STRIDE >= HVPMU_T4_NPIC)
		return HVPMU_ERANGE;
	*idx = (unsigned)(va / PMU_VA_STRIDE);
	return HVPMU_OK;
}

int hvpmu_machine_ldxa(struct hvpmu_machine *m, uint32_t strand, unsigned asi, uint64_t va, uint64_t *val)
{
	unsigned idx;
	struct strand *s;

	if (strand >= m->nstrands || pmu_reg_index(va, &idx))
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	if (asi == HVPMU_T4_ASI_PCR)
		return s->mode == HVPMU_MODE_HYPER ? hvpmu_t4_pcr_read(s->pmu, idx, val) : HVPMU_ETRAP;
	if (asi == HVPMU_T4_ASI_PIC)
		return hvpmu_t4_pic_read(s->pmu, idx, s->mode, val);
	return HVPMU_ERANGE;
}

int hvpmu_machine_stxa(struct hvpmu_machine *m, uint32_t strand, unsigned asi, uint64_t va, uint64_t val)
{
	unsigned idx;
	struct strand *s;
	int rc;

	if (strand >= m->nstrands || pmu_reg_index(va, &idx))
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	if (asi == HVPMU_T4_ASI_PCR)
		rc = s->mode == HVPMU_MODE_HYPER ? hvpmu_t4_pcr_write(s->pmu, idx, val, s->mode) : HVPMU_ETRAP;
	else if (asi == HVPMU_T4_ASI_PIC)
		rc = hvpmu_t4_pic_write(s->pmu, idx, s->mode, val);
	else
		rc = HVPMU_ERANGE;
	if (s->depth == 0)
		schedule(m, s);
	return rc;
}

int hvpmu_machine_branch(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint32_t si_flags,
			 int taken, uint64_t target)
{
	int kind;

	if (strand >= m->nstrands)
		return -1;
	kind = bpred_update(&m->s[strand].bp, pc, si_flags, taken, target);
	if (kind >= 0)
		m->s[strand].act.mispred[kind]++;
	return kind;
}

/* ---- memory hierarchy (docs/memory-model.md) ---- */

void hvpmu_machine_enable_memory(struct hvpmu_machine *m, int on) { m->mem_on = on != 0; }
int hvpmu_machine_memory_enabled(const struct hvpmu_machine *m) { return m->mem_on; }

enum served { SERVED_L1, SERVED_L2, SERVED_L3, SERVED_MEM };

static struct core *core_of(struct hvpmu_machine *m, uint32_t strand)
{
	return m->s[strand].core;
}

static struct cache *l3_of(struct hvpmu_machine *m, uint32_t strand)
{
	return m->s[strand].l3;
}

/* The strand's current cycle, and the chip's (the DRAM models' clock). */
static uint64_t strand_now(struct hvpmu_machine *m, uint32_t strand)
{
	const struct strand *s = &m->s[strand];
	uint64_t now = tick_of(s) + s->pending[HVPMU_MODE_USER] + s->pending[HVPMU_MODE_PRIV] +
		       s->pending[HVPMU_MODE_HYPER];

	if (now > m->chip_now)
		m->chip_now = now;
	return m->chip_now;
}

/* A line read from or written back to memory: the MCU that owns it
 * (dram_map()) queues it at the chip's current cycle. */
static void dram_traffic(struct hvpmu_machine *m, uint32_t strand, uint64_t addr, int write)
{
	struct dram_addr a;
	uint32_t chip = strand / (m->md.strands_per_core * m->md.cores_per_chip);

	if (m->md.platform == HVPMU_PLATFORM_T1) { /* channel = L2 bank, PA[7:6] */
		dram_request(&m->dram[(addr >> T1_CHANNEL_SHIFT) & (T1_DRAM_CHANNELS - 1)], strand_now(m, strand),
			     addr, write, 0);
		return;
	}
	dram_map(addr, &a);
	dram_request(&m->dram[chip * HVPMU_T4_MCUS_PER_CHIP + a.mcu], strand_now(m, strand), addr, write, a.port);
}

/* Access the chip's last level.  A read allocates, reading memory on a
 * miss; so does a store from an L1 when there is no private L2 (T1: a
 * write-allocate, write-back shared L2).  An L2 write-back (`wb`, part of
 * a last-level line) marks a present line dirty, and goes on to memory
 * when the line is absent (no allocation: the rest of the line would be
 * stale).  A dirty victim is written back to memory.  1 on a hit. */
static int llc_access(struct hvpmu_machine *m, uint32_t strand, uint64_t addr, int write, int wb)
{
	struct cache *l3 = l3_of(m, strand);
	struct cache_result r;

	cache_access(l3, addr, !wb, write, &r);
	if (!r.hit)
		dram_traffic(m, strand, addr, wb);
	if (r.evicted && r.evicted_dirty)
		dram_traffic(m, strand, r.evicted_line << l3->line_shift, 1);
	return r.hit;
}

/*
 * Bring the line of `addr` into the core's L2 (and the L3) for a miss at L1;
 * returns where it was found.  L2 is inclusive of the core's L1s: a line it
 * evicts is invalidated in L1I and L1D (sl=20 eviction invalidations).
 * Writes allocate in L2 and mark the line dirty (write-back L2).
 */
static enum served fill_l2(struct hvpmu_machine *m, uint32_t strand, uint64_t addr, int write)
{
	struct core *c = core_of(m, strand);
	struct strand *s = &m->s[strand];
	struct cache_result r2;
	enum served from = SERVED_L2;

	if (!c->l2.sets) /* no private L2 (T1): the shared level serves L1 misses */
		return llc_access(m, strand, addr, write, 0) ? SERVED_L3 : SERVED_MEM;
	cache_access(&c->l2, addr, 1, write, &r2);
	if (!r2.hit)
		from = llc_access(m, strand, addr, 0, 0) ? SERVED_L3 : SERVED_MEM;
	if (r2.evicted) {
		uint64_t byte = r2.evicted_line << c->l2.line_shift;
		uint32_t l1 = 1u << c->l1i.line_shift;

		s->act.mev[r2.evicted_dirty ? HVPMU_MEV_L2_DIRTY_EVICT : HVPMU_MEV_L2_CLEAN_EVICT]++;
		for (uint64_t b = byte; b < byte + (1u << c->l2.line_shift); b += l1) {
			if (cache_invalidate_line(&c->l1i, b >> c->l1i.line_shift))
				s->act.mev[HVPMU_MEV_IC_EVICT_INVAL]++;
			if (cache_invalidate_line(&c->l1d, b >> c->l1d.line_shift))
				s->act.mev[HVPMU_MEV_DC_EVICT_INVAL]++;
		}
		if (r2.evicted_dirty) /* the write-back lands in L3 */
			llc_access(m, strand, byte, 1, 1);
	}
	return from;
}

static uint64_t latency(const struct hvpmu_machine *m, enum served from)
{
	switch (from) {
	case SERVED_L2: return m->md.mem.l2.latency;
	case SERVED_L3: return m->md.mem.l2.latency + m->md.mem.l3.latency;
	case SERVED_MEM: return m->md.mem.l2.latency + m->md.mem.l3.latency + m->md.mem.mem_latency;
	default: return 0;
	}
}

/* A tablewalk reference (TSB probe) goes through the strand's L2. */
static int walk_ref(void *ctx, uint64_t paddr)
{
	const struct walk_ctx *w = ctx;

	switch (fill_l2(w->m, w->strand, paddr, 0)) {
	case SERVED_L2: return TLB_REF_L2;
	case SERVED_L3: return TLB_REF_L3;
	default: return TLB_REF_MEM;
	}
}

static inline void mem_ref_done(struct hvpmu_machine *m, uint32_t strand, uint64_t pc);

/* Memory events of the tablewalk counters that moved from *b to s->ts. */
static uint64_t tlb_events(struct strand *s, enum tlb_side side, const struct tlb_stats *b)
{
	const struct tlb_stats *a = &s->ts;
	uint64_t n = 0, d;
	int i_side = side == TLB_SIDE_I;

	if (i_side && (d = a->miss[side] - b->miss[side])) {
		s->act.mev[HVPMU_MEV_ITLB_MISS] += d;
		n += d;
	}
	for (unsigned k = 0; k < TLB_NFILL; k++)
		if ((d = a->fill[side][k] - b->fill[side][k])) {
			s->act.mev[(i_side ? HVPMU_MEV_ITLB_FILL_8K : HVPMU_MEV_DTLB_FILL_8K) + k] += d;
			n += d;
		}
	if ((d = a->fill_trap[side] - b->fill_trap[side])) {
		s->act.mev[i_side ? HVPMU_MEV_ITLB_FILL_TRAP : HVPMU_MEV_DTLB_FILL_TRAP] += d;
		n += d;
	}
	for (unsigned r = 0; r < TLB_NREF; r++)
		if ((d = a->hwtw_ref[side][r] - b->hwtw_ref[side][r])) {
			s->act.mev[(i_side ? HVPMU_MEV_HWTW_I_L2 : HVPMU_MEV_HWTW_D_L2) + r] += d;
			n += d;
		}
	return n;
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
	uint64_t n, pa;

	if (tlb_lookup(t, USER_CTX, va, &pa)) /* a TLB hit outside the MRU array */
		return pa;
	before = s->ts;
	if (tlb_access(t, m->mmu, &s->ts, USER_CTX, va, walk_ref, &s->wctx, &res) < 0)
		return va;
	s->pending[HVPMU_MODE_USER] += res.walk_cycles;
	s->pending[HVPMU_MODE_PRIV] += res.trap_cycles;
	if (m->tsb_fn)
		report_tsb_hits(m, strand, side, &before);
	n = tlb_events(s, side, &before);
	if (n) { /* each event may count once: the sync bound advances by all */
		s->act.mem_refs += n - 1;
		mem_ref_done(m, strand, pc);
	}
	return res.pa;
}

/* The TLB-hit fast path inline, the walk out of line (its frame is large). */
static inline uint64_t translate(struct hvpmu_machine *m, uint32_t strand, enum tlb_side side, uint64_t va,
				 uint64_t pc)
{
	struct strand *s = &m->s[strand];
	uint64_t pa;

	if (tlb_hit_fast(side == TLB_SIDE_I ? s->itlb : s->dtlb, USER_CTX, va, &pa))
		return pa;
	return translate_slow(m, strand, side, va, pc);
}

static __attribute__((noinline)) void mem_sync(struct hvpmu_machine *m, uint32_t strand, uint64_t pc)
{
	m->s[strand].mem_pc = pc;
	sync_strand(m, strand, NULL, NULL, 1);
}

/* Account one cache access: sync first if a counter could wrap on it. */
static inline void mem_ref_done(struct hvpmu_machine *m, uint32_t strand, uint64_t pc)
{
	struct strand *s = &m->s[strand];

	if (__builtin_expect(++s->act.mem_refs >= s->act.mem_next_check, 0))
		mem_sync(m, strand, pc);
}

/* One line of a data access (the slow part of hvpmu_machine_dref). */
static void dref_line(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t a, uint32_t f, int is_store)
{
	struct strand *s = &m->s[strand];
	struct core *c = s->core;
	struct cache_result r;
	enum served from;

	if (is_store) {
		/* L1D is write-through without write allocation: a store updates
		 * L1D if present and always goes to L2 */
		cache_access(&c->l1d, a, 0, 0, &r);
		from = fill_l2(m, strand, a, 1);
		s->act.mev[from == SERVED_L2 ? HVPMU_MEV_ST_HIT_L2 :
			   from == SERVED_L3 ? HVPMU_MEV_ST_HIT_L3 : HVPMU_MEV_ST_MEM]++;
		/* stores retire into the store buffer: no latency charged */
	} else {
		cache_access(&c->l1d, a, 1, 0, &r);
		if (r.hit)
			return; /* no event: not counted towards mem_refs */
		from = fill_l2(m, strand, a, 0);
		/* sl=16/23 do not count block loads, prefetches or atomics */
		if (!(f & (HVPMU_SI_BLOCK | HVPMU_SI_PREFETCH | HVPMU_SI_ATOMIC)))
			s->act.mev[from == SERVED_MEM ? HVPMU_MEV_DC_MISS_MEM : HVPMU_MEV_DC_MISS_L2L3]++;
		/* software prefetches do not stall the pipeline */
		if (!(f & HVPMU_SI_PREFETCH))
			s->pending[HVPMU_MODE_USER] += latency(m, from);
	}
	mem_ref_done(m, strand, pc);
}

/* Lines first..last of a data access; out of line, so that the fast paths
 * of hvpmu_machine_dref() stay small. */
static __attribute__((noinline)) void dref_lines(struct hvpmu_machine *m, uint32_t strand, uint64_t pc,
						 uint64_t first, uint64_t last, uint32_t f, int is_store)
{
	unsigned shift = m->s[strand].core->l1d.line_shift;

	/* an access crossing a line boundary touches each line */
	for (uint64_t l = first; l <= last; l++)
		dref_line(m, strand, pc, l << shift, f, is_store);
}

/*
 * One data access of strand s (hvpmu_machine_dref without the argument
 * checks).  Fast paths, with exactly the outcome of dref_line()
 * (docs/memory-model.md, "Performance"): a load of the most recently used
 * line of its L1D set is a hit that changes nothing; a store whose line is
 * most recently used in its L1D set and in its L2 set only marks the L2
 * line dirty and counts a store hitting L2.
 */
static inline __attribute__((always_inline)) void dref_one(struct hvpmu_machine *m, uint32_t strand,
							   struct strand *s, uint64_t pc, uint64_t vaddr,
							   unsigned size, uint32_t f, int is_store)
{
	struct core *c = s->core;
	uint64_t pa, first, last;

	/* SPARC accesses are naturally aligned: one page */
	if (!tlb_hit_fast(s->dtlb, USER_CTX, vaddr, &pa))
		pa = translate_slow(m, strand, TLB_SIDE_D, vaddr, pc);
	first = pa >> c->l1d.line_shift;
	last = (pa + size - 1) >> c->l1d.line_shift;
	if (first == last) {
		if (!is_store) {
			if (cache_mru_hit(&c->l1d, first))
				return;
		} else if (c->l2.sets) {
			uint64_t l2 = pa >> c->l2.line_shift;

			if (cache_mru_hit(&c->l1d, first) && cache_mru_hit(&c->l2, l2)) {
				cache_mru_set_dirty(&c->l2, l2);
				s->act.mev[HVPMU_MEV_ST_HIT_L2]++;
				mem_ref_done(m, strand, pc);
				return;
			}
		}
	}
	dref_lines(m, strand, pc, first, last, f, is_store);
}

void hvpmu_machine_dref(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t vaddr,
			unsigned size, uint32_t f, int is_store)
{
	if (!m->mem_on || strand >= m->nstrands || !size)
		return;
	dref_one(m, strand, &m->s[strand], pc, vaddr, size, f, is_store);
}

/* dref_one() over a batch, with the strand's DTLB and cache geometry in
 * locals (they never change after creation). */
void hvpmu_machine_drefs(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_dref *r, size_t n)
{
	struct strand *s;
	struct core *c;
	struct tlb *dtlb;
	const uint64_t *l1t;
	uint64_t *l2t;
	uint32_t l1mask, l1ways, l2mask, l2ways;
	unsigned l1sh, l2sh;

	if (!m->mem_on || strand >= m->nstrands)
		return;
	s = &m->s[strand];
	c = s->core;
	dtlb = s->dtlb;
	l1t = c->l1d.tag;
	l1mask = c->l1d.set_mask;
	l1ways = c->l1d.ways;
	l1sh = c->l1d.line_shift;
	l2t = c->l2.sets ? c->l2.tag : NULL;
	l2mask = c->l2.set_mask;
	l2ways = c->l2.ways;
	l2sh = c->l2.line_shift;
	for (const struct hvpmu_dref *end = r + n; r < end; r++) {
		uint64_t pa, first, last;

		if (!r->size || !m->mem_on) /* as many calls: a trap handler may stop the model */
			continue;
		if (!tlb_hit_fast(dtlb, USER_CTX, r->vaddr, &pa))
			pa = translate_slow(m, strand, TLB_SIDE_D, r->vaddr, r->pc);
		first = pa >> l1sh;
		last = (pa + r->size - 1) >> l1sh;
		if (first == last) { /* the fast paths of dref_one() */
			uint64_t t1 = l1t[(size_t)(first & l1mask) * l1ways] & ~CACHE_DIRTY;

			if (!r->is_store) {
				if (t1 == first + 1)
					continue;
			} else if (l2t && t1 == first + 1) {
				uint64_t l2 = pa >> l2sh;
				uint64_t *t2 = &l2t[(size_t)(l2 & l2mask) * l2ways];

				if ((*t2 & ~CACHE_DIRTY) == l2 + 1) {
					*t2 |= CACHE_DIRTY;
					s->act.mev[HVPMU_MEV_ST_HIT_L2]++;
					mem_ref_done(m, strand, r->pc);
					continue;
				}
			}
		}
		dref_lines(m, strand, r->pc, first, last, r->si_flags, r->is_store);
	}
}

/* An L1I access that is not a hit at MRU: the line `pa` fetched at `at`. */
static __attribute__((noinline)) void ifetch_line(struct hvpmu_machine *m, uint32_t strand, uint64_t pa,
						  uint64_t at)
{
	struct strand *s = &m->s[strand];
	struct core *c = s->core;
	struct cache_result r;
	enum served from;

	cache_access(&c->l1i, pa, 1, 0, &r);
	if (r.hit)
		return;
	from = fill_l2(m, strand, pa, 0);
	s->act.mev[from == SERVED_MEM ? HVPMU_MEV_IC_MISS_MEM : HVPMU_MEV_IC_MISS_L2L3]++;
	s->pending[HVPMU_MODE_USER] += latency(m, from);
	mem_ref_done(m, strand, at);
}

/*
 * Each line of the block: translated (ITLB), then looked up in L1I.  The
 * lines of one 8 KB page share one translation: translating the page again
 * would hit the entry just used, already the most recently used one, which
 * changes no state that matters (docs/memory-model.md, "Performance").  A
 * line most recently used in its L1I set is a hit that changes nothing.
 */
void hvpmu_machine_ifetch(struct hvpmu_machine *m, uint32_t strand, uint64_t vaddr, uint32_t bytes)
{
	struct strand *s;
	const struct cache *l1i;
	uint64_t a, end, at, pa = 0, page = 0;
	unsigned sh;
	int first = 1;

	if (!m->mem_on || strand >= m->nstrands || !bytes)
		return;
	s = &m->s[strand];
	l1i = &s->core->l1i;
	sh = l1i->line_shift;
	end = (vaddr + bytes - 1) >> sh;
	for (a = vaddr >> sh, at = vaddr;; at = ++a << sh) {
		if (first || at >> TLB_PAGE_SHIFT_MIN != page) {
			pa = translate(m, strand, TLB_SIDE_I, at, at) >> TLB_PAGE_SHIFT_MIN << TLB_PAGE_SHIFT_MIN;
			page = at >> TLB_PAGE_SHIFT_MIN;
			first = 0;
		}
		{
			uint64_t line = (pa | (at & ((UINT64_C(1) << TLB_PAGE_SHIFT_MIN) - 1))) >> sh;

			if (!cache_mru_hit(l1i, line))
				ifetch_line(m, strand, line << sh, at);
		}
		if (a == end)
			break;
	}
}

/* The fetch's lines were all most recently used in their L1I sets and its
 * page's ITLB entry the most recently used one, and neither structure has
 * changed since: fetching again changes nothing (docs/memory-model.md,
 * "Performance"). */
void hvpmu_machine_ifetch_memo(struct hvpmu_machine *m, uint32_t strand, uint64_t vaddr, uint32_t bytes,
			       struct hvpmu_fetch_memo *memo)
{
	const struct cache *l1i;
	const struct tlb *itlb;
	uint64_t ver, clock;

	if (!m->mem_on || strand >= m->nstrands || !bytes)
		return;
	l1i = &m->s[strand].core->l1i;
	itlb = m->s[strand].itlb;
	ver = l1i->version;
	clock = itlb->clock;
	if (memo->valid && memo->l1i_version == ver && memo->itlb_clock == clock && memo->strand == strand)
		return;
	hvpmu_machine_ifetch(m, strand, vaddr, bytes);
	memo->valid = l1i->version == ver && itlb->clock == clock;
	memo->l1i_version = ver;
	memo->itlb_clock = clock;
	memo->strand = strand;
}

int hvpmu_machine_map_large(struct hvpmu_machine *m, uint64_t va, uint64_t len, uint64_t bytes)
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
			if (tlb_mmu_add_region(m->mmu, USER_CTX, va, len, sizes[i].code))
				return HVPMU_EINVAL;
			for (uint32_t k = 0; k < m->nstrands; k++) {
				tlb_demap_range(m->s[k].itlb, USER_CTX, va, len);
				tlb_demap_range(m->s[k].dtlb, USER_CTX, va, len);
			}
			return HVPMU_OK;
		}
	return HVPMU_EINVAL;
}

/* ---- UltraSPARC T1 DRAM and JBUS PerfRegs (niagara-perf-api.txt) ---- */

void hvpmu_machine_io(struct hvpmu_machine *m, uint32_t strand, int device_to_memory, uint64_t bytes)
{
	uint64_t lines;

	if (!m->t1regs || strand >= m->nstrands || !bytes)
		return;
	lines = (bytes + JBUS_DMA_BYTES - 1) / JBUS_DMA_BYTES;
	if (device_to_memory) { /* a read(): the device writes memory */
		m->jbus.dma_writes += lines;
	} else {                /* a write(): the device reads memory */
		m->jbus.dma_reads += lines;
		m->jbus.dma_read_latency += lines * JBUS_DMA_READ_LATENCY;
	}
	/* the driver starts the transfer and reads its status */
	m->jbus.pio_writes++;
	m->jbus.pio_reads++;
	m->jbus.pio_read_latency += JBUS_PIO_READ_LATENCY;
	strand_now(m, strand);
}

struct hvpmu_t1_perfregs *hvpmu_machine_t1_perfregs(struct hvpmu_machine *m)
{
	struct hvpmu_t1_dram_activity act[T1_DRAM_CHANNELS];

	if (!m->t1regs)
		return NULL;
	memset(act, 0, sizeof act);
	for (unsigned ch = 0; ch < T1_DRAM_CHANNELS; ch++) {
		struct hvpmu_t4_mcu_activity a;

		dram_advance(&m->dram[ch], m->chip_now, &a);
		for (unsigned p = 0; p < HVPMU_T4_MCU_NPORTS; p++) {
			act[ch].reads += a.reads[p];
			act[ch].writes += a.writes[p];
			act[ch].rd_queue_cycles += a.rd_queue_cycles[p];
			act[ch].wr_queue_cycles += a.wr_queue_cycles[p];
			act[ch].wb_hits += a.wb_hits[p];
		}
		act[ch].bank_busy_cycles = a.bank_busy_cycles;
	}
	m->jbus.cycles = (m->chip_now - m->jbus_now) * JBUS_PER_CPU_NUM / JBUS_PER_CPU_DEN;
	m->jbus_now += m->jbus.cycles * JBUS_PER_CPU_DEN / JBUS_PER_CPU_NUM;
	hvpmu_t1_perfregs_count(m->t1regs, act, &m->jbus);
	memset(&m->jbus, 0, sizeof m->jbus);
	return m->t1regs;
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
