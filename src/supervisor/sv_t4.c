/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest OS performance-counter driver for SPARC T4 (layer 5), modeled on
 * Linux arch/sparc/kernel/pcr.c + perf_event.c (niagara4) and the Solaris
 * PCBE (../shared/reference/linux-clients.md §1.6-1.7, anchors.md §3.7):
 * PCRs only via HV_FAST_VT_{GET,SET}_PERFREG, PICs only via LDXA/STXA
 * ASI 0xB0 in privileged mode, the §10.2 disable / reset / enable sequence,
 * 32 -> 64-bit extension on overflow, and perf-style multiplexing.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>

/* Linux's default perf_event_mux_interval_ms is 4 ms; at the md clock. */
#define DEFAULT_ROTATE_MS 4
#define MS_PER_S 1000

struct sv_event {
	struct hvpmu_sv_event req;
	int supported;
	unsigned group;
	unsigned pic;
	uint64_t raw, enabled, running, overflows;
};

struct sv_strand {
	int active;
	unsigned cur_group;
	uint64_t start_tick;
	uint64_t group_tick;
	uint64_t pcr[HVPMU_T4_NPIC];      /* software copy of each programmed PCR */
	int ev[HVPMU_T4_NPIC];            /* event on each PIC, -1 if none */
	uint64_t ovf[HVPMU_T4_NPIC];      /* overflows during this activation */
};

struct hvpmu_sv {
	struct hvpmu_hv *hv;
	struct hvpmu_machine *m;
	unsigned guest;
	struct hvpmu_sv_config cfg;
	struct sv_event ev[HVPMU_SV_MAX_EVENTS];
	unsigned nevents;
	unsigned ngroups;
	int negotiated;      /* 1 ok, -1 failed */
	int t1;              /* UltraSPARC T1 back-end: %pcr/%pic through RDASR/WRASR */
	int t1_pich_event;   /* T1: the event on PICH in every group, -1 if none */
	int niag_negotiated; /* group 0x200: 1 ok, -1 failed */
	uint64_t last_status;
	uint32_t nstrands;
	struct sv_strand *st;
	struct {
		uint32_t last[2];  /* raw 31-bit counters at the last read */
		uint64_t acc[2];   /* extended counts since program */
	} mcu[HVPMU_SV_MAX_MCU], t1u[HVPMU_SV_T1_UNITS];
};

static void on_trap(void *ctx, const struct hvpmu_guest_trap *t);

/* T1 "PICs" of the driver: PICL (the selected event) and PICH (instructions);
 * bit i of a level-15 trap's pic_mask (HVPMU_T1_OVF_PICL/PICH) is PIC i. */
enum { T1_PIC_PICL = 0, T1_PIC_PICH = 1, T1_NPIC = 2 };

int hvpmu_sv_create(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_sv_config *cfg, struct hvpmu_sv **out)
{
	struct hvpmu_sv *sv;
	const struct hvpmu_md *md;

	if (!hv || !out)
		return HVPMU_EINVAL;
	sv = calloc(1, sizeof *sv);
	if (!sv)
		return HVPMU_ENOMEM;
	sv->hv = hv;
	sv->m = hvpmu_hv_machine(hv);
	md = hvpmu_machine_md(sv->m);
	sv->guest = guest;
	if (cfg)
		sv->cfg = *cfg;
	if (!sv->cfg.rotate_cycles)
		sv->cfg.rotate_cycles = md->clock_hz * DEFAULT_ROTATE_MS / MS_PER_S;
	sv->nstrands = hvpmu_machine_nstrands(sv->m);
	sv->t1 = md->platform == HVPMU_PLATFORM_T1;
	sv->t1_pich_event = -1;
	sv->st = calloc(sv->nstrands, sizeof *sv->st);
	if (!sv->st || hvpmu_hv_set_guest_trap_handler(hv, guest, on_trap, sv)) {
		int rc = sv->st ? HVPMU_EINVAL : HVPMU_ENOMEM;

		free(sv->st);
		free(sv);
		return rc;
	}
	*out = sv;
	return HVPMU_OK;
}

