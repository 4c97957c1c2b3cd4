/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CEC statistics device (hvpmu/cec_stats.h, src/pmu/cec_stats.c): an
 * explicit feeder stands in for the dispatcher, feeds windows of cycles
 * drawn from a seeded generator, and the registers must return exactly
 * what was fed; every feed that would break one of invariants I1-I8 is
 * refused whole; MMCRH and HPMC1-4 behave as docs/papr-gpci.md says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <hvpmu/hvpmu.h>

#include "cec_feed.h"

static struct hvpmu_cec_stats *device(struct hvpmu_cec *cec)
{
	struct hvpmu_cec_stats *st = NULL;

	hvpmu_cec_default(cec);
	assert_int_equal(hvpmu_cec_stats_create(cec, &st), 0);
	return st;
}

static uint64_t reg(const struct hvpmu_cec_stats *st, unsigned g, unsigned i, unsigned f)
{
	uint64_t v = 0xDEAD;

	assert_int_equal(hvpmu_cec_stats_read(st, HVPMU_CEC_REG(g, i, f), &v), 0);
	return v;
}

static void compare(const struct hvpmu_cec_stats *st, const struct hvpmu_cec *cec, const struct expect *e,
		    uint64_t tb)
{
	assert_true(reg(st, HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_TIMEBASE) == tb);
	for (unsigned p = 0; p < cec->npartitions; p++)
		for (unsigned f = 0; f < HVPMU_CEC_NPARTITION_FIELDS; f++)
			assert_true(reg(st, HVPMU_CEC_GRP_PARTITION, p, f) == e->part[p][f]);
	for (unsigned i = 0; i < cec->nprocs; i++) {
		assert_true(reg(st, HVPMU_CEC_GRP_PROC, i, HVPMU_CEC_P_PURR) == e->purr[i]);
		assert_true(reg(st, HVPMU_CEC_GRP_PROC, i, HVPMU_CEC_P_RUN_INSNS) == e->insns[i]);
		assert_true(reg(st, HVPMU_CEC_GRP_PROC, i, HVPMU_CEC_P_RUN_CYCLES) == e->cycles[i]);
		assert_true(reg(st, HVPMU_CEC_GRP_PROC, i, HVPMU_CEC_P_PURR) <= tb); /* I2 */
		assert_int_equal(reg(st, HVPMU_CEC_GRP_PROC, i, HVPMU_CEC_P_STATE), cec->procs[i].state);
		assert_int_equal(reg(st, HVPMU_CEC_GRP_PROC, i, HVPMU_CEC_P_OWNER), cec->procs[i].owner);
	}
	for (unsigned c = 0; c < cec->nchips; c++)
		for (unsigned f = 0; f < HVPMU_CEC_NCHIP_FIELDS; f++)
			assert_true(reg(st, HVPMU_CEC_GRP_CHIP, c, f) == e->link[c][f]);
}

/* What is fed is what is read, window after window. */
static void test_feed_and_read(void **state)
{
	struct hvpmu_cec cec;
	struct hvpmu_cec_stats *st = device(&cec);
	static struct expect e;
	uint64_t tb = 0;

	(void)state;
	memset(&e, 0, sizeof e);
	compare(st, &cec, &e, 0);
	for (int i = 0; i < 50; i++) {
		window(st, &cec, &e, &tb, 1000 + rnd(100000));
		compare(st, &cec, &e, tb);
	}
	assert_true(e.part[0][HVPMU_CEC_L_DONATED] > 0);
	assert_true(e.part[2][HVPMU_CEC_L_UNCAPPED] > 0);
	hvpmu_cec_stats_destroy(st);
}

