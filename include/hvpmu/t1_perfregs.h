/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/t1_perfregs.h - UltraSPARC T1 chip-wide DRAM and JBUS performance
 * registers (layer 3): the ten PerfRegs of niagara-perf-api.txt §3.1 that
 * NIAGARA_GET_PERFREG 0x100 / NIAGARA_SET_PERFREG 0x101 read and write.
 *
 * Sources: niagara-perf-api.txt §2.2, §2.3, §3.1;
 * ../shared/reference/hw-and-hypervisor.md §1.2 (PerfReg id -> address ->
 * write mask), §1.3 (perfctraccess: enforced by the hypervisor, not here),
 * §3.3 (DRAM registers and event codes), §3.4 (JBUS registers and event
 * codes); anchors.md §4.3 (Solaris busstat names).  Field layout:
 * hvpmu/t1_regs.h (T1_DRAM_CTL, T1_DRAM_COUNT, T1_JBUS_CTL, T1_JBUS_COUNT).
 *
 * PerfReg ids (§3.1), enum hvpmu_t1_perfreg:
 *   0 JBUS control         1 JBUS counter
 *   2 + 2k DRAM control of channel k, 3 + 2k DRAM counter of channel k (k 0-3)
 *
 * Registers:
 *   - control (ids 0, 2, 4, 6, 8): 8 bits.  A write keeps the value AND 0xff
 *     (the hypervisor's write mask, §1.2); reads return 56 zero bits above.
 *       DRAM: SEL0 6:4 + STOP0 7 for counter0, SEL1 2:0 + STOP1 3 for
 *             counter1; a counter whose stop bit is 1 does not count (§3.3).
 *       JBUS: SEL1 7:4 for counter1, SEL0 3:0 for counter0 (§3.4).
 *   - counter (ids 1, 3, 5, 7, 9): two 31-bit counts, each with a sticky
 *     overflow bit above it.  DRAM: sticky0 63, counter0 62:32, sticky1 31,
 *     counter1 30:0.  JBUS: sticky1 63, counter1 62:32, sticky0 31,
 *     counter0 30:0.  A write loads the whole register, sticky bits
 *     included, 0 or 1 (mask all ones, §1.2); counting only ever sets a
 *     sticky bit.  A count wraps 2^31 - 1 -> 0 and sets its sticky bit.
 *   So in both units the select in bits 7:4 drives the count in bits 62:32;
 *   only the hardware's counter NUMBER differs (DRAM counter0 / JBUS
 *   counter1).  Power-on value of every register: 0.  No overflow trap.
 *
 * Event codes, per DRAM channel (3-bit select, §3.3):
 *   0 mem_reads         read transactions issued to the channel
 *   1 mem_writes        write transactions issued
 *   2 mem_read_write    0 + 1
 *   3 bank_busy_stalls  stall cycles on a busy bank
 *   4 rd_queue_latency  adds the number of queued reads each cycle
 *   5 wr_queue_latency  adds the number of queued writes each cycle
 *   6 rw_queue_latency  4 + 5
 *   7 wb_buf_hits       reads that hit the write-back buffer
 * JBUS (4-bit select, the same codes for both counters, §3.4):
 *   0 off (counts nothing)  1 JBus cycles        2 DMA (inbound) reads
 *   3 DMA read latency      4 DMA writes         5 DMA WR8 sub-transactions
 *   6 ordering waits (adds the blocked JBI->L2 queues each cycle)
 *   8 PIO reads             9 PIO read latency   0xa PIO writes
 *   0xc AOK-off or DOK-off cycles   0xd AOK-off cycles   0xe DOK-off cycles
 *   7, 0xb, 0xf count nothing.
 *
 * The device is fed deltas of activity (struct hvpmu_t1_dram_activity per
 * channel, struct hvpmu_t1_jbus_activity) by hvpmu_t1_perfregs_count(); it
 * adds, per counter, what the selected code counts.  It does not model the
 * hardware's per-cycle limits (a latency event adds at most 4, or 5 for
 * rw_queue_latency, per cycle, §3.3): the producer's sums are taken as given.
 *
 * The registers are chip-global and not virtualised (§1.2): one device per
 * chip, shared by every guest; access control is the hypervisor's (§1.3).
 * No allocation after creation; not thread-safe (pure functions say so).
 */
#ifndef HVPMU_T1_PERFREGS_H
#define HVPMU_T1_PERFREGS_H

