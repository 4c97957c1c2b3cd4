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
#include <math.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/gpci.h>
#include <hvpmu/supervisor.h>
#include "output.h"
#include "tools.h"
#include "progress.h"

#define MAX_EVENT_LISTS 32

static int usage(FILE *f)
{
	char names[256];

	fprintf(f, "usage: hvpmu stat [-e EVENT,...] [-d] [-M GROUP] [-f | -i] [-r N | -I MSEC] [-x SEP | -j] [-o FILE] -- "
		   "PROGRAM [ARGS]\n"
		   "  -e, --event LIST     events: the platform's names (hvpmu list), perf aliases, raw; :u :k :h\n"
		   "                       (perf's generic events the platform lacks: <not supported>)\n"
		   "  -d, --detailed       perf's detailed events too (-dd, -ddd: more)\n"
		   "  -M, --metrics G,...  metric groups (hvpmu list metricgroup): their events and metrics\n"
		   "  -r, --repeat N       run N times: means, and +- the stddev of the mean, as perf\n"
		   "  -I, --interval-print MSEC  counts every MSEC milliseconds of modeled time\n"
		   "                       (-p power: hv_gpci/NAME,PARAM=N/ or hv_gpci/request=R,...,length=L/)\n"
		   "  -x, --field-separator SEP   CSV output (perf stat field order)\n"
		   "  -j, --json-output    JSON lines with perf stat's keys\n"
		   "  -o, --output FILE    write counts to FILE instead of stderr\n"
		   "  -f, --follow         count the program's process tree: fork children and the\n"
		   "                       programs they execve, on one machine (a service, docs/service.md);\n"
		   "                       the default when the program may start processes (docs/cli.md)\n"
		   "  -i, --no-inherit     count the first process only (perf's -i), in one emulator\n"
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
		hvpmu_sv_backend_desc(hvpmu_sv_backend_default())->default_events);
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
	int no_inherit;       /* -i: the first process only, in one emulator */
	unsigned repeat;      /* -r N (0: once) */
	double interval_ms;   /* -I MSEC of modeled time (0: none) */
	unsigned detailed;    /* -d levels */
	const char *extra[MAX_EVENT_LISTS]; /* -d and -M lists, after -e's (or the default events) */
	unsigned nextra;
	int metrics;          /* -M given: its events replace the default ones, as perf's */
};

/* perf stat -d, -dd, -ddd: the detailed events each level adds
 * (tools/perf/builtin-stat.c, add_default_attributes) */
static const char *const detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/* -M: metric groups, in perf's generic names, which each platform maps
 * to its events (hvpmu list shows them); the metrics are the derived
 * comments of output.c. */
static const struct metric_group {
	const char *name, *events, *desc;
} metric_groups[] = {
	{ "IPC", "instructions,cycles", "instructions per cycle (insn per cycle; GHz of the modeled clock)" },
	{ "Branch_Mispredict", "branches,branch-misses", "branch misses, % of all branches" },
	{ "Cache_Miss", "cache-references,cache-misses", "cache misses, % of all cache refs" },
	{ "L1D_Miss", "L1-dcache-loads,L1-dcache-load-misses", "L1 D-cache load misses, % of all L1-dcache accesses" },
	{ "L1I_Miss", "L1-icache-loads,L1-icache-load-misses", "L1 I-cache misses, % of all L1-icache accesses" },
	{ "LLC_Miss", "LLC-loads,LLC-load-misses", "last-level cache load misses, % of all LL-cache accesses" },
	{ "TLB_Miss", "dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses", "TLB misses, % of all TLB accesses" },
};

const char *tool_metric_group(unsigned i, const char **events, const char **desc)
{
	if (i >= sizeof metric_groups / sizeof metric_groups[0])
		return NULL;
	*events = metric_groups[i].events;
	*desc = metric_groups[i].desc;
	return metric_groups[i].name;
}

/* -M NAME[,NAME...]: each group's events into cl->extra.  STAT_GO-style:
 * 0, or -1 after one line. */
static int add_metric_groups(struct stat_cli *cl, const char *arg)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof buf, "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t g;

		for (g = 0; g < sizeof metric_groups / sizeof metric_groups[0]; g++)
			if (strcasecmp(tok, metric_groups[g].name) == 0)
				break;
		if (g == sizeof metric_groups / sizeof metric_groups[0]) {
			fprintf(stderr, "hvpmu stat: -M: unknown metric group '%.64s' (hvpmu list metricgroup lists them)\n",
				tok);
			return -1;
		}
		if (cl->nextra == MAX_EVENT_LISTS) {
			fprintf(stderr, "hvpmu stat: too many -M groups\n");
			return -1;
		}
		cl->extra[cl->nextra++] = metric_groups[g].events;
		cl->metrics = 1;
	}
	if (!*buf || *arg == ',' || arg[strlen(arg) - 1] == ',') {
		fprintf(stderr, "hvpmu stat: -M wants metric group names, not '%.64s'\n", arg);
		return -1;
	}
	return 0;
}

