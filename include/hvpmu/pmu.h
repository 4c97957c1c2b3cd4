/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/pmu.h - how the machine (layer 2) drives the PMU devices (layer 3):
 * one interface for every per-strand PMU and one for every chip-wide
 * ("uncore") counter device, so that a platform adds a device by adding
 * an ops table, not a branch in the machine (../shared/DESIGN.md "A
 * platform is a set of parts behind five seams", STYLE.md "Chip
 * differences as data").
 *
 * Per-strand PMU (struct hvpmu_pmu_ops): the machine feeds each strand's
 * PMU its activity since the previous feed at every sync (struct
 * hvpmu_pmu_feed), learns which counters wrapped and which traps they
 * raise, asks how far it may run before a counter could wrap (headroom),
 * and routes the strand's register-access instructions to it (register
 * spaces below) with the strand's privilege mode: the device applies its
 * own privilege checks.  Implementations: hvpmu_t4_pmu_ops (SPARC T4
 * PCR/PIC, hvpmu/t4_pmu.h), hvpmu_t1_pmu_ops (UltraSPARC T1 %pcr/%pic,
 * hvpmu/t1_pmu.h), hvpmu_r10k_pmu_ops (MIPS R10000 PerfControl/PerfCount,
 * hvpmu/r10k_pmu.h).
 *
 * Uncore devices (struct hvpmu_uncore_ops): a register file of `nregs`
 * 64-bit registers, read and written by number on the machine's register
 * bus (hvpmu/machine.h hvpmu_machine_bus_read); the machine brings a
 * device up to date with the memory system's activity before each access.
 * Implementations: hvpmu_t4_mcu_ops (hvpmu/t4_mcu.h), hvpmu_t1_perfregs_ops
 * (hvpmu/t1_perfregs.h), hvpmu_origin_md_ops (hvpmu/origin_md.h).
 *
 * Not thread-safe: one caller at a time per device.
 */
#ifndef HVPMU_PMU_H
#define HVPMU_PMU_H

#include <stdint.h>
#include <hvpmu/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most counters one strand's PMU has (T4: 4 PICs; T1: PICL and PICH; R10000: 2;
 * POWER7: PMC1-6). */
#define HVPMU_PMU_MAX_PIC 6

/* Activity of one strand since the previous feed, from the machine. */
struct hvpmu_pmu_feed {
	/* dclass, dtaken_cond, dmispred, dmev happened in `mode`, counted with
	 * the counter's user (user code) or privileged (the kernel path,
	 * docs/kernel-model.md) mode bit */
	const uint64_t *dclass;         /* [HVPMU_MAX_ICLASS] retired instructions per class */
	uint64_t dclass_nonzero;        /* bitmap: classes whose dclass is non-zero */
	uint64_t dtaken_cond;           /* taken conditional CTIs */
	uint64_t dmispred[HVPMU_NMISPRED]; /* mispredicted CTIs by kind */
	uint64_t dmev[HVPMU_NMEV];      /* memory-hierarchy events */
	uint64_t ddir[HVPMU_NDIREV];    /* directory coherence events (SGI Origin; 0 elsewhere) */
	uint64_t mem_pc;                /* PC of the access the memory events belong to (0: unknown) */
	uint64_t dcycles[HVPMU_NMODES]; /* cycles per mode */
	uint64_t dpipe[HVPMU_NPIPE];    /* user-mode cycles by pipeline cause; sums to dcycles[USER] */
	const struct hvpmu_block *last; /* block the instruction events came from (prefix of it), or NULL */
	uint64_t next_pc;               /* PC of the next instruction (TPC of disrupting traps) */
	enum hvpmu_mode mode;           /* current mode of the strand */
};

/* What a feed did: bit i of a mask is counter (PIC) i. */
struct hvpmu_pmu_feed_result {
	uint32_t ovf_mask;      /* counters that wrapped during this feed */
	uint32_t precise_mask;  /* counters raising a precise trap (T4 precise_performance_event) */
	uint32_t disrupt_mask;  /* counters raising (or still asserting) a disrupting trap */
	uint64_t precise_tpc;   /* TPC of the precise trap: earliest overflowing instruction */
	uint64_t pic_tpc[HVPMU_PMU_MAX_PIC]; /* per counter in precise_mask: its overflowing instruction */
};

