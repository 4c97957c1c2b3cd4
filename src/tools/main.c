/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hvpmu: command-line front end (layer 5 tools). */
#include <stdio.h>
#include <string.h>
#include <hvpmu/supervisor.h>
#include "tools.h"
#include "sweep.h"

/* One line of `hvpmu list`: the name, then the back-end's text. */
static void list_line(const struct hvpmu_sv_event_info *e)
{
	printf("  %-36s %s%s\n", e->name, e->text, e->supported ? "" : " [not supported by the model yet]");
}

/* `hvpmu list`: every back-end's events, aliases and raw syntax. */
int cmd_list(int argc, char **argv)
{
	const struct hvpmu_sv_backend *be;
	struct hvpmu_sv_event_info e;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: hvpmu list\n");
		return EXIT_USAGE;
	}
	for (unsigned b = 0; (be = hvpmu_sv_backend_at(b)); b++) {
		const struct hvpmu_sv_backend_desc *d = hvpmu_sv_backend_desc(be);

		printf("%s%s\n", b ? "\n" : "", d->title);
		for (unsigned i = 0; hvpmu_sv_backend_event(be, i, &e) == HVPMU_OK; i++)
			list_line(&e);
		if (d->alias_title) {
			printf("\n%s\n", d->alias_title);
			for (unsigned i = 0; hvpmu_sv_backend_alias(be, i, &e) == HVPMU_OK; i++)
				list_line(&e);
		}
		if (d->raw_help)
			printf("\n%s\n", d->raw_help);
	}
	return 0;
}

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
	{ "sweep", cmd_sweep, "run a plan of programs x machine-description points on GNU parallel or Slurm (docs/sweep.md)" },
	{ "merge", cmd_merge, "merge a sweep's results into tables (CSV, JSON)" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu <command> [options]\n");
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
			int rc = commands[i].run(argc - 1, argv + 1);

			/* what the command wrote to stdout and stderr went through */
			snprintf(tool, sizeof tool, "hvpmu %s", commands[i].name);
			return tool_streams_done(tool, rc);
		}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)
		return tool_streams_done("hvpmu", usage(stdout));
	fprintf(stderr, "hvpmu: unknown command '%s' (try 'hvpmu --help')\n", argv[1]);
	return EXIT_USAGE;
}
