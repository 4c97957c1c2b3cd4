/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SGI Origin's directory seen through the Hub MD counters
 * (src/model/origin_dir.c, docs/origin-directory.md): loads and stores of
 * CPUs on two nodes through the machine's memory model, each scenario
 * counted with one set live on every Hub, outcomes exact by construction:
 * a line ping-ponged between nodes (an intervention per transfer), lines
 * read by four CPUs and then written (unowned -> exclusive -> shared ->
 * exclusive, one invalidation per other sharer), remote reads counted at
 * the home of first touch, a dirty eviction's writeback, NACKs while an
 * intervention is in flight, and set 0 accounting for every Hub cycle;
 * and what each CPU's R10000 counters see of it (events 12, 13, 28-31:
 * the requests the directory sent to the CPU, those that found the line
 * in its secondary cache, the state its stores found there).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/r10k_pmu.h>

#define PC UINT64_C(0x10000)
#define FOUR_MB (UINT64_C(4) << 20)
#define BASE UINT64_C(0x40000000)
#define LINE 128u
#define GAP 20000u
#define T_MEMDIR 16 /* Hub cycles of a line read or written with its directory entry (docs/origin-directory.md) */ /* CPU cycles between steps: no transaction is still in flight */

struct rig {
	struct hvpmu_machine *m;
	unsigned dev[4];
	uint64_t hub0; /* Hub cycle at which the counters started */
};

static uint64_t hub_now(struct hvpmu_machine *m)
{
	uint64_t hub = 0;

	for (uint32_t s = 0; s < hvpmu_machine_nstrands(m); s++) {
		uint64_t t = hvpmu_machine_tick(m, s) * 100000000 / 195000000;

		hub = t > hub ? t : hub;
	}
	return hub;
}

/*
 * The Origin machine with the memory model and two 4 MB pages at BASE;
 * every CPU's TLB warmed on both (a load of a line 1 MB into each page,
 * away from the lines and L2 sets the tests use: their tablewalks are
 * Hub traffic too), then `set` live on every Hub from zero (what the
 * warm-up did was counted while the Hubs were disabled: nothing).
 */
/* The description's Origin policies (docs/origin-directory.md): page
 * migration, I/O by DMA, a fetch-and-op region; 0: off. */
struct policy {
	uint32_t migration_threshold, io_dma;
	uint64_t fetchop_va, fetchop_bytes;
};

static void rig_init_policy(struct rig *r, unsigned set, const struct policy *p)
{
	struct hvpmu_md md;

	memset(r, 0, sizeof *r);
	assert_int_equal(hvpmu_md_by_name("origin", &md), 0);
	md.migration_threshold = p->migration_threshold;
	md.io_dma = p->io_dma;
	md.fetchop_va = p->fetchop_va;
	md.fetchop_bytes = p->fetchop_bytes;
	assert_int_equal(hvpmu_machine_create(&md, &r->m), 0);
	hvpmu_machine_enable_memory(r->m, 1);
	assert_int_equal(hvpmu_machine_map_large(r->m, BASE, 2 * FOUR_MB, FOUR_MB), 0);
	for (uint32_t cpu = 0; cpu < 4; cpu++)
		for (unsigned pg = 0; pg < 2; pg++)
			hvpmu_machine_dref(r->m, cpu, PC, BASE + pg * FOUR_MB + (FOUR_MB / 4) + cpu * LINE, 8,
					   HVPMU_IC_LOAD, 0);
	for (unsigned n = 0; n < 4; n++) {
		int d = hvpmu_machine_device_find(r->m, HVPMU_DEV_ORIGIN_MD, n);

		assert_true(d >= 0);
		r->dev[n] = (unsigned)d;
		assert_int_equal(hvpmu_machine_bus_write(r->m, r->dev[n], HVPMU_HUBMD_REG_SEL, 8 | set), 0);
	}
	r->hub0 = hub_now(r->m);
}

static void rig_init_md(struct rig *r, unsigned set, uint32_t migration_threshold)
{
	const struct policy p = { .migration_threshold = migration_threshold };

	rig_init_policy(r, set, &p);
}

static void rig_init(struct rig *r, unsigned set) { rig_init_md(r, set, 0); }

