/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's hv_gpci event syntax (hvpmu/gpci.h hvpmu_gpci_event_parse,
 * src/supervisor/gpci_events.c):
 *   - every named event Linux publishes for a request the seed implements
 *     (torvalds/linux arch/powerpc/perf/hv-gpci-requests.h, as
 *     ../shared/reference/linux-clients.md §2.3 lists them: written out
 *     here, not taken from the table under test) parses to its request,
 *     starting index, counter_info_version 8, and Linux's offset and
 *     length: those of the field it maps to in the layout the firmware
 *     answers version 8 in (the version-3 layout for 0x50 / 0x60, whose
 *     offsets differ from the seed's; docs/papr-gpci.md, issue 30);
 *   - Linux's events of requests this firmware lacks are unknown;
 *   - the raw form, its aliases and defaults (§2.4 "Event encoding");
 *   - bad inputs: each a one-line reason, *ev and *used untouched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <hvpmu/hvpmu.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Linux's __count entries for 0x10-0x60 (hv-gpci-requests.h, commit
 * 2555693dd85c): request, index kind, counter, Linux's offset; and the
 * offset of the seed's field with the same meaning
 * (papr-platform-hcalls.xml tables; the link requests: per link idle 8,
 * total 8 from 0x10), which version 8 no longer reads. */
static const struct linux_event {
	const char *request_name;
	uint32_t request;
	const char *idx;
	const char *counter;
	uint32_t linux_offset;
	uint32_t seed_offset;
} linux_events[] = {
	{ "dispatch_timebase_by_processor", 0x10, "phys_processor_idx", "processor_time_in_timebase_cycles", 0x00, 0x00 },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition", 0x20, "sibling_part_id", "entitled_cycles", 0x08,
	  0x08 },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition", 0x20, "sibling_part_id",
	  "consumed_capped_cycles", 0x10, 0x10 },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition", 0x20, "sibling_part_id",
	  "consumed_uncapped_cycles", 0x18, 0x18 },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition", 0x20, "sibling_part_id", "cycles_donated", 0x20,
	  0x20 },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition", 0x20, "sibling_part_id", "purr_idle_cycles",
	  0x28, 0x28 },
	{ "run_instructions_run_cycles_by_partition", 0x30, "sibling_part_id", "instructions_completed", 0x08, 0x08 },
	{ "run_instructions_run_cycles_by_partition", 0x30, "sibling_part_id", "cycles", 0x10, 0x10 },
	/* total: the first link's (A), idles: each link's idle */
	{ "processor_bus_utilization_abc_links", 0x50, "hw_chip_id", "total_link_cycles", 0x10, 0x18 },
	{ "processor_bus_utilization_abc_links", 0x50, "hw_chip_id", "idle_cycles_for_a_link", 0x18, 0x10 },
	{ "processor_bus_utilization_abc_links", 0x50, "hw_chip_id", "idle_cycles_for_b_link", 0x20, 0x20 },
	{ "processor_bus_utilization_abc_links", 0x50, "hw_chip_id", "idle_cycles_for_c_link", 0x28, 0x30 },
	{ "processor_bus_utilization_wxyz_links", 0x60, "hw_chip_id", "total_link_cycles", 0x10, 0x18 },
	{ "processor_bus_utilization_wxyz_links", 0x60, "hw_chip_id", "idle_cycles_for_w_link", 0x18, 0x10 },
	{ "processor_bus_utilization_wxyz_links", 0x60, "hw_chip_id", "idle_cycles_for_x_link", 0x20, 0x20 },
	{ "processor_bus_utilization_wxyz_links", 0x60, "hw_chip_id", "idle_cycles_for_y_link", 0x28, 0x30 },
	{ "processor_bus_utilization_wxyz_links", 0x60, "hw_chip_id", "idle_cycles_for_z_link", 0x30, 0x40 },
};

static int parse(const char *s, struct hvpmu_gpci_event *ev, size_t *used, char *err, size_t n)
{
	return hvpmu_gpci_event_parse(s, ev, used, err, n);
}