#include <stdint.h>
#include <hvpmu/t1_regs.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HVPMU_T1_DRAM_CHANNELS 4     /* §2.2: four DRAM channels, x = 0-3 */
#define HVPMU_T1_NCOUNTERS 2         /* §2.2, §2.3: a pair of counters per register */
#define HVPMU_T1_PERFREGS_PER_UNIT 2 /* §3.1: a control then a counter register */

/* §3.1 PerfReg numbers. */
enum hvpmu_t1_perfreg {
	HVPMU_T1_PERFREG_JBUS_CTL = 0,
	HVPMU_T1_PERFREG_JBUS_COUNT = 1,
	HVPMU_T1_PERFREG_DRAM_CTL0 = 2,
	HVPMU_T1_PERFREG_DRAM_COUNT0 = 3,
	HVPMU_T1_PERFREG_DRAM_CTL1 = 4,
	HVPMU_T1_PERFREG_DRAM_COUNT1 = 5,
	HVPMU_T1_PERFREG_DRAM_CTL2 = 6,
	HVPMU_T1_PERFREG_DRAM_COUNT2 = 7,
	HVPMU_T1_PERFREG_DRAM_CTL3 = 8,
	HVPMU_T1_PERFREG_DRAM_COUNT3 = 9,
	HVPMU_T1_NPERFREGS = 10,     /* NIAGARA_PERFREG_MAX (§1.2): ids >= 10 are EINVAL */
};
#define HVPMU_T1_PERFREG_DRAM_CTL(ch) (HVPMU_T1_PERFREG_DRAM_CTL0 + HVPMU_T1_PERFREGS_PER_UNIT * (ch))
#define HVPMU_T1_PERFREG_DRAM_COUNT(ch) (HVPMU_T1_PERFREG_DRAM_COUNT0 + HVPMU_T1_PERFREGS_PER_UNIT * (ch))

/* Physical addresses (§2.2, §2.3; hw-and-hypervisor.md §1.2).  Documentation
 * and for hvpmu_t1_perfreg_pa(): the model is reached by PerfReg id. */
#define HVPMU_T1_JBUS_PERF_CTL_PA UINT64_C(0x8000020000)
#define HVPMU_T1_JBUS_PERF_COUNT_PA UINT64_C(0x8000020008)
#define HVPMU_T1_DRAM_PERF_CTL_PA UINT64_C(0x9700000400)   /* channel 0 */
#define HVPMU_T1_DRAM_PERF_COUNT_PA UINT64_C(0x9700000408) /* channel 0 */
#define HVPMU_T1_DRAM_PA_STEP UINT64_C(0x1000)              /* per channel */

/* §3.3 DRAM event selects (3 bits). */
enum hvpmu_t1_dram_sel {
	HVPMU_T1_DRAM_SEL_MEM_READS = 0,
	HVPMU_T1_DRAM_SEL_MEM_WRITES = 1,
	HVPMU_T1_DRAM_SEL_MEM_READ_WRITE = 2,
	HVPMU_T1_DRAM_SEL_BANK_BUSY_STALLS = 3,
	HVPMU_T1_DRAM_SEL_RD_QUEUE_LATENCY = 4,
	HVPMU_T1_DRAM_SEL_WR_QUEUE_LATENCY = 5,
	HVPMU_T1_DRAM_SEL_RW_QUEUE_LATENCY = 6,
	HVPMU_T1_DRAM_SEL_WB_BUF_HITS = 7,
	HVPMU_T1_DRAM_NSEL = 8,
};

/* §3.4 JBUS event selects (4 bits); the missing 7, 0xb, 0xf count nothing. */
enum hvpmu_t1_jbus_sel {
	HVPMU_T1_JBUS_SEL_OFF = 0x0,
	HVPMU_T1_JBUS_SEL_CYCLES = 0x1,
	HVPMU_T1_JBUS_SEL_DMA_READS = 0x2,
	HVPMU_T1_JBUS_SEL_DMA_READ_LATENCY = 0x3,
	HVPMU_T1_JBUS_SEL_DMA_WRITES = 0x4,
	HVPMU_T1_JBUS_SEL_DMA_WR8 = 0x5,
	HVPMU_T1_JBUS_SEL_ORDERING_WAITS = 0x6,
	HVPMU_T1_JBUS_SEL_PIO_READS = 0x8,
	HVPMU_T1_JBUS_SEL_PIO_READ_LATENCY = 0x9,
	HVPMU_T1_JBUS_SEL_PIO_WRITES = 0xa,
	HVPMU_T1_JBUS_SEL_AOK_DOK_OFF = 0xc,
	HVPMU_T1_JBUS_SEL_AOK_OFF = 0xd,
	HVPMU_T1_JBUS_SEL_DOK_OFF = 0xe,
	HVPMU_T1_JBUS_NSEL = 0x10,
};