/* Every invariant: the feed that breaks it is refused and counts nothing. */
static void test_invariants(void **state)
{
	struct hvpmu_cec cec;
	struct hvpmu_cec_stats *st = device(&cec);
	struct hvpmu_cec_dispatch d;
	uint64_t v;

	(void)state;
	assert_int_equal(hvpmu_cec_stats_advance(st, 1000), 0);
	assert_int_equal(hvpmu_cec_stats_advance(st, 999), HVPMU_EINVAL); /* I1 */
	assert_int_equal(hvpmu_cec_stats_advance(st, 1000), 0);
	/* I3: capped partition 2.00 units: at most 2000 of 1000 elapsed */
	assert_int_equal(hvpmu_cec_stats_entitle(st, 1, 2001), HVPMU_EINVAL);
	assert_int_equal(hvpmu_cec_stats_entitle(st, 1, 2000), 0);
	assert_int_equal(hvpmu_cec_stats_entitle(st, 1, 1), HVPMU_EINVAL);
	assert_int_equal(hvpmu_cec_stats_entitle(st, 0, 4001), HVPMU_EINVAL); /* dedicated: 4 processors */
	assert_int_equal(hvpmu_cec_stats_entitle(st, 0, 4000), 0);
	assert_int_equal(hvpmu_cec_stats_entitle(st, 2, 1500), 0);
	assert_int_equal(hvpmu_cec_stats_entitle(st, 3, 1), HVPMU_ERANGE);
#define REFUSE(rc, ...)                                                                   \
	do {                                                                              \
		d = (struct hvpmu_cec_dispatch){ __VA_ARGS__ };                           \
		assert_int_equal(hvpmu_cec_stats_dispatch(st, &d), rc);                   \
	} while (0)
	REFUSE(HVPMU_EINVAL, .proc = 4, .part = 1, .capped = 1001);           /* I2: more than elapsed */
	REFUSE(HVPMU_EINVAL, .proc = 4, .part = 2, .capped = 600, .uncapped = 401); /* I2 */
	REFUSE(HVPMU_EINVAL, .proc = 0, .part = 1, .capped = 10);             /* I5: dedicated runs its owner */
	REFUSE(HVPMU_EINVAL, .proc = 0, .part = 0, .uncapped = 10);           /* I5: no uncapped on dedicated */
	REFUSE(HVPMU_EINVAL, .proc = 4, .part = 0, .capped = 10);             /* I5: dedicated partition on pool */
	REFUSE(HVPMU_EINVAL, .proc = 4, .part = 1, .uncapped = 10);           /* I5: capped never uncapped */
	REFUSE(HVPMU_EINVAL, .proc = 30, .part = 1, .capped = 10);            /* unlicensed runs nothing */
	REFUSE(HVPMU_EINVAL, .proc = 4, .part = 1, .capped = 10, .idle = 11); /* I7 */
	REFUSE(HVPMU_EINVAL, .proc = 4, .part = 1, .capped = 10, .run_cycles = 11); /* I7 */
	REFUSE(HVPMU_ERANGE, .proc = 32, .part = 1);
	REFUSE(HVPMU_ERANGE, .proc = 4, .part = 3);
	/* I4: the capped partition's 2000 entitled cycles over 3 processors */
	REFUSE(0, .proc = 4, .part = 1, .capped = 1000);
	REFUSE(0, .proc = 5, .part = 1, .capped = 1000);
	REFUSE(HVPMU_EINVAL, .proc = 6, .part = 1, .capped = 1);
	/* I6: a borrowed processor runs only uncapped cycles, donated by its owner */
	REFUSE(HVPMU_EINVAL, .proc = 3, .part = 2, .uncapped = 5); /* not lent */
	assert_int_equal(hvpmu_cec_stats_lend(st, 4, 1), HVPMU_EINVAL); /* not dedicated */
	assert_int_equal(hvpmu_cec_stats_lend(st, 3, 0), HVPMU_EINVAL); /* not lent */
	assert_int_equal(hvpmu_cec_stats_lend(st, 3, 1), 0);
	assert_int_equal(hvpmu_cec_stats_read(st, HVPMU_CEC_REG(HVPMU_CEC_GRP_PROC, 3, HVPMU_CEC_P_STATE), &v), 0);
	assert_int_equal(v, HVPMU_CEC_BORROWED);
	REFUSE(HVPMU_EINVAL, .proc = 3, .part = 0, .capped = 5);  /* its owner must take it back first */
	REFUSE(HVPMU_EINVAL, .proc = 3, .part = 1, .capped = 5);  /* capped partitions: no */
	REFUSE(HVPMU_EINVAL, .proc = 3, .part = 2, .capped = 5);  /* entitled cycles: not on a lent one */
	REFUSE(0, .proc = 3, .part = 2, .uncapped = 5);
	assert_true(reg(st, HVPMU_CEC_GRP_PARTITION, 0, HVPMU_CEC_L_DONATED) == 5);
	assert_true(reg(st, HVPMU_CEC_GRP_PARTITION, 2, HVPMU_CEC_L_UNCAPPED) == 5);
	assert_true(reg(st, HVPMU_CEC_GRP_PARTITION, 1, HVPMU_CEC_L_CAPPED) == 2000);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 6, HVPMU_CEC_P_PURR) == 0);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 4, HVPMU_CEC_P_PURR) == 1000);
	/* a partition that does not donate cannot lend */
	cec.partitions[0].donating = 0;
	{
		struct hvpmu_cec_stats *nd = NULL;

		assert_int_equal(hvpmu_cec_stats_create(&cec, &nd), 0);
		assert_int_equal(hvpmu_cec_stats_lend(nd, 0, 1), HVPMU_EINVAL);
		hvpmu_cec_stats_destroy(nd);
	}
	/* I8 */
	assert_int_equal(hvpmu_cec_stats_link(st, 0, HVPMU_CEC_LINK_X, 11, 10), HVPMU_EINVAL);
	assert_int_equal(hvpmu_cec_stats_link(st, 0, HVPMU_CEC_LINK_X, 10, 1001), HVPMU_EINVAL);
	assert_int_equal(hvpmu_cec_stats_link(st, 0, HVPMU_CEC_LINK_X, 10, 1000), 0);
	assert_int_equal(hvpmu_cec_stats_link(st, 0, HVPMU_CEC_LINK_X, 0, 1), HVPMU_EINVAL);
	assert_int_equal(hvpmu_cec_stats_link(st, 0, HVPMU_CEC_LINK_Z, 0, 1), HVPMU_ERANGE); /* not connected */
	assert_int_equal(hvpmu_cec_stats_link(st, 4, HVPMU_CEC_LINK_X, 0, 1), HVPMU_ERANGE);
