/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UltraSPARC T1 chip-wide DRAM and JBUS performance registers, the ten
 * PerfRegs of niagara-perf-api.txt §3.1 (§2.2 DRAM, §2.3 JBUS):
 * ../shared/reference/hw-and-hypervisor.md §1.2 (id -> address -> write
 * mask), §3.3 (DRAM control/counter fields, stop bits, event codes), §3.4
 * (JBUS control/counter fields, event codes); busstat names from
 * anchors.md §4.3 (Solaris niagara_perfctr.c).
 * Register fields: hvpmu/t1_regs.h.  Semantics: hvpmu/t1_perfregs.h.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "counter31.h"
#include <hvpmu/t1_perfregs.h>

/* The units behind the PerfRegs: unit u owns ids 2u (control) and 2u + 1
 * (counter); unit 0 is the JBI, unit 1 + k DRAM channel k (§3.1). */
#define UNIT_JBUS 0
#define UNIT_DRAM0 (HVPMU_T1_PERFREG_DRAM_CTL0 / HVPMU_T1_PERFREGS_PER_UNIT)
#define NUNITS (HVPMU_T1_NPERFREGS / HVPMU_T1_PERFREGS_PER_UNIT)
#define UNIT_OF(id) ((id) / HVPMU_T1_PERFREGS_PER_UNIT)

_Static_assert(HVPMU_T1_PERFREG_JBUS_CTL % HVPMU_T1_PERFREGS_PER_UNIT == 0 &&
		       UNIT_OF(HVPMU_T1_PERFREG_JBUS_COUNT) == UNIT_JBUS &&
		       UNIT_OF(HVPMU_T1_PERFREG_DRAM_CTL3) == UNIT_DRAM0 + HVPMU_T1_DRAM_CHANNELS - 1 &&
		       NUNITS == 1 + HVPMU_T1_DRAM_CHANNELS,
	       "§3.1 numbering: control then counter, JBUS first, then DRAM channels 0-3");

/* All four counters share one width (§3.3, §3.4). */
_Static_assert((int)T1_DRAM_COUNT_COUNTER0_LEN == (int)T1_DRAM_COUNT_COUNTER1_LEN &&
		       (int)T1_DRAM_COUNT_COUNTER0_LEN == (int)T1_JBUS_COUNT_COUNTER0_LEN &&
		       (int)T1_DRAM_COUNT_COUNTER0_LEN == (int)T1_JBUS_COUNT_COUNTER1_LEN,
	       "T1 perf counters have one width");

/* The §1.2 control write mask covers exactly the fields of both units. */
_Static_assert(HVPMU_T1_PERF_CTL_WRITE_MASK ==
		       (HVPMU_FMASK(T1_DRAM_CTL, SEL0) | HVPMU_FMASK(T1_DRAM_CTL, STOP0) |
			HVPMU_FMASK(T1_DRAM_CTL, SEL1) | HVPMU_FMASK(T1_DRAM_CTL, STOP1)),
	       "DRAM control fields = write mask");
_Static_assert(HVPMU_T1_PERF_CTL_WRITE_MASK ==
		       (HVPMU_FMASK(T1_JBUS_CTL, SEL0) | HVPMU_FMASK(T1_JBUS_CTL, SEL1)),
	       "JBUS control fields = write mask");

/* A DRAM code is {stop, select} with the stop bit right above the select,
 * as wide as a JBUS select: one 4-bit code per counter on both units. */
_Static_assert((int)T1_DRAM_CTL_STOP0_SHIFT == (int)T1_DRAM_CTL_SEL0_SHIFT + (int)T1_DRAM_CTL_SEL0_LEN &&
		       (int)T1_DRAM_CTL_STOP1_SHIFT == (int)T1_DRAM_CTL_SEL1_SHIFT + (int)T1_DRAM_CTL_SEL1_LEN &&
		       (1 << ((int)T1_DRAM_CTL_SEL0_LEN + (int)T1_DRAM_CTL_STOP0_LEN)) == HVPMU_T1_NCODES &&
		       (1 << (int)T1_JBUS_CTL_SEL0_LEN) == HVPMU_T1_NCODES &&
		       (1 << (int)T1_JBUS_CTL_SEL1_LEN) == HVPMU_T1_NCODES &&
		       (1 << (int)T1_DRAM_CTL_SEL0_LEN) == HVPMU_T1_DRAM_NSEL &&
		       (1 << (int)T1_DRAM_CTL_SEL1_LEN) == HVPMU_T1_DRAM_NSEL,
	       "4-bit per-counter codes");