static uint64_t count(struct rig *r, unsigned node, unsigned ctr)
{
	uint64_t v;

	assert_int_equal(hvpmu_machine_bus_read(r->m, r->dev[node], HVPMU_HUBMD_REG_CNT0 + ctr, &v), 0);
	return v;
}

/* CPU `cpu` runs until it is GAP cycles past every other CPU: its next
 * request comes after every transaction so far has completed. */
static void step(struct rig *r, uint32_t cpu)
{
	uint64_t max = 0;

	for (uint32_t s = 0; s < hvpmu_machine_nstrands(r->m); s++)
		if (hvpmu_machine_tick(r->m, s) > max)
			max = hvpmu_machine_tick(r->m, s);
	assert_int_equal(hvpmu_machine_add_cycles(r->m, cpu, HVPMU_MODE_USER, max + GAP - hvpmu_machine_tick(r->m, cpu)),
			 0);
}

static void ld(struct rig *r, uint32_t cpu, uint64_t va)
{
	step(r, cpu);
	hvpmu_machine_dref(r->m, cpu, PC, va, 8, HVPMU_IC_LOAD, 0);
}

static void st(struct rig *r, uint32_t cpu, uint64_t va)
{
	step(r, cpu);
	hvpmu_machine_dref(r->m, cpu, PC, va, 8, HVPMU_IC_STORE, 1);
}

/* CPU 0 (node 0) and CPU 2 (node 1) store to line T in turn, N times
 * each, after CPU 0 touched it first (home: node 0). */
#define N 50
static void pingpong(struct rig *r)
{
	st(r, 0, BASE);
	for (unsigned i = 0; i < N; i++) {
		st(r, 2, BASE);
		st(r, 0, BASE);
	}
}

static void test_pingpong(void **state)
{
	struct rig r;

	(void)state;
	/* set 2: each transfer is a read-exclusive intervention to the owner */
	rig_init(&r, HVPMU_HUBMD_SET_INVAL);
	pingpong(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INTERV_RDEX), 2 * N);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INVAL), 0);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INTERV_RDSH), 0);
	assert_int_equal(count(&r, 1, HVPMU_HUBMD_INV_INTERV_RDEX), 0); /* node 1 is no home */
	hvpmu_machine_destroy(r.m);
	/* set 4: the first request found it unowned, every other one owned by the other CPU */
	rig_init(&r, HVPMU_HUBMD_SET_DIR_STATE);
	pingpong(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_UNOWNED), 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_EXCL_OTHER), 2 * N);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_BUSY), 0);
	hvpmu_machine_destroy(r.m);
	/* set 3: a read request and a revision per transfer */
	rig_init(&r, HVPMU_HUBMD_SET_INMSG);
	pingpong(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_READS), 2 * N + 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_REVISION), 2 * N);
	hvpmu_machine_destroy(r.m);
	/* set 5: CPU 0's requests are local to node 0, CPU 2's are not */
	rig_init(&r, HVPMU_HUBMD_SET_LOCAL_REQ);
	pingpong(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_CPU0_READS), N + 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_CPU1_READS), 0);
	assert_int_equal(count(&r, 1, HVPMU_HUBMD_LOCAL_CPU0_READS), 0);
	hvpmu_machine_destroy(r.m);
}

/* Line S read by CPUs 0 (first touch: home node 0), 1, 2, 3, then
 * written by CPU 0 (an upgrade of its clean copy). */
static void share_then_write(struct rig *r)
{
	for (uint32_t cpu = 0; cpu < 4; cpu++)
		ld(r, cpu, BASE + 4 * LINE);
	st(r, 0, BASE + 4 * LINE);
}

