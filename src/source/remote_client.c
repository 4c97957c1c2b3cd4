/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tools' side of a standing service's control protocol (hvpmu/remote.h
 * hvpmu_remote_describe, hvpmu_remote_monitor, hvpmu_remote_gpci; docs/service.md "Guests and
 * monitors"): a connection to the service's Unix-domain socket (a server
 * of another uid is refused before the hello: common/sock.h), one hello,
 * one answer (remote_proto.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>
#include <hvpmu/remote.h>
#include "common/fdpass.h"
#include "common/sock.h"
#include "remote_proto.h"

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
	return 1;
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

int hvpmu_remote_describe(const char *address, struct hvpmu_remote_machine_info *out, char *err, size_t n)
{
	struct remote_hello h = { .how = REMOTE_DESCRIBE };
	struct remote_machine d;
	ssize_t got;
	int s = hello_to(address, &h, NULL, 0, err, n);

	if (s < 0)
		return -1;
	got = answer(s, &d, sizeof d, 0);
	close(s);
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

int hvpmu_remote_monitor(const char *address, const char *guest, int req_fd, int area_fd, int *status, char *err,
			 size_t n)
{
	struct remote_hello h = { .how = REMOTE_MONITOR };
	struct remote_welcome w;
	int fds[2] = { req_fd, area_fd }, s;
	ssize_t got;

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
	got = answer(s, &w, sizeof w, 0);
	if (got != (ssize_t)sizeof w || w.magic != REMOTE_WELCOME_MAGIC) {
		snprintf(err, n, "the service at '%s' did not answer", address);
		*status = EPROTO;
		close(s);
		return -1;
	}
	if (w.status) {
		snprintf(err, n, "%.*s", (int)strnlen(w.reason, sizeof w.reason), w.reason);
		*status = w.status;
		close(s);
		return -1;
	}
	return s;
}

int hvpmu_remote_gpci(const char *address, const char *guest, const uint32_t args[3], struct hvpmu_remote_gpci *out,
		      char *err, size_t n)
{
	struct remote_hello h = { .how = REMOTE_GPCI };
	ssize_t got;
	int s;

	if (strlen(guest) >= sizeof h.guest) {
		snprintf(err, n, "guest name too long");
		return -1;
	}
	snprintf(h.guest, sizeof h.guest, "%s", guest);
	memcpy(h.arg, args, sizeof h.arg);
	if ((s = hello_to(address, &h, NULL, 0, err, n)) < 0)
		return -1;
	got = answer(s, out, sizeof *out, 0);
	close(s);
	if (refusal(out, got, err, n))
		return -1;
	if (got != (ssize_t)sizeof *out || out->magic != HVPMU_REMOTE_GPCI_MAGIC || out->version != REMOTE_PROTO_VERSION ||
	    out->returned_values > HVPMU_REMOTE_GPCI_DATA || !memchr(out->reason, 0, sizeof out->reason)) {
		snprintf(err, n, "the service at '%s' did not answer the hcall (another version?)", address);
		return -1;
	}
	return 0;
}
