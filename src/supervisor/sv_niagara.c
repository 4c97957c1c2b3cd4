/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest driver's UltraSPARC T1 parts (layer 5): the %pcr/%pic back-end
 * (struct sv_pcbe_ops sv_pcbe_t1) through RDASR/WRASR (niagara-perf-api.txt §2.1,
 * ../shared/reference/hw-and-hypervisor.md §3.1-3.2), the chip-wide DRAM
 * and JBUS PerfRegs through NIAGARA_GET/SET_PERFREG (§1.2, §3.3-3.4), and
 * the MMU-statistics client as Linux's arch/sparc/kernel/sysfs.c does it
 * (niagara-mmustat-api.txt, linux-clients.md §1.4).
 */
#include <string.h>
#include "sv_internal.h"

#define T1_UNITS (1 + HVPMU_T1_DRAM_CHANNELS) /* the JBUS and the DRAM channels */

/* PICH: instructions, in every group; PICL: one event per group. */
static void t1_configure(struct hvpmu_sv *sv, struct sv_event *e)
{
	const struct hvpmu_sv_event *req = &e->req;

	if (req->config == HVPMU_SV_T1_PICH) {
		e->supported = sv->t1_pich_event < 0;
		if (e->supported)
			sv->t1_pich_event = (int)(e - sv->ev);
		e->pic = T1_PIC_PICH;
	} else {
		e->supported = req->config < HVPMU_T1_NSL; /* every PICL event is modeled */
		if (e->supported) {
			unsigned npicl = 0;

			for (const struct sv_event *o = sv->ev; o < e; o++)
				npicl += o->supported && o->pic == T1_PIC_PICL;
			e->group = npicl;
			e->pic = T1_PIC_PICL;
			sv->ngroups = npicl + 1;
		}
	}
	if (!sv->ngroups && e->supported)
		sv->ngroups = 1;
}

/* %pcr/%pic are ASRs: no hypervisor API group is needed (§2.1). */
static int t1_attach(struct hvpmu_sv *sv, uint32_t strand)
{
	(void)sv;
	(void)strand;
	return HVPMU_OK;
}

/* T1 (niagara-perf-api.txt §2.1, hw-and-hypervisor.md §3.1-3.2): one
 * %pcr for both halves; stop (UT=ST=0), load %pic, then enable. */
static void t1_program(struct hvpmu_sv *sv, uint32_t strand, unsigned g)
{
	struct sv_strand *ss = &sv->st[strand];
	uint64_t pcr = HVPMU_FDP(0, T1_PCR, PRIV, 1), pic_init = sv->cfg.pic_init;

	ss->cur_group = g;
	for (unsigned p = 0; p < SV_MAX_PIC; p++) {
		ss->ev[p] = -1;
		ss->ovf[p] = 0;
		ss->base[p] = pic_init;
	}
	ss->ev[T1_PIC_PICH] = sv->t1_pich_event;
	for (unsigned i = 0; i < sv->nevents; i++)
		if (sv->ev[i].supported && sv->ev[i].pic == T1_PIC_PICL && sv->ev[i].group == g)
			ss->ev[T1_PIC_PICL] = (int)i;
	for (unsigned p = 0; p < T1_NPIC; p++) {
		const struct hvpmu_sv_event *r;

		if (ss->ev[p] < 0)
			continue;
		r = &sv->ev[ss->ev[p]].req;
		pcr |= HVPMU_FDP(0, T1_PCR, UT, (r->modes & HVPMU_SV_MODE_USER) ? 1 : 0) |
		       HVPMU_FDP(0, T1_PCR, ST, (r->modes & HVPMU_SV_MODE_KERNEL) ? 1 : 0);
		if (p == T1_PIC_PICL)
			pcr = HVPMU_FDP(pcr, T1_PCR, SL, r->config);
	}
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_T1_ASR_PCR, HVPMU_FDP(0, T1_PCR, PRIV, 1));
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_T1_ASR_PIC,
			    HVPMU_FDP(HVPMU_FDP(0, T1_PIC, PICL, pic_init), T1_PIC, PICH, pic_init));
	ss->pcr[0] = pcr;
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_T1_ASR_PCR, pcr);
	ss->group_tick = hvpmu_machine_tick(sv->m, strand);
}

/* T1: account OVFL/OVFH (sticky) and clear them, keeping the counting
 * bits.  A level-15 trap and the OS tick poll alike: the interrupt does
 * not say which half wrapped (§3.2). */
