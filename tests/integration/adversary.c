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
 *   adversary hello NAME GUEST
 *       one root image hello naming GUEST: prints "adversary hello GUEST:
 *       welcomed" or "... refused (errno N): REASON" (run_identity.sh runs
 *       it as a guest's uid and checks which).
 *   adversary parents NAME GUEST
 *       attaches a root image of GUEST, then FORK and EXEC hellos naming
 *       it: from its real child (welcomed), from a grandchild (not the
 *       image's child: refused), an EXEC from another pid (refused), and,
 *       once the image has ended, from a real child (refused).
 *   adversary flood NAME GUEST IMAGES SILENT SECONDS
 *       attaches up to IMAGES root images of GUEST and holds them, opens
 *       SILENT connections that never say hello, prints how many of each
 *       the service took and the first refusal's reason, prints "flood
 *       GUEST: flooding", keeps the silent connections open (reopening
 *       those the service closes) for SECONDS, then ends.
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
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <sys/wait.h>
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

/* ---- identity: hellos the kernel's word must refuse ---- */

/* One hello (how, guest, parent image): the connection when welcomed
 * (the area and doorbell closed), else -1 with *status and reason. */
/* The token hello_once() shows in a FORK hello, and the one the last
 * welcome gave. */
static uint64_t send_token[2], last_token[2];

static int hello_once(uint32_t how, const char *guest, uint32_t parent, uint32_t *process, int *status,
		      char *reason, size_t n)
{
	struct sockaddr_un sa;
	socklen_t len;
	struct remote_hello h = { .magic = REMOTE_HELLO_MAGIC, .version = REMOTE_PROTO_VERSION, .how = how };
	struct remote_welcome w;
	struct timeval tv = { (time_t)REFUSE_S, 0 };
	char addr[128], cbuf[FDPASS_CBUF];
	struct iovec io = { &w, sizeof w };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	ssize_t got;

	h.pid = getpid();
	h.parent = parent;
	if (how == REMOTE_FORK)
		memcpy(h.token, send_token, sizeof h.token);
	snprintf(h.isa, sizeof h.isa, "sparcv9");
	snprintf(h.comm, sizeof h.comm, "adversary");
	snprintf(h.guest, sizeof h.guest, "%s", guest);
	if (hvpmu_service_address(name, addr, sizeof addr) || sock_addr(addr, &sa, &len) || s < 0)
		fail("hello", "no socket");
	if (connect(s, (struct sockaddr *)&sa, len))
		fail("hello: connect", strerror(errno));
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	(void)send(s, &h, sizeof h, MSG_NOSIGNAL); /* (refused at accept: the answer is there already) */
	got = recvmsg(s, &mh, MSG_CMSG_CLOEXEC);
	if (got < 0 && errno == ECONNRESET) /* (the error first, then what was sent before) */
		got = recvmsg(s, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	if (got != (ssize_t)sizeof w || w.magic != REMOTE_WELCOME_MAGIC)
		fail("hello", got < 0 ? strerror(errno) : "no welcome");
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			for (size_t k = 0; k < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + k * sizeof fd, sizeof fd);
				close(fd);
			}
	*status = w.status;
	snprintf(reason, n, "%.*s", (int)strnlen(w.reason, sizeof w.reason), w.reason);
	if (w.status) {
		close(s);
		return -1;
	}
	if (process)
		*process = w.process;
	memcpy(last_token, w.token, sizeof last_token);
	return s;
}

static int hello_main(const char *guest)
{
	char reason[128];
	int status, s = hello_once(REMOTE_ROOT, guest, 0, NULL, &status, reason, sizeof reason);

	if (s >= 0) {
		printf("adversary hello %s: welcomed\n", guest);
		close(s);
	} else {
		printf("adversary hello %s: refused (errno %d): %s\n", guest, status, reason);
	}
	return 0;
}

/* In a child: a FORK or EXEC hello naming image `parent`; exit 0 if its
 * answer is the one wanted (want NULL: welcomed; else refused with EPERM
 * and a reason that says want). */
