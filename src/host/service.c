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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/gpci.h>
#include <hvpmu/papr.h>
#include <hvpmu/remote.h>
#include <hvpmu/session.h>
#include "common/cpu_relax.h"
#include "common/fdpass.h"
#include "common/sock.h"
#include "service_test.h"

#define MAX_CONNS 1024        /* guest processes and monitors attached at once: each guest's share is
				 MAX_CONNS / its number of guests (docs/service.md "Limits") */
#define SLEEP_MS 50           /* longest sleep without input (the expected images' liveness) */
#define GRACE_MS 20           /* how long the quantum's barrier waits for a thread that publishes
				 nothing outside a system call (docs/service.md "Time") */
#define RUNNABLE_MS 2000      /* ... and for one the host has not run (runnable: a loaded host) */
#define WELCOME_MAX 256
#define UID_PENDING 64        /* connections of one uid accepted whose hello has not come yet */
#define MAX_PENDING (UID_PENDING * (HVPMU_MD_MAX_GUESTS + 2)) /* every guest's uid, root, the service's */
#define ACCEPTS 16            /* connections accepted in one turn of the loop, at most */
#define HELLO_MS 1000         /* how long a connection may take to say hello */
#define SPIN 1024             /* pauses before the service sleeps (some microseconds) */
#define DRAIN_MS 5000         /* longest a stopping monitor waits for ended programs' records */

struct conn {
	int fd;
	uint32_t process;         /* an image's connection: its number; 0: a monitor's */
	unsigned guest;           /* the guest it counts against (a monitor's: the one it watches) */
	uint64_t ending;          /* a monitor's tool said stop at this time (ms; 0: not yet) */
};

/* A connection accepted whose hello has not come yet. */
struct pending {
	int fd;
	uid_t uid;      /* the peer's (SO_PEERCRED at accept) */
	uint64_t since; /* ms */
};

/* One service: a tool's run (one guest OS, hvpmu_service_run) or a
 * standing machine with a guest OS per guest (hvpmu_service_serve). */
struct service {
	struct hvpmu_session *guest[HVPMU_MD_MAX_GUESTS];
	unsigned nguests;
	int standing;             /* hvpmu serve: monitors, guests named in hellos, no end of its own */
	const char *platform, *md_path;
	struct hvpmu_machine *m;
	uint8_t *guest_of;        /* by strand: the guest owning it */
	uint32_t nstrands;
	struct hvpmu_remote *r;
	struct conn conns[MAX_CONNS];
	uint32_t nconn;
	struct pending pending[MAX_PENDING]; /* accepted, no hello yet */
	uint32_t npending;
	struct pollfd pf[MAX_CONNS + MAX_PENDING + 3];
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The machine's time: the furthest any strand has run (cycles).  The
 * quanta keep the strands that run within one quantum of it. */
static uint64_t machine_now(struct service *sv) { return hvpmu_machine_now(sv->m); }

/* A standing machine's OS events go to the guest OS owning the strand
 * (the halt to every guest). */
static void dispatch(void *ctx, const struct hvpmu_os_call *c)
{
	struct service *sv = ctx;

	if (c->ev == HVPMU_OS_HALT) {
		for (unsigned g = 0; g < sv->nguests; g++)
			hvpmu_session_os_event(sv->guest[g], c);
	} else if (c->strand < sv->nstrands && sv->guest_of[c->strand] < sv->nguests) {
		hvpmu_session_os_event(sv->guest[sv->guest_of[c->strand]], c);
	}
}

/* Send a reply, with descriptors (fds[0..nfd-1]) when nfd > 0. */
static void send_reply(int fd, const void *w, size_t n, const int *fds, unsigned nfd)
{
	char cbuf[FDPASS_CBUF];
	struct iovec io = { (void *)w, n };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1 };

