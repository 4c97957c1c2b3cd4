/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest driver's POWER7 part (layer 5): a PAPR partition's Linux
 * driving each thread's core PMU (struct sv_pcbe_ops sv_pcbe_power7) as
 * arch/powerpc/perf/core-book3s.c does with power7-pmu.c, through mfspr /
 * mtspr of MMCR0, MMCR1, MMCRA and PMC1-6 in privileged state
 * (HVPMU_REG_SPR on the machine's register bus; hvpmu/power7_pmu.h,
 * docs/power7-pmu.md).  No hcall is involved: the partition owns the
 * thread's PMU while it runs.
 *
 *  - Groups: perf's events are scheduled together when
 *    power_check_constraints accepts them (hvpmu_power7_event_check_constraints,
 *    per-task: PPMU_ONLY_COUNT_RUN) and they exclude the same states
 *    (check_excludes); the rest open further groups, which the OS tick
 *    rotates (perf's multiplexing, scaled by enabled / running time).
 *  - power_pmu_enable: power7_compute_mmcr's MMCRs, MMCR0 | FCP / FCS /
 *    FCHV for excluded states; MMCRA without SAMPLE_ENABLE, MMCR1, MMCR0
 *    frozen without the CE bits, the PMCs (cfg.pic_init), then MMCR0 |
 *    PMXE | FCECE.  power_pmu_disable: MMCR0 | FC, PMAO cleared.
 *  - perf_event_interrupt (the Performance Monitor interrupt,
 *    HVPMU_P7_TRAP_PERF): each PMC whose bit 31 is set (a negative int) is
 *    folded into its event (record_and_restart: the delta since the last
 *    read) and written 0; an overflowed PMC no event uses is written 0
 *    ("reset non active counters that have overflowed"); then MMCR0 is
 *    written back (PMAO clear, FC clear, PMXE set).
 *  - A read (the OS tick's sample, the end's allstop) is power_pmu_read's
 *    check_and_compute_delta: (value - previous) mod 2^32.
 */
#include <string.h>
#include <hvpmu/power7_pmu.h>
#include "sv_internal.h"

#define P7_NPMC HVPMU_P7_NPMC
#define PMC_MOD UINT64_C(0xffffffff)
/* MMCR0's copy the interrupt writes back: kept in the strand's pcr[0]. */
#define SS_MMCR0 0

static uint64_t spr_read(struct hvpmu_sv *sv, uint32_t strand, unsigned spr)
{
	uint64_t v = 0;

	hvpmu_machine_reg_read(sv->m, strand, HVPMU_REG_SPR, spr, 0, &v);
	return v;
}

static void spr_write(struct hvpmu_sv *sv, uint32_t strand, unsigned spr, uint64_t v)
{
	hvpmu_machine_reg_write(sv->m, strand, HVPMU_REG_SPR, spr, 0, v);
}

/* The supported events of group g (at most 6), their codes and indices. */
static unsigned group_events(const struct hvpmu_sv *sv, unsigned g, const struct sv_event *upto, uint64_t *codes,
			     unsigned *idx)
{
	unsigned n = 0;

	for (const struct sv_event *o = sv->ev; o < upto && n < P7_NPMC; o++)
		if (o->supported && o->group == g) {
			codes[n] = o->req.config;
			idx[n++] = (unsigned)(o - sv->ev);
		}
	return n;
}

/* Does event e go on group g with its events (constraints, and the
 * same excluded states as the group's first event)? */
static int fits_group(const struct hvpmu_sv *sv, unsigned g, const struct sv_event *e)
{
	uint64_t codes[P7_NPMC + 1];
	unsigned idx[P7_NPMC + 1];
	unsigned n = group_events(sv, g, e, codes, idx);

	if (n == P7_NPMC || (n && sv->ev[idx[0]].req.modes != e->req.modes))
		return 0;
	codes[n] = e->req.config;
	return hvpmu_power7_event_check_constraints(codes, n + 1, 1) == 0;
}

/* perf's scheduling: the last group if the event fits it, else a new one;
 * an event the model does not produce, or no PMC can count, is not
 * supported. */
static void p7_configure(struct hvpmu_sv *sv, struct sv_event *e)
{
	const struct hvpmu_power7_event *t = hvpmu_power7_event_of(e->req.config);
	uint64_t code = e->req.config;
	unsigned g = sv->ngroups ? sv->ngroups - 1 : 0;

	e->supported = t && t->src != HVPMU_P7_SRC_NONE && hvpmu_power7_event_check_constraints(&code, 1, 1) == 0;
	if (!e->supported)
		return;
	if (sv->ngroups && (e->req.new_group || !fits_group(sv, g, e)))
		g++;
	e->group = g;
	e->pic = 0; /* power7_compute_mmcr places it when its group is programmed */
	sv->ngroups = g + 1;
}

static int p7_attach(struct hvpmu_sv *sv, uint32_t strand)
{
	(void)sv;
	(void)strand;
	return HVPMU_OK;
}

/* power_pmu_disable: freeze, PMAO cleared. */
static void p7_disable(struct hvpmu_sv *sv, uint32_t strand)
{
	uint64_t v = spr_read(sv, strand, HVPMU_P7_SPR_MMCR0);

	v |= HVPMU_FMASK(P7_MMCR0, FC);
	v &= ~HVPMU_FMASK(P7_MMCR0, PMAO);
	spr_write(sv, strand, HVPMU_P7_SPR_MMCR0, v);
}

/* power_pmu_enable for group g. */
static void p7_program(struct hvpmu_sv *sv, uint32_t strand, unsigned g)
{
	struct sv_strand *ss = &sv->st[strand];
	uint64_t codes[P7_NPMC], mmcr[3] = { 0, 0, 0 }, mmcr0;
	unsigned idx[P7_NPMC], hwc[P7_NPMC], n;
	uint8_t modes;

	ss->cur_group = g;
	for (unsigned p = 0; p < SV_MAX_PIC; p++)
		ss->ev[p] = -1;
	p7_disable(sv, strand);
	n = group_events(sv, g, sv->ev + sv->nevents, codes, idx);
	if (!n || hvpmu_power7_event_check_constraints(codes, n, 1) || hvpmu_power7_event_compute_mmcr(codes, n, hwc, mmcr)) {
		ss->group_tick = hvpmu_machine_tick(sv->m, strand);
		return; /* (configure placed only groups that fit) */
	}
	modes = sv->ev[idx[0]].req.modes; /* the group's excluded states (check_excludes) */
	mmcr0 = mmcr[0];
	if (!(modes & HVPMU_SV_MODE_USER))
		mmcr0 |= HVPMU_FMASK(P7_MMCR0, FCP);
	if (!(modes & HVPMU_SV_MODE_KERNEL))
		mmcr0 |= HVPMU_FMASK(P7_MMCR0, FCS);
	if (!(modes & HVPMU_SV_MODE_HYPER))
		mmcr0 |= HVPMU_FMASK(P7_MMCR0, FCH);
	spr_write(sv, strand, HVPMU_P7_SPR_MMCRA, mmcr[2] & ~HVPMU_FMASK(P7_MMCRA, SAMPLE_ENABLE));
	spr_write(sv, strand, HVPMU_P7_SPR_MMCR1, mmcr[1]);
	spr_write(sv, strand, HVPMU_P7_SPR_MMCR0,
		  (mmcr0 & ~(HVPMU_FMASK(P7_MMCR0, PMC1CE) | HVPMU_FMASK(P7_MMCR0, PMCJCE))) | HVPMU_FMASK(P7_MMCR0, FC));
	for (unsigned i = 0; i < n; i++) {
		unsigned p = hwc[i];

		spr_write(sv, strand, HVPMU_P7_SPR_PMC(p + 1), sv->cfg.pic_init & PMC_MOD);
		ss->ev[p] = (int)idx[i];
		ss->ovf[p] = 0;
		ss->base[p] = sv->cfg.pic_init & PMC_MOD;
		sv->ev[idx[i]].pic = p;
	}
	ss->pcr[SS_MMCR0] = mmcr0 | HVPMU_FMASK(P7_MMCR0, PMAE) | HVPMU_FMASK(P7_MMCR0, FCECE);
	spr_write(sv, strand, HVPMU_P7_SPR_MMCR0, ss->pcr[SS_MMCR0]); /* write_mmcr0 */
	ss->group_tick = hvpmu_machine_tick(sv->m, strand);
}

/* perf_event_interrupt (t: the interrupt; NULL: a poll). */
static void p7_overflow(struct hvpmu_sv *sv, uint32_t strand, const struct hvpmu_guest_trap *t)
{
	struct sv_strand *ss = &sv->st[strand];
	int found = 0;

	for (unsigned p = 0; p < P7_NPMC; p++) {
		uint64_t v = spr_read(sv, strand, HVPMU_P7_SPR_PMC(p + 1));

		if (!(v & HVPMU_P7_PMC_MSB)) /* pmc_overflow: (int)val < 0 */
			continue;
		found = 1;
		if (ss->ev[p] >= 0) { /* record_and_restart: the delta, then 0 */
			sv_account(sv, strand, (unsigned)ss->ev[p], (v - ss->base[p]) & PMC_MOD, 1, 0);
			ss->base[p] = 0;
			if (sv->cfg.on_overflow) {
				struct hvpmu_guest_trap one = { HVPMU_P7_TRAP_PERF, strand, 1u << p, 0, t ? t->tpc : 0 };

				sv->cfg.on_overflow(sv->cfg.ctx, (unsigned)ss->ev[p], &one);
			}
		}
		spr_write(sv, strand, HVPMU_P7_SPR_PMC(p + 1), 0); /* non-active ones: reset */
	}
	if (t || found)
		spr_write(sv, strand, HVPMU_P7_SPR_MMCR0, ss->pcr[SS_MMCR0]); /* PMAO, FC clear; PMXE set */
}

/* power_pmu_read for every PMC in use, stopped first or not. */
static void p7_fold(struct hvpmu_sv *sv, uint32_t strand, uint64_t now, int running)
{
	struct sv_strand *ss = &sv->st[strand];

	p7_overflow(sv, strand, NULL); /* a pending overflow first, as the interrupt would */
	if (!running)
		p7_disable(sv, strand);
	for (unsigned p = 0; p < P7_NPMC; p++) {
		uint64_t v;

		if (ss->ev[p] < 0)
			continue;
		v = spr_read(sv, strand, HVPMU_P7_SPR_PMC(p + 1));
		sv_account(sv, strand, (unsigned)ss->ev[p], (v - ss->base[p]) & PMC_MOD, 0, now - ss->group_tick);
		ss->base[p] = v;
		if (!running)
			ss->ev[p] = -1;
	}
	if (running)
		ss->group_tick = now;
}

static void p7_allstop(struct hvpmu_sv *sv, uint32_t strand, uint64_t now) { p7_fold(sv, strand, now, 0); }
static void p7_sample(struct hvpmu_sv *sv, uint32_t strand, uint64_t now) { p7_fold(sv, strand, now, 1); }

static int p7_config_valid(uint64_t config) { return config <= HVPMU_P7_EV_MASK; }

const struct sv_pcbe_ops sv_pcbe_power7 = {
	.name = "power7",
	.npic = P7_NPMC,
	.modes = SV_P7_MODES,
	.ovf_tt = HVPMU_P7_TRAP_PERF,
	.tick_tt = HVPMU_P7_TRAP_DEC,
	.os_clock_cycles = NULL, /* the driver arms the decrementer (the tick compare) */
	.config_valid = p7_config_valid,
	.configure = p7_configure,
	.attach = p7_attach,
	.program = p7_program,
	.allstop = p7_allstop,
	.overflow = p7_overflow,
	.sample = p7_sample,
};
