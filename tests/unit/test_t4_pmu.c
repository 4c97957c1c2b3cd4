/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_t4_pmu.c - unit tests for the SPARC T4 per-strand PMU device
 * (src/pmu/t4_pmu.c, include/hvpmu/t4_pmu.h), driven directly through
 * hvpmu_t4_pmu_* with a hand-made class table and feeds.
 *
 * Every rule of sparc-t4-performance-instrumentation.md §10.1-10.3:
 * TABLE 10-1 PCR field positions, reserved bits 63:19, ov/ntc sticky
 * (cleared, never set by software), TABLE 10-3 PIC width, the 2^32-1 -> 0
 * wrap setting ov (and ntc on a next-to-commit instruction, TABLE 10-1
 * footnote 1), precise_performance_event (toe, Precise groups sl=3/4, no
 * skid, never with ht=1, §10.3), disrupting_performance_event (level while
 * toe && ov), ut/st/ht filtering, sl=0 / reserved / unmodeled groups,
 * the picnht/picnpt access matrix (§10.3), the §10.2 programming note on
 * a PCR write re-setting ov, TABLE 10-2 "multiple mask bits count as one
 * event", and the headroom the machine schedules syncs with.
 * Field layout cross-checked with Linux PCR_N4_* (linux-clients.md §1.5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>

/* Instruction classes of the test table (values are decode flags). */
enum {
	C_LD,        /* ldx */
	C_ADD,       /* add: sl=3 "other" */
	C_BCOND,     /* bne: conditional branch */
	C_BA,        /* ba / call: always-taken CTI */
	C_CASX,      /* casxa: atomic, next-to-commit */
	C_ST,        /* stx */
	C_WRPR,      /* wrpr: SPR ring op, next-to-commit */
	C_FGU,       /* faddd */
	C_SWCOUNT,   /* sethi %hi(0xfc000),%g0 */
	C_PREFETCH,  /* prefetch */
	C_BLOCK_LD,  /* ldda [..] 0xf0, %f0: block load */
	C_LD_NTC,    /* ldxa non-translating: load, next-to-commit */
	NCLASS_USED,
};

static uint32_t class_flags[HVPMU_MAX_ICLASS] = {
	[C_LD] = HVPMU_IC_LOAD,
	[C_ADD] = HVPMU_IC_OTHER,
	[C_BCOND] = HVPMU_IC_BRANCH | HVPMU_IC_CTI_COND,
	[C_BA] = HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS,
	[C_CASX] = HVPMU_IC_OTHER | HVPMU_IC_ATOMIC | HVPMU_IC_NTC,
	[C_ST] = HVPMU_IC_STORE,
	[C_WRPR] = HVPMU_IC_SPR | HVPMU_IC_NTC,
	[C_FGU] = HVPMU_IC_FP,
	[C_SWCOUNT] = HVPMU_IC_OTHER | HVPMU_IC_SWCOUNT,
	[C_PREFETCH] = HVPMU_IC_OTHER | HVPMU_IC_PREFETCH,
	[C_BLOCK_LD] = HVPMU_IC_LOAD | HVPMU_IC_BLOCK,
	[C_LD_NTC] = HVPMU_IC_LOAD | HVPMU_IC_NTC,
};

#define PIC_MAX UINT64_C(0xffffffff)
#define PCR_WRITABLE (HVPMU_T4_PCR_IMPL_MASK & ~HVPMU_T4_PCR_STICKY_MASK) /* 0x3fffe */
#define BLOCK_VA UINT64_C(0x100400)
#define NEXT_PC UINT64_C(0x200000)

static const uint8_t N_PCRS = HVPMU_T4_NPIC;

/* --- helpers ------------------------------------------------------------- */

static struct hvpmu_t4_pmu *new_pmu(void)
{
	struct hvpmu_t4_pmu *p = hvpmu_t4_pmu_create(class_flags);

	assert_non_null(p);
	return p;
}

static uint64_t pcr_val(unsigned sl, unsigned mask, int ut, int st, int ht, int toe)
{
	uint64_t v = 0;

	v = HVPMU_FDP(v, T4_PCR, SL, sl);
	v = HVPMU_FDP(v, T4_PCR, MASK, mask);
	v = HVPMU_FDP(v, T4_PCR, UT, ut);
	v = HVPMU_FDP(v, T4_PCR, ST, st);
	v = HVPMU_FDP(v, T4_PCR, HT, ht);
	return HVPMU_FDP(v, T4_PCR, TOE, toe);
}

static void set_pcr(struct hvpmu_t4_pmu *p, unsigned i, uint64_t v)
{
	assert_int_equal(hvpmu_t4_pcr_write(p, i, v, HVPMU_MODE_HYPER), HVPMU_OK);
}

static uint64_t get_pcr(struct hvpmu_t4_pmu *p, unsigned i)
{
	uint64_t v = ~UINT64_C(0);

	assert_int_equal(hvpmu_t4_pcr_read(p, i, &v), HVPMU_OK);
	return v;
}

static void set_pic(struct hvpmu_t4_pmu *p, unsigned i, uint64_t v)
{
	assert_int_equal(hvpmu_t4_pic_write(p, i, HVPMU_MODE_HYPER, v), HVPMU_OK);
}

static uint64_t get_pic(struct hvpmu_t4_pmu *p, unsigned i)
{
	uint64_t v = ~UINT64_C(0);

	assert_int_equal(hvpmu_t4_pic_read(p, i, HVPMU_MODE_HYPER, &v), HVPMU_OK);
	return v;
}

/* Activity of one feed. */
struct act {
	uint64_t dclass[HVPMU_MAX_ICLASS];
	uint64_t dtaken;
	uint64_t dcycles[HVPMU_NMODES];
	const struct hvpmu_block *last;
	enum hvpmu_mode mode;
	uint64_t dmispred[HVPMU_NMISPRED];
};

static void feed(struct hvpmu_t4_pmu *p, const struct act *a, struct hvpmu_pmu_feed_result *r)
{
	struct hvpmu_pmu_feed f;

	memset(&f, 0, sizeof f);
	f.dclass = a->dclass;
	for (unsigned k = 0; k < HVPMU_MAX_ICLASS; k++)
		if (a->dclass[k])
			f.dclass_nonzero |= UINT64_C(1) << k;
	f.dtaken_cond = a->dtaken;
	memcpy(f.dmispred, a->dmispred, sizeof f.dmispred);
	memcpy(f.dcycles, a->dcycles, sizeof f.dcycles);
	f.last = a->last;
	f.next_pc = NEXT_PC;
	f.mode = a->mode;
	memset(r, 0xa5, sizeof *r);
	hvpmu_t4_pmu_feed(p, &f, r);
}

/* Feed `n` user-mode instructions of class `cls` with no block. */
static void feed_insns(struct hvpmu_t4_pmu *p, unsigned cls, uint64_t n, struct hvpmu_pmu_feed_result *r)
{
	struct act a;

	memset(&a, 0, sizeof a);
	a.dclass[cls] = n;
	feed(p, &a, r);
}

/* Feed exactly the instructions of block b (taken: its conditional CTI was taken). */
static void feed_block(struct hvpmu_t4_pmu *p, const struct hvpmu_block *b, int taken,
		       struct hvpmu_pmu_feed_result *r)
{
	struct act a;

	memset(&a, 0, sizeof a);
	for (uint32_t i = 0; i < b->n; i++)
		a.dclass[b->cls[i]]++;
	a.dtaken = taken ? 1 : 0;
	a.last = b;
	feed(p, &a, r);
}

static void feed_cycles(struct hvpmu_t4_pmu *p, uint64_t u, uint64_t s, uint64_t h,
			struct hvpmu_pmu_feed_result *r)
{
	struct act a;

	memset(&a, 0, sizeof a);
	a.dcycles[HVPMU_MODE_USER] = u;
	a.dcycles[HVPMU_MODE_PRIV] = s;
	a.dcycles[HVPMU_MODE_HYPER] = h;
	feed(p, &a, r);
}

static int ov_of(struct hvpmu_t4_pmu *p, unsigned i)
{
	return (int)HVPMU_FEX(get_pcr(p, i), T4_PCR, OV);
}

static int ntc_of(struct hvpmu_t4_pmu *p, unsigned i)
{
	return (int)HVPMU_FEX(get_pcr(p, i), T4_PCR, NTC);
}

/* --- TABLE 10-1 / 10-3 layout ------------------------------------------- */

static void test_field_constants(void **state)
{
	(void)state;
	/* TABLE 10-1 bit positions; Linux PCR_N4_* masks (linux-clients.md §1.5). */
	assert_int_equal(HVPMU_FMASK(T4_PCR, OV), 0x1);
	assert_int_equal(HVPMU_FMASK(T4_PCR, TOE), 0x2);
	assert_int_equal(HVPMU_FMASK(T4_PCR, UT), 0x4);
	assert_int_equal(HVPMU_FMASK(T4_PCR, ST), 0x8);
	assert_int_equal(HVPMU_FMASK(T4_PCR, HT), 0x10);
	assert_int_equal(HVPMU_FMASK(T4_PCR, MASK), 0x7e0);
	assert_int_equal(HVPMU_FMASK(T4_PCR, SL), 0xf800);
	assert_int_equal(HVPMU_FMASK(T4_PCR, PICNPT), 0x10000);
	assert_int_equal(HVPMU_FMASK(T4_PCR, PICNHT), 0x20000);
	assert_int_equal(HVPMU_FMASK(T4_PCR, NTC), 0x40000);
	assert_int_equal(HVPMU_T4_PCR_IMPL_MASK, 0x7ffff);
	assert_int_equal(HVPMU_T4_PCR_STICKY_MASK, 0x40001);
	assert_int_equal(HVPMU_FMASK(T4_PIC, COUNTER), PIC_MAX);
	assert_int_equal(HVPMU_T4_NPIC, 4);
	assert_int_equal(HVPMU_T4_ASI_PCR, 0x64);
	assert_int_equal(HVPMU_T4_ASI_PIC, 0xb0);
}

static void test_initial_state(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();

	(void)state;
	for (unsigned i = 0; i < N_PCRS; i++) {
		assert_int_equal(get_pcr(p, i), 0);
		assert_int_equal(get_pic(p, i), 0);
		assert_int_equal(hvpmu_t4_pmu_peek_pic(p, i), 0);
	}
	assert_null(hvpmu_t4_pmu_create(NULL));
	hvpmu_t4_pmu_destroy(p);
	hvpmu_t4_pmu_destroy(NULL);
}

static void test_index_range(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	uint64_t v = 0;

	(void)state;
	assert_int_equal(hvpmu_t4_pcr_read(p, N_PCRS, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t4_pcr_write(p, N_PCRS, 0, HVPMU_MODE_HYPER), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t4_pic_read(p, N_PCRS, HVPMU_MODE_HYPER, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t4_pic_write(p, N_PCRS, HVPMU_MODE_HYPER, 0), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t4_pic_read(p, UINT32_MAX, HVPMU_MODE_HYPER, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t4_pmu_peek_pic(p, N_PCRS), 0);
	hvpmu_t4_pmu_destroy(p);
}

/* Each field written alone through HVPMU_FDP reads back in place. */
static void test_pcr_field_roundtrip(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	static const struct {
		unsigned shift, len;
	} fields[] = {
		{ T4_PCR_TOE_SHIFT, T4_PCR_TOE_LEN },     { T4_PCR_UT_SHIFT, T4_PCR_UT_LEN },
		{ T4_PCR_ST_SHIFT, T4_PCR_ST_LEN },       { T4_PCR_HT_SHIFT, T4_PCR_HT_LEN },
		{ T4_PCR_MASK_SHIFT, T4_PCR_MASK_LEN },   { T4_PCR_SL_SHIFT, T4_PCR_SL_LEN },
		{ T4_PCR_PICNPT_SHIFT, T4_PCR_PICNPT_LEN },{ T4_PCR_PICNHT_SHIFT, T4_PCR_PICNHT_LEN },
	};

	(void)state;
	for (unsigned i = 0; i < N_PCRS; i++) {
		for (unsigned f = 0; f < sizeof fields / sizeof fields[0]; f++) {
			uint64_t max = (UINT64_C(1) << fields[f].len) - 1;

			for (uint64_t x = 1; x <= max; x = x * 2 + 1) {
				uint64_t v = (x & max) << fields[f].shift;

				set_pcr(p, i, v);
				assert_int_equal(get_pcr(p, i), v);
				assert_int_equal((get_pcr(p, i) >> fields[f].shift) & max, x);
			}
			set_pcr(p, i, 0);
		}
		/* named helpers agree */
		set_pcr(p, i, pcr_val(21, 0x2a, 1, 0, 1, 1));
		assert_int_equal(HVPMU_FEX(get_pcr(p, i), T4_PCR, SL), 21);
		assert_int_equal(HVPMU_FEX(get_pcr(p, i), T4_PCR, MASK), 0x2a);
		assert_int_equal(HVPMU_FEX(get_pcr(p, i), T4_PCR, UT), 1);
		assert_int_equal(HVPMU_FEX(get_pcr(p, i), T4_PCR, ST), 0);
		assert_int_equal(HVPMU_FEX(get_pcr(p, i), T4_PCR, HT), 1);
		assert_int_equal(HVPMU_FEX(get_pcr(p, i), T4_PCR, TOE), 1);
		set_pcr(p, i, 0);
	}
	/* PCRs are independent */
	set_pcr(p, 2, pcr_val(3, 0x3f, 1, 1, 0, 1));
	assert_int_equal(get_pcr(p, 0), 0);
	assert_int_equal(get_pcr(p, 1), 0);
	assert_int_equal(get_pcr(p, 3), 0);
	hvpmu_t4_pmu_destroy(p);
}

/* Bits 63:19 read 0; ov and ntc cannot be written to 1. */
static void test_pcr_reserved_and_sticky_writes(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();

	(void)state;
	set_pcr(p, 0, ~UINT64_C(0));
	assert_int_equal(get_pcr(p, 0), PCR_WRITABLE);
	set_pcr(p, 1, ~HVPMU_T4_PCR_IMPL_MASK);
	assert_int_equal(get_pcr(p, 1), 0);
	set_pcr(p, 2, HVPMU_FMASK(T4_PCR, OV));
	assert_int_equal(get_pcr(p, 2), 0);
	set_pcr(p, 3, HVPMU_FMASK(T4_PCR, NTC));
	assert_int_equal(get_pcr(p, 3), 0);
	hvpmu_t4_pmu_destroy(p);
}

/* All fields but ov and ntc take the written value (TABLE 10-1, §10.2). */
static void test_pcr_other_fields_take_value(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);

	(void)state;
	for (unsigned n = 0; n < 2000; n++) {
		unsigned i = n % N_PCRS;
		uint64_t v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x;
		set_pcr(p, i, v);
		assert_int_equal(get_pcr(p, i), v & PCR_WRITABLE);
	}
	hvpmu_t4_pmu_destroy(p);
}

/* TABLE 10-3: a 32-bit counter in 31:0, 63:32 read 0 and writes ignore them. */
static void test_pic_is_32_bits(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();

	(void)state;
	set_pic(p, 0, UINT64_C(0xdeadbeef12345678));
	assert_int_equal(get_pic(p, 0), 0x12345678);
	assert_int_equal(hvpmu_t4_pmu_peek_pic(p, 0), 0x12345678);
	set_pic(p, 1, UINT64_C(0xffffffff00000000));
	assert_int_equal(get_pic(p, 1), 0);
	set_pic(p, 2, PIC_MAX);
	assert_int_equal(get_pic(p, 2), PIC_MAX);
	set_pic(p, 3, ~UINT64_C(0));
	assert_int_equal(get_pic(p, 3), PIC_MAX);
	/* changing a PCR field does not affect the PIC (§10.2) */
	set_pcr(p, 0, pcr_val(3, 0x3f, 1, 1, 0, 1));
	assert_int_equal(get_pic(p, 0), 0x12345678);
	hvpmu_t4_pmu_destroy(p);
}

/* --- counting, wrap, ov, ntc -------------------------------------------- */

static void test_counting_sl3_groups(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;
	struct act a;

	(void)state;
	set_pcr(p, 0, pcr_val(3, 0x04, 1, 0, 0, 0)); /* Instr_ld */
	set_pcr(p, 1, pcr_val(3, 0x3f, 1, 0, 0, 0)); /* Instr_all */
	set_pcr(p, 2, pcr_val(3, 0x01, 1, 0, 0, 0)); /* Branches */
	set_pcr(p, 3, pcr_val(3, 0x12, 1, 0, 0, 0)); /* FGU | SPR ring ops */
	memset(&a, 0, sizeof a);
	a.dclass[C_LD] = 7;
	a.dclass[C_LD_NTC] = 2;
	a.dclass[C_BLOCK_LD] = 1;
	a.dclass[C_ADD] = 100;
	a.dclass[C_BCOND] = 11;
	a.dclass[C_BA] = 5;
	a.dclass[C_ST] = 13;
	a.dclass[C_FGU] = 17;
	a.dclass[C_WRPR] = 19;
	a.dtaken = 4; /* taken conditionals do not count in sl=3 */
	feed(p, &a, &r);
	assert_int_equal(r.ovf_mask, 0);
	assert_int_equal(r.precise_mask, 0);
	assert_int_equal(r.disrupt_mask, 0);
	assert_int_equal(get_pic(p, 0), 10);
	assert_int_equal(get_pic(p, 1), 7 + 2 + 1 + 100 + 11 + 5 + 13 + 17 + 19);
	assert_int_equal(get_pic(p, 2), 16);
	assert_int_equal(get_pic(p, 3), 36);
	hvpmu_t4_pmu_destroy(p);
}

static void test_wrap_sets_ov(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;

	(void)state;
	set_pcr(p, 0, pcr_val(3, 0x3f, 1, 0, 0, 0));
	set_pic(p, 0, PIC_MAX - 1);
	feed_insns(p, C_ADD, 1, &r);
	assert_int_equal(get_pic(p, 0), PIC_MAX);
	assert_int_equal(ov_of(p, 0), 0);
	assert_int_equal(r.ovf_mask, 0);
	feed_insns(p, C_ADD, 1, &r); /* 0xffffffff -> 0 */
	assert_int_equal(get_pic(p, 0), 0);
	assert_int_equal(ov_of(p, 0), 1);
	assert_int_equal(ntc_of(p, 0), 0);
	assert_int_equal(r.ovf_mask, 1u << 0);
	/* no trap without toe */
	assert_int_equal(r.precise_mask, 0);
	assert_int_equal(r.disrupt_mask, 0);
	/* ov stays set through further counting (sticky) */
	feed_insns(p, C_ADD, 5, &r);
	assert_int_equal(get_pic(p, 0), 5);
	assert_int_equal(ov_of(p, 0), 1);
	assert_int_equal(r.ovf_mask, 0);
	/* a large delta wraps too and keeps the low 32 bits */
	set_pcr(p, 1, pcr_val(3, 0x3f, 1, 0, 0, 0));
	set_pic(p, 1, PIC_MAX - 0xf);
	feed_insns(p, C_ADD, 0x30, &r);
	assert_int_equal(get_pic(p, 1), 0x20);
	assert_int_equal(ov_of(p, 1), 1);
	assert_int_equal(r.ovf_mask, 1u << 1);
	hvpmu_t4_pmu_destroy(p);
}

/* ov and ntc: software may clear them but never set them (§10.2). */
static void test_ov_ntc_sticky(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;
	const uint64_t cfg = pcr_val(3, 0x04, 1, 0, 0, 0);
	const uint8_t cls[] = { C_LD_NTC };
	const struct hvpmu_block b = { .vaddr = BLOCK_VA, .n = 1, .cond_cti = -1, .cti = -1, .cls = cls };

	(void)state;
	set_pcr(p, 0, cfg);
	set_pic(p, 0, PIC_MAX);
	feed_block(p, &b, 0, &r);
	assert_int_equal(get_pcr(p, 0), cfg | HVPMU_T4_PCR_STICKY_MASK);
	/* writing 1s keeps them */
	set_pcr(p, 0, cfg | HVPMU_T4_PCR_STICKY_MASK);
	assert_int_equal(get_pcr(p, 0), cfg | HVPMU_T4_PCR_STICKY_MASK);
	/* clear ov only */
	set_pcr(p, 0, cfg | HVPMU_FMASK(T4_PCR, NTC));
	assert_int_equal(get_pcr(p, 0), cfg | HVPMU_FMASK(T4_PCR, NTC));
	/* ov cannot come back by writing 1 */
	set_pcr(p, 0, cfg | HVPMU_T4_PCR_STICKY_MASK);
	assert_int_equal(get_pcr(p, 0), cfg | HVPMU_FMASK(T4_PCR, NTC));
	/* clear ntc */
	set_pcr(p, 0, cfg);
	assert_int_equal(get_pcr(p, 0), cfg);
	set_pcr(p, 0, cfg | HVPMU_T4_PCR_STICKY_MASK);
	assert_int_equal(get_pcr(p, 0), cfg);
	/* other fields changed in the same write still apply */
	set_pic(p, 0, PIC_MAX);
	feed_block(p, &b, 0, &r);
	set_pcr(p, 0, pcr_val(26, 0, 0, 1, 0, 1) | HVPMU_FMASK(T4_PCR, OV));
	assert_int_equal(get_pcr(p, 0), pcr_val(26, 0, 0, 1, 0, 1) | HVPMU_FMASK(T4_PCR, OV));
	hvpmu_t4_pmu_destroy(p);
}

/* ntc only when the wrapping instruction is next-to-commit (TABLE 10-1 fn 1). */
static void test_ntc_only_on_ntc_instruction(void **state)
{
	/* add, casxa (ntc), add, ldxa-ntc, ld */
	const uint8_t cls[] = { C_ADD, C_CASX, C_ADD, C_LD_NTC, C_LD };
	const struct hvpmu_block b = { .vaddr = BLOCK_VA, .n = 5, .cond_cti = -1, .cti = -1, .cls = cls };
	static const struct {
		uint32_t mask;    /* sl=3 mask */
		uint64_t pic;     /* PIC before the block */
		int ntc;
	} cases[] = {
		{ 0x3f, PIC_MAX - 0, 0 }, /* wraps at add */
		{ 0x3f, PIC_MAX - 1, 1 }, /* wraps at casxa */
		{ 0x3f, PIC_MAX - 2, 0 }, /* wraps at add */
		{ 0x3f, PIC_MAX - 3, 1 }, /* wraps at ldxa (ntc) */
		{ 0x3f, PIC_MAX - 4, 0 }, /* wraps at ld */
		{ 0x04, PIC_MAX - 0, 1 }, /* loads: first load is the ntc one */
		{ 0x04, PIC_MAX - 1, 0 }, /* second load is not */
		{ 0x20, PIC_MAX - 0, 0 }, /* "other": add, casxa, add */
		{ 0x20, PIC_MAX - 1, 1 },
		{ 0x20, PIC_MAX - 2, 0 },
	};

	(void)state;
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct hvpmu_t4_pmu *p = new_pmu();
		struct hvpmu_pmu_feed_result r;

		set_pcr(p, 1, pcr_val(3, cases[k].mask, 1, 0, 0, 0));
		set_pic(p, 1, cases[k].pic);
		feed_block(p, &b, 0, &r);
		assert_int_equal(r.ovf_mask, 1u << 1);
		assert_int_equal(ov_of(p, 1), 1);
		assert_int_equal(ntc_of(p, 1), cases[k].ntc);
		hvpmu_t4_pmu_destroy(p);
	}
}

/* --- precise_performance_event (§10.2 toe, §10.3) ----------------------- */

static void test_precise_needs_toe(void **state)
{
	const uint8_t cls[] = { C_ADD, C_LD, C_ADD };
	const struct hvpmu_block b = { .vaddr = BLOCK_VA, .n = 3, .cond_cti = -1, .cti = -1, .cls = cls };
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;

	(void)state;
	set_pcr(p, 0, pcr_val(3, 0x04, 1, 0, 0, 0)); /* toe = 0 */
	set_pcr(p, 1, pcr_val(3, 0x04, 1, 0, 0, 1)); /* toe = 1 */
	set_pic(p, 0, PIC_MAX);
	set_pic(p, 1, PIC_MAX);
	feed_block(p, &b, 0, &r);
	assert_int_equal(r.ovf_mask, 0x3);
	assert_int_equal(r.precise_mask, 1u << 1);
	assert_int_equal(r.disrupt_mask, 0); /* a precise group never disrupts */
	assert_int_equal(r.precise_tpc, BLOCK_VA + 4);
	/* precise traps are edge events: nothing more without a new wrap */
	feed_block(p, &b, 0, &r);
	assert_int_equal(r.precise_mask, 0);
	assert_int_equal(r.disrupt_mask, 0);
	hvpmu_t4_pmu_destroy(p);
}

/* ht=1 prevents any precise trap (§10.3, TABLE 10-1 footnote 2). */
static void test_no_precise_with_ht(void **state)
{
	const uint8_t cls[] = { C_ADD, C_LD, C_ADD };
	const struct hvpmu_block b = { .vaddr = BLOCK_VA, .n = 3, .cond_cti = -1, .cti = -1, .cls = cls };
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;

	(void)state;
	set_pcr(p, 2, pcr_val(3, 0x3f, 1, 0, 1, 1));
	set_pcr(p, 3, pcr_val(4, 0x01, 1, 1, 1, 1));
	set_pic(p, 2, PIC_MAX);
	set_pic(p, 3, PIC_MAX);
	feed_block(p, &b, 0, &r);
	assert_int_equal(r.ovf_mask, 1u << 2);
	assert_int_equal(ov_of(p, 2), 1);
	assert_int_equal(r.precise_mask, 0);
	assert_int_equal(r.disrupt_mask, 0);
	hvpmu_t4_pmu_destroy(p);
}

/* TPC = vaddr + 4 * index of the overflowing instruction, sl=3 (no skid). */
static void test_precise_tpc_sl3_positions(void **state)
{
	/* 0 ld, 1 add, 2 st, 3 ld, 4 add, 5 ld-ntc, 6 bne, 7 add(delay) */
	const uint8_t cls[] = { C_LD, C_ADD, C_ST, C_LD, C_ADD, C_LD_NTC, C_BCOND, C_ADD };
	const struct hvpmu_block b = { .vaddr = BLOCK_VA, .n = 8, .cond_cti = 6, .cti = 6, .cls = cls };
	static const struct {
		unsigned mask;
		uint64_t k;    /* the k-th counted instruction wraps (1-based) */
		unsigned idx;  /* its index in the block */
	} cases[] = {
		{ 0x04, 1, 0 }, { 0x04, 2, 3 }, { 0x04, 3, 5 },
		{ 0x3f, 1, 0 }, { 0x3f, 5, 4 }, { 0x3f, 8, 7 },
		{ 0x20, 1, 1 }, { 0x20, 2, 4 }, { 0x20, 3, 7 },
		{ 0x08, 1, 2 }, { 0x01, 1, 6 }, { 0x0c, 3, 3 },
	};

	(void)state;
	for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct hvpmu_t4_pmu *p = new_pmu();
		struct hvpmu_pmu_feed_result r;

		set_pcr(p, 0, pcr_val(3, cases[c].mask, 1, 0, 0, 1));
		set_pic(p, 0, HVPMU_T4_PIC_WRAP - cases[c].k);
		feed_block(p, &b, 1, &r);
		assert_int_equal(r.ovf_mask, 1);
		assert_int_equal(r.precise_mask, 1);
		assert_int_equal(r.precise_tpc, BLOCK_VA + 4u * cases[c].idx);
		hvpmu_t4_pmu_destroy(p);
	}
}

/* sl=4: branches, taken branches (always-taken CTIs and the taken conditional
 * CTI reported through dtaken_cond), atomics, sw count, prefetch, block. */
static void test_precise_tpc_sl4_positions(void **state)
{
	/* 0 add, 1 ba, 2 casxa, 3 ld, 4 bne, 5 sethi-swcount, 6 prefetch, 7 block ld, 8 call */
	const uint8_t cls[] = { C_ADD, C_BA, C_CASX, C_LD, C_BCOND, C_SWCOUNT, C_PREFETCH,
				C_BLOCK_LD, C_BA };
	const struct hvpmu_block b = { .vaddr = BLOCK_VA, .n = 9, .cond_cti = 4, .cti = 4, .cls = cls };
	static const struct {
		unsigned mask;
		int taken;
		uint64_t k;
		int idx;       /* -1: no wrap */
	} cases[] = {
		{ 0x01, 0, 1, 1 }, { 0x01, 0, 2, 4 }, { 0x01, 0, 3, 8 },
		{ 0x02, 1, 1, 1 }, { 0x02, 1, 2, 4 }, { 0x02, 1, 3, 8 },
		{ 0x02, 0, 1, 1 }, { 0x02, 0, 2, 8 }, { 0x02, 0, 3, -1 },
		{ 0x08, 0, 1, 2 }, { 0x04, 0, 1, 5 }, { 0x10, 0, 1, 6 }, { 0x20, 0, 1, 7 },
		{ 0x0a, 1, 2, 2 }, { 0x0a, 1, 3, 4 },
		{ 0x3f, 1, 4, 5 },
	};

	(void)state;
	for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct hvpmu_t4_pmu *p = new_pmu();
		struct hvpmu_pmu_feed_result r;

		set_pcr(p, 3, pcr_val(4, cases[c].mask, 1, 0, 0, 1));
		set_pic(p, 3, HVPMU_T4_PIC_WRAP - cases[c].k);
		feed_block(p, &b, cases[c].taken, &r);
		if (cases[c].idx < 0) {
			assert_int_equal(r.ovf_mask, 0);
			assert_int_equal(r.precise_mask, 0);
		} else {
			assert_int_equal(r.ovf_mask, 1u << 3);
			assert_int_equal(r.precise_mask, 1u << 3);
			assert_int_equal(r.precise_tpc, BLOCK_VA + 4u * (unsigned)cases[c].idx);
		}
		hvpmu_t4_pmu_destroy(p);
	}
}