/* Go on: the helpers' "no exit status yet". */
#define STAT_GO (-1)
#define STAT_OPT_TOPDOWN 0x102 /* (long only) */

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
	case 'x':
		if (tool_separator("hvpmu stat", arg))
			return EXIT_USAGE;
		cl->sep = arg;
		cl->fmt = OUT_CSV;
		break;
	case 'j': cl->fmt = OUT_JSON; break;
	case 'o': cl->outfile = arg; break;
	case 'r':
		if (parse_u64(arg, 100000, &v) || v == 0) {
			fprintf(stderr, "hvpmu stat: -r wants a number of runs 1..100000, got '%s'\n", arg);
			return EXIT_USAGE;
		}
		cl->repeat = (unsigned)v;
		break;
	case 'I': {
		char *end;

		errno = 0;
		cl->interval_ms = strtod(arg, &end);
		if (errno || end == arg || *end || !(cl->interval_ms > 0) || cl->interval_ms > 1e9) {
			fprintf(stderr, "hvpmu stat: -I wants positive milliseconds of modeled time, got '%s'\n", arg);
			return EXIT_USAGE;
		}
		break;
	}
	case 'd':
		if (cl->detailed == 3) {
			fprintf(stderr, "hvpmu stat: -d at most three times (-ddd)\n");
			return EXIT_USAGE;
		}
		cl->extra[cl->nextra++] = detailed_events[cl->detailed++];
		break;
	case 'M':
		if (add_metric_groups(cl, arg))
			return EXIT_USAGE;
		break;
	case STAT_OPT_TOPDOWN: /* perf's answer where the PMU has no topdown events */
		fprintf(stderr, "hvpmu stat: --topdown: Topdown requested but the topdown metric groups aren't present "
				"(no platform has topdown events; -M and -d give the derived metrics)\n");
		return EXIT_USAGE;
	case 'f': cl->rq.follow = 1; break;
	case 'i': cl->no_inherit = 1; break;
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
		case 0: /* (getopt's one line: tool_md_option took '?') */
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
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "detailed", no_argument, NULL, 'd' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "topdown", no_argument, NULL, STAT_OPT_TOPDOWN },
		{ "per-process", no_argument, NULL, 'T' },
		{ "all-cpus", no_argument, NULL, 'a' },
		TOOL_LONGOPT_SERVICE,
		TOOL_LONGOPT_GUEST,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 0; /* glibc: a full reset, also of a previous call's half-parsed option group */
	while ((c = getopt_long(argc, argv, "+e:x:jo:p:fiar:I:dM:h", opts, NULL)) != -1)
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
	if (cl->no_inherit && cl->rq.follow) {
		fprintf(stderr, "hvpmu stat: -i (the first process only) cannot be combined with -f or --per-process\n");
		return EXIT_USAGE;
	}
	if (cl->repeat > 1 && (cl->per_process || cl->m.service)) {
		fprintf(stderr, "hvpmu stat: -r repeats a program's run: not with --per-process or -a\n");
		return EXIT_USAGE;
	}
	if (cl->interval_ms > 0 && (cl->per_process || cl->m.service || cl->rq.follow || cl->repeat > 1)) {
		fprintf(stderr, "hvpmu stat: -I samples the program's own process in one emulator: not with -f, "
				"--per-process, -a or -r\n");
		return EXIT_USAGE;
	}
	/* perf's inherit: the whole tree (-I: one emulator, where the
	 * samples are taken; a process started uncounted fails the run) */
	if (!cl->no_inherit && !cl->rq.follow && !cl->m.service && cl->interval_ms <= 0)
		cl->rq.follow = TOOL_FOLLOW_AUTO;
	return STAT_GO;
}

/* The run's events as the platform's back-end took them (-e lists, or its
 * default_events; hvpmu_sv_request_events), kept for the printers; and
 * perf's generic events the platform lacks (absent), each printed
 * <not supported> at its place in the lists, as perf does. */
