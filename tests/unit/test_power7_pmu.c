/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_power7_pmu.c - unit tests for the POWER7 core performance monitor
 * (src/pmu/power7_pmu.c, include/hvpmu/power7_pmu.h, docs/power7-pmu.md),
 * driven through hvpmu_power7_* with a hand-made class table and feeds.
 *
 * The client sequence is Linux's for a two-event group {cycles,
 * instructions} (perf's generic events: power7_generic_events PM_CYC 0x1e
 * and PM_INST_CMPL 0x2): what power7_compute_mmcr computes (both events
 * may use any of PMC1-4: PMC1 and PMC2; MMCR1 PMC1SEL 0x1e, PMC2SEL 0x02;
 * MMCR0 PMC1CE | PMCjCE; MMCRA SDAR_DCACHE_MISS | SDAR_ERAT_MISS), then
 * core-book3s.c's power_pmu_enable (MMCRA without SAMPLE_ENABLE, MMCR1,
 * MMCR0 with FC and without the CE bits, the PMCs, then MMCR0 | PMXE |
 * FCECE), power_pmu_disable (MMCR0 | FC, PMAO cleared) and
 * perf_event_interrupt (the PMCs read, an overflowed one rewritten,
 * MMCR0 rewritten without PMAO).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/pmu.h>
#include <hvpmu/power7_pmu.h>

enum { C_LD, C_ADD, C_FP, C_ST, C_BR, C_B, C_STCX };

static uint32_t class_flags[HVPMU_MAX_ICLASS] = {
	[C_LD] = HVPMU_IC_LOAD,
	[C_ADD] = HVPMU_IC_OTHER,
	[C_FP] = HVPMU_IC_FP,
	[C_ST] = HVPMU_IC_STORE,
	[C_BR] = HVPMU_IC_BRANCH | HVPMU_IC_CTI_COND,
	[C_B] = HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS,
	[C_STCX] = HVPMU_IC_STORE | HVPMU_IC_STORE_COND,
};

#define MU HVPMU_MODE_USER
#define MP HVPMU_MODE_PRIV
#define MH HVPMU_MODE_HYPER
#define NEXT_PC UINT64_C(0x10000400)

/* Linux reg.h's values, spelled out: the test checks the header's fields
 * against them. */
#define L_MMCR0_FC 0x80000000u
#define L_MMCR0_FCS 0x40000000u
#define L_MMCR0_FCP 0x20000000u
#define L_MMCR0_FCM0 0x08000000u
#define L_MMCR0_PMXE 0x04000000u
#define L_MMCR0_FCECE 0x02000000u
#define L_MMCR0_PMC1CE 0x00008000u
#define L_MMCR0_PMCjCE 0x00004000u
#define L_MMCR0_PMAO 0x00000080u
#define L_MMCR0_FC56 0x00000010u
#define L_MMCR0_FCHV 0x00000001u
#define L_MMCRA_SDAR_DCACHE_MISS 0x40000000u
#define L_MMCRA_SDAR_ERAT_MISS 0x20000000u
#define L_MMCRA_SAMPLE_ENABLE 0x00000001u

struct feed {
	uint64_t dclass[HVPMU_MAX_ICLASS];
	struct hvpmu_pmu_feed f;
};

static void feed_init(struct feed *fd, enum hvpmu_mode mode)
{
	memset(fd, 0, sizeof *fd);
	fd->f.dclass = fd->dclass;
	fd->f.mode = mode;
	fd->f.next_pc = NEXT_PC;
}

static void add_class(struct feed *fd, unsigned cls, uint64_t n)
{
	fd->dclass[cls] += n;
	fd->f.dclass_nonzero |= UINT64_C(1) << cls;
}

/* `n` instructions (n/2 adds, n - n/2 loads) and `cyc` cycles in `mode`. */
static struct hvpmu_power7_feed_result run(struct hvpmu_power7_pmu *p, enum hvpmu_mode mode, uint64_t n,
					   uint64_t cyc)
{
	struct hvpmu_power7_feed_result r;
	struct feed fd;

	feed_init(&fd, mode);
	add_class(&fd, C_ADD, n / 2);
	add_class(&fd, C_LD, n - n / 2);
	fd.f.dcycles[mode] = cyc;
	hvpmu_power7_pmu_feed(p, &fd.f, &r);
	return r;
}

