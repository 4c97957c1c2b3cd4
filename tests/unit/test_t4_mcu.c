/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_t4_mcu.c - the SPARC T4 memory-controller DRAM performance counters
 * (src/pmu/t4_mcu.c, include/hvpmu/t4_mcu.h) and their hypercall access
 * (src/services/sun4v.c), sparc-t4-performance-instrumentation.md §10.5:
 *   - every field of TABLE 10-4 (DRAM_PERF_CTL_REG), 10-5
 *     (DRAM_PERF_COUNT01_REG), 10-6 (DRAM_PERF_COUNT23_REG): position,
 *     width, reserved bits, reset values;
 *   - 31-bit counters wrapping modulo 2^31 and setting their sticky bit;
 *     sticky bits plain RW;
 *   - every select code of TABLE 10-7 on every counter, reserved codes
 *     0xD-0xF counting nothing;
 *   - HV_FAST_VT_GET/SET_PERFREG ids 4 + 3*mcu + {CTL, COUNT01, COUNT23}
 *     (Solaris VT_IMPL, hw-and-hypervisor.md §4): range (EINVAL past the
 *     last MCU), check order perfctraccess -> register number -> counter
 *     group, and the §10.5 split of the groups between the OS and power
 *     management (docs/sun4v-hypervisor.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>

#define ALL_ONES (~UINT64_C(0))
#define CTR_MAX (HVPMU_T4_DRAM_COUNTER_WRAP - 1)

static struct hvpmu_t4_mcu *new_mcu(void)
{
	struct hvpmu_t4_mcu *mcu = hvpmu_t4_mcu_create();

	assert_non_null(mcu);
	return mcu;
}

/* MCU `i` of machine m (its device on the register bus), or NULL. */
static struct hvpmu_t4_mcu *mcu_of(struct hvpmu_machine *m, unsigned i)
{
	int dev = hvpmu_machine_device_find(m, HVPMU_DEV_T4_MCU, i);
	struct hvpmu_device_info info;

	if (dev < 0)
		return NULL;
	assert_int_equal(hvpmu_machine_device(m, (unsigned)dev, &info), HVPMU_OK);
	assert_int_equal(info.kind, HVPMU_DEV_T4_MCU);
	assert_int_equal(info.unit, i);
	assert_int_equal(info.chip, i / HVPMU_T4_MCUS_PER_CHIP);
	assert_int_equal(info.nregs, HVPMU_T4_MCU_NREGS);
	return hvpmu_machine_device_state(m, (unsigned)dev);
}

static uint64_t rd(const struct hvpmu_t4_mcu *mcu, unsigned reg)
{
	uint64_t v = 0x5555;

	assert_int_equal(hvpmu_t4_mcu_read(mcu, reg, &v), HVPMU_OK);
	return v;
}

static void wr(struct hvpmu_t4_mcu *mcu, unsigned reg, uint64_t v)
{
	assert_int_equal(hvpmu_t4_mcu_write(mcu, reg, v), HVPMU_OK);
}

/* CTL with select code `sel` in every counter's field. */
static uint64_t ctl_all(unsigned sel)
{
	uint64_t v = 0;

	v = HVPMU_FDP(v, T4_DRAM_CTL, SEL0, sel);
	v = HVPMU_FDP(v, T4_DRAM_CTL, SEL1, sel);
	v = HVPMU_FDP(v, T4_DRAM_CTL, SEL2, sel);
	return HVPMU_FDP(v, T4_DRAM_CTL, SEL3, sel);
}

/* --- constants and layout ----------------------------------------------- */

static void test_constants(void **state)
{
	(void)state;
	/* TABLE 10-4 */
	assert_int_equal(T4_DRAM_CTL_SEL0_SHIFT, 0);
	assert_int_equal(T4_DRAM_CTL_SEL1_SHIFT, 4);
	assert_int_equal(T4_DRAM_CTL_SEL2_SHIFT, 8);
	assert_int_equal(T4_DRAM_CTL_SEL3_SHIFT, 12);
	assert_int_equal(T4_DRAM_CTL_SEL0_LEN, 4);
	assert_int_equal(T4_DRAM_CTL_SEL1_LEN, 4);
	assert_int_equal(T4_DRAM_CTL_SEL2_LEN, 4);
	assert_int_equal(T4_DRAM_CTL_SEL3_LEN, 4);
	assert_int_equal(HVPMU_T4_DRAM_CTL_IMPL_MASK, 0xffff);
	assert_int_equal(HVPMU_T4_DRAM_CTL_GROUP01_MASK, 0x00ff);
	assert_int_equal(HVPMU_T4_DRAM_CTL_GROUP23_MASK, 0xff00);
	/* TABLE 10-5 */
	assert_int_equal(HVPMU_FMASK(T4_DRAM_COUNT01, STICKY0), UINT64_C(0x8000000000000000));
	assert_int_equal(HVPMU_FMASK(T4_DRAM_COUNT01, COUNTER0), UINT64_C(0x7fffffff00000000));
	assert_int_equal(HVPMU_FMASK(T4_DRAM_COUNT01, STICKY1), UINT64_C(0x80000000));
	assert_int_equal(HVPMU_FMASK(T4_DRAM_COUNT01, COUNTER1), UINT64_C(0x7fffffff));
	/* TABLE 10-6 */
	assert_int_equal(HVPMU_FMASK(T4_DRAM_COUNT23, STICKY3), UINT64_C(0x8000000000000000));
	assert_int_equal(HVPMU_FMASK(T4_DRAM_COUNT23, COUNTER3), UINT64_C(0x7fffffff00000000));
	assert_int_equal(HVPMU_FMASK(T4_DRAM_COUNT23, STICKY2), UINT64_C(0x80000000));
	assert_int_equal(HVPMU_FMASK(T4_DRAM_COUNT23, COUNTER2), UINT64_C(0x7fffffff));
	assert_int_equal(HVPMU_T4_DRAM_COUNTER_WRAP, UINT64_C(1) << 31);
	/* addresses: F804 0000 0408 / 0410 / 0418, step 4096 */
	assert_int_equal(HVPMU_T4_MCU_CTL_PA, UINT64_C(0xf80400000408));
	assert_int_equal(HVPMU_T4_MCU_COUNT01_PA, UINT64_C(0xf80400000410));
	assert_int_equal(HVPMU_T4_MCU_COUNT23_PA, UINT64_C(0xf80400000418));
	assert_int_equal(HVPMU_T4_MCU_PA_STEP, 4096);
	/* TABLE 10-7 */
	assert_int_equal(HVPMU_T4_DRAM_SEL_READS, 0x0);
	assert_int_equal(HVPMU_T4_DRAM_SEL_WRITES, 0x1);
	assert_int_equal(HVPMU_T4_DRAM_SEL_READS_WRITES, 0x2);
	assert_int_equal(HVPMU_T4_DRAM_SEL_BANK_BUSY, 0x3);
	assert_int_equal(HVPMU_T4_DRAM_SEL_RD_QUEUE_LAT, 0x4);
	assert_int_equal(HVPMU_T4_DRAM_SEL_WR_QUEUE_LAT, 0x5);
	assert_int_equal(HVPMU_T4_DRAM_SEL_RW_QUEUE_LAT, 0x6);
	assert_int_equal(HVPMU_T4_DRAM_SEL_WB_HITS, 0x7);
	assert_int_equal(HVPMU_T4_DRAM_SEL_READ_ALL, 0x8);
	assert_int_equal(HVPMU_T4_DRAM_SEL_WRITE_STARVED, 0x9);
	assert_int_equal(HVPMU_T4_DRAM_SEL_WRITE_ALL, 0xa);
	assert_int_equal(HVPMU_T4_DRAM_SEL_CHANNEL0, 0xb);
	assert_int_equal(HVPMU_T4_DRAM_SEL_CHANNEL1, 0xc);
	assert_int_equal(HVPMU_T4_DRAM_SEL_RESERVED_FIRST, 0xd);
	/* topology and hypercall ids (Solaris VT_IMPL: CTL0=4, COUNT0=5, CTL1=7) */
	assert_int_equal(HVPMU_T4_MCUS_PER_CHIP, 2);
	assert_int_equal(HVPMU_T4_MCU_NCOUNTERS, 4);
	assert_int_equal(HVPMU_T4_MCU_NREGS, 3);
	assert_int_equal(HV_VT_PERFREG_MCU0, 4);
	assert_int_equal(HV_VT_PERFREG_PER_MCU, 3);
	assert_int_equal(HV_VT_PERFREG_MCU0 + HV_VT_PERFREG_PER_MCU + HVPMU_T4_MCU_CTL, 7);
	assert_int_equal(HVPMU_MD_DRAM_GROUP_OS, 1);
	assert_int_equal(HVPMU_MD_DRAM_GROUP_PM, 2);
}

static void test_reset_and_range(void **state)
{
	struct hvpmu_t4_mcu *mcu = new_mcu();
	uint64_t v = 0x5555;

	(void)state;
	for (unsigned r = 0; r < HVPMU_T4_MCU_NREGS; r++)
		assert_int_equal(rd(mcu, r), 0);
	for (unsigned n = 0; n < HVPMU_T4_MCU_NCOUNTERS; n++) {
		assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, n), 0);
		assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, n), 0);
	}
	assert_int_equal(hvpmu_t4_mcu_read(mcu, HVPMU_T4_MCU_NREGS, &v), HVPMU_ERANGE);
	assert_int_equal(v, 0x5555);
	assert_int_equal(hvpmu_t4_mcu_write(mcu, HVPMU_T4_MCU_NREGS, 1), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t4_mcu_write(mcu, ~0u, 1), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, HVPMU_T4_MCU_NCOUNTERS), 0);
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, HVPMU_T4_MCU_NCOUNTERS), 0);
	hvpmu_t4_mcu_destroy(mcu);
	hvpmu_t4_mcu_destroy(NULL);
}

