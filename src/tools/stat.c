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

	fprintf(f, "usage: hvpmu stat [-e EVENT,...] [-f | -i] [-x SEP | -j] [-o FILE] -- PROGRAM [ARGS]\n"
		   "  -e, --event LIST     events: the platform's names (hvpmu list), perf aliases, raw; :u :k :h\n"
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
	int no_inherit; /* -i: the first process only, in one emulator */
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
	case 'x':
		if (tool_separator("hvpmu stat", arg))
			return EXIT_USAGE;
		cl->sep = arg;
		cl->fmt = OUT_CSV;
		break;
	case 'j': cl->fmt = OUT_JSON; break;
	case 'o': cl->outfile = arg; break;
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
		{ "per-process", no_argument, NULL, 'T' },
		{ "all-cpus", no_argument, NULL, 'a' },
		TOOL_LONGOPT_SERVICE,
		TOOL_LONGOPT_GUEST,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:x:jo:p:fiah", opts, NULL)) != -1)
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
	if (!cl->no_inherit && !cl->rq.follow && !cl->m.service) /* perf's inherit: the whole tree */
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
		if (used >= n)
			r = -1;
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
	if (!cl->have_events)
		cl->lists[cl->nlists++] = hvpmu_sv_backend_desc(be)->default_events;
	for (unsigned i = 0; i < cl->nlists; i++) {
		static char kept[8192];
		unsigned before = se->nabsent;
		const char *list = cl->lists[i];

		if (cl->have_events && strlen(list) < sizeof kept) { /* generic events the platform lacks */
			if (drop_absent(cl, md, be, list, se, kept, sizeof kept))
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
		if (hvpmu_sv_request_events(be, md, list, cl->have_events, rq, se->ev, se->names, &se->n, err,
					    sizeof err)) {
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
			snprintf(view->name[i], sizeof view->name[i], "%s", se->absent[a]);
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
		snprintf(view->name[total], sizeof view->name[total], "%s", se->absent[a]);
		name[total] = se->absent[a];
	}
	view->nevents = total;
}

/* The counts of a run in the layout the events ask for, then what the
 * hypervisor refused.  Returns 1 if the per-process table asked for is
 * incomplete (a failure: the run says so in one line), else 0. */
static int print_results(FILE *out, const struct stat_cli *cl, const char *cmdline, const struct hvpmu_sv_backend *be,
			  const struct stat_events *se, struct stat_result *rs, const struct run_times *t)
{
	static struct stat_result view; /* (large: not on the stack) */
	static struct hvpmu_sv_event vev[HVPMU_SV_MAX_EVENTS];
	static const char *vname[HVPMU_SV_MAX_EVENTS];
	char why[256];

	hvpmu_sv_result_counts(be, se->ev, se->n, rs); /* the counts no counter made */
	with_absent(se, rs, &view, vev, vname);
	if (cl->per_process)
		print_stat_per_process(out, cl->fmt, cl->sep, cmdline, &view, t);
	else
		print_stat(out, cl->fmt, cl->sep, cmdline, be, vev, &view, vname, t);
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
	rc = cl.m.service ? monitor_guest("hvpmu stat", &cl.rq, argc - optind, argv + optind, &rs, &t, &ok)
			  : run_guest("hvpmu stat", &cl.rq, &md, argc - optind, argv + optind, &rs, &t, &ok);
	if (ok) {
		if (print_results(out, &cl, cmdline, be, &se, &rs, &t) && rc == 0)
			rc = EXIT_FAILURE;
		/* the default run took the program for one process (no spawning
		 * import) and it started some: counts that could not be made
		 * (run_guest said how many; -f counts them) */
		if (!cl.no_inherit && !cl.rq.follow && rs.untracked && rc == 0)
			rc = EXIT_FAILURE;
		stat_result_free(&rs);
	}
	return out != stderr ? tool_output_done("hvpmu stat", out, cl.outfile, rc) : rc;
}