#undef REFUSE
	/* registers the CEC lacks */
	assert_int_equal(hvpmu_cec_stats_read(st, HVPMU_CEC_REG(HVPMU_CEC_GRP_PROC, 32, 0), &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_cec_stats_read(st, HVPMU_CEC_REG(HVPMU_CEC_GRP_PROC, 0, HVPMU_CEC_NPROC_FIELDS), &v),
			 HVPMU_ERANGE);
	assert_int_equal(hvpmu_cec_stats_read(st, HVPMU_CEC_REG(HVPMU_CEC_GRP_PARTITION, 3, 0), &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_cec_stats_read(st, HVPMU_CEC_REG(HVPMU_CEC_GRP_CHIP, 4, 0), &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_cec_stats_read(st, HVPMU_CEC_REG(HVPMU_CEC_NGROUPS, 0, 0), &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_cec_stats_read(st, HVPMU_CEC_REG(HVPMU_CEC_GRP_GLOBAL, 1, 0), &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_cec_stats_write(st, HVPMU_CEC_REG(HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_TIMEBASE), 5),
			 HVPMU_ERANGE);
	hvpmu_cec_stats_destroy(st);
}

/* MMCRH: the boot value, setting it restarts HPMC1/2 and every since-set
 * count; -1 disables; reserved bits and unknown selects are refused. */
static void test_mmcrh(void **state)
{
	struct hvpmu_cec cec;
	struct hvpmu_cec_stats *st = device(&cec);
	const unsigned G = HVPMU_CEC_REG(HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_MMCRH);
	uint64_t tb = 0, purr1 = 0, insns1 = 0, cycles1 = 0;
	struct hvpmu_cec_dispatch d = { .proc = 9, .part = 2 };

	(void)state;
	assert_true(reg(st, HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_MMCRH) == 0x00000000003C1200u);
	/* two windows; set MMCRH between them */
	for (int k = 0; k < 2; k++) {
		uint64_t w = 10000 + rnd(10000);

		tb += w;
		assert_int_equal(hvpmu_cec_stats_advance(st, tb), 0);
		assert_int_equal(hvpmu_cec_stats_entitle(st, 2, w * 150 / 100), 0);
		d.capped = rnd(w / 2) + 1;
		d.run_cycles = rnd(d.capped + 1);
		d.run_insns = rnd(3 * d.run_cycles + 1);
		assert_int_equal(hvpmu_cec_stats_dispatch(st, &d), 0);
		if (k == 0) {
			/* boot MMCRH 0x3C1200: HPMC1 = PURR cycles, HPMC2 = not dispatched */
			assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC1) == d.capped);
			assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC2) == tb - d.capped);
			assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_MMCRH_TB) == tb);
			purr1 = d.capped;
			insns1 = d.run_insns;
			cycles1 = d.run_cycles;
			assert_int_equal(hvpmu_cec_stats_write(st, G, UINT64_C(0x1E0200)), 0); /* insns, run cycles */
			assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC1) == 0);
			assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_MMCRH_TB) == 0);
		}
	}
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_MMCRH) == 0x1E0200u);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC1) == d.run_insns);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC2) == d.run_cycles);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC3_SET) == d.run_insns);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC3) == insns1 + d.run_insns);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC4_SET) == d.run_cycles);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC4) == cycles1 + d.run_cycles);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_PURR) == purr1 + d.capped);
	/* disabled: since-set values read 0, current ones go on */
	assert_int_equal(hvpmu_cec_stats_write(st, G, UINT64_MAX), 0);
	for (unsigned f = HVPMU_CEC_P_HPMC1; f <= HVPMU_CEC_P_HPMC4; f++)
		if (f != HVPMU_CEC_P_HPMC3 && f != HVPMU_CEC_P_HPMC4)
			assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, f) == 0);
	assert_true(reg(st, HVPMU_CEC_GRP_PROC, 9, HVPMU_CEC_P_HPMC3) == insns1 + d.run_insns);
	/* values MMCRH cannot hold */
	assert_int_equal(hvpmu_cec_stats_write(st, G, UINT64_C(0x1)), HVPMU_EINVAL);       /* reserved bit */
	assert_int_equal(hvpmu_cec_stats_write(st, G, UINT64_C(0x1000000)), HVPMU_EINVAL); /* reserved bit */
	assert_int_equal(hvpmu_cec_stats_write(st, G, UINT64_C(0x0500)), HVPMU_EINVAL);    /* no event 5 */
	assert_int_equal(hvpmu_cec_stats_write(st, G, UINT64_C(0x050000)), HVPMU_EINVAL);
	assert_true(reg(st, HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_MMCRH) == UINT64_MAX);
	assert_false(hvpmu_cec_mmcrh_valid(UINT64_MAX - 1));
	hvpmu_cec_stats_destroy(st);
}

static void test_create_errors(void **state)
{
	struct hvpmu_cec cec;
	struct hvpmu_cec_stats *st = (void *)1;
	uint64_t v;

	(void)state;
	hvpmu_cec_default(&cec);
	assert_int_equal(hvpmu_cec_stats_create(&cec, NULL), HVPMU_EINVAL);
	assert_int_equal(hvpmu_cec_stats_create(NULL, &st), HVPMU_EINVAL);
	assert_null(st);
	cec.nchips = 0;
	assert_int_equal(hvpmu_cec_stats_create(&cec, &st), HVPMU_EINVAL);
	assert_int_equal(hvpmu_cec_stats_read(NULL, 0, &v), HVPMU_EINVAL);
	hvpmu_cec_stats_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_feed_and_read),
		cmocka_unit_test(test_invariants),
		cmocka_unit_test(test_mmcrh),
		cmocka_unit_test(test_create_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
