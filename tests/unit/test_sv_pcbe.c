/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor's PMU back-end table (src/supervisor/sv_internal.h,
 * struct sv_pcbe_ops; ../shared/STYLE.md, illumos pcbe_ops_t): the back-end
 * chosen per platform, and its sample operation through hvpmu_sv_fold():
 * a running strand's PICs folded into the 64-bit totals without stopping
 * them, across a PIC wrap, on T4 (PIC via ASI 0xB0, PCR via hypercall)
 * and T1 (RDASR %pic / %pcr).  Folding never changes the totals of a run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include "supervisor/sv_internal.h"

#define ADD 0x82004002u /* add %g1, %g2, %g1: other */
#define BEFORE_WRAP 50u
#define FAR_TICK (UINT64_C(1) << 40)

struct rig {
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	struct hvpmu_sv *sv;
	struct hvpmu_activity *a;
	int cls;
};

static void rig_init(struct rig *r, enum hvpmu_platform p)
{
	struct hvpmu_sv_config cfg;
	struct hvpmu_sv_event ev;
	struct hvpmu_sparc_insn d;

	memset(r, 0, sizeof *r);
	assert_int_equal(hvpmu_md_default(p, &r->md), 0);
	assert_int_equal(hvpmu_machine_create(&r->md, &r->m), 0);
	assert_int_equal(hvpmu_hv_create(r->m, &r->hv), 0);
	memset(&cfg, 0, sizeof cfg);
	cfg.rotate_cycles = FAR_TICK; /* no OS tick during the test */
	cfg.pic_init = (uint32_t)(UINT64_C(0x100000000) - BEFORE_WRAP);
	assert_int_equal(hvpmu_sv_create(r->hv, 0, &cfg, &r->sv), 0);
	memset(&ev, 0, sizeof ev);
	if (p == HVPMU_PLATFORM_T1) {
		ev.mask = HVPMU_SV_T1_PICH; /* Instr_cnt */
	} else {
		ev.sl = 3;    /* TABLE 10-2: Instr_all */
		ev.mask = 0x3f;
	}
	ev.ut = 1;
	assert_int_equal(hvpmu_sv_add_event(r->sv, &ev), 0);
	r->a = hvpmu_machine_activity(r->m, 0);
	r->cls = hvpmu_machine_class(r->m, hvpmu_sparc_decode(ADD, 0, &d));
	assert_true(r->cls >= 0);
}

static void rig_fini(struct rig *r)
{
	hvpmu_sv_destroy(r->sv);
	hvpmu_hv_destroy(r->hv);
	hvpmu_machine_destroy(r->m);
}

static void retire(struct rig *r, uint64_t n)
{
	r->a->icount[r->cls] += n;
	r->a->bound += n;
	assert_int_equal(hvpmu_machine_sync(r->m, 0, NULL, NULL), 0);
	assert_int_equal(hvpmu_machine_add_cycles(r->m, 0, HVPMU_MODE_USER, 7), 0);
}

static struct hvpmu_sv_count count(struct rig *r)
{
	struct hvpmu_sv_count c;

	assert_int_equal(hvpmu_sv_read(r->sv, 0, &c), 0);
	return c;
}

static void fold_case(enum hvpmu_platform p, const char *name)
{
	struct rig r;
	struct hvpmu_sv_count c;

	rig_init(&r, p);
	assert_string_equal(r.sv->ops->name, name);
	assert_int_equal(hvpmu_sv_fold(r.sv, 0), 0); /* not running: nothing */
	assert_int_equal(hvpmu_sv_fold(r.sv, r.sv->nstrands), HVPMU_ERANGE);
	assert_int_equal(hvpmu_sv_start_strand(r.sv, 0), 0);
	retire(&r, 20);
	assert_int_equal(hvpmu_sv_fold(r.sv, 0), 0);
	c = count(&r);
	assert_int_equal(c.raw, 20);
	assert_int_equal(c.overflows, 0);
	assert_true(c.running > 0);
	assert_int_equal(c.enabled, c.running);
	/* wrap between two folds: 30 + 30 more crosses 2^32 */
	retire(&r, 30);
	retire(&r, 30);
	assert_int_equal(hvpmu_sv_fold(r.sv, 0), 0);
	c = count(&r);
	assert_int_equal(c.raw, 80);
	assert_int_equal(c.overflows, 1);
	/* counting went on: the stop folds the rest */
	retire(&r, 5);
	assert_int_equal(hvpmu_sv_stop_strand(r.sv, 0), 0);
	c = count(&r);
	assert_int_equal(c.raw, 85);
	assert_int_equal(c.overflows, 1);
	assert_int_equal(c.enabled, c.running);
	assert_true(c.running > 0 && c.running <= hvpmu_machine_tick(r.m, 0));
	rig_fini(&r);
}

static void test_fold_t4(void **state)
{
	(void)state;
	fold_case(HVPMU_PLATFORM_T4, "t4");
}

static void test_fold_t1(void **state)
{
	(void)state;
	fold_case(HVPMU_PLATFORM_T1, "t1");
}

/* The back-ends describe their PMUs: counters per strand. */
static void test_tables(void **state)
{
	(void)state;
	assert_int_equal(sv_pcbe_t4.npic, HVPMU_T4_NPIC);
	assert_int_equal(sv_pcbe_t1.npic, T1_NPIC);
	assert_non_null(sv_pcbe_t4.sample);
	assert_non_null(sv_pcbe_t1.sample);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_t4),
		cmocka_unit_test(test_fold_t1),
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