static void test_named(void **state)
{
	unsigned mapped = 0, differ = 0;

	(void)state;
	for (size_t i = 0; i < N(linux_events); i++) {
		const struct linux_event *le = &linux_events[i];
		char s[256], err[256];
		struct hvpmu_gpci_event ev;
		size_t used = 0;

		/* index 3: a processor, a partition and a chip the default CEC has */
		snprintf(s, sizeof s, "hv_gpci/%s_%s,%s=%u/", le->request_name, le->counter, le->idx,
			 le->request == 0x50 || le->request == 0x60 ? 0x13u : 3u);
		assert_int_equal(parse(s, &ev, &used, err, sizeof err), HVPMU_OK);
		assert_int_equal(used, strlen(s));
		assert_int_equal(ev.request, le->request);
		assert_int_equal(ev.starting_index, le->request == 0x50 || le->request == 0x60 ? 0x13u : 3u);
		assert_int_equal(ev.secondary_index, 0);
		assert_int_equal(ev.version_in, 8);
		assert_int_equal(ev.length, 8);
		assert_int_equal(ev.offset, le->linux_offset); /* issue 30: the seed's offset before */
		/* and the version-3 layout's field there is not the seed's
		 * (0x50 / 0x60 but B and X idles, which coincide by chance) */
		differ += le->seed_offset != le->linux_offset;
		/* the event list in the table: the same names and Linux's offsets */
		for (unsigned k = 0; hvpmu_gpci_named_event_at(k); k++) {
			const struct hvpmu_gpci_named_event *ne = hvpmu_gpci_named_event_at(k);
			char name[200];

			snprintf(name, sizeof name, "%s_%s", le->request_name, le->counter);
			if (strcmp(ne->name, name) == 0) {
				assert_int_equal(ne->linux_offset, le->linux_offset);
				assert_string_equal(ne->index_param, le->idx);
				assert_non_null(hvpmu_gpci_named_event_field(ne));
				mapped++;
			}
		}
		/* what follows the closing '/' is the caller's */
		strcat(s, ",instructions:u");
		assert_int_equal(parse(s, &ev, &used, err, sizeof err), HVPMU_OK);
		assert_int_equal(s[used], ',');
	}
	/* every table entry is one of Linux's, and every Linux event mapped once */
	assert_int_equal(mapped, N(linux_events));
	assert_int_equal(differ, 7); /* both totals, A, C, W, Y, Z idles */
	{
		unsigned k = 0;

		while (hvpmu_gpci_named_event_at(k))
			k++;
		assert_int_equal(k, N(linux_events));
	}
}

static void test_index_values(void **state)
{
	struct hvpmu_gpci_event ev;
	size_t used;
	char err[256];

	(void)state;
	assert_int_equal(parse("hv_gpci/run_instructions_run_cycles_by_partition_cycles,sibling_part_id=0xffffffff/",
			       &ev, &used, err, sizeof err),
			 HVPMU_OK);
	assert_int_equal(ev.starting_index, 0xffffffffu); /* -1: the caller's */
	assert_int_equal(parse("hv_gpci/sibling_part_id=2,run_instructions_run_cycles_by_partition_cycles/", &ev, &used,
			       err, sizeof err),
			 HVPMU_OK); /* the name anywhere in the terms, as perf */
	assert_int_equal(ev.starting_index, 2);
	assert_int_equal(ev.offset, 0x10);
}

static void test_raw(void **state)
{
	struct hvpmu_gpci_event ev;
	size_t used;
	char err[256];

	(void)state;
	assert_int_equal(parse("hv_gpci/request=0x10,starting_index=0,offset=0,length=8/", &ev, &used, err, sizeof err),
			 HVPMU_OK);
	assert_int_equal(ev.request, 0x10);
	assert_int_equal(ev.starting_index, 0);
	assert_int_equal(ev.offset, 0);
	assert_int_equal(ev.length, 8);
	assert_int_equal(ev.version_in, 0);
	assert_int_equal(used, strlen("hv_gpci/request=0x10,starting_index=0,offset=0,length=8/"));
	/* every field, aliases of starting_index, any order, hex and decimal */
	assert_int_equal(parse("hv_gpci/length=4,offset=4060,counter_info_version=8,secondary_index=0xffff,"
			       "hw_chip_id=0x12,request=2147491840/",
			       &ev, &used, err, sizeof err),
			 HVPMU_OK);
	assert_int_equal(ev.request, 0x80002000u);
	assert_int_equal(ev.starting_index, 0x12);
	assert_int_equal(ev.secondary_index, 0xffff);
	assert_int_equal(ev.version_in, 8);
	assert_int_equal(ev.offset, 4060);
	assert_int_equal(ev.length, 4);
	for (const char *const *a = (const char *const[]){ "phys_processor_idx", "sibling_part_id", "partition_id",
							    "starting_index", NULL };
	     *a; a++) {
		char s[128];

		snprintf(s, sizeof s, "hv_gpci/request=0x30,%s=7,offset=8,length=1/", *a);
		assert_int_equal(parse(s, &ev, &used, err, sizeof err), HVPMU_OK);
		assert_int_equal(ev.starting_index, 7);
		assert_int_equal(ev.length, 1);
	}
	/* any request: the hypervisor answers (H_Parameter, H_Not_Available) */
	assert_int_equal(parse("hv_gpci/request=0x70,length=8/", &ev, &used, err, sizeof err), HVPMU_OK);
	assert_int_equal(ev.request, 0x70);
	assert_int_equal(ev.starting_index, 0);
}

