/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu mmustat [-p PLATFORM] [-x SEP | -j] -- PROGRAM [ARGS]`: run a
 * program on the modeled machine (platform t1 by default) while the
 * guest OS collects the hypervisor's MMU statistics per CPU
 * (niagara-mmustat-api.txt: NIAGARA_MMUSTAT_CONF/INFO), and print them
 * under the names Linux gives them in /sys/devices/system/cpu/cpuN/mmu_stats
 * (linux-clients.md §1.4; hvpmu_sv_mmustat_field_name()).  Default output:
 * `cpuN NAME VALUE` lines; -x SEP: `cpu SEP name SEP value`; -j: one JSON
 * object per line with keys "cpu", "name", "value".  docs/cli.md.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <hvpmu/md.h>
#include <hvpmu/supervisor.h>
#include "tools.h"
#include "progress.h"

static int usage(FILE *f)
{
	const char *dflt = hvpmu_sv_platform_with(HVPMU_SV_SERVICE_MMUSTAT);

	fprintf(f, "usage: hvpmu mmustat [-p PLATFORM] [--md FILE] [-x SEP | -j] -- PROGRAM [ARGS]\n"
		   "  -p  platform (default: the first that offers MMU statistics, %s)\n"
		   "  -x  CSV with separator SEP;  -j  JSON lines\n",
		dflt ? dflt : "none");
	return f == stdout ? 0 : EXIT_USAGE;
}

int cmd_mmustat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		TOOL_LONGOPT_MD,
		{ NULL, 0, NULL, 0 },
	};
	struct tool_md_opts m = { .tool = "hvpmu mmustat" };
	struct hvpmu_md md;
	struct stat_request rq;
	struct stat_result rs;
	struct run_times t;
	const char *sep = NULL;
	int json = 0, c, rc, ok;

	memset(&rq, 0, sizeof rq);
	if (tool_default_platform("hvpmu mmustat", HVPMU_SV_SERVICE_MMUSTAT, "MMU statistics", &rq))
		return EXIT_USAGE;
	rq.mmustat = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:x:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'x':
			if (tool_separator("hvpmu mmustat", optarg))
				return EXIT_USAGE;
			sep = optarg;
			break;
		case 'j': json = 1; break;
		case 'h': return usage(stdout);
		default: /* -p: every built-in description, as the other tools */
			if ((rc = tool_md_option(&m, c, optarg, &rq)) > 0)
				break;
			return EXIT_USAGE; /* after one line: getopt's or the option's */
		}
	}
	if (sep && json) {
		fprintf(stderr, "hvpmu mmustat: -x and -j cannot be combined\n");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "hvpmu mmustat: no program given (hvpmu mmustat [OPTIONS] -- PROGRAM)\n");
		return EXIT_USAGE;
	}
	if (tool_md_load(&m, &rq, &md, NULL))
		return EXIT_USAGE;
	if (sep || json) /* its CSV or JSON is on stderr: no heartbeat there */
		progress_off();
	rc = run_guest("hvpmu mmustat", &rq, &md, argc - optind, argv + optind, &rs, &t, &ok);
	if (!ok)
		return rc;
	if (!rs.nmmu)
		fprintf(stderr, "hvpmu mmustat: no MMU statistics: the hypervisor refused (%s; platform %s)\n",
			hvpmu_sv_status_name(rs.hv_status), rq.platform);
	for (unsigned i = 0; i < rs.nmmu; i++)
		for (unsigned w = 0; w < STAT_MMU_WORDS; w++) {
			const char *name = hvpmu_sv_mmustat_field_name(8 * w);
			unsigned long long v = (unsigned long long)rs.mmu[i].words[w];

			if (!name)
				continue; /* reserved word */
			if (json) {
				json_object *o = json_object_new_object();

				json_object_object_add(o, "cpu", json_object_new_int((int)rs.mmu[i].cpu));
				json_object_object_add(o, "name", json_object_new_string(name));
				json_object_object_add(o, "value", json_object_new_uint64(v));
				fprintf(stderr, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED));
				json_object_put(o);
			} else if (sep) {
				csv_fieldf(stderr, sep, 1, "%u", rs.mmu[i].cpu);
				csv_field(stderr, sep, 0, name);
				csv_fieldf(stderr, sep, 0, "%llu", v);
				fputc('\n', stderr);
			} else {
				fprintf(stderr, "cpu%-3u %-34s %llu\n", rs.mmu[i].cpu, name, v);
			}
		}
	if (!rs.nmmu && rc == 0)
		rc = EXIT_NOEXEC;
	stat_result_free(&rs);
	return rc;
}
