/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SPARC T4 memory-controller (MCU) DRAM performance counters:
 * sparc-t4-performance-instrumentation.md §10.5, TABLE 10-4
 * (DRAM_PERF_CTL_REG), TABLE 10-5 (DRAM_PERF_COUNT01_REG), TABLE 10-6
 * (DRAM_PERF_COUNT23_REG), TABLE 10-7 (select codes).
 * Register fields: hvpmu/t4_regs.h.  Semantics: hvpmu/t4_mcu.h.
 */
#include <string.h>
#include <stdlib.h>
#include <hvpmu/hvpmu.h>
#include "counter31.h"

/* The four counters share one width (TABLE 10-5, 10-6). */
_Static_assert((int)T4_DRAM_COUNT01_COUNTER0_LEN == (int)T4_DRAM_COUNT01_COUNTER1_LEN &&
		       (int)T4_DRAM_COUNT01_COUNTER0_LEN == (int)T4_DRAM_COUNT23_COUNTER2_LEN &&
		       (int)T4_DRAM_COUNT01_COUNTER0_LEN == (int)T4_DRAM_COUNT23_COUNTER3_LEN,
	       "DRAM counters have one width");

_Static_assert((int)T4_DRAM_COUNT01_COUNTER0_LEN == CTR31_BITS &&
		       HVPMU_T4_DRAM_COUNTER_WRAP == CTR31_WRAP, "31-bit counters (counter31.h)");

/* Where counter n lives: its register, counter field and sticky bit
 * (TABLE 10-5: counter0 is the high half of COUNT01; TABLE 10-6: counter3
 * the high half of COUNT23), and its select field (TABLE 10-4). */
static const struct {
	uint8_t reg;
	struct ctr31_place place;
	uint8_t sel_shift;
} ctr[HVPMU_T4_MCU_NCOUNTERS] = {
	{ HVPMU_T4_MCU_COUNT01, { T4_DRAM_COUNT01_COUNTER0_SHIFT, T4_DRAM_COUNT01_STICKY0_SHIFT }, T4_DRAM_CTL_SEL0_SHIFT },
	{ HVPMU_T4_MCU_COUNT01, { T4_DRAM_COUNT01_COUNTER1_SHIFT, T4_DRAM_COUNT01_STICKY1_SHIFT }, T4_DRAM_CTL_SEL1_SHIFT },
	{ HVPMU_T4_MCU_COUNT23, { T4_DRAM_COUNT23_COUNTER2_SHIFT, T4_DRAM_COUNT23_STICKY2_SHIFT }, T4_DRAM_CTL_SEL2_SHIFT },
	{ HVPMU_T4_MCU_COUNT23, { T4_DRAM_COUNT23_COUNTER3_SHIFT, T4_DRAM_COUNT23_STICKY3_SHIFT }, T4_DRAM_CTL_SEL3_SHIFT },
};

#define SEL_MASK ((UINT64_C(1) << T4_DRAM_CTL_SEL0_LEN) - 1)

struct hvpmu_t4_mcu {
	uint64_t ctl;                             /* bits 15:0 of DRAM_PERF_CTL_REG */
	struct ctr31 counter[HVPMU_T4_MCU_NCOUNTERS];
};

struct hvpmu_t4_mcu *hvpmu_t4_mcu_create(void)
{
	return calloc(1, sizeof(struct hvpmu_t4_mcu));
}

void hvpmu_t4_mcu_destroy(struct hvpmu_t4_mcu *mcu)
{
	free(mcu);
}

int hvpmu_t4_mcu_read(const struct hvpmu_t4_mcu *mcu, unsigned reg, uint64_t *val)
{
	uint64_t v = 0;

	if (reg >= HVPMU_T4_MCU_NREGS)
		return HVPMU_ERANGE;
	if (reg == HVPMU_T4_MCU_CTL) {
		*val = mcu->ctl;
		return HVPMU_OK;
	}
	for (unsigned n = 0; n < HVPMU_T4_MCU_NCOUNTERS; n++)
		if (ctr[n].reg == reg)
			v |= ctr31_pack(&mcu->counter[n], &ctr[n].place);
	*val = v;
	return HVPMU_OK;
}

int hvpmu_t4_mcu_write(struct hvpmu_t4_mcu *mcu, unsigned reg, uint64_t val)
{
	if (reg >= HVPMU_T4_MCU_NREGS)
		return HVPMU_ERANGE;
	if (reg == HVPMU_T4_MCU_CTL) {
		mcu->ctl = val & HVPMU_T4_DRAM_CTL_IMPL_MASK; /* 63:16 reserved */
		return HVPMU_OK;
	}
	for (unsigned n = 0; n < HVPMU_T4_MCU_NCOUNTERS; n++)
		if (ctr[n].reg == reg)
			ctr31_load(&mcu->counter[n], &ctr[n].place, val);
	return HVPMU_OK;
}

static uint64_t sum_ports(const uint64_t *v)
{
	uint64_t s = 0;

	for (unsigned p = 0; p < HVPMU_T4_MCU_NPORTS; p++)
		s += v[p];
	return s;
}