static struct hvpmu_power7_pmu *new_pmu(void)
{
	struct hvpmu_power7_pmu *p = hvpmu_power7_pmu_create(class_flags);

	assert_non_null(p);
	return p;
}

static void mtspr(struct hvpmu_power7_pmu *p, unsigned spr, uint64_t v)
{
	assert_int_equal(hvpmu_power7_write(p, MP, spr, v), HVPMU_OK);
}

static uint64_t mfspr(struct hvpmu_power7_pmu *p, unsigned spr)
{
	uint64_t v = ~UINT64_C(0);

	assert_int_equal(hvpmu_power7_read(p, MP, spr, &v), HVPMU_OK);
	return v;
}

#define PMC(n) HVPMU_P7_SPR_PMC(n)

/* The MMCRs power7_compute_mmcr gives {PM_CYC, PM_INST_CMPL}. */
struct mmcr {
	uint64_t mmcr0, mmcr1, mmcra;
};

static struct mmcr group_cycles_instructions(void)
{
	struct mmcr m;

	/* PMC1: PM_CYC (unit 0, PMCSEL 0x1e), PMC2: PM_INST_CMPL (PMCSEL 0x02) */
	m.mmcr1 = UINT64_C(0x1e) << 24 | UINT64_C(0x02) << 16;
	m.mmcr0 = L_MMCR0_PMC1CE | L_MMCR0_PMCjCE;
	m.mmcra = L_MMCRA_SDAR_DCACHE_MISS | L_MMCRA_SDAR_ERAT_MISS;
	return m;
}

/* core-book3s.c power_pmu_enable: the MMCRs frozen, the PMCs, then the
 * unfreeze with PMXE and FCECE.  `freeze`: the exclude_* bits (FCP,
 * FCS, FCHV); `pmc1`, `pmc2`: the PMCs' start values. */
static uint64_t linux_enable(struct hvpmu_power7_pmu *p, const struct mmcr *m, uint64_t freeze, uint32_t pmc1,
			     uint32_t pmc2)
{
	uint64_t mmcr0 = m->mmcr0 | freeze;

	mtspr(p, HVPMU_P7_SPR_MMCRA, m->mmcra & ~(uint64_t)L_MMCRA_SAMPLE_ENABLE);
	mtspr(p, HVPMU_P7_SPR_MMCR1, m->mmcr1);
	mtspr(p, HVPMU_P7_SPR_MMCR0, (mmcr0 & ~(uint64_t)(L_MMCR0_PMC1CE | L_MMCR0_PMCjCE)) | L_MMCR0_FC);
	mtspr(p, PMC(1), pmc1);
	mtspr(p, PMC(2), pmc2);
	mmcr0 |= L_MMCR0_PMXE | L_MMCR0_FCECE;
	mtspr(p, HVPMU_P7_SPR_MMCR0, mmcr0); /* write_mmcr0 */
	return mmcr0;
}

/* core-book3s.c power_pmu_disable: FC set, PMAO cleared. */
static void linux_disable(struct hvpmu_power7_pmu *p)
{
	uint64_t v = mfspr(p, HVPMU_P7_SPR_MMCR0);

	mtspr(p, HVPMU_P7_SPR_MMCR0, (v | L_MMCR0_FC) & ~(uint64_t)L_MMCR0_PMAO);
}

