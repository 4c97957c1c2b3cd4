/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine model (layer 2), its register bus: the per-strand PMU device of
 * the platform behind one interface (struct hvpmu_pmu_ops, hvpmu/pmu.h),
 * register-access instructions routed to it in the strand's privilege
 * mode, and the chip-wide counter devices (struct hvpmu_uncore_ops: T4 MCU
 * DRAM counters, T1 DRAM and JBUS PerfRegs), each brought up to date with
 * the DRAM and JBUS activity before it is accessed.  Which devices a
 * platform has is its record's (platform.h: data, not branches).
 */
#include <stdlib.h>
#include <string.h>
#include "machine_internal.h"
#include "platform.h"

/* The per-strand PMU of a platform whose CPU counters are not modeled: no
 * counter, no register (every access HVPMU_ERANGE), nothing to count. */
static void *no_pmu_create(const uint32_t *class_flags)
{
	static char none;

	(void)class_flags;
	return &none;
}
static void no_pmu_destroy(void *pmu) { (void)pmu; }
static void no_pmu_changed(void *pmu) { (void)pmu; }
static void no_pmu_feed(void *pmu, const struct hvpmu_pmu_feed *f, struct hvpmu_pmu_feed_result *res)
{
	(void)pmu; (void)f;
	memset(res, 0, sizeof *res);
}
static void no_pmu_trap_taken(void *pmu) { (void)pmu; }
static uint64_t no_pmu_headroom(const void *pmu, uint64_t max_cycles_per_insn)
{
	(void)pmu; (void)max_cycles_per_insn;
	return UINT64_MAX;
}
static uint64_t no_pmu_mem_headroom(const void *pmu)
{
	(void)pmu;
	return UINT64_MAX;
}
static uint64_t no_pmu_mem_watch(const void *pmu)
{
	(void)pmu;
	return 0;
}
static int no_pmu_reg_read(void *pmu, enum hvpmu_reg_space sp, unsigned sel, uint64_t addr, enum hvpmu_mode mode,
			   uint64_t *val)
{
	(void)pmu; (void)sp; (void)sel; (void)addr; (void)mode; (void)val;
	return HVPMU_ERANGE;
}
static int no_pmu_reg_write(void *pmu, enum hvpmu_reg_space sp, unsigned sel, uint64_t addr, enum hvpmu_mode mode,
			    uint64_t val)
{
	(void)pmu; (void)sp; (void)sel; (void)addr; (void)mode; (void)val;
	return HVPMU_ERANGE;
}
static const struct hvpmu_pmu_ops machine_no_pmu_ops = {
	.name = "none", .npic = 0, .create = no_pmu_create, .destroy = no_pmu_destroy,
	.classes_changed = no_pmu_changed, .feed = no_pmu_feed, .trap_taken = no_pmu_trap_taken,
	.headroom = no_pmu_headroom, .mem_headroom = no_pmu_mem_headroom, .mem_watch = no_pmu_mem_watch, .reg_read = no_pmu_reg_read,
	.reg_write = no_pmu_reg_write,
};

const struct hvpmu_pmu_ops *machine_pmu_ops_of(enum hvpmu_platform p)
{
	const struct platform_rec *pr = platform_rec(p);

	if (!pr)
		return NULL;
	return pr->pmu ? pr->pmu : &machine_no_pmu_ops;
}