/* Two PICs wrap in one block: the trap PC is the earliest instruction. */
static void test_precise_earliest_of_two(void **state)
{
	const uint8_t cls[] = { C_ADD, C_ADD, C_LD, C_ADD, C_ST, C_ADD };
	const struct hvpmu_block b = { .vaddr = BLOCK_VA, .n = 6, .cond_cti = -1, .cti = -1, .cls = cls };
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;

	(void)state;
	set_pcr(p, 0, pcr_val(3, 0x08, 1, 0, 0, 1)); /* store at 4 */
	set_pcr(p, 1, pcr_val(3, 0x04, 1, 0, 0, 1)); /* load at 2 */
	set_pcr(p, 2, pcr_val(3, 0x3f, 1, 0, 0, 0)); /* wraps at 3, no toe */
	set_pic(p, 0, PIC_MAX);
	set_pic(p, 1, PIC_MAX);
	set_pic(p, 2, PIC_MAX - 3);
	feed_block(p, &b, 0, &r);
	assert_int_equal(r.ovf_mask, 0x7);
	assert_int_equal(r.precise_mask, 0x3);
	assert_int_equal(r.precise_tpc, BLOCK_VA + 8);
	hvpmu_t4_pmu_destroy(p);
}

/* TABLE 10-2: multiple mask bits count an instruction once. */
static void test_sl4_multiple_mask_bits_count_once(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;
	struct act a;

	(void)state;
	set_pcr(p, 0, pcr_val(4, 0x03, 1, 0, 0, 0)); /* branches | taken */
	set_pcr(p, 1, pcr_val(4, 0x3f, 1, 0, 0, 0)); /* everything */
	set_pcr(p, 2, pcr_val(4, 0x02, 1, 0, 0, 0)); /* taken */
	set_pcr(p, 3, pcr_val(4, 0x0a, 1, 0, 0, 0)); /* taken | atomics */
	memset(&a, 0, sizeof a);
	a.dclass[C_BCOND] = 10;
	a.dclass[C_BA] = 3;
	a.dclass[C_CASX] = 2;
	a.dclass[C_SWCOUNT] = 5;
	a.dclass[C_PREFETCH] = 7;
	a.dclass[C_BLOCK_LD] = 11;
	a.dclass[C_ADD] = 1000;
	a.dclass[C_LD] = 100;
	a.dtaken = 6;
	feed(p, &a, &r);
	assert_int_equal(get_pic(p, 0), 13);                  /* each branch once */
	assert_int_equal(get_pic(p, 1), 13 + 2 + 5 + 7 + 11); /* no double counting */
	assert_int_equal(get_pic(p, 2), 3 + 6);
	assert_int_equal(get_pic(p, 3), 3 + 6 + 2);
	hvpmu_t4_pmu_destroy(p);
}

