/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SPARC T4 per-strand PMU: PCR0-3 and PIC0-3.
 * sparc-t4-performance-instrumentation.md §10.1-10.3, TABLE 10-1 (PCR),
 * TABLE 10-2 (sl/mask groups, Precise column), TABLE 10-3 (PIC).
 * Register fields: hvpmu/t4_regs.h.  Event groups: src/pmu/t4_events.c.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>

/* Width of PCR.mask (TABLE 10-1 bits 10:5). */
#define HVPMU_FIELD_BITS_MASK T4_PCR_MASK_LEN

/* TABLE 10-2 sl=4 mask bits. */
enum {
	SL4_BRANCHES = 0x01,
	SL4_TAKEN = 0x02,
	SL4_SWCOUNT = 0x04,
	SL4_ATOMICS = 0x08,
	SL4_PREFETCH = 0x10,
	SL4_BLOCK = 0x20,
};

/* TABLE 10-2 sl=3 mask bit -> the instruction group it counts (the
 * generic classes of hvpmu/insn.h; the SPARC decoder places each
 * instruction by footnotes 5-9, hvpmu/sparc_decode.h). */
static const struct {
	uint8_t mask;
	uint32_t flag;
} sl3_bits[] = {
	{ 0x01, HVPMU_IC_BRANCH }, { 0x02, HVPMU_IC_FP },  { 0x04, HVPMU_IC_LOAD },
	{ 0x08, HVPMU_IC_STORE },  { 0x10, HVPMU_IC_SPR }, { 0x20, HVPMU_IC_OTHER },
};

/* sl=4 mask bit -> decode flag; bit 0x02 (taken) is special-cased. */
static const struct {
	uint8_t mask;
	uint32_t flag;
} sl4_bits[] = {
	{ SL4_BRANCHES, HVPMU_IC_BRANCH },  { SL4_TAKEN, HVPMU_IC_CTI_ALWAYS },
	{ SL4_SWCOUNT, HVPMU_IC_SWCOUNT },  { SL4_ATOMICS, HVPMU_IC_ATOMIC },
	{ SL4_PREFETCH, HVPMU_IC_PREFETCH },{ SL4_BLOCK, HVPMU_IC_BLOCK },
};

/* TABLE 10-2 sl=25 mask bit -> mispredict kinds it counts ("0x02 includes
 * both far table mispredicts and return stack mispredicts"). */
static const struct {
	uint8_t mask;
	uint8_t kinds;
} sl25_bits[] = {
	{ 0x01, 1u << HVPMU_MISPRED_DIR },
	{ 0x02, (1u << HVPMU_MISPRED_FAR) | (1u << HVPMU_MISPRED_RET) },
	{ 0x04, 1u << HVPMU_MISPRED_INDIR },
	{ 0x08, 1u << HVPMU_MISPRED_RET },
};

/* The hypervisor's own PCR write: STXA to ASI 0x64, an SPR ring op
 * (footnote 8 "STXA_0X64") and a non-translating alternate store, hence
 * next-to-commit (TABLE 10-1 footnote 1). */
#define PCR_WRITE_INSN_FLAGS (HVPMU_IC_SPR | HVPMU_IC_NTC)

struct t4_counter {
	uint64_t pcr;
	uint32_t pic;
	/* derived from pcr.sl/mask at write time */
	enum hvpmu_t4_kind kind;
	uint8_t precise;
	uint8_t taken;     /* add taken conditional CTIs (sl=4 mask has 0x02 but not 0x01) */
	uint8_t mkinds;    /* sl=25: enum hvpmu_mispred kinds counted (bit per kind) */
	uint64_t mevs;     /* memory and pipeline groups: enum hvpmu_mem_event bits counted */
	uint32_t causes;   /* pipeline groups: enum hvpmu_pipe_cause bits counted */
	uint64_t match;    /* instruction classes counted */
};

struct hvpmu_t4_pmu {
	const uint32_t *class_flags;
	struct t4_counter c[HVPMU_T4_NPIC];
};

