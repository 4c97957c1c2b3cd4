/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_r10k_pmu.c - unit tests for the MIPS R10000 performance counters
 * (src/pmu/r10k_pmu.c, include/hvpmu/r10k_pmu.h, docs/r10k-counters.md),
 * driven through hvpmu_r10k_* with a hand-made class table and feeds, then
 * on an Origin machine through the register bus, the IRIX personality's
 * counter interrupt and the guest driver (src/supervisor/sv_origin.c).
 *
 * R10000 User's Manual v2.0 §14.20: PerfControl EXL 0, K 1, S 2, U 3, IE 4,
 * Event 8:5 (Figure 14-22); 32-bit counters; IP[7] when bit 31 becomes one
 * with IE; counting continues.  §14.32: MFPC/MTPC/MFPS/MTPS, registers 0
 * and 1 only; function bit 0 = counter, bits 5:1 = number (binutils
 * mips-opc.c, Linux mipsregs.h).  Table 14-18 / IRIX r10k_counters(5):
 * events 0-15 on counter 0, 16-31 on counter 1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/r10k_pmu.h>

enum { C_LD, C_ADD, C_FP, C_ST, C_SC, C_BR, C_PREF, C_SYNC, C_LL };

static uint32_t class_flags[HVPMU_MAX_ICLASS] = {
	[C_LD] = HVPMU_IC_LOAD,
	[C_ADD] = HVPMU_IC_OTHER,
	[C_FP] = HVPMU_IC_FP,
	[C_ST] = HVPMU_IC_STORE,
	[C_SC] = HVPMU_IC_STORE | HVPMU_IC_STORE_COND,
	[C_BR] = HVPMU_IC_BRANCH | HVPMU_IC_CTI_COND,
	[C_PREF] = HVPMU_IC_OTHER | HVPMU_IC_PREFETCH,
	[C_SYNC] = HVPMU_IC_OTHER | HVPMU_IC_NTC,
	[C_LL] = HVPMU_IC_LOAD | HVPMU_IC_LOAD_LINKED,
};

#define MU HVPMU_MODE_USER
#define MP HVPMU_MODE_PRIV
#define NEXT_PC UINT64_C(0x120000400)
#define CTL(n) HVPMU_R10K_SEL_CONTROL(n)
#define CNT(n) HVPMU_R10K_SEL_COUNT(n)

static struct hvpmu_r10k_pmu *new_pmu(void)
{
	struct hvpmu_r10k_pmu *p = hvpmu_r10k_pmu_create(class_flags);

	assert_non_null(p);
	return p;
}

/* Control value: event field e, and the U K S EXL IE bits. */
static uint64_t ctl(unsigned e, int u, int k, int s, int exl, int ie)
{
	uint64_t v = HVPMU_FDP(0, R10K_PERFCTL, EVENT, e);

	v = HVPMU_FDP(v, R10K_PERFCTL, U, u);
	v = HVPMU_FDP(v, R10K_PERFCTL, K, k);
	v = HVPMU_FDP(v, R10K_PERFCTL, S, s);
	v = HVPMU_FDP(v, R10K_PERFCTL, EXL, exl);
	return HVPMU_FDP(v, R10K_PERFCTL, IE, ie);
}

static void wr(struct hvpmu_r10k_pmu *p, uint64_t sel, uint64_t v)
{
	assert_int_equal(hvpmu_r10k_write(p, MP, sel, v), HVPMU_OK);
}

static uint64_t rd(struct hvpmu_r10k_pmu *p, uint64_t sel)
{
	uint64_t v = ~UINT64_C(0);

	assert_int_equal(hvpmu_r10k_read(p, MP, sel, &v), HVPMU_OK);
	return v;
}

/* A feed of `n` instructions of class `cls` in `mode`, `cyc` cycles of it. */
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

static struct hvpmu_r10k_feed_result run(struct hvpmu_r10k_pmu *p, struct feed *fd)
{
	struct hvpmu_r10k_feed_result r;