/* sl=3 mask bits: an instruction is in exactly one group; 0x3f counts all once. */
static void test_sl3_mask_union(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;
	struct act a;
	uint64_t total = 0;

	(void)state;
	memset(&a, 0, sizeof a);
	for (unsigned k = 0; k < NCLASS_USED; k++) {
		a.dclass[k] = 10 + k;
		total += 10 + k;
	}
	for (unsigned mask = 0; mask <= 0x3f; mask++) {
		uint64_t want = 0;

		/* TABLE 10-2 sl=3: 0x01 branches, 0x02 FGU, 0x04 loads, 0x08
		 * stores, 0x10 SPR ring ops, 0x20 other (hvpmu/insn.h groups) */
		static const uint32_t group_of_bit[6] = { HVPMU_IC_BRANCH, HVPMU_IC_FP, HVPMU_IC_LOAD,
							   HVPMU_IC_STORE, HVPMU_IC_SPR, HVPMU_IC_OTHER };
		uint32_t groups = 0;

		for (unsigned b = 0; b < 6; b++)
			if (mask & (1u << b))
				groups |= group_of_bit[b];
		for (unsigned k = 0; k < NCLASS_USED; k++)
			if (class_flags[k] & groups)
				want += 10 + k;
		set_pcr(p, 0, pcr_val(3, mask, 1, 0, 0, 0));
		set_pic(p, 0, 0);
		feed(p, &a, &r);
		assert_int_equal(get_pic(p, 0), want);
	}
	assert_int_equal(get_pic(p, 0), total);
	hvpmu_t4_pmu_destroy(p);
}

