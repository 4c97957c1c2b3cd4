/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest kernel's system-call path (docs/kernel-model.md) through the
 * machine API: context-0 TLB walks and TSB hits (the ctx0 MMU statistics
 * of niagara-mmustat-api.txt §2.3), kernel lines in the caches,
 * privileged instructions and cycles seen by the T1 %pic with PCR.ST, and
 * the description checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

#define NR_GETPID 20
#define CODE_4M 3
#define CODE_8K 0
#define USER_VA UINT64_C(0x80000000)
#define PAGE_8K 8192u

struct hits {
	uint64_t n[2][2][8]; /* [dmmu][ctx != 0][code] */
	uint64_t ticks;
};

static void on_hit(void *ctx, uint32_t strand, int dmmu, int ctx_nonzero, unsigned code, uint64_t ticks)
{
	struct hits *h = ctx;

	(void)strand;
	h->n[dmmu != 0][ctx_nonzero != 0][code & 7]++;
	h->ticks += ticks;
}

static uint64_t sum_ctx(const struct hits *h, int nz)
{
	uint64_t s = 0;

	for (int d = 0; d < 2; d++)
		for (int c = 0; c < 8; c++)
			s += h->n[d][nz][c];
	return s;
}

static struct hvpmu_machine *t1_machine(struct hvpmu_md *md, struct hits *h)
{
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, md), 0);
	assert_int_equal(hvpmu_machine_create(md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	hvpmu_machine_set_tsb_hit_handler(m, on_hit, h);
	return m;
}

static int syscall_priv(struct hvpmu_machine *m, int64_t num, int returns)
{
	int rc;

	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	rc = hvpmu_machine_syscall(m, 0, num, returns);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), 0);
	return rc;
}

/*
 * Derivation (docs/kernel-model.md "TSB hits"): the kernel text (trap
 * table, handler) lies in one 4 MB page, the system-call table too (D
 * side), the trap frame and thread_info in one 4 MB page of the linear
 * map.  First call: each of the three (I text, D image, D stack) walks,
 * misses the TSB, fill trap, walks again and hits: immu ctx0 4mb 1, dmmu
 * ctx0 4mb 2.  Second call: TLB hits, nothing new.  After the program
 * touches 64 user pages (the T1 DTLB's 64 entries, LRU) the two kernel
 * DTLB entries are gone: the third call adds dmmu ctx0 4mb 2, and the
 * ITLB (no user fetches) keeps its entry.
 */
