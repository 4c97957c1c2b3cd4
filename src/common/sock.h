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
#include <sys/un.h>

#define SOCK_DIR_MODE 0700 /* the only mode a service's directory may have */

/* The directory this uid's services live in, in out[n]:
 * $XDG_RUNTIME_DIR/hvpmu when XDG_RUNTIME_DIR is an absolute directory of
 * this uid (no ',' or blanks: the path goes into QEMU's plugin
 * arguments), else /run/hvpmu-UID when /run is writable, else
 * /tmp/hvpmu-UID.  0, or -1 when it does not fit. */
int sock_dir(char *out, size_t n);

/* The socket of this uid's service `name` (a valid name) in out[n]: in
 * sock_dir's directory (listening), or (a client) the first of
 * $XDG_RUNTIME_DIR/hvpmu, /run/hvpmu-UID, /tmp/hvpmu-UID that holds a
 * file of that name, so that a client whose environment differs from the
 * service's (env -i, sudo) still finds it; none: sock_dir's.  0, or -1
 * when it does not fit in sun_path. */
int sock_path(const char *name, int listening, char *out, size_t n);

/* Make sure dir is a directory of this uid with mode 0700, not a
 * symbolic link: create it (mode 0700) when missing.  0, or -1 with one
 * line in err. */
int sock_dir_check(const char *dir, char *err, size_t n);

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

#endif