uint64_t hvpmu_t4_mcu_events(const struct hvpmu_t4_mcu_activity *a, unsigned sel, unsigned port)
{
	if (port >= HVPMU_T4_MCU_NPORTS)
		return 0;
	switch (sel) {
	case HVPMU_T4_DRAM_SEL_READS: return a->reads[port];
	case HVPMU_T4_DRAM_SEL_WRITES: return a->writes[port];
	case HVPMU_T4_DRAM_SEL_READS_WRITES: return a->reads[port] + a->writes[port];
	case HVPMU_T4_DRAM_SEL_BANK_BUSY: return a->bank_busy_cycles;
	case HVPMU_T4_DRAM_SEL_RD_QUEUE_LAT: return a->rd_queue_cycles[port];
	case HVPMU_T4_DRAM_SEL_WR_QUEUE_LAT: return a->wr_queue_cycles[port];
	case HVPMU_T4_DRAM_SEL_RW_QUEUE_LAT: return a->rd_queue_cycles[port] + a->wr_queue_cycles[port];
	case HVPMU_T4_DRAM_SEL_WB_HITS: return a->wb_hits[port];
	case HVPMU_T4_DRAM_SEL_READ_ALL: return sum_ports(a->reads);
	case HVPMU_T4_DRAM_SEL_WRITE_STARVED: return a->write_starved[port];
	case HVPMU_T4_DRAM_SEL_WRITE_ALL: return sum_ports(a->writes);
	case HVPMU_T4_DRAM_SEL_CHANNEL0: return a->channel_issued[0];
	case HVPMU_T4_DRAM_SEL_CHANNEL1: return a->channel_issued[1];
	default: return 0; /* 0xD-0xF reserved */
	}
}

uint32_t hvpmu_t4_mcu_count(struct hvpmu_t4_mcu *mcu, const struct hvpmu_t4_mcu_activity *a)
{
	uint32_t wrapped = 0;

	for (unsigned n = 0; n < HVPMU_T4_MCU_NCOUNTERS; n++) {
		unsigned sel = (unsigned)((mcu->ctl >> ctr[n].sel_shift) & SEL_MASK);

		if (ctr31_add(&mcu->counter[n], hvpmu_t4_mcu_events(a, sel, n)))
			wrapped |= 1u << n;
	}
	return wrapped;
}

uint32_t hvpmu_t4_mcu_peek_counter(const struct hvpmu_t4_mcu *mcu, unsigned n)
{
	return n < HVPMU_T4_MCU_NCOUNTERS ? mcu->counter[n].value : 0;
}

int hvpmu_t4_mcu_peek_sticky(const struct hvpmu_t4_mcu *mcu, unsigned n)
{
	return n < HVPMU_T4_MCU_NCOUNTERS ? mcu->counter[n].sticky : 0;
}

/*
 * Names of the TABLE 10-7 select codes as busstat shows them: Solaris's
 * Niagara DRAM names for codes 0-7 (mem_reads ... wb_buf_hits,
 * ../shared/reference/anchors.md §4.3) and its KT/VT names for 8-0xC
 * (hw-and-hypervisor.md §4); docs/cli.md.
 */
static const char *const dram_sel_names[HVPMU_T4_DRAM_NSEL] = {
	[HVPMU_T4_DRAM_SEL_READS] = "mem_reads",
	[HVPMU_T4_DRAM_SEL_WRITES] = "mem_writes",
	[HVPMU_T4_DRAM_SEL_READS_WRITES] = "mem_read_write",
	[HVPMU_T4_DRAM_SEL_BANK_BUSY] = "bank_busy_stalls",
	[HVPMU_T4_DRAM_SEL_RD_QUEUE_LAT] = "rd_queue_latency",
	[HVPMU_T4_DRAM_SEL_WR_QUEUE_LAT] = "wr_queue_latency",
	[HVPMU_T4_DRAM_SEL_RW_QUEUE_LAT] = "rw_queue_latency",
	[HVPMU_T4_DRAM_SEL_WB_HITS] = "wb_buf_hits",
	[HVPMU_T4_DRAM_SEL_READ_ALL] = "read_all_channels",
	[HVPMU_T4_DRAM_SEL_WRITE_STARVED] = "write_starved",
	[HVPMU_T4_DRAM_SEL_WRITE_ALL] = "write_all_channels",
	[HVPMU_T4_DRAM_SEL_CHANNEL0] = "read_write_channel0",
	[HVPMU_T4_DRAM_SEL_CHANNEL1] = "read_write_channel1",
};

const char *hvpmu_t4_dram_sel_name(unsigned sel)
{
	return sel < HVPMU_T4_DRAM_NSEL ? dram_sel_names[sel] : NULL;
}

int hvpmu_t4_dram_sel_by_name(const char *name)
{
	for (unsigned i = 0; name && i < HVPMU_T4_DRAM_NSEL; i++)
		if (dram_sel_names[i] && strcmp(dram_sel_names[i], name) == 0)
			return (int)i;
	return -1;
}

/* ---- the machine's interface (hvpmu/pmu.h) ---- */

static void *ops_create(void) { return hvpmu_t4_mcu_create(); }
static void ops_destroy(void *d) { hvpmu_t4_mcu_destroy(d); }
static int ops_read(const void *d, unsigned reg, uint64_t *val) { return hvpmu_t4_mcu_read(d, reg, val); }
static int ops_write(void *d, unsigned reg, uint64_t val) { return hvpmu_t4_mcu_write(d, reg, val); }

const struct hvpmu_uncore_ops hvpmu_t4_mcu_ops = {
	.kind = HVPMU_DEV_T4_MCU,
	.name = "t4-mcu",
	.nregs = HVPMU_T4_MCU_NREGS,
	.create = ops_create,
	.destroy = ops_destroy,
	.read = ops_read,
	.write = ops_write,
};
