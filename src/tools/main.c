/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hvpmu: command-line front end (layer 5 tools). */
#include <stdio.h>
#include <string.h>
#include <hvpmu/supervisor.h>
#include "tools.h"
#include "sweep.h"

/* The subcommands, as data. */
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "stat", cmd_stat, "run a program on a modeled machine and count its PMU events (perf stat layout)" },
	{ "list", cmd_list, "list the events" },
	{ "busstat", cmd_busstat, "sample the memory controllers' DRAM counters while a program runs" },
	{ "mmustat", cmd_mmustat, "the hypervisor's MMU statistics of a program's run (platform t1)" },
	{ "cpustat", cmd_cpustat, "sample each cpu's PIC counts per interval while a program runs (Solaris cpustat)" },
	{ "serve", cmd_serve, "one modeled machine whose guests run programs and tools attach to (hvpmud)" },
	{ "run", cmd_run, "run a program in a guest of a running hvpmu serve" },
	{ "mdperf", cmd_mdperf, "the SGI Origin Hub memory/directory counters of a program's run (IRIX mdperf)" },
	{ "gpci", cmd_gpci, "ask the PAPR hypervisor H_GetPerformanceCounterInfo as Linux's hv_gpci does (platform power)" },
	{ "sweep", cmd_sweep, "run a plan of programs x machine-description points on GNU parallel or Slurm (docs/sweeps.md)" },
	{ "plot", cmd_plot, "draw interval output (stat -I, cpustat, busstat, mdperf, gpci; CSV or JSON) as SVG and PNG" },
	{ "merge", cmd_merge, "merge a sweep's results into tables (CSV, JSON)" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu [--version | --help] <command> [options]\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	return f == stdout ? 0 : EXIT_USAGE;
}

int main(int argc, char **argv)
{
	char tool[64];

	if (argc < 2)
		return usage(stderr);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			int rc;

			/* the command's argv[0] is "hvpmu NAME": getopt's one-line
			 * messages ("hvpmu stat: invalid option -- 'Z'") name it */
			snprintf(tool, sizeof tool, "hvpmu %s", commands[i].name);
			argv[1] = tool;
			rc = commands[i].run(argc - 1, argv + 1);
			/* what the command wrote to stdout and stderr went through */
			return tool_streams_done(tool, rc);
		}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)
		return tool_streams_done("hvpmu", usage(stdout));
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-v") == 0 || strcmp(argv[1], "version") == 0) {
		if (argc > 2) {
			fprintf(stderr, "hvpmu: %s takes no operand\n", argv[1]);
			return EXIT_USAGE;
		}
		printf("hvpmu version %s\n", HVPMU_VERSION); /* perf's "perf version 6.1..." */
		return tool_streams_done("hvpmu", 0);
	}
	fprintf(stderr, "hvpmu: unknown command '%s' (try 'hvpmu --help')\n", argv[1]);
	return EXIT_USAGE;
}