/* The instruction classes (hvpmu/insn.h flags) that PCR mask `mask` of an
 * sl=3 or sl=4 counter selects: any instruction with one of them counts
 * (TABLE 10-2; sl=4 mask 0x02 adds taken conditional CTIs, c->taken). */
static uint32_t selected_flags(enum hvpmu_t4_kind kind, unsigned mask)
{
	uint32_t f = 0;

	if (kind == HVPMU_T4_KIND_SL3)
		for (unsigned i = 0; i < sizeof sl3_bits / sizeof sl3_bits[0]; i++)
			if (mask & sl3_bits[i].mask)
				f |= sl3_bits[i].flag;
	if (kind == HVPMU_T4_KIND_SL4)
		for (unsigned i = 0; i < sizeof sl4_bits / sizeof sl4_bits[0]; i++)
			if (mask & sl4_bits[i].mask)
				f |= sl4_bits[i].flag;
	return f;
}

static int flags_match(const struct t4_counter *c, uint32_t flags)
{
	return (flags & selected_flags(c->kind, (unsigned)HVPMU_FEX(c->pcr, T4_PCR, MASK))) != 0;
}

static void derive(struct hvpmu_t4_pmu *pmu, struct t4_counter *c)
{
	unsigned sl = (unsigned)HVPMU_FEX(c->pcr, T4_PCR, SL);
	unsigned mask = (unsigned)HVPMU_FEX(c->pcr, T4_PCR, MASK);
	const struct hvpmu_t4_group *g = hvpmu_t4_group(sl);

	c->kind = g ? g->kind : HVPMU_T4_KIND_NONE;
	c->precise = g ? g->precise : 0;
	c->taken = c->kind == HVPMU_T4_KIND_SL4 && (mask & SL4_TAKEN) && !(mask & SL4_BRANCHES);
	c->mkinds = 0;
	c->mevs = 0;
	c->causes = 0;
	for (unsigned b = 0; (c->kind == HVPMU_T4_KIND_MEM || c->kind == HVPMU_T4_KIND_PIPE) &&
			     b < HVPMU_FIELD_BITS_MASK; b++)
		if (mask & (1u << b)) {
			c->mevs |= hvpmu_t4_mem_events(sl, b);
			c->causes |= c->kind == HVPMU_T4_KIND_PIPE ? hvpmu_t4_pipe_causes(sl, b) : 0;
		}
	for (unsigned i = 0; c->kind == HVPMU_T4_KIND_MISPRED && i < sizeof sl25_bits / sizeof sl25_bits[0]; i++)
		if (mask & sl25_bits[i].mask)
			c->mkinds |= sl25_bits[i].kinds;
	c->match = 0;
	for (unsigned k = 0, f = selected_flags(c->kind, mask); f && k < HVPMU_MAX_ICLASS; k++)
		if (pmu->class_flags[k] & f)
			c->match |= UINT64_C(1) << k;
}

struct hvpmu_t4_pmu *hvpmu_t4_pmu_create(const uint32_t *class_flags)
{
	struct hvpmu_t4_pmu *pmu = calloc(1, sizeof *pmu);

	if (!pmu || !class_flags) {
		free(pmu);
		return NULL;
	}
	pmu->class_flags = class_flags;
	for (unsigned i = 0; i < HVPMU_T4_NPIC; i++)
		derive(pmu, &pmu->c[i]);
	return pmu;
}

void hvpmu_t4_pmu_destroy(struct hvpmu_t4_pmu *pmu)
{
	free(pmu);
}

void hvpmu_t4_pmu_classes_changed(struct hvpmu_t4_pmu *pmu)
{
	for (unsigned i = 0; i < HVPMU_T4_NPIC; i++)
		derive(pmu, &pmu->c[i]);
}

int hvpmu_t4_pcr_read(const struct hvpmu_t4_pmu *pmu, unsigned idx, uint64_t *val)
{
	if (idx >= HVPMU_T4_NPIC)
		return HVPMU_ERANGE;
	*val = pmu->c[idx].pcr;
	return HVPMU_OK;
}

