/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_stat_protocol.c - libFuzzer target for the JSON request / result
 * files exchanged by `hvpmu stat` and the QEMU plugin
 * (src/source/stat_protocol.c, json-c).  DESIGN.md "Validation": every
 * entry that takes outside input is fuzzed.
 *
 * The input is written to a temporary file and read as a request and as a
 * result; neither may crash.  Invariants (abort on violation): on success
 * the event count is at most HVPMU_SV_MAX_EVENTS, every string is
 * NUL-terminated within its field, and writing what was read and reading
 * it back gives the same structure (the format round-trips).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	check_str(rq.out, sizeof rq.out);
	if (stat_request_write(out_path, &rq, err, sizeof err))
		abort();
	if (stat_request_read(out_path, &back, err, sizeof err))
		abort();
	if (memcmp(&rq, &back, sizeof rq) != 0)
		abort();
}

static void check_result(void)
{
	static struct stat_result rs, back;
	char err[ERRLEN];

	if (stat_result_read(in_path, &rs, err, sizeof err)) {
		check_str(err, sizeof err);
		return;
	}
	if (rs.nevents > HVPMU_SV_MAX_EVENTS)
		abort();
	for (unsigned i = 0; i < rs.nevents; i++)
		check_str(rs.name[i], sizeof rs.name[i]);
	if (stat_result_write(out_path, &rs, err, sizeof err))
		abort();
	if (stat_result_read(out_path, &back, err, sizeof err))
		abort();
	if (back.nevents != rs.nevents || back.clock_hz != rs.clock_hz || back.retired != rs.retired ||
	    back.hv_status != rs.hv_status || back.nsamples != rs.nsamples ||
	    (rs.nsamples && memcmp(rs.samples, back.samples, rs.nsamples * sizeof *rs.samples)))
		abort();
	for (unsigned i = 0; i < rs.nevents; i++) {
		const struct hvpmu_sv_count *a = &rs.count[i], *b = &back.count[i];

		if (strcmp(rs.name[i], back.name[i]) || a->supported != b->supported || a->raw != b->raw ||
		    a->enabled != b->enabled || a->running != b->running || a->overflows != b->overflows)
			abort();
	}
	stat_result_free(&rs);
	stat_result_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	init_once();
	write_input(data, size);
	check_request();
	check_result();
	return 0;
}
