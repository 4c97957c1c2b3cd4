/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/t4_mcu.h - SPARC T4 memory-controller (MCU) DRAM performance counters
 * (layer 3), sparc-t4-performance-instrumentation.md §10.5:
 *   - DRAM_PERF_CTL_REG     TABLE 10-4: sel0..sel3 (4 bits each), 63:16 reserved;
 *   - DRAM_PERF_COUNT01_REG TABLE 10-5: sticky0 63, counter0 62:32,
 *                                       sticky1 31, counter1 30:0;
 *   - DRAM_PERF_COUNT23_REG TABLE 10-6: sticky3 63, counter3 62:32,
 *                                       sticky2 31, counter2 30:0;
 *   - select codes          TABLE 10-7 (enum hvpmu_t4_dram_sel).
 * Field layout: hvpmu/t4_regs.h (T4_DRAM_CTL, T4_DRAM_COUNT01/23).
 *
 * Counter n belongs to COU port n of the MCU (0: cou0 port0, 1: cou0 port1,
 * 2: cou1 port0, 3: cou1 port1; TABLE 10-4).  Each counter is 31 bits and
 * wraps 2^31-1 -> 0, setting its sticky bit (§10.5).  The sticky bits are
 * plain RW (TABLE 10-5/10-6 "RW", and unlike PCR.ov no note restricts
 * software): a register write loads the counters and the sticky bits with
 * the written values, 0 or 1; hardware only ever sets a sticky bit.  There
 * is no overflow trap (§10.5 names none): software polls.
 *
 * What each select code counts, from the activity the DRAM model
 * (src/model/dram.h) reports over an interval, per counter n / port n:
 *   0x0 reads accepted from port n        0x1 writes from port n
 *   0x2 reads + writes from port n        0x3 bank-busy stall cycles (MCU-wide:
 *       a cycle is not a port's, so every counter selecting 3 sees the same)
 *   0x4 sum over cycles of port n's reads waiting in the read queue
 *   0x5 the same for its writes in the write queue      0x6 0x4 + 0x5
 *   0x7 reads from port n deferred behind a queued write to the same line
 *   0x8 reads from all four ports          0x9 writes from port n that starved
 *   0xA writes from all four ports         0xB / 0xC reads + writes issued to
 *       channel 0 / channel 1              0xD-0xF reserved: count nothing.
 * docs/dram-model.md has the definitions of "stall", "starved" and "queue".
 *
 * The two counter groups belong to different software (§10.5: COUNT01 to
 * the OS, COUNT23 to power management); the hypervisor enforces that split
 * (docs/sun4v-hypervisor.md), the device itself does not.
 * No allocation after creation; not thread-safe.
 */
#ifndef HVPMU_T4_MCU_H
#define HVPMU_T4_MCU_H

#include <stdint.h>
#include <hvpmu/t4_regs.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HVPMU_T4_MCUS_PER_CHIP 2    /* SPARC T4: two memory controllers per chip */
#define HVPMU_T4_MCU_NCOUNTERS 4    /* §10.5: four counters, one per COU port */
#define HVPMU_T4_MCU_NPORTS 4       /* §10.5: four COU ports per MCU */
#define HVPMU_T4_MCU_NCHANNELS 2    /* TABLE 10-7 sel 0xB/0xC: memory channels 0 and 1 */

/* Physical addresses of MCU 0's registers; MCU i adds i * HVPMU_T4_MCU_PA_STEP
 * (TABLE 10-4 to 10-6, "Step 4096").  Documentation: the model is reached
 * through the hypervisor, not through physical loads. */
#define HVPMU_T4_MCU_CTL_PA UINT64_C(0xf80400000408)
#define HVPMU_T4_MCU_COUNT01_PA UINT64_C(0xf80400000410)
#define HVPMU_T4_MCU_COUNT23_PA UINT64_C(0xf80400000418)
#define HVPMU_T4_MCU_PA_STEP 4096

/* Registers of one MCU, in the order of their addresses (and of the VT
 * perf-register ids, hvpmu/sun4v.h). */
enum hvpmu_t4_mcu_reg {
	HVPMU_T4_MCU_CTL = 0,     /* DRAM_PERF_CTL_REG, TABLE 10-4 */
	HVPMU_T4_MCU_COUNT01 = 1, /* DRAM_PERF_COUNT01_REG, TABLE 10-5 */
	HVPMU_T4_MCU_COUNT23 = 2, /* DRAM_PERF_COUNT23_REG, TABLE 10-6 */
	HVPMU_T4_MCU_NREGS = 3,
};

/* TABLE 10-7 select codes. */
enum hvpmu_t4_dram_sel {
	HVPMU_T4_DRAM_SEL_READS = 0x0,
	HVPMU_T4_DRAM_SEL_WRITES = 0x1,
	HVPMU_T4_DRAM_SEL_READS_WRITES = 0x2,
	HVPMU_T4_DRAM_SEL_BANK_BUSY = 0x3,
	HVPMU_T4_DRAM_SEL_RD_QUEUE_LAT = 0x4,
	HVPMU_T4_DRAM_SEL_WR_QUEUE_LAT = 0x5,
	HVPMU_T4_DRAM_SEL_RW_QUEUE_LAT = 0x6,
	HVPMU_T4_DRAM_SEL_WB_HITS = 0x7,
	HVPMU_T4_DRAM_SEL_READ_ALL = 0x8,
	HVPMU_T4_DRAM_SEL_WRITE_STARVED = 0x9,
	HVPMU_T4_DRAM_SEL_WRITE_ALL = 0xa,
	HVPMU_T4_DRAM_SEL_CHANNEL0 = 0xb,
	HVPMU_T4_DRAM_SEL_CHANNEL1 = 0xc,
	HVPMU_T4_DRAM_SEL_RESERVED_FIRST = 0xd, /* 0xD-0xF: reserved, count nothing */
	HVPMU_T4_DRAM_NSEL = 0x10,
};

/* The sel fields of each counter group in DRAM_PERF_CTL_REG (§10.5). */
#define HVPMU_T4_DRAM_CTL_GROUP01_MASK (HVPMU_FMASK(T4_DRAM_CTL, SEL0) | HVPMU_FMASK(T4_DRAM_CTL, SEL1))
#define HVPMU_T4_DRAM_CTL_GROUP23_MASK (HVPMU_FMASK(T4_DRAM_CTL, SEL2) | HVPMU_FMASK(T4_DRAM_CTL, SEL3))

/*
 * MCU activity over an interval, as the DRAM model produces it
 * (dram_advance(), src/model/dram.h).  Plain data; every field is a delta.
 */
struct hvpmu_t4_mcu_activity {
	uint64_t reads[HVPMU_T4_MCU_NPORTS];          /* read transactions accepted from each COU port */
	uint64_t writes[HVPMU_T4_MCU_NPORTS];         /* write transactions accepted from each COU port */
	uint64_t rd_queue_cycles[HVPMU_T4_MCU_NPORTS];/* sum over cycles of the port's reads in the read queue */
	uint64_t wr_queue_cycles[HVPMU_T4_MCU_NPORTS];/* sum over cycles of the port's writes in the write queue */
	uint64_t wb_hits[HVPMU_T4_MCU_NPORTS];        /* reads deferred behind a queued write to their line */
	uint64_t write_starved[HVPMU_T4_MCU_NPORTS];  /* writes that starved */
	uint64_t channel_issued[HVPMU_T4_MCU_NCHANNELS]; /* reads + writes issued to each channel */
	uint64_t bank_busy_cycles;                    /* cycles with requests queued, none issuable (bank conflicts) */
};

struct hvpmu_t4_mcu;

/* Create one MCU's counters, all registers 0.  NULL on ENOMEM. */
struct hvpmu_t4_mcu *hvpmu_t4_mcu_create(void);
void hvpmu_t4_mcu_destroy(struct hvpmu_t4_mcu *mcu);

/*
 * Register access (enum hvpmu_t4_mcu_reg); returns 0 or HVPMU_ERANGE.
 * CTL: bits 15:0 read back as written, 63:16 read 0 and ignore writes.
 * COUNT01/COUNT23: every bit is a field; a write loads both counters and
 * both sticky bits.
 */
int hvpmu_t4_mcu_read(const struct hvpmu_t4_mcu *mcu, unsigned reg, uint64_t *val);
int hvpmu_t4_mcu_write(struct hvpmu_t4_mcu *mcu, unsigned reg, uint64_t val);

/*
 * Number of events select code `sel` counts for counter / port `port` in
 * the activity *a (the table at the top of this file); 0 for reserved codes
 * or an out-of-range port.  Thread-safe.
 */
uint64_t hvpmu_t4_mcu_events(const struct hvpmu_t4_mcu_activity *a, unsigned sel, unsigned port);

/*
 * Count the activity *a into each counter by its select code.  Returns the
 * mask of counters that wrapped (bit n = counter n).  O(1), no allocation.
 */
uint32_t hvpmu_t4_mcu_count(struct hvpmu_t4_mcu *mcu, const struct hvpmu_t4_mcu_activity *a);

/* Raw state for tests and debugging: counter n (31 bits) and its sticky bit. */
uint32_t hvpmu_t4_mcu_peek_counter(const struct hvpmu_t4_mcu *mcu, unsigned n);
int hvpmu_t4_mcu_peek_sticky(const struct hvpmu_t4_mcu *mcu, unsigned n);

/* busstat name of a select code ("mem_reads", ...; NULL for reserved
 * codes) and the reverse lookup (-1 if unknown).  Thread-safe. */
const char *hvpmu_t4_dram_sel_name(unsigned sel);
int hvpmu_t4_dram_sel_by_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