	fdpass_attach(&mh, cbuf, fds, nfd);
	if (sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		return; /* the peer is gone: its connection's end says so */
}

/* A welcome (status 0, or an errno with a one-line reason). */
static void welcome(int fd, int status, const char *reason)
{
	char w[WELCOME_MAX];

	send_reply(fd, w, hvpmu_remote_welcome(w, sizeof w, status, reason), NULL, 0);
}

static void refuse(int fd, int status, const char *reason) { welcome(fd, status, reason); }

/* A describe: the description the machine was built from. */
static void describe(struct service *sv, int fd)
{
	static char d[8192];

	send_reply(fd, d, hvpmu_remote_machine(d, sizeof d, sv->platform, sv->md_path, hvpmu_machine_md(sv->m)), NULL, 0);
}

/* The md guest named `guest` ("" = the first), or md->nguests. */
static unsigned guest_index(const struct hvpmu_md *md, const char *guest)
{
	unsigned g = 0;

	if (guest[0])
		for (g = 0; g < md->nguests && strcmp(md->guests[g].name, guest) != 0; g++)
			;
	return g;
}

/* Who the peer of uid `uid` is (docs/service.md "Who a client is"): the
 * md guest whose uid it is (that guest alone), OPERATOR (root, the
 * service's own uid: any guest) or NOBODY. */
#define OPERATOR (-1)
#define NOBODY (-2)
static int client_of(const struct service *sv, uid_t uid)
{
	const struct hvpmu_md *md = hvpmu_machine_md(sv->m);

	for (unsigned g = 0; g < md->nguests; g++)
		if (md->guests[g].uid == (int64_t)uid)
			return (int)g;
	return uid == 0 || uid == geteuid() ? OPERATOR : NOBODY;
}

/* Whether the peer of uid `uid` may use guest g (< nguests) with
 * `max` more connections of it (0: a question, no connection kept):
 * 0, or an errno with the refusal sent. */
static int may_use(struct service *sv, int fd, uid_t uid, unsigned g, uint32_t max)
{
	const struct hvpmu_md *md = hvpmu_machine_md(sv->m);
	int who = client_of(sv, uid);
	uint32_t held = 0;
	char why[160];

	if (who >= 0 && (unsigned)who != g) {
		snprintf(why, sizeof why, "uid %u is guest %s's: it may not attach to %s", (unsigned)uid,
			 md->guests[who].name, md->guests[g].name);
		refuse(fd, EPERM, why);
		return EPERM;
	}
	for (uint32_t k = 0; max && k < sv->nconn; k++)
		held += sv->conns[k].guest == g;
	if (max && held >= max) {
		snprintf(why, sizeof why, "guest %s has %u connections", md->guests[g].name, (unsigned)held);
		refuse(fd, EAGAIN, why);
		return EAGAIN;
	}
	return 0;
}

/* A guest's share of the connections. */
static uint32_t guest_conns(const struct service *sv) { return MAX_CONNS / (sv->nguests ? sv->nguests : 1); }

/* hvpmu gpci in guest `guest`: its OS makes the hcall, the reply goes back. */
static void gpci(struct service *sv, int fd, uid_t uid, const char *guest, const void *hello, size_t n)
{
	static struct hvpmu_remote_gpci a, out;
	static struct hvpmu_gpci_reply r;
	unsigned g = guest_index(hvpmu_machine_md(sv->m), guest);
	uint32_t args[3];

	memset(&a, 0, sizeof a);
	if (g < sv->nguests && may_use(sv, fd, uid, g, 0))
		return;
	if (g >= sv->nguests) {
		a.status = ENOENT;
		snprintf(a.reason, sizeof a.reason, "the machine has no guest %.32s", guest);
	} else if (hvpmu_remote_hello_args(hello, n, args) == 0 &&
		   (a.status = hvpmu_session_gpci(sv->guest[g], args, &r, a.reason, sizeof a.reason)) == 0) {
		a.hstatus = r.status;
		a.request = r.request;
		a.starting_index = r.starting_index;
		a.returned_values = r.returned_values;
		a.detail_rc = r.detail_rc;
		a.element_bytes = r.element_bytes;
		a.version_out = r.version_out;
		memcpy(a.data, r.data, sizeof a.data < sizeof r.data ? sizeof a.data : sizeof r.data);
	}
	send_reply(fd, &out, hvpmu_remote_gpci_answer(&out, sizeof out, &a), NULL, 0);
}

/* A monitor of guest `guest` ("" = the first); fds its request file and
 * result area.  Returns 1 if the monitor runs (keep the connection). */
static int monitor_start(struct service *sv, int fd, uid_t uid, const char *guest, int fds[2])
{
	const struct hvpmu_md *md = hvpmu_machine_md(sv->m);
	struct stat_request rq;
	char err[256];
	unsigned g = 0;
	int rc;

	g = guest_index(md, guest);
	if (g >= md->nguests) {
		snprintf(err, sizeof err, "the machine has no guest %.32s", guest);
		refuse(fd, ENOENT, err);
		return 0;
	}
	if (may_use(sv, fd, uid, g, guest_conns(sv)))
		return 0;
	if (fds[0] < 0 || fds[1] < 0) {
		refuse(fd, EPROTO, "a monitor's hello comes with its request and result area");
		return 0;
	}
	/* not read as a path: a pipe would stall the loop, every guest with
	 * it, and /dev/zero would grow the service without end */
	if (stat_request_read_fd(fds[0], &rq, err, sizeof err)) {
		refuse(fd, EINVAL, err);
		return 0;
	}
	rq.result_fd = fds[1]; /* the session maps and closes it */
	fds[1] = -1;
	rc = hvpmu_session_monitor_start(sv->guest[g], &rq, machine_now(sv), err, sizeof err);
	if (rc) {
		refuse(fd, rc, err);
		return 0;
	}
	welcome(fd, 0, "");
	sv->conns[sv->nconn++] = (struct conn){ fd, 0, g, 0 };
	return 1;
}

/* A new connection: a hello (with descriptors for a monitor), its
 * credentials, the answer. */
static void accept_conn(struct service *sv, int fd)
{
	char hello[512], cbuf[CMSG_SPACE(2 * sizeof(int))], welcome[WELCOME_MAX];
	struct iovec io = { hello, sizeof hello };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	char guest[HVPMU_REMOTE_GUEST_MAX];
	enum hvpmu_remote_kind kind;
	struct ucred cr;
	socklen_t cl = sizeof cr;
	uint32_t process = 0;
	size_t wlen = 0;
	ssize_t n;
	int area_fd = -1, rc, fds[2] = { -1, -1 }, keep = 0, pid, g = 0;
	char why[128];

	n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT); /* (it is readable) */
	/* (an empty message may bring descriptors too: they are ours to close) */
	for (struct cmsghdr *c = n >= 0 ? CMSG_FIRSTHDR(&mh) : NULL; c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			unsigned k = (unsigned)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			int got[2] = { -1, -1 };

			memcpy(got, CMSG_DATA(c), (k < 2 ? k : 2) * sizeof(int));
			for (unsigned i = 0; i < 2; i++) {
				if (fds[i] >= 0 && got[i] >= 0)
					close(fds[i]);
				if (got[i] >= 0)
					fds[i] = got[i];
			}
		}
	/* (a standing service refused other uids at accept: accept_pending) */
	if (n <= 0 || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) ||
	    (!sv->standing && cr.uid != getuid() && cr.uid != 0))
		goto out;
	if ((rc = hvpmu_remote_hello(hello, (size_t)n, &kind, &pid, guest, why, sizeof why))) {
		refuse(fd, rc, why);
		goto out;
	}
	if (kind == HVPMU_REMOTE_DESCRIBE) {
		describe(sv, fd);
		goto out;
	}
	if (kind == HVPMU_REMOTE_GPCI) {
		if (!sv->standing)
			refuse(fd, EPERM, "this service counts one tool's run: hvpmu gpci asks hvpmu serve");
		else
			gpci(sv, fd, cr.uid, guest, hello, (size_t)n);
		goto out;
	}
	if (kind == HVPMU_REMOTE_MONITOR) {
		if (!sv->standing)
			refuse(fd, EPERM, "this service counts one tool's run: monitors attach to hvpmu serve");
		else if (pid != cr.pid)
			refuse(fd, EPERM, "hello: pid is not the caller's");
		else
			keep = monitor_start(sv, fd, cr.uid, guest, fds);
		goto out;
	}
	if (!sv->standing && guest[0]) {
		refuse(fd, EPERM, "this service counts one tool's run: guests attach to hvpmu serve");
		goto out;
	}
	/* the guest it would join (a root image's named one, else its
	 * parent's) is the peer uid's; hvpmu_remote_attach refuses the rest */
	if ((g = hvpmu_remote_hello_guest(sv->r, hello, (size_t)n)) >= 0 &&
	    may_use(sv, fd, cr.uid, (unsigned)g, guest_conns(sv)))
		goto out;
	rc = hvpmu_remote_attach(sv->r, hello, (size_t)n, cr.pid, &process, welcome, sizeof welcome, &wlen, &area_fd);
	{
		int give[2] = { area_fd, hvpmu_remote_doorbell(sv->r) };

		send_reply(fd, welcome, wlen, give, rc ? 0 : 2);
	}
	if (area_fd >= 0)
		close(area_fd);
	if (rc)
		goto out;
	if (!sv->standing)
		hvpmu_session_process(sv->guest[0], process, hvpmu_remote_from(sv->r, process),
				      hvpmu_remote_pid(sv->r, process),
				      hvpmu_remote_comm(sv->r, process)[0] ? hvpmu_remote_comm(sv->r, process) : NULL);
	sv->conns[sv->nconn++] = (struct conn){ fd, process, g >= 0 ? (unsigned)g : 0, 0 };
	keep = 1;
