/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IBM POWER7 core performance monitor: PMC1-6, MMCR0, MMCR1, MMCRA of one
 * hardware thread.  Register layouts, access and alert rules with their
 * sources: hvpmu/power7_pmu.h and docs/power7-pmu.md ([ISA] Power ISA 2.06
 * Book III-S ch. 9; [REG] Linux asm/reg.h; [P7] Linux perf/power7-pmu.c;
 * [BK] Linux perf/core-book3s.c).  The events of PMC1-4 come from the
 * table in power7_events.c.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/pmu.h>
#include <hvpmu/power7_pmu.h>

_Static_assert(HVPMU_P7_NPMC <= HVPMU_PMU_MAX_PIC, "PMCs fit the feed result");
_Static_assert(HVPMU_NMEV <= 64, "memory events fit a 64-bit mask");
_Static_assert(HVPMU_P7_MMCR1_PMCSEL_SHIFT(4) == P7_MMCR1_PMC4SEL_SHIFT &&
		       HVPMU_P7_MMCR1_COMBINE_SHIFT(4) == P7_MMCR1_PMC4_COMBINE_SHIFT &&
		       HVPMU_P7_MMCR1_TTMSEL_SHIFT(4) == P7_MMCR1_TTM3SEL_SHIFT,
	       "PMC1-4's MMCR1 fields as [P7] spaces them");

#define WRAP (UINT64_C(1) << 32)
#define BIT(n) (1u << ((n) - 1u)) /* PMCn's bit in a mask */

struct hvpmu_power7_pmu {
	const uint32_t *class_flags;
	uint32_t pmc[HVPMU_P7_NPMC];
	uint64_t mmcr0, mmcr1, mmcra;
	uint32_t alert_pmcs; /* the PMCs of the last alert (reported while PMAO) */
	/* PMCn's event, from MMCR1 at its last write (NULL: counts nothing) */
	const struct hvpmu_power7_event *ev[HVPMU_P7_NPMC];
};

uint64_t hvpmu_power7_mmcr1_event(uint64_t mmcr1, unsigned n)
{
	uint64_t psel, unit, code;

	if (n < 1 || n > HVPMU_P7_NPROG)
		return 0;
	psel = (mmcr1 >> HVPMU_P7_MMCR1_PMCSEL_SHIFT(n)) & 0xff;
	if (!psel)
		return 0;
	unit = (mmcr1 >> HVPMU_P7_MMCR1_TTMSEL_SHIFT(n)) & 0xf;
	code = HVPMU_FDP(0, P7_EV, PMC, n);
	code = HVPMU_FDP(code, P7_EV, UNIT, unit);
	code = HVPMU_FDP(code, P7_EV, COMBINE, (mmcr1 >> HVPMU_P7_MMCR1_COMBINE_SHIFT(n)) & 1);
	if (unit == HVPMU_P7_UNIT_L2)
		code = HVPMU_FDP(code, P7_EV, L2SEL, HVPMU_FEX(mmcr1, P7_MMCR1, L2SEL));
	return HVPMU_FDP(code, P7_EV, PMCSEL, psel);
}

static void select_events(struct hvpmu_power7_pmu *pmu)
{
	for (unsigned n = 1; n <= HVPMU_P7_NPROG; n++) {
		uint64_t code = hvpmu_power7_mmcr1_event(pmu->mmcr1, n);

		pmu->ev[n - 1] = code ? hvpmu_power7_event_on_pmc(code, n) : NULL;
	}
	pmu->ev[4] = hvpmu_power7_event_of(HVPMU_P7_PM_RUN_INST_CMPL5);
	pmu->ev[5] = hvpmu_power7_event_of(HVPMU_P7_PM_RUN_CYC6);
}

struct hvpmu_power7_pmu *hvpmu_power7_pmu_create(const uint32_t *class_flags)
{
	struct hvpmu_power7_pmu *pmu;

	if (!class_flags)
		return NULL;
	pmu = calloc(1, sizeof *pmu);
	if (!pmu)
		return NULL;
	pmu->class_flags = class_flags;
	select_events(pmu);
	return pmu;
}

void hvpmu_power7_pmu_destroy(struct hvpmu_power7_pmu *pmu) { free(pmu); }

/* The register an SPR number names (the privileged number), and whether
 * the number is a user alias; -1 if it is none of ours. */
