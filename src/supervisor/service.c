/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The service host (hvpmu/session.h hvpmu_service_run, docs/service.md):
 * one process owns one run's machine, its platform services and its guest
 * OS (the session, as inside the emulator for a single program), and the
 * guest processes attach to it over a Unix-domain socket: the root
 * program, its fork children, the programs its processes execve.  Each
 * attached image streams its execution through shared memory to the
 * remote source (hvpmu/remote.h), which runs it through the machine.
 * This is the composition root of a run with several processes, as
 * session_qemu.c is of a run with one.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <hvpmu/remote.h>
#include <hvpmu/session.h>
#include "common/cpu_relax.h"

#define MAX_CONNS 1024        /* guest processes attached at once */
#define SLEEP_MS 50           /* longest sleep without input (the expected images' liveness) */
#define GRACE_MS 20           /* how long the quantum's barrier waits for a thread that publishes
				 nothing outside a system call (docs/service.md "Time") */
#define WELCOME_MAX 256
#define SPIN 1024             /* pauses before the service sleeps (some microseconds) */

struct conn {
	int fd;
	uint32_t process;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Send the welcome, with the area and the doorbell when attached. */
static void send_welcome(int fd, const void *w, size_t n, int area_fd, int efd)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	struct iovec io = { (void *)w, n };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1 };
	int fds[2] = { area_fd, efd };

	if (area_fd >= 0) {
		struct cmsghdr *c;

		memset(cbuf, 0, sizeof cbuf);
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof cbuf;
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof fds);
		memcpy(CMSG_DATA(c), fds, sizeof fds);
	}
	if (sendmsg(fd, &mh, MSG_NOSIGNAL) < 0)
		return; /* the guest is gone: its connection's end detaches it */
}

/* A new connection: the guest's hello, its credentials, the welcome.
 * Returns the connection's image number, or 0 (refused: closed). */
static uint32_t accept_guest(struct hvpmu_session *s, struct hvpmu_remote *r, int fd)
{
	char hello[512], welcome[WELCOME_MAX];
	struct ucred cr;
	socklen_t cl = sizeof cr;
	struct timeval tv = { 1, 0 }; /* a guest says hello at once */
	uint32_t process = 0;
	size_t wlen = 0;
	ssize_t n;
	int area_fd = -1, rc;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	n = recv(fd, hello, sizeof hello, 0);
	if (n <= 0 || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) || (cr.uid != getuid() && cr.uid != 0)) {
		close(fd);
		return 0;
	}
	rc = hvpmu_remote_attach(r, hello, (size_t)n, cr.pid, &process, welcome, sizeof welcome, &wlen, &area_fd);
	send_welcome(fd, welcome, wlen, rc ? -1 : area_fd, hvpmu_remote_doorbell(r));
	if (area_fd >= 0)
		close(area_fd);
	if (rc) {
		close(fd);
		return 0;
	}
	hvpmu_session_process(s, process, hvpmu_remote_from(r, process), hvpmu_remote_pid(r, process),
			      hvpmu_remote_comm(r, process)[0] ? hvpmu_remote_comm(r, process) : NULL);
	return process;
}

