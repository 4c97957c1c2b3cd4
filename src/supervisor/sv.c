/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest OS performance-counter driver (layer 5): its entry points, which
 * reach a strand's PMU only through the platform's back-end table
 * (struct sv_pcbe_ops, sv_internal.h), and the SPARC T4 back-end, modeled on
 * Linux arch/sparc/kernel/pcr.c + perf_event.c (niagara4) and the Solaris
 * PCBE (../shared/reference/linux-clients.md §1.6-1.7, anchors.md §3.7):
 * PCRs only via HV_FAST_VT_{GET,SET}_PERFREG, PICs only via LDXA/STXA
 * ASI 0xB0 in privileged mode, the §10.2 disable / reset / enable sequence,
 * 32 -> 64-bit extension on overflow, and perf-style multiplexing.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "sv_internal.h"

/* Linux's default perf_event_mux_interval_ms is 4 ms; at the md clock. */
#define DEFAULT_ROTATE_MS 4
#define MS_PER_S 1000

static void on_trap(void *ctx, const struct hvpmu_guest_trap *t);

int hvpmu_sv_create(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_sv_config *cfg, struct hvpmu_sv **out)
{
	struct hvpmu_sv *sv;
	const struct hvpmu_md *md;

	if (!hv || !out || guest >= hvpmu_machine_md(hvpmu_hv_machine(hv))->nguests)
		return HVPMU_EINVAL;
	sv = calloc(1, sizeof *sv);
	if (!sv)
		return HVPMU_ENOMEM;
	sv->hv = hv;
	sv->m = hvpmu_hv_machine(hv);
	md = hvpmu_machine_md(sv->m);
	sv->guest = guest;
	sv->first_strand = md->guests[guest].first_strand;
	sv->own_strands = md->guests[guest].nstrands;
	if (cfg)
		sv->cfg = *cfg;
	if (!sv->cfg.rotate_cycles)
		sv->cfg.rotate_cycles = md->clock_hz * DEFAULT_ROTATE_MS / MS_PER_S;
	sv->nstrands = hvpmu_machine_nstrands(sv->m);
	/* the platform's back-end, chosen once (backend.c), with a driver */
	if (!hvpmu_sv_backend_counters(hvpmu_sv_backend_of(md->platform))) {
		free(sv);
		return HVPMU_EINVAL;
	}
	sv->ops = hvpmu_sv_backend_of(md->platform)->ops;
	if (sv->ops->os_clock_cycles) /* the OS's clock is the driver's tick */
		sv->cfg.rotate_cycles = sv->ops->os_clock_cycles(sv);
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

	if (!req || !sv->ops->config_valid(req->config) || !req->modes || (req->modes & ~sv->ops->modes))
		return HVPMU_EINVAL;
	if (sv->nevents == HVPMU_SV_MAX_EVENTS)
		return HVPMU_EFULL;
	e = &sv->ev[sv->nevents];
	memset(e, 0, sizeof *e);
	e->req = *req;
	e->req.name[sizeof e->req.name - 1] = 0;
	sv->ops->configure(sv, e);
	return (int)sv->nevents++;
}

unsigned hvpmu_sv_nevents(const struct hvpmu_sv *sv) { return sv->nevents; }
uint64_t hvpmu_sv_tick_cycles(const struct hvpmu_sv *sv) { return sv->cfg.rotate_cycles; }
unsigned hvpmu_sv_ngroups(const struct hvpmu_sv *sv) { return sv->ngroups; }
uint64_t hvpmu_sv_last_status(const struct hvpmu_sv *sv) { return sv->last_status; }

/* ---- the SPARC T4 back-end ---- */

/* Four PICs per strand; events fill them in order, four per group. */
static void t4_configure(struct hvpmu_sv *sv, struct sv_event *e)
{
	unsigned nsup = 0;

	for (const struct sv_event *o = sv->ev; o < e; o++)
		nsup += o->supported;
	e->supported = hvpmu_t4_event_supported(sv_t4_sl(e->req.config), sv_t4_mask(e->req.config));
	if (e->supported) { /* fill the last group, or open one (new_group: cpustat's sets) */
		unsigned g = sv->ngroups ? sv->ngroups - 1 : 0, used = 0;

		for (const struct sv_event *o = sv->ev; nsup && o < e; o++)
			used += o->supported && o->group == g;
		if (used && (used == HVPMU_T4_NPIC || e->req.new_group)) {
			g++;
			used = 0;
		}
		e->group = g;
		e->pic = used;
		sv->ngroups = g + 1;
	}
}

