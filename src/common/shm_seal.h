/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shm_seal.h: shared memory that the other side cannot shrink or grow
 * under us (docs/service.md "What the service checks").
 *
 * A MAP_SHARED mapping of a file faults with SIGBUS on a page past the
 * file's end: a client that ftruncate(2)s an area the service has mapped
 * would kill the service at its next read or publication.  Linux's file
 * seals close that door: memfd_create(2) with MFD_ALLOW_SEALING, then
 * fcntl(2) F_ADD_SEALS "File Sealing": F_SEAL_SHRINK (no ftruncate
 * below the size), F_SEAL_GROW (none above) and F_SEAL_SEAL (no seal
 * added or removed from then on, so nobody can add F_SEAL_WRITE behind a
 * writable mapping either).  Seals belong to the file (the inode), not
 * the descriptor: every process holding it is bound.
 *
 * The side that creates an area stamps its contents and seals it before
 * handing it over (shm_create, shm_seal).  The side that receives one
 * checks it before mapping it (shm_check): a regular file on tmpfs (a
 * memfd; not hugetlbfs, whose faults raise SIGBUS when the pool is
 * empty), exactly the expected size, and all three seals.
 */
#ifndef HVPMU_COMMON_SHM_SEAL_H
#define HVPMU_COMMON_SHM_SEAL_H
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#define SHM_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

/* A new memfd of `size` zero bytes that may be sealed (flags: MFD_CLOEXEC
 * or 0), or -1 (errno set).  Seal it with shm_seal once stamped. */
static inline int shm_create(const char *name, unsigned flags, uint64_t size)
{
	int fd = memfd_create(name, flags | MFD_ALLOW_SEALING);

	if (fd >= 0 && ftruncate(fd, (off_t)size)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Seal fd's size for good (fcntl(2) "File Sealing"): 0 or -1 (errno). */
static inline int shm_seal(int fd) { return fcntl(fd, F_ADD_SEALS, SHM_SEALS); }

/* A memory file (tmpfs: a memfd or a file of /dev/shm): reading it never
 * waits for a device, a network file system or a FUSE server. */
static inline int shm_is_memory(int fd, const struct stat *st)
{
	struct statfs fs;

	return S_ISREG(st->st_mode) && fstatfs(fd, &fs) == 0 && fs.f_type == TMPFS_MAGIC;
}

/* NULL if descriptor fd is an area another process may share with us
 * safely: a memfd of exactly `size` bytes sealed with SHM_SEALS; else
 * why not, one phrase. */
static inline const char *shm_check(int fd, uint64_t size)
{
	struct stat st;
	int seals;

	if (fstat(fd, &st))
		return "cannot fstat the descriptor";
	if (!shm_is_memory(fd, &st))
		return "not a memfd (a regular file on tmpfs)";
	if ((uint64_t)st.st_size != size)
		return "not the size of an area of this hvpmu";
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || (seals & SHM_SEALS) != SHM_SEALS)
		return "not sealed (F_SEAL_SHRINK|F_SEAL_GROW|F_SEAL_SEAL)";
	return NULL;
}
#endif