static void t1_overflow(struct hvpmu_sv *sv, uint32_t strand, const struct hvpmu_guest_trap *t)
{
	struct sv_strand *ss = &sv->st[strand];
	uint64_t pcr = 0;
	static const unsigned ovf_of[T1_NPIC] = { T1_PCR_OVFL_SHIFT, T1_PCR_OVFH_SHIFT };

	if (hvpmu_machine_rdasr(sv->m, strand, HVPMU_T1_ASR_PCR, &pcr))
		return;
	for (unsigned p = 0; p < T1_NPIC; p++) {
		if (!((pcr >> ovf_of[p]) & 1) || ss->ev[p] < 0)
			continue;
		ss->ovf[p]++;
		if (sv->cfg.on_overflow) {
			struct hvpmu_guest_trap polled = { HV_TT_INTERRUPT_LEVEL_15, strand, 1u << p, 0, 0 };

			sv->cfg.on_overflow(sv->cfg.ctx, (unsigned)ss->ev[p], t ? t : &polled);
		}
	}
	if (pcr & (HVPMU_FMASK(T1_PCR, OVFL) | HVPMU_FMASK(T1_PCR, OVFH)))
		hvpmu_machine_wrasr(sv->m, strand, HVPMU_T1_ASR_PCR, ss->pcr[0]);
}

/* Account and clear OVFL/OVFH, RDASR %pic, fold each half's wraps and
 * advance since the last fold: the PCR stopped first (allstop: the PICs
 * are freed), or left counting (sample: the next fold goes on from here). */
static void t1_fold(struct hvpmu_sv *sv, uint32_t strand, uint64_t now, int running)
{
	struct sv_strand *ss = &sv->st[strand];
	uint64_t pic = 0;

	t1_overflow(sv, strand, NULL);
	if (!running)
		hvpmu_machine_wrasr(sv->m, strand, HVPMU_T1_ASR_PCR, HVPMU_FDP(0, T1_PCR, PRIV, 1)); /* stop */
	hvpmu_machine_rdasr(sv->m, strand, HVPMU_T1_ASR_PIC, &pic);
	for (unsigned p = 0; p < T1_NPIC; p++) {
		uint64_t v = p == T1_PIC_PICL ? HVPMU_FEX(pic, T1_PIC, PICL) : HVPMU_FEX(pic, T1_PIC, PICH);

		if (ss->ev[p] >= 0)
			sv_fold_pic(sv, strand, p, v, now, running);
	}
	if (running)
		ss->group_tick = now;
}

static void t1_allstop(struct hvpmu_sv *sv, uint32_t strand, uint64_t now) { t1_fold(sv, strand, now, 0); }
static void t1_sample(struct hvpmu_sv *sv, uint32_t strand, uint64_t now) { t1_fold(sv, strand, now, 1); }

/* §2.1: PICL's eight SL events, or PICH's instructions. */
static int t1_config_valid(uint64_t config) { return config == HVPMU_SV_T1_PICH || config < HVPMU_T1_NSL; }
static int t1_uncore_program(struct hvpmu_sv *sv, uint32_t strand, unsigned unit, const unsigned code[2]);
static int t1_uncore_sample(struct hvpmu_sv *sv, uint32_t strand, unsigned unit, uint32_t cur[2]);

const struct sv_pcbe_ops sv_pcbe_t1 = {
	.name = "t1",
	.npic = T1_NPIC,
	.modes = SV_T1_MODES,
	.ovf_tt = HV_TT_INTERRUPT_LEVEL_15,
	.tick_tt = HV_TT_INTERRUPT_LEVEL_14,
	.os_clock_cycles = NULL,
	.config_valid = t1_config_valid,
	.configure = t1_configure,
	.attach = t1_attach,
	.program = t1_program,
	.allstop = t1_allstop,
	.overflow = t1_overflow,
	.sample = t1_sample,
	.uncore_program = t1_uncore_program,
	.uncore_sample = t1_uncore_sample,
};

static int negotiate_niagara(struct hvpmu_sv *sv, uint32_t strand)
{
	uint64_t minor, st;

	if (sv->niag_negotiated)
		return sv->niag_negotiated > 0 ? HVPMU_OK : HVPMU_EHV;
	st = hvpmu_hv_set_version(sv->hv, strand, HV_GRP_NIAGARA, 1, 0, &minor);
	/* FLAG_PRE_API: a hypervisor without versioning is taken as 1.0 */
	sv->niag_negotiated = (st == HV_EOK || st == HV_EBADTRAP || st == HV_ENOTSUPPORTED) ? 1 : -1;
	if (st != HV_EOK)
		sv->last_status = st;
	return sv->niag_negotiated > 0 ? HVPMU_OK : HVPMU_EHV;
}

int hvpmu_sv_mmustat_start(struct hvpmu_sv *sv, uint32_t strand, uint64_t ra)
{
	struct hvpmu_guest_mem *gm = hvpmu_hv_guest_mem(sv->hv, sv->guest);
	enum hvpmu_mode prev;
	uint64_t old, st;
	int rc = HVPMU_OK;

	if (!sv_owns(sv, strand) || !gm)
		return HVPMU_ERANGE;
	prev = sv_enter_os(sv, strand);
	if (negotiate_niagara(sv, strand)) {
		rc = HVPMU_EHV;
	} else {
		for (unsigned i = 0; i < HVPMU_SV_MMUSTAT_WORDS; i++) /* the guest zeroes its buffer */
			hvpmu_guest_mem_write64(gm, ra + 8u * i, 0);
		st = hvpmu_hv_mmustat_conf(sv->hv, strand, ra, &old);
		if (!sv_call_ok(sv, st))
			rc = HVPMU_EHV;
	}
	sv_leave_os(sv, strand, prev);
	return rc;
}

