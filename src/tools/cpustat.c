/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu cpustat` - Solaris cpustat(8) (../shared/reference/anchors.md §4.2,
 * illumos usr/src/cmd/cpc/common/cpustat.c) for the SPARC T4 and the
 * UltraSPARC T1, while a sparc64 program runs:
 *
 *   hvpmu cpustat -c EVENTSPEC [-c EVENTSPEC]... [-nt] [--platform t4|t1]
 *                 [interval [count]] -- PROGRAM [ARGS]
 *
 * EVENTSPEC is cpc_strtoset's `[picN=]EVENT[,attr[N][=val]][,...]`:
 * EVENT a name of `hvpmu list` (T4 TABLE 10-2 names, Solaris PCBE
 * spelling) or rHHH; attributes `nouser`, `sys`, `hpriv` (t4; PCR.HT) and
 * `emask[N]=M` (t4; ORed into the mask, as the PCBE does).  As on Solaris,
 * a set counts user mode only unless it says `sys`; `nouser` drops user
 * mode.  T4 has 4 counters (pic0..pic3), any event on any; T1 has pic0 =
 * PICL (its eight events) and pic1 = PICH (Instr_cnt only).  Several -c
 * sets rotate per interval (the guest driver's groups, switched on the
 * OS tick) and rows name their set after '#'.
 *
 * Every `interval` seconds of modeled time (default 5, as Solaris) the guest
 * driver samples each strand's counters without stopping them
 * (hvpmu_sv_fold); rows are `time cpu tick pic...` deltas per strand,
 * sorted by time then cpu, and the last, partial interval of each strand is
 * sampled when it stops.  `count` bounds the rows shown per cpu (the
 * program still runs to its end).  A `total` row per set closes the output,
 * its cpu column the number of cpus shown.  Rows use cpustat's column
 * widths and go to stderr, as busstat's and perf stat's do, so that the
 * program's stdout stays untouched.  docs/cli.md.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "events.h"
#include "tools.h"

#define DEFAULT_INTERVAL_S 5.0 /* cpustat(8): "an interval of five seconds is used" */
#define MAX_SETS 16
#define T1_NPIC 2
#define TICKREG_NAME "%tick" /* CPC_TICKREG_NAME on SPARC */

struct req {
	unsigned pic;   /* the counter the user named (or cpustat chose) */
	unsigned event; /* index into the stat request's ev[] */
};

struct set {
	const char *spec; /* as given to -c, for the '#' column */
	unsigned nreq;
	struct req req[HVPMU_T4_NPIC];
	uint64_t total[HVPMU_T4_NPIC];
	uint64_t total_tick;
};

struct opts {
	int t1, header, dotick;
	struct set set[MAX_SETS];
	unsigned nsets;
};

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu cpustat -c EVENTSPEC [-c EVENTSPEC]... [-nt] [--platform t4|t4-2|t4-4|t1] [--md FILE] [interval [count]] -- PROGRAM [ARGS]\n"
		   "  EVENTSPEC: [picN=]EVENT[,sys][,nouser][,hpriv][,emask[N]=M][,[picN=]EVENT...]\n"
		   "  -n  omit the header;  -t  add a %s column (cycles, all modes)\n"
		   "  interval: seconds of modeled time (default 5); count: rows per cpu\n"
		   "  several -c sets rotate per interval;  hvpmu cpustat -h lists the events\n",
		   TICKREG_NAME);
	return f == stdout ? 0 : EXIT_USAGE;
}

static int help(int t1)
{
	usage(stdout);
	if (t1) {
		printf("\nUltraSPARC T1 (--platform t1):\n  pic0:");
		for (unsigned k = 0; k < HVPMU_T1_NSL; k++)
			if (hvpmu_t1_picl_modeled(k) == 0)
				printf(" %s", hvpmu_t1_picl_name(k));
		printf("\n  pic1: Instr_cnt\n  attributes: sys nouser\n");
		return 0;
	}
	{
		unsigned n;
		const struct hvpmu_t4_event *ev = hvpmu_t4_events(&n);

		printf("\nSPARC T4 (default), pic0 pic1 pic2 pic3:\n");
		for (unsigned i = 0; i < n; i++)
			if (hvpmu_t4_event_supported(ev[i].sl, ev[i].mask))
				printf("  %s\n", ev[i].name);
		printf("  attributes: sys nouser hpriv emask\n");
	}
	return 0;
}

/* "name" or "name=value" (strtoll bases, as cpc_strtoset); a bare
 * attribute is 1. */
static int attr_value(const char *tok, const char *name, long long *val, int *picn)
{
	size_t len = strlen(name);
	const char *p = tok + len;
	char *end;

	*picn = -1;
	if (strncmp(tok, name, len) != 0)
		return 0;
	if (*p >= '0' && *p <= '9') /* attrN: applies to counter N only */
		*picn = (int)strtol(p, (char **)&p, 10);
	if (*p == 0) {
		*val = 1;
		return 1;
	}
	if (*p != '=')
		return 0;
	errno = 0;
	*val = strtoll(p + 1, &end, 0);
	return errno || !p[1] || *end ? -1 : 1;
}

/* One -c EVENTSPEC: appends its events to rq->ev and fills *st. */
static int parse_set(struct opts *o, const char *spec, struct stat_request *rq, struct set *st, char *err, size_t n)
{
	char buf[1024], *save = NULL, *tok;
	unsigned npic = o->t1 ? T1_NPIC : HVPMU_T4_NPIC, used = 0, first = rq->nevents;
	long long user = 1, sys = 0, hpriv = 0, emask_all = 0, emask[HVPMU_T4_NPIC] = { 0 };
	struct hvpmu_sv_event ev[HVPMU_T4_NPIC];
	int want_pic[HVPMU_T4_NPIC];
	unsigned nev = 0;

	if (strlen(spec) >= sizeof buf) {
		snprintf(err, n, "event set too long");
		return -1;
	}
	strcpy(buf, spec);
	memset(st, 0, sizeof *st);
	st->spec = spec;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long long v;
		int picn, r;
		unsigned k = 0;
		const char *name = tok;

		if ((r = attr_value(tok, "nouser", &v, &picn)) || (r = attr_value(tok, "sys", &v, &picn)) ||
		    (r = attr_value(tok, "hpriv", &v, &picn)) || (r = attr_value(tok, "emask", &v, &picn))) {
			if (r < 0 || (picn >= 0 && (unsigned)picn >= npic)) {
				snprintf(err, n, "bad attribute '%s'", tok);
				return -1;
			}
			if (o->t1 && (tok[0] == 'h' || tok[0] == 'e')) {
				snprintf(err, n, "attribute '%s' needs --platform t4 (the T1 PCR has no HT or mask)", tok);
				return -1;
			}
			switch (tok[0]) {
			case 'n': user = !v; break;
			case 's': sys = v; break;
			case 'h': hpriv = v; break;
			default:
				if (v < 0 || v > 0x3f) {
					snprintf(err, n, "emask '%s' is outside mask bits 0..0x3f", tok);
					return -1;
				}
				if (picn >= 0)
					emask[picn] |= v;
				else
					emask_all |= v;
			}
			continue;
		}
		if (nev == npic) {
			snprintf(err, n, "'%s': more events than the %u counters", spec, npic);
			return -1;
		}
		if (strncmp(tok, "pic", 3) == 0 && tok[3] >= '0' && tok[3] <= '9' && tok[4] == '=') {
			want_pic[nev] = tok[3] - '0';
			name = tok + 5;
			if ((unsigned)want_pic[nev] >= npic) {
				snprintf(err, n, "'%s': this platform has pic0..pic%u", tok, npic - 1);
				return -1;
			}
		} else {
			want_pic[nev] = -1;
		}
		if (!*name || strchr(name, ':')) {
			snprintf(err, n, "bad event '%s' (modifiers are attributes here: sys, nouser)", name);
			return -1;
		}
		if (parse_event_list_for(o->t1, name, &ev[nev], &k, 1, err, n))
			return -1;
		nev++;
	}
	if (!nev) {
		snprintf(err, n, "'%s' names no event", spec);
		return -1;
	}
	if (!user && !sys && !hpriv) {
		snprintf(err, n, "'%s' counts in no mode (nouser without sys)", spec);
		return -1;
	}
	/* counters: T1 fixes them (PICL events on pic0, Instr_cnt on pic1);
	 * T4's four count every event, so a free one is taken in order */
	for (unsigned i = 0; i < nev; i++) {
		int is_pich = o->t1 && ev[i].mask == HVPMU_SV_T1_PICH;
		int fixed = o->t1 ? (is_pich ? 1 : 0) : -1;

		if (fixed >= 0 && want_pic[i] >= 0 && want_pic[i] != fixed) {
			snprintf(err, n, "%s counts only on pic%d of the T1", ev[i].name, fixed);
			return -1;
		}
		if (want_pic[i] < 0)
			want_pic[i] = fixed;
		if (want_pic[i] >= 0 && (used & (1u << want_pic[i]))) {
			snprintf(err, n, "'%s' puts two events on pic%d", spec, want_pic[i]);
			return -1;
		}
		if (want_pic[i] >= 0)
			used |= 1u << want_pic[i];
	}
	for (unsigned i = 0; i < nev; i++) {
		if (want_pic[i] < 0) {
			unsigned p = 0;

			while (used & (1u << p))
				p++;
			want_pic[i] = (int)p;
			used |= 1u << p;
		}
		ev[i].ut = (uint8_t)(user != 0);
		ev[i].st = (uint8_t)(sys != 0);
		ev[i].ht = (uint8_t)(hpriv != 0);
		if (!o->t1) {
			unsigned m = ev[i].mask | (unsigned)emask_all | (unsigned)emask[want_pic[i]];

			if (m > 0x3f || !hvpmu_t4_event_supported(ev[i].sl, m)) {
				snprintf(err, n, "%s%s is not supported by the model (hvpmu cpustat -h lists what is)",
					 ev[i].name, m != ev[i].mask ? " with that emask" : "");
				return -1;
			}
			ev[i].mask = (uint8_t)m;
		} else if (!(ev[i].mask == HVPMU_SV_T1_PICH) && hvpmu_t1_picl_modeled(ev[i].sl) != 0) {
			snprintf(err, n, "%s is not supported by the model (hvpmu cpustat -h lists what is)", ev[i].name);
			return -1;
		}
		st->req[st->nreq].pic = (unsigned)want_pic[i];
		/* T1: one Instr_cnt event serves every set (PICH counts in every group) */
		if (o->t1 && ev[i].mask == HVPMU_SV_T1_PICH) {
			unsigned j;

			for (j = 0; j < rq->nevents && rq->ev[j].mask != HVPMU_SV_T1_PICH; j++)
				;
			if (j < rq->nevents) {
				if (rq->ev[j].ut != ev[i].ut || rq->ev[j].st != ev[i].st) {
					snprintf(err, n, "Instr_cnt is shared by every set on the T1: sets must use the same modes");
					return -1;
				}
				st->req[st->nreq++].event = j;
				continue;
			}
		}
		if (rq->nevents == HVPMU_SV_MAX_EVENTS) {
			snprintf(err, n, "too many events");
			return -1;
		}
		ev[i].new_group = rq->nevents == first && first > 0;
		st->req[st->nreq++].event = rq->nevents;
		rq->ev[rq->nevents++] = ev[i];
	}
	return 0;
}

/* A sample point: one strand's events at one %tick. */
struct point {
	uint64_t tick;
	unsigned cpu;
	const struct stat_sample *first; /* nevents consecutive samples */
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	if (x->tick != y->tick)
		return x->tick < y->tick ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static void print_header(const struct opts *o)
{
	fprintf(stderr, "%7s %3s %5s ", "time", "cpu", "event");
	if (o->dotick)
		fprintf(stderr, "%9s ", TICKREG_NAME);
	for (unsigned i = 0; i < o->set[0].nreq; i++)
		fprintf(stderr, "%8s%-2u", "pic", o->set[0].req[i].pic); /* cpustat's 10-byte snprintf of "%8s%-2d " */
	fprintf(stderr, "\n");
}

/* One row in cpustat's columns: time, cpu (for `total`: the cpus shown),
 * label, [%tick], the set's counts - d[event] of each request, or the
 * set's totals when d is NULL - and ` # SET` when there are several sets. */