/* --- sl=26 cycles, disrupting traps ------------------------------------- */

static void test_cycles_per_mode(void **state)
{
	static const struct {
		int ut, st, ht;
		uint64_t want;
	} cases[] = {
		{ 1, 0, 0, 1000 }, { 0, 1, 0, 200 }, { 0, 0, 1, 30 },
		{ 1, 1, 0, 1200 }, { 0, 1, 1, 230 }, { 1, 1, 1, 1230 }, { 0, 0, 0, 0 },
	};

	(void)state;
	for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct hvpmu_t4_pmu *p = new_pmu();
		struct hvpmu_pmu_feed_result r;
		struct act a;

		/* mask is ignored for sl=26 */
		set_pcr(p, 0, pcr_val(26, 0x3f, cases[c].ut, cases[c].st, cases[c].ht, 0));
		set_pcr(p, 1, pcr_val(26, 0x00, cases[c].ut, cases[c].st, cases[c].ht, 0));
		memset(&a, 0, sizeof a);
		a.dcycles[HVPMU_MODE_USER] = 1000;
		a.dcycles[HVPMU_MODE_PRIV] = 200;
		a.dcycles[HVPMU_MODE_HYPER] = 30;
		a.dclass[C_ADD] = 77; /* instructions are not cycles */
		feed(p, &a, &r);
		assert_int_equal(get_pic(p, 0), cases[c].want);
		assert_int_equal(get_pic(p, 1), cases[c].want);
		hvpmu_t4_pmu_destroy(p);
	}
}

