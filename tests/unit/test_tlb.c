/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TLB / TSB model (src/model/tlb.c, docs/tlb-model.md) behind TABLE
 * 10-2 sl=5 mask 0x10, sl=6, sl=10 and sl=17
 * (sparc-t4-performance-instrumentation.md) and the Niagara MMU
 * statistics (niagara-mmustat-api.txt): hits, misses and LRU eviction with
 * exact counts, every page size, the region layout, first-touch physical
 * addresses, TSB hit / miss / fill trap / retry, tablewalk reference
 * outcomes through a fake cache hierarchy, ctx0 vs ctxnon0, walk latency.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include "model/tlb.h"

#define CTX 1u
#define PG8K UINT64_C(0x2000)
#define VA0 UINT64_C(0x100000)
#define TSB0_BYTES ((uint64_t)8192 * TLB_TSB_ENTRY_BYTES)

/* A cache hierarchy stand-in: records the probed addresses and answers
 * from a script (repeating its last value), or always `fixed`. */
struct fake {
	int fixed;
	const int *script;
	int nscript;
	int n;
	uint64_t pa[64];
};

static int fake_ref(void *ctx, uint64_t paddr)
{
	struct fake *f = ctx;
	int r = f->fixed;

	if (f->script)
		r = f->script[f->n < f->nscript ? f->n : f->nscript - 1];
	f->pa[f->n % 64] = paddr;
	f->n++;
	return r;
}

static struct tlb_mmu_config t4_config(void)
{
	return tlb_chip_t4.mmu;
}

static struct tlb_mmu *new_mmu(const struct tlb_mmu_config *c)
{
	struct tlb_mmu *m = NULL;

	assert_int_equal(tlb_mmu_create(c, &m), HVPMU_OK);
	return m;
}

static struct tlb *new_tlb(uint32_t entries, uint32_t ways, enum tlb_side side)
{
	struct tlb_geom g = { .entries = entries, .ways = ways };
	struct tlb *t = NULL;

	assert_int_equal(tlb_create(&g, side, &t), HVPMU_OK);
	return t;
}

static uint64_t sum_fill(const struct tlb_stats *st, enum tlb_side s)
{
	uint64_t n = 0;

	for (int i = 0; i < TLB_NFILL; i++)
		n += st->fill[s][i];
	return n;
}

static uint64_t sum_refs(const struct tlb_stats *st, enum tlb_side s)
{
	return st->hwtw_ref[s][TLB_REF_L2] + st->hwtw_ref[s][TLB_REF_L3] + st->hwtw_ref[s][TLB_REF_MEM];
}

/* Access and return the number of tablewalks it took. */
static int acc(struct tlb *t, struct tlb_mmu *m, struct tlb_stats *st, uint32_t ctx, uint64_t va)
{
	struct tlb_result r;

	assert_true(tlb_access(t, m, st, ctx, va, NULL, NULL, &r) >= 0);
	return r.walks;
}

static void check_invariant(const struct tlb_stats *st)
{
	for (int s = 0; s < TLB_NSIDES; s++)
		assert_int_equal(st->miss[s], sum_fill(st, s) + st->fill_trap[s]);
}

static void test_codes(void **state)
{
	(void)state;
	/* sun4v TTE size codes (Linux pgtable_64.h _PAGE_SZ*_4V) */
	assert_int_equal(TLB_PAGE_SIZE(TLB_PGSZ_8K), 8192);
	assert_int_equal(TLB_PAGE_SIZE(TLB_PGSZ_64K), 65536);
	assert_int_equal(TLB_PAGE_SIZE(TLB_PGSZ_4M), 4u << 20);
	assert_int_equal(TLB_PAGE_SIZE(TLB_PGSZ_256M), 256u << 20);
	assert_true(TLB_PAGE_SIZE(TLB_PGSZ_2G) == UINT64_C(2) << 30);
	assert_true(TLB_PAGE_SIZE(TLB_PGSZ_16G) == UINT64_C(16) << 30);
	assert_int_equal(TLB_PGSZ_2G, 6);
	assert_int_equal(TLB_PGMASK_T4, 0x6b);
	assert_int_equal(TLB_PGMASK_T1, 0x2b);
	/* sl=6/17 mask bit of each fill */
	assert_int_equal(1 << tlb_fill_class(TLB_PGSZ_8K), 0x01);
	assert_int_equal(1 << tlb_fill_class(TLB_PGSZ_64K), 0x02);
	assert_int_equal(1 << tlb_fill_class(TLB_PGSZ_4M), 0x04);
	assert_int_equal(1 << tlb_fill_class(TLB_PGSZ_256M), 0x08);
	assert_int_equal(1 << tlb_fill_class(TLB_PGSZ_2G), 0x10);
	assert_int_equal(tlb_fill_class(TLB_PGSZ_512K), -1);
	assert_int_equal(tlb_fill_class(TLB_PGSZ_16G), -1);
	/* sl=10 mask bits */
	assert_int_equal(TLB_HWTW_MASK(TLB_SIDE_I, TLB_REF_L2), 0x01);
	assert_int_equal(TLB_HWTW_MASK(TLB_SIDE_I, TLB_REF_MEM), 0x04);
	assert_int_equal(TLB_HWTW_MASK(TLB_SIDE_D, TLB_REF_L2), 0x08);
	assert_int_equal(TLB_HWTW_MASK(TLB_SIDE_D, TLB_REF_L3), 0x10);
	assert_int_equal(TLB_HWTW_MASK(TLB_SIDE_D, TLB_REF_MEM), 0x20);
	/* mmustat buffer layout: 32 slots of 16 bytes = 0x200 bytes */
	assert_int_equal(sizeof(((struct tlb_stats *)0)->tsb), 0x200);
}