static uint64_t pcr_value(const struct hvpmu_sv_event *r)
{
	uint64_t v = HVPMU_FMASK(T4_PCR, PICNPT) | HVPMU_FMASK(T4_PCR, TOE);

	v = HVPMU_FDP(v, T4_PCR, SL, sv_t4_sl(r->config));
	v = HVPMU_FDP(v, T4_PCR, MASK, sv_t4_mask(r->config));
	v = HVPMU_FDP(v, T4_PCR, UT, (r->modes & HVPMU_SV_MODE_USER) ? 1 : 0);
	v = HVPMU_FDP(v, T4_PCR, ST, (r->modes & HVPMU_SV_MODE_KERNEL) ? 1 : 0);
	return HVPMU_FDP(v, T4_PCR, HT, (r->modes & HVPMU_SV_MODE_HYPER) ? 1 : 0);
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

/* Level 15: the PICs the trap names; OS tick (t NULL): every PIC. */
static void t4_overflow(struct hvpmu_sv *sv, uint32_t strand, const struct hvpmu_guest_trap *t)
{
	for (unsigned p = 0; p < HVPMU_T4_NPIC; p++)
		if (!t || (t->pic_mask & (1u << p)))
			poll_ov(sv, strand, p, t);
}

static void t4_program(struct hvpmu_sv *sv, uint32_t strand, unsigned g)
{
	struct sv_strand *ss = &sv->st[strand];

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
		ss->base[p] = sv->cfg.pic_init;
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
static void t4_allstop(struct hvpmu_sv *sv, uint32_t strand, uint64_t now)
{
	struct sv_strand *ss = &sv->st[strand];

	for (unsigned p = 0; p < HVPMU_T4_NPIC; p++) {
		uint64_t pic = 0;

		if (ss->ev[p] < 0)
			continue;
		check_ov(sv, strand, p);
		hvpmu_hv_vt_set_perfreg(sv->hv, strand, p, PCR_DISABLED);
		if (HVPMU_FEX(check_ov(sv, strand, p), T4_PCR, OV))
			hvpmu_hv_vt_set_perfreg(sv->hv, strand, p, PCR_DISABLED);
		hvpmu_machine_ldxa(sv->m, strand, HVPMU_T4_ASI_PIC, p * 8u, &pic);
		sv_fold_pic(sv, strand, p, pic, now, 0);
	}
}

/* While counting: account and clear a pending ov (as the overflow
 * handler does), then read the PIC through ASI 0xB0 and fold the wraps and
 * the PIC's advance since the last fold. */
static void t4_sample(struct hvpmu_sv *sv, uint32_t strand, uint64_t now)
{
	struct sv_strand *ss = &sv->st[strand];

	for (unsigned p = 0; p < HVPMU_T4_NPIC; p++) {
		uint64_t pic = 0;

		if (ss->ev[p] < 0)
			continue;
		poll_ov(sv, strand, p, NULL);
		hvpmu_machine_ldxa(sv->m, strand, HVPMU_T4_ASI_PIC, p * 8u, &pic);
		sv_fold_pic(sv, strand, p, pic, now, 1);
	}
	ss->group_tick = now;
}

int sv_owns(const struct hvpmu_sv *sv, uint32_t strand)
{
	return strand < sv->nstrands && strand >= sv->first_strand && strand - sv->first_strand < sv->own_strands;
}

/* Guest OS code runs on the strand in privileged mode. */
enum hvpmu_mode sv_enter_os(struct hvpmu_sv *sv, uint32_t strand)
{
	enum hvpmu_mode prev = hvpmu_machine_mode(sv->m, strand);

	if (prev != HVPMU_MODE_PRIV)
		hvpmu_machine_set_mode(sv->m, strand, HVPMU_MODE_PRIV);
	return prev;
}

void sv_leave_os(struct hvpmu_sv *sv, uint32_t strand, enum hvpmu_mode prev)
{
	if (prev != HVPMU_MODE_PRIV)
		hvpmu_machine_set_mode(sv->m, strand, prev);
}

/* register_perf_hsvc(): VT_CPU major 1 minor 0 (linux-clients.md §1.6) */
static int t4_attach(struct hvpmu_sv *sv, uint32_t strand)
{
	uint64_t minor, st;

	st = hvpmu_hv_set_version(sv->hv, strand, HV_GRP_VT_CPU, 1, 0, &minor);
	if (st != HV_EOK) {
		sv->last_status = st;
		for (unsigned i = 0; i < sv->nevents; i++)
			sv->ev[i].supported = 0;
		return HVPMU_EHV;
	}
	return HVPMU_OK;
}

static int t4_config_valid(uint64_t config) { return sv_t4_config_valid(config); }
static int t4_uncore_program(struct hvpmu_sv *sv, uint32_t strand, unsigned mcu, const unsigned code[2]);
static int t4_uncore_sample(struct hvpmu_sv *sv, uint32_t strand, unsigned mcu, uint32_t cur[2]);

const struct sv_pcbe_ops sv_pcbe_t4 = {
	.name = "t4",
	.npic = HVPMU_T4_NPIC,
	.modes = SV_T4_MODES,
	.ovf_tt = HV_TT_INTERRUPT_LEVEL_15,
	.tick_tt = HV_TT_INTERRUPT_LEVEL_14,
	.os_clock_cycles = NULL,
	.config_valid = t4_config_valid,
	.configure = t4_configure,
	.attach = t4_attach,
	.program = t4_program,
	.allstop = t4_allstop,
	.overflow = t4_overflow,
	.sample = t4_sample,
	.uncore_program = t4_uncore_program,
	.uncore_sample = t4_uncore_sample,
};

/* ---- entry points ---- */

/* The back-end's attach, once (its outcome is kept). */
static int negotiate(struct hvpmu_sv *sv, uint32_t strand)
{
	if (!sv->negotiated)
		sv->negotiated = sv->ops->attach(sv, strand) == HVPMU_OK ? 1 : -1;
	return sv->negotiated > 0 ? HVPMU_OK : HVPMU_EHV;
}

int hvpmu_sv_start_strand(struct hvpmu_sv *sv, uint32_t strand)
{
	enum hvpmu_mode prev;
	int rc;

	if (!sv_owns(sv, strand))
		return HVPMU_ERANGE;
	if (sv->st[strand].active)
		return HVPMU_OK;
	prev = sv_enter_os(sv, strand);
	/* the PCR API group is needed only when there are CPU events (a
	 * busstat- or mmustat-only run may be on a platform without it) */
	rc = sv->nevents ? negotiate(sv, strand) : HVPMU_OK;
	if (rc == HVPMU_OK) {
		sv->st[strand].active = 1;
		if (sv->nevents) {
			sv->ops->program(sv, strand, 0);
		} else {
			for (unsigned p = 0; p < SV_MAX_PIC; p++)
				sv->st[strand].ev[p] = -1; /* no PIC in use */
			sv->st[strand].group_tick = hvpmu_machine_tick(sv->m, strand);
		}
		/* enabled time starts when counting starts, as running time does */
		sv->st[strand].start_tick = sv->st[strand].group_tick;
		sv->st[strand].next_tick = hvpmu_machine_tick(sv->m, strand) + sv->cfg.rotate_cycles;
		if (!sv->ops->os_clock_cycles) /* else the OS's clock is armed already */
			hvpmu_machine_set_tick_compare(sv->m, strand, sv->st[strand].next_tick);
	}
	sv_leave_os(sv, strand, prev);
	return rc;
}

int hvpmu_sv_stop_strand(struct hvpmu_sv *sv, uint32_t strand)
{
	enum hvpmu_mode prev;
	uint64_t enabled, now;

	if (!sv_owns(sv, strand))
		return HVPMU_ERANGE;
	if (!sv->st[strand].active)
		return HVPMU_OK;
	now = hvpmu_machine_tick(sv->m, strand);
	prev = sv_enter_os(sv, strand);
	sv->ops->allstop(sv, strand, now);
	if (!sv->ops->os_clock_cycles) /* the OS's clock goes on */
		hvpmu_machine_set_tick_compare(sv->m, strand, 0);
	enabled = now - sv->st[strand].start_tick;
	for (unsigned i = 0; i < sv->nevents; i++)
		sv->ev[i].enabled += enabled;
	sv->st[strand].active = 0;
	sv_leave_os(sv, strand, prev);
	return HVPMU_OK;
}

void sv_account(struct hvpmu_sv *sv, uint32_t strand, unsigned idx, uint64_t count, uint64_t ovf,
		uint64_t running)
{
	struct sv_event *e = &sv->ev[idx];
	struct sv_strand *ss = &sv->st[strand];

	e->raw += count;
	e->overflows += ovf;
	e->running += running;
	ss->raw[idx] += count;
	ss->running[idx] += running;
}

void sv_fold_pic(struct hvpmu_sv *sv, uint32_t strand, unsigned p, uint64_t pic, uint64_t now, int running)
{
	struct sv_strand *ss = &sv->st[strand];

	sv_account(sv, strand, (unsigned)ss->ev[p], (ss->ovf[p] << 32) + pic - ss->base[p], ss->ovf[p],
		   now - ss->group_tick);
	if (running) { /* the next fold continues from here */
		ss->ovf[p] = 0;
		ss->base[p] = pic;
	} else {
		ss->ev[p] = -1;
	}
}

int hvpmu_sv_read_strand(struct hvpmu_sv *sv, uint32_t strand, unsigned idx, uint64_t *raw, uint64_t *running)
{
	if (!sv_owns(sv, strand) || idx >= sv->nevents || !raw || !running)
		return HVPMU_ERANGE;
	*raw = sv->st[strand].raw[idx];
	*running = sv->st[strand].running[idx];
	return HVPMU_OK;
}

/* Every event's enabled time up to `now` on the strand. */
static void account_enabled(struct hvpmu_sv *sv, struct sv_strand *ss, uint64_t now)
{
	for (unsigned i = 0; i < sv->nevents; i++)
		sv->ev[i].enabled += now - ss->start_tick;
	ss->start_tick = now;
}

int hvpmu_sv_fold(struct hvpmu_sv *sv, uint32_t strand)
{
	struct sv_strand *ss;
	enum hvpmu_mode prev;
	uint64_t now;

	if (!sv_owns(sv, strand))
		return HVPMU_ERANGE;
	ss = &sv->st[strand];
	if (!ss->active)
		return HVPMU_OK;
	now = hvpmu_machine_tick(sv->m, strand);
	prev = sv_enter_os(sv, strand);
	sv->ops->sample(sv, strand, now);
	account_enabled(sv, ss, now);
	sv_leave_os(sv, strand, prev);
	return HVPMU_OK;
}

/* The counter interrupt (sun4v interrupt_level_15, IRIX's R10000 IP[7])
 * and the OS tick (interrupt_level_14, the IRIX clock): ops->ovf_tt and
 * ops->tick_tt.  The driver handles no other trap type (a software trap
 * of the program, hvpmu_hv_trap(), is some other part of the OS's
 * business). */
static void on_trap(void *ctx, const struct hvpmu_guest_trap *t)
{
	struct hvpmu_sv *sv = ctx;
	struct sv_strand *ss;
	uint64_t now;

	if (t->tt != sv->ops->ovf_tt && t->tt != sv->ops->tick_tt)
		return;
	if (!sv_owns(sv, t->strand) || !sv->st[t->strand].active)
		return;
	ss = &sv->st[t->strand];
	if (t->tt == sv->ops->ovf_tt) {
		sv->ops->overflow(sv, t->strand, t);
		return;
	}
	/* OS tick: rotate groups when multiplexing, else poll for overflows
	 * that could not trap (ht=1 or events in hyperprivileged mode); both
	 * fold the strand's counts, which are then current as of this tick
	 * (hvpmu_sv_read: what the session publishes).  The sample polls
	 * every PIC as the poll alone would, and reads the PICs with the ASI
	 * or ASR access the OS has anyway. */
	now = hvpmu_machine_tick(sv->m, t->strand);
	if (sv->ngroups > 1) {
		sv->ops->allstop(sv, t->strand, now);
		sv->ops->program(sv, t->strand, (ss->cur_group + 1) % sv->ngroups);
	} else {
		sv->ops->sample(sv, t->strand, now);
	}
	account_enabled(sv, ss, now);
	/* a periodic tick: the next deadline follows the last one, not the
	 * time this handler ran (as an OS's clock interrupt is programmed);
	 * the OS's own clock re-arms itself */
	do
		ss->next_tick += sv->cfg.rotate_cycles;
	while (ss->next_tick <= hvpmu_machine_tick(sv->m, t->strand));
	if (!sv->ops->os_clock_cycles)
		hvpmu_machine_set_tick_compare(sv->m, t->strand, ss->next_tick);
	if (sv->cfg.on_tick)
		sv->cfg.on_tick(sv->cfg.ctx, t->strand, hvpmu_machine_tick(sv->m, t->strand));
}

/* §10.5 DRAM counter registers of the OS group, by hypercall register id. */
static uint64_t mcu_reg(unsigned mcu, unsigned k)
{
	return HV_VT_PERFREG_MCU0 + (uint64_t)HV_VT_PERFREG_PER_MCU * mcu + k;
}

int sv_call_ok(struct hvpmu_sv *sv, uint64_t st)
{
	if (st == HV_EOK)
		return 1;
	sv->last_status = st;
	return 0;
}

/* The T4 MCU's OS group (hvpmu_sv_uncore_program): sel0 / sel1 of
 * DRAM_PERF_CTL_REG (TABLE 10-4) and DRAM_PERF_COUNT01_REG cleared. */
static int t4_uncore_program(struct hvpmu_sv *sv, uint32_t strand, unsigned mcu, const unsigned code[2])
{
	uint64_t ctl = 0;

	if (mcu >= hvpmu_machine_nmcu(sv->m))
		return HVPMU_ERANGE;
	if (negotiate(sv, strand) ||
	    !sv_call_ok(sv, hvpmu_hv_vt_get_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_CTL), &ctl)) ||
	    !sv_call_ok(sv, hvpmu_hv_vt_set_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_CTL),
		HVPMU_FDP(HVPMU_FDP(ctl, T4_DRAM_CTL, SEL0, code[0]), T4_DRAM_CTL, SEL1, code[1]))) ||
	    !sv_call_ok(sv, hvpmu_hv_vt_set_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_COUNT01), 0)))
		return HVPMU_EHV;
	return HVPMU_OK;
}