	hvpmu_r10k_pmu_feed(p, &fd->f, &r);
	return r;
}

/* §14.20 / §14.32: reset state, field positions, reserved bits, widths,
 * privilege and the register numbers. */
static void test_registers(void **state)
{
	struct hvpmu_r10k_pmu *p = new_pmu();
	uint64_t v = 0;

	(void)state;
	for (unsigned n = 0; n < 2; n++) {
		assert_int_equal(rd(p, CTL(n)), 0);
		assert_int_equal(rd(p, CNT(n)), 0);
	}
	/* Figure 14-22: EXL 0, K 1, S 2, U 3, IE 4, Event 8:5 */
	assert_int_equal(ctl(0, 0, 0, 0, 1, 0), 0x01);
	assert_int_equal(ctl(0, 0, 1, 0, 0, 0), 0x02);
	assert_int_equal(ctl(0, 0, 0, 1, 0, 0), 0x04);
	assert_int_equal(ctl(0, 1, 0, 0, 0, 0), 0x08);
	assert_int_equal(ctl(0, 0, 0, 0, 0, 1), 0x10);
	assert_int_equal(ctl(15, 0, 0, 0, 0, 0), 0x1e0);
	/* reserved bits 31:9 (and 63:32) are dropped */
	wr(p, CTL(0), UINT64_C(0xffffffffffffffff));
	assert_int_equal(rd(p, CTL(0)), 0x1ff);
	assert_int_equal(hvpmu_r10k_pmu_peek_control(p, 0), 0x1ff);
	assert_int_equal(rd(p, CTL(1)), 0); /* the other register is untouched */
	assert_int_equal(rd(p, CNT(0)), 0);
	/* counters: 32 bits, the low half of the value */
	wr(p, CNT(1), UINT64_C(0x123456789abcdef0));
	assert_int_equal(rd(p, CNT(1)), 0x9abcdef0);
	assert_int_equal(rd(p, CNT(0)), 0);
	assert_int_equal(rd(p, CTL(1)), 0);
	/* function bits: MFPC $25 sel 1 = 0x...c801 has bits 5:0 = 0b000001 (binutils) */
	assert_int_equal(CNT(0), 1);
	assert_int_equal(CTL(1), 2);
	assert_int_equal(CNT(1), 3);
	/* §14.32: only registers 0 and 1 */
	assert_int_equal(hvpmu_r10k_read(p, MP, CTL(2), &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_r10k_write(p, MP, CNT(31), 1), HVPMU_ERANGE);
	assert_int_equal(hvpmu_r10k_read(p, MP, 0x40, &v), HVPMU_ERANGE);
	/* CP0 is privileged: user mode traps (Coprocessor Unusable) */
	assert_int_equal(hvpmu_r10k_read(p, MU, CNT(0), &v), HVPMU_ETRAP);
	assert_int_equal(hvpmu_r10k_write(p, MU, CTL(0), 0), HVPMU_ETRAP);
	assert_int_equal(hvpmu_r10k_read(p, HVPMU_MODE_HYPER, CNT(0), &v), HVPMU_OK);
	assert_int_equal(hvpmu_r10k_read(p, (enum hvpmu_mode)7, CNT(0), &v), HVPMU_EINVAL);
	hvpmu_r10k_pmu_destroy(p);
}

/* Table 14-18, IRIX names: the 32 events, their counters, the twins. */
static void test_event_table(void **state)
{
	(void)state;
	assert_string_equal(hvpmu_r10k_event_name(0), "Cycles");
	assert_string_equal(hvpmu_r10k_event_name(16), "Cycles");
	assert_string_equal(hvpmu_r10k_event_name(15), "Graduated_instructions");
	assert_string_equal(hvpmu_r10k_event_name(17), "Graduated_instructions");
	assert_string_equal(hvpmu_r10k_event_name(18), "Graduated_loads");
	assert_string_equal(hvpmu_r10k_event_name(24), "Mispredicted_branches");
	assert_string_equal(hvpmu_r10k_event_name(26), "Secondary_data_cache_misses");
	assert_null(hvpmu_r10k_event_name(32));
	for (unsigned e = 0; e < 32; e++) {
		assert_non_null(hvpmu_r10k_event_name(e));
		assert_non_null(hvpmu_r10k_event_desc(e));
		assert_int_equal(hvpmu_r10k_event_counter(e), e / 16);
		assert_int_equal(hvpmu_r10k_event_field(e), e % 16);
	}
	assert_int_equal(hvpmu_r10k_event_twin(0), 16);
	assert_int_equal(hvpmu_r10k_event_twin(17), 15);
	assert_int_equal(hvpmu_r10k_event_twin(18), -1);
	/* not modeled (docs/r10k-counters.md) */
	assert_false(hvpmu_r10k_event_supported(1));
	assert_false(hvpmu_r10k_event_supported(5));
	assert_false(hvpmu_r10k_event_supported(23));
	assert_false(hvpmu_r10k_event_supported(32));
	assert_true(hvpmu_r10k_event_supported(8)); /* ECC errors: always 0 */
	assert_int_equal(hvpmu_r10k_event_needs(25), HVPMU_R10K_NEEDS_MEMORY);
	assert_int_equal(hvpmu_r10k_event_needs(24), HVPMU_R10K_NEEDS_BRANCHES);
	assert_int_equal(hvpmu_r10k_event_needs(17), 0);
	/* the directory's per-CPU events (issue 31; counted in test_origin_dir.c) */
	for (unsigned e = 12; e <= 31; e += e == 13 ? 15 : 1) {
		assert_true(hvpmu_r10k_event_supported(e));
		assert_int_equal(hvpmu_r10k_event_needs(e), HVPMU_R10K_NEEDS_MEMORY);
	}
	/* still not modeled: 1, 5, 11, 22, 23, 27 (14 is exactly 0: 16 KB pages) */
	for (unsigned e = 0; e < HVPMU_R10K_NEVENTS; e++)
		assert_int_equal(hvpmu_r10k_event_supported(e),
				 !(e == 1 || e == 5 || e == 11 || e == 22 || e == 23 || e == 27));
}

/* The classes each instruction event counts (loads in the R10000's sense:
 * loads, prefetches and syncs). */
static void test_class_events(void **state)
{
	static const struct { unsigned ev; uint64_t want; } cases[] = {
		{ 15, 9 + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 }, { 17, 45 },
		{ 2, 9 + 7 + 8 + 6 }, { 18, 30 },           /* ld, ll, pref, sync */
		{ 3, 3 + 4 }, { 19, 7 }, { 4, 4 }, { 20, 4 }, /* stores include SC */
		{ 21, 2 }, { 6, 5 }, { 8, 0 }, { 1, 0 }, { 5, 0 },
	};
	(void)state;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hvpmu_r10k_pmu *p = new_pmu();
		unsigned c = hvpmu_r10k_event_counter(cases[i].ev);
		struct feed fd;

		wr(p, CTL(c), ctl(hvpmu_r10k_event_field(cases[i].ev), 1, 0, 0, 0, 0));
		feed_init(&fd, MU);
		add_class(&fd, C_LD, 9);
		add_class(&fd, C_ADD, 1);
		add_class(&fd, C_FP, 2);
		add_class(&fd, C_ST, 3);
		add_class(&fd, C_SC, 4);
		add_class(&fd, C_BR, 5);
		add_class(&fd, C_PREF, 6);
		add_class(&fd, C_SYNC, 7);
		add_class(&fd, C_LL, 8);
		run(p, &fd);
		assert_int_equal(rd(p, CNT(c)), cases[i].want);
		assert_int_equal(rd(p, CNT(1 - c)), 0);
		hvpmu_r10k_pmu_destroy(p);
	}
}

