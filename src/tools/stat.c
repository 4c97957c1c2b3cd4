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
#include <hvpmu/gpci.h>
#include <hvpmu/supervisor.h>
#include "output.h"
#include "tools.h"

#define MAX_EVENT_LISTS 32

static int usage(FILE *f)
{
	char names[256];

	fprintf(f, "usage: hvpmu stat [-e EVENT,...] [-f] [-x SEP | -j] [-o FILE] -- PROGRAM [ARGS]\n"
		   "  -e, --event LIST     events: the platform's names (hvpmu list), perf aliases, raw; :u :k :h\n"
		   "                       (-p power: hv_gpci/NAME,PARAM=N/ or hv_gpci/request=R,...,length=L/)\n"
		   "  -x, --field-separator SEP   CSV output (perf stat field order)\n"
		   "  -j, --json-output    JSON lines with perf stat's keys\n"
		   "  -o, --output FILE    write counts to FILE instead of stderr\n"
		   "  -f, --follow         count the program's process tree: fork children and the\n"
		   "                       programs they execve, on one machine (a service, docs/service.md)\n"
		   "      --per-process    with -f: the counts of each process (COMM-PID), as perf --per-thread\n"
		   "  -a, --all-cpus       system-wide: count every strand of a guest of a running hvpmu serve,\n"
		   "                       for the time of PROGRAM (a host command) or until SIGINT\n"
		   "      --service NAME   that service (default: default); implies -a\n"
		   "      --guest NAME     its guest whose strands are counted (default: its first)\n"
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

/* `-e` on a platform without a CPU counter driver whose machine has a
 * PAPR CEC (power): hv_gpci events (hvpmu/gpci.h, perf's syntax) and the
 * model's counts by name, in the list's order.  0, or -1 with a one-line
 * reason in err. */
#define POWER_NAME_MAX 256
static int parse_power_list(const char *platform, const char *list, struct stat_request *rq,
			    struct stat_power_item *items, char (*names)[POWER_NAME_MAX], unsigned *nitems, char *err,
			    size_t n)
{
	const char *p = list;

	while (*p) {
		struct stat_power_item *it = &items[*nitems];
		size_t len;

		if (*nitems == HVPMU_SV_MAX_EVENTS) {
			snprintf(err, n, "too many events (at most %u)", HVPMU_SV_MAX_EVENTS);
			return -1;
		}
		if (strncmp(p, HVPMU_GPCI_EVENT_PMU, strlen(HVPMU_GPCI_EVENT_PMU)) == 0) {
			if (rq->ngpci == STAT_MAX_GPCI) {
				snprintf(err, n, "too many hv_gpci events (at most %u)", STAT_MAX_GPCI);
				return -1;
			}
			if (hvpmu_gpci_event_parse(p, &rq->gpci[rq->ngpci], &len, err, n))
				return -1;
			if (p[len] && p[len] != ',') {
				snprintf(err, n, "hv_gpci event '%.*s': unexpected '%c' after its closing '/'",
					 (int)(len > 96 ? 96 : len), p, p[len]);
				return -1;
			}
			it->gpci = (int)rq->ngpci++;
		} else {
			int m;

			len = strcspn(p, ",");
			if ((m = stat_model_index(p, len)) < 0) {
				snprintf(err, n, "platform %s has no CPU counter driver: event '%.*s' is neither an "
					 "hv_gpci/.../ event nor a model count (instructions:u, loads:u, ...)", platform,
					 (int)(len > 96 ? 96 : len), p);
				return -1;
			}
			it->gpci = -1;
			it->model = (unsigned)m;
		}
		if (len == 0 || len >= POWER_NAME_MAX) {
			snprintf(err, n, "%s event in '%.96s'", len ? "an overlong" : "an empty", list);
			return -1;
		}
		memcpy(names[*nitems], p, len);
		names[*nitems][len] = 0;
		it->name = names[*nitems];
		++*nitems;
		p += len;
		if (*p == ',' && !*++p) {
			snprintf(err, n, "an empty event at the end of '%.96s'", list);
			return -1;
		}
	}
	return 0;
}

static void join_cmdline(char *dst, size_t n, int argc, char **argv)
{
	size_t used = 0;

	dst[0] = 0;
	for (int i = 0; i < argc && used < n; i++)
		used += (size_t)snprintf(dst + used, n - used, "%s%s", i ? " " : "", argv[i]);
}

/* What the command line asks: the request, the machine options, the event
 * lists (as given to -e), the output. */
struct stat_cli {
	struct stat_request rq;
	struct tool_md_opts m;
	enum out_format fmt;
	const char *sep, *outfile;
	const char *lists[MAX_EVENT_LISTS];
	unsigned nlists;
	int have_events, per_process;
};

/* Go on: the helpers' "no exit status yet". */
#define STAT_GO (-1)

/* One option of stat's own (not a machine option): STAT_GO, or an exit
 * status after one line. */
static int stat_option(struct stat_cli *cl, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'e':
		if (cl->nlists == MAX_EVENT_LISTS) {
			fprintf(stderr, "hvpmu stat: too many -e options\n");
			return EXIT_USAGE;
		}
		cl->lists[cl->nlists++] = arg;
		cl->have_events = 1;
		break;
	case 'x': cl->sep = arg; cl->fmt = OUT_CSV; break;
	case 'j': cl->fmt = OUT_JSON; break;
	case 'o': cl->outfile = arg; break;
	case 'f': cl->rq.follow = 1; break;
	case 'T': cl->per_process = cl->rq.follow = 1; break;
	case 'a': cl->m.service = cl->m.service ? cl->m.service : "default"; break;
	case 'P':
		if (parse_u64(arg, UINT32_MAX, &v)) {
			fprintf(stderr, "hvpmu stat: --pic-init wants 0..0xffffffff, got '%s'\n", arg);
			return EXIT_USAGE;
		}
		cl->rq.pic_init = (uint32_t)v;
		break;
	case 'L': snprintf(cl->rq.overflow_log, sizeof cl->rq.overflow_log, "%s", arg); break;
	case 'H':
		if (parse_u64(arg, HVPMU_MD_MAX_L1D_HW_PREFETCH, &v)) {
			fprintf(stderr, "hvpmu stat: --hw-prefetch wants 0..%u, got '%s'\n",
				HVPMU_MD_MAX_L1D_HW_PREFETCH, arg);
			return EXIT_USAGE;
		}
		cl->rq.hw_prefetch = (uint32_t)v;
		break;
	case 'R':
		if (parse_u64(arg, UINT64_MAX, &v) || v == 0) {
			fprintf(stderr, "hvpmu stat: --rotate-cycles wants a positive number, got '%s'\n", arg);
			return EXIT_USAGE;
		}
		cl->rq.rotate_cycles = v;
		break;
	case 'h': return usage(stdout) & 0;
	default:
		switch (tool_md_option(&cl->m, c, arg, &cl->rq)) {
		case 1: break;
		case 0: return usage(stderr);
		default: return EXIT_USAGE;
		}
	}
	return STAT_GO;
}

/* The options (optind: the program), and the checks of how they combine:
 * STAT_GO, or an exit status after one line. */
static int parse_options(struct stat_cli *cl, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json-output", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "pic-init", required_argument, NULL, 'P' },
		{ "overflow-log", required_argument, NULL, 'L' },
		{ "rotate-cycles", required_argument, NULL, 'R' },
		TOOL_LONGOPT_PLATFORM,
		TOOL_LONGOPT_MD,
		{ "hw-prefetch", required_argument, NULL, 'H' },
		TOOL_LONGOPT_PLACEMENT,
		{ "follow", no_argument, NULL, 'f' },
		{ "per-process", no_argument, NULL, 'T' },
		{ "all-cpus", no_argument, NULL, 'a' },
		TOOL_LONGOPT_SERVICE,
		TOOL_LONGOPT_GUEST,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:x:jo:p:fah", opts, NULL)) != -1)
		if ((rc = stat_option(cl, c, optarg)) != STAT_GO)
			return rc;
	if (cl->sep && cl->fmt == OUT_JSON) {
		fprintf(stderr, "hvpmu stat: -x and -j cannot be combined\n");
		return EXIT_USAGE;
	}
	if (cl->m.guest && !cl->m.service) {
		fprintf(stderr, "hvpmu stat: --guest needs -a or --service (a running hvpmu serve)\n");
		return EXIT_USAGE;
	}
	if (cl->m.service && (cl->rq.follow || cl->rq.overflow_log[0] || cl->rq.hw_prefetch || cl->rq.placement[0])) {
		fprintf(stderr, "hvpmu stat: -a counts a running service's machine as it is: no -f, --per-process, "
				"--overflow-log, --hw-prefetch or --placement with it\n");
		return EXIT_USAGE;
	}
	if (optind >= argc && !cl->m.service) {
		fprintf(stderr, "hvpmu stat: no program given (hvpmu stat [OPTIONS] -- PROGRAM [ARGS])\n");
		return EXIT_USAGE;
	}
	return STAT_GO;
}

/* The power events of -e (parse_power_list), kept for the printers. */
struct power_events {
	struct stat_power_item items[HVPMU_SV_MAX_EVENTS];
	char names[HVPMU_SV_MAX_EVENTS][POWER_NAME_MAX];
	unsigned n;
};

/* The events of the machine md: with the chip driver *be, or without one
 * (power) hv_gpci events and the model's counts into *pw.  0, or -1 after
 * one line. */
static int parse_stat_events(struct stat_cli *cl, const struct hvpmu_md *md, const struct hvpmu_sv_backend **bep,
			     struct power_events *pw)
{
	struct stat_request *rq = &cl->rq;
	const struct hvpmu_sv_backend *be;
	char err[512];

	/* no CPU counter driver (power): the model's own counts; -e only
	 * for hv_gpci events and the model's counts by name, on a machine
	 * with a PAPR CEC, in one emulator */
	if (!(be = *bep = hvpmu_sv_backend_of(md->platform)) &&
	    (cl->per_process || (cl->have_events && !md->cec.nchips))) {
		fprintf(stderr, "hvpmu stat: platform %s has no CPU counter driver: no -e%s (without them, the "
			"model's instruction counts)\n", rq->platform, cl->per_process ? " or --per-process" : "");
		return -1;
	}
	if (!be && cl->have_events && cl->m.service) {
		fprintf(stderr, "hvpmu stat: platform %s: -e (hv_gpci events) counts a program (and with -f its "
			"process tree), not with -a or --service\n", rq->platform);
		return -1;
	}
	for (unsigned i = 0; !be && i < cl->nlists; i++)
		if (parse_power_list(rq->platform, cl->lists[i], rq, pw->items, pw->names, &pw->n, err, sizeof err)) {
			for (char *q = err; *q; q++) /* the list quoted: one line */
				*q = (unsigned char)*q < 0x20 ? '?' : *q;
			fprintf(stderr, "hvpmu stat: %s\n", err);
			return -1;
		}
	if (be && !cl->have_events)
		cl->lists[cl->nlists++] = hvpmu_sv_backend_desc(be)->default_events;
	for (unsigned i = 0; be && i < cl->nlists; i++)
		if (hvpmu_sv_parse_events(be, cl->lists[i], rq->ev, &rq->nevents, HVPMU_SV_MAX_EVENTS, err,
					  sizeof err)) {
			fprintf(stderr, "hvpmu stat: %s\n", err);
			return -1;
		}
	return 0;
}

/* The counts of a run in the layout the events ask for, then what the
 * hypervisor refused. */
static void print_results(FILE *out, const struct stat_cli *cl, const char *cmdline, const struct hvpmu_sv_backend *be,
			  const struct power_events *pw, const struct stat_result *rs, const struct run_times *t)
{
	if (!be && pw->n)
		print_stat_power(out, cl->fmt, cl->sep, cmdline, rs, t, pw->items, pw->n);
	else if (!be)
		print_stat_model(out, cl->fmt, cl->sep, cmdline, rs, t);
	else if (cl->per_process)
		print_stat_per_process(out, cl->fmt, cl->sep, cmdline, rs, t);
	else
		print_stat(out, cl->fmt, cl->sep, cmdline, be, cl->rq.ev, rs, t);
	for (unsigned i = 0; i < pw->n; i++) /* as perf: the event <not supported>, the reason */
		if (pw->items[i].gpci >= 0 && (unsigned)pw->items[i].gpci < rs->ngpci &&
		    !rs->gpci[pw->items[i].gpci].supported)
			fprintf(stderr, "hvpmu stat: %s: the hypervisor refused H_GetPerformanceCounterInfo (%s)\n",
				pw->items[i].name, hvpmu_gpci_status_name(rs->gpci[pw->items[i].gpci].status));
	if (rs->hv_status) /* e.g. ENOACCESS: the description gives no perfctraccess */
		fprintf(stderr, "hvpmu stat: the hypervisor refused the counters (%s)\n",
			hvpmu_sv_status_name(rs->hv_status));
}

int cmd_stat(int argc, char **argv)
{
	struct stat_cli cl;
	static struct power_events pw; /* (large: not on the stack) */
	struct stat_result rs;
	struct run_times t;
	const struct hvpmu_sv_backend *be;
	struct hvpmu_md md;
	char cmdline[1024];
	int rc, ok;
	FILE *out = stderr;

	memset(&cl, 0, sizeof cl);
	memset(&pw, 0, sizeof pw);
	cl.fmt = OUT_TABLE;
	cl.m.tool = "hvpmu stat";
	setlocale(LC_ALL, "");
	if ((rc = parse_options(&cl, argc, argv)) != STAT_GO)
		return rc;
	if (tool_md_load(&cl.m, &cl.rq, &md, NULL) || parse_stat_events(&cl, &md, &be, &pw))
		return EXIT_USAGE;
	if (cl.outfile && !(out = fopen(cl.outfile, "w"))) {
		fprintf(stderr, "hvpmu stat: %s: %s\n", cl.outfile, strerror(errno));
		return EXIT_USAGE;
	}
	join_cmdline(cmdline, sizeof cmdline, argc - optind, argv + optind);
	if (cl.m.service && optind >= argc)
		snprintf(cmdline, sizeof cmdline, "system wide");
	rc = cl.m.service ? monitor_guest("hvpmu stat", &cl.rq, argc - optind, argv + optind, &rs, &t, &ok)
			  : run_guest("hvpmu stat", &cl.rq, &md, argc - optind, argv + optind, &rs, &t, &ok);
	if (ok) {
		print_results(out, &cl, cmdline, be, &pw, &rs, &t);
		stat_result_free(&rs);
	}
	if (out != stderr)
		fclose(out);
	return rc;
}
