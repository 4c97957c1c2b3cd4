/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_t1_pmu.c - unit tests for the UltraSPARC T1 per-strand PMU device
 * (src/pmu/t1_pmu.c, include/hvpmu/t1_pmu.h), driven directly through
 * hvpmu_t1_* with a hand-made class table and feeds.
 *
 * ../shared/reference/hw-and-hypervisor.md §3.1: PCR field positions
 * (PRIV 0, ST 1, UT 2, SL 6:4, OVFL 8, OVFH 9), reserved bits read 0, a
 * write loading every field including OVFL/OVFH, OVF sticky against
 * counting.  §3.2: PICH counting instructions and PICL the SL event, both
 * 32 bits, a write loading both halves, a wrap of either setting its OVF
 * bit and requesting interrupt_level_15, PRIV making user PIC access trap
 * privileged_action.  niagara-perf-api.txt §2.1: %pcr is privileged (user
 * access traps privileged_opcode).  Layout cross-checked with Linux / illumos
 * masks (linux-clients.md §1.5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/t1_pmu.h>

/* Instruction classes of the test table (values are decode flags). */
enum {
	C_LD,    /* ldx */
	C_ADD,   /* add */
	C_FGU,   /* faddd */
	C_FGU2,  /* fmuld, another FGU class */
	C_ST,    /* stx */
	C_BR,    /* bne */
};

static uint32_t class_flags[HVPMU_MAX_ICLASS] = {
	[C_LD] = HVPMU_IC_LOAD,
	[C_ADD] = HVPMU_IC_OTHER,
	[C_FGU] = HVPMU_IC_FP,
	[C_FGU2] = HVPMU_IC_FP | HVPMU_IC_NTC,
	[C_ST] = HVPMU_IC_STORE,
	[C_BR] = HVPMU_IC_BRANCH | HVPMU_IC_CTI_COND,
};

#define HALF_MAX UINT64_C(0xffffffff)
#define NEXT_PC UINT64_C(0x200000)
#define U HVPMU_MODE_USER
#define P HVPMU_MODE_PRIV
#define H HVPMU_MODE_HYPER

/* --- helpers ------------------------------------------------------------- */

static struct hvpmu_t1_pmu *new_pmu(void)
{
	struct hvpmu_t1_pmu *p = hvpmu_t1_pmu_create(class_flags);

	assert_non_null(p);
	return p;
}

static uint64_t pcr_val(unsigned sl, int ut, int st, int priv)
{
	uint64_t v = 0;

	v = HVPMU_FDP(v, T1_PCR, SL, sl);
	v = HVPMU_FDP(v, T1_PCR, UT, ut);
	v = HVPMU_FDP(v, T1_PCR, ST, st);
	return HVPMU_FDP(v, T1_PCR, PRIV, priv);
}

static void set_pcr(struct hvpmu_t1_pmu *p, uint64_t v)
{
	assert_int_equal(hvpmu_t1_pcr_write(p, P, v), HVPMU_OK);
}

static uint64_t get_pcr(struct hvpmu_t1_pmu *p)
{
	uint64_t v = ~UINT64_C(0);

	assert_int_equal(hvpmu_t1_pcr_read(p, P, &v), HVPMU_OK);
	return v;
}

static void set_pic(struct hvpmu_t1_pmu *p, uint64_t pich, uint64_t picl)
{
	assert_int_equal(hvpmu_t1_pic_write(p, P, (pich << 32) | picl), HVPMU_OK);
}

static uint64_t get_pic(struct hvpmu_t1_pmu *p)
{
	uint64_t v = ~UINT64_C(0);

	assert_int_equal(hvpmu_t1_pic_read(p, P, &v), HVPMU_OK);
	return v;
}

static uint64_t pich_of(struct hvpmu_t1_pmu *p)
{
	return HVPMU_FEX(get_pic(p), T1_PIC, PICH);
}

static uint64_t picl_of(struct hvpmu_t1_pmu *p)
{
	return HVPMU_FEX(get_pic(p), T1_PIC, PICL);
}

static int ovfl_of(struct hvpmu_t1_pmu *p)
{
	return (int)HVPMU_FEX(get_pcr(p), T1_PCR, OVFL);
}

static int ovfh_of(struct hvpmu_t1_pmu *p)
{
	return (int)HVPMU_FEX(get_pcr(p), T1_PCR, OVFH);
}

/* Activity of one feed. */
struct act {
	uint64_t dclass[HVPMU_MAX_ICLASS];
	uint64_t dmev[HVPMU_NMEV];
};

static void feed(struct hvpmu_t1_pmu *p, const struct act *a, struct hvpmu_t1_feed_result *r)
{
	struct hvpmu_t1_feed f;

	memset(&f, 0, sizeof f);
	f.dclass = a->dclass;
	for (unsigned k = 0; k < HVPMU_MAX_ICLASS; k++)
		if (a->dclass[k])
			f.dclass_nonzero |= UINT64_C(1) << k;
	memcpy(f.dmev, a->dmev, sizeof f.dmev);
	f.next_pc = NEXT_PC;
	memset(r, 0xa5, sizeof *r);
	hvpmu_t1_pmu_feed(p, &f, r);
}

static void feed_insns(struct hvpmu_t1_pmu *p, unsigned cls, uint64_t n, struct hvpmu_t1_feed_result *r)
{
	struct act a;

	memset(&a, 0, sizeof a);
	a.dclass[cls] = n;
	feed(p, &a, r);
}

static void feed_mev(struct hvpmu_t1_pmu *p, unsigned ev, uint64_t n, struct hvpmu_t1_feed_result *r)
{
	struct act a;

	memset(&a, 0, sizeof a);
	a.dmev[ev] = n;
	feed(p, &a, r);
}

static void assert_no_wrap(const struct hvpmu_t1_feed_result *r)
{
	assert_int_equal(r->ovf_mask, 0);
	assert_int_equal(r->int_level15, 0);
	assert_int_equal(r->tpc, 0);
}

/* --- §3.1 / §3.2 layout -------------------------------------------------- */

static void test_field_constants(void **state)
{
	(void)state;
	/* §3.1; Linux PCR_PIC_PRIV / PCR_STRACE / PCR_UTRACE, illumos
	 * PIC0 select shift 4 mask 0x7, overflow bits 0x300 (§1.5). */
	assert_int_equal(HVPMU_FMASK(T1_PCR, PRIV), 0x1);
	assert_int_equal(HVPMU_FMASK(T1_PCR, ST), 0x2);
	assert_int_equal(HVPMU_FMASK(T1_PCR, UT), 0x4);
	assert_int_equal(HVPMU_FMASK(T1_PCR, SL), 0x70);
	assert_int_equal(T1_PCR_SL_SHIFT, 4);
	assert_int_equal(HVPMU_FMASK(T1_PCR, OVFL), 0x100);
	assert_int_equal(HVPMU_FMASK(T1_PCR, OVFH), 0x200);
	assert_int_equal(HVPMU_T1_PCR_OVF_MASK, 0x300);
	assert_int_equal(HVPMU_T1_PCR_IMPL_MASK, 0x377);
	/* §3.2: PICH 63:32, PICL 31:0. */
	assert_int_equal(HVPMU_FMASK(T1_PIC, PICL), HALF_MAX);
	assert_int_equal(HVPMU_FMASK(T1_PIC, PICH), HALF_MAX << 32);
	assert_int_equal(HVPMU_T1_ASR_PCR, 0x10);
	assert_int_equal(HVPMU_T1_ASR_PIC, 0x11);
	assert_int_equal(HVPMU_T1_TT_PRIVILEGED_OPCODE, 0x11);
	assert_int_equal(HVPMU_T1_TT_PRIVILEGED_ACTION, 0x37);
	assert_int_equal(HVPMU_T1_TT_INTERRUPT_LEVEL_15, 0x4f);
	assert_int_equal(HVPMU_T1_SOFTINT_PIC_BIT, 15);
	/* §3.2 event codes. */
	assert_int_equal(HVPMU_T1_SL_SB_FULL, 0);
	assert_int_equal(HVPMU_T1_SL_FP_INSTR_CNT, 1);
	assert_int_equal(HVPMU_T1_SL_IC_MISS, 2);
	assert_int_equal(HVPMU_T1_SL_DC_MISS, 3);
	assert_int_equal(HVPMU_T1_SL_ITLB_MISS, 4);
	assert_int_equal(HVPMU_T1_SL_DTLB_MISS, 5);
	assert_int_equal(HVPMU_T1_SL_L2_IMISS, 6);
	assert_int_equal(HVPMU_T1_SL_L2_DMISS_LD, 7);
}

static void test_initial_state(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;

	(void)state;
	assert_int_equal(get_pcr(p), 0);
	assert_int_equal(get_pic(p), 0);
	assert_int_equal(hvpmu_t1_pmu_peek_pcr(p), 0);
	assert_int_equal(hvpmu_t1_pmu_peek_pic(p), 0);
	/* reset PCR has UT=0: nothing counts */
	feed_insns(p, C_ADD, 100, &r);
	assert_no_wrap(&r);
	assert_int_equal(get_pic(p), 0);
	assert_null(hvpmu_t1_pmu_create(NULL));
	hvpmu_t1_pmu_destroy(p);
	hvpmu_t1_pmu_destroy(NULL);
}

/* Each field written alone reads back in place, and only it. */
static void test_pcr_field_roundtrip(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	static const struct {
		unsigned shift, len;
	} fields[] = {
		{ T1_PCR_PRIV_SHIFT, T1_PCR_PRIV_LEN }, { T1_PCR_ST_SHIFT, T1_PCR_ST_LEN },
		{ T1_PCR_UT_SHIFT, T1_PCR_UT_LEN },     { T1_PCR_SL_SHIFT, T1_PCR_SL_LEN },
		{ T1_PCR_OVFL_SHIFT, T1_PCR_OVFL_LEN }, { T1_PCR_OVFH_SHIFT, T1_PCR_OVFH_LEN },
	};

	(void)state;
	for (unsigned f = 0; f < sizeof fields / sizeof fields[0]; f++) {
		uint64_t max = (UINT64_C(1) << fields[f].len) - 1;

		for (uint64_t x = 0; x <= max; x++) {
			set_pcr(p, x << fields[f].shift);
			assert_int_equal(get_pcr(p), x << fields[f].shift);
			assert_int_equal(hvpmu_t1_pmu_peek_pcr(p), x << fields[f].shift);
		}
	}
	/* all fields at once */
	set_pcr(p, HVPMU_T1_PCR_IMPL_MASK);
	assert_int_equal(get_pcr(p), 0x377);
	hvpmu_t1_pmu_destroy(p);
}

/* Bits 3, 7, 63:10 are reserved: dropped on write, read as 0 (§3.1). */
static void test_pcr_reserved_bits(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();

	(void)state;
	set_pcr(p, ~UINT64_C(0));
	assert_int_equal(get_pcr(p), HVPMU_T1_PCR_IMPL_MASK);
	set_pcr(p, ~HVPMU_T1_PCR_IMPL_MASK);
	assert_int_equal(get_pcr(p), 0);
	for (unsigned b = 0; b < 64; b++) {
		uint64_t bit = UINT64_C(1) << b;

		set_pcr(p, bit);
		assert_int_equal(get_pcr(p), bit & HVPMU_T1_PCR_IMPL_MASK);
	}
	/* a reserved bit never turns on counting or anything else */
	set_pcr(p, UINT64_C(0x8) | UINT64_C(0x80) | (UINT64_C(1) << 10) | (UINT64_C(1) << 63));
	assert_int_equal(get_pcr(p), 0);
	hvpmu_t1_pmu_destroy(p);
}

/* PIC: two 32-bit halves, a write loads both, read returns both (§3.2). */
static void test_pic_halves(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();

	(void)state;
	assert_int_equal(hvpmu_t1_pic_write(p, P, UINT64_C(0x0123456789abcdef)), HVPMU_OK);
	assert_int_equal(get_pic(p), UINT64_C(0x0123456789abcdef));
	assert_int_equal(pich_of(p), 0x01234567);
	assert_int_equal(picl_of(p), 0x89abcdef);
	assert_int_equal(hvpmu_t1_pmu_peek_pic(p), UINT64_C(0x0123456789abcdef));
	set_pic(p, HALF_MAX, 0);
	assert_int_equal(get_pic(p), HALF_MAX << 32);
	set_pic(p, 0, HALF_MAX);
	assert_int_equal(get_pic(p), HALF_MAX);
	/* a PIC write leaves the PCR (and its OVF bits) alone */
	set_pcr(p, HVPMU_T1_PCR_OVF_MASK | pcr_val(3, 1, 1, 1));
	set_pic(p, 7, 9);
	assert_int_equal(get_pcr(p), HVPMU_T1_PCR_OVF_MASK | pcr_val(3, 1, 1, 1));
	set_pcr(p, 0);
	set_pic(p, HALF_MAX, HALF_MAX);
	assert_int_equal(get_pcr(p), 0);
	hvpmu_t1_pmu_destroy(p);
}

/* --- privilege ------------------------------------------------------------ */

/* rd/wr %pcr: privileged and hyperprivileged only (§2.1); user traps
 * privileged_opcode and changes nothing. */
static void test_pcr_access_matrix(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	uint64_t v;

	(void)state;
	set_pcr(p, pcr_val(2, 1, 0, 0));
	for (int priv = 0; priv <= 1; priv++) {
		set_pcr(p, pcr_val(2, 1, 0, priv));
		v = 0x5a5a;
		assert_int_equal(hvpmu_t1_pcr_read(p, U, &v), HVPMU_ETRAP);
		assert_int_equal(v, 0x5a5a);
		assert_int_equal(hvpmu_t1_pcr_write(p, U, pcr_val(7, 0, 1, !priv)), HVPMU_ETRAP);
		assert_int_equal(get_pcr(p), pcr_val(2, 1, 0, priv));
		assert_int_equal(hvpmu_t1_pcr_read(p, P, &v), HVPMU_OK);
		assert_int_equal(v, pcr_val(2, 1, 0, priv));
		assert_int_equal(hvpmu_t1_pcr_read(p, H, &v), HVPMU_OK);
		assert_int_equal(v, pcr_val(2, 1, 0, priv));
	}
	assert_int_equal(hvpmu_t1_pcr_write(p, H, pcr_val(5, 0, 1, 0)), HVPMU_OK);
	assert_int_equal(get_pcr(p), pcr_val(5, 0, 1, 0));
	assert_int_equal(hvpmu_t1_pcr_write(p, P, pcr_val(6, 1, 0, 1)), HVPMU_OK);
	assert_int_equal(get_pcr(p), pcr_val(6, 1, 0, 1));
	/* invalid mode */
	assert_int_equal(hvpmu_t1_pcr_read(p, HVPMU_NMODES, &v), HVPMU_EINVAL);
	assert_int_equal(hvpmu_t1_pcr_write(p, HVPMU_NMODES, 0), HVPMU_EINVAL);
	assert_int_equal(get_pcr(p), pcr_val(6, 1, 0, 1));
	hvpmu_t1_pmu_destroy(p);
}

/* rd/wr %pic: PRIV x mode (§3.2). */
static void test_pic_access_matrix(void **state)
{
	static const struct {
		int priv;
		enum hvpmu_mode mode;
		int rc;
	} m[] = {
		{ 0, U, HVPMU_OK }, { 0, P, HVPMU_OK }, { 0, H, HVPMU_OK },
		{ 1, U, HVPMU_ETRAP }, { 1, P, HVPMU_OK }, { 1, H, HVPMU_OK },
	};
	struct hvpmu_t1_pmu *p = new_pmu();

	(void)state;
	for (unsigned i = 0; i < sizeof m / sizeof m[0]; i++) {
		uint64_t v = 0x5a5a, want = ((uint64_t)(i + 1) << 32) | (i + 100);

		set_pcr(p, pcr_val(0, 0, 0, m[i].priv));
		set_pic(p, 1, 2);
		assert_int_equal(hvpmu_t1_pic_read(p, m[i].mode, &v), m[i].rc);
		assert_int_equal(v, m[i].rc == HVPMU_OK ? (UINT64_C(1) << 32) | 2 : 0x5a5a);
		assert_int_equal(hvpmu_t1_pic_write(p, m[i].mode, want), m[i].rc);
		assert_int_equal(get_pic(p), m[i].rc == HVPMU_OK ? want : (UINT64_C(1) << 32) | 2);
	}
	assert_int_equal(hvpmu_t1_pic_read(p, HVPMU_NMODES, &(uint64_t){ 0 }), HVPMU_EINVAL);
	assert_int_equal(hvpmu_t1_pic_write(p, HVPMU_NMODES, 0), HVPMU_EINVAL);
	hvpmu_t1_pmu_destroy(p);
}

/* --- counting ------------------------------------------------------------- */

/* PICH counts every user instruction; PICL per SL (§3.2). */
static void test_pich_counts_all_instructions(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;
	struct act a;

	(void)state;
	for (unsigned sl = 0; sl < HVPMU_T1_NSL; sl++) {
		set_pcr(p, pcr_val(sl, 1, 0, 0));
		set_pic(p, 0, 0);
		memset(&a, 0, sizeof a);
		a.dclass[C_LD] = 3;
		a.dclass[C_ADD] = 5;
		a.dclass[C_FGU] = 7;
		a.dclass[C_FGU2] = 11;
		a.dclass[C_ST] = 13;
		a.dclass[C_BR] = 17;
		feed(p, &a, &r);
		assert_no_wrap(&r);
		assert_int_equal(pich_of(p), 56);
		/* FP_instr_cnt: FGU classes only; others: no memory events fed */
		assert_int_equal(picl_of(p), sl == HVPMU_T1_SL_FP_INSTR_CNT ? 18 : 0);
	}
	hvpmu_t1_pmu_destroy(p);
}

/* Each SL selects its memory events, and only them (§3.2 and the mapping
 * documented in hvpmu/t1_pmu.h). */
static void test_sl_memory_event_selection(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;
	uint64_t want[HVPMU_T1_NSL] = { 0 };

	(void)state;
	want[HVPMU_T1_SL_SB_FULL] = UINT64_C(1) << HVPMU_MEV_SB_FULL_CYCLES;
	want[HVPMU_T1_SL_IC_MISS] = (UINT64_C(1) << HVPMU_MEV_IC_MISS_L2L3) | (UINT64_C(1) << HVPMU_MEV_IC_MISS_MEM);
	want[HVPMU_T1_SL_DC_MISS] = (UINT64_C(1) << HVPMU_MEV_DC_MISS_L2L3) | (UINT64_C(1) << HVPMU_MEV_DC_MISS_MEM);
	want[HVPMU_T1_SL_ITLB_MISS] = UINT64_C(1) << HVPMU_MEV_ITLB_MISS;
	want[HVPMU_T1_SL_DTLB_MISS] = (UINT64_C(1) << HVPMU_MEV_DTLB_FILL_8K) | (UINT64_C(1) << HVPMU_MEV_DTLB_FILL_64K) |
				      (UINT64_C(1) << HVPMU_MEV_DTLB_FILL_4M) | (UINT64_C(1) << HVPMU_MEV_DTLB_FILL_256M) |
				      (UINT64_C(1) << HVPMU_MEV_DTLB_FILL_2G) | (UINT64_C(1) << HVPMU_MEV_DTLB_FILL_TRAP);
	want[HVPMU_T1_SL_L2_IMISS] = UINT64_C(1) << HVPMU_MEV_IC_MISS_MEM;
	want[HVPMU_T1_SL_L2_DMISS_LD] = UINT64_C(1) << HVPMU_MEV_DC_MISS_MEM;
	for (unsigned sl = 0; sl < HVPMU_T1_NSL; sl++) {
		set_pcr(p, pcr_val(sl, 1, 0, 0));
		for (unsigned e = 0; e < HVPMU_NMEV; e++) {
			set_pic(p, 0, 0);
			feed_mev(p, e, 3, &r);
			assert_no_wrap(&r);
			assert_int_equal(picl_of(p), (want[sl] >> e) & 1 ? 3 : 0);
			assert_int_equal(pich_of(p), 0); /* memory events are not instructions */
		}
	}
	/* several events of one SL add up */
	{
		struct act a;

		memset(&a, 0, sizeof a);
		for (unsigned e = 0; e < HVPMU_NMEV; e++)
			a.dmev[e] = e + 1;
		for (unsigned sl = 0; sl < HVPMU_T1_NSL; sl++) {
			uint64_t sum = 0;

			for (unsigned e = 0; e < HVPMU_NMEV; e++)
				if ((want[sl] >> e) & 1)
					sum += e + 1;
			set_pcr(p, pcr_val(sl, 1, 0, 0));
			set_pic(p, 0, 0);
			feed(p, &a, &r);
			assert_int_equal(picl_of(p), sum);
		}
	}
	hvpmu_t1_pmu_destroy(p);
}

/* SL 0 SB_full: the store buffer's full cycles (HVPMU_MEV_SB_FULL_CYCLES)
 * and nothing else. */
static void test_sb_full_counts_full_cycles(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;
	struct act a;

	(void)state;
	for (unsigned sl = 0; sl < HVPMU_T1_NSL; sl++)
		assert_non_null(hvpmu_t1_picl_name(sl));
	assert_null(hvpmu_t1_picl_name(HVPMU_T1_NSL));

	set_pcr(p, pcr_val(HVPMU_T1_SL_SB_FULL, 1, 1, 0));
	memset(&a, 0, sizeof a);
	for (unsigned k = 0; k < 6; k++)
		a.dclass[k] = 1000;
	for (unsigned e = 0; e < HVPMU_NMEV; e++)
		a.dmev[e] = 1000;
	a.dmev[HVPMU_MEV_SB_FULL_CYCLES] = 77;
	feed(p, &a, &r);
	assert_int_equal(picl_of(p), 77);
	assert_int_equal(pich_of(p), 6000);
	assert_true(hvpmu_t1_pmu_wants_memory(p));
	assert_int_equal(hvpmu_t1_pmu_mem_headroom(p), HVPMU_T1_PIC_WRAP - 77);
	hvpmu_t1_pmu_destroy(p);
}

static void test_event_names(void **state)
{
	static const char *const names[HVPMU_T1_NSL] = {
		"SB_full", "FP_instr_cnt", "IC_miss", "DC_miss",
		"ITLB_miss", "DTLB_miss", "L2_imiss", "L2_dmiss_ld",
	};

	(void)state;
	for (unsigned sl = 0; sl < HVPMU_T1_NSL; sl++)
		assert_string_equal(hvpmu_t1_picl_name(sl), names[sl]);
	assert_null(hvpmu_t1_picl_name(HVPMU_T1_NSL));
}

/* UT/ST filtering: the feed is user-mode activity (hvpmu/machine.h). */
static void test_ut_st_filter(void **state)
{
	static const unsigned sls[] = { HVPMU_T1_SL_FP_INSTR_CNT, HVPMU_T1_SL_DC_MISS, HVPMU_T1_SL_DTLB_MISS };
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;
	struct act a;

	(void)state;
	memset(&a, 0, sizeof a);
	a.dclass[C_FGU] = 10;
	a.dclass[C_ADD] = 5;
	a.dmev[HVPMU_MEV_DC_MISS_MEM] = 4;
	a.dmev[HVPMU_MEV_DTLB_FILL_TRAP] = 2;
	for (unsigned i = 0; i < sizeof sls / sizeof sls[0]; i++) {
		uint64_t lwant = sls[i] == HVPMU_T1_SL_FP_INSTR_CNT ? 10 : sls[i] == HVPMU_T1_SL_DC_MISS ? 4 : 2;

		for (int ut = 0; ut <= 1; ut++)
			for (int st = 0; st <= 1; st++) {
				set_pcr(p, pcr_val(sls[i], ut, st, 0));
				set_pic(p, 0, 0);
				feed(p, &a, &r);
				assert_no_wrap(&r);
				assert_int_equal(pich_of(p), ut ? 15 : 0);
				assert_int_equal(picl_of(p), ut ? lwant : 0);
			}
	}
	/* UT off also protects the counters from wrapping */
	set_pcr(p, pcr_val(HVPMU_T1_SL_DC_MISS, 0, 1, 0));
	set_pic(p, HALF_MAX, HALF_MAX);
	feed(p, &a, &r);
	assert_no_wrap(&r);
	assert_int_equal(get_pic(p), ~UINT64_C(0));
	assert_int_equal(get_pcr(p) & HVPMU_T1_PCR_OVF_MASK, 0);
	hvpmu_t1_pmu_destroy(p);
}

/* PRIV does not affect counting. */
static void test_priv_does_not_filter(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;

	(void)state;
	set_pcr(p, pcr_val(HVPMU_T1_SL_FP_INSTR_CNT, 1, 0, 1));
	feed_insns(p, C_FGU, 9, &r);
	assert_int_equal(get_pic(p), (UINT64_C(9) << 32) | 9);
	hvpmu_t1_pmu_destroy(p);
}

/* A feed with no classes (dclass NULL or no bits) counts no instructions. */
static void test_empty_feed(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed f;
	struct hvpmu_t1_feed_result r;

	(void)state;
	set_pcr(p, pcr_val(HVPMU_T1_SL_ITLB_MISS, 1, 1, 0));
	memset(&f, 0, sizeof f);
	f.dclass_nonzero = ~UINT64_C(0); /* ignored without dclass */
	f.dmev[HVPMU_MEV_ITLB_MISS] = 2;
	f.next_pc = NEXT_PC;
	hvpmu_t1_pmu_feed(p, &f, &r);
	assert_no_wrap(&r);
	assert_int_equal(get_pic(p), 2);
	hvpmu_t1_pmu_destroy(p);
}

/* --- wraps, OVF bits, interrupt_level_15 ---------------------------------- */

static void test_pich_wrap(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;

	(void)state;
	set_pcr(p, pcr_val(HVPMU_T1_SL_DC_MISS, 1, 0, 0));
	set_pic(p, HALF_MAX - 2, 0);
	feed_insns(p, C_ADD, 2, &r); /* 0xfffffffd + 2 = 0xffffffff: no wrap yet */
	assert_no_wrap(&r);
	assert_int_equal(pich_of(p), HALF_MAX);
	assert_int_equal(ovfh_of(p), 0);
	feed_insns(p, C_ADD, 4, &r); /* wraps to 3 */
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICH);
	assert_int_equal(r.int_level15, 1);
	assert_int_equal(r.tpc, NEXT_PC);
	assert_int_equal(pich_of(p), 3);
	assert_int_equal(picl_of(p), 0);
	assert_int_equal(ovfh_of(p), 1);
	assert_int_equal(ovfl_of(p), 0);
	/* the rest of the PCR is untouched */
	assert_int_equal(get_pcr(p), pcr_val(HVPMU_T1_SL_DC_MISS, 1, 0, 0) | HVPMU_FMASK(T1_PCR, OVFH));
	hvpmu_t1_pmu_destroy(p);
}

