/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu busstat` - Solaris busstat(8) for the SPARC T4 memory controllers
 * (devices mcuN) and the UltraSPARC T1 DRAM channels and JBUS (dram0-3,
 * jbus0: niagara-perf-api.txt; they select platform t1)
 * (../shared/reference/anchors.md §4.3), while a sparc64 program runs:
 *
 *   hvpmu busstat [-a] [-n] -w mcuN,pic0=EVENT,pic1=EVENT [-w ...] [interval [count]] -- PROGRAM [ARGS]
 *   hvpmu busstat -l
 *
 * The guest driver programs each MCU's OS counter pair (DRAM_PERF_CTL_REG
 * sel0/sel1, DRAM_PERF_COUNT01_REG; sparc-t4-performance-instrumentation.md
 * §10.5) through the hypervisor and samples it every `interval` seconds of
 * modeled time (the OS tick), plus once at program exit.  Rows show deltas
 * per interval (default) or absolute counts (-a).  Events are names
 * (hvpmu_t4_dram_sel_name) or select codes 0..0xc; `clear_pic` (also what
 * an omitted pic gets) selects reserved code 0xf, which counts nothing.
 * docs/cli.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "tools.h"

#define DEFAULT_INTERVAL_S 1.0
#define MAX_SEL 0xc
#define CLEAR_PIC_SEL 0xf
#define DEV_PREFIX "mcu"
#define T1_DRAM_PREFIX "dram"
#define T1_JBUS_NAME "jbus0"
#define T1_DRAM_CHANNELS 4

static int parse_w(const char *arg, struct stat_busdev *d, char names[3][32], unsigned nmcu);

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu busstat [-a] [-n] [--md FILE] -w DEV,pic0=EVENT,pic1=EVENT [-w ...] [interval [count]] -- PROGRAM [ARGS]\n"
		   "       hvpmu busstat -l | -e DEV | -h\n"
		   "  -w  program device DEV's two counters (mcuN; t1: dram0-3, jbus0); repeating -w for a\n"
		   "      device rotates its event sets, one per interval\n"
		   "  -a  absolute counts instead of deltas;  -n  no header\n"
		   "  -l  list the devices and their events;  -e DEV  list DEV's events\n"
		   "  interval: seconds of modeled time (default 1; fractions allowed); count: samples shown\n");
	return f == stdout ? 0 : EXIT_USAGE;
}

/* -e DEV: the events of one device, as busstat -e prints them. */
static int list_events(const char *dev, unsigned nmcu)
{
	struct stat_busdev d;
	char names[3][32];

	if (parse_w(dev, &d, names, nmcu) || strchr(dev, ',')) {
		fprintf(stderr, "hvpmu busstat: unknown device '%s' (see -l)\n", dev);
		return EXIT_USAGE;
	}
	printf("pic0\n");
	for (int pic = 0; pic < 2; pic++) {
		if (pic)
			printf("\npic1\n");
		for (unsigned c = 0; c < HVPMU_T1_NCODES || (!d.t1 && c <= MAX_SEL); c++) {
			const char *name = !d.t1 ? (c <= MAX_SEL ? hvpmu_t4_dram_sel_name(c) : NULL)
				       : d.mcu == 0 ? hvpmu_t1_jbus_event_name(c) : hvpmu_t1_dram_event_name(c);

			if (name && strcmp(name, "clear_pic") != 0)
				printf("%s ", name);
		}
		printf("clear_pic\n");
	}
	return 0;
}

static int list_devices(void)
{
	struct hvpmu_md md;

	hvpmu_md_default(HVPMU_PLATFORM_T4, &md);
	printf("Busstat Device(s):\n");
	for (unsigned i = 0; i < md.chips * HVPMU_T4_MCUS_PER_CHIP; i++)
		printf("%s%u ", DEV_PREFIX, i);
	printf("\n\nEvents for mcu (pic0 and pic1):\n");
	for (unsigned s = 0; s <= MAX_SEL; s++)
		printf("  %-22s 0x%x\n", hvpmu_t4_dram_sel_name(s), s);
	printf("  %-22s\n", "clear_pic");
	printf("\nPlatform t1 devices: dram0 dram1 dram2 dram3 jbus0\n\nEvents for dram (pic0 and pic1):\n");
	for (unsigned c = 0; c < HVPMU_T1_NCODES; c++)
		if (hvpmu_t1_dram_event_name(c))
			printf("  %-22s 0x%x\n", hvpmu_t1_dram_event_name(c), c);
	printf("\nEvents for jbus (pic0 and pic1):\n");
	for (unsigned c = 0; c < HVPMU_T1_NCODES; c++)
		if (hvpmu_t1_jbus_event_name(c))
			printf("  %-22s 0x%x\n", hvpmu_t1_jbus_event_name(c), c);
	return 0;
}

/* A T1 device's event: a name of its unit's table or a 4-bit code. */
static int parse_t1_code(int jbus, const char *s, unsigned *code)
{
	int byname = jbus ? hvpmu_t1_jbus_event_by_name(s) : hvpmu_t1_dram_event_by_name(s);
	char *end;
	unsigned long v;

	if (byname >= 0) {
		*code = (unsigned)byname;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || v >= HVPMU_T1_NCODES)
		return -1;
	*code = (unsigned)v;
	return 0;
}

/* EVENT: a name, clear_pic, or a select code. */
static int parse_sel(const char *s, unsigned *sel)
{
	char *end;
	unsigned long v;
	int byname = hvpmu_t4_dram_sel_by_name(s);

	if (byname >= 0) {
		*sel = (unsigned)byname;
		return 0;
	}
	if (strcmp(s, "clear_pic") == 0) { /* a reserved code: counts nothing (TABLE 10-7) */
		*sel = CLEAR_PIC_SEL;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || v > MAX_SEL)
		return -1;
	*sel = (unsigned)v;
	return 0;
}

/* -w mcuN,pic0=EVENT,pic1=EVENT (either pic may be omitted: it reads 0). */
static int parse_w(const char *arg, struct stat_busdev *d, char names[3][32], unsigned nmcu)
{
	char buf[256], *save = NULL, *tok;
	char *end;
	unsigned long mcu;

	int jbus = 0;

	if (strlen(arg) >= sizeof buf)
		return -1;
	strcpy(buf, arg);
	tok = strtok_r(buf, ",", &save);
	if (!tok)
		return -1;
	memset(d, 0, sizeof *d);
	if (strcmp(tok, T1_JBUS_NAME) == 0) {
		d->t1 = 1;
		jbus = 1;
		d->mcu = 0;
	} else if (strncmp(tok, T1_DRAM_PREFIX, strlen(T1_DRAM_PREFIX)) == 0) {
		errno = 0;
		mcu = strtoul(tok + strlen(T1_DRAM_PREFIX), &end, 10);
		if (errno || *end || end == tok + strlen(T1_DRAM_PREFIX) || mcu >= T1_DRAM_CHANNELS)
			return -1;
		d->t1 = 1;
		d->mcu = (unsigned)mcu + 1;
	} else if (strncmp(tok, DEV_PREFIX, strlen(DEV_PREFIX)) == 0) {
		errno = 0;
		mcu = strtoul(tok + strlen(DEV_PREFIX), &end, 10);
		if (errno || *end || end == tok + strlen(DEV_PREFIX) || mcu >= nmcu)
			return -1;
		d->mcu = (unsigned)mcu;
	} else {
		return -1;
	}
	snprintf(names[2], 32, "%s", tok);
	if (d->t1)
		d->sel[0] = d->sel[1] = HVPMU_T1_CODE_CLEAR_PIC;
	else
		d->sel[0] = d->sel[1] = CLEAR_PIC_SEL;
	strcpy(names[0], "clear_pic");
	strcpy(names[1], "clear_pic");
	while ((tok = strtok_r(NULL, ",", &save))) {
		int pic;

		if (strncmp(tok, "pic0=", 5) == 0)
			pic = 0;
		else if (strncmp(tok, "pic1=", 5) == 0)
			pic = 1;
		else
			return -1;
		if ((d->t1 ? parse_t1_code(jbus, tok + 5, &d->sel[pic]) : parse_sel(tok + 5, &d->sel[pic])) ||
		    strlen(tok + 5) >= 32)
			return -1;
		snprintf(names[pic], 32, "%s", tok + 5);
	}
	return 0;
}

int cmd_busstat(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { "md", required_argument, NULL, 'M' },
					      { NULL, 0, NULL, 0 } };
	struct stat_request rq;
	struct stat_result rs;
	struct run_times t;
	struct hvpmu_md md;
	char names[STAT_MAX_BUSDEV][3][32]; /* event0, event1, device */
	int absolute = 0, header = 1, c, rc, ok, list = 0;
	const char *md_file = NULL;
	unsigned ndev = 0;
	double interval = DEFAULT_INTERVAL_S;
	unsigned long count = 0;
	uint64_t prev[STAT_MAX_BUSDEV][2] = { { 0 } };
	unsigned shown = 0;

	memset(&rq, 0, sizeof rq);
	hvpmu_md_default(HVPMU_PLATFORM_T4, &md);
	optind = 1;
	while ((c = getopt_long(argc, argv, "+anlw:e:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e': return list_events(optarg, md.chips * HVPMU_T4_MCUS_PER_CHIP);
		case 'M': md_file = optarg; break;
		case 'a': absolute = 1; break;
		case 'n': header = 0; break;
		case 'l': list = 1; break;
		case 'w':
			if (rq.nbusdev == STAT_MAX_BUSDEV ||
			    parse_w(optarg, &rq.busdev[rq.nbusdev], names[rq.nbusdev], HVPMU_SV_MAX_MCU)) {
				fprintf(stderr, "hvpmu busstat: bad -w '%s' (want DEV,pic0=EVENT,pic1=EVENT; see -l)\n", optarg);
				return EXIT_USAGE;
			}
			rq.nbusdev++;
			break;
		case 'h': return usage(stdout);
		default: return usage(stderr);
		}
	}
	if (list)
		return list_devices();
	/* [interval [count]] then -- PROGRAM (getopt consumed a "--" that
	 * directly follows the options) */
	if (parse_interval_count("hvpmu busstat", argc, argv, &optind, &interval, &count))
		return EXIT_USAGE;
	if (optind >= argc) {
		fprintf(stderr, "hvpmu busstat: no program given (hvpmu busstat -w ... [interval [count]] -- PROGRAM)\n");
		return EXIT_USAGE;
	}
	if (!rq.nbusdev) {
		fprintf(stderr, "hvpmu busstat: no device given (-w mcuN,pic0=EVENT,pic1=EVENT)\n");
		return EXIT_USAGE;
	}
	/* T1 devices run the program on platform t1; T4 MCUs on t4 */
	for (unsigned d = 0; d < rq.nbusdev; d++)
		if (rq.busdev[d].t1 != rq.busdev[0].t1) {
			fprintf(stderr, "hvpmu busstat: mcuN (t4) and dramN/jbus0 (t1) devices cannot be mixed\n");
			return EXIT_USAGE;
		}
	strcpy(rq.platform, rq.busdev[0].t1 ? "t1" : "t4");
	if (tool_load_md("hvpmu busstat", md_file, 1, &rq, &md))
		return EXIT_USAGE;
	for (unsigned d = 0; d < rq.nbusdev; d++) {
		unsigned e;

		if (!rq.busdev[d].t1 && rq.busdev[d].mcu >= md.chips * HVPMU_T4_MCUS_PER_CHIP) {
			fprintf(stderr, "hvpmu busstat: no device %s (the machine has mcu0..mcu%u)\n", names[d][2],
				md.chips * HVPMU_T4_MCUS_PER_CHIP - 1);
			return EXIT_USAGE;
		}
		for (e = 0; e < d && strcmp(names[e][2], names[d][2]) != 0; e++)
			;
		ndev += e == d; /* rows per interval: one per device */
	}
	rq.sample_cycles = (uint64_t)(interval * (double)md.clock_hz);
	if (!rq.sample_cycles)
		rq.sample_cycles = 1;
	rc = run_guest("hvpmu busstat", &rq, argc - optind, argv + optind, &rs, &t, &ok);
	if (!ok)
		return rc;
	if (header)
		fprintf(stderr, "%-10s %-6s %-22s %12s   %-22s %12s\n", "time", "dev", "event0", "pic0", "event1", "pic1");
	for (unsigned i = 0; i < rs.nsamples && (!count || shown < count * ndev); i++, shown++) {
		const struct stat_sample *smp = &rs.samples[i];
		uint64_t v[2];

		for (int k = 0; k < 2; k++) {
			v[k] = absolute ? smp->count[k] : smp->count[k] - prev[smp->dev][k];
			prev[smp->dev][k] = smp->count[k];
		}
		fprintf(stderr, "%-10.3f %-6s %-22s %12llu   %-22s %12llu\n", (double)smp->tick / (double)md.clock_hz,
			names[smp->dev][2], names[smp->dev][0], (unsigned long long)v[0],
			names[smp->dev][1], (unsigned long long)v[1]);
	}
	if (rs.hv_status)
		fprintf(stderr, "hvpmu busstat: hypervisor refused access (%s)\n", hvpmu_hv_status_name(rs.hv_status));
	stat_result_free(&rs);
	return rc;
}
