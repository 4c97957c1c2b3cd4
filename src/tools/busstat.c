/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu busstat` - Solaris busstat(8) for the chip-wide counter devices
 * of the platform's driver (hvpmu_sv_uncore_*: the SPARC T4 memory
 * controllers mcuN; the UltraSPARC T1 DRAM channels and JBUS, dram0-3 and
 * jbus0, which select platform t1) (../shared/reference/anchors.md §4.3),
 * while a program runs:
 *
 *   hvpmu busstat [-a] [-n] -w DEV,pic0=EVENT,pic1=EVENT [-w ...] [interval [count]] -- PROGRAM [ARGS]
 *   hvpmu busstat -l
 *
 * The guest driver programs each device's counter pair through the
 * hypervisor and samples it every `interval` seconds of modeled time (the
 * OS tick), plus once at program exit.  Rows show deltas per interval
 * (default) or absolute counts (-a).  Events are the names of the
 * device's kind or codes; `clear_pic` (also what an omitted pic gets)
 * selects a code that counts nothing.  docs/cli.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/supervisor.h>
#include "tools.h"
#include "progress.h"

#define DEFAULT_INTERVAL_S 1.0
#define NAME_MAX_LEN 32

/* A -w entry's device: its driver and number there, its names. */
struct busdev_names {
	const struct hvpmu_sv_backend *be;
	char ev[2][NAME_MAX_LEN];
	char dev[NAME_MAX_LEN];
};

static int parse_w(const char *arg, struct stat_busdev *d, struct busdev_names *nm);

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu busstat [-a] [-n] [-x SEP | -j] [--md FILE] -w DEV,pic0=EVENT,pic1=EVENT [-w ...] [interval [count]] -- PROGRAM [ARGS]\n"
		   "       hvpmu busstat --service NAME [--guest G] -w ... [interval [count]] [-- COMMAND]\n"
		   "       hvpmu busstat -l | -e DEV | -h\n"
		   "  -w  program device DEV's two counters (busstat -l lists them); repeating -w for a\n"
		   "      device rotates its event sets, one per interval\n"
		   "  -a  absolute counts instead of deltas;  -n  no header\n"
		   "  -x SEP  CSV rows (header: time,dev,event0,pic0,event1,pic1,partial);  -j  JSON lines\n"
		   "  -l  list the devices and their events;  -e DEV  list DEV's events\n"
		   "  interval: seconds of modeled time (default 1; fractions allowed); count: samples shown\n"
		   "  --service NAME [--guest G]  the DRAM traffic of a running hvpmu serve's whole machine, as\n"
		   "      guest G's OS sees it (its perfctraccess), for the time of PROGRAM (a host command),\n"
		   "      count intervals, or until SIGINT\n");
	return f == stdout ? 0 : EXIT_USAGE;
}

/* The events of device `dev`'s kind, on one line. */
static void print_events(const struct hvpmu_sv_backend *be, unsigned dev, const char *sep_first, const char *sep,
			 int with_codes)
{
	const char *name;
	unsigned code;

	for (unsigned i = 0; hvpmu_sv_uncore_event(be, dev, i, &name, &code) == HVPMU_OK; i++) {
		if (with_codes)
			printf("  %-22s 0x%x\n", name, code);
		else
			printf("%s%s", i ? sep : sep_first, name);
	}
}

/* The number of devices of driver `be` on its platform's default machine. */
static unsigned default_count(const struct hvpmu_sv_backend *be)
{
	char err[256], plat[HVPMU_SV_PLATFORM_NAME_MAX];
	struct hvpmu_md md;

	if (hvpmu_sv_load_machine(hvpmu_sv_backend_desc(be)->name, NULL, 1, &md, plat, err, sizeof err))
		return 0;
	return hvpmu_sv_uncore_count(be, &md);
}

/* -e DEV: the events of one device (of the default machine), as busstat
 * -e prints them. */
static int list_events(const char *devname)
{
	struct stat_busdev d;
	struct busdev_names nm;

	if (parse_w(devname, &d, &nm) || strchr(devname, ',') || d.dev >= default_count(nm.be)) {
		fprintf(stderr, "hvpmu busstat: unknown device '%s' (see -l)\n", devname);
		return EXIT_USAGE;
	}
	for (int pic = 0; pic < 2; pic++) {
		printf("%spic%d\n", pic ? "\n" : "", pic);
		print_events(nm.be, d.dev, "", " ", 0);
		printf("\n");
	}
	return 0;
}

/* -l: every driver's devices on its default machine, and their events. */
static int list_devices(void)
{
	const struct hvpmu_sv_backend *be;
	unsigned shown = 0;

	for (unsigned b = 0; (be = hvpmu_sv_backend_at(b)); b++) {
		const char *pname = hvpmu_sv_backend_desc(be)->name, *prefix;
		char name[NAME_MAX_LEN];
		unsigned n = default_count(be), first;

		if (!n) /* a platform without chip-wide devices */
			continue;
		printf("%sBusstat Device(s) (platform %s):\n", shown++ ? "\n" : "", pname);
		for (unsigned d = 0; d < n; d++)
			if (hvpmu_sv_uncore_name(be, d, name, sizeof name) == HVPMU_OK)
				printf("%s%s", d ? " " : "", name);
		printf("\n");
		for (unsigned k = 0; hvpmu_sv_uncore_kind(be, k, &prefix, &first) == HVPMU_OK; k++) {
			printf("\nEvents for %s (pic0 and pic1):\n", prefix);
			print_events(be, first, "", "", 1);
		}
	}
	return 0;
}

/* -w DEV,pic0=EVENT,pic1=EVENT (either pic may be omitted: it reads 0).
 * EVENT: a name of the device's kind, clear_pic, or a code. */
static int parse_w(const char *arg, struct stat_busdev *d, struct busdev_names *nm)
{
	char buf[256], *save = NULL, *tok;

	if (strlen(arg) >= sizeof buf)
		return -1;
	strcpy(buf, arg);
	tok = strtok_r(buf, ",", &save);
	memset(d, 0, sizeof *d);
	if (!tok || strlen(tok) >= NAME_MAX_LEN || !(nm->be = hvpmu_sv_uncore_parse(tok, &d->dev)))
		return -1;
	snprintf(nm->dev, sizeof nm->dev, "%s", tok);
	for (int pic = 0; pic < 2; pic++) {
		if (hvpmu_sv_uncore_code(nm->be, d->dev, "clear_pic", &d->code[pic]))
			return -1;
		strcpy(nm->ev[pic], "clear_pic");
	}
	while ((tok = strtok_r(NULL, ",", &save))) {
		int pic;

		if (strncmp(tok, "pic0=", 5) == 0)
			pic = 0;
		else if (strncmp(tok, "pic1=", 5) == 0)
			pic = 1;
		else
			return -1;
		if (strlen(tok + 5) >= NAME_MAX_LEN || hvpmu_sv_uncore_code(nm->be, d->dev, tok + 5, &d->code[pic]))
			return -1;
		snprintf(nm->ev[pic], sizeof nm->ev[pic], "%s", tok + 5);
	}
	return 0;
}

/* What the command line asks. */
struct bus_cli {
	struct stat_request rq;
	struct tool_md_opts m;
	struct busdev_names names[STAT_MAX_BUSDEV]; /* of rq.busdev[] */
	int absolute, header;
	double interval;
	unsigned long count;
	enum out_format fmt; /* -x SEP: CSV, -j: JSON lines (docs/cli.md "hvpmu busstat") */
	const char *sep;
	int json_given;
};

/* Go on: the helpers' "no exit status yet". */
#define BUS_GO (-1)

/* The options and operands (optind: the command): BUS_GO, or an exit
 * status (-l, -e and -h end here, an error after one line). */
static int parse_options(struct bus_cli *cl, int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, TOOL_LONGOPT_MD, TOOL_LONGOPT_SERVICE,
					      TOOL_LONGOPT_GUEST, { NULL, 0, NULL, 0 } };
	struct stat_request *rq = &cl->rq;
	int c, list = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+anlw:e:x:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'x':
			if (tool_separator("hvpmu busstat", optarg))
				return EXIT_USAGE;
			cl->sep = optarg;
			cl->fmt = OUT_CSV;
			break;
		case 'j': cl->json_given = 1; break;
		case 'e': return list_events(optarg);
		case 'a': cl->absolute = 1; break;
		case 'n': cl->header = 0; break;
		case 'l': list = 1; break;
		case 'w':
			if (rq->nbusdev == STAT_MAX_BUSDEV ||
			    parse_w(optarg, &rq->busdev[rq->nbusdev], &cl->names[rq->nbusdev])) {
				fprintf(stderr, "hvpmu busstat: bad -w '%s' (want DEV,pic0=EVENT,pic1=EVENT; see -l)\n", optarg);
				return EXIT_USAGE;
			}
			rq->nbusdev++;
			break;
		case 'h': return usage(stdout);
		default:
			if (tool_md_option(&cl->m, c, optarg, rq) <= 0) /* getopt's one line */
				return EXIT_USAGE;
		}
	}
	if (list)
		return list_devices();
	if (cl->json_given && cl->sep) {
		fprintf(stderr, "hvpmu busstat: -x and -j cannot be combined\n");
		return EXIT_USAGE;
	}
	if (cl->json_given)
		cl->fmt = OUT_JSON;
	/* [interval [count]] then -- PROGRAM (getopt consumed a "--" that
	 * directly follows the options) */
	if (parse_interval_count("hvpmu busstat", argc, argv, &optind, &cl->interval, &cl->count))
		return EXIT_USAGE;
	if (cl->m.guest && !cl->m.service) {
		fprintf(stderr, "hvpmu busstat: --guest needs --service (a running hvpmu serve)\n");
		return EXIT_USAGE;
	}
	if (optind >= argc && !cl->m.service) {
		fprintf(stderr, "hvpmu busstat: no program given (hvpmu busstat -w ... [interval [count]] -- PROGRAM)\n");
		return EXIT_USAGE;
	}
	if (!rq->nbusdev) {
		fprintf(stderr, "hvpmu busstat: no device given (-w mcuN,pic0=EVENT,pic1=EVENT)\n");
		return EXIT_USAGE;
	}
	return BUS_GO;
}

/* The machine the devices name (all of one driver's: its platform, or
 * the service's, which must be that driver's) into *md.  0, or -1 after
 * one line. */
static int load_machine(struct bus_cli *cl, struct hvpmu_md *md)
{
	const struct busdev_names *names = cl->names;
	struct stat_request *rq = &cl->rq;

	for (unsigned d = 0; d < rq->nbusdev; d++)
		if (names[d].be != names[0].be) {
			fprintf(stderr, "hvpmu busstat: %s (%s) and %s (%s) devices cannot be mixed\n", names[0].dev,
				hvpmu_sv_backend_desc(names[0].be)->name, names[d].dev,
				hvpmu_sv_backend_desc(names[d].be)->name);
			return -1;
		}
	if (cl->m.service) { /* the service's machine: its driver must name these devices */
		const struct hvpmu_sv_backend *be;

		if (tool_md_load(&cl->m, rq, md, &be))
			return -1;
		if (be != names[0].be) {
			fprintf(stderr, "hvpmu busstat: service '%s' runs %s: no device %s there\n", cl->m.service,
				rq->platform, names[0].dev);
			return -1;
		}
		return 0;
	}
	/* the devices' platform, as if -p named it */
	snprintf(rq->platform, sizeof rq->platform, "%s", hvpmu_sv_backend_desc(names[0].be)->name);
	cl->m.platform_given = 1;
	return tool_md_load(&cl->m, rq, md, NULL);
}

/* Every device is one the machine md has: 0 and *ndev the distinct
 * devices (rows per interval), or -1 after one line. */
static int check_devices(const struct bus_cli *cl, const struct hvpmu_md *md, unsigned *ndev)
{
	const struct busdev_names *names = cl->names;
	const struct stat_request *rq = &cl->rq;

	*ndev = 0;
	for (unsigned d = 0; d < rq->nbusdev; d++) {
		unsigned e, n = hvpmu_sv_uncore_count(names[d].be, md);
		char first[NAME_MAX_LEN] = "", last[NAME_MAX_LEN] = "";

		if (rq->busdev[d].dev >= n) {
			/* the devices of its kind the machine has: its kind is
			 * the one with the highest first device at or below it */
			const char *prefix;
			unsigned f, kf = 0;

			for (unsigned k = 0; hvpmu_sv_uncore_kind(names[d].be, k, &prefix, &f) == HVPMU_OK; k++)
				if (f <= rq->busdev[d].dev && f >= kf)
					kf = f;
			hvpmu_sv_uncore_name(names[d].be, kf, first, sizeof first);
			hvpmu_sv_uncore_name(names[d].be, n - 1, last, sizeof last);
			fprintf(stderr, "hvpmu busstat: no device %s (the machine has %s..%s)\n", names[d].dev, first,
				last);
			return -1;
		}
		for (e = 0; e < d && strcmp(names[e].dev, names[d].dev) != 0; e++)
			;
		*ndev += e == d; /* rows per interval: one per device */
	}
	return 0;
}

/* The rows of a run: a header, then per sample its device's two counts
 * (deltas, or absolute with -a), `count` intervals of ndev rows at most. */
static void print_rows(const struct bus_cli *cl, const struct stat_result *rs, uint64_t clock_hz, unsigned ndev)
{
	const struct busdev_names *names = cl->names;
	uint64_t prev[STAT_MAX_BUSDEV][2] = { { 0 } };
	unsigned shown = 0;

	static const char *const cols[] = { "time", "dev", "event0", "pic0", "event1", "pic1", "partial" };

	if (cl->header && cl->fmt == OUT_CSV) { /* one row shape, this header */
		for (unsigned c = 0; c < sizeof cols / sizeof cols[0]; c++)
			csv_field(stderr, cl->sep, !c, cols[c]);
		fputc('\n', stderr);
	} else if (cl->header && cl->fmt == OUT_TABLE) {
		fprintf(stderr, "%-10s %-6s %-22s %12s   %-22s %12s\n", "time", "dev", "event0", "pic0", "event1", "pic1");
	}
	for (unsigned i = 0; i < rs->nsamples && (!cl->count || shown < cl->count * ndev); i++, shown++) {
		const struct stat_sample *smp = &rs->samples[i];
		/* the last sample of each device covers the partial interval
		 * that a signal ended: marked (docs/cli.md "How a run ends") */
		int partial = rs->end == STAT_END_SIGNAL && i + ndev >= rs->nsamples;
		uint64_t v[2];

		if (smp->dev >= cl->rq.nbusdev)
			continue; /* not a device of the request */
		for (int k = 0; k < 2; k++) {
			v[k] = cl->absolute ? smp->count[k] : smp->count[k] - prev[smp->dev][k];
			prev[smp->dev][k] = smp->count[k];
		}
		if (cl->fmt == OUT_CSV) {
			csv_fieldf(stderr, cl->sep, 1, "%.9f", (double)smp->tick / (double)clock_hz);
			csv_field(stderr, cl->sep, 0, names[smp->dev].dev);
			csv_field(stderr, cl->sep, 0, names[smp->dev].ev[0]);
			csv_fieldf(stderr, cl->sep, 0, "%llu", (unsigned long long)v[0]);
			csv_field(stderr, cl->sep, 0, names[smp->dev].ev[1]);
			csv_fieldf(stderr, cl->sep, 0, "%llu", (unsigned long long)v[1]);
			csv_field(stderr, cl->sep, 0, partial ? "1" : "0");
			fputc('\n', stderr);
		} else if (cl->fmt == OUT_JSON) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "time", json_double_shortest((double)smp->tick / (double)clock_hz));
			json_object_object_add(o, "dev", json_object_new_string(names[smp->dev].dev));
			json_object_object_add(o, "event0", json_object_new_string(names[smp->dev].ev[0]));
			json_object_object_add(o, "pic0", json_object_new_uint64(v[0]));
			json_object_object_add(o, "event1", json_object_new_string(names[smp->dev].ev[1]));
			json_object_object_add(o, "pic1", json_object_new_uint64(v[1]));
			json_object_object_add(o, "partial", json_object_new_boolean(partial));
			fprintf(stderr, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED));
			json_object_put(o);
		} else {
			fprintf(stderr, "%-10.3f %-6s %-22s %12llu   %-22s %12llu%s\n", (double)smp->tick / (double)clock_hz,
				names[smp->dev].dev, names[smp->dev].ev[0], (unsigned long long)v[0],
				names[smp->dev].ev[1], (unsigned long long)v[1], partial ? "   # partial (signal)" : "");
		}
	}
	/* the rows ran out at the sample limit (no room for another
	 * interval), not at `count`: said once */
	if (rs->nsamples && rs->nsamples > STAT_MAX_SAMPLES - ndev && (!cl->count || shown < cl->count * ndev))
		fprintf(stderr, "hvpmu busstat: the sample limit (%u samples) was reached at %.3f s of modeled time: "
				"no rows after it\n",
			STAT_MAX_SAMPLES, (double)rs->samples[rs->nsamples - 1].tick / (double)clock_hz);
}

int cmd_busstat(int argc, char **argv)
{
	static struct bus_cli cl;
	struct stat_result rs;
	struct run_times t;
	struct hvpmu_md md;
	unsigned ndev;
	int rc, ok;

	memset(&cl, 0, sizeof cl);
	cl.m.tool = "hvpmu busstat";
	cl.header = 1;
	cl.interval = DEFAULT_INTERVAL_S;
	if ((rc = parse_options(&cl, argc, argv)) != BUS_GO)
		return rc;
	if (load_machine(&cl, &md) || check_devices(&cl, &md, &ndev) ||
	    interval_cycles("hvpmu busstat", cl.interval, md.clock_hz, &cl.rq.sample_cycles))
		return EXIT_USAGE;
	/* a service's monitor ends after `count` intervals of its time */
	if (cl.m.service && cl.count)
		cl.rq.monitor_cycles = cl.count > UINT64_MAX / cl.rq.sample_cycles ? UINT64_MAX
										: cl.count * cl.rq.sample_cycles;
	if (cl.fmt != OUT_TABLE) /* its CSV or JSON is on stderr: no heartbeat there */
		progress_off();
	rc = cl.m.service ? monitor_guest("hvpmu busstat", &cl.rq, argc - optind, argv + optind, &rs, &t, &ok)
			  : run_guest("hvpmu busstat", &cl.rq, &md, argc - optind, argv + optind, &rs, &t, &ok);
	if (!ok)
		return rc;
	print_rows(&cl, &rs, md.clock_hz, ndev);
	if (rs.hv_status)
		fprintf(stderr, "hvpmu busstat: hypervisor refused access (%s)\n", hvpmu_sv_status_name(rs.hv_status));
	stat_result_free(&rs);
	return rc;
}