out:
	for (unsigned i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (!keep)
		close(fd);
}

/* A monitor ends (its tool said so, went away, or its time is up): the
 * final publication, then its connection closes, which tells the tool. */
static void monitor_end(struct service *sv, uint32_t k)
{
	hvpmu_session_monitor_end(sv->guest[sv->conns[k].guest], machine_now(sv));
	close(sv->conns[k].fd);
	sv->conns[k] = sv->conns[--sv->nconn];
}

/* A new connection waits for its hello, unless its uid may not connect
 * (a standing service: no guest's and not the operator's) or has
 * UID_PENDING connections waiting already: refused at once, with why. */
static int accept_pending(struct service *sv, int listen_fd)
{
	int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	struct ucred cr;
	socklen_t cl = sizeof cr;
	uint32_t same = 0;
	char why[128];
	int rc = 0;

	if (fd < 0)
		return -1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) || cl != sizeof cr) {
		close(fd);
		return 0;
	}
	for (uint32_t k = 0; k < sv->npending; k++)
		same += sv->pending[k].uid == cr.uid;
	if (sv->standing && client_of(sv, cr.uid) == NOBODY) {
		rc = EPERM;
		snprintf(why, sizeof why, "uid %u is no guest's and not the service's", (unsigned)cr.uid);
	} else if (same >= UID_PENDING || sv->npending == MAX_PENDING) {
		rc = EAGAIN;
		snprintf(why, sizeof why, "uid %u has %u connections that have not said hello", (unsigned)cr.uid,
			 (unsigned)same);
	}
	if (rc) {
		char drop[512];

		/* no more from it, what came dropped, then the close: closed with
		 * its hello unread, the peer would get ECONNRESET, not the why */
		refuse(fd, rc, why);
		shutdown(fd, SHUT_RDWR);
		for (int k = 0; k < 8 && recv(fd, drop, sizeof drop, MSG_DONTWAIT) > 0; k++)
			;
		close(fd);
		return 0;
	}
	sv->pending[sv->npending++] = (struct pending){ fd, cr.uid, now_ms() };
	return 0;
}