static void test_share_then_write(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, HVPMU_HUBMD_SET_DIR_STATE);
	share_then_write(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_UNOWNED), 1);    /* CPU 0: exclusive */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_EXCL_OTHER), 1); /* CPU 1: intervention, shared */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_SHARED), 2);     /* CPUs 2, 3 */
	hvpmu_machine_destroy(r.m);
	rig_init(&r, HVPMU_HUBMD_SET_INVAL);
	share_then_write(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INTERV_RDSH), 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INVAL), 3);      /* CPUs 1, 2, 3 */
	hvpmu_machine_destroy(r.m);
	rig_init(&r, HVPMU_HUBMD_SET_OUTMSG);
	share_then_write(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_INTERV_INVAL), 4);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_RESPONSE), 5);   /* four reads, the upgrade's ack */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_NACK), 0);
	hvpmu_machine_destroy(r.m);
	rig_init(&r, HVPMU_HUBMD_SET_INMSG);
	share_then_write(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_READS), 4);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_MISC), 1);        /* the upgrade */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_REVISION), 1);
	hvpmu_machine_destroy(r.m);
	rig_init(&r, HVPMU_HUBMD_SET_LOCAL_REQ);
	share_then_write(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_CPU0_READS), 2); /* its read and its upgrade */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_CPU1_READS), 1);
	hvpmu_machine_destroy(r.m);
	/* a second store by CPU 0: its line is dirty, no message */
	rig_init(&r, HVPMU_HUBMD_SET_INMSG);
	share_then_write(&r);
	st(&r, 0, BASE + 4 * LINE);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_MISC) + count(&r, 0, HVPMU_HUBMD_IN_READS), 5);
	hvpmu_machine_destroy(r.m);
}

/* A stream of reads by CPU 0 over K lines first touched by CPU 2: every
 * read is remote, at node 1's Hub, and found the line owned by CPU 2. */
#define K 64
static void test_remote_reads(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, HVPMU_HUBMD_SET_INMSG);
	for (unsigned i = 0; i < K; i++)
		ld(&r, 2, BASE + FOUR_MB + i * LINE);
	for (unsigned i = 0; i < K; i++)
		ld(&r, 0, BASE + FOUR_MB + i * LINE);
	assert_int_equal(count(&r, 1, HVPMU_HUBMD_IN_READS), 2 * K);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_READS), 0);
	hvpmu_machine_destroy(r.m);
	rig_init(&r, HVPMU_HUBMD_SET_LOCAL_REQ);
	for (unsigned i = 0; i < K; i++)
		ld(&r, 2, BASE + FOUR_MB + i * LINE);
	for (unsigned i = 0; i < K; i++)
		ld(&r, 0, BASE + FOUR_MB + i * LINE);
	assert_int_equal(count(&r, 1, HVPMU_HUBMD_LOCAL_CPU0_READS), K); /* CPU 2 is node 1's CPU 0 */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_CPU0_READS), 0);
	hvpmu_machine_destroy(r.m);
}

/* Three dirty lines of CPU 0 in one set of its 2-way L2 (2 MB apart in
 * one 4 MB page): the third store evicts the first, a writeback. */
static void test_writeback(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, HVPMU_HUBMD_SET_OUTMSG);
	st(&r, 0, BASE);
	st(&r, 0, BASE + FOUR_MB / 2);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_WB_ACK), 0); /* 2 ways: two fit */
	hvpmu_machine_destroy(r.m);
	rig_init(&r, HVPMU_HUBMD_SET_OUTMSG);
	st(&r, 0, BASE);
	st(&r, 0, BASE + FOUR_MB / 2);
	st(&r, 0, BASE + FOUR_MB);           /* the next 4 MB page: same L2 set */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_WB_ACK), 1);
	hvpmu_machine_destroy(r.m);
	rig_init(&r, HVPMU_HUBMD_SET_LOCAL_REQ);
	st(&r, 0, BASE);
	st(&r, 0, BASE + FOUR_MB / 2);
	st(&r, 0, BASE + FOUR_MB);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_CPU0_WB), 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_CPU0_READS), 3);
	hvpmu_machine_destroy(r.m);
}

/* Without a gap the second transfer finds the line busy (the first
 * intervention is in flight): a NACK, then the retry. */
static void test_nack(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, HVPMU_HUBMD_SET_OUTMSG);
	st(&r, 0, BASE);
	st(&r, 2, BASE);                                      /* intervention: busy */
	hvpmu_machine_dref(r.m, 0, PC, BASE, 8, HVPMU_IC_STORE, 1); /* at once */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_NACK), 1);
	hvpmu_machine_destroy(r.m);
	rig_init(&r, HVPMU_HUBMD_SET_DIR_STATE);
	st(&r, 0, BASE);
	st(&r, 2, BASE);
	hvpmu_machine_dref(r.m, 0, PC, BASE, 8, HVPMU_IC_STORE, 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_BUSY), 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_EXCL_OTHER), 2); /* the retry went through */
	hvpmu_machine_destroy(r.m);
}