#define NO_STOP 0xff /* a JBUS counter has no stop bit */

/* Where hardware counter n of a unit lives: its select (and stop bit) in
 * the control register, its count and sticky bit in the counter register. */
struct counter_layout {
	uint8_t sel_shift;
	uint8_t sel_len;
	uint8_t stop_shift;
	struct ctr31_place place;
};

/* §3.3: DRAM counter0 = select 6:4, stop 7, count 62:32, sticky 63;
 *       DRAM counter1 = select 2:0, stop 3, count 30:0, sticky 31. */
static const struct counter_layout dram_layout[HVPMU_T1_NCOUNTERS] = {
	{ T1_DRAM_CTL_SEL0_SHIFT, T1_DRAM_CTL_SEL0_LEN, T1_DRAM_CTL_STOP0_SHIFT,
	  { T1_DRAM_COUNT_COUNTER0_SHIFT, T1_DRAM_COUNT_STICKY0_SHIFT } },
	{ T1_DRAM_CTL_SEL1_SHIFT, T1_DRAM_CTL_SEL1_LEN, T1_DRAM_CTL_STOP1_SHIFT,
	  { T1_DRAM_COUNT_COUNTER1_SHIFT, T1_DRAM_COUNT_STICKY1_SHIFT } },
};

/* §3.4: JBUS counter0 = select 3:0, count 30:0, sticky 31;
 *       JBUS counter1 = select 7:4, count 62:32, sticky 63. */
static const struct counter_layout jbus_layout[HVPMU_T1_NCOUNTERS] = {
	{ T1_JBUS_CTL_SEL0_SHIFT, T1_JBUS_CTL_SEL0_LEN, NO_STOP,
	  { T1_JBUS_COUNT_COUNTER0_SHIFT, T1_JBUS_COUNT_STICKY0_SHIFT } },
	{ T1_JBUS_CTL_SEL1_SHIFT, T1_JBUS_CTL_SEL1_LEN, NO_STOP,
	  { T1_JBUS_COUNT_COUNTER1_SHIFT, T1_JBUS_COUNT_STICKY1_SHIFT } },
};

_Static_assert(HVPMU_T1_PERF_COUNTER_WRAP == CTR31_WRAP, "31-bit counters (counter31.h)");
#define CODE_MASK ((uint64_t)HVPMU_T1_NCODES - 1)

static const struct counter_layout *layout_of(unsigned unit)
{
	return unit == UNIT_JBUS ? jbus_layout : dram_layout;
}

struct hvpmu_t1_perfregs {
	uint64_t ctl[NUNITS];                          /* the 8 bits of each control register */
	struct ctr31 counter[NUNITS][HVPMU_T1_NCOUNTERS]; /* hardware numbering */
};

struct hvpmu_t1_perfregs *hvpmu_t1_perfregs_create(void)
{
	return calloc(1, sizeof(struct hvpmu_t1_perfregs));
}

void hvpmu_t1_perfregs_destroy(struct hvpmu_t1_perfregs *dev)
{
	free(dev);
}

int hvpmu_t1_perfreg_is_ctl(unsigned id)
{
	return id < HVPMU_T1_NPERFREGS && id % HVPMU_T1_PERFREGS_PER_UNIT == HVPMU_T1_PERFREG_JBUS_CTL;
}

int hvpmu_t1_perfreg_is_count(unsigned id)
{
	return id < HVPMU_T1_NPERFREGS && id % HVPMU_T1_PERFREGS_PER_UNIT == HVPMU_T1_PERFREG_JBUS_COUNT;
}

uint64_t hvpmu_t1_perfreg_pa(unsigned id)
{
	unsigned unit = UNIT_OF(id);

	if (id >= HVPMU_T1_NPERFREGS)
		return 0;
	if (unit == UNIT_JBUS)
		return hvpmu_t1_perfreg_is_ctl(id) ? HVPMU_T1_JBUS_PERF_CTL_PA : HVPMU_T1_JBUS_PERF_COUNT_PA;
	return (hvpmu_t1_perfreg_is_ctl(id) ? HVPMU_T1_DRAM_PERF_CTL_PA : HVPMU_T1_DRAM_PERF_COUNT_PA) +
	       (uint64_t)(unit - UNIT_DRAM0) * HVPMU_T1_DRAM_PA_STEP;
}

