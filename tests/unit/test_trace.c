/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory reference traces (hvpmu/trace.h, docs/trace-format.md): round
 * trips of the din and binary formats, malformed din lines (error and line
 * number), truncated and corrupt binary files, and replay into the memory
 * model against analytic counts (the geometry of docs/memory-model.md, as
 * in test_memhier.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/trace.h>

#define KB 1024u
#define BASE UINT64_C(0x40000000)
#define PC UINT64_C(0x100000)
#define FOUR_MB (UINT64_C(4) << 20)

static char *tmp_path(void)
{
	char *p = strdup("/tmp/hvpmu-test-trace-XXXXXX");
	int fd;

	assert_non_null(p);
	fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	return p;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void spit(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static const struct hvpmu_trace_rec sample[] = {
	{ 0, 0, 1, HVPMU_TRACE_READ, 0 },
	{ UINT64_MAX, UINT32_MAX, UINT16_MAX, HVPMU_TRACE_WRITE, 0 },
	{ 0x100000, 0x100000, 64, HVPMU_TRACE_IFETCH, 0 },
	{ 0x40000008, 0x100004, 8, HVPMU_TRACE_READ, HVPMU_TRACE_ATOMIC },
	{ 0x40000010, 0x100008, 8, HVPMU_TRACE_WRITE, HVPMU_TRACE_ATOMIC },
	{ 0x40000040, 0x10000c, 64, HVPMU_TRACE_READ, HVPMU_TRACE_BLOCK },
	{ 0x40000080, 0x100010, 64, HVPMU_TRACE_WRITE, HVPMU_TRACE_BLOCK },
	{ 0x40001000, 0x100014, 1, HVPMU_TRACE_READ, HVPMU_TRACE_PREFETCH },
	{ 0xfff8000100012345, 0x12345, 3, HVPMU_TRACE_READ, 0 },
};
#define NSAMPLE (sizeof sample / sizeof sample[0])

static void assert_rec_equal(const struct hvpmu_trace_rec *a, const struct hvpmu_trace_rec *b, int lossless)
{
	assert_int_equal(a->addr, b->addr);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->pc, lossless ? b->pc : 0);
	assert_int_equal(a->attr, lossless ? b->attr : 0);
}

static void round_trip(enum hvpmu_trace_format fmt)
{
	char *path = tmp_path();
	struct hvpmu_trace *t;
	struct hvpmu_trace_rec r, many[4];
	uint8_t *data;
	size_t len, got, i = 0;
	int lossless = fmt == HVPMU_TRACE_BIN;

	assert_int_equal(hvpmu_trace_create(path, fmt, &t), 0);
	for (size_t k = 0; k < NSAMPLE; k++)
		assert_int_equal(hvpmu_trace_write(t, &sample[k]), 0);
	assert_int_equal(hvpmu_trace_position(t), NSAMPLE);
	assert_int_equal(hvpmu_trace_close(t), 0);

	/* from the file, format detected, one record at a time */
	assert_int_equal(hvpmu_trace_open(path, HVPMU_TRACE_AUTO, &t), 0);
	for (size_t k = 0; k < NSAMPLE; k++) {
		assert_int_equal(hvpmu_trace_read(t, &r), 1);
		assert_rec_equal(&r, &sample[k], lossless);
		assert_int_equal(hvpmu_trace_position(t), k + 1);
	}
	assert_int_equal(hvpmu_trace_format(t), fmt);
	assert_int_equal(hvpmu_trace_read(t, &r), 0);
	assert_int_equal(hvpmu_trace_read(t, &r), 0);
	assert_string_equal(hvpmu_trace_error(t), "");
	assert_int_equal(hvpmu_trace_close(t), 0);

	/* from memory, format given, in batches */
	data = slurp(path, &len);
	assert_int_equal(hvpmu_trace_open_mem(data, len, fmt, &t), 0);
	do {
		assert_int_equal(hvpmu_trace_read_many(t, many, 4, &got), 0);
		for (size_t k = 0; k < got; k++, i++)
			assert_rec_equal(&many[k], &sample[i], lossless);
	} while (got);
	assert_int_equal(i, NSAMPLE);
	assert_int_equal(hvpmu_trace_close(t), 0);
	free(data);
	unlink(path);
	free(path);
}

static void test_round_trip_bin(void **state)
{
	(void)state;
	round_trip(HVPMU_TRACE_BIN);
}

static void test_round_trip_din(void **state)
{
	(void)state;
	round_trip(HVPMU_TRACE_DIN);
}

/* A large binary trace crosses many I/O buffers. */
static void test_round_trip_large(void **state)
{
	char *path = tmp_path();
	struct hvpmu_trace *t;
	struct hvpmu_trace_rec r, w = { 0, 0, 8, HVPMU_TRACE_READ, 0 };
	const unsigned n = 100003;

	(void)state;
	for (int f = HVPMU_TRACE_DIN; f <= HVPMU_TRACE_BIN; f++) {
		assert_int_equal(hvpmu_trace_create(path, (enum hvpmu_trace_format)f, &t), 0);
		for (unsigned i = 0; i < n; i++) {
			w.addr = (uint64_t)i * 0x9e3779b97f4a7c15u;
			w.kind = (uint8_t)(i % 3);
			w.size = (uint16_t)(1 + i % 1000);
			assert_int_equal(hvpmu_trace_write(t, &w), 0);
		}
		assert_int_equal(hvpmu_trace_close(t), 0);
		assert_int_equal(hvpmu_trace_open(path, HVPMU_TRACE_AUTO, &t), 0);
		for (unsigned i = 0; i < n; i++) {
			assert_int_equal(hvpmu_trace_read(t, &r), 1);
			assert_int_equal(r.addr, (uint64_t)i * 0x9e3779b97f4a7c15u);
			assert_int_equal(r.kind, i % 3);
			assert_int_equal(r.size, 1 + i % 1000);
		}
		assert_int_equal(hvpmu_trace_read(t, &r), 0);
		assert_int_equal(hvpmu_trace_close(t), 0);
	}
	unlink(path);
	free(path);
}

/* The din forms the reader accepts. */
static void test_din_forms(void **state)
{
	static const char text[] = "# a comment\n"
				   "0 1003\n"               /* no size: the word holding 1003 */
				   "\n"
				   "  1\t0x2000 8 trailing words are ignored\r\n"
				   "2 ABCDEF 0X20\n"
				   "0 0 ffff\n"
				   "1 ffffffffffffffff 1"; /* no final newline */
	static const struct hvpmu_trace_rec want[] = {
		{ 0x1000, 0, 4, 0, 0 }, { 0x2000, 0, 8, 1, 0 }, { 0xabcdef, 0, 0x20, 2, 0 },
		{ 0, 0, 0xffff, 0, 0 }, { UINT64_MAX, 0, 1, 1, 0 },
	};
	static const uint64_t lines[] = { 2, 4, 5, 6, 7 };
	struct hvpmu_trace *t;
	struct hvpmu_trace_rec r;

	(void)state;
	assert_int_equal(hvpmu_trace_open_mem(text, strlen(text), HVPMU_TRACE_AUTO, &t), 0);
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		assert_int_equal(hvpmu_trace_read(t, &r), 1);
		assert_rec_equal(&r, &want[k], 1);
		assert_int_equal(hvpmu_trace_position(t), lines[k]);
	}
	assert_int_equal(hvpmu_trace_read(t, &r), 0);
	assert_int_equal(hvpmu_trace_format(t), HVPMU_TRACE_DIN);
	hvpmu_trace_close(t);

	/* empty inputs: no records */
	for (int f = HVPMU_TRACE_AUTO; f <= HVPMU_TRACE_DIN; f++) {
		assert_int_equal(hvpmu_trace_open_mem(NULL, 0, (enum hvpmu_trace_format)f, &t), 0);
		assert_int_equal(hvpmu_trace_read(t, &r), 0);
		hvpmu_trace_close(t);
	}
}

/* Malformed din lines: the right error, the line number, one line of text;
 * the records before are delivered, the error is sticky. */
static void test_din_malformed(void **state)
{
	static const struct {
		const char *text;
		size_t len; /* 0: strlen */
		int err;
		uint64_t line;
		unsigned col; /* of the offending token, or where it is missing */
		const char *says;
	} cases[] = {
		{ "0 1000\nx 1000\n", 0, HVPMU_EINVAL, 2, 1, "bad label 'x'" },
		{ "0 1000\n\n5 10\n", 0, HVPMU_EINVAL, 3, 1, "bad label '5'" },
		{ "01 1000\n", 0, HVPMU_EINVAL, 1, 1, "bad label '01'" },
		{ "3 1000\n", 0, HVPMU_ENOTSUP, 1, 1, "label 3 (escape) not supported" },
		{ "0 1\n4 1000\n", 0, HVPMU_ENOTSUP, 2, 1, "label 4 (cache flush)" },
		{ "0\n", 0, HVPMU_EINVAL, 1, 2, "missing address" },
		{ "0   \t\n", 0, HVPMU_EINVAL, 1, 6, "missing address" },
		{ "1 zz12\n", 0, HVPMU_EINVAL, 1, 3, "bad address 'zz12'" },
		{ "1 12g\n", 0, HVPMU_EINVAL, 1, 3, "bad address '12g'" },
		{ "1 0x\n", 0, HVPMU_EINVAL, 1, 3, "bad address '0x'" },
		{ "0 1\n0 2\n2 10000000000000000\n", 0, HVPMU_EINVAL, 3, 3, "exceeds 64 bits" },
		{ "0 1000 0\n", 0, HVPMU_EINVAL, 1, 8, "bad size '0'" },
		{ "0 1000 10000\n", 0, HVPMU_EINVAL, 1, 8, "bad size '10000'" },
		{ "0 1000 q8\n", 0, HVPMU_EINVAL, 1, 8, "bad size 'q8'" },
		{ "0 10\0 00\n", 9, HVPMU_EINVAL, 1, 3, "bad address '10?'" },
		{ "0 1\n\x01\x02\xff 1\n", 0, HVPMU_EINVAL, 2, 1, "bad label '?\?\?'" },
	};
	char want[128];

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		size_t len = cases[c].len ? cases[c].len : strlen(cases[c].text);
		struct hvpmu_trace *t;
		struct hvpmu_trace_rec r[8];
		size_t got;
		const char *msg;

		assert_int_equal(hvpmu_trace_open_mem(cases[c].text, len, HVPMU_TRACE_DIN, &t), 0);
		assert_int_equal(hvpmu_trace_read_many(t, r, 8, &got), cases[c].err);
		assert_int_equal(got, cases[c].line - 1 - (c == 1)); /* case 1 has a blank line */
		assert_int_equal(hvpmu_trace_position(t), cases[c].line);
		msg = hvpmu_trace_error(t);
		snprintf(want, sizeof want, "<memory>:%llu:%u: ", (unsigned long long)cases[c].line, cases[c].col);
		if (strncmp(msg, want, strlen(want)) || !strstr(msg, cases[c].says) || strchr(msg, '\n'))
			fail_msg("case %zu: message '%s'", c, msg);
		/* sticky */
		assert_int_equal(hvpmu_trace_read(t, r), cases[c].err);
		assert_int_equal(hvpmu_trace_close(t), cases[c].err);
	}
}

