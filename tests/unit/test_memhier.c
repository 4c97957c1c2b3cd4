/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory hierarchy model (docs/memory-model.md) against analytic
 * outcomes, through hvpmu_machine_dref / hvpmu_machine_ifetch and the
 * strand's event counters behind TABLE 10-2 sl=5, 16/23, 20, 22, 24
 * (sparc-t4-performance-instrumentation.md), with the default T4
 * geometry: L1D 16 KB 4-way 32 B lines (write-through, no write
 * allocation), L2 128 KB 8-way 32 B, L3 4 MB 16-way 64 B.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

#define KB 1024u
#define BASE UINT64_C(0x40000000)
#define PC UINT64_C(0x100000)
#define MB_OFFSET UINT64_C(0x1000000) /* a region far from the first */
#define FOUR_MB (UINT64_C(4) << 20)
#define EIGHT_KB UINT64_C(8192)
#define SMALL_PAGES UINT64_C(0x80000000) /* outside the 4 MB-page region: 8 KB pages */

static struct hvpmu_machine *machine(struct hvpmu_md *md)
{
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, md), 0);
	assert_int_equal(hvpmu_machine_create(md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	/* 4 MB pages over the test's data, so that physical and virtual
	 * offsets agree within each 4 MB page and cache sets are predictable */
	assert_int_equal(hvpmu_machine_map_large(m, BASE, 8 * FOUR_MB, FOUR_MB), 0);
	return m;
}

static void loads(struct hvpmu_machine *m, uint64_t base, uint64_t bytes, unsigned stride)
{
	for (uint64_t a = base; a < base + bytes; a += stride)
		hvpmu_machine_dref(m, 0, PC, a, 8, HVPMU_IC_LOAD, 0);
}

/* A cold sequential 64 KB scan: one L1D miss per 32-byte line; each 64-byte
 * L3 line comes from memory once, its second half is then in L3.  A second
 * scan fits L2 (128 KB) but not L1D (16 KB): every line misses L1D, hits L2. */
static void test_sequential_scan(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	uint64_t lines = 64 * KB / md.mem.l1d.line;

	(void)state;
	loads(m, BASE, 64 * KB, 8);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM], lines / 2);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_L2L3], lines / 2);
	loads(m, BASE, 64 * KB, 8);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM], lines / 2);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_L2L3], lines / 2 + lines);
	/* a working set below L1D: only cold misses */
	loads(m, BASE + MB_OFFSET, 8 * KB, 8);
	loads(m, BASE + MB_OFFSET, 8 * KB, 8);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM] + a->mev[HVPMU_MEV_DC_MISS_L2L3],
			 lines / 2 + lines + lines / 2 + 8 * KB / md.mem.l1d.line);
	hvpmu_machine_destroy(m);
}

/* Stores: write-through L1D without allocation; L2 write-allocate. */
static void test_stores(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);

	(void)state;
	hvpmu_machine_dref(m, 0, PC, BASE, 8, HVPMU_IC_STORE, 1);      /* memory */
	hvpmu_machine_dref(m, 0, PC, BASE + 8, 8, HVPMU_IC_STORE, 1);  /* same L2 line */
	hvpmu_machine_dref(m, 0, PC, BASE + 32, 8, HVPMU_IC_STORE, 1); /* other half of the L3 line */
	assert_int_equal(a->mev[HVPMU_MEV_ST_MEM], 1);
	assert_int_equal(a->mev[HVPMU_MEV_ST_HIT_L2], 1);
	assert_int_equal(a->mev[HVPMU_MEV_ST_HIT_L3], 1);
	/* the stored line was not allocated in L1D: a load misses L1D, hits L2 */
	hvpmu_machine_dref(m, 0, PC, BASE, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_L2L3], 1);
	/* sl=16 does not count prefetches, atomics or block loads */
	hvpmu_machine_dref(m, 0, PC, BASE + 4096, 8, HVPMU_IC_OTHER | HVPMU_IC_PREFETCH, 0);
	hvpmu_machine_dref(m, 0, PC, BASE + 8192, 8, HVPMU_IC_OTHER | HVPMU_IC_ATOMIC, 0);
	hvpmu_machine_dref(m, 0, PC, BASE + 12288, 64, HVPMU_IC_LOAD | HVPMU_IC_BLOCK, 0);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_L2L3] + a->mev[HVPMU_MEV_DC_MISS_MEM], 1);
	hvpmu_machine_destroy(m);
}