/* Cycle overflow is disrupting and level: asserted while toe && ov. */
static void test_cycles_disrupting_level(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;
	const uint64_t cfg = pcr_val(26, 0, 1, 1, 0, 1);

	(void)state;
	set_pcr(p, 1, cfg);
	set_pic(p, 1, PIC_MAX - 99);
	feed_cycles(p, 99, 0, 0, &r);
	assert_int_equal(r.ovf_mask, 0);
	assert_int_equal(r.disrupt_mask, 0);
	feed_cycles(p, 0, 1, 0, &r); /* privileged cycle wraps it */
	assert_int_equal(r.ovf_mask, 1u << 1);
	assert_int_equal(r.disrupt_mask, 1u << 1);
	assert_int_equal(r.precise_mask, 0);
	assert_int_equal(ov_of(p, 1), 1);
	assert_int_equal(ntc_of(p, 1), 0);
	/* still asserted with no new activity, and in any mode */
	feed_cycles(p, 0, 0, 0, &r);
	assert_int_equal(r.disrupt_mask, 1u << 1);
	assert_int_equal(r.ovf_mask, 0);
	feed_cycles(p, 5, 0, 7, &r);
	assert_int_equal(r.disrupt_mask, 1u << 1);
	/* clearing ov deasserts it */
	set_pcr(p, 1, cfg);
	assert_int_equal(ov_of(p, 1), 0);
	feed_cycles(p, 0, 0, 0, &r);
	assert_int_equal(r.disrupt_mask, 0);
	/* toe=0 with ov=1: no trap */
	set_pic(p, 1, PIC_MAX);
	set_pcr(p, 1, pcr_val(26, 0, 1, 0, 0, 0));
	feed_cycles(p, 1, 0, 0, &r);
	assert_int_equal(ov_of(p, 1), 1);
	assert_int_equal(r.ovf_mask, 1u << 1);
	assert_int_equal(r.disrupt_mask, 0);
	/* setting toe later while ov is set raises it (toe AND ov) */
	set_pcr(p, 1, pcr_val(26, 0, 1, 0, 0, 1) | HVPMU_FMASK(T4_PCR, OV));
	feed_cycles(p, 0, 0, 0, &r);
	assert_int_equal(r.disrupt_mask, 1u << 1);
	hvpmu_t4_pmu_destroy(p);
}

