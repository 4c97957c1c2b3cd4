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

/* What an event is to perf's derived metrics: its generic name when its
 * config is that of the back-end's alias of that name (T4's Br_mispred is
 * branch-misses), else the name as typed without modifiers. */
static int is_generic(const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, const char *typed,
		      const char *generic)
{
	struct hvpmu_sv_event_info e;
	size_t n = strcspn(typed, ":");

	if (strlen(generic) == n && strncmp(typed, generic, n) == 0)
		return 1;
	for (unsigned k = 0; be && hvpmu_sv_backend_alias(be, k, &e) == HVPMU_OK; k++)
		if (strcmp(e.name, generic) == 0 && e.config == ev->config && ev->config)
			return 1;
	return 0;
}

/* perf's ratio metrics (tools/perf/util/stat-shadow.c): event, the event
 * it is a share of, the unit printed after "NN.NN%" */
static const struct ratio_metric {
	const char *event, *of, *of2, *unit;
} ratios[] = {
	{ "branch-misses", "branches", "branch-instructions", "of all branches" },
	{ "cache-misses", "cache-references", NULL, "of all cache refs" },
	{ "L1-dcache-load-misses", "L1-dcache-loads", NULL, "of all L1-dcache accesses" },
	{ "L1-icache-load-misses", "L1-icache-loads", NULL, "of all L1-icache accesses" },
	{ "LLC-load-misses", "LLC-loads", NULL, "of all LL-cache accesses" },
	{ "dTLB-load-misses", "dTLB-loads", NULL, "of all dTLB cache accesses" },
	{ "iTLB-load-misses", "iTLB-loads", NULL, "of all iTLB cache accesses" },
};

/* Event j counted in the same modes as event i, with a count. */
static int partner_ok(const struct hvpmu_sv_event *ev, const struct stat_result *rs, unsigned i, unsigned j)
{
	return ev[j].modes == ev[i].modes && status_ok(&rs->count[j]) && rs->count[j].scaled > 0;
}

/* Event i's derived metric (perf's comment after '#'): *val, *unit and
 * the table's value format; 0 when it has none.  insn per cycle on an
 * all-instructions event with cycles counted in the same modes (the
 * generic meanings, hvpmu_sv_event_generic); GHz on cycles (per modeled
 * second of the run, secs); the ratio metrics above. */
static int metric(const struct out_opts *o, const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev,
		  const struct stat_result *rs, const char *const *names, unsigned i, double *val, const char **unit,
		  const char **fmt)
{
	const char *name = names ? names[i] : rs->name[i];

	if (!be || !status_ok(&rs->count[i]))
		return 0;
	if (hvpmu_sv_event_generic(be, ev[i].config) == HVPMU_SV_GENERIC_INSTRUCTIONS)
		for (unsigned j = 0; j < rs->nevents; j++)
			if (hvpmu_sv_event_generic(be, ev[j].config) == HVPMU_SV_GENERIC_CYCLES && partner_ok(ev, rs, i, j)) {
				*val = rs->count[i].scaled / rs->count[j].scaled;
				*unit = IPC_UNIT;
				*fmt = "%7.2f ";
				return 1;
			}
	if (hvpmu_sv_event_generic(be, ev[i].config) == HVPMU_SV_GENERIC_CYCLES && o && o->modeled_s > 0) {
		*val = rs->count[i].scaled / o->modeled_s / 1e9;
		*unit = "GHz";
		*fmt = "%8.3f";
		return 1;
	}
	for (size_t r = 0; r < sizeof ratios / sizeof ratios[0]; r++) {
		if (!is_generic(be, &ev[i], name, ratios[r].event))
			continue;
		for (unsigned j = 0; j < rs->nevents; j++) {
			const char *nj = names ? names[j] : rs->name[j];

			if (j != i && partner_ok(ev, rs, i, j) &&
			    (is_generic(be, &ev[j], nj, ratios[r].of) ||
			     (ratios[r].of2 && is_generic(be, &ev[j], nj, ratios[r].of2)))) {
				*val = 100.0 * rs->count[i].scaled / rs->count[j].scaled;
				*unit = ratios[r].unit;
				*fmt = "%7.2f%%";
				return 1;
			}
		}
	}
	return 0;
}

/* Event i's name: the caller's (names, e.g. an hv_gpci event as typed,
 * longer than a result's name) or the result's. */
#define NAME(i) (names ? names[i] : rs->name[i])

/* The value of a metric as perf's CSV and JSON print it: the table's
 * format, spaces and the '%' dropped (stat-display.c print_metric_csv). */
static const char *metric_digits(char *buf, size_t n, const char *fmt, double v)
{
	char *p, *e;

	snprintf(buf, n, fmt, v);
	for (p = buf; *p == ' '; p++)
		;
	for (e = p; (*e >= '0' && *e <= '9') || *e == '.' || *e == '-'; e++)
		;
	*e = 0;
	return p;
}

