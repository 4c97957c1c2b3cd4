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
#include "output.h"

#define NS_PER_S 1e9
#define NOT_SUPPORTED "<not supported>"
#define NOT_COUNTED "<not counted>"

static double pcnt(const struct hvpmu_sv_count *c)
{
	return c->enabled && c->running ? 100.0 * (double)c->running / (double)c->enabled : 100.0;
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

static void print_table(FILE *f, const char *cmdline, const struct stat_result *rs, const struct run_times *t)
{
	fprintf(f, "\n Performance counter stats for '%s':\n\n", cmdline);
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct hvpmu_sv_count *c = &rs->count[i];
		const char *txt = status_text(c);

		if (txt)
			fprintf(f, "%18s      %-25s\n", txt, rs->name[i]);
		else if (c->running < c->enabled)
			fprintf(f, "%'18.0f      %-25s  (%.2f%%)\n", c->scaled, rs->name[i], pcnt(c));
		else
			fprintf(f, "%'18llu      %-25s\n", (unsigned long long)c->raw, rs->name[i]);
	}
	fprintf(f, "\n%18.9f seconds time elapsed\n\n", t->elapsed);
	fprintf(f, "%18.9f seconds user\n", t->user);
	fprintf(f, "%18.9f seconds sys\n\n", t->sys);
}

static void print_csv(FILE *f, const char *sep, const struct stat_result *rs)
{
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct hvpmu_sv_count *c = &rs->count[i];
		const char *txt = status_text(c);

		if (txt)
			fprintf(f, "%s%s%s%s%s%llu%s%.2f%s%s\n", txt, sep, sep, rs->name[i], sep,
				runtime_ns(c, rs->clock_hz), sep, pcnt(c), sep, sep);
		else
			fprintf(f, "%.0f%s%s%s%s%llu%s%.2f%s%s\n", c->scaled, sep, sep, rs->name[i], sep,
				runtime_ns(c, rs->clock_hz), sep, pcnt(c), sep, sep);
	}
}

static void print_json(FILE *f, const struct stat_result *rs)
{
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct hvpmu_sv_count *c = &rs->count[i];
		const char *txt = status_text(c);
		json_object *o = json_object_new_object();
		char val[64], pc[32];

		if (txt)
			snprintf(val, sizeof val, "%s", txt);
		else
			snprintf(val, sizeof val, "%f", c->scaled);
		snprintf(pc, sizeof pc, "%.2f", pcnt(c));
		json_object_object_add(o, "counter-value", json_object_new_string(val));
		json_object_object_add(o, "unit", json_object_new_string(""));
		json_object_object_add(o, "event", json_object_new_string(rs->name[i]));
		json_object_object_add(o, "event-runtime", json_object_new_uint64(runtime_ns(c, rs->clock_hz)));
		json_object_object_add(o, "pcnt-running", json_object_new_double_s(pcnt(c), pc));
		json_object_object_add(o, "metric-value", json_object_new_string("0.000000"));
		json_object_object_add(o, "metric-unit", json_object_new_string(""));
		fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED));
		json_object_put(o);
	}
}

void print_stat(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
		const struct stat_result *rs, const struct run_times *t)
{
	switch (fmt) {
	case OUT_CSV: print_csv(f, sep, rs); break;
	case OUT_JSON: print_json(f, rs); break;
	default: print_table(f, cmdline, rs, t); break;
	}
}
