/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pipeline timing rules of docs/timing-model.md (src/model/pipeline.c)
 * and their events, TABLE 10-2 of sparc-t4-performance-instrumentation.md:
 * BTC miss / target incorrect (sl=5 0x08, sl=8 0x08) and the redirect
 * bubble, the mispredict penalty split into refetch and drain (sl=1 0x01),
 * the L1I microtag outcomes (sl=7), the DRAM queueing wait of a read, and,
 * through the machine, the partition of the user cycles by cause that the
 * cycle groups count (sl=1, 2, 8, 9, 28 against sl=26 and %tick).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include "model/dram.h"
#include "model/pipeline.h"

#define COND (HVPMU_IC_BRANCH | HVPMU_IC_CTI_COND)
#define BA (HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS)
#define RET (HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_INDIRECT | HVPMU_IC_RET)
#define JMP (HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_INDIRECT)
#define PC UINT64_C(0x100100)

static struct hvpmu_md_timing t4_timing(void)
{
	struct hvpmu_md md;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	return md.timing;
}

/* The T4 figures of docs/timing-model.md. */
static void test_figures(void **state)
{
	struct hvpmu_md_timing t = t4_timing();
	struct hvpmu_md md;

	(void)state;
	assert_int_equal(t.mispredict_cycles, 24);
	assert_int_equal(t.refetch_cycles, 3);
	assert_int_equal(t.btc_cycles, 2);
	assert_int_equal(t.utag_cycles, 2);
	assert_int_equal(t.taken_cti_cycles, 0);
	assert_int_equal(t.dram_wait_cap, 4 * DRAM_DEFAULT_BANK_BUSY_CYCLES);
	/* T1 keeps the instruction-driven timing */
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	assert_int_equal(md.timing.mispredict_cycles, 0);
	assert_int_equal(md.timing.taken_cti_cycles, 1);
	assert_int_equal(md.timing.dram_wait_cap, 0);
}

/* BTC: taken CTIs only, returns excluded, miss then hit, target
 * incorrect on a changed target, bubble only without a mispredict. */
static void test_btc(void **state)
{
	struct hvpmu_md_timing t = t4_timing();
	struct pipe_strand p;
	struct pipe_branch_cost c;

	(void)state;
	pipe_strand_init(&p);
	pipe_branch(&p, &t, PC, COND, 0, PC + 64, 0, &c); /* not taken: no lookup */
	assert_int_equal(c.btc, PIPE_BTC_HIT);
	assert_int_equal(pipe_cost_cycles(&c, HVPMU_PIPE_FETCH), 0);
	pipe_branch(&p, &t, PC, COND, 1, PC + 64, 0, &c); /* first taken: miss, bubble */
	assert_int_equal(c.btc, PIPE_BTC_MISS);
	assert_int_equal(pipe_cost_cycles(&c, HVPMU_PIPE_FETCH), 2);
	pipe_branch(&p, &t, PC, COND, 1, PC + 64, 0, &c); /* hit: free */
	assert_int_equal(c.btc, PIPE_BTC_HIT);
	assert_int_equal(pipe_cost_cycles(&c, HVPMU_PIPE_FETCH), 0);
	pipe_branch(&p, &t, PC + 4, JMP, 1, PC + 0x400, 0, &c);
	assert_int_equal(c.btc, PIPE_BTC_MISS);
	pipe_branch(&p, &t, PC + 4, JMP, 1, PC + 0x800, 0, &c); /* new target */
	assert_int_equal(c.btc, PIPE_BTC_INCORRECT);
	assert_int_equal(pipe_cost_cycles(&c, HVPMU_PIPE_FETCH), 2);
	pipe_branch(&p, &t, PC + 8, RET, 1, PC + 0x200, 0, &c); /* return stack, not BTC */
	assert_int_equal(c.btc, PIPE_BTC_HIT);
	/* same index PC[7:2], other tag PC[15:8]: a miss that evicts */
	pipe_branch(&p, &t, PC + 0x100, BA, 1, PC + 64, 0, &c);
	assert_int_equal(c.btc, PIPE_BTC_MISS);
	pipe_branch(&p, &t, PC, COND, 1, PC + 64, 0, &c);
	assert_int_equal(c.btc, PIPE_BTC_MISS);
	/* same index and tag 64 KB away: the entry aliases, target incorrect */
	pipe_branch(&p, &t, PC + 0x10000, BA, 1, PC + 0x20000, 0, &c);
	assert_int_equal(c.btc, PIPE_BTC_INCORRECT);
	/* a mispredict's penalty covers the redirect */
	pipe_branch(&p, &t, PC + 0x40, COND, 1, PC + 0x80, 1, &c);
	assert_int_equal(c.btc, PIPE_BTC_MISS);
	assert_int_equal(pipe_cost_cycles(&c, HVPMU_PIPE_FETCH), 0);
	assert_int_equal(pipe_cost_cycles(&c, HVPMU_PIPE_REFETCH), 3);
	assert_int_equal(pipe_cost_cycles(&c, HVPMU_PIPE_DRAIN), 21);
	assert_int_equal(pipe_cost_cycles(&c, HVPMU_PIPE_ISSUE) + pipe_cost_cycles(&c, HVPMU_PIPE_DATA) + pipe_cost_cycles(&c, HVPMU_PIPE_DTLB), 0);
	/* a not-taken mispredict: penalty, no BTC */
	pipe_branch(&p, &t, PC + 0x44, COND, 0, PC + 0x80, 1, &c);
	assert_int_equal(c.btc, PIPE_BTC_HIT);
	assert_int_equal(pipe_cost_cycles(&c, HVPMU_PIPE_REFETCH) + pipe_cost_cycles(&c, HVPMU_PIPE_DRAIN), 24);
}

