/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_service_socket.c - libFuzzer target for the service's socket layer
 * with descriptors (docs/service.md "Protocol", "Guests and monitors"):
 * the service's real connection handling (src/host/service.c accept_conn,
 * reached through src/host/service_test.h) on the service's end of an
 * AF_UNIX SOCK_SEQPACKET socket pair, as the service's loop calls it once
 * a connection is readable; and the guest's side of the welcome
 * (remote_welcome_recv, src/source/remote_client.c, which the plugin's
 * attach.c calls) fed the real service's replies or fuzzed ones.  Every
 * client and every answer is untrusted.
 *
 * Three services are built once: hvpmu serve's T4 with guests alpha and
 * beta (tests/integration/lib_service.sh), hvpmu serve's PAPR machine with
 * three partitions (gpci answers there) and a tool's run's T4 service.
 *
 * Input (big-endian fields, fuzz_input.h; past the end everything is 0):
 *   u8 service: 0 or 3 the standing T4, 1 the standing PAPR, 2 the tool's
 *   then up to MAX_OPS operations, each a connection:
 *   u8 op: bits 0-2 what (below), bit 3 the connection's answer goes to
 *       the guest's receiver (to the client), bit 4 the client closes its
 *       end once it has sent, bit 5 shut the client's writing side,
 *       bits 6-7 how many descriptors go with the message (0..3)
 *     to the service, what: 0 raw bytes (u16 length, at most 1024, then
 *       the bytes), 1 a ROOT hello, 2 FORK, 3 EXEC, 4 MONITOR,
 *       5 DESCRIBE, 6 GPCI, 7 nothing is sent (no hello); hellos 1..6
 *       are built as the clients build them, then: u8 guest (0 "", 1 the
 *       first guest's name, 2 the second's, 3 "nosuch", else 16 bytes of
 *       input), u8 parent offset (FORK, EXEC: the image attached last
 *       plus it, as a signed byte), u8 request (x 16), u8 starting
 *       index (255: -1), u16 secondary index << 8 | version (GPCI), then
 *       patches
 *     to the client (p: a hello's fields and patches as above), what:
 *       0 u8 receiver (the guest's welcome, a monitor's welcome, a
 *       describe's answer, a gpci answer), raw bytes (as above); the
 *       guest's receiver: 1 a welcome (hvpmu_remote_welcome, then u8
 *       process and u8 features, p), 2 a refusal (16 bytes of reason,
 *       u8 errno, p), 3 the real service's answer to a ROOT hello (as
 *       above, with its descriptors); 4 a monitor's welcome (as 2);
 *       5 a describe answer (hvpmu_remote_machine of the T4, p); 6 a gpci
 *       answer (hvpmu_remote_gpci_answer: u8 status, u16 returned
 *       values, 16 bytes of reason, p); 7 u8 the real service's answer
 *       to a MONITOR, DESCRIBE or GPCI hello (as above) to its receiver
 *   patches: u8 count (at most 16), each u16 offset, u8 byte
 *   per descriptor, u8 kind: bits 0-2 0 a memfd, 1 a pipe's read end,
 *       2 a pipe's write end, 3 /dev/zero, 4 a regular file on disk,
 *       5 a socket (the other end stays with us), 6 to the service a
 *       result area (stat_area_create), to the client an area as the
 *       service makes one, 7 an eventfd; a memfd: bit 3 its contents are
 *       a request (stat_request_write: bit 4 a stat's, else a busstat's)
 *       else u16 length and bytes, bit 5 sealed (shrink, grow, seal),
 *       bit 6 then truncated to u16 x 8 bytes, bit 7 also F_SEAL_WRITE
 * After the operations every connection the service kept ends (its peer
 * closed it: service_test_end_conns).
 *
 * Invariants (abort on violation): no crash, no sanitizer report, no
 * call blocks (the sockets of our side are non-blocking: the service's
 * answer is there at once or never), at most one answer per
 * connection, of one of the sizes a hello is answered with (a welcome,
 * a remote_machine, a hvpmu_remote_gpci), a welcome's reason one line of
 * text, descriptors only with a welcome of status 0 (two for an image);
 * the clients' receivers quote one printable line and hand out only
 * what is in bounds; the open descriptors are as many after each input
 * as before.
 *
 * Corpus: tests/fuzz/corpus/fuzz_service_socket, written by this target
 * itself from the real encoders: HVPMU_FUZZ_WRITE_CORPUS=DIR
 * ./fuzz_service_socket writes the seeds to DIR and exits.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <dirent.h>
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
#include <unistd.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/remote.h>
#include <hvpmu/session.h>
#include "common/fdpass.h"
#include "common/shm_seal.h"
#include "fuzz_input.h"
#include "host/service_test.h"
#include "source/remote_proto.h"
#include "source/remote_shm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAX_OPS 8
#define MAX_DESC 3
#define RAW_MAX 1024
#define IMAGES_MAX 1000 /* a service is built anew after so many images (its memory) */