/* Add `n` events to counter c; returns 1 if the PIC wrapped 2^32-1 -> 0. */
static int pic_add(struct t4_counter *c, uint64_t n)
{
	uint64_t v = (uint64_t)c->pic + n;

	c->pic = (uint32_t)v;
	if (v >= HVPMU_T4_PIC_WRAP) {
		c->pcr |= HVPMU_FMASK(T4_PCR, OV);
		return 1;
	}
	return 0;
}

static int counts_mode(const struct t4_counter *c, enum hvpmu_mode mode)
{
	switch (mode) {
	case HVPMU_MODE_USER: return (int)HVPMU_FEX(c->pcr, T4_PCR, UT);
	case HVPMU_MODE_PRIV: return (int)HVPMU_FEX(c->pcr, T4_PCR, ST);
	case HVPMU_MODE_HYPER: return (int)HVPMU_FEX(c->pcr, T4_PCR, HT);
	default: return 0;
	}
}

int hvpmu_t4_pcr_write(struct hvpmu_t4_pmu *pmu, unsigned idx, uint64_t val, enum hvpmu_mode mode)
{
	struct t4_counter *c;
	uint64_t nv;
	int rewrap = 0;

	if (idx >= HVPMU_T4_NPIC)
		return HVPMU_ERANGE;
	c = &pmu->c[idx];
	/* The writing STXA is counted under the settings in force while it
	 * executes (the old PCR): if that wraps the PIC, hardware sets ov
	 * again after the write (§10.2 programming note on ov). */
	if (counts_mode(c, mode) &&
	    (c->kind == HVPMU_T4_KIND_SL3 || c->kind == HVPMU_T4_KIND_SL4) &&
	    flags_match(c, PCR_WRITE_INSN_FLAGS))
		rewrap = pic_add(c, 1);
	nv = val & HVPMU_T4_PCR_IMPL_MASK;
	/* ntc and ov: software can clear them, never set them (§10.2). */
	nv = (nv & ~HVPMU_T4_PCR_STICKY_MASK) | (c->pcr & val & HVPMU_T4_PCR_STICKY_MASK);
	if (rewrap)
		nv |= HVPMU_FMASK(T4_PCR, OV) | HVPMU_FMASK(T4_PCR, NTC);
	c->pcr = nv;
	derive(pmu, c);
	return HVPMU_OK;
}

/* §10.3 / TABLE 10-1 picnht, picnpt. */
static int pic_access_ok(const struct t4_counter *c, enum hvpmu_mode mode)
{
	if (mode == HVPMU_MODE_HYPER)
		return 1;
	if (HVPMU_FEX(c->pcr, T4_PCR, PICNHT))
		return 0;
	if (mode == HVPMU_MODE_USER && HVPMU_FEX(c->pcr, T4_PCR, PICNPT))
		return 0;
	return 1;
}

int hvpmu_t4_pic_read(const struct hvpmu_t4_pmu *pmu, unsigned idx, enum hvpmu_mode mode, uint64_t *val)
{
	if (idx >= HVPMU_T4_NPIC)
		return HVPMU_ERANGE;
	if (!pic_access_ok(&pmu->c[idx], mode))
		return HVPMU_ETRAP;
	*val = pmu->c[idx].pic;
	return HVPMU_OK;
}

int hvpmu_t4_pic_write(struct hvpmu_t4_pmu *pmu, unsigned idx, enum hvpmu_mode mode, uint64_t val)
{
	if (idx >= HVPMU_T4_NPIC)
		return HVPMU_ERANGE;
	if (!pic_access_ok(&pmu->c[idx], mode))
		return HVPMU_ETRAP;
	pmu->c[idx].pic = (uint32_t)HVPMU_FEX(val, T4_PIC, COUNTER);
	return HVPMU_OK;
}

uint32_t hvpmu_t4_pmu_peek_pic(const struct hvpmu_t4_pmu *pmu, unsigned idx)
{
	return idx < HVPMU_T4_NPIC ? pmu->c[idx].pic : 0;
}

/* Groups whose events happen at user-mode instructions (at most one per
 * instruction), located precisely within a block. */
