/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The POWER back-end as the tools see it (struct hvpmu_sv_backend).
 * `hvpmu stat -p power -e` takes three kinds of events in one list:
 *  - the POWER7 core counters' events, counted by the guest driver
 *    (sv_power7.c) on PMC1-6 as Linux's power7-pmu does
 *    (docs/power7-pmu.md): perf's generic and cache names
 *    (power7_generic_events, power7_cache_events), the names of
 *    power7-events-list.h (PM_...) and raw codes rXXXXX (config:0-19),
 *    with :u :k :h;
 *  - the PAPR firmware's hv_gpci events (perf's syntax, hvpmu/gpci.h,
 *    docs/papr-gpci.md "hv_gpci events");
 *  - the model's own counts by instruction class (loads:u, syscalls:u,
 *    ...: names no POWER7 event has).
 * Without -e a run reports every model count, as before the driver
 * existed (instructions:u and branch-instructions:u too: with -e they are
 * the PMU's events).  Its list section is the POWER7 events, then the
 * named hv_gpci events; the aliases are perf's names, then the model
 * counts.
 *
 * An event's config: the model count's index (0: instructions, 1 + enum
 * stat_generic); POWER_GPCI | its hv_gpci event's index in the request
 * (rq->gpci); POWER_CTR | its index in rq->ev << 20 | its POWER7 code
 * (the driver's event rq->ev[index] has config = the code).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/power7_pmu.h>
#include <hvpmu/session.h>
#include "sv_internal.h"

#define POWER_GPCI (UINT64_C(1) << 32)
#define POWER_CTR (UINT64_C(1) << 33)
#define CTR_INDEX_SHIFT 20
#define CODE_OF(config) ((config) & HVPMU_P7_EV_MASK)
#define IS_CTR(config) (((config) & POWER_CTR) != 0)

SV_HIDDEN extern const struct hvpmu_sv_backend sv_backend_power;

/* The model counts that are POWER7 events when -e names them. */
static int model_is_pmu_event(unsigned i) { return i == 0 || i == 1 + STAT_G_BRANCHES; }

/* The names of the model's counts: instructions, then enum stat_generic. */
static const char *const model_names[1 + STAT_NGENERIC] = {
	"instructions:u",
	[1 + STAT_G_LOADS] = "loads:u", [1 + STAT_G_STORES] = "stores:u",
	[1 + STAT_G_FP] = "fp-instructions:u", [1 + STAT_G_BRANCHES] = "branch-instructions:u",
	[1 + STAT_G_SPR] = "spr-instructions:u", [1 + STAT_G_OTHER] = "other-instructions:u",
	[1 + STAT_G_SYSCALLS] = "syscalls:u", [1 + STAT_G_TAKEN_COND] = "taken-cond-branches:u",
};
#define NMODEL (sizeof model_names / sizeof model_names[0])

static int model_index(const char *name, size_t len)
{
	for (unsigned i = 0; i < NMODEL; i++)
		if (strlen(model_names[i]) == len && strncmp(model_names[i], name, len) == 0)
			return (int)i;
	return -1;
}

/* `hvpmu list`: the POWER7 events, then the named hv_gpci events,
 * NAME,PARAM=N (Linux's sysfs form; -e hv_gpci/NAME,PARAM=N/ counts it). */
static int event(unsigned i, struct hvpmu_sv_event_info *out)
{
	unsigned np7 = hvpmu_power7_nevents();
	const struct hvpmu_gpci_named_event *ne;
	static char names[64][160]; /* (the list is constant: one name per event, filled alike each time) */

	if (i < np7) {
		const struct hvpmu_power7_event *e = hvpmu_power7_event_at(i);

		out->name = e->name;
		out->config = e->code;
		out->supported = e->src != HVPMU_P7_SRC_NONE;
		snprintf(out->text, sizeof out->text, "r%05x  %s", (unsigned)e->code,
			 hvpmu_power7_event_desc(e));
		return HVPMU_OK;
	}
	i -= np7;
	ne = hvpmu_gpci_named_event_at(i);
	if (!ne || i >= sizeof names / sizeof names[0])
		return HVPMU_ERANGE;
	snprintf(names[i], sizeof names[i], "%s,%s=N", ne->name, ne->index_param);
	out->name = names[i];
	out->config = POWER_GPCI | i;
	out->supported = 1;
	snprintf(out->text, sizeof out->text, "hv_gpci: request 0x%x, %u bytes: %s", (unsigned)ne->request,
		 (unsigned)ne->length, ne->field);
	return HVPMU_OK;
}

/* `hvpmu list`'s second part: perf's generic names, then the model's counts. */
static int alias(unsigned i, struct hvpmu_sv_event_info *out)
{
	const struct hvpmu_power7_generic *g = hvpmu_power7_event_generic_at(i);
	unsigned ng = 0;

	if (g) {
		const struct hvpmu_power7_event *e = hvpmu_power7_event_of(g->code);

		out->name = g->name;
		out->config = g->code;
		out->supported = e && e->src != HVPMU_P7_SRC_NONE;
		snprintf(out->text, sizeof out->text, "= r%05x %s", (unsigned)g->code, e ? e->name : "");
		return HVPMU_OK;
	}
	while (hvpmu_power7_event_generic_at(ng))
		ng++;
	i -= ng;
	if (i >= NMODEL)
		return HVPMU_ERANGE;
	out->name = model_names[i];
	out->config = i;
	out->supported = 1;
	snprintf(out->text, sizeof out->text, "the model's count (user mode)%s",
		 model_is_pmu_event(i) ? "; with -e, the PMU's event" : "");
	return HVPMU_OK;
}

/* A POWER7 event by perf's generic or cache name, power7-events-list.h's
 * name, or rXXXXX (hex, config:0-19). */
static int lookup(const char *tok, const char *base, uint64_t *config, char *err, size_t errlen)
{
	const struct hvpmu_power7_generic *g;
	const struct hvpmu_power7_event *e;
	char *end;

	(void)tok;
	for (unsigned i = 0; (g = hvpmu_power7_event_generic_at(i)); i++)
		if (strcmp(base, g->name) == 0) {
			*config = g->code;
			return 0;
		}
	if ((e = hvpmu_power7_event_named(base))) {
		*config = e->code;
		return 0;
	}
	if (base[0] == 'r' && base[1] && base[1] != '-' && base[1] != '+') {
		unsigned long long v = strtoull(base + 1, &end, 16);

		if (!*end && v <= HVPMU_P7_EV_MASK) {
			*config = v;
			return 0;
		}
	}
	snprintf(err, errlen, "event syntax error: unknown POWER7 event '%.96s' (a perf name, a PM_ name of "
		 "power7-events-list.h, rXXXXX, hv_gpci/.../ or a model count; see 'hvpmu list -p power')", base);
	return -1;
}

static int supported(uint64_t config)
{
	const struct hvpmu_power7_event *e;

	if (config & POWER_GPCI)
		return 1;
	e = hvpmu_power7_event_of(CODE_OF(config)); /* (the driver's events: a code, tagged or not) */
	return e && e->src != HVPMU_P7_SRC_NONE;
}

/* cpustat's counters (pic0..pic5 = PMC1-6) that can count a POWER7
 * event: the PMC field of it and of its alternatives
 * (power7_get_alternatives, per-task), PMC1-4 where the field is 0 and
 * power7_get_constraint accepts it; none for hv_gpci and model counts. */
static uint32_t pics(uint64_t config)
{
	uint64_t alt[HVPMU_P7_MAX_ALT], mask, value;
	unsigned n;
	uint32_t m = 0;

	if (config & POWER_GPCI || !hvpmu_power7_event_of(CODE_OF(config)))
		return 0;
	n = hvpmu_power7_event_alternatives(CODE_OF(config), 1, alt);
	for (unsigned i = 0; i < n; i++) {
		unsigned pmc = (unsigned)(alt[i] >> 16) & 0xf;

		if (hvpmu_power7_event_constraint(alt[i], &mask, &value))
			continue;
		m |= pmc ? 1u << (pmc - 1) : 0xfu;
	}
	return m;
}

/* hvpmu_sv_events_fit: power_check_constraints (per-task) accepts the
 * POWER7 events together. */
static int fit(const uint64_t *configs, unsigned n)
{
	uint64_t codes[HVPMU_P7_NPMC];

	if (n > HVPMU_P7_NPMC)
		return 0;
	for (unsigned i = 0; i < n; i++)
		codes[i] = CODE_OF(configs[i]);
	return hvpmu_power7_event_check_constraints(codes, n, 1) == 0;
}

static unsigned features(uint64_t config)
{
	const struct hvpmu_power7_event *e;
	unsigned f = 0;

	if (config & POWER_GPCI)
		return 0;
	if ((e = hvpmu_power7_event_of(CODE_OF(config)))) {
		if (e->needs & HVPMU_P7_NEEDS_MEMORY)
			f |= HVPMU_FEAT_MEMORY;
		if (e->needs & HVPMU_P7_NEEDS_BRANCHES)
			f |= HVPMU_FEAT_BRANCHES;
	}
	return f;
}

static int generic(uint64_t config)
{
	uint64_t c = CODE_OF(config);

	if (!IS_CTR(config))
		return HVPMU_SV_GENERIC_NONE; /* (the driver's own events are not asked) */
	if (c == 0x1e || c == 0x200f4 || c == HVPMU_P7_PM_RUN_CYC6)
		return HVPMU_SV_GENERIC_CYCLES;
	if (c == 0x2 || c == 0x400fa || c == HVPMU_P7_PM_RUN_INST_CMPL5)
		return HVPMU_SV_GENERIC_INSTRUCTIONS;
	return HVPMU_SV_GENERIC_NONE;
}

/* One event of the list at p (hv_gpci/.../ or a model count) into ev,
 * its hv_gpci event into rq; *len: the characters it spans. */
static int parse_item(const char *p, const char *list, struct stat_request *rq, struct hvpmu_sv_event *ev,
		      size_t *len, char *err, size_t n, int given)
{
	int m;

	if (strncmp(p, HVPMU_GPCI_EVENT_PMU, strlen(HVPMU_GPCI_EVENT_PMU)) == 0) {
		if (rq->ngpci == STAT_MAX_GPCI) {
			snprintf(err, n, "too many hv_gpci events (at most %u)", STAT_MAX_GPCI);
			return -1;
		}
		if (hvpmu_gpci_event_parse(p, &rq->gpci[rq->ngpci], len, err, n))
			return -1;
		if (p[*len] && p[*len] != ',') {
			snprintf(err, n, "hv_gpci event '%.*s': unexpected '%c' after its closing '/'",
				 (int)(*len > 96 ? 96 : *len), p, p[*len]);
			return -1;
		}
		ev->config = POWER_GPCI | rq->ngpci++;
	} else {
		char tok[HVPMU_SV_NAME_MAX];
		unsigned k = rq->nevents;

		*len = strcspn(p, ",");
		if ((m = model_index(p, *len)) >= 0 && !(given && model_is_pmu_event((unsigned)m))) {
			ev->config = (uint64_t)m;
		} else if (*len && *len < sizeof tok) { /* a POWER7 event: the driver's */
			memcpy(tok, p, *len);
			tok[*len] = 0;
			if (hvpmu_sv_parse_events(&sv_backend_power, tok, rq->ev, &rq->nevents, HVPMU_SV_MAX_EVENTS, err,
						  n))
				return -1;
			ev->config = POWER_CTR | (uint64_t)k << CTR_INDEX_SHIFT | rq->ev[k].config;
			ev->modes = rq->ev[k].modes;
		}
	}
	if (*len == 0 || *len >= HVPMU_SV_NAME_MAX) {
		snprintf(err, n, "%s event in '%.96s'", *len ? "an overlong" : "an empty", list);
		return -1;
	}
	return 0;
}

/* hvpmu_sv_request_events: hv_gpci events (perf's syntax: commas inside
 * the slashes) and the model's counts by name, in the list's order; on a
 * machine without a PAPR CEC, none. */
static int request(const struct hvpmu_md *md, const char *list, struct stat_request *rq, struct hvpmu_sv_event *ev,
		   char (*names)[HVPMU_SV_NAME_MAX], unsigned *nev, char *err, size_t n, int given)
{
	const char *p = list;

	if (given && !md->cec.nchips) {
		snprintf(err, n, "platform power: -e needs the machine's PAPR CEC (without -e, the model's "
			 "instruction counts)");
		return -1;
	}
	while (*p) {
		size_t len;

		if (*nev == HVPMU_SV_MAX_EVENTS) {
			snprintf(err, n, "too many events (at most %u)", HVPMU_SV_MAX_EVENTS);
			return -1;
		}
		memset(&ev[*nev], 0, sizeof ev[*nev]);
		if (parse_item(p, list, rq, &ev[*nev], &len, err, n, given))
			return -1;
		memcpy(names[*nev], p, len);
		names[*nev][len] = 0;
		snprintf(ev[*nev].name, sizeof ev[*nev].name, "%s", names[*nev]);
		if (!IS_CTR(ev[*nev].config))
			ev[*nev].modes = HVPMU_SV_MODE_USER;
		++*nev;
		p += len;
		if (*p == ',' && !*++p) {
			snprintf(err, n, "an empty event at the end of '%.96s'", list);
			return -1;
		}
	}
	return 0;
}

/* hvpmu_sv_result_counts: the driver's counts (rs->count[k] of rq->ev[k],
 * multiplexed and scaled by the driver), hv_gpci's and the model's (each
 * counted the whole run), in the list's order. */
static void result(const struct hvpmu_sv_event *ev, unsigned nev, struct stat_result *rs)
{
	static struct hvpmu_sv_count drv[HVPMU_SV_MAX_EVENTS]; /* (large: not on the stack) */
	unsigned ndrv = rs->nevents < HVPMU_SV_MAX_EVENTS ? rs->nevents : HVPMU_SV_MAX_EVENTS;
	uint64_t ran = rs->tick ? rs->tick : 1;

	memcpy(drv, rs->count, ndrv * sizeof drv[0]);
	rs->nevents = 0;
	for (unsigned k = 0; k < nev && k < HVPMU_SV_MAX_EVENTS; k++) {
		struct hvpmu_sv_count *c = &rs->count[rs->nevents];

		if (IS_CTR(ev[k].config)) {
			uint64_t d = (ev[k].config & ~POWER_CTR) >> CTR_INDEX_SHIFT;

			if (d < ndrv)
				*c = drv[d];
			else /* (a run that ended before the driver published) */
				*c = (struct hvpmu_sv_count){ .supported = 0 };
			snprintf(rs->name[rs->nevents], sizeof rs->name[rs->nevents], "%s", ev[k].name);
			rs->nevents++;
			continue;
		}
		if (ev[k].config & POWER_GPCI) {
			uint64_t g = ev[k].config & ~POWER_GPCI;
			const struct stat_gpci *s = g < rs->ngpci ? &rs->gpci[g] : NULL;

			*c = (struct hvpmu_sv_count){ .supported = s && s->supported, .raw = s ? s->value : 0,
						      .enabled = ran, .running = ran };
		} else {
			uint64_t v = ev[k].config ? rs->generic[ev[k].config - 1] : rs->retired;

			*c = (struct hvpmu_sv_count){ .supported = 1, .raw = v, .enabled = ran, .running = ran };
		}
		c->scaled = (double)c->raw;
		snprintf(rs->name[rs->nevents], sizeof rs->name[rs->nevents], "%s", ev[k].name);
		rs->nevents++;
	}
}

/* hvpmu_sv_count_refusal: as perf, the event <not supported>, and why. */
static const char *refusal(const struct hvpmu_sv_event *ev, const struct stat_result *rs, char *buf, size_t n)
{
	uint64_t g = ev->config & ~POWER_GPCI;

	if (IS_CTR(ev->config)) {
		const struct hvpmu_power7_event *e = hvpmu_power7_event_of(CODE_OF(ev->config));
		uint64_t code = CODE_OF(ev->config);

		if (!e)
			snprintf(buf, n, "no POWER7 event has code 0x%05llx", (unsigned long long)code);
		else if (e->src == HVPMU_P7_SRC_NONE)
			snprintf(buf, n, "%s (0x%05llx) is not modeled: %s", e->name, (unsigned long long)code,
				 hvpmu_power7_event_desc(e));
		else if (hvpmu_power7_event_check_constraints(&code, 1, 1))
			snprintf(buf, n, "no POWER7 PMC can count 0x%05llx (power7_get_constraint)",
				 (unsigned long long)code);
		else
			return NULL;
		return buf;
	}

	if (!(ev->config & POWER_GPCI) || g >= rs->ngpci || rs->gpci[g].supported)
		return NULL;
	snprintf(buf, n, "the hypervisor refused H_GetPerformanceCounterInfo (%s)",
		 hvpmu_gpci_status_name(rs->gpci[g].status));
	return buf;
}

const struct hvpmu_sv_backend sv_backend_power = {
	.desc = {
		.name = "power",
		.title = "POWER7 core events (-p power; power7-events-list.h, rXXXXX, docs/power7-pmu.md) and "
			 "PAPR hv_gpci events (hv_gpci/NAME,PARAM=N/; H_GetPerformanceCounterInfo)",
		.alias_title = "POWER7 generic aliases (perf's names), then the model's counts (-p power; hvpmu stat "
			       "without -e reports the model's counts):",
		.raw_help = "  raw: rXXXXX (POWER7 event code, config:0-19; :u :k :h), "
			    "hv_gpci/request=R,starting_index=I,secondary_index=S,counter_info_version=V,offset=O,length=L/",
		.cpustat_title = "POWER7 events (pic0..pic5 = PMC1-6; power7-events-list.h, rXXXXX, perf's names)",
		.tick_name = "cycles",
		.default_events = "instructions:u,loads:u,stores:u,fp-instructions:u,branch-instructions:u,"
				  "spr-instructions:u,other-instructions:u,syscalls:u,taken-cond-branches:u",
		.npic = HVPMU_P7_NPMC,
		.modes = SV_P7_MODES,
		.emask = 0,
		.mode_help = "power: :u, :k, :h (MMCR0 FCP, FCS, FCH)",
	},
	.platform = HVPMU_PLATFORM_POWER,
	.ops = &sv_pcbe_power7, /* the -e events that name POWER7 counters */
	.event = event,
	.alias = alias,
	.lookup = lookup,
	.supported = supported,
	.pics = pics,
	.fit = fit,
	.generic = generic,
	.reads = features,
	.features = features,
	.request = request,
	.result = result,
	.refusal = refusal,
};