/* Each sel field independently; reserved 63:16 read 0 and ignore writes. */
static void test_ctl_fields(void **state)
{
	struct hvpmu_t4_mcu *mcu = new_mcu();

	(void)state;
	for (unsigned sel = 0; sel < HVPMU_T4_DRAM_NSEL; sel++) {
		wr(mcu, HVPMU_T4_MCU_CTL, HVPMU_FDP(0, T4_DRAM_CTL, SEL0, sel));
		assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), (uint64_t)sel);
		wr(mcu, HVPMU_T4_MCU_CTL, HVPMU_FDP(0, T4_DRAM_CTL, SEL1, sel));
		assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), (uint64_t)sel << 4);
		wr(mcu, HVPMU_T4_MCU_CTL, HVPMU_FDP(0, T4_DRAM_CTL, SEL2, sel));
		assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), (uint64_t)sel << 8);
		wr(mcu, HVPMU_T4_MCU_CTL, HVPMU_FDP(0, T4_DRAM_CTL, SEL3, sel));
		assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), (uint64_t)sel << 12);
	}
	wr(mcu, HVPMU_T4_MCU_CTL, UINT64_C(0xabcd));
	assert_int_equal(HVPMU_FEX(rd(mcu, HVPMU_T4_MCU_CTL), T4_DRAM_CTL, SEL0), 0xd);
	assert_int_equal(HVPMU_FEX(rd(mcu, HVPMU_T4_MCU_CTL), T4_DRAM_CTL, SEL1), 0xc);
	assert_int_equal(HVPMU_FEX(rd(mcu, HVPMU_T4_MCU_CTL), T4_DRAM_CTL, SEL2), 0xb);
	assert_int_equal(HVPMU_FEX(rd(mcu, HVPMU_T4_MCU_CTL), T4_DRAM_CTL, SEL3), 0xa);
	wr(mcu, HVPMU_T4_MCU_CTL, ALL_ONES);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), HVPMU_T4_DRAM_CTL_IMPL_MASK);
	wr(mcu, HVPMU_T4_MCU_CTL, ~HVPMU_T4_DRAM_CTL_IMPL_MASK);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), 0);
	/* the control register does not touch the counts */
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT01) | rd(mcu, HVPMU_T4_MCU_COUNT23), 0);
	hvpmu_t4_mcu_destroy(mcu);
}