/* --- mode filtering and groups that count nothing ----------------------- */

static void test_ut_st_ht_filter_instructions(void **state)
{
	static const struct {
		int ut, st, ht;
		uint64_t want;
	} cases[] = {
		{ 1, 0, 0, 42 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 1, 1, 0 }, { 1, 1, 1, 42 },
		{ 0, 0, 0, 0 },
	};

	(void)state;
	for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct hvpmu_t4_pmu *p = new_pmu();
		struct hvpmu_pmu_feed_result r;

		set_pcr(p, 0, pcr_val(3, 0x3f, cases[c].ut, cases[c].st, cases[c].ht, 1));
		set_pcr(p, 1, pcr_val(4, 0x01, cases[c].ut, cases[c].st, cases[c].ht, 1));
		feed_insns(p, C_ADD, 42, &r);
		feed_insns(p, C_BA, 42, &r);
		assert_int_equal(get_pic(p, 0), 2 * cases[c].want);
		assert_int_equal(get_pic(p, 1), cases[c].want);
		hvpmu_t4_pmu_destroy(p);
	}
}

/* TABLE 10-2 sl=25: mask bits select mispredict kinds; 0x02 counts far-table
 * and return-stack mispredicts, 0x08 return-stack only, 0x0f all. */
static void test_sl25_mask_kinds(void **state)
{
	static const struct {
		unsigned mask;
		uint64_t want;
	} cases[] = {
		{ 0x01, 1 }, { 0x02, 2 + 8 }, { 0x04, 4 }, { 0x08, 8 }, { 0x0e, 2 + 4 + 8 }, { 0x0f, 1 + 2 + 4 + 8 },
	};

	(void)state;
	for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct hvpmu_t4_pmu *p = new_pmu();
		struct hvpmu_pmu_feed_result r;
		struct act a;

		set_pcr(p, 0, pcr_val(25, cases[c].mask, 1, 0, 0, 0));
		memset(&a, 0, sizeof a);
		a.dmispred[HVPMU_MISPRED_DIR] = 1;
		a.dmispred[HVPMU_MISPRED_FAR] = 2;
		a.dmispred[HVPMU_MISPRED_INDIR] = 4;
		a.dmispred[HVPMU_MISPRED_RET] = 8;
		feed(p, &a, &r);
		assert_int_equal(get_pic(p, 0), cases[c].want);
		hvpmu_t4_pmu_destroy(p);
	}
}

/* sl=25 is precise: the trap PC is the mispredicted CTI (the block's cti). */
static void test_sl25_precise_at_cti(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;
	const uint8_t cls[] = { C_LD, C_ADD, C_BCOND, C_ADD };
	const struct hvpmu_block b = { .vaddr = BLOCK_VA, .n = 4, .cond_cti = 2, .cti = 2, .cls = cls };
	struct act a;

	(void)state;
	set_pcr(p, 0, pcr_val(25, 0x0f, 1, 0, 0, 1));
	set_pic(p, 0, PIC_MAX);
	memset(&a, 0, sizeof a);
	a.dclass[C_LD] = 1;
	a.dclass[C_ADD] = 2;
	a.dclass[C_BCOND] = 1;
	a.dmispred[HVPMU_MISPRED_DIR] = 1;
	a.last = &b;
	feed(p, &a, &r);
	assert_int_equal(r.ovf_mask, 1);
	assert_int_equal(r.precise_mask, 1);
	assert_int_equal(r.precise_tpc, BLOCK_VA + 4 * 2);
	assert_int_equal(ov_of(p, 0), 1);
	/* no mispredict: nothing counted */
	memset(&a, 0, sizeof a);
	a.dclass[C_BCOND] = 5;
	feed(p, &a, &r);
	assert_int_equal(get_pic(p, 0), 0);
	hvpmu_t4_pmu_destroy(p);
}

/*
 * Pipeline groups (sl=1, 2, 8, 9, 28; docs/timing-model.md "Events"): each
 * mask bit counts its causes' cycles, several bits the union; the
 * partitions of TABLE 10-2 hold (Sel-0-wait + Sel-1 = Pick-0 + Pick-1 =
 * Commit-0 + Commit-1 = cycles); privileged / hyperprivileged cycles are
 * issue cycles; sl=8 0x08 counts BTC target incorrect.
 */
static uint64_t pipe_count(unsigned sl, unsigned mask, int ut, int st, int ht)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed f;
	struct hvpmu_pmu_feed_result r;
	uint64_t dclass[HVPMU_MAX_ICLASS] = { 0 };
	uint64_t v;

	memset(&f, 0, sizeof f);
	f.dclass = dclass;
	f.dpipe[HVPMU_PIPE_ISSUE] = 100;
	f.dpipe[HVPMU_PIPE_FETCH] = 10;
	f.dpipe[HVPMU_PIPE_REFETCH] = 3;
	f.dpipe[HVPMU_PIPE_DRAIN] = 21;
	f.dpipe[HVPMU_PIPE_DATA] = 300;
	f.dpipe[HVPMU_PIPE_DTLB] = 30;
	f.dcycles[HVPMU_MODE_USER] = 464;
	f.dcycles[HVPMU_MODE_PRIV] = 50;
	f.dcycles[HVPMU_MODE_HYPER] = 7;
	f.dmev[HVPMU_MEV_BTC_TARG_INCORRECT] = 4;
	f.dmev[HVPMU_MEV_BTC_MISS] = 9;
	f.next_pc = NEXT_PC;
	set_pcr(p, 0, pcr_val(sl, mask, ut, st, ht, 0));
	hvpmu_t4_pmu_feed(p, &f, &r);
	v = get_pic(p, 0);
	hvpmu_t4_pmu_destroy(p);
	return v;
}