/* A din line longer than the reader's buffer: its fields are read, the
 * rest skipped, line numbers stay right. */
static void test_din_long_line(void **state)
{
	char *path = tmp_path();
	size_t n = 200 * KB;
	char *text = malloc(n + 64);
	struct hvpmu_trace *t;
	struct hvpmu_trace_rec r;
	size_t k;

	(void)state;
	assert_non_null(text);
	k = (size_t)sprintf(text, "1 abc 8 ");
	memset(text + k, 'c', n - k);
	k = n;
	k += (size_t)sprintf(text + k, "\n0 def\nx\n");
	spit(path, text, k);
	assert_int_equal(hvpmu_trace_open(path, HVPMU_TRACE_DIN, &t), 0);
	assert_int_equal(hvpmu_trace_read(t, &r), 1);
	assert_int_equal(r.addr, 0xabc);
	assert_int_equal(r.size, 8);
	assert_int_equal(hvpmu_trace_read(t, &r), 1);
	assert_int_equal(r.addr, 0xdec);
	assert_int_equal(hvpmu_trace_position(t), 2);
	assert_int_equal(hvpmu_trace_read(t, &r), HVPMU_EINVAL);
	assert_string_equal(hvpmu_trace_error(t) + strlen(path), ":3:1: bad label 'x' (expected 0 read, 1 write, 2 fetch)");
	hvpmu_trace_close(t);
	free(text);
	unlink(path);
	free(path);
}

