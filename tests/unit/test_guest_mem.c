/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest real memory (src/services/guest_mem.c, hvpmu/guest_mem.h): segments as a
 * machine description gives them, the one-segment range rule of the
 * OpenSPARC hypervisor (../shared/reference/hw-and-hypervisor.md §1.4
 * "Real-address validity"), big-endian words as a sun4v guest sees them,
 * lazily allocated host pages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/guest_mem.h>

#define TOP_BASE UINT64_C(0xFFFFFFFFFFFF0000) /* a segment ending at 2^64 */

static struct hvpmu_guest_mem *mem(const struct hvpmu_guest_mem_seg *s, unsigned n)
{
	struct hvpmu_guest_mem *gm = NULL;

	assert_int_equal(hvpmu_guest_mem_create(s, n, &gm), 0);
	assert_non_null(gm);
	return gm;
}

static void test_create_errors(void **state)
{
	struct hvpmu_guest_mem *gm = (void *)1;
	const struct hvpmu_guest_mem_seg empty[] = { { 0x1000, 0 } };
	const struct hvpmu_guest_mem_seg wrap[] = { { UINT64_C(0xFFFFFFFFFFFFF000), 0x1001 } };
	const struct hvpmu_guest_mem_seg overlap[] = { { 0x1000, 0x1000 }, { 0x1FF8, 0x100 } };
	const struct hvpmu_guest_mem_seg same[] = { { 0x1000, 0x10 }, { 0x1000, 0x10 } };
	const struct hvpmu_guest_mem_seg inside[] = { { 0x0, 0x10000 }, { 0x4000, 0x10 } };

	(void)state;
	assert_int_equal(hvpmu_guest_mem_create(NULL, 1, &gm), HVPMU_EINVAL);
	assert_int_equal(hvpmu_guest_mem_create(empty, 1, NULL), HVPMU_EINVAL);
	assert_int_equal(hvpmu_guest_mem_create(empty, 1, &gm), HVPMU_EINVAL);
	assert_null(gm);
	assert_int_equal(hvpmu_guest_mem_create(wrap, 1, &gm), HVPMU_EINVAL);
	assert_int_equal(hvpmu_guest_mem_create(overlap, 2, &gm), HVPMU_EINVAL);
	assert_int_equal(hvpmu_guest_mem_create(same, 2, &gm), HVPMU_EINVAL);
	assert_int_equal(hvpmu_guest_mem_create(inside, 2, &gm), HVPMU_EINVAL);
	hvpmu_guest_mem_destroy(NULL);
}

/* Segments come back sorted; adjacent and top-of-space segments are valid;
 * no segments at all is a memory where nothing is valid. */