/* Counter n at its field of its register, 31 bits wide; sticky above it. */
static void test_count_fields(void **state)
{
	struct hvpmu_t4_mcu *mcu = new_mcu();
	uint64_t v;

	(void)state;
	/* counter 0 is the high half of COUNT01, counter 1 the low */
	wr(mcu, HVPMU_T4_MCU_COUNT01, HVPMU_FDP(0, T4_DRAM_COUNT01, COUNTER0, 0x12345678));
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), 0x12345678);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 1), 0);
	wr(mcu, HVPMU_T4_MCU_COUNT01, HVPMU_FDP(0, T4_DRAM_COUNT01, COUNTER1, 0x2468ace));
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), 0); /* a write loads both halves */
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 1), 0x2468ace);
	/* counter 3 is the high half of COUNT23, counter 2 the low */
	wr(mcu, HVPMU_T4_MCU_COUNT23, HVPMU_FDP(0, T4_DRAM_COUNT23, COUNTER3, 0x3));
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 3), 3);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 2), 0);
	wr(mcu, HVPMU_T4_MCU_COUNT23, HVPMU_FDP(0, T4_DRAM_COUNT23, COUNTER2, 0x2));
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 2), 2);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 3), 0);
	/* COUNT01 writes leave counters 2, 3 alone and the reverse */
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 1), 0x2468ace);

	/* every bit is a field: all ones read back, 31-bit maximum each */
	wr(mcu, HVPMU_T4_MCU_COUNT01, ALL_ONES);
	wr(mcu, HVPMU_T4_MCU_COUNT23, ALL_ONES);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT01), ALL_ONES);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT23), ALL_ONES);
	for (unsigned n = 0; n < HVPMU_T4_MCU_NCOUNTERS; n++) {
		assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, n), CTR_MAX);
		assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, n), 1);
	}
	/* a distinct pattern per field reads back through the field macros */
	v = HVPMU_FDP(0, T4_DRAM_COUNT01, COUNTER0, 0x5a5a5a5a);
	v = HVPMU_FDP(v, T4_DRAM_COUNT01, STICKY0, 0);
	v = HVPMU_FDP(v, T4_DRAM_COUNT01, COUNTER1, 0x0f0f0f0f);
	v = HVPMU_FDP(v, T4_DRAM_COUNT01, STICKY1, 1);
	wr(mcu, HVPMU_T4_MCU_COUNT01, v);
	v = rd(mcu, HVPMU_T4_MCU_COUNT01);
	assert_int_equal(HVPMU_FEX(v, T4_DRAM_COUNT01, COUNTER0), 0x5a5a5a5a);
	assert_int_equal(HVPMU_FEX(v, T4_DRAM_COUNT01, STICKY0), 0);
	assert_int_equal(HVPMU_FEX(v, T4_DRAM_COUNT01, COUNTER1), 0x0f0f0f0f);
	assert_int_equal(HVPMU_FEX(v, T4_DRAM_COUNT01, STICKY1), 1);
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, 0), 0);
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, 1), 1);
	v = HVPMU_FDP(0, T4_DRAM_COUNT23, COUNTER3, 0x11111111);
	v = HVPMU_FDP(v, T4_DRAM_COUNT23, STICKY3, 1);
	v = HVPMU_FDP(v, T4_DRAM_COUNT23, COUNTER2, 0x22222222);
	wr(mcu, HVPMU_T4_MCU_COUNT23, v);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT23), v);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 3), 0x11111111);
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, 3), 1);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 2), 0x22222222);
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, 2), 0);
	hvpmu_t4_mcu_destroy(mcu);
}