/* Cycles per mode, memory events, mispredicts. */
static void test_model_events(void **state)
{
	struct hvpmu_r10k_pmu *p = new_pmu();
	struct feed fd;

	(void)state;
	wr(p, CTL(0), ctl(0, 1, 0, 0, 0, 0));         /* Cycles:u */
	wr(p, CTL(1), ctl(25 - 16, 1, 1, 0, 0, 0));   /* Primary_data_cache_misses */
	feed_init(&fd, MU);
	fd.f.dcycles[MU] = 100;
	fd.f.dcycles[MP] = 40;
	fd.f.dmev[HVPMU_MEV_DC_MISS_L2L3] = 3;
	fd.f.dmev[HVPMU_MEV_DC_MISS_MEM] = 2;
	fd.f.dmev[HVPMU_MEV_IC_MISS_MEM] = 50; /* not a D-cache miss */
	run(p, &fd);
	assert_int_equal(rd(p, CNT(0)), 100);
	assert_int_equal(rd(p, CNT(1)), 5);
	wr(p, CTL(0), ctl(0, 1, 1, 0, 0, 0));         /* Cycles:uk */
	wr(p, CTL(1), ctl(24 - 16, 1, 0, 0, 0, 0));   /* Mispredicted_branches */
	wr(p, CNT(0), 0);
	wr(p, CNT(1), 0);
	fd.f.dmispred[HVPMU_MISPRED_DIR] = 4;
	fd.f.dmispred[HVPMU_MISPRED_RET] = 1;
	run(p, &fd);
	assert_int_equal(rd(p, CNT(0)), 140);
	assert_int_equal(rd(p, CNT(1)), 5);
	/* Quadwords written back from the secondary cache: 8 per dirty line */
	wr(p, CTL(0), ctl(7, 1, 0, 0, 0, 0));
	wr(p, CNT(0), 0);
	memset(fd.f.dmev, 0, sizeof fd.f.dmev);
	fd.f.dmev[HVPMU_MEV_L2_DIRTY_EVICT] = 3;
	fd.f.dmev[HVPMU_MEV_L2_CLEAN_EVICT] = 9;
	run(p, &fd);
	assert_int_equal(rd(p, CNT(0)), 24);
	hvpmu_r10k_pmu_destroy(p);
}

