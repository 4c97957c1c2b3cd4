/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The request buffers (src/model/l2buf.h, docs/memory-model.md "L2
 * buffers"): the pool rules (full, waits, unbounded), and through the
 * machine the TABLE 10-2 events they drive: L2 / L3 prefetch drops (sl=21
 * 0x02 / 0x20), L2 miss / fill / writeback buffer full and L2 pipeline
 * stalls (sl=24 0x10 / 0x04 / 0x08 / 0x20), software prefetches dropped
 * at a full L1D miss buffer with two running strands (sl=18 0x04), and
 * the wait a demand load pays for a miss-buffer entry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include "model/l2buf.h"

/* ---- the pool ---- */

static void test_pool_rules(void **state)
{
	struct l2buf_pool p;

	(void)state;
	l2buf_init(&p, 2);
	assert_int_equal(l2buf_full(&p, 0), 0);
	assert_int_equal(l2buf_take(&p, 10, 100), 0); /* held [10, 110) */
	assert_int_equal(l2buf_take(&p, 11, 50), 0);  /* held [11, 61) */
	assert_int_equal(l2buf_busy(&p, 12), 2);
	assert_int_equal(l2buf_full(&p, 12), 1);
	assert_int_equal(l2buf_full(&p, 61), 0);      /* released at 61 */
	assert_int_equal(l2buf_busy(&p, 61), 1);
	/* a request at 20 waits for the first release (61) and holds from there */
	assert_int_equal(l2buf_take(&p, 20, 30), 41);
	assert_int_equal(l2buf_busy(&p, 90), 2);      /* [10,110) and [61,91) */
	assert_int_equal(l2buf_busy(&p, 91), 1);
	assert_int_equal(l2buf_busy(&p, 110), 0);
	assert_int_equal(l2buf_full(&p, 5000), 0);
	/* unbounded: never full, never waits */
	l2buf_init(&p, 0);
	for (unsigned i = 0; i < 100; i++)
		assert_int_equal(l2buf_take(&p, 1, 1000), 0);
	assert_int_equal(l2buf_full(&p, 2), 0);
	/* at most L2BUF_MAX_ENTRIES */
	l2buf_init(&p, 1000);
	assert_int_equal(p.n, L2BUF_MAX_ENTRIES);
}

/* Pending fills: another strand's, missed at or before t, done after t. */
static void test_fill_pending(void **state)
{
	static struct l2buf_fills f;
	uint64_t done = 0;
	unsigned from = 0;

	(void)state;
	assert_int_equal(l2buf_fill_pending(&f, 7, 1, 0, &done, &from), 0); /* empty */
	l2buf_fill_add(&f, 7, 0, 100, 479, 3);
	assert_int_equal(l2buf_fill_pending(&f, 7, 1, 100, &done, &from), 1);
	assert_int_equal(done, 479);
	assert_int_equal(from, 3);
	assert_int_equal(l2buf_fill_pending(&f, 7, 1, 478, &done, &from), 1);
	assert_int_equal(l2buf_fill_pending(&f, 7, 1, 479, &done, &from), 0); /* done */
	assert_int_equal(l2buf_fill_pending(&f, 7, 1, 99, &done, &from), 0);  /* before the miss */
	assert_int_equal(l2buf_fill_pending(&f, 7, 0, 200, &done, &from), 0); /* its own miss */
	assert_int_equal(l2buf_fill_pending(&f, 8, 1, 200, &done, &from), 0); /* another line */
	/* the ring keeps the last L2BUF_FILLS */
	for (unsigned i = 0; i < L2BUF_FILLS; i++)
		l2buf_fill_add(&f, 100 + i, 0, 100, 479, 1);
	assert_int_equal(l2buf_fill_pending(&f, 7, 1, 200, &done, &from), 0);
	assert_int_equal(l2buf_fill_pending(&f, 100, 1, 200, &done, &from), 1);
}

/* ---- through the machine (T4 defaults: L2 miss 16, fill 8, writeback 8,
 * L3 miss 32, L1D miss 32 / drop at 30; a line from memory holds an L2
 * miss-buffer entry 45 + 314 = 359 cycles) ---- */

#define PC UINT64_C(0x100000)
#define DATA UINT64_C(0x200000)  /* 8 KB pages */
#define LD (HVPMU_IC_LOAD)
#define ST (HVPMU_IC_STORE)
#define FCN_ONE_READ 1  /* L2 only */
#define FCN_N_READS 0   /* L1D */

static struct hvpmu_machine *machine(const struct hvpmu_md_l2buf *buf)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	if (buf)
		md.mem.buf = *buf;
	md.timing.dram_wait_cap = 0; /* no DRAM queueing: latencies are the fixed ones */
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	return m;
}