static void test_picl_wrap_fp(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;

	(void)state;
	set_pcr(p, pcr_val(HVPMU_T1_SL_FP_INSTR_CNT, 1, 0, 0));
	set_pic(p, 0, HALF_MAX);
	feed_insns(p, C_ADD, 10, &r); /* not FGU: PICL stays */
	assert_no_wrap(&r);
	feed_insns(p, C_FGU2, 1, &r);
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICL);
	assert_int_equal(r.int_level15, 1);
	assert_int_equal(r.tpc, NEXT_PC);
	assert_int_equal(picl_of(p), 0);
	assert_int_equal(pich_of(p), 11);
	assert_int_equal(ovfl_of(p), 1);
	assert_int_equal(ovfh_of(p), 0);
	hvpmu_t1_pmu_destroy(p);
}

static void test_picl_wrap_memory_event(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;

	(void)state;
	set_pcr(p, pcr_val(HVPMU_T1_SL_L2_DMISS_LD, 1, 0, 0));
	set_pic(p, 0, HALF_MAX - 1);
	feed_mev(p, HVPMU_MEV_DC_MISS_L2L3, 50, &r); /* an L2 hit: not L2_dmiss_ld */
	assert_no_wrap(&r);
	feed_mev(p, HVPMU_MEV_DC_MISS_MEM, 5, &r);
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICL);
	assert_int_equal(r.int_level15, 1);
	assert_int_equal(picl_of(p), 3);
	assert_int_equal(ovfl_of(p), 1);
	hvpmu_t1_pmu_destroy(p);
}