static void test_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"hv_gpci",
		"hv_24x7/request=0x10,length=8/",
		"cpu/request=0x10,length=8/",
		"hv_gpci/request=0x10,length=8",            /* no closing '/' */
		"hv_gpci//",                                /* nothing */
		"hv_gpci/request=0x10,,length=8/",          /* empty term */
		"hv_gpci/request=0x10,length=8,/",          /* empty term at the end */
		"hv_gpci/,request=0x10,length=8/",
		"hv_gpci/request=0x10/",                    /* raw: no length */
		"hv_gpci/starting_index=0,length=8/",       /* raw: no request */
		"hv_gpci/request=0x10,length=0/",
		"hv_gpci/request=0x10,length=9/",
		"hv_gpci/request=0x10,length=8,offset=4057/", /* past 4064 */
		"hv_gpci/request=0x10,length=1,offset=4064/",
		"hv_gpci/request=0x10,length=8,offset=0x100000000/",
		"hv_gpci/request=0x100000000,length=8/",
		"hv_gpci/request=0x10,starting_index=0x100000000,length=8/",
		"hv_gpci/request=0x10,secondary_index=0x10000,length=8/",
		"hv_gpci/request=0x10,counter_info_version=256,length=8/",
		"hv_gpci/request=0x10,length=8,request=0x20/", /* twice */
		"hv_gpci/request=0x10,starting_index=1,phys_processor_idx=1,length=8/", /* aliases: one field */
		"hv_gpci/request=-1,length=8/",
		"hv_gpci/request=+1,length=8/",
		"hv_gpci/request= 1,length=8/",
		"hv_gpci/request=1x,length=8/",
		"hv_gpci/request=,length=8/",
		"hv_gpci/request=0x10,length=8,bogus=1/",
		"hv_gpci/request=0x10,length=8,config=1/",
		"hv_gpci/Request=0x10,length=8/",
		"hv\ngpci/request=0x10,length=8/",          /* (the message quotes it: one line) */
		"hv_gpci/request=0x10,length=8,\n=1/",
		"hv_gpci/no_such_event,phys_processor_idx=0/",
		/* named: its parameter required, only it */
		"hv_gpci/dispatch_timebase_by_processor_processor_time_in_timebase_cycles/",
		"hv_gpci/dispatch_timebase_by_processor_processor_time_in_timebase_cycles,starting_index=0/",
		"hv_gpci/dispatch_timebase_by_processor_processor_time_in_timebase_cycles,sibling_part_id=0/",
		"hv_gpci/dispatch_timebase_by_processor_processor_time_in_timebase_cycles,phys_processor_idx=0,offset=8/",
		"hv_gpci/dispatch_timebase_by_processor_processor_time_in_timebase_cycles,phys_processor_idx=0,"
		"request=0x20/",
		"hv_gpci/dispatch_timebase_by_processor_processor_time_in_timebase_cycles,phys_processor_idx=/",
		"hv_gpci/dispatch_timebase_by_processor_processor_time_in_timebase_cycles,phys_processor_idx=0,"
		"run_instructions_run_cycles_by_partition_cycles/",
		"hv_gpci/run_instructions_run_cycles_by_partition_cycles,partition_id=1/", /* Linux: sibling_part_id */
		"hv_gpci/DISPATCH_TIMEBASE_BY_PROCESSOR_PROCESSOR_TIME_IN_TIMEBASE_CYCLES,phys_processor_idx=0/",
		/* Linux's events of requests this firmware lacks */
		"hv_gpci/processor_bus_utilization_gx_links_gx0_in_address_cycles,hw_chip_id=0/",
		"hv_gpci/processor_core_utilization_purr_cycles,phys_processor_idx=0/",
		"hv_gpci/partition_hypervisor_queuing_times_time_waiting_for_entitlement,partition_id=1/",
		"hv_gpci/system_tlbie_count_and_time_tlbie_instructions_issued/",
		"hv_gpci/partition_instruction_count_and_time_instructions_performed,partition_id=1/",
		/* 0x40's fields are not counters in Linux's list */
		"hv_gpci/system_performance_capabilities_perf_collect_privileged/",
	};

	(void)state;
	for (size_t i = 0; i < N(bad); i++) {
		struct hvpmu_gpci_event ev, before;
		size_t used = 12345;
		char err[256];

		memset(&ev, 0x5a, sizeof ev);
		before = ev;
		memset(err, 0, sizeof err);
		print_message("%s\n", bad[i]);
		assert_int_equal(parse(bad[i], &ev, &used, err, sizeof err), HVPMU_EINVAL);
		assert_true(err[0] != 0);
		assert_null(strchr(err, '\n'));
		assert_memory_equal(&ev, &before, sizeof ev);
		assert_int_equal(used, 12345);
	}
	/* a long event stays one bounded line */
	{
		char s[2048], err[200];
		struct hvpmu_gpci_event ev;
		size_t used;

		memset(s, 'x', sizeof s - 1);
		s[sizeof s - 1] = 0;
		memcpy(s, "hv_gpci/", 8);
		strcpy(s + sizeof s - 3, "/");
		assert_int_equal(parse(s, &ev, &used, err, sizeof err), HVPMU_EINVAL);
		assert_true(strlen(err) < sizeof err);
		assert_int_equal(parse(NULL, &ev, &used, err, sizeof err), HVPMU_EINVAL);
		assert_int_equal(parse("hv_gpci/request=1,length=1/", NULL, &used, err, sizeof err), HVPMU_EINVAL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_index_values),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