enum { SV_T4, SV_POWER, SV_TOOL, NSV };
enum { R_GUEST, R_MONITOR, R_DESCRIBE, R_GPCI }; /* the clients' receivers */

static const char t4_md[] =
	"{ \"platform\": \"t4\", \"guests\": ["
	" { \"name\": \"alpha\", \"perfctraccess\": 1, \"dram_counter_group\": 1, \"first_strand\": 0, \"nstrands\": 32,"
	"   \"mblock\": [ { \"base\": 0, \"size\": 268435456 } ] },"
	" { \"name\": \"beta\", \"perfctraccess\": 0, \"first_strand\": 32, \"nstrands\": 32,"
	"   \"mblock\": [ { \"base\": 268435456, \"size\": 268435456 } ] } ] }";

/* (the processors: one per core of the machine, 32; partition 1 owns
 * the first, the second is shared, scripts/power-cec.json) */
static const char power_md_head[] = "{ \"platform\": \"power\", \"cec\": { \"procs\": [";
static const char power_md_tail[] =
	" ], \"partitions\": ["
	"  { \"id\": 1, \"name\": \"ded\", \"mode\": \"dedicated\", \"vps\": 1, \"collect_privileged\": true },"
	"  { \"id\": 2, \"name\": \"capped\", \"mode\": \"capped\", \"entitlement\": 0.5, \"vps\": 1 } ] },"
	" \"guests\": ["
	"  { \"name\": \"ded\", \"first_strand\": 0, \"nstrands\": 8, \"mblock\": [ { \"base\": 0, \"size\": 67108864 } ] },"
	"  { \"name\": \"capped\", \"first_strand\": 8, \"nstrands\": 4,"
	"    \"mblock\": [ { \"base\": 0, \"size\": 67108864 } ] } ] }";

static struct {
	struct stat_request rq;
	struct service *sv;
	const char *guest[2];
	const char *isa;
} S[NSV];

static struct hvpmu_md t4_desc; /* what a describe answer names (its guests) */
static char *request_json[2]; /* a stat's and a busstat's request, as the tools write them */
static size_t request_len[2];

static void die(const char *what)
{
	fprintf(stderr, "fuzz_service_socket: %s\n", what);
	abort();
}

/* Open descriptors now (/proc/self/fd, without the directory's own). */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		die("cannot read /proc/self/fd");
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* A memfd holding s (kept open: the services read it again when they
 * are built anew), its path in path[n]. */
static void write_md(const char *s, char *path, size_t n)
{
	int fd = memfd_create("hvpmu-fuzz-md", MFD_CLOEXEC);

	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		die("cannot write a description");
	snprintf(path, n, "/proc/self/fd/%d", fd);
}

static void service_build(int k)
{
	char err[512];

	if (S[k].sv)
		service_test_free(S[k].sv);
	if (!(S[k].sv = service_test_create(&S[k].rq, k != SV_TOOL, err, sizeof err))) {
		fprintf(stderr, "fuzz_service_socket: service %d: %s\n", k, err);
		abort();
	}
}

static void cleanup(void)
{
	for (int k = 0; k < NSV; k++)
		if (S[k].sv)
			service_test_free(S[k].sv);
	free(request_json[0]);
	free(request_json[1]);
}

