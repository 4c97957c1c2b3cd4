/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_t1_perfregs.c - the UltraSPARC T1 DRAM and JBUS performance registers
 * (src/pmu/t1_perfregs.c, include/hvpmu/t1_perfregs.h, t1_regs.h):
 *   - the PerfReg numbering of niagara-perf-api.txt §3.1 and the id ->
 *     address -> write mask table of hw-and-hypervisor.md §1.2;
 *   - every field of the DRAM (§3.3) and JBUS (§3.4) control and counter
 *     registers: position, width, the 0xff control write mask, counters
 *     loaded whole with their sticky bits;
 *   - the DRAM stop bits (a stopped counter does not count);
 *   - 31-bit counts wrapping modulo 2^31 and setting their sticky bit;
 *   - every event code of both units on both counters, including the codes
 *     that count nothing (JBUS 0, 7, 0xb, 0xf);
 *   - which select drives which half (§3.4: JBUS bits 7:4 -> counter1 in
 *     62:32) and busstat's pic0/pic1; the busstat names (anchors.md §4.3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/t1_perfregs.h>

#define ALL_ONES (~UINT64_C(0))
#define CTR_MAX (HVPMU_T1_PERF_COUNTER_WRAP - 1)

static struct hvpmu_t1_perfregs *new_dev(void)
{
	struct hvpmu_t1_perfregs *dev = hvpmu_t1_perfregs_create();

	assert_non_null(dev);
	return dev;
}

static uint64_t rd(const struct hvpmu_t1_perfregs *dev, unsigned id)
{
	uint64_t v = 0x5555;

	assert_int_equal(hvpmu_t1_perfregs_read(dev, id, &v), HVPMU_OK);
	return v;
}

static void wr(struct hvpmu_t1_perfregs *dev, unsigned id, uint64_t v)
{
	assert_int_equal(hvpmu_t1_perfregs_write(dev, id, v), HVPMU_OK);
}

/* Activity whose every field differs from every other and from every sum
 * of two of them. */
static void distinct_dram(struct hvpmu_t1_dram_activity *a, unsigned ch)
{
	uint64_t base = 1000u * (ch + 1);

	a->reads = base + 1;
	a->writes = base + 20;
	a->bank_busy_cycles = base + 300;
	a->rd_queue_cycles = base + 4000;
	a->wr_queue_cycles = base + 50000;
	a->wb_hits = base + 600000;
}

static void distinct_jbus(struct hvpmu_t1_jbus_activity *j)
{
	j->cycles = 1;
	j->dma_reads = 2;
	j->dma_read_latency = 4;
	j->dma_writes = 8;
	j->dma_wr8 = 16;
	j->ordering_waits = 32;
	j->pio_reads = 64;
	j->pio_read_latency = 128;
	j->pio_writes = 256;
	j->aok_dok_off_cycles = 512;
	j->aok_off_cycles = 1024;
	j->dok_off_cycles = 2048;
}

static uint64_t dram_expected(const struct hvpmu_t1_dram_activity *a, unsigned sel)
{
	switch (sel) {
	case 0: return a->reads;
	case 1: return a->writes;
	case 2: return a->reads + a->writes;
	case 3: return a->bank_busy_cycles;
	case 4: return a->rd_queue_cycles;
	case 5: return a->wr_queue_cycles;
	case 6: return a->rd_queue_cycles + a->wr_queue_cycles;
	case 7: return a->wb_hits;
	default: fail(); return 0;
	}
}

/* §3.4 code -> activity field; 0, 7, 0xb, 0xf count nothing. */
static uint64_t jbus_expected(const struct hvpmu_t1_jbus_activity *j, unsigned sel)
{
	switch (sel) {
	case 0x1: return j->cycles;
	case 0x2: return j->dma_reads;
	case 0x3: return j->dma_read_latency;
	case 0x4: return j->dma_writes;
	case 0x5: return j->dma_wr8;
	case 0x6: return j->ordering_waits;
	case 0x8: return j->pio_reads;
	case 0x9: return j->pio_read_latency;
	case 0xa: return j->pio_writes;
	case 0xc: return j->aok_dok_off_cycles;
	case 0xd: return j->aok_off_cycles;
	case 0xe: return j->dok_off_cycles;
	case 0x0: case 0x7: case 0xb: case 0xf: return 0;
	default: fail(); return 0;
	}
}

/* Counter register value v with counter n (hardware numbering) of counter
 * PerfReg id set to c, through the named fields. */
static uint64_t put_count(unsigned id, unsigned n, uint64_t v, uint64_t c)
{
	if (id == HVPMU_T1_PERFREG_JBUS_COUNT)
		return n ? HVPMU_FDP(v, T1_JBUS_COUNT, COUNTER1, c) : HVPMU_FDP(v, T1_JBUS_COUNT, COUNTER0, c);
	return n ? HVPMU_FDP(v, T1_DRAM_COUNT, COUNTER1, c) : HVPMU_FDP(v, T1_DRAM_COUNT, COUNTER0, c);
}

static uint64_t sticky_mask(unsigned id, unsigned n)
{
	if (id == HVPMU_T1_PERFREG_JBUS_COUNT)
		return n ? HVPMU_FMASK(T1_JBUS_COUNT, STICKY1) : HVPMU_FMASK(T1_JBUS_COUNT, STICKY0);
	return n ? HVPMU_FMASK(T1_DRAM_COUNT, STICKY1) : HVPMU_FMASK(T1_DRAM_COUNT, STICKY0);
}

/* --- constants and layout ----------------------------------------------- */

