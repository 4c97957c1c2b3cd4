/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf stat output formats (../shared/reference/anchors.md §4.1):
 *  - default: "Performance counter stats for '...':", one line per event
 *    (value right-aligned in 18 columns, event name, "(NN.NN%)" when the
 *    event was multiplexed), then elapsed / user / sys seconds;
 *  - -x SEP: value, unit, event, run time (ns), percentage running,
 *    metric value, metric unit;
 *  - -j: one JSON object per event with perf's keys.
 * Run time is the modeled time the event was on a PIC: cycles / clock.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <hvpmu/supervisor.h>
#include "output.h"

#define NS_PER_S 1e9
#define IPC_UNIT "insn per cycle"
#define NOT_SUPPORTED "<not supported>"
#define NOT_COUNTED "<not counted>"

/* perf's running percentage (tools/perf/util/stat-display.c,
 * print_running_csv): 100 when the event ran all its enabled time (or
 * neither: a <not supported> event, whose counter perf never opened),
 * else running / enabled -- 0.00 for a <not counted> event that never
 * ran, never 100.00 over work it did not count. */
static double pcnt(const struct hvpmu_sv_count *c)
{
	if (!c->supported || c->running == c->enabled || !c->enabled)
		return 100.0;
	return 100.0 * (double)c->running / (double)c->enabled;
}

static unsigned long long runtime_ns(const struct hvpmu_sv_count *c, uint64_t hz)
{
	return hz ? (unsigned long long)((double)c->running * NS_PER_S / (double)hz) : 0;
}

static const char *status_text(const struct hvpmu_sv_count *c)
{
	if (!c->supported)
		return NOT_SUPPORTED;
	return c->running ? NULL : NOT_COUNTED;
}

static int status_ok(const struct hvpmu_sv_count *c)
{
	return status_text(c) == NULL;
}

/* perf's IPC metric: instructions / cycles counted in the same modes
 * (the events' generic meanings, hvpmu_sv_event_generic).  Returns 1 and
 * the value when event i counts all instructions. */
static int ipc_metric(const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev,
		      const struct stat_result *rs, unsigned i, double *ipc)
{
	if (!be || hvpmu_sv_event_generic(be, ev[i].config) != HVPMU_SV_GENERIC_INSTRUCTIONS ||
	    !status_ok(&rs->count[i]))
		return 0;
	for (unsigned j = 0; j < rs->nevents; j++)
		if (hvpmu_sv_event_generic(be, ev[j].config) == HVPMU_SV_GENERIC_CYCLES && ev[j].modes == ev[i].modes &&
		    status_ok(&rs->count[j]) && rs->count[j].scaled > 0) {
			*ipc = rs->count[i].scaled / rs->count[j].scaled;
			return 1;
		}
	return 0;
}

/* Event i's name: the caller's (names, e.g. an hv_gpci event as typed,
 * longer than a result's name) or the result's. */
#define NAME(i) (names ? names[i] : rs->name[i])

static void print_table(FILE *f, const char *cmdline, const struct hvpmu_sv_backend *be,
			const struct hvpmu_sv_event *ev, const struct stat_result *rs, const char *const *names,
			const struct run_times *t)
{
	fprintf(f, "\n Performance counter stats for '%s':\n\n", cmdline);
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct hvpmu_sv_count *c = &rs->count[i];
		const char *txt = status_text(c);
		double ipc;

		if (txt) {
			fprintf(f, "%18s      %-25s\n", txt, NAME(i));
			continue;
		}
		if (c->running < c->enabled)
			fprintf(f, "%'18.0f      %-25s", c->scaled, NAME(i));
		else
			fprintf(f, "%'18llu      %-25s", (unsigned long long)c->raw, NAME(i));
		if (ipc_metric(be, ev, rs, i, &ipc))
			fprintf(f, " #  %6.2f  %s", ipc, IPC_UNIT);
		if (c->running < c->enabled)
			fprintf(f, "  (%.2f%%)", pcnt(c));
		fputc('\n', f);
	}
	fprintf(f, "\n%18.9f seconds time elapsed\n\n", t->elapsed);
	fprintf(f, "%18.9f seconds user\n", t->user);
	fprintf(f, "%18.9f seconds sys\n\n", t->sys);
}

static void print_csv(FILE *f, const char *sep, const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev,
		      const struct stat_result *rs, const char *const *names)
{
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct hvpmu_sv_count *c = &rs->count[i];
		const char *txt = status_text(c);
		double ipc;

		if (txt)
			csv_field(f, sep, 1, txt);
		else
			csv_fieldf(f, sep, 1, "%.0f", c->scaled);
		csv_field(f, sep, 0, "");
		csv_field(f, sep, 0, NAME(i));
		csv_fieldf(f, sep, 0, "%llu", runtime_ns(c, rs->clock_hz));
		csv_fieldf(f, sep, 0, "%.2f", pcnt(c));
		if (ipc_metric(be, ev, rs, i, &ipc)) {
			csv_fieldf(f, sep, 0, "%.2f", ipc);
			csv_field(f, sep, 0, IPC_UNIT);
		} else {
			csv_field(f, sep, 0, "");
			csv_field(f, sep, 0, "");
		}
		fputc('\n', f);
	}
}