uint64_t hvpmu_t1_perfreg_write_mask(unsigned id)
{
	if (id >= HVPMU_T1_NPERFREGS)
		return 0;
	return hvpmu_t1_perfreg_is_ctl(id) ? HVPMU_T1_PERF_CTL_WRITE_MASK : HVPMU_T1_PERF_COUNT_WRITE_MASK;
}

static uint64_t pack_count(const struct counter_layout *l, const struct ctr31 *counter)
{
	uint64_t v = 0;

	for (unsigned n = 0; n < HVPMU_T1_NCOUNTERS; n++)
		v |= ctr31_pack(&counter[n], &l[n].place);
	return v;
}

int hvpmu_t1_perfregs_read(const struct hvpmu_t1_perfregs *dev, unsigned id, uint64_t *val)
{
	unsigned unit = UNIT_OF(id);

	if (id >= HVPMU_T1_NPERFREGS)
		return HVPMU_ERANGE;
	if (!val)
		return HVPMU_EINVAL;
	if (hvpmu_t1_perfreg_is_ctl(id))
		*val = dev->ctl[unit];
	else
		*val = pack_count(layout_of(unit), dev->counter[unit]);
	return HVPMU_OK;
}

int hvpmu_t1_perfregs_write(struct hvpmu_t1_perfregs *dev, unsigned id, uint64_t val)
{
	unsigned unit = UNIT_OF(id);
	const struct counter_layout *l = layout_of(unit);

	if (id >= HVPMU_T1_NPERFREGS)
		return HVPMU_ERANGE;
	val &= hvpmu_t1_perfreg_write_mask(id);
	if (hvpmu_t1_perfreg_is_ctl(id)) {
		dev->ctl[unit] = val;
		return HVPMU_OK;
	}
	for (unsigned n = 0; n < HVPMU_T1_NCOUNTERS; n++)
		ctr31_load(&dev->counter[unit][n], &l[n].place, val);
	return HVPMU_OK;
}

uint64_t hvpmu_t1_dram_events(const struct hvpmu_t1_dram_activity *a, unsigned sel)
{
	switch (sel) {
	case HVPMU_T1_DRAM_SEL_MEM_READS: return a->reads;
	case HVPMU_T1_DRAM_SEL_MEM_WRITES: return a->writes;
	case HVPMU_T1_DRAM_SEL_MEM_READ_WRITE: return a->reads + a->writes;
	case HVPMU_T1_DRAM_SEL_BANK_BUSY_STALLS: return a->bank_busy_cycles;
	case HVPMU_T1_DRAM_SEL_RD_QUEUE_LATENCY: return a->rd_queue_cycles;
	case HVPMU_T1_DRAM_SEL_WR_QUEUE_LATENCY: return a->wr_queue_cycles;
	case HVPMU_T1_DRAM_SEL_RW_QUEUE_LATENCY: return a->rd_queue_cycles + a->wr_queue_cycles;
	case HVPMU_T1_DRAM_SEL_WB_BUF_HITS: return a->wb_hits;
	default: return 0; /* not a 3-bit select */
	}
}

uint64_t hvpmu_t1_jbus_events(const struct hvpmu_t1_jbus_activity *a, unsigned sel)
{
	switch (sel) {
	case HVPMU_T1_JBUS_SEL_CYCLES: return a->cycles;
	case HVPMU_T1_JBUS_SEL_DMA_READS: return a->dma_reads;
	case HVPMU_T1_JBUS_SEL_DMA_READ_LATENCY: return a->dma_read_latency;
	case HVPMU_T1_JBUS_SEL_DMA_WRITES: return a->dma_writes;
	case HVPMU_T1_JBUS_SEL_DMA_WR8: return a->dma_wr8;
	case HVPMU_T1_JBUS_SEL_ORDERING_WAITS: return a->ordering_waits;
	case HVPMU_T1_JBUS_SEL_PIO_READS: return a->pio_reads;
	case HVPMU_T1_JBUS_SEL_PIO_READ_LATENCY: return a->pio_read_latency;
	case HVPMU_T1_JBUS_SEL_PIO_WRITES: return a->pio_writes;
	case HVPMU_T1_JBUS_SEL_AOK_DOK_OFF: return a->aok_dok_off_cycles;
	case HVPMU_T1_JBUS_SEL_AOK_OFF: return a->aok_off_cycles;
	case HVPMU_T1_JBUS_SEL_DOK_OFF: return a->dok_off_cycles;
	default: return 0; /* 0 off; 7, 0xb, 0xf count nothing */
	}
}

