/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hvpmu CLI subcommands. */
#ifndef HVPMU_TOOLS_TOOLS_H
#define HVPMU_TOOLS_TOOLS_H

#include <stddef.h>
#include "output.h"

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_busstat(int argc, char **argv);
int cmd_mmustat(int argc, char **argv);
int cmd_cpustat(int argc, char **argv);

/* Exit statuses of the tools. */
#define EXIT_USAGE 129
#define EXIT_NOEXEC 126
#define EXIT_NOTFOUND 127

/*
 * Run argv[0] (a sparc64 program; PATH-searched like execvp) with argv
 * under qemu-sparc64 and the hvpmu plugin with request *rq (its `out` is
 * filled in).  On success *ok = 1 and *rs / *t hold the plugin's result
 * (free with stat_result_free) and the host times.  Errors print one line
 * prefixed by `tool`.  Returns the program's exit status (128 + signal),
 * or EXIT_NOTFOUND / EXIT_NOEXEC.
 */
int run_guest(const char *tool, struct stat_request *rq, int argc, char **argv, struct stat_result *rs,
	      struct run_times *t, int *ok);
/*
 * `--md FILE`: load the machine description (hvpmu/md.h hvpmu_md_load),
 * based on rq->platform ("" = t4), into *md, and record its absolute path
 * and platform in *rq for the plugin.  `file` NULL: the built-in
 * description.  platform_given: the command line chose rq->platform, which
 * the file may not contradict.  Errors print one line prefixed by `tool`
 * and return -1.
 */
struct hvpmu_md;
int tool_load_md(const char *tool, const char *file, int platform_given, struct stat_request *rq,
		 struct hvpmu_md *md);
/*
 * After getopt (argv[*next] the first operand): `[interval [count]] --
 * PROGRAM [ARGS]` as busstat(8) and cpustat(8) take them - interval
 * positive seconds (fractions allowed), count a positive integer - each
 * stored only when given.  Returns 0 with *next the index of PROGRAM
 * (argc when there is none), or -1 after one error line prefixed by `tool`.
 */
int parse_interval_count(const char *tool, int argc, char **argv, int *next, double *interval,
			 unsigned long *count);
/* `-p` / `--platform NAME`: a built-in description (hvpmu_md_by_name),
 * recorded in rq->platform and filled into *named.  Errors print one line
 * prefixed by `tool` and return -1. */
int tool_set_platform(const char *tool, const char *name, struct stat_request *rq, struct hvpmu_md *named);
/* Locate libhvpmu_plugin.so: $HVPMU_PLUGIN, beside the executable, or the
 * install directory.  Returns 0 or -1. */
int find_plugin(char *out, size_t n);

#endif