static int is_insn_kind(enum hvpmu_t4_kind k)
{
	return k == HVPMU_T4_KIND_SL3 || k == HVPMU_T4_KIND_SL4 || k == HVPMU_T4_KIND_MISPRED;
}

/*
 * Index of the instruction of `b` at which counter c (holding `pic` before
 * the block) wraps, or -1 if it cannot be located.
 */
static int locate_wrap(const struct t4_counter *c, uint32_t pic, const struct hvpmu_block *b,
		       uint64_t dtaken, uint64_t dmispred)
{
	uint64_t need = HVPMU_T4_PIC_WRAP - pic;

	for (uint32_t i = 0; b && i < b->n; i++) {
		int hit = (int)((c->match >> b->cls[i]) & 1);

		if (!hit && c->taken && dtaken && (int32_t)i == b->cond_cti)
			hit = 1;
		if (!hit && dmispred && (int32_t)i == b->cti)
			hit = 1;
		if (hit && --need == 0)
			return (int)i;
	}
	return -1;
}

/* The sum of the memory events of mask `mevs`: only its set bits are
 * visited (a counter selects a few of the HVPMU_NMEV events); the same
 * terms as a walk of every event testing its bit, so the same sum. */
static uint64_t mev_sum(uint64_t mevs, const struct hvpmu_pmu_feed *f)
{
	uint64_t d = 0;

	/* the walk it replaces stopped at HVPMU_NMEV */
	mevs &= HVPMU_NMEV < 64 ? (UINT64_C(1) << (HVPMU_NMEV % 64)) - 1 : ~UINT64_C(0);
	while (mevs) {
		unsigned k = (unsigned)__builtin_ctzll(mevs);

		mevs &= mevs - 1;
		d += f->dmev[k];
	}
	return d;
}

/*
 * A pipeline-group counter (sl=1, 2, 8, 9, 28): the user-mode cycles of
 * the causes it selects when ut is set; the privileged / hyperprivileged
 * cycles of the modes st / ht select when it counts HVPMU_PIPE_ISSUE
 * (modeled OS and hypervisor work has no stall breakdown,
 * docs/timing-model.md); and its front-end counts (user mode).
 */
static uint64_t pipe_delta(const struct t4_counter *c, const struct hvpmu_pmu_feed *f)
{
	uint64_t d = 0;

	if (HVPMU_FEX(c->pcr, T4_PCR, UT)) {
		for (int k = 0; k < HVPMU_NPIPE; k++)
			if (c->causes & (1u << k))
				d += f->dpipe[k];
		d += mev_sum(c->mevs, f);
	}
	if (c->causes & (1u << HVPMU_PIPE_ISSUE))
		for (int m = HVPMU_MODE_PRIV; m < HVPMU_NMODES; m++)
			if (counts_mode(c, (enum hvpmu_mode)m))
				d += f->dcycles[m];
	return d;
}

