/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tools' side of a standing service's control protocol (hvpmu/remote.h
 * hvpmu_remote_describe, hvpmu_remote_monitor, hvpmu_remote_gpci; docs/service.md "Guests and
 * monitors"): a connection to the service's Unix-domain socket (a server
 * of another uid is refused before the hello: common/sock.h), one hello,
 * one answer (remote_proto.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>
#include <hvpmu/remote.h>
#include "common/fdpass.h"
#include "common/shm_seal.h"
#include "common/sock.h"
#include "remote_proto.h"
#include "remote_shm.h"

#define ANSWER_WAIT_S 10 /* a standing service answers at once; a monitor's start may run a moment */

/* The service's answer into buf[n] (common/sock.h sock_answer). */
static ssize_t answer(int s, void *buf, size_t n, int flags)
{
	struct iovec io = { buf, n };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1 };

	return sock_answer(s, &mh, flags);
}

/* Whether the answer buf (got bytes) is the service's refusal (a
 * welcome with a non-zero status): then its one line is in err. */
static int refusal(const void *buf, ssize_t got, char *err, size_t n)
{
	struct remote_welcome w;

	if (got != (ssize_t)sizeof w)
		return 0;
	memcpy(&w, buf, sizeof w);
	if (w.magic != REMOTE_WELCOME_MAGIC || !w.status)
		return 0;
	snprintf(err, n, "%.*s", (int)strnlen(w.reason, sizeof w.reason), w.reason);
	for (char *p = err; *p; p++) /* (one line, whatever the service wrote) */
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return 1;
}

/* A guest's welcome (src/source/attach.c), remote_proto.h.  Every
 * descriptor that came is either handed out or closed, whatever came
 * (a truncated message, a refusal with descriptors, one descriptor, more
 * control messages than one), and the area is mapped only once it is
 * known to be a sealed memfd of the area's size: a shorter file would
 * raise SIGBUS in the guest at its first read. */
int remote_welcome_recv(int s, struct remote_welcome *w, struct remote_area **area, int *efd, char *why, size_t n)
{
	char cbuf[FDPASS_CBUF];
	struct iovec io = { w, sizeof *w };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	int fds[FDPASS_MAX] = { -1, -1 }, nfd = 0, rc = 2;
	const char *bad;
	void *a = MAP_FAILED;
	ssize_t got;

	*area = NULL;
	*efd = -1;
	do
		got = sock_answer(s, &mh, MSG_CMSG_CLOEXEC);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return -1;
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		size_t k;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len < CMSG_LEN(0))
			continue;
		k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
			if (nfd < FDPASS_MAX)
				fds[nfd++] = fd;
			else if (fd >= 0)
				close(fd);
		}
	}
	if (got != (ssize_t)sizeof *w || w->magic != REMOTE_WELCOME_MAGIC || (mh.msg_flags & MSG_TRUNC)) {
		snprintf(why, n, "%s", got ? "no welcome (another version?)" : "the service closed the connection");
		rc = -1;
	} else if (w->status) {
		/* one line of printable text, whatever the service wrote */
		snprintf(why, n, "%.*s", (int)strnlen(w->reason, sizeof w->reason), w->reason);
		if (!why[0])
			snprintf(why, n, "%s", strerror(w->status));
		for (char *p = why; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		rc = 1;
	} else if (nfd != 2 || (mh.msg_flags & MSG_CTRUNC)) {
		snprintf(why, n, "a welcome without its two descriptors");
	} else if ((bad = shm_check(fds[0], sizeof(struct remote_area)))) {
		snprintf(why, n, "its area is %s", bad);
	} else if ((a = mmap(NULL, sizeof(struct remote_area), PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0)) ==
		   MAP_FAILED) {
		snprintf(why, n, "its area: %s", strerror(errno));
	} else if (((struct remote_area *)a)->magic != REMOTE_MAGIC) {
		snprintf(why, n, "its area is not an area of this hvpmu");
		munmap(a, sizeof(struct remote_area));
	} else {
		close(fds[0]);
		/* the doorbell never blocks the guest, whatever it is (the
		 * service's eventfd is non-blocking already) */
		fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
		*area = a;
		*efd = fds[1];
		return 0;
	}
	for (int i = 0; i < nfd; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return rc;
}

/* Connect to `address` and send hello h (with fds[0..nfd-1]).  Returns
 * the connection or -1 with the reason in err. */
static int hello_to(const char *address, struct remote_hello *h, const int *fds, unsigned nfd, char *err, size_t n)
{
	char cbuf[FDPASS_CBUF], why[256];
	struct iovec io = { h, sizeof *h };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1 };
	struct timeval tv = { ANSWER_WAIT_S, 0 };
	struct sockaddr_un sa;
	socklen_t len;
	int s;

	if (sock_addr(address, &sa, &len)) {
		snprintf(err, n, "bad service address");
		errno = EINVAL;
		return -1;
	}
	h->magic = REMOTE_HELLO_MAGIC;
	h->version = REMOTE_PROTO_VERSION;
	h->pid = getpid();
	fdpass_attach(&mh, cbuf, fds, nfd);
	if ((s = sock_connect(address, why, sizeof why)) < 0) {
		int e = errno;

		if (why[0])
			snprintf(err, n, "%s", why);
		else
			snprintf(err, n, "no service at '%s' (%s): is hvpmu serve running?", address, strerror(e));
		errno = e;
		return -1;
	}
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (sendmsg(s, &mh, MSG_NOSIGNAL) != (ssize_t)sizeof *h) {
		int e = errno;
		struct remote_welcome w;

		/* refused at once (its uid, too many connections waiting): the
		 * service said why before it closed */
		if (!refusal(&w, answer(s, &w, sizeof w, MSG_DONTWAIT), err, n))
			snprintf(err, n, "cannot talk to the service: %s", strerror(e));
		close(s);
		errno = e;
		return -1;
	}
	return s;
}

