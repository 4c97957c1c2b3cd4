/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Coherence rules of the memory model (docs/coherence-model.md) against
 * analytic outcomes: store invalidations of other cores' copies (TABLE 10-2
 * sl=20 0x02/0x08), L2 cache-to-cache transfers (sl=22 0x04/0x08, and the
 * C2C part of sl=16 0x01), remote outcomes on a multi-chip machine
 * (sl=16 0x04, sl=22 0x20), NUMA homes, placement and remote latency.
 * Default T4 geometry (32 B L1/L2 lines, 64 B L3 lines).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

#define BASE UINT64_C(0x40000000)
#define PC UINT64_C(0x100000)
#define FOUR_MB (UINT64_C(4) << 20)

/* strands: A and A2 share core 0, B is core 1 (chip 0), C is core 8 =
 * chip 1 core 0 on a T4-2 (8 strands per core, 8 cores per chip) */
#define A 0u
#define A2 1u
#define B 8u
#define C 64u

static struct hvpmu_machine *machine(const char *name, struct hvpmu_md *md, uint32_t home_shift)
{
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_by_name(name, md), 0);
	if (home_shift)
		md->home_shift = home_shift;
	assert_int_equal(hvpmu_machine_create(md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	assert_int_equal(hvpmu_machine_map_large(m, BASE, 8 * FOUR_MB, FOUR_MB), 0);
	return m;
}

static uint64_t ev(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_mem_event e)
{
	return hvpmu_machine_activity(m, strand)->mev[e];
}

static void ld(struct hvpmu_machine *m, uint32_t strand, uint64_t va)
{
	hvpmu_machine_dref(m, strand, PC, va, 8, HVPMU_IC_LOAD, 0);
}

static void st(struct hvpmu_machine *m, uint32_t strand, uint64_t va)
{
	hvpmu_machine_dref(m, strand, PC, va, 8, HVPMU_IC_STORE, 1);
}

/* Two strands of one core share its L1s and L2: nothing to snoop. */
static void test_same_core_no_snoop(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine("t4", &md, 0);

	(void)state;
	ld(m, A, BASE);
	st(m, A2, BASE);
	ld(m, A, BASE);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_SNOOP_INVAL) + ev(m, A2, HVPMU_MEV_DC_SNOOP_INVAL), 0);
	assert_int_equal(ev(m, A2, HVPMU_MEV_ST_HIT_L2), 1);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_MISS_MEM), 1); /* the first load only */
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_MISS_L2L3), 0); /* the store kept the L1D line */
	/* footnote 11: the second strand's fetch finds the line the first
	 * fetched (the fill is immediate): no duplicate I-cache miss */
	hvpmu_machine_ifetch(m, A, BASE + 4096, 32);
	hvpmu_machine_ifetch(m, A2, BASE + 4096, 32);
	assert_int_equal(ev(m, A, HVPMU_MEV_IC_MISS_MEM) + ev(m, A, HVPMU_MEV_IC_MISS_L2L3), 1);
	assert_int_equal(ev(m, A2, HVPMU_MEV_IC_MISS_MEM) + ev(m, A2, HVPMU_MEV_IC_MISS_L2L3), 0);
	hvpmu_machine_destroy(m);
}