static void test_bad_args(void **state)
{
	struct tlb_geom g;
	struct tlb *t = NULL;
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = NULL;

	(void)state;
	g = (struct tlb_geom){ 0, 0 };
	assert_int_equal(tlb_create(&g, TLB_SIDE_I, &t), HVPMU_EINVAL);
	g = (struct tlb_geom){ 96, 32 }; /* 3 sets */
	assert_int_equal(tlb_create(&g, TLB_SIDE_I, &t), HVPMU_EINVAL);
	g = (struct tlb_geom){ 64, 24 };
	assert_int_equal(tlb_create(&g, TLB_SIDE_I, &t), HVPMU_EINVAL);
	g = (struct tlb_geom){ 64, 128 };
	assert_int_equal(tlb_create(&g, TLB_SIDE_D, &t), HVPMU_EINVAL);
	g = (struct tlb_geom){ 96, 0 }; /* fully associative needs no power of two */
	assert_int_equal(tlb_create(&g, TLB_SIDE_D, &t), HVPMU_OK);
	tlb_destroy(t);

	c.tsb_entries[0] = 1000;
	assert_int_equal(tlb_mmu_create(&c, &m), HVPMU_EINVAL);
	c = t4_config();
	c.tsb_entries[0] = 256;
	assert_int_equal(tlb_mmu_create(&c, &m), HVPMU_EINVAL);
	c = t4_config();
	c.pgsz_mask = TLB_PGMASK(TLB_PGSZ_4M); /* 8 KB, the default size, is required */
	assert_int_equal(tlb_mmu_create(&c, &m), HVPMU_EINVAL);
	c = t4_config();
	c.phys_size = 0;
	assert_int_equal(tlb_mmu_create(&c, &m), HVPMU_EINVAL);
	c = t4_config();
	c.phys_base = UINT64_C(1) << 56;
	assert_int_equal(tlb_mmu_create(&c, &m), HVPMU_EINVAL);

	c = t4_config();
	m = new_mmu(&c);
	t = new_tlb(64, 0, TLB_SIDE_I);
	{
		struct tlb_stats st = { 0 };
		struct tlb_result r;
		uint64_t pa;

		assert_int_equal(tlb_access(t, m, &st, TLB_NCTX, VA0, NULL, NULL, &r), HVPMU_EINVAL);
		assert_int_equal(tlb_mmu_translate(m, TLB_NCTX, VA0, &pa, NULL), HVPMU_EINVAL);
		assert_int_equal(tlb_mmu_page_size(m, TLB_NCTX, VA0), HVPMU_EINVAL);
		assert_int_equal(tlb_mmu_tsb_base(m, CTX, 1, &pa), HVPMU_ERANGE);
	}
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* First touch of a page: walk (TSB miss), fill trap, the guest writes the
 * TSB, retry walk (TSB hit), fill.  Second touch: TLB hit, nothing counted. */
static void test_first_touch_and_hits(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	struct tlb *t = new_tlb(128, 0, TLB_SIDE_D);
	struct tlb_stats st = { 0 };
	struct tlb_result r;
	uint32_t walk = c.walk_base_cycles + c.ref_cycles[TLB_REF_L2];

	(void)state;
	for (uint64_t p = 0; p < 4; p++) {
		assert_int_equal(tlb_access(t, m, &st, CTX, VA0 + p * PG8K + 8, NULL, NULL, &r), 2 * walk);
		assert_int_equal(r.walks, 2);
		assert_int_equal(r.trapped, 1);
		assert_int_equal(r.trap_cycles, c.fill_trap_cycles);
		assert_int_equal(r.walk_cycles, 2 * walk);
		assert_int_equal(r.code, TLB_PGSZ_8K);
	}
	assert_int_equal(st.miss[TLB_SIDE_D], 8);
	assert_int_equal(st.fill_trap[TLB_SIDE_D], 4);
	assert_int_equal(st.fill[TLB_SIDE_D][TLB_FILL_8K], 4);
	assert_int_equal(st.hwtw_ref[TLB_SIDE_D][TLB_REF_L2], 8); /* one TSB: one probe per walk */
	assert_int_equal(st.walk_cycles[TLB_SIDE_D], 8 * walk);
	assert_int_equal(st.trap_cycles[TLB_SIDE_D], 4 * c.fill_trap_cycles);
	assert_int_equal(st.miss[TLB_SIDE_I], 0);
	/* the retry walk's hit is an mmustat TSB hit, its cycles the ticks */
	assert_int_equal(st.tsb[TLB_SIDE_D][1][TLB_PGSZ_8K].hits, 4);
	assert_int_equal(st.tsb[TLB_SIDE_D][1][TLB_PGSZ_8K].ticks, 4 * walk);
	check_invariant(&st);

	for (uint64_t p = 0; p < 4; p++) {
		uint64_t pa, fast;

		assert_int_equal(tlb_access(t, m, &st, CTX, VA0 + p * PG8K + 0x123, NULL, NULL, &r), 0);
		assert_int_equal(r.walks, 0);
		assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + p * PG8K + 0x123, &pa, NULL), HVPMU_OK);
		assert_true(r.pa == pa);
		assert_int_equal(tlb_hit_fast(t, CTX, VA0 + p * PG8K + 0x40, &fast), 1);
		assert_true(fast == pa - 0x123 + 0x40);
	}
	assert_int_equal(st.miss[TLB_SIDE_D], 8);
	assert_int_equal(tlb_valid_entries(t), 4);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* Fully associative LRU: A B C D fill a 4-entry TLB; using A makes B the
 * victim of E. */