/* U counts user-mode activity, K the kernel path; S and EXL alone count
 * nothing the model runs; with no mode bit nothing counts. */
static void test_mode_bits(void **state)
{
	static const struct { int u, k, s, exl; uint64_t want_user, want_priv; } cases[] = {
		{ 1, 0, 0, 0, 10, 0 }, { 0, 1, 0, 0, 0, 10 }, { 1, 1, 0, 0, 10, 10 },
		{ 0, 0, 1, 0, 0, 0 }, { 0, 0, 0, 1, 0, 0 }, { 0, 0, 0, 0, 0, 0 },
	};
	(void)state;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hvpmu_r10k_pmu *p = new_pmu();
		struct feed fd;

		wr(p, CTL(1), ctl(1, cases[i].u, cases[i].k, cases[i].s, cases[i].exl, 0)); /* 17 */
		feed_init(&fd, MU);
		add_class(&fd, C_ADD, 10);
		run(p, &fd);
		assert_int_equal(rd(p, CNT(1)), cases[i].want_user);
		wr(p, CNT(1), 0);
		fd.f.mode = MP;
		run(p, &fd);
		assert_int_equal(rd(p, CNT(1)), cases[i].want_priv);
		wr(p, CNT(1), 0);
		fd.f.mode = HVPMU_MODE_HYPER; /* never counted */
		run(p, &fd);
		assert_int_equal(rd(p, CNT(1)), 0);
		hvpmu_r10k_pmu_destroy(p);
	}
}

/* §14.20: bit 31 becoming one interrupts when IE is set; the request is a
 * level; counting continues and wraps 2^32 - 1 -> 0. */
