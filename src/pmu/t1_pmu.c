/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UltraSPARC T1 per-strand PMU: %pcr (ASR 0x10) and %pic (ASR 0x11).
 * niagara-perf-api.txt §2.1 (direct privileged access);
 * ../shared/reference/hw-and-hypervisor.md §3.1 (PCR fields, OVF bits
 * loaded by a write), §3.2 (PICH/PICL, event codes, PRIV check, wrap ->
 * SOFTINT bit 15); linux-clients.md §1.5 (the same layout as Linux and
 * illumos encode it).
 * Register fields: hvpmu/t1_pcr_regs.h.  Semantics: hvpmu/t1_pmu.h.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/t1_pmu.h>

_Static_assert(HVPMU_T1_PCR_IMPL_MASK ==
		       (HVPMU_FMASK(T1_PCR, PRIV) | HVPMU_FMASK(T1_PCR, ST) | HVPMU_FMASK(T1_PCR, UT) |
			HVPMU_FMASK(T1_PCR, SL) | HVPMU_FMASK(T1_PCR, OVFL) | HVPMU_FMASK(T1_PCR, OVFH)),
	       "implemented PCR bits are exactly the named fields");
_Static_assert((1u << T1_PCR_SL_LEN) == HVPMU_T1_NSL, "SL selects one of 8 PICL events");
_Static_assert(HVPMU_NMEV <= 64, "memory events fit a 64-bit mask");

#define MEV(e) (UINT64_C(1) << (e))

/* §3.2 event codes: Solaris name and, for events the memory model
 * produces, the enum hvpmu_mem_event values they sum. */
static const struct {
	const char *name;
	uint64_t mevs;
} picl_events[HVPMU_T1_NSL] = {
	[HVPMU_T1_SL_SB_FULL] = { "SB_full", MEV(HVPMU_MEV_SB_FULL_CYCLES) }, /* store-buffer-full cycles */
	[HVPMU_T1_SL_FP_INSTR_CNT] = { "FP_instr_cnt", 0 }, /* instruction classes */
	[HVPMU_T1_SL_IC_MISS] = { "IC_miss", MEV(HVPMU_MEV_IC_MISS_L2L3) | MEV(HVPMU_MEV_IC_MISS_MEM) },
	[HVPMU_T1_SL_DC_MISS] = { "DC_miss", MEV(HVPMU_MEV_DC_MISS_L2L3) | MEV(HVPMU_MEV_DC_MISS_MEM) },
	[HVPMU_T1_SL_ITLB_MISS] = { "ITLB_miss", MEV(HVPMU_MEV_ITLB_MISS) },
	[HVPMU_T1_SL_DTLB_MISS] = { "DTLB_miss",
				    MEV(HVPMU_MEV_DTLB_FILL_8K) | MEV(HVPMU_MEV_DTLB_FILL_64K) |
					    MEV(HVPMU_MEV_DTLB_FILL_4M) | MEV(HVPMU_MEV_DTLB_FILL_256M) |
					    MEV(HVPMU_MEV_DTLB_FILL_2G) | MEV(HVPMU_MEV_DTLB_FILL_TRAP) },
	[HVPMU_T1_SL_L2_IMISS] = { "L2_imiss", MEV(HVPMU_MEV_IC_MISS_MEM) },
	[HVPMU_T1_SL_L2_DMISS_LD] = { "L2_dmiss_ld", MEV(HVPMU_MEV_DC_MISS_MEM) },
};

struct hvpmu_t1_pmu {
	const uint32_t *class_flags;
	uint64_t pcr; /* implemented bits only */
	uint32_t pich;
	uint32_t picl;
	uint32_t int15; /* the machine's view: halves whose wrap latched SOFTINT 15, not yet taken */
};

struct hvpmu_t1_pmu *hvpmu_t1_pmu_create(const uint32_t *class_flags)
{
	struct hvpmu_t1_pmu *pmu;

	if (!class_flags)
		return NULL;
	pmu = calloc(1, sizeof *pmu);
	if (pmu)
		pmu->class_flags = class_flags;
	return pmu;
}

void hvpmu_t1_pmu_destroy(struct hvpmu_t1_pmu *pmu)
{
	free(pmu);
}

static int mode_ok(enum hvpmu_mode mode)
{
	return mode == HVPMU_MODE_USER || mode == HVPMU_MODE_PRIV || mode == HVPMU_MODE_HYPER;
}

/* rd/wr %pcr: privileged; user mode traps privileged_opcode. */
static int pcr_access(enum hvpmu_mode mode)
{
	if (!mode_ok(mode))
		return HVPMU_EINVAL;
	return mode == HVPMU_MODE_USER ? HVPMU_ETRAP : HVPMU_OK;
}

int hvpmu_t1_pcr_read(const struct hvpmu_t1_pmu *pmu, enum hvpmu_mode mode, uint64_t *val)
{
	int rc = pcr_access(mode);

	if (rc == HVPMU_OK)
		*val = pmu->pcr;
	return rc;
}

