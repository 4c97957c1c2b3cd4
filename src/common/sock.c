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

	for (unsigned i = 0; !listening && i < CANDIDATES; i++) {
		if (i == 1) /* whether or not this process may write /run (sudo -E, env -i) */
			snprintf(dir, sizeof dir, "/run/hvpmu-%u", (unsigned)geteuid());
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
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 07777) != SOCK_DIR_MODE) {
		snprintf(err, n, "%s is not a directory of uid %u with mode 0700 (it is %s of uid %u, mode %04o): "
			 "not using it",
			 dir, (unsigned)geteuid(),
			 S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ? "a directory" : "a file",
			 (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
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
