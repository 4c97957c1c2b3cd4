/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-strand store buffer (src/model/stbuf.h, docs/memory-model.md
 * "Store buffer"): drain times, full RAW / partial RAW in the store buffer
 * or the store queue (TABLE 10-2 sl=19), youngest-store priority, full
 * stalls and full cycles (UltraSPARC T1 PICL SB_full); and the same rules
 * through hvpmu_machine_dref / hvpmu_machine_ifetch (the store buffer's
 * clock, act->mev, stall cycles in %tick).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include "model/stbuf.h"

#define A UINT64_C(0x10000)

/* T4 default shape: 8 entries, commit after 4, drain after 20, 1 per 2. */
static void t4_shape(struct stbuf *sb)
{
	assert_int_equal(stbuf_init(sb, 8, 4, 20, 2), 0);
}

/* T1 default shape: 8 entries, no store queue, one store per 22 cycles. */
static void t1_shape(struct stbuf *sb)
{
	assert_int_equal(stbuf_init(sb, 8, 0, 22, 22), 0);
}

static void test_init_limits(void **state)
{
	struct stbuf sb;

	(void)state;
	assert_int_equal(stbuf_init(&sb, STBUF_MAX_ENTRIES, 0, 1, 1), 0);
	assert_int_equal(stbuf_init(&sb, STBUF_MAX_ENTRIES + 1, 0, 1, 1), -1);
	/* no entries: stores pass, loads never hit, nothing is ever full */
	assert_int_equal(stbuf_init(&sb, 0, 4, 20, 2), 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(stbuf_store(&sb, (uint64_t)i, A, 8), 0);
	assert_int_equal(stbuf_load(&sb, 100, A, 8), STBUF_RAW_NONE);
	assert_int_equal(sb.full_cycles, 0);
}

/* Full vs partial, buffer vs queue, and gone after the drain. */
static void test_raw_kinds(void **state)
{
	struct stbuf sb;

	(void)state;
	t4_shape(&sb);
	assert_int_equal(stbuf_load(&sb, 0, A, 8), STBUF_RAW_NONE); /* empty */
	assert_int_equal(stbuf_store(&sb, 100, A, 8), 0);            /* commit 104, drain 120 */
	assert_int_equal(stbuf_load(&sb, 101, A, 8), STBUF_RAW_SB_FULL);
	assert_int_equal(stbuf_load(&sb, 101, A + 4, 4), STBUF_RAW_SB_FULL); /* inside */
	assert_int_equal(stbuf_load(&sb, 102, A + 4, 8), STBUF_RAW_SB_PARTIAL);
	assert_int_equal(stbuf_load(&sb, 102, A - 4, 8), STBUF_RAW_SB_PARTIAL);
	assert_int_equal(stbuf_load(&sb, 103, A + 8, 8), STBUF_RAW_NONE); /* adjacent */
	assert_int_equal(stbuf_load(&sb, 103, A - 8, 8), STBUF_RAW_NONE);
	assert_int_equal(stbuf_load(&sb, 104, A, 8), STBUF_RAW_SQ_FULL); /* committed at 104 */
	assert_int_equal(stbuf_load(&sb, 119, A + 6, 4), STBUF_RAW_SQ_PARTIAL);
	assert_int_equal(stbuf_load(&sb, 120, A, 8), STBUF_RAW_NONE); /* written to L2 at 120 */
	assert_int_equal(stbuf_occupancy(&sb, 120), 0);
}

/* The granule filter: a load that shares no 8-byte granule (mod 64) with
 * a present store is never looked up; it is exact as stores leave. */
static void test_filter(void **state)
{
	struct stbuf sb;

	(void)state;
	t4_shape(&sb);
	stbuf_store(&sb, 0, A + 4, 16); /* granules 0, 1, 2 of A */
	stbuf_store(&sb, 1, A + 8, 8);  /* granule 1 again */
	assert_true(stbuf_may_hit(&sb, A, 8));
	assert_true(stbuf_may_hit(&sb, A + 16, 4));
	assert_false(stbuf_may_hit(&sb, A + 24, 8));
	assert_true(stbuf_may_hit(&sb, A + 512, 8)); /* granule 0 + 64: a false positive ... */
	assert_int_equal(stbuf_load(&sb, 2, A + 512, 8), STBUF_RAW_NONE); /* ... that the lookup rejects */
	assert_int_equal(stbuf_occupancy(&sb, 20), 1); /* the 16-byte store left */
	assert_false(stbuf_may_hit(&sb, A, 8));
	assert_true(stbuf_may_hit(&sb, A + 12, 4));
	assert_false(stbuf_may_hit(&sb, A + 16, 8));
	assert_int_equal(stbuf_occupancy(&sb, 22), 0);
	assert_int_equal(sb.filter, 0);
}

/* The youngest overlapping store decides: a store-buffer hit supersedes a
 * store-queue hit, a partial younger store beats an older full one. */
static void test_youngest_store_decides(void **state)
{
	struct stbuf sb;

	(void)state;
	t4_shape(&sb);
	stbuf_store(&sb, 0, A, 8);      /* commit 4, drain 20 */
	stbuf_store(&sb, 10, A, 4);     /* commit 14, drain 30 */
	assert_int_equal(stbuf_load(&sb, 11, A, 8), STBUF_RAW_SB_PARTIAL);
	assert_int_equal(stbuf_load(&sb, 11, A + 4, 4), STBUF_RAW_SQ_FULL); /* only the older one holds it */
	assert_int_equal(stbuf_load(&sb, 15, A, 8), STBUF_RAW_SQ_PARTIAL);
	assert_int_equal(stbuf_load(&sb, 20, A + 4, 4), STBUF_RAW_NONE);   /* older one drained */
	assert_int_equal(stbuf_load(&sb, 20, A, 4), STBUF_RAW_SQ_FULL);
}

/* Drain cycles: max(enter + latency, previous drain + interval). */
static void test_drain_rate(void **state)
{
	struct stbuf sb;

	(void)state;
	t4_shape(&sb);
	for (uint64_t t = 0; t < 3; t++)
		stbuf_store(&sb, t, A + 8 * t, 8); /* drains 20, 22, 24 */
	assert_int_equal(sb.e[0].drain, 20);
	assert_int_equal(sb.e[1].drain, 22);
	assert_int_equal(sb.e[2].drain, 24);
	assert_int_equal(stbuf_occupancy(&sb, 19), 3);
	assert_int_equal(stbuf_occupancy(&sb, 21), 2);
	assert_int_equal(stbuf_occupancy(&sb, 24), 0);
	assert_int_equal(sb.filter, 0); /* the filter follows the entries out */
	assert_false(stbuf_may_hit(&sb, A, 8));
	/* a store long after: latency alone */
	stbuf_store(&sb, 100, A, 8);
	assert_int_equal(sb.e[(sb.head) % STBUF_MAX_ENTRIES].drain, 120);
	/* time never runs backwards: an earlier `now` is the latest seen */
	assert_int_equal(stbuf_load(&sb, 50, A, 8), STBUF_RAW_SB_FULL);
	assert_int_equal(sb.now, 100);
}

/*
 * T1: one store per cycle from t0 = 1000.  Store i drains at t0+22(i+1).
 * The 8th store (i = 7, t0+7) fills the buffer; the 9th (t0+8) stalls
 * 14 cycles until t0+22, enters, and the buffer is full again.  From then
 * on each store arrives 1 cycle after the previous stall ended and waits
 * 21 cycles for the next drain.  K stores (K >= 9):
 *   stall = 14 + 21 (K-9), full cycles (up to the last store) = 15 + 22 (K-9).
 */
static void test_full_stalls_and_cycles(void **state)
{
	struct stbuf sb;
	uint64_t t = 1000, stall = 0;

	(void)state;
	t1_shape(&sb);
	for (unsigned i = 0; i < 12; i++) {
		uint64_t s = stbuf_store(&sb, t, A + 8 * i, 8);

		assert_int_equal(s, i < 8 ? 0 : i == 8 ? 14 : 21);
		stall += s;
		t += 1 + s;
		assert_int_equal(sb.n, i < 8 ? i + 1 : 8);
	}
	assert_int_equal(stall, 14 + 21 * 3);
	assert_int_equal(sb.stall_cycles, stall);
	assert_int_equal(sb.full_stalls, 4);
	assert_int_equal(sb.full_cycles, 15 + 22 * 3);
	/* a later look accounts the ongoing full period: full until the head
	 * (store 4, t0 + 110) drains */
	assert_int_equal(stbuf_load(&sb, 2000, A, 8), STBUF_RAW_NONE);
	assert_int_equal(sb.full_cycles, 15 + 22 * 3 + (1110 - (1000 + 88)));
	assert_int_equal(sb.n, 0);
	/* stores slower than the drain never fill it */
	t1_shape(&sb);
	for (unsigned i = 0; i < 100; i++)
		assert_int_equal(stbuf_store(&sb, 22 * (uint64_t)i, A, 8), 0);
	assert_int_equal(sb.full_cycles, 0);
}

/*
 * T4: one store per cycle from t0.  Store i leaves at t0+20+2i (latency
 * 20, then one per 2 cycles).  Store 8 arrives at t0+8 and waits 12
 * cycles for t0+20; each later store arrives 1 cycle after the previous
 * one entered and waits 1 cycle for the next exit (docs/memory-validation.md
 * sb_burst): 16 stores stall 12 + 7 = 19 cycles.
 */
/* stbuf_store_time() (the drain cycles of the last `cap` stores) stalls
 * exactly as stbuf_store() for any sequence of store cycles: T4, T1 and
 * odd shapes (no commit, a drain interval of 0 or longer than the
 * latency), cycles mostly rising in bursts and gaps, now and then earlier
 * than the last (time never runs backwards in the buffer). */
static void test_time_only_stalls(void **state)
{
	static const uint32_t shapes[][4] = {
		{ 8, 4, 20, 2 }, { 8, 0, 22, 22 }, { 3, 1, 5, 0 }, { 16, 2, 7, 9 }, { 1, 0, 3, 1 },
	};
	uint64_t x = 88172645463325252u;

	(void)state;
	for (unsigned k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
		static struct stbuf a, b;
		uint64_t now = 100, stalls = 0;

		assert_int_equal(stbuf_init(&a, shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3]), 0);
		assert_int_equal(stbuf_init(&b, shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3]), 0);
		for (unsigned i = 0; i < 200000; i++) {
			uint64_t wa, wb, r;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			r = x % 100;
			now += r < 60 ? 1 : r < 85 ? x % 4 : r < 97 ? x % 40 : 0;
			if (r == 99 && now > 30)
				now -= x % 30;
			wa = stbuf_store(&a, now, 8 * (x % 512), 8);
			wb = stbuf_store_time(&b, now);
			assert_int_equal(wa, wb);
			stalls += wa != 0;
			if (wa)
				now += wa;
		}
		assert_true(stalls > 0);
		assert_int_equal(a.full_stalls, b.full_stalls);
		assert_int_equal(a.stall_cycles, b.stall_cycles);
		assert_int_equal(b.filter, 0);
	}
}