void hvpmu_t4_pmu_feed(struct hvpmu_t4_pmu *pmu, const struct hvpmu_pmu_feed *f,
		       struct hvpmu_pmu_feed_result *res)
{
	memset(res, 0, sizeof *res);
	for (unsigned i = 0; i < HVPMU_T4_NPIC; i++) {
		struct t4_counter *c = &pmu->c[i];
		uint64_t delta = 0, dmis = 0;
		uint32_t before = c->pic;

		/* instructions and memory events count in the mode they happen
		 * in: user code, or the kernel path (docs/kernel-model.md) */
		if (is_insn_kind(c->kind) && counts_mode(c, f->mode)) {
			uint64_t bits = c->match & f->dclass_nonzero;

			while (bits) {
				unsigned k = (unsigned)__builtin_ctzll(bits);

				bits &= bits - 1;
				delta += f->dclass[k];
			}
			if (c->taken)
				delta += f->dtaken_cond;
			for (int k = 0; k < HVPMU_NMISPRED; k++)
				if (c->mkinds & (1u << k))
					dmis += f->dmispred[k];
			delta += dmis;
		} else if (c->kind == HVPMU_T4_KIND_MEM && counts_mode(c, f->mode)) {
			delta = mev_sum(c->mevs, f);
		} else if (c->kind == HVPMU_T4_KIND_PIPE) {
			delta = pipe_delta(c, f);
		} else if (c->kind == HVPMU_T4_KIND_CYCLES) {
			for (int m = 0; m < HVPMU_NMODES; m++)
				if (counts_mode(c, (enum hvpmu_mode)m))
					delta += f->dcycles[m];
		}
		if (!delta || !pic_add(c, delta))
			continue;
		res->ovf_mask |= 1u << i;
		if (c->kind == HVPMU_T4_KIND_MEM) {
			/* memory events happen at the access that caused them */
			if (HVPMU_FEX(c->pcr, T4_PCR, TOE) && c->precise && !HVPMU_FEX(c->pcr, T4_PCR, HT)) {
				res->precise_mask |= 1u << i;
				res->pic_tpc[i] = f->mem_pc ? f->mem_pc : f->next_pc;
			}
		} else if (is_insn_kind(c->kind)) {
			/* located in the user block that ran last (none in the kernel path) */
			int at = locate_wrap(c, before, f->last, f->dtaken_cond, dmis);

			if (at >= 0 && (pmu->class_flags[f->last->cls[at]] & HVPMU_IC_NTC))
				c->pcr |= HVPMU_FMASK(T4_PCR, NTC);
			/* precise trap: toe, ht=0, not in hyperprivileged mode (§10.3) */
			if (HVPMU_FEX(c->pcr, T4_PCR, TOE) && c->precise &&
			    !HVPMU_FEX(c->pcr, T4_PCR, HT)) {
				res->precise_mask |= 1u << i;
				res->pic_tpc[i] = at >= 0 ? f->last->vaddr + 4u * (uint64_t)at : f->next_pc;
			}
		}
	}
	if (res->precise_mask) {
		res->precise_tpc = UINT64_MAX;
		for (unsigned i = 0; i < HVPMU_T4_NPIC; i++)
			if ((res->precise_mask & (1u << i)) && res->pic_tpc[i] < res->precise_tpc)
				res->precise_tpc = res->pic_tpc[i];
	}
	/* disrupting traps are level: toe AND ov for asynchronous groups */
	for (unsigned i = 0; i < HVPMU_T4_NPIC; i++) {
		const struct t4_counter *c = &pmu->c[i];

		if (HVPMU_FEX(c->pcr, T4_PCR, TOE) && HVPMU_FEX(c->pcr, T4_PCR, OV) && !c->precise &&
		    c->kind != HVPMU_T4_KIND_NONE)
			res->disrupt_mask |= 1u << i;
	}
}

uint64_t hvpmu_t4_pmu_headroom(const struct hvpmu_t4_pmu *pmu, uint64_t max_cycles_per_insn)
{
	uint64_t best = UINT64_MAX;

	for (unsigned i = 0; i < HVPMU_T4_NPIC; i++) {
		const struct t4_counter *c = &pmu->c[i];
		uint64_t left = HVPMU_T4_PIC_WRAP - c->pic, insns;

		/* conservative: classes interned later may match */
		if (is_insn_kind(c->kind) && HVPMU_FEX(c->pcr, T4_PCR, UT))
			insns = left;
		else if ((c->kind == HVPMU_T4_KIND_CYCLES || c->kind == HVPMU_T4_KIND_PIPE) &&
			 HVPMU_FEX(c->pcr, T4_PCR, UT))
			insns = (left + max_cycles_per_insn - 1) / (max_cycles_per_insn ? max_cycles_per_insn : 1);
		else
			continue;
		if (insns < best)
			best = insns;
	}
	return best;
}

uint64_t hvpmu_t4_pmu_mem_headroom(const struct hvpmu_t4_pmu *pmu)
{
	uint64_t best = UINT64_MAX;

	for (unsigned i = 0; i < HVPMU_T4_NPIC; i++) {
		const struct t4_counter *c = &pmu->c[i];

		if (c->kind == HVPMU_T4_KIND_MEM && c->mevs && HVPMU_FEX(c->pcr, T4_PCR, UT) &&
		    HVPMU_T4_PIC_WRAP - c->pic < best)
			best = HVPMU_T4_PIC_WRAP - c->pic;
	}
	return best;
}

