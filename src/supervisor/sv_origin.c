/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest driver's SGI Origin part (layer 5): the IRIX kernel's driver
 * of each CPU's two R10000 counters (struct sv_pcbe_ops sv_pcbe_r10k),
 * docs/r10k-counters.md.  It reaches them as kernel code does, with
 * MFC0/MTC0 of CP0 register 25 (MFPS/MTPS the control registers, MFPC/MTPC
 * the counters: R10000 User's Manual §14.32; hvpmu/r10k_pmu.h), in kernel
 * mode; no hypervisor is involved.
 *
 * Each event has its own counter (events 0-15 counter 0, 16-31 counter 1:
 * the back-end's parser placed them, backend_origin.c), so there is one
 * group and nothing rotates.  The counters are 32 bits and interrupt
 * (IP[7], the IRIX personality's HVPMU_IRIX_TRAP_PERF) when bit 31 becomes
 * one (§14.20): the handler takes 2^31 off the counter (MTPC of the value
 * without bit 31, which drops the request and loses no event: the model
 * retires nothing between the MFPC and the MTPC) and counts one overflow
 * of 2^31 events, so a count is (overflows << 31) + counter - start: the
 * 64-bit extension, as the T1 back-end extends with its wraps.  The OS
 * tick is the IRIX clock (hvpmu/irix.h): the driver arms no compare.
 */
#include <string.h>
#include <hvpmu/irix.h>
#include "sv_internal.h"

#define R10K_NPIC HVPMU_R10K_NCOUNTERS
#define OVF_SHIFT 31 /* one overflow interrupt: 2^31 events */

static uint64_t cp0_read(struct hvpmu_sv *sv, uint32_t strand, uint64_t sel)
{
	uint64_t v = 0;

	hvpmu_machine_reg_read(sv->m, strand, HVPMU_REG_CP0, HVPMU_R10K_CP0_PERF, sel, &v);
	return v;
}

static void cp0_write(struct hvpmu_sv *sv, uint32_t strand, uint64_t sel, uint64_t v)
{
	hvpmu_machine_reg_write(sv->m, strand, HVPMU_REG_CP0, HVPMU_R10K_CP0_PERF, sel, v);
}

/* Event `config` (0-31) counts on its counter, in the one group. */
static void r10k_configure(struct hvpmu_sv *sv, struct sv_event *e)
{
	unsigned ev = (unsigned)e->req.config;

	e->supported = hvpmu_r10k_event_supported(ev);
	e->pic = hvpmu_r10k_event_counter(ev);
	e->group = 0;
	for (const struct sv_event *o = sv->ev; o < e; o++)
		if (o->supported && o->pic == e->pic)
			e->supported = 0; /* the parser refuses this; a library caller gets "not supported" */
	if (e->supported)
		sv->ngroups = 1;
}

/* CP0 is the kernel's: nothing to negotiate. */
static int r10k_attach(struct hvpmu_sv *sv, uint32_t strand)
{
	(void)sv;
	(void)strand;
	return HVPMU_OK;
}

static uint64_t control_of(const struct hvpmu_sv_event *r)
{
	uint64_t c = HVPMU_FDP(0, R10K_PERFCTL, EVENT, hvpmu_r10k_event_field((unsigned)r->config));

	c = HVPMU_FDP(c, R10K_PERFCTL, IE, 1);
	c = HVPMU_FDP(c, R10K_PERFCTL, U, (r->modes & HVPMU_SV_MODE_USER) ? 1 : 0);
	c = HVPMU_FDP(c, R10K_PERFCTL, K, (r->modes & HVPMU_SV_MODE_KERNEL) ? 1 : 0);
	c = HVPMU_FDP(c, R10K_PERFCTL, S, (r->modes & HVPMU_SV_MODE_SUPERVISOR) ? 1 : 0);
	return HVPMU_FDP(c, R10K_PERFCTL, EXL, (r->modes & HVPMU_SV_MODE_EXL) ? 1 : 0);
}

/* Stop each counter (control 0), load it with pic_init, then enable it
 * with its event, modes and IE. */
static void r10k_program(struct hvpmu_sv *sv, uint32_t strand, unsigned g)
{
	struct sv_strand *ss = &sv->st[strand];

	ss->cur_group = g;
	for (unsigned p = 0; p < SV_MAX_PIC; p++)
		ss->ev[p] = -1;
	for (unsigned i = 0; i < sv->nevents; i++)
		if (sv->ev[i].supported && sv->ev[i].group == g)
			ss->ev[sv->ev[i].pic] = (int)i;
	for (unsigned p = 0; p < R10K_NPIC; p++) {
		cp0_write(sv, strand, HVPMU_R10K_SEL_CONTROL(p), 0);
		cp0_write(sv, strand, HVPMU_R10K_SEL_COUNT(p), sv->cfg.pic_init);
		ss->ovf[p] = 0;
		ss->base[p] = sv->cfg.pic_init;
		ss->pcr[p] = ss->ev[p] < 0 ? 0 : control_of(&sv->ev[ss->ev[p]].req);
		if (ss->pcr[p])
			cp0_write(sv, strand, HVPMU_R10K_SEL_CONTROL(p), ss->pcr[p]);
	}
	ss->group_tick = hvpmu_machine_tick(sv->m, strand);
}

/* IP[7] (t) or the clock's poll (t NULL): every counter in use whose bit
 * 31 is set loses 2^31 and counts one overflow. */
static void r10k_overflow(struct hvpmu_sv *sv, uint32_t strand, const struct hvpmu_guest_trap *t)
{
	struct sv_strand *ss = &sv->st[strand];

	for (unsigned p = 0; p < R10K_NPIC; p++) {
		uint64_t v;

		if (ss->ev[p] < 0)
			continue;
		v = cp0_read(sv, strand, HVPMU_R10K_SEL_COUNT(p));
		if (!(v & HVPMU_R10K_COUNT_MSB))
			continue;
		cp0_write(sv, strand, HVPMU_R10K_SEL_COUNT(p), v & ~HVPMU_R10K_COUNT_MSB);
		ss->ovf[p]++;
		if (sv->cfg.on_overflow) { /* the trap as it concerns this counter */
			struct hvpmu_guest_trap one = { HVPMU_IRIX_TRAP_PERF, strand, 1u << p, 0, t ? t->tpc : 0 };

			sv->cfg.on_overflow(sv->cfg.ctx, (unsigned)ss->ev[p], &one);
		}
	}
}

/* Fold every counter in use: its overflows (2^31 each) and its advance
 * since the last fold; stopped first (allstop: the counters are freed) or
 * left counting (sample: the next fold goes on from here). */
static void r10k_fold(struct hvpmu_sv *sv, uint32_t strand, uint64_t now, int running)
{
	struct sv_strand *ss = &sv->st[strand];

	r10k_overflow(sv, strand, NULL);
	for (unsigned p = 0; p < R10K_NPIC; p++) {
		uint64_t v;

		if (ss->ev[p] < 0)
			continue;
		if (!running)
			cp0_write(sv, strand, HVPMU_R10K_SEL_CONTROL(p), 0);
		v = cp0_read(sv, strand, HVPMU_R10K_SEL_COUNT(p));
		sv_account(sv, strand, (unsigned)ss->ev[p], (ss->ovf[p] << OVF_SHIFT) + v - ss->base[p], ss->ovf[p],
			   now - ss->group_tick);
		ss->ovf[p] = 0;
		ss->base[p] = v;
		if (!running)
			ss->ev[p] = -1;
	}
	if (running)
		ss->group_tick = now;
}

static void r10k_allstop(struct hvpmu_sv *sv, uint32_t strand, uint64_t now) { r10k_fold(sv, strand, now, 0); }
static void r10k_sample(struct hvpmu_sv *sv, uint32_t strand, uint64_t now) { r10k_fold(sv, strand, now, 1); }

static int r10k_config_valid(uint64_t config) { return config < HVPMU_R10K_NEVENTS; }

static uint64_t r10k_clock(const struct hvpmu_sv *sv) { return hvpmu_irix_tick_cycles(sv->hv); }

const struct sv_pcbe_ops sv_pcbe_r10k = {
	.name = "r10k",
	.npic = R10K_NPIC,
	.modes = SV_R10K_MODES,
	.ovf_tt = HVPMU_IRIX_TRAP_PERF,
	.tick_tt = HVPMU_IRIX_TRAP_CLOCK,
	.os_clock_cycles = r10k_clock,
	.config_valid = r10k_config_valid,
	.configure = r10k_configure,
	.attach = r10k_attach,
	.program = r10k_program,
	.allstop = r10k_allstop,
	.overflow = r10k_overflow,
	.sample = r10k_sample,
	/* the Hub's counters are the IRIX kernel's (syssgi, hvpmu/irix.h),
	 * not this driver's: no uncore hooks */
};