/* 31-bit wrap sets sticky; sticky is software RW (write 1 sets, 0 clears). */
static void test_wrap_and_sticky(void **state)
{
	struct hvpmu_t4_mcu *mcu = new_mcu();
	struct hvpmu_t4_mcu_activity a;

	(void)state;
	wr(mcu, HVPMU_T4_MCU_CTL, ctl_all(HVPMU_T4_DRAM_SEL_BANK_BUSY)); /* same delta for all four */
	memset(&a, 0, sizeof a);
	/* counter n starts 2^31 - 1 - n: one event wraps counter 0 only */
	wr(mcu, HVPMU_T4_MCU_COUNT01, HVPMU_FDP(HVPMU_FDP(0, T4_DRAM_COUNT01, COUNTER0, CTR_MAX), T4_DRAM_COUNT01,
						   COUNTER1, CTR_MAX - 1));
	wr(mcu, HVPMU_T4_MCU_COUNT23, HVPMU_FDP(HVPMU_FDP(0, T4_DRAM_COUNT23, COUNTER2, CTR_MAX - 2), T4_DRAM_COUNT23,
						   COUNTER3, CTR_MAX - 3));
	a.bank_busy_cycles = 1;
	assert_int_equal(hvpmu_t4_mcu_count(mcu, &a), 0x1);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), 0);
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, 0), 1);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT01),
			 HVPMU_FMASK(T4_DRAM_COUNT01, STICKY0) | HVPMU_FDP(0, T4_DRAM_COUNT01, COUNTER1, CTR_MAX));
	a.bank_busy_cycles = 2;
	assert_int_equal(hvpmu_t4_mcu_count(mcu, &a), 0x6); /* counters 1 and 2 wrap */
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), 2);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 1), 1);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 2), 0);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 3), CTR_MAX); /* reaches 2^31 - 1, no wrap */
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT23),
			 HVPMU_FMASK(T4_DRAM_COUNT23, STICKY2) | HVPMU_FDP(0, T4_DRAM_COUNT23, COUNTER3, CTR_MAX));
	/* a wrap with sticky already set keeps it set */
	a.bank_busy_cycles = HVPMU_T4_DRAM_COUNTER_WRAP;
	assert_int_equal(hvpmu_t4_mcu_count(mcu, &a), 0xf);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), 2); /* modulo 2^31 */
	for (unsigned n = 0; n < HVPMU_T4_MCU_NCOUNTERS; n++)
		assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, n), 1);
	/* deltas of several wraps, and a 64-bit sum that overflows */
	wr(mcu, HVPMU_T4_MCU_COUNT01, HVPMU_FDP(0, T4_DRAM_COUNT01, COUNTER0, 5));
	a.bank_busy_cycles = 3 * HVPMU_T4_DRAM_COUNTER_WRAP + 7;
	assert_int_equal(hvpmu_t4_mcu_count(mcu, &a) & 0x3, 0x3);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), 12);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 1), 7);
	wr(mcu, HVPMU_T4_MCU_COUNT01, HVPMU_FDP(0, T4_DRAM_COUNT01, COUNTER0, 1));
	a.bank_busy_cycles = ALL_ONES; /* 2^64 - 1 = -1 mod 2^31 */
	assert_int_equal(hvpmu_t4_mcu_count(mcu, &a) & 0x3, 0x3);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), 0);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 1), CTR_MAX);
	/* no events: no wrap, sticky unchanged */
	wr(mcu, HVPMU_T4_MCU_COUNT01, HVPMU_FDP(0, T4_DRAM_COUNT01, COUNTER0, CTR_MAX));
	a.bank_busy_cycles = 0;
	assert_int_equal(hvpmu_t4_mcu_count(mcu, &a), 0);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), CTR_MAX);
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, 0), 0);
	/* software sets and clears sticky bits (TABLE 10-5/10-6 RW) */
	wr(mcu, HVPMU_T4_MCU_COUNT01, HVPMU_FMASK(T4_DRAM_COUNT01, STICKY1));
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, 1), 1);
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, 0), 0);
	wr(mcu, HVPMU_T4_MCU_COUNT01, 0);
	assert_int_equal(hvpmu_t4_mcu_peek_sticky(mcu, 1), 0);
	wr(mcu, HVPMU_T4_MCU_COUNT23, HVPMU_FMASK(T4_DRAM_COUNT23, STICKY3));
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT23), HVPMU_FMASK(T4_DRAM_COUNT23, STICKY3));
	hvpmu_t4_mcu_destroy(mcu);
}

/* --- TABLE 10-7 --------------------------------------------------------- */

/* Activity with a distinct value in every slot. */
static void distinct_activity(struct hvpmu_t4_mcu_activity *a)
{
	for (unsigned p = 0; p < HVPMU_T4_MCU_NPORTS; p++) {
		a->reads[p] = 1 + p;
		a->writes[p] = 10 + p;
		a->rd_queue_cycles[p] = 100 + p;
		a->wr_queue_cycles[p] = 1000 + p;
		a->wb_hits[p] = 10000 + p;
		a->write_starved[p] = 100000 + p;
	}
	a->channel_issued[0] = 1000000;
	a->channel_issued[1] = 2000000;
	a->bank_busy_cycles = 3000000;
}