/* TABLE 10-5: counter0 in 62:32 (sticky0 63), counter1 in 30:0 (sticky1
 * 31); a set sticky bit is cleared by writing the counts back. */
static int t4_uncore_sample(struct hvpmu_sv *sv, uint32_t strand, unsigned mcu, uint32_t cur[2])
{
	uint64_t v = 0;

	if (mcu >= hvpmu_machine_nmcu(sv->m))
		return HVPMU_ERANGE;
	if (!sv_call_ok(sv, hvpmu_hv_vt_get_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_COUNT01), &v)))
		return HVPMU_EHV;
	cur[0] = (uint32_t)HVPMU_FEX(v, T4_DRAM_COUNT01, COUNTER0);
	cur[1] = (uint32_t)HVPMU_FEX(v, T4_DRAM_COUNT01, COUNTER1);
	if (HVPMU_FEX(v, T4_DRAM_COUNT01, STICKY0) || HVPMU_FEX(v, T4_DRAM_COUNT01, STICKY1))
		sv_call_ok(sv, hvpmu_hv_vt_set_perfreg(sv->hv, strand, mcu_reg(mcu, HVPMU_T4_MCU_COUNT01),
			v & ~(HVPMU_FMASK(T4_DRAM_COUNT01, STICKY0) | HVPMU_FMASK(T4_DRAM_COUNT01, STICKY1))));
	return HVPMU_OK;
}

