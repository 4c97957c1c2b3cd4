/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine model (layer 2), its register bus: the per-strand PMU device of
 * each platform behind one interface (struct pmu_ops), register access to
 * it in the strand's privilege mode (T4 ASI 0x64 / 0xB0, T1 ASR 0x10 /
 * 0x11), and the chip-wide counter devices (T4 MCU DRAM counters, T1 DRAM
 * and JBUS PerfRegs), each brought up to date with the DRAM and JBUS
 * activity before it is read.
 */
#include <stdlib.h>
#include <string.h>
#include "machine_internal.h"


static int t4_create(struct strand *s, const uint32_t *cf)
{
	return (s->pmu = hvpmu_t4_pmu_create(cf)) ? 0 : -1;
}
static void t4_destroy(struct strand *s) { hvpmu_t4_pmu_destroy(s->pmu); }
static void t4_classes(struct strand *s) { hvpmu_t4_pmu_classes_changed(s->pmu); }
static void t4_feed(struct strand *s, const struct hvpmu_t4_feed *f, struct hvpmu_t4_feed_result *r)
{
	hvpmu_t4_pmu_feed(s->pmu, f, r);
}
static uint64_t t4_headroom(const struct strand *s, uint64_t c) { return hvpmu_t4_pmu_headroom(s->pmu, c); }
static uint64_t t4_mem_headroom(const struct strand *s) { return hvpmu_t4_pmu_mem_headroom(s->pmu); }

static int t1_create(struct strand *s, const uint32_t *cf)
{
	return (s->t1 = hvpmu_t1_pmu_create(cf)) ? 0 : -1;
}
static void t1_destroy(struct strand *s) { hvpmu_t1_pmu_destroy(s->t1); }
static void t1_classes(struct strand *s) { (void)s; /* the T1 PMU reads the class table at each feed */ }
/* A T1 wrap latches SOFTINT 15: the interrupt (not precise) stays pending
 * until taken, and is reported as a disrupting PMU trap whose pic_mask
 * holds the HVPMU_T1_OVF_* halves. */
static void t1_feed(struct strand *s, const struct hvpmu_t4_feed *f, struct hvpmu_t4_feed_result *r)
{
	struct hvpmu_t1_feed tf = { 0 };
	struct hvpmu_t1_feed_result tr;

	tf.dclass = f->dclass;
	tf.dclass_nonzero = f->dclass_nonzero;
	memcpy(tf.dmev, f->dmev, sizeof tf.dmev);
	tf.next_pc = f->next_pc;
	tf.mode = f->mode;
	hvpmu_t1_pmu_feed(s->t1, &tf, &tr);
	memset(r, 0, sizeof *r);
	r->ovf_mask = tr.ovf_mask;
	if (tr.int_level15)
		s->t1_int15 |= tr.ovf_mask;
	r->disrupt_mask = s->t1_int15;
}
static uint64_t t1_headroom(const struct strand *s, uint64_t c)
{
	(void)c;
	return hvpmu_t1_pmu_headroom(s->t1);
}
static uint64_t t1_mem_headroom(const struct strand *s) { return hvpmu_t1_pmu_mem_headroom(s->t1); }

const struct pmu_ops machine_pmu_ops[HVPMU_NPLATFORMS] = {
	[HVPMU_PLATFORM_T4] = { t4_create, t4_destroy, t4_classes, t4_feed, t4_headroom, t4_mem_headroom },
	[HVPMU_PLATFORM_T1] = { t1_create, t1_destroy, t1_classes, t1_feed, t1_headroom, t1_mem_headroom },
};

struct hvpmu_t4_pmu *hvpmu_machine_t4_pmu(struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? m->s[strand].pmu : NULL;
}

struct hvpmu_t1_pmu *hvpmu_machine_t1_pmu(struct hvpmu_machine *m, uint32_t strand)
{
	return strand < m->nstrands ? m->s[strand].t1 : NULL;
}

/* T1 %pcr (ASR 0x10) and %pic (ASR 0x11), niagara-perf-api.txt §2.1. */
int hvpmu_machine_rdasr(struct hvpmu_machine *m, uint32_t strand, unsigned asr, uint64_t *val)
{
	struct strand *s;

	if (strand >= m->nstrands || !m->s[strand].t1)
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	if (asr == HVPMU_T1_ASR_PCR)
		return hvpmu_t1_pcr_read(s->t1, s->mode, val);
	if (asr == HVPMU_T1_ASR_PIC)
		return hvpmu_t1_pic_read(s->t1, s->mode, val);
	return HVPMU_ERANGE;
}