static void test_t4_burst(void **state)
{
	struct stbuf sb;
	uint64_t t = 500, stall = 0;

	(void)state;
	t4_shape(&sb);
	for (unsigned i = 0; i < 16; i++) {
		uint64_t s = stbuf_store(&sb, t, A + 8 * i, 8);

		assert_int_equal(s, i < 8 ? 0 : i == 8 ? 12 : 1);
		stall += s;
		t += 1 + s;
	}
	assert_int_equal(stall, 19);
	assert_int_equal(sb.full_stalls, 8);
}

/* ---- through the machine ---- */

#define PC UINT64_C(0x100000)
#define DATA UINT64_C(0x200000)
#define ST (HVPMU_IC_STORE)
#define LD (HVPMU_IC_LOAD)

static struct hvpmu_machine *machine(enum hvpmu_platform p, uint32_t entries)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(p, &md), 0);
	md.mem.stbuf.entries = entries;
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	return m;
}

/* T4: instruction i of the block runs at the block's cycle + i. */
static void test_machine_sl19(void **state)
{
	struct hvpmu_machine *m = machine(HVPMU_PLATFORM_T4, 8);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);

	(void)state;
	/* DATA's line in L1D first (walk, miss): the loads below hit L1D and
	 * add no latency, so the clock moves by one cycle per instruction */
	hvpmu_machine_dref(m, 0, PC, DATA, 8, LD, 0);
	hvpmu_machine_ifetch(m, 0, PC, 256); /* a 64-instruction block */
	hvpmu_machine_dref(m, 0, PC, DATA, 8, ST, 1);          /* insn 0 */
	hvpmu_machine_dref(m, 0, PC + 4, DATA, 8, LD, 0);      /* 1 cycle later: SB, full */
	hvpmu_machine_dref(m, 0, PC + 8, DATA + 4, 8, LD, 0);  /* SB, partial */
	hvpmu_machine_dref(m, 0, PC + 16, DATA, 4, LD, 0);     /* 4 cycles: committed, SQ full */
	hvpmu_machine_dref(m, 0, PC + 76, DATA, 8, LD, 0);     /* 19 cycles: SQ full */
	hvpmu_machine_dref(m, 0, PC + 80, DATA, 8, LD, 0);     /* 20 cycles: drained */
	hvpmu_machine_dref(m, 0, PC + 84, DATA + 8, 8, ST, 1); /* insn 21 */
	hvpmu_machine_dref(m, 0, PC + 88, DATA + 12, 8, LD, 0);/* SB, partial */
	hvpmu_machine_dref(m, 0, PC + 100, DATA + 8, 8, LD | HVPMU_IC_PREFETCH, 0); /* prefetches do not look */
	assert_int_equal(a->mev[HVPMU_MEV_RAW_SB_FULL], 1);
	assert_int_equal(a->mev[HVPMU_MEV_RAW_SB_PARTIAL], 2);
	assert_int_equal(a->mev[HVPMU_MEV_RAW_SQ_FULL], 2);
	assert_int_equal(a->mev[HVPMU_MEV_RAW_SQ_PARTIAL], 0);
	assert_int_equal(a->mev[HVPMU_MEV_SB_FULL_CYCLES], 0);
	/* the next block starts after all 64 instructions of this one */
	a->bound += 64;
	hvpmu_machine_ifetch(m, 0, PC + 256, 32);
	hvpmu_machine_dref(m, 0, PC + 256, DATA + 8, 8, LD, 0);
	assert_int_equal(a->mev[HVPMU_MEV_RAW_SQ_FULL], 2);
	hvpmu_machine_destroy(m);
}