/* Set 0: idle + refresh + busy kinds = the Hub cycles elapsed, on every node. */
static void test_md_cycles(void **state)
{
	struct rig r;
	uint64_t sum[4] = { 0 }, hub;

	(void)state;
	rig_init(&r, HVPMU_HUBMD_SET_MEM_CYCLES);
	share_then_write(&r);
	for (unsigned n = 0; n < 4; n++)
		for (unsigned c = 0; c < HVPMU_HUBMD_PERF_COUNTERS; c++)
			sum[n] += count(&r, n, c);
	hub = hub_now(r.m);
	for (unsigned n = 0; n < 4; n++)
		assert_int_equal(sum[n], hub - r.hub0);
	/* node 0 served four line reads from memory and the directory */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_MEM_MEMDIR_BUSY), 3 * T_MEMDIR);
	assert_true(count(&r, 0, HVPMU_HUBMD_MEM_REFRESH) > 0);
	assert_int_equal(count(&r, 1, HVPMU_HUBMD_MEM_MEMDIR_BUSY), 0);
	hvpmu_machine_destroy(r.m);
}

/* ---- each CPU's directory events: the R10000's events 12, 13, 28-31 ---- */

/* Count R10000 event `ev` (12-15: counter 0; 28-31: counter 1, as event
 * ev - 16) in user mode on every CPU of the rig, from 0 (the driver's
 * MTPS / MTPC, hvpmu_machine_reg_write, sync first as well). */
static void r10k_count(struct rig *r, unsigned ev)
{
	unsigned n = ev / HVPMU_R10K_EVENTS_PER_COUNTER;

	for (uint32_t cpu = 0; cpu < hvpmu_machine_nstrands(r->m); cpu++) {
		void *pmu = hvpmu_machine_pmu(r->m, cpu);

		/* what the warm-up did is fed first (under the counters' reset state) */
		assert_int_equal(hvpmu_machine_sync(r->m, cpu, NULL, NULL), 0);
		assert_int_equal(hvpmu_r10k_write(pmu, HVPMU_MODE_PRIV, HVPMU_R10K_SEL_COUNT(n), 0), HVPMU_OK);
		assert_int_equal(hvpmu_r10k_write(pmu, HVPMU_MODE_PRIV, HVPMU_R10K_SEL_CONTROL(n),
						  HVPMU_FDP(0, R10K_PERFCTL, EVENT, ev % HVPMU_R10K_EVENTS_PER_COUNTER) |
							  HVPMU_FMASK(R10K_PERFCTL, U)),
				 HVPMU_OK);
	}
}

/* What CPU `cpu`'s counter of event `ev` counted (after a sync). */
static uint32_t r10k_read(struct rig *r, uint32_t cpu, unsigned ev)
{
	assert_int_equal(hvpmu_machine_sync(r->m, cpu, NULL, NULL), 0);
	return hvpmu_r10k_pmu_peek_count(hvpmu_machine_pmu(r->m, cpu), ev / HVPMU_R10K_EVENTS_PER_COUNTER);
}

#define EV_EXT_INTERV 12
#define EV_EXT_INVAL 13
#define EV_EXT_INTERV_HIT 28
#define EV_EXT_INVAL_HIT 29
#define EV_ST_CLEAN 30
#define EV_ST_SHARED 31

/* share_then_write: CPU 1's read is an intervention to CPU 0, which holds
 * the line (a hit); CPU 0's store finds its line shared (an upgrade) and
 * invalidates CPUs 1, 2, 3, which hold it (hits). */
static void test_cpu_share_then_write(void **state)
{
	static const struct { unsigned ev; uint32_t want[4]; } cases[] = {
		{ EV_EXT_INTERV, { 1, 0, 0, 0 } }, { EV_EXT_INTERV_HIT, { 1, 0, 0, 0 } },
		{ EV_EXT_INVAL, { 0, 1, 1, 1 } },  { EV_EXT_INVAL_HIT, { 0, 1, 1, 1 } },
		{ EV_ST_CLEAN, { 0, 0, 0, 0 } },   { EV_ST_SHARED, { 1, 0, 0, 0 } },
	};
	struct rig r;

	(void)state;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rig_init(&r, HVPMU_HUBMD_SET_INVAL);
		r10k_count(&r, cases[i].ev);
		share_then_write(&r);
		for (uint32_t cpu = 0; cpu < 4; cpu++) {
			assert_int_equal(r10k_read(&r, cpu, cases[i].ev), cases[i].want[cpu]);
		}
		hvpmu_machine_destroy(r.m);
	}
}

