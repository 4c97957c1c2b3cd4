/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_trace.c - libFuzzer target for the memory reference trace reader
 * and writer (src/source/trace.c, compiled in with a 64-byte I/O buffer so
 * that small inputs cross every buffer boundary) and trace replay into the
 * memory model (hvpmu/trace.h, docs/trace-format.md).
 *
 * The input is read from memory and from a file, as din, as binary and with
 * the format detected.  Invariants (abort on violation):
 *   - reading ends with 0 or HVPMU_EINVAL / HVPMU_ENOTSUP, which come with
 *     a one-line message, are sticky, and are what close returns;
 *   - every record delivered is valid (kind, size, attributes);
 *   - the file and the memory reader agree (din: when no line is longer
 *     than the buffer, whose fields the reader sees only in part);
 *   - records written in either format read back the same (din drops pc
 *     and attributes);
 *   - replay feeds exactly the records the reader delivers, and stops with
 *     the reader's error.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HVPMU_TRACE_BUFSZ 64
#include "source/trace.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXREC 8192

static char in_path[64], out_path[64];
static struct hvpmu_trace_rec got_mem[MAXREC], got_file[MAXREC], back[MAXREC];

#define CHECK(c)               \
	do {                   \
		if (!(c))      \
			abort(); \
	} while (0)

static void make_temp(char *path, size_t n, const char *tag)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, n, "%s/hvpmu-fuzz-%s-XXXXXX", dir && strlen(dir) < 32 ? dir : "/tmp", tag);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
}

static void check_rec(const struct hvpmu_trace_rec *r)
{
	CHECK(r->kind < HVPMU_TRACE_NKIND);
	CHECK(r->size != 0);
	CHECK(!attr_problem(r->kind, r->attr));
}

/* Read all of `t` into recs in batches of `batch`; returns the final code. */
static int drain(struct hvpmu_trace *t, struct hvpmu_trace_rec *recs, size_t *n, size_t batch)
{
	int rc;
	size_t got;

	*n = 0;
	do {
		size_t room = MAXREC - *n < batch ? MAXREC - *n : batch;

		rc = hvpmu_trace_read_many(t, recs + *n, room, &got);
		for (size_t i = 0; i < got; i++)
			check_rec(&recs[*n + i]);
		*n += got;
		CHECK(got <= room);
	} while (!rc && got && *n < MAXREC);
	if (rc) {
		const char *msg = hvpmu_trace_error(t);

		CHECK(rc == HVPMU_EINVAL || rc == HVPMU_ENOTSUP);
		CHECK(msg[0] && !strchr(msg, '\n') && strlen(msg) < sizeof t->msg);
		CHECK(hvpmu_trace_read(t, recs) == rc);
		CHECK(hvpmu_trace_position(t) >= 1 || hvpmu_trace_format(t) == HVPMU_TRACE_BIN); /* header errors: 0 */
	} else if (*n < MAXREC) {
		CHECK(hvpmu_trace_read(t, recs) == 0);
	}
	return rc;
}

static int same_recs(const struct hvpmu_trace_rec *a, const struct hvpmu_trace_rec *b, size_t n, int lossless)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].addr != b[i].addr || a[i].size != b[i].size || a[i].kind != b[i].kind ||
		    a[i].pc != (lossless ? b[i].pc : 0) || a[i].attr != (lossless ? b[i].attr : 0))
			return 0;
	return 1;
}

static size_t longest_line(const uint8_t *data, size_t size)
{
	size_t best = 0, cur = 0;

	for (size_t i = 0; i < size; i++) {
		cur = data[i] == '\n' ? 0 : cur + 1;
		best = cur > best ? cur : best;
	}
	return best;
}

/* Write recs[0..n) in `fmt` and read them back. */
static void round_trip(const struct hvpmu_trace_rec *recs, size_t n, enum hvpmu_trace_format fmt)
{
	struct hvpmu_trace *t;
	size_t m;

	CHECK(hvpmu_trace_create(out_path, fmt, &t) == 0);
	for (size_t i = 0; i < n; i++)
		CHECK(hvpmu_trace_write(t, &recs[i]) == 0);
	CHECK(hvpmu_trace_close(t) == 0);
	CHECK(hvpmu_trace_open(out_path, HVPMU_TRACE_AUTO, &t) == 0);
	CHECK(drain(t, back, &m, 100) == 0);
	CHECK(m == n && same_recs(back, recs, n, fmt == HVPMU_TRACE_BIN));
	CHECK(hvpmu_trace_close(t) == 0);
}

static void replay(const uint8_t *data, size_t size, size_t want, int want_rc)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_trace *t;
	uint64_t n;

	CHECK(hvpmu_md_default(HVPMU_PLATFORM_T4, &md) == 0);
	CHECK(hvpmu_machine_create(&md, &m) == 0);
	CHECK(hvpmu_trace_open_mem(data, size, HVPMU_TRACE_AUTO, &t) == 0);
	CHECK(hvpmu_trace_replay(m, size % hvpmu_machine_nstrands(m), t, &n) == want_rc);
	CHECK(n == want);
	hvpmu_trace_close(t);
	hvpmu_machine_destroy(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum hvpmu_trace_format fmts[] = { HVPMU_TRACE_AUTO, HVPMU_TRACE_DIN, HVPMU_TRACE_BIN };
	size_t batch = size ? 1 + data[size - 1] % 300 : 1;
	FILE *f;

	if (!in_path[0]) {
		make_temp(in_path, sizeof in_path, "trace-in");
		make_temp(out_path, sizeof out_path, "trace-out");
	}
	f = fopen(in_path, "wb");
	CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);
	for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++) {
		struct hvpmu_trace *tm, *tf;
		size_t nm, nf;
		int rm, rf;

		CHECK(hvpmu_trace_open_mem(data, size, fmts[k], &tm) == 0);
		rm = drain(tm, got_mem, &nm, batch);
		CHECK(hvpmu_trace_close(tm) == rm);
		CHECK(hvpmu_trace_open(in_path, fmts[k], &tf) == 0);
		rf = drain(tf, got_file, &nf, batch);
		if (hvpmu_trace_format(tf) == HVPMU_TRACE_BIN || longest_line(data, size) < HVPMU_TRACE_BUFSZ)
			CHECK(rm == rf && nm == nf && same_recs(got_mem, got_file, nm, 1));
		CHECK(hvpmu_trace_close(tf) == rf);
		if (k == 0) {
			round_trip(got_mem, nm, HVPMU_TRACE_BIN);
			round_trip(got_mem, nm, HVPMU_TRACE_DIN);
			if (nm < MAXREC)
				replay(data, size, nm, rm);
		}
	}
	return 0;
}