uint64_t hvpmu_t4_pmu_mem_watch(const struct hvpmu_t4_pmu *pmu)
{
	uint64_t w = 0;

	for (unsigned i = 0; i < HVPMU_T4_NPIC; i++) {
		const struct t4_counter *c = &pmu->c[i];

		if (c->kind == HVPMU_T4_KIND_MEM && HVPMU_FEX(c->pcr, T4_PCR, UT))
			w |= c->mevs;
	}
	return w;
}

/* ---- the machine's interface (hvpmu/pmu.h) ---- */

_Static_assert(HVPMU_T4_NPIC <= HVPMU_PMU_MAX_PIC, "PICs fit the feed result");

/* VA of PCRn / PICn: n * 8 (TABLE 10-1, TABLE 10-3). */
#define PMU_VA_STRIDE 8

static int reg_index(enum hvpmu_reg_space sp, uint64_t va, unsigned *idx)
{
	if (sp != HVPMU_REG_ASI || va % PMU_VA_STRIDE || va / PMU_VA_STRIDE >= HVPMU_T4_NPIC)
		return HVPMU_ERANGE;
	*idx = (unsigned)(va / PMU_VA_STRIDE);
	return HVPMU_OK;
}

/* LDXA: ASI 0x64 (PCRs) is hyperprivileged (TABLE 10-1); ASI 0xB0 (PICs)
 * has the picnht/picnpt checks (§10.3). */
static int ops_reg_read(void *p, enum hvpmu_reg_space sp, unsigned asi, uint64_t va, enum hvpmu_mode mode,
			uint64_t *val)
{
	unsigned idx;

	if (reg_index(sp, va, &idx))
		return HVPMU_ERANGE;
	if (asi == HVPMU_T4_ASI_PCR)
		return mode == HVPMU_MODE_HYPER ? hvpmu_t4_pcr_read(p, idx, val) : HVPMU_ETRAP;
	if (asi == HVPMU_T4_ASI_PIC)
		return hvpmu_t4_pic_read(p, idx, mode, val);
	return HVPMU_ERANGE;
}

static int ops_reg_write(void *p, enum hvpmu_reg_space sp, unsigned asi, uint64_t va, enum hvpmu_mode mode,
			 uint64_t val)
{
	unsigned idx;

	if (reg_index(sp, va, &idx))
		return HVPMU_ERANGE;
	if (asi == HVPMU_T4_ASI_PCR)
		return mode == HVPMU_MODE_HYPER ? hvpmu_t4_pcr_write(p, idx, val, mode) : HVPMU_ETRAP;
	if (asi == HVPMU_T4_ASI_PIC)
		return hvpmu_t4_pic_write(p, idx, mode, val);
	return HVPMU_ERANGE;
}

static void *ops_create(const uint32_t *class_flags) { return hvpmu_t4_pmu_create(class_flags); }
static void ops_destroy(void *p) { hvpmu_t4_pmu_destroy(p); }
static void ops_classes_changed(void *p) { hvpmu_t4_pmu_classes_changed(p); }
static void ops_feed(void *p, const struct hvpmu_pmu_feed *f, struct hvpmu_pmu_feed_result *r)
{
	hvpmu_t4_pmu_feed(p, f, r);
}
/* disrupting_performance_event is level-triggered (toe AND ov, §10.2
 * programming notes): taking it clears nothing. */
static void ops_trap_taken(void *p) { (void)p; }
static uint64_t ops_headroom(const void *p, uint64_t c) { return hvpmu_t4_pmu_headroom(p, c); }
static uint64_t ops_mem_headroom(const void *p) { return hvpmu_t4_pmu_mem_headroom(p); }
static uint64_t ops_mem_watch(const void *p) { return hvpmu_t4_pmu_mem_watch(p); }

const struct hvpmu_pmu_ops hvpmu_t4_pmu_ops = {
	.name = "t4",
	.npic = HVPMU_T4_NPIC,
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