static void test_pipe_groups(void **state)
{
	(void)state;
	assert_int_equal(pipe_count(1, 0x01, 1, 0, 0), 21);          /* Sel_pipe_drain */
	assert_int_equal(pipe_count(1, 0x02, 1, 0, 0), 364);         /* Sel_0_wait */
	assert_int_equal(pipe_count(1, 0x03, 1, 0, 0), 364);         /* union: drain counted once */
	assert_int_equal(pipe_count(1, 0x04, 1, 1, 1), 0);           /* Sel_0_ready: strand alone */
	assert_int_equal(pipe_count(1, 0x08, 1, 0, 0), 100);         /* Sel_1 */
	assert_int_equal(pipe_count(1, 0x10, 1, 1, 1), 0);           /* Sel_2: single issue */
	assert_int_equal(pipe_count(1, 0x1e, 1, 0, 0), 464);         /* the four cover every cycle */
	assert_int_equal(pipe_count(1, 0x08, 1, 1, 1), 100 + 50 + 7); /* OS work: issue cycles */
	assert_int_equal(pipe_count(1, 0x08, 0, 1, 0), 50);
	assert_int_equal(pipe_count(1, 0x02, 0, 1, 1), 0);
	assert_int_equal(pipe_count(2, 0x01, 1, 0, 0), 364);         /* Pick_0 */
	assert_int_equal(pipe_count(2, 0x0e, 1, 0, 0), 100);         /* Pick_any */
	assert_int_equal(pipe_count(2, 0x0c, 1, 1, 1), 0);
	assert_int_equal(pipe_count(8, 0x01, 1, 0, 0), 340);         /* Fetch_0: fetch + full IB */
	assert_int_equal(pipe_count(8, 0x02, 1, 0, 0), 340);         /* Fetch_0_all: strand alone */
	assert_int_equal(pipe_count(8, 0x04, 1, 0, 0), 330);         /* IB full: data, DTLB */
	assert_int_equal(pipe_count(8, 0x08, 1, 0, 0), 4);           /* BTC target incorrect */
	assert_int_equal(pipe_count(8, 0x08, 0, 1, 1), 0);
	assert_int_equal(pipe_count(9, 0x0f, 1, 1, 1), 0);           /* no finite PQ/ROB/LB/SB */
	assert_int_equal(pipe_count(9, 0x10, 1, 0, 0), 30);          /* DTLB miss tag wait */
	assert_int_equal(pipe_count(28, 0x01, 1, 0, 0), 364);        /* Commit_0 */
	assert_int_equal(pipe_count(28, 0x0c, 1, 0, 0), 100);        /* Commit_1_or_2 */
	assert_int_equal(pipe_count(28, 0x08, 1, 1, 1), 0);          /* Commit_2 */
	assert_int_equal(pipe_count(5, 0x08, 1, 0, 0), 9);           /* BTC miss */
	/* a pipeline counter bounds its wrap by cycles, as sl=26 */
	{
		struct hvpmu_t4_pmu *p = new_pmu();

		set_pcr(p, 0, pcr_val(8, 0x01, 1, 0, 0, 1));
		set_pic(p, 0, PIC_MAX - 99);
		assert_int_equal(hvpmu_t4_pmu_headroom(p, 10), 10);
		hvpmu_t4_pmu_destroy(p);
	}
}

static void test_groups_counting_nothing(void **state)
{
	/* sl=0, reserved 12-15, 27, 29-31, and groups the model cannot count */
	static const unsigned sls[] = { 0, 12, 13, 14, 15, 27, 29, 30, 31,
					5, 6, 7, 10, 11, 16, 17, 18, 19,
					20, 21, 22, 23, 24 };

	(void)state;
	for (unsigned s = 0; s < sizeof sls / sizeof sls[0]; s++) {
		struct hvpmu_t4_pmu *p = new_pmu();
		struct hvpmu_pmu_feed_result r;
		const uint8_t cls[] = { C_LD, C_BA, C_ADD };
		const struct hvpmu_block b = { .vaddr = BLOCK_VA, .n = 3, .cond_cti = -1, .cti = -1, .cls = cls };
		struct act a;

		for (unsigned i = 0; i < N_PCRS; i++) {
			set_pcr(p, i, pcr_val(sls[s], i == 0 ? 0x3f : 1u << i, 1, 1, 1, 1));
			set_pic(p, i, PIC_MAX);
		}
		memset(&a, 0, sizeof a);
		a.dclass[C_LD] = 1;
		a.dclass[C_BA] = 1;
		a.dclass[C_ADD] = 1;
		a.dtaken = 1;
		a.dcycles[0] = a.dcycles[1] = a.dcycles[2] = 1000;
		a.last = &b;
		feed(p, &a, &r);
		assert_int_equal(r.ovf_mask, 0);
		assert_int_equal(r.precise_mask, 0);
		assert_int_equal(r.disrupt_mask, 0);
		for (unsigned i = 0; i < N_PCRS; i++) {
			assert_int_equal(get_pic(p, i), PIC_MAX);
			assert_int_equal(ov_of(p, i), 0);
		}
		assert_int_equal(hvpmu_t4_pmu_headroom(p, 9), UINT64_MAX);
		hvpmu_t4_pmu_destroy(p);
	}
}

/* --- §10.3 picnht / picnpt ---------------------------------------------- */

static void test_pic_access_matrix(void **state)
{
	(void)state;
	for (int nht = 0; nht <= 1; nht++) {
		for (int npt = 0; npt <= 1; npt++) {
			for (int mode = 0; mode < HVPMU_NMODES; mode++) {
				struct hvpmu_t4_pmu *p = new_pmu();
				uint64_t pcr = 0, v = 0x55;
				int ok = mode == HVPMU_MODE_HYPER ||
					 (!nht && (mode == HVPMU_MODE_PRIV || !npt));
				int want = ok ? HVPMU_OK : HVPMU_ETRAP;

				pcr = HVPMU_FDP(pcr, T4_PCR, PICNHT, nht);
				pcr = HVPMU_FDP(pcr, T4_PCR, PICNPT, npt);
				set_pcr(p, 2, pcr);
				set_pic(p, 2, 0x1234);
				assert_int_equal(hvpmu_t4_pic_read(p, 2, (enum hvpmu_mode)mode, &v), want);
				assert_int_equal(v, ok ? 0x1234 : 0x55);
				assert_int_equal(hvpmu_t4_pic_write(p, 2, (enum hvpmu_mode)mode, 0x777), want);
				assert_int_equal(hvpmu_t4_pmu_peek_pic(p, 2), ok ? 0x777 : 0x1234);
				/* the other PICs keep their own (clear) access bits */
				assert_int_equal(hvpmu_t4_pic_read(p, 0, (enum hvpmu_mode)mode, &v), HVPMU_OK);
				hvpmu_t4_pmu_destroy(p);
			}
		}
	}
}

/* --- §10.2 programming note: the PCR write re-sets ov ------------------- */