static void test_overflow(void **state)
{
	struct hvpmu_r10k_pmu *p = new_pmu();
	struct hvpmu_r10k_feed_result r;
	struct feed fd;

	(void)state;
	wr(p, CTL(0), ctl(15, 1, 0, 0, 0, 1)); /* Graduated_instructions, IE */
	wr(p, CTL(1), ctl(1, 1, 0, 0, 0, 0));  /* 17, no IE */
	wr(p, CNT(0), 0x7ffffff0);
	wr(p, CNT(1), 0x7ffffff0);
	assert_int_equal(hvpmu_r10k_pmu_headroom(p, 4), 0x10);
	feed_init(&fd, MU);
	add_class(&fd, C_ADD, 0xf);
	r = run(p, &fd);
	assert_int_equal(r.rise_mask, 0);
	assert_int_equal(r.irq_mask, 0);
	assert_int_equal(hvpmu_r10k_pmu_headroom(p, 4), 1);
	fd.dclass[C_ADD] = 1; /* the 16th: bit 31 becomes one */
	r = run(p, &fd);
	assert_int_equal(rd(p, CNT(0)), 0x80000000);
	assert_int_equal(r.rise_mask, 0x3);
	assert_int_equal(r.irq_mask, 0x1); /* counter 1 has no IE */
	assert_int_equal(r.tpc, NEXT_PC);
	/* a level: still up at the next feed and for the headroom */
	r = run(p, &fd);
	assert_int_equal(r.rise_mask, 0);
	assert_int_equal(r.irq_mask, 0x1);
	assert_int_equal(hvpmu_r10k_pmu_headroom(p, 4), 1);
	/* the handler takes 2^31 off: the request drops */
	wr(p, CNT(0), rd(p, CNT(0)) & 0x7fffffff);
	r = run(p, &fd);
	assert_int_equal(r.irq_mask, 0);
	assert_int_equal(rd(p, CNT(0)), 2);
	/* clearing IE drops it too; counting continues past bit 31 and wraps */
	wr(p, CNT(0), 0xfffffffe);
	wr(p, CTL(0), ctl(15, 1, 0, 0, 0, 0));
	fd.dclass[C_ADD] = 3;
	r = run(p, &fd);
	assert_int_equal(rd(p, CNT(0)), 1);
	assert_int_equal(r.irq_mask, 0);
	/* a feed that crosses bit 31 and wraps past it still requests once */
	wr(p, CTL(0), ctl(15, 1, 0, 0, 0, 1));
	wr(p, CNT(0), 0x7fffffff);
	fd.dclass[C_ADD] = UINT64_C(0x80000001);
	r = run(p, &fd);
	assert_int_equal(rd(p, CNT(0)), 0);
	assert_int_equal(r.rise_mask & 1, 1);
	assert_int_equal(r.irq_mask & 1, 1);
	hvpmu_r10k_pmu_destroy(p);
}

/* Headroom: instructions, cycles (max cycles per instruction), memory. */
static void test_headroom(void **state)
{
	struct hvpmu_r10k_pmu *p = new_pmu();

	(void)state;
	assert_int_equal(hvpmu_r10k_pmu_headroom(p, 4), UINT64_MAX);
	assert_int_equal(hvpmu_r10k_pmu_mem_headroom(p), UINT64_MAX);
	wr(p, CTL(0), ctl(0, 1, 0, 0, 0, 1));   /* Cycles */
	wr(p, CNT(0), 0x80000000 - 41);
	assert_int_equal(hvpmu_r10k_pmu_headroom(p, 4), 11); /* ceil(41 / 4) */
	wr(p, CTL(0), ctl(0, 0, 1, 0, 0, 1));   /* kernel only: user instructions cannot */
	assert_int_equal(hvpmu_r10k_pmu_headroom(p, 4), UINT64_MAX);
	wr(p, CTL(1), ctl(25 - 16, 1, 0, 0, 0, 1));
	wr(p, CNT(1), 0xfffffff0);               /* past bit 31: the next rise is after the wrap */
	assert_int_equal(hvpmu_r10k_pmu_mem_headroom(p), 0x10 + 0x80000000u);
	wr(p, CTL(0), ctl(7, 1, 0, 0, 0, 1));   /* 8 quadwords per access at most */
	wr(p, CNT(0), 0x80000000 - 17);
	wr(p, CTL(1), 0);
	assert_int_equal(hvpmu_r10k_pmu_mem_headroom(p), 3);
	hvpmu_r10k_pmu_destroy(p);
}

