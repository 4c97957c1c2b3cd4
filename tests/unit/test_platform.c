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
#include <hvpmu/session.h>
#include <stdlib.h>
#include <unistd.h>
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

/* A description that did not come from a file (a request's finished one):
 * every built-in passes hvpmu_md_check, a broken one is refused. */
static void test_md_check(void **state)
{
	struct hvpmu_md md, bad;
	const char *name;
	char err[256];

	(void)state;
	for (unsigned i = 0; (name = hvpmu_md_name_at(i)); i++) {
		assert_int_equal(hvpmu_md_by_name(name, &md), 0);
		if (hvpmu_md_check(&md, err, sizeof err))
			fail_msg("%s: %s", name, err);
	}
	assert_int_equal(hvpmu_md_by_name("t4", &md), 0);
	bad = md; bad.chips = 0;
	assert_int_equal(hvpmu_md_check(&bad, err, sizeof err), HVPMU_EINVAL);
	assert_string_equal(err, "chips: out of range 1..64");
	bad = md; bad.mem.l1d.ways = 3;
	assert_int_equal(hvpmu_md_check(&bad, err, sizeof err), HVPMU_EINVAL);
	bad = md; bad.platform = HVPMU_NPLATFORMS;
	assert_int_equal(hvpmu_md_check(&bad, err, sizeof err), HVPMU_EINVAL);
	bad = md; strcpy(bad.isa, "mips64");
	assert_int_equal(hvpmu_md_check(&bad, err, sizeof err), HVPMU_EINVAL);
	bad = md; memset(bad.guests[0].name, 'x', sizeof bad.guests[0].name);
	assert_int_equal(hvpmu_md_check(&bad, err, sizeof err), HVPMU_EINVAL);
	bad = md; bad.placement = (enum hvpmu_placement)7;
	assert_int_equal(hvpmu_md_check(&bad, err, sizeof err), HVPMU_EINVAL);
	bad = md; bad.guests[0].nmem = 0;
	assert_int_equal(hvpmu_md_check(&bad, err, sizeof err), HVPMU_EINVAL);
	bad = md; bad.guests[0].dram_counter_group = 9;
	assert_int_equal(hvpmu_md_check(&bad, err, sizeof err), HVPMU_EINVAL);
	bad = md; bad.kernel.page_bytes = 4096;
	assert_int_equal(hvpmu_md_check(&bad, err, sizeof err), HVPMU_EINVAL);
}

/* The tool's finished description travels in the request (this build's
 * bytes) and is what the run host builds the machine from, checked. */
static void test_request_md(void **state)
{
	static struct stat_request rq, back;
	struct hvpmu_session *s;
	char path[] = "/tmp/hvpmu-test-rqXXXXXX", err[256];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	memset(&rq, 0, sizeof rq);
	rq.result_fd = -1;
	strcpy(rq.placement, "spread");
	rq.hw_prefetch = 2;
	assert_int_equal(hvpmu_md_by_name("t4-2", &rq.md), 0);
	assert_int_equal(hvpmu_session_describe(&rq, &rq.md, err, sizeof err), 0);
	assert_int_equal(rq.have_md, 1);
	assert_int_equal(rq.md.placement, HVPMU_PLACE_SPREAD);
	assert_int_equal(rq.md.mem.l1d_hw_prefetch, 2);
	assert_int_equal(stat_request_write(path, &rq, err, sizeof err), 0);
	assert_int_equal(stat_request_read(path, &back, err, sizeof err), 0);
	assert_int_equal(back.have_md, 1);
	assert_memory_equal(&back.md, &rq.md, sizeof rq.md);
	/* the run host builds the description's machine: two chips */
	assert_int_equal(hvpmu_session_create(&back, &s, err, sizeof err), 0);
	assert_int_equal(hvpmu_machine_md(hvpmu_session_machine(s))->chips, 2);
	hvpmu_session_destroy(s);
	/* and refuses a broken one in one line */
	back.md.chips = 0;
	assert_int_equal(hvpmu_session_create(&back, &s, err, sizeof err), -1);
	assert_string_equal(err, "the request's machine description: chips: out of range 1..64");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_record),
		cmocka_unit_test(test_default_and_names),
		cmocka_unit_test(test_md_check),
		cmocka_unit_test(test_request_md),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