/* A line CPU 0 read (unowned: it holds it clean exclusive) and then
 * stores twice: the first store makes the line dirty without a message
 * (event 30), the second finds it dirty (nothing). */
static void test_cpu_clean_exclusive(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, HVPMU_HUBMD_SET_INMSG);
	r10k_count(&r, EV_ST_CLEAN);
	ld(&r, 0, BASE + 8 * LINE);
	st(&r, 0, BASE + 8 * LINE);
	st(&r, 0, BASE + 8 * LINE);
	assert_int_equal(r10k_read(&r, 0, EV_ST_CLEAN), 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_MISC), 0); /* no upgrade request */
	hvpmu_machine_destroy(r.m);
	rig_init(&r, HVPMU_HUBMD_SET_INMSG);
	r10k_count(&r, EV_ST_SHARED);
	ld(&r, 0, BASE + 8 * LINE);
	st(&r, 0, BASE + 8 * LINE);
	assert_int_equal(r10k_read(&r, 0, EV_ST_SHARED), 0);
	hvpmu_machine_destroy(r.m);
}

/* The directory is stale after a silent drop of a clean line: CPU `cpu`
 * loads the lines 2 MB and 4 MB above `va` (one set of its 4 MB 2-way
 * secondary cache), which evicts va's line without a message. */
static void drop(struct rig *r, uint32_t cpu, uint64_t va)
{
	ld(r, cpu, va + FOUR_MB / 2);
	ld(r, cpu, va + FOUR_MB);
}

/* An intervention and an invalidation sent to a CPU that dropped the line
 * count events 12 and 13 but not their hits (28, 29). */
static void test_cpu_stale(void **state)
{
	static const struct { unsigned ev; uint32_t want0, want1; } cases[] = {
		{ EV_EXT_INTERV, 1, 0 }, { EV_EXT_INTERV_HIT, 0, 0 },
		{ EV_EXT_INVAL, 0, 1 },  { EV_EXT_INVAL_HIT, 0, 0 },
	};
	const uint64_t x = BASE + 16 * LINE, y = BASE + 24 * LINE;
	struct rig r;

	(void)state;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rig_init(&r, HVPMU_HUBMD_SET_INVAL);
		r10k_count(&r, cases[i].ev);
		/* x: CPU 0 holds it exclusive, drops it; CPU 2's read is an
		 * intervention to CPU 0, which no longer has it */
		ld(&r, 0, x);
		drop(&r, 0, x);
		ld(&r, 2, x);
		/* y: CPUs 0 and 1 share it (an intervention to CPU 0, which has
		 * it: not counted here, CPU 0's count is read before), CPU 1
		 * drops it, CPU 0's store invalidates CPU 1, which no longer has it */
		assert_int_equal(r10k_read(&r, 0, cases[i].ev), cases[i].want0);
		ld(&r, 0, y);
		ld(&r, 1, y);
		drop(&r, 1, y);
		st(&r, 0, y);
		assert_int_equal(r10k_read(&r, 1, cases[i].ev), cases[i].want1);
		assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INTERV_RDSH), 2); /* the Hub sent them all */
		assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INVAL), 1);
		hvpmu_machine_destroy(r.m);
	}
}

/* Page migration (threshold 2): CPU 0 places a page on node 0 (one
 * request), CPU 2's fourth remote request (4 > 1 + 2), made at node 0,
 * moves it to node 1; CPU 0's next request and CPU 2's find the old
 * home's entry poisoned, then go to node 1; CPU 2's one after that does
 * not.  Without migration every request stays at node 0. */
static void migration(struct rig *r)
{
	const uint64_t pg = BASE + 32 * 16384; /* no line of it used elsewhere (rig_init's at 1 MB) */

	ld(r, 0, pg);
	for (unsigned l = 1; l <= 4; l++)
		ld(r, 2, pg + l * LINE);
	ld(r, 0, pg + 5 * LINE);
	ld(r, 2, pg + 6 * LINE);
	ld(r, 2, pg + 7 * LINE); /* its translation is new: no poison */
}