/*
 * A counter's 4-bit "code": what Solaris busstat writes into the counter's
 * half of the control register (anchors.md §4.3; niagara_perfctr.c, select
 * shifts 4 and 0).  JBUS: the select itself.  DRAM: the select in bits 2:0
 * and the stop bit in bit 3 (STOP sits right above SEL in both halves), so
 * codes 0-7 count and codes 8-0xf stop the counter.  Solaris's clear_pic is
 * 0xf on both units: DRAM stop + select 7, JBUS select 0xf (counts nothing).
 */
#define HVPMU_T1_NCODES 0x10
#define HVPMU_T1_CODE_CLEAR_PIC 0xf

/*
 * Activity of one DRAM channel over an interval: plain data, every field a
 * delta.  Cycles are those of the clock the producer models (hvpmu's DRAM
 * model counts modeled processor cycles, docs/dram-model.md); the device
 * only adds them.
 */
struct hvpmu_t1_dram_activity {
	uint64_t reads;            /* events: read transactions issued (sel 0, 2) */
	uint64_t writes;           /* events: write transactions issued (sel 1, 2) */
	uint64_t bank_busy_cycles; /* cycles: stalls on a busy bank (sel 3) */
	uint64_t rd_queue_cycles;  /* sum over cycles of the reads queued (sel 4, 6) */
	uint64_t wr_queue_cycles;  /* sum over cycles of the writes queued (sel 5, 6) */
	uint64_t wb_hits;          /* events: write-back-buffer hits (sel 7) */
};

/*
 * Activity of the JBI over an interval: plain data, every field a delta.
 * Cycles and latencies are JBus clock cycles (the producer converts).
 */
struct hvpmu_t1_jbus_activity {
	uint64_t cycles;             /* JBus cycles (sel 1) */
	uint64_t dma_reads;          /* events: inbound DMA read transactions (sel 2) */
	uint64_t dma_read_latency;   /* cycles: sum of the DMA reads' latencies (sel 3) */
	uint64_t dma_writes;         /* events: DMA write transactions (sel 4) */
	uint64_t dma_wr8;            /* events: DMA WR8 sub-transactions (sel 5) */
	uint64_t ordering_waits;     /* sum over cycles of the blocked JBI->L2 queues (sel 6) */
	uint64_t pio_reads;          /* events: PIO read transactions (sel 8) */
	uint64_t pio_read_latency;   /* cycles: sum of the PIO reads' latencies (sel 9) */
	uint64_t pio_writes;         /* events: PIO write transactions (sel 0xa) */
	uint64_t aok_dok_off_cycles; /* cycles with AOK or DOK off (sel 0xc) */
	uint64_t aok_off_cycles;     /* cycles with AOK off (sel 0xd) */
	uint64_t dok_off_cycles;     /* cycles with DOK off (sel 0xe) */
};

struct hvpmu_t1_perfregs;

/* Create the chip's ten PerfRegs, all 0.  NULL on ENOMEM. */
struct hvpmu_t1_perfregs *hvpmu_t1_perfregs_create(void);
void hvpmu_t1_perfregs_destroy(struct hvpmu_t1_perfregs *dev);

/*
 * Read / write PerfReg `id` (enum hvpmu_t1_perfreg) as NIAGARA_GET/SET_PERFREG
 * do after their access check (§1.2): 0, HVPMU_ERANGE for id >= 10 (the
 * hypervisor's EINVAL), HVPMU_EINVAL for a NULL val.  A write ANDs the value
 * with hvpmu_t1_perfreg_write_mask(id).
 */
int hvpmu_t1_perfregs_read(const struct hvpmu_t1_perfregs *dev, unsigned id, uint64_t *val);
int hvpmu_t1_perfregs_write(struct hvpmu_t1_perfregs *dev, unsigned id, uint64_t val);