static struct hvpmu_md_l2buf t4_buf(void)
{
	struct hvpmu_md md;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	return md.mem.buf;
}

/* The page of DATA walked and its line 0 loaded; then a 64-instruction
 * block: instruction i runs at the block's cycle + i. */
static void prologue(struct hvpmu_machine *m, uint32_t strand, uint64_t data)
{
	hvpmu_machine_dref(m, strand, PC, data, 8, LD, 0);
	hvpmu_machine_ifetch(m, strand, PC, 256);
}

/* 20 L2-destined prefetches to untouched 64-byte lines, one per cycle,
 * then a load of another: prefetches 17..20 find the 16 entries held
 * (sl=21 0x02, sl=24 0x10); the load one cycle after the last waits until
 * the first entry is released, 359 - 20 = 339 cycles. */
static uint64_t burst(const struct hvpmu_md_l2buf *buf, uint64_t *mev)
{
	struct hvpmu_machine *m = machine(buf);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	uint64_t tick;

	prologue(m, 0, DATA);
	for (unsigned i = 0; i < 20; i++)
		hvpmu_machine_prefetch(m, 0, PC + 4 * i, DATA + 64 * (i + 1), hvpmu_prefetch_dest(FCN_ONE_READ));
	hvpmu_machine_dref(m, 0, PC + 4 * 20, DATA + 64 * 21, 8, LD, 0);
	hvpmu_machine_sync(m, 0, NULL, NULL);
	tick = hvpmu_machine_tick(m, 0);
	for (unsigned k = 0; k < HVPMU_NMEV; k++)
		mev[k] = a->mev[k];
	hvpmu_machine_destroy(m);
	return tick;
}

static void test_miss_buffer(void **state)
{
	struct hvpmu_md_l2buf b = t4_buf(), none = { 0 };
	uint64_t with[HVPMU_NMEV], without[HVPMU_NMEV], t1, t0;

	(void)state;
	t1 = burst(&b, with);
	assert_int_equal(with[HVPMU_MEV_PF_HIT_MEM], 16);
	assert_int_equal(with[HVPMU_MEV_PF_DROP_L2], 4);
	assert_int_equal(with[HVPMU_MEV_L2_MB_FULL], 4 + 1); /* and the load */
	assert_int_equal(with[HVPMU_MEV_L2_PIPE_STALL], 1);  /* only the load waits */
	assert_int_equal(with[HVPMU_MEV_PF_DROP_L3], 0);
	assert_int_equal(with[HVPMU_MEV_L2_FB_FULL], 0);
	assert_int_equal(with[HVPMU_MEV_SWPF_DROP_MB_FULL], 0);
	t0 = burst(&none, without);
	assert_int_equal(without[HVPMU_MEV_PF_HIT_MEM], 20);
	assert_int_equal(without[HVPMU_MEV_PF_DROP_L2], 0);
	assert_int_equal(without[HVPMU_MEV_L2_MB_FULL], 0);
	assert_int_equal(t1 - t0, 359 - 20);
}

/* The L3 miss buffer: 4 entries, 6 prefetches from memory: 2 dropped by L3. */
static void test_l3_drop(void **state)
{
	struct hvpmu_md_l2buf b = t4_buf();
	struct hvpmu_machine *m;
	struct hvpmu_activity *a;

	(void)state;
	b.l3_miss = 4;
	m = machine(&b);
	a = hvpmu_machine_activity(m, 0);
	prologue(m, 0, DATA);
	for (unsigned i = 0; i < 6; i++)
		hvpmu_machine_prefetch(m, 0, PC + 4 * i, DATA + 64 * (i + 1), hvpmu_prefetch_dest(FCN_ONE_READ));
	/* one that hits L3 (the second half of line 1's 64-byte L3 line) needs no L3 entry */
	hvpmu_machine_prefetch(m, 0, PC + 4 * 6, DATA + 64 + 32, hvpmu_prefetch_dest(FCN_ONE_READ));
	assert_int_equal(a->mev[HVPMU_MEV_PF_DROP_L3], 2);
	assert_int_equal(a->mev[HVPMU_MEV_PF_HIT_MEM], 4);
	assert_int_equal(a->mev[HVPMU_MEV_PF_HIT_L3], 1);
	assert_int_equal(a->mev[HVPMU_MEV_PF_DROP_L2], 0);
	assert_int_equal(a->mev[HVPMU_MEV_L2_MB_FULL], 0);
	hvpmu_machine_destroy(m);
}