/* What TABLE 10-7 code `sel` counts on counter n, written out per code. */
static uint64_t expected(const struct hvpmu_t4_mcu_activity *a, unsigned sel, unsigned n)
{
	const uint64_t all_reads = a->reads[0] + a->reads[1] + a->reads[2] + a->reads[3];
	const uint64_t all_writes = a->writes[0] + a->writes[1] + a->writes[2] + a->writes[3];
	const uint64_t table[HVPMU_T4_DRAM_NSEL] = {
		a->reads[n],                                 /* 0000 reads from its COU port */
		a->writes[n],                                /* 0001 writes from its COU port */
		a->reads[n] + a->writes[n],                  /* 0010 reads + writes from its port */
		a->bank_busy_cycles,                         /* 0011 bank busy stalls */
		a->rd_queue_cycles[n],                       /* 0100 read queue latency */
		a->wr_queue_cycles[n],                       /* 0101 write queue latency */
		a->rd_queue_cycles[n] + a->wr_queue_cycles[n], /* 0110 (read + write) queue latency */
		a->wb_hits[n],                               /* 0111 writeback buffer hits */
		all_reads,                                   /* 1000 all reads, both channels */
		a->write_starved[n],                         /* 1001 write starved */
		all_writes,                                  /* 1010 all writes, both channels */
		a->channel_issued[0],                        /* 1011 reads + writes to channel 0 */
		a->channel_issued[1],                        /* 1100 reads + writes to channel 1 */
		0, 0, 0,                                     /* 1101, 111x reserved */
	};
	return table[sel];
}

static void test_every_select(void **state)
{
	struct hvpmu_t4_mcu *mcu = new_mcu();
	struct hvpmu_t4_mcu_activity a;

	(void)state;
	memset(&a, 0, sizeof a);
	distinct_activity(&a);
	for (unsigned sel = 0; sel < HVPMU_T4_DRAM_NSEL; sel++) {
		wr(mcu, HVPMU_T4_MCU_COUNT01, 0);
		wr(mcu, HVPMU_T4_MCU_COUNT23, 0);
		wr(mcu, HVPMU_T4_MCU_CTL, ctl_all(sel));
		assert_int_equal(hvpmu_t4_mcu_count(mcu, &a), 0);
		for (unsigned n = 0; n < HVPMU_T4_MCU_NCOUNTERS; n++) {
			assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, n), expected(&a, sel, n));
			assert_int_equal(hvpmu_t4_mcu_events(&a, sel, n), expected(&a, sel, n));
		}
		/* twice: the counts add up */
		hvpmu_t4_mcu_count(mcu, &a);
		for (unsigned n = 0; n < HVPMU_T4_MCU_NCOUNTERS; n++)
			assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, n), 2 * expected(&a, sel, n));
	}
	/* reserved codes count nothing even with every input huge */
	memset(&a, 0xff, sizeof a);
	for (unsigned sel = HVPMU_T4_DRAM_SEL_RESERVED_FIRST; sel < HVPMU_T4_DRAM_NSEL; sel++)
		for (unsigned n = 0; n < HVPMU_T4_MCU_NCOUNTERS; n++)
			assert_int_equal(hvpmu_t4_mcu_events(&a, sel, n), 0);
	/* codes beyond 4 bits and ports beyond 3 count nothing */
	assert_int_equal(hvpmu_t4_mcu_events(&a, HVPMU_T4_DRAM_NSEL, 0), 0);
	assert_int_equal(hvpmu_t4_mcu_events(&a, HVPMU_T4_DRAM_SEL_READS, HVPMU_T4_MCU_NPORTS), 0);
	hvpmu_t4_mcu_destroy(mcu);
}

/* The four counters select independently (one code per counter). */
static void test_independent_selects(void **state)
{
	struct hvpmu_t4_mcu *mcu = new_mcu();
	struct hvpmu_t4_mcu_activity a;
	uint64_t ctl = 0;

	(void)state;
	memset(&a, 0, sizeof a);
	distinct_activity(&a);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL0, HVPMU_T4_DRAM_SEL_CHANNEL0);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL1, HVPMU_T4_DRAM_SEL_CHANNEL1);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL2, HVPMU_T4_DRAM_SEL_WB_HITS);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL3, 0xf);
	wr(mcu, HVPMU_T4_MCU_CTL, ctl);
	hvpmu_t4_mcu_count(mcu, &a);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), a.channel_issued[0]);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 1), a.channel_issued[1]);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 2), a.wb_hits[2]);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 3), 0);
	hvpmu_t4_mcu_destroy(mcu);
}

/* --- hypercall access --------------------------------------------------- */

struct fx {
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
};

static void fx_init(struct fx *f, void (*edit)(struct hvpmu_md *))
{
	memset(f, 0, sizeof *f);
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &f->md), HVPMU_OK);
	if (edit)
		edit(&f->md);
	assert_int_equal(hvpmu_machine_create(&f->md, &f->m), HVPMU_OK);
	assert_int_equal(hvpmu_hv_create(f->m, &f->hv), HVPMU_OK);
	/* guest OS code, the only code that reaches the hypervisor */
	for (uint32_t i = 0; i < hvpmu_machine_nstrands(f->m); i++)
		assert_int_equal(hvpmu_machine_set_mode(f->m, i, HVPMU_MODE_PRIV), HVPMU_OK);
	for (unsigned g = 0; g < f->md.nguests; g++) {
		uint64_t minor = 0;

		assert_int_equal(hvpmu_hv_set_version(f->hv, f->md.guests[g].first_strand, HV_GRP_VT_CPU, 1, 0, &minor),
				 HV_EOK);
	}
}