/* L2 evictions: 9 lines mapping to one 8-way L2 set evict one line; dirty
 * if it was stored to.  L2 is inclusive: the victim leaves L1D too. */
static void test_l2_evictions(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	uint64_t set_stride = md.mem.l2.size / md.mem.l2.ways; /* same L2 set */
	/* L2/L1D set 7: away from the sets the tablewalk's TSB probes use */
	uint64_t base = BASE + 7 * md.mem.l2.line;

	(void)state;
	for (unsigned i = 0; i < md.mem.l2.ways; i++)
		hvpmu_machine_dref(m, 0, PC, base + i * set_stride, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(a->mev[HVPMU_MEV_L2_CLEAN_EVICT] + a->mev[HVPMU_MEV_L2_DIRTY_EVICT], 0);
	hvpmu_machine_dref(m, 0, PC, base + md.mem.l2.ways * set_stride, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(a->mev[HVPMU_MEV_L2_CLEAN_EVICT], 1);
	/* line 0 had already left the 4-way L1D set (lines 5..8 are there) */
	assert_int_equal(a->mev[HVPMU_MEV_DC_EVICT_INVAL], 0);
	/* 9 stores to new lines of the same set: the first 8 evict lines 1..8
	 * (clean; 5..8 also leave L1D), the 9th evicts the first stored line
	 * (dirty) */
	for (unsigned i = 0; i < md.mem.l2.ways + 1; i++)
		hvpmu_machine_dref(m, 0, PC, base + (16 + i) * set_stride, 8, HVPMU_IC_STORE, 1);
	assert_int_equal(a->mev[HVPMU_MEV_L2_CLEAN_EVICT], 1 + md.mem.l2.ways);
	assert_int_equal(a->mev[HVPMU_MEV_L2_DIRTY_EVICT], 1);
	assert_int_equal(a->mev[HVPMU_MEV_DC_EVICT_INVAL], md.mem.l1d.ways);
	hvpmu_machine_destroy(m);
}

/* Instruction fetch: a 64-byte block spans two 32-byte L1I lines. */
static void test_ifetch(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);

	(void)state;
	hvpmu_machine_ifetch(m, 0, PC, 64);
	assert_int_equal(a->mev[HVPMU_MEV_IC_MISS_MEM], 1);
	assert_int_equal(a->mev[HVPMU_MEV_IC_MISS_L2L3], 1);
	hvpmu_machine_ifetch(m, 0, PC, 64);
	assert_int_equal(a->mev[HVPMU_MEV_IC_MISS_MEM] + a->mev[HVPMU_MEV_IC_MISS_L2L3], 2);
	/* a fetch crossing a line boundary touches both lines */
	hvpmu_machine_ifetch(m, 0, PC + 4096 + 28, 8);
	assert_int_equal(a->mev[HVPMU_MEV_IC_MISS_MEM] + a->mev[HVPMU_MEV_IC_MISS_L2L3], 4);
	hvpmu_machine_destroy(m);
}

/* Miss latencies reach %tick; the model is idle when not enabled. */
static void test_latency_and_enable(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md);
	uint64_t t0;

	(void)state;
	hvpmu_machine_dref(m, 0, PC, BASE + (1u << 20), 8, HVPMU_IC_LOAD, 0); /* warms the DTLB */
	hvpmu_machine_sync(m, 0, NULL, NULL);
	t0 = hvpmu_machine_tick(m, 0);
	hvpmu_machine_dref(m, 0, PC, BASE, 8, HVPMU_IC_LOAD, 0);
	hvpmu_machine_sync(m, 0, NULL, NULL);
	assert_int_equal(hvpmu_machine_tick(m, 0) - t0, md.mem.l2.latency + md.mem.l3.latency + md.mem.mem_latency);
	hvpmu_machine_enable_memory(m, 0);
	t0 = hvpmu_machine_activity(m, 0)->mem_refs;
	hvpmu_machine_dref(m, 0, PC, BASE + 4096, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(hvpmu_machine_activity(m, 0)->mem_refs, t0);
	hvpmu_machine_destroy(m);
}

/* TLB events (TABLE 10-2 sl=5 0x10, 6, 10, 17): a first touch of a page
 * walks the TSB, traps to the guest OS (TSB miss), walks again and fills;
 * later touches hit the TLB (docs/tlb-model.md). */
static void test_tlb_events(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);

	(void)state;
	for (unsigned p = 0; p < 3; p++)
		for (unsigned k = 0; k < 4; k++)
			hvpmu_machine_dref(m, 0, PC, SMALL_PAGES + p * EIGHT_KB + 64 * k, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(a->mev[HVPMU_MEV_DTLB_FILL_8K], 3);
	assert_int_equal(a->mev[HVPMU_MEV_DTLB_FILL_TRAP], 3);
	assert_int_equal(a->mev[HVPMU_MEV_DTLB_FILL_4M], 0);
	/* references of the walks per page: the first walk probes TSB0 and
	 * TSB1 (it exists once a 4 MB region is declared) and misses both; the
	 * walk after the fill trap hits TSB0 */
	assert_int_equal(a->mev[HVPMU_MEV_HWTW_D_L2] + a->mev[HVPMU_MEV_HWTW_D_L3] + a->mev[HVPMU_MEV_HWTW_D_MEM],
			 3 * (2 + 1));
	/* a 4 MB page: one fill for the whole page */
	hvpmu_machine_dref(m, 0, PC, BASE, 8, HVPMU_IC_LOAD, 0);
	hvpmu_machine_dref(m, 0, PC, BASE + FOUR_MB - 8, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(a->mev[HVPMU_MEV_DTLB_FILL_4M], 1);
	/* instruction side */
	hvpmu_machine_ifetch(m, 0, SMALL_PAGES + 64 * EIGHT_KB, 32);
	assert_int_equal(a->mev[HVPMU_MEV_ITLB_FILL_8K], 1);
	assert_int_equal(a->mev[HVPMU_MEV_ITLB_FILL_TRAP], 1);
	assert_int_equal(a->mev[HVPMU_MEV_ITLB_MISS], 2);
	hvpmu_machine_destroy(m);
}

/* Lines that miss L3 become DRAM reads at the MCU owning them (address
 * bit 6 interleaves the two MCUs, docs/dram-model.md): the MCU counters
 * with select 8 (all reads, TABLE 10-7) see every one. */
static void test_dram_traffic(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md);
	const unsigned lines = 32;
	uint64_t sel_all_reads = HVPMU_FDP(0, T4_DRAM_CTL, SEL0, HVPMU_T4_DRAM_SEL_READ_ALL);
	uint32_t total = 0;

	(void)state;
	hvpmu_machine_dref(m, 0, PC, BASE + FOUR_MB - 64, 8, HVPMU_IC_LOAD, 0); /* warms the DTLB */
	for (unsigned i = 0; i < hvpmu_machine_nmcu(m); i++) {
		assert_int_equal(hvpmu_t4_mcu_write(hvpmu_machine_device_state(m, (unsigned)hvpmu_machine_device_find(m, HVPMU_DEV_T4_MCU, i)), HVPMU_T4_MCU_CTL, sel_all_reads), 0);
		assert_int_equal(hvpmu_t4_mcu_write(hvpmu_machine_device_state(m, (unsigned)hvpmu_machine_device_find(m, HVPMU_DEV_T4_MCU, i)), HVPMU_T4_MCU_COUNT01, 0), 0);
	}
	for (unsigned k = 0; k < lines; k++) /* distinct 64-byte L3 lines */
		hvpmu_machine_dref(m, 0, PC, BASE + 64 * k, 8, HVPMU_IC_LOAD, 0);
	/* let the model reach a time at which every read has been accepted */
	hvpmu_machine_add_cycles(m, 0, HVPMU_MODE_USER, 100000);
	hvpmu_machine_dref(m, 0, PC, BASE + 8, 8, HVPMU_IC_LOAD, 0);
	for (unsigned i = 0; i < hvpmu_machine_nmcu(m); i++) {
		uint32_t n = hvpmu_t4_mcu_peek_counter(hvpmu_machine_device_state(m, (unsigned)hvpmu_machine_device_find(m, HVPMU_DEV_T4_MCU, i)), 0);

		assert_int_equal(n, lines / 2); /* half the lines on each MCU */
		total += n;
	}
	assert_int_equal(total, lines);
	hvpmu_machine_destroy(m);
}

/* hvpmu_machine_dref_insn() is hvpmu_machine_dref() with the instruction
 * described once, and so is hvpmu_machine_dref_plain() where the machine
 * allows it (memory model on, no fetch-and-op region: the T4; without the
 * memory model it does not): the same stream of loads, stores, atomics
 * and fetches through each gives the same events and cycles; an
 * out-of-range strand or a size of 0 changes nothing. */
static void test_dref_insn(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m1 = machine(&md), *m2 = machine(&md), *m3 = machine(&md);
	struct hvpmu_activity *a1 = hvpmu_machine_activity(m1, 0), *a2 = hvpmu_machine_activity(m2, 0);
	struct hvpmu_activity *a3 = hvpmu_machine_activity(m3, 0);
	uint64_t x = 88172645463325252u, before[HVPMU_NMEV];
	const uint32_t flags[4] = { HVPMU_IC_LOAD, HVPMU_IC_STORE, HVPMU_IC_OTHER | HVPMU_IC_ATOMIC, HVPMU_IC_LOAD };

	(void)state;
	assert_true(hvpmu_machine_dref_plain_ok(m3));
	for (int i = 0; i < 200000; i++) {
		unsigned kind, shift;
		uint64_t va;
		struct hvpmu_dref_insn d;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
		kind = (unsigned)(x & 3);
		shift = (unsigned)(x >> 2) & 3;
		/* 512 KB of data over the 4 MB pages and 256 KB of 8 KB pages:
		 * misses at every level, DTLB misses, store-buffer hits */
		va = (x >> 8) % 3 ? BASE + ((x >> 16) & (512 * KB - 1)) : SMALL_PAGES + ((x >> 16) & (256 * KB - 1));
		va &= ~((UINT64_C(1) << shift) - 1); /* naturally aligned */
		if ((x >> 40) % 8 == 0) {
			hvpmu_machine_ifetch(m1, 0, PC + ((x >> 44) & 0xffc0), 32);
			hvpmu_machine_ifetch(m2, 0, PC + ((x >> 44) & 0xffc0), 32);
			hvpmu_machine_ifetch(m3, 0, PC + ((x >> 44) & 0xffc0), 32);
		}
		d.pc = PC + 4 * (x >> 50);
		d.si_flags = flags[kind];
		d.size = 1u << shift;
		d.is_store = kind == 1;
		hvpmu_machine_dref(m1, 0, d.pc, va, d.size, d.si_flags, d.is_store);
		hvpmu_machine_dref_insn(m2, 0, &d, va);
		hvpmu_machine_dref_plain(m3, 0, &d, va);
		if (kind == 2) { /* an atomic: its load (above), then its store */
			d.is_store = 1;
			hvpmu_machine_dref(m1, 0, d.pc, va, d.size, d.si_flags, 1);
			hvpmu_machine_dref_insn(m2, 0, &d, va);
			hvpmu_machine_dref_plain(m3, 0, &d, va);
		}
	}
	assert_true(a1->mev[HVPMU_MEV_DC_MISS_MEM] > 0 && a1->mev[HVPMU_MEV_ST_HIT_L2] > 0);
	assert_memory_equal(a1->mev, a2->mev, sizeof a1->mev);
	assert_memory_equal(a1->mev, a3->mev, sizeof a1->mev);
	assert_int_equal(hvpmu_machine_tick(m1, 0), hvpmu_machine_tick(m2, 0));
	assert_int_equal(hvpmu_machine_tick(m1, 0), hvpmu_machine_tick(m3, 0));
	hvpmu_machine_enable_memory(m3, 0);
	assert_false(hvpmu_machine_dref_plain_ok(m3));
	hvpmu_machine_destroy(m3);
	{
		/* a line never touched: a real access would miss */
		struct hvpmu_dref_insn d = { .pc = PC, .si_flags = HVPMU_IC_LOAD, .size = 0, .is_store = 0 };
		uint32_t n = hvpmu_machine_nstrands(m2);
		uint64_t tick0 = hvpmu_machine_tick(m2, 0);

		memcpy(before, a2->mev, sizeof before);
		hvpmu_machine_dref_insn(m2, 0, &d, BASE + 8 * MB_OFFSET); /* size 0 */
		assert_memory_equal(before, a2->mev, sizeof before);
		assert_int_equal(hvpmu_machine_tick(m2, 0), tick0);
		/* no such strand: no strand's counters move (ASan sees writes
		 * past the strands) */
		d.size = 8;
		for (uint32_t k = 0; k < n; k++) {
			memcpy(before, hvpmu_machine_activity(m2, k)->mev, sizeof before);
			hvpmu_machine_dref_insn(m2, n, &d, BASE + 8 * MB_OFFSET);
			assert_memory_equal(before, hvpmu_machine_activity(m2, k)->mev, sizeof before);
		}
		/* and the same access on strand 0 does miss */
		memcpy(before, a2->mev, sizeof before);
		hvpmu_machine_dref_insn(m2, 0, &d, BASE + 8 * MB_OFFSET);
		assert_int_equal(a2->mev[HVPMU_MEV_DC_MISS_MEM], before[HVPMU_MEV_DC_MISS_MEM] + 1);
	}
	hvpmu_machine_destroy(m1);
	hvpmu_machine_destroy(m2);
}

/* Address spaces (hvpmu_machine_set_user_context): the same virtual line
 * in two processes' contexts is two physical lines, each with its own
 * first-touch frame and TLB entry; large pages of one context are not the
 * other's; the kernel path goes back to the strand's own context. */
static void test_contexts(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	uint64_t miss;

	(void)state;
	hvpmu_machine_dref(m, 0, PC, SMALL_PAGES, 8, HVPMU_IC_LOAD, 0);
	miss = a->mev[HVPMU_MEV_DC_MISS_MEM];
	assert_int_equal(miss, 1);
	hvpmu_machine_dref(m, 0, PC, SMALL_PAGES, 8, HVPMU_IC_LOAD, 0); /* L1D hit */
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM] + a->mev[HVPMU_MEV_DC_MISS_L2L3], 1);
	assert_int_equal(hvpmu_machine_set_user_context(m, 0, 2), 0);
	hvpmu_machine_dref(m, 0, PC, SMALL_PAGES, 8, HVPMU_IC_LOAD, 0); /* another frame: memory */
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM], 2);
	assert_int_equal(hvpmu_machine_set_user_context(m, 0, HVPMU_CTX_USER), 0);
	hvpmu_machine_dref(m, 0, PC, SMALL_PAGES, 8, HVPMU_IC_LOAD, 0); /* the first line, still cached */
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM], 2);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_L2L3], 0);
	/* BASE has 4 MB pages in HVPMU_CTX_USER only: context 3 may declare
	 * its own, which the first one's would refuse (overlap) */
	assert_int_equal(hvpmu_machine_map_large(m, BASE, FOUR_MB, FOUR_MB), HVPMU_EINVAL);
	assert_int_equal(hvpmu_machine_map_large_ctx(m, 3, BASE, FOUR_MB, FOUR_MB), 0);
	assert_int_equal(hvpmu_machine_map_large_ctx(m, 0, BASE, FOUR_MB, FOUR_MB), HVPMU_EINVAL);
	assert_int_equal(hvpmu_machine_map_large_ctx(m, HVPMU_CTX_MAX + 1, BASE, FOUR_MB, FOUR_MB), HVPMU_EINVAL);
	assert_int_equal(hvpmu_machine_set_user_context(m, 0, 0), HVPMU_EINVAL);
	assert_int_equal(hvpmu_machine_set_user_context(m, 0, HVPMU_CTX_MAX + 1), HVPMU_EINVAL);
	assert_int_equal(hvpmu_machine_set_user_context(m, hvpmu_machine_nstrands(m), 2), HVPMU_ERANGE);
	/* a system call's kernel path runs in context 0 and returns to the
	 * strand's context (2): a new line there, then the same virtual line
	 * in context 1 is another one */
	assert_int_equal(hvpmu_machine_set_user_context(m, 0, 2), 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	assert_int_equal(hvpmu_machine_syscall(m, 0, 3, 1), 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), 0);
	miss = a->mev[HVPMU_MEV_DC_MISS_MEM] + a->mev[HVPMU_MEV_DC_MISS_L2L3];
	hvpmu_machine_dref(m, 0, PC, SMALL_PAGES + 5 * EIGHT_KB, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(hvpmu_machine_set_user_context(m, 0, HVPMU_CTX_USER), 0);
	hvpmu_machine_dref(m, 0, PC, SMALL_PAGES + 5 * EIGHT_KB, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM] + a->mev[HVPMU_MEV_DC_MISS_L2L3], miss + 2);
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential_scan),
		cmocka_unit_test(test_stores),
		cmocka_unit_test(test_l2_evictions),
		cmocka_unit_test(test_ifetch),
		cmocka_unit_test(test_latency_and_enable),
		cmocka_unit_test(test_tlb_events),
		cmocka_unit_test(test_dram_traffic),
		cmocka_unit_test(test_dref_insn),
		cmocka_unit_test(test_contexts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
