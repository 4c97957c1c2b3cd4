/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memcore - benchmark of the memory model core fed a recorded reference
 * stream (issue 3: "at least 100 M references per second on one core",
 * "memory use bounded by the modeled structures").  Not a test; driven by
 * bench/memcore.sh.
 *
 *   memcore gen FILE NREFS [bin|din]  write the synthetic mix (below) as a trace
 *   memcore replay FILE [RUNS]        hvpmu_trace_replay() from the file, streamed
 *   memcore replay-mem FILE [RUNS]    the same from the file's bytes in memory
 *   memcore read FILE [RUNS]          the trace reader alone (no model)
 *   memcore core NREFS [RUNS]         the model core alone: the mix decoded in
 *                                     an array, fed to hvpmu_machine_dref/_ifetch
 *   memcore core-trace FILE [RUNS]    the model core alone fed a recorded trace
 *                                     (bench/tracerec.c), decoded in an array
 *   memcore sweep [NREFS]             the model core per access pattern and
 *                                     working set
 *   memcore cell WS PATTERN [NREFS]   one cell of the sweep (for perf record)
 * Each run uses a fresh default T4 machine (8 KB pages) on strand 0 with
 * every part of the model on, or with the parts of the outputs
 * HVPMU_MEMCORE_FEATURES (a mask of enum hvpmu_feature, e.g. 0x28: caches
 * and the clock, what the tools run for a cache event; hvpmu/machine.h); rates
 * are the best of the runs (the machine may be shared), in millions of references per second; peak RSS
 * is getrusage()'s ru_maxrss of the process.
 *
 * The mix (deterministic, xorshift64 seeded with 1): one 32-byte
 * instruction fetch (8 instructions) after every 3 data references, walking
 * a 12 KB code loop; data references of 8 bytes, 30% stores, in phases of
 * 4096 data references that cycle through 21 cells: working sets of 16 KB,
 * 64 KB, 256 KB, 1 MB, 4 MB, 16 MB and 64 MB (one region each) times a
 * sequential scan (8-byte steps), a 256-byte stride, and uniform random
 * words.  Every cell keeps its cursor across phases, so a stream of any
 * length touches the same ~85 MB (about 10,900 8 KB pages).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/trace.h>

#define NWS 7
#define NPAT 3
#define NCELL (NWS * NPAT)
#define PHASE 4096
#define DATA_BASE UINT64_C(0x100000000)
#define REGION (UINT64_C(128) << 20)
#define CODE_BASE UINT64_C(0x10000)
#define CODE_BYTES (12u << 10)
#define FETCH_BYTES 32u
#define STRIDE_BYTES 256u
#define DATA_PER_FETCH 3u
#define BATCH 256
#define MAX_RUNS 64

static const uint64_t ws_bytes[NWS] = {
	16u << 10, 64u << 10, 256u << 10, 1u << 20, 4u << 20, 16u << 20, 64u << 20,
};
static const char *const ws_name[NWS] = { "16K", "64K", "256K", "1M", "4M", "16M", "64M" };
static const char *const pat_name[NPAT] = { "seq", "stride256", "random" };

struct gen {
	uint64_t rng;
	uint64_t cur[NWS][NPAT]; /* cursor (offset) per cell */
	uint64_t code;           /* fetch cursor (offset in the code loop) */
	unsigned phase_left, cell, since_fetch;
	int fixed;               /* 1: stay in `cell` (sweep) */
};