static void print_row(const struct opts *o, const struct set *st, double time, unsigned cpu, const char *label,
		      uint64_t tick, const uint64_t *d)
{
	fprintf(stderr, "%7.3f %3u %5s ", time, cpu, label);
	if (o->dotick)
		fprintf(stderr, "%9" PRIu64 " ", tick);
	for (unsigned r = 0; r < st->nreq; r++)
		fprintf(stderr, "%9" PRIu64 " ", d ? d[st->req[r].event] : st->total[r]);
	if (o->nsets > 1)
		fprintf(stderr, " # %s", st->spec);
	fprintf(stderr, "\n");
}

/*
 * Turn the plugin's cumulative per-strand samples into rows.  The set
 * that ran in an interval is the one whose events all ran longest in it
 * (the others ran 0 cycles: the driver switches sets only on the ticks
 * that are also sample points); a point where no set ran is skipped.
 */
static void print_rows(struct opts *o, const struct stat_result *rs, unsigned nev, uint64_t clock_hz,
		       unsigned long count)
{
	unsigned npts = nev ? rs->nsamples / nev : 0, shown_cpus = 0;
	struct point *pt = calloc(npts ? npts : 1, sizeof *pt);
	uint64_t (*prev)[2] = NULL, *prev_tick = NULL;
	unsigned long *rows = NULL;
	unsigned max_cpu = 0;
	double last_time = 0;

	if (!pt)
		return;
	for (unsigned i = 0; i < npts; i++) {
		pt[i].first = &rs->samples[i * nev];
		pt[i].tick = pt[i].first->tick;
		pt[i].cpu = pt[i].first->cpu;
		if (pt[i].cpu + 1 > max_cpu)
			max_cpu = pt[i].cpu + 1;
	}
	/* prev[cpu * nev + e]: raw and running at that cpu's last point */
	prev = calloc((size_t)max_cpu * nev + 1, sizeof *prev);
	prev_tick = calloc(max_cpu + 1, sizeof *prev_tick);
	rows = calloc(max_cpu + 1, sizeof *rows);
	if (!prev || !prev_tick || !rows)
		goto out;
	qsort(pt, npts, sizeof *pt, cmp_point);
	for (unsigned i = 0; i < npts; i++) {
		const struct point *p = &pt[i];
		uint64_t (*pv)[2] = &prev[(size_t)p->cpu * nev];
		uint64_t d_raw[HVPMU_SV_MAX_EVENTS], d_run[HVPMU_SV_MAX_EVENTS], d_tick;
		uint64_t best = 0;
		int which = -1;

		for (unsigned e = 0; e < nev; e++) {
			d_raw[e] = p->first[e].count[0] - pv[e][0];
			d_run[e] = p->first[e].count[1] - pv[e][1];
			pv[e][0] = p->first[e].count[0];
			pv[e][1] = p->first[e].count[1];
		}
		d_tick = p->tick - prev_tick[p->cpu];
		prev_tick[p->cpu] = p->tick;
		for (unsigned s = 0; s < o->nsets; s++) {
			uint64_t m = UINT64_MAX;

			for (unsigned r = 0; r < o->set[s].nreq; r++)
				if (d_run[o->set[s].req[r].event] < m)
					m = d_run[o->set[s].req[r].event];
			if (m > best) {
				best = m;
				which = (int)s;
			}
		}
		if (which < 0 || (count && rows[p->cpu] >= count))
			continue;
		if (!rows[p->cpu]++)
			shown_cpus++;
		last_time = (double)p->tick / (double)clock_hz;
		o->set[which].total_tick += d_tick;
		for (unsigned r = 0; r < o->set[which].nreq; r++)
			o->set[which].total[r] += d_raw[o->set[which].req[r].event];
		print_row(o, &o->set[which], last_time, p->cpu, "tick", d_tick, d_raw);
	}
	for (unsigned s = 0; s < o->nsets; s++)
		print_row(o, &o->set[s], last_time, shown_cpus, "total", o->set[s].total_tick, NULL);
out:
	free(pt);
	free(prev);
	free(prev_tick);
	free(rows);
}