static void test_field_layout(void **state)
{
	(void)state;
	/* §3.3 DRAM control: sel1 2:0, stop1 3, sel0 6:4, stop0 7 */
	assert_int_equal(T1_DRAM_CTL_SEL1_SHIFT, 0);
	assert_int_equal(T1_DRAM_CTL_SEL1_LEN, 3);
	assert_int_equal(T1_DRAM_CTL_STOP1_SHIFT, 3);
	assert_int_equal(T1_DRAM_CTL_STOP1_LEN, 1);
	assert_int_equal(T1_DRAM_CTL_SEL0_SHIFT, 4);
	assert_int_equal(T1_DRAM_CTL_SEL0_LEN, 3);
	assert_int_equal(T1_DRAM_CTL_STOP0_SHIFT, 7);
	assert_int_equal(T1_DRAM_CTL_STOP0_LEN, 1);
	assert_int_equal(HVPMU_FMASK(T1_DRAM_CTL, SEL1), 0x07);
	assert_int_equal(HVPMU_FMASK(T1_DRAM_CTL, STOP1), 0x08);
	assert_int_equal(HVPMU_FMASK(T1_DRAM_CTL, SEL0), 0x70);
	assert_int_equal(HVPMU_FMASK(T1_DRAM_CTL, STOP0), 0x80);
	/* §3.3 DRAM counter: counter0 upper (sticky 63), counter1 lower (sticky 31) */
	assert_int_equal(HVPMU_FMASK(T1_DRAM_COUNT, STICKY0), UINT64_C(0x8000000000000000));
	assert_int_equal(HVPMU_FMASK(T1_DRAM_COUNT, COUNTER0), UINT64_C(0x7fffffff00000000));
	assert_int_equal(HVPMU_FMASK(T1_DRAM_COUNT, STICKY1), UINT64_C(0x80000000));
	assert_int_equal(HVPMU_FMASK(T1_DRAM_COUNT, COUNTER1), UINT64_C(0x7fffffff));
	assert_int_equal(T1_DRAM_COUNT_COUNTER0_LEN, 31);
	assert_int_equal(T1_DRAM_COUNT_COUNTER1_LEN, 31);
	/* §3.4 JBUS control: bits 7:4 counter1, bits 3:0 counter0 */
	assert_int_equal(T1_JBUS_CTL_SEL0_SHIFT, 0);
	assert_int_equal(T1_JBUS_CTL_SEL0_LEN, 4);
	assert_int_equal(T1_JBUS_CTL_SEL1_SHIFT, 4);
	assert_int_equal(T1_JBUS_CTL_SEL1_LEN, 4);
	assert_int_equal(HVPMU_FMASK(T1_JBUS_CTL, SEL0), 0x0f);
	assert_int_equal(HVPMU_FMASK(T1_JBUS_CTL, SEL1), 0xf0);
	/* §3.4 JBUS counter: 63 sticky1, 62:32 counter1, 31 sticky0, 30:0 counter0 */
	assert_int_equal(HVPMU_FMASK(T1_JBUS_COUNT, STICKY1), UINT64_C(0x8000000000000000));
	assert_int_equal(HVPMU_FMASK(T1_JBUS_COUNT, COUNTER1), UINT64_C(0x7fffffff00000000));
	assert_int_equal(HVPMU_FMASK(T1_JBUS_COUNT, STICKY0), UINT64_C(0x80000000));
	assert_int_equal(HVPMU_FMASK(T1_JBUS_COUNT, COUNTER0), UINT64_C(0x7fffffff));
	assert_int_equal(T1_JBUS_COUNT_COUNTER0_LEN, 31);
	assert_int_equal(T1_JBUS_COUNT_COUNTER1_LEN, 31);
	assert_int_equal(HVPMU_T1_PERF_COUNTER_WRAP, UINT64_C(1) << 31);
	/* §1.2 write masks */
	assert_int_equal(HVPMU_T1_PERF_CTL_WRITE_MASK, 0xff);
	assert_int_equal(HVPMU_T1_PERF_COUNT_WRITE_MASK, ALL_ONES);
}

static void test_event_codes(void **state)
{
	(void)state;
	/* §3.3 */
	assert_int_equal(HVPMU_T1_DRAM_SEL_MEM_READS, 0);
	assert_int_equal(HVPMU_T1_DRAM_SEL_MEM_WRITES, 1);
	assert_int_equal(HVPMU_T1_DRAM_SEL_MEM_READ_WRITE, 2);
	assert_int_equal(HVPMU_T1_DRAM_SEL_BANK_BUSY_STALLS, 3);
	assert_int_equal(HVPMU_T1_DRAM_SEL_RD_QUEUE_LATENCY, 4);
	assert_int_equal(HVPMU_T1_DRAM_SEL_WR_QUEUE_LATENCY, 5);
	assert_int_equal(HVPMU_T1_DRAM_SEL_RW_QUEUE_LATENCY, 6);
	assert_int_equal(HVPMU_T1_DRAM_SEL_WB_BUF_HITS, 7);
	assert_int_equal(HVPMU_T1_DRAM_NSEL, 8);
	/* §3.4 */
	assert_int_equal(HVPMU_T1_JBUS_SEL_OFF, 0x0);
	assert_int_equal(HVPMU_T1_JBUS_SEL_CYCLES, 0x1);
	assert_int_equal(HVPMU_T1_JBUS_SEL_DMA_READS, 0x2);
	assert_int_equal(HVPMU_T1_JBUS_SEL_DMA_READ_LATENCY, 0x3);
	assert_int_equal(HVPMU_T1_JBUS_SEL_DMA_WRITES, 0x4);
	assert_int_equal(HVPMU_T1_JBUS_SEL_DMA_WR8, 0x5);
	assert_int_equal(HVPMU_T1_JBUS_SEL_ORDERING_WAITS, 0x6);
	assert_int_equal(HVPMU_T1_JBUS_SEL_PIO_READS, 0x8);
	assert_int_equal(HVPMU_T1_JBUS_SEL_PIO_READ_LATENCY, 0x9);
	assert_int_equal(HVPMU_T1_JBUS_SEL_PIO_WRITES, 0xa);
	assert_int_equal(HVPMU_T1_JBUS_SEL_AOK_DOK_OFF, 0xc);
	assert_int_equal(HVPMU_T1_JBUS_SEL_AOK_OFF, 0xd);
	assert_int_equal(HVPMU_T1_JBUS_SEL_DOK_OFF, 0xe);
	assert_int_equal(HVPMU_T1_JBUS_NSEL, 0x10);
	assert_int_equal(HVPMU_T1_NCODES, 0x10);
	assert_int_equal(HVPMU_T1_CODE_CLEAR_PIC, 0xf);
}