int hvpmu_t1_pcr_write(struct hvpmu_t1_pmu *pmu, enum hvpmu_mode mode, uint64_t val)
{
	int rc = pcr_access(mode);

	/* §3.1: every implemented field, OVFL/OVFH included, takes the
	 * written value; reserved bits are forced to 0. */
	if (rc == HVPMU_OK)
		pmu->pcr = val & HVPMU_T1_PCR_IMPL_MASK;
	return rc;
}

/* §3.2: PCR.PRIV=1 makes a non-privileged PIC access trap privileged_action. */
static int pic_access(const struct hvpmu_t1_pmu *pmu, enum hvpmu_mode mode)
{
	if (!mode_ok(mode))
		return HVPMU_EINVAL;
	if (mode == HVPMU_MODE_USER && HVPMU_FEX(pmu->pcr, T1_PCR, PRIV))
		return HVPMU_ETRAP;
	return HVPMU_OK;
}

int hvpmu_t1_pic_read(const struct hvpmu_t1_pmu *pmu, enum hvpmu_mode mode, uint64_t *val)
{
	int rc = pic_access(pmu, mode);

	if (rc == HVPMU_OK)
		*val = HVPMU_FDP(HVPMU_FDP(0, T1_PIC, PICH, pmu->pich), T1_PIC, PICL, pmu->picl);
	return rc;
}

int hvpmu_t1_pic_write(struct hvpmu_t1_pmu *pmu, enum hvpmu_mode mode, uint64_t val)
{
	int rc = pic_access(pmu, mode);

	/* §3.2: a write loads both halves; the OVF bits are left alone. */
	if (rc == HVPMU_OK) {
		pmu->pich = (uint32_t)HVPMU_FEX(val, T1_PIC, PICH);
		pmu->picl = (uint32_t)HVPMU_FEX(val, T1_PIC, PICL);
	}
	return rc;
}

/* Add n events to a 32-bit half; returns 1 if it wrapped 2^32-1 -> 0. */
static int half_add(uint32_t *half, uint64_t n)
{
	uint64_t v = (uint64_t)*half + n;

	*half = (uint32_t)v;
	return v >= HVPMU_T1_PIC_WRAP;
}

static unsigned sl_of(const struct hvpmu_t1_pmu *pmu)
{
	return (unsigned)HVPMU_FEX(pmu->pcr, T1_PCR, SL);
}

void hvpmu_t1_pmu_feed(struct hvpmu_t1_pmu *pmu, const struct hvpmu_t1_feed *f,
		       struct hvpmu_t1_feed_result *res)
{
	uint64_t insns = 0, fgu = 0, levents = 0;
	unsigned sl = sl_of(pmu);

	memset(res, 0, sizeof *res);
	/* The inputs happened in f->mode: user code counts with UT, the
	 * kernel path (docs/kernel-model.md) with ST; nothing counts in
	 * hyperprivileged mode. */
	if (!(f->mode == HVPMU_MODE_USER ? HVPMU_FEX(pmu->pcr, T1_PCR, UT) :
	      f->mode == HVPMU_MODE_PRIV ? HVPMU_FEX(pmu->pcr, T1_PCR, ST) : 0))
		return;
	for (uint64_t bits = f->dclass ? f->dclass_nonzero : 0; bits; bits &= bits - 1) {
		unsigned k = (unsigned)__builtin_ctzll(bits);

		insns += f->dclass[k];
		if (pmu->class_flags[k] & HVPMU_IC_FP)
			fgu += f->dclass[k];
	}
	if (sl == HVPMU_T1_SL_FP_INSTR_CNT)
		levents = fgu;
	for (unsigned e = 0; e < HVPMU_NMEV; e++)
		if (picl_events[sl].mevs & MEV(e))
			levents += f->dmev[e];

	if (insns && half_add(&pmu->pich, insns)) {
		pmu->pcr |= HVPMU_FMASK(T1_PCR, OVFH);
		res->ovf_mask |= HVPMU_T1_OVF_PICH;
	}
	if (levents && half_add(&pmu->picl, levents)) {
		pmu->pcr |= HVPMU_FMASK(T1_PCR, OVFL);
		res->ovf_mask |= HVPMU_T1_OVF_PICL;
	}
	/* §3.2: a wrap of either half sets SOFTINT bit 15; no enable bit. */
	if (res->ovf_mask) {
		res->int_level15 = 1;
		res->tpc = f->next_pc;
	}
}

uint64_t hvpmu_t1_pmu_headroom(const struct hvpmu_t1_pmu *pmu)
{
	uint64_t best;

	if (!HVPMU_FEX(pmu->pcr, T1_PCR, UT))
		return UINT64_MAX;
	best = HVPMU_T1_PIC_WRAP - pmu->pich;
	if (sl_of(pmu) == HVPMU_T1_SL_FP_INSTR_CNT && HVPMU_T1_PIC_WRAP - pmu->picl < best)
		best = HVPMU_T1_PIC_WRAP - pmu->picl;
	return best;
}

int hvpmu_t1_pmu_wants_memory(const struct hvpmu_t1_pmu *pmu)
{
	return HVPMU_FEX(pmu->pcr, T1_PCR, UT) && picl_events[sl_of(pmu)].mevs != 0;
}