/* A request as a tool writes it (stat_request_write), into *out. */
static void request_of(const struct stat_request *rq, char **out, size_t *len)
{
	char path[64], err[256];
	int fd = memfd_create("hvpmu-fuzz-rq", MFD_CLOEXEC);
	struct stat st;

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (fd < 0 || stat_request_write(path, rq, err, sizeof err) || fstat(fd, &st) ||
	    !(*out = malloc((size_t)st.st_size)) || pread(fd, *out, (size_t)st.st_size, 0) != st.st_size)
		die("cannot write a request");
	*len = (size_t)st.st_size;
	close(fd);
}

/* T4 events as the tools name them (hvpmu_sv_parse_events) into rq. */
static void events(struct stat_request *rq, const char *list)
{
	char err[256];

	rq->nevents = 0;
	if (hvpmu_sv_parse_events(hvpmu_sv_backend_of(HVPMU_PLATFORM_T4), list, rq->ev, &rq->nevents,
				  HVPMU_SV_MAX_EVENTS, err, sizeof err))
		die(err);
}

static void init_once(void)
{
	static int done;
	char t4_path[64], power_path[64], power_md[4096];
	struct stat_request rq;
	size_t k = 0;

	if (done)
		return;
	done = 1;
	write_md(t4_md, t4_path, sizeof t4_path);
	if (hvpmu_md_default(HVPMU_PLATFORM_T4, &t4_desc))
		die("hvpmu_md_default");
	k += (size_t)snprintf(power_md + k, sizeof power_md - k, "%s", power_md_head);
	for (int p = 0; p < 32; p++)
		k += (size_t)snprintf(power_md + k, sizeof power_md - k, "%s{ \"chip\": %d, \"state\": \"%s\"%s }",
				      p ? ", " : "", p / 8, p == 0 ? "dedicated" : p == 1 ? "shared" : "unlicensed",
				      p == 0 ? ", \"owner\": 1" : "");
	snprintf(power_md + k, sizeof power_md - k, "%s", power_md_tail);
	write_md(power_md, power_path, sizeof power_path);
	for (k = 0; k < NSV; k++) {
		S[k].rq.result_fd = -1;
		snprintf(S[k].rq.platform, sizeof S[k].rq.platform, "%s", k == SV_POWER ? "power" : "t4");
		S[k].guest[0] = k == SV_POWER ? "ded" : "alpha";
		S[k].guest[1] = k == SV_POWER ? "capped" : "beta";
		S[k].isa = k == SV_POWER ? "ppc64" : "sparcv9";
	}
	snprintf(S[SV_T4].rq.md_path, sizeof S[SV_T4].rq.md_path, "%s", t4_path);
	snprintf(S[SV_POWER].rq.md_path, sizeof S[SV_POWER].rq.md_path, "%s", power_path);
	/* a tool's run counts instructions, with the memory model */
	events(&S[SV_TOOL].rq, "Instr_all,DC_miss_local_hit_nospec");
	S[SV_TOOL].rq.features = HVPMU_FEAT_MEMORY;
	for (k = 0; k < NSV; k++)
		service_build((int)k);
	/* the monitors' requests (tests/fuzz/corpus/fuzz_monitor) */
	memset(&rq, 0, sizeof rq);
	rq.result_fd = 5;
	snprintf(rq.platform, sizeof rq.platform, "t4");
	rq.mdperf_node = -1;
	events(&rq, "Instr_all:u,Instr_ld");
	rq.sample_cycles = 200000;
	rq.cpustat = 1;
	request_of(&rq, &request_json[0], &request_len[0]);
	memset(&rq, 0, sizeof rq);
	rq.result_fd = 5;
	snprintf(rq.platform, sizeof rq.platform, "t4");
	rq.mdperf_node = -1;
	rq.sample_cycles = 100000;
	rq.monitor_cycles = 300000;
	rq.nbusdev = 2;
	rq.busdev[0] = (struct stat_busdev){ .dev = 4, .code = { 0, 1 } };
	rq.busdev[1] = (struct stat_busdev){ .dev = 5, .code = { 2, 3 } };
	request_of(&rq, &request_json[1], &request_len[1]);
	atexit(cleanup);
}

/* ---- what goes with a message ---- */