uint32_t hvpmu_t1_perfregs_count(struct hvpmu_t1_perfregs *dev,
				 const struct hvpmu_t1_dram_activity act[HVPMU_T1_DRAM_CHANNELS],
				 const struct hvpmu_t1_jbus_activity *jbus)
{
	uint32_t wrapped = 0;

	for (unsigned n = 0; n < HVPMU_T1_NCOUNTERS; n++) {
		if (jbus) {
			unsigned sel = (unsigned)((dev->ctl[UNIT_JBUS] >> jbus_layout[n].sel_shift) &
						  ((1u << jbus_layout[n].sel_len) - 1));

			if (ctr31_add(&dev->counter[UNIT_JBUS][n], hvpmu_t1_jbus_events(jbus, sel)))
				wrapped |= HVPMU_T1_WRAP_BIT(HVPMU_T1_PERFREG_JBUS_COUNT, n);
		}
		for (unsigned ch = 0; act && ch < HVPMU_T1_DRAM_CHANNELS; ch++) {
			unsigned unit = UNIT_DRAM0 + ch;
			const struct counter_layout *l = &dram_layout[n];
			unsigned sel = (unsigned)((dev->ctl[unit] >> l->sel_shift) & ((1u << l->sel_len) - 1));

			if ((dev->ctl[unit] >> l->stop_shift) & 1)
				continue; /* §3.3: counts only while its stop bit is 0 */
			if (ctr31_add(&dev->counter[unit][n], hvpmu_t1_dram_events(&act[ch], sel)))
				wrapped |= HVPMU_T1_WRAP_BIT(HVPMU_T1_PERFREG_DRAM_COUNT(ch), n);
		}
	}
	return wrapped;
}

/* The code of counter n sits at its select's shift: 4 bits (a DRAM select
 * and its stop bit, or a JBUS select; static assertions above). */
int hvpmu_t1_ctl_code(unsigned id, uint64_t ctl, unsigned n)
{
	if (!hvpmu_t1_perfreg_is_ctl(id) || n >= HVPMU_T1_NCOUNTERS)
		return HVPMU_ERANGE;
	return (int)((ctl >> layout_of(UNIT_OF(id))[n].sel_shift) & CODE_MASK);
}

int hvpmu_t1_ctl_set_code(unsigned id, uint64_t *ctl, unsigned n, unsigned code)
{
	unsigned shift;

	if (!hvpmu_t1_perfreg_is_ctl(id) || n >= HVPMU_T1_NCOUNTERS || code >= HVPMU_T1_NCODES)
		return HVPMU_ERANGE;
	if (!ctl)
		return HVPMU_EINVAL;
	shift = layout_of(UNIT_OF(id))[n].sel_shift;
	*ctl = (*ctl & ~(CODE_MASK << shift)) | (uint64_t)code << shift;
	return HVPMU_OK;
}

int hvpmu_t1_count_get(unsigned id, uint64_t count, unsigned n, uint32_t *value, int *sticky)
{
	const struct counter_layout *l;

	if (!hvpmu_t1_perfreg_is_count(id) || n >= HVPMU_T1_NCOUNTERS)
		return HVPMU_ERANGE;
	l = &layout_of(UNIT_OF(id))[n];
	if (value)
		*value = (uint32_t)((count >> l->place.count_shift) & CTR31_MASK);
	if (sticky)
		*sticky = (int)((count >> l->place.sticky_shift) & 1);
	return HVPMU_OK;
}

/* busstat's pic0 is the counter in the upper half (Solaris select shift 4,
 * value shift 32), pic1 the lower one; found from the layout, not assumed. */
int hvpmu_t1_pic_counter(unsigned id, unsigned pic)
{
	const struct counter_layout *l;
	unsigned upper;

	if (id >= HVPMU_T1_NPERFREGS || pic >= HVPMU_T1_NCOUNTERS)
		return HVPMU_ERANGE;
	l = layout_of(UNIT_OF(id));
	upper = l[1].place.count_shift > l[0].place.count_shift;
	return (int)(pic == 0 ? upper : !upper);
}

