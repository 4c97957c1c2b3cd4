/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hvpmu: command-line front end (layer 5 tools). */
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <hvpmu/hvpmu.h>
#include "tools.h"


int find_plugin(char *out, size_t n)
{
	const char *env = getenv("HVPMU_PLUGIN");
	char exe[PATH_MAX];
	ssize_t len;

	if (env) {
		snprintf(out, n, "%s", env);
		return access(out, R_OK);
	}
	len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		char *slash;

		exe[len] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(out, n, "%s/libhvpmu_plugin.so", exe);
			if (access(out, R_OK) == 0)
				return 0;
		}
	}
	snprintf(out, n, "%s/libhvpmu_plugin.so", HVPMU_INSTALL_PLUGIN_DIR);
	return access(out, R_OK);
}

int cmd_list(int argc, char **argv)
{
	unsigned n, na;
	const struct hvpmu_t4_event *ev = hvpmu_t4_events(&n);
	const struct hvpmu_t4_alias *al = hvpmu_t4_aliases(&na);

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: hvpmu list\n");
		return EXIT_USAGE;
	}
	printf("SPARC T4 events (sparc-t4-performance-instrumentation.md TABLE 10-2):\n");
	for (unsigned i = 0; i < n; i++)
		printf("  %-36s sl=%-2u mask=0x%02x  %s%s\n", ev[i].name, ev[i].sl, ev[i].mask, ev[i].desc,
		       hvpmu_t4_event_supported(ev[i].sl, ev[i].mask) ? "" : " [not supported by the model yet]");
	printf("\nGeneric aliases (as Linux maps them for T4):\n");
	for (unsigned i = 0; i < na; i++)
		printf("  %-36s sl=%-2u mask=0x%02x  %s%s\n", al[i].alias, al[i].sl, al[i].mask,
		       al[i].native ? al[i].native : "(sl=4 branches)",
		       hvpmu_t4_event_supported(al[i].sl, al[i].mask) ? "" : " [not supported by the model yet]");
	printf("\nRaw: sl=N,mask=M or rHHH ((sl << 6) | mask); modifiers :u (ut) :k (st) :h (ht)\n");
	printf("\nUltraSPARC T1 events (hvpmu stat -p t1; niagara-perf-api.txt §2.1):\n");
	printf("  %-36s PICH       instructions\n", "Instr_cnt");
	for (unsigned k = 0; k < HVPMU_T1_NSL; k++)
		printf("  %-36s PICL sl=%u%s\n", hvpmu_t1_picl_name(k), k,
		       hvpmu_t1_picl_modeled(k) == 0 ? "" : " [not supported by the model yet]");
	return 0;
}

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu <command> [options]\n"
		   "  stat   run a sparc64 program and count T4 PMU events (perf stat layout)\n"
		   "  list   list the events\n"
		   "  busstat  sample the memory controllers' DRAM counters while a program runs\n"
		   "  mmustat  the hypervisor's MMU statistics of a program's run (platform t1)\n"
		   "  cpustat  sample each cpu's PIC counts per interval while a program runs (Solaris cpustat)\n");
	return f == stdout ? 0 : EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (strcmp(argv[1], "stat") == 0)
		return cmd_stat(argc - 1, argv + 1);
	if (strcmp(argv[1], "list") == 0)
		return cmd_list(argc - 1, argv + 1);
	if (strcmp(argv[1], "busstat") == 0)
		return cmd_busstat(argc - 1, argv + 1);
	if (strcmp(argv[1], "mmustat") == 0)
		return cmd_mmustat(argc - 1, argv + 1);
	if (strcmp(argv[1], "cpustat") == 0)
		return cmd_cpustat(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)
		return usage(stdout);
	fprintf(stderr, "hvpmu: unknown command '%s' (try 'hvpmu --help')\n", argv[1]);
	return EXIT_USAGE;
}