/* §3.1 numbering and the §1.2 table. */
static void test_perfreg_numbering(void **state)
{
	static const struct {
		unsigned id;
		int ctl;
		uint64_t pa;
	} table[HVPMU_T1_NPERFREGS] = {
		{ 0, 1, UINT64_C(0x8000020000) }, { 1, 0, UINT64_C(0x8000020008) },
		{ 2, 1, UINT64_C(0x9700000400) }, { 3, 0, UINT64_C(0x9700000408) },
		{ 4, 1, UINT64_C(0x9700001400) }, { 5, 0, UINT64_C(0x9700001408) },
		{ 6, 1, UINT64_C(0x9700002400) }, { 7, 0, UINT64_C(0x9700002408) },
		{ 8, 1, UINT64_C(0x9700003400) }, { 9, 0, UINT64_C(0x9700003408) },
	};

	(void)state;
	assert_int_equal(HVPMU_T1_PERFREG_JBUS_CTL, 0);
	assert_int_equal(HVPMU_T1_PERFREG_JBUS_COUNT, 1);
	assert_int_equal(HVPMU_T1_PERFREG_DRAM_CTL0, 2);
	assert_int_equal(HVPMU_T1_PERFREG_DRAM_COUNT0, 3);
	assert_int_equal(HVPMU_T1_PERFREG_DRAM_CTL1, 4);
	assert_int_equal(HVPMU_T1_PERFREG_DRAM_COUNT1, 5);
	assert_int_equal(HVPMU_T1_PERFREG_DRAM_CTL2, 6);
	assert_int_equal(HVPMU_T1_PERFREG_DRAM_COUNT2, 7);
	assert_int_equal(HVPMU_T1_PERFREG_DRAM_CTL3, 8);
	assert_int_equal(HVPMU_T1_PERFREG_DRAM_COUNT3, 9);
	assert_int_equal(HVPMU_T1_NPERFREGS, 10);
	assert_int_equal(HVPMU_T1_DRAM_CHANNELS, 4);
	for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++) {
		assert_int_equal(HVPMU_T1_PERFREG_DRAM_CTL(ch), 2 + 2 * ch);
		assert_int_equal(HVPMU_T1_PERFREG_DRAM_COUNT(ch), 3 + 2 * ch);
	}
	for (unsigned i = 0; i < HVPMU_T1_NPERFREGS; i++) {
		assert_int_equal(table[i].id, i);
		assert_int_equal(hvpmu_t1_perfreg_is_ctl(i), table[i].ctl);
		assert_int_equal(hvpmu_t1_perfreg_is_count(i), !table[i].ctl);
		assert_int_equal(hvpmu_t1_perfreg_pa(i), table[i].pa);
		assert_int_equal(hvpmu_t1_perfreg_write_mask(i), table[i].ctl ? UINT64_C(0xff) : ALL_ONES);
	}
	assert_int_equal(hvpmu_t1_perfreg_pa(HVPMU_T1_NPERFREGS), 0);
	assert_int_equal(hvpmu_t1_perfreg_write_mask(HVPMU_T1_NPERFREGS), 0);
	assert_int_equal(hvpmu_t1_perfreg_is_ctl(HVPMU_T1_NPERFREGS), 0);
	assert_int_equal(hvpmu_t1_perfreg_is_count(HVPMU_T1_NPERFREGS + 1), 0);
	assert_int_equal(hvpmu_t1_perfreg_is_ctl(~0u), 0);
	/* the wrap bits follow the counter ids: JBUS 0-1, DRAM ch k 2+2k, 3+2k */
	assert_int_equal(HVPMU_T1_WRAP_BIT(HVPMU_T1_PERFREG_JBUS_COUNT, 0), 1u << 0);
	assert_int_equal(HVPMU_T1_WRAP_BIT(HVPMU_T1_PERFREG_JBUS_COUNT, 1), 1u << 1);
	assert_int_equal(HVPMU_T1_WRAP_BIT(HVPMU_T1_PERFREG_DRAM_COUNT(0), 0), 1u << 2);
	assert_int_equal(HVPMU_T1_WRAP_BIT(HVPMU_T1_PERFREG_DRAM_COUNT(3), 1), 1u << 9);
}

/* --- register access ---------------------------------------------------- */

static void test_reset_and_range(void **state)
{
	struct hvpmu_t1_perfregs *dev = new_dev();
	uint64_t v = 0x1234;

	(void)state;
	for (unsigned id = 0; id < HVPMU_T1_NPERFREGS; id++)
		assert_int_equal(rd(dev, id), 0);
	assert_int_equal(hvpmu_t1_perfregs_read(dev, HVPMU_T1_NPERFREGS, &v), HVPMU_ERANGE);
	assert_int_equal(v, 0x1234);
	assert_int_equal(hvpmu_t1_perfregs_read(dev, ~0u, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_perfregs_write(dev, HVPMU_T1_NPERFREGS, 1), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_perfregs_write(dev, ~0u, 1), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_perfregs_read(dev, 0, NULL), HVPMU_EINVAL);
	for (unsigned id = 0; id < HVPMU_T1_NPERFREGS; id++)
		assert_int_equal(rd(dev, id), 0);
	hvpmu_t1_perfregs_destroy(dev);
	hvpmu_t1_perfregs_destroy(NULL);
}

/* Each register is its own: writing one id changes no other. */
static void test_registers_distinct(void **state)
{
	struct hvpmu_t1_perfregs *dev = new_dev();

	(void)state;
	for (unsigned id = 0; id < HVPMU_T1_NPERFREGS; id++)
		wr(dev, id, UINT64_C(0x0101010101010101) * (id + 1));
	for (unsigned id = 0; id < HVPMU_T1_NPERFREGS; id++) {
		uint64_t want = UINT64_C(0x0101010101010101) * (id + 1);

		assert_int_equal(rd(dev, id), want & hvpmu_t1_perfreg_write_mask(id));
	}
	hvpmu_t1_perfregs_destroy(dev);
}

static void test_ctl_mask_and_fields(void **state)
{
	struct hvpmu_t1_perfregs *dev = new_dev();

	(void)state;
	for (unsigned id = 0; id < HVPMU_T1_NPERFREGS; id += 2) {
		assert_true(hvpmu_t1_perfreg_is_ctl(id));
		wr(dev, id, ALL_ONES);
		assert_int_equal(rd(dev, id), 0xff);       /* 63:8 written as zero */
		wr(dev, id, UINT64_C(0xabcdef0012345678));
		assert_int_equal(rd(dev, id), 0x78);
		for (unsigned bit = 0; bit < 64; bit++) { /* every bit on its own */
			wr(dev, id, UINT64_C(1) << bit);
			assert_int_equal(rd(dev, id), bit < 8 ? UINT64_C(1) << bit : 0);
		}
		wr(dev, id, 0);
	}
	/* DRAM fields round-trip independently */
	for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++) {
		unsigned id = HVPMU_T1_PERFREG_DRAM_CTL(ch);
		uint64_t v = 0;

		v = HVPMU_FDP(v, T1_DRAM_CTL, SEL0, 5);
		v = HVPMU_FDP(v, T1_DRAM_CTL, STOP0, 1);
		v = HVPMU_FDP(v, T1_DRAM_CTL, SEL1, 2);
		v = HVPMU_FDP(v, T1_DRAM_CTL, STOP1, 0);
		assert_int_equal(v, 0xd2);
		wr(dev, id, v);
		v = rd(dev, id);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_CTL, SEL0), 5);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_CTL, STOP0), 1);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_CTL, SEL1), 2);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_CTL, STOP1), 0);
		assert_int_equal(hvpmu_t1_ctl_code(id, v, 0), 0xd);
		assert_int_equal(hvpmu_t1_ctl_code(id, v, 1), 0x2);
	}
	/* JBUS fields */
	{
		uint64_t v = 0;

		v = HVPMU_FDP(v, T1_JBUS_CTL, SEL1, 0xe);
		v = HVPMU_FDP(v, T1_JBUS_CTL, SEL0, 0x3);
		assert_int_equal(v, 0xe3);
		wr(dev, HVPMU_T1_PERFREG_JBUS_CTL, v);
		v = rd(dev, HVPMU_T1_PERFREG_JBUS_CTL);
		assert_int_equal(HVPMU_FEX(v, T1_JBUS_CTL, SEL1), 0xe);
		assert_int_equal(HVPMU_FEX(v, T1_JBUS_CTL, SEL0), 0x3);
		assert_int_equal(hvpmu_t1_ctl_code(HVPMU_T1_PERFREG_JBUS_CTL, v, 1), 0xe);
		assert_int_equal(hvpmu_t1_ctl_code(HVPMU_T1_PERFREG_JBUS_CTL, v, 0), 0x3);
	}
	hvpmu_t1_perfregs_destroy(dev);
}