static void test_segments(void **state)
{
	const struct hvpmu_guest_mem_seg s[] = {
		{ TOP_BASE, 0x10000 }, { 0x110000, 0x10000 }, { 0x100000, 0x10000 },
	};
	struct hvpmu_guest_mem *gm = mem(s, 3);
	struct hvpmu_guest_mem_seg g;
	uint64_t v = 1;

	(void)state;
	assert_int_equal(hvpmu_guest_mem_nsegs(gm), 3);
	assert_int_equal(hvpmu_guest_mem_seg(gm, 0, &g), 0);
	assert_true(g.base == 0x100000 && g.size == 0x10000);
	assert_int_equal(hvpmu_guest_mem_seg(gm, 1, &g), 0);
	assert_true(g.base == 0x110000);
	assert_int_equal(hvpmu_guest_mem_seg(gm, 2, &g), 0);
	assert_true(g.base == TOP_BASE);
	assert_int_equal(hvpmu_guest_mem_seg(gm, 3, &g), HVPMU_ERANGE);
	hvpmu_guest_mem_destroy(gm);

	gm = mem(NULL, 0);
	assert_int_equal(hvpmu_guest_mem_nsegs(gm), 0);
	assert_int_equal(hvpmu_guest_mem_find(gm, 0, 1), -1);
	assert_int_equal(hvpmu_guest_mem_read64(gm, 0, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_guest_mem_write64(gm, 0, 1), HVPMU_ERANGE);
	hvpmu_guest_mem_destroy(gm);
}

static void test_find(void **state)
{
	const struct hvpmu_guest_mem_seg s[] = {
		{ 0x100000, 0x10000 }, { 0x110000, 0x10000 }, { 0x200000, 0x1000 }, { TOP_BASE, 0x10000 },
	};
	struct hvpmu_guest_mem *gm = mem(s, 4);

	(void)state;
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x100000, 0x10000), 0);    /* a whole segment */
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x10FFFF, 1), 0);          /* its last byte */
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x10FFFF, 2), -1);         /* across adjacent segments */
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x110000, 1), 1);
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x200E00, 0x200), 2);      /* ends exactly at the end */
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x200E01, 0x200), -1);     /* one byte past */
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x0FFFFF, 2), -1);         /* starts below memory */
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x300000, 8), -1);         /* in a hole */
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x100000, 0), -1);         /* empty range */
	assert_int_equal(hvpmu_guest_mem_find(gm, 0x100000, UINT64_MAX), -1);
	assert_int_equal(hvpmu_guest_mem_find(gm, UINT64_C(0xFFFFFFFFFFFFFE00), 0x200), 3); /* ends at 2^64 */
	assert_int_equal(hvpmu_guest_mem_find(gm, UINT64_C(0xFFFFFFFFFFFFFF00), 0x200), -1); /* would wrap */
	assert_int_equal(hvpmu_guest_mem_find(gm, UINT64_MAX, 1), 3);
	assert_true(hvpmu_guest_mem_range_ok(gm, 0x100040, 0x200));
	assert_false(hvpmu_guest_mem_range_ok(gm, 0x10FF00, 0x200));
	hvpmu_guest_mem_destroy(gm);
}

/* A 64-bit word is stored most significant byte first, as a big-endian
 * guest's stx leaves it. */
static void test_big_endian(void **state)
{
	const struct hvpmu_guest_mem_seg s[] = { { 0x4000, 0x2000 } };
	struct hvpmu_guest_mem *gm = mem(s, 1);
	const uint8_t be[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF };
	uint8_t b[8];
	uint64_t v;

	(void)state;
	assert_int_equal(hvpmu_guest_mem_write64(gm, 0x4008, UINT64_C(0x0123456789ABCDEF)), 0);
	assert_int_equal(hvpmu_guest_mem_read(gm, 0x4008, b, sizeof b), 0);
	assert_memory_equal(b, be, sizeof be);
	/* and the other way round */
	assert_int_equal(hvpmu_guest_mem_write(gm, 0x4010, be, sizeof be), 0);
	assert_int_equal(hvpmu_guest_mem_read64(gm, 0x4010, &v), 0);
	assert_true(v == UINT64_C(0x0123456789ABCDEF));
	/* the neighbours are untouched */
	assert_int_equal(hvpmu_guest_mem_read64(gm, 0x4000, &v), 0);
	assert_true(v == 0);
	assert_int_equal(hvpmu_guest_mem_read64(gm, 0x4018, &v), 0);
	assert_true(v == 0);
	hvpmu_guest_mem_destroy(gm);
}

