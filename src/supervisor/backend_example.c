/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The example platform's back-end (docs/architecture.md "Adding a
 * platform"; hvpmu/example.h): the guest driver's part (struct
 * sv_pcbe_ops: CTL, CNT0 and CNT1 through RDASR/WRASR, privileged) and
 * what the tools see (struct hvpmu_sv_backend: two events, Instructions
 * on pic0 and Loads on pic1, their generic aliases, the raw rN).  An
 * event's config is its counter.  Two events on one counter are
 * multiplexed, one group each, as on the other chips.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/example.h>
#include "sv_internal.h"

#define EXAMPLE_MODES (HVPMU_SV_MODE_USER | HVPMU_SV_MODE_KERNEL)

static const char *const event_names[HVPMU_EXAMPLE_NCOUNTERS] = { "Instructions", "Loads" };
static const struct {
	const char *alias;
	unsigned counter;
} aliases[] = { { "instructions", 0 }, { "loads", 1 } };

/* ---- the guest driver (struct sv_pcbe_ops) ---- */

static int config_valid(uint64_t config) { return config < HVPMU_EXAMPLE_NCOUNTERS; }

/* An event counts on its counter, in the group after the last one that
 * has an event there. */
static void configure(struct hvpmu_sv *sv, struct sv_event *e)
{
	unsigned before = 0;

	e->supported = config_valid(e->req.config);
	if (!e->supported)
		return;
	e->pic = (unsigned)e->req.config;
	for (const struct sv_event *o = sv->ev; o < e; o++)
		before += o->supported && o->pic == e->pic;
	e->group = before;
	if (sv->ngroups < before + 1)
		sv->ngroups = before + 1;
}

/* The registers are ASRs: no hypervisor API group is needed. */
static int attach(struct hvpmu_sv *sv, uint32_t strand)
{
	(void)sv; (void)strand;
	return HVPMU_OK;
}

/* Stop (CTL 0), load both counters with pic_init, then count group g's
 * events with the modes they ask (UT and ST are shared, as on T1) and the
 * overflow interrupt enabled. */
static void program(struct hvpmu_sv *sv, uint32_t strand, unsigned g)
{
	struct sv_strand *ss = &sv->st[strand];
	uint64_t ctl = HVPMU_FDP(0, EXAMPLE_CTL, IE, 1);

	ss->cur_group = g;
	for (unsigned p = 0; p < SV_MAX_PIC; p++) {
		ss->ev[p] = -1;
		ss->ovf[p] = 0;
		ss->base[p] = sv->cfg.pic_init;
	}
	for (unsigned i = 0; i < sv->nevents; i++) {
		const struct sv_event *e = &sv->ev[i];

		if (!e->supported || e->group != g)
			continue;
		ss->ev[e->pic] = (int)i;
		ctl |= e->pic == 0 ? HVPMU_FMASK(EXAMPLE_CTL, EN0) : HVPMU_FMASK(EXAMPLE_CTL, EN1);
		ctl |= HVPMU_FDP(0, EXAMPLE_CTL, UT, (e->req.modes & HVPMU_SV_MODE_USER) ? 1 : 0) |
		       HVPMU_FDP(0, EXAMPLE_CTL, ST, (e->req.modes & HVPMU_SV_MODE_KERNEL) ? 1 : 0);
	}
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_EXAMPLE_ASR_CTL, 0);
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_EXAMPLE_ASR_CNT0, sv->cfg.pic_init);
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_EXAMPLE_ASR_CNT1, sv->cfg.pic_init);
	ss->pcr[0] = ctl;
	hvpmu_machine_wrasr(sv->m, strand, HVPMU_EXAMPLE_ASR_CTL, ctl);
	ss->group_tick = hvpmu_machine_tick(sv->m, strand);
}

/* Account the sticky OV bits and clear them, counting on (the level-15
 * interrupt and the OS tick poll alike). */
static void overflow(struct hvpmu_sv *sv, uint32_t strand, const struct hvpmu_guest_trap *t)
{
	static const uint64_t ov[HVPMU_EXAMPLE_NCOUNTERS] = { HVPMU_FMASK(EXAMPLE_CTL, OV0),
							       HVPMU_FMASK(EXAMPLE_CTL, OV1) };
	struct sv_strand *ss = &sv->st[strand];
	uint64_t ctl = 0;

	if (hvpmu_machine_rdasr(sv->m, strand, HVPMU_EXAMPLE_ASR_CTL, &ctl))
		return;
	for (unsigned p = 0; p < HVPMU_EXAMPLE_NCOUNTERS; p++) {
		if (!(ctl & ov[p]) || ss->ev[p] < 0)
			continue;
		ss->ovf[p]++;
		if (sv->cfg.on_overflow) {
			struct hvpmu_guest_trap polled = { HV_TT_INTERRUPT_LEVEL_15, strand, 1u << p, 0, 0 };

			sv->cfg.on_overflow(sv->cfg.ctx, (unsigned)ss->ev[p], t ? t : &polled);
		}
	}
	if (ctl & (ov[0] | ov[1]))
		hvpmu_machine_wrasr(sv->m, strand, HVPMU_EXAMPLE_ASR_CTL, ss->pcr[0]);
}