/* T1: a 12-store burst, one store per instruction: SB_full cycles and the
 * stall cycles of test_full_stalls_and_cycles, the stalls in %tick. */
static uint64_t t1_burst(uint32_t entries, uint64_t *full)
{
	struct hvpmu_machine *m = machine(HVPMU_PLATFORM_T1, entries);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	uint64_t tick;

	hvpmu_machine_ifetch(m, 0, PC, 64);
	hvpmu_machine_dref(m, 0, PC, DATA, 8, LD, 0); /* the DTLB walk and fill trap before the burst */
	for (unsigned i = 0; i < 12; i++)
		hvpmu_machine_dref(m, 0, PC + 4 + 4 * i, DATA + 8 * i, 8, ST, 1);
	*full = a->mev[HVPMU_MEV_SB_FULL_CYCLES];
	hvpmu_machine_sync(m, 0, NULL, NULL);
	tick = hvpmu_machine_tick(m, 0);
	hvpmu_machine_destroy(m);
	return tick;
}

static void test_machine_t1_sb_full(void **state)
{
	uint64_t full, none, with;

	(void)state;
	none = t1_burst(0, &full);
	assert_int_equal(full, 0);
	with = t1_burst(8, &full);
	assert_int_equal(full, 15 + 22 * 3);
	assert_int_equal(with - none, 14 + 21 * 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_limits),
		cmocka_unit_test(test_raw_kinds),
		cmocka_unit_test(test_youngest_store_decides),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_drain_rate),
		cmocka_unit_test(test_full_stalls_and_cycles),
		cmocka_unit_test(test_time_only_stalls),
		cmocka_unit_test(test_t4_burst),
		cmocka_unit_test(test_machine_sl19),
		cmocka_unit_test(test_machine_t1_sb_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