void hvpmu_sv_destroy(struct hvpmu_sv *sv)
{
	if (!sv)
		return;
	hvpmu_hv_set_guest_trap_handler(sv->hv, sv->guest, NULL, NULL);
	free(sv->st);
	free(sv);
}

int hvpmu_sv_add_event(struct hvpmu_sv *sv, const struct hvpmu_sv_event *req)
{
	struct sv_event *e;
	unsigned nsup = 0;

	if (!req || req->sl > 31 || req->mask > 0x3f || !(req->ut || req->st || req->ht))
		return HVPMU_EINVAL;
	if (sv->nevents == HVPMU_SV_MAX_EVENTS)
		return HVPMU_EFULL;
	for (unsigned i = 0; i < sv->nevents; i++)
		nsup += sv->ev[i].supported;
	e = &sv->ev[sv->nevents];
	memset(e, 0, sizeof *e);
	e->req = *req;
	e->req.name[sizeof e->req.name - 1] = 0;
	if (sv->t1) { /* PICH: instructions, in every group; PICL: one event per group */
		if (req->mask == HVPMU_SV_T1_PICH) {
			e->supported = sv->t1_pich_event < 0;
			if (e->supported)
				sv->t1_pich_event = (int)sv->nevents;
			e->pic = T1_PIC_PICH;
		} else {
			e->supported = req->mask == 0 && hvpmu_t1_picl_modeled(req->sl) == 0;
			if (e->supported) {
				unsigned npicl = 0;

				for (unsigned i = 0; i < sv->nevents; i++)
					npicl += sv->ev[i].supported && sv->ev[i].pic == T1_PIC_PICL;
				e->group = npicl;
				e->pic = T1_PIC_PICL;
				sv->ngroups = npicl + 1;
			}
		}
		if (!sv->ngroups && e->supported)
			sv->ngroups = 1;
		return (int)sv->nevents++;
	}
	e->supported = hvpmu_t4_event_supported(req->sl, req->mask);
	if (e->supported) {
		e->group = nsup / HVPMU_T4_NPIC;
		e->pic = nsup % HVPMU_T4_NPIC;
		sv->ngroups = e->group + 1;
	}
	return (int)sv->nevents++;
}

unsigned hvpmu_sv_nevents(const struct hvpmu_sv *sv) { return sv->nevents; }
uint64_t hvpmu_sv_last_status(const struct hvpmu_sv *sv) { return sv->last_status; }

static uint64_t pcr_value(const struct hvpmu_sv_event *r)
{
	uint64_t v = HVPMU_FMASK(T4_PCR, PICNPT) | HVPMU_FMASK(T4_PCR, TOE);

	v = HVPMU_FDP(v, T4_PCR, SL, r->sl);
	v = HVPMU_FDP(v, T4_PCR, MASK, r->mask);
	v = HVPMU_FDP(v, T4_PCR, UT, r->ut ? 1 : 0);
	v = HVPMU_FDP(v, T4_PCR, ST, r->st ? 1 : 0);
	return HVPMU_FDP(v, T4_PCR, HT, r->ht ? 1 : 0);
}

/* PCR value that stops counting: sl=0, ut=st=ht=0 (Linux writes PICNPT). */
#define PCR_DISABLED HVPMU_FMASK(T4_PCR, PICNPT)

/* If PCR p shows ov, account one wrap and clear ov/ntc (rewrite the
 * software copy, as Linux's overflow handler does). */