/* Load/store ping-pong of one line between cores 0 and 1. */
static void test_snoop_and_c2c(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine("t4", &md, 0);

	(void)state;
	ld(m, A, BASE);                 /* A: memory; L3 allocates */
	ld(m, B, BASE);                 /* B: clean copy in A -> L3 hit */
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_MISS_MEM), 1);
	assert_int_equal(ev(m, B, HVPMU_MEV_DC_MISS_L2L3), 1);
	st(m, B, BASE);                 /* Shared -> Modified: A's L2 + L1D copy dropped */
	assert_int_equal(ev(m, B, HVPMU_MEV_ST_HIT_L2), 1);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_SNOOP_INVAL), 1);
	assert_int_equal(ev(m, B, HVPMU_MEV_DC_SNOOP_INVAL), 0);
	ld(m, A, BASE);                 /* dirty in B: local C2C, B keeps a clean copy */
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_MISS_L2L3), 1);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_MISS_MEM), 1);
	ld(m, B, BASE);                 /* B still has it in L1D: no miss */
	assert_int_equal(ev(m, B, HVPMU_MEV_DC_MISS_L2L3), 1);
	st(m, A, BASE);                 /* A upgrades: B's L2 and L1D lines dropped */
	assert_int_equal(ev(m, A, HVPMU_MEV_ST_HIT_L2), 1);
	assert_int_equal(ev(m, B, HVPMU_MEV_DC_SNOOP_INVAL), 1);
	st(m, B, BASE);                 /* dirty in A: store C2C; A's L2 line dropped */
	assert_int_equal(ev(m, B, HVPMU_MEV_ST_L2_LOCAL_C2C), 1);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_SNOOP_INVAL), 2); /* A's L1D had it (A loaded it) */
	st(m, B, BASE + 8);             /* Modified in B: no snoop */
	assert_int_equal(ev(m, B, HVPMU_MEV_ST_HIT_L2), 2);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_SNOOP_INVAL), 2);
	/* a store C2C where the old owner's L1D does not hold the line
	 * (stores do not allocate in L1D): no snoop invalidation counted */
	st(m, A, BASE + 4096);
	st(m, B, BASE + 4096);
	assert_int_equal(ev(m, B, HVPMU_MEV_ST_L2_LOCAL_C2C), 2);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_SNOOP_INVAL), 2);
	/* no remote outcome on one chip */
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_MISS_REMOTE) + ev(m, B, HVPMU_MEV_DC_MISS_REMOTE) +
				 ev(m, B, HVPMU_MEV_ST_L2_REMOTE_C2C) + ev(m, B, HVPMU_MEV_ST_REMOTE),
			 0);
	hvpmu_machine_destroy(m);
}

/* A store to code another core has fetched invalidates its L1I line. */
static void test_icache_snoop(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine("t4", &md, 0);

	(void)state;
	hvpmu_machine_ifetch(m, A, BASE + 1024, 32);
	assert_int_equal(ev(m, A, HVPMU_MEV_IC_MISS_MEM), 1);
	st(m, B, BASE + 1024 + 4);      /* clean in A's L2: L3 hit, A's L1I dropped */
	assert_int_equal(ev(m, B, HVPMU_MEV_ST_HIT_L3), 1);
	assert_int_equal(ev(m, A, HVPMU_MEV_IC_SNOOP_INVAL), 1);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_SNOOP_INVAL), 0);
	hvpmu_machine_ifetch(m, A, BASE + 1024, 32); /* dirty in B: C2C, local */
	assert_int_equal(ev(m, A, HVPMU_MEV_IC_MISS_L2L3), 1);
	hvpmu_machine_destroy(m);
}

/* T4-2: the guest's memory is homed on chip 0 (node-contiguous); strand C
 * runs on chip 1.  Every miss of C is remote; chip 0's strands see C's
 * dirty lines through remote C2C. */
static void test_remote(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine("t4-2", &md, 0);

	(void)state;
	assert_int_equal(md.chips, 2);
	ld(m, C, BASE);                 /* remote memory */
	assert_int_equal(ev(m, C, HVPMU_MEV_DC_MISS_REMOTE), 1);
	ld(m, A, BASE);                 /* home L3 (chip 0) allocated by C's read: local L3 */
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_MISS_L2L3), 1);
	st(m, C, BASE);                 /* upgrade: A's copy dropped across chips */
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_SNOOP_INVAL), 1);
	assert_int_equal(ev(m, C, HVPMU_MEV_ST_HIT_L2), 1);
	st(m, A, BASE);                 /* dirty on chip 1: remote C2C */
	assert_int_equal(ev(m, A, HVPMU_MEV_ST_L2_REMOTE_C2C), 1);
	assert_int_equal(ev(m, C, HVPMU_MEV_DC_SNOOP_INVAL), 1);
	ld(m, C, BASE);                 /* dirty on chip 0: remote C2C, a remote load miss */
	assert_int_equal(ev(m, C, HVPMU_MEV_DC_MISS_REMOTE), 2);
	st(m, C, BASE + 8192);          /* untouched line homed on chip 0: remote memory */
	assert_int_equal(ev(m, C, HVPMU_MEV_ST_REMOTE), 1);
	ld(m, C, BASE + 2 * 8192);      /* remote memory */
	ld(m, A, BASE + 2 * 8192 + 32); /* same 64 B L3 line, other half: local L3 */
	assert_int_equal(ev(m, C, HVPMU_MEV_DC_MISS_REMOTE), 3);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_MISS_L2L3), 2);
	assert_int_equal(ev(m, A, HVPMU_MEV_DC_MISS_MEM) + ev(m, A, HVPMU_MEV_DC_MISS_REMOTE), 0);
	hvpmu_machine_destroy(m);
}