int machine_devices_create(struct hvpmu_machine *m)
{
	const struct platform_rec *pd = platform_of(&m->md);
	unsigned n = !pd->uncore ? 0 : pd->uncore_per_chip ? pd->uncore_per_chip * m->md.chips : 1;

	if (n == 0) /* no chip-wide device */
		return HVPMU_OK;
	m->dev = calloc(n, sizeof *m->dev);
	if (!m->dev)
		return HVPMU_ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		struct machine_device *d = &m->dev[i];

		d->ops = pd->uncore;
		d->unit = i;
		d->chip = pd->uncore_per_chip ? i / pd->uncore_per_chip : 0;
		if (!(d->dev = d->ops->create()))
			return HVPMU_ENOMEM;
		m->ndev++;
		if (d->ops->kind == HVPMU_DEV_T4_MCU)
			m->nmcu++;
		else if (d->ops->kind == HVPMU_DEV_T1_PERFREGS)
			m->jbus_dev = d;
		else if (d->ops->kind == HVPMU_DEV_CEC_STATS && hvpmu_cec_stats_configure(d->dev, &m->md.cec))
			return HVPMU_EINVAL; /* the description has no CEC, or not this machine's */
	}
	if (pd->uncore->kind == HVPMU_DEV_ORIGIN_MD &&
	    (!(m->hub_act = calloc(n, sizeof *m->hub_act)) || !(m->hub_cycles = calloc(n, sizeof *m->hub_cycles)) ||
	     od_init(&m->od, n, m->md.cores_per_chip * m->md.strands_per_core, m->md.clock_hz,
		     m->md.uncore_clock_hz ? m->md.uncore_clock_hz : m->md.clock_hz)))
		return HVPMU_ENOMEM;
	if (m->hub_act) { /* each CPU's directory events (the R10000's events 12, 13, 28-31) */
		m->od.cpu_event = machine_dir_event;
		m->od.cpu_event_ctx = m;
		m->fop_va = m->md.fetchop_va; /* the fetch-and-op region (memhier.c dref_fetchop) */
		m->fop_bytes = m->md.fetchop_bytes;
		m->od.mig_threshold = m->md.migration_threshold; /* 0: no migration */
	}
	return HVPMU_OK;
}

void machine_devices_destroy(struct hvpmu_machine *m)
{
	for (unsigned i = 0; m->dev && i < m->ndev; i++)
		m->dev[i].ops->destroy(m->dev[i].dev);
	free(m->dev);
	free(m->hub_act);
	free(m->hub_cycles);
	od_fini(&m->od);
}

/* ---- per-strand PMU registers ---- */

void *hvpmu_machine_pmu(struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? m->s[strand].pmu : NULL;
}

const struct hvpmu_pmu_ops *hvpmu_machine_pmu_ops(const struct hvpmu_machine *m) { return m->ops; }

int hvpmu_machine_reg_read(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_reg_space sp, unsigned sel,
			   uint64_t addr, uint64_t *val)
{
	struct strand *s;

	if (strand >= m->nstrands || !val)
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	return m->ops->reg_read(s->pmu, sp, sel, addr, s->mode, val);
}

int hvpmu_machine_reg_write(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_reg_space sp, unsigned sel,
			    uint64_t addr, uint64_t val)
{
	struct strand *s;
	int rc;

	if (strand >= m->nstrands)
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	rc = m->ops->reg_write(s->pmu, sp, sel, addr, s->mode, val);
	if (s->depth == 0) /* a PCR write changes what the PMU counts */
		machine_schedule(m, s);
	return rc;
}

int hvpmu_machine_ldxa(struct hvpmu_machine *m, uint32_t strand, unsigned asi, uint64_t va, uint64_t *val)
{
	return hvpmu_machine_reg_read(m, strand, HVPMU_REG_ASI, asi, va, val);
}

int hvpmu_machine_stxa(struct hvpmu_machine *m, uint32_t strand, unsigned asi, uint64_t va, uint64_t val)
{
	return hvpmu_machine_reg_write(m, strand, HVPMU_REG_ASI, asi, va, val);
}

int hvpmu_machine_rdasr(struct hvpmu_machine *m, uint32_t strand, unsigned asr, uint64_t *val)
{
	return hvpmu_machine_reg_read(m, strand, HVPMU_REG_ASR, asr, 0, val);
}