/* The loop of both kinds: until the run's end (a tool's run) or *stop (a
 * standing service).  Returns 0, or -1 with the reason in err. */
static int serve_loop(struct service *sv, int listen_fd, int root_fd, const volatile sig_atomic_t *stop, char *err,
		      size_t errlen)
{
	struct hvpmu_remote *r = sv->r;
	struct pollfd *pf = sv->pf;
	uint64_t idle_since = now_ms();
	int force = 0, root_gone = root_fd < 0;

	/* accept never waits: the loop takes a few connections at a time */
	if (fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL) | O_NONBLOCK)) {
		snprintf(err, errlen, "fcntl: %s", strerror(errno));
		return -1;
	}

	for (;;) {
		uint64_t ran = hvpmu_remote_run(r, force);
		int timeout, np = 0, pbase, sleeping = 0;

		force = 0;
		/* the monitors' samples at the machine's time, and their ends:
		 * their time is up, or their tool said stop and the programs
		 * that ended before have run to their end */
		for (uint32_t k = sv->nconn; sv->standing && k-- > 0;) {
			struct conn *c = &sv->conns[k];

			if (c->process)
				continue;
			if ((ran && hvpmu_session_monitor_tick(sv->guest[c->guest], machine_now(sv))) ||
			    (c->ending && (!hvpmu_remote_draining(r) || now_ms() - c->ending >= DRAIN_MS)))
				monitor_end(sv, k);
		}
		if (stop && *stop)
			break;
		/* a tool's run ends when every image has ended (and nothing
		 * is still to attach), once one has attached or the tool has
		 * reaped the first process (which then never attached: no
		 * emulator, a plugin that could not start) */
		if (!sv->standing && (hvpmu_remote_images(r) || root_gone) && !hvpmu_remote_live(r) &&
		    !hvpmu_remote_expecting(r))
			break;
		if (ran) {
			idle_since = now_ms();
			timeout = 0;
		} else if (now_ms() - idle_since >= GRACE_MS && hvpmu_remote_live(r) &&
			   (now_ms() - idle_since >= RUNNABLE_MS || !hvpmu_remote_holders_coming(r))) {
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
		for (uint32_t k = 0; k < sv->nconn; k++)
			pf[np++] = (struct pollfd){ .fd = sv->conns[k].ending ? -1 : sv->conns[k].fd, .events = POLLIN };
		pbase = np;
		for (uint32_t k = 0; k < sv->npending; k++)
			pf[np++] = (struct pollfd){ .fd = sv->pending[k].fd, .events = POLLIN };
		if (poll(pf, (nfds_t)np, timeout) < 0 && errno != EINTR) {
			snprintf(err, errlen, "poll: %s", strerror(errno));
			return -1;
		}
		if (sleeping)
			hvpmu_remote_wake(r);
		/* ends first: an image's records run before a new one's */
		if (pf[2].revents) /* (the tool writes nothing: readable means closed) */
			root_gone = 1;
		for (uint32_t k = sv->nconn; k-- > 0;)
			if (pf[3 + k].revents) {
				char b;

				if (pf[3 + k].revents & POLLIN && recv(sv->conns[k].fd, &b, 1, MSG_DONTWAIT) > 0)
					continue; /* (peers send nothing after the hello) */
				if (!sv->conns[k].process) { /* a monitor's tool: its end, soon */
					if (!sv->conns[k].ending)
						sv->conns[k].ending = now_ms();
					continue;
				}
				hvpmu_remote_detach(r, sv->conns[k].process);
				close(sv->conns[k].fd);
				sv->conns[k] = sv->conns[--sv->nconn];
			}
		/* hellos: a connection is answered when its hello comes, and
		 * closed if none comes in time; none holds the loop up */
		for (uint32_t k = sv->npending; k-- > 0;) {
			int fd = sv->pending[k].fd;

			if (!pf[pbase + k].revents && now_ms() - sv->pending[k].since < HELLO_MS)
				continue;
			sv->pending[k] = sv->pending[--sv->npending];
			if (pf[pbase + k].revents && sv->nconn == MAX_CONNS) { /* (the guests' shares add up to it) */
				char why[64];

				snprintf(why, sizeof why, "the service has %u connections", (unsigned)MAX_CONNS);
				refuse(fd, EAGAIN, why);
			}
			if (!pf[pbase + k].revents || sv->nconn == MAX_CONNS) {
				close(fd);
				continue;
			}
			accept_conn(sv, fd);
			idle_since = now_ms();
		}
		/* (the listening socket is non-blocking: a few at a time) */
		for (int k = 0; k < ACCEPTS && (pf[0].revents & POLLIN) && !accept_pending(sv, listen_fd); k++)
			;
	}
	return 0;
}