uint64_t hvpmu_t1_pmu_mem_headroom(const struct hvpmu_t1_pmu *pmu)
{
	return hvpmu_t1_pmu_wants_memory(pmu) ? HVPMU_T1_PIC_WRAP - pmu->picl : UINT64_MAX;
}

uint64_t hvpmu_t1_pmu_mem_watch(const struct hvpmu_t1_pmu *pmu)
{
	return hvpmu_t1_pmu_wants_memory(pmu) ? picl_events[sl_of(pmu)].mevs : 0;
}

uint64_t hvpmu_t1_picl_mevs(unsigned sl)
{
	return sl < HVPMU_T1_NSL ? picl_events[sl].mevs : 0;
}

const char *hvpmu_t1_picl_name(unsigned sl)
{
	return sl < HVPMU_T1_NSL ? picl_events[sl].name : NULL;
}

uint64_t hvpmu_t1_pmu_peek_pcr(const struct hvpmu_t1_pmu *pmu)
{
	return pmu->pcr;
}

uint64_t hvpmu_t1_pmu_peek_pic(const struct hvpmu_t1_pmu *pmu)
{
	return ((uint64_t)pmu->pich << T1_PIC_PICH_SHIFT) | pmu->picl;
}

/* ---- the machine's interface (hvpmu/pmu.h) ---- */

enum { T1_NPIC = 2 }; /* PICL and PICH */
_Static_assert(T1_NPIC <= HVPMU_PMU_MAX_PIC, "halves fit the feed result");

/* RDASR / WRASR of %pcr (ASR 0x10) and %pic (ASR 0x11), §2.1. */
static int ops_reg_read(void *p, enum hvpmu_reg_space sp, unsigned asr, uint64_t addr, enum hvpmu_mode mode,
			uint64_t *val)
{
	(void)addr;
	if (sp == HVPMU_REG_ASR && asr == HVPMU_T1_ASR_PCR)
		return hvpmu_t1_pcr_read(p, mode, val);
	if (sp == HVPMU_REG_ASR && asr == HVPMU_T1_ASR_PIC)
		return hvpmu_t1_pic_read(p, mode, val);
	return HVPMU_ERANGE;
}

static int ops_reg_write(void *p, enum hvpmu_reg_space sp, unsigned asr, uint64_t addr, enum hvpmu_mode mode,
			 uint64_t val)
{
	(void)addr;
	if (sp == HVPMU_REG_ASR && asr == HVPMU_T1_ASR_PCR)
		return hvpmu_t1_pcr_write(p, mode, val);
	if (sp == HVPMU_REG_ASR && asr == HVPMU_T1_ASR_PIC)
		return hvpmu_t1_pic_write(p, mode, val);
	return HVPMU_ERANGE;
}

static void *ops_create(const uint32_t *class_flags) { return hvpmu_t1_pmu_create(class_flags); }
static void ops_destroy(void *p) { hvpmu_t1_pmu_destroy(p); }
/* the T1 PMU reads the class table at each feed */
static void ops_classes_changed(void *p) { (void)p; }

/* A T1 wrap latches SOFTINT 15: the interrupt (not precise) stays pending
 * until taken, and is reported as a disrupting PMU trap whose pic_mask
 * holds the HVPMU_T1_OVF_* halves. */
static void ops_feed(void *p, const struct hvpmu_pmu_feed *f, struct hvpmu_pmu_feed_result *r)
{
	struct hvpmu_t1_pmu *pmu = p;
	struct hvpmu_t1_feed tf = { 0 };
	struct hvpmu_t1_feed_result tr;

	tf.dclass = f->dclass;
	tf.dclass_nonzero = f->dclass_nonzero;
	memcpy(tf.dmev, f->dmev, sizeof tf.dmev);
	tf.next_pc = f->next_pc;
	tf.mode = f->mode;
	hvpmu_t1_pmu_feed(pmu, &tf, &tr);
	memset(r, 0, sizeof *r);
	r->ovf_mask = tr.ovf_mask;
	if (tr.int_level15)
		pmu->int15 |= tr.ovf_mask;
	r->disrupt_mask = pmu->int15;
}

static void ops_trap_taken(void *p) { ((struct hvpmu_t1_pmu *)p)->int15 = 0; }
static uint64_t ops_headroom(const void *p, uint64_t c)
{
	(void)c;
	return hvpmu_t1_pmu_headroom(p);
}
static uint64_t ops_mem_headroom(const void *p) { return hvpmu_t1_pmu_mem_headroom(p); }
static uint64_t ops_mem_watch(const void *p) { return hvpmu_t1_pmu_mem_watch(p); }

const struct hvpmu_pmu_ops hvpmu_t1_pmu_ops = {
	.name = "t1",
	.npic = T1_NPIC,
	.create = ops_create,
	.destroy = ops_destroy,
	.classes_changed = ops_classes_changed,
	.feed = ops_feed,
	.trap_taken = ops_trap_taken,
	.headroom = ops_headroom,
	.mem_headroom = ops_mem_headroom,
	.mem_watch = ops_mem_watch,
	.reg_read = ops_reg_read,
	.reg_write = ops_reg_write,
};