static void test_count_loaded_whole(void **state)
{
	struct hvpmu_t1_perfregs *dev = new_dev();
	static const uint64_t patterns[] = {
		ALL_ONES, UINT64_C(0x8000000000000000), UINT64_C(0x80000000), UINT64_C(0x7fffffff00000000),
		UINT64_C(0x7fffffff), UINT64_C(0xdeadbeefcafef00d), UINT64_C(0x0123456789abcdef), 0,
	};

	(void)state;
	for (unsigned id = 1; id < HVPMU_T1_NPERFREGS; id += 2)
		for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
			wr(dev, id, patterns[p]);
			assert_int_equal(rd(dev, id), patterns[p]);
		}
	/* DRAM: counter0 = 62:32 + sticky 63; counter1 = 30:0 + sticky 31 */
	for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++) {
		unsigned id = HVPMU_T1_PERFREG_DRAM_COUNT(ch);
		uint64_t v = 0;
		uint32_t c;
		int s;

		v = HVPMU_FDP(v, T1_DRAM_COUNT, COUNTER0, 0x1234567);
		v = HVPMU_FDP(v, T1_DRAM_COUNT, STICKY0, 1);
		v = HVPMU_FDP(v, T1_DRAM_COUNT, COUNTER1, 0x7654321);
		assert_int_equal(v, UINT64_C(0x8123456707654321));
		wr(dev, id, v);
		v = rd(dev, id);
		assert_int_equal(hvpmu_t1_count_get(id, v, 0, &c, &s), HVPMU_OK);
		assert_int_equal(c, 0x1234567);
		assert_int_equal(s, 1);
		assert_int_equal(hvpmu_t1_count_get(id, v, 1, &c, &s), HVPMU_OK);
		assert_int_equal(c, 0x7654321);
		assert_int_equal(s, 0);
	}
	/* JBUS: counter1 = 62:32 + sticky 63; counter0 = 30:0 + sticky 31 */
	{
		unsigned id = HVPMU_T1_PERFREG_JBUS_COUNT;
		uint64_t v = 0;
		uint32_t c;
		int s;

		v = HVPMU_FDP(v, T1_JBUS_COUNT, COUNTER1, 0x1234567);
		v = HVPMU_FDP(v, T1_JBUS_COUNT, STICKY0, 1);
		v = HVPMU_FDP(v, T1_JBUS_COUNT, COUNTER0, 0x7654321);
		assert_int_equal(v, UINT64_C(0x0123456787654321));
		wr(dev, id, v);
		v = rd(dev, id);
		assert_int_equal(hvpmu_t1_count_get(id, v, 1, &c, &s), HVPMU_OK);
		assert_int_equal(c, 0x1234567);
		assert_int_equal(s, 0);
		assert_int_equal(hvpmu_t1_count_get(id, v, 0, &c, &s), HVPMU_OK);
		assert_int_equal(c, 0x7654321);
		assert_int_equal(s, 1);
	}
	hvpmu_t1_perfregs_destroy(dev);
}

/* --- counting ----------------------------------------------------------- */

/* Every DRAM select on every channel and counter, the other counter stopped. */
static void test_dram_every_select(void **state)
{
	struct hvpmu_t1_dram_activity act[HVPMU_T1_DRAM_CHANNELS];

	(void)state;
	for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++)
		distinct_dram(&act[ch], ch);
	for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++)
		for (unsigned n = 0; n < HVPMU_T1_NCOUNTERS; n++)
			for (unsigned sel = 0; sel < HVPMU_T1_DRAM_NSEL; sel++) {
				struct hvpmu_t1_perfregs *dev = new_dev();
				unsigned ctl_id = HVPMU_T1_PERFREG_DRAM_CTL(ch);
				unsigned cnt_id = HVPMU_T1_PERFREG_DRAM_COUNT(ch);
				uint64_t ctl = 0, v;
				uint32_t c;
				int s;

				/* counter n counts sel, the other one is stopped */
				assert_int_equal(hvpmu_t1_ctl_set_code(ctl_id, &ctl, n, sel), HVPMU_OK);
				assert_int_equal(hvpmu_t1_ctl_set_code(ctl_id, &ctl, !n, HVPMU_T1_CODE_CLEAR_PIC),
						 HVPMU_OK);
				wr(dev, ctl_id, ctl);
				assert_int_equal(hvpmu_t1_perfregs_count(dev, act, NULL), 0);
				assert_int_equal(hvpmu_t1_dram_events(&act[ch], sel), dram_expected(&act[ch], sel));
				v = rd(dev, cnt_id);
				assert_int_equal(hvpmu_t1_count_get(cnt_id, v, n, &c, &s), HVPMU_OK);
				assert_int_equal(c, dram_expected(&act[ch], sel));
				assert_int_equal(s, 0);
				assert_int_equal(hvpmu_t1_count_get(cnt_id, v, !n, &c, &s), HVPMU_OK);
				assert_int_equal(c, 0);
				/* the field itself, by name */
				if (n == 0)
					assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER0),
							 dram_expected(&act[ch], sel));
				else
					assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER1),
							 dram_expected(&act[ch], sel));
				/* the other channels (control 0: both counters on
				 * mem_reads) counted their own activity only */
				for (unsigned o = 0; o < HVPMU_T1_DRAM_CHANNELS; o++)
					if (o != ch)
						assert_int_equal(rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT(o)),
								 act[o].reads << 32 | act[o].reads);
				assert_int_equal(rd(dev, HVPMU_T1_PERFREG_JBUS_COUNT), 0);
				hvpmu_t1_perfregs_destroy(dev);
			}
	/* out-of-range selects count nothing */
	assert_int_equal(hvpmu_t1_dram_events(&act[0], HVPMU_T1_DRAM_NSEL), 0);
	assert_int_equal(hvpmu_t1_dram_events(&act[0], ~0u), 0);
}