int hvpmu_service_run(const struct stat_request *rq, int listen_fd, int root_fd, char *err, size_t errlen)
{
	static struct conn conns[MAX_CONNS];
	static struct pollfd pf[MAX_CONNS + 3];
	struct hvpmu_session *s;
	struct hvpmu_remote *r;
	const struct hvpmu_md *md;
	uint32_t nconn = 0;
	uint64_t idle_since = now_ms();
	int force = 0, root_sig, root_gone = 0;

	if (hvpmu_session_create(rq, &s, err, errlen))
		return -1;
	md = hvpmu_machine_md(hvpmu_session_machine(s));
	if (hvpmu_remote_create(hvpmu_session_machine(s), hvpmu_session_isa(s),
				md->quantum_cycles ? md->quantum_cycles : HVPMU_MD_QUANTUM_DEFAULT, &r)) {
		snprintf(err, errlen, "cannot start the remote source (out of memory)");
		hvpmu_session_destroy(s);
		return -1;
	}
	for (;;) {
		uint64_t ran = hvpmu_remote_run(r, force);
		int timeout, np = 0, sleeping = 0;

		force = 0;
		/* the end: every image has ended (and nothing is still to
		 * attach), once one has attached or the tool has reaped the
		 * first process (which then never attached: no emulator, a
		 * plugin that could not start) */
		if ((hvpmu_remote_images(r) || root_gone) && !hvpmu_remote_live(r) && !hvpmu_remote_expecting(r))
			break;
		if (ran) {
			idle_since = now_ms();
			timeout = 0;
		} else if (now_ms() - idle_since >= GRACE_MS && hvpmu_remote_live(r)) {
			force = 1; /* a thread published nothing for the grace period */
			idle_since = now_ms();
			timeout = 0;
		} else {
			/* a short spin first: records come every few microseconds
			 * while a guest runs, and a sleep costs a wake-up */
			for (int k = 0; k < SPIN && !ran; k++) {
				cpu_relax();
				if (k % 64 == 63)
					ran = hvpmu_remote_run(r, 0);
			}
			if (ran) {
				idle_since = now_ms();
				continue;
			}
			sleeping = !hvpmu_remote_sleep(r);
			timeout = sleeping ? (hvpmu_remote_live(r) ? GRACE_MS : SLEEP_MS) : 0;
		}
		pf[np++] = (struct pollfd){ .fd = listen_fd, .events = POLLIN };
		pf[np++] = (struct pollfd){ .fd = hvpmu_remote_doorbell(r), .events = POLLIN };
		pf[np++] = (struct pollfd){ .fd = root_gone ? -1 : root_fd, .events = POLLIN };
		for (uint32_t k = 0; k < nconn; k++)
			pf[np++] = (struct pollfd){ .fd = conns[k].fd, .events = POLLIN };
		if (poll(pf, (nfds_t)np, timeout) < 0 && errno != EINTR) {
			snprintf(err, errlen, "poll: %s", strerror(errno));
			break;
		}
		if (sleeping)
			hvpmu_remote_wake(r);
		/* ends first: an image's records run before a new one's */
		if (pf[2].revents) /* (the tool writes nothing: readable means closed) */
			root_gone = 1;
		for (uint32_t k = nconn; k-- > 0;)
			if (pf[3 + k].revents) {
				char b;

				if (pf[3 + k].revents & POLLIN && recv(conns[k].fd, &b, 1, MSG_DONTWAIT) > 0)
					continue; /* (guests send nothing after the hello) */
				hvpmu_remote_detach(r, conns[k].process);
				close(conns[k].fd);
				conns[k] = conns[--nconn];
			}
		if (pf[0].revents & POLLIN) {
			int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);

			if (fd >= 0 && nconn == MAX_CONNS) {
				fprintf(stderr, "hvpmu service: %u processes attached: one more is refused\n", MAX_CONNS);
				close(fd);
			} else if (fd >= 0) {
				uint32_t process = accept_guest(s, r, fd);

				if (process)
					conns[nconn++] = (struct conn){ fd, process };
				idle_since = now_ms();
			}
		}
	}
	/* the root program's end is the run's (its last image: an execve
	 * keeps the pid) */
	root_sig = hvpmu_remote_end_status(r, 1);
	for (uint32_t n = 2; n <= hvpmu_remote_images(r); n++)
		if (hvpmu_remote_pid(r, n) == hvpmu_remote_pid(r, 1))
			root_sig = hvpmu_remote_end_status(r, n);
	hvpmu_remote_halt(r, root_sig > 0 ? root_sig : 0);
	for (uint32_t k = 0; k < nconn; k++)
		close(conns[k].fd);
	hvpmu_remote_destroy(r);
	hvpmu_session_destroy(s);
	return 0;
}
