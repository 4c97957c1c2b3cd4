/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fdpass.h: descriptors sent with a message on a Unix-domain socket (one
 * SCM_RIGHTS control message, unix(7)), for both ends of the service's
 * control protocol (src/source/remote_client.c, src/host/service.c).
 */
#ifndef HVPMU_COMMON_FDPASS_H
#define HVPMU_COMMON_FDPASS_H
#include <string.h>
#include <sys/socket.h>

#define FDPASS_MAX 2 /* descriptors per message */
#define FDPASS_CBUF CMSG_SPACE(FDPASS_MAX * sizeof(int))

/* Attach fds[0..nfd-1] (nfd <= FDPASS_MAX; 0: none) to mh, in cbuf
 * (FDPASS_CBUF bytes, which must outlive the sendmsg). */
static inline void fdpass_attach(struct msghdr *mh, char *cbuf, const int *fds, unsigned nfd)
{
	struct cmsghdr *c;

	if (!nfd || nfd > FDPASS_MAX)
		return;
	memset(cbuf, 0, FDPASS_CBUF);
	mh->msg_control = cbuf;
	mh->msg_controllen = CMSG_SPACE(nfd * sizeof(int));
	c = CMSG_FIRSTHDR(mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(nfd * sizeof(int));
	memcpy(CMSG_DATA(c), fds, nfd * sizeof(int));
}
#endif