static void fx_fini(struct fx *f)
{
	hvpmu_hv_destroy(f->hv);
	hvpmu_machine_destroy(f->m);
}

static uint64_t id(unsigned mcu, unsigned reg)
{
	return HV_VT_PERFREG_MCU0 + (uint64_t)HV_VT_PERFREG_PER_MCU * mcu + reg;
}

/* Guest 0 "primary" (OS group) on strands 0-31, guest 1 "pm" (power
 * management) on strands 32-63. */
#define PM_STRAND 32
static void os_and_pm(struct hvpmu_md *md)
{
	md->nguests = 2;
	md->guests[0].nstrands = PM_STRAND;
	md->guests[1] = md->guests[0];
	strcpy(md->guests[1].name, "pm");
	md->guests[1].first_strand = PM_STRAND;
	md->guests[1].dram_counter_group = HVPMU_MD_DRAM_GROUP_PM;
}

static void two_chips(struct hvpmu_md *md)
{
	md->chips = 2;
	md->guests[0].nstrands = hvpmu_md_nstrands(md);
}

static void test_machine_mcus(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, NULL);
	assert_int_equal(hvpmu_machine_nmcu(f.m), HVPMU_T4_MCUS_PER_CHIP);
	assert_non_null(mcu_of(f.m, 0));
	assert_non_null(mcu_of(f.m, 1));
	assert_ptr_not_equal(mcu_of(f.m, 0), mcu_of(f.m, 1));
	assert_null(mcu_of(f.m, HVPMU_T4_MCUS_PER_CHIP));
	assert_null(mcu_of(f.m, ~0u));
	fx_fini(&f);
	fx_init(&f, two_chips);
	assert_int_equal(hvpmu_machine_nmcu(f.m), 2 * HVPMU_T4_MCUS_PER_CHIP);
	assert_non_null(mcu_of(f.m, 2 * HVPMU_T4_MCUS_PER_CHIP - 1));
	assert_null(mcu_of(f.m, 2 * HVPMU_T4_MCUS_PER_CHIP));
	fx_fini(&f);
	/* the default MD gives the primary guest the OS group */
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &f.md), HVPMU_OK);
	assert_int_equal(f.md.guests[0].dram_counter_group, HVPMU_MD_DRAM_GROUP_OS);
}

/* Each id reaches its MCU and register; ids past the last MCU: EINVAL. */
static void check_id_map(struct fx *f, unsigned nmcu)
{
	uint64_t v;

	for (unsigned m = 0; m < nmcu; m++) {
		struct hvpmu_t4_mcu *mcu = mcu_of(f->m, m);
		uint64_t val = HVPMU_FDP(0, T4_DRAM_COUNT01, COUNTER0, 100 + m);

		assert_int_equal(hvpmu_hv_vt_set_perfreg(f->hv, 0, id(m, HVPMU_T4_MCU_COUNT01), val), HV_EOK);
		assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT01), val);
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f->hv, 0, id(m, HVPMU_T4_MCU_CTL), m + 1), HV_EOK);
		assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), m + 1);
		wr(mcu, HVPMU_T4_MCU_COUNT23, UINT64_C(0x123456789) + m);
		v = 0;
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f->hv, 0, id(m, HVPMU_T4_MCU_COUNT01), &v), HV_EOK);
		assert_int_equal(v, val);
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f->hv, 0, id(m, HVPMU_T4_MCU_CTL), &v), HV_EOK);
		assert_int_equal(v, m + 1);
	}
	for (uint64_t bad = id(nmcu, 0); bad < id(nmcu, 0) + 2 * HV_VT_PERFREG_PER_MCU; bad++) {
		v = 0x5555;
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f->hv, 0, bad, &v), HV_EINVAL);
		assert_int_equal(v, 0x5555);
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f->hv, 0, bad, 0), HV_EINVAL);
	}
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f->hv, 0, ~UINT64_C(0), &v), HV_EINVAL);
	/* the PCR ids are untouched */
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f->hv, 0, HV_VT_PERFREG_PCR0, &v), HV_EOK);
	assert_int_equal(v, 0);
}

static void test_hv_ids(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, NULL);
	check_id_map(&f, HVPMU_T4_MCUS_PER_CHIP);
	/* the Solaris VT_IMPL numbers: CTL1 = 7, and 0x19 (CTL7) is past a T4-1 */
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 7, HVPMU_T4_DRAM_SEL_WRITES), HV_EOK);
	assert_int_equal(rd(mcu_of(f.m, 1), HVPMU_T4_MCU_CTL), HVPMU_T4_DRAM_SEL_WRITES);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, 0x19, 0), HV_EINVAL);
	fx_fini(&f);
	fx_init(&f, two_chips);
	check_id_map(&f, 2 * HVPMU_T4_MCUS_PER_CHIP);
	fx_fini(&f);
}

/* MCUs are chip-wide: every strand of the guest sees the same registers. */
static void test_hv_chip_wide(void **state)
{
	struct fx f;
	uint64_t v = 0;
	uint32_t last = 0;

	(void)state;
	fx_init(&f, NULL);
	last = hvpmu_machine_nstrands(f.m) - 1;
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(1, HVPMU_T4_MCU_COUNT01), 42), HV_EOK);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, last, id(1, HVPMU_T4_MCU_COUNT01), &v), HV_EOK);
	assert_int_equal(v, 42);
	fx_fini(&f);
}