int hvpmu_machine_wrasr(struct hvpmu_machine *m, uint32_t strand, unsigned asr, uint64_t val)
{
	struct strand *s;
	int rc;

	if (strand >= m->nstrands || !m->s[strand].t1)
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	if (asr == HVPMU_T1_ASR_PCR)
		rc = hvpmu_t1_pcr_write(s->t1, s->mode, val);
	else if (asr == HVPMU_T1_ASR_PIC)
		rc = hvpmu_t1_pic_write(s->t1, s->mode, val);
	else
		return HVPMU_ERANGE;
	if (s->depth == 0)
		machine_schedule(m, s);
	return rc;
}

uint32_t hvpmu_machine_nmcu(const struct hvpmu_machine *m) { return m->nmcu; }

struct hvpmu_t4_mcu *hvpmu_machine_t4_mcu(struct hvpmu_machine *m, unsigned mcu)
{
	struct hvpmu_t4_mcu_activity act;

	if (mcu >= m->nmcu)
		return NULL;
	dram_advance(&m->dram[mcu], m->chip_now, &act);
	hvpmu_t4_mcu_count(m->mcu[mcu], &act);
	return m->mcu[mcu];
}


/* VA of PCRn / PICn: n * 8 (TABLE 10-1, TABLE 10-3). */
#define PMU_VA_STRIDE 8

static int pmu_reg_index(uint64_t va, unsigned *idx)
{
	if (va % PMU_VA_STRIDE || va / PMU_VA_STRIDE >= HVPMU_T4_NPIC)
		return HVPMU_ERANGE;
	*idx = (unsigned)(va / PMU_VA_STRIDE);
	return HVPMU_OK;
}

int hvpmu_machine_ldxa(struct hvpmu_machine *m, uint32_t strand, unsigned asi, uint64_t va, uint64_t *val)
{
	unsigned idx;
	struct strand *s;

	if (strand >= m->nstrands || pmu_reg_index(va, &idx))
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	if (asi == HVPMU_T4_ASI_PCR)
		return s->mode == HVPMU_MODE_HYPER ? hvpmu_t4_pcr_read(s->pmu, idx, val) : HVPMU_ETRAP;
	if (asi == HVPMU_T4_ASI_PIC)
		return hvpmu_t4_pic_read(s->pmu, idx, s->mode, val);
	return HVPMU_ERANGE;
}

int hvpmu_machine_stxa(struct hvpmu_machine *m, uint32_t strand, unsigned asi, uint64_t va, uint64_t val)
{
	unsigned idx;
	struct strand *s;
	int rc;

	if (strand >= m->nstrands || pmu_reg_index(va, &idx))
		return HVPMU_ERANGE;
	s = &m->s[strand];
	hvpmu_machine_sync(m, strand, NULL, NULL);
	if (asi == HVPMU_T4_ASI_PCR)
		rc = s->mode == HVPMU_MODE_HYPER ? hvpmu_t4_pcr_write(s->pmu, idx, val, s->mode) : HVPMU_ETRAP;
	else if (asi == HVPMU_T4_ASI_PIC)
		rc = hvpmu_t4_pic_write(s->pmu, idx, s->mode, val);
	else
		rc = HVPMU_ERANGE;
	if (s->depth == 0)
		machine_schedule(m, s);
	return rc;
}

/* ---- UltraSPARC T1 DRAM and JBUS PerfRegs (niagara-perf-api.txt) ---- */

void hvpmu_machine_io(struct hvpmu_machine *m, uint32_t strand, int device_to_memory, uint64_t bytes)
{
	uint64_t lines;

	if (!m->t1regs || strand >= m->nstrands || !bytes)
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

struct hvpmu_t1_perfregs *hvpmu_machine_t1_perfregs(struct hvpmu_machine *m)
{
	struct hvpmu_t1_dram_activity act[T1_DRAM_CHANNELS];

	if (!m->t1regs)
		return NULL;
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
	hvpmu_t1_perfregs_count(m->t1regs, act, &m->jbus);
	memset(&m->jbus, 0, sizeof m->jbus);
	return m->t1regs;
}