static void child_hello(uint32_t how, uint32_t parent, const char *want, const char *what)
{
	char reason[128];
	int status, s = hello_once(how, "", parent, NULL, &status, reason, sizeof reason);

	if (!want && s < 0)
		fail(what, reason);
	if (want && s >= 0)
		fail(what, "welcomed");
	if (want && (status != EPERM || !strstr(reason, want)))
		fail(what, reason);
	printf("adversary parents: %s: %s\n", what, want ? reason : "welcomed");
	if (s >= 0)
		close(s);
	exit(0);
}

static void wait_ok(pid_t pid, const char *what)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		fail(what, "its check failed");
}

/* An orphan: a process P attaches (an image of its own), forks C and
 * exits at once, as `sh -c 'prog &'` may before the service has run its
 * fork; C keeps P's connection (the image lives on) and is no child of
 * P's any more (this process is the subreaper it goes to).  Its FORK
 * hello with a wrong token is refused; with the image's token, which it
 * holds as P's copy, welcomed. */
static void orphan(const char *guest)
{
	int pfd[2], status;
	pid_t p, c = -1;
	char reason[128];

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) || pipe(pfd))
		fail("parents: orphan", strerror(errno));
	if ((p = fork()) == 0) {
		uint32_t image = 0;
		int s1 = hello_once(REMOTE_ROOT, guest, 0, &image, &status, reason, sizeof reason);
		uint64_t token[2] = { last_token[0], last_token[1] };
		pid_t self = getpid(), k;

		if (s1 < 0)
			fail("parents: the orphan's parent", reason);
		if ((k = fork()) == 0) {
			int s;

			while (getppid() == self) /* until its parent has exited */
				usleep(1000);
			send_token[0] = token[0] ^ 1; /* (any other) */
			send_token[1] = token[1];
			s = hello_once(REMOTE_FORK, "", image, NULL, &status, reason, sizeof reason);
			if (s >= 0 || status != EPERM || !strstr(reason, "is not a child"))
				fail("an orphan FORK with a wrong token", s >= 0 ? "welcomed" : reason);
			printf("adversary parents: an orphan FORK with a wrong token: %s\n", reason);
			memcpy(send_token, token, sizeof send_token);
			if ((s = hello_once(REMOTE_FORK, "", image, NULL, &status, reason, sizeof reason)) < 0)
				fail("an orphan FORK with the image's token", reason);
			printf("adversary parents: an orphan FORK with the image's token: welcomed\n");
			close(s);
			close(s1);
			exit(0);
		}
		if (write(pfd[1], &k, sizeof k) != (ssize_t)sizeof k)
			_exit(1);
		_exit(0); /* (s1 stays open in the child) */
	}
	close(pfd[1]);
	if (p < 0 || read(pfd[0], &c, sizeof c) != (ssize_t)sizeof c)
		fail("parents: orphan", "no child");
	close(pfd[0]);
	wait_ok(p, "parents: the orphan's parent");
	wait_ok(c, "parents: the orphan");
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

static int parents_main(const char *guest)
{
	char reason[128], want[64];
	uint32_t image = 0;
	int status, s = hello_once(REMOTE_ROOT, guest, 0, &image, &status, reason, sizeof reason);
	pid_t pid;

	if (s < 0)
		fail("parents: the root image", reason);
	if ((pid = fork()) == 0)
		child_hello(REMOTE_FORK, image, NULL, "a FORK from the image's own child");
	wait_ok(pid, "parents: the real child");
	snprintf(want, sizeof want, "is not a child of image %u", image);
	if ((pid = fork()) == 0) {
		pid_t g = fork();

		if (g == 0)
			child_hello(REMOTE_FORK, image, want, "a FORK from its grandchild");
		wait_ok(g, "parents: the grandchild");
		exit(0);
	}
	wait_ok(pid, "parents: the grandchild");
	if ((pid = fork()) == 0)
		child_hello(REMOTE_EXEC, image, "not the execve of pid", "an EXEC from another pid");
	wait_ok(pid, "parents: the EXEC");
	orphan(guest);
	close(s); /* the image ends */
	usleep(HOLD_US);
	snprintf(want, sizeof want, "image %u has ended", image);
	if ((pid = fork()) == 0)
		child_hello(REMOTE_FORK, image, want, "a FORK from its real child once the image ended");
	wait_ok(pid, "parents: the ended image");
	alive("parents: after the hellos");
	printf("adversary parents %s: ok\n", guest);
	return 0;
}