static void gen_init(struct gen *g, int cell)
{
	memset(g, 0, sizeof *g);
	g->rng = 1;
	g->phase_left = PHASE;
	g->fixed = cell >= 0;
	g->cell = cell >= 0 ? (unsigned)cell : 0;
}

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static void gen_next(struct gen *g, struct hvpmu_trace_rec *r)
{
	unsigned w, p;
	uint64_t ws, off, rnd;

	if (g->since_fetch == DATA_PER_FETCH) {
		g->since_fetch = 0;
		r->addr = CODE_BASE + g->code;
		r->pc = (uint32_t)r->addr;
		r->size = FETCH_BYTES;
		r->kind = HVPMU_TRACE_IFETCH;
		r->attr = 0;
		g->code = (g->code + FETCH_BYTES) % CODE_BYTES;
		return;
	}
	g->since_fetch++;
	if (!g->fixed && g->phase_left-- == 0) {
		g->phase_left = PHASE - 1;
		g->cell = (g->cell + 1) % NCELL;
	}
	w = g->cell / NPAT;
	p = g->cell % NPAT;
	ws = ws_bytes[w];
	rnd = xorshift64(&g->rng);
	switch (p) {
	case 0:
		off = g->cur[w][p];
		g->cur[w][p] = (off + 8) & (ws - 1);
		break;
	case 1:
		off = g->cur[w][p];
		g->cur[w][p] = (off + STRIDE_BYTES) & (ws - 1);
		break;
	default:
		off = (rnd >> 24) & (ws - 1) & ~UINT64_C(7);
		break;
	}
	r->addr = DATA_BASE + w * REGION + off;
	r->pc = (uint32_t)(CODE_BASE + g->code + 4 * g->since_fetch);
	r->size = 8;
	r->kind = (rnd & 1023) < 307 ? HVPMU_TRACE_WRITE : HVPMU_TRACE_READ;
	r->attr = 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long peak_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The best of n rates (the shortest run): the machine is shared with other
 * work, which only ever slows a run down. */
static double best(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n - 1];
}

static _Noreturn void die(const char *what, int rc, struct hvpmu_trace *t)
{
	fprintf(stderr, "memcore: %s: %s%s%s\n", what, hvpmu_strerror(rc), t ? ": " : "",
		t ? hvpmu_trace_error(t) : "");
	exit(1);
}

static struct hvpmu_machine *machine(void)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	int rc;

	if ((rc = hvpmu_md_default(HVPMU_PLATFORM_T4, &md)) || (rc = hvpmu_machine_create(&md, &m)))
		die("machine", rc, NULL);
	if (getenv("HVPMU_MEMCORE_FEATURES")) /* what the counters read: the parts that run */
		hvpmu_machine_set_features(m, (unsigned)strtoul(getenv("HVPMU_MEMCORE_FEATURES"), NULL, 0));
	else
		hvpmu_machine_enable_memory(m, 1);
	return m;
}

static int runs_arg(int argc, char **argv, int i, int dflt)
{
	int n = argc > i ? atoi(argv[i]) : dflt;

	return n < 1 ? 1 : n > MAX_RUNS ? MAX_RUNS : n;
}

static void print_mev(struct hvpmu_machine *m)
{
	const struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	uint64_t h = 14695981039346656037u; /* FNV-1a over every event counter and %tick */

	hvpmu_machine_sync(m, 0, NULL, NULL);
	for (unsigned k = 0; k < HVPMU_NMEV; k++)
		h = (h ^ a->mev[k]) * 1099511628211u;
	h = (h ^ hvpmu_machine_tick(m, 0)) * 1099511628211u;
	printf("  events of the last run: L1I miss %llu, L1D load miss %llu (from memory %llu), "
	       "stores to L2 %llu / L3 %llu / memory %llu, L2 evictions %llu, DTLB misses %llu, "
	       "%%tick %llu [event hash %016llx]\n",
	       (unsigned long long)(a->mev[HVPMU_MEV_IC_MISS_L2L3] + a->mev[HVPMU_MEV_IC_MISS_MEM]),
	       (unsigned long long)(a->mev[HVPMU_MEV_DC_MISS_L2L3] + a->mev[HVPMU_MEV_DC_MISS_MEM]),
	       (unsigned long long)a->mev[HVPMU_MEV_DC_MISS_MEM], (unsigned long long)a->mev[HVPMU_MEV_ST_HIT_L2],
	       (unsigned long long)a->mev[HVPMU_MEV_ST_HIT_L3], (unsigned long long)a->mev[HVPMU_MEV_ST_MEM],
	       (unsigned long long)(a->mev[HVPMU_MEV_L2_CLEAN_EVICT] + a->mev[HVPMU_MEV_L2_DIRTY_EVICT]),
	       (unsigned long long)(a->mev[HVPMU_MEV_DTLB_FILL_8K] + a->mev[HVPMU_MEV_DTLB_FILL_TRAP]),
	       (unsigned long long)hvpmu_machine_tick(m, 0), (unsigned long long)h);
}

