/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu cpustat` - Solaris cpustat(8) (../shared/reference/anchors.md §4.2,
 * illumos usr/src/cmd/cpc/common/cpustat.c) for the machine's CPU
 * counters, while a program runs:
 *
 *   hvpmu cpustat -c EVENTSPEC [-c EVENTSPEC]... [-nt] [-x SEP | -j] [--platform NAME]
 *                 [interval [count]] -- PROGRAM [ARGS]
 *
 * EVENTSPEC is cpc_strtoset's `[picN=]EVENT[,attr[N][=val]][,...]`:
 * EVENT a name of `hvpmu list` (the chip driver's names, Solaris PCBE
 * spelling) or its raw form; attributes `nouser`, `sys`, `hpriv` (when
 * the counters have a hypervisor mode: T4 PCR.HT) and `emask[N]=M` (when
 * the events take a mask: ORed into the T4 PCR.mask, as the PCBE does).
 * As on Solaris, a set counts user mode only unless it says `sys`;
 * `nouser` drops user mode.  Which counter may count which event is the
 * chip driver's (hvpmu_sv_event_pics: T4 any event on any of pic0..pic3;
 * T1 PICL events on pic0, Instr_cnt on pic1).  Several -c sets rotate
 * per interval (the guest driver's groups, switched on the OS tick) and
 * rows name their set after '#'.
 *
 * Every `interval` seconds of modeled time (default 5, as Solaris) the guest
 * driver samples each strand's counters without stopping them
 * (hvpmu_sv_fold); rows are `time cpu tick pic...` deltas per strand,
 * sorted by time then cpu, and the last, partial interval of each strand is
 * sampled when it stops.  `count` bounds the rows shown per cpu (the
 * program still runs to its end).  A `total` row per set closes the output,
 * its cpu column the number of cpus shown.  When the run took more
 * samples than the result area keeps (STAT_MAX_SAMPLES) the rows stop
 * there, one line says so, and the totals come from the run's final
 * counts.  Rows use cpustat's column widths and go to stderr, as
 * busstat's and perf stat's do, so that the program's stdout stays
 * untouched.  docs/cli.md.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/md.h>
#include <hvpmu/supervisor.h>
#include "tools.h"
#include "progress.h"

#define DEFAULT_INTERVAL_S 5.0 /* cpustat(8): "an interval of five seconds is used" */
#define MAX_SETS 16
#define MAX_PIC 32             /* hvpmu_sv_event_pics() is a 32-bit mask */

struct req {
	unsigned pic;   /* the counter the user named (or cpustat chose) */
	unsigned event; /* index into the stat request's ev[] */
	int shared;     /* counted in every set (hvpmu_sv_event_shared) */
};

struct set {
	const char *spec; /* as given to -c, for the '#' column */
	unsigned nreq;
	struct req req[MAX_PIC];
	uint64_t total[MAX_PIC];
	uint64_t total_tick;
	uint64_t total_run[MAX_PIC]; /* each request's running cycles in the rows shown */
};

struct opts {
	const struct hvpmu_sv_backend *be; /* the chip's driver (hvpmu/supervisor.h) */
	int header, dotick;
	enum out_format fmt; /* -x SEP: CSV, -j: JSON lines (docs/cli.md "hvpmu cpustat") */
	const char *sep;
	struct set set[MAX_SETS];
	unsigned nsets;
};

static int usage(FILE *f)
{
	char names[256];

	fprintf(f, "usage: hvpmu cpustat -c EVENTSPEC [-c EVENTSPEC]... [-nt] [-x SEP | -j] [--platform %s] [--md FILE] [interval [count]] -- PROGRAM [ARGS]\n"
		   "  EVENTSPEC: [picN=]EVENT[,sys][,nouser][,hpriv][,emask[N]=M][,[picN=]EVENT...]\n"
		   "  -n  omit the header;  -t  add a %s column (cycles, all modes)\n"
		   "  -x SEP  CSV rows, one shape (header: time,cpu,event,TICK,pic0..picN,set);  -j  JSON lines\n"
		   "  interval: seconds of modeled time (default 5); count: rows per cpu\n"
		   "  several -c sets rotate per interval;  hvpmu cpustat -h lists the events\n"
		   "  --service NAME [--guest G]: every cpu of guest G of a running hvpmu serve, for the\n"
		   "  time of PROGRAM (a host command), count intervals, or until SIGINT\n",
		   tool_platform_names(names, sizeof names, "|"),
		   hvpmu_sv_backend_desc(hvpmu_sv_backend_default())->tick_name);
	return f == stdout ? 0 : EXIT_USAGE;
}

static unsigned npic_of(const struct hvpmu_sv_backend *be)
{
	unsigned n = hvpmu_sv_backend_desc(be)->npic;

	return n < MAX_PIC ? n : MAX_PIC;
}

/*
 * The events cpustat accepts, as Solaris cpustat -h prints them (illumos
 * cpustat.c list_cap: the counters, then the events they count): one
 * list when every counter counts every event, else a line per counter.
 * Then the attributes the chip's PCR has.
 */
/* An event cpustat counts: supported, and on a back-end whose list
 * holds other events too (power: hv_gpci's, the model's counts) one a
 * counter counts. */
static int listed(const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event_info *info)
{
	return info->supported && (hvpmu_sv_backend_driver(be) || hvpmu_sv_event_pics(be, info->config));
}

static int help(const struct hvpmu_sv_backend *be)
{
	const struct hvpmu_sv_backend_desc *d = hvpmu_sv_backend_desc(be);
	unsigned npic = npic_of(be), all = npic >= 32 ? ~0u : (1u << npic) - 1;
	struct hvpmu_sv_event_info info;
	int uniform = 1;

	usage(stdout);
	for (unsigned i = 0; hvpmu_sv_backend_event(be, i, &info) == HVPMU_OK; i++)
		if (listed(be, &info) && (hvpmu_sv_event_pics(be, info.config) & all) != all)
			uniform = 0;
	printf("\n%s", d->cpustat_title);
	if (uniform) {
		printf(",");
		for (unsigned p = 0; p < npic; p++)
			printf(" pic%u", p);
		printf(":\n");
		for (unsigned i = 0; hvpmu_sv_backend_event(be, i, &info) == HVPMU_OK; i++)
			if (listed(be, &info))
				printf("  %s\n", info.name);
	} else {
		printf(":\n");
		for (unsigned p = 0; p < npic; p++) {
			printf("  pic%u:", p);
			for (unsigned i = 0; hvpmu_sv_backend_event(be, i, &info) == HVPMU_OK; i++)
				if (listed(be, &info) && (hvpmu_sv_event_pics(be, info.config) & (1u << p)))
					printf(" %s", info.name);
			printf("\n");
		}
	}
	printf("  attributes: sys nouser%s%s\n", d->modes & HVPMU_SV_MODE_HYPER ? " hpriv" : "",
	       d->emask ? " emask" : "");
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

/* The lowest counter in `pics` not in `used`, or -1. */
static int free_pic(uint32_t pics, uint32_t used, unsigned npic)
{
	for (unsigned p = 0; p < npic; p++)
		if ((pics & ~used) & (1u << p))
			return (int)p;
	return -1;
}

/* One -c EVENTSPEC as parsed: its events, the counter each asks for (-1:
 * cpustat chooses), its attributes. */
struct spec {
	const struct hvpmu_sv_backend *be;
	const struct hvpmu_sv_backend_desc *d;
	const char *text; /* the set as given, for messages */
	unsigned npic, nev;
	struct hvpmu_sv_event ev[MAX_PIC];
	int want_pic[MAX_PIC];
	long long user, sys, hpriv;
	uint64_t emask_all, emask[MAX_PIC];
};

/* Token `tok` if it is an attribute (nouser, sys, hpriv, emask[N]=M): 1
 * taken, 0 not an attribute, -1 with one line in err. */
static int spec_attr(struct spec *sp, const char *tok, char *err, size_t n)
{
	long long v;
	int picn, r;

	if (!(r = attr_value(tok, "nouser", &v, &picn)) && !(r = attr_value(tok, "sys", &v, &picn)) &&
	    !(r = attr_value(tok, "hpriv", &v, &picn)) && !(r = attr_value(tok, "emask", &v, &picn)))
		return 0;
	if (r < 0 || (picn >= 0 && (unsigned)picn >= sp->npic)) {
		snprintf(err, n, "bad attribute '%s'", tok);
		return -1;
	}
	if (tok[0] == 'h' && !(sp->d->modes & HVPMU_SV_MODE_HYPER)) {
		snprintf(err, n, "attribute '%s': the %s counters have no hypervisor mode", tok, sp->d->name);
		return -1;
	}
	if (tok[0] == 'e' && !sp->d->emask) {
		snprintf(err, n, "attribute '%s': the %s events take no mask", tok, sp->d->name);
		return -1;
	}
	switch (tok[0]) {
	case 'n': sp->user = !v; break;
	case 's': sp->sys = v; break;
	case 'h': sp->hpriv = v; break;
	default:
		if (v < 0 || ((uint64_t)v & ~sp->d->emask)) {
			snprintf(err, n, "emask '%s' has bits outside 0x%" PRIx64, tok, sp->d->emask);
			return -1;
		}
		if (picn >= 0)
			sp->emask[picn] |= (uint64_t)v;
		else
			sp->emask_all |= (uint64_t)v;
	}
	return 1;
}

/* Token `tok` as an event, `[picN=]EVENT`: 0, or -1 with one line in err. */
static int spec_event(struct spec *sp, const char *tok, char *err, size_t n)
{
	const char *name = tok;
	unsigned k = 0;

	if (sp->nev == sp->npic) {
		snprintf(err, n, "'%s': more events than the %u counters", sp->text, sp->npic);
		return -1;
	}
	if (strncmp(tok, "pic", 3) == 0 && tok[3] >= '0' && tok[3] <= '9') {
		char *end;
		unsigned long p = strtoul(tok + 3, &end, 10);

		if (*end != '=' || p >= sp->npic) {
			snprintf(err, n, "'%s': this platform has pic0..pic%u", tok, sp->npic - 1);
			return -1;
		}
		sp->want_pic[sp->nev] = (int)p;
		name = end + 1;
	} else {
		sp->want_pic[sp->nev] = -1;
	}
	if (!*name || strchr(name, ':')) {
		snprintf(err, n, "bad event '%s' (modifiers are attributes here: sys, nouser)", name);
		return -1;
	}
	if (hvpmu_sv_parse_events(sp->be, name, &sp->ev[sp->nev], &k, 1, err, n))
		return -1;
	sp->nev++;
	return 0;
}

/* The set's tokens into *sp: 0, or -1 with one line in err. */
static int spec_parse(struct spec *sp, char *err, size_t n)
{
	char buf[1024], *save = NULL, *tok;
	int r;

	if (strlen(sp->text) >= sizeof buf) {
		snprintf(err, n, "event set too long");
		return -1;
	}
	for (const char *c = sp->text; *c; c++) /* messages quote the set: one line */
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e) {
			snprintf(err, n, "invalid character 0x%02x in the event set", (unsigned char)*c);
			return -1;
		}
	strcpy(buf, sp->text);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if ((r = spec_attr(sp, tok, err, n)) < 0 || (!r && spec_event(sp, tok, err, n)))
			return -1;
	if (!sp->nev) {
		snprintf(err, n, "'%s' names no event", sp->text);
		return -1;
	}
	return 0;
}

/* The counters: the ones the user named, then events that only one
 * counter counts, then the lowest free counter that counts each other
 * event (the PCBE's pcbe_allocate_counter order), into want_pic.  0, or -1
 * with one line in err. */
static int spec_place(struct spec *sp, char *err, size_t n)
{
	uint32_t used = 0;

	for (unsigned pass = 0; pass < 3; pass++)
		for (unsigned i = 0; i < sp->nev; i++) {
			uint32_t pics = hvpmu_sv_event_pics(sp->be, sp->ev[i].config);
			int single = pics && !(pics & (pics - 1)), want = sp->want_pic[i], p;

			if (pass == 0 && want >= 0) {
				p = want;
				if (!(pics & (1u << p))) {
					snprintf(err, n, "%s cannot count on pic%d of the %s", sp->ev[i].name, p,
						 sp->d->name);
					return -1;
				}
			} else if ((pass == 1 && want < 0 && single) || (pass == 2 && want < 0)) {
				p = free_pic(pics, used, sp->npic);
				if (p < 0) {
					snprintf(err, n, "'%s': no free counter counts %s", sp->text, sp->ev[i].name);
					return -1;
				}
			} else {
				continue;
			}
			if (used & (1u << p)) {
				snprintf(err, n, "'%s' puts two events on pic%d", sp->text, p);
				return -1;
			}
			sp->want_pic[i] = p;
			used |= 1u << p;
		}
	return 0;
}

/* The placed events into rq->ev (an event every set shares once) and
 * *st's requests, in mode set `modes`.  0, or -1 with one line in err. */
static int spec_add(struct spec *sp, uint8_t modes, struct stat_request *rq, struct set *st, char *err, size_t n)
{
	unsigned first = rq->nevents;

	for (unsigned i = 0; i < sp->nev; i++) {
		struct hvpmu_sv_event *ev = &sp->ev[i];
		uint64_t em = sp->emask_all | sp->emask[sp->want_pic[i]], config;
		unsigned j;

		ev->modes = modes;
		if (hvpmu_sv_event_emask(sp->be, ev->config, em, &config) || !hvpmu_sv_event_supported(sp->be, config)) {
			snprintf(err, n, "%s%s is not supported by the model (hvpmu cpustat -h lists what is)", ev->name,
				 em ? " with that emask" : "");
			return -1;
		}
		ev->config = config;
		st->req[st->nreq].pic = (unsigned)sp->want_pic[i];
		st->req[st->nreq].shared = hvpmu_sv_event_shared(sp->be, ev->config);
		/* an event that stays on its counter in every group (T1
		 * Instr_cnt on PICH) serves every set */
		if (st->req[st->nreq].shared) {
			for (j = 0; j < rq->nevents && rq->ev[j].config != ev->config; j++)
				;
			if (j < rq->nevents) {
				if (rq->ev[j].modes != ev->modes) {
					snprintf(err, n, "%s is shared by every set on the %s: sets must use the same modes",
						 ev->name, sp->d->name);
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
		ev->new_group = rq->nevents == first && first > 0;
		st->req[st->nreq++].event = rq->nevents;
		rq->ev[rq->nevents++] = *ev;
	}
	return 0;
}

/* One -c EVENTSPEC: appends its events to rq->ev and fills *st. */
static int parse_set(struct opts *o, const char *spec, struct stat_request *rq, struct set *st, char *err, size_t n)
{
	struct spec sp;
	uint8_t modes;

	memset(&sp, 0, sizeof sp);
	sp.be = o->be;
	sp.d = hvpmu_sv_backend_desc(o->be);
	sp.text = spec;
	sp.npic = npic_of(o->be);
	sp.user = 1; /* as Solaris: user mode only unless the set says sys */
	memset(st, 0, sizeof *st);
	st->spec = spec;
	if (spec_parse(&sp, err, n))
		return -1;
	modes = (uint8_t)((sp.user ? HVPMU_SV_MODE_USER : 0) | (sp.sys ? HVPMU_SV_MODE_KERNEL : 0) |
			  (sp.hpriv ? HVPMU_SV_MODE_HYPER : 0));
	if (!modes) {
		snprintf(err, n, "'%s' counts in no mode (nouser without sys)", spec);
		return -1;
	}
	if (spec_place(&sp, err, n))
		return -1;
	{ /* one group of the driver: the set's events count at once */
		uint64_t configs[MAX_PIC];

		for (unsigned i = 0; i < sp.nev; i++)
			configs[i] = sp.ev[i].config;
		if (!hvpmu_sv_events_fit(sp.be, configs, sp.nev)) {
			snprintf(err, n, "the %s cannot count these events at once", sp.d->name);
			return -1;
		}
	}
	return spec_add(&sp, modes, rq, st, err, n);
}

/* With several sets, each must own an event: one made only of shared
 * events (counted in every group) could not tell its intervals apart. */
static int check_sets(const struct opts *o, const struct stat_request *rq)
{
	if (o->nsets < 2)
		return 0;
	for (unsigned s = 0; s < o->nsets; s++) {
		int own = 0;

		for (unsigned r = 0; r < o->set[s].nreq; r++)
			own |= !hvpmu_sv_event_shared(o->be, rq->ev[o->set[s].req[r].event].config);
		if (!own) {
			fprintf(stderr, "hvpmu cpustat: -c %s: with several sets each needs an event of its own "
					"(not one every set shares)\n", o->set[s].spec);
			return -1;
		}
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
	if (o->fmt == OUT_JSON)
		return;
	if (o->fmt == OUT_CSV) { /* one row shape: every pic, the %tick column empty without -t */
		csv_field(stderr, o->sep, 1, "time");
		csv_field(stderr, o->sep, 0, "cpu");
		csv_field(stderr, o->sep, 0, "event");
		csv_field(stderr, o->sep, 0, hvpmu_sv_backend_desc(o->be)->tick_name);
		for (unsigned p = 0; p < npic_of(o->be); p++)
			csv_fieldf(stderr, o->sep, 0, "pic%u", p);
		csv_field(stderr, o->sep, 0, "set");
		fputc('\n', stderr);
		return;
	}
	fprintf(stderr, "%7s %3s %5s ", "time", "cpu", "event");
	if (o->dotick)
		fprintf(stderr, "%9s ", hvpmu_sv_backend_desc(o->be)->tick_name); /* CPC_TICKREG_NAME */
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
	if (o->fmt == OUT_CSV) {
		csv_fieldf(stderr, o->sep, 1, "%.9f", time);
		csv_fieldf(stderr, o->sep, 0, "%u", cpu);
		csv_field(stderr, o->sep, 0, label);
		if (o->dotick)
			csv_fieldf(stderr, o->sep, 0, "%" PRIu64, tick);
		else
			csv_field(stderr, o->sep, 0, "");
		for (unsigned p = 0; p < npic_of(o->be); p++) {
			unsigned r;

			for (r = 0; r < st->nreq && st->req[r].pic != p; r++)
				;
			if (r < st->nreq)
				csv_fieldf(stderr, o->sep, 0, "%" PRIu64, d ? d[st->req[r].event] : st->total[r]);
			else
				csv_field(stderr, o->sep, 0, "");
		}
		csv_field(stderr, o->sep, 0, st->spec);
		fputc('\n', stderr);
		return;
	}
	if (o->fmt == OUT_JSON) {
		json_object *j = json_object_new_object();
		char key[16];

		json_object_object_add(j, "time", json_double_shortest(time));
		json_object_object_add(j, "cpu", json_object_new_int((int)cpu));
		json_object_object_add(j, "event", json_object_new_string(label));
		if (o->dotick)
			json_object_object_add(j, hvpmu_sv_backend_desc(o->be)->tick_name, json_object_new_uint64(tick));
		for (unsigned r = 0; r < st->nreq; r++) {
			snprintf(key, sizeof key, "pic%u", st->req[r].pic);
			json_object_object_add(j, key, json_object_new_uint64(d ? d[st->req[r].event] : st->total[r]));
		}
		json_object_object_add(j, "set", json_object_new_string(st->spec));
		fprintf(stderr, "%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_SPACED));
		json_object_put(j);
		return;
	}
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
 * The rows stopped at the sample limit (STAT_MAX_SAMPLES, no room for
 * another point of nev samples): complete each set's totals from the
 * run's final counts rs->count, which the limit does not touch.  An event
 * of the set's own counts only while the set runs, so its final count is
 * the set's total; the %tick total grows past the last row as the set's
 * own event's running cycles do (they advance exactly while the set is
 * on the counters).  An event every set shares (T1 Instr_cnt) cannot be
 * split by set: with several sets its total stays that of the rows shown.
 */
static void totals_from_final(struct opts *o, const struct stat_result *rs)
{
	for (unsigned s = 0; s < o->nsets; s++) {
		struct set *st = &o->set[s];
		int ticked = 0;

		for (unsigned r = 0; r < st->nreq; r++) {
			unsigned e = st->req[r].event;
			const struct hvpmu_sv_count *c = &rs->count[e];

			if (e >= rs->nevents || (o->nsets > 1 && st->req[r].shared))
				continue;
			if (!ticked && c->running >= st->total_run[r]) {
				st->total_tick += c->running - st->total_run[r];
				ticked = 1;
			}
			st->total[r] = c->raw;
		}
	}
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
	/* no room for another point: the samples stopped at the limit */
	int limited = nev && rs->nsamples > STAT_MAX_SAMPLES - nev;
	unsigned npts = nev ? rs->nsamples / nev : 0, shown_cpus = 0;
	struct point *pt = calloc(npts ? npts : 1, sizeof *pt);
	uint64_t (*prev)[2] = NULL, *prev_tick = NULL;
	unsigned long *rows = NULL;
	unsigned *last = NULL; /* by cpu: its last point */
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
	last = calloc(max_cpu + 1, sizeof *last);
	if (!prev || !prev_tick || !rows || !last)
		goto out;
	qsort(pt, npts, sizeof *pt, cmp_point);
	for (unsigned i = 0; i < npts; i++)
		last[pt[i].cpu] = i;
	for (unsigned i = 0; i < npts; i++) {
		const struct point *p = &pt[i];
		uint64_t (*pv)[2] = &prev[(size_t)p->cpu * nev];
		uint64_t d_raw[HVPMU_SV_MAX_EVENTS], d_run[HVPMU_SV_MAX_EVENTS], d_tick;
		uint64_t best = 0;
		int which = -1, last_of_cpu;

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
		last_of_cpu = last[p->cpu] == i;
		if (!rows[p->cpu]++)
			shown_cpus++;
		last_time = (double)p->tick / (double)clock_hz;
		o->set[which].total_tick += d_tick;
		for (unsigned r = 0; r < o->set[which].nreq; r++) {
			o->set[which].total[r] += d_raw[o->set[which].req[r].event];
			o->set[which].total_run[r] += d_run[o->set[which].req[r].event];
		}
		/* the partial interval a signal ended is marked (docs/cli.md
		 * "How a run ends") */
		print_row(o, &o->set[which], last_time, p->cpu, last_of_cpu && rs->end == STAT_END_SIGNAL ? "end" : "tick",
			  d_tick, d_raw);
	}
	/* with `count`, the limit matters only when it cut a cpu's rows short */
	if (limited && count) {
		int cut = 0;

		for (unsigned c = 0; c < max_cpu; c++)
			cut |= rows[c] && rows[c] < count;
		limited = cut;
	}
	if (limited) {
		fprintf(stderr, "hvpmu cpustat: the sample limit (%u samples) was reached at %.3f s of modeled time: "
				"no rows after it; %s\n",
			STAT_MAX_SAMPLES, last_time,
			count ? "the totals cover the rows shown" : "the totals are the whole run's");
		if (!count) {
			totals_from_final(o, rs);
			last_time = (double)rs->tick / (double)clock_hz;
		}
	}
	for (unsigned s = 0; s < o->nsets; s++)
		print_row(o, &o->set[s], last_time, shown_cpus, "total", o->set[s].total_tick, NULL);
out:
	free(pt);
	free(prev);
	free(prev_tick);
	free(rows);
	free(last);
}

int cmd_cpustat(int argc, char **argv)
{
	static const struct option lopts[] = {
		TOOL_LONGOPT_PLATFORM, /* (no -p: cpustat(8) has none) */
		TOOL_LONGOPT_MD,
		TOOL_LONGOPT_SERVICE,
		TOOL_LONGOPT_GUEST,
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
	int c, rc, ok, dohelp = 0, json = 0;
	struct tool_md_opts m = { .tool = "hvpmu cpustat", .platform = -1 };
	double interval = DEFAULT_INTERVAL_S;
	unsigned long count = 0;

	memset(&o, 0, sizeof o);
	memset(&rq, 0, sizeof rq);
	o.header = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+c:ntx:jh", lopts, NULL)) != -1) {
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
		case 'x':
			if (tool_separator("hvpmu cpustat", optarg))
				return EXIT_USAGE;
			o.sep = optarg;
			o.fmt = OUT_CSV;
			break;
		case 'j': json = 1; break;
		case 'h': dohelp = 1; break;
		default:
			if ((rc = tool_md_option(&m, c, optarg, &rq)) > 0)
				break;
			return EXIT_USAGE; /* after one line: getopt's or the option's */
		}
	}
	if (json && o.sep) {
		fprintf(stderr, "hvpmu cpustat: -x and -j cannot be combined\n");
		return EXIT_USAGE;
	}
	if (json)
		o.fmt = OUT_JSON;
	if (dohelp) {
		o.be = m.platform_given ? hvpmu_sv_backend_of(m.platform) : hvpmu_sv_backend_default();
		if (!hvpmu_sv_backend_counters(o.be)) {
			fprintf(stderr, "hvpmu cpustat: the platform has no CPU counter driver\n");
			return EXIT_USAGE;
		}
		return help(o.be);
	}
	if (parse_interval_count("hvpmu cpustat", argc, argv, &optind, &interval, &count))
		return EXIT_USAGE;
	if (!o.nsets) {
		fprintf(stderr, "hvpmu cpustat: no events given (-c [picN=]EVENT,...; -h lists them)\n");
		return EXIT_USAGE;
	}
	if (m.guest && !m.service) {
		fprintf(stderr, "hvpmu cpustat: --guest needs --service (a running hvpmu serve)\n");
		return EXIT_USAGE;
	}
	if (optind >= argc && !m.service) {
		fprintf(stderr, "hvpmu cpustat: no program given (hvpmu cpustat -c ... [interval [count]] -- PROGRAM)\n");
		return EXIT_USAGE;
	}
	if (tool_md_load(&m, &rq, &md, NULL))
		return EXIT_USAGE;
	/* the chip's counters: a driver's (T4, T1, R10000) or, on power,
	 * the POWER7 PMCs the partition's OS programs for the run */
	if (!hvpmu_sv_backend_counters(o.be = hvpmu_sv_backend_of(md.platform))) {
		fprintf(stderr, "hvpmu cpustat: platform %s has no CPU counter driver\n", rq.platform);
		return EXIT_USAGE;
	}
	for (unsigned s = 0; s < o.nsets; s++)
		if (parse_set(&o, specs[s], &rq, &o.set[s], err, sizeof err)) {
			fprintf(stderr, "hvpmu cpustat: -c %s: %s\n", specs[s], err);
			return EXIT_USAGE;
		}
	if (check_sets(&o, &rq))
		return EXIT_USAGE;
	rq.cpustat = 1;
	if (interval_cycles("hvpmu cpustat", interval, md.clock_hz, &rq.sample_cycles))
		return EXIT_USAGE;
	rq.rotate_cycles = rq.sample_cycles; /* sets switch at each sample */
	if (m.service && count) /* a service's monitor ends after `count` intervals of its time */
		rq.monitor_cycles = count > UINT64_MAX / rq.sample_cycles ? UINT64_MAX : count * rq.sample_cycles;
	if (o.fmt != OUT_TABLE) /* its CSV or JSON is on stderr: no heartbeat there */
		progress_off();
	rc = m.service ? monitor_guest("hvpmu cpustat", &rq, argc - optind, argv + optind, &rs, &t, &ok)
		     : run_guest("hvpmu cpustat", &rq, &md, argc - optind, argv + optind, &rs, &t, &ok);
	if (!ok)
		return rc;
	fflush(stdout);
	if (o.header)
		print_header(&o);
	print_rows(&o, &rs, rq.nevents, md.clock_hz, count);
	if (rs.hv_status)
		fprintf(stderr, "hvpmu cpustat: hypervisor refused access (%s)\n", hvpmu_sv_status_name(rs.hv_status));
	stat_result_free(&rs);
	return rc;
}
