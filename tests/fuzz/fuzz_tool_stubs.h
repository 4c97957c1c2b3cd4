/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_tool_stubs.h - for the fuzz targets that compile a tool's parser
 * in (fuzz_busstat_parse.c, fuzz_cpustat_parse.c): the tools run programs
 * through run.c's run_guest() and a service's monitor through serve.c;
 * parsing never does, so these abort if it ever did.  (A service's machine
 * description, tool_service_md, is mdopt.c's, which they compile in.)
 */
#ifndef HVPMU_FUZZ_TOOL_STUBS_H
#define HVPMU_FUZZ_TOOL_STUBS_H

#include <stdlib.h>

int run_guest(const char *tool, struct stat_request *rq, const struct hvpmu_md *md, int argc, char **argv,
	      struct stat_result *rs, struct run_times *t, int *ok)
{
	(void)tool; (void)rq; (void)md; (void)argc; (void)argv; (void)rs; (void)t;
	*ok = 0;
	abort();
}

int monitor_guest(const char *tool, struct stat_request *rq, int argc, char **argv, struct stat_result *rs,
		  struct run_times *t, int *ok)
{
	(void)tool; (void)rq; (void)argc; (void)argv; (void)rs; (void)t;
	*ok = 0;
	abort();
}

#endif