static void print_table_rows(FILE *f, const struct out_opts *o, const struct hvpmu_sv_backend *be,
			     const struct hvpmu_sv_event *ev, const struct stat_result *rs, const char *const *names)
{
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct hvpmu_sv_count *c = &rs->count[i];
		const char *txt = status_text(c), *unit, *fmt;
		double v;
		char mv[48];

		if (o && o->interval >= 0)
			fprintf(f, "%16.9f ", o->interval);
		if (txt) {
			fprintf(f, "%18s      %-25s\n", txt, NAME(i));
			continue;
		}
		if (c->running < c->enabled || (o && o->noise))
			fprintf(f, "%'18.0f      %-25s", c->scaled, NAME(i));
		else
			fprintf(f, "%'18llu      %-25s", (unsigned long long)c->raw, NAME(i));
		if (metric(o, be, ev, rs, names, i, &v, &unit, &fmt)) {
			snprintf(mv, sizeof mv, fmt, v);
			fprintf(f, " # %s %s", mv, unit);
		}
		if (o && o->noise && o->noise[i] != 0.0) /* (perf's print_noise_pct: none when 0) */
			fprintf(f, "  ( +-%6.2f%% )", o->noise[i]);
		if (c->running < c->enabled)
			fprintf(f, "  (%.2f%%)", pcnt(c));
		fputc('\n', f);
	}
}

static void print_footer(FILE *f, const struct out_opts *o, const struct run_times *t)
{
	if (o && o->runs > 1)
		fprintf(f, "\n%18.9f +- %.9f seconds time elapsed  ( +-%6.2f%% )\n", t->elapsed, o->elapsed_sd,
			t->elapsed ? 100.0 * o->elapsed_sd / t->elapsed : 0.0);
	else
		fprintf(f, "\n%18.9f seconds time elapsed\n", t->elapsed);
	/* hvpmu's: the modeled machine's time beside the host's */
	if (o && o->clock_hz)
		fprintf(f, "%18.9f seconds modeled time (%.3f GHz machine)\n", o->modeled_s, (double)o->clock_hz / 1e9);
	fprintf(f, "\n%18.9f seconds user\n", t->user);
	fprintf(f, "%18.9f seconds sys\n\n", t->sys);
}

static void print_table(FILE *f, const struct out_opts *o, const char *cmdline, const struct hvpmu_sv_backend *be,
			const struct hvpmu_sv_event *ev, const struct stat_result *rs, const char *const *names,
			const struct run_times *t)
{
	if (o && o->runs > 1)
		fprintf(f, "\n Performance counter stats for '%s' (%u runs):\n\n", cmdline, o->runs);
	else
		fprintf(f, "\n Performance counter stats for '%s':\n\n", cmdline);
	print_table_rows(f, o, be, ev, rs, names);
	print_footer(f, o, t);
}

static void print_csv(FILE *f, const struct out_opts *o, const char *sep, const struct hvpmu_sv_backend *be,
		      const struct hvpmu_sv_event *ev, const struct stat_result *rs, const char *const *names)
{
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct hvpmu_sv_count *c = &rs->count[i];
		const char *txt = status_text(c), *unit, *fmt;
		double v;
		char mv[48];
		int first = 1;

		if (o && o->interval >= 0) {
			csv_fieldf(f, sep, 1, "%.9f", o->interval);
			first = 0;
		}
		if (txt)
			csv_field(f, sep, first, txt);
		else
			csv_fieldf(f, sep, first, "%.0f", c->scaled);
		csv_field(f, sep, 0, "");
		csv_field(f, sep, 0, NAME(i));
		csv_fieldf(f, sep, 0, "%llu", runtime_ns(c, rs->clock_hz));
		csv_fieldf(f, sep, 0, "%.2f", pcnt(c));
		if (o && o->noise) /* perf's variance field (-r) */
			csv_fieldf(f, sep, 0, "%.2f%%", o->noise[i]);
		if (metric(o, be, ev, rs, names, i, &v, &unit, &fmt)) {
			csv_field(f, sep, 0, metric_digits(mv, sizeof mv, fmt, v));
			csv_field(f, sep, 0, unit);
		} else {
			csv_field(f, sep, 0, "");
			csv_field(f, sep, 0, "");
		}
		fputc('\n', f);
	}
}