/* sl=21 outcomes of L2-destined software prefetches (fcn 1) from chip 1:
 * remote memory (0x10), a line another chip's L3 holds (0x04: no remote-L3
 * bit), and one another chip's L2 holds dirty (0x04: no C2C bit). */
static void test_remote_prefetch(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine("t4-2", &md, 0);

	(void)state;
	hvpmu_machine_prefetch(m, C, PC, BASE, hvpmu_prefetch_dest(1));           /* homed on chip 0, untouched */
	assert_int_equal(ev(m, C, HVPMU_MEV_PF_HIT_REMOTE), 1);
	assert_int_equal(ev(m, C, HVPMU_MEV_PF_HIT_MEM), 0);
	hvpmu_machine_prefetch(m, C, PC, BASE + 32, hvpmu_prefetch_dest(1));      /* the other half of that L3 line */
	assert_int_equal(ev(m, C, HVPMU_MEV_PF_HIT_L3), 1);
	st(m, A, BASE + 8192);                               /* dirty in core 0's L2 */
	hvpmu_machine_prefetch(m, C, PC, BASE + 8192, hvpmu_prefetch_dest(1));
	assert_int_equal(ev(m, C, HVPMU_MEV_PF_HIT_L3), 2);
	assert_int_equal(ev(m, C, HVPMU_MEV_PF_HIT_REMOTE), 1);
	ld(m, A, BASE + 3 * 8192);                           /* local memory for chip 0 */
	hvpmu_machine_prefetch(m, A, PC, BASE + 4 * 8192, hvpmu_prefetch_dest(1));
	assert_int_equal(ev(m, A, HVPMU_MEV_PF_HIT_MEM), 1);
	hvpmu_machine_destroy(m);
}

/* NUMA home by address interleave: with 4 MB interleave, two 4 MB pages
 * first touched one after the other get consecutive 4 MB frames, one
 * homed on each chip. */
static void test_home_interleave(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine("t4-2", &md, 22);

	(void)state;
	ld(m, C, BASE);
	ld(m, C, BASE + FOUR_MB);
	assert_int_equal(ev(m, C, HVPMU_MEV_DC_MISS_REMOTE), 1);
	assert_int_equal(ev(m, C, HVPMU_MEV_DC_MISS_MEM), 1);
	hvpmu_machine_destroy(m);
}

/* A remote memory miss costs remote_latency more than a local one. */
static void test_remote_latency(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine("t4-2", &md, 0);
	uint64_t t0;

	(void)state;
	assert_int_equal(md.remote_latency, 142); /* 50 ns at 2.85 GHz */
	ld(m, C, BASE + (1u << 20)); /* warms the DTLB */
	hvpmu_machine_sync(m, C, NULL, NULL);
	t0 = hvpmu_machine_tick(m, C);
	ld(m, C, BASE);
	hvpmu_machine_sync(m, C, NULL, NULL);
	assert_int_equal(hvpmu_machine_tick(m, C) - t0,
			 md.mem.l2.latency + md.mem.l3.latency + md.mem.mem_latency + md.remote_latency);
	hvpmu_machine_destroy(m);
}

/*
 * Random loads, fetches and stores of 3 cores to 6 lines (distinct L1, L2
 * and L3 sets: nothing is ever evicted) against a reference of the rules of
 * docs/coherence-model.md: per line the cores holding it in L2, L1D and
 * L1I, and the Modified owner.
 */
