/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SGI Origin platform's machine and its Hub MD counters
 * (hvpmu/origin_md.h; hw-and-hypervisor.md §5.2-5.3): the built-in
 * description, one Hub device per node on the register bus, MD_PERF_SEL's
 * implemented bits, the live set only counting while enabled, pegging at
 * 0xFFFFF, and set 0's idle cycles in the Hub clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

static void test_origin_description(void **state)
{
	struct hvpmu_md md;

	(void)state;
	assert_int_equal(hvpmu_platform_by_name("origin"), HVPMU_PLATFORM_ORIGIN);
	assert_int_equal(hvpmu_md_by_name("origin", &md), 0);
	assert_int_equal(md.platform, HVPMU_PLATFORM_ORIGIN);
	assert_string_equal(md.isa, "mips64");
	assert_int_equal(md.chips, 4);            /* nodes */
	assert_int_equal(hvpmu_md_nstrands(&md), 8); /* two R10000s per node */
	assert_int_equal(md.clock_hz, 195000000);
	assert_int_equal(md.uncore_clock_hz, 100000000);
	assert_int_equal(md.os_hz, 100);
	assert_int_equal(md.mem.l2.size, 4 * 1024 * 1024);
	assert_int_equal(md.mem.l2.line, 128);    /* the coherence unit */
	assert_int_equal(md.mem.l3.size, 0);
}

/* The machine with its Hubs; *dev0 the device of node 0. */
static struct hvpmu_machine *origin(unsigned *dev0)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	int d;

	assert_int_equal(hvpmu_md_by_name("origin", &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	assert_int_equal(hvpmu_machine_ndevices(m), 4);
	d = hvpmu_machine_device_find(m, HVPMU_DEV_ORIGIN_MD, 0);
	assert_true(d >= 0);
	*dev0 = (unsigned)d;
	return m;
}

static void test_hub_registers(void **state)
{
	unsigned dev;
	struct hvpmu_machine *m = origin(&dev);
	struct hvpmu_device_info info;
	uint64_t v;

	(void)state;
	assert_int_equal(hvpmu_machine_device(m, dev, &info), 0);
	assert_string_equal(info.name, "origin-md");
	assert_int_equal(info.nregs, HVPMU_HUBMD_NREGS);
	for (unsigned n = 0; n < 4; n++) { /* one Hub per node */
		int d = hvpmu_machine_device_find(m, HVPMU_DEV_ORIGIN_MD, n);

		assert_true(d >= 0);
		assert_int_equal(hvpmu_machine_device(m, (unsigned)d, &info), 0);
		assert_int_equal(info.chip, n);
	}
	/* reset: disabled, counters 0 */
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_SEL, &v), 0);
	assert_int_equal(v, 0);
	/* sel 2:0 and en 3 are implemented; 63:4 read as 0 */
	assert_int_equal(hvpmu_machine_bus_write(m, dev, HVPMU_HUBMD_REG_SEL, ~UINT64_C(0)), 0);
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_SEL, &v), 0);
	assert_int_equal(v, 0xf);
	/* a counter holds 20 bits */
	assert_int_equal(hvpmu_machine_bus_write(m, dev, HVPMU_HUBMD_REG_CNT0 + 5, UINT64_C(0x123456789)), 0);
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0 + 5, &v), 0);
	assert_int_equal(v, 0x56789);
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_NREGS, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_bus_write(m, dev, HVPMU_HUBMD_NREGS, 0), HVPMU_ERANGE);
	hvpmu_machine_destroy(m);
}

