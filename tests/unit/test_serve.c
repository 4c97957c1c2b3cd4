/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A standing service (hvpmu/session.h hvpmu_service_serve, docs/service.md
 * "Guests and monitors") in a thread of the test: it describes its
 * machine (the guests of its description, by name); a connection that
 * never says hello holds nothing up (a describe behind two silent
 * connections is answered while they are still open, and they are
 * closed after the hello time); a monitor of a guest the machine does not
 * have is refused with ENOENT, a second monitor of a guest with EBUSY;
 * 64 silent connections of one uid, and the next of that uid is refused
 * at once with why (docs/service.md "Limits per guest"), until they go;
 * a bad service name is refused; *stop ends it with 0; the lock file
 * beside the socket goes with it.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <hvpmu/remote.h>
#include <hvpmu/session.h>
#include "common/sock.h"

static volatile sig_atomic_t stop;
static int serve_rc = -1;
static char name[64];

static void *serve(void *arg)
{
	struct stat_request rq;
	char err[256];

	memset(&rq, 0, sizeof rq);
	rq.result_fd = -1;
	serve_rc = hvpmu_service_serve(&rq, *(int *)arg, &stop, err, sizeof err);
	return NULL;
}

/* A connection to the service that says nothing. */
static int silent(void)
{
	struct sockaddr_un sa;
	socklen_t len;
	char addr[128];
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	assert_int_equal(hvpmu_service_address(name, addr, sizeof addr), 0);
	assert_int_equal(sock_addr(addr, &sa, &len), 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, len), 0);
	return fd;
}

static char monitor_err[256]; /* the last refused monitor's reason */

/* A monitor of guest g with an empty request, or one for device counters
 * `dev` (busstat's; -1: none): its errno (0: it runs; then *conn is its
 * connection). */
static int monitor_dev(const char *g, int dev, int *conn)
{
	struct stat_request rq;
	char *err = monitor_err, path[64];
	size_t errn = sizeof monitor_err;
	int req = memfd_create("req", MFD_CLOEXEC), area = stat_area_create(err, errn), status = 0;

	assert_true(req >= 0 && area >= 0);
	memset(&rq, 0, sizeof rq);
	if (dev >= 0) {
		rq.nbusdev = 1;
		rq.busdev[0] = (struct stat_busdev){ .dev = (unsigned)dev, .code = { 0, 1 } };
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", req);
	assert_int_equal(stat_request_write(path, &rq, err, errn), 0);
	*conn = hvpmu_service_monitor(name, g, req, area, &status, err, errn);
	close(req);
	close(area);
	if (*conn < 0) {
		assert_true(status != 0);
		assert_non_null(memchr(err, 0, errn));
		return status;
	}
	return 0;
}

static int monitor(const char *g, int *conn)
{
	return monitor_dev(g, -1, conn);
}

static void stale(void);

static void test_serve(void **state)
{
	struct hvpmu_remote_machine_info mi;
	char err[256], b;
	pthread_t t;
	int fd, s1, s2, m1, m2;

	(void)state;
	snprintf(name, sizeof name, "test-serve-%d", (int)getpid());
	assert_int_equal(hvpmu_service_listen("bad/name", err, sizeof err), -1);
	fd = hvpmu_service_listen(name, err, sizeof err);
	assert_true(fd >= 0);
	assert_int_equal(hvpmu_service_listen(name, err, sizeof err), -1); /* one runs already */
	assert_non_null(strstr(err, "one runs already"));
	assert_int_equal(pthread_create(&t, NULL, serve, &fd), 0);

	/* two silent connections, then a describe: answered at once */
	s1 = silent();
	s2 = silent();
	assert_int_equal(hvpmu_service_describe(name, &mi, err, sizeof err), 0);
	assert_string_equal(mi.platform, "t4");
	assert_int_equal(mi.nguests, 1);
	assert_string_equal(mi.guest[0], "primary");
	errno = 0;
	assert_int_equal(recv(s1, &b, 1, MSG_DONTWAIT), -1); /* still open: no EOF yet */
	assert_int_equal(errno, EAGAIN);
	/* after the hello time the service closes them */
	{
		struct timeval tv = { 5, 0 };

		setsockopt(s2, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		assert_int_equal(recv(s2, &b, 1, 0), 0);
	}
	close(s1);
	close(s2);

	assert_int_equal(monitor("gamma", &m1), ENOENT);
	/* device counters the machine does not have: said so, not blamed on
	 * the hypervisor (it was "refused the device counters (EOK)") */
	assert_int_equal(monitor_dev("", 4, &m1), EINVAL);
	assert_string_equal(monitor_err, "the machine has no device 4");
	assert_int_equal(monitor("", &m1), 0);
	assert_int_equal(monitor("primary", &m2), EBUSY);
	shutdown(m1, SHUT_WR); /* the monitor ends: the service closes the connection */
	{
		struct timeval tv = { 10, 0 };

		setsockopt(m1, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		assert_int_equal(recv(m1, &b, 1, 0), 0);
	}
	close(m1);
	assert_int_equal(monitor("primary", &m2), 0); /* the guest takes the next one */
	close(m2);

	/* hellos waiting per uid: 64 held, the next refused with why */
	{
		int q[64];
		char want[96];

		for (unsigned k = 0; k < 64; k++)
			q[k] = silent();
		assert_int_equal(hvpmu_service_describe(name, &mi, err, sizeof err), -1);
		snprintf(want, sizeof want, "uid %u has 64 connections that have not said hello", (unsigned)geteuid());
		assert_string_equal(err, want);
		for (unsigned k = 0; k < 64; k++)
			close(q[k]);
		for (int k = 0; k < 100 && hvpmu_service_describe(name, &mi, err, sizeof err); k++)
			usleep(20000); /* (until the service has seen them go) */
		assert_int_equal(hvpmu_service_describe(name, &mi, err, sizeof err), 0);
	}

	stop = 1;
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(serve_rc, 0);
	hvpmu_service_unlisten(name, fd);
	assert_int_equal(hvpmu_service_describe(name, &mi, err, sizeof err), -1); /* gone */
	assert_non_null(strstr(err, "no service at"));
	stale();
}

/* A socket file nothing answers on (a service that was killed) is
 * replaced; the file goes at a clean end. */
static void stale(void)
{
	struct sockaddr_un sa;
	struct stat st;
	socklen_t len;
	char addr[128], err[256];
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), fd;

	assert_int_equal(hvpmu_service_address(name, addr, sizeof addr), 0);
	assert_int_equal(lstat(addr, &st), -1); /* unlisten removed it */
	assert_int_equal(sock_addr(addr, &sa, &len), 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, len), 0);
	close(s); /* the file stays, nobody listens */
	fd = hvpmu_service_listen(name, err, sizeof err);
	assert_true(fd >= 0);
	hvpmu_service_unlisten(name, fd);
	assert_int_equal(lstat(addr, &st), -1);
	strcat(addr, ".lock"); /* (the lock beside it goes too) */
	assert_int_equal(lstat(addr, &st), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
