/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Platform t1 end to end without QEMU: the machine description, the T1
 * PMU reached with RDASR/WRASR of %pcr/%pic (niagara-perf-api.txt §2.1,
 * ../shared/reference/hw-and-hypervisor.md §3.1-3.2), counting fed through
 * the machine's fast-path contract, the latched interrupt_level_15 on a
 * wrap, and the API groups the hypervisor offers per platform.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

#define FADDD 0x81a00842u /* faddd %f0, %f2, %f0: FGU */
#define ADD 0x82004002u   /* add %g1, %g2, %g1: other */

struct trapped {
	unsigned n;
	struct hvpmu_guest_trap last;
};

static void on_trap(void *ctx, const struct hvpmu_guest_trap *t)
{
	struct trapped *tr = ctx;

	tr->n++;
	tr->last = *t;
}

static void test_t1_description(void **state)
{
	struct hvpmu_md md;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	assert_int_equal(hvpmu_md_nstrands(&md), 32);
	assert_string_equal(hvpmu_platform_name(HVPMU_PLATFORM_T1), "t1");
	assert_int_equal(hvpmu_platform_by_name("t1"), HVPMU_PLATFORM_T1);
	assert_int_equal(md.mem.l2.size, 0);               /* no private L2 */
	assert_int_equal(md.mem.l3.size, 3 * 1024 * 1024); /* the shared L2 */
	assert_int_equal(md.mem.l1d.line, 16);
}

static void test_t1_pcr_pic(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	struct hvpmu_hv *hv = NULL;
	struct hvpmu_activity *a;
	struct hvpmu_sparc_insn d;
	struct trapped tr = { 0 };
	int cf, ca;
	uint64_t pcr, pic;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	assert_int_equal(hvpmu_hv_create(m, &hv), 0);
	assert_int_equal(hvpmu_hv_set_guest_trap_handler(hv, 0, on_trap, &tr), 0);
	assert_ptr_equal(hvpmu_machine_pmu_ops(m), &hvpmu_t1_pmu_ops);
	assert_non_null(hvpmu_machine_pmu(m, 0));
	cf = hvpmu_machine_class(m, hvpmu_sparc_decode(FADDD, 0, &d));
	ca = hvpmu_machine_class(m, hvpmu_sparc_decode(ADD, 0, &d));
	a = hvpmu_machine_activity(m, 0);

	/* privileged code programs %pcr: UT, SL = FP_instr_cnt, PRIV */
	hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV);
	pcr = HVPMU_FDP(HVPMU_FDP(HVPMU_FDP(0, T1_PCR, UT, 1), T1_PCR, SL, HVPMU_T1_SL_FP_INSTR_CNT), T1_PCR, PRIV, 1);
	assert_int_equal(hvpmu_machine_wrasr(m, 0, HVPMU_T1_ASR_PCR, pcr), 0);
	assert_int_equal(hvpmu_machine_wrasr(m, 0, HVPMU_T1_ASR_PIC, 0xfffffffeu), 0); /* PICL near wrap */
	hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER);
	/* user code: PRIV=1 makes %pic and %pcr trap */
	assert_int_equal(hvpmu_machine_rdasr(m, 0, HVPMU_T1_ASR_PIC, &pic), HVPMU_ETRAP);
	assert_int_equal(hvpmu_machine_rdasr(m, 0, HVPMU_T1_ASR_PCR, &pcr), HVPMU_ETRAP);
	/* retire 5 FP and 7 other instructions */
	a->icount[cf] += 5;
	a->icount[ca] += 7;
	hvpmu_machine_sync(m, 0, NULL, NULL);
	hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV);
	assert_int_equal(hvpmu_machine_rdasr(m, 0, HVPMU_T1_ASR_PIC, &pic), 0);
	assert_int_equal(HVPMU_FEX(pic, T1_PIC, PICH), 12);
	assert_int_equal(HVPMU_FEX(pic, T1_PIC, PICL), 3); /* 0xfffffffe + 5 wrapped */
	assert_int_equal(hvpmu_machine_rdasr(m, 0, HVPMU_T1_ASR_PCR, &pcr), 0);
	assert_int_equal(HVPMU_FEX(pcr, T1_PCR, OVFL), 1);
	assert_int_equal(HVPMU_FEX(pcr, T1_PCR, OVFH), 0);
	/* the interrupt was latched while user mode ran: delivered at the sync */
	assert_int_equal(tr.n, 1);
	assert_int_equal(tr.last.tt, HV_TT_INTERRUPT_LEVEL_15);
	assert_int_equal(tr.last.precise, 0);
	assert_int_equal(tr.last.pic_mask, HVPMU_T1_OVF_PICL);
	/* other ASRs are not PMU registers */
	assert_int_equal(hvpmu_machine_rdasr(m, 0, 0x12, &pic), HVPMU_ERANGE);
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
}

