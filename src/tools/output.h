/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf-stat-style output: default table, CSV (-x SEP), JSON lines (-j). */
#ifndef HVPMU_TOOLS_OUTPUT_H
#define HVPMU_TOOLS_OUTPUT_H

#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>
#include <hvpmu/session.h>

/* fmt.c: -x SEP checked (not empty, no quote or line break): 0, or -1
 * after one line prefixed by `tool`. */
int tool_separator(const char *tool, const char *sep);
/* 1 when CSV field s must be quoted (RFC 4180): it holds sep, a double
 * quote, or a line break. */
int csv_needs_quotes(const char *s, const char *sep);
/* One CSV field (after sep unless first), quoted only when it must be. */
void csv_field(FILE *f, const char *sep, int first, const char *s);
void csv_fieldf(FILE *f, const char *sep, int first, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* v as the shortest decimal that reads back as v, '.' its point, in buf. */
const char *shortest_double(char *buf, size_t n, double v);
/* A JSON number of v in that decimal (NULL, JSON null, when not finite). */
json_object *json_double_shortest(double v);

enum out_format { OUT_TABLE, OUT_CSV, OUT_JSON };

struct run_times {
	double elapsed, user, sys; /* seconds, host wall clock and child rusage */
};

/* What stat's options add to the layout (NULL: none). */
struct out_opts {
	double interval;      /* -I: this row's modeled time stamp (s), or < 0 */
	const double *noise;  /* -r: each event's relative stddev of the mean (%), or NULL */
	unsigned runs;        /* -r N: N (the header's "(N runs)"), else 0 or 1 */
	double elapsed_sd;    /* -r: the stddev of the mean of the elapsed time (s) */
	double modeled_s;     /* the run's modeled time (s): GHz, the footer */
	uint64_t clock_hz;    /* the machine's clock (the footer), 0: no modeled-time line */
};

/* Print the counts of `rs` (events `ev` of back-end `be`, same order) for
 * `cmdline` in perf stat's layout, with perf's "insn per cycle" metric on
 * an all-instructions event when a cycles event was counted too; names[i]
 * (NULL: rs->name) is event i's name as typed. */
struct hvpmu_sv_backend;
void print_stat(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
		const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, const struct stat_result *rs,
		const char *const *names, const struct run_times *t);
/* The same with stat's options: perf's derived metrics (insn per cycle,
 * GHz, "% of all branches" and the miss ratios), -I rows (table: rows
 * only, each stamped), -r's noise. */
void print_stat_opts(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
		     const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, const struct stat_result *rs,
		     const char *const *names, const struct run_times *t, const struct out_opts *o);

/* The same, one block per guest process of a service's run (`hvpmu stat
 * --per-process`, as perf stat --per-thread): each line starts with the
 * process's COMM-PID (table: a column; CSV: the first field; JSON: the
 * "thread" key). */
void print_stat_per_process(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
			    const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev,
			    const struct stat_result *rs, const struct run_times *t, const struct out_opts *o);

#endif
