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
		ev.config = HVPMU_SV_T1_PICH; /* Instr_cnt */
	} else {
		ev.config = HVPMU_SV_T4_CONFIG(3, 0x3f); /* TABLE 10-2: Instr_all */
	}
	ev.modes = HVPMU_SV_MODE_USER;
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

/*
 * Every entry point of the driver that makes hypercalls enters privileged
 * mode first (sv_enter_os), so they all work when called while the strand
 * runs the user program, as the plugin calls them; the hypervisor refuses
 * user-mode traps (hvpmu/sun4v.h).  The strand is back in user mode after.
 */
static void check_user(struct rig *r, uint32_t strand)
{
	assert_int_equal(hvpmu_machine_mode(r->m, strand), HVPMU_MODE_USER);
	assert_int_equal(hvpmu_sv_last_status(r->sv), HV_EOK);
}

static void test_from_user_mode_t4(void **state)
{
	struct rig r;
	struct hvpmu_sv_count c;
	uint64_t counts[2];
	const unsigned sel[2] = { HVPMU_T4_DRAM_SEL_READS, HVPMU_T4_DRAM_SEL_WRITES };

	(void)state;
	rig_init(&r, HVPMU_PLATFORM_T4);
	check_user(&r, 0);
	assert_int_equal(hvpmu_sv_start_strand(r.sv, 0), 0);
	check_user(&r, 0);
	retire(&r, 20);
	assert_int_equal(hvpmu_sv_fold(r.sv, 0), 0);
	check_user(&r, 0);
	assert_int_equal(hvpmu_sv_uncore_program(r.sv, 0, 0, sel), 0); /* mcu0 */
	check_user(&r, 0);
	assert_int_equal(hvpmu_sv_uncore_read(r.sv, 0, 0, counts), 0);
	check_user(&r, 0);
	assert_int_equal(hvpmu_sv_stop_strand(r.sv, 0), 0);
	check_user(&r, 0);
	c = count(&r);
	assert_int_equal(c.supported, 1);
	assert_int_equal(c.raw, 20);
	rig_fini(&r);
}

#define MMU_BUF UINT64_C(0x100000)

static void test_from_user_mode_t1(void **state)
{
	struct rig r;
	struct hvpmu_sv_count c;
	uint64_t counts[2], words[HVPMU_SV_MMUSTAT_WORDS];

	(void)state;
	rig_init(&r, HVPMU_PLATFORM_T1);
	assert_int_equal(hvpmu_sv_start_strand(r.sv, 0), 0);
	check_user(&r, 0);
	retire(&r, 20);
	/* jbus0 and dram0-3 */
	assert_int_equal(hvpmu_sv_uncore_count(hvpmu_sv_backend_of(HVPMU_PLATFORM_T1), &r.md), 5);
	for (unsigned unit = 0; unit < 5; unit++) {
		const unsigned code[2] = { 0, 1 };

		assert_int_equal(hvpmu_sv_uncore_program(r.sv, 0, unit, code), 0);
		check_user(&r, 0);
		assert_int_equal(hvpmu_sv_uncore_read(r.sv, 0, unit, counts), 0);
		check_user(&r, 0);
	}
	assert_int_equal(hvpmu_sv_mmustat_start(r.sv, 0, MMU_BUF), 0);
	check_user(&r, 0);
	assert_int_equal(hvpmu_sv_mmustat_read(r.sv, 0, words), 0);
	check_user(&r, 0);
	assert_int_equal(hvpmu_sv_mmustat_stop(r.sv, 0), 0);
	check_user(&r, 0);
	assert_int_equal(hvpmu_sv_stop_strand(r.sv, 0), 0);
	check_user(&r, 0);
	c = count(&r);
	assert_int_equal(c.raw, 20);
	rig_fini(&r);
}

/* A software trap of the program that reaches the guest OS is not the
 * driver's: it does not count it as a tick or an overflow. */
static void test_ignores_other_traps(void **state)
{
	struct rig r;
	struct hvpmu_hv_regs regs = { { 0, 0, 0, 0, 0, HV_FAST_VT_GET_PERFREG } };
	struct sv_strand before;

	(void)state;
	rig_init(&r, HVPMU_PLATFORM_T4);
	assert_int_equal(hvpmu_sv_start_strand(r.sv, 0), 0);
	before = r.sv->st[0];
	assert_int_equal(hvpmu_hv_trap(r.hv, 0, HV_FAST_TRAP, &regs), HVPMU_ETRAP); /* user: tt 0x100 */
	assert_int_equal(r.sv->st[0].next_tick, before.next_tick);
	assert_int_equal(r.sv->st[0].cur_group, before.cur_group);
	assert_int_equal(r.sv->st[0].ovf[0], before.ovf[0]);
	rig_fini(&r);
}

/* Two guests: the driver of guest 0 acts only on guest 0's strands.  A
 * strand of guest 1 is HVPMU_ERANGE for every entry point, and none of
 * them makes a hypercall on it (which the hypervisor would take as guest
 * 1's: negotiating its API group, programming its PCRs). */
static void two_guests(struct hvpmu_md *md)
{
	md->nguests = 2;
	md->guests[0].nstrands = hvpmu_md_nstrands(md) / 2;
	md->guests[1] = md->guests[0];
	md->guests[1].first_strand = md->guests[0].nstrands;
	md->guests[1].mem[0].base = md->guests[0].mem[0].size;
}