/* Register spaces: enum hvpmu_reg_space, hvpmu/machine.h. */

struct hvpmu_pmu_ops {
	const char *name;   /* "t4", "t1" */
	unsigned npic;      /* counters per strand (<= HVPMU_PMU_MAX_PIC) */
	/* A strand's PMU in its reset state.  `class_flags`: the machine's
	 * table of HVPMU_MAX_ICLASS class-flag words, indexed by instruction
	 * class; it outlives the PMU.  NULL on ENOMEM. */
	void *(*create)(const uint32_t *class_flags);
	void (*destroy)(void *pmu);
	/* New classes were interned in class_flags. */
	void (*classes_changed)(void *pmu);
	/* Count the activity; report wraps and traps. */
	void (*feed)(void *pmu, const struct hvpmu_pmu_feed *f, struct hvpmu_pmu_feed_result *res);
	/* The disrupting trap of the last feed was taken (an edge-triggered
	 * interrupt request is cleared; a level one stays while its cause does). */
	void (*trap_taken)(void *pmu);
	/* Least number of further user-mode instructions (at most
	 * max_cycles_per_insn cycles each) that could make a counter wrap;
	 * UINT64_MAX if none counts. */
	uint64_t (*headroom)(const void *pmu, uint64_t max_cycles_per_insn);
	/* Least number of further memory events of mem_watch() that could
	 * make a counter of memory events wrap; UINT64_MAX if none counts. */
	uint64_t (*mem_headroom)(const void *pmu);
	/* The memory events (bit e = enum hvpmu_mem_event e) the counters that
	 * mem_headroom() bounds count: the machine counts only their
	 * occurrences towards the headroom. */
	uint64_t (*mem_watch)(const void *pmu);
	/* A register-access instruction of the strand, executed in `mode`:
	 * 0, HVPMU_ETRAP (the device's privilege check: privileged_action,
	 * privileged_opcode) or HVPMU_ERANGE (not one of its registers). */
	int (*reg_read)(void *pmu, enum hvpmu_reg_space sp, unsigned sel, uint64_t addr, enum hvpmu_mode mode,
			uint64_t *val);
	int (*reg_write)(void *pmu, enum hvpmu_reg_space sp, unsigned sel, uint64_t addr, enum hvpmu_mode mode,
			 uint64_t val);
};

extern const struct hvpmu_pmu_ops hvpmu_t4_pmu_ops; /* SPARC T4, §10.1-10.3 */
extern const struct hvpmu_pmu_ops hvpmu_t1_pmu_ops; /* UltraSPARC T1, niagara-perf-api.txt §2.1 */
extern const struct hvpmu_pmu_ops hvpmu_r10k_pmu_ops; /* MIPS R10000 (SGI Origin), hvpmu/r10k_pmu.h */
extern const struct hvpmu_pmu_ops hvpmu_power7_pmu_ops; /* IBM POWER7, hvpmu/power7_pmu.h */

/* Kinds of chip-wide counter devices: enum hvpmu_device_kind, hvpmu/machine.h. */
struct hvpmu_uncore_ops {
	enum hvpmu_device_kind kind;
	const char *name;   /* "t4-mcu", "t1-perfregs" */
	unsigned nregs;     /* registers 0 .. nregs-1 */
	void *(*create)(void); /* reset state; NULL on ENOMEM */
	void (*destroy)(void *dev);
	/* 0, or HVPMU_ERANGE for reg >= nregs. */
	int (*read)(const void *dev, unsigned reg, uint64_t *val);
	int (*write)(void *dev, unsigned reg, uint64_t val);
};

extern const struct hvpmu_uncore_ops hvpmu_t4_mcu_ops;
extern const struct hvpmu_uncore_ops hvpmu_t1_perfregs_ops;
extern const struct hvpmu_uncore_ops hvpmu_origin_md_ops; /* SGI Origin Hub MD counters, hvpmu/origin_md.h */
extern const struct hvpmu_uncore_ops hvpmu_cec_stats_ops; /* PAPR CEC statistics, hvpmu/cec_stats.h */

#ifdef __cplusplus
}
#endif
#endif
