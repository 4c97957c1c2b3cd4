/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Software and hardware prefetches (docs/prefetch-model.md): the function
 * code destinations (TABLE 10-2 sl=21 note), the translation-time address
 * recovery rule (hvpmu_prefetch_resolve), and the machine's prefetch
 * outcomes behind TABLE 10-2 sl=18 and sl=21
 * (sparc-t4-performance-instrumentation.md), with the default T4
 * geometry: L1D 16 KB 4-way 32 B lines, L2 128 KB 8-way 32 B, L3 64 B.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

/* ---- SPARC V9 encodings (format 3: op rd op3 rs1 i simm13/rs2) ---- */
enum { G0 = 0, G1 = 1, O0 = 8, O1 = 9, O2 = 10, O7 = 15 };
enum { OP_ARITH = 2, OP_MEM = 3 };
enum { LDTW = 0x03, LDX = 0x0b, STX = 0x0e, LDDF = 0x23, LDXA = 0x1b,
       PREFETCH = 0x2d, PREFETCHA = 0x3d, CASXA = 0x3e };
enum { ADD = 0x00, SAVE = 0x3c, RESTORE = 0x3d, TCC = 0x3a, JMPL = 0x38 };
#define SIMM13_MASK 0x1fffu
#define NOP 0x01000000u
#define BNE_XCC_PT 0x12680000u /* bne,pt %xcc, . (disp 0) */
#define TA_0X6D 0x91d0206du

static uint32_t f3i(unsigned op, unsigned rd, unsigned op3, unsigned rs1, int simm13)
{
	return (uint32_t)op << 30 | rd << 25 | op3 << 19 | rs1 << 14 | 1u << 13 | ((uint32_t)simm13 & SIMM13_MASK);
}

static uint32_t f3r(unsigned op, unsigned rd, unsigned op3, unsigned rs1, unsigned rs2)
{
	return (uint32_t)op << 30 | rd << 25 | op3 << 19 | rs1 << 14 | rs2;
}

#define PF(fcn, rs1, imm) f3i(OP_MEM, (fcn), PREFETCH, (rs1), (imm))
#define PFR(fcn, rs1, rs2) f3r(OP_MEM, (fcn), PREFETCH, (rs1), (rs2))
#define LD(rd, rs1, imm) f3i(OP_MEM, (rd), LDX, (rs1), (imm))
#define LDR(rd, rs1, rs2) f3r(OP_MEM, (rd), LDX, (rs1), (rs2))
#define ST(rd, rs1, imm) f3i(OP_MEM, (rd), STX, (rs1), (imm))
#define ADDI(rd, rs1, imm) f3i(OP_ARITH, (rd), ADD, (rs1), (imm))

static void test_fcn_destination(void **state)
{
	(void)state;
	assert_int_equal(hvpmu_prefetch_dest(0x00), HVPMU_PF_L1);
	assert_int_equal(hvpmu_prefetch_dest(0x14), HVPMU_PF_L1);
	for (unsigned f = 1; f <= 4; f++)
		assert_int_equal(hvpmu_prefetch_dest(f), HVPMU_PF_L2);
	assert_int_equal(hvpmu_prefetch_dest(0x11), HVPMU_PF_L2);
	for (unsigned f = 0x15; f <= 0x17; f++)
		assert_int_equal(hvpmu_prefetch_dest(f), HVPMU_PF_L2);
	for (unsigned f = 5; f <= 0x10; f++)
		assert_int_equal(hvpmu_prefetch_dest(f), HVPMU_PF_NONE);
	assert_int_equal(hvpmu_prefetch_dest(0x12), HVPMU_PF_NONE);
	assert_int_equal(hvpmu_prefetch_dest(0x1f), HVPMU_PF_NONE);
}