/* Fold both counters since the last fold: stopped first (allstop), or
 * left counting (sample). */
static void fold(struct hvpmu_sv *sv, uint32_t strand, uint64_t now, int running)
{
	struct sv_strand *ss = &sv->st[strand];

	overflow(sv, strand, NULL);
	if (!running)
		hvpmu_machine_wrasr(sv->m, strand, HVPMU_EXAMPLE_ASR_CTL, 0);
	for (unsigned p = 0; p < HVPMU_EXAMPLE_NCOUNTERS; p++) {
		uint64_t v = 0;

		if (ss->ev[p] < 0)
			continue;
		hvpmu_machine_rdasr(sv->m, strand, HVPMU_EXAMPLE_ASR_CNT0 + p, &v);
		sv_fold_pic(sv, strand, p, v, now, running);
	}
	if (running)
		ss->group_tick = now;
}

static void allstop(struct hvpmu_sv *sv, uint32_t strand, uint64_t now) { fold(sv, strand, now, 0); }
static void sample(struct hvpmu_sv *sv, uint32_t strand, uint64_t now) { fold(sv, strand, now, 1); }

static const struct sv_pcbe_ops sv_pcbe_example = {
	.name = "example",
	.npic = HVPMU_EXAMPLE_NCOUNTERS,
	.modes = EXAMPLE_MODES,
	.ovf_tt = HV_TT_INTERRUPT_LEVEL_15,
	.tick_tt = HV_TT_INTERRUPT_LEVEL_14,
	.os_clock_cycles = NULL,
	.config_valid = config_valid,
	.configure = configure,
	.attach = attach,
	.program = program,
	.allstop = allstop,
	.overflow = overflow,
	.sample = sample, /* no chip-wide device: no uncore hooks */
};

/* ---- what the tools see (struct hvpmu_sv_backend) ---- */

static int event(unsigned i, struct hvpmu_sv_event_info *out)
{
	if (i >= HVPMU_EXAMPLE_NCOUNTERS)
		return HVPMU_ERANGE;
	out->name = event_names[i];
	out->config = i;
	out->supported = 1;
	snprintf(out->text, sizeof out->text, "r%u, counter %u (ASR 0x%x)", i, i, HVPMU_EXAMPLE_ASR_CNT0 + i);
	return HVPMU_OK;
}

static int alias(unsigned i, struct hvpmu_sv_event_info *out)
{
	if (i >= sizeof aliases / sizeof aliases[0])
		return HVPMU_ERANGE;
	out->name = aliases[i].alias;
	out->config = aliases[i].counter;
	out->supported = 1;
	snprintf(out->text, sizeof out->text, "= %s", event_names[aliases[i].counter]);
	return HVPMU_OK;
}

/* A name, an alias, or rN (the counter). */
static int lookup(const char *tok, const char *base, uint64_t *config, char *err, size_t errlen)
{
	char *end;
	unsigned long raw;

	for (unsigned i = 0; i < HVPMU_EXAMPLE_NCOUNTERS; i++)
		if (strcmp(base, event_names[i]) == 0) {
			*config = i;
			return 0;
		}
	for (unsigned i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcmp(base, aliases[i].alias) == 0) {
			*config = aliases[i].counter;
			return 0;
		}
	if (base[0] == 'r' && base[1]) {
		raw = strtoul(base + 1, &end, 16);
		if (!*end && raw < HVPMU_EXAMPLE_NCOUNTERS) {
			*config = raw;
			return 0;
		}
	}
	snprintf(err, errlen, "unknown event '%s' (hvpmu list: the example platform's events)", tok);
	return -1;
}

static int supported(uint64_t config) { return config_valid(config); }
static uint32_t pics(uint64_t config) { return config_valid(config) ? 1u << config : 0; }
static int generic(uint64_t config) { return config == 0 ? HVPMU_SV_GENERIC_INSTRUCTIONS : HVPMU_SV_GENERIC_NONE; }

const struct hvpmu_sv_backend sv_backend_example = {
	.desc = {
		.name = "example",
		.title = "Example platform events (hvpmu stat -p example; docs/architecture.md \"Adding a platform\"):",
		.alias_title = "Example generic aliases (hvpmu stat -p example):",
		.raw_help = "Example: an event is its name or rN, N its counter (0 Instructions, 1 Loads); modifiers :u "
			    ":k (default :uk).",
		.cpustat_title = "Example platform (--platform example)",
		.tick_name = "%tick",
		.default_events = "Instructions,Loads",
		.npic = HVPMU_EXAMPLE_NCOUNTERS,
		.modes = EXAMPLE_MODES,
		.emask = 0,
		.mode_help = "example: :u, :k",
	},
	.platform = HVPMU_PLATFORM_EXAMPLE,
	.ops = &sv_pcbe_example,
	.event = event,
	.alias = alias,
	.lookup = lookup,
	.supported = supported,
	.pics = pics,
	.generic = generic, /* instruction classes only, no chip-wide device: the rest NULL */
};