static void test_count_live_set_and_peg(void **state)
{
	unsigned dev;
	struct hvpmu_machine *m = origin(&dev);
	struct hvpmu_origin_md *d = hvpmu_machine_device_state(m, dev);
	struct hvpmu_origin_md_activity a;
	uint64_t v;

	(void)state;
	memset(&a, 0, sizeof a);
	for (unsigned s = 0; s < HVPMU_HUBMD_PERF_SETS; s++)
		for (unsigned c = 0; c < HVPMU_HUBMD_PERF_COUNTERS; c++)
			a.ev[s][c] = 100 * s + c + 1;
	hvpmu_origin_md_count(d, &a); /* disabled: nothing */
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0 + 2, &v), 0);
	assert_int_equal(v, 0);
	/* set 4 enabled: counter i counts event i of set 4 only */
	assert_int_equal(hvpmu_machine_bus_write(m, dev, HVPMU_HUBMD_REG_SEL, 8 | 4), 0);
	hvpmu_origin_md_count(d, &a);
	hvpmu_origin_md_count(d, &a);
	for (unsigned c = 0; c < HVPMU_HUBMD_PERF_COUNTERS; c++) {
		assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0 + c, &v), 0);
		assert_int_equal(v, 2 * (400 + c + 1));
	}
	/* perf_sel 6 and 7 name no set: nothing counts */
	assert_int_equal(hvpmu_machine_bus_write(m, dev, HVPMU_HUBMD_REG_SEL, 8 | 6), 0);
	hvpmu_origin_md_count(d, &a);
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0, &v), 0);
	assert_int_equal(v, 802);
	/* pegs at 0xFFFFF and stays there */
	assert_int_equal(hvpmu_machine_bus_write(m, dev, HVPMU_HUBMD_REG_SEL, 8 | 1), 0);
	assert_int_equal(hvpmu_machine_bus_write(m, dev, HVPMU_HUBMD_REG_CNT0 + 3, HVPMU_HUBMD_PERF_PEG - 10), 0);
	a.ev[1][3] = 11;
	hvpmu_origin_md_count(d, &a);
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0 + 3, &v), 0);
	assert_int_equal(v, HVPMU_HUBMD_PERF_PEG);
	a.ev[1][3] = UINT64_MAX;
	hvpmu_origin_md_count(d, &a);
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0 + 3, &v), 0);
	assert_int_equal(v, HVPMU_HUBMD_PERF_PEG);
	hvpmu_machine_destroy(m);
}

/* Set 0 counts MD cycles in the Hub clock: with no memory traffic, every
 * elapsed Hub cycle is idle (100 MHz Hub, 195 MHz CPU). */
static void test_idle_cycles(void **state)
{
	unsigned dev;
	struct hvpmu_machine *m = origin(&dev);
	uint64_t v;

	(void)state;
	assert_int_equal(hvpmu_machine_bus_write(m, dev, HVPMU_HUBMD_REG_SEL, 8 | 0), 0);
	/* 1,950,000 cycles on CPU 3 = 10 ms = 1,000,000 Hub cycles */
	assert_int_equal(hvpmu_machine_add_cycles(m, 3, HVPMU_MODE_USER, 1950000), 0);
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0 + HVPMU_HUBMD_MEM_IDLE, &v), 0);
	assert_int_equal(v, 1000000);
	/* 1 ms more: 1,100,000 > 0xFFFFF, pegged */
	assert_int_equal(hvpmu_machine_add_cycles(m, 3, HVPMU_MODE_USER, 195000), 0);
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0 + HVPMU_HUBMD_MEM_IDLE, &v), 0);
	assert_int_equal(v, HVPMU_HUBMD_PERF_PEG);
	assert_int_equal(hvpmu_machine_bus_write(m, dev, HVPMU_HUBMD_REG_CNT0 + HVPMU_HUBMD_MEM_IDLE, 0), 0);
	assert_int_equal(hvpmu_machine_add_cycles(m, 3, HVPMU_MODE_USER, 195000), 0); /* 1 ms more */
	assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0 + HVPMU_HUBMD_MEM_IDLE, &v), 0);
	assert_int_equal(v, 100000);
	for (unsigned c = 1; c < HVPMU_HUBMD_PERF_COUNTERS; c++) { /* no busy kind */
		assert_int_equal(hvpmu_machine_bus_read(m, dev, HVPMU_HUBMD_REG_CNT0 + c, &v), 0);
		assert_int_equal(v, 0);
	}
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_origin_description),
		cmocka_unit_test(test_hub_registers),
		cmocka_unit_test(test_count_live_set_and_peg),
		cmocka_unit_test(test_idle_cycles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