int hvpmu_sv_mmustat_read(struct hvpmu_sv *sv, uint32_t strand, uint64_t words[HVPMU_SV_MMUSTAT_WORDS])
{
	struct hvpmu_guest_mem *gm = hvpmu_hv_guest_mem(sv->hv, sv->guest);
	enum hvpmu_mode prev;
	uint64_t ra = 0;
	int rc = HVPMU_OK;

	if (!sv_owns(sv, strand) || !gm)
		return HVPMU_ERANGE;
	prev = sv_enter_os(sv, strand);
	if (!sv_call_ok(sv, hvpmu_hv_mmustat_info(sv->hv, strand, &ra)) || !ra) {
		rc = HVPMU_EHV;
	} else {
		for (unsigned i = 0; i < HVPMU_SV_MMUSTAT_WORDS; i++)
			if (hvpmu_guest_mem_read64(gm, ra + 8u * i, &words[i]))
				rc = HVPMU_EHV;
	}
	sv_leave_os(sv, strand, prev);
	return rc;
}

int hvpmu_sv_mmustat_stop(struct hvpmu_sv *sv, uint32_t strand)
{
	enum hvpmu_mode prev;
	uint64_t old;
	int rc;

	if (!sv_owns(sv, strand))
		return HVPMU_ERANGE;
	prev = sv_enter_os(sv, strand);
	rc = sv_call_ok(sv, hvpmu_hv_mmustat_conf(sv->hv, strand, 0, &old)) ? HVPMU_OK : HVPMU_EHV;
	sv_leave_os(sv, strand, prev);
	return rc;
}

static unsigned t1_ctl_id(unsigned unit)
{
	return unit == 0 ? HVPMU_T1_PERFREG_JBUS_CTL : HVPMU_T1_PERFREG_DRAM_CTL(unit - 1);
}

/* A JBUS or DRAM unit (hvpmu_sv_uncore_program: device 0 the JBUS, 1-4
 * DRAM channels 0-3): both codes into its control register (pic0 = the
 * upper counter, hvpmu_t1_pic_counter), its counter register cleared. */
static int t1_uncore_program(struct hvpmu_sv *sv, uint32_t strand, unsigned unit, const unsigned code[2])
{
	unsigned ctl_id;
	uint64_t ctl = 0;

	if (unit >= T1_UNITS)
		return HVPMU_ERANGE;
	ctl_id = t1_ctl_id(unit);
	for (unsigned pic = 0; pic < 2; pic++)
		if (hvpmu_t1_ctl_set_code(ctl_id, &ctl, (unsigned)hvpmu_t1_pic_counter(ctl_id, pic), code[pic]))
			return HVPMU_ERANGE;
	if (negotiate_niagara(sv, strand) ||
	    !sv_call_ok(sv, hvpmu_hv_niagara_set_perfreg(sv->hv, strand, ctl_id, ctl)) ||
	    !sv_call_ok(sv, hvpmu_hv_niagara_set_perfreg(sv->hv, strand, ctl_id + 1, 0)))
		return HVPMU_EHV;
	return HVPMU_OK;
}

/* The unit's two 31-bit counters (§3.3, §3.4), pic0 first; sticky bits
 * cleared by writing the counts back without them. */
static int t1_uncore_sample(struct hvpmu_sv *sv, uint32_t strand, unsigned unit, uint32_t cur[2])
{
	unsigned count_id;
	uint64_t v = 0;
	int any_sticky = 0;

	if (unit >= T1_UNITS)
		return HVPMU_ERANGE;
	count_id = t1_ctl_id(unit) + 1;
	if (!sv_call_ok(sv, hvpmu_hv_niagara_get_perfreg(sv->hv, strand, count_id, &v)))
		return HVPMU_EHV;
	for (unsigned pic = 0; pic < 2; pic++) {
		int sticky = 0;

		hvpmu_t1_count_get(count_id, v, (unsigned)hvpmu_t1_pic_counter(count_id, pic), &cur[pic], &sticky);
		any_sticky |= sticky;
	}
	if (any_sticky) { /* clear the sticky bits, keep the counts */
		uint32_t c0 = 0, c1 = 0;

		hvpmu_t1_count_get(count_id, v, 0, &c0, NULL);
		hvpmu_t1_count_get(count_id, v, 1, &c1, NULL);
		v = unit == 0 ? HVPMU_FDP(HVPMU_FDP(0, T1_JBUS_COUNT, COUNTER0, c0), T1_JBUS_COUNT, COUNTER1, c1)
			      : HVPMU_FDP(HVPMU_FDP(0, T1_DRAM_COUNT, COUNTER0, c0), T1_DRAM_COUNT, COUNTER1, c1);
		sv_call_ok(sv, hvpmu_hv_niagara_set_perfreg(sv->hv, strand, count_id, v));
	}
	return HVPMU_OK;
}