struct held {
	int fd[2 * MAX_DESC]; /* our ends (a pipe's other end, a socket's peer): closed after the input */
	unsigned n;
};

static void hold(struct held *h, int fd)
{
	if (fd >= 0 && h->n < sizeof h->fd / sizeof h->fd[0])
		h->fd[h->n++] = fd;
	else if (fd >= 0)
		close(fd);
}

/* An area as the service makes one (src/source/remote.c), sealed. */
static int area_fd(void)
{
	int fd = shm_create("hvpmu-fuzz-area", MFD_CLOEXEC, sizeof(struct remote_area));
	uint64_t magic = REMOTE_MAGIC;

	if (fd < 0 || pwrite(fd, &magic, sizeof magic, 0) != (ssize_t)sizeof magic || shm_seal(fd))
		die("cannot make an area");
	return fd;
}

/* The descriptor the input asks for (to_client: the kinds a service
 * sends), or -1. */
static int descriptor(struct in *in, int to_client, struct held *h)
{
	uint8_t kind = u8(in);
	char err[256];
	int fd = -1, p[2];

	switch (kind & 7) {
	case 0: {
		unsigned flags = MFD_CLOEXEC | ((kind & 0xa0) ? MFD_ALLOW_SEALING : 0);

		if ((fd = memfd_create("hvpmu-fuzz", flags)) < 0)
			die("memfd_create");
		if (kind & 8) {
			int w = (kind & 16) != 0;

			if (pwrite(fd, request_json[w], request_len[w], 0) != (ssize_t)request_len[w])
				die("pwrite");
		} else {
			uint16_t n = u16(in) % 4096;
			uint8_t b[4096];

			for (unsigned i = 0; i < n; i++)
				b[i] = u8(in);
			if (n && pwrite(fd, b, n, 0) != (ssize_t)n)
				die("pwrite");
		}
		if ((kind & 64) && ftruncate(fd, (off_t)u16(in) * 8))
			die("ftruncate");
		if ((kind & 0xa0) &&
		    fcntl(fd, F_ADD_SEALS, ((kind & 32) ? SHM_SEALS : 0) | ((kind & 128) ? F_SEAL_WRITE : 0)))
			die("F_ADD_SEALS");
		return fd;
	}
	case 1:
	case 2:
		if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
			die("pipe2");
		if (kind & 8) /* something to read */
			(void)!write(p[1], "{\"events\":", 10);
		hold(h, p[kind & 1 ? 1 : 0]);
		return p[kind & 1 ? 0 : 1];
	case 3:
		return open("/dev/zero", O_RDONLY | O_CLOEXEC);
	case 4: /* a file on disk (not tmpfs): the build tree's file system */
		if ((fd = open(".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) >= 0 && (kind & 8))
			(void)!pwrite(fd, request_json[0], request_len[0], 0);
		return fd;
	case 5:
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, p))
			die("socketpair");
		hold(h, p[1]);
		return p[0];
	case 6:
		if (to_client)
			return area_fd();
		if ((fd = stat_area_create(err, sizeof err)) < 0)
			die(err);
		return fd;
	default:
		return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	}
}

/* Send msg[n] on s with the descriptors the input asks for (they are
 * ours to close once sent). */
static void send_with(int s, const void *msg, size_t n, unsigned ndesc, int to_client, struct in *in, struct held *h)
{
	int fds[MAX_DESC], nfd = 0;
	char cbuf[CMSG_SPACE(MAX_DESC * sizeof(int))];
	struct iovec io = { (void *)msg, n };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1 };

	for (unsigned i = 0; i < ndesc; i++) {
		int fd = descriptor(in, to_client, h);

		if (fd >= 0)
			fds[nfd++] = fd;
	}
	if (nfd) {
		struct cmsghdr *c;

		memset(cbuf, 0, sizeof cbuf);
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE((size_t)nfd * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)nfd * sizeof(int));
		memcpy(CMSG_DATA(c), fds, (size_t)nfd * sizeof(int));
	}
	if (sendmsg(s, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EMSGSIZE && errno != ENOBUFS)
		die("sendmsg");
	for (int i = 0; i < nfd; i++)
		close(fds[i]);
}