static int remote_start(struct service *sv, char *err, size_t errlen)
{
	const struct hvpmu_md *md;

	sv->m = hvpmu_session_machine(sv->guest[0]);
	md = hvpmu_machine_md(sv->m);
	sv->nstrands = hvpmu_machine_nstrands(sv->m);
	if (hvpmu_remote_create(sv->m, hvpmu_session_isa(sv->guest[0]),
				md->quantum_cycles ? md->quantum_cycles : HVPMU_MD_QUANTUM_DEFAULT, &sv->r)) {
		snprintf(err, errlen, "cannot start the remote source (out of memory)");
		return -1;
	}
	return 0;
}

static void service_free(struct service *sv)
{
	for (uint32_t k = 0; k < sv->nconn; k++)
		close(sv->conns[k].fd);
	for (uint32_t k = 0; k < sv->npending; k++)
		close(sv->pending[k].fd);
	hvpmu_remote_destroy(sv->r);
	for (unsigned g = sv->nguests; g-- > 0;) /* guest 0's session owns the machine: last */
		hvpmu_session_destroy(sv->guest[g]);
	free(sv->guest_of);
	free(sv);
}

/* A tool's run's service (one guest OS), or NULL with the reason in err. */
static struct service *tool_create(const struct stat_request *rq, char *err, size_t errlen)
{
	struct service *sv = calloc(1, sizeof *sv);