/* Both counters of a channel with independent selects; channels land in
 * their own registers. */
static void test_dram_channels(void **state)
{
	struct hvpmu_t1_perfregs *dev = new_dev();
	struct hvpmu_t1_dram_activity act[HVPMU_T1_DRAM_CHANNELS];

	(void)state;
	for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++) {
		uint64_t ctl = 0;

		distinct_dram(&act[ch], ch);
		ctl = HVPMU_FDP(ctl, T1_DRAM_CTL, SEL0, HVPMU_T1_DRAM_SEL_MEM_READS);
		ctl = HVPMU_FDP(ctl, T1_DRAM_CTL, SEL1, HVPMU_T1_DRAM_SEL_WB_BUF_HITS);
		wr(dev, HVPMU_T1_PERFREG_DRAM_CTL(ch), ctl);
	}
	hvpmu_t1_perfregs_count(dev, act, NULL);
	hvpmu_t1_perfregs_count(dev, act, NULL);
	for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++) {
		uint64_t v = rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT(ch));

		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER0), 2 * act[ch].reads);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER1), 2 * act[ch].wb_hits);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, STICKY0), 0);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, STICKY1), 0);
	}
	/* NULL activity counts nothing */
	hvpmu_t1_perfregs_count(dev, NULL, NULL);
	assert_int_equal(HVPMU_FEX(rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT(0)), T1_DRAM_COUNT, COUNTER0),
			 2 * act[0].reads);
	hvpmu_t1_perfregs_destroy(dev);
}

/* §3.3: a counter advances only while its stop bit is 0; each stop bit
 * stops only its own counter, whatever the select. */
static void test_dram_stop_bits(void **state)
{
	struct hvpmu_t1_dram_activity act[HVPMU_T1_DRAM_CHANNELS];

	(void)state;
	for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++)
		distinct_dram(&act[ch], ch);
	for (unsigned sel = 0; sel < HVPMU_T1_DRAM_NSEL; sel++) {
		struct hvpmu_t1_perfregs *dev = new_dev();
		uint64_t ctl = 0, v;

		ctl = HVPMU_FDP(ctl, T1_DRAM_CTL, SEL0, sel);
		ctl = HVPMU_FDP(ctl, T1_DRAM_CTL, SEL1, sel);
		/* stop0 only */
		wr(dev, HVPMU_T1_PERFREG_DRAM_CTL0, HVPMU_FDP(ctl, T1_DRAM_CTL, STOP0, 1));
		/* stop1 only */
		wr(dev, HVPMU_T1_PERFREG_DRAM_CTL1, HVPMU_FDP(ctl, T1_DRAM_CTL, STOP1, 1));
		/* both stopped, counters preloaded at the brink of wrapping */
		wr(dev, HVPMU_T1_PERFREG_DRAM_CTL2,
		   HVPMU_FDP(HVPMU_FDP(ctl, T1_DRAM_CTL, STOP0, 1), T1_DRAM_CTL, STOP1, 1));
		wr(dev, HVPMU_T1_PERFREG_DRAM_COUNT2, HVPMU_FDP(HVPMU_FDP(0, T1_DRAM_COUNT, COUNTER0, CTR_MAX),
								T1_DRAM_COUNT, COUNTER1, CTR_MAX));
		/* none stopped */
		wr(dev, HVPMU_T1_PERFREG_DRAM_CTL3, ctl);
		assert_int_equal(hvpmu_t1_perfregs_count(dev, act, NULL), 0);

		v = rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT0);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER0), 0);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER1), dram_expected(&act[0], sel));
		v = rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT1);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER0), dram_expected(&act[1], sel));
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER1), 0);
		v = rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT2); /* stopped: no count, no sticky */
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER0), CTR_MAX);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER1), CTR_MAX);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, STICKY0), 0);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, STICKY1), 0);
		v = rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT3);
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER0), dram_expected(&act[3], sel));
		assert_int_equal(HVPMU_FEX(v, T1_DRAM_COUNT, COUNTER1), dram_expected(&act[3], sel));
		hvpmu_t1_perfregs_destroy(dev);
	}
	/* every code 8-0xf (stop bit set) stops the counter; clear_pic is
	 * stop + select 7 */
	assert_int_equal(HVPMU_T1_CODE_CLEAR_PIC,
			 (1u << T1_DRAM_CTL_SEL0_LEN) | HVPMU_T1_DRAM_SEL_WB_BUF_HITS);
	for (unsigned code = HVPMU_T1_DRAM_NSEL; code < HVPMU_T1_NCODES; code++) {
		struct hvpmu_t1_perfregs *dev = new_dev();
		uint64_t ctl = 0;

		for (unsigned n = 0; n < HVPMU_T1_NCOUNTERS; n++)
			assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_DRAM_CTL0, &ctl, n, code), HVPMU_OK);
		assert_int_equal(HVPMU_FEX(ctl, T1_DRAM_CTL, STOP0), 1);
		assert_int_equal(HVPMU_FEX(ctl, T1_DRAM_CTL, STOP1), 1);
		wr(dev, HVPMU_T1_PERFREG_DRAM_CTL0, ctl);
		hvpmu_t1_perfregs_count(dev, act, NULL);
		assert_int_equal(rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT0), 0);
		hvpmu_t1_perfregs_destroy(dev);
	}
}

/* Every JBUS code on each counter; 0, 7, 0xb, 0xf count nothing.  The
 * select in bits 7:4 drives counter1 in bits 62:32 (§3.4). */