static void test_word_errors(void **state)
{
	/* 12 bytes: the word at 0x1008 would cross the segment's end */
	const struct hvpmu_guest_mem_seg s[] = { { 0x1000, 12 }, { 0x100C, 4 } };
	struct hvpmu_guest_mem *gm = mem(s, 2);
	uint64_t v = 7;

	(void)state;
	assert_int_equal(hvpmu_guest_mem_read64(gm, 0x1004, &v), HVPMU_EINVAL);
	assert_int_equal(hvpmu_guest_mem_write64(gm, 0x1001, 1), HVPMU_EINVAL);
	assert_int_equal(hvpmu_guest_mem_read64(gm, 0x1008, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_guest_mem_write64(gm, 0x1008, 1), HVPMU_ERANGE);
	assert_int_equal(hvpmu_guest_mem_write64(gm, 0x2000, 1), HVPMU_ERANGE);
	assert_true(v == 7);
	assert_int_equal(hvpmu_guest_mem_write64(gm, 0x1000, 5), 0);
	assert_int_equal(hvpmu_guest_mem_read64(gm, 0x1000, &v), 0);
	assert_true(v == 5);
	hvpmu_guest_mem_destroy(gm);
}

/* Host pages: none until a non-zero byte is stored; a range across an
 * 8 KB host page boundary reads back whole; many pages grow the table. */
static void test_backing(void **state)
{
	const struct hvpmu_guest_mem_seg s[] = { { 0, UINT64_C(1) << 40 } };
	struct hvpmu_guest_mem *gm = mem(s, 1);
	uint8_t in[300], out[300];
	uint64_t v;

	(void)state;
	assert_int_equal(hvpmu_guest_mem_read64(gm, UINT64_C(0x123456780), &v), 0);
	assert_true(v == 0);
	assert_int_equal(hvpmu_guest_mem_write64(gm, 0x8000, 0), 0);
	assert_true(hvpmu_guest_mem_host_pages(gm) == 0);

	for (unsigned i = 0; i < sizeof in; i++)
		in[i] = (uint8_t)(i + 1);
	assert_int_equal(hvpmu_guest_mem_write(gm, 2 * HVPMU_GUEST_MEM_PAGE - 100, in, sizeof in), 0);
	assert_true(hvpmu_guest_mem_host_pages(gm) == 2);
	assert_int_equal(hvpmu_guest_mem_read(gm, 2 * HVPMU_GUEST_MEM_PAGE - 100, out, sizeof out), 0);
	assert_memory_equal(in, out, sizeof in);

	for (uint64_t i = 0; i < 1000; i++)
		assert_int_equal(hvpmu_guest_mem_write64(gm, (i + 10) * 3 * HVPMU_GUEST_MEM_PAGE + 8 * i, i + 1), 0);
	assert_true(hvpmu_guest_mem_host_pages(gm) == 1002);
	for (uint64_t i = 0; i < 1000; i++) {
		assert_int_equal(hvpmu_guest_mem_read64(gm, (i + 10) * 3 * HVPMU_GUEST_MEM_PAGE + 8 * i, &v), 0);
		assert_true(v == i + 1);
	}
	assert_int_equal(hvpmu_guest_mem_read(gm, 2 * HVPMU_GUEST_MEM_PAGE - 100, out, sizeof out), 0);
	assert_memory_equal(in, out, sizeof in);

	/* back(): allocates without changing contents */
	assert_int_equal(hvpmu_guest_mem_back(gm, 5 * HVPMU_GUEST_MEM_PAGE - 8, 16), 0);
	assert_true(hvpmu_guest_mem_host_pages(gm) == 1004);
	assert_int_equal(hvpmu_guest_mem_read64(gm, 5 * HVPMU_GUEST_MEM_PAGE - 8, &v), 0);
	assert_true(v == 0);
	assert_int_equal(hvpmu_guest_mem_back(gm, UINT64_C(1) << 40, 8), HVPMU_ERANGE);
	assert_int_equal(hvpmu_guest_mem_back(gm, 0, 0), HVPMU_ERANGE);
	hvpmu_guest_mem_destroy(gm);
}

/* Byte ranges obey the one-segment rule too, and a refused write changes
 * nothing. */
static void test_byte_ranges(void **state)
{
	const struct hvpmu_guest_mem_seg s[] = { { 0x2000, 0x100 }, { 0x2100, 0x100 } };
	struct hvpmu_guest_mem *gm = mem(s, 2);
	uint8_t b[16];
	uint64_t v;

	(void)state;
	memset(b, 0xAA, sizeof b);
	assert_int_equal(hvpmu_guest_mem_write(gm, 0x20F8, b, sizeof b), HVPMU_ERANGE);
	assert_int_equal(hvpmu_guest_mem_read64(gm, 0x20F8, &v), 0);
	assert_true(v == 0);
	assert_int_equal(hvpmu_guest_mem_read(gm, 0x20F8, b, sizeof b), HVPMU_ERANGE);
	assert_int_equal(hvpmu_guest_mem_read(gm, 0x5000, b, 0), 0);
	assert_int_equal(hvpmu_guest_mem_write(gm, 0x5000, b, 0), 0);
	hvpmu_guest_mem_destroy(gm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_errors),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_big_endian),
		cmocka_unit_test(test_word_errors),
		cmocka_unit_test(test_backing),
		cmocka_unit_test(test_byte_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