static size_t bin_file(uint8_t *b, unsigned nrec)
{
	static const uint8_t hdr[16] = { 'H', 'V', 'P', 'M', 'U', 'T', 'R', 'C', 1, 0, 16, 0, 0, 0, 0, 0 };

	memcpy(b, hdr, sizeof hdr);
	for (unsigned i = 0; i < nrec; i++) {
		uint8_t *r = b + 16 + 16 * i;

		memset(r, 0, 16);
		r[0] = (uint8_t)(0x40 + i); /* addr */
		r[12] = 8;                  /* size */
		r[14] = (uint8_t)(i % 3);   /* kind */
	}
	return 16 + 16 * (size_t)nrec;
}

static void expect_bin_error(const uint8_t *b, size_t len, enum hvpmu_trace_format fmt, int err, size_t recs_before,
			     const char *says)
{
	struct hvpmu_trace *t;
	struct hvpmu_trace_rec r[8];
	size_t got;

	assert_int_equal(hvpmu_trace_open_mem(b, len, fmt, &t), 0);
	assert_int_equal(hvpmu_trace_read_many(t, r, 8, &got), err);
	assert_int_equal(got, recs_before);
	if (!strstr(hvpmu_trace_error(t), says) || strchr(hvpmu_trace_error(t), '\n'))
		fail_msg("message '%s', expected '%s'", hvpmu_trace_error(t), says);
	assert_int_equal(hvpmu_trace_read(t, r), err);
	hvpmu_trace_close(t);
}