static void poll_ov(struct hvpmu_sv *sv, uint32_t strand, unsigned p, const struct hvpmu_guest_trap *t)
{
	struct sv_strand *ss = &sv->st[strand];
	uint64_t pcr;

	if (ss->ev[p] < 0)
		return;
	if (hvpmu_hv_vt_get_perfreg(sv->hv, strand, p, &pcr) != HV_EOK || !HVPMU_FEX(pcr, T4_PCR, OV))
		return;
	ss->ovf[p]++;
	hvpmu_hv_vt_set_perfreg(sv->hv, strand, p, ss->pcr[p]);
	if (sv->cfg.on_overflow) {
		struct hvpmu_guest_trap polled = { HV_TT_INTERRUPT_LEVEL_15, strand, 1u << p, 0, 0 };

		sv->cfg.on_overflow(sv->cfg.ctx, (unsigned)ss->ev[p], t ? t : &polled);
	}
}

/* T1 (niagara-perf-api.txt §2.1, hw-and-hypervisor.md §3.1-3.2): one
 * %pcr for both halves; stop (UT=ST=0), load %pic, then enable. */
static void t1_program_group(struct hvpmu_sv *sv, uint32_t strand, unsigned g)
{
	struct sv_strand *ss = &sv->st[strand];
	uint64_t pcr = HVPMU_FDP(0, T1_PCR, PRIV, 1), pic_init = sv->cfg.pic_init;

	ss->cur_group = g;
	for (unsigned p = 0; p < HVPMU_T4_NPIC; p++) {
		ss->ev[p] = -1;
		ss->ovf[p] = 0;
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
		pcr |= HVPMU_FDP(0, T1_PCR, UT, r->ut ? 1 : 0) | HVPMU_FDP(0, T1_PCR, ST, r->st ? 1 : 0);
		if (p == T1_PIC_PICL)
			pcr = HVPMU_FDP(pcr, T1_PCR, SL, r->sl);
	}
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_T1_ASR_PCR, HVPMU_FDP(0, T1_PCR, PRIV, 1));
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_T1_ASR_PIC,
			    HVPMU_FDP(HVPMU_FDP(0, T1_PIC, PICL, pic_init), T1_PIC, PICH, pic_init));
	ss->pcr[0] = pcr;
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_T1_ASR_PCR, pcr);
	ss->group_tick = hvpmu_machine_tick(sv->m, strand);
}

/* T1: account OVFL/OVFH (sticky) and clear them, keeping the counting bits. */
static void t1_poll_ov(struct hvpmu_sv *sv, uint32_t strand, const struct hvpmu_guest_trap *t)
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

static void t1_unprogram_group(struct hvpmu_sv *sv, uint32_t strand, uint64_t now)
{
	struct sv_strand *ss = &sv->st[strand];
	uint64_t pic = 0;

	t1_poll_ov(sv, strand, NULL);
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_T1_ASR_PCR, HVPMU_FDP(0, T1_PCR, PRIV, 1)); /* stop */
	hvpmu_machine_rdasr(sv->m, strand, HVPMU_T1_ASR_PIC, &pic);
	for (unsigned p = 0; p < T1_NPIC; p++) {
		struct sv_event *e;
		uint64_t v = p == T1_PIC_PICL ? HVPMU_FEX(pic, T1_PIC, PICL) : HVPMU_FEX(pic, T1_PIC, PICH);

		if (ss->ev[p] < 0)
			continue;
		e = &sv->ev[ss->ev[p]];
		e->raw += (ss->ovf[p] << 32) + v - sv->cfg.pic_init;
		e->overflows += ss->ovf[p];
		e->running += now - ss->group_tick;
		ss->ev[p] = -1;
	}
}

