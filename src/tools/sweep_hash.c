/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SHA-256 for `hvpmu sweep` (sweep.h): the names of the results and the
 * hashes of programs, inputs and builds they record.  GLib's GChecksum
 * (GLib is a dependency already: the QEMU plugin API's headers).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include "sweep.h"

static void hex_of(GChecksum *ck, char hex[SWEEP_HEX])
{
	const gchar *s = g_checksum_get_string(ck);

	memcpy(hex, s, SWEEP_HEX - 1);
	hex[SWEEP_HEX - 1] = 0;
}

void sweep_sha256(const void *data, size_t len, char hex[SWEEP_HEX])
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);

	g_checksum_update(ck, data, (gssize)len);
	hex_of(ck, hex);
	g_checksum_free(ck);
}

int sweep_sha256_file(const char *path, char hex[SWEEP_HEX])
{
	static unsigned char buf[1 << 16];
	GChecksum *ck;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return -1;
	ck = g_checksum_new(G_CHECKSUM_SHA256);
	while ((r = read(fd, buf, sizeof buf)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			g_checksum_free(ck);
			close(fd);
			errno = e;
			return -1;
		}
		g_checksum_update(ck, buf, r);
	}
	close(fd);
	hex_of(ck, hex);
	g_checksum_free(ck);
	return 0;
}