	if (!sv) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (hvpmu_session_create(rq, &sv->guest[0], err, errlen)) {
		free(sv);
		return NULL;
	}
	sv->nguests = 1;
	if (remote_start(sv, err, errlen)) {
		service_free(sv);
		return NULL;
	}
	return sv;
}

int hvpmu_service_run(const struct stat_request *rq, int listen_fd, int root_fd, char *err, size_t errlen)
{
	struct service *sv = tool_create(rq, err, errlen);
	int root_sig, rc;

	if (!sv)
		return -1;
	rc = serve_loop(sv, listen_fd, root_fd, NULL, err, errlen);
	/* the root program's end is the run's (its last image: an execve
	 * keeps the pid) */
	root_sig = hvpmu_remote_root_end(sv->r);
	hvpmu_remote_halt(sv->r, root_sig > 0 ? root_sig : 0);
	service_free(sv);
	return rc;
}

/* A standing service (a guest OS per guest), or NULL with the reason in
 * err. */
static struct service *standing_create(const struct stat_request *rq, char *err, size_t errlen)
{
	struct service *sv = calloc(1, sizeof *sv);
	struct stat_request grq = *rq;
	const struct hvpmu_md *md;

	if (!sv) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	sv->standing = 1;
	{ /* a descriptor for each connection the limits allow (RLIMIT_NOFILE is often 1024) */
		struct rlimit rl;
		rlim_t want = MAX_CONNS + MAX_PENDING + 64;

		if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < want) {
			rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	sv->platform = rq->platform[0] ? rq->platform : hvpmu_platform_name(hvpmu_platform_default());
	sv->md_path = rq->md_path;
	/* the guests' OSes count nothing until a monitor asks; the machine
	 * models everything a monitor may ask for */
	grq.nevents = 0;
	grq.nbusdev = 0;
	grq.mmustat = grq.cpustat = grq.mdperf = 0;
	grq.sample_cycles = 0;
	grq.overflow_log[0] = 0;
	grq.result_fd = -1;
	grq.features |= HVPMU_FEAT_TAKEN | HVPMU_FEAT_BRANCHES | HVPMU_FEAT_MEMORY | HVPMU_FEAT_MEMORY_OUTPUTS |
			HVPMU_FEAT_BTC;
	if (hvpmu_session_create_guest(&grq, NULL, 0, HVPMU_SESSION_STANDING, &sv->guest[0], err, errlen)) {
		free(sv);
		return NULL;
	}
	sv->nguests = 1;
	md = hvpmu_machine_md(hvpmu_session_machine(sv->guest[0]));
	for (unsigned g = 1; g < md->nguests; g++) {
		if (hvpmu_session_create_guest(&grq, sv->guest[0], g, HVPMU_SESSION_STANDING, &sv->guest[g], err, errlen)) {
			service_free(sv);
			return NULL;
		}
		sv->nguests++;
	}
	if (remote_start(sv, err, errlen)) {
		service_free(sv);
		return NULL;
	}
	if (!(sv->guest_of = malloc(sv->nstrands))) {
		snprintf(err, errlen, "out of memory");
		service_free(sv);
		return NULL;
	}
	memset(sv->guest_of, 0xff, sv->nstrands);
	for (unsigned g = 0; g < md->nguests; g++)
		for (uint32_t k = 0; k < md->guests[g].nstrands && md->guests[g].first_strand + k < sv->nstrands; k++)
			sv->guest_of[md->guests[g].first_strand + k] = (uint8_t)g;
	hvpmu_machine_set_os_handler(sv->m, dispatch, sv);
	return sv;
}

/* A standing service's end: every guest's processes are stopped where
 * they are, the monitors get their final publication. */
static void standing_end(struct service *sv)
{
	hvpmu_remote_halt(sv->r, 0);
	for (uint32_t k = sv->nconn; k-- > 0;)
		if (!sv->conns[k].process)
			monitor_end(sv, k);
	hvpmu_machine_set_os_handler(sv->m, NULL, NULL);
	service_free(sv);
}

int hvpmu_service_serve(const struct stat_request *rq, int listen_fd, const volatile sig_atomic_t *stop, char *err,
			size_t errlen)
{
	struct service *sv = standing_create(rq, err, errlen);
	int rc;

	if (!sv)
		return -1;
	rc = serve_loop(sv, listen_fd, -1, stop, err, errlen);
	standing_end(sv);
	return rc;
}

/* ---- tests/fuzz/fuzz_service_socket.c's way in (service_test.h) ---- */

struct service *service_test_create(const struct stat_request *rq, int standing, char *err, size_t errlen)
{
	return standing ? standing_create(rq, err, errlen) : tool_create(rq, err, errlen);
}

void service_test_accept(struct service *sv, int fd) { accept_conn(sv, fd); }

uint32_t service_test_end_conns(struct service *sv)
{
	uint32_t n = sv->nconn;

	for (uint32_t k = sv->nconn; k-- > 0;) {
		if (!sv->conns[k].process) {
			monitor_end(sv, k);
			continue;
		}
		hvpmu_remote_detach(sv->r, sv->conns[k].process);
		close(sv->conns[k].fd);
		sv->conns[k] = sv->conns[--sv->nconn];
	}
	hvpmu_remote_run(sv->r, 1);
	return n;
}

uint32_t service_test_images(const struct service *sv) { return hvpmu_remote_images(sv->r); }

void service_test_free(struct service *sv)
{
	if (sv->standing) {
		standing_end(sv);
		return;
	}
	hvpmu_remote_halt(sv->r, 0);
	service_free(sv);
}

/* ---- the tools' side of a standing service ---- */

/* The socket of service `name` in out[n] (sock_path), listening or a
 * client's; 0, or -1 for a bad name. */
static int service_path(const char *name, int listening, char *out, size_t n)
{
	struct sockaddr_un sa;
	int k;

	if (!name || !name[0] || strpbrk(name, ", \t\n"))
		return -1;
	if (name[0] == '/') { /* an explicit path (docs/service.md "Where the socket is") */
		k = snprintf(out, n, "%s", name);
		return k < 0 || (size_t)k >= n || (size_t)k >= sizeof sa.sun_path ? -1 : 0;
	}
	if (strlen(name) > HVPMU_SERVICE_NAME_MAX || strchr(name, '/'))
		return -1;
	return sock_path(name, listening, out, n);
}

int hvpmu_service_address(const char *name, char *out, size_t n)
{
	return service_path(name, 0, out, n);
}

/* The lock beside socket addr (addr.lock, in the service's own
 * directory), taken: its descriptor, or -1 with errno.  Held while a
 * service checks for a stale socket and binds, and while one unlinks its
 * socket, so two services of one name started at once cannot both take
 * the other's socket for stale (docs/service.md "Where the socket is"). */
static int lock_beside(const char *addr)
{
	char path[160];
	int fd;

	if ((size_t)snprintf(path, sizeof path, "%s.lock", addr) >= sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* the file a service unlinked while this one waited for it is no
	 * lock any more: again, with the file now there */
	for (;;) {
		struct stat a, b;

		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
		if (fd < 0 || flock(fd, LOCK_EX) || fstat(fd, &a)) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			errno = e;
			return -1;
		}
		if (!stat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return fd;
		close(fd);
	}
}

/* Remove the lock file beside addr, whose lock `lock` holds, and let it go. */
static void unlock_beside(const char *addr, int lock)
{
	char path[160];

	if ((size_t)snprintf(path, sizeof path, "%s.lock", addr) < sizeof path)
		unlink(path);
	close(lock);
}

static int listen_locked(const char *name, const char *addr, const struct sockaddr_un *sa, socklen_t len, char *err,
			 size_t errlen);

int hvpmu_service_listen(const char *name, char *err, size_t errlen)
{
	struct sockaddr_un sa;
	char addr[128], dir[sizeof addr], why[256];
	socklen_t len;
	int fd, lock;

	if (service_path(name, 1, addr, sizeof addr) || sock_addr(addr, &sa, &len)) {
		snprintf(err, errlen, "bad service name '%s' (1..%d characters, no '/', ',' or blanks; or a path)", name,
			 HVPMU_SERVICE_NAME_MAX);
		return -1;
	}
	snprintf(dir, sizeof dir, "%s", addr);
	*strrchr(dir, '/') = 0;
	if (sock_dir_check(dir[0] ? dir : "/", why, sizeof why)) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	if ((lock = lock_beside(addr)) < 0) {
		snprintf(err, errlen, "cannot lock %s.lock: %s", addr, strerror(errno));
		return -1;
	}
	fd = listen_locked(name, addr, &sa, len, err, errlen);
	close(lock);
	return fd;
}

static int listen_locked(const char *name, const char *addr, const struct sockaddr_un *sa, socklen_t len, char *err,
			 size_t errlen)
{
	char why[256];
	struct stat st;
	int fd;

	/* a socket file already there: another service's (it answers), or a
	 * stale one of a service that did not end cleanly (removed) */
	if (!lstat(addr, &st)) {
		int s = sock_connect(addr, why, sizeof why);

		if (s >= 0 || errno == EPERM) {
			if (s >= 0)
				close(s);
			snprintf(err, errlen, "cannot listen as service '%s' at %s: one runs already", name, addr);
			return -1;
		}
		if (!S_ISSOCK(st.st_mode) || unlink(addr)) {
			snprintf(err, errlen, "cannot listen as service '%s': %s is there and is not a stale socket",
				 name, addr);
			return -1;
		}
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	/* (the socket file 0600: only this uid, until hvpmu_service_share) */
	if (fd < 0 || bind(fd, (const struct sockaddr *)sa, len) || chmod(addr, 0600) || listen(fd, 64)) {
		snprintf(err, errlen, "cannot listen as service '%s' at %s: %s%s", name, addr, strerror(errno),
			 errno == EADDRINUSE ? " (one runs already)" : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int hvpmu_service_share(const char *name, char *err, size_t errlen)
{
	char addr[128];

	if (service_path(name, 1, addr, sizeof addr)) {
		snprintf(err, errlen, "bad service name '%s'", name);
		return -1;
	}
	return sock_share(addr, err, errlen);
}

void hvpmu_service_unlisten(const char *name, int fd)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof sa;
	char addr[128];
	int lock = -1;

	/* only the file this socket is bound to: a later service's is not
	 * ours; under the lock, so that none binds between the close and the
	 * unlink */
	if (!service_path(name, 1, addr, sizeof addr) && !getsockname(fd, (struct sockaddr *)&sa, &len) &&
	    len > offsetof(struct sockaddr_un, sun_path) && !strncmp(sa.sun_path, addr, sizeof sa.sun_path)) {
		lock = lock_beside(addr);
		unlink(addr);
	}
	close(fd);
	if (lock >= 0)
		unlock_beside(addr, lock);
}

int hvpmu_service_describe(const char *name, struct hvpmu_remote_machine_info *out, char *err, size_t errlen)
{
	char addr[128];

	if (hvpmu_service_address(name, addr, sizeof addr)) {
		snprintf(err, errlen, "bad service name '%s'", name);
		return -1;
	}
	return hvpmu_remote_describe(addr, out, err, errlen);
}

int hvpmu_service_monitor(const char *name, const char *guest, int req_fd, int area_fd, int *status, char *err,
			  size_t errlen)
{
	char addr[128];

	if (hvpmu_service_address(name, addr, sizeof addr)) {
		snprintf(err, errlen, "bad service name '%s'", name);
		*status = EINVAL;
		return -1;
	}
	return hvpmu_remote_monitor(addr, guest, req_fd, area_fd, status, err, errlen);
}

int hvpmu_service_gpci(const char *name, const char *guest, const uint32_t args[3], struct hvpmu_gpci_reply *r,
		       char *err, size_t errlen)
{
	static struct hvpmu_remote_gpci a;
	char addr[128];

	memset(r, 0, offsetof(struct hvpmu_gpci_reply, data));
	if (hvpmu_service_address(name, addr, sizeof addr)) {
		snprintf(err, errlen, "bad service name '%s'", name);
		return -1;
	}
	if (hvpmu_remote_gpci(addr, guest, args, &a, err, errlen))
		return -1;
	if (a.status) {
		snprintf(err, errlen, "%s", a.reason);
		return -1;
	}
	r->status = a.hstatus;
	r->request = a.request;
	r->starting_index = a.starting_index;
	r->returned_values = a.returned_values;
	r->detail_rc = a.detail_rc;
	r->element_bytes = a.element_bytes;
	r->version_out = a.version_out;
	r->rq = hvpmu_gpci_request_layout(a.request, a.version_out); /* the layout it answered in */
	memcpy(r->data, a.data, sizeof r->data < sizeof a.data ? sizeof r->data : sizeof a.data);
	if (r->rq && r->rq->element_bytes && r->returned_values > sizeof r->data / r->rq->element_bytes)
		r->returned_values = 0; /* more lists than the data holds: none trusted */
	return 0;
}
