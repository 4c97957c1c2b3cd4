/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/guest_mem.h - a guest's real memory as the hypervisor sees it
 * (layer 4).
 *
 * A sun4v guest's real address (RA) space is the list of memory segments
 * its machine description gives it, each {RA base, size in bytes}; the
 * OpenSPARC hypervisor checks every buffer a guest hands it (MMU statistics
 * area, TSBs, queues) against one segment: [ra, ra+len) must lie wholly
 * inside a single memory segment, else the hypercall fails with ENORADDR
 * (../shared/reference/hw-and-hypervisor.md §1.4 "Real-address validity",
 * RA2PA_RANGE_CONV).  Two segments are distinct even when one ends where
 * the next begins: a range across the boundary is refused.
 *
 * The host model keeps the bytes the hypervisor reads and writes in such
 * buffers.  Backing storage is allocated lazily per 8 KB host page on the
 * first write of a non-zero byte; unwritten memory reads as zero.  Bytes are
 * stored as the guest sees them: sun4v guests are big-endian, so a 64-bit
 * word written with hvpmu_guest_mem_write64() appears most significant byte
 * first to hvpmu_guest_mem_read() (and to a guest struct laid over it).
 *
 * Segments are fixed when the memory is created (sorted by base; index 0 is
 * the lowest), so a range found valid stays valid for the object's life.
 *
 * Errors are negative enum hvpmu_err values (hvpmu/hvpmu.h).
 * Not thread-safe: serialise every call on one struct hvpmu_guest_mem,
 * reads included (a read does not allocate but may race a growing table).
 */
#ifndef HVPMU_GUEST_MEM_H
#define HVPMU_GUEST_MEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One memory segment: real addresses [base, base + size), size in bytes. */
struct hvpmu_guest_mem_seg {
	uint64_t base;
	uint64_t size;
};

/* Host backing granule (bytes); the unit of hvpmu_guest_mem_host_pages(). */
#define HVPMU_GUEST_MEM_PAGE 8192u

struct hvpmu_guest_mem;

/*
 * Create the real memory of one guest from `nsegs` segments (copied; any
 * order; nsegs may be 0, giving a memory in which every range is invalid).
 * Every segment needs size > 0 and base + size <= 2^64 (no wrap), and no
 * two segments may overlap; there is no alignment requirement on base or
 * size.  Returns 0 and *out, HVPMU_EINVAL (out NULL, segs NULL with
 * nsegs > 0, an empty, wrapping or overlapping segment) or HVPMU_ENOMEM.
 */
int hvpmu_guest_mem_create(const struct hvpmu_guest_mem_seg *segs, unsigned nsegs,
			   struct hvpmu_guest_mem **out);
/* Free the memory and its backing storage.  NULL is a no-op. */
void hvpmu_guest_mem_destroy(struct hvpmu_guest_mem *gm);

/* Number of segments. */
unsigned hvpmu_guest_mem_nsegs(const struct hvpmu_guest_mem *gm);
/* Segment i in ascending base order: 0, or HVPMU_ERANGE if i >= nsegs. */
int hvpmu_guest_mem_seg(const struct hvpmu_guest_mem *gm, unsigned i, struct hvpmu_guest_mem_seg *out);

/*
 * Index of the segment that wholly contains [ra, ra + len), or -1 if none
 * does (ra in no segment, the range runs past the segment's end, wraps past
 * 2^64, or len is 0).
 */
int hvpmu_guest_mem_find(const struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t len);
/* 1 if [ra, ra + len) lies wholly inside one segment, else 0 (as _find). */
int hvpmu_guest_mem_range_ok(const struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t len);

/*
 * Copy `len` bytes between the guest's memory at [ra, ra + len) and `buf`,
 * in guest byte order.  The range must lie inside one segment
 * (HVPMU_ERANGE otherwise; len 0 is a successful no-op).  A write stores
 * nothing unless it can store everything: HVPMU_ENOMEM when backing could
 * not be allocated, memory unchanged.
 */
int hvpmu_guest_mem_read(const struct hvpmu_guest_mem *gm, uint64_t ra, void *buf, size_t len);
int hvpmu_guest_mem_write(struct hvpmu_guest_mem *gm, uint64_t ra, const void *buf, size_t len);

/*
 * The 64-bit big-endian word at `ra` (an ldx/stx of the guest).  ra must be
 * a multiple of 8 (HVPMU_EINVAL, as the hardware's mem_address_not_aligned)
 * and [ra, ra + 8) inside one segment (HVPMU_ERANGE).  Write: HVPMU_ENOMEM
 * as hvpmu_guest_mem_write(); never fails on backed memory.
 */
int hvpmu_guest_mem_read64(const struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t *val);
int hvpmu_guest_mem_write64(struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t val);

/*
 * Allocate host backing for every page of [ra, ra + len) now (contents
 * unchanged), so that later writes there cannot fail.  0, HVPMU_ERANGE
 * (range not inside one segment) or HVPMU_ENOMEM.
 */
int hvpmu_guest_mem_back(struct hvpmu_guest_mem *gm, uint64_t ra, uint64_t len);

/* Host pages (HVPMU_GUEST_MEM_PAGE bytes each) allocated so far. */
uint64_t hvpmu_guest_mem_host_pages(const struct hvpmu_guest_mem *gm);

#ifdef __cplusplus
}
#endif
#endif
