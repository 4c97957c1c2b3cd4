/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sock.h: where a standing service's socket lives and how a client
 * reaches it (docs/service.md "Where the socket is").  The socket is a
 * file in a directory of the service's uid with mode 0700 (unix(7): a
 * path socket obeys its directory's permissions), not an abstract name
 * anyone may bind first; and a client asks the kernel who the server is
 * (SO_PEERCRED) before it sends anything.
 */
#ifndef HVPMU_COMMON_SOCK_H
#define HVPMU_COMMON_SOCK_H
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#define SOCK_DIR_MODE 0700   /* a service's directory, made by it */
#define SOCK_DIR_SHARED 0711 /* ... opened to the guests' uids (sock_share): searchable, not listable */

/* The directory this uid's services live in, in out[n]:
 * $XDG_RUNTIME_DIR/hvpmu when XDG_RUNTIME_DIR is an absolute directory of
 * this uid (no ',' or blanks: the path goes into QEMU's plugin
 * arguments), else /run/hvpmu-UID when /run is writable, else
 * /tmp/hvpmu-UID.  0, or -1 when it does not fit. */
int sock_dir(char *out, size_t n);

/* The socket of this uid's service `name` (a valid name) in out[n]: in
 * sock_dir's directory (listening), or (a client) the first of
 * $XDG_RUNTIME_DIR/hvpmu, /run/hvpmu-UID, /tmp/hvpmu-UID and, for a uid
 * other than root, root's shared /run/hvpmu-0, /tmp/hvpmu-0 that holds a
 * file of that name, so that a client whose environment differs from the
 * service's (env -i, sudo) still finds it; none: sock_dir's.  0, or -1
 * when it does not fit in sun_path. */
int sock_path(const char *name, int listening, char *out, size_t n);

/* Make sure dir is a directory of this uid with mode 0700 (or 0711, as a
 * service with guest uids left it: sock_share), not a symbolic link:
 * create it (mode 0700) when missing.  0, or -1 with one line in err. */
int sock_dir_check(const char *dir, char *err, size_t n);

/* Open a listening service's socket at path `address` (in a directory
 * sock_dir_check accepted) to other uids, the guests' (docs/service.md
 * "Where the socket is"): its directory mode 0711 (others may pass, not
 * list or create), the socket file 0666; each directory above must be
 * searchable by others already.  The service then checks every peer's
 * uid itself.  0, or -1 with one line in err. */
int sock_share(const char *address, char *err, size_t n);

/* address: a path (it starts with '/') or an abstract name (a run's own
 * private service, src/tools/run.c).  Fills sa and *len; -1 if it does not
 * fit in sun_path. */
int sock_addr(const char *address, struct sockaddr_un *sa, socklen_t *len);

/* A connection to address whose server runs as this uid or as root
 * (SO_PEERCRED), checked before anything is sent.  Returns the socket
 * (close on exec), or -1 with errno set: EPERM with one line in err for
 * another uid's server (nothing was sent), else err is "" and errno is
 * socket(2)'s or connect(2)'s. */
int sock_connect(const char *address, char *err, size_t n);

/* The server's one answer on connection s (recvmsg(2) with flags, again
 * after EINTR): a refusal sent at once and the connection closed before
 * this side's hello was read reaches recvmsg only after ECONNRESET (unix(7)
 * sockets), so that error is followed by one more non-blocking try.
 * recvmsg's result and errno. */
ssize_t sock_answer(int s, struct msghdr *mh, int flags);

#endif