/* The header's fields are reg.h's and power7-pmu.c's bits. */
static void test_layout(void **state)
{
	(void)state;
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, FC), L_MMCR0_FC);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, FCS), L_MMCR0_FCS);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, FCP), L_MMCR0_FCP);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, FCM1), 0x10000000u);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, FCM0), L_MMCR0_FCM0);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, PMAE), L_MMCR0_PMXE);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, FCECE), L_MMCR0_FCECE);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, TBEE), 0x00400000u);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, PMC1CE), L_MMCR0_PMC1CE);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, PMCJCE), L_MMCR0_PMCjCE);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, TRIGGER), 0x00002000u);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, PMAO), L_MMCR0_PMAO);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, FC56), L_MMCR0_FC56);
	assert_int_equal(HVPMU_FMASK(P7_MMCR0, FCH), L_MMCR0_FCHV);
	assert_int_equal(HVPMU_FMASK(P7_MMCRA, SDAR_DCACHE_MISS), L_MMCRA_SDAR_DCACHE_MISS);
	assert_int_equal(HVPMU_FMASK(P7_MMCRA, SAMPLE_ENABLE), L_MMCRA_SAMPLE_ENABLE);
	/* power7-pmu.c: MMCR1_TTM0SEL_SH 60 .. TTM3SEL 48, L2SEL 45, COMBINE 35..32, PMCnSEL 24..0 */
	assert_int_equal(HVPMU_P7_MMCR1_TTMSEL_SHIFT(1), 60);
	assert_int_equal(HVPMU_P7_MMCR1_TTMSEL_SHIFT(4), 48);
	assert_int_equal(P7_MMCR1_L2SEL_SHIFT, 45);
	assert_int_equal(HVPMU_P7_MMCR1_COMBINE_SHIFT(1), 35);
	assert_int_equal(HVPMU_P7_MMCR1_PMCSEL_SHIFT(2), 16);
	/* the event an MMCR1 selects: PM_LD_REF_L1 0xc880 on PMC3 (unit 0xc, combine, PMCSEL 0x80) */
	assert_int_equal(hvpmu_power7_mmcr1_event(UINT64_C(0xc) << 52 | UINT64_C(1) << 33 | 0x80 << 8, 3), 0x3c880);
	/* L2 events carry MMCR1's L2SEL: PM_L2_LD 0x16080 ... 0x26480 (L2SEL 4) */
	assert_int_equal(hvpmu_power7_mmcr1_event(UINT64_C(6) << 56 | UINT64_C(4) << 45 | 0x80 << 16, 2), 0x26480);
	assert_int_equal(hvpmu_power7_mmcr1_event(0, 1), 0);
	assert_int_equal(hvpmu_power7_mmcr1_event(UINT64_C(0x1e) << 24, 5), 0);
}

