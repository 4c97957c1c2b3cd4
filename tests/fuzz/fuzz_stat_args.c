/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_stat_args.c - libFuzzer target for the command lines of `hvpmu
 * stat` and `hvpmu list` (src/tools/stat.c, list.c, compiled in) and for
 * stat's printers (output.c: CSV quoting, derived metrics, -r noise, -I
 * rows, <not supported> rows put in place), and for the ELF check of the
 * default run (forks.c).
 *
 * Input: NUL-separated arguments (after `hvpmu stat -o /dev/null`, or,
 * when the first byte is 'L', after `hvpmu list`), then after a 0xff
 * byte the bytes of a result: counts of the request's events, samples,
 * process rows, as a hostile result area could give them (the real reader
 * bounds every count: stat_area.c); the same tail is also taken as an ELF
 * image by tool_elf_may_spawn.  The runs themselves are stubs.
 * Invariants: the commands return a tool exit status; the request's
 * events stay within HVPMU_SV_MAX_EVENTS; nothing crashes (ASan/UBSan).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/stat.c"
#include "tools/list.c"
#include "tools/output.c"
#include "tools/fmt.c"
#include "tools/forks.c"
#include "tools/interval.c"
#include "tools/mdopt.c"
#include "tools/written.c"
#include "tools/progress.c" /* (the tools turn the heartbeat off for CSV and JSON on stderr) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *res_data;
static size_t res_size;

static uint64_t take(size_t *off, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n && *off < res_size; i++)
		v = v << 8 | res_data[(*off)++];
	return v;
}

/* The run: the request's events with counts, samples and process rows
 * from the input's tail, bounded as stat_area_parse bounds them. */
static void fill(struct stat_request *rq, struct stat_result *rs)
{
	size_t off = 0;

	if (rq->nevents > HVPMU_SV_MAX_EVENTS || rq->ngpci > STAT_MAX_GPCI)
		abort();
	memset(rs, 0, sizeof *rs);
	rs->clock_hz = 2850000000u;
	rs->tick = take(&off, 4);
	rs->nevents = rq->nevents;
	for (unsigned i = 0; i < rs->nevents; i++) {
		snprintf(rs->name[i], sizeof rs->name[i], "%s", rq->ev[i].name);
		rs->count[i].supported = (int)(take(&off, 1) & 1);
		rs->count[i].raw = take(&off, 3);
		rs->count[i].enabled = take(&off, 2);
		rs->count[i].running = take(&off, 2);
		rs->count[i].scaled = (double)rs->count[i].raw;
	}
	rs->nproc = (unsigned)(take(&off, 1) % 3);
	if (rs->nproc && !(rs->proc = calloc(rs->nproc, sizeof *rs->proc)))
		rs->nproc = 0;
	for (unsigned k = 0; k < rs->nproc; k++) {
		snprintf(rs->proc[k].comm, sizeof rs->proc[k].comm, "p%u", k);
		rs->proc[k].enabled = take(&off, 2);
		for (unsigned i = 0; i < rs->nevents; i++) {
			rs->proc[k].raw[i] = take(&off, 2);
			rs->proc[k].running[i] = take(&off, 2);
		}
	}
	rs->untracked = (uint32_t)(take(&off, 1) & 1);
	if (off < res_size) {
		size_t n = (res_size - off) / sizeof *rs->samples;

		if (n > STAT_MAX_SAMPLES)
			n = STAT_MAX_SAMPLES;
		if (n && (rs->samples = malloc(n * sizeof *rs->samples))) {
			memcpy(rs->samples, res_data + off, n * sizeof *rs->samples);
			for (size_t k = 0; k < n; k++) /* (the reader bounds the strands) */
				rs->samples[k].cpu %= 64;
			rs->nsamples = (unsigned)n;
		}
	}
}

int run_guest(const char *tool, struct stat_request *rq, const struct hvpmu_md *md, int argc, char **argv,
	      struct stat_result *rs, struct run_times *t, int *ok)
{
	(void)tool; (void)md; (void)argc; (void)argv;
	fill(rq, rs);
	memset(t, 0, sizeof *t);
	*ok = 1;
	return 0;
}

int monitor_guest(const char *tool, struct stat_request *rq, int argc, char **argv, struct stat_result *rs,
		  struct run_times *t, int *ok)
{
	return run_guest(tool, rq, NULL, argc, argv, rs, t, ok);
}

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int quiet;
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 4];
	const uint8_t *split = memchr(data, 0xff, size);
	size_t alen = split ? (size_t)(split - data) : size;
	int argc = 0, rc, list = size && data[0] == 'L';

	if (!buf)
		return 0;
	if (!quiet++) /* list's and --help's output */
		(void)!freopen("/dev/null", "w", stdout);
	res_data = split ? split + 1 : NULL;
	res_size = split ? size - alen - 1 : 0;
	memcpy(buf, data, alen);
	buf[alen] = 0;
	argv[argc++] = list ? "hvpmu list" : "hvpmu stat";
	if (!list) {
		argv[argc++] = "-o";
		argv[argc++] = "/dev/null";
	}
	for (size_t i = list; i <= alen && argc < MAX_ARGS + 3;) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	opterr = 0; /* getopt's own messages (the tools print them as they are) */
	rc = list ? cmd_list(argc, argv) : cmd_stat(argc, argv);
	if (rc < 0 || rc > 255)
		abort();
	if (res_data)
		(void)tool_elf_may_spawn(res_data, res_size);
	free(buf);
	return 0;
}
