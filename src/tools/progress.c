/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The heartbeat of a long run (issue 33, docs/cli.md "Progress"): while
 * the tool waits for the emulator, and only when standard error is a
 * terminal, one line on stderr refreshed in place every half second once
 * the run has lasted HVPMU_PROGRESS_DELAY seconds of the host's time
 * (default 2):
 *
 *   hvpmu stat: 0.412 s modeled, 1234567890 instructions, 45.6 M instructions/s
 *
 * from the OS tick's publication in the result area (modeled time: the
 * highest strand's %tick at the machine's clock; the user instructions
 * retired so far; the rate per second of the host's time), erased before
 * the tool prints anything.  Nothing of it goes to -o, CSV or JSON
 * output, which are printed after the run, and a tool whose CSV or JSON
 * goes to stderr turns it off (progress_off); HVPMU_PROGRESS=0 does too.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hvpmu/session.h>
#include "progress.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int progress_is_off;

void progress_off(void)
{
	progress_is_off = 1;
}

int progress_wanted(void)
{
	const char *e = getenv("HVPMU_PROGRESS");

	return !progress_is_off && isatty(STDERR_FILENO) && !(e && strcmp(e, "0") == 0);
}

static double progress_delay(void)
{
	const char *e = getenv("HVPMU_PROGRESS_DELAY");
	char *end;
	double d;

	if (!e || !*e)
		return 2.0;
	d = strtod(e, &end);
	return *end || !(d >= 0) || d > 86400 ? 2.0 : d;
}

/* The line, from the area's last publication; nothing when there is none. */
static int beat(const char *tool, const void *area, size_t len, double elapsed)
{
	uint64_t gen, tick, hz, retired;
	char line[256];
	int n;

	if (!area || stat_area_progress(area, len, &gen, &tick, &hz, &retired) || !hz)
		return 0;
	n = snprintf(line, sizeof line, "\r%s: %.3f s modeled, %" PRIu64 " instructions, %.1f M instructions/s\033[K",
		     tool, (double)tick / (double)hz, retired, elapsed > 0 ? (double)retired / elapsed / 1e6 : 0.0);
	if (n > 0 && (size_t)n < sizeof line && write(STDERR_FILENO, line, (size_t)n) < 0)
		return 0;
	return 1;
}

/* Wait up to `secs` for pid: 1 when it ended (*status), 0 on timeout. */
static int wait_for(pid_t pid, int pidfd, double secs, int *status)
{
	double until = now_s() + secs;

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		double left = until - now_s();

		if (r == pid || (r < 0 && errno != EINTR))
			return 1;
		if (left <= 0)
			return 0;
		if (pidfd >= 0) {
			struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

			(void)poll(&pfd, 1, (int)(left * 1000) + 1); /* EINTR: the forwarded signals */
		} else {
			struct timespec ts = { 0, 50 * 1000 * 1000 }; /* no pidfd (Linux < 5.3) */

			nanosleep(&ts, NULL);
		}
	}
}

int progress_wait(const char *tool, pid_t pid, int area_fd)
{
	int status = 0, shown = 0, pidfd = -1;
	double t0 = now_s();
	void *area = NULL;
	struct stat st;
	size_t len = 0;

#ifdef SYS_pidfd_open
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	if (area_fd >= 0 && fstat(area_fd, &st) == 0 && st.st_size > 0) {
		len = (size_t)st.st_size;
		area = mmap(NULL, len, PROT_READ, MAP_SHARED, area_fd, 0);
		if (area == MAP_FAILED)
			area = NULL;
	}
	if (!wait_for(pid, pidfd, progress_delay(), &status))
		for (;;) {
			shown |= beat(tool, area, len, now_s() - t0);
			if (wait_for(pid, pidfd, 0.5, &status))
				break;
		}
	if (shown && write(STDERR_FILENO, "\r\033[K", 4) < 0) /* erased: the tool's own lines follow */
		shown = 0;
	if (area)
		munmap(area, len);
	if (pidfd >= 0)
		close(pidfd);
	return status;
}