static void test_lru_fully_associative(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	struct tlb *t = new_tlb(4, 0, TLB_SIDE_D);
	struct tlb_stats st = { 0 };
	uint64_t A = VA0, B = VA0 + PG8K, C = VA0 + 2 * PG8K, D = VA0 + 3 * PG8K, E = VA0 + 4 * PG8K;

	(void)state;
	assert_int_equal(acc(t, m, &st, CTX, A), 2);
	assert_int_equal(acc(t, m, &st, CTX, B), 2);
	assert_int_equal(acc(t, m, &st, CTX, C), 2);
	assert_int_equal(acc(t, m, &st, CTX, D), 2);
	assert_int_equal(acc(t, m, &st, CTX, A), 0);
	assert_int_equal(acc(t, m, &st, CTX, E), 2);  /* evicts B */
	assert_int_equal(acc(t, m, &st, CTX, A), 0);
	assert_int_equal(acc(t, m, &st, CTX, C), 0);
	assert_int_equal(acc(t, m, &st, CTX, D), 0);
	assert_int_equal(acc(t, m, &st, CTX, E), 0);
	assert_int_equal(acc(t, m, &st, CTX, B), 1);  /* still in the TSB: one walk, no trap; evicts A */
	assert_int_equal(acc(t, m, &st, CTX, A), 1);  /* evicts C */
	assert_int_equal(acc(t, m, &st, CTX, D), 0);
	assert_int_equal(acc(t, m, &st, CTX, C), 1);  /* evicts E */
	assert_int_equal(st.miss[TLB_SIDE_D], 13);
	assert_int_equal(st.fill_trap[TLB_SIDE_D], 5);
	assert_int_equal(st.fill[TLB_SIDE_D][TLB_FILL_8K], 8);
	check_invariant(&st);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* A hit through the inline MRU check is a use for LRU too. */
static void test_lru_fast_path(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	struct tlb *t = new_tlb(2, 0, TLB_SIDE_I);
	struct tlb_stats st = { 0 };
	uint64_t pa;

	(void)state;
	acc(t, m, &st, CTX, VA0);
	acc(t, m, &st, CTX, VA0 + PG8K);
	assert_int_equal(tlb_hit_fast(t, CTX, VA0 + 4, &pa), 1);
	assert_int_equal(tlb_hit_fast(t, CTX, VA0 + 2 * PG8K, &pa), 0);
	assert_int_equal(tlb_hit_fast(t, CTX + 1, VA0, &pa), 0); /* other context */
	acc(t, m, &st, CTX, VA0 + 2 * PG8K); /* evicts VA0 + 8K, not VA0 */
	assert_int_equal(acc(t, m, &st, CTX, VA0), 0);
	assert_int_equal(acc(t, m, &st, CTX, VA0 + PG8K), 1);
	assert_int_equal(st.miss[TLB_SIDE_I], 7); /* 3 first touches x 2 + 1 */
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* 8 entries, 2 ways, 4 sets: 8 KB pages with VA bits 14:13 equal share a set. */
static void test_set_associative(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	struct tlb *t = new_tlb(8, 2, TLB_SIDE_D);
	struct tlb_stats st = { 0 };
	uint64_t set0[3] = { VA0, VA0 + 4 * PG8K, VA0 + 8 * PG8K };

	(void)state;
	acc(t, m, &st, CTX, set0[0]);
	acc(t, m, &st, CTX, VA0 + PG8K); /* set 1 */
	acc(t, m, &st, CTX, set0[1]);
	acc(t, m, &st, CTX, set0[2]);    /* evicts set0[0] */
	assert_int_equal(acc(t, m, &st, CTX, VA0 + PG8K), 0);
	assert_int_equal(acc(t, m, &st, CTX, set0[1]), 0);
	assert_int_equal(acc(t, m, &st, CTX, set0[2]), 0);
	assert_int_equal(acc(t, m, &st, CTX, set0[0]), 1); /* evicts set0[1] (LRU of set 0) */
	assert_int_equal(acc(t, m, &st, CTX, set0[2]), 0);
	assert_int_equal(acc(t, m, &st, CTX, set0[1]), 1);
	/* a 4 MB page indexes its set by VA bits 23:22 and coexists */
	assert_int_equal(tlb_mmu_add_region(m, CTX, UINT64_C(0x40000000), 4u << 20, TLB_PGSZ_4M), HVPMU_OK);
	assert_int_equal(acc(t, m, &st, CTX, UINT64_C(0x40000000)), 2);
	assert_int_equal(acc(t, m, &st, CTX, UINT64_C(0x403ffff8)), 0);
	assert_int_equal(acc(t, m, &st, CTX, VA0 + PG8K), 0);
	assert_int_equal(st.fill[TLB_SIDE_D][TLB_FILL_4M], 1);
	/* two pages sharing an MRU slot (VA bits 16:13) and a set: the slower
	 * set search finds the one the MRU slot does not point to */
	tlb_demap_all(t);
	acc(t, m, &st, CTX, VA0 + 2 * PG8K);
	acc(t, m, &st, CTX, VA0 + 18 * PG8K);
	assert_int_equal(acc(t, m, &st, CTX, VA0 + 2 * PG8K + 8), 0);
	assert_int_equal(acc(t, m, &st, CTX, VA0 + 18 * PG8K + 8), 0);
	assert_int_equal(tlb_valid_entries(t), 2);
	check_invariant(&st);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* One region per page size: each fill is counted under its own mask bit,
 * the whole page hits after one fill, and PAs keep the page offset. */
static void test_every_page_size(void **state)
{
	static const unsigned codes[] = { TLB_PGSZ_8K, TLB_PGSZ_64K, TLB_PGSZ_4M, TLB_PGSZ_256M, TLB_PGSZ_2G };
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	struct tlb *t = new_tlb(64, 0, TLB_SIDE_I);
	struct tlb_stats st = { 0 };

	(void)state;
	for (unsigned i = 1; i < 5; i++) {
		uint64_t base = UINT64_C(0x100000000) * (i + 1);

		assert_int_equal(tlb_mmu_add_region(m, CTX, base, TLB_PAGE_SIZE(codes[i]), codes[i]), HVPMU_OK);
	}
	for (unsigned i = 0; i < 5; i++) {
		uint64_t size = TLB_PAGE_SIZE(codes[i]);
		uint64_t base = i ? UINT64_C(0x100000000) * (i + 1) : VA0;
		struct tlb_result r;

		assert_true(tlb_access(t, m, &st, CTX, base + 0x1238, NULL, NULL, &r) > 0);
		assert_int_equal(r.code, codes[i]);
		assert_true((r.pa & (size - 1)) == 0x1238);
		assert_int_equal(tlb_mmu_page_size(m, CTX, base + size - 1), (int)codes[i]);
		assert_int_equal(tlb_access(t, m, &st, CTX, base + size - 8, NULL, NULL, &r), 0);
		assert_true((r.pa & ~(size - 1)) + size - 8 == r.pa);
		assert_int_equal(st.fill[TLB_SIDE_I][tlb_fill_class(codes[i])], 1);
		assert_int_equal(st.tsb[TLB_SIDE_I][1][codes[i]].hits, 1);
	}
	assert_int_equal(st.fill_trap[TLB_SIDE_I], 5);
	assert_int_equal(st.miss[TLB_SIDE_I], 10);
	/* TSB1 exists (large regions): every walk probes TSB0 first.  8 KB
	 * and 64 KB: miss (2 probes), retry hits TSB0 (1).  4 MB and up:
	 * miss (2), retry misses TSB0 and hits TSB1 (2). */
	assert_int_equal(sum_refs(&st, TLB_SIDE_I), 2 * 3 + 3 * 4);
	assert_int_equal(tlb_valid_entries(t), 5);
	check_invariant(&st);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

static void test_regions(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	uint64_t R = UINT64_C(0x80000000), M4 = 4u << 20;

	(void)state;
	assert_int_equal(tlb_mmu_page_size(m, CTX, R), TLB_PGSZ_8K);
	assert_int_equal(tlb_mmu_add_region(m, CTX, R, 3 * M4, TLB_PGSZ_4M), HVPMU_OK);
	assert_int_equal(tlb_mmu_page_size(m, CTX, R - 1), TLB_PGSZ_8K);
	assert_int_equal(tlb_mmu_page_size(m, CTX, R), TLB_PGSZ_4M);
	assert_int_equal(tlb_mmu_page_size(m, CTX, R + 3 * M4 - 1), TLB_PGSZ_4M);
	assert_int_equal(tlb_mmu_page_size(m, CTX, R + 3 * M4), TLB_PGSZ_8K);
	assert_int_equal(tlb_mmu_page_size(m, CTX + 1, R), TLB_PGSZ_8K); /* per context */
	/* misaligned, overlapping, unsupported, empty, wrapping */
	assert_int_equal(tlb_mmu_add_region(m, CTX, R + 3 * M4 + PG8K, M4, TLB_PGSZ_4M), HVPMU_EINVAL);
	assert_int_equal(tlb_mmu_add_region(m, CTX, R + 3 * M4, M4 + PG8K, TLB_PGSZ_4M), HVPMU_EINVAL);
	assert_int_equal(tlb_mmu_add_region(m, CTX, R - M4, 2 * M4, TLB_PGSZ_4M), HVPMU_EINVAL);
	assert_int_equal(tlb_mmu_add_region(m, CTX, R + M4, 0x10000, TLB_PGSZ_64K), HVPMU_EINVAL);
	assert_int_equal(tlb_mmu_add_region(m, CTX, 0, 512u << 10, TLB_PGSZ_512K), HVPMU_EINVAL);
	assert_int_equal(tlb_mmu_add_region(m, CTX, 0, 0, TLB_PGSZ_64K), HVPMU_EINVAL);
	assert_int_equal(tlb_mmu_add_region(m, CTX, UINT64_MAX - 0xffff, 0x20000, TLB_PGSZ_64K), HVPMU_EINVAL);
	assert_int_equal(tlb_mmu_add_region(m, CTX, 0, 0x10000, 9), HVPMU_EINVAL);
	/* adjacent regions on both sides, inserted out of order; the top of VA */
	assert_int_equal(tlb_mmu_add_region(m, CTX, R + 3 * M4, 0x10000, TLB_PGSZ_64K), HVPMU_OK);
	assert_int_equal(tlb_mmu_add_region(m, CTX, R - 0x10000, 0x10000, TLB_PGSZ_64K), HVPMU_OK);
	assert_int_equal(tlb_mmu_add_region(m, CTX, UINT64_MAX - 0xffff, 0x10000, TLB_PGSZ_64K), HVPMU_OK);
	assert_int_equal(tlb_mmu_page_size(m, CTX, R - 1), TLB_PGSZ_64K);
	assert_int_equal(tlb_mmu_page_size(m, CTX, R - 0x10001), TLB_PGSZ_8K);
	assert_int_equal(tlb_mmu_page_size(m, CTX, R + 3 * M4), TLB_PGSZ_64K);
	assert_int_equal(tlb_mmu_page_size(m, CTX, R + M4), TLB_PGSZ_4M);
	assert_int_equal(tlb_mmu_page_size(m, CTX, UINT64_MAX), TLB_PGSZ_64K);
	for (int i = 0; i < 20; i++) /* grows the region array */
		assert_int_equal(tlb_mmu_add_region(m, CTX, UINT64_C(0x10000000) + i * 0x20000, 0x10000,
						    TLB_PGSZ_64K), HVPMU_OK);
	assert_int_equal(tlb_mmu_page_size(m, CTX, UINT64_C(0x10000000) + 19 * 0x20000 + 0x8000), TLB_PGSZ_64K);
	assert_int_equal(tlb_mmu_page_size(m, CTX, UINT64_C(0x10000000) + 19 * 0x20000 - 0x8000), TLB_PGSZ_8K);
	tlb_mmu_destroy(m);

	/* T1 has no 2 GB pages */
	c = tlb_chip_t1.mmu;
	m = new_mmu(&c);
	assert_int_equal(tlb_mmu_config(m)->pgsz_mask, TLB_PGMASK_T1);
	assert_int_equal(tlb_mmu_add_region(m, CTX, 0, UINT64_C(2) << 30, TLB_PGSZ_2G), HVPMU_EINVAL);
	assert_int_equal(tlb_mmu_add_region(m, CTX, 0, 256u << 20, TLB_PGSZ_256M), HVPMU_OK);
	tlb_mmu_destroy(m);
}

/* Frames are assigned in first-touch order from the modeled range, aligned
 * to the page size, after the context's TSBs. */
static void test_physical_layout(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m, *m2;
	uint64_t pa, pa2, tsb;
	unsigned code;

	(void)state;
	c.phys_base = UINT64_C(0x100000000);
	m = new_mmu(&c);
	assert_true(tlb_mmu_phys_next(m) == c.phys_base);
	assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + 0x10, &pa, &code), HVPMU_OK);
	assert_int_equal(tlb_mmu_tsb_base(m, CTX, 0, &tsb), HVPMU_OK);
	assert_true(tsb == c.phys_base);
	assert_true(pa == c.phys_base + TSB0_BYTES + 0x10);
	assert_int_equal(code, TLB_PGSZ_8K);
	assert_int_equal(tlb_mmu_translate(m, CTX, UINT64_C(0x7000), &pa, NULL), HVPMU_OK);
	assert_true(pa == c.phys_base + TSB0_BYTES + PG8K + 0x1000);
	assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + 0x1ff8, &pa, NULL), HVPMU_OK); /* same page */
	assert_true(pa == c.phys_base + TSB0_BYTES + 0x1ff8);
	/* a 4 MB region allocates TSB1 (8 KB) now; its frame is 4 MB aligned */
	assert_int_equal(tlb_mmu_add_region(m, CTX, UINT64_C(0x40000000), 8u << 20, TLB_PGSZ_4M), HVPMU_OK);
	assert_int_equal(tlb_mmu_tsb_base(m, CTX, 1, &tsb), HVPMU_OK);
	assert_true(tsb == c.phys_base + TSB0_BYTES + 2 * PG8K);
	assert_int_equal(tlb_mmu_translate(m, CTX, UINT64_C(0x40400123), &pa, &code), HVPMU_OK);
	assert_int_equal(code, TLB_PGSZ_4M);
	assert_true(pa == c.phys_base + (4u << 20) + 0x123);
	assert_int_equal(tlb_mmu_translate(m, CTX, UINT64_C(0x40000000), &pa, NULL), HVPMU_OK);
	assert_true(pa == c.phys_base + (8u << 20));
	assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + 0x4000, &pa, NULL), HVPMU_OK);
	assert_true(pa == c.phys_base + (12u << 20));
	/* another context: its own TSB, then its own frame for the same VA */
	assert_int_equal(tlb_mmu_translate(m, 0, VA0, &pa, NULL), HVPMU_OK);
	assert_true(pa == c.phys_base + (12u << 20) + 2 * TSB0_BYTES);
	assert_int_equal(tlb_mmu_tsb_base(m, 0, 0, &tsb), HVPMU_OK);
	assert_true(tsb == c.phys_base + (12u << 20) + TSB0_BYTES); /* aligned to its 128 KB size */
	assert_int_equal(tlb_mmu_frames(m), 6);

	/* the same sequence on a second MMU gives the same addresses; the frame
	 * table's growth changes nothing */
	m2 = new_mmu(&c);
	tlb_mmu_destroy(m);
	m = new_mmu(&c);
	for (uint64_t i = 0; i < 5000; i++) {
		uint64_t va = VA0 + ((i * 7919) % 5000) * PG8K;

		assert_int_equal(tlb_mmu_translate(m, CTX, va, &pa, NULL), HVPMU_OK);
		assert_int_equal(tlb_mmu_translate(m2, CTX, va, &pa2, NULL), HVPMU_OK);
		assert_true(pa == pa2);
		assert_true(pa == c.phys_base + TSB0_BYTES + i * PG8K);
	}
	assert_int_equal(tlb_mmu_frames(m), 5000);
	for (uint64_t i = 0; i < 5000; i++) {
		assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + ((i * 7919) % 5000) * PG8K + 8, &pa, NULL), HVPMU_OK);
		assert_true(pa == c.phys_base + TSB0_BYTES + i * PG8K + 8);
	}
	assert_int_equal(tlb_mmu_frames(m), 5000);
	tlb_mmu_destroy(m);
	tlb_mmu_destroy(m2);
}