/*
 * Count one interval: act[k] into DRAM channel k's counters, *jbus into the
 * JBUS counters, each counter by its code (a stopped DRAM counter is left
 * alone).  act or jbus may be NULL: no activity for those units.  Returns
 * the counters that wrapped: HVPMU_T1_WRAP_BIT(count_id, n) for counter n
 * (hardware numbering) of counter register count_id.  O(1), no allocation.
 * A delta may wrap a counter several times; its sticky bit records that it
 * wrapped at all.
 */
uint32_t hvpmu_t1_perfregs_count(struct hvpmu_t1_perfregs *dev,
				 const struct hvpmu_t1_dram_activity act[HVPMU_T1_DRAM_CHANNELS],
				 const struct hvpmu_t1_jbus_activity *jbus);
#define HVPMU_T1_WRAP_BIT(count_id, n) \
	(UINT32_C(1) << ((count_id) - HVPMU_T1_PERFREG_JBUS_COUNT + (n)))

/*
 * Events a select counts in an activity (the tables at the top of this
 * file); 0 for codes that count nothing or are out of range.  DRAM: `sel`
 * is the 3-bit select (the stop bit is not part of it).  Thread-safe.
 */
uint64_t hvpmu_t1_dram_events(const struct hvpmu_t1_dram_activity *a, unsigned sel);
uint64_t hvpmu_t1_jbus_events(const struct hvpmu_t1_jbus_activity *a, unsigned sel);

/* The §1.2 table: physical address and hypervisor write mask of PerfReg id;
 * 0 for id >= HVPMU_T1_NPERFREGS.  Thread-safe. */
uint64_t hvpmu_t1_perfreg_pa(unsigned id);
uint64_t hvpmu_t1_perfreg_write_mask(unsigned id);

/* 1 if PerfReg id is a control / a counter register, else 0.  Thread-safe. */
int hvpmu_t1_perfreg_is_ctl(unsigned id);
int hvpmu_t1_perfreg_is_count(unsigned id);

/*
 * Raw register values, as a hypervisor client sees them (all thread-safe;
 * n is the hardware counter number, 0 or 1):
 *   - hvpmu_t1_ctl_code: the 4-bit code of counter n in control value ctl of
 *     control PerfReg id (DRAM: stop << 3 | select); HVPMU_ERANGE if id is
 *     not a control register or n > 1.
 *   - hvpmu_t1_ctl_set_code: deposit it; HVPMU_ERANGE as above or if
 *     code >= HVPMU_T1_NCODES (then *ctl is unchanged).
 *   - hvpmu_t1_count_get: counter n's 31-bit count and sticky bit in value
 *     `count` of counter PerfReg id; either out pointer may be NULL;
 *     HVPMU_ERANGE if id is not a counter register or n > 1.
 *   - hvpmu_t1_pic_counter: the hardware counter behind Solaris busstat's
 *     pic `pic` (0 or 1) of PerfReg id (control or counter): pic0 is the
 *     upper half on both units (niagara_perfctr.c: select shift 4, value
 *     shift 32), i.e. DRAM counter0 but JBUS counter1; HVPMU_ERANGE for a
 *     bad id or pic.
 */
int hvpmu_t1_ctl_code(unsigned id, uint64_t ctl, unsigned n);
int hvpmu_t1_ctl_set_code(unsigned id, uint64_t *ctl, unsigned n, unsigned code);
int hvpmu_t1_count_get(unsigned id, uint64_t count, unsigned n, uint32_t *value, int *sticky);
int hvpmu_t1_pic_counter(unsigned id, unsigned pic);

/*
 * busstat event names (Solaris niagara_perfctr.c, anchors.md §4.3) of a
 * 4-bit code, NULL for a code without a name, and the reverse lookup (-1 if
 * unknown or NULL).  DRAM: mem_reads 0 ... wb_buf_hits 7, clear_pic 0xf.
 * JBUS: jbus_cycles 1, dma_reads 2, dma_read_latency 3, dma_writes 4,
 * dma_write8 5, ordering_waits 6, pio_reads 8, pio_read_latency 9,
 * pio_writes 0xa (the RTL counts it; Solaris lists no name for it, we add
 * one), aok_dok_off_cycles 0xc, aok_off_cycles 0xd, dok_off_cycles 0xe,
 * clear_pic 0xf.  Code 0 ("off") has no name.  Thread-safe.
 */
const char *hvpmu_t1_dram_event_name(unsigned code);
int hvpmu_t1_dram_event_by_name(const char *name);
const char *hvpmu_t1_jbus_event_name(unsigned code);
int hvpmu_t1_jbus_event_by_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
