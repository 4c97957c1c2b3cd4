/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_stat_protocol.c - libFuzzer target for what a tool and the session
 * of its run exchange (hvpmu/session.h): the JSON request
 * (src/host/stat_protocol.c, json-c) and the result area
 * (src/host/stat_area.c), which the tool reads after a session that
 * may have died at any instant.  DESIGN.md "Validation": every entry that
 * takes outside input is fuzzed.
 *
 * The input is read as a request file, and laid over a result area past
 * its header; neither may crash.  Invariants (abort on violation): on
 * success every count is in bounds (events, samples, MMU buffers, the
 * ending and its signal), every string is NUL-terminated within its
 * field, and writing what was read and reading it back gives the same
 * structure (both formats round-trip); a failure comes with a one-line
 * message.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hvpmu/session.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ERRLEN 512

static char in_path[64], out_path[64];

static void make_temp(char *path, size_t n, const char *tag)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, n, "%s/hvpmu-fuzz-%s-XXXXXX", dir && strlen(dir) < 32 ? dir : "/tmp", tag);
	fd = mkstemp(path);
	if (fd < 0)
		abort();
	close(fd);
}

static void cleanup(void)
{
	unlink(in_path);
	unlink(out_path);
}

static void init_once(void)
{
	if (in_path[0])
		return;
	make_temp(in_path, sizeof in_path, "in");
	make_temp(out_path, sizeof out_path, "out");
	atexit(cleanup);
}

static void write_input(const uint8_t *data, size_t size)
{
	FILE *f = fopen(in_path, "wb");

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f))
		abort();
}

static void check_str(const char *s, size_t n)
{
	if (!memchr(s, 0, n))
		abort();
}

static void check_request(void)
{
	static struct stat_request rq, back;
	char err[ERRLEN];

	if (stat_request_read(in_path, &rq, err, sizeof err)) {
		check_str(err, sizeof err);
		return;
	}
	if (rq.nevents > HVPMU_SV_MAX_EVENTS)
		abort();
	for (unsigned i = 0; i < rq.nevents; i++)
		check_str(rq.ev[i].name, sizeof rq.ev[i].name);
	check_str(rq.overflow_log, sizeof rq.overflow_log);
	if (rq.have_md) { /* the run host checks a request's description before it builds on it */
		char why[ERRLEN];

		if (hvpmu_md_check(&rq.md, why, sizeof why))
			check_str(why, sizeof why);
	}
	if (stat_request_write(out_path, &rq, err, sizeof err))
		abort();
	if (stat_request_read(out_path, &back, err, sizeof err))
		abort();
	if (memcmp(&rq, &back, sizeof rq) != 0)
		abort();
}

/*
 * The result area (src/host/stat_area.c): the input overwrites an
 * area made by stat_area_create past its 32-byte header (magic, version,
 * sizes: what the tool itself writes), i.e. the slot index and the
 * publications a session -- or a dying or broken one -- leaves.  Parsing
 * must fail cleanly or give bounded results; publishing what was parsed
 * into a fresh area and parsing it again gives the same result.
 */
#define AREA_HDR 32
static unsigned char *area;
static size_t area_len;

static unsigned char *new_area(void)
{
	char err[ERRLEN];
	int fd = stat_area_create(err, sizeof err);
	struct stat st;
	void *p;

	if (fd < 0 || fstat(fd, &st))
		abort();
	area_len = (size_t)st.st_size;
	p = mmap(NULL, area_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		abort();
	close(fd);
	return p;
}

static void same(const struct stat_result *a, const struct stat_result *b)
{
	if (a->nevents != b->nevents || a->end != b->end || a->signal != b->signal || a->tick != b->tick ||
	    a->stale_cycles != b->stale_cycles || a->clock_hz != b->clock_hz || a->retired != b->retired ||
	    a->hv_status != b->hv_status || a->nsamples != b->nsamples || a->nmmu != b->nmmu ||
	    (a->nsamples && memcmp(a->samples, b->samples, a->nsamples * sizeof *a->samples)) ||
	    (a->nmmu && memcmp(a->mmu, b->mmu, a->nmmu * sizeof *a->mmu)))
		abort();
	for (unsigned i = 0; i < a->nevents; i++) {
		const struct hvpmu_sv_count *x = &a->count[i], *y = &b->count[i];

		if (strcmp(a->name[i], b->name[i]) || x->supported != y->supported || x->raw != y->raw ||
		    x->enabled != y->enabled || x->running != y->running || x->overflows != y->overflows)
			abort();
	}
}

static void check_result(const uint8_t *data, size_t size)
{
	static struct stat_result rs, back;
	char err[ERRLEN];
	size_t n;
	int rc;


	if (!area)
		area = new_area();
	n = size < area_len - AREA_HDR ? size : area_len - AREA_HDR;
	memcpy(area + AREA_HDR, data, n);
	/* a short mapping is refused */
	if (stat_area_parse(area, AREA_HDR + n, &rs, err, sizeof err) == 0 && AREA_HDR + n < area_len)
		abort();
	rc = stat_area_parse(area, area_len, &rs, err, sizeof err);
	if (rc) {
		if (rc != -1 || !err[0] || !memchr(err, 0, sizeof err) || strchr(err, '\n'))
			abort();
	} else {
		struct stat_area *a;
		struct stat_result pub;
		int fd, keep;

		if (rs.nevents > HVPMU_SV_MAX_EVENTS || rs.nsamples > STAT_MAX_SAMPLES || rs.nmmu > STAT_MAX_CPUS ||
		    rs.end > STAT_END_EXEC || !rs.gen || (rs.end == STAT_END_SIGNAL && (rs.signal < 1 || rs.signal > 64)))
			abort();
		for (unsigned i = 0; i < rs.nevents; i++)
			check_str(rs.name[i], sizeof rs.name[i]);
		/* round trip through a session's publication */
		if ((fd = stat_area_create(err, sizeof err)) < 0 || (keep = dup(fd)) < 0 ||
		    stat_area_attach(fd, &a, err, sizeof err))
			abort();
		if (rs.nsamples)
			memcpy(stat_area_samples(a), rs.samples, rs.nsamples * sizeof *rs.samples);
		pub = rs;
		stat_area_publish(a, &pub);
		stat_area_detach(a);
		if (stat_area_read(keep, &back, err, sizeof err))
			abort();
		close(keep);
		same(&rs, &back);
		stat_result_free(&rs);
		stat_result_free(&back);
	}
	memset(area + AREA_HDR, 0, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	init_once();
	write_input(data, size);
	check_request();
	check_result(data, size);
	return 0;
}