/* Truncated and corrupt binary files. */
static void test_bin_malformed(void **state)
{
	uint8_t b[16 + 16 * 4];
	size_t len;
	char *path = tmp_path();
	struct hvpmu_trace *t;
	struct hvpmu_trace_rec r;

	(void)state;
	len = bin_file(b, 3);
	expect_bin_error(b, 10, HVPMU_TRACE_BIN, HVPMU_EINVAL, 0, "<memory>: truncated header (10 of 16 bytes)");
	expect_bin_error(b, len - 5, HVPMU_TRACE_BIN, HVPMU_EINVAL, 2,
			 "<memory>: record 3 (byte 48): truncated record (11 of 16 bytes)");
	expect_bin_error(b, 16 + 1, HVPMU_TRACE_AUTO, HVPMU_EINVAL, 0, "record 1 (byte 16): truncated record (1 of 16");
	/* a truncated file behaves the same */
	spit(path, b, len - 5);
	assert_int_equal(hvpmu_trace_open(path, HVPMU_TRACE_AUTO, &t), 0);
	assert_int_equal(hvpmu_trace_read(t, &r), 1);
	assert_int_equal(hvpmu_trace_read(t, &r), 1);
	assert_int_equal(hvpmu_trace_read(t, &r), HVPMU_EINVAL);
	assert_int_equal(hvpmu_trace_position(t), 3);
	assert_non_null(strstr(hvpmu_trace_error(t), ": record 3 (byte 48): truncated record"));
	hvpmu_trace_close(t);

	b[0] = 'X';
	expect_bin_error(b, len, HVPMU_TRACE_BIN, HVPMU_EINVAL, 0, "not an hvpmu binary trace (bad magic)");
	b[0] = 'H';
	b[8] = 2;
	expect_bin_error(b, len, HVPMU_TRACE_AUTO, HVPMU_ENOTSUP, 0, "version 2 not supported");
	b[8] = 1;
	b[10] = 24;
	expect_bin_error(b, len, HVPMU_TRACE_BIN, HVPMU_EINVAL, 0, "bad record size 24");
	b[10] = 16;
	b[13] = 1;
	expect_bin_error(b, len, HVPMU_TRACE_BIN, HVPMU_EINVAL, 0, "reserved header field");
	b[13] = 0;
	b[16 + 16 + 14] = 3; /* record 2: kind */
	expect_bin_error(b, len, HVPMU_TRACE_BIN, HVPMU_EINVAL, 1, "<memory>: record 2 (byte 32): bad kind 3");
	b[16 + 16 + 14] = 1;
	b[16 + 32 + 12] = 0; /* record 3: size */
	expect_bin_error(b, len, HVPMU_TRACE_BIN, HVPMU_EINVAL, 2, "record 3 (byte 48): size 0");
	b[16 + 32 + 12] = 8;
	b[16 + 32 + 15] = HVPMU_TRACE_BLOCK; /* record 3 is a fetch */
	expect_bin_error(b, len, HVPMU_TRACE_BIN, HVPMU_EINVAL, 2, "record 3 (byte 48): bad attributes 0x04: attribute on an instruction fetch");
	b[16 + 32 + 15] = 0;
	b[16 + 15] = 0x80;
	expect_bin_error(b, len, HVPMU_TRACE_BIN, HVPMU_EINVAL, 0, "unknown attribute bits");
	b[16 + 15] = HVPMU_TRACE_ATOMIC | HVPMU_TRACE_BLOCK;
	expect_bin_error(b, len, HVPMU_TRACE_BIN, HVPMU_EINVAL, 0, "more than one attribute");
	b[16 + 15] = 0;
	b[16 + 16 + 15] = HVPMU_TRACE_PREFETCH; /* record 2 is a write */
	expect_bin_error(b, len, HVPMU_TRACE_BIN, HVPMU_EINVAL, 1, "prefetch on a write");
	/* a binary file read as din is a bad din line */
	b[16 + 16 + 15] = 0;
	expect_bin_error(b, len, HVPMU_TRACE_DIN, HVPMU_EINVAL, 0, "<memory>:1:1: bad label 'HVPMUTRC?");
	unlink(path);
	free(path);
}

