/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu mdperf` - the SGI Origin Hub memory/directory (MD) counters of
 * IRIX's mdperf(2) (../shared/specs/irix-mdperf.2), while a program runs:
 *
 *   hvpmu mdperf [-n NODE | -a] [-s SET,...] [-x SEP | -j] [-o FILE] [interval [count]] -- PROGRAM [ARGS]
 *
 * The guest OS enables the sets with syssgi(SGI_EVENTCTR,
 * MDPERF_NODE_ENABLE) on one node or, with -a (the default), on the whole
 * system (CNODEID_NONE); the kernel multiplexes them one per clock tick;
 * at the end (and every interval) it reads each node with
 * MDPERF_NODE_GET_COUNT.  Printed per node, set and counter: the value,
 * the overflow flag (a tick read found the 20-bit counter pegged), the
 * generation number GET_COUNT returns (the ENABLE's that started the
 * collection, irix-mdperf.2) and the share of ticks the set was live.
 * docs/cli.md "hvpmu mdperf".
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/md.h>
#include <hvpmu/supervisor.h>
#include "tools.h"
#include "progress.h"

#define TOOL "hvpmu mdperf"
#define ALL_SETS 0x3fu  /* MD_PERF_SEL_ALL (hw-and-hypervisor.md §5.2) */
#define CNODEID_NONE (-1)

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu mdperf [-n NODE | -a] [-s SET,...] [-x SEP | -j] [-o FILE] [--md FILE] "
		   "[interval [count]] -- PROGRAM [ARGS]\n"
		   "  -n  one node's Hub;  -a  every node, system-wide (default)\n"
		   "  -s  sets to count, multiplexed one per clock tick (default all): names or numbers\n");
	for (unsigned i = 0; i < HVPMU_SV_MD_SETS; i++)
		fprintf(f, "        %u %s\n", i, hvpmu_sv_mdperf_set_name(i));
	fprintf(f, "  -x  CSV with separator SEP;  -j  JSON lines;  -o FILE  write there (default stderr)\n"
		   "  interval: seconds of modeled time between rows (fractions allowed); count: rows shown\n");
	return f == stdout ? 0 : EXIT_USAGE;
}

/* -s SET,...: names or numbers into a md_perf_control_t ctrl word. */
static int parse_sets(const char *arg, uint32_t *bits)
{
	char buf[256], *save = NULL;

	if (strlen(arg) >= sizeof buf) {
		fprintf(stderr, "%s: -s list too long\n", TOOL);
		return -1;
	}
	strcpy(buf, arg);
	*bits = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int set = hvpmu_sv_mdperf_set_of(t);
		char *end;

		if (set < 0) {
			long v = strtol(t, &end, 10);

			if (*t && !*end && v >= 0 && v < HVPMU_SV_MD_SETS)
				set = (int)v;
		}
		if (set < 0) {
			fprintf(stderr, "%s: unknown set '%s' (0-5 or a name: hvpmu mdperf -h)\n", TOOL, t);
			return -1;
		}
		*bits |= 1u << set;
	}
	if (!*bits) {
		fprintf(stderr, "%s: -s names no set\n", TOOL);
		return -1;
	}
	return 0;
}

static int parse_node(const char *arg, int32_t *node)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || !*arg || *end || v < 0 || v > 32767) { /* cnodeid_t: signed short */
		fprintf(stderr, "%s: bad node '%s' (a node number, 0 up)\n", TOOL, arg);
		return -1;
	}
	*node = (int32_t)v;
	return 0;
}

struct printer {
	FILE *f;
	enum out_format fmt;
	const char *sep;
	uint32_t sets;
};

/*
 * One counter's row, of one shape (docs/cli.md "mdperf"): CSV columns
 * node, set, set_name, counter, name, value, overflow, generation,
 * live_ticks, ticks, time; JSON the same keys.  An interval row (total
 * 0) is the delta of the interval that ends at `time` (modeled seconds)
 * and has no live_ticks or ticks (empty, JSON null); a total row (total
 * 1) is the run's, `time` its end.  node -1: all nodes.
 */
static void row(const struct printer *p, double time, int total, int node, unsigned set, unsigned ctr,
		uint64_t value, int overflow, int64_t gen, uint64_t live, uint64_t periods)
{
	const char *sn = hvpmu_sv_mdperf_set_name(set), *cn = hvpmu_sv_mdperf_counter_name(set, ctr);

	if (p->fmt == OUT_JSON) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "node", json_object_new_int(node));
		json_object_object_add(o, "set", json_object_new_int((int)set));
		json_object_object_add(o, "set_name", json_object_new_string(sn));
		json_object_object_add(o, "counter", json_object_new_int((int)ctr));
		json_object_object_add(o, "name", json_object_new_string(cn));
		json_object_object_add(o, "value", json_object_new_uint64(value));
		json_object_object_add(o, "overflow", json_object_new_boolean(overflow));
		json_object_object_add(o, "generation", json_object_new_int64(gen));
		json_object_object_add(o, "live_ticks", total ? json_object_new_uint64(live) : NULL);
		json_object_object_add(o, "ticks", total ? json_object_new_uint64(periods) : NULL);
		json_object_object_add(o, "time", json_double_shortest(time));
		fprintf(p->f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED));
		json_object_put(o);
	} else if (p->fmt == OUT_CSV) {
		csv_fieldf(p->f, p->sep, 1, "%d", node);
		csv_fieldf(p->f, p->sep, 0, "%u", set);
		csv_field(p->f, p->sep, 0, sn);
		csv_fieldf(p->f, p->sep, 0, "%u", ctr);
		csv_field(p->f, p->sep, 0, cn);
		csv_fieldf(p->f, p->sep, 0, "%llu", (unsigned long long)value);
		csv_fieldf(p->f, p->sep, 0, "%d", overflow);
		csv_fieldf(p->f, p->sep, 0, "%lld", (long long)gen);
		if (total) {
			csv_fieldf(p->f, p->sep, 0, "%llu", (unsigned long long)live);
			csv_fieldf(p->f, p->sep, 0, "%llu", (unsigned long long)periods);
		} else {
			csv_field(p->f, p->sep, 0, "");
			csv_field(p->f, p->sep, 0, "");
		}
		csv_fieldf(p->f, p->sep, 0, "%.9f", time); /* as perf -I stamps its rows */
		fputc('\n', p->f);
	} else {
		fprintf(p->f, "%14.6f %4d %-13s %-21s %18llu%s\n", time, node, sn, cn, (unsigned long long)value,
			overflow ? "  overflow" : "");
	}
}

/* Collection periods of a node: the sum of its sets' live periods. */
static uint64_t periods(const struct stat_mdnode *n)
{
	uint64_t t = 0;

	for (unsigned set = 0; set < HVPMU_SV_MD_SETS; set++)
		t += n->live_ticks[set];
	return t;
}

static int overflowed(const struct stat_mdnode *n, unsigned set, unsigned c)
{
	return (int)((n->overflow >> (set * HVPMU_SV_MD_COUNTERS + c)) & 1);
}

/* The totals: a table of counters by node (and their sum), or one CSV /
 * JSON record per node, set and counter (node -1: the sum). */
static void print_totals(struct printer *p, const struct stat_result *rs)
{
	const struct stat_mdnode *n0 = &rs->md[0];
	double end = rs->clock_hz ? (double)rs->tick / (double)rs->clock_hz : 0.0; /* the run's modeled end */

	if (!rs->nmdnodes)
		return;
	if (p->fmt == OUT_TABLE) {
		fprintf(p->f, " %-38s %7s", "set counter", "live");
		for (unsigned i = 0; i < rs->nmdnodes; i++) {
			char h[24];

			snprintf(h, sizeof h, "node %d", rs->md[i].node);
			fprintf(p->f, " %13s ", h);
		}
		if (rs->nmdnodes > 1)
			fprintf(p->f, " %13s ", "all");
		fprintf(p->f, "\n %-38s %7s", "generation", "");
		for (unsigned i = 0; i < rs->nmdnodes; i++)
			fprintf(p->f, " %13lld ", (long long)rs->md[i].generation);
		fputc('\n', p->f);
	}
	for (unsigned set = 0; set < HVPMU_SV_MD_SETS; set++) {
		uint64_t live = n0->live_ticks[set], total = periods(n0);

		if (!(p->sets & (1u << set)))
			continue;
		for (unsigned c = 0; c < HVPMU_SV_MD_COUNTERS; c++) {
			char name[64];
			uint64_t sum = 0;
			int any = 0;

			snprintf(name, sizeof name, "%u %s %s", set, hvpmu_sv_mdperf_set_name(set),
				 hvpmu_sv_mdperf_counter_name(set, c));
			if (p->fmt == OUT_TABLE)
				fprintf(p->f, " %-38s %6.1f%%", name, total ? 100.0 * (double)live / (double)total : 0.0);
			for (unsigned i = 0; i < rs->nmdnodes; i++) {
				const struct stat_mdnode *n = &rs->md[i];

				sum += n->value[set][c];
				any |= overflowed(n, set, c);
				if (p->fmt == OUT_TABLE)
					fprintf(p->f, " %13llu%c", (unsigned long long)n->value[set][c],
						overflowed(n, set, c) ? '+' : ' ');
				else
					row(p, end, 1, n->node, set, c, n->value[set][c], overflowed(n, set, c),
					    n->generation, n->live_ticks[set], periods(n));
			}
			if (rs->nmdnodes > 1) {
				if (p->fmt == OUT_TABLE)
					fprintf(p->f, " %13llu%c", (unsigned long long)sum, any ? '+' : ' ');
				else
					row(p, end, 1, -1, set, c, sum, any, 0, live, total);
			}
			if (p->fmt == OUT_TABLE)
				fputc('\n', p->f);
		}
	}
	if (p->fmt == OUT_TABLE)
		fprintf(p->f, "\n live: the share of the node's collection periods (clock ticks) the set was counted"
			      " in;\n +: the 20-bit counter pegged at 0xFFFFF in some tick (a lower bound)\n\n");
}

/* Interval rows: the samples (tick, dev = set * 6 + counter, cpu = node,
 * count[0] = the node's accumulated value, count[1] = overflow) as deltas
 * per interval, the first `count` intervals (0: all). */
static void print_intervals(const struct printer *p, const struct stat_result *rs, unsigned long count)
{
	uint64_t prev[STAT_MAX_MDNODES][HVPMU_SV_MD_SETS * HVPMU_SV_MD_COUNTERS];
	unsigned long shown = 0;
	uint64_t tick = 0;

	memset(prev, 0, sizeof prev);
	if (p->fmt == OUT_TABLE)
		fprintf(p->f, "#         time node set           counter                           counts\n");
	for (unsigned i = 0; i < rs->nsamples; i++) {
		const struct stat_sample *s = &rs->samples[i];
		unsigned k = s->dev;

		if (s->cpu >= STAT_MAX_MDNODES || k >= HVPMU_SV_MD_SETS * HVPMU_SV_MD_COUNTERS)
			continue;
		if (s->tick != tick) {
			if (count && shown == count)
				break;
			tick = s->tick;
			shown++;
		}
		if (p->sets & (1u << (k / HVPMU_SV_MD_COUNTERS))) {
			int64_t gen = 0;

			for (unsigned n = 0; n < rs->nmdnodes; n++)
				if (rs->md[n].node == (int32_t)s->cpu)
					gen = rs->md[n].generation;
			row(p, rs->clock_hz ? (double)s->tick / (double)rs->clock_hz : 0.0, 0, (int)s->cpu,
			    k / HVPMU_SV_MD_COUNTERS, k % HVPMU_SV_MD_COUNTERS, s->count[0] - prev[s->cpu][k],
			    (int)s->count[1], gen, 0, 0);
		}
		prev[s->cpu][k] = s->count[0];
	}
	/* the rows ran out at the sample limit (no room for another
	 * interval), not at `count`: said once; the totals below are the
	 * final counts, which the limit does not touch */
	if (rs->nsamples && rs->nsamples > STAT_MAX_SAMPLES - rs->nmdnodes * HVPMU_SV_MD_SETS * HVPMU_SV_MD_COUNTERS &&
	    (!count || shown < count))
		fprintf(stderr, "%s: the sample limit (%u samples) was reached at %.3f s of modeled time: no rows "
				"after it; the totals are the whole run's\n",
			TOOL, STAT_MAX_SAMPLES,
			rs->clock_hz ? (double)rs->samples[rs->nsamples - 1].tick / (double)rs->clock_hz : 0.0);
}

int cmd_mdperf(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		TOOL_LONGOPT_MD,
		{ NULL, 0, NULL, 0 },
	};
	struct tool_md_opts m = { .tool = TOOL };
	const char *out_path = NULL;
	struct printer p = { .fmt = OUT_TABLE };
	struct stat_request rq;
	struct stat_result rs;
	struct run_times t;
	struct hvpmu_md md;
	double interval = 0;
	unsigned long count = 0;
	int c, rc, ok, node_given = 0, all = 0, json = 0, next;

	memset(&rq, 0, sizeof rq);
	if (tool_default_platform("hvpmu mdperf", HVPMU_SV_SERVICE_MDPERF, "Hub MD counters", &rq))
		return EXIT_USAGE;
	rq.mdperf = 1;
	rq.mdperf_node = CNODEID_NONE;
	rq.mdperf_sets = ALL_SETS;
	optind = 0; /* glibc: a full reset, also of a previous call's half-parsed option group */
	while ((c = getopt_long(argc, argv, "+n:as:x:jo:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_node(optarg, &rq.mdperf_node))
				return EXIT_USAGE;
			node_given = 1;
			break;
		case 'a': all = 1; break;
		case 's':
			if (parse_sets(optarg, &rq.mdperf_sets))
				return EXIT_USAGE;
			break;
		case 'x':
			if (tool_separator(TOOL, optarg))
				return EXIT_USAGE;
			p.sep = optarg;
			break;
		case 'j': json = 1; break;
		case 'o': out_path = optarg; break;
		case 'h': return usage(stdout);
		default:
			if ((rc = tool_md_option(&m, c, optarg, &rq)) > 0)
				break;
			return EXIT_USAGE; /* after one line: getopt's or the option's */
		}
	}
	if (node_given && all) {
		fprintf(stderr, "%s: -n and -a cannot be combined\n", TOOL);
		return EXIT_USAGE;
	}
	if (p.sep && json) {
		fprintf(stderr, "%s: -x and -j cannot be combined\n", TOOL);
		return EXIT_USAGE;
	}
	p.fmt = json ? OUT_JSON : p.sep ? OUT_CSV : OUT_TABLE;
	next = optind;
	if (parse_interval_count(TOOL, argc, argv, &next, &interval, &count))
		return EXIT_USAGE;
	if (next >= argc) {
		fprintf(stderr, "%s: no program given (hvpmu mdperf [OPTIONS] [interval [count]] -- PROGRAM)\n", TOOL);
		return EXIT_USAGE;
	}
	if (tool_md_load(&m, &rq, &md, NULL))
		return EXIT_USAGE;
	if (node_given && (uint32_t)rq.mdperf_node >= md.chips) {
		fprintf(stderr, "%s: no node %d (the machine has nodes 0-%u)\n", TOOL, rq.mdperf_node,
			md.chips ? md.chips - 1 : 0);
		return EXIT_USAGE;
	}
	if (interval > 0 && interval_cycles(TOOL, interval, md.clock_hz, &rq.sample_cycles))
		return EXIT_USAGE;
	p.f = stderr;
	if (out_path && !(p.f = fopen(out_path, "w"))) {
		fprintf(stderr, "%s: cannot open %s: %s\n", TOOL, out_path, strerror(errno));
		return EXIT_USAGE;
	}
	p.sets = rq.mdperf_sets;
	if (p.f == stderr && p.fmt != OUT_TABLE) /* no heartbeat on the stream of CSV or JSON */
		progress_off();
	rc = run_guest(TOOL, &rq, &md, argc - next, argv + next, &rs, &t, &ok);
	if (ok) {
		if (rs.md_errno) {
			fprintf(stderr, "%s: syssgi(SGI_EVENTCTR, MDPERF_NODE_ENABLE) failed: %s\n", TOOL,
				strerror(rs.md_errno));
			if (rc == 0)
				rc = EXIT_NOEXEC;
		} else {
			if (interval > 0)
				print_intervals(&p, &rs, count);
			if (p.fmt == OUT_TABLE)
				fprintf(p.f, "\n Hub MD counters for '%s' (%s, %u node%s, %llu clock ticks, %.6f s "
					     "modeled):\n\n",
					argv[next], rq.mdperf_node == CNODEID_NONE ? "system-wide" : "one node",
					rs.nmdnodes, rs.nmdnodes == 1 ? "" : "s", (unsigned long long)rs.md_ticks,
					rs.clock_hz ? (double)rs.tick / (double)rs.clock_hz : 0.0);
			print_totals(&p, &rs);
		}
		stat_result_free(&rs);
	}
	return p.f != stderr ? tool_output_done(TOOL, p.f, out_path, rc) : rc;
}
