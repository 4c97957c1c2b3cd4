/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_mdperf_args.c - libFuzzer target for the command line of `hvpmu
 * mdperf` (src/tools/mdperf.c, compiled in) and for its printers over a
 * result read from the result area.
 *
 * Input: NUL-separated arguments (after `hvpmu mdperf -o /dev/null`), then
 * after a 0xff byte the bytes of a result (node count, nodes, samples).
 * The run itself is replaced by a stub that fills the result from those
 * bytes, as a hostile result area could (the real reader bounds every
 * count: stat_area.c).  Invariants: cmd_mdperf returns a tool exit
 * status; the parser's sets are a non-empty subset of 0x3f and its node a
 * cnodeid_t; nothing crashes (ASan/UBSan).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/mdperf.c"
#include "tools/interval.c"
#include "tools/mdopt.c"
#include "tools/fmt.c"
#include "tools/written.c"
#include "tools/progress.c" /* (the tools turn the heartbeat off for CSV and JSON on stderr) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *res_data;
static size_t res_size;

/* The run: a result from the input's tail, bounded as stat_area_parse bounds it. */
int run_guest(const char *tool, struct stat_request *rq, const struct hvpmu_md *md, int argc, char **argv,
	      struct stat_result *rs, struct run_times *t, int *ok)
{
	size_t off = 0;

	(void)tool; (void)md; (void)argc; (void)argv; (void)t;
	if ((rq->mdperf_sets & ~0x3fu) || !rq->mdperf_sets || rq->mdperf_node < -1 || rq->mdperf_node > 32767)
		abort();
	memset(rs, 0, sizeof *rs);
	*ok = 1;
	rs->clock_hz = 195000000;
	if (res_size < 2)
		return 0;
	rs->nmdnodes = res_data[off++] % (STAT_MAX_MDNODES + 1);
	rs->md_ticks = res_data[off++];
	for (unsigned i = 0; i < rs->nmdnodes && off < res_size; i++) {
		size_t k = res_size - off < sizeof rs->md[i] ? res_size - off : sizeof rs->md[i];

		memcpy(&rs->md[i], res_data + off, k);
		off += k;
	}
	if (off < res_size) {
		size_t n = (res_size - off) / sizeof *rs->samples;

		if (n && (rs->samples = malloc(n * sizeof *rs->samples))) {
			memcpy(rs->samples, res_data + off, n * sizeof *rs->samples);
			rs->nsamples = (unsigned)n;
		}
	}
	return 0;
}

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 4];
	const uint8_t *split = memchr(data, 0xff, size);
	size_t alen = split ? (size_t)(split - data) : size;
	int argc = 0, rc;

	if (!buf)
		return 0;
	res_data = split ? split + 1 : NULL;
	res_size = split ? size - alen - 1 : 0;
	memcpy(buf, data, alen);
	buf[alen] = 0;
	argv[argc++] = "mdperf";
	argv[argc++] = "-o";
	argv[argc++] = "/dev/null";
	for (size_t i = 0; i <= alen && argc < MAX_ARGS + 3;) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	opterr = 0; /* getopt's own messages: the tool's usage line says it */
	rc = cmd_mdperf(argc, argv);
	if (rc < 0 || rc > 255)
		abort();
	free(buf);
	return 0;
}
