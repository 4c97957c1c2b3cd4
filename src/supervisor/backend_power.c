/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The POWER back-end as the tools see it (struct hvpmu_sv_backend): no CPU
 * counter (PMC) driver yet (docs/power-platform.md), so `hvpmu stat -p
 * power` counts with what the partition's OS can reach without one: the
 * PAPR firmware's hv_gpci events (perf's syntax, hvpmu/gpci.h,
 * docs/papr-gpci.md "hv_gpci events"), and the model's own counts by
 * instruction class, by name (instructions:u, loads:u, ...).  Without -e
 * a run reports every model count.  Its list section is the named hv_gpci
 * events, then the model counts.
 *
 * An event's config: the model count's index (0: instructions, 1 + enum
 * stat_generic), or POWER_GPCI | its hv_gpci event's index in the
 * request (rq->gpci).
 */
#include <stdio.h>
#include <string.h>
#include <hvpmu/session.h>
#include "sv_internal.h"

#define POWER_GPCI (UINT64_C(1) << 32)

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

/* `hvpmu list`: a named hv_gpci event, NAME,PARAM=N (Linux's sysfs form;
 * -e hv_gpci/NAME,PARAM=N/ counts it). */
static int event(unsigned i, struct hvpmu_sv_event_info *out)
{
	const struct hvpmu_gpci_named_event *ne = hvpmu_gpci_named_event_at(i);
	static char names[64][160]; /* (the list is constant: one name per event, filled alike each time) */

	if (!ne || i >= sizeof names / sizeof names[0])
		return HVPMU_ERANGE;
	snprintf(names[i], sizeof names[i], "%s,%s=N", ne->name, ne->index_param);
	out->name = names[i];
	out->config = POWER_GPCI | i;
	out->supported = 1;
	snprintf(out->text, sizeof out->text, "request 0x%x, %u bytes: %s", (unsigned)ne->request,
		 (unsigned)ne->length, ne->field);
	return HVPMU_OK;
}

/* `hvpmu list`'s second part: the model's counts. */
static int alias(unsigned i, struct hvpmu_sv_event_info *out)
{
	if (i >= NMODEL)
		return HVPMU_ERANGE;
	out->name = model_names[i];
	out->config = i;
	out->supported = 1;
	snprintf(out->text, sizeof out->text, "the model's count (user mode)");
	return HVPMU_OK;
}

/* hvpmu_sv_parse_events: no CPU counter to place an event on. */
static int lookup(const char *tok, const char *base, uint64_t *config, char *err, size_t errlen)
{
	(void)base; (void)config;
	snprintf(err, errlen, "platform power has no CPU counter driver: '%s' cannot count on a counter", tok);
	return -1;
}

static int supported(uint64_t config) { (void)config; return 1; }

/* One event of the list at p (hv_gpci/.../ or a model count) into ev,
 * its hv_gpci event into rq; *len: the characters it spans. */
static int parse_item(const char *p, const char *list, struct stat_request *rq, struct hvpmu_sv_event *ev,
		      size_t *len, char *err, size_t n)
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
		*len = strcspn(p, ",");
		if ((m = model_index(p, *len)) < 0) {
			snprintf(err, n, "platform power has no CPU counter driver: event '%.*s' is neither an "
				 "hv_gpci/.../ event nor a model count (instructions:u, loads:u, ...)",
				 (int)(*len > 96 ? 96 : *len), p);
			return -1;
		}
		ev->config = (uint64_t)m;
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
		snprintf(err, n, "platform power has no CPU counter driver: no -e (without them, the model's "
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
		if (parse_item(p, list, rq, &ev[*nev], &len, err, n))
			return -1;
		memcpy(names[*nev], p, len);
		names[*nev][len] = 0;
		snprintf(ev[*nev].name, sizeof ev[*nev].name, "%s", names[*nev]);
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

/* hvpmu_sv_result_counts: each event counted the whole run, as the
 * model's counts do. */
static void result(const struct hvpmu_sv_event *ev, unsigned nev, struct stat_result *rs)
{
	uint64_t ran = rs->tick ? rs->tick : 1;

	rs->nevents = 0;
	for (unsigned k = 0; k < nev && k < HVPMU_SV_MAX_EVENTS; k++) {
		struct hvpmu_sv_count *c = &rs->count[rs->nevents];

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

	if (!(ev->config & POWER_GPCI) || g >= rs->ngpci || rs->gpci[g].supported)
		return NULL;
	snprintf(buf, n, "the hypervisor refused H_GetPerformanceCounterInfo (%s)",
		 hvpmu_gpci_status_name(rs->gpci[g].status));
	return buf;
}

const struct hvpmu_sv_backend sv_backend_power = {
	.desc = {
		.name = "power",
		.title = "PAPR hv_gpci events (-p power: hv_gpci/NAME,PARAM=N/; H_GetPerformanceCounterInfo)",
		.alias_title = "The model's counts (-p power; hvpmu stat without -e reports them all):",
		.raw_help = "  raw: hv_gpci/request=R,starting_index=I,secondary_index=S,counter_info_version=V,"
			    "offset=O,length=L/",
		.cpustat_title = NULL, /* no counters: nothing for cpustat */
		.tick_name = "cycles",
		.default_events = "instructions:u,loads:u,stores:u,fp-instructions:u,branch-instructions:u,"
				  "spr-instructions:u,other-instructions:u,syscalls:u,taken-cond-branches:u",
		.npic = 0,
		.modes = HVPMU_SV_MODE_USER,
		.emask = 0,
		.mode_help = "power: the model counts user mode",
	},
	.platform = HVPMU_PLATFORM_POWER,
	.ops = NULL, /* no guest driver: the session reports the model's counts */
	.event = event,
	.alias = alias,
	.lookup = lookup,
	.supported = supported, /* no counter, nothing of the model, no device: the rest NULL */
	.request = request,
	.result = result,
	.refusal = refusal,
};