static void test_jbus_every_select(void **state)
{
	struct hvpmu_t1_jbus_activity j;

	(void)state;
	distinct_jbus(&j);
	for (unsigned sel = 0; sel < HVPMU_T1_JBUS_NSEL; sel++) {
		uint64_t want = jbus_expected(&j, sel);

		assert_int_equal(hvpmu_t1_jbus_events(&j, sel), want);
		/* upper select (7:4) only: only bits 62:32 move */
		{
			struct hvpmu_t1_perfregs *dev = new_dev();
			uint64_t v;

			wr(dev, HVPMU_T1_PERFREG_JBUS_CTL, HVPMU_FDP(0, T1_JBUS_CTL, SEL1, sel));
			assert_int_equal(hvpmu_t1_perfregs_count(dev, NULL, &j), 0);
			v = rd(dev, HVPMU_T1_PERFREG_JBUS_COUNT);
			assert_int_equal(v, want << 32);
			assert_int_equal(HVPMU_FEX(v, T1_JBUS_COUNT, COUNTER1), want);
			assert_int_equal(HVPMU_FEX(v, T1_JBUS_COUNT, COUNTER0), 0);
			hvpmu_t1_perfregs_destroy(dev);
		}
		/* lower select (3:0) only: only bits 30:0 move */
		{
			struct hvpmu_t1_perfregs *dev = new_dev();
			uint64_t v;

			wr(dev, HVPMU_T1_PERFREG_JBUS_CTL, HVPMU_FDP(0, T1_JBUS_CTL, SEL0, sel));
			assert_int_equal(hvpmu_t1_perfregs_count(dev, NULL, &j), 0);
			v = rd(dev, HVPMU_T1_PERFREG_JBUS_COUNT);
			assert_int_equal(v, want);
			assert_int_equal(HVPMU_FEX(v, T1_JBUS_COUNT, COUNTER0), want);
			assert_int_equal(HVPMU_FEX(v, T1_JBUS_COUNT, COUNTER1), 0);
			hvpmu_t1_perfregs_destroy(dev);
		}
	}
	/* the codes that count nothing, with everything active */
	assert_int_equal(hvpmu_t1_jbus_events(&j, HVPMU_T1_JBUS_SEL_OFF), 0);
	assert_int_equal(hvpmu_t1_jbus_events(&j, 0x7), 0);
	assert_int_equal(hvpmu_t1_jbus_events(&j, 0xb), 0);
	assert_int_equal(hvpmu_t1_jbus_events(&j, 0xf), 0);
	assert_int_equal(hvpmu_t1_jbus_events(&j, HVPMU_T1_JBUS_NSEL), 0);
	/* both counters at once, DRAM untouched */
	{
		struct hvpmu_t1_perfregs *dev = new_dev();
		uint64_t v;

		wr(dev, HVPMU_T1_PERFREG_JBUS_CTL, 0xd2); /* counter1 AOK off, counter0 DMA reads */
		hvpmu_t1_perfregs_count(dev, NULL, &j);
		v = rd(dev, HVPMU_T1_PERFREG_JBUS_COUNT);
		assert_int_equal(HVPMU_FEX(v, T1_JBUS_COUNT, COUNTER1), j.aok_off_cycles);
		assert_int_equal(HVPMU_FEX(v, T1_JBUS_COUNT, COUNTER0), j.dma_reads);
		for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++)
			assert_int_equal(rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT(ch)), 0);
		hvpmu_t1_perfregs_destroy(dev);
	}
}

/* 31-bit counts wrap modulo 2^31 and set their sticky bit, which stays
 * until software writes it; a write may also set it. */
static void test_wrap_and_sticky(void **state)
{
	struct hvpmu_t1_dram_activity act[HVPMU_T1_DRAM_CHANNELS];
	struct hvpmu_t1_jbus_activity j;

	(void)state;
	memset(act, 0, sizeof(act));
	memset(&j, 0, sizeof(j));
	for (unsigned id = 1; id < HVPMU_T1_NPERFREGS; id += 2)
		for (unsigned n = 0; n < HVPMU_T1_NCOUNTERS; n++) {
			struct hvpmu_t1_perfregs *dev = new_dev();
			unsigned ctl_id = id - 1;
			int dram = id != HVPMU_T1_PERFREG_JBUS_COUNT;
			unsigned ch = dram ? (id - HVPMU_T1_PERFREG_DRAM_COUNT0) / 2 : 0;
			/* counter n counts reads / DMA reads, the other nothing */
			unsigned code = dram ? HVPMU_T1_DRAM_SEL_MEM_READS : HVPMU_T1_JBUS_SEL_DMA_READS;
			unsigned idle = HVPMU_T1_CODE_CLEAR_PIC;
			uint64_t ctl = 0, *delta = dram ? &act[ch].reads : &j.dma_reads;
			uint32_t c;
			int s;

			hvpmu_t1_ctl_set_code(ctl_id, &ctl, n, code);
			hvpmu_t1_ctl_set_code(ctl_id, &ctl, !n, idle);
			wr(dev, ctl_id, ctl);
			/* preload counter n with 2^31 - 2, the other with 7 */
			wr(dev, id, put_count(id, n, put_count(id, !n, 0, 7), CTR_MAX - 1));
			*delta = 1;
			assert_int_equal(hvpmu_t1_perfregs_count(dev, act, &j), 0);
			hvpmu_t1_count_get(id, rd(dev, id), n, &c, &s);
			assert_int_equal(c, CTR_MAX);
			assert_int_equal(s, 0);
			/* all ones + 1 -> 0, sticky set, wrap reported */
			assert_int_equal(hvpmu_t1_perfregs_count(dev, act, &j), HVPMU_T1_WRAP_BIT(id, n));
			hvpmu_t1_count_get(id, rd(dev, id), n, &c, &s);
			assert_int_equal(c, 0);
			assert_int_equal(s, 1);
			/* counting on keeps the sticky bit */
			*delta = 5;
			assert_int_equal(hvpmu_t1_perfregs_count(dev, act, &j), 0);
			hvpmu_t1_count_get(id, rd(dev, id), n, &c, &s);
			assert_int_equal(c, 5);
			assert_int_equal(s, 1);
			/* the other counter: untouched, not sticky */
			hvpmu_t1_count_get(id, rd(dev, id), !n, &c, &s);
			assert_int_equal(c, 7);
			assert_int_equal(s, 0);
			/* a delta of several wraps: modulo 2^31, sticky once */
			wr(dev, id, 0);
			*delta = 3 * HVPMU_T1_PERF_COUNTER_WRAP + 11;
			assert_int_equal(hvpmu_t1_perfregs_count(dev, act, &j), HVPMU_T1_WRAP_BIT(id, n));
			hvpmu_t1_count_get(id, rd(dev, id), n, &c, &s);
			assert_int_equal(c, 11);
			assert_int_equal(s, 1);
			/* a delta that overflows 64 bits in the sum still wraps;
			 * the other counter is all ones with its sticky bit set */
			wr(dev, id, put_count(id, n, put_count(id, !n, ALL_ONES, CTR_MAX), CTR_MAX) &
					    ~sticky_mask(id, n));
			*delta = ALL_ONES;
			assert_true(hvpmu_t1_perfregs_count(dev, act, &j) & HVPMU_T1_WRAP_BIT(id, n));
			hvpmu_t1_count_get(id, rd(dev, id), n, &c, &s);
			assert_int_equal(c, (CTR_MAX + ALL_ONES) & CTR_MAX);
			assert_int_equal(s, 1);
			/* the other counter saw nothing: its sticky bit is what was written */
			hvpmu_t1_count_get(id, rd(dev, id), !n, &c, &s);
			assert_int_equal(c, CTR_MAX);
			assert_int_equal(s, 1);
			/* software clears the sticky bit by writing 0 */
			wr(dev, id, 0);
			*delta = 0;
			assert_int_equal(hvpmu_t1_perfregs_count(dev, act, &j), 0);
			assert_int_equal(rd(dev, id), 0);
			*delta = 0;
			hvpmu_t1_perfregs_destroy(dev);
		}
}

