/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The POWER platform's machine (docs/power-platform.md): the built-in
 * description (four POWER7 chips, 8 cores x 4 threads, the POWER7 caches,
 * ISA ppc64, no modeled kernel path), a machine whose only chip-wide
 * device is the CEC statistics (docs/papr-gpci.md) and with no PMU
 * registers, the PAPR services, and the model's counts by class that `hvpmu stat` reports without a
 * counter driver (hvpmu_machine_retired_class, hvpmu_machine_taken_cond).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/isa.h>
#include <hvpmu/pmu.h>
#include <hvpmu/supervisor.h>

static void test_power_description(void **state)
{
	struct hvpmu_md md;
	int listed = 0;
	const char *name;

	(void)state;
	assert_int_equal(hvpmu_platform_by_name("power"), HVPMU_PLATFORM_POWER);
	assert_string_equal(hvpmu_platform_name(HVPMU_PLATFORM_POWER), "power");
	assert_int_equal(hvpmu_md_by_name("power", &md), 0);
	assert_int_equal(md.platform, HVPMU_PLATFORM_POWER);
	assert_string_equal(md.isa, "ppc64");
	assert_non_null(hvpmu_isa_by_name(md.isa));
	assert_int_equal(md.chips, 4);              /* two modules of two */
	assert_int_equal(md.cores_per_chip, 8);
	assert_int_equal(md.strands_per_core, 4);   /* SMT4 */
	assert_int_equal(hvpmu_md_nstrands(&md), 128);
	assert_int_equal(md.clock_hz, UINT64_C(3860000000));
	assert_int_equal(md.mem.l1i.size, 32 * 1024);
	assert_int_equal(md.mem.l1d.size, 32 * 1024);
	assert_int_equal(md.mem.l1d.ways, 8);
	assert_int_equal(md.mem.l2.size, 256 * 1024);
	assert_int_equal(md.mem.l3.size, 32 * 1024 * 1024);
	assert_int_equal(md.mem.l3.line, 128);
	assert_int_equal(md.kernel.syscall_insns, 0);
	assert_int_equal(md.remote_latency, 193);   /* 50 ns at 3.86 GHz */
	assert_int_equal(md.guests[0].nstrands, 128);
	for (unsigned i = 0; (name = hvpmu_md_name_at(i)); i++)
		listed |= strcmp(name, "power") == 0;
	assert_true(listed);
	/* a back-end (hv_gpci events, the model's counts) whose driver counts
	 * the POWER7 events of -e (docs/power7-pmu.md) */
	assert_non_null(hvpmu_sv_backend_of(HVPMU_PLATFORM_POWER));
	assert_false(hvpmu_sv_backend_driver(hvpmu_sv_backend_of(HVPMU_PLATFORM_POWER)));
	assert_true(hvpmu_sv_backend_counters(hvpmu_sv_backend_of(HVPMU_PLATFORM_POWER)));
	assert_int_equal(hvpmu_sv_backend_desc(hvpmu_sv_backend_of(HVPMU_PLATFORM_POWER))->npic, 6);
	{ /* cpustat's counters and sets (pic0..pic5 = PMC1-6): PM_CYC on
	   * PMC1-4 or, per task, PMC6 as PM_RUN_CYC; PM_INST_CMPL on PMC1-5;
	   * PM_BR_MPRED on PMC4 only; two PMC4 events, or unit-6 events of
	   * other L2SEL, not in one group */
		const struct hvpmu_sv_backend *be = hvpmu_sv_backend_of(HVPMU_PLATFORM_POWER);
		const uint64_t ok[2] = { 0x1e, 0x2 }, pmc4[2] = { 0x400f6, 0x400f0 }, l2sel[2] = { 0x16080, 0x26480 };

		assert_int_equal(hvpmu_sv_event_pics(be, 0x1e), 0x2f);
		assert_int_equal(hvpmu_sv_event_pics(be, 0x2), 0x1f);
		assert_int_equal(hvpmu_sv_event_pics(be, 0x400f6), 0x8);
		assert_true(hvpmu_sv_events_fit(be, ok, 2));
		assert_false(hvpmu_sv_events_fit(be, pmc4, 2));
		assert_false(hvpmu_sv_events_fit(be, l2sel, 2));
		assert_true(hvpmu_sv_events_fit(hvpmu_sv_backend_of(HVPMU_PLATFORM_T4), pmc4, 2));
	}
	{ /* without -e: every model count its list shows (after perf's names), in its order */
		const struct hvpmu_sv_backend *be = hvpmu_sv_backend_of(HVPMU_PLATFORM_POWER);
		struct hvpmu_sv_event_info e;
		char all[512] = "";

		for (unsigned i = 0; hvpmu_sv_backend_alias(be, i, &e) == HVPMU_OK; i++)
			if (strstr(e.name, ":u")) /* (perf's names have no modifier) */
				snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", *all ? "," : "", e.name);
		assert_string_equal(all, hvpmu_sv_backend_desc(be)->default_events);
	}
}

