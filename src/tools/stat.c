/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu stat [-e EVENT,...] [-x SEP | -j] [-o FILE] -- PROGRAM [ARGS]`:
 * runs a program of the machine's instruction set under its qemu-user
 * with the hvpmu plugin (where the session host builds the machine, its
 * platform services and the guest driver) and prints the counts in perf
 * stat's layout.  The program's stdin, stdout, stderr and exit status
 * pass through.  docs/cli.md describes every option.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/supervisor.h>
#include "output.h"
#include "tools.h"

#define MAX_EVENT_LISTS 32

static int usage(FILE *f)
{
	char names[256];

	fprintf(f, "usage: hvpmu stat [-e EVENT,...] [-f] [-x SEP | -j] [-o FILE] -- PROGRAM [ARGS]\n"
		   "  -e, --event LIST     events: the platform's names (hvpmu list), perf aliases, raw; :u :k :h\n"
		   "  -x, --field-separator SEP   CSV output (perf stat field order)\n"
		   "  -j, --json-output    JSON lines with perf stat's keys\n"
		   "  -o, --output FILE    write counts to FILE instead of stderr\n"
		   "  -f, --follow         count the program's process tree: fork children and the\n"
		   "                       programs they execve, on one machine (a service, docs/service.md)\n"
		   "      --per-process    with -f: the counts of each process (COMM-PID), as perf --per-thread\n"
		   "      --pic-init N     start every PIC at N (32-bit; excluded from counts)\n"
		   "      --overflow-log FILE   log every PIC overflow trap (pic, event, tpc, precise)\n"
		   "      --rotate-cycles N     multiplexing tick in cycles (default 4 ms)\n"
		   "  -p, --platform P     a built-in machine: %s (default %s; hvpmu list\n"
		   "                       shows each platform's events)\n"
		   "      --placement P    guest threads on strands: pack (default: thread i on strand i)\n"
		   "                       or spread (over chips, then cores)\n"
		   "      --md FILE        machine description (JSON; docs/machine-description.md)\n"
		   "      --hw-prefetch N  L1D hardware prefetcher: N next lines on a load miss (0-4, default 0 = off)\n"
		   "default events: %s\n",
		tool_platform_names(names, sizeof names, ", "), hvpmu_sv_machine_name_at(0),
		hvpmu_sv_backend_desc(hvpmu_sv_backend_at(0))->default_events);
	return EXIT_USAGE;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end || *s == '-' || v > max)
		return -1;
	*out = v;
	return 0;
}

static void join_cmdline(char *dst, size_t n, int argc, char **argv)
{
	size_t used = 0;

	dst[0] = 0;
	for (int i = 0; i < argc && used < n; i++)
		used += (size_t)snprintf(dst + used, n - used, "%s%s", i ? " " : "", argv[i]);
}

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json-output", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "pic-init", required_argument, NULL, 'P' },
		{ "overflow-log", required_argument, NULL, 'L' },
		{ "rotate-cycles", required_argument, NULL, 'R' },
		{ "platform", required_argument, NULL, 'p' },
		{ "md", required_argument, NULL, 'M' },
		{ "hw-prefetch", required_argument, NULL, 'H' },
		{ "placement", required_argument, NULL, 'C' },
		{ "follow", no_argument, NULL, 'f' },
		{ "per-process", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat_request rq;
	struct stat_result rs;
	struct run_times t;
	enum out_format fmt = OUT_TABLE;
	const char *sep = NULL, *outfile = NULL;
	char err[512], cmdline[1024];
	int have_events = 0, c, rc, ok, platform_given = 0, per_process = 0;
	const struct hvpmu_sv_backend *be;
	const char *md_file = NULL;
	struct hvpmu_md md;
	const char *lists[MAX_EVENT_LISTS];
	unsigned nlists = 0;
	uint64_t v;
	FILE *out = stderr;

	memset(&rq, 0, sizeof rq);
	setlocale(LC_ALL, "");
	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:x:jo:p:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (nlists == MAX_EVENT_LISTS) {
				fprintf(stderr, "hvpmu stat: too many -e options\n");
				return EXIT_USAGE;
			}
			lists[nlists++] = optarg;
			have_events = 1;
			break;
		case 'p': {
			int platform;

			if (tool_set_platform("hvpmu stat", optarg, &rq, &platform))
				return EXIT_USAGE;
			platform_given = 1;
			break;
		}
		case 'M': md_file = optarg; break;
		case 'C':
			if (hvpmu_sv_placement_of(optarg) < 0) {
				fprintf(stderr, "hvpmu stat: unknown placement '%s' (pack, spread)\n", optarg);
				return EXIT_USAGE;
			}
			strcpy(rq.placement, optarg);
			break;
		case 'x': sep = optarg; fmt = OUT_CSV; break;
		case 'j': fmt = OUT_JSON; break;
		case 'o': outfile = optarg; break;
		case 'f': rq.follow = 1; break;
		case 'T': per_process = rq.follow = 1; break;
		case 'P':
			if (parse_u64(optarg, UINT32_MAX, &v)) {
				fprintf(stderr, "hvpmu stat: --pic-init wants 0..0xffffffff, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			rq.pic_init = (uint32_t)v;
			break;
		case 'L': snprintf(rq.overflow_log, sizeof rq.overflow_log, "%s", optarg); break;
		case 'H':
			if (parse_u64(optarg, HVPMU_MD_MAX_L1D_HW_PREFETCH, &v)) {
				fprintf(stderr, "hvpmu stat: --hw-prefetch wants 0..%u, got '%s'\n",
					HVPMU_MD_MAX_L1D_HW_PREFETCH, optarg);
				return EXIT_USAGE;
			}
			rq.hw_prefetch = (uint32_t)v;
			break;
		case 'R':
			if (parse_u64(optarg, UINT64_MAX, &v) || v == 0) {
				fprintf(stderr, "hvpmu stat: --rotate-cycles wants a positive number, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			rq.rotate_cycles = v;
			break;
		case 'h': return usage(stdout) & 0;
		default: return usage(stderr);
		}
	}
	if (sep && fmt == OUT_JSON) {
		fprintf(stderr, "hvpmu stat: -x and -j cannot be combined\n");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "hvpmu stat: no program given (hvpmu stat [OPTIONS] -- PROGRAM [ARGS])\n");
		return EXIT_USAGE;
	}
	if (tool_load_md("hvpmu stat", md_file, platform_given, &rq, &md, NULL))
		return EXIT_USAGE;
	/* no CPU counter driver (power): the model's own counts, no events */
	if (!(be = hvpmu_sv_backend_of(md.platform)) && (have_events || per_process)) {
		fprintf(stderr, "hvpmu stat: platform %s has no CPU counter driver: no -e%s (without them, the "
			"model's instruction counts)\n", rq.platform, per_process ? " or --per-process" : "");
		return EXIT_USAGE;
	}
	if (be && !have_events)
		lists[nlists++] = hvpmu_sv_backend_desc(be)->default_events;
	for (unsigned i = 0; i < nlists; i++)
		if (hvpmu_sv_parse_events(be, lists[i], rq.ev, &rq.nevents, HVPMU_SV_MAX_EVENTS, err, sizeof err)) {
			fprintf(stderr, "hvpmu stat: %s\n", err);
			return EXIT_USAGE;
		}
	if (outfile && !(out = fopen(outfile, "w"))) {
		fprintf(stderr, "hvpmu stat: %s: %s\n", outfile, strerror(errno));
		return EXIT_USAGE;
	}
	join_cmdline(cmdline, sizeof cmdline, argc - optind, argv + optind);
	rc = run_guest("hvpmu stat", &rq, &md, argc - optind, argv + optind, &rs, &t, &ok);
	if (ok) {
		if (!be)
			print_stat_model(out, fmt, sep, cmdline, &rs, &t);
		else if (per_process)
			print_stat_per_process(out, fmt, sep, cmdline, &rs, &t);
		else
			print_stat(out, fmt, sep, cmdline, be, rq.ev, &rs, &t);
		if (rs.hv_status) /* e.g. ENOACCESS: the description gives no perfctraccess */
			fprintf(stderr, "hvpmu stat: the hypervisor refused the counters (%s)\n",
				hvpmu_sv_status_name(rs.hv_status));
		stat_result_free(&rs);
	}
	if (out != stderr)
		fclose(out);
	return rc;
}