static void test_ctx0_tsb_hits(void **state)
{
	struct hvpmu_md md;
	struct hits h;
	struct hvpmu_machine *m;

	(void)state;
	memset(&h, 0, sizeof h);
	m = t1_machine(&md, &h);
	assert_int_equal(md.kernel.page_bytes, UINT64_C(4) << 20);
	/* only in privileged mode */
	assert_int_equal(hvpmu_machine_syscall(m, 0, NR_GETPID, 1), HVPMU_EINVAL);
	assert_int_equal(hvpmu_machine_syscall(m, 99999, NR_GETPID, 1), HVPMU_ERANGE);
	assert_int_equal(syscall_priv(m, NR_GETPID, 1), 0);
	assert_int_equal(h.n[0][0][CODE_4M], 1);
	assert_int_equal(h.n[1][0][CODE_4M], 2);
	assert_int_equal(sum_ctx(&h, 0), 3);
	assert_int_equal(sum_ctx(&h, 1), 0);
	assert_true(h.ticks > 0);
	/* the hypervisor's count is the TLB model's */
	assert_int_equal(hvpmu_machine_tsb_hits(m, 0, 0, 0, CODE_4M), 1);
	assert_int_equal(hvpmu_machine_tsb_hits(m, 0, 1, 0, CODE_4M), 2);
	assert_int_equal(syscall_priv(m, NR_GETPID, 1), 0);
	assert_int_equal(sum_ctx(&h, 0), 3);
	/* user pages evict the kernel's DTLB entries */
	for (unsigned p = 0; p < 64; p++)
		hvpmu_machine_dref(m, 0, 0x1000, USER_VA + p * PAGE_8K, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(h.n[1][1][CODE_8K], 64);
	assert_int_equal(syscall_priv(m, 4 /* write */, 1), 0);
	assert_int_equal(h.n[0][0][CODE_4M], 1);
	assert_int_equal(h.n[1][0][CODE_4M], 4);
	assert_int_equal(sum_ctx(&h, 0), 5);
	/* an exit does not return: no kernel path */
	for (unsigned p = 0; p < 64; p++)
		hvpmu_machine_dref(m, 0, 0x1000, USER_VA + (64 + p) * PAGE_8K, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(syscall_priv(m, 1, 0), 0);
	assert_int_equal(sum_ctx(&h, 0), 5);
	hvpmu_machine_destroy(m);
}

/*
 * Privileged instructions and cycles on the T1 PMU: PCR.ST=1, UT=0, PICH
 * = instructions, PICL = IC_miss.  One call retires syscall_insns
 * instructions; on cold caches its text misses L1I once per 32-byte line:
 * the trap-table entry (1 line) and (syscall_insns - 8) * 4 bytes of
 * handler from a line-aligned address.  User instructions (UT=0) and
 * hvpmu_machine_retired() do not see them.
 */
static void test_priv_counts(void **state)
{
	struct hvpmu_md md;
	struct hits h;
	struct hvpmu_machine *m;
	struct hvpmu_activity *a;
	struct hvpmu_sparc_insn d;
	uint64_t pcr, pic, t0, lines;
	int ca;

	(void)state;
	memset(&h, 0, sizeof h);
	m = t1_machine(&md, &h);
	a = hvpmu_machine_activity(m, 0);
	ca = hvpmu_machine_class(m, hvpmu_sparc_decode(0x82004002u /* add */, 0, &d));
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	pcr = HVPMU_FDP(HVPMU_FDP(0, T1_PCR, ST, 1), T1_PCR, SL, HVPMU_T1_SL_IC_MISS);
	assert_int_equal(hvpmu_machine_wrasr(m, 0, HVPMU_T1_ASR_PCR, pcr), 0);
	assert_int_equal(hvpmu_machine_wrasr(m, 0, HVPMU_T1_ASR_PIC, 0), 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), 0);
	a->icount[ca] += 10; /* user: not counted with UT=0 */
	hvpmu_machine_sync(m, 0, NULL, NULL);
	t0 = hvpmu_machine_tick(m, 0);
	assert_int_equal(syscall_priv(m, NR_GETPID, 1), 0);
	assert_true(hvpmu_machine_tick(m, 0) - t0 > md.timing.syscall_cycles); /* + miss latencies */
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	assert_int_equal(hvpmu_machine_rdasr(m, 0, HVPMU_T1_ASR_PIC, &pic), 0);
	lines = 1 + ((md.kernel.syscall_insns - 8) * 4 + 31) / 32;
	assert_int_equal(HVPMU_FEX(pic, T1_PIC, PICH), md.kernel.syscall_insns);
	assert_int_equal(HVPMU_FEX(pic, T1_PIC, PICL), lines);
	assert_int_equal(hvpmu_machine_retired(m, 0), 10);
	/* warm: the same path again hits L1I and L1D and costs syscall_cycles
	 * plus the store buffer's stalls: the trap frame's stores are a burst
	 * into an empty 8-entry T1 buffer that drains one store per 22 cycles
	 * (docs/memory-model.md "Store buffer"), so each store past the 8th
	 * waits one drain */
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), 0);
	t0 = hvpmu_machine_tick(m, 0);
	assert_int_equal(syscall_priv(m, NR_GETPID, 1), 0);
	assert_int_equal(hvpmu_machine_tick(m, 0) - t0,
			 md.timing.syscall_cycles +
				 (uint64_t)(md.kernel.trap_frame_bytes / 8 - md.mem.stbuf.entries) * md.mem.stbuf.drain_interval);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	assert_int_equal(hvpmu_machine_rdasr(m, 0, HVPMU_T1_ASR_PIC, &pic), 0);
	assert_int_equal(HVPMU_FEX(pic, T1_PIC, PICH), 2 * (uint64_t)md.kernel.syscall_insns);
	assert_int_equal(HVPMU_FEX(pic, T1_PIC, PICL), lines);
	hvpmu_machine_destroy(m);
}

/*
 * T4: PCR0 counts Instr_all (sl=3, mask 0x3f) with st only and toe; PIC0
 * starts 100 below the wrap.  The path's 300 privileged instructions wrap
 * it; the precise trap cannot be taken in the (unexecuted) kernel: it is
 * delivered as a disrupting trap on the return to user mode, once.
 */
struct spy {
	unsigned n;
	struct hvpmu_trap last;
};

static void spy_trap(void *ctx, const struct hvpmu_trap *t)
{
	struct spy *sp = ctx;

	sp->n++;
	sp->last = *t;
}