static void test_operands(void **state)
{
	struct hvpmu_sparc_operands o;

	(void)state;
	hvpmu_sparc_operands(PF(0x14, O0, -64), &o);
	assert_true(o.prefetch);
	assert_int_equal(o.fcn, 0x14);
	assert_int_equal(o.form, HVPMU_SA_IMM);
	assert_int_equal(o.rs1, O0);
	assert_int_equal(o.simm13, -64);
	assert_int_equal(o.writes, 0);
	hvpmu_sparc_operands(f3r(OP_MEM, 2, PREFETCHA, O0, O1) | 0x80u << 5, &o); /* ASI_P */
	assert_true(o.prefetch);
	assert_int_equal(o.form, HVPMU_SA_REG);
	assert_int_equal(o.rs2, O1);
	hvpmu_sparc_operands(LD(O0, O0, 8), &o); /* ldx [%o0 + 8], %o0 */
	assert_true(o.donor);
	assert_int_equal(o.writes, 1u << O0);
	hvpmu_sparc_operands(f3i(OP_MEM, O2, LDTW, O1, 0), &o); /* ldtw: rd, rd + 1 */
	assert_int_equal(o.writes, 3u << O2);
	hvpmu_sparc_operands(ST(O1, O0, 0), &o);
	assert_true(o.donor);
	assert_int_equal(o.writes, 0);
	hvpmu_sparc_operands(f3i(OP_MEM, 0, LDDF, O0, 0), &o); /* FP load: no integer rd */
	assert_true(o.donor);
	assert_int_equal(o.writes, 0);
	hvpmu_sparc_operands(f3r(OP_MEM, O1, CASXA, O0, O2) | 0x80u << 5, &o); /* casxa [%o0] ASI_P, %o2, %o1 */
	assert_true(o.donor);
	assert_int_equal(o.form, HVPMU_SA_IMM);
	assert_int_equal(o.simm13, 0);
	assert_int_equal(o.writes, 1u << O1);
	hvpmu_sparc_operands(f3r(OP_MEM, O1, LDXA, O0, O2) | 0x80u << 5, &o); /* alternate: no donor */
	assert_false(o.donor);
	assert_int_equal(o.form, HVPMU_SA_NONE);
	hvpmu_sparc_operands(f3i(OP_ARITH, O0, SAVE, O0, -192), &o); /* new window */
	assert_int_equal(o.writes, 0xffffff00u);
	hvpmu_sparc_operands(f3i(OP_ARITH, G1, RESTORE, G0, 0), &o);
	assert_int_equal(o.writes, 0xffffff00u | 1u << G1);
	hvpmu_sparc_operands(TA_0X6D, &o);
	assert_int_equal(o.writes, ~1u);
	hvpmu_sparc_operands(0x40000000u, &o); /* call: %o7 */
	assert_int_equal(o.writes, 1u << O7);
	assert_true(o.cti);
	hvpmu_sparc_operands(0x03000010u, &o); /* sethi %hi(0x4000), %g1 */
	assert_int_equal(o.writes, 1u << G1);
	hvpmu_sparc_operands(ADDI(G0, O0, 1), &o); /* writes %g0: nothing */
	assert_int_equal(o.writes, 0);
}

static enum hvpmu_pf_how resolve(const uint32_t *w, uint32_t n, uint32_t i, struct hvpmu_pf_link *l)
{
	return hvpmu_prefetch_resolve(w, n, i, l);
}

static void test_resolve_before_after(void **state)
{
	struct hvpmu_pf_link l;

	(void)state;
	{ /* earlier donor: address = donor + (512 - 8) */
		const uint32_t w[] = { LD(O2, O0, 8), ADDI(O1, O1, 1), PF(1, O0, 512) };
		assert_int_equal(resolve(w, 3, 2, &l), HVPMU_PF_BEFORE);
		assert_int_equal(l.donor, 0);
		assert_int_equal(l.delta, 504);
	}
	{ /* later donor */
		const uint32_t w[] = { PF(0, O0, 64), PF(20, O0, 96), LD(O2, O0, 0), NOP };
		assert_int_equal(resolve(w, 4, 0, &l), HVPMU_PF_AFTER);
		assert_int_equal(l.donor, 2);
		assert_int_equal(l.delta, 64);
		assert_int_equal(resolve(w, 4, 1, &l), HVPMU_PF_AFTER);
		assert_int_equal(l.donor, 2);
		assert_int_equal(l.delta, 96);
	}
	{ /* the nearest earlier donor wins, even over a nearer later one */
		const uint32_t w[] = { ST(O1, O0, 16), LD(O2, O0, 24), PF(1, O0, 0), LD(O2, O0, 0) };
		assert_int_equal(resolve(w, 4, 2, &l), HVPMU_PF_BEFORE);
		assert_int_equal(l.donor, 1);
		assert_int_equal(l.delta, -24);
	}
	{ /* [%o0 + %o1] matches [%o1 + %o0]; a prefetch is no donor */
		const uint32_t w[] = { PFR(0, O1, O0), LDR(O2, O1, O0), PFR(0, O0, O1) };
		assert_int_equal(resolve(w, 3, 2, &l), HVPMU_PF_BEFORE);
		assert_int_equal(l.donor, 1);
		assert_int_equal(l.delta, 0);
		assert_int_equal(resolve(w, 3, 0, &l), HVPMU_PF_AFTER);
	}
	{ /* [%o0 + %g0] is [%o0 + 0]; [%g0 + 4096] is absolute */
		const uint32_t w[] = { LD(O2, O0, 32), PFR(3, O0, G0), PF(3, G0, 4000) };
		assert_int_equal(resolve(w, 3, 1, &l), HVPMU_PF_BEFORE);
		assert_int_equal(l.delta, -32);
		assert_int_equal(resolve(w, 3, 2, &l), HVPMU_PF_ABSOLUTE);
		assert_int_equal(l.delta, 4000);
	}
	{ /* CASXA [%o0] is a donor at offset 0 */
		const uint32_t w[] = { f3r(OP_MEM, O1, CASXA, O0, O2) | 0x80u << 5, PF(2, O0, 64) };
		assert_int_equal(resolve(w, 2, 1, &l), HVPMU_PF_BEFORE);
		assert_int_equal(l.delta, 64);
	}
	/* not a prefetch, index out of range */
	{
		const uint32_t w[] = { LD(O2, O0, 0) };
		assert_int_equal(resolve(w, 1, 0, &l), HVPMU_PF_UNRESOLVED);
		assert_int_equal(resolve(w, 1, 1, &l), HVPMU_PF_UNRESOLVED);
	}
}

