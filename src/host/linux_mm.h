/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest Linux memory-management system calls that choose page sizes
 * (docs/tlb-model.md "Large pages from the guest"): the guest OS's page
 * size policy.  The session hands each completed mmap / madvise of the
 * guest here; large-page requests become
 * regions of the machine model's page layout (hvpmu_machine_map_large):
 *
 *   madvise(addr, len, MADV_HUGEPAGE) returning 0: transparent huge pages.
 *     Linux sparc64 huge pages are HPAGE_SIZE = 8 MB built of two 4 MB TTEs
 *     (arch/sparc/include/asm/page_64.h HPAGE_SHIFT 23, REAL_HPAGE_SHIFT
 *     22), so every 8 MB-aligned 8 MB chunk wholly inside the range is
 *     mapped with 4 MB pages.
 *   mmap(..., flags & MAP_HUGETLB, ...) returning an address: hugetlbfs.
 *     The size is MAP_HUGE_SHIFT-encoded in flags[31:26] (0 = the 8 MB
 *     default); sun4v Linux offers 64 KB, 8 MB (4 MB TTEs), 256 MB and
 *     2 GB (arch/sparc/mm/init_64.c setup_hugepagesz); the whole mapping,
 *     rounded up to that size, gets it.
 * Anything else (other calls, failures, sizes the chip's TLB lacks, ranges
 * already declared) changes nothing.  Not thread-safe (the session's caller holds its
 * lock).
 */
#ifndef HVPMU_SUPERVISOR_LINUX_MM_H
#define HVPMU_SUPERVISOR_LINUX_MM_H

#include <stdint.h>
#include <hvpmu/hvpmu.h>

/* Linux flags (asm-generic/mman-common.h, linux/mman.h) and sparc64's
 * huge pages. */
#define LINUX_MAP_HUGETLB 0x40000
#define LINUX_MAP_HUGE_SHIFT 26
#define LINUX_MAP_HUGE_MASK 0x3f
#define LINUX_MADV_HUGEPAGE 14
#define LINUX_HPAGE_SHIFT 23      /* sparc64 HPAGE_SHIFT: 8 MB */
#define LINUX_REAL_HPAGE_SHIFT 22 /* its TTEs: 4 MB */

/*
 * A completed system call `num` (numbered as `sc`, the ISA's user ABI)
 * with arguments a[0..5] and result `ret` (negative errno on failure, as
 * QEMU reports it), by a process whose address space is MMU context ctx.  Returns the bytes newly mapped with large pages (0
 * when nothing changed).
 */
__attribute__((visibility("hidden"))) uint64_t linux_mm_syscall(struct hvpmu_machine *m, uint32_t ctx,
								 const struct hvpmu_isa_syscalls *sc, int64_t num,
								 const uint64_t a[6], int64_t ret);

#endif