/* The writer refuses records its format cannot hold; argument errors. */
static void test_writer_and_args(void **state)
{
	char *path = tmp_path();
	struct hvpmu_trace *t, *w;
	struct hvpmu_trace_rec r = { 0x1000, 0, 4, HVPMU_TRACE_READ, 0 };

	(void)state;
	assert_int_equal(hvpmu_trace_create(path, HVPMU_TRACE_AUTO, &t), HVPMU_EINVAL);
	assert_null(t);
	assert_int_equal(hvpmu_trace_open("/nonexistent/trace.din", HVPMU_TRACE_AUTO, &t), HVPMU_EINVAL);
	assert_null(t);
	assert_int_equal(hvpmu_trace_create("/nonexistent/trace.bin", HVPMU_TRACE_BIN, &t), HVPMU_EINVAL);
	assert_null(t);
	assert_int_equal(hvpmu_trace_open_mem(NULL, 4, HVPMU_TRACE_DIN, &t), HVPMU_EINVAL);

	assert_int_equal(hvpmu_trace_create(path, HVPMU_TRACE_BIN, &w), 0);
	r.kind = 3;
	assert_int_equal(hvpmu_trace_write(w, &r), HVPMU_ERANGE);
	r.kind = HVPMU_TRACE_READ;
	r.size = 0;
	assert_int_equal(hvpmu_trace_write(w, &r), HVPMU_ERANGE);
	r.size = 4;
	r.kind = HVPMU_TRACE_IFETCH;
	r.attr = HVPMU_TRACE_ATOMIC;
	assert_int_equal(hvpmu_trace_write(w, &r), HVPMU_ERANGE);
	r.kind = HVPMU_TRACE_WRITE;
	r.attr = HVPMU_TRACE_PREFETCH;
	assert_int_equal(hvpmu_trace_write(w, &r), HVPMU_ERANGE);
	r.attr = 0;
	assert_int_equal(hvpmu_trace_write(w, &r), 0);
	assert_int_equal(hvpmu_trace_read(w, &r), HVPMU_EINVAL); /* a writer */
	assert_int_equal(hvpmu_trace_position(w), 1);
	assert_int_equal(hvpmu_trace_close(w), 0);

	assert_int_equal(hvpmu_trace_open(path, HVPMU_TRACE_BIN, &t), 0);
	assert_int_equal(hvpmu_trace_write(t, &r), HVPMU_EINVAL); /* a reader */
	assert_int_equal(hvpmu_trace_read(t, &r), 1);
	assert_int_equal(hvpmu_trace_read(t, &r), 0);
	hvpmu_trace_close(t);
	assert_int_equal(hvpmu_trace_close(NULL), 0);
	unlink(path);
	free(path);
}

static struct hvpmu_machine *machine(struct hvpmu_md *md)
{
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, md), 0);
	assert_int_equal(hvpmu_machine_create(md, &m), 0);
	/* 4 MB pages over the data, as test_memhier.c: predictable cache sets */
	assert_int_equal(hvpmu_machine_map_large(m, BASE, 8 * FOUR_MB, FOUR_MB), 0);
	return m;
}

/*
 * A hand-made trace with a known outcome (docs/memory-model.md):
 *   - a 64-byte fetch at a cold PC: two L1I lines, the first from memory,
 *     the second the other half of the same 64-byte L3 line;
 *   - a cold 64 KB scan of 8-byte loads: one L1D miss per 32-byte line,
 *     half from memory, half the second halves of L3 lines;
 *   - three stores to a cold line: memory, then L2, then the other half of
 *     the L3 line;
 *   - TLB: one 8 KB ITLB fill, two 4 MB DTLB fills, each after a fill trap.
 */
