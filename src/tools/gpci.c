/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu gpci [-p PLATFORM] [--md FILE | --service NAME] [--partition ID]
 * [-r REQUEST] [-s INDEX] [-x SEP | -j] [interval [count]]`: ask the
 * modeled machine's hypervisor
 * H_GetPerformanceCounterInfo (hcall 0xF080) as Linux's hv_gpci does
 * (hvpmu/gpci.h), from the guest OS of one partition, and print every
 * list of each reply as a table row, one column per field of the
 * request's layout (the service's tables: docs/papr-gpci.md).  Without
 * -r: every request that returns lists.  Without -s: the first
 * processor, partition or chip (all of them), or -1 (the caller's own)
 * for requests about the caller only and, when the capabilities probe
 * says the partition may not see others, for the partition requests.  Default platform: the first built-in description with
 * a CEC.  Default output: a table per request; -x SEP: a header line and
 * one line per list, fields separated by SEP; -j: one JSON object per
 * list.  Without --service no program runs: counters are what the
 * machine's CEC statistics hold at boot.  With --service the partition's
 * OS in a running hvpmu serve asks, while its programs run: every
 * `interval` seconds (wall clock), `count` times (default: until
 * interrupted or the service ends), each sample stamped with its time
 * (docs/cli.md).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/md.h>
#include <hvpmu/gpci.h>
#include <hvpmu/supervisor.h>
#include "tools.h"

#define TOOL "hvpmu gpci"

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu gpci [-p PLATFORM] [--md FILE | --service NAME] [--partition ID] [-r REQUEST] [-s INDEX]\n"
		   "                  [-x SEP | -j] [interval [count]]\n"
		   "  -p  platform (default: the first whose description has a CEC)\n"
		   "  --service  ask the partition's OS in a running hvpmu serve (its programs running);\n"
		   "      interval (seconds) and count sample it (default count: until interrupted)\n"
		   "  --partition  the partition that asks (default: the CEC's first)\n"
		   "  -r  request: a name or a code (default: every request that returns lists)\n"
		   "  -s  starting index (default: 0; -1 for requests about the caller, and for the\n"
		   "      partition requests of a partition without the right to see others)\n"
		   "  -x  CSV with separator SEP;  -j  JSON lines\n"
		   "requests:");
	for (unsigned i = 0; hvpmu_gpci_sv_request_at(i); i++)
		fprintf(f, " %s (0x%" PRIx32 ")", hvpmu_gpci_sv_request_at(i)->name, hvpmu_gpci_sv_request_at(i)->code);
	fprintf(f, "\n");
	return f == stdout ? 0 : EXIT_USAGE;
}

/* The first built-in description with a CEC, into rq->platform. */
static int default_platform(struct stat_request *rq)
{
	const char *name;
	struct hvpmu_md md;

	for (unsigned i = 0; (name = hvpmu_sv_machine_name_at(i)); i++) {
		char err[256], got[HVPMU_SV_PLATFORM_NAME_MAX];

		if (!hvpmu_sv_load_machine(name, NULL, 1, &md, got, err, sizeof err) && md.cec.nchips &&
		    strlen(name) < sizeof rq->platform) {
			strcpy(rq->platform, name);
			return 0;
		}
	}
	fprintf(stderr, TOOL ": no platform has a PAPR CEC\n");
	return -1;
}

/* A field's value as text: counters in decimal, identifiers and states in hex. */
static void format_value(char *buf, size_t n, const struct hvpmu_gpci_field *fd, uint64_t v)
{
	snprintf(buf, n, fd->counter ? "%" PRIu64 : "0x%" PRIx64, v);
}

/* The default table: a title, a header row of the fields' names, one row
 * per list (per processor, partition or chip), columns as wide as their
 * widest cell. */
static void print_table(const struct hvpmu_gpci_reply *r)
{
	const struct hvpmu_gpci_request *rq = r->rq;
	size_t width[32];
	char cell[24];

	printf("%s (0x%" PRIx32 "): %" PRIu32 " list%s from index 0x%" PRIx32 "%s\n", rq->name, rq->code,
	       r->returned_values, r->returned_values == 1 ? "" : "s", r->starting_index,
	       r->status ? " (partial: the buffer is full)" : "");
	for (unsigned f = 0; f < rq->nfields && f < 32; f++) {
		width[f] = strlen(rq->fields[f].name);
		for (uint32_t e = 0; e < r->returned_values; e++) {
			uint64_t v = 0;

			hvpmu_gpci_field(r, e, f, &v);
			format_value(cell, sizeof cell, &rq->fields[f], v);
			if (strlen(cell) > width[f])
				width[f] = strlen(cell);
		}
		printf("%s%*s", f ? "  " : "", (int)width[f], rq->fields[f].name);
	}
	printf("\n");
	for (uint32_t e = 0; e < r->returned_values; e++) {
		for (unsigned f = 0; f < rq->nfields && f < 32; f++) {
			uint64_t v = 0;

			hvpmu_gpci_field(r, e, f, &v);
			format_value(cell, sizeof cell, &rq->fields[f], v);
			printf("%s%*s", f ? "  " : "", (int)width[f], cell);
		}
		printf("\n");
	}
}

/* One reply: a table, or a line per list; `t` >= 0: the sample's time
 * (seconds), a first column / key. */
static void print_reply(const struct hvpmu_gpci_reply *r, enum out_format fmt, const char *sep, double t, int header)
{
	const struct hvpmu_gpci_request *rq = r->rq;
	char cell[24];

	if (fmt == OUT_TABLE) {
		print_table(r);
		return;
	}
	if (fmt == OUT_CSV && header) {
		if (t >= 0)
			csv_field(stdout, sep, 1, "time");
		csv_field(stdout, sep, t < 0, "request");
		csv_field(stdout, sep, 0, "list");
		for (unsigned f = 0; f < rq->nfields; f++)
			csv_field(stdout, sep, 0, rq->fields[f].name);
		printf("\n");
	}
	for (uint32_t e = 0; e < r->returned_values; e++) {
		json_object *o = fmt == OUT_JSON ? json_object_new_object() : NULL;

		if (o) {
			if (t >= 0)
				json_object_object_add(o, "time", json_double_shortest(t));
			json_object_object_add(o, "request", json_object_new_string(rq->name));
			json_object_object_add(o, "list", json_object_new_int((int)e));
		} else {
			if (t >= 0)
				csv_fieldf(stdout, sep, 1, "%.3f", t);
			csv_field(stdout, sep, t < 0, rq->name);
			csv_fieldf(stdout, sep, 0, "%" PRIu32, e);
		}
		for (unsigned f = 0; f < rq->nfields; f++) {
			uint64_t v = 0;

			hvpmu_gpci_field(r, e, f, &v);
			if (o) {
				json_object_object_add(o, rq->fields[f].name, json_object_new_uint64(v));
			} else {
				format_value(cell, sizeof cell, &rq->fields[f], v);
				csv_field(stdout, sep, 0, cell);
			}
		}
		if (o) {
			printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
			json_object_put(o);
		} else {
			printf("\n");
		}
	}
}

static volatile sig_atomic_t stop_flag;

/* Who asks: a machine of the tool's own (no program runs), or the
 * partition's OS in a running service. */
struct asker {
	struct hvpmu_gpci_sys *sys;
	const char *service;
	char guest[32]; /* md guests[].name */
};

/* One request: 0 and *r, or -1 (the service is gone or refused: said on stderr). */
static int ask(const struct asker *a, uint32_t code, uint32_t start, struct hvpmu_gpci_reply *r)
{
	uint32_t args[3] = { code, start, 0 };
	char err[256];

	if (a->sys) {
		hvpmu_gpci_call(hvpmu_gpci_sys_os(a->sys), code, start, 0, 0, r);
		return 0;
	}
	if (hvpmu_service_gpci(a->service, a->guest, args, r, err, sizeof err)) {
		if (!stop_flag) /* (interrupted while it asked: the samples so far stand) */
			fprintf(stderr, TOOL ": %s\n", err);
		return -1;
	}
	return 0;
}
static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* `[interval [count]]`: 0, or -1 (said). */
static int parse_operands(int argc, char **argv, int i, double *interval, unsigned long *count)
{
	for (int k = 0; i < argc; k++, i++) {
		char *end;
		double v = strtod(argv[i], &end);

		if (k > 1 || *end || !*argv[i] || !(v > 0) || (k == 1 && (v != (double)(unsigned long)v || v >= 1e15)) ||
		    (k == 0 && v > 1e6)) {
			fprintf(stderr, TOOL ": bad operand '%s' (interval and count are positive numbers)\n", argv[i]);
			return -1;
		}
		if (k == 0)
			*interval = v;
		else
			*count = (unsigned long)v;
	}
	return 0;
}

/* What the command line asks. */
struct gpci_cli {
	struct stat_request rq;
	struct tool_md_opts m;
	const struct hvpmu_gpci_request *only; /* -r, or NULL: every request */
	const char *sep;
	unsigned long partition, count;
	long long index;
	double interval;
	int json, index_given;
};

/* Go on: the helpers' "no exit status yet". */
#define GPCI_GO (-1)

/* One option of gpci's own, or a machine option: GPCI_GO, or an exit
 * status (-h; an error after one line). */
static int gpci_option(struct gpci_cli *cl, int c, const char *arg)
{
	char *end;

	switch (c) {
	case 'P':
		cl->partition = strtoul(arg, &end, 0);
		if (*end || !*arg || arg[0] == '-' || cl->partition < 1 || cl->partition > 0xFFFE) {
			fprintf(stderr, TOOL ": --partition %s: not a partition id (1..65534)\n", arg);
			return EXIT_USAGE;
		}
		break;
	case 'r':
		if (!(cl->only = hvpmu_gpci_sv_request_parse(arg))) {
			fprintf(stderr, TOOL ": -r %s: not a request (hvpmu gpci --help lists them)\n", arg);
			return EXIT_USAGE;
		}
		break;
	case 's':
		cl->index = strtoll(arg, &end, 0);
		if (*end || !*arg || cl->index < -1 || cl->index > (long long)UINT32_MAX - 1) {
			fprintf(stderr, TOOL ": -s %s: not a starting index (-1 or 0..4294967294)\n", arg);
			return EXIT_USAGE;
		}
		cl->index_given = 1;
		break;
	case 'x':
		if (tool_separator(TOOL, arg))
			return EXIT_USAGE;
		cl->sep = arg;
		break;
	case 'j': cl->json = 1; break;
	case 'h': return usage(stdout);
	default:
		switch (tool_md_option(&cl->m, c, arg, &cl->rq)) {
		case 1: break;
		case 0: /* (getopt's one line: tool_md_option took '?') */
		default: return EXIT_USAGE;
		}
	}
	return GPCI_GO;
}

/* The options and operands: GPCI_GO, or an exit status. */
static int parse_options(struct gpci_cli *cl, int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, TOOL_LONGOPT_MD,
					      { "partition", required_argument, NULL, 'P' }, TOOL_LONGOPT_SERVICE,
					      { NULL, 0, NULL, 0 } };
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:r:s:x:jh", opts, NULL)) != -1)
		if ((rc = gpci_option(cl, c, optarg)) != GPCI_GO)
			return rc;
	if (cl->sep && cl->json) {
		fprintf(stderr, TOOL ": -x and -j cannot be combined\n");
		return EXIT_USAGE;
	}
	if (parse_operands(argc, argv, optind, &cl->interval, &cl->count))
		return EXIT_USAGE;
	if (cl->interval > 0 && !cl->m.service) {
		fprintf(stderr, TOOL ": sampling needs --service (the partitions' programs run in hvpmu serve)\n");
		return EXIT_USAGE;
	}
	return GPCI_GO;
}

/* The machine (the service's, or -p / --md / the first with a CEC) into
 * *md and who asks into *a: the partition's guest in the service, or a
 * machine of the tool's own.  0, or -1 after one line. */
static int open_asker(struct gpci_cli *cl, struct hvpmu_md *md, struct asker *a)
{
	a->service = cl->m.service;
	if (!a->service && !cl->m.platform_given && default_platform(&cl->rq))
		return -1;
	if (tool_md_load(&cl->m, &cl->rq, md, NULL))
		return -1;
	if (!md->cec.nchips) {
		fprintf(stderr, TOOL ": platform %s: no PAPR CEC in the machine description\n", cl->rq.platform);
		return -1;
	}
	if (a->service) { /* the partition's guest */
		int part = cl->partition ? hvpmu_cec_partition_index(&md->cec, (uint32_t)cl->partition) : 0;

		if (part < 0 || (unsigned)part >= md->nguests) {
			fprintf(stderr, TOOL ": service '%s': no partition %lu with a guest\n", a->service,
				cl->partition);
			return -1;
		}
		snprintf(a->guest, sizeof a->guest, "%s", md->guests[part].name);
	} else if (hvpmu_gpci_sys_open(md, (unsigned)cl->partition, &a->sys)) {
		fprintf(stderr, TOOL ": platform %s: no such partition, or one without a guest of 4096 bytes of memory or more\n",
			cl->rq.platform);
		return -1;
	}
	return 0;
}

/* hv_perf_caps_get() first, as Linux: whether the partition may see the
 * others (a partition without the right asks about itself, -1, where it
 * may).  0 and *privileged, or -1 (the service is gone or refused: said). */
static int probe_privileged(const struct asker *a, struct hvpmu_gpci_reply *r, int *privileged)
{
	if (a->sys) {
		struct hvpmu_gpci_caps caps;

		*privileged = hvpmu_gpci_caps_get(hvpmu_gpci_sys_os(a->sys), &caps) == HVPMU_H_SUCCESS &&
			      caps.collect_privileged;
		return 0;
	}
	if (ask(a, 0x40, HVPMU_GPCI_INDEX_SELF, r))
		return -1;
	*privileged = hvpmu_gpci_reply_ok(r) && r->returned_values && r->data[0];
	return 0;
}

/* Sample number `sample` (at t seconds, or -1: no sampling): each request
 * asked and printed; *failed counts the failures a status should report,
 * *asked the requests asked.  A service that is gone ends the sampling
 * (stop_flag). */
static void sample_once(const struct gpci_cli *cl, const struct asker *a, struct hvpmu_gpci_reply *r,
			unsigned long sample, double t, int privileged, int *failed, int *asked)
{
	const struct hvpmu_gpci_request *only = cl->only;

	for (unsigned i = 0; only ? i == 0 : hvpmu_gpci_sv_request_at(i) != NULL; i++) {
		const struct hvpmu_gpci_request *q = only ? only : hvpmu_gpci_sv_request_at(i);
		int self = q->index == HVPMU_GPCI_IDX_SELF || (q->index == HVPMU_GPCI_IDX_PARTITION && !privileged);
		uint32_t start = cl->index_given ? (uint32_t)cl->index : self ? HVPMU_GPCI_INDEX_SELF : 0;

		if (q->index == HVPMU_GPCI_IDX_NONE) { /* set_mmcrh: input only */
			if (only && !sample)
				fprintf(stderr, TOOL ": %s returns no lists\n", q->name);
			*failed += only != NULL && !sample;
			continue;
		}
		++*asked;
		if (ask(a, q->code, start, r)) {
			*failed += !stop_flag; /* (a signal during a sample ends the sampling) */
			stop_flag = 1;
			break;
		}
		if (!hvpmu_gpci_reply_ok(r)) {
			if (!sample)
				fprintf(stderr, TOOL ": %s (0x%" PRIx32 "): %s\n", q->name, q->code,
					hvpmu_gpci_status_name(r->status));
			*failed += !sample;
			continue;
		}
		print_reply(r, cl->json ? OUT_JSON : cl->sep ? OUT_CSV : OUT_TABLE, cl->sep, t, !sample);
	}
}

/* Until the next sample, at t0 + (sample + 1) x interval; a signal ends
 * the wait early (stop_flag). */
static void wait_next(const struct timespec *t0, unsigned long sample, double interval)
{
	double wait = (double)(sample + 1) * interval - seconds_since(t0);
	struct timespec ts = { 0, 0 };

	if (wait > 0) {
		ts.tv_sec = (time_t)wait;
		ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
}

int cmd_gpci(int argc, char **argv)
{
	static struct gpci_cli cl;
	static struct hvpmu_gpci_reply r;
	struct hvpmu_md md;
	struct asker a = { 0 };
	int rc, failed = 0, asked = 0, privileged = 0;
	struct timespec t0;

	memset(&cl, 0, sizeof cl);
	cl.m.tool = TOOL;
	if ((rc = parse_options(&cl, argc, argv)) != GPCI_GO)
		return rc;
	if (open_asker(&cl, &md, &a))
		return EXIT_USAGE;
	if (probe_privileged(&a, &r, &privileged))
		return 1;
	if (cl.interval > 0) {
		signal(SIGINT, on_stop);
		signal(SIGTERM, on_stop);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned long sample = 0; !stop_flag; sample++) {
		double t = cl.interval > 0 ? seconds_since(&t0) : -1;

		if (cl.interval > 0 && !cl.json && !cl.sep)
			printf("%ssample %lu at %.3f s\n", sample ? "\n" : "", sample + 1, t);
		sample_once(&cl, &a, &r, sample, t, privileged, &failed, &asked);
		if (fflush(stdout)) { /* told here, with its errno (not again by main) */
			fprintf(stderr, "%s: writing standard output: %s\n", TOOL, strerror(errno));
			clearerr(stdout);
			failed = 1;
			break;
		}
		if (cl.interval <= 0 || (cl.count && sample + 1 >= cl.count))
			break;
		wait_next(&t0, sample, cl.interval);
	}
	hvpmu_gpci_sys_close(a.sys);
	return failed || !asked ? 1 : 0;
}
