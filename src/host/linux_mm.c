/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Large pages the guest asks for: src/host/linux_mm.h. */
#include "linux_mm.h"

#define MAX_ERRNO 4095 /* Linux: results in [-4095, -1] are errors */

/* Map [va, va + len) with `ttes`-byte pages: in one region when none of
 * it is declared yet, else chunk by chunk of `chunk` bytes, skipping the
 * chunks the layout already declares (at most MAX_CHUNKS of them: a range
 * larger than that and partly declared is left as it is). */
#define MAX_CHUNKS 4096
static uint64_t map_chunks(struct hvpmu_machine *m, uint32_t ctx, uint64_t va, uint64_t len, uint64_t chunk, uint64_t ttes)
{
	uint64_t done = 0;

	if (hvpmu_machine_map_large_ctx(m, ctx, va, len, ttes) == HVPMU_OK)
		return len;
	if (len / chunk > MAX_CHUNKS)
		return 0;
	for (uint64_t off = 0; off < len; off += chunk)
		if (hvpmu_machine_map_large_ctx(m, ctx, va + off, chunk, ttes) == HVPMU_OK)
			done += chunk;
	return done;
}

uint64_t linux_mm_syscall(struct hvpmu_machine *m, uint32_t ctx, const struct hvpmu_isa_syscalls *sc, int64_t num, const uint64_t a[6],
			  int64_t ret)
{
	if (ret < 0 && ret >= -MAX_ERRNO)
		return 0;
	if (num == sc->madvise && ret == 0 && a[2] == LINUX_MADV_HUGEPAGE) {
		uint64_t hpage = UINT64_C(1) << LINUX_HPAGE_SHIFT;
		uint64_t start = (a[0] + hpage - 1) & ~(hpage - 1), end = (a[0] + a[1]) & ~(hpage - 1);

		if (a[1] > UINT64_MAX - a[0] || start < a[0] || end <= start)
			return 0;
		return map_chunks(m, ctx, start, end - start, hpage, UINT64_C(1) << LINUX_REAL_HPAGE_SHIFT);
	}
	if (num == sc->mmap && (a[3] & LINUX_MAP_HUGETLB) && a[1]) {
		unsigned shift = (unsigned)(a[3] >> LINUX_MAP_HUGE_SHIFT) & LINUX_MAP_HUGE_MASK;
		uint64_t page, tte, va = (uint64_t)ret, len;

		if (!shift)
			shift = LINUX_HPAGE_SHIFT;
		if (shift != 16 && shift != LINUX_HPAGE_SHIFT && shift != 28 && shift != 31)
			return 0; /* the sizes setup_hugepagesz accepts on sun4v */
		page = UINT64_C(1) << shift;
		tte = shift == LINUX_HPAGE_SHIFT ? UINT64_C(1) << LINUX_REAL_HPAGE_SHIFT : page;
		if (va & (page - 1) || a[1] > UINT64_MAX - page)
			return 0;
		len = (a[1] + page - 1) & ~(page - 1);
		if (len - 1 > UINT64_MAX - va)
			return 0;
		return map_chunks(m, ctx, va, len, page, tte);
	}
	return 0;
}