static int cmd_gen(int argc, char **argv)
{
	struct hvpmu_trace *t;
	struct hvpmu_trace_rec r;
	struct gen g;
	uint64_t n;
	enum hvpmu_trace_format fmt = HVPMU_TRACE_BIN;
	int rc;

	if (argc < 4)
		return 2;
	n = strtoull(argv[3], NULL, 0);
	if (argc > 4 && !strcmp(argv[4], "din"))
		fmt = HVPMU_TRACE_DIN;
	if ((rc = hvpmu_trace_create(argv[2], fmt, &t)))
		die(argv[2], rc, NULL);
	gen_init(&g, -1);
	for (uint64_t i = 0; i < n; i++) {
		gen_next(&g, &r);
		if ((rc = hvpmu_trace_write(t, &r)))
			die("write", rc, t);
	}
	if ((rc = hvpmu_trace_close(t)))
		die("close", rc, NULL);
	printf("wrote %llu references to %s (%s)\n", (unsigned long long)n, argv[2], fmt == HVPMU_TRACE_BIN ? "bin" : "din");
	return 0;
}

static uint8_t *load_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die(path, HVPMU_EINVAL, NULL);
	b = malloc((size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
		die(path, HVPMU_EINVAL, NULL);
	fclose(f);
	*len = (size_t)n;
	return b;
}

static int cmd_replay(int argc, char **argv, int in_mem)
{
	double rate[MAX_RUNS];
	int runs = runs_arg(argc, argv, 3, 5);
	uint8_t *data = NULL;
	size_t len = 0;
	uint64_t nrefs = 0;
	long rss_machine = 0;

	if (argc < 3)
		return 2;
	if (in_mem)
		data = load_file(argv[2], &len);
	for (int i = 0; i < runs; i++) {
		struct hvpmu_machine *m = machine();
		struct hvpmu_trace *t;
		double t0;
		int rc;

		rc = in_mem ? hvpmu_trace_open_mem(data, len, HVPMU_TRACE_AUTO, &t)
			    : hvpmu_trace_open(argv[2], HVPMU_TRACE_AUTO, &t);
		if (rc)
			die(argv[2], rc, NULL);
		if (!rss_machine)
			rss_machine = peak_rss_kb();
		t0 = now();
		if ((rc = hvpmu_trace_replay(m, 0, t, &nrefs)))
			die("replay", rc, t);
		rate[i] = nrefs / (now() - t0) / 1e6;
		hvpmu_trace_close(t);
		if (i == runs - 1)
			print_mev(m);
		hvpmu_machine_destroy(m);
	}
	printf("replay%s %s: %llu refs, best %.1f M refs/s over %d runs; peak RSS %ld KB "
	       "(%ld KB before the first replay%s)\n",
	       in_mem ? "-mem" : "", argv[2], (unsigned long long)nrefs, best(rate, runs), runs, peak_rss_kb(),
	       rss_machine, in_mem ? ", trace bytes included" : "");
	free(data);
	return 0;
}

static int cmd_read(int argc, char **argv)
{
	double rate[MAX_RUNS], mbs[MAX_RUNS];
	int runs = runs_arg(argc, argv, 3, 5);
	struct hvpmu_trace_rec b[BATCH];
	uint64_t n = 0, sum = 0;
	size_t len;
	enum hvpmu_trace_format fmt = HVPMU_TRACE_AUTO;

	if (argc < 3)
		return 2;
	free(load_file(argv[2], &len)); /* the file's size (and into the page cache) */
	for (int i = 0; i < runs; i++) {
		struct hvpmu_trace *t;
		size_t got;
		double t0, dt;
		int rc;

		if ((rc = hvpmu_trace_open(argv[2], HVPMU_TRACE_AUTO, &t)))
			die(argv[2], rc, NULL);
		n = 0;
		t0 = now();
		do {
			if ((rc = hvpmu_trace_read_many(t, b, BATCH, &got)))
				die("read", rc, t);
			for (size_t k = 0; k < got; k++)
				sum += b[k].addr ^ b[k].size;
			n += got;
		} while (got);
		dt = now() - t0;
		fmt = hvpmu_trace_format(t);
		hvpmu_trace_close(t);
		rate[i] = n / dt / 1e6;
		mbs[i] = len / dt / 1e6;
	}
	printf("read %s (%s, %zu bytes): %llu records, best %.1f M records/s (%.0f MB/s) over %d runs "
	       "[checksum %llx]\n",
	       argv[2], fmt == HVPMU_TRACE_BIN ? "bin" : "din", len, (unsigned long long)n, best(rate, runs),
	       best(mbs, runs), runs, (unsigned long long)sum);
	return 0;
}

/* Decode flags of a data reference by kind and attribute, as
 * hvpmu_trace_replay() gives them (docs/trace-format.md). */
static uint32_t si_flags(const struct hvpmu_trace_rec *r)
{
	uint32_t ls = r->kind == HVPMU_TRACE_WRITE ? HVPMU_IC_STORE : HVPMU_IC_LOAD;

	switch (r->attr) {
	case HVPMU_TRACE_ATOMIC: return HVPMU_IC_OTHER | HVPMU_IC_ATOMIC;
	case HVPMU_TRACE_PREFETCH: return HVPMU_IC_OTHER | HVPMU_IC_PREFETCH;
	case HVPMU_TRACE_BLOCK: return ls | HVPMU_IC_BLOCK;
	default: return ls;
	}
}

/* Feed recs[0..n) to the model with the effect of hvpmu_trace_replay(),
 * without the reader, the way the QEMU plugin feeds a live program: each
 * fetch advances the store buffer's clock by its block's instructions. */
static void feed(struct hvpmu_machine *m, const struct hvpmu_trace_rec *recs, uint64_t n)
{
	struct hvpmu_activity *act = hvpmu_machine_activity(m, 0);

	for (uint64_t i = 0; i < n; i++) {
		const struct hvpmu_trace_rec *r = &recs[i];

		if (r->kind == HVPMU_TRACE_IFETCH) {
			hvpmu_machine_ifetch(m, 0, r->addr, r->size);
			act->bound += r->size / 4; /* the store buffer's clock */
		} else if (r->attr == HVPMU_TRACE_PREFETCH) { /* as hvpmu_trace_replay: no fcn recorded */
			hvpmu_machine_prefetch(m, 0, r->pc, r->addr, hvpmu_prefetch_dest(0));
		} else {
			hvpmu_machine_dref(m, 0, r->pc, r->addr, r->size, si_flags(r), r->kind);
		}
	}
}

static struct hvpmu_trace_rec *generate(uint64_t n, int cell)
{
	struct hvpmu_trace_rec *recs = malloc(n * sizeof *recs);
	struct gen g;

	if (!recs)
		die("generate", HVPMU_ENOMEM, NULL);
	gen_init(&g, cell);
	for (uint64_t i = 0; i < n; i++)
		gen_next(&g, &recs[i]);
	return recs;
}

static double time_core(const struct hvpmu_trace_rec *recs, uint64_t n, int runs, int show)
{
	double rate[MAX_RUNS];

	for (int i = 0; i < runs; i++) {
		struct hvpmu_machine *m = machine();
		double t0 = now();

		feed(m, recs, n);
		rate[i] = n / (now() - t0) / 1e6;
		if (show && i == runs - 1)
			print_mev(m);
		hvpmu_machine_destroy(m);
	}
	return best(rate, runs);
}

static int cmd_core(int argc, char **argv)
{
	uint64_t n;
	int runs = runs_arg(argc, argv, 3, 5);
	struct hvpmu_trace_rec *recs;
	double r;

	if (argc < 3)
		return 2;
	n = strtoull(argv[2], NULL, 0);
	recs = generate(n, -1);
	r = time_core(recs, n, runs, 1);
	printf("core (mix, in-memory records, no reader): %llu refs, best %.1f M refs/s over %d runs\n",
	       (unsigned long long)n, r, runs);
	free(recs);
	return 0;
}

/* The recorded stream of a real program (bench/tracerec.c), decoded into
 * an array, fed to the model core alone: the headline figure. */
static int cmd_core_trace(int argc, char **argv)
{
	int runs = runs_arg(argc, argv, 3, 5);
	struct hvpmu_trace *t;
	struct hvpmu_trace_rec *recs = NULL;
	uint64_t n = 0, cap = 0, kinds[3] = { 0 };
	size_t got;
	int rc;

	if (argc < 3)
		return 2;
	if ((rc = hvpmu_trace_open(argv[2], HVPMU_TRACE_AUTO, &t)))
		die(argv[2], rc, NULL);
	do {
		if (n + BATCH > cap) {
			cap = cap ? 2 * cap : UINT64_C(1) << 20;
			if (!(recs = realloc(recs, cap * sizeof *recs)))
				die("records", HVPMU_ENOMEM, NULL);
		}
		if ((rc = hvpmu_trace_read_many(t, recs + n, BATCH, &got)))
			die("read", rc, t);
		for (size_t k = 0; k < got; k++)
			kinds[recs[n + k].kind]++;
		n += got;
	} while (got);
	hvpmu_trace_close(t);
	printf("core (recorded stream %s: %llu refs, %.0f%% reads, %.0f%% writes, %.0f%% fetches; "
	       "in-memory records, no reader): best %.1f M refs/s over %d runs\n",
	       argv[2], (unsigned long long)n, 100.0 * kinds[0] / n, 100.0 * kinds[1] / n, 100.0 * kinds[2] / n,
	       time_core(recs, n, runs, 1), runs);
	free(recs);
	return 0;
}

static int cmd_sweep(int argc, char **argv)
{
	uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 4000000;

	printf("core per cell (%llu refs each: 1 fetch per 3 data refs, 30%% stores), M refs/s:\n",
	       (unsigned long long)n);
	printf("%-10s", "ws");
	for (int p = 0; p < NPAT; p++)
		printf(" %10s", pat_name[p]);
	printf("\n");
	for (int w = 0; w < NWS; w++) {
		printf("%-10s", ws_name[w]);
		for (int p = 0; p < NPAT; p++) {
			struct hvpmu_trace_rec *recs = generate(n, w * NPAT + p);

			printf(" %10.1f", time_core(recs, n, 3, 0));
			fflush(stdout);
			free(recs);
		}
		printf("\n");
	}
	return 0;
}

/* One cell of the sweep, for profiling: memcore cell WS_INDEX PATTERN [NREFS]. */
static int cmd_cell(int argc, char **argv)
{
	int w, p;
	uint64_t n;
	struct hvpmu_trace_rec *recs;

	if (argc < 4)
		return 2;
	w = atoi(argv[2]);
	p = atoi(argv[3]);
	n = argc > 4 ? strtoull(argv[4], NULL, 0) : 10000000;
	if (w < 0 || w >= NWS || p < 0 || p >= NPAT)
		return 2;
	recs = generate(n, w * NPAT + p);
	printf("core %s %s: %.1f M refs/s\n", ws_name[w], pat_name[p], time_core(recs, n, 1, 1));
	free(recs);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (argc >= 2) {
		if (!strcmp(argv[1], "gen"))
			rc = cmd_gen(argc, argv);
		else if (!strcmp(argv[1], "replay"))
			rc = cmd_replay(argc, argv, 0);
		else if (!strcmp(argv[1], "replay-mem"))
			rc = cmd_replay(argc, argv, 1);
		else if (!strcmp(argv[1], "read"))
			rc = cmd_read(argc, argv);
		else if (!strcmp(argv[1], "core"))
			rc = cmd_core(argc, argv);
		else if (!strcmp(argv[1], "core-trace"))
			rc = cmd_core_trace(argc, argv);
		else if (!strcmp(argv[1], "sweep"))
			rc = cmd_sweep(argc, argv);
		else if (!strcmp(argv[1], "cell"))
			rc = cmd_cell(argc, argv);
	}
	if (rc == 2)
		fprintf(stderr, "usage: memcore gen FILE NREFS [bin|din] | replay FILE [RUNS] | replay-mem FILE [RUNS] |\n"
				"       read FILE [RUNS] | core NREFS [RUNS] | core-trace FILE [RUNS] | sweep [NREFS] |\n"
				"       cell WS(0-6) PATTERN(0-2) [NREFS]\n");
	return rc;
}