/* The fill buffer: fills held 20 cycles, 10 memory fills a cycle apart:
 * the 9th and 10th find the 8 entries held. */
static void test_fill_buffer(void **state)
{
	struct hvpmu_md_l2buf b = t4_buf();
	struct hvpmu_machine *m;
	struct hvpmu_activity *a;

	(void)state;
	b.fill_cycles = 20;
	m = machine(&b);
	a = hvpmu_machine_activity(m, 0);
	prologue(m, 0, DATA);
	for (unsigned i = 0; i < 10; i++)
		hvpmu_machine_prefetch(m, 0, PC + 4 * i, DATA + 64 * (i + 1), hvpmu_prefetch_dest(FCN_ONE_READ));
	assert_int_equal(a->mev[HVPMU_MEV_L2_FB_FULL], 2);
	assert_int_equal(a->mev[HVPMU_MEV_L2_PIPE_STALL], 2);
	assert_int_equal(a->mev[HVPMU_MEV_PF_HIT_MEM], 10); /* held back, not dropped */
	hvpmu_machine_destroy(m);
}

/* The writeback buffer: set 0 of L2 (16 KB apart, one 4 MB page) filled
 * with 8 dirty lines, then 16 more stores to it: 16 dirty victims within
 * 45 cycles (the store buffer passes a store per 2 cycles at worst): the
 * last 8 find the 8 entries held.  The miss buffer is unbounded here. */
static void test_writeback_buffer(void **state)
{
	struct hvpmu_md_l2buf b = t4_buf();
	const uint64_t big = UINT64_C(0x40000000);
	struct hvpmu_machine *m;
	struct hvpmu_activity *a;

	(void)state;
	b.l2_miss = 0;
	m = machine(&b);
	a = hvpmu_machine_activity(m, 0);
	assert_int_equal(hvpmu_machine_map_large(m, big, 4u << 20, 4u << 20), 0);
	prologue(m, 0, big + 32 * 5); /* set 5: the walk, out of the way */
	for (unsigned j = 0; j < 24; j++)
		hvpmu_machine_dref(m, 0, PC + 4 * j, big + (UINT64_C(16) << 10) * j, 8, ST, 1);
	assert_int_equal(a->mev[HVPMU_MEV_L2_DIRTY_EVICT], 16);
	assert_int_equal(a->mev[HVPMU_MEV_L2_WB_FULL], 8);
	assert_int_equal(a->mev[HVPMU_MEV_L2_PIPE_STALL], 8);
	assert_int_equal(a->mev[HVPMU_MEV_L2_MB_FULL], 0);
	hvpmu_machine_destroy(m);
}

/* sl=18 0x04: 35 L1D prefetches from memory, one per cycle, with the L2
 * miss buffer unbounded: from 30 held L1D miss-buffer entries the rest (5)
 * are dropped -- only when another strand of the core has run (TABLE
 * 10-2: never with one running thread). */
static uint64_t l1_drops(int two_strands)
{
	struct hvpmu_md_l2buf b = t4_buf();
	struct hvpmu_machine *m;
	uint64_t n;

	b.l2_miss = 0;
	m = machine(&b);
	if (two_strands)
		hvpmu_machine_ifetch(m, 1, PC, 4); /* strand 1, same core, runs */
	prologue(m, 0, DATA);
	for (unsigned i = 0; i < 35; i++)
		hvpmu_machine_prefetch(m, 0, PC + 4 * i, DATA + 64 * (i + 1), hvpmu_prefetch_dest(FCN_N_READS));
	n = hvpmu_machine_activity(m, 0)->mev[HVPMU_MEV_SWPF_DROP_MB_FULL];
	hvpmu_machine_destroy(m);
	return n;
}