static void test_migration(void **state)
{
	struct rig r;

	(void)state;
	rig_init_md(&r, HVPMU_HUBMD_SET_DIR_STATE, 2);
	migration(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_UNOWNED), 5); /* CPU 0's first, CPU 2's four */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_POISONED), 2);
	assert_int_equal(count(&r, 1, HVPMU_HUBMD_DIR_UNOWNED), 3);
	assert_int_equal(count(&r, 1, HVPMU_HUBMD_DIR_POISONED), 0);
	hvpmu_machine_destroy(r.m);
	rig_init_md(&r, HVPMU_HUBMD_SET_OUTMSG, 2);
	migration(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_OTHER), 2); /* the error replies */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_RESPONSE), 5);
	hvpmu_machine_destroy(r.m);
	rig_init_md(&r, HVPMU_HUBMD_SET_DIR_STATE, 0);
	migration(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_UNOWNED), 8);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_DIR_POISONED), 0);
	assert_int_equal(count(&r, 1, HVPMU_HUBMD_DIR_UNOWNED), 0);
	hvpmu_machine_destroy(r.m);
}

/* The reply queue (docs/origin-directory.md "Outgoing queues"): CPU 2
 * stores to K lines CPU 0 holds dirty, at once (a store waits for
 * nothing): K read-exclusives at one Hub cycle, each a directory-only
 * operation of 4 cycles with a reply of a line (16 cycles to leave) and
 * an intervention (2).  The replies pile up until the 50-entry queue is
 * full; then the MD waits for each oldest to leave (blocked). */
#define K_BURST 100
static uint64_t blocked_expected(void)
{
	uint64_t leave[K_BURST], e = 0, last = 0, blocked = 0;
	unsigned head = 0, n = 0;

	for (unsigned i = 0; i < K_BURST; i++) {
		for (; n && leave[head] <= e; head++, n--)
			;
		if (n >= 50) { /* MD_MOQ_SIZE's reply queue */
			blocked += leave[head] - e;
			e = leave[head];
			for (; n && leave[head] <= e; head++, n--)
				;
		}
		last = (last > e ? last : e) + 16;
		leave[head + n++] = last;
		e += 4; /* the directory-only operation: the next one starts after it */
	}
	return blocked;
}

static void test_blocked(void **state)
{
	struct rig r;
	uint64_t sum = 0, want = blocked_expected();

	(void)state;
	assert_true(want > 0);
	rig_init(&r, HVPMU_HUBMD_SET_MEM_CYCLES);
	for (unsigned i = 0; i < K_BURST; i++)
		st(&r, 0, BASE + 2 * FOUR_MB / 4 + i * LINE);
	step(&r, 2);
	for (unsigned i = 0; i < K_BURST; i++) /* at once */
		hvpmu_machine_dref(r.m, 2, PC, BASE + 2 * FOUR_MB / 4 + i * LINE, 8, HVPMU_IC_STORE, 1);
	step(&r, 0); /* the time passes: every message leaves */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_MEM_BLOCKED), want);
	for (unsigned c = 0; c < HVPMU_HUBMD_PERF_COUNTERS; c++)
		sum += count(&r, 0, c);
	assert_int_equal(sum, hub_now(r.m) - r.hub0); /* set 0 still sums to the Hub cycles */
	hvpmu_machine_destroy(r.m);
	/* spaced (a step between requests): nothing waits */
	rig_init(&r, HVPMU_HUBMD_SET_MEM_CYCLES);
	for (unsigned i = 0; i < K_BURST; i++)
		st(&r, 0, BASE + 2 * FOUR_MB / 4 + i * LINE);
	for (unsigned i = 0; i < K_BURST; i++)
		st(&r, 2, BASE + 2 * FOUR_MB / 4 + i * LINE);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_MEM_BLOCKED), 0);
	hvpmu_machine_destroy(r.m);
}