/* --- raw-value helpers and busstat -------------------------------------- */

static void test_raw_helpers(void **state)
{
	uint64_t ctl;
	uint32_t c = 99;
	int s = 99;

	(void)state;
	/* codes go where the fields are */
	for (unsigned code = 0; code < HVPMU_T1_NCODES; code++) {
		ctl = 0;
		assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_DRAM_CTL0, &ctl, 0, code), HVPMU_OK);
		assert_int_equal(HVPMU_FEX(ctl, T1_DRAM_CTL, SEL0), code & 7);
		assert_int_equal(HVPMU_FEX(ctl, T1_DRAM_CTL, STOP0), code >> 3);
		assert_int_equal(ctl, (uint64_t)code << 4);
		ctl = 0;
		assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_DRAM_CTL3, &ctl, 1, code), HVPMU_OK);
		assert_int_equal(HVPMU_FEX(ctl, T1_DRAM_CTL, SEL1), code & 7);
		assert_int_equal(HVPMU_FEX(ctl, T1_DRAM_CTL, STOP1), code >> 3);
		assert_int_equal(ctl, code);
		ctl = 0;
		assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_JBUS_CTL, &ctl, 1, code), HVPMU_OK);
		assert_int_equal(HVPMU_FEX(ctl, T1_JBUS_CTL, SEL1), code);
		assert_int_equal(ctl, (uint64_t)code << 4);
		ctl = 0;
		assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_JBUS_CTL, &ctl, 0, code), HVPMU_OK);
		assert_int_equal(HVPMU_FEX(ctl, T1_JBUS_CTL, SEL0), code);
		assert_int_equal(ctl, code);
	}
	/* set_code replaces only its own half */
	ctl = 0xff;
	assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_JBUS_CTL, &ctl, 0, 0x2), HVPMU_OK);
	assert_int_equal(ctl, 0xf2);
	/* errors */
	ctl = 0x12;
	assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_JBUS_COUNT, &ctl, 0, 1), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_JBUS_CTL, &ctl, 2, 1), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_JBUS_CTL, &ctl, 0, HVPMU_T1_NCODES), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_NPERFREGS, &ctl, 0, 1), HVPMU_ERANGE);
	assert_int_equal(ctl, 0x12);
	assert_int_equal(hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_JBUS_CTL, NULL, 0, 1), HVPMU_EINVAL);
	assert_int_equal(hvpmu_t1_ctl_code(HVPMU_T1_PERFREG_DRAM_COUNT0, 0, 0), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_ctl_code(HVPMU_T1_PERFREG_DRAM_CTL0, 0, 2), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_ctl_code(HVPMU_T1_NPERFREGS, 0, 0), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_count_get(HVPMU_T1_PERFREG_DRAM_CTL0, 0, 0, &c, &s), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_count_get(HVPMU_T1_PERFREG_DRAM_COUNT0, 0, 2, &c, &s), HVPMU_ERANGE);
	assert_int_equal(hvpmu_t1_count_get(HVPMU_T1_NPERFREGS, 0, 0, &c, &s), HVPMU_ERANGE);
	assert_int_equal(c, 99);
	assert_int_equal(s, 99);
	assert_int_equal(hvpmu_t1_count_get(HVPMU_T1_PERFREG_DRAM_COUNT0, ALL_ONES, 0, NULL, NULL), HVPMU_OK);
	/* busstat pic0 = upper half: DRAM counter0, JBUS counter1 */
	for (unsigned id = 0; id < HVPMU_T1_NPERFREGS; id++) {
		int jbus = id <= HVPMU_T1_PERFREG_JBUS_COUNT;

		assert_int_equal(hvpmu_t1_pic_counter(id, 0), jbus ? 1 : 0);
		assert_int_equal(hvpmu_t1_pic_counter(id, 1), jbus ? 0 : 1);
		assert_int_equal(hvpmu_t1_pic_counter(id, 2), HVPMU_ERANGE);
	}
	assert_int_equal(hvpmu_t1_pic_counter(HVPMU_T1_NPERFREGS, 0), HVPMU_ERANGE);
	/* and pic0's code is in bits 7:4, its value in 62:32, on both units */
	for (unsigned id = 0; id < HVPMU_T1_NPERFREGS; id += 2) {
		int n0 = hvpmu_t1_pic_counter(id, 0);

		ctl = 0;
		assert_int_equal(hvpmu_t1_ctl_set_code(id, &ctl, (unsigned)n0, 0x5), HVPMU_OK);
		assert_int_equal(ctl, 0x50);
		assert_int_equal(hvpmu_t1_count_get(id + 1, UINT64_C(0x0000002a00000000), (unsigned)n0, &c, &s),
				 HVPMU_OK);
		assert_int_equal(c, 0x2a);
	}
}