/* Both halves wrapping in one feed: both bits, one interrupt request. */
static void test_both_wrap(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;

	(void)state;
	set_pcr(p, pcr_val(HVPMU_T1_SL_FP_INSTR_CNT, 1, 0, 0));
	set_pic(p, HALF_MAX, HALF_MAX);
	feed_insns(p, C_FGU, 1, &r);
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICL | HVPMU_T1_OVF_PICH);
	assert_int_equal(r.int_level15, 1);
	assert_int_equal(r.tpc, NEXT_PC);
	assert_int_equal(get_pic(p), 0);
	assert_int_equal(get_pcr(p) & HVPMU_T1_PCR_OVF_MASK, HVPMU_T1_PCR_OVF_MASK);
	hvpmu_t1_pmu_destroy(p);
}

/* OVF bits are sticky: further counting (with or without another wrap)
 * never clears them; only a software write of 0 does (§3.1). */
static void test_ovf_sticky(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;
	uint64_t base = pcr_val(HVPMU_T1_SL_FP_INSTR_CNT, 1, 0, 0);

	(void)state;
	set_pcr(p, base);
	set_pic(p, HALF_MAX, HALF_MAX);
	feed_insns(p, C_FGU, 1, &r);
	assert_int_equal(get_pcr(p), base | HVPMU_T1_PCR_OVF_MASK);
	/* counting on, no wrap: still set, and no new interrupt request */
	feed_insns(p, C_FGU, 100, &r);
	assert_no_wrap(&r);
	assert_int_equal(get_pcr(p), base | HVPMU_T1_PCR_OVF_MASK);
	/* rewriting the PIC does not clear them */
	set_pic(p, 0, 0);
	assert_int_equal(get_pcr(p), base | HVPMU_T1_PCR_OVF_MASK);
	/* a PCR write keeping OVFH=1 and OVFL=0 clears only OVFL */
	set_pcr(p, base | HVPMU_FMASK(T1_PCR, OVFH));
	assert_int_equal(ovfl_of(p), 0);
	assert_int_equal(ovfh_of(p), 1);
	/* another PICL wrap sets OVFL again while OVFH stays */
	set_pic(p, 0, HALF_MAX);
	feed_insns(p, C_FGU, 1, &r);
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICL);
	assert_int_equal(r.int_level15, 1);
	assert_int_equal(get_pcr(p), base | HVPMU_T1_PCR_OVF_MASK);
	/* a write of 0 clears both */
	set_pcr(p, base);
	assert_int_equal(get_pcr(p) & HVPMU_T1_PCR_OVF_MASK, 0);
	/* a wrap with OVFH already set still requests the interrupt */
	set_pcr(p, base | HVPMU_FMASK(T1_PCR, OVFH));
	set_pic(p, HALF_MAX, 0);
	feed_insns(p, C_ADD, 1, &r);
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICH);
	assert_int_equal(r.int_level15, 1);
	assert_int_equal(ovfh_of(p), 1);
	hvpmu_t1_pmu_destroy(p);
}