/* I/O by DMA (io_dma): a write() of a line CPU 0 holds dirty is a read
 * shared uncached (an intervention read-shared uncached; CPU 0 keeps its
 * line), a read() into part of it a read exclusive uncached (an
 * intervention read-exclusive uncached; CPU 0's copy goes), a read() of
 * the whole line a write-invalidate (CPU 0 read it again: an
 * invalidation).  Node 0 is the I/O's node: set 5 counts them. */
static void io(struct rig *r)
{
	const uint64_t x = BASE + 40 * LINE;

	st(r, 0, x);
	step(r, 0);
	hvpmu_machine_io_at(r->m, 0, 0, x, LINE);
	ld(r, 0, x); /* its own dirty line: no request */
	step(r, 0);
	hvpmu_machine_io_at(r->m, 0, 1, x + 32, 64);
	ld(r, 0, x); /* dropped: a read of an unowned line */
	step(r, 0);
	hvpmu_machine_io_at(r->m, 0, 1, x, LINE);
}

static void test_io(void **state)
{
	const struct policy on = { .io_dma = 1 };
	struct rig r;

	(void)state;
	rig_init_policy(&r, HVPMU_HUBMD_SET_INVAL, &on);
	io(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INTERV_RDSH_UNC), 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INTERV_RDEX_UNC), 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_INV_INVAL), 1);
	hvpmu_machine_destroy(r.m);
	rig_init_policy(&r, HVPMU_HUBMD_SET_LOCAL_REQ, &on);
	io(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_IO_READS), 2);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_IO_WRINV), 1);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_CPU0_READS), 2); /* the store's and the reload's */
	hvpmu_machine_destroy(r.m);
	rig_init_policy(&r, HVPMU_HUBMD_SET_OUTMSG, &on);
	io(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_OTHER), 1);  /* the write-invalidate's ack */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_OUT_WB_ACK), 1); /* the merged line written back */
	hvpmu_machine_destroy(r.m);
	/* off (the default): no I/O reaches the directory */
	rig_init(&r, HVPMU_HUBMD_SET_LOCAL_REQ);
	io(&r);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_IO_READS) + count(&r, 0, HVPMU_HUBMD_LOCAL_IO_WRINV), 0);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_LOCAL_CPU0_READS), 1);
	hvpmu_machine_destroy(r.m);
}

/* The fetch-and-op region: variable A three times (a miss, two hits),
 * B (a miss), A again (a miss: the Hub caches one variable), a store to
 * A (a hit); no cache fills, so the same loads repeat as requests.  A
 * machine with the region has no hvpmu_machine_dref_plain(). */
static void test_fetchop(void **state)
{
	const uint64_t va = BASE + 3 * FOUR_MB / 4; /* 16 KB aligned */
	const struct policy on = { .fetchop_va = va, .fetchop_bytes = 16384 };
	struct rig r;

	(void)state;
	rig_init_policy(&r, HVPMU_HUBMD_SET_INMSG, &on);
	assert_false(hvpmu_machine_dref_plain_ok(r.m)); /* (the plugin's dispatch keeps the region's test) */
	for (unsigned i = 0; i < 3; i++)
		ld(&r, 0, va + 8);
	ld(&r, 0, va + 64 + 8);
	ld(&r, 0, va + 8);
	st(&r, 0, va);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_FOP_HIT), 3);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_FOP_MISS), 3);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_IN_READS), 0);
	hvpmu_machine_destroy(r.m);
	rig_init_policy(&r, HVPMU_HUBMD_SET_MEM_CYCLES, &on);
	ld(&r, 0, va + 8);
	ld(&r, 0, va + 8);
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_MEM_MISC_BUSY), 4);      /* the hit */
	assert_int_equal(count(&r, 0, HVPMU_HUBMD_MEM_MEMDIR_BUSY), T_MEMDIR); /* the miss */
	hvpmu_machine_destroy(r.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingpong),     cmocka_unit_test(test_share_then_write),
		cmocka_unit_test(test_remote_reads), cmocka_unit_test(test_writeback),
		cmocka_unit_test(test_nack),         cmocka_unit_test(test_md_cycles),
		cmocka_unit_test(test_cpu_share_then_write), cmocka_unit_test(test_cpu_clean_exclusive),
		cmocka_unit_test(test_cpu_stale),            cmocka_unit_test(test_migration),
		cmocka_unit_test(test_blocked),              cmocka_unit_test(test_io),
		cmocka_unit_test(test_fetchop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