/* Control characters in NUL-terminated s become '?': what the service
 * says goes into one line of the tool's stderr. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

int remote_describe_recv(int s, const char *address, struct hvpmu_remote_machine_info *out, char *err, size_t n)
{
	struct remote_machine d;
	ssize_t got = answer(s, &d, sizeof d, 0);

	if (refusal(&d, got, err, n))
		return -1;
	if (got != (ssize_t)sizeof d || d.magic != REMOTE_MACHINE_MAGIC || d.version != REMOTE_PROTO_VERSION ||
	    !memchr(d.platform, 0, sizeof d.platform) || !memchr(d.md_path, 0, sizeof d.md_path) || d.nguests > 8) {
		snprintf(err, n, "the service at '%s' did not describe its machine (another version?)", address);
		return -1;
	}
	memcpy(out->platform, d.platform, sizeof out->platform);
	memcpy(out->md_path, d.md_path, sizeof out->md_path);
	out->nguests = d.nguests;
	for (unsigned g = 0; g < d.nguests; g++) {
		memcpy(out->guest[g], d.guest[g], sizeof out->guest[g]);
		out->guest[g][sizeof out->guest[g] - 1] = 0;
	}
	return 0;
}

int hvpmu_remote_describe(const char *address, struct hvpmu_remote_machine_info *out, char *err, size_t n)
{
	struct remote_hello h = { .how = REMOTE_DESCRIBE };
	int s = hello_to(address, &h, NULL, 0, err, n), rc;

	if (s < 0)
		return -1;
	rc = remote_describe_recv(s, address, out, err, n);
	close(s);
	return rc;
}

int remote_monitor_recv(int s, const char *address, int *status, char *err, size_t n)
{
	struct remote_welcome w;
	ssize_t got = answer(s, &w, sizeof w, 0);

	*status = 0;
	if (got != (ssize_t)sizeof w || w.magic != REMOTE_WELCOME_MAGIC) {
		snprintf(err, n, "the service at '%s' did not answer", address);
		*status = EPROTO;
		return -1;
	}
	if (w.status) {
		snprintf(err, n, "%.*s", (int)strnlen(w.reason, sizeof w.reason), w.reason);
		if (!err[0])
			snprintf(err, n, "%s", strerror(w.status));
		one_line(err);
		*status = w.status;
		return -1;
	}
	return 0;
}

int hvpmu_remote_monitor(const char *address, const char *guest, int req_fd, int area_fd, int *status, char *err,
			 size_t n)
{
	struct remote_hello h = { .how = REMOTE_MONITOR };
	int fds[2] = { req_fd, area_fd }, s;

	*status = 0;
	if (strlen(guest) >= sizeof h.guest) {
		snprintf(err, n, "guest name too long");
		*status = EINVAL;
		return -1;
	}
	snprintf(h.guest, sizeof h.guest, "%s", guest);
	if ((s = hello_to(address, &h, fds, 2, err, n)) < 0) {
		*status = errno;
		return -1;
	}
	if (remote_monitor_recv(s, address, status, err, n)) {
		close(s);
		return -1;
	}
	return s;
}

int remote_gpci_recv(int s, const char *address, struct hvpmu_remote_gpci *out, char *err, size_t n)
{
	ssize_t got = answer(s, out, sizeof *out, 0);

	if (refusal(out, got, err, n))
		return -1;
	if (got != (ssize_t)sizeof *out || out->magic != HVPMU_REMOTE_GPCI_MAGIC || out->version != REMOTE_PROTO_VERSION ||
	    out->returned_values > HVPMU_REMOTE_GPCI_DATA || !memchr(out->reason, 0, sizeof out->reason)) {
		snprintf(err, n, "the service at '%s' did not answer the hcall (another version?)", address);
		return -1;
	}
	one_line(out->reason);
	if (out->status && !out->reason[0])
		snprintf(out->reason, sizeof out->reason, "%s", strerror(out->status));
	return 0;
}

int hvpmu_remote_gpci(const char *address, const char *guest, const uint32_t args[3], struct hvpmu_remote_gpci *out,
		      char *err, size_t n)
{
	struct remote_hello h = { .how = REMOTE_GPCI };
	int s, rc;

	if (strlen(guest) >= sizeof h.guest) {
		snprintf(err, n, "guest name too long");
		return -1;
	}
	snprintf(h.guest, sizeof h.guest, "%s", guest);
	memcpy(h.arg, args, sizeof h.arg);
	if ((s = hello_to(address, &h, NULL, 0, err, n)) < 0)
		return -1;
	rc = remote_gpci_recv(s, address, out, err, n);
	close(s);
	return rc;
}