static int spr_reg(unsigned spr, int *alias)
{
	*alias = 0;
	if (spr == HVPMU_P7_SPR_SIAR || spr == HVPMU_P7_SPR_SDAR)
		return (int)spr;
	if (spr >= HVPMU_P7_SPR_MMCRA - HVPMU_P7_SPR_USER_OFFSET &&
	    spr <= HVPMU_P7_SPR_MMCR1 - HVPMU_P7_SPR_USER_OFFSET) {
		*alias = 1;
		spr += HVPMU_P7_SPR_USER_OFFSET;
	}
	if (spr == HVPMU_P7_SPR_MMCRA || spr == HVPMU_P7_SPR_MMCR0 || spr == HVPMU_P7_SPR_MMCR1 ||
	    (spr >= HVPMU_P7_SPR_PMC1 && spr <= HVPMU_P7_SPR_PMC(HVPMU_P7_NPMC)))
		return (int)spr;
	return -1; /* (USIAR / USDAR 764 / 765: not Linux's, not modeled) */
}

static int access_ok(enum hvpmu_mode mode, unsigned spr, int write, unsigned *reg)
{
	int alias, r;

	if (mode != HVPMU_MODE_USER && mode != HVPMU_MODE_PRIV && mode != HVPMU_MODE_HYPER)
		return HVPMU_EINVAL;
	if ((r = spr_reg(spr, &alias)) < 0)
		return HVPMU_ERANGE;
	if ((alias && write) || (!alias && mode == HVPMU_MODE_USER))
		return HVPMU_ETRAP;
	*reg = (unsigned)r;
	return HVPMU_OK;
}

int hvpmu_power7_read(const struct hvpmu_power7_pmu *pmu, enum hvpmu_mode mode, unsigned spr, uint64_t *val)
{
	unsigned reg = 0;
	int rc = access_ok(mode, spr, 0, &reg);

	if (rc == HVPMU_OK)
		*val = hvpmu_power7_pmu_peek_spr(pmu, reg);
	return rc;
}

int hvpmu_power7_write(struct hvpmu_power7_pmu *pmu, enum hvpmu_mode mode, unsigned spr, uint64_t val)
{
	unsigned reg = 0;
	int rc = access_ok(mode, spr, 1, &reg);

	if (rc != HVPMU_OK)
		return rc;
	if (reg >= HVPMU_P7_SPR_PMC1 && reg <= HVPMU_P7_SPR_PMC(HVPMU_P7_NPMC))
		pmu->pmc[reg - HVPMU_P7_SPR_PMC1] = (uint32_t)(val & HVPMU_P7_PMC_MASK);
	else if (reg == HVPMU_P7_SPR_MMCR0)
		pmu->mmcr0 = val & HVPMU_P7_MMCR0_IMPL_MASK;
	else if (reg == HVPMU_P7_SPR_MMCR1) {
		pmu->mmcr1 = val;
		select_events(pmu);
	} else if (reg == HVPMU_P7_SPR_MMCRA)
		pmu->mmcra = val;
	/* SIAR, SDAR: no sampling, the write is dropped */
	return HVPMU_OK;
}

/* Is the PMU frozen in `mode` for PMCn (the freeze bits of MMCR0)? */
static int frozen(uint64_t mmcr0, enum hvpmu_mode mode, unsigned n)
{
	if (HVPMU_FEX(mmcr0, P7_MMCR0, FC) || HVPMU_FEX(mmcr0, P7_MMCR0, FCM0))
		return 1; /* FCM0: the model's MSR[PMM] is always 0 */
	if (n >= 5 && HVPMU_FEX(mmcr0, P7_MMCR0, FC56))
		return 1;
	switch (mode) {
	case HVPMU_MODE_USER: return HVPMU_FEX(mmcr0, P7_MMCR0, FCP) != 0;
	case HVPMU_MODE_PRIV: return HVPMU_FEX(mmcr0, P7_MMCR0, FCS) != 0;
	case HVPMU_MODE_HYPER: return HVPMU_FEX(mmcr0, P7_MMCR0, FCH) != 0;
	default: return 1;
	}
}

/* Is a rise of PMCn's bit 31 an enabled condition? */
static int cond_enabled(uint64_t mmcr0, unsigned n)
{
	return n == 1 ? HVPMU_FEX(mmcr0, P7_MMCR0, PMC1CE) != 0 : HVPMU_FEX(mmcr0, P7_MMCR0, PMCJCE) != 0;
}