/* Microtag outcomes on a 4-set, 2-way array; the L1I's contents are what
 * the test says (present / probe). */
static uint64_t present_lines[8];
static unsigned npresent;

static int probe(const void *ctx, uint64_t line)
{
	(void)ctx;
	for (unsigned i = 0; i < npresent; i++)
		if (present_lines[i] == line)
			return 1;
	return 0;
}

static void test_utag(void **state)
{
	struct pipe_utag u;
	const uint64_t va = UINT64_C(0x100000), va2 = va + (UINT64_C(1) << 20); /* same VA[19:12] */
	const uint64_t l = 0x40, l2 = 0x44, l3 = 0x48;                          /* all in set 0 */

	(void)state;
	npresent = 0;
	assert_int_equal(pipe_utag_init(&u, 4, 2), 0);
	/* cold: microtag miss, ptag miss; then a hit */
	assert_int_equal(pipe_utag_fetch(&u, va, l, 0, UINT64_MAX, probe, NULL), PIPE_UTAG_MISS_PTAG_MISS);
	present_lines[npresent++] = l;
	assert_int_equal(pipe_utag_fetch(&u, va, l, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	/* another line with the same microtag: predicted in l's way, ptag miss */
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 0, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT_PTAG_MISS);
	present_lines[npresent++] = l2;
	/* l is the first match: hit; l2 is found in the other way: mismatch */
	assert_int_equal(pipe_utag_fetch(&u, va, l, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_WAY_MISMATCH);
	/* l reached through a synonym (other VA[19:12]): microtag miss, ptag
	 * hit; the way is retrained, so the synonym then hits */
	assert_int_equal(pipe_utag_fetch(&u, va + 0x1000, l, 1, UINT64_MAX, probe, NULL),
			 PIPE_UTAG_MISS_PTAG_HIT);
	assert_int_equal(pipe_utag_fetch(&u, va + 0x1000, l, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	/* l2's microtag is now the only match for va2: a hit */
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	/* a fill evicting l takes l's way */
	present_lines[0] = l3;
	assert_int_equal(pipe_utag_fetch(&u, va2 + 0x1000, l3, 0, l, probe, NULL), PIPE_UTAG_MISS_PTAG_MISS);
	assert_int_equal(pipe_utag_fetch(&u, va2 + 0x1000, l3, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	/* an invalidated line's microtag no longer predicts */
	npresent = 1; /* only l3 left: l2 invalidated behind the array's back */
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 0, UINT64_MAX, probe, NULL), PIPE_UTAG_MISS_PTAG_MISS);
	/* refilled, it has one entry (the stale one is dropped): a plain hit */
	present_lines[npresent++] = l2;
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	assert_int_equal(pipe_utag_fetch(&u, va2 + 0x1000, l3, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	pipe_utag_fini(&u);
	/* a stale entry of the fetched line in another way than the fill's:
	 * l2 (way 0) is invalidated, then refilled into the way of the line
	 * the L1I evicted (l, way 1); the stale way must not predict it */
	assert_int_equal(pipe_utag_init(&u, 4, 2), 0);
	npresent = 0;
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 0, UINT64_MAX, probe, NULL), PIPE_UTAG_MISS_PTAG_MISS);
	present_lines[npresent++] = l2;
	assert_int_equal(pipe_utag_fetch(&u, va + 0x1000, l, 0, UINT64_MAX, probe, NULL), PIPE_UTAG_MISS_PTAG_MISS);
	present_lines[npresent++] = l;
	npresent = 0;                            /* l2 invalidated, l evicted by its refill */
	present_lines[npresent++] = l2;
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 0, l, probe, NULL), PIPE_UTAG_MISS_PTAG_MISS);
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	assert_int_equal(pipe_utag_fetch(&u, va2, l2, 1, UINT64_MAX, probe, NULL), PIPE_UTAG_HIT);
	pipe_utag_fini(&u);
}

/* DRAM queueing wait of a read: bank busy time plus one bank cycle per
 * older request to its bank, capped. */
static void test_dram_wait(void **state)
{
	struct dram d;
	const uint64_t a = 0, same_bank = UINT64_C(1) << 13, other_bank = UINT64_C(1) << 10;
	const uint64_t busy = DRAM_DEFAULT_BANK_BUSY_CYCLES;

	(void)state;
	assert_int_equal(dram_init(&d, NULL), 0);
	assert_int_equal(dram_request(&d, 100, a, 0, 0), 0);
	assert_int_equal(pipe_dram_read_wait(&d, 100, a, 1000), 0);             /* idle bank */
	assert_int_equal(dram_request(&d, 100, same_bank, 0, 0), 0);
	assert_int_equal(pipe_dram_read_wait(&d, 100, same_bank, 1000), busy);  /* behind one */
	assert_int_equal(dram_request(&d, 100, other_bank, 0, 0), 0);
	assert_int_equal(pipe_dram_read_wait(&d, 100, other_bank, 1000), 0);    /* other bank */
	assert_int_equal(pipe_dram_read_wait(&d, 100, same_bank, 100), 100);    /* cap */
	/* by cycle 110 the first read has issued (at 100: its bank is busy
	 * until 100 + busy) and the second still waits for that bank: a third
	 * read of the bank waits for both */
	assert_int_equal(dram_request(&d, 110, same_bank + (UINT64_C(1) << 14), 0, 0), 0);
	assert_int_equal(pipe_dram_read_wait(&d, 110, same_bank + (UINT64_C(1) << 14), 10000),
			 (100 + busy - 110) + busy);
}

/* Through the machine: user cycles split by cause; the cycle groups add
 * up to sl=26 and %tick. */
static void test_machine_partition(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	struct hvpmu_t4_pmu *pmu;
	struct hvpmu_activity *act;
	uint64_t pcr[4], pic[4];
	int ld, add;
	/* sl=1 0x02 Sel_0_wait, sl=1 0x08 Sel_1, sl=26, sl=1 0x01 drain; ut st */
	static const unsigned sl[4] = { 1, 1, 26, 1 }, mask[4] = { 0x02, 0x08, 0x00, 0x01 };

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	pmu = hvpmu_machine_pmu(m, 0);
	for (unsigned i = 0; i < 4; i++) {
		pcr[i] = HVPMU_FDP(HVPMU_FDP(HVPMU_FDP(HVPMU_FDP(UINT64_C(0), T4_PCR, SL, sl[i]), T4_PCR, MASK,
						       mask[i]), T4_PCR, UT, 1), T4_PCR, ST, 1);
		assert_int_equal(hvpmu_t4_pcr_write(pmu, i, pcr[i], HVPMU_MODE_USER), 0);
	}
	ld = hvpmu_machine_class(m, HVPMU_IC_LOAD);
	add = hvpmu_machine_class(m, HVPMU_IC_OTHER);
	assert_true(ld >= 0 && add >= 0);
	act = hvpmu_machine_activity(m, 0);
	/* 10 loads of new lines of one page, 100 adds, 3 mispredicts, a
	 * fetch, a system call */
	hvpmu_machine_ifetch(m, 0, PC, 64);
	for (unsigned i = 0; i < 10; i++) {
		hvpmu_machine_dref(m, 0, PC, UINT64_C(0x200000) + 64 * i, 8, HVPMU_IC_LOAD, 0);
		act->icount[ld]++;
	}
	act->icount[add] += 100;
	for (unsigned i = 0; i < 3; i++) /* first taken execution: weakly not-taken */
		assert_int_equal(hvpmu_machine_branch(m, 0, PC + 8 * i, COND, 1, PC - 64), HVPMU_MISPRED_DIR);
	act->bound += 110;
	assert_int_equal(hvpmu_machine_sync(m, 0, NULL, NULL), 0);
	assert_int_equal(hvpmu_machine_add_cycles(m, 0, HVPMU_MODE_PRIV, 1500), 0);
	for (unsigned i = 0; i < 4; i++)
		pic[i] = hvpmu_t4_pmu_peek_pic(pmu, i);
	/* Sel_0_wait + Sel_1 = sl=26 = %tick; Sel_1 = 110 user micro-ops +
	 * the OS work: the system call and the ITLB and DTLB fill traps (200
	 * privileged cycles each, docs/tlb-model.md) */
	assert_int_equal(pic[0] + pic[1], pic[2]);
	assert_int_equal(pic[2], hvpmu_machine_tick(m, 0));
	assert_int_equal(pic[1], 110 + 1500 + 2 * 200);
	/* 3 mispredicts, 21 drain cycles each */
	assert_int_equal(pic[3], 3 * 21);
	/* the stalls: >= 10 load misses (5 L3 lines: 5 memory + 5 L3) */
	assert_true(pic[0] >= 3 * 24 + 5 * 379 + 5 * 65);
	hvpmu_machine_destroy(m);
}

/* The DRAM wait reaches the load's latency: two strands of one core miss
 * to memory in the same DRAM bank at the same chip cycle; the second read
 * waits one bank cycle behind the first. */
static void test_machine_dram_wait(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	const uint64_t p = UINT64_C(0x400000), page = 8192;
	uint64_t t0, t1;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	/* warm both DTLBs on pages p, p+1 (consecutive frames, touched in
	 * order); strand 1 then hits the core's L1D / L2 and stays behind */
	for (uint32_t st = 0; st < 2; st++) {
		hvpmu_machine_dref(m, st, PC, p + 0x800, 8, HVPMU_IC_LOAD, 0);
		hvpmu_machine_dref(m, st, PC, p + page + 0x800, 8, HVPMU_IC_LOAD, 0);
		assert_int_equal(hvpmu_machine_sync(m, st, NULL, NULL), 0);
	}
	t0 = hvpmu_machine_tick(m, 0);
	t1 = hvpmu_machine_tick(m, 1);
	assert_true(t1 < t0);
	/* PA bit 13 apart: same MCU, port, channel and bank (docs/dram-model.md) */
	hvpmu_machine_dref(m, 0, PC, p, 8, HVPMU_IC_LOAD, 0);
	hvpmu_machine_dref(m, 1, PC, p + page, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(hvpmu_machine_sync(m, 0, NULL, NULL), 0);
	assert_int_equal(hvpmu_machine_sync(m, 1, NULL, NULL), 0);
	assert_int_equal(hvpmu_machine_tick(m, 0) - t0, 20 + 45 + 314);
	assert_int_equal(hvpmu_machine_tick(m, 1) - t1, 20 + 45 + 314 + DRAM_DEFAULT_BANK_BUSY_CYCLES);
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_btc),
		cmocka_unit_test(test_utag),
		cmocka_unit_test(test_dram_wait),
		cmocka_unit_test(test_machine_partition),
		cmocka_unit_test(test_machine_dram_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