static void test_pcr_write_rewrites_ov(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	const uint64_t spr_ht = pcr_val(3, 0x10, 0, 0, 1, 0); /* SPR ring ops in hyper mode */

	(void)state;
	/* the write itself (STXA ASI 0x64, an SPR ring op) is counted */
	set_pcr(p, 0, spr_ht);
	set_pic(p, 0, 5);
	set_pcr(p, 0, spr_ht);
	assert_int_equal(get_pic(p, 0), 6);
	/* PIC at FFFF_FFFF: the write that clears ov wraps it, so ov reads 1 */
	set_pic(p, 0, PIC_MAX);
	set_pcr(p, 0, spr_ht);
	assert_int_equal(get_pic(p, 0), 0);
	assert_int_equal(ov_of(p, 0), 1);
	/* STXA 0x64 is a non-translating store alternate: next-to-commit */
	assert_int_equal(ntc_of(p, 0), 1);
	/* a second write keeps ov = 0 */
	set_pcr(p, 0, spr_ht);
	assert_int_equal(ov_of(p, 0), 0);
	assert_int_equal(ntc_of(p, 0), 0);
	assert_int_equal(get_pic(p, 0), 1);

	/* the spec's sequence: disable with the first write (which still wraps
	 * the PIC counting under the old settings), write again: ov stays 0 */
	set_pic(p, 0, PIC_MAX);
	set_pcr(p, 0, 0);
	assert_int_equal(ov_of(p, 0), 1);
	set_pcr(p, 0, 0);
	assert_int_equal(ov_of(p, 0), 0);
	assert_int_equal(get_pic(p, 0), 0);

	/* not counted without ht, nor from a non-hyperprivileged writer */
	set_pcr(p, 1, pcr_val(3, 0x10, 1, 1, 0, 0));
	set_pic(p, 1, PIC_MAX);
	set_pcr(p, 1, pcr_val(3, 0x10, 1, 1, 0, 0));
	assert_int_equal(get_pic(p, 1), PIC_MAX);
	assert_int_equal(ov_of(p, 1), 0);
	set_pcr(p, 2, spr_ht);
	set_pic(p, 2, PIC_MAX);
	assert_int_equal(hvpmu_t4_pcr_write(p, 2, spr_ht, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(get_pic(p, 2), PIC_MAX);
	assert_int_equal(ov_of(p, 2), 0);
	/* a group that does not count SPR ring ops is not affected */
	set_pcr(p, 3, pcr_val(3, 0x2f, 0, 0, 1, 0));
	set_pic(p, 3, PIC_MAX);
	set_pcr(p, 3, pcr_val(3, 0x2f, 0, 0, 1, 0));
	assert_int_equal(get_pic(p, 3), PIC_MAX);
	hvpmu_t4_pmu_destroy(p);
}

/* --- headroom ----------------------------------------------------------- */

static void test_headroom(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();

	(void)state;
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 9), UINT64_MAX);
	/* counting only privileged events: no user instruction can wrap it */
	set_pcr(p, 0, pcr_val(3, 0x3f, 0, 1, 1, 1));
	set_pcr(p, 1, pcr_val(26, 0, 0, 1, 1, 1));
	set_pic(p, 0, PIC_MAX);
	set_pic(p, 1, PIC_MAX);
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 9), UINT64_MAX);
	/* user instructions: 2^32 - PIC */
	set_pcr(p, 2, pcr_val(3, 0x04, 1, 0, 0, 1));
	set_pic(p, 2, PIC_MAX - 15);
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 9), 16);
	set_pic(p, 2, 0);
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 9), HVPMU_T4_PIC_WRAP);
	/* user cycles: ceil((2^32 - PIC) / max cycles per instruction) */
	set_pcr(p, 3, pcr_val(26, 0, 1, 0, 0, 1));
	set_pic(p, 3, PIC_MAX - 255);
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 3), 86);
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 1), 256);
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 256), 1);
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 1000), 1);
	/* the least of all */
	set_pic(p, 2, PIC_MAX - 9);
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 3), 10);
	/* sl=4 taken branches: at most one event per instruction */
	set_pcr(p, 2, pcr_val(4, 0x02, 1, 0, 0, 1));
	assert_int_equal(hvpmu_t4_pmu_headroom(p, 3), 10);
	/* headroom is a real bound: feeding that many counted events wraps */
	{
		struct hvpmu_pmu_feed_result r;

		feed_insns(p, C_BA, 9, &r);
		assert_int_equal(r.ovf_mask, 0);
		assert_int_equal(hvpmu_t4_pmu_headroom(p, 3), 1);
		feed_insns(p, C_BA, 1, &r);
		assert_int_equal(r.ovf_mask, 1u << 2);
	}
	hvpmu_t4_pmu_destroy(p);
}

/* New classes appearing after a PCR write are counted once re-evaluated. */
static void test_classes_changed(void **state)
{
	uint32_t flags[HVPMU_MAX_ICLASS] = { [0] = HVPMU_IC_OTHER };
	struct hvpmu_t4_pmu *p = hvpmu_t4_pmu_create(flags);
	struct hvpmu_pmu_feed_result r;
	uint64_t d[HVPMU_MAX_ICLASS] = { 0 };
	struct hvpmu_pmu_feed f;

	(void)state;
	assert_non_null(p);
	set_pcr(p, 0, pcr_val(3, 0x04, 1, 0, 0, 0));
	flags[1] = HVPMU_IC_LOAD;
	hvpmu_t4_pmu_classes_changed(p);
	memset(&f, 0, sizeof f);
	d[0] = 3;
	d[1] = 4;
	f.dclass = d;
	f.dclass_nonzero = 0x3;
	f.next_pc = NEXT_PC;
	hvpmu_t4_pmu_feed(p, &f, &r);
	assert_int_equal(get_pic(p, 0), 4);
	hvpmu_t4_pmu_destroy(p);
}

/* Without the block, a precise trap is reported at the next PC. */
static void test_precise_without_block(void **state)
{
	struct hvpmu_t4_pmu *p = new_pmu();
	struct hvpmu_pmu_feed_result r;

	(void)state;
	set_pcr(p, 0, pcr_val(3, 0x3f, 1, 0, 0, 1));
	set_pic(p, 0, PIC_MAX);
	feed_insns(p, C_ADD, 3, &r);
	assert_int_equal(r.precise_mask, 1);
	assert_int_equal(r.precise_tpc, NEXT_PC);
	assert_int_equal(get_pic(p, 0), 2);
	hvpmu_t4_pmu_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_constants),
		cmocka_unit_test(test_initial_state),
		cmocka_unit_test(test_index_range),
		cmocka_unit_test(test_pcr_field_roundtrip),
		cmocka_unit_test(test_pcr_reserved_and_sticky_writes),
		cmocka_unit_test(test_pcr_other_fields_take_value),
		cmocka_unit_test(test_pic_is_32_bits),
		cmocka_unit_test(test_counting_sl3_groups),
		cmocka_unit_test(test_wrap_sets_ov),
		cmocka_unit_test(test_ov_ntc_sticky),
		cmocka_unit_test(test_ntc_only_on_ntc_instruction),
		cmocka_unit_test(test_precise_needs_toe),
		cmocka_unit_test(test_no_precise_with_ht),
		cmocka_unit_test(test_precise_tpc_sl3_positions),
		cmocka_unit_test(test_precise_tpc_sl4_positions),
		cmocka_unit_test(test_precise_earliest_of_two),
		cmocka_unit_test(test_sl4_multiple_mask_bits_count_once),
		cmocka_unit_test(test_sl3_mask_union),
		cmocka_unit_test(test_cycles_per_mode),
		cmocka_unit_test(test_cycles_disrupting_level),
		cmocka_unit_test(test_ut_st_ht_filter_instructions),
		cmocka_unit_test(test_groups_counting_nothing),
		cmocka_unit_test(test_sl25_mask_kinds),
		cmocka_unit_test(test_sl25_precise_at_cti),
		cmocka_unit_test(test_pic_access_matrix),
		cmocka_unit_test(test_pcr_write_rewrites_ov),
		cmocka_unit_test(test_headroom),
		cmocka_unit_test(test_pipe_groups),
		cmocka_unit_test(test_classes_changed),
		cmocka_unit_test(test_precise_without_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