static char *analytic_din(size_t *len)
{
	size_t cap = 64 * KB / 8 * 32 + 256, n = 0;
	char *s = malloc(cap);

	assert_non_null(s);
	n += (size_t)sprintf(s + n, "# fetch\n2 %llx 40\n", (unsigned long long)PC);
	for (uint64_t a = BASE; a < BASE + 64 * KB; a += 8)
		n += (size_t)sprintf(s + n, "0 %llx 8\n", (unsigned long long)a);
	n += (size_t)sprintf(s + n, "1 %llx 8\n1 %llx 8\n1 %llx 8\n", (unsigned long long)(BASE + 4 * FOUR_MB),
			     (unsigned long long)(BASE + 4 * FOUR_MB + 8), (unsigned long long)(BASE + 4 * FOUR_MB + 32));
	*len = n;
	return s;
}

static void check_analytic(const struct hvpmu_activity *a)
{
	uint64_t lines = 64 * KB / 32;

	assert_int_equal(a->mev[HVPMU_MEV_IC_MISS_MEM], 1);
	assert_int_equal(a->mev[HVPMU_MEV_IC_MISS_L2L3], 1);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM], lines / 2);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_L2L3], lines / 2);
	assert_int_equal(a->mev[HVPMU_MEV_ST_MEM], 1);
	assert_int_equal(a->mev[HVPMU_MEV_ST_HIT_L2], 1);
	assert_int_equal(a->mev[HVPMU_MEV_ST_HIT_L3], 1);
	assert_int_equal(a->mev[HVPMU_MEV_L2_CLEAN_EVICT] + a->mev[HVPMU_MEV_L2_DIRTY_EVICT], 0);
	assert_int_equal(a->mev[HVPMU_MEV_ITLB_FILL_8K], 1);
	assert_int_equal(a->mev[HVPMU_MEV_ITLB_FILL_TRAP], 1);
	assert_int_equal(a->mev[HVPMU_MEV_ITLB_MISS], 2);
	assert_int_equal(a->mev[HVPMU_MEV_DTLB_FILL_4M], 2);
	assert_int_equal(a->mev[HVPMU_MEV_DTLB_FILL_8K], 0);
	assert_int_equal(a->mev[HVPMU_MEV_DTLB_FILL_TRAP], 2);
}

static void test_replay_analytic(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md), *m2 = machine(&md);
	char *path = tmp_path();
	size_t len;
	char *din = analytic_din(&len);
	struct hvpmu_trace *t, *w;
	struct hvpmu_trace_rec r;
	uint64_t n, want = 1 + 64 * KB / 8 + 3;

	(void)state;
	assert_false(hvpmu_machine_memory_enabled(m));
	assert_int_equal(hvpmu_trace_open_mem(din, len, HVPMU_TRACE_AUTO, &t), 0);
	assert_int_equal(hvpmu_trace_replay(m, 0, t, &n), 0);
	assert_int_equal(n, want);
	assert_true(hvpmu_machine_memory_enabled(m));
	check_analytic(hvpmu_machine_activity(m, 0));
	hvpmu_trace_close(t);

	/* the same trace converted to binary gives the same counts on strand 1
	 * of another machine */
	assert_int_equal(hvpmu_trace_open_mem(din, len, HVPMU_TRACE_DIN, &t), 0);
	assert_int_equal(hvpmu_trace_create(path, HVPMU_TRACE_BIN, &w), 0);
	while (hvpmu_trace_read(t, &r) == 1)
		assert_int_equal(hvpmu_trace_write(w, &r), 0);
	assert_int_equal(hvpmu_trace_close(w), 0);
	hvpmu_trace_close(t);
	assert_int_equal(hvpmu_trace_open(path, HVPMU_TRACE_AUTO, &t), 0);
	assert_int_equal(hvpmu_trace_replay(m2, 1, t, &n), 0);
	assert_int_equal(n, want);
	check_analytic(hvpmu_machine_activity(m2, 1));
	assert_memory_equal(hvpmu_machine_activity(m, 0)->mev, hvpmu_machine_activity(m2, 1)->mev,
			    sizeof hvpmu_machine_activity(m, 0)->mev);
	/* at the end: 0 more */
	assert_int_equal(hvpmu_trace_replay(m2, 1, t, &n), 0);
	assert_int_equal(n, 0);
	hvpmu_trace_close(t);

	hvpmu_machine_destroy(m);
	hvpmu_machine_destroy(m2);
	free(din);
	unlink(path);
	free(path);
}