/* §10.5: COUNT01 belongs to the OS, COUNT23 to power management; the
 * control register is shared, each group changing only its sel fields. */
static void test_hv_group_split(void **state)
{
	struct fx f;
	struct hvpmu_t4_mcu *mcu;
	uint64_t v;

	(void)state;
	fx_init(&f, os_and_pm);
	mcu = mcu_of(f.m, 0);
	wr(mcu, HVPMU_T4_MCU_COUNT01, 0x0101);
	wr(mcu, HVPMU_T4_MCU_COUNT23, 0x2323);

	/* the OS: COUNT01 yes, COUNT23 no */
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_COUNT01), &v), HV_EOK);
	assert_int_equal(v, 0x0101);
	v = 0x5555;
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_COUNT23), &v), HV_ENOACCESS);
	assert_int_equal(v, 0x5555);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_COUNT23), 0), HV_ENOACCESS);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT23), 0x2323);
	/* power management: the reverse */
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, PM_STRAND, id(0, HVPMU_T4_MCU_COUNT23), &v), HV_EOK);
	assert_int_equal(v, 0x2323);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, PM_STRAND, id(0, HVPMU_T4_MCU_COUNT01), &v), HV_ENOACCESS);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, PM_STRAND, id(0, HVPMU_T4_MCU_COUNT01), 0), HV_ENOACCESS);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT01), 0x0101);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, PM_STRAND, id(0, HVPMU_T4_MCU_COUNT23), 7), HV_EOK);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_COUNT23), 7);

	/* the control register: both read all of it, each writes its half;
	 * writes to the other half are ignored (EOK) */
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, PM_STRAND, id(0, HVPMU_T4_MCU_CTL), UINT64_C(0xbcff)), HV_EOK);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), 0xbc00);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_CTL), ALL_ONES), HV_EOK);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), 0xbcff);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_CTL), 0x0048), HV_EOK);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), 0xbc48);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_CTL), &v), HV_EOK);
	assert_int_equal(v, 0xbc48);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, PM_STRAND, id(0, HVPMU_T4_MCU_CTL), &v), HV_EOK);
	assert_int_equal(v, 0xbc48);
	/* Solaris-style read-modify-write of its sel0 keeps PM's fields */
	v = HVPMU_FDP(v, T4_DRAM_CTL, SEL0, HVPMU_T4_DRAM_SEL_READ_ALL);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_CTL), v), HV_EOK);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), 0xbc48);
	v = HVPMU_FDP(v, T4_DRAM_CTL, SEL1, HVPMU_T4_DRAM_SEL_WRITE_ALL);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_CTL), v), HV_EOK);
	assert_int_equal(rd(mcu, HVPMU_T4_MCU_CTL), 0xbca8);
	fx_fini(&f);
}

static void groups_both(struct hvpmu_md *md)
{
	md->guests[0].dram_counter_group = HVPMU_MD_DRAM_GROUP_OS | HVPMU_MD_DRAM_GROUP_PM;
}

static void groups_none(struct hvpmu_md *md)
{
	md->guests[0].dram_counter_group = 0;
}

static void groups_absent(struct hvpmu_md *md)
{
	md->guests[0].dram_counter_group = HVPMU_MD_PROP_ABSENT;
}

static void test_hv_group_values(void **state)
{
	void (*const none[])(struct hvpmu_md *) = { groups_none, groups_absent };
	struct fx f;
	uint64_t v;

	(void)state;
	/* both groups: everything */
	fx_init(&f, groups_both);
	for (unsigned r = 0; r < HVPMU_T4_MCU_NREGS; r++) {
		assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(1, r), ALL_ONES), HV_EOK);
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, id(1, r), &v), HV_EOK);
		assert_int_equal(v, r == HVPMU_T4_MCU_CTL ? HVPMU_T4_DRAM_CTL_IMPL_MASK : ALL_ONES);
	}
	fx_fini(&f);
	/* no group (0 or absent): every MCU register ENOACCESS, PCRs still fine */
	for (unsigned k = 0; k < sizeof none / sizeof none[0]; k++) {
		fx_init(&f, none[k]);
		for (unsigned r = 0; r < HVPMU_T4_MCU_NREGS; r++) {
			v = 0x5555;
			assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, id(0, r), &v), HV_ENOACCESS);
			assert_int_equal(v, 0x5555);
			assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(0, r), 1), HV_ENOACCESS);
			assert_int_equal(rd(mcu_of(f.m, 0), r), 0);
		}
		assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, HV_VT_PERFREG_PCR0, &v), HV_EOK);
		fx_fini(&f);
	}
}

static void access_absent(struct hvpmu_md *md)
{
	md->guests[0].perfctraccess = HVPMU_MD_PROP_ABSENT;
}

/* perfctraccess first, then the register number, then the group; the
 * PCR.ht check is not applied to MCU registers. */