/* ASI 0x64 (PCR) and 0xB0 (PIC) are the SPARC T4's PMU ASIs
 * (sparc-t4-performance-instrumentation.md TABLE 10-1, 10-3); a T1 has no
 * such registers: LDXA/STXA of them are not PMU accesses in any mode. */
static void test_t1_no_t4_asis(void **state)
{
	static const unsigned asis[] = { HVPMU_T4_ASI_PCR, HVPMU_T4_ASI_PIC };
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	uint64_t v = 0x5555;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	for (int mode = HVPMU_MODE_USER; mode < HVPMU_NMODES; mode++) {
		assert_int_equal(hvpmu_machine_set_mode(m, 0, (enum hvpmu_mode)mode), 0);
		for (unsigned a = 0; a < sizeof asis / sizeof asis[0]; a++) {
			assert_int_equal(hvpmu_machine_ldxa(m, 0, asis[a], 0, &v), HVPMU_ERANGE);
			assert_int_equal(hvpmu_machine_stxa(m, 0, asis[a], 8, 1), HVPMU_ERANGE);
		}
	}
	assert_int_equal(v, 0x5555);
	hvpmu_machine_destroy(m);
}

/* Group 0x200 is offered on t1 only; VT_CPU 0x20c on t4 only. */
static void test_groups_per_platform(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	struct hvpmu_hv *hv = NULL;
	uint64_t minor;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	assert_int_equal(hvpmu_hv_create(m, &hv), 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	assert_int_equal(hvpmu_hv_set_version(hv, 0, HV_GRP_NIAGARA, 1, 0, &minor), HV_EOK);
	assert_int_equal(hvpmu_hv_set_version(hv, 0, HV_GRP_VT_CPU, 1, 0, &minor), HV_EINVAL);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(hv, 0, 0, 0), HV_EBADTRAP);
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	assert_int_equal(hvpmu_hv_create(m, &hv), 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	assert_int_equal(hvpmu_hv_set_version(hv, 0, HV_GRP_NIAGARA, 1, 0, &minor), HV_EINVAL);
	assert_int_equal(hvpmu_machine_rdasr(m, 0, HVPMU_T1_ASR_PCR, &minor), HVPMU_ERANGE);
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
}

/* A machine and its hypervisor; strand 0 runs guest OS code (privileged
 * mode), the only code that reaches the hypervisor. */
static struct hvpmu_hv *t1_hv(struct hvpmu_md *md, struct hvpmu_machine **m)
{
	struct hvpmu_hv *hv = NULL;

	assert_int_equal(hvpmu_machine_create(md, m), 0);
	assert_int_equal(hvpmu_hv_create(*m, &hv), 0);
	assert_int_equal(hvpmu_machine_set_mode(*m, 0, HVPMU_MODE_PRIV), 0);
	return hv;
}

/* NIAGARA_GET/SET_PERFREG 0x100/0x101: every status path, in the OpenSPARC
 * check order (hw-and-hypervisor.md §1.2). */
static void test_niagara_perfreg_status(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	uint64_t v = 0, minor;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	hv = t1_hv(&md, &m);
	assert_int_equal(hvpmu_hv_niagara_get_perfreg(hv, 0, 2, &v), HV_EBADTRAP); /* not negotiated */
	assert_int_equal(hvpmu_hv_set_version(hv, 0, HV_GRP_NIAGARA, 1, 0, &minor), HV_EOK);
	assert_int_equal(hvpmu_hv_niagara_set_perfreg(hv, 0, 10, 0), HV_EINVAL);
	assert_int_equal(hvpmu_hv_niagara_get_perfreg(hv, 0, UINT64_MAX, &v), HV_EINVAL);
	/* control writes keep 8 bits; counters load whole */
	assert_int_equal(hvpmu_hv_niagara_set_perfreg(hv, 0, 2, UINT64_C(0xffffffffffffff37)), HV_EOK);
	assert_int_equal(hvpmu_hv_niagara_get_perfreg(hv, 0, 2, &v), HV_EOK);
	assert_int_equal(v, 0x37);
	assert_int_equal(hvpmu_hv_niagara_set_perfreg(hv, 0, 3, UINT64_C(0x8000000180000002)), HV_EOK);
	assert_int_equal(hvpmu_hv_niagara_get_perfreg(hv, 0, 3, &v), HV_EOK);
	assert_int_equal(v, UINT64_C(0x8000000180000002));
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
	/* perfctraccess absent: ENOACCESS, checked before the register number */
	md.guests[0].perfctraccess = HVPMU_MD_PROP_ABSENT;
	hv = t1_hv(&md, &m);
	assert_int_equal(hvpmu_hv_set_version(hv, 0, HV_GRP_NIAGARA, 1, 0, &minor), HV_EOK);
	assert_int_equal(hvpmu_hv_niagara_get_perfreg(hv, 0, 99, &v), HV_ENOACCESS);
	assert_int_equal(hvpmu_hv_niagara_set_perfreg(hv, 0, 0, 0), HV_ENOACCESS);
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
	md.guests[0].perfctraccess = 0;
	hv = t1_hv(&md, &m);
	assert_int_equal(hvpmu_hv_set_version(hv, 0, HV_GRP_NIAGARA, 1, 0, &minor), HV_EOK);
	assert_int_equal(hvpmu_hv_niagara_get_perfreg(hv, 0, 2, &v), HV_ENOACCESS);
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
	/* on T4 the functions do not exist */
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	hv = t1_hv(&md, &m);
	assert_int_equal(hvpmu_hv_niagara_get_perfreg(hv, 0, 2, &v), HV_EBADTRAP);
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
}

#define BASE UINT64_C(0x40000000)
#define FOUR_MB (UINT64_C(4) << 20)

/* Cold lines become DRAM reads on the channel of their L2 bank (PA[7:6]);
 * I/O system calls become JBUS DMA and PIO transactions. */
static void test_niagara_counting(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	uint64_t v, minor;
	const unsigned lines = 64;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	hv = t1_hv(&md, &m);
	hvpmu_machine_enable_memory(m, 1);
	assert_int_equal(hvpmu_machine_map_large(m, BASE, FOUR_MB, FOUR_MB), 0);
	hvpmu_machine_dref(m, 0, 0x1000, BASE + FOUR_MB - 64, 8, HVPMU_IC_LOAD, 0); /* warms the DTLB */
	assert_int_equal(hvpmu_hv_set_version(hv, 0, HV_GRP_NIAGARA, 1, 0, &minor), HV_EOK);
	for (unsigned ch = 0; ch < 4; ch++) { /* counter0 = mem_reads (code 0), counter1 stopped */
		assert_int_equal(hvpmu_hv_niagara_set_perfreg(hv, 0, 2 + 2 * ch, 0x08), HV_EOK);
		assert_int_equal(hvpmu_hv_niagara_set_perfreg(hv, 0, 3 + 2 * ch, 0), HV_EOK);
	}
	for (unsigned k = 0; k < lines; k++)
		hvpmu_machine_dref(m, 0, 0x1000, BASE + 64 * k, 8, HVPMU_IC_LOAD, 0);
	hvpmu_machine_add_cycles(m, 0, HVPMU_MODE_USER, 100000); /* let every read issue */
	hvpmu_machine_dref(m, 0, 0x1000, BASE + 8, 8, HVPMU_IC_LOAD, 0);
	for (unsigned ch = 0; ch < 4; ch++) {
		assert_int_equal(hvpmu_hv_niagara_get_perfreg(hv, 0, 3 + 2 * ch, &v), HV_EOK);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER0), lines / 4);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER1), 0); /* stopped */
	}
	/* JBUS: counter1 (bits 7:4) = DMA writes (4), counter0 (3:0) = PIO reads (8) */
	assert_int_equal(hvpmu_hv_niagara_set_perfreg(hv, 0, 0, 0x48), HV_EOK);
	assert_int_equal(hvpmu_hv_niagara_set_perfreg(hv, 0, 1, 0), HV_EOK);
	hvpmu_machine_io(m, 0, 1, 1000); /* a read() of 1000 bytes: 16 lines */
	assert_int_equal(hvpmu_hv_niagara_get_perfreg(hv, 0, 1, &v), HV_EOK);
	assert_int_equal(HVPMU_FEX(v, T1_JBUS_COUNT, COUNTER1), 16);
	assert_int_equal(HVPMU_FEX(v, T1_JBUS_COUNT, COUNTER0), 1);
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
}

