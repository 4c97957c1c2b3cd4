/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf-stat-style output: default table, CSV (-x SEP), JSON lines (-j). */
#ifndef HVPMU_TOOLS_OUTPUT_H
#define HVPMU_TOOLS_OUTPUT_H

#include <stdio.h>
#include <hvpmu/session.h>

enum out_format { OUT_TABLE, OUT_CSV, OUT_JSON };

struct run_times {
	double elapsed, user, sys; /* seconds, host wall clock and child rusage */
};

/* Print the counts of `rs` (events `ev` of back-end `be`, same order) for
 * `cmdline` in perf stat's layout, with perf's "insn per cycle" metric on
 * an all-instructions event when a cycles event was counted too; names[i]
 * (NULL: rs->name) is event i's name as typed. */
struct hvpmu_sv_backend;
void print_stat(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
		const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, const struct stat_result *rs,
		const char *const *names, const struct run_times *t);

/* The same, one block per guest process of a service's run (`hvpmu stat
 * --per-process`, as perf stat --per-thread): each line starts with the
 * process's COMM-PID (table: a column; CSV: the first field; JSON: the
 * "thread" key). */
void print_stat_per_process(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
			    const struct stat_result *rs, const struct run_times *t);

#endif