static void program_group(struct hvpmu_sv *sv, uint32_t strand, unsigned g)
{
	struct sv_strand *ss = &sv->st[strand];

	if (sv->t1) {
		t1_program_group(sv, strand, g);
		return;
	}

	ss->cur_group = g;
	for (unsigned p = 0; p < HVPMU_T4_NPIC; p++)
		ss->ev[p] = -1;
	for (unsigned i = 0; i < sv->nevents; i++)
		if (sv->ev[i].supported && sv->ev[i].group == g)
			ss->ev[sv->ev[i].pic] = (int)i;
	for (unsigned p = 0; p < HVPMU_T4_NPIC; p++) {
		uint64_t st;

		/* §10.2: 1. disable, 2. reset the PIC, 3. enable */
		hvpmu_hv_vt_set_perfreg(sv->hv, strand, p, PCR_DISABLED);
		hvpmu_machine_stxa(sv->m, strand, HVPMU_T4_ASI_PIC, p * 8u, sv->cfg.pic_init);
		ss->ovf[p] = 0;
		if (ss->ev[p] < 0)
			continue;
		ss->pcr[p] = pcr_value(&sv->ev[ss->ev[p]].req);
		st = hvpmu_hv_vt_set_perfreg(sv->hv, strand, p, ss->pcr[p]);
		if (st != HV_EOK) { /* e.g. ENOACCESS for ht without perfctrhtaccess */
			sv->ev[ss->ev[p]].supported = 0;
			sv->last_status = st;
			ss->ev[p] = -1;
			hvpmu_hv_vt_set_perfreg(sv->hv, strand, p, PCR_DISABLED);
		}
	}
	ss->group_tick = hvpmu_machine_tick(sv->m, strand);
}

/* Read PCR p; if it shows ov, count a wrap.  Returns the PCR. */
static uint64_t check_ov(struct hvpmu_sv *sv, uint32_t strand, unsigned p)
{
	uint64_t pcr = 0;

	if (hvpmu_hv_vt_get_perfreg(sv->hv, strand, p, &pcr) == HV_EOK && HVPMU_FEX(pcr, T4_PCR, OV))
		sv->st[strand].ovf[p]++;
	return pcr;
}

/* Fold the current group's counts into the events and stop counting:
 * per PIC, account a pending ov, disable, account an ov the disabling
 * write itself re-set (§10.2 programming note) and disable again, then
 * read the PIC. */
static void unprogram_group(struct hvpmu_sv *sv, uint32_t strand, uint64_t now)
{
	struct sv_strand *ss = &sv->st[strand];

	if (sv->t1) {
		t1_unprogram_group(sv, strand, now);
		return;
	}

	for (unsigned p = 0; p < HVPMU_T4_NPIC; p++) {
		struct sv_event *e;
		uint64_t pic = 0;

		if (ss->ev[p] < 0)
			continue;
		e = &sv->ev[ss->ev[p]];
		check_ov(sv, strand, p);
		hvpmu_hv_vt_set_perfreg(sv->hv, strand, p, PCR_DISABLED);
		if (HVPMU_FEX(check_ov(sv, strand, p), T4_PCR, OV))
			hvpmu_hv_vt_set_perfreg(sv->hv, strand, p, PCR_DISABLED);
		hvpmu_machine_ldxa(sv->m, strand, HVPMU_T4_ASI_PIC, p * 8u, &pic);
		e->raw += (ss->ovf[p] << 32) + pic - sv->cfg.pic_init;
		e->overflows += ss->ovf[p];
		e->running += now - ss->group_tick;
		ss->ev[p] = -1;
	}
}

/* Guest OS code runs on the strand in privileged mode. */
static enum hvpmu_mode enter_os(struct hvpmu_sv *sv, uint32_t strand)
{
	enum hvpmu_mode prev = hvpmu_machine_mode(sv->m, strand);

	if (prev != HVPMU_MODE_PRIV)
		hvpmu_machine_set_mode(sv->m, strand, HVPMU_MODE_PRIV);
	return prev;
}

static void leave_os(struct hvpmu_sv *sv, uint32_t strand, enum hvpmu_mode prev)
{
	if (prev != HVPMU_MODE_PRIV)
		hvpmu_machine_set_mode(sv->m, strand, prev);
}

