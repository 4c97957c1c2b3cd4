/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SGI Origin's CPU counter driver as the tools see it
 * (hvpmu/supervisor.h): the R10000's 32 events by IRIX number (perfex -e
 * N, 0-31) and by the names of IRIX r10k_counters(5) (spaces as
 * underscores, any case: "Graduated_loads"), rN (hex), and the generic
 * aliases; modifiers :u :k :s :x for the control register's U, K, S and
 * EXL bits (R10000 User's Manual Figure 14-22).  Events 0-15 count on
 * counter 0, 16-31 on counter 1: two events of one counter cannot be
 * counted together (perfex refuses them too), except that Cycles and
 * Graduated_instructions, which both counters have, take the free one.
 * No chip-wide device: the Hub's counters are `hvpmu mdperf`'s.
 * docs/r10k-counters.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sv_internal.h"

/* perf's generic names, mapped to the R10000 event that counts them. */
static const struct {
	const char *alias;
	unsigned ev;
} aliases[] = {
	{ "cycles", HVPMU_R10K_EV_CYCLES0 },
	{ "cpu-cycles", HVPMU_R10K_EV_CYCLES0 },
	{ "instructions", HVPMU_R10K_EV_GRAD_INSNS1 },
	{ "branches", HVPMU_R10K_EV_DECODED_BRANCHES },
	{ "branch-instructions", HVPMU_R10K_EV_DECODED_BRANCHES },
	{ "branch-misses", HVPMU_R10K_EV_MISPREDICTED },
	{ "L1-dcache-load-misses", HVPMU_R10K_EV_DC_MISSES },
	{ "L1-icache-load-misses", 9 },
	{ "LLC-load-misses", HVPMU_R10K_EV_SC_DMISSES },
	{ "cache-misses", HVPMU_R10K_EV_SC_DMISSES },
};
#define NALIASES (sizeof aliases / sizeof aliases[0])

static int config_valid(uint64_t config) { return config < HVPMU_R10K_NEVENTS; }

static int lookup(const char *tok, const char *base, uint64_t *config, char *err, size_t errlen)
{
	unsigned long v;
	char *end;

	(void)tok;
	for (unsigned ev = 0; ev < HVPMU_R10K_NEVENTS; ev++)
		if (strcasecmp(base, hvpmu_r10k_event_name(ev)) == 0) {
			*config = ev;
			return 0;
		}
	for (unsigned i = 0; i < NALIASES; i++)
		if (strcmp(base, aliases[i].alias) == 0) {
			*config = aliases[i].ev;
			return 0;
		}
	if (base[0] >= '0' && base[0] <= '9') { /* perfex -e N: decimal */
		v = strtoul(base, &end, 10);
		if (!*end && v < HVPMU_R10K_NEVENTS) {
			*config = v;
			return 0;
		}
	}
	if (base[0] == 'r' && base[1] && base[1] != '-' && base[1] != '+') { /* rN: hex, as perf's raw */
		v = strtoul(base + 1, &end, 16);
		if (!*end && v < HVPMU_R10K_NEVENTS) {
			*config = v;
			return 0;
		}
	}
	snprintf(err, errlen, "event syntax error: unknown R10000 event '%s' (0-31 or a name; see 'hvpmu list')",
		 base);
	return -1;
}

/* One event per counter: a name both counters have takes the free one;
 * two events of one counter are refused. */
static int check(struct hvpmu_sv_event *ev, unsigned n, char *err, size_t errlen)
{
	int owner[HVPMU_R10K_NCOUNTERS] = { -1, -1 };

	for (unsigned i = 0; i < n; i++) {
		unsigned e = (unsigned)ev[i].config, c = hvpmu_r10k_event_counter(e);
		int twin = hvpmu_r10k_event_twin(e);

		if (owner[c] >= 0 && twin >= 0 && owner[hvpmu_r10k_event_counter((unsigned)twin)] < 0) {
			ev[i].config = (uint64_t)twin;
			c = hvpmu_r10k_event_counter((unsigned)twin);
		}
		if (owner[c] >= 0) {
			snprintf(err, errlen, "events '%s' and '%s' both count on R10000 counter %u (events %u-%u); "
				 "the R10000 counts one event per counter: count them in separate runs",
				 ev[owner[c]].name, ev[i].name, c, c * HVPMU_R10K_EVENTS_PER_COUNTER,
				 c * HVPMU_R10K_EVENTS_PER_COUNTER + HVPMU_R10K_EVENTS_PER_COUNTER - 1);
			return -1;
		}
		owner[c] = (int)i;
	}
	return 0;
}

static int supported(uint64_t config) { return config_valid(config) && hvpmu_r10k_event_supported((unsigned)config); }

static int event(unsigned i, struct hvpmu_sv_event_info *out)
{
	if (i >= HVPMU_R10K_NEVENTS)
		return HVPMU_ERANGE;
	out->name = hvpmu_r10k_event_name(i);
	out->config = i;
	out->supported = hvpmu_r10k_event_supported(i);
	snprintf(out->text, sizeof out->text, "%2u  counter %u  %s", i, hvpmu_r10k_event_counter(i),
		 hvpmu_r10k_event_desc(i));
	return HVPMU_OK;
}

static int alias(unsigned i, struct hvpmu_sv_event_info *out)
{
	if (i >= NALIASES)
		return HVPMU_ERANGE;
	out->name = aliases[i].alias;
	out->config = aliases[i].ev;
	out->supported = hvpmu_r10k_event_supported(aliases[i].ev);
	snprintf(out->text, sizeof out->text, "= %u %s", aliases[i].ev, hvpmu_r10k_event_name(aliases[i].ev));
	return HVPMU_OK;
}

static uint32_t pics(uint64_t config) { return 1u << hvpmu_r10k_event_counter((unsigned)config % HVPMU_R10K_NEVENTS); }

static int generic(uint64_t config)
{
	if (config == HVPMU_R10K_EV_CYCLES0 || config == HVPMU_R10K_EV_CYCLES1)
		return HVPMU_SV_GENERIC_CYCLES;
	if (config == HVPMU_R10K_EV_GRAD_INSNS0 || config == HVPMU_R10K_EV_GRAD_INSNS1)
		return HVPMU_SV_GENERIC_INSTRUCTIONS;
	return HVPMU_SV_GENERIC_NONE;
}

static unsigned features(uint64_t config)
{
	unsigned needs = hvpmu_r10k_event_needs((unsigned)config), f = 0;

	if (needs & HVPMU_R10K_NEEDS_MEMORY)
		f |= HVPMU_FEAT_MEMORY;
	if (needs & HVPMU_R10K_NEEDS_BRANCHES)
		f |= HVPMU_FEAT_BRANCHES;
	return f;
}

const struct hvpmu_sv_backend sv_backend_origin = {
	.desc = {
		.name = "origin",
		.services = HVPMU_SV_SERVICE_MDPERF, /* the IRIX kernel's Hub counters (src/services/irix.c) */
		.title = "MIPS R10000 events (hvpmu stat -p origin; IRIX perfex numbers and r10k_counters(5) names, "
			 "docs/r10k-counters.md):",
		.alias_title = "R10000 generic aliases (hvpmu stat -p origin):",
		.raw_help = "R10000: an event is its IRIX number 0-31 (perfex -e N), its name or rN (hex); events 0-15 "
			    "count on counter 0, 16-31 on counter 1,\none event per counter. Modifiers: :u user, :k "
			    "kernel, :s supervisor, :x exception level (default :uk).",
		.cpustat_title = "MIPS R10000 (--platform origin)",
		.tick_name = "cycles",
		.default_events = "Cycles,Graduated_instructions",
		.npic = HVPMU_R10K_NCOUNTERS,
		.modes = SV_R10K_MODES,
		.emask = 0,
		.mode_help = "R10000: :u, :k, :s, :x",
	},
	.platform = HVPMU_PLATFORM_ORIGIN,
	.ops = &sv_pcbe_r10k,
	.event = event,
	.alias = alias,
	.lookup = lookup,
	.check = check,
	.supported = supported,
	.pics = pics,
	.generic = generic,
	.reads = features, /* the whole model for a memory event (hvpmu_r10k_event_needs) */
	.features = features,
	/* never shared, no chip-wide device: shared, kinds, uncore_count NULL */
};