#define NCORE 3
#define NLINE 6
enum { R_DC_L2L3, R_DC_MEM, R_IC_L2L3, R_IC_MEM, R_ST_L2, R_ST_L3, R_ST_MEM, R_ST_C2C, R_DSNOOP, R_ISNOOP, R_N };
static const enum hvpmu_mem_event r_ev[R_N] = {
	HVPMU_MEV_DC_MISS_L2L3, HVPMU_MEV_DC_MISS_MEM, HVPMU_MEV_IC_MISS_L2L3, HVPMU_MEV_IC_MISS_MEM,
	HVPMU_MEV_ST_HIT_L2, HVPMU_MEV_ST_HIT_L3, HVPMU_MEV_ST_MEM, HVPMU_MEV_ST_L2_LOCAL_C2C,
	HVPMU_MEV_DC_SNOOP_INVAL, HVPMU_MEV_IC_SNOOP_INVAL,
};

struct ref_line {
	int touched;                    /* in L3 since the first access */
	int l2[NCORE], l1d[NCORE], l1i[NCORE];
	int owner;                      /* core holding it Modified, -1 if none */
};

/* Drop the copies of every core but `keep`, counting snoops at the victims. */
static void ref_invalidate(struct ref_line *l, int keep, uint64_t want[NCORE][R_N])
{
	for (int k = 0; k < NCORE; k++) {
		if (k == keep || !l->l2[k])
			continue;
		want[k][R_DSNOOP] += l->l1d[k];
		want[k][R_ISNOOP] += l->l1i[k];
		l->l2[k] = l->l1d[k] = l->l1i[k] = 0;
	}
}

static void test_random_against_reference(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine("t4", &md, 0);
	static const uint32_t strand[NCORE] = { 0, 8, 16 };
	struct ref_line line[NLINE];
	uint64_t want[NCORE][R_N] = { { 0 } };
	uint32_t seed = 12345;

	(void)state;
	for (int i = 0; i < NLINE; i++) {
		line[i] = (struct ref_line){ .owner = -1 };
	}
	/* warm the DTLBs and ITLBs on another line of the same 4 MB page */
	for (int k = 0; k < NCORE; k++) {
		ld(m, strand[k], BASE + 8192);
		hvpmu_machine_ifetch(m, strand[k], BASE + 12288, 4);
		for (int r = 0; r < R_N; r++)
			want[k][r] = ev(m, strand[k], r_ev[r]);
	}
	for (int op = 0; op < 20000; op++) {
		int k, i, kind;
		struct ref_line *l;
		uint64_t va;

		seed = seed * 1103515245u + 12345u;
		k = (int)((seed >> 16) % NCORE);
		i = (int)((seed >> 20) % NLINE);
		kind = (int)((seed >> 24) % 3); /* 0 load, 1 fetch, 2 store */
		l = &line[i];
		va = BASE + 64 * (uint64_t)i;
		if (kind == 0 || kind == 1) {
			int *l1 = kind == 0 ? &l->l1d[k] : &l->l1i[k];

			if (kind == 0)
				ld(m, strand[k], va);
			else
				hvpmu_machine_ifetch(m, strand[k], va, 4);
			if (!*l1) {
				int from_mem = 0;

				if (!l->l2[k]) {
					if (l->owner >= 0) /* C2C, the owner keeps a Shared copy */
						l->owner = -1;
					else
						from_mem = !l->touched;
					l->touched = 1;
					l->l2[k] = 1;
				}
				want[k][kind == 0 ? (from_mem ? R_DC_MEM : R_DC_L2L3) : (from_mem ? R_IC_MEM : R_IC_L2L3)]++;
				*l1 = 1;
			}
		} else {
			st(m, strand[k], va);
			if (l->l2[k]) {
				want[k][R_ST_L2]++;
			} else {
				want[k][l->owner >= 0 ? R_ST_C2C : l->touched ? R_ST_L3 : R_ST_MEM]++;
				l->touched = 1;
				l->l2[k] = 1;
			}
			if (l->owner != k)
				ref_invalidate(l, k, want);
			l->owner = k;
		}
		for (int c = 0; c < NCORE; c++)
			for (int r = 0; r < R_N; r++)
				if (ev(m, strand[c], r_ev[r]) != want[c][r])
					fail_msg("op %d (core %d, line %d, kind %d): core %d event %d: model %llu, reference %llu",
						 op, k, i, kind, c, r, (unsigned long long)ev(m, strand[c], r_ev[r]),
						 (unsigned long long)want[c][r]);
	}
	hvpmu_machine_destroy(m);
}

