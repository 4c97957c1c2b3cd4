/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The platform records (src/model/platform.h, hvpmu/platform.h): every
 * entry of the table has a record whose facts agree with the layers that
 * read them -- its ISA exists and has the delay slot its call-return
 * offset assumes, its shapes are reachable by name and listed after it,
 * its personality serves a machine of it, and a default description of
 * it is a valid machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/isa.h>
#include "model/bpred.h"
#include "model/platform.h"

static void test_every_record(void **state)
{
	(void)state;
	assert_int_equal(hvpmu_platform_info(HVPMU_NPLATFORMS), NULL);
	for (unsigned p = 0; p < HVPMU_NPLATFORMS; p++) {
		const struct platform_rec *r = platform_rec(p);
		const struct hvpmu_isa *isa;
		struct hvpmu_machine *m;
		struct hvpmu_hv *hv;
		struct hvpmu_md md;

		assert_non_null(r);
		assert_ptr_equal(hvpmu_platform_info(p), &r->info);
		assert_int_equal(hvpmu_platform_by_name(r->info.name), (int)p);
		isa = hvpmu_isa_by_name(r->info.isa);
		assert_non_null(isa);
		assert_int_equal(r->call_return_offset,
				 isa->delay_slot ? BPRED_CALL_RETURN_OFFSET : BPRED_CALL_RETURN_OFFSET_NO_DS);
		assert_non_null(r->tlb);
		assert_non_null(r->info.mem);
		assert_non_null(r->info.timing);
		assert_true(r->info.max_chips == 0 || r->info.chips <= r->info.max_chips);
		assert_true(!r->dram_channels || r->dram_channel);
		for (unsigned s = 0; s < r->info.nshapes; s++) {
			assert_int_equal(hvpmu_md_by_name(r->info.shapes[s].name, &md), 0);
			assert_int_equal(md.platform, p);
			assert_int_equal(md.chips, r->info.shapes[s].chips);
		}
		assert_int_equal(hvpmu_md_default(p, &md), 0);
		assert_string_equal(md.isa, r->info.isa);
		assert_int_equal(md.chips, r->info.chips);
		assert_int_equal(hvpmu_md_nstrands(&md),
				 r->info.chips * r->info.cores_per_chip * r->info.strands_per_core);
		assert_int_equal(hvpmu_machine_create(&md, &m), 0);
		assert_int_equal(hvpmu_hv_create(m, &hv), 0);
		assert_string_equal(hvpmu_hv_personality(hv), r->info.personality ? r->info.personality : "none");
		hvpmu_hv_destroy(hv);
		hvpmu_machine_destroy(m);
	}
}

/* The first record is every tool's default; every name a description may
 * give is listed once, each platform before its shapes. */
static void test_default_and_names(void **state)
{
	const char *name;
	unsigned n = 0, want = 0;

	(void)state;
	assert_int_equal(hvpmu_platform_default(), 0);
	assert_string_equal(hvpmu_md_name_at(0), platform_rec(hvpmu_platform_default())->info.name);
	for (unsigned p = 0; p < HVPMU_NPLATFORMS; p++)
		want += 1 + platform_rec(p)->info.nshapes;
	for (; (name = hvpmu_md_name_at(n)); n++) {
		struct hvpmu_md md;

		assert_int_equal(hvpmu_md_by_name(name, &md), 0);
	}
	assert_int_equal(n, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_record),
		cmocka_unit_test(test_default_and_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