static void test_late_precise(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	struct spy sp = { 0 };
	uint64_t pcr, pic;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	hvpmu_machine_set_trap_handler(m, spy_trap, &sp);
	pcr = HVPMU_FDP(HVPMU_FDP(HVPMU_FDP(HVPMU_FDP(0, T4_PCR, SL, 3), T4_PCR, MASK, 0x3f), T4_PCR, ST, 1),
			T4_PCR, TOE, 1);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_HYPER), 0);
	assert_int_equal(hvpmu_machine_stxa(m, 0, HVPMU_T4_ASI_PCR, 0, pcr), 0);
	assert_int_equal(hvpmu_machine_stxa(m, 0, HVPMU_T4_ASI_PIC, 0, UINT64_C(0xffffffff) - 99), 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	assert_int_equal(hvpmu_machine_syscall(m, 0, NR_GETPID, 1), 0);
	assert_int_equal(sp.n, 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), 0);
	assert_int_equal(sp.n, 1);
	assert_int_equal(sp.last.tt, HVPMU_TT_DISRUPTING_PERF);
	assert_int_equal(sp.last.pic_mask, 1);
	assert_int_equal(sp.last.mode, HVPMU_MODE_USER);
	assert_int_equal(hvpmu_machine_sync(m, 0, NULL, NULL), 0);
	assert_int_equal(sp.n, 1);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_HYPER), 0);
	assert_int_equal(hvpmu_machine_ldxa(m, 0, HVPMU_T4_ASI_PIC, 0, &pic), 0);
	assert_int_equal(pic, md.kernel.syscall_insns - 100);
	assert_int_equal(hvpmu_machine_ldxa(m, 0, HVPMU_T4_ASI_PCR, 0, &pcr), 0);
	assert_int_equal(HVPMU_FEX(pcr, T4_PCR, OV), 1);
	hvpmu_machine_destroy(m);
}

/* Without the memory model, and with the path disabled. */
static void test_cycles_only(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	uint64_t t0;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	t0 = hvpmu_machine_tick(m, 0);
	assert_int_equal(hvpmu_machine_syscall(m, 0, NR_GETPID, 1), 0);
	assert_int_equal(hvpmu_machine_tick(m, 0) - t0, md.timing.syscall_cycles);
	assert_int_equal(hvpmu_machine_tsb_hits(m, 0, 1, 0, CODE_4M), 0);
	hvpmu_machine_destroy(m);
	md.kernel.syscall_insns = 0;
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	assert_int_equal(hvpmu_machine_syscall(m, 0, NR_GETPID, 1), 0);
	assert_int_equal(hvpmu_machine_tick(m, 0) - t0, md.timing.syscall_cycles);
	assert_int_equal(hvpmu_machine_tsb_hits(m, 0, 1, 0, CODE_4M), 0);
	hvpmu_machine_destroy(m);
}

/* The description is checked at machine creation. */
static void test_description_checks(void **state)
{
	struct hvpmu_md md, bad;
	struct hvpmu_machine *m = NULL;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	bad = md;
	bad.kernel.page_bytes = UINT64_C(32) << 20; /* 32 MB: no T1 page size */
	assert_int_equal(hvpmu_machine_create(&bad, &m), HVPMU_EINVAL);
	bad = md;
	bad.kernel.tba += 8; /* TBA{14:0} are 0 */
	assert_int_equal(hvpmu_machine_create(&bad, &m), HVPMU_EINVAL);
	bad = md;
	bad.kernel.syscall_insns = 20; /* fewer than its loads and stores */
	assert_int_equal(hvpmu_machine_create(&bad, &m), HVPMU_EINVAL);
	bad = md;
	bad.kernel.trap_frame = bad.kernel.data_va + bad.kernel.data_bytes - 8; /* past the mapping */
	assert_int_equal(hvpmu_machine_create(&bad, &m), HVPMU_EINVAL);
	bad = md;
	bad.kernel.data_va = bad.kernel.text_va; /* overlapping mappings */
	assert_int_equal(hvpmu_machine_create(&bad, &m), HVPMU_EINVAL);
	bad = md;
	bad.kernel.syscall_insns = 0; /* disabled: the rest is not looked at */
	bad.kernel.page_bytes = 3;
	assert_int_equal(hvpmu_machine_create(&bad, &m), 0);
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctx0_tsb_hits),
		cmocka_unit_test(test_priv_counts),
		cmocka_unit_test(test_late_precise),
		cmocka_unit_test(test_cycles_only),
		cmocka_unit_test(test_description_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