int hvpmu_machine_wrasr(struct hvpmu_machine *m, uint32_t strand, unsigned asr, uint64_t val)
{
	return hvpmu_machine_reg_write(m, strand, HVPMU_REG_ASR, asr, 0, val);
}

/* ---- chip-wide devices on the bus ---- */

/* A T4 MCU counts its DRAM model's activity (docs/dram-model.md). */
static void advance_t4_mcu(struct hvpmu_machine *m, struct machine_device *d)
{
	struct hvpmu_t4_mcu_activity act;

	dram_advance(&m->dram[d->unit], m->chip_now, &act);
	hvpmu_t4_mcu_count(d->dev, &act);
}

/* The T1 PerfRegs count the four DRAM channels' and the JBUS activity
 * (docs/t1-platform.md). */
static void advance_t1_perfregs(struct hvpmu_machine *m, struct machine_device *d)
{
	struct hvpmu_t1_dram_activity act[T1_DRAM_CHANNELS];

	memset(act, 0, sizeof act);
	for (unsigned ch = 0; ch < T1_DRAM_CHANNELS; ch++) {
		struct hvpmu_t4_mcu_activity a;

		dram_advance(&m->dram[ch], m->chip_now, &a);
		for (unsigned p = 0; p < HVPMU_T4_MCU_NPORTS; p++) {
			act[ch].reads += a.reads[p];
			act[ch].writes += a.writes[p];
			act[ch].rd_queue_cycles += a.rd_queue_cycles[p];
			act[ch].wr_queue_cycles += a.wr_queue_cycles[p];
			act[ch].wb_hits += a.wb_hits[p];
		}
		act[ch].bank_busy_cycles = a.bank_busy_cycles;
	}
	m->jbus.cycles = (m->chip_now - m->jbus_now) * JBUS_PER_CPU_NUM / JBUS_PER_CPU_DEN;
	m->jbus_now += m->jbus.cycles * JBUS_PER_CPU_DEN / JBUS_PER_CPU_NUM;
	hvpmu_t1_perfregs_count(d->dev, act, &m->jbus);
	memset(&m->jbus, 0, sizeof m->jbus);
}

/* An Origin Hub counts its node's MD activity: the events the memory
 * model reported, and for set 0 (hw-and-hypervisor.md §5.2: cycles of the
 * MD unit, in the Hub clock) the busy kinds it reported, the rest of the
 * Hub cycles elapsed since the last count being idle.  Elapsed time is
 * the furthest any strand has run (its %tick), in the Hub clock. */
static void advance_origin_md(struct hvpmu_machine *m, struct machine_device *d)
{
	struct hvpmu_origin_md_activity *act = &m->hub_act[d->unit];
	uint64_t *counted = &m->hub_cycles[d->unit];
	uint64_t now = 0, hub, elapsed, busy = 0;
	uint64_t hz = m->md.uncore_clock_hz ? m->md.uncore_clock_hz : m->md.clock_hz;

	for (uint32_t i = 0; i < m->nstrands; i++)
		if (tick_of(&m->s[i]) > now)
			now = tick_of(&m->s[i]);
	hub = m->md.clock_hz ? (uint64_t)((unsigned __int128)now * hz / m->md.clock_hz) : now;
	elapsed = hub > *counted ? hub - *counted : 0;
	*counted += elapsed;
	if (m->parts & HVPMU_PART_DRAM) /* DRAM refresh is part of the memory model */
		od_refresh(&m->od, d->unit, *counted, act);
	for (unsigned i = 0; i < HVPMU_HUBMD_PERF_COUNTERS; i++)
		if (i != HVPMU_HUBMD_MEM_IDLE)
			busy += act->ev[HVPMU_HUBMD_SET_MEM_CYCLES][i];
	act->ev[HVPMU_HUBMD_SET_MEM_CYCLES][HVPMU_HUBMD_MEM_IDLE] += elapsed > busy ? elapsed - busy : 0;
	hvpmu_origin_md_count(d->dev, act);
	memset(act, 0, sizeof *act);
}