/* Decision documented in hvpmu/t1_pmu.h: a PCR write loads OVFL/OVFH as
 * written (§3.1), so software can set them, but that requests no
 * interrupt and changes no counter. */
static void test_software_sets_ovf(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;
	uint64_t base = pcr_val(HVPMU_T1_SL_IC_MISS, 1, 0, 0);

	(void)state;
	set_pic(p, 5, 6);
	set_pcr(p, base | HVPMU_FMASK(T1_PCR, OVFL));
	assert_int_equal(get_pcr(p), base | HVPMU_FMASK(T1_PCR, OVFL));
	set_pcr(p, base | HVPMU_FMASK(T1_PCR, OVFH));
	assert_int_equal(get_pcr(p), base | HVPMU_FMASK(T1_PCR, OVFH));
	set_pcr(p, base | HVPMU_T1_PCR_OVF_MASK);
	assert_int_equal(get_pcr(p), base | HVPMU_T1_PCR_OVF_MASK);
	assert_int_equal(get_pic(p), (UINT64_C(5) << 32) | 6);
	/* the next feed without a wrap raises nothing */
	feed_insns(p, C_ADD, 1, &r);
	assert_no_wrap(&r);
	assert_int_equal(get_pcr(p), base | HVPMU_T1_PCR_OVF_MASK);
	hvpmu_t1_pmu_destroy(p);
}