static int negotiate(struct hvpmu_sv *sv, uint32_t strand)
{
	uint64_t minor, st;

	if (sv->negotiated)
		return sv->negotiated > 0 ? HVPMU_OK : HVPMU_EHV;
	if (sv->t1) { /* T1: %pcr/%pic are ASRs, no hypervisor group needed (§2.1) */
		sv->negotiated = 1;
		return HVPMU_OK;
	}
	/* register_perf_hsvc(): VT_CPU major 1 minor 0 (linux-clients.md §1.6) */
	st = hvpmu_hv_set_version(sv->hv, strand, HV_GRP_VT_CPU, 1, 0, &minor);
	sv->negotiated = st == HV_EOK ? 1 : -1;
	if (st != HV_EOK) {
		sv->last_status = st;
		for (unsigned i = 0; i < sv->nevents; i++)
			sv->ev[i].supported = 0;
		return HVPMU_EHV;
	}
	return HVPMU_OK;
}

int hvpmu_sv_start_strand(struct hvpmu_sv *sv, uint32_t strand)
{
	enum hvpmu_mode prev;
	int rc;

	if (strand >= sv->nstrands)
		return HVPMU_ERANGE;
	if (sv->st[strand].active)
		return HVPMU_OK;
	prev = enter_os(sv, strand);
	/* the PCR API group is needed only when there are CPU events (a
	 * busstat- or mmustat-only run may be on a platform without it) */
	rc = sv->nevents ? negotiate(sv, strand) : HVPMU_OK;
	if (rc == HVPMU_OK) {
		sv->st[strand].active = 1;
		if (sv->nevents) {
			program_group(sv, strand, 0);
		} else {
			for (unsigned p = 0; p < HVPMU_T4_NPIC; p++)
				sv->st[strand].ev[p] = -1; /* no PIC in use */
			sv->st[strand].group_tick = hvpmu_machine_tick(sv->m, strand);
		}
		/* enabled time starts when counting starts, as running time does */
		sv->st[strand].start_tick = sv->st[strand].group_tick;
		hvpmu_machine_set_tick_compare(sv->m, strand,
			hvpmu_machine_tick(sv->m, strand) + sv->cfg.rotate_cycles);
	}
	leave_os(sv, strand, prev);
	return rc;
}

int hvpmu_sv_stop_strand(struct hvpmu_sv *sv, uint32_t strand)
{
	enum hvpmu_mode prev;
	uint64_t enabled, now;

	if (strand >= sv->nstrands)
		return HVPMU_ERANGE;
	if (!sv->st[strand].active)
		return HVPMU_OK;
	now = hvpmu_machine_tick(sv->m, strand);
	prev = enter_os(sv, strand);
	unprogram_group(sv, strand, now);
	hvpmu_machine_set_tick_compare(sv->m, strand, 0);
	enabled = now - sv->st[strand].start_tick;
	for (unsigned i = 0; i < sv->nevents; i++)
		sv->ev[i].enabled += enabled;
	sv->st[strand].active = 0;
	leave_os(sv, strand, prev);
	return HVPMU_OK;
}

/* interrupt_level_15 (PMU overflow) and interrupt_level_14 (OS tick). */
static void on_trap(void *ctx, const struct hvpmu_guest_trap *t)
{
	struct hvpmu_sv *sv = ctx;
	struct sv_strand *ss;

	if (t->strand >= sv->nstrands || !sv->st[t->strand].active)
		return;
	ss = &sv->st[t->strand];
	if (t->tt == HV_TT_INTERRUPT_LEVEL_15) {
		if (sv->t1) {
			t1_poll_ov(sv, t->strand, t);
			return;
		}
		for (unsigned p = 0; p < HVPMU_T4_NPIC; p++)
			if (t->pic_mask & (1u << p))
				poll_ov(sv, t->strand, p, t);
		return;
	}
	/* OS tick: rotate groups when multiplexing, else poll for overflows
	 * that could not trap (ht=1 or events in hyperprivileged mode). */
	if (sv->ngroups > 1) {
		unprogram_group(sv, t->strand, hvpmu_machine_tick(sv->m, t->strand));
		program_group(sv, t->strand, (ss->cur_group + 1) % sv->ngroups);
	} else if (sv->t1) {
		t1_poll_ov(sv, t->strand, NULL);
	} else {
		for (unsigned p = 0; p < HVPMU_T4_NPIC; p++)
			poll_ov(sv, t->strand, p, NULL);
	}
	hvpmu_machine_set_tick_compare(sv->m, t->strand,
		hvpmu_machine_tick(sv->m, t->strand) + sv->cfg.rotate_cycles);
	if (sv->cfg.on_tick)
		sv->cfg.on_tick(sv->cfg.ctx, t->strand, hvpmu_machine_tick(sv->m, t->strand));
}