/* Modeled memory runs out: HVPMU_EFULL, and no counter moves. */
static void test_phys_exhausted(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m;
	struct tlb *t = new_tlb(8, 0, TLB_SIDE_D);
	struct tlb_stats st = { 0 }, zero = { 0 };
	struct tlb_result r;

	(void)state;
	c.phys_size = TSB0_BYTES + 2 * PG8K;
	m = new_mmu(&c);
	assert_int_equal(tlb_access(t, m, &st, CTX, VA0, NULL, NULL, &r) > 0, 1);
	assert_int_equal(tlb_access(t, m, &st, CTX, VA0 + PG8K, NULL, NULL, &r) > 0, 1);
	memcpy(&zero, &st, sizeof st);
	assert_int_equal(tlb_access(t, m, &st, CTX, VA0 + 2 * PG8K, NULL, NULL, &r), HVPMU_EFULL);
	assert_memory_equal(&st, &zero, sizeof st);
	assert_int_equal(tlb_access(t, m, &st, CTX + 1, VA0, NULL, NULL, &r), HVPMU_EFULL); /* no room for a TSB */
	assert_int_equal(tlb_mmu_add_region(m, CTX, 0, 4u << 20, TLB_PGSZ_4M), HVPMU_EFULL); /* nor TSB1 */
	assert_int_equal(tlb_mmu_page_size(m, CTX, 0), TLB_PGSZ_8K); /* region not added */
	assert_int_equal(tlb_access(t, m, &st, CTX, VA0 + 8, NULL, NULL, &r), 0);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* TSB hit vs miss: probe addresses, latency, conflicts in a direct-mapped TSB. */
static void test_tsb_walk(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m;
	struct tlb *t = new_tlb(64, 0, TLB_SIDE_D);
	struct tlb_stats st = { 0 };
	struct fake f = { .fixed = TLB_REF_L3 };
	struct tlb_result r;
	uint64_t tsb, va = VA0 + 5 * PG8K;
	uint32_t walk;

	(void)state;
	c.tsb_entries[0] = 512;
	m = new_mmu(&c);
	walk = c.walk_base_cycles + c.ref_cycles[TLB_REF_L3];
	assert_int_equal(tlb_access(t, m, &st, CTX, va, fake_ref, &f, &r), 2 * walk);
	assert_int_equal(tlb_mmu_tsb_base(m, CTX, 0, &tsb), HVPMU_OK);
	assert_int_equal(f.n, 2);
	assert_true(f.pa[0] == tsb + ((va >> 13) & 511) * 16);
	assert_true(f.pa[1] == f.pa[0]);
	/* TLB demapped, TSB still holds it: one walk, no trap */
	tlb_demap_all(t);
	assert_int_equal(tlb_access(t, m, &st, CTX, va + 0x100, fake_ref, &f, &r), walk);
	assert_int_equal(r.walks, 1);
	assert_int_equal(r.trapped, 0);
	assert_int_equal(r.trap_cycles, 0);
	assert_int_equal(f.n, 3);
	/* a page 512 pages away shares the TSB entry and replaces it */
	assert_int_equal(tlb_access(t, m, &st, CTX, va + 512 * PG8K, fake_ref, &f, &r), 2 * walk);
	assert_true(f.pa[3] == f.pa[0]);
	tlb_demap_all(t);
	assert_int_equal(tlb_access(t, m, &st, CTX, va, fake_ref, &f, &r), 2 * walk);
	assert_int_equal(r.trapped, 1);
	assert_int_equal(st.miss[TLB_SIDE_D], 7);
	assert_int_equal(st.fill_trap[TLB_SIDE_D], 3);
	assert_int_equal(st.fill[TLB_SIDE_D][TLB_FILL_8K], 4);
	assert_int_equal(st.hwtw_ref[TLB_SIDE_D][TLB_REF_L3], 7);
	assert_int_equal(st.walk_cycles[TLB_SIDE_D], 7 * walk);
	assert_int_equal(st.tsb[TLB_SIDE_D][1][TLB_PGSZ_8K].ticks, 4 * walk);
	check_invariant(&st);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* Linux's sun4v handler loads the TLB itself (mmu_map_addr): one walk, a
 * fill trap, no fill. */
static void test_retry_os_loads(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m;
	struct tlb *t = new_tlb(64, 0, TLB_SIDE_I);
	struct tlb_stats st = { 0 };
	struct tlb_result r;
	uint32_t walk = c.walk_base_cycles + c.ref_cycles[TLB_REF_L2];

	(void)state;
	c.retry = TLB_RETRY_OS_LOADS;
	m = new_mmu(&c);
	assert_int_equal(tlb_access(t, m, &st, CTX, VA0, NULL, NULL, &r), walk);
	assert_int_equal(r.walks, 1);
	assert_int_equal(r.trapped, 1);
	assert_int_equal(st.miss[TLB_SIDE_I], 1);
	assert_int_equal(st.fill_trap[TLB_SIDE_I], 1);
	assert_int_equal(sum_fill(&st, TLB_SIDE_I), 0);
	assert_int_equal(st.tsb[TLB_SIDE_I][1][TLB_PGSZ_8K].hits, 0);
	assert_int_equal(tlb_access(t, m, &st, CTX, VA0 + 4, NULL, NULL, &r), 0);
	tlb_demap_all(t);
	assert_int_equal(tlb_access(t, m, &st, CTX, VA0 + 4, NULL, NULL, &r), walk);
	assert_int_equal(st.fill[TLB_SIDE_I][TLB_FILL_8K], 1);
	check_invariant(&st);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* sl=10: every probe counted once under its outcome and side. */
static void test_hwtw_outcomes(void **state)
{
	static const int script[] = { TLB_REF_MEM, TLB_REF_L2, TLB_REF_L3, TLB_REF_L2, 7, -1 };
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	struct tlb *it = new_tlb(64, 0, TLB_SIDE_I), *dt = new_tlb(128, 0, TLB_SIDE_D);
	struct tlb_stats st = { 0 };
	struct fake f = { .script = script, .nscript = 6 };
	struct tlb_result r;
	int cyc;

	(void)state;
	/* I: first touch, probes MEM then L2 */
	cyc = tlb_access(it, m, &st, CTX, VA0, fake_ref, &f, &r);
	assert_int_equal(cyc, 2 * c.walk_base_cycles + c.ref_cycles[TLB_REF_MEM] + c.ref_cycles[TLB_REF_L2]);
	/* D: the same page is in the TSB already: one probe, L3 */
	cyc = tlb_access(dt, m, &st, CTX, VA0, fake_ref, &f, &r);
	assert_int_equal(cyc, c.walk_base_cycles + c.ref_cycles[TLB_REF_L3]);
	assert_int_equal(r.trapped, 0);
	/* D: new page, L2 then an out-of-range answer (counts as memory) */
	tlb_access(dt, m, &st, CTX, VA0 + PG8K, fake_ref, &f, &r);
	/* D: new page, -1 twice (memory) */
	tlb_access(dt, m, &st, CTX, VA0 + 2 * PG8K, fake_ref, &f, &r);
	assert_int_equal(st.hwtw_ref[TLB_SIDE_I][TLB_REF_L2], 1);
	assert_int_equal(st.hwtw_ref[TLB_SIDE_I][TLB_REF_L3], 0);
	assert_int_equal(st.hwtw_ref[TLB_SIDE_I][TLB_REF_MEM], 1);
	assert_int_equal(st.hwtw_ref[TLB_SIDE_D][TLB_REF_L2], 1);
	assert_int_equal(st.hwtw_ref[TLB_SIDE_D][TLB_REF_L3], 1);
	assert_int_equal(st.hwtw_ref[TLB_SIDE_D][TLB_REF_MEM], 3);
	assert_int_equal(st.miss[TLB_SIDE_I], 2);
	assert_int_equal(st.miss[TLB_SIDE_D], 5);
	assert_int_equal(f.n, 7);
	check_invariant(&st);
	tlb_destroy(it);
	tlb_destroy(dt);
	tlb_mmu_destroy(m);
}

/* ctx0 and ctxnon0: separate translations, separate mmustat slots. */
static void test_contexts(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	struct tlb *t = new_tlb(64, 0, TLB_SIDE_D);
	struct tlb_stats st = { 0 };
	struct tlb_result r0, r5;
	uint64_t tsb0, tsb5;

	(void)state;
	assert_int_equal(tlb_mmu_add_region(m, 5, 0, 64u << 10, TLB_PGSZ_64K), HVPMU_OK);
	tlb_access(t, m, &st, 0, 0x2000, NULL, NULL, &r0);
	tlb_access(t, m, &st, 5, 0x2000, NULL, NULL, &r5);
	assert_true(r0.pa != r5.pa);
	assert_int_equal(r0.code, TLB_PGSZ_8K);
	assert_int_equal(r5.code, TLB_PGSZ_64K);
	assert_int_equal(tlb_mmu_tsb_base(m, 0, 0, &tsb0), HVPMU_OK);
	assert_int_equal(tlb_mmu_tsb_base(m, 5, 0, &tsb5), HVPMU_OK);
	assert_true(tsb0 != tsb5);
	assert_int_equal(st.tsb[TLB_SIDE_D][0][TLB_PGSZ_8K].hits, 1);
	assert_int_equal(st.tsb[TLB_SIDE_D][1][TLB_PGSZ_64K].hits, 1);
	assert_int_equal(st.tsb[TLB_SIDE_D][0][TLB_PGSZ_64K].hits, 0);
	assert_int_equal(st.tsb[TLB_SIDE_D][1][TLB_PGSZ_8K].hits, 0);
	assert_int_equal(st.fill[TLB_SIDE_D][TLB_FILL_64K], 1);
	/* both stay cached side by side; demapping one context keeps the other */
	assert_int_equal(acc(t, m, &st, 0, 0x2008), 0);
	assert_int_equal(acc(t, m, &st, 5, 0x2008), 0);
	tlb_demap_context(t, 5);
	assert_int_equal(acc(t, m, &st, 0, 0x2008), 0);
	/* same 64 KB page, but TSB0 is indexed by 8 KB: another slot, a miss */
	assert_int_equal(acc(t, m, &st, 5, 0xfff8), 2);
	assert_int_equal(acc(t, m, &st, 5, 0x2008), 0);
	assert_int_equal(st.fill[TLB_SIDE_D][TLB_FILL_64K], 2);
	check_invariant(&st);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* A region declared over touched 8 KB pages: stale TSB entries are
 * dropped, the caller demaps the TLB, the next walk traps and fills 4 MB. */
static void test_region_after_touch(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	struct tlb *t = new_tlb(64, 0, TLB_SIDE_D);
	struct tlb_stats st = { 0 };
	struct tlb_result r;
	uint64_t R = UINT64_C(0x40000000);

	(void)state;
	acc(t, m, &st, CTX, R + PG8K);
	acc(t, m, &st, CTX, R + 0x500000); /* outside the region below */
	assert_int_equal(tlb_mmu_add_region(m, CTX, R, 4u << 20, TLB_PGSZ_4M), HVPMU_OK);
	tlb_demap_range(t, CTX, R, 4u << 20);
	assert_int_equal(tlb_valid_entries(t), 1);
	assert_int_equal(tlb_access(t, m, &st, CTX, R + PG8K, NULL, NULL, &r) > 0, 1);
	assert_int_equal(r.trapped, 1);
	assert_int_equal(r.code, TLB_PGSZ_4M);
	assert_int_equal(st.fill[TLB_SIDE_D][TLB_FILL_4M], 1);
	/* the page outside kept its TSB entry */
	tlb_demap_all(t);
	assert_int_equal(acc(t, m, &st, CTX, R + 0x500000), 1);
	check_invariant(&st);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* One shared TSB indexed by 8 KB pages holds every size: one probe per walk. */
static void test_shared_tsb(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m;
	struct tlb *t = new_tlb(64, 0, TLB_SIDE_D);
	struct tlb_stats st = { 0 };
	uint64_t pa;

	(void)state;
	c.tsb_layout = TLB_TSB_SHARED;
	m = new_mmu(&c);
	assert_int_equal(tlb_mmu_add_region(m, CTX, UINT64_C(0x10000000), 256u << 20, TLB_PGSZ_256M), HVPMU_OK);
	assert_int_equal(tlb_mmu_tsb_base(m, CTX, 1, &pa), HVPMU_ERANGE);
	assert_int_equal(acc(t, m, &st, CTX, UINT64_C(0x10000000)), 2);
	assert_int_equal(acc(t, m, &st, CTX, VA0), 2);
	tlb_demap_all(t);
	assert_int_equal(acc(t, m, &st, CTX, UINT64_C(0x10000008)), 1);
	assert_int_equal(acc(t, m, &st, CTX, UINT64_C(0x10002000)), 0);   /* TLB hit: same page */
	tlb_demap_all(t);
	assert_int_equal(acc(t, m, &st, CTX, UINT64_C(0x10002000)), 2);   /* other 8 KB slot of the TSB */
	assert_int_equal(sum_refs(&st, TLB_SIDE_D), st.miss[TLB_SIDE_D]);
	assert_int_equal(st.fill[TLB_SIDE_D][TLB_FILL_256M], 3);
	check_invariant(&st);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

static void test_demap_range(void **state)
{
	struct tlb_mmu_config c = t4_config();
	struct tlb_mmu *m = new_mmu(&c);
	struct tlb *t = new_tlb(16, 0, TLB_SIDE_D);
	struct tlb_stats st = { 0 };

	(void)state;
	for (uint64_t p = 0; p < 4; p++)
		acc(t, m, &st, CTX, VA0 + p * PG8K);
	acc(t, m, &st, CTX + 1, VA0);
	tlb_demap_range(t, CTX, VA0 + PG8K + 8, 16); /* inside page 1 only */
	assert_int_equal(tlb_valid_entries(t), 4);
	tlb_demap_range(t, CTX, VA0 + 2 * PG8K - 1, 2); /* straddles pages 1..2 */
	assert_int_equal(tlb_valid_entries(t), 3);
	tlb_demap_range(t, CTX, VA0, 0);
	assert_int_equal(tlb_valid_entries(t), 3);
	tlb_demap_range(t, CTX, 0, UINT64_MAX);
	assert_int_equal(tlb_valid_entries(t), 1); /* the other context's entry */
	assert_int_equal(acc(t, m, &st, CTX + 1, VA0), 0);
	tlb_destroy(t);
	tlb_mmu_destroy(m);
}

/* Frame groups (the Origin: 16 KB): the second 8 KB page of a 16 KB
 * virtual group touched first still lands in the second half of a 16 KB
 * aligned physical block, its buddy touched later (after another page's
 * frame) in the first half of the same block; a T4 mmu hands out 8 KB
 * frames in touch order. */
static void test_frame_group(void **state)
{
	struct tlb_mmu_config c = tlb_chip_origin.mmu;
	struct tlb_mmu *m = new_mmu(&c);
	uint64_t hi, lo, other, pa;

	(void)state;
	assert_int_equal(c.frame_group, 16384);
	assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + PG8K + 0x10, &hi, NULL), HVPMU_OK);
	assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + 8 * PG8K, &other, NULL), HVPMU_OK);
	assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + 0x20, &lo, NULL), HVPMU_OK);
	assert_true((hi & 0x3fff) == PG8K + 0x10);
	assert_true((lo & 0x3fff) == 0x20);
	assert_true((hi & ~UINT64_C(0x3fff)) == (lo & ~UINT64_C(0x3fff)));
	assert_true((other & ~UINT64_C(0x3fff)) != (lo & ~UINT64_C(0x3fff)));
	/* the same again: the frames stay */
	assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + 0x20, &pa, NULL), HVPMU_OK);
	assert_true(pa == lo);
	/* another context's page at the same VA has a block of its own */
	assert_int_equal(tlb_mmu_translate(m, CTX + 1, VA0, &pa, NULL), HVPMU_OK);
	assert_true((pa & ~UINT64_C(0x3fff)) != (lo & ~UINT64_C(0x3fff)));
	tlb_mmu_destroy(m);

	c = t4_config();
	assert_int_equal(c.frame_group, 0);
	m = new_mmu(&c);
	assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + PG8K, &hi, NULL), HVPMU_OK);
	assert_int_equal(tlb_mmu_translate(m, CTX, VA0, &lo, NULL), HVPMU_OK);
	assert_true(lo == hi + PG8K); /* touch order */
	tlb_mmu_destroy(m);
}