static void test_resolve_unresolved(void **state)
{
	struct hvpmu_pf_link l;

	(void)state;
	{ /* base written between donor and prefetch */
		const uint32_t w[] = { LD(O2, O0, 0), ADDI(O0, O0, 32), PF(1, O0, 64) };
		assert_int_equal(resolve(w, 3, 2, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* the donor itself writes the base (ldx [%o0], %o0) */
		const uint32_t w[] = { LD(O0, O0, 0), PF(1, O0, 64) };
		assert_int_equal(resolve(w, 2, 1, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* ... but a later donor may write it: its address comes first */
		const uint32_t w[] = { PF(1, O0, 64), LD(O0, O0, 0) };
		assert_int_equal(resolve(w, 2, 0, &l), HVPMU_PF_AFTER);
	}
	{ /* base written between prefetch and later donor */
		const uint32_t w[] = { PF(1, O0, 64), ADDI(O0, O0, 32), LD(O2, O0, 0) };
		assert_int_equal(resolve(w, 3, 0, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* SAVE: a new window between them (%o0 of the caller is %i0 now) */
		const uint32_t w[] = { LD(O2, O0, 0), f3i(OP_ARITH, O0 + 6, SAVE, O0 + 6, -192), PF(1, O0, 0) };
		assert_int_equal(resolve(w, 3, 2, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* a global base survives SAVE */
		const uint32_t w[] = { LD(O2, G1, 0), f3i(OP_ARITH, O0 + 6, SAVE, O0 + 6, -192), PF(1, G1, 8) };
		assert_int_equal(resolve(w, 3, 2, &l), HVPMU_PF_BEFORE);
	}
	{ /* a system call may change any register */
		const uint32_t w[] = { LD(O2, G1, 0), TA_0X6D, PF(1, G1, 8) };
		assert_int_equal(resolve(w, 3, 2, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* a later donor behind a CTI (in or after its delay slot) is not used */
		const uint32_t w[] = { PF(1, O0, 0), BNE_XCC_PT, LD(O2, O0, 0) };
		assert_int_equal(resolve(w, 3, 0, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* different base sets, different immediate/register forms */
		const uint32_t w[] = { LD(O2, O1, 0), LDR(O2, O0, O1), PF(1, O0, 8), f3i(OP_MEM, O2, LDXA, O0, 0) };
		assert_int_equal(resolve(w, 4, 2, &l), HVPMU_PF_UNRESOLVED);
	}
	{ /* a JMPL writing the base */
		const uint32_t w[] = { LD(O2, O7, 0), f3i(OP_ARITH, O7, JMPL, G1, 0), PF(1, O7, 0) };
		assert_int_equal(resolve(w, 3, 2, &l), HVPMU_PF_UNRESOLVED);
	}
}

/* ---- the machine ---- */
#define BASE UINT64_C(0x40000000)
#define PC UINT64_C(0x100000)
#define FOUR_MB (UINT64_C(4) << 20)

static struct hvpmu_machine *machine(struct hvpmu_md *md, uint32_t hw_degree)
{
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, md), 0);
	md->mem.l1d_hw_prefetch = hw_degree;
	assert_int_equal(hvpmu_machine_create(md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	/* 4 MB pages: physical and virtual offsets agree within each page */
	assert_int_equal(hvpmu_machine_map_large(m, BASE, 4 * FOUR_MB, FOUR_MB), 0);
	return m;
}

static void load(struct hvpmu_machine *m, uint64_t a)
{
	hvpmu_machine_dref(m, 0, PC, a, 8, HVPMU_IC_LOAD, 0);
}

/* Software prefetches: L2-destined ones count in sl=21 by the level that
 * served them and do not fill L1D; L1-destined ones fill L1D, do not count
 * in sl=21; both are dropped on an L1D hit (sl=18 0x02). */
static void test_sw_prefetch(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md, 0);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	struct hvpmu_prefetch_stats st;

	(void)state;
	hvpmu_machine_prefetch(m, 0, PC, BASE, hvpmu_prefetch_dest(1));      /* memory */
	hvpmu_machine_prefetch(m, 0, PC, BASE + 40, hvpmu_prefetch_dest(3)); /* other half of the L3 line: L3 */
	hvpmu_machine_prefetch(m, 0, PC, BASE + 8, hvpmu_prefetch_dest(2));  /* L2 */
	assert_int_equal(a->mev[HVPMU_MEV_PF_HIT_MEM], 1);
	assert_int_equal(a->mev[HVPMU_MEV_PF_HIT_L3], 1);
	assert_int_equal(a->mev[HVPMU_MEV_PF_HIT_L2], 1);
	/* not in L1D: a load misses L1D and hits L2 */
	load(m, BASE);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_L2L3], 1);
	/* now it is: both kinds are dropped at the D-cache */
	hvpmu_machine_prefetch(m, 0, PC, BASE + 16, hvpmu_prefetch_dest(0x11));
	hvpmu_machine_prefetch(m, 0, PC, BASE + 24, hvpmu_prefetch_dest(0));
	assert_int_equal(a->mev[HVPMU_MEV_SWPF_DROP_DC_HIT], 2);
	assert_int_equal(a->mev[HVPMU_MEV_PF_HIT_L2], 1);
	/* fcn 0x14 fills L1D from memory, counts nowhere; the load then hits */
	hvpmu_machine_prefetch(m, 0, PC, BASE + 4096, hvpmu_prefetch_dest(0x14));
	load(m, BASE + 4096);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_L2L3] + a->mev[HVPMU_MEV_DC_MISS_MEM], 1);
	assert_int_equal(a->mev[HVPMU_MEV_PF_HIT_MEM] + a->mev[HVPMU_MEV_PF_HIT_L3], 2);
	/* a reserved function code has no effect */
	hvpmu_machine_prefetch(m, 0, PC, BASE + 8192, hvpmu_prefetch_dest(5));
	load(m, BASE + 8192);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM], 1);
	hvpmu_machine_prefetch_unresolved(m, 0);
	assert_int_equal(hvpmu_machine_prefetch_stats(m, 0, &st), 0);
	assert_int_equal(st.sw_issued, 7);
	assert_int_equal(st.sw_nop, 1);
	assert_int_equal(st.sw_unresolved, 1);
	assert_int_equal(st.hw_issued, 0);
	assert_int_equal(hvpmu_machine_prefetch_stats(m, 1u << 20, &st), HVPMU_ERANGE);
	/* no cycles: prefetches do not stall */
	assert_int_equal(a->mev[HVPMU_MEV_HWPF_DROP_DC_HIT], 0);
	hvpmu_machine_destroy(m);
}

/* The memory model off: nothing happens. */
static void test_disabled(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md, 1);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	struct hvpmu_prefetch_stats st;

	(void)state;
	hvpmu_machine_enable_memory(m, 0);
	hvpmu_machine_prefetch(m, 0, PC, BASE, hvpmu_prefetch_dest(1));
	hvpmu_machine_prefetch_unresolved(m, 0);
	assert_int_equal(a->mev[HVPMU_MEV_PF_HIT_MEM], 0);
	assert_int_equal(hvpmu_machine_prefetch_stats(m, 0, &st), 0);
	assert_int_equal(st.sw_issued + st.sw_unresolved, 0);
	hvpmu_machine_destroy(m);
}

/* The L1D hardware prefetcher (degree 1: the next line in the page on a
 * load miss): a sequential scan misses every other line; a rescan of an
 * L1D-resident region drops nothing (no misses); lines already present
 * are dropped (sl=18 0x01); it stays within an 8 KB page. */
static void test_hw_prefetch(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = machine(&md, 1);
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	struct hvpmu_prefetch_stats st;
	uint64_t lines = 8192 / md.mem.l1d.line;

	(void)state;
	for (uint64_t o = 0; o < 8192; o += 8)
		load(m, BASE + o);
	/* even lines miss (from memory: first half of each 64-byte L3 line),
	 * odd ones were prefetched */
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_MEM], lines / 2);
	assert_int_equal(a->mev[HVPMU_MEV_DC_MISS_L2L3], 0);
	assert_int_equal(a->mev[HVPMU_MEV_HWPF_DROP_DC_HIT], 0);
	assert_int_equal(hvpmu_machine_prefetch_stats(m, 0, &st), 0);
	assert_int_equal(st.hw_issued, lines / 2);
	for (uint64_t o = 0; o < 8192; o += 8)
		load(m, BASE + o);
	assert_int_equal(st.hw_issued, lines / 2);
	/* a miss whose next line is in L1D: the prefetch is dropped */
	load(m, BASE + 65536 + 32);
	load(m, BASE + 65536);
	assert_int_equal(a->mev[HVPMU_MEV_HWPF_DROP_DC_HIT], 1);
	/* the last line of an 8 KB page: the next line is in another page */
	load(m, BASE + 3 * 8192 - 32);
	assert_int_equal(hvpmu_machine_prefetch_stats(m, 0, &st), 0);
	assert_int_equal(st.hw_issued, lines / 2 + 2);
	/* stores and software prefetches do not trigger it */
	hvpmu_machine_dref(m, 0, PC, BASE + 131072, 8, HVPMU_IC_STORE, 1);
	hvpmu_machine_prefetch(m, 0, PC, BASE + 196608, hvpmu_prefetch_dest(0));
	assert_int_equal(hvpmu_machine_prefetch_stats(m, 0, &st), 0);
	assert_int_equal(st.hw_issued, lines / 2 + 2);
	hvpmu_machine_destroy(m);
}

/* The PMU side: sl=18 and sl=21 masks are modeled (the L2 / L3 drops by
 * the request buffers, src/model/l2buf.h); the T4 default machine has the
 * hardware prefetcher off. */
static void test_events(void **state)
{
	struct hvpmu_md md;

	(void)state;
	assert_true(hvpmu_t4_event_supported(18, 0x07));
	assert_true(hvpmu_t4_event_supported(18, 0x06));
	assert_true(hvpmu_t4_event_supported(21, 0x1d));
	assert_true(hvpmu_t4_event_supported(21, 0x02));
	assert_true(hvpmu_t4_event_supported(21, 0x20));
	assert_true(hvpmu_t4_event_supported(21, 0x3f));
	assert_true(hvpmu_t4_event_needs_memory(21, 0x01));
	assert_int_equal(hvpmu_t4_mem_events(18, 0), UINT64_C(1) << HVPMU_MEV_HWPF_DROP_DC_HIT);
	assert_int_equal(hvpmu_t4_mem_events(18, 1), UINT64_C(1) << HVPMU_MEV_SWPF_DROP_DC_HIT);
	assert_int_equal(hvpmu_t4_mem_events(18, 2), UINT64_C(1) << HVPMU_MEV_SWPF_DROP_MB_FULL);
	assert_int_equal(hvpmu_t4_mem_events(21, 3), UINT64_C(1) << HVPMU_MEV_PF_HIT_MEM);
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	assert_int_equal(md.mem.l1d_hw_prefetch, 0);
	/* the `hvpmu stat -e` names (Solaris PCBE, reference t4-events.md §4) */
	{
		static const struct { const char *name; unsigned sl, mask; } names[] = {
			{ "DC_pref_drop_DC_hit", 18, 0x01 }, { "SW_pref_drop_DC_hit", 18, 0x02 },
			{ "SW_pref_drop_buffer_full", 18, 0x04 }, { "SW_pref_drop", 18, 0x06 },
			{ "Data_pref_hit_L2", 21, 0x01 }, { "Data_pref_drop_L2", 21, 0x02 },
			{ "Data_pref_hit_L3", 21, 0x04 }, { "Data_pref_hit_local", 21, 0x08 },
			{ "Data_pref_hit_remote", 21, 0x10 }, { "Data_pref_drop_L3", 21, 0x20 },
		};

		for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++) {
			const struct hvpmu_t4_event *e = hvpmu_t4_event_by_name(names[k].name);

			assert_non_null(e);
			assert_int_equal(e->sl, names[k].sl);
			assert_int_equal(e->mask, names[k].mask);
			assert_int_equal(hvpmu_t4_event_supported(e->sl, e->mask), 1);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fcn_destination),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_resolve_before_after),
		cmocka_unit_test(test_resolve_unresolved),
		cmocka_unit_test(test_sw_prefetch),
		cmocka_unit_test(test_disabled),
		cmocka_unit_test(test_hw_prefetch),
		cmocka_unit_test(test_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
