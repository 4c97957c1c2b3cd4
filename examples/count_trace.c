/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * count_trace.c - libhvpmu embedded: count a recorded memory trace on a
 * modeled SPARC T4, without QEMU.
 *
 *   count_trace [TRACE]
 *
 * TRACE is a Dinero "din" or hvpmu binary trace (docs/trace-format.md,
 * hvpmu/trace.h); without one, a built-in din trace: one cold 64 KB scan of
 * 8-byte loads from 0x40000000, then the same scan again.  The trace is
 * replayed on strand 0 of the default T4 machine (hvpmu_trace_replay())
 * and the memory events the T4 PMU counts are printed, one per line:
 * "NAME VALUE".  On the built-in trace each scan misses L1D once per
 * 32-byte line (2048 misses; 64 KB is four times the 16 KB L1D): the
 * first scan half from memory and half from the other halves of 64-byte
 * L3 lines (dc_miss_mem 1024), the second all from L2/L3 (dc_miss_l2l3
 * 1024 + 2048 = 3072).
 *
 *   cc count_trace.c $(pkg-config --cflags --libs hvpmu) -o count_trace
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/trace.h>

#define SCAN_BASE 0x40000000u
#define SCAN_BYTES (64u * 1024u)
#define LOAD_BYTES 8u

/* The built-in trace: two scans, "0 ADDRESS 8" per load. */
static char *builtin_din(size_t *len)
{
	size_t cap = 2 * (SCAN_BYTES / LOAD_BYTES) * 24 + 1, n = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t off = 0; off < SCAN_BYTES; off += LOAD_BYTES)
			n += (size_t)snprintf(s + n, cap - n, "0 %x %x\n", SCAN_BASE + off, LOAD_BYTES);
	*len = n;
	return s;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		enum hvpmu_mem_event mev;
	} shown[] = {
		{ "dc_miss_l2l3", HVPMU_MEV_DC_MISS_L2L3 },
		{ "dc_miss_mem", HVPMU_MEV_DC_MISS_MEM },
		{ "ic_miss_l2l3", HVPMU_MEV_IC_MISS_L2L3 },
		{ "ic_miss_mem", HVPMU_MEV_IC_MISS_MEM },
		{ "st_hit_l2", HVPMU_MEV_ST_HIT_L2 },
		{ "st_mem", HVPMU_MEV_ST_MEM },
		{ "dtlb_fill_8k", HVPMU_MEV_DTLB_FILL_8K },
	};
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_trace *t;
	const struct hvpmu_activity *a;
	char *din = NULL;
	size_t len = 0;
	uint64_t nrefs = 0;
	int err;

	if (argc > 2) {
		fprintf(stderr, "usage: count_trace [TRACE]\n");
		return 2;
	}
	if ((err = hvpmu_md_default(HVPMU_PLATFORM_T4, &md)) || (err = hvpmu_machine_create(&md, &m))) {
		fprintf(stderr, "count_trace: machine: %s\n", hvpmu_strerror(err));
		return 1;
	}
	if (argc == 2) {
		err = hvpmu_trace_open(argv[1], HVPMU_TRACE_AUTO, &t);
	} else if ((din = builtin_din(&len))) {
		err = hvpmu_trace_open_mem(din, len, HVPMU_TRACE_DIN, &t);
	} else {
		err = HVPMU_ENOMEM;
	}
	if (err) {
		fprintf(stderr, "count_trace: %s: %s\n", argc == 2 ? argv[1] : "built-in trace", hvpmu_strerror(err));
		hvpmu_machine_destroy(m);
		free(din);
		return 1;
	}
	err = hvpmu_trace_replay(m, 0, t, &nrefs);
	if (err) {
		fprintf(stderr, "count_trace: %s\n", hvpmu_trace_error(t) ? hvpmu_trace_error(t) : hvpmu_strerror(err));
	} else {
		a = hvpmu_machine_activity(m, 0);
		printf("refs %" PRIu64 "\n", nrefs);
		for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
			printf("%s %" PRIu64 "\n", shown[i].name, a->mev[shown[i].mev]);
	}
	hvpmu_trace_close(t);
	hvpmu_machine_destroy(m);
	free(din);
	return err ? 1 : 0;
}