/* busstat names (Solaris niagara_perfctr.c niagara_dram_events /
 * niagara_jbus_events, anchors.md §4.3), indexed by 4-bit code. */
static const char *const dram_names[HVPMU_T1_NCODES] = {
	[HVPMU_T1_DRAM_SEL_MEM_READS] = "mem_reads",
	[HVPMU_T1_DRAM_SEL_MEM_WRITES] = "mem_writes",
	[HVPMU_T1_DRAM_SEL_MEM_READ_WRITE] = "mem_read_write",
	[HVPMU_T1_DRAM_SEL_BANK_BUSY_STALLS] = "bank_busy_stalls",
	[HVPMU_T1_DRAM_SEL_RD_QUEUE_LATENCY] = "rd_queue_latency",
	[HVPMU_T1_DRAM_SEL_WR_QUEUE_LATENCY] = "wr_queue_latency",
	[HVPMU_T1_DRAM_SEL_RW_QUEUE_LATENCY] = "rw_queue_latency",
	[HVPMU_T1_DRAM_SEL_WB_BUF_HITS] = "wb_buf_hits",
	[HVPMU_T1_CODE_CLEAR_PIC] = "clear_pic",
};

static const char *const jbus_names[HVPMU_T1_NCODES] = {
	[HVPMU_T1_JBUS_SEL_CYCLES] = "jbus_cycles",
	[HVPMU_T1_JBUS_SEL_DMA_READS] = "dma_reads",
	[HVPMU_T1_JBUS_SEL_DMA_READ_LATENCY] = "dma_read_latency",
	[HVPMU_T1_JBUS_SEL_DMA_WRITES] = "dma_writes",
	[HVPMU_T1_JBUS_SEL_DMA_WR8] = "dma_write8",
	[HVPMU_T1_JBUS_SEL_ORDERING_WAITS] = "ordering_waits",
	[HVPMU_T1_JBUS_SEL_PIO_READS] = "pio_reads",
	[HVPMU_T1_JBUS_SEL_PIO_READ_LATENCY] = "pio_read_latency",
	[HVPMU_T1_JBUS_SEL_PIO_WRITES] = "pio_writes", /* not in Solaris's table */
	[HVPMU_T1_JBUS_SEL_AOK_DOK_OFF] = "aok_dok_off_cycles",
	[HVPMU_T1_JBUS_SEL_AOK_OFF] = "aok_off_cycles",
	[HVPMU_T1_JBUS_SEL_DOK_OFF] = "dok_off_cycles",
	[HVPMU_T1_CODE_CLEAR_PIC] = "clear_pic",
};

static int by_name(const char *const *names, const char *name)
{
	for (unsigned i = 0; name && i < HVPMU_T1_NCODES; i++)
		if (names[i] && strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

const char *hvpmu_t1_dram_event_name(unsigned code)
{
	return code < HVPMU_T1_NCODES ? dram_names[code] : NULL;
}

int hvpmu_t1_dram_event_by_name(const char *name)
{
	return by_name(dram_names, name);
}

const char *hvpmu_t1_jbus_event_name(unsigned code)
{
	return code < HVPMU_T1_NCODES ? jbus_names[code] : NULL;
}

int hvpmu_t1_jbus_event_by_name(const char *name)
{
	return by_name(jbus_names, name);
}

/* ---- the machine's interface (hvpmu/pmu.h) ---- */

static void *ops_create(void) { return hvpmu_t1_perfregs_create(); }
static void ops_destroy(void *d) { hvpmu_t1_perfregs_destroy(d); }
static int ops_read(const void *d, unsigned reg, uint64_t *val) { return hvpmu_t1_perfregs_read(d, reg, val); }
static int ops_write(void *d, unsigned reg, uint64_t val) { return hvpmu_t1_perfregs_write(d, reg, val); }

const struct hvpmu_uncore_ops hvpmu_t1_perfregs_ops = {
	.kind = HVPMU_DEV_T1_PERFREGS,
	.name = "t1-perfregs",
	.nregs = HVPMU_T1_NPERFREGS,
	.create = ops_create,
	.destroy = ops_destroy,
	.read = ops_read,
	.write = ops_write,
};