/* A single feed larger than the remaining headroom wraps once and keeps
 * the low 32 bits. */
static void test_wrap_arithmetic(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;

	(void)state;
	set_pcr(p, pcr_val(HVPMU_T1_SL_ITLB_MISS, 1, 0, 0));
	set_pic(p, 0x80000000u, 0xfffffff0u);
	feed_insns(p, C_LD, 0x80000010u, &r);
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICH);
	assert_int_equal(pich_of(p), 0x10);
	feed_mev(p, HVPMU_MEV_ITLB_MISS, 0x20, &r);
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICL);
	assert_int_equal(picl_of(p), 0x10);
	hvpmu_t1_pmu_destroy(p);
}

/* --- headroom ------------------------------------------------------------- */

static void test_headroom(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;

	(void)state;
	/* UT off: nothing the machine feeds can wrap */
	set_pcr(p, pcr_val(HVPMU_T1_SL_FP_INSTR_CNT, 0, 1, 0));
	set_pic(p, HALF_MAX, HALF_MAX);
	assert_int_equal(hvpmu_t1_pmu_headroom(p), UINT64_MAX);
	assert_int_equal(hvpmu_t1_pmu_mem_headroom(p), UINT64_MAX);
	assert_false(hvpmu_t1_pmu_wants_memory(p));

	/* PICH bounds it */
	set_pcr(p, pcr_val(HVPMU_T1_SL_DC_MISS, 1, 0, 0));
	set_pic(p, HALF_MAX - 9, HALF_MAX - 2);
	assert_int_equal(hvpmu_t1_pmu_headroom(p), 10);
	assert_int_equal(hvpmu_t1_pmu_mem_headroom(p), 3);
	assert_true(hvpmu_t1_pmu_wants_memory(p));
	set_pic(p, 0, 0);
	assert_int_equal(hvpmu_t1_pmu_headroom(p), UINT64_C(1) << 32);
	assert_int_equal(hvpmu_t1_pmu_mem_headroom(p), UINT64_C(1) << 32);

	/* FP_instr_cnt PICL bounds it when lower; memory headroom is off */
	set_pcr(p, pcr_val(HVPMU_T1_SL_FP_INSTR_CNT, 1, 0, 0));
	set_pic(p, 100, HALF_MAX - 4);
	assert_int_equal(hvpmu_t1_pmu_headroom(p), 5);
	assert_int_equal(hvpmu_t1_pmu_mem_headroom(p), UINT64_MAX);
	assert_false(hvpmu_t1_pmu_wants_memory(p));
	/* exactly `headroom` instructions wrap, one fewer does not */
	feed_insns(p, C_FGU, 4, &r);
	assert_no_wrap(&r);
	assert_int_equal(hvpmu_t1_pmu_headroom(p), 1);
	feed_insns(p, C_FGU, 1, &r);
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICL);

	/* memory SLs and SB_full want the memory model; FP does not */
	for (unsigned sl = 0; sl < HVPMU_T1_NSL; sl++) {
		set_pcr(p, pcr_val(sl, 1, 0, 0));
		assert_int_equal(hvpmu_t1_pmu_wants_memory(p), sl != HVPMU_T1_SL_FP_INSTR_CNT);
	}
	/* memory headroom: exactly that many events wrap */
	set_pcr(p, pcr_val(HVPMU_T1_SL_DTLB_MISS, 1, 0, 0));
	set_pic(p, 0, HALF_MAX - 1);
	assert_int_equal(hvpmu_t1_pmu_mem_headroom(p), 2);
	feed_mev(p, HVPMU_MEV_DTLB_FILL_4M, 1, &r);
	assert_no_wrap(&r);
	feed_mev(p, HVPMU_MEV_DTLB_FILL_TRAP, 1, &r);
	assert_int_equal(r.ovf_mask, HVPMU_T1_OVF_PICL);
	hvpmu_t1_pmu_destroy(p);
}