/* ---- on the machine: register bus, IRIX counter interrupt, driver ---- */

struct rig {
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	struct hvpmu_sv *sv;
	struct hvpmu_activity *a;
	int cls_add, cls_ld;
	unsigned overflows;
};

static void on_overflow(void *ctx, unsigned event, const struct hvpmu_guest_trap *t)
{
	struct rig *r = ctx;

	(void)event;
	assert_int_equal(t->tt, HVPMU_IRIX_TRAP_PERF);
	r->overflows++;
}

static void rig_init(struct rig *r, uint32_t pic_init)
{
	struct hvpmu_sv_config cfg;

	memset(r, 0, sizeof *r);
	assert_int_equal(hvpmu_md_by_name("origin", &r->md), 0);
	assert_int_equal(hvpmu_machine_create(&r->md, &r->m), 0);
	assert_int_equal(hvpmu_hv_create(r->m, &r->hv), 0);
	assert_ptr_equal(hvpmu_machine_pmu_ops(r->m), &hvpmu_r10k_pmu_ops);
	memset(&cfg, 0, sizeof cfg);
	cfg.pic_init = pic_init;
	cfg.on_overflow = on_overflow;
	cfg.ctx = r;
	assert_int_equal(hvpmu_sv_create(r->hv, 0, &cfg, &r->sv), 0);
	/* the driver's tick is the IRIX clock: HZ 100 at 195 MHz */
	assert_int_equal(hvpmu_sv_tick_cycles(r->sv), r->md.clock_hz / 100);
	r->a = hvpmu_machine_activity(r->m, 0);
	r->cls_add = hvpmu_machine_class(r->m, HVPMU_IC_OTHER);
	r->cls_ld = hvpmu_machine_class(r->m, HVPMU_IC_LOAD);
	assert_true(r->cls_add >= 0 && r->cls_ld >= 0);
}

static void rig_fini(struct rig *r)
{
	hvpmu_sv_destroy(r->sv);
	hvpmu_hv_destroy(r->hv);
	hvpmu_machine_destroy(r->m);
}

/* Retire n instructions (every 4th a load) in steps the machine's
 * headroom allows, syncing as a source does. */
static void retire(struct rig *r, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		r->a->icount[(i & 3) == 3 ? r->cls_ld : r->cls_add]++;
		r->a->bound++;
		if (r->a->bound >= r->a->next_check)
			assert_int_equal(hvpmu_machine_sync(r->m, 0, NULL, NULL), 0);
	}
	assert_int_equal(hvpmu_machine_sync(r->m, 0, NULL, NULL), 0);
}

/* The register bus: MFC0/MTC0 of register 25 reach the strand's counters;
 * other registers and spaces are not the device's; user mode traps. */