/* u8 patches of (offset, byte) over msg[n]. */
static void patch(struct in *in, void *msg, size_t n)
{
	unsigned np = u8(in) % 17;

	for (unsigned i = 0; i < np; i++) {
		uint16_t off = u16(in);
		uint8_t b = u8(in);

		if (n)
			((uint8_t *)msg)[off % n] = b;
	}
}

static size_t raw(struct in *in, uint8_t *buf)
{
	size_t n = u16(in) % (RAW_MAX + 1);

	for (size_t i = 0; i < n; i++)
		buf[i] = u8(in);
	return n;
}

/* A hello of kind `how` as the clients build one (remote_client.c
 * hello_to, attach.c connect_service), then the input's changes. */
static void hello_of(struct in *in, int sv, uint32_t how, uint32_t last, struct remote_hello *h)
{
	uint8_t g = u8(in);
	int8_t off = (int8_t)u8(in);
	uint32_t request = (uint32_t)u8(in) << 4, start = u8(in), sec = u16(in);

	memset(h, 0, sizeof *h);
	h->magic = REMOTE_HELLO_MAGIC;
	h->version = REMOTE_PROTO_VERSION;
	h->how = how;
	h->pid = getpid();
	if (how <= REMOTE_EXEC)
		snprintf(h->isa, sizeof h->isa, "%s", S[sv].isa);
	if (how == REMOTE_ROOT || how == REMOTE_EXEC)
		snprintf(h->comm, sizeof h->comm, "fuzz");
	if (how == REMOTE_FORK || how == REMOTE_EXEC) {
		h->parent = last + (uint32_t)(int32_t)off;
		h->base = 0;
	}
	if (g == 1 || g == 2)
		snprintf(h->guest, sizeof h->guest, "%s", S[sv].guest[g - 1]);
	else if (g == 3)
		snprintf(h->guest, sizeof h->guest, "nosuch");
	else if (g > 3)
		for (size_t i = 0; i < 16; i++)
			h->guest[i] = (char)u8(in);
	h->arg[0] = request;
	h->arg[1] = start == 255 ? UINT32_MAX : start;
	h->arg[2] = sec;
	patch(in, h, sizeof *h);
}

/* Closes every descriptor in a message's control data. */
static unsigned close_cmsg(struct msghdr *mh)
{
	unsigned n = 0;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++, n++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
				close(fd);
			}
	return n;
}

static int one_line(const char *s, size_t n)
{
	size_t len = strnlen(s, n);

	if (len == n)
		return 0;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20)
			return 0;
	return 1;
}

/* The service's answer on our end c, checked and dropped: the process
 * number of an image welcomed, or 0.  (What a hello asks is what its
 * bytes say, patched or raw: the answer is checked by its kind.) */
static uint32_t answer(int c)
{
	static union {
		struct remote_welcome w;
		struct remote_machine m;
		struct hvpmu_remote_gpci g;
		char b[sizeof(struct hvpmu_remote_gpci) + 64];
	} a;
	char cbuf[CMSG_SPACE(4 * sizeof(int))];
	struct iovec io = { &a, sizeof a };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	ssize_t n = recvmsg(c, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	unsigned nfd = n >= 0 ? close_cmsg(&mh) : 0;
	char b;

	if (getenv("HVPMU_FUZZ_TRACE")) /* (what the service answered, to see what the corpus reaches) */
		fprintf(stderr, "answer: %zd bytes, %u descriptors, status %d: %.96s\n", n, nfd,
			n == (ssize_t)sizeof a.w ? a.w.status : n == (ssize_t)sizeof a.g ? a.g.status : 0,
			n == (ssize_t)sizeof a.w ? a.w.reason : n == (ssize_t)sizeof a.g ? a.g.reason : "");
	if (n <= 0)
		return 0; /* none (the connection was closed without an answer) */
	if (recv(c, &b, 1, MSG_DONTWAIT) > 0)
		die("two answers to one hello");
	if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))
		die("an answer too large");
	if (n == (ssize_t)sizeof a.m) {
		if (a.m.magic != REMOTE_MACHINE_MAGIC || nfd)
			die("a bad describe answer");
		return 0;
	}
	if (n == (ssize_t)sizeof a.g) {
		if (a.g.magic != HVPMU_REMOTE_GPCI_MAGIC || !one_line(a.g.reason, sizeof a.g.reason) || nfd)
			die("a bad gpci answer");
		return 0;
	}
	if (n != (ssize_t)sizeof a.w || a.w.magic != REMOTE_WELCOME_MAGIC)
		die("an answer of no kind");
	if (!one_line(a.w.reason, sizeof a.w.reason)) {
		fprintf(stderr, "reason: %.96s\n", a.w.reason);
		die("a welcome's reason is not one line");
	}
	if (a.w.status ? nfd != 0 : nfd != 0 && nfd != 2)
		die("a welcome with the wrong descriptors");
	return !a.w.status && nfd == 2 ? a.w.process : 0;
}