/* A context freed (its process ended): its frames, groups, large pages and
 * TSBs serve later contexts, nothing else's moves, and its layout is gone. */
static void test_free_context(void **state)
{
	struct tlb_mmu_config c = tlb_chip_origin.mmu; /* frame groups of 16 KB */
	struct tlb_mmu *m = new_mmu(&c);
	uint64_t pa, keep, next, frames, first[8];

	(void)state;
	assert_int_equal(tlb_mmu_translate(m, CTX + 1, VA0, &keep, NULL), HVPMU_OK); /* another process */
	for (unsigned i = 0; i < 8; i++) /* 8 base pages: 4 groups */
		assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + i * PG8K, &first[i], NULL), HVPMU_OK);
	assert_int_equal(tlb_mmu_add_region(m, CTX, 0x40000000, 4u << 20, TLB_PGSZ_4M), HVPMU_OK);
	assert_int_equal(tlb_mmu_translate(m, CTX, 0x40000000, &pa, NULL), HVPMU_OK);
	next = tlb_mmu_phys_next(m);
	frames = tlb_mmu_frames(m);
	assert_true(tlb_mmu_phys_free(m) == 0);
	assert_int_equal(tlb_mmu_free_context(m, CTX, NULL, NULL), HVPMU_OK);
	assert_int_equal(tlb_mmu_frames(m), frames - 9);
	/* 4 groups of 16 KB, a 4 MB page, the TSBs (TSB0 and TSB1 of the region) */
	assert_true(tlb_mmu_phys_free(m) >= 4 * 16384 + (UINT64_C(4) << 20));
	assert_int_equal(tlb_mmu_page_size(m, CTX, 0x40000000), TLB_PGSZ_8K); /* layout forgotten */
	/* a new process in the context, as large: the memory given back
	 * serves it all (the last freed first), none is carved */
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(tlb_mmu_translate(m, CTX, VA0 + 0x100000 + i * PG8K, &pa, NULL), HVPMU_OK);
	assert_int_equal(tlb_mmu_add_region(m, CTX, 0x80000000, 4u << 20, TLB_PGSZ_4M), HVPMU_OK);
	assert_int_equal(tlb_mmu_translate(m, CTX, 0x80000000, &pa, NULL), HVPMU_OK);
	assert_true(tlb_mmu_phys_next(m) == next);
	assert_true(tlb_mmu_phys_free(m) == 0);
	/* one more process needs new memory */
	assert_int_equal(tlb_mmu_translate(m, CTX + 2, VA0, &pa, NULL), HVPMU_OK);
	assert_true(tlb_mmu_phys_next(m) > next);
	/* the other process is untouched */
	assert_int_equal(tlb_mmu_translate(m, CTX + 1, VA0, &pa, NULL), HVPMU_OK);
	assert_true(pa == keep);
	assert_int_equal(tlb_mmu_free_context(m, 0, NULL, NULL), HVPMU_EINVAL); /* the kernel's */
	assert_int_equal(tlb_mmu_free_context(m, TLB_NCTX, NULL, NULL), HVPMU_EINVAL);
	assert_int_equal(tlb_mmu_free_context(m, 77, NULL, NULL), HVPMU_OK); /* never used: nothing to do */
	tlb_mmu_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_first_touch_and_hits),
		cmocka_unit_test(test_lru_fully_associative),
		cmocka_unit_test(test_lru_fast_path),
		cmocka_unit_test(test_set_associative),
		cmocka_unit_test(test_every_page_size),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_physical_layout),
		cmocka_unit_test(test_phys_exhausted),
		cmocka_unit_test(test_tsb_walk),
		cmocka_unit_test(test_retry_os_loads),
		cmocka_unit_test(test_hwtw_outcomes),
		cmocka_unit_test(test_contexts),
		cmocka_unit_test(test_region_after_touch),
		cmocka_unit_test(test_shared_tsb),
		cmocka_unit_test(test_demap_range),
		cmocka_unit_test(test_frame_group),
		cmocka_unit_test(test_free_context),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