static void test_register_bus(void **state)
{
	struct rig r;
	uint64_t v = 0;

	(void)state;
	rig_init(&r, 0);
	assert_int_equal(hvpmu_machine_set_mode(r.m, 1, HVPMU_MODE_PRIV), 0); /* kernel code */
	assert_int_equal(hvpmu_machine_reg_write(r.m, 1, HVPMU_REG_CP0, 25, CNT(1), 77), HVPMU_OK);
	assert_int_equal(hvpmu_machine_reg_read(r.m, 1, HVPMU_REG_CP0, 25, CNT(1), &v), HVPMU_OK);
	assert_int_equal(v, 77);
	assert_int_equal(hvpmu_r10k_pmu_peek_count(hvpmu_machine_pmu(r.m, 1), 1), 77);
	assert_int_equal(hvpmu_r10k_pmu_peek_count(hvpmu_machine_pmu(r.m, 0), 1), 0); /* per CPU */
	assert_int_equal(hvpmu_machine_reg_read(r.m, 1, HVPMU_REG_CP0, 24, CNT(1), &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_reg_read(r.m, 1, HVPMU_REG_ASR, 25, CNT(1), &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_set_mode(r.m, 1, HVPMU_MODE_USER), 0);
	assert_int_equal(hvpmu_machine_reg_read(r.m, 1, HVPMU_REG_CP0, 25, CNT(1), &v), HVPMU_ETRAP);
	rig_fini(&r);
}

/* The driver: each event on its counter; 32-bit counts extended to 64
 * bits through the IP[7] interrupt (2^31 per interrupt). */
static void test_driver_extends(void **state)
{
	static const uint32_t inits[] = { 0, 0x7fffff00, 0xffffff00 };

	(void)state;
	for (unsigned i = 0; i < sizeof inits / sizeof inits[0]; i++) {
		struct hvpmu_sv_event ev[2];
		struct hvpmu_sv_count c;
		struct rig r;

		rig_init(&r, inits[i]);
		memset(ev, 0, sizeof ev);
		ev[0].config = HVPMU_R10K_EV_GRAD_INSNS0;
		ev[0].modes = HVPMU_SV_MODE_USER;
		ev[1].config = HVPMU_R10K_EV_GRAD_LOADS;
		ev[1].modes = HVPMU_SV_MODE_USER;
		assert_int_equal(hvpmu_sv_add_event(r.sv, &ev[0]), 0);
		assert_int_equal(hvpmu_sv_add_event(r.sv, &ev[1]), 1);
		assert_int_equal(hvpmu_machine_set_mode(r.m, 0, HVPMU_MODE_USER), 0);
		assert_int_equal(hvpmu_sv_start_strand(r.sv, 0), 0);
		retire(&r, 4000);
		assert_int_equal(hvpmu_sv_stop_strand(r.sv, 0), 0);
		assert_int_equal(hvpmu_sv_read(r.sv, 0, &c), 0);
		assert_true(c.supported);
		assert_int_equal(c.raw, 4000);
		assert_int_equal(hvpmu_sv_read(r.sv, 1, &c), 0);
		assert_int_equal(c.raw, 1000);
		/* 0: no interrupt; 0x7fffff00: one per counter; 0xffffff00: two */
		assert_int_equal(r.overflows, i * 2);
		rig_fini(&r);
	}
}

/* A second event of the same counter is not counted (the parser refuses
 * it: test_event_parse below). */
static void test_driver_one_per_counter(void **state)
{
	struct hvpmu_sv_event ev;
	struct hvpmu_sv_count c;
	struct rig r;

	(void)state;
	rig_init(&r, 0);
	memset(&ev, 0, sizeof ev);
	ev.modes = HVPMU_SV_MODE_USER;
	ev.config = 18;
	assert_int_equal(hvpmu_sv_add_event(r.sv, &ev), 0);
	ev.config = 19;
	assert_int_equal(hvpmu_sv_add_event(r.sv, &ev), 1);
	ev.config = 1; /* not modeled */
	assert_int_equal(hvpmu_sv_add_event(r.sv, &ev), 2);
	ev.config = 32;
	assert_int_equal(hvpmu_sv_add_event(r.sv, &ev), HVPMU_EINVAL);
	ev.config = 0;
	ev.modes = HVPMU_SV_MODE_HYPER; /* no H bit on the R10000 */
	assert_int_equal(hvpmu_sv_add_event(r.sv, &ev), HVPMU_EINVAL);
	assert_int_equal(hvpmu_sv_read(r.sv, 0, &c), 0);
	assert_true(c.supported);
	assert_int_equal(hvpmu_sv_read(r.sv, 1, &c), 0);
	assert_false(c.supported);
	assert_int_equal(hvpmu_sv_read(r.sv, 2, &c), 0);
	assert_false(c.supported);
	rig_fini(&r);
}

/* The event list of `hvpmu stat -p origin`: numbers, names, aliases, the
 * counter placement and its refusal, the modifiers. */
static void test_event_parse(void **state)
{
	const struct hvpmu_sv_backend *be = hvpmu_sv_backend_of(HVPMU_PLATFORM_ORIGIN);
	struct hvpmu_sv_event ev[HVPMU_SV_MAX_EVENTS];
	char err[256];
	unsigned n;

	(void)state;
	assert_non_null(be);
	n = 0;
	assert_int_equal(hvpmu_sv_parse_events(be, "graduated_INSTRUCTIONS,Graduated_loads", ev, &n, 64, err,
					       sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ev[0].config, 15);
	assert_int_equal(ev[1].config, 18);
	assert_int_equal(ev[0].modes, HVPMU_SV_MODE_USER | HVPMU_SV_MODE_KERNEL);
	/* twins take the free counter */
	n = 0;
	assert_int_equal(hvpmu_sv_parse_events(be, "Decoded_branches,Cycles", ev, &n, 64, err, sizeof err), 0);
	assert_int_equal(ev[1].config, 16);
	n = 0;
	assert_int_equal(hvpmu_sv_parse_events(be, "Cycles:u,cycles:k", ev, &n, 64, err, sizeof err), 0);
	assert_int_equal(ev[0].config, 0);
	assert_int_equal(ev[1].config, 16);
	assert_int_equal(ev[1].modes, HVPMU_SV_MODE_KERNEL);
	/* perfex numbers and raw hex */
	n = 0;
	assert_int_equal(hvpmu_sv_parse_events(be, "25,r6:sx", ev, &n, 64, err, sizeof err), 0);
	assert_int_equal(ev[0].config, 25);
	assert_int_equal(ev[1].config, 6);
	assert_int_equal(ev[1].modes, HVPMU_SV_MODE_SUPERVISOR | HVPMU_SV_MODE_EXL);
	/* one event per counter */
	n = 0;
	assert_int_equal(hvpmu_sv_parse_events(be, "Graduated_loads,Graduated_stores", ev, &n, 64, err, sizeof err),
			 -1);
	assert_non_null(strstr(err, "both count on R10000 counter 1 (events 16-31)"));
	n = 0;
	assert_int_equal(hvpmu_sv_parse_events(be, "Cycles,Cycles,Cycles", ev, &n, 64, err, sizeof err), -1);
	/* unknown names, numbers out of range, T4 names, :h */
	for (const char *bad = "32\0r20\0Instr_all\0Cycles:h\0-1\0r-1\0"; *bad; bad += strlen(bad) + 1) {
		n = 0;
		assert_int_equal(hvpmu_sv_parse_events(be, bad, ev, &n, 64, err, sizeof err), -1);
		assert_null(strchr(err, '\n'));
	}
	/* properties the tools use */
	assert_int_equal(hvpmu_sv_event_pics(be, 15), 1);
	assert_int_equal(hvpmu_sv_event_pics(be, 17), 2);
	assert_int_equal(hvpmu_sv_event_generic(be, 16), HVPMU_SV_GENERIC_CYCLES);
	assert_int_equal(hvpmu_sv_event_features(be, 17), 0);
	assert_int_equal(hvpmu_sv_event_features(be, 25), HVPMU_FEAT_MEMORY);
	assert_int_equal(hvpmu_sv_event_features(be, 24), HVPMU_FEAT_BRANCHES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registers),
		cmocka_unit_test(test_event_table),
		cmocka_unit_test(test_class_events),
		cmocka_unit_test(test_model_events),
		cmocka_unit_test(test_mode_bits),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_headroom),
		cmocka_unit_test(test_register_bus),
		cmocka_unit_test(test_driver_extends),
		cmocka_unit_test(test_driver_one_per_counter),
		cmocka_unit_test(test_event_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
