/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_monitor.c - libFuzzer target for what a tool's monitor asks of a
 * standing service's guest OS (hvpmu/session.h
 * hvpmu_session_monitor_start, docs/service.md "Guests and monitors"):
 * the request file a monitor's hello brings (JSON in a memfd, read as the
 * service reads it: stat_request_read_fd) on a T4 guest OS with threads
 * running on two strands.
 *
 * Invariants (abort on violation): a refused monitor says why in one
 * NUL-terminated line with EBUSY, EINVAL or EACCES, and leaves no monitor
 * behind; an accepted one samples and ends without a crash, after which
 * the guest OS has no monitor and takes the next one; the result area it
 * published parses.  The session takes the result area's descriptor
 * whatever the outcome (closed when refused).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/session.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ERRLEN 256

static struct hvpmu_session *guest;
static int req = -1; /* the request's memfd */

static void cleanup(void)
{
	close(req);
	hvpmu_session_destroy(guest);
}

static void init_once(void)
{
	static struct stat_request rq;
	struct hvpmu_os_call c = { .ev = HVPMU_OS_THREAD_START, .process = 1 };
	char err[ERRLEN];

	if (guest)
		return;
	if ((req = memfd_create("hvpmu-fuzz-request", MFD_CLOEXEC)) < 0)
		abort();
	rq.result_fd = -1;
	rq.features = HVPMU_FEAT_TAKEN | HVPMU_FEAT_BRANCHES | HVPMU_FEAT_MEMORY | HVPMU_FEAT_MEMORY_OUTPUTS |
		      HVPMU_FEAT_BTC;
	if (hvpmu_session_create_guest(&rq, NULL, 0, HVPMU_SESSION_STANDING, &guest, err, sizeof err))
		abort();
	for (c.strand = 0; c.strand < 2; c.strand++) /* two of the guest's threads run */
		hvpmu_session_os_event(guest, &c);
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stat_request rq;
	struct stat_result rs;
	char err[ERRLEN];
	int area, rc;
	uint64_t now = 1000;

	init_once();
	if (ftruncate(req, 0) || (size && pwrite(req, data, size, 0) != (ssize_t)size))
		abort();
	if (stat_request_read_fd(req, &rq, err, sizeof err))
		return 0;
	if ((area = stat_area_create(err, sizeof err)) < 0)
		abort();
	rq.result_fd = dup(area); /* the session maps and closes its descriptor */
	if (rq.sample_cycles > 1000000)
		rq.sample_cycles %= 1000000; /* keep the ticks below few */
	rc = hvpmu_session_monitor_start(guest, &rq, now, err, sizeof err);
	if (rc) {
		if ((rc != EBUSY && rc != EINVAL && rc != EACCES) || !memchr(err, 0, sizeof err) || strchr(err, '\n') ||
		    hvpmu_session_monitoring(guest))
			abort();
		close(area); /* (the session closed rq.result_fd) */
		return 0;
	}
	if (!hvpmu_session_monitoring(guest))
		abort();
	for (int k = 1; k <= 4 && !hvpmu_session_monitor_tick(guest, now + (uint64_t)k * 250000); k++)
		;
	hvpmu_session_monitor_end(guest, now + 1000000);
	if (hvpmu_session_monitoring(guest))
		abort();
	if (stat_area_read(area, &rs, err, sizeof err))
		abort();
	if (rs.end != STAT_END_EXIT || rs.nevents > HVPMU_SV_MAX_EVENTS || rs.nsamples > STAT_MAX_SAMPLES)
		abort();
	stat_result_free(&rs);
	close(area);
	return 0;
}