/* §10.5 DRAM counter registers of the OS group, by hypercall register id. */
#define MCU_COUNTER_MASK ((UINT64_C(1) << T4_DRAM_COUNT01_COUNTER1_LEN) - 1)

static uint64_t mcu_reg(unsigned mcu, unsigned k)
{
	return HV_VT_PERFREG_MCU0 + (uint64_t)HV_VT_PERFREG_PER_MCU * mcu + k;
}

static int mcu_call_ok(struct hvpmu_sv *sv, uint64_t st)
{
	if (st == HV_EOK)
		return 1;
	sv->last_status = st;
	return 0;
}

int hvpmu_sv_mcu_program(struct hvpmu_sv *sv, uint32_t strand, unsigned mcu, unsigned sel0, unsigned sel1)
{
	enum hvpmu_mode prev;
	uint64_t ctl = 0;
	int rc = HVPMU_OK;

	if (mcu >= HVPMU_SV_MAX_MCU || mcu >= hvpmu_machine_nmcu(sv->m) || strand >= sv->nstrands)
		return HVPMU_ERANGE;
	prev = enter_os(sv, strand);
	if (negotiate(sv, strand) ||
	    !mcu_call_ok(sv, hvpmu_hv_vt_get_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_CTL), &ctl)) ||
	    !mcu_call_ok(sv, hvpmu_hv_vt_set_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_CTL),
		HVPMU_FDP(HVPMU_FDP(ctl, T4_DRAM_CTL, SEL0, sel0), T4_DRAM_CTL, SEL1, sel1))) ||
	    !mcu_call_ok(sv, hvpmu_hv_vt_set_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_COUNT01), 0)))
		rc = HVPMU_EHV;
	memset(&sv->mcu[mcu], 0, sizeof sv->mcu[mcu]);
	leave_os(sv, strand, prev);
	return rc;
}

int hvpmu_sv_mcu_read(struct hvpmu_sv *sv, uint32_t strand, unsigned mcu, uint64_t counts[2])
{
	enum hvpmu_mode prev;
	uint64_t v = 0;
	uint32_t cur[2];
	int rc = HVPMU_OK;

	if (mcu >= HVPMU_SV_MAX_MCU || mcu >= hvpmu_machine_nmcu(sv->m) || strand >= sv->nstrands)
		return HVPMU_ERANGE;
	prev = enter_os(sv, strand);
	if (!mcu_call_ok(sv, hvpmu_hv_vt_get_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_COUNT01), &v))) {
		rc = HVPMU_EHV;
	} else {
		/* TABLE 10-5: counter0 in 62:32 (sticky0 63), counter1 in 30:0 (sticky1 31) */
		cur[0] = (uint32_t)HVPMU_FEX(v, T4_DRAM_COUNT01, COUNTER0);
		cur[1] = (uint32_t)HVPMU_FEX(v, T4_DRAM_COUNT01, COUNTER1);
		for (int k = 0; k < 2; k++) {
			sv->mcu[mcu].acc[k] += (cur[k] - sv->mcu[mcu].last[k]) & MCU_COUNTER_MASK;
			sv->mcu[mcu].last[k] = cur[k];
		}
		if (HVPMU_FEX(v, T4_DRAM_COUNT01, STICKY0) || HVPMU_FEX(v, T4_DRAM_COUNT01, STICKY1))
			mcu_call_ok(sv, hvpmu_hv_vt_set_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_COUNT01),
				v & ~(HVPMU_FMASK(T4_DRAM_COUNT01, STICKY0) | HVPMU_FMASK(T4_DRAM_COUNT01, STICKY1))));
	}
	counts[0] = sv->mcu[mcu].acc[0];
	counts[1] = sv->mcu[mcu].acc[1];
	leave_os(sv, strand, prev);
	return rc;
}