/* PMCn's events in the feed. */
static uint64_t feed_events(const struct hvpmu_power7_pmu *pmu, unsigned n, const struct hvpmu_pmu_feed *f)
{
	const struct hvpmu_power7_event *e = pmu->ev[n - 1];
	uint64_t sum = 0;

	if (!e)
		return 0;
	if (e->src == HVPMU_P7_SRC_CYCLES) {
		for (int md = 0; md < HVPMU_NMODES; md++)
			if (!frozen(pmu->mmcr0, (enum hvpmu_mode)md, n))
				sum += f->dcycles[md];
		return sum;
	}
	if (frozen(pmu->mmcr0, f->mode, n))
		return 0;
	switch (e->src) {
	case HVPMU_P7_SRC_INSN:
		for (uint64_t bits = f->dclass ? f->dclass_nonzero : 0; bits; bits &= bits - 1) {
			unsigned k = (unsigned)__builtin_ctzll(bits);

			if (pmu->class_flags[k] & e->iany)
				sum += f->dclass[k];
		}
		return sum;
	case HVPMU_P7_SRC_MEV:
		for (uint64_t bits = e->mevs; bits; bits &= bits - 1)
			sum += f->dmev[__builtin_ctzll(bits)];
		return sum;
	case HVPMU_P7_SRC_MISPRED:
		for (int k = 0; k < HVPMU_NMISPRED; k++)
			sum += f->dmispred[k];
		return sum;
	case HVPMU_P7_SRC_TAKEN: /* the taken conditional ones and the unconditional ones */
		for (uint64_t bits = f->dclass ? f->dclass_nonzero : 0; bits; bits &= bits - 1) {
			unsigned k = (unsigned)__builtin_ctzll(bits);

			if (pmu->class_flags[k] & HVPMU_IC_CTI_ALWAYS)
				sum += f->dclass[k];
		}
		return sum + f->dtaken_cond;
	default:
		return 0;
	}
}

/* Events until PMC value c next has bit 31 become 1. */
static uint64_t to_rise(uint32_t c)
{
	return c < HVPMU_P7_PMC_MSB ? HVPMU_P7_PMC_MSB - c : WRAP - c + HVPMU_P7_PMC_MSB;
}

void hvpmu_power7_pmu_feed(struct hvpmu_power7_pmu *pmu, const struct hvpmu_pmu_feed *f,
			  struct hvpmu_power7_feed_result *res)
{
	uint64_t d[HVPMU_P7_NPMC];
	uint64_t mmcr0 = pmu->mmcr0;

	memset(res, 0, sizeof *res);
	/* every PMC's count under the freeze bits as they were at the feed's start */
	for (unsigned n = 1; n <= HVPMU_P7_NPMC; n++)
		d[n - 1] = feed_events(pmu, n, f);
	for (unsigned n = 1; n <= HVPMU_P7_NPMC; n++) {
		uint64_t dn = d[n - 1];

		if (!dn)
			continue;
		if (dn >= to_rise(pmu->pmc[n - 1])) {
			res->rise_mask |= BIT(n);
			if (cond_enabled(mmcr0, n))
				res->alert_mask |= BIT(n); /* (FCECE freezes at the feed's end) */
		}
		pmu->pmc[n - 1] = (uint32_t)(pmu->pmc[n - 1] + dn); /* wraps 2^32 - 1 -> 0 */
	}
	if (res->alert_mask) {
		if (HVPMU_FEX(mmcr0, P7_MMCR0, FCECE))
			pmu->mmcr0 = HVPMU_FDP(pmu->mmcr0, P7_MMCR0, FC, 1);
		if (HVPMU_FEX(mmcr0, P7_MMCR0, PMAE)) {
			pmu->mmcr0 = HVPMU_FDP(pmu->mmcr0, P7_MMCR0, PMAE, 0);
			pmu->mmcr0 = HVPMU_FDP(pmu->mmcr0, P7_MMCR0, PMAO, 1);
			pmu->alert_pmcs = res->alert_mask;
		}
	}
	if (HVPMU_FEX(pmu->mmcr0, P7_MMCR0, PMAO)) {
		/* PMAO set by software alone: the exception without a PMC (reported as PMC1's) */
		res->irq_mask = pmu->alert_pmcs ? pmu->alert_pmcs : BIT(1);
		res->tpc = f->next_pc;
	}
}

/* Can PMCn's crossing be an alert that matters (the exception or the freeze)? */
static int watched(const struct hvpmu_power7_pmu *pmu, unsigned n)
{
	return pmu->ev[n - 1] && cond_enabled(pmu->mmcr0, n) &&
	       (HVPMU_FEX(pmu->mmcr0, P7_MMCR0, PMAE) || HVPMU_FEX(pmu->mmcr0, P7_MMCR0, FCECE));
}