/* SPR numbers, widths, reserved bits and the privilege rules. */
static void test_registers(void **state)
{
	struct hvpmu_power7_pmu *p = new_pmu();
	uint64_t v = 0;

	(void)state;
	for (unsigned n = 1; n <= 6; n++)
		assert_int_equal(mfspr(p, PMC(n)), 0);
	assert_int_equal(mfspr(p, HVPMU_P7_SPR_MMCR0), 0);
	/* PMCs are 32 bits; MMCR0's 63:32 reserved; MMCR1 and MMCRA whole */
	mtspr(p, PMC(3), UINT64_C(0x123456789));
	assert_int_equal(mfspr(p, PMC(3)), 0x23456789);
	mtspr(p, HVPMU_P7_SPR_MMCR0, UINT64_C(0xffffffff00000080));
	assert_int_equal(mfspr(p, HVPMU_P7_SPR_MMCR0), 0x80);
	mtspr(p, HVPMU_P7_SPR_MMCR0, 0);
	mtspr(p, HVPMU_P7_SPR_MMCR1, UINT64_C(0xf000000300000000));
	assert_int_equal(mfspr(p, HVPMU_P7_SPR_MMCR1), UINT64_C(0xf000000300000000));
	/* problem state: the privileged numbers trap, the user aliases read */
	assert_int_equal(hvpmu_power7_read(p, MU, PMC(3), &v), HVPMU_ETRAP);
	assert_int_equal(hvpmu_power7_write(p, MU, HVPMU_P7_SPR_MMCR0, 0), HVPMU_ETRAP);
	assert_int_equal(hvpmu_power7_read(p, MU, PMC(3) - HVPMU_P7_SPR_USER_OFFSET, &v), HVPMU_OK);
	assert_int_equal(v, 0x23456789);
	assert_int_equal(hvpmu_power7_read(p, MU, 782, &v), HVPMU_OK); /* UMMCR1 */
	assert_int_equal(v, UINT64_C(0xf000000300000000));
	assert_int_equal(hvpmu_power7_write(p, MP, 771, 5), HVPMU_ETRAP); /* UPMC1: read-only */
	assert_int_equal(hvpmu_power7_read(p, MH, PMC(6), &v), HVPMU_OK);
	/* not ours */
	assert_int_equal(hvpmu_power7_read(p, MP, 1, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_power7_read(p, MP, 793, &v), HVPMU_ERANGE); /* PMC7: not on POWER7 */
	assert_int_equal(hvpmu_power7_read(p, MP, 764, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_power7_read(p, (enum hvpmu_mode)7, PMC(1), &v), HVPMU_EINVAL);
	/* SIAR and SDAR: no sampling */
	mtspr(p, HVPMU_P7_SPR_SIAR, 0x1234);
	assert_int_equal(mfspr(p, HVPMU_P7_SPR_SIAR), 0);
	hvpmu_power7_pmu_destroy(p);
	assert_null(hvpmu_power7_pmu_create(NULL));
}

/* The group counts through Linux's enable; PMC5/6 count instructions and
 * cycles; power_pmu_disable's FC freezes everything. */
static void test_linux_group_and_freeze(void **state)
{
	struct hvpmu_power7_pmu *p = new_pmu();
	struct mmcr m = group_cycles_instructions();
	uint64_t mmcr0;

	(void)state;
	linux_disable(p); /* perf disables the PMU before it adds the group */
	assert_int_equal(mfspr(p, HVPMU_P7_SPR_MMCR0), L_MMCR0_FC);
	run(p, MU, 100, 300); /* frozen: nothing */
	for (unsigned n = 1; n <= 6; n++)
		assert_int_equal(hvpmu_power7_pmu_peek_pmc(p, n), 0);
	mmcr0 = linux_enable(p, &m, 0, 0, 0);
	assert_int_equal(mmcr0, L_MMCR0_PMC1CE | L_MMCR0_PMCjCE | L_MMCR0_PMXE | L_MMCR0_FCECE);
	run(p, MU, 1000, 2500);
	assert_int_equal(mfspr(p, PMC(1)), 2500); /* PM_CYC */
	assert_int_equal(mfspr(p, PMC(2)), 1000); /* PM_INST_CMPL */
	assert_int_equal(mfspr(p, PMC(3)), 0);
	assert_int_equal(mfspr(p, PMC(5)), 1000); /* PM_RUN_INST_CMPL */
	assert_int_equal(mfspr(p, PMC(6)), 2500); /* PM_RUN_CYC */
	/* privileged and hypervisor state count too, without exclude_* */
	run(p, MP, 10, 20);
	run(p, MH, 1, 2);
	assert_int_equal(mfspr(p, PMC(2)), 1011);
	assert_int_equal(mfspr(p, PMC(1)), 2522);
	/* FC: power_pmu_disable freezes all six */
	linux_disable(p);
	run(p, MU, 500, 700);
	assert_int_equal(mfspr(p, PMC(1)), 2522);
	assert_int_equal(mfspr(p, PMC(2)), 1011);
	assert_int_equal(mfspr(p, PMC(5)), 1011);
	assert_int_equal(mfspr(p, PMC(6)), 2522);
	/* FC56 freezes PMC5/6 only */
	mtspr(p, HVPMU_P7_SPR_MMCR0, mmcr0 | L_MMCR0_FC56);
	run(p, MU, 4, 8);
	assert_int_equal(mfspr(p, PMC(2)), 1015);
	assert_int_equal(mfspr(p, PMC(5)), 1011);
	/* FCM0: the model's MSR[PMM] is 0, so everything freezes */
	mtspr(p, HVPMU_P7_SPR_MMCR0, mmcr0 | L_MMCR0_FCM0);
	run(p, MU, 4, 8);
	assert_int_equal(mfspr(p, PMC(2)), 1015);
	/* power7_disable_pmc: PMC2's selector cleared, it counts nothing */
	mtspr(p, HVPMU_P7_SPR_MMCR1, m.mmcr1 & ~(UINT64_C(0xff) << 16));
	mtspr(p, HVPMU_P7_SPR_MMCR0, mmcr0);
	run(p, MU, 4, 8);
	assert_int_equal(mfspr(p, PMC(2)), 1015);
	assert_int_equal(mfspr(p, PMC(1)), 2538); /* + 8 under FC56, + 8 now */
	hvpmu_power7_pmu_destroy(p);
}

/* exclude_user (FCP): a user program's events are not counted; the
 * kernel's are.  exclude_kernel (FCS) and exclude_hv (FCHV) likewise. */
static void test_state_freeze(void **state)
{
	struct hvpmu_power7_pmu *p = new_pmu();
	struct mmcr m = group_cycles_instructions();

	(void)state;
	linux_disable(p);
	linux_enable(p, &m, L_MMCR0_FCP, 0, 0);
	run(p, MU, 1000, 3000);
	assert_int_equal(mfspr(p, PMC(1)), 0);
	assert_int_equal(mfspr(p, PMC(2)), 0);
	assert_int_equal(mfspr(p, PMC(5)), 0);
	run(p, MP, 7, 9);
	run(p, MH, 3, 4);
	assert_int_equal(mfspr(p, PMC(2)), 10);
	assert_int_equal(mfspr(p, PMC(1)), 13);
	/* cycles split by mode in one feed: only the counted states' */
	{
		struct hvpmu_power7_feed_result r;
		struct feed fd;

		feed_init(&fd, MU);
		fd.f.dcycles[MU] = 100;
		fd.f.dcycles[MP] = 5;
		hvpmu_power7_pmu_feed(p, &fd.f, &r);
		assert_int_equal(mfspr(p, PMC(1)), 18);
	}
	linux_disable(p);
	linux_enable(p, &m, L_MMCR0_FCS | L_MMCR0_FCHV, 0, 0);
	run(p, MU, 1000, 3000);
	run(p, MP, 7, 9);
	run(p, MH, 3, 4);
	assert_int_equal(mfspr(p, PMC(2)), 1000);
	assert_int_equal(mfspr(p, PMC(1)), 3000);
	linux_disable(p);
	linux_enable(p, &m, L_MMCR0_FCS, 0, 0);
	run(p, MH, 3, 4);
	assert_int_equal(mfspr(p, PMC(2)), 3); /* FCS: MSR[HV PR] = 0b00 only */
	hvpmu_power7_pmu_destroy(p);
}

/* The overflow exception: PMC2 set 10 events below bit 31 (a sampling
 * period of 10, power_pmu_enable's 0x80000000 - left); its crossing sets
 * PMAO, clears PMAE and (FCECE) freezes; perf_event_interrupt's rewrite of
 * MMCR0 ends the request. */
static void test_overflow_exception(void **state)
{
	struct hvpmu_power7_pmu *p = new_pmu();
	struct mmcr m = group_cycles_instructions();
	struct hvpmu_power7_feed_result r;
	uint64_t mmcr0;

	(void)state;
	linux_disable(p);
	mmcr0 = linux_enable(p, &m, 0, 0, 0x80000000u - 10);
	assert_int_equal(hvpmu_power7_pmu_headroom(p, 1), 10);
	assert_int_equal(hvpmu_power7_pmu_headroom(p, 4), 10);
	r = run(p, MU, 9, 9);
	assert_int_equal(r.rise_mask | r.alert_mask | r.irq_mask, 0);
	assert_int_equal(hvpmu_power7_pmu_headroom(p, 1), 1);
	r = run(p, MU, 5, 5); /* crosses at the 10th: counting freezes at the feed's end */
	assert_int_equal(r.rise_mask, 1u << 1);
	assert_int_equal(r.alert_mask, 1u << 1);
	assert_int_equal(r.irq_mask, 1u << 1);
	assert_int_equal(r.tpc, NEXT_PC);
	assert_int_equal(mfspr(p, PMC(2)), 0x80000004u);
	assert_int_equal(mfspr(p, HVPMU_P7_SPR_MMCR0),
			 (mmcr0 & ~(uint64_t)L_MMCR0_PMXE) | L_MMCR0_PMAO | L_MMCR0_FC);
	/* frozen (FCECE set FC); the request stays while PMAO is 1 */
	assert_int_equal(hvpmu_power7_pmu_headroom(p, 1), 1);
	r = run(p, MU, 50, 50);
	assert_int_equal(r.irq_mask, 1u << 1);
	assert_int_equal(mfspr(p, PMC(2)), 0x80000004u);
	/* perf_event_interrupt: PMC2 overflowed ((int)val < 0): rewritten for
	 * the next period; then write_mmcr0(cpuhw->mmcr.mmcr0) */
	assert_true((int32_t)(uint32_t)mfspr(p, PMC(2)) < 0);
	assert_false((int32_t)(uint32_t)mfspr(p, PMC(1)) < 0);
	mtspr(p, PMC(2), 0x80000000u - 10);
	mtspr(p, HVPMU_P7_SPR_MMCR0, mmcr0);
	r = run(p, MU, 4, 4);
	assert_int_equal(r.irq_mask, 0);
	assert_int_equal(mfspr(p, PMC(2)), 0x80000000u - 6);
	/* PMCjCE off: PMC2's crossing is no condition: it counts on, no alert */
	mtspr(p, HVPMU_P7_SPR_MMCR0, mmcr0 & ~(uint64_t)L_MMCR0_PMCjCE);
	r = run(p, MU, 10, 10);
	assert_int_equal(r.rise_mask, 1u << 1);
	assert_int_equal(r.alert_mask | r.irq_mask, 0);
	assert_int_equal(mfspr(p, PMC(2)), 0x80000000u + 4);
	/* PMAE without FCECE: the alert, counting goes on */
	mtspr(p, PMC(5), 0xfffffff0u);
	mtspr(p, PMC(6), 0x7ffffffeu);
	mtspr(p, HVPMU_P7_SPR_MMCR0, L_MMCR0_PMCjCE | L_MMCR0_PMXE);
	r = run(p, MU, 4, 4);
	assert_int_equal(r.rise_mask, 1u << 5); /* PMC6 (PMC5 is past bit 31 already) */
	assert_int_equal(r.irq_mask, 1u << 5);
	assert_int_equal(mfspr(p, PMC(6)), 0x80000002u);
	assert_int_equal(mfspr(p, HVPMU_P7_SPR_MMCR0), L_MMCR0_PMCjCE | L_MMCR0_PMAO);
	r = run(p, MU, 16, 16); /* PMC5 wraps: no rise of bit 31 */
	assert_int_equal(mfspr(p, PMC(5)), 4);
	assert_int_equal(r.rise_mask, 0);
	assert_int_equal(r.irq_mask, 1u << 5);
	/* PMAO cleared: no request; set by software: the request again */
	mtspr(p, HVPMU_P7_SPR_MMCR0, 0);
	assert_int_equal(run(p, MU, 1, 1).irq_mask, 0);
	mtspr(p, HVPMU_P7_SPR_MMCR0, L_MMCR0_PMAO);
	assert_int_equal(run(p, MU, 1, 1).irq_mask, 1u << 5);
	hvpmu_power7_pmu_destroy(p);
}

/* Events of PMC1-4 from the table, exact by class. */
static void test_events(void **state)
{
	struct hvpmu_power7_pmu *p = new_pmu();
	struct hvpmu_power7_feed_result r;
	struct feed fd;

	(void)state;
	/* PMC1 PM_LD_REF_L1 (0xc880: unit 0xc, combine), PMC2 PM_ST_FIN (0x200f0),
	 * PMC3 PM_INST_CMPL (0x2), PMC4 PM_BR_MPRED (0x400f6) */
	mtspr(p, HVPMU_P7_SPR_MMCR1, UINT64_C(0xc) << 60 | UINT64_C(1) << 35 | UINT64_C(0x80) << 24 |
					     UINT64_C(0xf0) << 16 | UINT64_C(0x02) << 8 | 0xf6);
	feed_init(&fd, MU);
	add_class(&fd, C_LD, 7);
	add_class(&fd, C_ST, 5);
	add_class(&fd, C_STCX, 1);
	add_class(&fd, C_BR, 3);
	add_class(&fd, C_B, 2);
	add_class(&fd, C_FP, 4);
	fd.f.dmispred[HVPMU_MISPRED_DIR] = 2;
	fd.f.dtaken_cond = 1;
	hvpmu_power7_pmu_feed(p, &fd.f, &r);
	assert_int_equal(mfspr(p, PMC(1)), 7);
	assert_int_equal(mfspr(p, PMC(2)), 6);
	assert_int_equal(mfspr(p, PMC(3)), 22);
	assert_int_equal(mfspr(p, PMC(4)), 2);
	/* PMC1 PM_BRU_FIN (0x10068), PMC2 PM_BR_TAKEN (0x20004), PMC3 PM_DTLB_MISS
	 * (0x300fc: not fed), PMC4 PM_LD_MISS_L1 (0x400f0) */
	mtspr(p, HVPMU_P7_SPR_MMCR1, UINT64_C(0x68) << 24 | UINT64_C(0x04) << 16 | UINT64_C(0xfc) << 8 | 0xf0);
	for (unsigned n = 1; n <= 4; n++)
		mtspr(p, PMC(n), 0);
	fd.f.dmev[HVPMU_MEV_DC_MISS_L2L3] = 3;
	fd.f.dmev[HVPMU_MEV_DC_MISS_MEM] = 1;
	hvpmu_power7_pmu_feed(p, &fd.f, &r);
	assert_int_equal(mfspr(p, PMC(1)), 5);
	assert_int_equal(mfspr(p, PMC(2)), 3);
	assert_int_equal(mfspr(p, PMC(3)), 0);
	assert_int_equal(mfspr(p, PMC(4)), 4);
	/* PM_ST_FIN is PMC2's: on PMC1 the same selector is another event (not modeled) */
	assert_null(hvpmu_power7_event_on_pmc(0x100f0, 1));
	assert_non_null(hvpmu_power7_event_on_pmc(0x200f0, 2));
	/* PMC5/6 have their fixed events only */
	assert_non_null(hvpmu_power7_event_on_pmc(0x500fa, 5));
	assert_null(hvpmu_power7_event_on_pmc(0x1e, 5));
	assert_null(hvpmu_power7_event_on_pmc(0x1e, 7));
	hvpmu_power7_pmu_destroy(p);
}

/* The table: every power7-events-list.h event, each modeled or with why
 * not; Linux's generic and cache names. */
static void test_table(void **state)
{
	unsigned n = hvpmu_power7_nevents(), modeled = 0;

	(void)state;
	/* power7-events-list.h has 547 EVENT lines; + PMC5/6's fixed codes and
	 * the one cache code it does not name */
	assert_int_equal(n, 547 + 2 + 1);
	for (unsigned i = 0; i < n; i++) {
		const struct hvpmu_power7_event *e = hvpmu_power7_event_at(i);
		const char *d = hvpmu_power7_event_desc(e);

		assert_non_null(d);
		assert_true(strlen(d) > 10);
		assert_true(e->code <= HVPMU_P7_EV_MASK);
		modeled += e->src != HVPMU_P7_SRC_NONE;
	}
	assert_null(hvpmu_power7_event_at(n));
	assert_int_equal(modeled, 18);
	assert_int_equal(hvpmu_power7_event_named("PM_LD_REF_L1")->code, 0xc880);
	assert_int_equal(hvpmu_power7_event_named("PM_BRU_FIN")->src, HVPMU_P7_SRC_INSN);
	assert_int_equal(hvpmu_power7_event_named("PM_L2_LD")->code, 0x16080);
	assert_int_equal(hvpmu_power7_event_named("PM_L2_LD")->src, HVPMU_P7_SRC_NONE);
	assert_string_equal(hvpmu_power7_event_desc(hvpmu_power7_event_named("PM_MRK_BR_TAKEN")),
			    "marked-instruction sampling (MMCRA SAMPLE_ENABLE) is not modeled");
	assert_null(hvpmu_power7_event_named("PM_NOPE"));
	/* power7_generic_events */
	{
		static const struct { const char *nm; uint32_t code; } want[] = {
			{ "cycles", 0x1e }, { "instructions", 0x2 }, { "branches", 0x10068 },
			{ "branch-misses", 0x400f6 }, { "cache-misses", 0x400f0 },
			{ "L1-dcache-load-misses", 0x400f0 }, { "dTLB-load-misses", 0x300fc },
		};
		for (unsigned w = 0; w < sizeof want / sizeof want[0]; w++) {
			const struct hvpmu_power7_generic *g = NULL;

			for (unsigned i = 0; (g = hvpmu_power7_event_generic_at(i)); i++)
				if (strcmp(g->name, want[w].nm) == 0)
					break;
			assert_non_null(g);
			assert_int_equal(g->code, want[w].code);
		}
	}
}

/* power7_get_constraint / power_check_constraints / power7_compute_mmcr:
 * which events may share the PMU. */
static void test_constraints(void **state)
{
	uint64_t m, v, mmcr[3], alt[HVPMU_P7_MAX_ALT];
	unsigned hwc[6];
	struct mmcr want = group_cycles_instructions();

	(void)state;
	/* {cycles, instructions}: compute_mmcr's MMCRs, as the client test uses */
	{
		uint64_t c[2] = { 0x1e, 0x2 };

		assert_int_equal(hvpmu_power7_event_check_constraints(c, 2, 0), 0);
		assert_int_equal(c[0], 0x1e);
		assert_int_equal(hvpmu_power7_event_compute_mmcr(c, 2, hwc, mmcr), 0);
		assert_int_equal(hwc[0], 0);
		assert_int_equal(hwc[1], 1);
		assert_int_equal(mmcr[0], want.mmcr0);
		assert_int_equal(mmcr[1], want.mmcr1);
		assert_int_equal(mmcr[2], want.mmcra);
	}
	/* constraints: PMC2 direct, PMC1-4 count, the L2SEL field */
	assert_int_equal(hvpmu_power7_event_constraint(0x200f0, &m, &v), 0);
	assert_int_equal(m, 0x8008);
	assert_int_equal(v, 0x1004);
	assert_int_equal(hvpmu_power7_event_constraint(0x26480, &m, &v), 0);
	assert_int_equal(m, 0x78008);
	assert_int_equal(v, 0x41004);
	assert_int_equal(hvpmu_power7_event_constraint(0x600f4, &m, &v), 0);
	assert_int_equal(m, 0x800);
	assert_int_equal(v, 0x400);
	assert_int_equal(hvpmu_power7_event_constraint(0x500f0, &m, &v), -1); /* PMC5: its fixed event only */
	assert_int_equal(hvpmu_power7_event_constraint(0x700f0, &m, &v), -1);
	/* two events of PMC4 (branch-misses, L1-dcache-load-misses): not together */
	{
		uint64_t c[2] = { 0x400f6, 0x400f0 };

		assert_int_equal(hvpmu_power7_event_check_constraints(c, 2, 1), -1);
		assert_int_equal(hvpmu_power7_event_compute_mmcr(c, 2, hwc, mmcr), -1);
	}
	/* unit 6 events with different L2SEL: not together */
	{
		uint64_t c[2] = { 0x16080, 0x26480 };

		assert_int_equal(hvpmu_power7_event_check_constraints(c, 2, 0), -1);
	}
	/* five any-PMC events: four fit PMC1-4; per task, cycles and
	 * instructions move to PMC6 and PMC5 (PPMU_ONLY_COUNT_RUN) */
	{
		uint64_t c[6] = { 0x1e, 0x2, 0xc880, 0x1e, 0x2, 0 };

		assert_int_equal(hvpmu_power7_event_check_constraints(c, 5, 0), -1);
		assert_int_equal(hvpmu_power7_event_check_constraints(c, 5, 1), 0);
		assert_int_equal(hvpmu_power7_event_compute_mmcr(c, 5, hwc, mmcr), 0);
		c[5] = 0x10068; /* PMC1's PM_BRU_FIN: six events on six PMCs */
		assert_int_equal(hvpmu_power7_event_check_constraints(c, 6, 1), 0);
		assert_int_equal(hvpmu_power7_event_compute_mmcr(c, 6, hwc, mmcr), 0);
		assert_int_equal(mmcr[0], want.mmcr0);
	}
	/* alternatives */
	assert_int_equal(hvpmu_power7_event_alternatives(0x200f4, 0, alt), 2);
	assert_int_equal(alt[1], 0x600f4);
	assert_int_equal(hvpmu_power7_event_alternatives(0x1e, 1, alt), 2);
	assert_int_equal(alt[1], 0x600f4);
	assert_int_equal(hvpmu_power7_event_alternatives(0x1e, 0, alt), 1);
	assert_int_equal(hvpmu_power7_event_alternatives(0x20040, 0, alt), 2); /* 4x decode */
	assert_int_equal(alt[1], 0x10048);
}

/* Through the machine's interface (hvpmu/pmu.h): SPR accesses only. */
static void test_ops(void **state)
{
	const struct hvpmu_pmu_ops *o = &hvpmu_power7_pmu_ops;
	void *p = o->create(class_flags);
	uint64_t v = 0;

	(void)state;
	assert_non_null(p);
	assert_int_equal(o->npic, 6);
	assert_int_equal(o->reg_write(p, HVPMU_REG_SPR, HVPMU_P7_SPR_PMC(4), 0, MP, 77), HVPMU_OK);
	assert_int_equal(o->reg_read(p, HVPMU_REG_SPR, HVPMU_P7_SPR_PMC(4), 0, MP, &v), HVPMU_OK);
	assert_int_equal(v, 77);
	assert_int_equal(o->reg_read(p, HVPMU_REG_ASR, 0x10, 0, MP, &v), HVPMU_ERANGE);
	assert_int_equal(o->headroom(p, 1), UINT64_MAX);
	assert_int_equal(o->mem_watch(p), 0);
	o->destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_registers),
		cmocka_unit_test(test_linux_group_and_freeze),
		cmocka_unit_test(test_state_freeze),
		cmocka_unit_test(test_overflow_exception),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_constraints),
		cmocka_unit_test(test_ops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
