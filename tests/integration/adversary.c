/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * adversary: a hostile client of a standing service (hvpmu serve,
 * docs/service.md "What the service checks"), for run_adversary.sh.
 *
 *   adversary guest NAME GUEST
 *       attaches as a root image of GUEST (a REMOTE_ROOT hello), gets its
 *       area and the doorbell, and tries to truncate and grow the area
 *       (F_SEAL_SHRINK, F_SEAL_GROW: EPERM) and to add F_SEAL_WRITE
 *       (F_SEAL_SEAL: EPERM); rings the doorbell so that the service
 *       looks at the area, twice, a moment apart, and holds the image a
 *       while before it ends.
 *   adversary monitor NAME GUEST DISKFILE
 *       asks for a monitor of GUEST with request descriptors the service
 *       must refuse at once (a pipe whose writer stays open, /dev/zero, a
 *       socket, DISKFILE unless it is on tmpfs, a memfd over
 *       STAT_REQUEST_MAX) and with an unsealed result area; then runs a
 *       real monitor with a sealed area and tries to truncate and grow it
 *       mid-run (EPERM), writes a slot index far out of the area into it
 *       (the service must not publish there), and reads its final
 *       publication.
 *   adversary garbage NAME GUEST
 *       attaches as a root image of GUEST and publishes, in its first
 *       ring, a thread's start and then a record of no known kind: the
 *       service detaches it (its counts so far kept) and tells the guest's
 *       OS that what it ran is not counted (a monitor of GUEST must fail
 *       loudly: docs/service.md "More threads than strands").
 *   adversary squat PATH
 *       binds the socket PATH (run as another uid: a squatter) and, for
 *       each of the connections that come, prints "squat: N bytes" (what
 *       the client sent before it hung up, within 2 s); a client must
 *       refuse it before its hello (docs/service.md "Where the socket
 *       is").  Prints "squat: listening" first; ends at SIGTERM or after
 *       60 s.
 *
 * Each step prints one line; any failure prints "FAIL: ..." and exits 1.
 * Between the steps the service must still describe its machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/magic.h>
#include <hvpmu/remote.h>
#include <hvpmu/session.h>
#include "common/fdpass.h"
#include "common/sock.h"
#include "source/remote_proto.h"
#include "source/remote_shm.h"

#define REFUSE_S 2.0 /* a refusal comes at once; the service's loop must not wait on the client */
#define HOLD_US 300000
#define AREA_CUR_OFFSET 32 /* struct area's `cur` (src/host/stat_area.c): after magic, version, sizes */

static const char *name;

static __attribute__((noreturn)) void fail(const char *what, const char *detail)
{
	printf("FAIL: adversary: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	fflush(stdout);
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void alive(const char *after)
{
	struct hvpmu_remote_machine_info mi;
	char err[256];

	if (hvpmu_service_describe(name, &mi, err, sizeof err))
		fail(after, err);
}

/* ---- a guest that truncates its area ---- */

static int attach(const char *guest, int fds[2])
{
	struct sockaddr_un sa;
	socklen_t len;
	struct remote_hello h = { .magic = REMOTE_HELLO_MAGIC, .version = REMOTE_PROTO_VERSION, .how = REMOTE_ROOT };
	struct remote_welcome w;
	char addr[128], cbuf[FDPASS_CBUF];
	struct iovec io = { &w, sizeof w };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	ssize_t n;

	h.pid = getpid();
	snprintf(h.isa, sizeof h.isa, "sparcv9");
	snprintf(h.comm, sizeof h.comm, "adversary");
	snprintf(h.guest, sizeof h.guest, "%s", guest);
	if (hvpmu_service_address(name, addr, sizeof addr) || sock_addr(addr, &sa, &len) || s < 0)
		fail("guest", "no socket");
	if (connect(s, (struct sockaddr *)&sa, len) ||
	    send(s, &h, sizeof h, MSG_NOSIGNAL) != (ssize_t)sizeof h)
		fail("guest: connect or hello", strerror(errno));
	n = recvmsg(s, &mh, MSG_CMSG_CLOEXEC);
	if (n != (ssize_t)sizeof w || w.magic != REMOTE_WELCOME_MAGIC || w.status)
		fail("guest: not welcomed", n == (ssize_t)sizeof w ? w.reason : "no answer");
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(2 * sizeof(int)))
			memcpy(fds, CMSG_DATA(c), 2 * sizeof(int));
	if (fds[0] < 0 || fds[1] < 0)
		fail("guest", "no area and doorbell with the welcome");
	return s;
}

/* ftruncate(fd, size) must fail with EPERM (a seal). */
static void sealed_against(int fd, off_t size, const char *what)
{
	if (ftruncate(fd, size) == 0)
		fail(what, "ftruncate succeeded: the area is not sealed");
	if (errno != EPERM)
		fail(what, strerror(errno));
}

static int guest_main(const char *guest)
{
	int fds[2] = { -1, -1 }, s = attach(guest, fds);
	struct stat st;
	uint64_t one = 1;

	if (fstat(fds[0], &st))
		fail("guest: fstat", strerror(errno));
	sealed_against(fds[0], 0, "guest: truncating the area");
	sealed_against(fds[0], st.st_size / 2, "guest: shrinking the area");
	sealed_against(fds[0], st.st_size + 4096, "guest: growing the area");
	if (fcntl(fds[0], F_ADD_SEALS, F_SEAL_WRITE) == 0 || errno != EPERM)
		fail("guest: adding F_SEAL_WRITE", "not refused (F_SEAL_SEAL missing)");
	for (int i = 0; i < 2; i++) { /* the service looks at the area */
		if (write(fds[1], &one, sizeof one) != (ssize_t)sizeof one)
			fail("guest: doorbell", strerror(errno));
		usleep(HOLD_US);
	}
	alive("guest: the service does not answer after the area's truncation");
	printf("adversary guest %s: ftruncate of the area refused (EPERM), F_SEAL_WRITE refused, service alive\n",
	       guest);
	close(s); /* the image ends */
	return 0;
}

/* ---- a guest whose records are garbage ---- */

static int garbage_main(const char *guest)
{
	int fds[2] = { -1, -1 }, s = attach(guest, fds);
	struct remote_area *a = mmap(NULL, sizeof *a, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
	uint64_t one = 1;

	if (a == MAP_FAILED)
		fail("garbage: mmap of the area", strerror(errno));
	a->ring[0].slot[0] = (struct remote_rec){ R_CTL_W0(C_START, 0), (uint64_t)getpid() };
	a->ring[0].slot[1] = (struct remote_rec){ 7, 0 }; /* (kind 7: none) */
	atomic_store_explicit(&a->ring[0].head, 2, memory_order_release);
	if (write(fds[1], &one, sizeof one) != (ssize_t)sizeof one)
		fail("garbage: doorbell", strerror(errno));
	for (int k = 0; k < 200 && !atomic_load(&a->abandoned); k++)
		usleep(10000);
	if (!atomic_load(&a->abandoned))
		fail("garbage", "the service did not detach the image");
	alive("garbage: the service does not answer after a bad record");
	printf("adversary garbage %s: detached, service alive\n", guest);
	close(s);
	return 0;
}

/* ---- a monitor with bad descriptors ---- */

/* A request file (memfd) of an empty request, as the tools write it. */
static int request(void)
{
	struct stat_request rq;
	char path[64], err[256];
	int fd = memfd_create("adversary-request", MFD_CLOEXEC);

	if (fd < 0)
		fail("memfd_create", strerror(errno));
	memset(&rq, 0, sizeof rq);
	rq.result_fd = -1;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (stat_request_write(path, &rq, err, sizeof err))
		fail("request", err);
	return fd;
}

static int area(void)
{
	char err[256];
	int fd = stat_area_create(err, sizeof err);

	if (fd < 0)
		fail("area", err);
	return fd;
}

/* An area as stat_area_create makes it, but never sealed. */
static int unsealed_area(void)
{
	int sealed = area(), fd = memfd_create("adversary-unsealed", MFD_CLOEXEC);
	struct stat st;
	char *buf;

	if (fd < 0 || fstat(sealed, &st) || ftruncate(fd, st.st_size) || !(buf = malloc(4096)))
		fail("unsealed area", strerror(errno));
	if (pread(sealed, buf, 4096, 0) != 4096 || pwrite(fd, buf, 4096, 0) != 4096)
		fail("unsealed area: copy", strerror(errno));
	free(buf);
	close(sealed);
	return fd;
}

/* A monitor with request descriptor req and area ar must be refused at
 * once with a reason containing `want`. */
static void refused(const char *guest, const char *what, int req, int ar, const char *want)
{
	char err[256];
	int status = 0, conn;
	double t0 = now_s(), dt;

	conn = hvpmu_service_monitor(name, guest, req, ar, &status, err, sizeof err);
	dt = now_s() - t0;
	if (conn >= 0)
		fail(what, "accepted");
	if (dt > REFUSE_S) {
		char d[320];

		snprintf(d, sizeof d, "refused after %.1f s (%s): the service waited on the client", dt, err);
		fail(what, d);
	}
	if (!strstr(err, want)) {
		char d[400];

		snprintf(d, sizeof d, "want '%s', got '%s'", want, err);
		fail(what, d);
	}
	alive(what);
	printf("adversary monitor: %s refused in %.3f s: %s\n", what, dt, err);
}

static int monitor_main(const char *guest, const char *diskfile)
{
	char err[256], b;
	int p[2], sp[2], zero, req, ar, big, disk, status = 0, conn;
	struct stat_result rs;
	struct statfs fs;
	struct timeval tv = { 10, 0 };

	/* a pipe whose writer stays open: read as a file, it stalled the loop */
	if (pipe(p))
		fail("pipe", strerror(errno));
	ar = area();
	refused(guest, "a pipe as the request", p[0], ar, "not a regular file");
	/* ... with some JSON in it, the writer still open */
	if (write(p[1], "{\"events\": [", 12) != 12)
		fail("pipe: write", strerror(errno));
	refused(guest, "a pipe with half a request", p[0], ar, "not a regular file");
	/* /dev/zero: read as a file, it grew the service without end */
	if ((zero = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0)
		fail("/dev/zero", strerror(errno));
	refused(guest, "/dev/zero as the request", zero, ar, "not a regular file");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp))
		fail("socketpair", strerror(errno));
	refused(guest, "a socket as the request", sp[0], ar, "not a regular file");
	/* a file on a disk: its read could wait on the device or a server */
	if ((disk = open(diskfile, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
		fail(diskfile, strerror(errno));
	if (fstatfs(disk, &fs) == 0 && fs.f_type != TMPFS_MAGIC) {
		if (write(disk, "{\"events\": []}", 14) != 14)
			fail(diskfile, strerror(errno));
		refused(guest, "a file on disk as the request", disk, ar, "outside memory");
	} else {
		printf("adversary monitor: %s is on tmpfs: the disk-file case skipped\n", diskfile);
	}
	close(disk);
	/* a memfd over the cap: refused before anything is read */
	if ((big = memfd_create("adversary-big", MFD_CLOEXEC)) < 0 || ftruncate(big, (off_t)STAT_REQUEST_MAX + 1))
		fail("big memfd", strerror(errno));
	refused(guest, "a request over STAT_REQUEST_MAX", big, ar, "larger than");
	close(big);
	/* an unsealed result area: a monitor could truncate it under the service */
	req = request();
	close(ar);
	ar = unsealed_area();
	refused(guest, "an unsealed result area", req, ar, "not sealed");
	close(ar);
	close(req);
	/* a real monitor whose area is truncated mid-run: the seals refuse it */
	req = request();
	ar = area();
	conn = hvpmu_service_monitor(name, guest, req, ar, &status, err, sizeof err);
	if (conn < 0)
		fail("a monitor with a sealed area", err);
	close(req);
	usleep(HOLD_US);
	sealed_against(ar, 0, "monitor: truncating its result area mid-run");
	sealed_against(ar, 4096, "monitor: shrinking its result area mid-run");
	/* a slot index far out of the area: the service's next publication
	 * must not go there (it keeps its own copy) */
	if (pwrite(ar, &(uint32_t){ 0x7ffffff0 }, sizeof(uint32_t), AREA_CUR_OFFSET) != sizeof(uint32_t))
		fail("monitor: writing the slot index", strerror(errno));
	usleep(HOLD_US);
	alive("monitor: the service does not answer after the result area's truncation");
	shutdown(conn, SHUT_WR); /* the monitor ends: the final publication, then the close */
	setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (recv(conn, &b, 1, 0) != 0)
		fail("monitor", "the service did not end it");
	close(conn);
	if (stat_area_read(ar, &rs, err, sizeof err))
		fail("monitor: its final publication", err);
	stat_result_free(&rs);
	close(ar);
	close(p[0]);
	close(p[1]);
	close(zero);
	close(sp[0]);
	close(sp[1]);
	printf("adversary monitor %s: ftruncate of the result area refused mid-run (EPERM), a wild slot index "
	       "ignored, final counts read, service alive\n",
	       guest);
	return 0;
}

/* ---- a server of another uid ---- */

static int squat_main(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len;
	int l = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	time_t end = time(NULL) + 60;

	if (l < 0 || sock_addr(path, &sa, &len) || bind(l, (struct sockaddr *)&sa, len) || listen(l, 8))
		fail("squat: bind", strerror(errno));
	printf("squat: listening\n");
	while (time(NULL) < end) {
		struct timeval tv = { 2, 0 };
		char buf[4096];
		ssize_t n, total = 0;
		int c = accept(l, NULL, NULL);

		if (c < 0)
			continue;
		setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		while ((n = recv(c, buf, sizeof buf, 0)) > 0)
			total += n;
		printf("squat: %zd bytes\n", total);
		close(c);
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && strcmp(argv[1], "guest") == 0) {
		name = argv[2];
		return guest_main(argv[3]);
	}
	if (argc == 5 && strcmp(argv[1], "monitor") == 0) {
		name = argv[2];
		return monitor_main(argv[3], argv[4]);
	}
	if (argc == 4 && strcmp(argv[1], "garbage") == 0) {
		name = argv[2];
		return garbage_main(argv[3]);
	}
	if (argc == 3 && strcmp(argv[1], "squat") == 0)
		return squat_main(argv[2]);
	fprintf(stderr, "usage: adversary guest NAME GUEST | adversary monitor NAME GUEST DISKFILE | adversary garbage NAME GUEST | "
		"adversary squat PATH\n");
	return 2;
}