static int silent(void)
{
	struct sockaddr_un sa;
	socklen_t len;
	char addr[128];
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0); /* (connect waits while the backlog is full) */

	if (hvpmu_service_address(name, addr, sizeof addr) || sock_addr(addr, &sa, &len) || s < 0)
		fail("flood", "no socket");
	if (connect(s, (struct sockaddr *)&sa, len))
		fail("flood: connect", strerror(errno));
	return s;
}

/* The refusal a silent connection got (its one line), or "" if none yet. */
static int silent_refused(int s, char *reason, size_t n)
{
	struct remote_welcome w;
	ssize_t got = recv(s, &w, sizeof w, MSG_DONTWAIT);

	reason[0] = 0;
	if (got == (ssize_t)sizeof w && w.magic == REMOTE_WELCOME_MAGIC && w.status)
		snprintf(reason, n, "%.*s", (int)strnlen(w.reason, sizeof w.reason), w.reason);
	return got == 0 || reason[0]; /* closed: refused, or its time to say hello is up */
}

static int flood_main(const char *guest, int images, int nsilent, int seconds)
{
	static int held[4096], quiet[1024];
	char reason[128], first[128] = "";
	int status, took = 0, refused = 0;
	double end;

	if (images > 4096 || nsilent > 1024)
		fail("flood", "too many");
	for (int k = 0; k < images; k++) {
		int s = hello_once(REMOTE_ROOT, guest, 0, NULL, &status, reason, sizeof reason);

		if (s >= 0) {
			held[took++] = s;
		} else {
			refused++;
			if (!first[0])
				snprintf(first, sizeof first, "%s", reason);
		}
	}
	printf("adversary flood %s: %d images welcomed, %d refused%s%s\n", guest, took, refused, first[0] ? ": " : "",
	       first);
	static char said[1024];

	for (int k = 0; k < nsilent; k++)
		quiet[k] = silent();
	first[0] = 0;
	refused = 0;
	/* the refusals come as the service accepts: until none for a while
	 * (well within the hello time, after which it closes the rest) */
	for (double last = now_s(), until = now_s() + 5; now_s() < until && now_s() - last < HOLD_US / 1e6;
	     usleep(10000))
		for (int k = 0; k < nsilent; k++)
			if (!said[k] && silent_refused(quiet[k], reason, sizeof reason) && reason[0]) {
				said[k] = 1;
				refused++;
				last = now_s();
				if (!first[0])
					snprintf(first, sizeof first, "%s", reason);
			}
	printf("adversary flood %s: %d silent connections, %d refused at once%s%s\n", guest, nsilent, refused,
	       first[0] ? ": " : "", first);
	printf("adversary flood %s: flooding\n", guest);
	for (end = now_s() + seconds; now_s() < end; usleep(20000))
		for (int k = 0; k < nsilent; k++)
			if (silent_refused(quiet[k], reason, sizeof reason)) {
				close(quiet[k]);
				quiet[k] = silent();
			}
	for (int k = 0; k < took; k++)
		close(held[k]);
	for (int k = 0; k < nsilent; k++)
		close(quiet[k]);
	printf("adversary flood %s: done\n", guest);
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
	if (argc == 4 && strcmp(argv[1], "hello") == 0) {
		name = argv[2];
		return hello_main(argv[3]);
	}
	if (argc == 4 && strcmp(argv[1], "parents") == 0) {
		name = argv[2];
		return parents_main(argv[3]);
	}
	if (argc == 7 && strcmp(argv[1], "flood") == 0) {
		name = argv[2];
		return flood_main(argv[3], atoi(argv[4]), atoi(argv[5]), atoi(argv[6]));
	}
	fprintf(stderr, "usage: adversary guest NAME GUEST | adversary monitor NAME GUEST DISKFILE | adversary garbage NAME GUEST"
		" | adversary squat PATH"
		" | adversary hello NAME GUEST | adversary parents NAME GUEST"
		" | adversary flood NAME GUEST IMAGES SILENT SECONDS\n");
	return 2;
}