int cmd_cpustat(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "platform", required_argument, NULL, 'P' },
		{ "md", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o;
	struct stat_request rq;
	struct stat_result rs;
	struct run_times t;
	struct hvpmu_md md;
	const char *specs[MAX_SETS];
	char err[512];
	int c, rc, ok, dohelp = 0, platform_given = 0;
	const char *md_file = NULL;
	double interval = DEFAULT_INTERVAL_S;
	unsigned long count = 0;

	memset(&o, 0, sizeof o);
	memset(&rq, 0, sizeof rq);
	o.header = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+c:nth", lopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (o.nsets == MAX_SETS) {
				fprintf(stderr, "hvpmu cpustat: at most %d -c sets\n", MAX_SETS);
				return EXIT_USAGE;
			}
			specs[o.nsets++] = optarg;
			break;
		case 'n': o.header = 0; break;
		case 't': o.dotick = 1; break;
		case 'P': {
			struct hvpmu_md named;

			if (tool_set_platform("hvpmu cpustat", optarg, &rq, &named))
				return EXIT_USAGE;
			o.t1 = named.platform == HVPMU_PLATFORM_T1;
			platform_given = 1;
			break;
		}
		case 'M': md_file = optarg; break;
		case 'h': dohelp = 1; break;
		default: return usage(stderr);
		}
	}
	if (dohelp)
		return help(o.t1);
	if (parse_interval_count("hvpmu cpustat", argc, argv, &optind, &interval, &count))
		return EXIT_USAGE;
	if (!o.nsets) {
		fprintf(stderr, "hvpmu cpustat: no events given (-c [picN=]EVENT,...; -h lists them)\n");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "hvpmu cpustat: no program given (hvpmu cpustat -c ... [interval [count]] -- PROGRAM)\n");
		return EXIT_USAGE;
	}
	if (!rq.platform[0])
		strcpy(rq.platform, "t4");
	if (tool_load_md("hvpmu cpustat", md_file, platform_given, &rq, &md))
		return EXIT_USAGE;
	o.t1 = md.platform == HVPMU_PLATFORM_T1;
	for (unsigned s = 0; s < o.nsets; s++)
		if (parse_set(&o, specs[s], &rq, &o.set[s], err, sizeof err)) {
			fprintf(stderr, "hvpmu cpustat: -c %s: %s\n", specs[s], err);
			return EXIT_USAGE;
		}
	if (o.t1 && o.nsets > 1)
		for (unsigned s = 0; s < o.nsets; s++) {
			int picl = 0;

			for (unsigned r = 0; r < o.set[s].nreq; r++)
				picl |= o.set[s].req[r].pic == 0;
			if (!picl) {
				fprintf(stderr, "hvpmu cpustat: -c %s: with several sets on the T1 each needs a pic0 event\n",
					o.set[s].spec);
				return EXIT_USAGE;
			}
		}
	rq.cpustat = 1;
	rq.sample_cycles = (uint64_t)(interval * (double)md.clock_hz);
	if (!rq.sample_cycles)
		rq.sample_cycles = 1;
	rq.rotate_cycles = rq.sample_cycles; /* sets switch at each sample */
	rc = run_guest("hvpmu cpustat", &rq, argc - optind, argv + optind, &rs, &t, &ok);
	if (!ok)
		return rc;
	fflush(stdout);
	if (o.header)
		print_header(&o);
	print_rows(&o, &rs, rq.nevents, md.clock_hz, count);
	if (rs.hv_status)
		fprintf(stderr, "hvpmu cpustat: hypervisor refused access (%s)\n", hvpmu_hv_status_name(rs.hv_status));
	stat_result_free(&rs);
	return rc;
}