/* Built-in multi-chip descriptions and thread placement. */
static void test_md_and_placement(void **state)
{
	struct hvpmu_md md;
	uint8_t seen[256] = { 0 };

	(void)state;
	assert_int_equal(hvpmu_md_by_name("t4-4", &md), 0);
	assert_int_equal(md.chips, 4);
	assert_int_equal(hvpmu_md_nstrands(&md), 256);
	assert_int_equal(md.clock_hz, UINT64_C(3000000000));
	assert_int_equal(md.guests[0].nstrands, 256);
	assert_int_equal(hvpmu_md_by_name("t4-3", &md), HVPMU_EINVAL);
	assert_int_equal(hvpmu_md_by_name("t4-2", &md), 0);
	assert_int_equal(hvpmu_md_vcpu_strand(&md, 5), 5); /* pack */
	md.placement = HVPMU_PLACE_SPREAD;
	assert_int_equal(hvpmu_md_vcpu_strand(&md, 0), 0);
	assert_int_equal(hvpmu_md_vcpu_strand(&md, 1), 64);  /* chip 1, core 0 */
	assert_int_equal(hvpmu_md_vcpu_strand(&md, 2), 8);   /* chip 0, core 1 */
	assert_int_equal(hvpmu_md_vcpu_strand(&md, 16), 1);  /* second strand of core 0 */
	assert_int_equal(hvpmu_md_vcpu_strand(&md, 128), UINT32_MAX);
	for (uint32_t v = 0; v < 128; v++) { /* a bijection */
		uint32_t s = hvpmu_md_vcpu_strand(&md, v);

		assert_true(s < 128);
		assert_int_equal(seen[s], 0);
		seen[s] = 1;
	}
	assert_int_equal(hvpmu_placement_by_name("spread"), HVPMU_PLACE_SPREAD);
	assert_int_equal(hvpmu_placement_by_name("pack"), HVPMU_PLACE_PACK);
	assert_int_equal(hvpmu_placement_by_name("x"), -1);
}

/* The PMU side: sl=20 mask 0x0a counts both snoop kinds, sl=22 0x0c both C2C kinds. */
static void test_event_groups(void **state)
{
	(void)state;
	assert_true(hvpmu_t4_mem_events(20, 1) == (UINT64_C(1) << HVPMU_MEV_IC_SNOOP_INVAL));
	assert_true(hvpmu_t4_mem_events(20, 3) == (UINT64_C(1) << HVPMU_MEV_DC_SNOOP_INVAL));
	assert_true(hvpmu_t4_mem_events(22, 2) == (UINT64_C(1) << HVPMU_MEV_ST_L2_LOCAL_C2C));
	assert_true(hvpmu_t4_mem_events(22, 3) == (UINT64_C(1) << HVPMU_MEV_ST_L2_REMOTE_C2C));
	assert_true(hvpmu_t4_mem_events(22, 5) == (UINT64_C(1) << HVPMU_MEV_ST_REMOTE));
	assert_true(hvpmu_t4_mem_events(16, 2) == (UINT64_C(1) << HVPMU_MEV_DC_MISS_REMOTE));
	assert_true(hvpmu_t4_mem_events(5, 2) == (UINT64_C(1) << HVPMU_MEV_IC_MISS_REMOTE));
	assert_true(hvpmu_t4_mem_events(11, 1) ==
		    ((UINT64_C(1) << HVPMU_MEV_IC_MISS_MEM) | (UINT64_C(1) << HVPMU_MEV_IC_MISS_REMOTE)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_core_no_snoop),
		cmocka_unit_test(test_snoop_and_c2c),
		cmocka_unit_test(test_icache_snoop),
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_remote),
		cmocka_unit_test(test_remote_prefetch),
		cmocka_unit_test(test_home_interleave),
		cmocka_unit_test(test_remote_latency),
		cmocka_unit_test(test_md_and_placement),
		cmocka_unit_test(test_event_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
