/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The result area between a tool and the session that runs its program
 * (hvpmu/session.h): an anonymous shared-memory file the tool creates
 * (memfd_create) and the emulator inherits, or a standing service is
 * given with a monitor's hello.  The session maps it and publishes the
 * result as the run goes; the tool reads the last publication after the
 * emulator is gone, however it ended.
 *
 * The tool seals the area's size once it is stamped (common/shm_seal.h:
 * memfd_create(2), fcntl(2) "File Sealing"), and the session maps only a
 * sealed memfd of exactly the area's size: a tool that truncates its own
 * area mid-run (a hostile or buggy monitor of a standing service) gets
 * EPERM from ftruncate instead of killing the service with SIGBUS at its
 * next publication.
 *
 * Layout (one build writes and reads it; `version` changes with it):
 *
 *   struct area            header, then pub[0], pub[1]: two count slots
 *   struct stat_sample[]   max_samples samples, appended in place
 *
 * A publication fills the slot that is not current and then stores its
 * index in `cur` (one aligned 32-bit store, release order): a process
 * that dies at any instant leaves `cur` naming a complete slot.  Samples
 * are written before the publication that counts them (pub.nsamples), so
 * a sample past the count may be half written and is never read.  The
 * reader (the tool) runs after the writer is gone, so there is no
 * concurrent access; it checks every field as outside input all the same
 * (fuzz_stat_protocol).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hvpmu/session.h>
#include "common/shm_seal.h"

#define AREA_VERSION 7
static const char area_magic[8] = { 'h', 'v', 'p', 'm', 'u', 'R', 'A', '\0' };

struct area_count {
	uint64_t supported, raw, enabled, running, overflows;
};

struct area_pub {
	uint64_t gen;             /* 0: never published */
	uint32_t end, signal;     /* enum stat_end; the signal of STAT_END_SIGNAL */
	uint64_t tick, stale_cycles, clock_hz, retired, hv_status;
	uint64_t generic[STAT_NGENERIC];
	uint32_t nevents, nsamples, nmmu, pad;
	char name[HVPMU_SV_MAX_EVENTS][64];
	struct area_count count[HVPMU_SV_MAX_EVENTS];
	struct stat_mmu mmu[STAT_MAX_CPUS];
	int32_t md_errno;
	uint32_t nmdnodes;
	uint64_t md_ticks;
	struct stat_mdnode md[STAT_MAX_MDNODES];
	uint32_t nproc, untracked;
	struct stat_proc proc[STAT_MAX_PROCS];
	uint32_t ngpci, uncounted;
	uint32_t unlisted, pad2;
	struct stat_gpci gpci[STAT_MAX_GPCI];
};

struct area {
	char magic[8];
	uint32_t version;
	uint32_t pub_bytes;       /* sizeof(struct area_pub) */
	uint64_t bytes;           /* the whole area */
	uint32_t max_samples;
	uint32_t max_cpus;
	uint32_t cur;             /* pub[cur] is the last complete publication */
	uint32_t pad;
	struct area_pub pub[2];
	struct stat_sample samples[];
};

#define AREA_BYTES (sizeof(struct area) + (size_t)STAT_MAX_SAMPLES * sizeof(struct stat_sample))

struct stat_area {
	struct area *p;
	uint64_t gen;
	uint32_t cur; /* the slot last published: the writer's own copy, never read back from the area */
};

static int fail(char *err, size_t n, const char *what)
{
	if (err && n)
		snprintf(err, n, "result area: %s", what);
	return -1;
}