int hvpmu_sv_read(struct hvpmu_sv *sv, unsigned idx, struct hvpmu_sv_count *out)
{
	const struct sv_event *e;

	if (idx >= sv->nevents || !out)
		return HVPMU_ERANGE;
	e = &sv->ev[idx];
	out->supported = e->supported;
	out->raw = e->raw;
	out->enabled = e->enabled;
	out->running = e->running;
	out->overflows = e->overflows;
	out->scaled = e->running ? (double)e->raw * (double)e->enabled / (double)e->running : 0.0;
	return HVPMU_OK;
}

/* ---- Niagara MMU statistics client (Linux sysfs.c style) ---- */


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

	if (strand >= sv->nstrands || !gm)
		return HVPMU_ERANGE;
	prev = enter_os(sv, strand);
	if (negotiate_niagara(sv, strand)) {
		rc = HVPMU_EHV;
	} else {
		for (unsigned i = 0; i < HVPMU_SV_MMUSTAT_WORDS; i++) /* the guest zeroes its buffer */
			hvpmu_guest_mem_write64(gm, ra + 8u * i, 0);
		st = hvpmu_hv_mmustat_conf(sv->hv, strand, ra, &old);
		if (!mcu_call_ok(sv, st))
			rc = HVPMU_EHV;
	}
	leave_os(sv, strand, prev);
	return rc;
}

int hvpmu_sv_mmustat_read(struct hvpmu_sv *sv, uint32_t strand, uint64_t words[HVPMU_SV_MMUSTAT_WORDS])
{
	struct hvpmu_guest_mem *gm = hvpmu_hv_guest_mem(sv->hv, sv->guest);
	enum hvpmu_mode prev;
	uint64_t ra = 0;
	int rc = HVPMU_OK;

	if (strand >= sv->nstrands || !gm)
		return HVPMU_ERANGE;
	prev = enter_os(sv, strand);
	if (!mcu_call_ok(sv, hvpmu_hv_mmustat_info(sv->hv, strand, &ra)) || !ra) {
		rc = HVPMU_EHV;
	} else {
		for (unsigned i = 0; i < HVPMU_SV_MMUSTAT_WORDS; i++)
			if (hvpmu_guest_mem_read64(gm, ra + 8u * i, &words[i]))
				rc = HVPMU_EHV;
	}
	leave_os(sv, strand, prev);
	return rc;
}

int hvpmu_sv_mmustat_stop(struct hvpmu_sv *sv, uint32_t strand)
{
	enum hvpmu_mode prev;
	uint64_t old;
	int rc;

	if (strand >= sv->nstrands)
		return HVPMU_ERANGE;
	prev = enter_os(sv, strand);
	rc = mcu_call_ok(sv, hvpmu_hv_mmustat_conf(sv->hv, strand, 0, &old)) ? HVPMU_OK : HVPMU_EHV;
	leave_os(sv, strand, prev);
	return rc;
}

/* ---- UltraSPARC T1 DRAM / JBUS PerfRegs (niagara-perf-api.txt) ---- */

static unsigned t1_ctl_id(unsigned unit)
{
	return unit == 0 ? HVPMU_T1_PERFREG_JBUS_CTL : HVPMU_T1_PERFREG_DRAM_CTL(unit - 1);
}