/* Classes interned after creation are seen (the table is read per feed). */
static void test_late_class(void **state)
{
	struct hvpmu_t1_pmu *p = new_pmu();
	struct hvpmu_t1_feed_result r;
	const unsigned late = 40;

	(void)state;
	set_pcr(p, pcr_val(HVPMU_T1_SL_FP_INSTR_CNT, 1, 0, 0));
	class_flags[late] = HVPMU_IC_FP;
	feed_insns(p, late, 3, &r);
	assert_int_equal(get_pic(p), (UINT64_C(3) << 32) | 3);
	class_flags[late] = 0;
	hvpmu_t1_pmu_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_constants),
		cmocka_unit_test(test_initial_state),
		cmocka_unit_test(test_pcr_field_roundtrip),
		cmocka_unit_test(test_pcr_reserved_bits),
		cmocka_unit_test(test_pic_halves),
		cmocka_unit_test(test_pcr_access_matrix),
		cmocka_unit_test(test_pic_access_matrix),
		cmocka_unit_test(test_pich_counts_all_instructions),
		cmocka_unit_test(test_sl_memory_event_selection),
		cmocka_unit_test(test_sb_full_counts_full_cycles),
		cmocka_unit_test(test_event_names),
		cmocka_unit_test(test_ut_st_filter),
		cmocka_unit_test(test_priv_does_not_filter),
		cmocka_unit_test(test_empty_feed),
		cmocka_unit_test(test_pich_wrap),
		cmocka_unit_test(test_picl_wrap_fp),
		cmocka_unit_test(test_picl_wrap_memory_event),
		cmocka_unit_test(test_both_wrap),
		cmocka_unit_test(test_ovf_sticky),
		cmocka_unit_test(test_software_sets_ovf),
		cmocka_unit_test(test_wrap_arithmetic),
		cmocka_unit_test(test_headroom),
		cmocka_unit_test(test_late_class),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
