/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a standing service's socket lives and how a client reaches it
 * (sock.h; docs/service.md "Where the socket is").
 */
#include "common/sock.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A directory path the plugin's arguments can carry (QEMU splits them at
 * ','). */
static int plain_path(const char *p)
{
	return p[0] == '/' && !strpbrk(p, ", \t\n");
}

/* Candidate directory i (0: $XDG_RUNTIME_DIR/hvpmu, 1: /run/hvpmu-UID,
 * 2: /tmp/hvpmu-UID) in out[n]: 1 if it is one this uid could use, 0 if
 * not, -1 when it does not fit. */
static int candidate(unsigned i, char *out, size_t n)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	int k;

	switch (i) {
	case 0:
		if (!xdg || !plain_path(xdg) || stat(xdg, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		    access(xdg, W_OK | X_OK))
			return 0;
		k = snprintf(out, n, "%s/hvpmu", xdg);
		break;
	case 1:
		if (access("/run", W_OK | X_OK))
			return 0;
		k = snprintf(out, n, "/run/hvpmu-%u", (unsigned)geteuid());
		break;
	default:
		k = snprintf(out, n, "/tmp/hvpmu-%u", (unsigned)geteuid());
		break;
	}
	return k < 0 || (size_t)k >= n ? -1 : 1;
}

#define CANDIDATES 3

int sock_dir(char *out, size_t n)
{
	for (unsigned i = 0; i < CANDIDATES; i++) {
		int r = candidate(i, out, n);

		if (r)
			return r < 0 ? -1 : 0;
	}
	return -1;
}

int sock_path(const char *name, int listening, char *out, size_t n)
{
	struct sockaddr_un sa;
	struct stat st;
	char dir[sizeof sa.sun_path];
	int k;

	/* a client: its own directories, then (another uid's) root's shared
	 * ones (a guest uid reaching root's service) */
	for (unsigned i = 0; !listening && i < CANDIDATES + 2; i++) {
		if (i >= CANDIDATES && !geteuid())
			break;
		if (i == 1) /* whether or not this process may write /run (sudo -E, env -i) */
			snprintf(dir, sizeof dir, "/run/hvpmu-%u", (unsigned)geteuid());
		else if (i >= CANDIDATES)
			snprintf(dir, sizeof dir, i == CANDIDATES ? "/run/hvpmu-0" : "/tmp/hvpmu-0");
		else if (candidate(i, dir, sizeof dir) != 1)
			continue;
		k = snprintf(out, n, "%s/%s", dir, name);
		if (k > 0 && (size_t)k < n && (size_t)k < sizeof sa.sun_path && !lstat(out, &st))
			return 0;
	}
	if (sock_dir(dir, sizeof dir))
		return -1;
	k = snprintf(out, n, "%s/%s", dir, name);
	return k < 0 || (size_t)k >= n || (size_t)k >= sizeof sa.sun_path ? -1 : 0;
}

int sock_dir_check(const char *dir, char *err, size_t n)
{
	struct stat st;

	if (!mkdir(dir, SOCK_DIR_MODE) && chmod(dir, SOCK_DIR_MODE)) { /* the umask may have taken bits */
		snprintf(err, n, "chmod %s: %s", dir, strerror(errno));
		return -1;
	}
	if (lstat(dir, &st)) {
		snprintf(err, n, "cannot create the service's directory %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    ((st.st_mode & 07777) != SOCK_DIR_MODE && (st.st_mode & 07777) != SOCK_DIR_SHARED)) {
		snprintf(err, n, "%s is not a directory of uid %u with mode 0700 or 0711 (it is %s of uid %u, mode %04o): "
			 "not using it",
			 dir, (unsigned)geteuid(),
			 S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ? "a directory" : "a file",
			 (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		return -1;
	}
	return 0;
}

int sock_share(const char *address, char *err, size_t n)
{
	char dir[sizeof ((struct sockaddr_un *)0)->sun_path], *slash;
	struct stat st;

	snprintf(dir, sizeof dir, "%s", address);
	if (!(slash = strrchr(dir, '/')) || slash == dir) {
		snprintf(err, n, "%s: not a socket in a directory of its own", address);
		return -1;
	}
	*slash = 0;
	/* every directory above must let others through (not $XDG_RUNTIME_DIR:
	 * the user's own, 0700) */
	for (char *p = strrchr(dir, '/'); p && p > dir; p = strrchr(dir, '/')) {
		*p = 0;
		if (stat(dir, &st) || !(st.st_mode & S_IXOTH)) {
			snprintf(err, n, "other uids cannot reach %s: %s is closed to them (unset XDG_RUNTIME_DIR, or "
				 "--name /run/hvpmu-%u/NAME)", address, dir, (unsigned)geteuid());
			return -1;
		}
	}
	snprintf(dir, sizeof dir, "%s", address);
	*strrchr(dir, '/') = 0;
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || chmod(dir, SOCK_DIR_SHARED) ||
	    chmod(address, 0666)) {
		snprintf(err, n, "cannot open %s to the guests' uids: %s", address, strerror(errno ? errno : EPERM));
		return -1;
	}
	return 0;
}

int sock_addr(const char *address, struct sockaddr_un *sa, socklen_t *len)
{
	size_t k = strlen(address);

	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	if (address[0] == '/') {
		if (k >= sizeof sa->sun_path)
			return -1;
		memcpy(sa->sun_path, address, k + 1);
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + k + 1);
		return 0;
	}
	if (!k || k >= sizeof sa->sun_path - 1)
		return -1;
	memcpy(sa->sun_path + 1, address, k); /* abstract: sun_path[0] = 0 */
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + k);
	return 0;
}

int sock_connect(const char *address, char *err, size_t n)
{
	struct sockaddr_un sa;
	struct ucred cr;
	socklen_t len, cl = sizeof cr;
	int s, e;

	err[0] = 0;
	if (sock_addr(address, &sa, &len)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (connect(s, (struct sockaddr *)&sa, len)) {
		e = errno;
		close(s);
		errno = e;
		return -1;
	}
	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cr, &cl) || cl != sizeof cr) {
		e = errno ? errno : EPROTO;
		snprintf(err, n, "cannot learn who runs the service at %s: %s: not sending", address, strerror(e));
		close(s);
		errno = EPERM;
		return -1;
	}
	if (cr.uid != geteuid() && cr.uid != 0) {
		snprintf(err, n, "the service at %s runs as uid %u, not yours: not sending", address, (unsigned)cr.uid);
		close(s);
		errno = EPERM;
		return -1;
	}
	return s;
}

ssize_t sock_answer(int s, struct msghdr *mh, int flags)
{
	ssize_t n;

	do
		n = recvmsg(s, mh, flags);
	while (n < 0 && errno == EINTR);
	/* a server that closed before reading what this side sent: the
	 * error comes first, then what the server sent before it closed */
	if (n < 0 && errno == ECONNRESET)
		n = recvmsg(s, mh, flags | MSG_DONTWAIT);
	return n;
}