/* The CEC statistics are fed by the hypervisor's dispatcher as it
 * accounts dispatch windows (hvpmu/cec_stats.h, docs/papr-gpci.md); a
 * bus access has nothing to bring up to date. */
static void advance_cec_stats(struct hvpmu_machine *m, struct machine_device *d)
{
	(void)m;
	(void)d;
}

static void (*const advance[HVPMU_NDEVICE_KINDS])(struct hvpmu_machine *m, struct machine_device *d) = {
	[HVPMU_DEV_T4_MCU] = advance_t4_mcu,
	[HVPMU_DEV_T1_PERFREGS] = advance_t1_perfregs,
	[HVPMU_DEV_ORIGIN_MD] = advance_origin_md,
	[HVPMU_DEV_CEC_STATS] = advance_cec_stats,
};

unsigned hvpmu_machine_ndevices(const struct hvpmu_machine *m) { return m->ndev; }
uint32_t hvpmu_machine_nmcu(const struct hvpmu_machine *m) { return m->nmcu; }

int hvpmu_machine_device(const struct hvpmu_machine *m, unsigned dev, struct hvpmu_device_info *out)
{
	const struct machine_device *d;

	if (dev >= m->ndev || !out)
		return HVPMU_ERANGE;
	d = &m->dev[dev];
	out->kind = d->ops->kind;
	out->name = d->ops->name;
	out->unit = d->unit;
	out->chip = d->chip;
	out->nregs = d->ops->nregs;
	return HVPMU_OK;
}

int hvpmu_machine_device_find(const struct hvpmu_machine *m, enum hvpmu_device_kind kind, unsigned unit)
{
	for (unsigned i = 0; i < m->ndev; i++)
		if (m->dev[i].ops->kind == kind && m->dev[i].unit == unit)
			return (int)i;
	return HVPMU_ERANGE;
}

void *hvpmu_machine_device_state(struct hvpmu_machine *m, unsigned dev)
{
	if (dev >= m->ndev)
		return NULL;
	advance[m->dev[dev].ops->kind](m, &m->dev[dev]);
	return m->dev[dev].dev;
}

int hvpmu_machine_bus_read(struct hvpmu_machine *m, unsigned dev, unsigned reg, uint64_t *val)
{
	struct machine_device *d;

	if (dev >= m->ndev || !val)
		return HVPMU_ERANGE;
	d = &m->dev[dev];
	advance[d->ops->kind](m, d);
	return d->ops->read(d->dev, reg, val);
}

int hvpmu_machine_bus_write(struct hvpmu_machine *m, unsigned dev, unsigned reg, uint64_t val)
{
	struct machine_device *d;

	if (dev >= m->ndev)
		return HVPMU_ERANGE;
	d = &m->dev[dev];
	advance[d->ops->kind](m, d); /* what happened so far counts under the old selects */
	return d->ops->write(d->dev, reg, val);
}

/* ---- T1 I/O (docs/t1-platform.md) ---- */

void hvpmu_machine_io(struct hvpmu_machine *m, uint32_t strand, int device_to_memory, uint64_t bytes)
{
	uint64_t lines;

	if (!m->jbus_dev || strand >= m->nstrands || !bytes)
		return;
	lines = (bytes + JBUS_DMA_BYTES - 1) / JBUS_DMA_BYTES;
	if (device_to_memory) { /* a read(): the device writes memory */
		m->jbus.dma_writes += lines;
	} else {                /* a write(): the device reads memory */
		m->jbus.dma_reads += lines;
		m->jbus.dma_read_latency += lines * JBUS_DMA_READ_LATENCY;
	}
	/* the driver starts the transfer and reads its status */
	m->jbus.pio_writes++;
	m->jbus.pio_reads++;
	m->jbus.pio_read_latency += JBUS_PIO_READ_LATENCY;
	machine_strand_now(m, strand);
}