static void test_l1d_miss_buffer_drop(void **state)
{
	(void)state;
	assert_int_equal(l1_drops(0), 0);
	assert_int_equal(l1_drops(1), 35 - 30);
}

/* TABLE 10-2 footnote 11: strand 0 misses X (memory, 379 cycles from
 * its cycle T0); strand 1 of the same core loads X at T0 + 100: a
 * duplicate miss, counted in sl=16 (local memory, the primary's source)
 * and waiting 279 cycles for the fill; at T0 + 379 and after, a hit.
 * With strand 1 not running (one running strand per core) nothing is
 * tracked: the load is a plain hit. */
static void dup_run(int two, uint64_t *dup, uint64_t *late, uint64_t *t1, uint64_t *t0)
{
	struct hvpmu_machine *m = machine(NULL);
	struct hvpmu_activity *a1 = hvpmu_machine_activity(m, 1);
	uint64_t before, x = DATA + 1024;

	hvpmu_machine_ifetch(m, 0, PC, 256);
	if (two)
		hvpmu_machine_ifetch(m, 1, PC, 256);
	hvpmu_machine_dref(m, 0, PC, DATA, 8, LD, 0);       /* DTLB walks, misses */
	hvpmu_machine_dref(m, 1, PC, DATA + 256, 8, LD, 0);
	hvpmu_machine_sync(m, 0, NULL, NULL);
	hvpmu_machine_sync(m, 1, NULL, NULL);
	*t0 = hvpmu_machine_tick(m, 0);
	assert_true(hvpmu_machine_tick(m, 1) <= *t0 + 100);
	hvpmu_machine_add_cycles(m, 1, HVPMU_MODE_USER, *t0 + 100 - hvpmu_machine_tick(m, 1));
	hvpmu_machine_dref(m, 0, PC, x, 8, LD, 0);          /* primary miss at T0 */
	before = a1->mev[HVPMU_MEV_DC_MISS_MEM];
	hvpmu_machine_dref(m, 1, PC, x, 8, LD, 0);          /* at T0 + 100 */
	*dup = a1->mev[HVPMU_MEV_DC_MISS_MEM] - before;
	hvpmu_machine_sync(m, 1, NULL, NULL);
	*t1 = hvpmu_machine_tick(m, 1);
	before = a1->mev[HVPMU_MEV_DC_MISS_MEM] + a1->mev[HVPMU_MEV_DC_MISS_L2L3];
	hvpmu_machine_dref(m, 1, PC, x + 8, 8, LD, 0);      /* the fill is done */
	*late = a1->mev[HVPMU_MEV_DC_MISS_MEM] + a1->mev[HVPMU_MEV_DC_MISS_L2L3] - before;
	hvpmu_machine_destroy(m);
}

static void test_duplicate_miss(void **state)
{
	uint64_t dup, late, t1, t0;

	(void)state;
	dup_run(1, &dup, &late, &t1, &t0);
	assert_int_equal(dup, 1);
	assert_int_equal(t1, t0 + 379); /* waited from T0 + 100 to the fill at T0 + 379 */
	assert_int_equal(late, 0);
	dup_run(0, &dup, &late, &t1, &t0);
	assert_int_equal(dup, 0);
	assert_int_equal(t1, t0 + 100);
	assert_int_equal(late, 0);
}

/* T1 (no private L2): no buffers, no events. */
static void test_t1_off(void **state)
{
	struct hvpmu_md md;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	assert_int_equal(md.mem.buf.l2_miss, 0);
	assert_int_equal(md.mem.buf.l1d_miss, 0);
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	assert_int_equal(md.mem.buf.l2_miss, 16);
	assert_int_equal(md.mem.buf.l2_fill, 8);
	assert_int_equal(md.mem.buf.l2_wb, 8);
	assert_int_equal(md.mem.buf.l1d_miss, 32);
	assert_int_equal(md.mem.buf.l1d_pf_drop, 30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_rules),
		cmocka_unit_test(test_fill_pending),
		cmocka_unit_test(test_miss_buffer),
		cmocka_unit_test(test_l3_drop),
		cmocka_unit_test(test_fill_buffer),
		cmocka_unit_test(test_writeback_buffer),
		cmocka_unit_test(test_l1d_miss_buffer_drop),
		cmocka_unit_test(test_duplicate_miss),
		cmocka_unit_test(test_t1_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