static void test_hv_check_order(void **state)
{
	struct fx f;
	uint64_t v = 0x5555;
	const uint64_t past = id(HVPMU_T4_MCUS_PER_CHIP, 0);

	(void)state;
	fx_init(&f, access_absent);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_COUNT01), &v), HV_ENOACCESS);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, past, &v), HV_ENOACCESS);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, past, 0), HV_ENOACCESS);
	assert_int_equal(v, 0x5555);
	fx_fini(&f);
	/* a guest without groups: a bad number is EINVAL, not ENOACCESS */
	fx_init(&f, groups_none);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, past, &v), HV_EINVAL);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, past, 0), HV_EINVAL);
	fx_fini(&f);
	/* OS guest without perfctrhtaccess: CTL bit 4 (sel1 bit 0, PCR.ht's
	 * position) is an ordinary select bit */
	fx_init(&f, NULL);
	assert_int_equal(f.md.guests[0].perfctrhtaccess, HVPMU_MD_PROP_ABSENT);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_CTL), HVPMU_FMASK(T4_PCR, HT)), HV_EOK);
	assert_int_equal(rd(mcu_of(f.m, 0), HVPMU_T4_MCU_CTL), HVPMU_FMASK(T4_PCR, HT));
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_COUNT01), HVPMU_FMASK(T4_PCR, HT)),
			 HV_EOK);
	/* and the PCR ids keep their ht check */
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, HV_VT_PERFREG_PCR0, HVPMU_FMASK(T4_PCR, HT)),
			 HV_ENOACCESS);
	fx_fini(&f);
}

/* %o registers: a get returns the value in %o1; errors leave %o1 alone. */
static void test_hv_registers(void **state)
{
	struct fx f;
	struct hvpmu_hv_regs r = { { 0 } };

	(void)state;
	fx_init(&f, NULL);
	wr(mcu_of(f.m, 0), HVPMU_T4_MCU_COUNT01, ALL_ONES);
	r.o[0] = id(0, HVPMU_T4_MCU_COUNT01);
	r.o[1] = 0x1111;
	r.o[2] = 0x2222;
	r.o[5] = HV_FAST_VT_GET_PERFREG;
	assert_int_equal(hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r), HVPMU_OK);
	assert_int_equal(r.o[0], HV_EOK);
	assert_int_equal(r.o[1], ALL_ONES);
	assert_int_equal(r.o[2], 0x2222);
	r.o[0] = id(0, HVPMU_T4_MCU_COUNT23);
	r.o[1] = 0x1111;
	assert_int_equal(hvpmu_hv_trap(f.hv, 0, HV_FAST_TRAP, &r), HVPMU_OK);
	assert_int_equal(r.o[0], HV_ENOACCESS);
	assert_int_equal(r.o[1], 0x1111);
	assert_int_equal(r.o[5], HV_FAST_VT_GET_PERFREG);
	fx_fini(&f);
}

/* Counts made by the device show through the hypercall in their fields. */
static void test_hv_sees_counts(void **state)
{
	struct fx f;
	struct hvpmu_t4_mcu *mcu;
	struct hvpmu_t4_mcu_activity a;
	uint64_t v = 0, ctl = 0;

	(void)state;
	fx_init(&f, groups_both);
	mcu = mcu_of(f.m, 1);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL0, HVPMU_T4_DRAM_SEL_CHANNEL0);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL1, HVPMU_T4_DRAM_SEL_CHANNEL1);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL2, HVPMU_T4_DRAM_SEL_READS);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL3, HVPMU_T4_DRAM_SEL_WRITES);
	assert_int_equal(hvpmu_hv_vt_set_perfreg(f.hv, 0, id(1, HVPMU_T4_MCU_CTL), ctl), HV_EOK);
	memset(&a, 0, sizeof a);
	distinct_activity(&a);
	hvpmu_t4_mcu_count(mcu, &a);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, id(1, HVPMU_T4_MCU_COUNT01), &v), HV_EOK);
	assert_int_equal(HVPMU_FEX(v, T4_DRAM_COUNT01, COUNTER0), a.channel_issued[0]);
	assert_int_equal(HVPMU_FEX(v, T4_DRAM_COUNT01, COUNTER1), a.channel_issued[1]);
	assert_int_equal(HVPMU_FEX(v, T4_DRAM_COUNT01, STICKY0) | HVPMU_FEX(v, T4_DRAM_COUNT01, STICKY1), 0);
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, id(1, HVPMU_T4_MCU_COUNT23), &v), HV_EOK);
	assert_int_equal(HVPMU_FEX(v, T4_DRAM_COUNT23, COUNTER2), a.reads[2]);
	assert_int_equal(HVPMU_FEX(v, T4_DRAM_COUNT23, COUNTER3), a.writes[3]);
	/* MCU 0 saw nothing */
	assert_int_equal(hvpmu_hv_vt_get_perfreg(f.hv, 0, id(0, HVPMU_T4_MCU_COUNT01), &v), HV_EOK);
	assert_int_equal(v, 0);
	fx_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_reset_and_range),
		cmocka_unit_test(test_ctl_fields),
		cmocka_unit_test(test_count_fields),
		cmocka_unit_test(test_wrap_and_sticky),
		cmocka_unit_test(test_every_select),
		cmocka_unit_test(test_independent_selects),
		cmocka_unit_test(test_machine_mcus),
		cmocka_unit_test(test_hv_ids),
		cmocka_unit_test(test_hv_chip_wide),
		cmocka_unit_test(test_hv_group_split),
		cmocka_unit_test(test_hv_group_values),
		cmocka_unit_test(test_hv_check_order),
		cmocka_unit_test(test_hv_registers),
		cmocka_unit_test(test_hv_sees_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