static void print_json(FILE *f, const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev,
		       const struct stat_result *rs, const char *const *names)
{
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct hvpmu_sv_count *c = &rs->count[i];
		const char *txt = status_text(c);
		json_object *o = json_object_new_object();
		char val[64], pc[32], mv[32];
		double ipc = 0;
		int has_ipc = ipc_metric(be, ev, rs, i, &ipc);

		if (txt)
			snprintf(val, sizeof val, "%s", txt);
		else
			snprintf(val, sizeof val, "%f", c->scaled);
		snprintf(pc, sizeof pc, "%.2f", pcnt(c));
		json_object_object_add(o, "counter-value", json_object_new_string(val));
		json_object_object_add(o, "unit", json_object_new_string(""));
		json_object_object_add(o, "event", json_object_new_string(NAME(i)));
		json_object_object_add(o, "event-runtime", json_object_new_uint64(runtime_ns(c, rs->clock_hz)));
		json_object_object_add(o, "pcnt-running", json_object_new_double_s(pcnt(c), pc));
		snprintf(mv, sizeof mv, "%f", ipc);
		json_object_object_add(o, "metric-value", json_object_new_string(mv));
		json_object_object_add(o, "metric-unit", json_object_new_string(has_ipc ? IPC_UNIT : ""));
		fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED));
		json_object_put(o);
	}
}

void print_stat(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
		const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, const struct stat_result *rs,
		const char *const *names, const struct run_times *t)
{
	switch (fmt) {
	case OUT_CSV: print_csv(f, sep, be, ev, rs, names); break;
	case OUT_JSON: print_json(f, be, ev, rs, names); break;
	default: print_table(f, cmdline, be, ev, rs, names, t); break;
	}
}

/* Process k's share of event i as a count of the totals' kind. */
static struct hvpmu_sv_count proc_count(const struct stat_result *rs, unsigned k, unsigned i)
{
	const struct stat_proc *p = &rs->proc[k];
	struct hvpmu_sv_count c = { .supported = rs->count[i].supported, .raw = p->raw[i],
				    .enabled = p->enabled, .running = p->running[i] };

	/* scaled only when the event was multiplexed: enabled time is the
	 * threads' %tick, which also moves while they wait (idle) */
	if (c.running > c.enabled || rs->count[i].running >= rs->count[i].enabled)
		c.enabled = c.running;
	c.scaled = c.running && c.running < c.enabled ? (double)c.raw * (double)c.enabled / (double)c.running
						      : (double)c.raw;
	return c;
}

void print_stat_per_process(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
			    const struct stat_result *rs, const struct run_times *t)
{
	if (fmt == OUT_TABLE)
		fprintf(f, "\n Performance counter stats for '%s':\n\n", cmdline);
	for (unsigned k = 0; k < rs->nproc; k++)
		for (unsigned i = 0; i < rs->nevents; i++) {
			struct hvpmu_sv_count c = proc_count(rs, k, i);
			const char *txt = !c.supported ? NOT_SUPPORTED : NULL;
			char who[48];

			snprintf(who, sizeof who, "%s-%d", rs->proc[k].comm, (int)rs->proc[k].pid);
			if (fmt == OUT_CSV) {
				csv_field(f, sep, 1, who);
				if (txt)
					csv_field(f, sep, 0, txt);
				else
					csv_fieldf(f, sep, 0, "%.0f", c.scaled);
				csv_field(f, sep, 0, "");
				csv_field(f, sep, 0, rs->name[i]);
				csv_fieldf(f, sep, 0, "%llu", runtime_ns(&c, rs->clock_hz));
				csv_fieldf(f, sep, 0, "%.2f", pcnt(&c));
				csv_field(f, sep, 0, "");
				csv_field(f, sep, 0, "");
				fputc('\n', f);
			} else if (fmt == OUT_JSON) {
				json_object *o = json_object_new_object();
				char val[64], pc[32];

				if (txt)
					snprintf(val, sizeof val, "%s", txt);
				else
					snprintf(val, sizeof val, "%f", c.scaled);
				snprintf(pc, sizeof pc, "%.2f", pcnt(&c));
				json_object_object_add(o, "thread", json_object_new_string(who));
				json_object_object_add(o, "counter-value", json_object_new_string(val));
				json_object_object_add(o, "unit", json_object_new_string(""));
				json_object_object_add(o, "event", json_object_new_string(rs->name[i]));
				json_object_object_add(o, "event-runtime",
						       json_object_new_uint64(runtime_ns(&c, rs->clock_hz)));
				json_object_object_add(o, "pcnt-running", json_object_new_double_s(pcnt(&c), pc));
				fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED));
				json_object_put(o);
			} else if (txt) {
				fprintf(f, "%24s %18s      %s\n", who, txt, rs->name[i]);
			} else {
				fprintf(f, "%24s %'18.0f      %s", who, c.scaled, rs->name[i]);
				if (c.running < c.enabled)
					fprintf(f, "  (%.2f%%)", pcnt(&c));
				fputc('\n', f);
			}
		}
	if (fmt == OUT_TABLE) {
		fprintf(f, "\n%18.9f seconds time elapsed\n\n", t->elapsed);
		fprintf(f, "%18.9f seconds user\n", t->user);
		fprintf(f, "%18.9f seconds sys\n\n", t->sys);
	}
}
