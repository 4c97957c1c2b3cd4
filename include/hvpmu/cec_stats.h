/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/cec_stats.h - the CEC statistics device of a PAPR machine (layer
 * 3): the counters H_GetPerformanceCounterInfo (0xF080) reports
 * (../shared/specs/papr-platform-hcalls.xml, table "Performance Counter
 * Info Requested_Information Values"), kept since CEC boot:
 *   per physical processor: PURR cycles running work on behalf of
 *     partitions (request 0x10), its current state and owner, run-latch
 *     instructions and cycles, and the LAB-only hypervisor counters
 *     HPMC1-4 under MMCRH (0x80001000, 0x80002000);
 *   per partition: entitled, consumed capped, consumed uncapped, donated
 *     and idle PURR cycles (0x20), run-latch instructions and cycles (0x30);
 *   per chip: idle and total cycles of each A/B/C and W/X/Y/Z link (0x50, 0x60).
 *
 * Two sides.  The FEEDER is the hypervisor's dispatcher in the machine
 * model (layer 2), which schedules virtual processors onto physical
 * processors in dispatch windows and tells the device what happened
 * (hvpmu_cec_stats_advance, _entitle, _dispatch, _lend, _link).  Every
 * feed is checked against the invariants below and refused whole
 * (HVPMU_EINVAL, nothing counted) when it would break one, so a counter
 * set read from the device always satisfies them.  The READER is the
 * hypervisor service (layer 4), through a register file (HVPMU_CEC_REG
 * numbers below; hvpmu_cec_stats_read/_write have the shape of
 * struct hvpmu_uncore_ops, hvpmu/pmu.h, for the machine's register bus).
 *
 * All cycle counts are timebase cycles (cec.timebase_hz), the unit of
 * the PURR as the spec reports it.  Invariants (docs/papr-gpci.md):
 *   I1 timebase only advances;
 *   I2 per processor, the PURR cycles dispatched to partitions never
 *      exceed the elapsed timebase;
 *   I3 a partition's entitled cycles never exceed elapsed timebase x
 *      entitlement / HVPMU_CEC_PU (dedicated: x its processors);
 *   I4 a partition's consumed capped cycles never exceed its entitled cycles;
 *   I5 only uncapped partitions consume uncapped cycles, and only
 *      on shared or borrowed processors; dedicated processors run only
 *      their owner, shared processors only shared partitions;
 *   I6 donated cycles come only from donating dedicated partitions: the
 *      uncapped cycles run on a processor it lent (BORROWED);
 *   I7 per dispatch, idle and run-latch cycles are at most the cycles
 *      consumed;
 *   I8 per link, idle cycles never exceed total cycles, and total cycles
 *      never exceed the elapsed timebase.
 *
 * Not thread-safe: one caller at a time per device.
 */
#ifndef HVPMU_CEC_STATS_H
#define HVPMU_CEC_STATS_H

#include <stdint.h>
#include <hvpmu/cec.h>
#include <hvpmu/regfield.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the register file ---- */

/* Register number: a group, an element index in it (processor,
 * partition or chip index of the CEC description), a field. */
enum hvpmu_cec_reg_group {
	HVPMU_CEC_GRP_GLOBAL = 0,
	HVPMU_CEC_GRP_PROC = 1,
	HVPMU_CEC_GRP_PARTITION = 2,
	HVPMU_CEC_GRP_CHIP = 3,
	HVPMU_CEC_NGROUPS
};
#define HVPMU_CEC_REG(group, index, field) ((unsigned)(group) << 24 | (unsigned)(index) << 8 | (unsigned)(field))
#define HVPMU_CEC_REG_GROUP(reg) ((unsigned)(reg) >> 24)
#define HVPMU_CEC_REG_INDEX(reg) (((unsigned)(reg) >> 8) & 0xFFFFu)
#define HVPMU_CEC_REG_FIELD(reg) ((unsigned)(reg) & 0xFFu)

enum hvpmu_cec_global_field {
	HVPMU_CEC_G_TIMEBASE = 0, /* elapsed timebase since CEC boot (read only) */
	HVPMU_CEC_G_MMCRH = 1,    /* MMCRH of every processor: writing sets it in all (0x80001000) */
	HVPMU_CEC_NGLOBAL
};
enum hvpmu_cec_proc_field {
	HVPMU_CEC_P_PURR = 0,        /* PURR cycles running partitions (0x10 "processor time") */
	HVPMU_CEC_P_STATE,           /* current enum hvpmu_cec_proc_state */
	HVPMU_CEC_P_OWNER,           /* current owning partition id, HVPMU_CEC_NO_OWNER */
	HVPMU_CEC_P_RUN_INSNS,       /* instructions completed with the run latch set */
	HVPMU_CEC_P_RUN_CYCLES,      /* cycles with the run latch set */
	HVPMU_CEC_P_MMCRH,           /* current MMCRH (0x80002000) */
	HVPMU_CEC_P_MMCRH_TB,        /* elapsed timebase since MMCRH was set */
	HVPMU_CEC_P_HPMC1,           /* HPMC1 since MMCRH was set */
	HVPMU_CEC_P_HPMC2,           /* HPMC2 since MMCRH was set */
	HVPMU_CEC_P_HPMC3_SET,       /* HPMC3 since MMCRH was set */
	HVPMU_CEC_P_HPMC3,           /* HPMC3 current value */
	HVPMU_CEC_P_HPMC4_SET,       /* HPMC4 since MMCRH was set */
	HVPMU_CEC_P_HPMC4,           /* HPMC4 current value */
	HVPMU_CEC_NPROC_FIELDS
};
enum hvpmu_cec_partition_field {
	HVPMU_CEC_L_ENTITLED = 0,    /* 0x20 */
	HVPMU_CEC_L_CAPPED,
	HVPMU_CEC_L_UNCAPPED,
	HVPMU_CEC_L_DONATED,
	HVPMU_CEC_L_IDLE,
	HVPMU_CEC_L_RUN_INSNS,       /* 0x30 */
	HVPMU_CEC_L_RUN_CYCLES,
	HVPMU_CEC_NPARTITION_FIELDS
};
/* Chip fields: link l's idle cycles are field 2l, its total cycles 2l + 1. */
#define HVPMU_CEC_C_LINK_IDLE(l) (2u * (unsigned)(l))
#define HVPMU_CEC_C_LINK_TOTAL(l) (2u * (unsigned)(l) + 1u)
#define HVPMU_CEC_NCHIP_FIELDS (2u * HVPMU_CEC_NLINKS)

/*
 * MMCRH, hvpmu's layout (the spec leaves it to the hardware:
 * docs/papr-gpci.md "MMCRH"): bits 15:8 select HPMC1's event, bits 23:16
 * HPMC2's; every other bit is reserved and must be 0.  HPMC3 counts
 * run-latch instructions and HPMC4 run-latch cycles whatever MMCRH holds
 * (as PMC5/PMC6 of the POWER PMU).  All ones: collection disabled (spec
 * note 1): the since-set values read 0.  At CEC boot MMCRH holds
 * HVPMU_CEC_MMCRH_BOOT, the default Linux's hv-gpci.h names for set_mmcrh.
 */
HVPMU_FIELD(CEC_MMCRH, HPMC1SEL, 8, 8)
HVPMU_FIELD(CEC_MMCRH, HPMC2SEL, 16, 8)
#define HVPMU_CEC_MMCRH_RESERVED (~(HVPMU_FMASK(CEC_MMCRH, HPMC1SEL) | HVPMU_FMASK(CEC_MMCRH, HPMC2SEL)))
#define HVPMU_CEC_MMCRH_DISABLED UINT64_MAX
#define HVPMU_CEC_MMCRH_BOOT UINT64_C(0x00000000003C1200)
/* HPMC1/2 events (hvpmu's numbering). */
enum hvpmu_cec_hpmc_event {
	HVPMU_CEC_EV_NONE = 0x00,       /* counts nothing */
	HVPMU_CEC_EV_RUN_INSNS = 0x02,  /* run-latch instructions completed */
	HVPMU_CEC_EV_PURR = 0x12,       /* timebase cycles running partitions */
	HVPMU_CEC_EV_RUN_CYCLES = 0x1E, /* run-latch cycles */
	HVPMU_CEC_EV_NOT_DISPATCHED = 0x3C, /* timebase cycles running no partition */
};
/* 1 if `sel` is an HPMC1/2 event, else 0.  Thread-safe. */
static inline int hvpmu_cec_hpmc_event_valid(uint64_t sel)
{
	switch (sel) {
	case HVPMU_CEC_EV_NONE: case HVPMU_CEC_EV_RUN_INSNS: case HVPMU_CEC_EV_PURR:
	case HVPMU_CEC_EV_RUN_CYCLES: case HVPMU_CEC_EV_NOT_DISPATCHED:
		return 1;
	default:
		return 0;
	}
}
/* 1 if `mmcrh` is a value MMCRH can hold (disabled, or reserved bits 0
 * and each select an event), else 0.  Inline: the service (layer 4)
 * validates a value before it reaches the device.  Thread-safe. */
static inline int hvpmu_cec_mmcrh_valid(uint64_t mmcrh)
{
	return mmcrh == HVPMU_CEC_MMCRH_DISABLED ||
	       (!(mmcrh & HVPMU_CEC_MMCRH_RESERVED) && hvpmu_cec_hpmc_event_valid(HVPMU_FEX(mmcrh, CEC_MMCRH, HPMC1SEL)) &&
		hvpmu_cec_hpmc_event_valid(HVPMU_FEX(mmcrh, CEC_MMCRH, HPMC2SEL)));
}

struct hvpmu_cec_stats;

/*
 * A device for CEC `cec` (copied; it must pass hvpmu_cec_check()), at
 * CEC boot: every counter 0, processors in their described states,
 * MMCRH = HVPMU_CEC_MMCRH_BOOT.  0 and *out, HVPMU_EINVAL or HVPMU_ENOMEM.
 */
int hvpmu_cec_stats_create(const struct hvpmu_cec *cec, struct hvpmu_cec_stats **out);
void hvpmu_cec_stats_destroy(struct hvpmu_cec_stats *st);
/* As a chip-wide device of the machine (hvpmu_cec_stats_ops, hvpmu/pmu.h:
 * created without a CEC, every register HVPMU_ERANGE): reset it to CEC
 * boot for `cec` (copied; it must pass hvpmu_cec_check()).  0 or
 * HVPMU_EINVAL (device unchanged). */
int hvpmu_cec_stats_configure(struct hvpmu_cec_stats *st, const struct hvpmu_cec *cec);

/* Register `reg` (HVPMU_CEC_REG): 0, or HVPMU_ERANGE for a group, index
 * or field the CEC lacks.  Writes: only HVPMU_CEC_G_MMCRH is writable:
 * 0, HVPMU_EINVAL (not hvpmu_cec_mmcrh_valid), HVPMU_ERANGE (any other
 * register).  Setting MMCRH (to any value, the same one included) resets
 * HPMC1/2 and starts every "since set" count and the elapsed timebase
 * since set from now (spec note 2). */
int hvpmu_cec_stats_read(const void *st, unsigned reg, uint64_t *val);
int hvpmu_cec_stats_write(void *st, unsigned reg, uint64_t val);

/* ---- the feeder (the dispatcher), each checked against I1-I8 ---- */

/* The CEC's timebase is now `timebase` cycles since boot: 0, or
 * HVPMU_EINVAL if it goes back (I1). */
int hvpmu_cec_stats_advance(struct hvpmu_cec_stats *st, uint64_t timebase);

/* Partition index `part` was entitled to `cycles` more PURR cycles (the
 * dispatcher's window: entitlement / HVPMU_CEC_PU x window length).
 * 0, HVPMU_ERANGE (part), HVPMU_EINVAL (I3). */
int hvpmu_cec_stats_entitle(struct hvpmu_cec_stats *st, unsigned part, uint64_t cycles);

/* One dispatch of a virtual processor of partition index `part` on
 * physical processor `proc`, since the previous one there. */
struct hvpmu_cec_dispatch {
	unsigned proc, part;
	uint64_t capped;     /* PURR cycles consumed within entitlement (dedicated: all) */
	uint64_t uncapped;   /* PURR cycles consumed beyond it (uncapped partitions) */
	uint64_t idle;       /* of capped + uncapped, cycles the partition's OS was idle in */
	uint64_t run_insns;  /* instructions completed with the run latch set */
	uint64_t run_cycles; /* cycles with the run latch set (<= capped + uncapped) */
};
/* 0, HVPMU_ERANGE (proc, part), HVPMU_EINVAL (I2, I4-I7, or a processor
 * that is not installed, guarded off or unlicensed).  On a BORROWED
 * processor the uncapped cycles are also the owner's donated cycles (I6). */
int hvpmu_cec_stats_dispatch(struct hvpmu_cec_stats *st, const struct hvpmu_cec_dispatch *d);

/* A donating dedicated partition's processor `proc` is lent to the
 * shared pool (lend 1: DEDICATED -> BORROWED) or taken back (lend 0:
 * BORROWED -> DEDICATED).  0, HVPMU_ERANGE (proc), HVPMU_EINVAL (not in
 * the state it leaves, or its owner does not donate). */
int hvpmu_cec_stats_lend(struct hvpmu_cec_stats *st, unsigned proc, int lend);

/* Link `link` of chip index `chip` was idle `idle` of `total` more link
 * cycles.  0, HVPMU_ERANGE (chip, link, or a link not connected),
 * HVPMU_EINVAL (I8). */
int hvpmu_cec_stats_link(struct hvpmu_cec_stats *st, unsigned chip, unsigned link, uint64_t idle, uint64_t total);

#ifdef __cplusplus
}
#endif
#endif