static void test_strand_ownership(void **state)
{
	static const enum hvpmu_platform plats[] = { HVPMU_PLATFORM_T4, HVPMU_PLATFORM_T1 };

	(void)state;
	for (unsigned k = 0; k < sizeof plats / sizeof plats[0]; k++) {
		struct hvpmu_md md;
		struct hvpmu_machine *m;
		struct hvpmu_hv *hv;
		struct hvpmu_sv *sv;
		struct hvpmu_sv_event ev;
		uint64_t counts[2], words[HVPMU_SV_MMUSTAT_WORDS], raw, running, v;
		uint32_t other;

		assert_int_equal(hvpmu_md_default(plats[k], &md), 0);
		two_guests(&md);
		other = md.guests[1].first_strand;
		assert_int_equal(hvpmu_machine_create(&md, &m), 0);
		assert_int_equal(hvpmu_hv_create(m, &hv), 0);
		assert_int_equal(hvpmu_sv_create(hv, 0, NULL, &sv), 0);
		memset(&ev, 0, sizeof ev);
		ev.config = plats[k] == HVPMU_PLATFORM_T4 ? HVPMU_SV_T4_CONFIG(3, 0x3f) : HVPMU_SV_T1_PICH;
		ev.modes = HVPMU_SV_MODE_USER | HVPMU_SV_MODE_HYPER; /* the T1 PCR has no HT (§2.1) */
		assert_int_equal(hvpmu_sv_add_event(sv, &ev), plats[k] == HVPMU_PLATFORM_T1 ? HVPMU_EINVAL : 0);
		ev.modes = HVPMU_SV_MODE_USER;
		if (plats[k] == HVPMU_PLATFORM_T1)
			assert_int_equal(hvpmu_sv_add_event(sv, &ev), 0);
		assert_int_equal(hvpmu_sv_start_strand(sv, other), HVPMU_ERANGE);
		assert_int_equal(hvpmu_sv_fold(sv, other), HVPMU_ERANGE);
		assert_int_equal(hvpmu_sv_stop_strand(sv, other), HVPMU_ERANGE);
		assert_int_equal(hvpmu_sv_read_strand(sv, other, 0, &raw, &running), HVPMU_ERANGE);
		for (unsigned dev = 0; dev < 2; dev++) { /* t4: mcu0, mcu1; t1: jbus0, dram0 */
			const unsigned code[2] = { 0, 1 };

			assert_int_equal(hvpmu_sv_uncore_program(sv, other, dev, code), HVPMU_ERANGE);
			assert_int_equal(hvpmu_sv_uncore_read(sv, other, dev, counts), HVPMU_ERANGE);
		}
		assert_int_equal(hvpmu_sv_mmustat_start(sv, other, MMU_BUF), HVPMU_ERANGE);
		assert_int_equal(hvpmu_sv_mmustat_read(sv, other, words), HVPMU_ERANGE);
		assert_int_equal(hvpmu_sv_mmustat_stop(sv, other), HVPMU_ERANGE);
		/* guest 1 negotiated nothing, its strand's PMU is untouched
		 * (read as guest 1's OS would: after negotiating) */
		assert_int_equal(hvpmu_machine_set_mode(m, other, HVPMU_MODE_PRIV), 0);
		assert_int_equal(hvpmu_hv_get_version(hv, other, plats[k] == HVPMU_PLATFORM_T4 ? HV_GRP_VT_CPU
											  : HV_GRP_NIAGARA,
						      NULL, NULL),
				 HV_EINVAL);
		assert_int_equal(hvpmu_machine_mode(m, other), HVPMU_MODE_PRIV);
		if (plats[k] == HVPMU_PLATFORM_T4) {
			assert_int_equal(hvpmu_hv_set_version(hv, other, HV_GRP_VT_CPU, 1, 0, NULL), HV_EOK);
			for (uint64_t p = 0; p < HV_VT_PERFREG_NPCR; p++) {
				assert_int_equal(hvpmu_hv_vt_get_perfreg(hv, other, p, &v), HV_EOK);
				assert_int_equal(v, 0);
			}
		} else {
			assert_int_equal(hvpmu_machine_rdasr(m, other, HVPMU_T1_ASR_PCR, &v), 0);
			assert_int_equal(v, 0);
		}
		/* its own strands work */
		assert_int_equal(hvpmu_sv_start_strand(sv, other - 1), 0);
		assert_int_equal(hvpmu_sv_stop_strand(sv, other - 1), 0);
		assert_int_equal(hvpmu_sv_read_strand(sv, other - 1, 0, &raw, &running), 0);
		hvpmu_sv_destroy(sv);
		hvpmu_hv_destroy(hv);
		hvpmu_machine_destroy(m);
	}
}

/* A tool's default platform is the first back-end whose platform offers
 * its service: MMU statistics on the T1 (the T4's hypervisor refuses
 * them), the Hub MD counters on the Origin. */
static void test_platform_with_service(void **state)
{
	(void)state;
	assert_string_equal(hvpmu_sv_platform_with(HVPMU_SV_SERVICE_MMUSTAT), "t1");
	assert_string_equal(hvpmu_sv_platform_with(HVPMU_SV_SERVICE_MDPERF), "origin");
	assert_null(hvpmu_sv_platform_with(0));
	for (unsigned i = 0; hvpmu_sv_backend_at(i); i++) {
		const struct hvpmu_sv_backend_desc *d = hvpmu_sv_backend_desc(hvpmu_sv_backend_at(i));

		assert_int_equal(d->services & ~(unsigned)(HVPMU_SV_SERVICE_MMUSTAT | HVPMU_SV_SERVICE_MDPERF), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_t4),
		cmocka_unit_test(test_fold_t1),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_from_user_mode_t4),
		cmocka_unit_test(test_from_user_mode_t1),
		cmocka_unit_test(test_ignores_other_traps),
		cmocka_unit_test(test_strand_ownership),
		cmocka_unit_test(test_platform_with_service),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