struct stat_events {
	struct hvpmu_sv_event ev[HVPMU_SV_MAX_EVENTS];
	char names[HVPMU_SV_MAX_EVENTS][HVPMU_SV_NAME_MAX];
	const char *name[HVPMU_SV_MAX_EVENTS];
	unsigned n;
	unsigned nabsent;
	unsigned absent_pos[HVPMU_SV_MAX_EVENTS]; /* its row among all the events, ascending */
	char absent[HVPMU_SV_MAX_EVENTS][HVPMU_SV_NAME_MAX];
};

/* perf's generic events (perf list: hardware, software and hardware cache
 * events of perf 6.1).  One of them that the platform's back-end does not
 * take is <not supported> and the run goes on; any other unknown name is
 * an error. */
static const char *const perf_generic[] = {
	"cpu-cycles", "cycles", "instructions", "cache-references", "cache-misses", "branch-instructions",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend", "idle-cycles-frontend",
	"stalled-cycles-backend", "idle-cycles-backend", "ref-cycles", "cpu-clock", "task-clock", "page-faults",
	"faults", "context-switches", "cs", "cpu-migrations", "migrations", "minor-faults", "major-faults",
	"alignment-faults", "emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};
static const char *const perf_caches[] = { "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node" };
static const char *const perf_cache_ops[] = { "loads", "load-misses", "stores", "store-misses", "prefetches",
					      "prefetch-misses" };

static int is_perf_generic(const char *base)
{
	for (size_t i = 0; i < sizeof perf_generic / sizeof perf_generic[0]; i++)
		if (strcmp(base, perf_generic[i]) == 0)
			return 1;
	for (size_t c = 0; c < sizeof perf_caches / sizeof perf_caches[0]; c++) {
		size_t n = strlen(perf_caches[c]);

		if (strncmp(base, perf_caches[c], n) == 0 && base[n] == '-')
			for (size_t o = 0; o < sizeof perf_cache_ops / sizeof perf_cache_ops[0]; o++)
				if (strcmp(base + n + 1, perf_cache_ops[o]) == 0)
					return 1;
	}
	return 0;
}

/* The next item of event list *p (advanced past it and its comma) into
 * item[n]: perf's NAME[:MODS], one `hv_gpci/.../` (commas inside its
 * slashes), or T4's raw `sl=N,mask=M` pair.  0 at the list's end, -1 when
 * the item does not fit. */
static int next_item(const char **p, char *item, size_t n)
{
	const char *s = *p;
	size_t len = 0;
	int slashes = 0;

	if (!*s)
		return 0;
	for (; s[len] && (s[len] != ',' || (slashes & 1) || (strncmp(s, "sl=", 3) == 0 && strncmp(s + len + 1, "mask=", 5) == 0));
	     len++)
		slashes += s[len] == '/';
	if (len >= n)
		return -1;
	memcpy(item, s, len);
	item[len] = 0;
	*p = s + len + (s[len] == ',');
	return 1;
}

/* perf's event groups: `{a,b:k}:u` is a, b in the list's order, each
 * member without modifiers of its own taking the group's (a:u,b:k).  The
 * driver forms its own groups of the listed events (up to a counter set,
 * in order), so the members count together when they fit one.  Into
 * out[n]; 0, or -1 after one line. */
static int expand_groups(const char *list, char *out, size_t n)
{
	size_t used = 0;
	const char *p = list;

	out[0] = 0;
	while (*p) {
		const char *open = strchr(p, '{'), *close, *mods, *end;
		char inner[4096], item[HVPMU_SV_NAME_MAX];
		const char *q;
		size_t modlen;
		int r = 0, first = 1;

		if (used >= n)
			break;
		if (!open) {
			used += (size_t)snprintf(out + used, n - used, "%s", p);
			break;
		}
		used += (size_t)snprintf(out + used, n - used, "%.*s", (int)(open - p), p);
		if (!(close = strchr(open, '}')) || memchr(open + 1, '{', (size_t)(close - open - 1)) ||
		    (size_t)(close - open - 1) >= sizeof inner || close == open + 1) {
			fprintf(stderr, "hvpmu stat: event group '%.64s': want {EVENT,...}[:MODS], not nested or empty\n",
				open);
			return -1;
		}
		memcpy(inner, open + 1, (size_t)(close - open - 1));
		inner[close - open - 1] = 0;
		mods = close + 1;
		end = mods + strcspn(mods, ",");
		modlen = *mods == ':' ? (size_t)(end - mods) : 0;
		if (!modlen && end != mods) {
			fprintf(stderr, "hvpmu stat: event group: '%.32s' after '}' (want :MODS or ',')\n", mods);
			return -1;
		}
		for (q = inner; used < n && (r = next_item(&q, item, sizeof item)) > 0; first = 0) {
			int own = strchr(item, ':') || strchr(item, '/');

			used += (size_t)snprintf(out + used, n - used, "%s%s%.*s", first ? "" : ",", item,
						 own ? 0 : (int)modlen, mods);
		}
		if (r < 0) {
			fprintf(stderr, "hvpmu stat: event group: an event too long\n");
			return -1;
		}
		p = end;
	}
	if (used >= n) {
		fprintf(stderr, "hvpmu stat: an event list too long\n");
		return -1;
	}
	return 0;
}

/* List `list` without perf's generic events the back-end does not take
 * (each parsed alone, with a scratch request), which go to se->absent at
 * their rows (se->n so far plus the item's index); into out[n].  0, or -1
 * after one line. */
static int drop_absent(const struct stat_cli *cl, const struct hvpmu_md *md, const struct hvpmu_sv_backend *be,
		       const char *list, struct stat_events *se, char *out, size_t n)
{
	static struct stat_request scratch; /* (large: not on the stack) */
	static struct hvpmu_sv_event sev[HVPMU_SV_MAX_EVENTS];
	static char snames[HVPMU_SV_MAX_EVENTS][HVPMU_SV_NAME_MAX];
	char item[HVPMU_SV_NAME_MAX], base[HVPMU_SV_NAME_MAX], err[512];
	const char *p = list;
	unsigned idx = 0, kept = 0, sn;
	size_t used = 0;
	int r;

	out[0] = 0;
	while ((r = next_item(&p, item, sizeof item)) > 0) {
		snprintf(base, sizeof base, "%s", item);
		base[strcspn(base, ":")] = 0;
		scratch = cl->rq;
		scratch.nevents = scratch.ngpci = 0;
		sn = 0;
		if (is_perf_generic(base) &&
		    hvpmu_sv_request_events(be, md, item, 1, &scratch, sev, snames, &sn, err, sizeof err)) {
			if (se->n + se->nabsent + kept >= HVPMU_SV_MAX_EVENTS) {
				fprintf(stderr, "hvpmu stat: too many events (at most %u)\n", HVPMU_SV_MAX_EVENTS);
				return -1;
			}
			se->absent_pos[se->nabsent] = se->n + idx;
			snprintf(se->absent[se->nabsent++], HVPMU_SV_NAME_MAX, "%s", item);
		} else {
			used += (size_t)snprintf(out + used, n - used, "%s%s", kept ? "," : "", item);
			kept++;
		}
		idx++;
		if (used >= n) {
			r = -1;
			break;
		}
	}
	if (r < 0) {
		fprintf(stderr, "hvpmu stat: an event list too long\n");
		return -1;
	}
	return 0;
}

/* The events of the machine md, with its back-end *bep: counter events
 * for its driver, or (a back-end without one, power) the events it takes
 * from elsewhere.  0, or -1 after one line. */
static int parse_stat_events(struct stat_cli *cl, const struct hvpmu_md *md, const struct hvpmu_sv_backend **bep,
			     struct stat_events *se)
{
	struct stat_request *rq = &cl->rq;
	const struct hvpmu_sv_backend *be;
	char err[512];

	if (!(be = *bep = hvpmu_sv_backend_of(md->platform))) {
		fprintf(stderr, "hvpmu stat: platform %s has no back-end\n", rq->platform);
		return -1;
	}
	/* no CPU counter driver: the model's counts only for a program (in
	 * one emulator); --per-process rows with the core counters' events */
	if (!hvpmu_sv_backend_driver(be) && cl->per_process && (!cl->have_events || !hvpmu_sv_backend_counters(be))) {
		fprintf(stderr, "hvpmu stat: platform %s has no CPU counter driver: no -e or --per-process (without "
			"them, the model's instruction counts)\n", rq->platform);
		return -1;
	}
	/* -a: the service's guest OS counts with the core counters and
	 * hv_gpci; the model's counts are a program's */
	if (!hvpmu_sv_backend_driver(be) && cl->m.service && (!cl->have_events || !hvpmu_sv_backend_counters(be))) {
		fprintf(stderr, "hvpmu stat: platform %s: -a or --service counts core counter and hv_gpci events (-e); "
			"the model's counts are a program's\n", rq->platform);
		return -1;
	}
	int dflt = !cl->have_events && !cl->metrics; /* list 0: the default events (-d adds to them) */

	if (dflt)
		cl->lists[cl->nlists++] = hvpmu_sv_backend_desc(be)->default_events;
	for (unsigned i = 0; i < cl->nextra && cl->nlists < MAX_EVENT_LISTS; i++) /* -d, -M */
		cl->lists[cl->nlists++] = cl->extra[i];
	for (unsigned i = 0; i < cl->nlists; i++) {
		static char kept[8192];
		unsigned before = se->nabsent;
		const char *list = cl->lists[i];
		int given = !dflt || i > 0;

		if (given && strlen(list) < sizeof kept) { /* groups; generic events the platform lacks */
			static char grouped[8192];

			if (expand_groups(list, grouped, sizeof grouped) ||
			    drop_absent(cl, md, be, grouped, se, kept, sizeof kept))
				return -1;
			list = kept;
			/* the absent events of this list sit after the kept
			 * ones before them: rows se->n + index, shifted by
			 * the absent ones of earlier lists */
			for (unsigned k = before; k < se->nabsent; k++)
				se->absent_pos[k] += before;
			if (!*list)
				continue;
		}
		if (hvpmu_sv_request_events(be, md, list, given, rq, se->ev, se->names, &se->n, err, sizeof err)) {
			for (char *q = err; *q; q++) /* the list quoted: one line */
				*q = (unsigned char)*q < 0x20 ? '?' : *q;
			fprintf(stderr, "hvpmu stat: %s\n", err);
			return -1;
		}
	}
	if (!se->n) {
		fprintf(stderr, "hvpmu stat: none of the events is counted on platform %s (each is <not supported>)\n",
			rq->platform);
		return -1;
	}
	if (!hvpmu_sv_backend_driver(be) && cl->per_process && rq->nevents != se->n) {
		fprintf(stderr, "hvpmu stat: platform %s: --per-process rows count core counter events; hv_gpci "
			"events and the model's counts are the whole run's (without --per-process)\n", rq->platform);
		return -1;
	}
	if (!hvpmu_sv_backend_driver(be) && cl->m.service && rq->nevents + rq->ngpci != se->n) {
		fprintf(stderr, "hvpmu stat: platform %s: -a or --service counts core counter and hv_gpci events; "
			"the model's counts (see 'hvpmu list -p %s') are a program's\n", rq->platform, rq->platform);
		return -1;
	}
	for (unsigned i = 0; i < se->n; i++)
		se->name[i] = se->names[i];
	return 0;
}

/* The rows to print: the run's (rs, se) with the absent events inserted
 * at their places, <not supported>, into *view (its proc array malloc()ed
 * when there is one: free it), ev[] and name[].  Without absent events,
 * a copy. */
static void with_absent(const struct stat_events *se, const struct stat_result *rs, struct stat_result *view,
			struct hvpmu_sv_event *ev, const char **name)
{
	unsigned total = rs->nevents + se->nabsent, a = 0, k = 0;

	*view = *rs;
	view->proc = NULL;
	if (total > HVPMU_SV_MAX_EVENTS)
		total = HVPMU_SV_MAX_EVENTS;
	if (rs->nproc && rs->proc && (view->proc = calloc(rs->nproc, sizeof *view->proc)))
		for (unsigned p = 0; p < rs->nproc; p++) {
			view->proc[p] = rs->proc[p];
			memset(view->proc[p].raw, 0, sizeof view->proc[p].raw);
			memset(view->proc[p].running, 0, sizeof view->proc[p].running);
		}
	if (!view->proc)
		view->nproc = 0;
	for (unsigned i = 0; i < total; i++) {
		if (a < se->nabsent && se->absent_pos[a] == i) {
			memset(&ev[i], 0, sizeof ev[i]);
			view->count[i] = (struct hvpmu_sv_count){ .supported = 0 };
			snprintf(view->name[i], sizeof view->name[i], "%.*s", (int)sizeof view->name[i] - 1, se->absent[a]);
			name[i] = se->absent[a++];
			continue;
		}
		if (k >= rs->nevents) { /* (an absent event past the counted ones) */
			total = i;
			break;
		}
		ev[i] = k < se->n ? se->ev[k] : (struct hvpmu_sv_event){ 0 };
		view->count[i] = rs->count[k];
		memcpy(view->name[i], rs->name[k], sizeof view->name[i]);
		name[i] = k < se->n ? se->name[k] : rs->name[k];
		for (unsigned p = 0; view->proc && p < rs->nproc; p++) {
			view->proc[p].raw[i] = rs->proc[p].raw[k];
			view->proc[p].running[i] = rs->proc[p].running[k];
		}
		k++;
	}
	/* absent events after every counted one */
	for (; a < se->nabsent && total < HVPMU_SV_MAX_EVENTS; a++, total++) {
		memset(&ev[total], 0, sizeof ev[total]);
		view->count[total] = (struct hvpmu_sv_count){ .supported = 0 };
		snprintf(view->name[total], sizeof view->name[total], "%.*s", (int)sizeof view->name[total] - 1,
			 se->absent[a]);
		name[total] = se->absent[a];
	}
	view->nevents = total;
}

/* The counts of a run in the layout the events ask for, then what the
 * hypervisor refused.  Returns 1 if the per-process table asked for is
 * incomplete (a failure: the run says so in one line), else 0. */
/* -r: each event's mean over the runs, and perf's noise: the relative
 * standard deviation of the mean (tools/perf/util/stat.c stddev_stats,
 * rel_stddev_stats), by Welford's update. */
struct repeat_stats {
	unsigned n;
	double mean[HVPMU_SV_MAX_EVENTS], m2[HVPMU_SV_MAX_EVENTS], noise[HVPMU_SV_MAX_EVENTS];
	double el_mean, el_m2, user, sys;
};

static void welford(unsigned n, double x, double *mean, double *m2)
{
	double d = x - *mean;

	*mean += d / n;
	*m2 += d * (x - *mean);
}

static double sd_of_mean(unsigned n, double m2)
{
	return n > 1 ? sqrt(m2 / (n - 1) / n) : 0.0;
}

static void repeat_add(struct repeat_stats *r, const struct stat_result *rs, const struct run_times *t)
{
	r->n++;
	for (unsigned i = 0; i < rs->nevents && i < HVPMU_SV_MAX_EVENTS; i++)
		welford(r->n, rs->count[i].scaled, &r->mean[i], &r->m2[i]);
	welford(r->n, t->elapsed, &r->el_mean, &r->el_m2);
	r->user += t->user;
	r->sys += t->sys;
}

/* The last run's result with the means in place of its counts. */
static void repeat_result(struct repeat_stats *r, struct stat_result *rs, struct run_times *t, struct out_opts *o)
{
	for (unsigned i = 0; i < rs->nevents && i < HVPMU_SV_MAX_EVENTS; i++) {
		rs->count[i].scaled = r->mean[i];
		rs->count[i].raw = (uint64_t)llround(r->mean[i]);
		r->noise[i] = r->mean[i] ? 100.0 * sd_of_mean(r->n, r->m2[i]) / r->mean[i] : 0.0;
	}
	t->elapsed = r->el_mean;
	t->user = r->user / r->n;
	t->sys = r->sys / r->n;
	o->runs = r->n;
	o->elapsed_sd = sd_of_mean(r->n, r->el_m2);
}

/* -I: the samples (cpustat's: each strand's raw count and running cycles
 * of every event so far, at its OS tick past each interval's end) as
 * perf stat -I rows: per interval the increase over every strand, scaled
 * when multiplexed, stamped with the modeled time of the interval's end. */
static void print_intervals(FILE *out, const struct stat_cli *cl, const struct hvpmu_sv_backend *be,
			    const struct stat_events *se, const struct stat_result *rs)
{
	static struct stat_result iv, view; /* (large: not on the stack) */
	static struct hvpmu_sv_event vev[HVPMU_SV_MAX_EVENTS];
	static const char *vname[HVPMU_SV_MAX_EVENTS];
	unsigned ncpu = 0, npoint = 0, nev = rs->nevents < HVPMU_SV_MAX_EVENTS ? rs->nevents : HVPMU_SV_MAX_EVENTS;
	unsigned *pts = NULL;                               /* per strand: its points so far */
	uint64_t *prev = NULL, *ptick = NULL;               /* per strand: raw, running per event; tick */
	uint64_t *raw = NULL, *run = NULL, *en = NULL, *last = NULL; /* per interval */
	struct out_opts o = { .clock_hz = 0 };

	if (cl->fmt == OUT_TABLE)
		fprintf(out, "#   modeled time             counts unit events   (-I %g: milliseconds of the machine's time,"
			     " %.3f GHz)\n", cl->interval_ms, (double)rs->clock_hz / 1e9);
	for (unsigned k = 0; k < rs->nsamples; k++)
		if (rs->samples[k].cpu + 1 > ncpu)
			ncpu = rs->samples[k].cpu + 1;
	if (!ncpu || !nev || !(pts = calloc(ncpu, sizeof *pts)))
		goto out;
	/* a point: a strand's samples at one tick (cpustat_sample writes
	 * them together); point 0 is the strand's start, interval j ends at
	 * its point j */
	for (unsigned k = 0; k < rs->nsamples; k++) {
		const struct stat_sample *s = &rs->samples[k];

		if (k + 1 == rs->nsamples || rs->samples[k + 1].cpu != s->cpu || rs->samples[k + 1].tick != s->tick)
			if (++pts[s->cpu] > npoint)
				npoint = pts[s->cpu];
	}
	if (npoint < 2 || !(prev = calloc((size_t)ncpu * nev * 2, sizeof *prev)) || !(ptick = calloc(ncpu, sizeof *ptick)) ||
	    !(raw = calloc((size_t)npoint * nev, sizeof *raw)) || !(run = calloc((size_t)npoint * nev, sizeof *run)) ||
	    !(en = calloc(npoint, sizeof *en)) || !(last = calloc(npoint, sizeof *last)))
		goto out;
	memset(pts, 0, ncpu * sizeof *pts);
	for (unsigned k = 0; k < rs->nsamples; k++) {
		const struct stat_sample *s = &rs->samples[k];
		unsigned p = pts[s->cpu];
		uint64_t *pr = &prev[((size_t)s->cpu * nev + (s->dev < nev ? s->dev : 0)) * 2];

		if (s->dev < nev) {
			if (p > 0) {
				raw[(size_t)p * nev + s->dev] += s->count[0] - pr[0];
				run[(size_t)p * nev + s->dev] += s->count[1] - pr[1];
			}
			pr[0] = s->count[0];
			pr[1] = s->count[1];
		}
		if (k + 1 == rs->nsamples || rs->samples[k + 1].cpu != s->cpu || rs->samples[k + 1].tick != s->tick) {
			if (p > 0) {
				en[p] += s->tick - ptick[s->cpu];
				last[p] = s->tick > last[p] ? s->tick : last[p];
			}
			ptick[s->cpu] = s->tick;
			pts[s->cpu]++;
		}
	}
	for (unsigned j = 1; j < npoint; j++) {
		iv = *rs;
		iv.proc = NULL;
		iv.nproc = 0;
		iv.nevents = nev;
		for (unsigned e = 0; e < nev; e++) {
			struct hvpmu_sv_count *x = &iv.count[e];

			*x = (struct hvpmu_sv_count){ .supported = rs->count[e].supported, .raw = raw[(size_t)j * nev + e],
						      .running = run[(size_t)j * nev + e], .enabled = en[j] };
			/* scaled only when the event was multiplexed (the run's
			 * running < enabled): a strand's ticks also move while
			 * the driver itself runs */
			if (x->running > x->enabled || rs->count[e].running >= rs->count[e].enabled)
				x->enabled = x->running;
			x->scaled = x->running && x->running < x->enabled
					    ? (double)x->raw * (double)x->enabled / (double)x->running
					    : (double)x->raw;
		}
		with_absent(se, &iv, &view, vev, vname);
		o.interval = rs->clock_hz ? (double)last[j] / (double)rs->clock_hz : 0.0;
		o.modeled_s = rs->clock_hz ? (double)en[j] / (double)rs->clock_hz : 0.0;
		print_stat_opts(out, cl->fmt, cl->sep, NULL, be, vev, &view, vname, NULL, &o);
		free(view.proc);
	}
out:
	free(pts);
	free(prev);
	free(ptick);
	free(raw);
	free(run);
	free(en);
	free(last);
}

static int print_results(FILE *out, const struct stat_cli *cl, const char *cmdline, const struct hvpmu_sv_backend *be,
			  const struct stat_events *se, struct stat_result *rs, const struct run_times *t,
			  const struct out_opts *o)
{
	static struct stat_result view; /* (large: not on the stack) */
	static struct hvpmu_sv_event vev[HVPMU_SV_MAX_EVENTS];
	static const char *vname[HVPMU_SV_MAX_EVENTS];
	static double vnoise[HVPMU_SV_MAX_EVENTS];
	struct out_opts vo = *o;
	char why[256];

	with_absent(se, rs, &view, vev, vname);
	if (o->noise) { /* the noise follows its event into the view (as with_absent places them) */
		for (unsigned i = 0, k = 0, a = 0; i < view.nevents; i++)
			if (a < se->nabsent && se->absent_pos[a] == i) {
				vnoise[i] = 0.0;
				a++;
			} else {
				vnoise[i] = k < rs->nevents ? o->noise[k++] : 0.0;
			}
		vo.noise = vnoise;
	}
	if (cl->interval_ms > 0)
		print_intervals(out, cl, be, se, rs);
	else if (cl->per_process)
		print_stat_per_process(out, cl->fmt, cl->sep, cmdline, be, vev, &view, t, &vo);
	else
		print_stat_opts(out, cl->fmt, cl->sep, cmdline, be, vev, &view, vname, t, &vo);
	free(view.proc);
	for (unsigned i = 0; i < se->n && i < rs->nevents; i++) /* as perf: the event <not supported>, the reason */
		if (!rs->count[i].supported && hvpmu_sv_count_refusal(be, &se->ev[i], rs, why, sizeof why))
			fprintf(stderr, "hvpmu stat: %s: %s\n", se->names[i], why);
	if (rs->hv_status) /* e.g. ENOACCESS: the description gives no perfctraccess */
		fprintf(stderr, "hvpmu stat: the hypervisor refused the counters (%s)\n",
			hvpmu_sv_status_name(rs->hv_status));
	if (cl->per_process && rs->unlisted) { /* rows that could not be kept fail the run */
		fprintf(stderr, "hvpmu stat: %u process image%s past the first %d have no --per-process row (their "
				"counts are in the totals): the table is incomplete\n",
			rs->unlisted, rs->unlisted == 1 ? "" : "s", STAT_MAX_PROCS);
		return 1;
	}
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_cli cl;
	static struct stat_events se; /* (large: not on the stack) */
	struct stat_result rs;
	struct run_times t;
	const struct hvpmu_sv_backend *be;
	struct hvpmu_md md;
	char cmdline[1024];
	int rc, ok;
	FILE *out = stderr;

	memset(&cl, 0, sizeof cl);
	memset(&se, 0, sizeof se);
	cl.fmt = OUT_TABLE;
	cl.m.tool = "hvpmu stat";
	setlocale(LC_ALL, "");
	if ((rc = parse_options(&cl, argc, argv)) != STAT_GO)
		return rc;
	if (tool_md_load(&cl.m, &cl.rq, &md, NULL) || parse_stat_events(&cl, &md, &be, &se))
		return EXIT_USAGE;
	if (cl.outfile && !(out = fopen(cl.outfile, "w"))) {
		fprintf(stderr, "hvpmu stat: %s: %s\n", cl.outfile, strerror(errno));
		return EXIT_USAGE;
	}
	join_cmdline(cmdline, sizeof cmdline, argc - optind, argv + optind);
	if (cl.m.service && optind >= argc)
		snprintf(cmdline, sizeof cmdline, "system wide");
	if (cl.interval_ms > 0) { /* cpustat's samples, every interval of each strand */
		if (!hvpmu_sv_backend_driver(be)) {
			fprintf(stderr, "hvpmu stat: -I samples the CPU counter driver's events: platform %s has none "
					"of its own\n", cl.rq.platform);
			return EXIT_USAGE;
		}
		if (interval_cycles("hvpmu stat", cl.interval_ms / 1000.0, md.clock_hz, &cl.rq.sample_cycles))
			return EXIT_USAGE;
		cl.rq.cpustat = 1;
	}
	{
		static struct repeat_stats rp; /* (large: not on the stack) */
		struct stat_request rq0 = cl.rq;
		unsigned runs = cl.repeat ? cl.repeat : 1;
		struct out_opts o = { .interval = -1 };

		memset(&rp, 0, sizeof rp);
		if (out == stderr && cl.fmt != OUT_TABLE) /* no heartbeat on the stream of CSV or JSON */
			progress_off();
		for (unsigned r = 0; r < runs; r++) {
			if (r)
				stat_result_free(&rs);
			cl.rq = rq0;
			rc = cl.m.service ? monitor_guest("hvpmu stat", &cl.rq, argc - optind, argv + optind, &rs, &t, &ok)
					  : run_guest("hvpmu stat", &cl.rq, &md, argc - optind, argv + optind, &rs, &t, &ok);
			if (!ok)
				break;
			hvpmu_sv_result_counts(be, se.ev, se.n, &rs); /* the counts no counter made */
			if (runs > 1)
				repeat_add(&rp, &rs, &t);
			/* (a program's non-zero exit does not end perf's repeats
			 * either; the status is the last run's) */
		}
		if (ok && runs > 1) {
			repeat_result(&rp, &rs, &t, &o);
			o.noise = rp.noise;
		}
		if (ok) {
			o.clock_hz = rs.clock_hz;
			o.modeled_s = rs.clock_hz ? (double)rs.tick / (double)rs.clock_hz : 0.0;
		}
	if (ok) {
		if (print_results(out, &cl, cmdline, be, &se, &rs, &t, &o) && rc == 0)
			rc = EXIT_FAILURE;
		/* the default run took the program for one process (no spawning
		 * import) and it started some: counts that could not be made
		 * (run_guest said how many; -f counts them) */
		if (!cl.no_inherit && !cl.rq.follow && rs.untracked && rc == 0)
			rc = EXIT_FAILURE;
		stat_result_free(&rs);
	}
	}
	return out != stderr ? tool_output_done("hvpmu stat", out, cl.outfile, rc) : rc;
}