static void print_json(FILE *f, const struct out_opts *o, const struct hvpmu_sv_backend *be,
		       const struct hvpmu_sv_event *ev, const struct stat_result *rs, const char *const *names)
{
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct hvpmu_sv_count *c = &rs->count[i];
		const char *txt = status_text(c), *unit = "", *fmt;
		json_object *obj = json_object_new_object();
		char val[64], pc[32], mv[32], ts[32];
		double v = 0;
		int has = metric(o, be, ev, rs, names, i, &v, &unit, &fmt);

		if (o && o->interval >= 0) {
			snprintf(ts, sizeof ts, "%.9f", o->interval);
			json_object_object_add(obj, "interval", json_object_new_double_s(o->interval, ts));
		}
		if (txt)
			snprintf(val, sizeof val, "%s", txt);
		else
			snprintf(val, sizeof val, "%f", c->scaled);
		snprintf(pc, sizeof pc, "%.2f", pcnt(c));
		json_object_object_add(obj, "counter-value", json_object_new_string(val));
		json_object_object_add(obj, "unit", json_object_new_string(""));
		json_object_object_add(obj, "event", json_object_new_string(NAME(i)));
		json_object_object_add(obj, "event-runtime", json_object_new_uint64(runtime_ns(c, rs->clock_hz)));
		json_object_object_add(obj, "pcnt-running", json_object_new_double_s(pcnt(c), pc));
		if (o && o->noise) {
			char nv[32];

			snprintf(nv, sizeof nv, "%.2f", o->noise[i]);
			json_object_object_add(obj, "variance", json_object_new_double_s(o->noise[i], nv));
		}
		snprintf(mv, sizeof mv, "%f", has ? v : 0.0);
		json_object_object_add(obj, "metric-value", json_object_new_string(mv));
		json_object_object_add(obj, "metric-unit", json_object_new_string(has ? unit : ""));
		fprintf(f, "%s\n", json_object_to_json_string_ext(obj, JSON_C_TO_STRING_SPACED));
		json_object_put(obj);
	}
}

void print_stat(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
		const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, const struct stat_result *rs,
		const char *const *names, const struct run_times *t)
{
	print_stat_opts(f, fmt, sep, cmdline, be, ev, rs, names, t, NULL);
}

void print_stat_opts(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
		     const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, const struct stat_result *rs,
		     const char *const *names, const struct run_times *t, const struct out_opts *o)
{
	switch (fmt) {
	case OUT_CSV: print_csv(f, o, sep, be, ev, rs, names); break;
	case OUT_JSON: print_json(f, o, be, ev, rs, names); break;
	default:
		if (o && o->interval >= 0)
			print_table_rows(f, o, be, ev, rs, names);
		else
			print_table(f, o, cmdline, be, ev, rs, names, t);
		break;
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
			    const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev,
			    const struct stat_result *rs, const struct run_times *t, const struct out_opts *o)
{
	static struct stat_result one; /* a process's counts, for its metrics (large: not on the stack) */

	if (fmt == OUT_TABLE)
		fprintf(f, "\n Performance counter stats for '%s':\n\n", cmdline);
	one = *rs;
	one.proc = NULL;
	for (unsigned k = 0; k < rs->nproc; k++) {
		for (unsigned i = 0; i < rs->nevents; i++)
			one.count[i] = proc_count(rs, k, i);
		for (unsigned i = 0; i < rs->nevents; i++) {
			struct hvpmu_sv_count c = one.count[i];
			const char *txt = !c.supported ? NOT_SUPPORTED : NULL, *unit = "", *mfmt;
			char who[48], mv[48];
			double v = 0;
			/* (GHz is the whole run's: a process's modeled time is not kept) */
			int has = metric(NULL, be, ev, &one, NULL, i, &v, &unit, &mfmt);

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
				csv_field(f, sep, 0, has ? metric_digits(mv, sizeof mv, mfmt, v) : "");
				csv_field(f, sep, 0, has ? unit : "");
				fputc('\n', f);
			} else if (fmt == OUT_JSON) {
				json_object *obj = json_object_new_object();
				char val[64], pc[32];

				if (txt)
					snprintf(val, sizeof val, "%s", txt);
				else
					snprintf(val, sizeof val, "%f", c.scaled);
				snprintf(pc, sizeof pc, "%.2f", pcnt(&c));
				json_object_object_add(obj, "thread", json_object_new_string(who));
				json_object_object_add(obj, "counter-value", json_object_new_string(val));
				json_object_object_add(obj, "unit", json_object_new_string(""));
				json_object_object_add(obj, "event", json_object_new_string(rs->name[i]));
				json_object_object_add(obj, "event-runtime",
						       json_object_new_uint64(runtime_ns(&c, rs->clock_hz)));
				json_object_object_add(obj, "pcnt-running", json_object_new_double_s(pcnt(&c), pc));
				snprintf(mv, sizeof mv, "%f", v);
				json_object_object_add(obj, "metric-value", json_object_new_string(mv));
				json_object_object_add(obj, "metric-unit", json_object_new_string(unit));
				fprintf(f, "%s\n", json_object_to_json_string_ext(obj, JSON_C_TO_STRING_SPACED));
				json_object_put(obj);
			} else if (txt) {
				fprintf(f, "%24s %18s      %s\n", who, txt, rs->name[i]);
			} else {
				fprintf(f, "%24s %'18.0f      %s", who, c.scaled, rs->name[i]);
				if (has) {
					snprintf(mv, sizeof mv, mfmt, v);
					fprintf(f, "%*s # %s %s", (int)(strlen(rs->name[i]) < 25 ? 25 - strlen(rs->name[i]) : 0),
						"", mv, unit);
				}
				if (c.running < c.enabled)
					fprintf(f, "  (%.2f%%)", pcnt(&c));
				fputc('\n', f);
			}
		}
	}
	if (fmt == OUT_TABLE)
		print_footer(f, o, t);
}