static void test_power_machine(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	struct hvpmu_hv *hv = NULL;
	uint64_t v;

	(void)state;
	assert_int_equal(hvpmu_md_by_name("power", &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	assert_int_equal(hvpmu_machine_nstrands(m), 128);
	assert_int_equal(hvpmu_machine_ndevices(m), 1); /* the CEC statistics (hvpmu/cec_stats.h) */
	assert_int_equal(hvpmu_machine_device_find(m, HVPMU_DEV_CEC_STATS, 0), 0);
	assert_int_equal(hvpmu_machine_reg_read(m, 0, HVPMU_REG_ASR, 16, 0, &v), HVPMU_ERANGE);
	/* each thread's POWER7 PMU (hvpmu/power7_pmu.h): MMCR0 is privileged,
	 * UMMCR0 (779) readable by the program */
	assert_ptr_equal(hvpmu_machine_pmu_ops(m), &hvpmu_power7_pmu_ops);
	assert_int_equal(hvpmu_machine_reg_read(m, 0, HVPMU_REG_SPR, 795, 0, &v), HVPMU_ETRAP);
	assert_int_equal(hvpmu_machine_reg_read(m, 0, HVPMU_REG_SPR, 779, 0, &v), HVPMU_OK);
	assert_int_equal(hvpmu_hv_create(m, &hv), 0);
	assert_string_equal(hvpmu_hv_personality(hv), "papr"); /* H_GetPerformanceCounterInfo, docs/papr-gpci.md */
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
}

/* Two loads, a store and a taken conditional branch on strand 5. */
static void test_power_class_counts(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	struct hvpmu_activity *act;
	int ld, st, br;

	(void)state;
	assert_int_equal(hvpmu_md_by_name("power", &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	hvpmu_machine_set_features(m, HVPMU_FEAT_TAKEN);
	ld = hvpmu_machine_class(m, HVPMU_IC_LOAD);
	st = hvpmu_machine_class(m, HVPMU_IC_STORE | HVPMU_IC_STORE_COND);
	br = hvpmu_machine_class(m, HVPMU_IC_BRANCH | HVPMU_IC_CTI_COND);
	assert_true(ld >= 0 && st >= 0 && br >= 0);
	act = hvpmu_machine_activity(m, 5);
	act->icount[ld] += 2;
	act->icount[st] += 1;
	act->icount[br] += 1;
	act->taken_cond += 1;
	assert_int_equal(hvpmu_machine_sync(m, 5, NULL, NULL), 0);
	assert_int_equal(hvpmu_machine_retired(m, 5), 4);
	assert_int_equal(hvpmu_machine_retired_class(m, 5, HVPMU_IC_LOAD), 2);
	assert_int_equal(hvpmu_machine_retired_class(m, 5, HVPMU_IC_STORE_COND), 1);
	assert_int_equal(hvpmu_machine_retired_class(m, 5, HVPMU_IC_LOAD | HVPMU_IC_STORE), 3);
	assert_int_equal(hvpmu_machine_retired_class(m, 5, HVPMU_IC_FP), 0);
	assert_int_equal(hvpmu_machine_retired_class(m, 4, HVPMU_IC_GROUPS), 0);
	assert_int_equal(hvpmu_machine_retired_class(m, 128, HVPMU_IC_GROUPS), 0);
	assert_int_equal(hvpmu_machine_taken_cond(m, 5), 1);
	assert_int_equal(hvpmu_machine_taken_cond(m, 128), 0);
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_power_description),
		cmocka_unit_test(test_power_machine),
		cmocka_unit_test(test_power_class_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