/* With HVPMU_FUZZ_TRACE set, what a receiver said (to see what the
 * corpus reaches). */
static void trace(const char *who, int rc, const char *why)
{
	if (getenv("HVPMU_FUZZ_TRACE"))
		fprintf(stderr, "%s: %d %s\n", who, rc, why);
}

/* The client's receiver `rcv` on c: whatever came, its descriptors are
 * handed out or closed (the tools' receivers take none: the kernel drops
 * them), what it quotes is one printable line. */
static void receive(int c, int rcv)
{
	static struct hvpmu_remote_machine_info info;
	static struct hvpmu_remote_gpci g;
	struct remote_welcome w;
	struct remote_area *area;
	char why[256];
	int efd, rc, status;

	why[0] = 0;
	switch (rcv) {
	case R_GUEST:
		rc = remote_welcome_recv(c, &w, &area, &efd, why, sizeof why);
		trace("remote_welcome_recv", rc, why);
		if (rc) {
			if (area || efd >= 0 || !why[0] || !one_line(why, sizeof why))
				die("remote_welcome_recv: a refusal with descriptors, or not one line");
			return;
		}
		if (!area || efd < 0 || w.status || area->magic != REMOTE_MAGIC)
			die("remote_welcome_recv: a welcome without an area");
		munmap(area, sizeof *area);
		close(efd);
		return;
	case R_MONITOR:
		rc = remote_monitor_recv(c, "fuzz", &status, why, sizeof why);
		trace("remote_monitor_recv", rc, why);
		if (rc ? !status || !why[0] || !one_line(why, sizeof why) : status != 0)
			die("remote_monitor_recv: a refusal without its errno or not one line");
		return;
	case R_DESCRIBE:
		rc = remote_describe_recv(c, "fuzz", &info, why, sizeof why);
		trace("remote_describe_recv", rc, rc ? why : info.guest[0]);
		if (rc) {
			if (!one_line(why, sizeof why))
				die("remote_describe_recv: not one line");
			return;
		}
		if (info.nguests > 8 || strnlen(info.platform, sizeof info.platform) == sizeof info.platform ||
		    strnlen(info.md_path, sizeof info.md_path) == sizeof info.md_path)
			die("remote_describe_recv: an answer out of bounds");
		for (unsigned k = 0; k < info.nguests; k++)
			if (strnlen(info.guest[k], sizeof info.guest[k]) == sizeof info.guest[k])
				die("remote_describe_recv: a guest's name not terminated");
		return;
	default:
		rc = remote_gpci_recv(c, "fuzz", &g, why, sizeof why);
		trace("remote_gpci_recv", rc, rc ? why : g.reason);
		if (rc) {
			if (!one_line(why, sizeof why))
				die("remote_gpci_recv: not one line");
			return;
		}
		if (g.returned_values > HVPMU_REMOTE_GPCI_DATA || !one_line(g.reason, sizeof g.reason) ||
		    (g.status && !g.reason[0]))
			die("remote_gpci_recv: an answer out of bounds, or its reason not one line");
		return;
	}
}