/* The chip-wide counters of both SPARC platforms have 31 bits (T4 TABLE
 * 10-5/10-6; T1 niagara-perf-api.txt, hw-and-hypervisor.md §3.3-3.4). */
#define UNCORE_COUNTER_MASK ((UINT64_C(1) << 31) - 1)

int hvpmu_sv_uncore_program(struct hvpmu_sv *sv, uint32_t strand, unsigned dev, const unsigned code[2])
{
	enum hvpmu_mode prev;
	int rc;

	if (dev >= HVPMU_SV_MAX_UNCORE || !code || !sv_owns(sv, strand))
		return HVPMU_ERANGE;
	prev = sv_enter_os(sv, strand);
	rc = sv->ops->uncore_program ? sv->ops->uncore_program(sv, strand, dev, code) : HVPMU_ERANGE;
	memset(&sv->uncore[dev], 0, sizeof sv->uncore[dev]);
	sv_leave_os(sv, strand, prev);
	return rc;
}

/* Extend the two 31-bit counters to 64 bits: each read adds the advance
 * since the last one, modulo 2^31 (one wrap between reads at most). */
int hvpmu_sv_uncore_read(struct hvpmu_sv *sv, uint32_t strand, unsigned dev, uint64_t counts[2])
{
	enum hvpmu_mode prev;
	uint32_t cur[2];
	int rc;

	if (dev >= HVPMU_SV_MAX_UNCORE || !counts || !sv_owns(sv, strand))
		return HVPMU_ERANGE;
	prev = sv_enter_os(sv, strand);
	rc = sv->ops->uncore_sample ? sv->ops->uncore_sample(sv, strand, dev, cur) : HVPMU_ERANGE;
	for (int k = 0; rc == HVPMU_OK && k < 2; k++) {
		sv->uncore[dev].acc[k] += (cur[k] - sv->uncore[dev].last[k]) & UNCORE_COUNTER_MASK;
		sv->uncore[dev].last[k] = cur[k];
	}
	counts[0] = sv->uncore[dev].acc[0];
	counts[1] = sv->uncore[dev].acc[1];
	sv_leave_os(sv, strand, prev);
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
