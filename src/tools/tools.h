/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hvpmu CLI subcommands. */
#ifndef HVPMU_TOOLS_TOOLS_H
#define HVPMU_TOOLS_TOOLS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include "output.h"

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_busstat(int argc, char **argv);
int cmd_mmustat(int argc, char **argv);
int cmd_cpustat(int argc, char **argv);
int cmd_mdperf(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_gpci(int argc, char **argv);
int cmd_plot(int argc, char **argv);

/* Exit statuses of the tools. */
#define EXIT_USAGE 129
#define EXIT_NOEXEC 126
#define EXIT_NOTFOUND 127

/*
 * The end of a tool's output.  tool_output_done: flush output file f
 * (`name` in messages; closed unless it is stdout or stderr) and check
 * that every write to it went through.  tool_streams_done: the same for
 * stdout and stderr (main, after every command).  Both return rc, or -
 * when a write failed and rc is 0 - EXIT_FAILURE after one line
 * "TOOL: writing NAME: ERROR" (none for stderr itself).
 */
int tool_output_done(const char *tool, FILE *f, const char *name, int rc);
int tool_streams_done(const char *tool, int rc);

/*
 * Run argv[0] (a program of machine md's instruction set; PATH-searched
 * like execvp) with argv under the ISA's qemu-user and the hvpmu plugin
 * with request *rq (its `out` is filled in).  On success *ok = 1 and *rs
 * / *t hold the session's result (free with stat_result_free) and the
 * host times.  Errors print one line prefixed by `tool`.  Returns the
 * program's exit status (128 + signal), or EXIT_NOTFOUND / EXIT_NOEXEC.
 */
struct hvpmu_md;
int run_guest(const char *tool, struct stat_request *rq, const struct hvpmu_md *md, int argc, char **argv,
	      struct stat_result *rs, struct run_times *t, int *ok);
/*
 * The request file (an anonymous file holding request *rq as JSON) and
 * the result area (stat_area_create; rq->result_fd set) of a run:
 * inherited by the emulator (inherit 1) or sent to a service (0:
 * close-on-exec).  path[n] gets the request's /proc path.  0, or -1
 * after one line prefixed by `tool`.
 */
int tool_request_files(const char *tool, struct stat_request *rq, int inherit, int *area_fd, int *req_fd, char *path,
		       size_t n);
/*
 * `--service NAME [--guest GUEST]`: the running service's
 * machine description into *md (as tool_load_md; md_given: the command
 * line also gave -p or --md, an error), the guest checked against its
 * guests, rq->service and rq->guest set.  Errors print one line prefixed
 * by `tool` and return -1.
 */
int tool_service_md(const char *tool, const char *service, const char *guest, int md_given, struct stat_request *rq,
		    struct hvpmu_md *md, const struct hvpmu_sv_backend **be);
/*
 * A monitor of guest rq->guest of the running service rq->service (stat
 * -a, cpustat, busstat --service): the request's counters count the
 * guest's strands and its devices for the time of host command argv
 * (argc 0: until SIGINT or SIGTERM, or rq->monitor_cycles of the
 * machine's time).  As run_guest: *ok and *rs (elapsed time only in *t);
 * returns the command's exit status, 0, or 1 after one line when the
 * service refuses (no such guest, the hypervisor's ENOACCESS, a monitor
 * runs already) and EXIT_NOEXEC when it cannot be asked.
 */
int monitor_guest(const char *tool, struct stat_request *rq, int argc, char **argv, struct stat_result *rs,
		  struct run_times *t, int *ok);
/*
 * `--md FILE`: load the machine description (hvpmu_sv_load_machine),
 * based on rq->platform ("" = t4), into *md, and record its absolute path
 * and platform in *rq for the session.  `file` NULL: the built-in
 * description.  platform_given: the command line chose rq->platform, which
 * the file may not contradict.  be (NULL: not wanted): the chip driver of
 * the machine's CPU counters, which must exist.  Errors print one line
 * prefixed by `tool` and return -1.
 */
struct hvpmu_sv_backend;
int tool_load_md(const char *tool, const char *file, int platform_given, struct stat_request *rq,
		 struct hvpmu_md *md, const struct hvpmu_sv_backend **be);
/*
 * After getopt (argv[*next] the first operand): `[interval [count]] --
 * PROGRAM [ARGS]` as busstat(8) and cpustat(8) take them - interval
 * positive seconds (fractions allowed), count a positive integer - each
 * stored only when given.  Returns 0 with *next the index of PROGRAM
 * (argc when there is none), or -1 after one error line prefixed by `tool`.
 */
int parse_interval_count(const char *tool, int argc, char **argv, int *next, double *interval,
			 unsigned long *count);
/* `interval` seconds of a clock_hz machine in cycles (at least 1) into
 * *cycles; -1 after one error line prefixed by `tool` when it does not
 * fit (2^63 cycles or more). */
int interval_cycles(const char *tool, double interval, uint64_t clock_hz, uint64_t *cycles);
/* `-p` / `--platform NAME`: a built-in description (hvpmu_sv_platform_of),
 * recorded in rq->platform; *platform gets its platform (enum
 * hvpmu_platform).  Errors print one line prefixed by `tool` and return -1. */
int tool_set_platform(const char *tool, const char *name, struct stat_request *rq, int *platform);
/*
 * The machine options the tools share, parsed in each tool's getopt_long
 * loop by tool_md_option() and turned into the machine by tool_md_load().
 * A tool lists the ones it takes in its option table (TOOL_LONGOPT_*; -p
 * also in its short options) and presets the fields it defaults (run:
 * service "default").
 */
struct tool_md_opts {
	const char *tool;    /* the message prefix, "hvpmu stat" */
	const char *md_file; /* --md FILE, or NULL: the built-in description */
	const char *service; /* --service NAME, or NULL: no service */
	const char *guest;   /* --guest NAME, or NULL */
	int platform_given;  /* -p / --platform given: rq->platform holds it */
	int platform;        /* its enum hvpmu_platform (when platform_given) */
};

#define TOOL_OPT_PLATFORM 'p'
#define TOOL_OPT_MD 0x101 /* (long only: -M is stat's metric groups) */
#define TOOL_OPT_PLACEMENT 'C'
#define TOOL_OPT_SERVICE 'S'
#define TOOL_OPT_GUEST 'G'
#define TOOL_LONGOPT_PLATFORM { "platform", required_argument, NULL, TOOL_OPT_PLATFORM }
#define TOOL_LONGOPT_MD { "md", required_argument, NULL, TOOL_OPT_MD }
#define TOOL_LONGOPT_PLACEMENT { "placement", required_argument, NULL, TOOL_OPT_PLACEMENT }
#define TOOL_LONGOPT_SERVICE { "service", required_argument, NULL, TOOL_OPT_SERVICE }
#define TOOL_LONGOPT_GUEST { "guest", required_argument, NULL, TOOL_OPT_GUEST }

/* getopt_long's `c` with argument `arg`: 1 when it is one of the options
 * above (-p into rq->platform, --placement into rq->placement, the rest
 * into *m), 0 when it is not, -1 after one error line prefixed by m->tool
 * (an unknown platform or placement). */
int tool_md_option(struct tool_md_opts *m, int c, const char *arg, struct stat_request *rq);
/* After the options: the machine of *m into *md (tool_service_md with
 * m->service, else tool_load_md; be as there).  0, or -1 after one line. */
int tool_md_load(const struct tool_md_opts *m, struct stat_request *rq, struct hvpmu_md *md,
		 const struct hvpmu_sv_backend **be);
/* The tool's default platform: the first whose hypervisor or kernel offers
 * `service` (hvpmu_sv_platform_with), `what` naming it in the one-line
 * message if none does.  Returns 0 or -1. */
int tool_default_platform(const char *tool, enum hvpmu_sv_service service, const char *what, struct stat_request *rq);
/* The emulator run_guest runs programs of qemu-user `name` under
 * ($HVPMU_QEMU, the configured QEMU build's, or `name` on PATH), and the
 * plugin it loads (0, or -1 when none is readable; out gets the path
 * tried): for `hvpmu sweep`, which records and hashes them. */
const char *tool_qemu_path(const char *name);
int tool_find_plugin(char *out, size_t n);
/* forks.c: 1 when the program at path may start processes (its dynamic
 * symbols, or a static program's symbol table, name fork, system,
 * posix_spawn, an exec...; or it has no symbols, or cannot be read), 0
 * when they name none (docs/cli.md "Processes"). */
int tool_program_may_spawn(const char *path);
/* The same of an ELF image in memory (b[0..n)). */
int tool_elf_may_spawn(const unsigned char *b, size_t n);
/* rq->follow of `hvpmu stat` without -f or -i: run_guest follows the
 * program's processes when tool_program_may_spawn says it may start some
 * (rq->follow becomes 1), else runs it in one emulator (0). */
#define TOOL_FOLLOW_AUTO 2
/* stat's -M metric groups (stat.c): the i-th's name (NULL past the last),
 * its events (perf's generic names) and what it shows. */
const char *tool_metric_group(unsigned i, const char **events, const char **desc);
/* The built-in descriptions' names joined by `sep` ("t4, t4-1, ..."), in
 * buf (n bytes, truncated to fit); returns buf. */
const char *tool_platform_names(char *buf, size_t n, const char *sep);


#endif