#define T1_COUNTER_MASK ((UINT64_C(1) << 31) - 1) /* 31-bit counters, §3.3-3.4 */

int hvpmu_sv_t1perf_program(struct hvpmu_sv *sv, uint32_t strand, unsigned unit, unsigned code0, unsigned code1)
{
	unsigned ctl_id, n0, n1;
	uint64_t ctl = 0;
	enum hvpmu_mode prev;
	int rc = HVPMU_OK;

	if (unit >= HVPMU_SV_T1_UNITS || strand >= sv->nstrands)
		return HVPMU_ERANGE;
	ctl_id = t1_ctl_id(unit);
	n0 = (unsigned)hvpmu_t1_pic_counter(ctl_id, 0);
	n1 = (unsigned)hvpmu_t1_pic_counter(ctl_id, 1);
	if (hvpmu_t1_ctl_set_code(ctl_id, &ctl, n0, code0) || hvpmu_t1_ctl_set_code(ctl_id, &ctl, n1, code1))
		return HVPMU_ERANGE;
	prev = enter_os(sv, strand);
	if (negotiate_niagara(sv, strand) ||
	    !mcu_call_ok(sv, hvpmu_hv_niagara_set_perfreg(sv->hv, strand, ctl_id, ctl)) ||
	    !mcu_call_ok(sv, hvpmu_hv_niagara_set_perfreg(sv->hv, strand, ctl_id + 1, 0)))
		rc = HVPMU_EHV;
	memset(&sv->t1u[unit], 0, sizeof sv->t1u[unit]);
	leave_os(sv, strand, prev);
	return rc;
}

int hvpmu_sv_t1perf_read(struct hvpmu_sv *sv, uint32_t strand, unsigned unit, uint64_t counts[2])
{
	unsigned count_id;
	uint64_t v = 0;
	enum hvpmu_mode prev;
	int rc = HVPMU_OK, any_sticky = 0;

	if (unit >= HVPMU_SV_T1_UNITS || strand >= sv->nstrands)
		return HVPMU_ERANGE;
	count_id = t1_ctl_id(unit) + 1;
	prev = enter_os(sv, strand);
	if (!mcu_call_ok(sv, hvpmu_hv_niagara_get_perfreg(sv->hv, strand, count_id, &v))) {
		rc = HVPMU_EHV;
	} else {
		for (unsigned pic = 0; pic < 2; pic++) {
			uint32_t cur = 0;
			int sticky = 0;

			hvpmu_t1_count_get(count_id, v, (unsigned)hvpmu_t1_pic_counter(count_id, pic), &cur, &sticky);
			sv->t1u[unit].acc[pic] += (cur - sv->t1u[unit].last[pic]) & T1_COUNTER_MASK;
			sv->t1u[unit].last[pic] = cur;
			any_sticky |= sticky;
		}
		if (any_sticky) { /* clear the sticky bits, keep the counts */
			uint32_t c0 = 0, c1 = 0;

			hvpmu_t1_count_get(count_id, v, 0, &c0, NULL);
			hvpmu_t1_count_get(count_id, v, 1, &c1, NULL);
			v = unit == 0 ? HVPMU_FDP(HVPMU_FDP(0, T1_JBUS_COUNT, COUNTER0, c0), T1_JBUS_COUNT, COUNTER1, c1)
				      : HVPMU_FDP(HVPMU_FDP(0, T1_DRAM_COUNT, COUNTER0, c0), T1_DRAM_COUNT, COUNTER1, c1);
			mcu_call_ok(sv, hvpmu_hv_niagara_set_perfreg(sv->hv, strand, count_id, v));
		}
	}
	counts[0] = sv->t1u[unit].acc[0];
	counts[1] = sv->t1u[unit].acc[1];
	leave_os(sv, strand, prev);
	return rc;
}