static void test_names(void **state)
{
	static const char *const dram[] = {
		"mem_reads", "mem_writes", "mem_read_write", "bank_busy_stalls",
		"rd_queue_latency", "wr_queue_latency", "rw_queue_latency", "wb_buf_hits",
	};
	static const struct {
		const char *name;
		unsigned code;
	} jbus[] = {
		{ "jbus_cycles", 0x1 }, { "dma_reads", 0x2 }, { "dma_read_latency", 0x3 },
		{ "dma_writes", 0x4 }, { "dma_write8", 0x5 }, { "ordering_waits", 0x6 },
		{ "pio_reads", 0x8 }, { "pio_read_latency", 0x9 }, { "pio_writes", 0xa },
		{ "aok_dok_off_cycles", 0xc }, { "aok_off_cycles", 0xd }, { "dok_off_cycles", 0xe },
		{ "clear_pic", 0xf },
	};
	unsigned named = 0;

	(void)state;
	for (unsigned i = 0; i < HVPMU_T1_DRAM_NSEL; i++) {
		assert_string_equal(hvpmu_t1_dram_event_name(i), dram[i]);
		assert_int_equal(hvpmu_t1_dram_event_by_name(dram[i]), (int)i);
	}
	assert_string_equal(hvpmu_t1_dram_event_name(HVPMU_T1_CODE_CLEAR_PIC), "clear_pic");
	assert_int_equal(hvpmu_t1_dram_event_by_name("clear_pic"), 0xf);
	for (unsigned code = HVPMU_T1_DRAM_NSEL; code < HVPMU_T1_CODE_CLEAR_PIC; code++)
		assert_null(hvpmu_t1_dram_event_name(code)); /* stopped, unnamed */
	assert_null(hvpmu_t1_dram_event_name(HVPMU_T1_NCODES));
	assert_null(hvpmu_t1_dram_event_name(~0u));

	for (size_t i = 0; i < sizeof(jbus) / sizeof(jbus[0]); i++) {
		assert_string_equal(hvpmu_t1_jbus_event_name(jbus[i].code), jbus[i].name);
		assert_int_equal(hvpmu_t1_jbus_event_by_name(jbus[i].name), (int)jbus[i].code);
	}
	for (unsigned code = 0; code < HVPMU_T1_NCODES; code++)
		named += hvpmu_t1_jbus_event_name(code) != NULL;
	assert_int_equal(named, sizeof(jbus) / sizeof(jbus[0]));
	assert_null(hvpmu_t1_jbus_event_name(HVPMU_T1_JBUS_SEL_OFF));
	assert_null(hvpmu_t1_jbus_event_name(0x7));
	assert_null(hvpmu_t1_jbus_event_name(0xb));
	assert_null(hvpmu_t1_jbus_event_name(HVPMU_T1_NCODES));

	/* the two tables do not mix, unknown and NULL names */
	assert_int_equal(hvpmu_t1_dram_event_by_name("jbus_cycles"), -1);
	assert_int_equal(hvpmu_t1_jbus_event_by_name("mem_reads"), -1);
	assert_int_equal(hvpmu_t1_dram_event_by_name("read_all_channels"), -1); /* T4 only */
	assert_int_equal(hvpmu_t1_dram_event_by_name(""), -1);
	assert_int_equal(hvpmu_t1_dram_event_by_name(NULL), -1);
	assert_int_equal(hvpmu_t1_jbus_event_by_name("off"), -1);
	assert_int_equal(hvpmu_t1_jbus_event_by_name(NULL), -1);
	assert_int_equal(hvpmu_t1_dram_event_by_name("MEM_READS"), -1);
}

/* busstat -w dram0,pic0=mem_reads,pic1=mem_writes and
 * -w jbus0,pic0=dma_reads,pic1=pio_writes, end to end through the names. */
static void test_busstat_roundtrip(void **state)
{
	struct hvpmu_t1_perfregs *dev = new_dev();
	struct hvpmu_t1_dram_activity act[HVPMU_T1_DRAM_CHANNELS];
	struct hvpmu_t1_jbus_activity j;
	uint64_t ctl = 0;
	uint32_t c;

	(void)state;
	for (unsigned ch = 0; ch < HVPMU_T1_DRAM_CHANNELS; ch++)
		distinct_dram(&act[ch], ch);
	distinct_jbus(&j);
	hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_DRAM_CTL0, &ctl, (unsigned)hvpmu_t1_pic_counter(2, 0),
			      (unsigned)hvpmu_t1_dram_event_by_name("mem_reads"));
	hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_DRAM_CTL0, &ctl, (unsigned)hvpmu_t1_pic_counter(2, 1),
			      (unsigned)hvpmu_t1_dram_event_by_name("mem_writes"));
	assert_int_equal(ctl, 0x01); /* Solaris: pic0 sel shift 4, pic1 sel shift 0 */
	wr(dev, HVPMU_T1_PERFREG_DRAM_CTL0, ctl);
	ctl = 0;
	hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_JBUS_CTL, &ctl, (unsigned)hvpmu_t1_pic_counter(0, 0),
			      (unsigned)hvpmu_t1_jbus_event_by_name("dma_reads"));
	hvpmu_t1_ctl_set_code(HVPMU_T1_PERFREG_JBUS_CTL, &ctl, (unsigned)hvpmu_t1_pic_counter(0, 1),
			      (unsigned)hvpmu_t1_jbus_event_by_name("pio_writes"));
	assert_int_equal(ctl, 0x2a);
	wr(dev, HVPMU_T1_PERFREG_JBUS_CTL, ctl);
	hvpmu_t1_perfregs_count(dev, act, &j);
	/* pic0 value = bits 62:32 (Solaris value shift 32), pic1 = bits 30:0 */
	assert_int_equal((rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT0) >> 32) & CTR_MAX, act[0].reads);
	assert_int_equal(rd(dev, HVPMU_T1_PERFREG_DRAM_COUNT0) & CTR_MAX, act[0].writes);
	assert_int_equal((rd(dev, HVPMU_T1_PERFREG_JBUS_COUNT) >> 32) & CTR_MAX, j.dma_reads);
	assert_int_equal(rd(dev, HVPMU_T1_PERFREG_JBUS_COUNT) & CTR_MAX, j.pio_writes);
	hvpmu_t1_count_get(HVPMU_T1_PERFREG_JBUS_COUNT, rd(dev, HVPMU_T1_PERFREG_JBUS_COUNT),
			   (unsigned)hvpmu_t1_pic_counter(HVPMU_T1_PERFREG_JBUS_COUNT, 0), &c, NULL);
	assert_int_equal(c, j.dma_reads);
	hvpmu_t1_perfregs_destroy(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_layout),
		cmocka_unit_test(test_event_codes),
		cmocka_unit_test(test_perfreg_numbering),
		cmocka_unit_test(test_reset_and_range),
		cmocka_unit_test(test_registers_distinct),
		cmocka_unit_test(test_ctl_mask_and_fields),
		cmocka_unit_test(test_count_loaded_whole),
		cmocka_unit_test(test_dram_every_select),
		cmocka_unit_test(test_dram_channels),
		cmocka_unit_test(test_dram_stop_bits),
		cmocka_unit_test(test_jbus_every_select),
		cmocka_unit_test(test_wrap_and_sticky),
		cmocka_unit_test(test_raw_helpers),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_busstat_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