/* niagara-mmustat-api.txt: a Linux-style client (linux-clients.md §1.4):
 * negotiate 0x200, zero an aligned buffer, CONF, run, INFO, read, disable.
 * The hit counts equal the TLB model's own count of TSB hits. */
#define MMU_BUF UINT64_C(0x100000)
#define MMU_BUF_BYTES 0x200
#define DMMU_CTXNON0 0x180 /* spec §2.3: D-MMU, ctx != 0 block */

static void test_mmustat_client(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	struct hvpmu_guest_mem *gm;
	uint64_t v, old = 1, ra, minor, hits, ticks, words[MMU_BUF_BYTES / 8];

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T1, &md), 0);
	hv = t1_hv(&md, &m);
	gm = hvpmu_hv_guest_mem(hv, 0);
	assert_non_null(gm);
	hvpmu_machine_enable_memory(m, 1);
	/* before negotiation: EBADTRAP */
	assert_int_equal(hvpmu_hv_mmustat_conf(hv, 0, MMU_BUF, &old), HV_EBADTRAP);
	assert_int_equal(hvpmu_hv_set_version(hv, 0, HV_GRP_NIAGARA, 1, 0, &minor), HV_EOK);
	for (unsigned i = 0; i < MMU_BUF_BYTES / 8; i++) /* zeroed buffer */
		assert_int_equal(hvpmu_guest_mem_write64(gm, MMU_BUF + 8 * i, 0), 0);
	/* status paths: alignment, range; an error leaves collection off */
	assert_int_equal(hvpmu_hv_mmustat_conf(hv, 0, MMU_BUF + 8, &old), HV_EBADALIGN);
	assert_int_equal(hvpmu_hv_mmustat_conf(hv, 0, md.guests[0].mem[0].size - 0x100, &old), HV_ENORADDR);
	assert_int_equal(hvpmu_hv_mmustat_conf(hv, 0, UINT64_C(0x7000000000), &old), HV_ENORADDR);
	assert_int_equal(hvpmu_hv_mmustat_info(hv, 0, &ra), HV_EOK);
	assert_int_equal(ra, 0);
	assert_int_equal(hvpmu_hv_mmustat_conf(hv, 0, MMU_BUF, &old), HV_EOK);
	assert_int_equal(old, 0);
	assert_int_equal(hvpmu_hv_mmustat_info(hv, 0, &ra), HV_EOK);
	assert_int_equal(ra, MMU_BUF);
	assert_int_equal(hvpmu_hv_mmustat_info(hv, 0, &ra), HV_EOK); /* idempotent */
	assert_int_equal(ra, MMU_BUF);
	/* the program touches 5 pages of 8 KB: 5 DTLB misses whose second walk
	 * (after the guest's TSB fill) hits the TSB */
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), 0);
	for (unsigned p = 0; p < 5; p++)
		hvpmu_machine_dref(m, 0, 0x1000, UINT64_C(0x80000000) + p * 8192, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), 0);
	hits = hvpmu_machine_tsb_hits(m, 0, 1, 1, 0);
	assert_int_equal(hits, 5);
	assert_int_equal(hvpmu_guest_mem_read64(gm, MMU_BUF + DMMU_CTXNON0, &v), 0);
	assert_int_equal(v, hits);
	assert_int_equal(hvpmu_guest_mem_read64(gm, MMU_BUF + DMMU_CTXNON0 + 8, &ticks), 0);
	assert_true(ticks > 0);
	/* nothing else written: every other word of the buffer is still 0 */
	for (unsigned i = 0; i < MMU_BUF_BYTES / 8; i++)
		assert_int_equal(hvpmu_guest_mem_read64(gm, MMU_BUF + 8 * i, &words[i]), 0);
	for (unsigned i = 0; i < MMU_BUF_BYTES / 8; i++)
		if (8 * i != DMMU_CTXNON0 && 8 * i != DMMU_CTXNON0 + 8)
			assert_int_equal(words[i], 0);
	/* disable: returns the previous ra; later hits are not recorded */
	assert_int_equal(hvpmu_hv_mmustat_conf(hv, 0, 0, &old), HV_EOK);
	assert_int_equal(old, MMU_BUF);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), 0);
	hvpmu_machine_dref(m, 0, 0x1000, UINT64_C(0x80000000) + 9 * 8192, 8, HVPMU_IC_LOAD, 0);
	assert_int_equal(hvpmu_machine_tsb_hits(m, 0, 1, 1, 0), hits + 1);
	assert_int_equal(hvpmu_guest_mem_read64(gm, MMU_BUF + DMMU_CTXNON0, &v), 0);
	assert_int_equal(v, hits);
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
	/* not on T4 */
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	hv = t1_hv(&md, &m);
	assert_int_equal(hvpmu_hv_mmustat_info(hv, 0, &ra), HV_EBADTRAP);
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t1_description),
		cmocka_unit_test(test_t1_pcr_pic),
		cmocka_unit_test(test_t1_no_t4_asis),
		cmocka_unit_test(test_groups_per_platform),
		cmocka_unit_test(test_niagara_perfreg_status),
		cmocka_unit_test(test_niagara_counting),
		cmocka_unit_test(test_mmustat_client),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