/* One operation: a connection. */
static void operation(struct in *in, int sv, uint32_t *last, struct held *h)
{
	static uint8_t buf[RAW_MAX + sizeof(struct hvpmu_remote_gpci)];
	uint8_t op = u8(in);
	unsigned what = op & 7, ndesc = (op >> 6) % (MAX_DESC + 1);
	int to_client = (op & 8) != 0, p[2];
	size_t n = 0;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p))
		die("socketpair");
	/* p[0] ours (the client's, non-blocking), p[1] the service's */
	if (fcntl(p[0], F_SETFL, O_NONBLOCK))
		die("fcntl");
	if (to_client) {
		/* p[1] is the service's end, the client receives on p[0] */
		int rcv = R_GUEST;

		if (what == 3 || what == 7) { /* the real service answers */
			static const uint32_t hows[] = { REMOTE_MONITOR, REMOTE_DESCRIBE, REMOTE_GPCI };
			uint32_t how = REMOTE_ROOT;

			if (what == 7) {
				rcv = R_MONITOR + u8(in) % 3;
				how = hows[rcv - R_MONITOR];
			}
			hello_of(in, sv, how, *last, (struct remote_hello *)buf);
			send_with(p[0], buf, sizeof(struct remote_hello), ndesc, 0, in, h);
			service_test_accept(S[sv].sv, p[1]);
		} else {
			static struct hvpmu_remote_gpci g;
			char reason[17];

			if (what == 0) {
				rcv = u8(in) % 4;
				n = raw(in, buf);
			} else if (what == 2 || what == 4) {
				rcv = what == 2 ? R_GUEST : R_MONITOR;
				for (int i = 0; i < 16; i++)
					reason[i] = (char)u8(in);
				reason[16] = 0;
				n = hvpmu_remote_welcome(buf, sizeof buf, u8(in), reason);
			} else if (what == 5) {
				rcv = R_DESCRIBE;
				n = hvpmu_remote_machine(buf, sizeof buf, "t4", "/a/description.json", &t4_desc);
			} else if (what == 6) {
				rcv = R_GPCI;
				memset(&g, 0, sizeof g);
				g.status = u8(in);
				g.returned_values = u16(in);
				for (size_t i = 0; i < 16; i++)
					g.reason[i] = (char)u8(in);
				n = hvpmu_remote_gpci_answer(buf, sizeof buf, &g);
			} else {
				struct remote_welcome *w = (struct remote_welcome *)buf;

				n = hvpmu_remote_welcome(buf, sizeof buf, 0, "");
				w->process = u8(in);
				w->features = u8(in);
			}
			if (what)
				patch(in, buf, n);
			send_with(p[1], buf, n, ndesc, 1, in, h);
			if (op & 16)
				shutdown(p[1], SHUT_RDWR);
			close(p[1]);
		}
		receive(p[0], rcv);
		close(p[0]);
		return;
	}
	if (what == 0) {
		n = raw(in, buf);
	} else if (what < 7) {
		static const uint32_t hows[] = { 0, REMOTE_ROOT, REMOTE_FORK, REMOTE_EXEC,
						 REMOTE_MONITOR, REMOTE_DESCRIBE, REMOTE_GPCI };

		hello_of(in, sv, hows[what], *last, (struct remote_hello *)buf);
		n = sizeof(struct remote_hello);
	}
	if (what < 7)
		send_with(p[0], buf, n, ndesc, 0, in, h);
	if (op & 32)
		shutdown(p[0], SHUT_WR);
	if (op & 16) {
		close(p[0]);
		p[0] = -1;
	}
	service_test_accept(S[sv].sv, p[1]);
	if (p[0] >= 0) {
		uint32_t got = answer(p[0]);

		if (got)
			*last = got;
		close(p[0]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct held h = { .n = 0 };
	uint32_t last = 0;
	int sv, before;

	init_once();
	before = open_fds();
	sv = u8(&in) % 4;
	if (sv == 3)
		sv = SV_T4;
	if (service_test_images(S[sv].sv) >= IMAGES_MAX)
		service_build(sv);
	for (int k = 0; k < MAX_OPS && in.n; k++)
		operation(&in, sv, &last, &h);
	service_test_end_conns(S[sv].sv);
	for (unsigned i = 0; i < h.n; i++)
		close(h.fd[i]);
	if (open_fds() != before) {
		fprintf(stderr, "fuzz_service_socket: %d descriptors open after the input, %d before\n", open_fds(),
			before);
		abort();
	}
	return 0;
}

/* ---- the seeds (HVPMU_FUZZ_WRITE_CORPUS=DIR) ---- */

static void seed(const char *dir, const char *name, const uint8_t *b, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "wb")) || fwrite(b, 1, n, f) != n || fclose(f))
		die(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("HVPMU_FUZZ_WRITE_CORPUS");

	(void)argc;
	(void)argv;
	if (!dir)
		return 0;
	/* service, then per op: op byte, guest, parent offset, request,
	 * start, secondary (2), patches; descriptors */
	{
		static const uint8_t root_fork[] = { SV_T4, 1, 1, 0, 0, 0, 0, 0, 0,      /* ROOT in alpha */
						     2, 0, 0, 0, 0, 0, 0, 0,             /* FORK of it */
						     3, 0, 0, 0, 0, 0, 0, 0 };           /* EXEC of it */
		static const uint8_t beta[] = { SV_T4, 1, 2, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0 };
		static const uint8_t monitor[] = { SV_T4, 4 | 0x80, 1, 0, 0, 0, 0, 0, 0, /* MONITOR of alpha */
						   0x08 | 0x20, 6 };                     /* sealed request, area */
		static const uint8_t busstat[] = { SV_T4, 4 | 0x80, 0, 0, 0, 0, 0, 0, 0, 0x08 | 0x10 | 0x20, 6 };
		static const uint8_t monitor_pipe[] = { SV_T4, 4 | 0xc0, 2, 0, 0, 0, 0, 0, 0, 1 | 8, 3, 6 };
		static const uint8_t describe[] = { SV_POWER, 5, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0 };
		static const uint8_t gpci[] = { SV_POWER, 6, 1, 0, 0x3, 0, 0, 0, 0, 6, 2, 0, 0x4, 0xff, 0, 0, 0,
						6, 1, 0, 0x2, 0, 0, 0, 0 };
		static const uint8_t tool[] = { SV_TOOL, 1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0,
						2, 0, 0, 0, 0, 0, 0, 0 };
		static const uint8_t welcome[] = { SV_T4, 8 | 3, 1, 0, 0, 0, 0, 0, 0, /* the service's welcome */
						   8 | 1 | 0x80, 1, 0, 0, 6, 7 };        /* ours, with an area */
		static const uint8_t refusal[] = { SV_T4, 8 | 2 | 0x40, 'n', 'o', ' ', 'g', 'u', 'e', 's', 't', '\n',
						   0, 0, 0, 0, 0, 0, 0, 2, 0, 7 };
		static const uint8_t small_area[] = { SV_T4, 8 | 1 | 0x80, 1, 0, 0, 0x20, 0, 0, 7 };

		static const uint8_t answers[] = { SV_POWER, 8 | 7, 1, 0, 0, 0, 0, 0, 0, 0, /* the service's describe */
						   8 | 7, 2, 1, 0, 0x3, 0, 0, 0, 0,    /* its gpci answer */
						   8 | 5, 0,                           /* ours */
						   8 | 6, 0, 0, 2, 'o', 'k', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
						   8 | 4, 'n', 'o', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13, 0 };
		static const uint8_t monitor_answer[] = { SV_T4, 8 | 7 | 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0x28, 6 };

		seed(dir, "answers", answers, sizeof answers);
		seed(dir, "monitor_answer", monitor_answer, sizeof monitor_answer);
		seed(dir, "root_fork_exec", root_fork, sizeof root_fork);
		seed(dir, "root_beta_nosuch", beta, sizeof beta);
		seed(dir, "monitor", monitor, sizeof monitor);
		seed(dir, "monitor_busstat", busstat, sizeof busstat);
		seed(dir, "monitor_pipe_zero", monitor_pipe, sizeof monitor_pipe);
		seed(dir, "describe", describe, sizeof describe);
		seed(dir, "gpci", gpci, sizeof gpci);
		seed(dir, "tool_root_monitor_fork", tool, sizeof tool);
		seed(dir, "welcome", welcome, sizeof welcome);
		seed(dir, "refusal", refusal, sizeof refusal);
		seed(dir, "welcome_small_area", small_area, sizeof small_area);
	}
	exit(0);
}
