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
 * an all-instructions event when a cycles event was counted too. */
struct hvpmu_sv_backend;
void print_stat(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
		const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, const struct stat_result *rs,
		const struct run_times *t);

/* The model's own counts (rs->retired and rs->generic) in the same
 * layout, as events named instructions:u, loads:u, ...: what `hvpmu stat`
 * without -e reports on a platform without a CPU counter driver
 * (docs/cli.md).  Each was counted the whole run (rs->tick cycles). */
void print_stat_model(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
		      const struct stat_result *rs, const struct run_times *t);

/* The model's counts by name: the index of `name` (len bytes: one of
 * instructions:u, loads:u, ...; 0 = instructions, 1 + enum stat_generic),
 * or -1; and the name of index i (NULL past the last). */
int stat_model_index(const char *name, size_t len);
const char *stat_model_name(unsigned i);

/* `hvpmu stat -p power -e LIST` (docs/cli.md): in the list's order, each
 * item a model count (gpci -1, model its index) or an hv_gpci event
 * (gpci its index into rs->gpci), printed under `name` (as typed); an
 * hv_gpci event the hypervisor refused is <not supported>. */
struct stat_power_item {
	const char *name;
	int gpci;
	unsigned model;
};
void print_stat_power(FILE *f, enum out_format fmt, const char *sep, const char *cmdline, const struct stat_result *rs,
		      const struct run_times *t, const struct stat_power_item *items, unsigned nitems);

/* The same, one block per guest process of a service's run (`hvpmu stat
 * --per-process`, as perf stat --per-thread): each line starts with the
 * process's COMM-PID (table: a column; CSV: the first field; JSON: the
 * "thread" key). */
void print_stat_per_process(FILE *f, enum out_format fmt, const char *sep, const char *cmdline,
			    const struct stat_result *rs, const struct run_times *t);

#endif