uint64_t hvpmu_power7_pmu_headroom(const struct hvpmu_power7_pmu *pmu, uint64_t max_cycles_per_insn)
{
	uint64_t best = UINT64_MAX;

	if (HVPMU_FEX(pmu->mmcr0, P7_MMCR0, PMAO))
		return 1; /* the exception is requested: deliver it at the next instruction */
	for (unsigned n = 1; n <= HVPMU_P7_NPMC; n++) {
		const struct hvpmu_power7_event *e = pmu->ev[n - 1];
		uint64_t h = UINT64_MAX, k = max_cycles_per_insn ? max_cycles_per_insn : 1;

		if (!watched(pmu, n) || frozen(pmu->mmcr0, HVPMU_MODE_USER, n))
			continue;
		if (e->src == HVPMU_P7_SRC_INSN || e->src == HVPMU_P7_SRC_MISPRED || e->src == HVPMU_P7_SRC_TAKEN)
			h = to_rise(pmu->pmc[n - 1]); /* at most one per instruction */
		else if (e->src == HVPMU_P7_SRC_CYCLES)
			h = (to_rise(pmu->pmc[n - 1]) + k - 1) / k;
		if (h < best)
			best = h;
	}
	return best;
}

uint64_t hvpmu_power7_pmu_mem_headroom(const struct hvpmu_power7_pmu *pmu)
{
	uint64_t best = UINT64_MAX;

	for (unsigned n = 1; n <= HVPMU_P7_NPROG; n++)
		if (watched(pmu, n) && pmu->ev[n - 1]->src == HVPMU_P7_SRC_MEV && to_rise(pmu->pmc[n - 1]) < best)
			best = to_rise(pmu->pmc[n - 1]);
	return best;
}

uint64_t hvpmu_power7_pmu_mem_watch(const struct hvpmu_power7_pmu *pmu)
{
	uint64_t w = 0;

	for (unsigned n = 1; n <= HVPMU_P7_NPROG; n++)
		if (watched(pmu, n) && pmu->ev[n - 1]->src == HVPMU_P7_SRC_MEV)
			w |= pmu->ev[n - 1]->mevs;
	return w;
}

uint32_t hvpmu_power7_pmu_peek_pmc(const struct hvpmu_power7_pmu *pmu, unsigned n)
{
	return n >= 1 && n <= HVPMU_P7_NPMC ? pmu->pmc[n - 1] : 0;
}

uint64_t hvpmu_power7_pmu_peek_spr(const struct hvpmu_power7_pmu *pmu, unsigned spr)
{
	if (spr >= HVPMU_P7_SPR_PMC1 && spr <= HVPMU_P7_SPR_PMC(HVPMU_P7_NPMC))
		return pmu->pmc[spr - HVPMU_P7_SPR_PMC1];
	switch (spr) {
	case HVPMU_P7_SPR_MMCR0: return pmu->mmcr0;
	case HVPMU_P7_SPR_MMCR1: return pmu->mmcr1;
	case HVPMU_P7_SPR_MMCRA: return pmu->mmcra;
	default: return 0; /* SIAR, SDAR: no sampling */
	}
}

/* ---- the machine's interface (hvpmu/pmu.h) ---- */

static int ops_reg_read(void *p, enum hvpmu_reg_space sp, unsigned sel, uint64_t addr, enum hvpmu_mode mode,
			uint64_t *val)
{
	(void)addr;
	if (sp != HVPMU_REG_SPR)
		return HVPMU_ERANGE;
	return hvpmu_power7_read(p, mode, sel, val);
}

static int ops_reg_write(void *p, enum hvpmu_reg_space sp, unsigned sel, uint64_t addr, enum hvpmu_mode mode,
			 uint64_t val)
{
	(void)addr;
	if (sp != HVPMU_REG_SPR)
		return HVPMU_ERANGE;
	return hvpmu_power7_write(p, mode, sel, val);
}

static void *ops_create(const uint32_t *class_flags) { return hvpmu_power7_pmu_create(class_flags); }
static void ops_destroy(void *p) { hvpmu_power7_pmu_destroy(p); }
static void ops_classes_changed(void *p) { (void)p; } /* the table is read at each feed */

/* The exception is a level while PMAO is 1: the machine raises the
 * disrupting trap at each feed until software clears PMAO. */
static void ops_feed(void *p, const struct hvpmu_pmu_feed *f, struct hvpmu_pmu_feed_result *r)
{
	struct hvpmu_power7_feed_result rr;

	hvpmu_power7_pmu_feed(p, f, &rr);
	memset(r, 0, sizeof *r);
	r->ovf_mask = rr.rise_mask;
	r->disrupt_mask = rr.irq_mask;
}

static void ops_trap_taken(void *p) { (void)p; }
static uint64_t ops_headroom(const void *p, uint64_t c) { return hvpmu_power7_pmu_headroom(p, c); }
static uint64_t ops_mem_headroom(const void *p) { return hvpmu_power7_pmu_mem_headroom(p); }
static uint64_t ops_mem_watch(const void *p) { return hvpmu_power7_pmu_mem_watch(p); }

const struct hvpmu_pmu_ops hvpmu_power7_pmu_ops = {
	.name = "power7",
	.npic = HVPMU_P7_NPMC,
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