/* Attributes select the decode flags: prefetches and atomics miss L1D
 * without counting sl=16; replay stops at a bad record after feeding the
 * good ones; bad arguments. */
static void test_replay_attrs_and_errors(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	static const char bad[] = "0 40000000 8\n0 40001000 8\n0 40002000 8\n1 40003000 8\n7 0\n0 40004000 8\n";
	struct hvpmu_trace *t;
	uint64_t n = 99;

	(void)state;
	assert_int_equal(hvpmu_trace_open_mem(bad, strlen(bad), HVPMU_TRACE_DIN, &t), 0);
	assert_int_equal(hvpmu_trace_replay(m, hvpmu_machine_nstrands(m), t, &n), HVPMU_ERANGE);
	assert_int_equal(n, 0);
	assert_int_equal(hvpmu_trace_replay(NULL, 0, t, &n), HVPMU_EINVAL);
	assert_int_equal(hvpmu_trace_replay(m, 0, NULL, &n), HVPMU_EINVAL);
	assert_int_equal(hvpmu_trace_replay(m, 0, t, &n), HVPMU_EINVAL);
	assert_int_equal(n, 4);
	assert_int_equal(hvpmu_trace_position(t), 5);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM], 3);
	assert_int_equal(a->mev[HVPMU_MEV_ST_MEM], 1);
	hvpmu_trace_close(t);

	/* a prefetch, an atomic load and an atomic store to cold lines: no
	 * sl=16 count; a block load: none either; a store counts sl=22 */
	{
		struct hvpmu_trace_rec rs[] = {
			{ BASE + 0x10000, 0, 8, HVPMU_TRACE_READ, HVPMU_TRACE_PREFETCH },
			{ BASE + 0x11000, 0, 8, HVPMU_TRACE_READ, HVPMU_TRACE_ATOMIC },
			{ BASE + 0x12000, 0, 64, HVPMU_TRACE_READ, HVPMU_TRACE_BLOCK },
			{ BASE + 0x13000, 0, 8, HVPMU_TRACE_WRITE, HVPMU_TRACE_ATOMIC },
		};
		char *path = tmp_path();
		struct hvpmu_trace *w;
		uint64_t dc = a->mev[HVPMU_MEV_DC_MISS_MEM] + a->mev[HVPMU_MEV_DC_MISS_L2L3];
		uint64_t st = a->mev[HVPMU_MEV_ST_MEM];

		assert_int_equal(hvpmu_trace_create(path, HVPMU_TRACE_BIN, &w), 0);
		for (size_t k = 0; k < sizeof rs / sizeof rs[0]; k++)
			assert_int_equal(hvpmu_trace_write(w, &rs[k]), 0);
		assert_int_equal(hvpmu_trace_close(w), 0);
		assert_int_equal(hvpmu_trace_open(path, HVPMU_TRACE_BIN, &t), 0);
		assert_int_equal(hvpmu_trace_replay(m, 0, t, NULL), 0);
		hvpmu_trace_close(t);
		assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM] + a->mev[HVPMU_MEV_DC_MISS_L2L3], dc);
		assert_int_equal(a->mev[HVPMU_MEV_ST_MEM], st + 1);
		/* the prefetch (fcn 0) filled L1D: prefetching it again is dropped */
		assert_int_equal(hvpmu_trace_open(path, HVPMU_TRACE_BIN, &t), 0);
		assert_int_equal(hvpmu_trace_replay(m, 0, t, NULL), 0);
		hvpmu_trace_close(t);
		assert_int_equal(a->mev[HVPMU_MEV_SWPF_DROP_DC_HIT], 1);
		unlink(path);
		free(path);
	}
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_bin),
		cmocka_unit_test(test_round_trip_din),
		cmocka_unit_test(test_round_trip_large),
		cmocka_unit_test(test_din_forms),
		cmocka_unit_test(test_din_malformed),
		cmocka_unit_test(test_din_long_line),
		cmocka_unit_test(test_bin_malformed),
		cmocka_unit_test(test_writer_and_args),
		cmocka_unit_test(test_replay_analytic),
		cmocka_unit_test(test_replay_attrs_and_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
