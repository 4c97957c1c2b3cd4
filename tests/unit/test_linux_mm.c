/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Large pages the guest asks for (src/host/linux_mm.h,
 * docs/tlb-model.md "Large pages from the guest"): madvise(MADV_HUGEPAGE)
 * declares the 8 MB-aligned 8 MB chunks inside its range as 4 MB pages;
 * mmap(MAP_HUGETLB) the whole mapping at the MAP_HUGE_SHIFT size; errors,
 * other calls and sizes the chip lacks change nothing.  A declared range is
 * seen through hvpmu_machine_map_large refusing to declare it again.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "host/linux_mm.h"

#define MB (UINT64_C(1) << 20)
#define GB (UINT64_C(1) << 30)
#define BASE (UINT64_C(0x40) * 8 * MB)

static struct hvpmu_machine *mk(enum hvpmu_platform p)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(p, &md), HVPMU_OK);
	assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_OK);
	return m;
}

/* 1 if [va, va + len) is already declared (at any size). */
static int declared(struct hvpmu_machine *m, uint64_t va, uint64_t len)
{
	return hvpmu_machine_map_large(m, va, len, 64 * 1024) == HVPMU_EINVAL;
}

static void test_madvise_hugepage(void **state)
{
	struct hvpmu_machine *m = mk(HVPMU_PLATFORM_T4);
	uint64_t a[6] = { BASE + 4096, 24 * MB, 14, 0, 0, 0 };

	(void)state;
	/* [BASE + 4 KB, BASE + 24 MB + 4 KB): chunks at BASE + 8 MB and + 16 MB */
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.madvise, a, 0), 16 * MB);
	assert_true(declared(m, BASE + 8 * MB, 64 * 1024));
	assert_true(declared(m, BASE + 24 * MB - 64 * 1024, 64 * 1024));
	assert_false(declared(m, BASE, 64 * 1024));
	assert_false(declared(m, BASE + 24 * MB, 64 * 1024));
	/* again: nothing new */
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.madvise, a, 0), 0);
	/* failed call, other advice, other call, range under 8 MB aligned */
	a[0] = BASE + 64 * MB;
	a[1] = 8 * MB;
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.madvise, a, -22), 0);
	a[2] = 4; /* MADV_DONTNEED */
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.madvise, a, 0), 0);
	a[2] = 14;
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, 3, a, 0), 0);
	a[0] += 8192;
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.madvise, a, 0), 0);
	a[0] = UINT64_MAX - 4 * MB; /* wraps */
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.madvise, a, 0), 0);
	hvpmu_machine_destroy(m);
}

static void test_mmap_hugetlb(void **state)
{
	struct hvpmu_machine *m = mk(HVPMU_PLATFORM_T4), *t1 = mk(HVPMU_PLATFORM_T1);
	uint64_t a[6] = { 0, 10 * MB, 3, 0x22 | LINUX_MAP_HUGETLB, UINT64_MAX, 0 };

	(void)state;
	/* default size: 8 MB huge pages, 10 MB rounds up to 16 MB */
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.mmap, a, (int64_t)BASE), 16 * MB);
	assert_true(declared(m, BASE + 16 * MB - 64 * 1024, 64 * 1024));
	/* 64 KB (shift 16) and 256 MB (shift 28) */
	a[1] = 100 * 1024;
	a[3] = 0x22 | LINUX_MAP_HUGETLB | (UINT64_C(16) << LINUX_MAP_HUGE_SHIFT);
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.mmap, a, (int64_t)(BASE + 32 * MB)), 128 * 1024);
	a[1] = 256 * MB;
	a[3] = 0x22 | LINUX_MAP_HUGETLB | (UINT64_C(28) << LINUX_MAP_HUGE_SHIFT);
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.mmap, a, (int64_t)(256 * MB * 4)), 256 * MB);
	/* 2 GB on T4, not on T1 (no 2 GB TTE) */
	a[1] = 2 * GB;
	a[3] = 0x22 | LINUX_MAP_HUGETLB | (UINT64_C(31) << LINUX_MAP_HUGE_SHIFT);
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.mmap, a, (int64_t)(4 * GB)), 2 * GB);
	assert_int_equal(linux_mm_syscall(t1, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.mmap, a, (int64_t)(4 * GB)), 0);
	/* a size sun4v Linux does not offer; failure; unaligned result; no flag */
	a[1] = 4 * MB;
	a[3] = 0x22 | LINUX_MAP_HUGETLB | (UINT64_C(22) << LINUX_MAP_HUGE_SHIFT);
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.mmap, a, (int64_t)(8 * GB)), 0);
	a[3] = 0x22 | LINUX_MAP_HUGETLB;
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.mmap, a, -12), 0);
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.mmap, a, (int64_t)(8 * GB + 8192)), 0);
	a[3] = 0x22;
	assert_int_equal(linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, hvpmu_isa_sparcv9.sc.mmap, a, (int64_t)(8 * GB)), 0);
	assert_false(declared(m, 8 * GB, 64 * 1024));
	hvpmu_machine_destroy(m);
	hvpmu_machine_destroy(t1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_madvise_hugepage),
		cmocka_unit_test(test_mmap_hugetlb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