int stat_area_create(char *err, size_t n)
{
	struct area hdr;
	/* inherited by the emulator; the file is sparse: pages are
	 * allocated as the session writes them */
	int fd = shm_create("hvpmu-result", 0, AREA_BYTES);

	if (fd < 0) {
		snprintf(err, n, "result area: memfd_create: %s", strerror(errno));
		return -1;
	}
	memset(&hdr, 0, sizeof hdr);
	memcpy(hdr.magic, area_magic, sizeof hdr.magic);
	hdr.version = AREA_VERSION;
	hdr.pub_bytes = sizeof(struct area_pub);
	hdr.bytes = AREA_BYTES;
	hdr.max_samples = STAT_MAX_SAMPLES;
	hdr.max_cpus = STAT_MAX_CPUS;
	if (pwrite(fd, &hdr, sizeof hdr, 0) != (ssize_t)sizeof hdr || shm_seal(fd)) {
		snprintf(err, n, "result area: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* The header the tool wrote, as both sides of one build agree on it. */
static int header_ok(const struct area *a, size_t len)
{
	return len >= AREA_BYTES && memcmp(a->magic, area_magic, sizeof a->magic) == 0 &&
	       a->version == AREA_VERSION && a->pub_bytes == sizeof(struct area_pub) && a->bytes == AREA_BYTES &&
	       a->max_samples == STAT_MAX_SAMPLES && a->max_cpus == STAT_MAX_CPUS;
}

int stat_area_parse(const void *p, size_t len, struct stat_result *rs, char *err, size_t n)
{
	const struct area *a = p;
	const struct area_pub *pub;
	uint32_t cur;

	memset(rs, 0, sizeof *rs);
	if (!p || len < sizeof *a || !header_ok(a, len))
		return fail(err, n, "not an area of this hvpmu (size, magic or version)");
	cur = a->cur;
	if (cur > 1)
		return fail(err, n, "bad slot index");
	pub = &a->pub[cur];
	if (!pub->gen)
		return fail(err, n, "nothing was published (the session did not start)");
	if (pub->end > STAT_END_EXEC || pub->nevents > HVPMU_SV_MAX_EVENTS || pub->nsamples > STAT_MAX_SAMPLES ||
	    pub->nmmu > STAT_MAX_CPUS || (pub->end == STAT_END_SIGNAL && (pub->signal == 0 || pub->signal > 64)) ||
	    pub->nmdnodes > STAT_MAX_MDNODES || pub->nproc > STAT_MAX_PROCS || pub->ngpci > STAT_MAX_GPCI)
		return fail(err, n, "bad publication (end, event, sample, MMU, node, process or hv_gpci count out of "
				    "range)");
	rs->gen = pub->gen;
	rs->end = (enum stat_end)pub->end;
	rs->signal = pub->end == STAT_END_SIGNAL ? (int)pub->signal : 0;
	rs->tick = pub->tick;
	rs->stale_cycles = pub->stale_cycles;
	rs->clock_hz = pub->clock_hz;
	rs->retired = pub->retired;
	memcpy(rs->generic, pub->generic, sizeof rs->generic);
	rs->hv_status = pub->hv_status;
	rs->nevents = pub->nevents;
	for (unsigned i = 0; i < rs->nevents; i++) {
		const struct area_count *c = &pub->count[i];

		memcpy(rs->name[i], pub->name[i], sizeof rs->name[i]);
		rs->name[i][sizeof rs->name[i] - 1] = 0;
		rs->count[i].supported = c->supported != 0;
		rs->count[i].raw = c->raw;
		rs->count[i].enabled = c->enabled;
		rs->count[i].running = c->running;
		rs->count[i].overflows = c->overflows;
		rs->count[i].scaled = c->running ? (double)c->raw * (double)c->enabled / (double)c->running : 0.0;
	}
	rs->md_errno = pub->md_errno;
	rs->md_ticks = pub->md_ticks;
	rs->nmdnodes = pub->nmdnodes;
	memcpy(rs->md, pub->md, pub->nmdnodes * sizeof *pub->md);
	if (pub->nsamples) {
		if (!(rs->samples = malloc((size_t)pub->nsamples * sizeof *rs->samples)))
			return fail(err, n, "out of memory");
		memcpy(rs->samples, a->samples, (size_t)pub->nsamples * sizeof *rs->samples);
		rs->nsamples = pub->nsamples;
	}
	if (pub->nmmu) {
		if (!(rs->mmu = malloc((size_t)pub->nmmu * sizeof *rs->mmu))) {
			stat_result_free(rs);
			return fail(err, n, "out of memory");
		}
		memcpy(rs->mmu, pub->mmu, (size_t)pub->nmmu * sizeof *rs->mmu);
		rs->nmmu = pub->nmmu;
	}
	if (pub->nproc) {
		if (!(rs->proc = malloc((size_t)pub->nproc * sizeof *rs->proc))) {
			stat_result_free(rs);
			return fail(err, n, "out of memory");
		}
		memcpy(rs->proc, pub->proc, (size_t)pub->nproc * sizeof *rs->proc);
		for (unsigned k = 0; k < pub->nproc; k++)
			rs->proc[k].comm[sizeof rs->proc[k].comm - 1] = 0;
		rs->nproc = pub->nproc;
	}
	rs->untracked = pub->untracked;
	rs->unlisted = pub->unlisted;
	rs->uncounted = pub->uncounted;
	rs->ngpci = pub->ngpci;
	memcpy(rs->gpci, pub->gpci, pub->ngpci * sizeof *pub->gpci);
	return 0;
}

int stat_area_progress(const void *p, size_t len, uint64_t *gen, uint64_t *tick, uint64_t *clock_hz,
		       uint64_t *retired)
{
	const struct area *a = p;

	if (!p || len < sizeof *a || !header_ok(a, len))
		return -1;
	/* the writer runs meanwhile: it fills the slot that is not current,
	 * gen first, then switches cur; a read that a second switch overtook
	 * sees cur or the slot's gen change and is not taken */
	for (int tries = 0; tries < 8; tries++) {
		uint32_t cur = __atomic_load_n(&a->cur, __ATOMIC_ACQUIRE);
		const struct area_pub *pub;
		uint64_t g;

		if (cur > 1)
			return -1;
		pub = &a->pub[cur];
		g = __atomic_load_n(&pub->gen, __ATOMIC_ACQUIRE);
		*tick = __atomic_load_n(&pub->tick, __ATOMIC_RELAXED);
		*clock_hz = __atomic_load_n(&pub->clock_hz, __ATOMIC_RELAXED);
		*retired = __atomic_load_n(&pub->retired, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (g && __atomic_load_n(&pub->gen, __ATOMIC_RELAXED) == g &&
		    __atomic_load_n(&a->cur, __ATOMIC_RELAXED) == cur) {
			*gen = g;
			return 0;
		}
	}
	return -1;
}

int stat_area_read(int fd, struct stat_result *rs, char *err, size_t n)
{
	struct stat st;
	void *p;
	int rc;

	memset(rs, 0, sizeof *rs);
	if (fstat(fd, &st) || st.st_size < 0 || (uint64_t)st.st_size < AREA_BYTES)
		return fail(err, n, "missing or truncated");
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return fail(err, n, strerror(errno));
	rc = stat_area_parse(p, (size_t)st.st_size, rs, err, n);
	munmap(p, (size_t)st.st_size);
	return rc;
}

int stat_area_attach(int fd, struct stat_area **out, char *err, size_t n)
{
	struct stat_area *a;
	const char *why;
	void *p;

	*out = NULL;
	/* mapped only if no one can change its size (SIGBUS past the end) */
	if ((why = shm_check(fd, AREA_BYTES))) {
		close(fd);
		return fail(err, n, why);
	}
	p = mmap(NULL, AREA_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd); /* the mapping stays; the program's descriptors are its own */
	if (p == MAP_FAILED)
		return fail(err, n, strerror(errno));
	if (!header_ok(p, AREA_BYTES) || !(a = calloc(1, sizeof *a))) {
		munmap(p, AREA_BYTES);
		return fail(err, n, "bad header or out of memory");
	}
	a->p = p;
	*out = a;
	return 0;
}

void stat_area_detach(struct stat_area *a)
{
	if (!a)
		return;
	munmap(a->p, AREA_BYTES);
	free(a);
}

struct stat_sample *stat_area_samples(struct stat_area *a) { return a->p->samples; }

void stat_area_publish(struct stat_area *a, struct stat_result *rs)
{
	/* from the writer's own copy: the area is shared with the tool, which
	 * may write any index into it (a standing service's monitor) */
	uint32_t next = 1 - a->cur;
	struct area_pub *pub = &a->p->pub[next];
	unsigned ne = rs->nevents < HVPMU_SV_MAX_EVENTS ? rs->nevents : HVPMU_SV_MAX_EVENTS;
	unsigned nm = rs->nmmu < STAT_MAX_CPUS ? rs->nmmu : STAT_MAX_CPUS;

	rs->gen = ++a->gen;
	pub->gen = rs->gen;
	pub->end = (uint32_t)rs->end;
	pub->signal = (uint32_t)rs->signal;
	pub->tick = rs->tick;
	pub->stale_cycles = rs->stale_cycles;
	pub->clock_hz = rs->clock_hz;
	pub->retired = rs->retired;
	memcpy(pub->generic, rs->generic, sizeof pub->generic);
	pub->hv_status = rs->hv_status;
	pub->nevents = ne;
	pub->nsamples = rs->nsamples < STAT_MAX_SAMPLES ? rs->nsamples : STAT_MAX_SAMPLES;
	pub->nmmu = nm;
	for (unsigned i = 0; i < ne; i++) {
		memcpy(pub->name[i], rs->name[i], sizeof pub->name[i]);
		pub->count[i] = (struct area_count){ (uint64_t)(rs->count[i].supported != 0), rs->count[i].raw,
						     rs->count[i].enabled, rs->count[i].running,
						     rs->count[i].overflows };
	}
	if (nm)
		memcpy(pub->mmu, rs->mmu, nm * sizeof *rs->mmu);
	pub->md_errno = rs->md_errno;
	pub->md_ticks = rs->md_ticks;
	pub->nmdnodes = rs->nmdnodes < STAT_MAX_MDNODES ? rs->nmdnodes : STAT_MAX_MDNODES;
	memcpy(pub->md, rs->md, pub->nmdnodes * sizeof *rs->md);
	pub->nproc = rs->nproc < STAT_MAX_PROCS ? rs->nproc : STAT_MAX_PROCS;
	pub->untracked = rs->untracked;
	pub->unlisted = rs->unlisted;
	pub->uncounted = rs->uncounted;
	if (pub->nproc)
		memcpy(pub->proc, rs->proc, pub->nproc * sizeof *rs->proc);
	pub->ngpci = rs->ngpci < STAT_MAX_GPCI ? rs->ngpci : STAT_MAX_GPCI;
	memcpy(pub->gpci, rs->gpci, pub->ngpci * sizeof *rs->gpci);
	__atomic_store_n(&a->p->cur, next, __ATOMIC_RELEASE);
	a->cur = next;
}
