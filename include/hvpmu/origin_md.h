/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/origin_md.h - SGI Origin (SN0/IP27) Hub memory/directory (MD)
 * performance counters (layer 3), ../shared/reference/hw-and-hypervisor.md
 * §5.2 (hwperftypes.h rev 1.23) and §5.3 (hubmd.h), with the IRIX man page
 * ../shared/specs/irix-mdperf.2:
 *   - MD_PERF_SEL  hub-local offset 0x210000: perf_sel 2:0 (the set
 *                  number), perf_en 3, 63:4 reserved;
 *   - MD_PERF_CNT0..5  offsets 0x210010 + 8 * i: 20-bit counters (19:0)
 *                  that peg (saturate) at 0xFFFFF.
 * One set is live at a time: while perf_en is 1, counter i counts event i
 * of set perf_sel; the kernel multiplexes sets per clock tick
 * (hw-and-hypervisor.md §5.4, the platform service in hvpmu/irix.h).
 *
 * This header is the contract between the machine model (layer 2: the
 * Hub's directory and memory timing produce the activity below) and the
 * device (layer 3: it counts the live set's share of it).
 */
#ifndef HVPMU_ORIGIN_MD_H
#define HVPMU_ORIGIN_MD_H

#include <stdint.h>
#include <hvpmu/regfield.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HVPMU_HUBMD_PERF_SETS 6      /* hubmd.h MD_PERF_SETS */
#define HVPMU_HUBMD_PERF_COUNTERS 6  /* hubmd.h MD_PERF_COUNTERS */
#define HVPMU_HUBMD_PERF_PEG UINT64_C(0xFFFFF) /* 20-bit counters peg here (§5.3) */

/* Hub-local offsets (hubmd.h, §5.3): documentation of the hardware; the
 * model reaches the registers by number on the machine's register bus. */
#define HVPMU_HUBMD_PERF_SEL_OFF UINT64_C(0x210000)
#define HVPMU_HUBMD_PERF_CNT0_OFF UINT64_C(0x210010) /* CNTi at + 8 * i */

/* The sets (§5.2; md_perf_control_t bit i selects set i: MD_PERF_SEL_x = 1 << x). */
enum hvpmu_md_perf_set {
	HVPMU_HUBMD_SET_MEM_CYCLES = 0,   /* memory/directory unit cycles */
	HVPMU_HUBMD_SET_OUTMSG = 1,       /* outgoing messages */
	HVPMU_HUBMD_SET_INVAL = 2,        /* outgoing interventions and invalidations */
	HVPMU_HUBMD_SET_INMSG = 3,        /* incoming messages */
	HVPMU_HUBMD_SET_DIR_STATE = 4,    /* directory state seen by reads */
	HVPMU_HUBMD_SET_LOCAL_REQ = 5,    /* requests from the node's own CPUs and I/O */
};

/* Counter i of each set (§5.2, in order). */
enum {
	/* set 0: cycles of the MD unit (Hub clock) */
	HVPMU_HUBMD_MEM_IDLE = 0, HVPMU_HUBMD_MEM_BLOCKED = 1 /* no output queue space */, HVPMU_HUBMD_MEM_REFRESH = 2,
	HVPMU_HUBMD_MEM_DIR_BUSY = 3 /* directory-only busy */, HVPMU_HUBMD_MEM_MEMDIR_BUSY = 4, HVPMU_HUBMD_MEM_MISC_BUSY = 5,
	/* set 1 */
	HVPMU_HUBMD_OUT_INTERV_INVAL = 0, HVPMU_HUBMD_OUT_BACKOFF = 1 /* backoff intervention/invalidate */,
	HVPMU_HUBMD_OUT_WB_ACK = 2, HVPMU_HUBMD_OUT_RESPONSE = 3 /* exclusive/shared/uncached response */,
	HVPMU_HUBMD_OUT_NACK = 4, HVPMU_HUBMD_OUT_OTHER = 5 /* other replies */,
	/* set 2 */
	HVPMU_HUBMD_INV_INVAL = 0, HVPMU_HUBMD_INV_INTERV_REMOVE = 1, HVPMU_HUBMD_INV_INTERV_RDEX_UNC = 2,
	HVPMU_HUBMD_INV_INTERV_RDSH_UNC = 3, HVPMU_HUBMD_INV_INTERV_RDEX = 4, HVPMU_HUBMD_INV_INTERV_RDSH = 5,
	/* set 3 */
	HVPMU_HUBMD_IN_MISC = 0, HVPMU_HUBMD_IN_READS = 1, HVPMU_HUBMD_IN_WRITE_REPLIES = 2, HVPMU_HUBMD_IN_REVISION = 3,
	HVPMU_HUBMD_IN_FOP_HIT = 4, HVPMU_HUBMD_IN_FOP_MISS = 5,
	/* set 4: the directory state a read found */
	HVPMU_HUBMD_DIR_UNOWNED = 0, HVPMU_HUBMD_DIR_POISONED = 1, HVPMU_HUBMD_DIR_SHARED = 2,
	HVPMU_HUBMD_DIR_EXCL_REQUESTER = 3, HVPMU_HUBMD_DIR_EXCL_OTHER = 4, HVPMU_HUBMD_DIR_BUSY = 5,
	/* set 5 */
	HVPMU_HUBMD_LOCAL_CPU0_READS = 0, HVPMU_HUBMD_LOCAL_CPU0_WB = 1, HVPMU_HUBMD_LOCAL_CPU1_READS = 2,
	HVPMU_HUBMD_LOCAL_CPU1_WB = 3, HVPMU_HUBMD_LOCAL_IO_READS = 4, HVPMU_HUBMD_LOCAL_IO_WRINV = 5,
};

/* The registers on the machine's register bus (hvpmu_machine_bus_read):
 * number 0 is MD_PERF_SEL, 1 + i is MD_PERF_CNTi. */
enum {
	HVPMU_HUBMD_REG_SEL = 0,
	HVPMU_HUBMD_REG_CNT0 = 1,
	HVPMU_HUBMD_NREGS = 1 + 6,
};
/* MD_PERF_SEL (hubmd.h, §5.3); 63:4 reserved: written as anything, read as 0. */
HVPMU_FIELD(MD_PERF_SEL, SEL, 0, 3)  /* perf_sel: the live set (6 and 7 select none) */
HVPMU_FIELD(MD_PERF_SEL, EN, 3, 1)   /* perf_en: count */
HVPMU_FIELD(MD_PERF_CNT, VALUE, 0, 20) /* MD_PERF_CNTi: 19:0, pegs at 0xFFFFF; 63:20 read as 0 */

/* Other MD registers whose fields give the directory model its figures
 * (src/model/origin_dir.h; IRIX hubmd.h rev 1.59 as Linux's
 * arch/mips/include/asm/sn/sn0/hubmd.h keeps it); documentation of the
 * hardware, not on the register bus. */
#define HVPMU_HUBMD_FANDOP_CAC_STAT_OFF UINT64_C(0x200028) /* the fetch-and-op cache's one entry */
HVPMU_FIELD(MD_FANDOP_CAC_STAT, ADDR, 6, 26)   /* MFC_ADDR: the cached variable (64-byte units) */
HVPMU_FIELD(MD_FANDOP_CAC_STAT, VALID, 63, 1)  /* MFC_VALID */
#define HVPMU_HUBMD_MIG_DIFF_THRESH_OFF UINT64_C(0x200030) /* page migration: count difference threshold */
HVPMU_FIELD(MD_MIG_DIFF_THRESH, VALUE, 0, 20)  /* MD_MIG_DIFF_THRES_VALUE_MASK 0xfffff */
HVPMU_FIELD(MD_MIG_DIFF_THRESH, VALID, 63, 1)
#define HVPMU_HUBMD_MOQ_SIZE_OFF UINT64_C(0x2000a0)        /* MD outgoing queue sizes */
HVPMU_FIELD(MD_MOQ_SIZE, RQ_SIZE, 0, 5)        /* MMS_RQ_SIZE: request queue entries */
HVPMU_FIELD(MD_MOQ_SIZE, RP_SIZE, 8, 6)        /* MMS_RP_SIZE: reply queue entries */
#define HVPMU_HUBMD_MOQ_SIZE_RESET UINT64_C(0x3212)        /* MMS_RESET_DEFAULTS: 0x32 << 8 | 0x12 */

/*
 * What one Hub's MD unit did over an interval, as the machine model
 * reports it: ev[set][counter] = occurrences (sets 1-5) or Hub cycles
 * (set 0) of every event of every set, whichever set is live.  The device
 * adds the live set's row to its counters (pegging at 0xFFFFF).
 */
struct hvpmu_origin_md_activity {
	uint64_t ev[HVPMU_HUBMD_PERF_SETS][HVPMU_HUBMD_PERF_COUNTERS];
};

/* The device (struct hvpmu_uncore_ops hvpmu_origin_md_ops, hvpmu/pmu.h,
 * kind HVPMU_DEV_ORIGIN_MD, name "origin-md"): one per node.  Its reset
 * state: MD_PERF_SEL 0 (disabled), counters 0. */
struct hvpmu_origin_md;
/* Count the live set's row of `a` when perf_en is 1: each counter adds its
 * event and pegs at HVPMU_HUBMD_PERF_PEG.  Not thread-safe (one caller per
 * device: the machine brings it up to date before each bus access). */
void hvpmu_origin_md_count(struct hvpmu_origin_md *dev, const struct hvpmu_origin_md_activity *a);

#ifdef __cplusplus
}
#endif
#endif
