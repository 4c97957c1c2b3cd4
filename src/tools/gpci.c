/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu gpci [-p PLATFORM] [--md FILE] [--partition ID] [-r REQUEST]
 * [-s INDEX] [-x SEP | -j]`: ask the modeled machine's hypervisor
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
 * list.  No program runs: counters are what the machine's CEC statistics
 * hold at boot (docs/cli.md).
 */
#include <getopt.h>
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
	fprintf(f, "usage: hvpmu gpci [-p PLATFORM] [--md FILE] [--partition ID] [-r REQUEST] [-s INDEX] [-x SEP | -j]\n"
		   "  -p  platform (default: the first whose description has a CEC)\n"
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

static void print_reply(const struct hvpmu_gpci_reply *r, enum out_format fmt, const char *sep)
{
	const struct hvpmu_gpci_request *rq = r->rq;
	char cell[24];

	if (fmt == OUT_TABLE) {
		print_table(r);
		return;
	}
	if (fmt == OUT_CSV) {
		printf("request%slist", sep);
		for (unsigned f = 0; f < rq->nfields; f++)
			printf("%s%s", sep, rq->fields[f].name);
		printf("\n");
	}
	for (uint32_t e = 0; e < r->returned_values; e++) {
		json_object *o = fmt == OUT_JSON ? json_object_new_object() : NULL;

		if (o) {
			json_object_object_add(o, "request", json_object_new_string(rq->name));
			json_object_object_add(o, "list", json_object_new_int((int)e));
		} else {
			printf("%s%s%" PRIu32, rq->name, sep, e);
		}
		for (unsigned f = 0; f < rq->nfields; f++) {
			uint64_t v = 0;

			hvpmu_gpci_field(r, e, f, &v);
			if (o) {
				json_object_object_add(o, rq->fields[f].name, json_object_new_uint64(v));
			} else {
				format_value(cell, sizeof cell, &rq->fields[f], v);
				printf("%s%s", sep, cell);
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

int cmd_gpci(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { "md", required_argument, NULL, 'M' },
					      { "partition", required_argument, NULL, 'P' }, { NULL, 0, NULL, 0 } };
	const struct hvpmu_gpci_request *only = NULL;
	const char *md_file = NULL, *sep = NULL;
	struct stat_request rq;
	struct hvpmu_md md;
	struct hvpmu_gpci_sys *sys;
	static struct hvpmu_gpci_reply r;
	struct hvpmu_gpci_caps caps;
	unsigned long partition = 0;
	long long index = 0;
	int platform_given = 0, platform, json = 0, index_given = 0, c, failed = 0, asked = 0;
	char *end;

	memset(&rq, 0, sizeof rq);
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:r:s:x:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (tool_set_platform(TOOL, optarg, &rq, &platform))
				return EXIT_USAGE;
			platform_given = 1;
			break;
		case 'M': md_file = optarg; break;
		case 'P':
			partition = strtoul(optarg, &end, 0);
			if (*end || !*optarg || optarg[0] == '-' || partition < 1 || partition > 0xFFFE) {
				fprintf(stderr, TOOL ": --partition %s: not a partition id (1..65534)\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'r':
			if (!(only = hvpmu_gpci_sv_request_parse(optarg))) {
				fprintf(stderr, TOOL ": -r %s: not a request (hvpmu gpci --help lists them)\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 's':
			index = strtoll(optarg, &end, 0);
			if (*end || !*optarg || index < -1 || index > (long long)UINT32_MAX - 1) {
				fprintf(stderr, TOOL ": -s %s: not a starting index (-1 or 0..4294967294)\n", optarg);
				return EXIT_USAGE;
			}
			index_given = 1;
			break;
		case 'x': sep = optarg; break;
		case 'j': json = 1; break;
		case 'h': return usage(stdout);
		default: return usage(stderr);
		}
	}
	if (sep && json) {
		fprintf(stderr, TOOL ": -x and -j cannot be combined\n");
		return EXIT_USAGE;
	}
	if (optind < argc) {
		fprintf(stderr, TOOL ": unexpected operand '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (!platform_given && default_platform(&rq))
		return EXIT_USAGE;
	if (tool_load_md(TOOL, md_file, platform_given, &rq, &md, NULL))
		return EXIT_USAGE;
	if (hvpmu_gpci_sys_open(&md, (unsigned)partition, &sys)) {
		fprintf(stderr, TOOL ": platform %s: %s\n", rq.platform,
			!md.cec.nchips ? "no PAPR CEC in the machine description"
				       : "no such partition, or one without a guest of 4096 bytes of memory or more");
		return EXIT_USAGE;
	}
	/* hv_perf_caps_get() first, as Linux: a partition without the right
	 * asks about itself (-1) where it may */
	if (hvpmu_gpci_caps_get(hvpmu_gpci_sys_os(sys), &caps) != HVPMU_H_SUCCESS)
		caps.collect_privileged = 0;
	for (unsigned i = 0; only ? i == 0 : hvpmu_gpci_sv_request_at(i) != NULL; i++) {
		const struct hvpmu_gpci_request *q = only ? only : hvpmu_gpci_sv_request_at(i);
		int self = q->index == HVPMU_GPCI_IDX_SELF ||
			   (q->index == HVPMU_GPCI_IDX_PARTITION && !caps.collect_privileged);
		uint32_t start = index_given ? (uint32_t)index : self ? HVPMU_GPCI_INDEX_SELF : 0;

		if (q->index == HVPMU_GPCI_IDX_NONE) { /* set_mmcrh: input only */
			if (only)
				fprintf(stderr, TOOL ": %s returns no lists\n", q->name);
			failed += only != NULL;
			continue;
		}
		asked++;
		hvpmu_gpci_call(hvpmu_gpci_sys_os(sys), q->code, start, 0, 0, &r);
		if (!hvpmu_gpci_reply_ok(&r)) {
			fprintf(stderr, TOOL ": %s (0x%" PRIx32 "): %s\n", q->name, q->code, hvpmu_gpci_status_name(r.status));
			failed++;
			continue;
		}
		print_reply(&r, json ? OUT_JSON : sep ? OUT_CSV : OUT_TABLE, sep);
	}
	hvpmu_gpci_sys_close(sys);
	return failed || !asked ? 1 : 0;
}
