/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/power7_pmu.h - the IBM POWER7 core performance monitor, one per
 * hardware thread of the POWER platform (`-p power`), as a per-strand PMU
 * device (layer 3, struct hvpmu_pmu_ops hvpmu_power7_pmu_ops).
 * docs/power7-pmu.md has every fact with its source and every choice; the
 * sources are:
 *
 *   [ISA]  Power ISA Version 2.06 Book III-S, chapter 9 "Performance
 *          Monitor Facility" (MMCR0, MMCR1, MMCRA, PMC1-6; the problem,
 *          privileged and hypervisor states; "enabled conditions or
 *          events"; the Performance Monitor alert);
 *   [REG]  Linux arch/powerpc/include/asm/reg.h: SPR numbers (SPRN_PMC1
 *          787 .. SPRN_PMC6 792, SPRN_MMCR0 795, SPRN_MMCR1 798,
 *          SPRN_MMCRA 0x312, SPRN_SIAR 780, SPRN_SDAR 781; the user
 *          read-only aliases SPRN_UPMC1.., 16 lower) and the MMCR0/MMCRA
 *          bit values (MMCR0_FC 0x80000000 ... MMCR0_FCHV 0x1);
 *   [P7]   Linux arch/powerpc/perf/power7-pmu.c: the event code layout
 *          (PM_PMC_SH 16, PM_UNIT_SH 12, PM_COMBINE_SH 11, PM_L2SEL_SH 8,
 *          PM_PMCSEL_MSK 0xff), the MMCR1 layout (MMCR1_TTM0SEL_SH 60 ..
 *          MMCR1_PMC4SEL_SH 0), power7_compute_mmcr (PMC1CE, PMCjCE),
 *          PMC5 = PM_RUN_INST_CMPL 0x500fa, PMC6 = PM_RUN_CYC 0x600f4;
 *   [BK]   Linux arch/powerpc/perf/core-book3s.c: power_pmu_enable /
 *          power_pmu_disable / perf_event_interrupt / write_mmcr0, the
 *          client sequence the driver and the unit test replay.
 *
 * Registers (bit numbers below are Linux's: bit 0 the least significant
 * of the 64-bit SPR; the ISA numbers them from the other end, bit 63 - n):
 *
 *   - PMC1-6 (SPR 787-792): 32-bit counters; a write loads the low 32
 *     bits, a read returns them zero-extended.  Counting wraps 2^32-1 -> 0
 *     and goes on.  PMC1-4 count the event MMCR1 selects for them; PMC5
 *     counts instructions completed and PMC6 cycles (PM_RUN_INST_CMPL,
 *     PM_RUN_CYC [P7]: the run latch is always set in the model) unless
 *     MMCR0 FC56 is set.
 *   - MMCR0 (SPR 795), bits 31:0 (63:32 reserved: dropped on write, read
 *     0): FC 31 (freeze all), FCS 30 (freeze in privileged state,
 *     MSR[HV PR] = 0b00), FCP 29 (freeze in problem state, MSR[PR] = 1),
 *     FCM1 28 / FCM0 27 (freeze while MSR[PMM] = 1 / 0: the model's
 *     MSR[PMM] is always 0, so FCM0 freezes and FCM1 never does), PMAE 26
 *     (Performance Monitor alert enable; Linux's MMCR0_PMXE), FCECE 25
 *     (freeze counters on an enabled condition or event), TBEE 22,
 *     PMC1CE 15 (PMC1's bit 31 becoming 1 is an enabled condition),
 *     PMCjCE 14 (the same for PMC2-6), TRIGGER 13, PMAO 7 (a Performance
 *     Monitor alert has occurred), FC56 4 (freeze PMC5 and PMC6), FCH 0
 *     (freeze in hypervisor state, MSR[HV PR] = 0b10; Linux's MMCR0_FCHV).
 *     Every bit 31:0 is kept as written; TBEE, TRIGGER, SHRFC 6, FCTI 3,
 *     FCTA 2 and FCWAIT 1 have no effect (the model has no time-base
 *     transition exception, no trigger pairing, no tags or wait state).
 *   - MMCR1 (SPR 798, 64 bits, kept as written) [P7]: TTM0SEL-TTM3SEL
 *     63:60, 59:56, 55:52, 51:48 (the unit of PMC1-4's event), L2SEL
 *     47:45, PMC1-4 COMBINE 35, 34, 33, 32, PMC1SEL-PMC4SEL 31:24, 23:16,
 *     15:8, 7:0.  A PMC whose selector is 0 counts nothing.
 *   - MMCRA (SPR 786, 64 bits, kept as written): SDSYNC 31, SDAR_DCACHE_MISS
 *     30, SDAR_ERAT_MISS 29, SIHV 28, SIPR 27, SLOT 26:24, SAMPLE_ENABLE 0
 *     [REG].  Counting does not need it: sampling is not modeled.
 *   - SIAR (780), SDAR (781): read 0, writes dropped (no sampling).
 *
 * Access: mfspr/mtspr of the numbers above need privileged or hypervisor
 * state (an SPR number with its 0x10 bit set is privileged [ISA]); from
 * problem state they trap (HVPMU_ETRAP: the privileged-instruction type of
 * the program interrupt).  The user aliases (UMMCRA 770, UPMC1-6 771-776,
 * UMMCR0 779, UMMCR1 782 [REG]) read the same registers in any state and
 * are read-only: an mtspr of one traps.  Any other SPR: HVPMU_ERANGE.
 *
 * Counting (per feed, in the strand's mode: HVPMU_MODE_USER is problem
 * state, HVPMU_MODE_PRIV privileged state with MSR[HV] = 0, the LPAR
 * kernel's; HVPMU_MODE_HYPER hypervisor state): nothing counts while FC,
 * FCM0, or the state's freeze bit (FCP, FCS, FCH) is set; PMC5/6 not while
 * FC56.  Cycles count per mode with each mode's freeze bit.
 *
 * The Performance Monitor alert [ISA]: an enabled condition is PMC1's bit
 * 31 becoming 1 with PMC1CE, or PMCn's (n = 2..6) with PMCjCE.  When one
 * occurs: with FCECE, FC is set, the counters freezing at the end of the
 * feed in which it occurred (a choice: the machine feeds up to a block
 * past its headroom, and the exception is taken right after the feed, so
 * a counting driver loses nothing; on hardware the freeze is immediate);
 * with PMAE, PMAE is cleared and PMAO set.  The Performance Monitor exception is requested while PMAO is 1
 * (software clears it, as Linux's write_mmcr0 does); it is a disrupting
 * exception: its address is the next instruction's.
 *
 * Reset: every register 0.
 *
 * Events of PMC1-4: the event code an MMCR1 setting selects is looked up
 * in the event table (src/pmu/power7_events.c, hvpmu_power7_event_*),
 * which says what the model counts for it; an event the model does not
 * produce counts 0.
 *
 * Not thread-safe: one caller at a time per PMU.  The event-table
 * functions are pure and thread-safe.
 */
#ifndef HVPMU_POWER7_PMU_H
#define HVPMU_POWER7_PMU_H

#include <stdint.h>
#include <hvpmu/machine.h>
#include <hvpmu/regfield.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SPR numbers [REG]. */
#define HVPMU_P7_SPR_MMCRA 786u
#define HVPMU_P7_SPR_PMC1 787u   /* PMC1 .. PMC6: 787 .. 792 */
#define HVPMU_P7_SPR_MMCR0 795u
#define HVPMU_P7_SPR_MMCR1 798u
#define HVPMU_P7_SPR_SIAR 780u
#define HVPMU_P7_SPR_SDAR 781u
#define HVPMU_P7_SPR_USER_OFFSET 16u /* UPMC1 771 = PMC1 - 16, UMMCR0 779, UMMCR1 782, UMMCRA 770 */
#define HVPMU_P7_SPR_PMC(n) (HVPMU_P7_SPR_PMC1 + (n) - 1u) /* n = 1..6 */

#define HVPMU_P7_NPMC 6u
#define HVPMU_P7_NPROG 4u                            /* PMC1-4 take MMCR1's selectors */
#define HVPMU_P7_PMC_MASK UINT64_C(0xffffffff)       /* 32-bit counters */
#define HVPMU_P7_PMC_MSB (UINT64_C(1) << 31)         /* overflow: this bit becomes 1 */

/* MMCR0 [REG] (Linux's bit numbers; [ISA] bit 63 - n). */
HVPMU_FIELD(P7_MMCR0, FC, 31, 1)
HVPMU_FIELD(P7_MMCR0, FCS, 30, 1)
HVPMU_FIELD(P7_MMCR0, FCP, 29, 1)
HVPMU_FIELD(P7_MMCR0, FCM1, 28, 1)
HVPMU_FIELD(P7_MMCR0, FCM0, 27, 1)
HVPMU_FIELD(P7_MMCR0, PMAE, 26, 1)   /* Linux MMCR0_PMXE */
HVPMU_FIELD(P7_MMCR0, FCECE, 25, 1)
HVPMU_FIELD(P7_MMCR0, TBEE, 22, 1)
HVPMU_FIELD(P7_MMCR0, PMC1CE, 15, 1)
HVPMU_FIELD(P7_MMCR0, PMCJCE, 14, 1) /* Linux MMCR0_PMCjCE */
HVPMU_FIELD(P7_MMCR0, TRIGGER, 13, 1)
HVPMU_FIELD(P7_MMCR0, PMAO, 7, 1)
HVPMU_FIELD(P7_MMCR0, SHRFC, 6, 1)
HVPMU_FIELD(P7_MMCR0, FC56, 4, 1)
HVPMU_FIELD(P7_MMCR0, FCTI, 3, 1)
HVPMU_FIELD(P7_MMCR0, FCTA, 2, 1)
HVPMU_FIELD(P7_MMCR0, FCWAIT, 1, 1)
HVPMU_FIELD(P7_MMCR0, FCH, 0, 1)     /* Linux MMCR0_FCHV */
#define HVPMU_P7_MMCR0_IMPL_MASK UINT64_C(0xffffffff)

/* MMCR1 [P7]. */
HVPMU_FIELD(P7_MMCR1, TTM0SEL, 60, 4)
HVPMU_FIELD(P7_MMCR1, TTM1SEL, 56, 4)
HVPMU_FIELD(P7_MMCR1, TTM2SEL, 52, 4)
HVPMU_FIELD(P7_MMCR1, TTM3SEL, 48, 4)
HVPMU_FIELD(P7_MMCR1, L2SEL, 45, 3)
HVPMU_FIELD(P7_MMCR1, PMC1_COMBINE, 35, 1)
HVPMU_FIELD(P7_MMCR1, PMC4_COMBINE, 32, 1)
HVPMU_FIELD(P7_MMCR1, PMC1SEL, 24, 8)
HVPMU_FIELD(P7_MMCR1, PMC4SEL, 0, 8)
/* PMCn's (n = 1..4) unit, combine bit and selector. */
#define HVPMU_P7_MMCR1_TTMSEL_SHIFT(n) (P7_MMCR1_TTM0SEL_SHIFT - 4 * ((n) - 1))
#define HVPMU_P7_MMCR1_COMBINE_SHIFT(n) (P7_MMCR1_PMC1_COMBINE_SHIFT - ((n) - 1))
#define HVPMU_P7_MMCR1_PMCSEL_SHIFT(n) (P7_MMCR1_PMC1SEL_SHIFT - 8 * ((n) - 1))

/* MMCRA [REG]. */
HVPMU_FIELD(P7_MMCRA, SDSYNC, 31, 1)
HVPMU_FIELD(P7_MMCRA, SDAR_DCACHE_MISS, 30, 1)
HVPMU_FIELD(P7_MMCRA, SDAR_ERAT_MISS, 29, 1)
HVPMU_FIELD(P7_MMCRA, SIHV, 28, 1)
HVPMU_FIELD(P7_MMCRA, SIPR, 27, 1)
HVPMU_FIELD(P7_MMCRA, SLOT, 24, 3)
HVPMU_FIELD(P7_MMCRA, SAMPLE_ENABLE, 0, 1)

/* The event code (perf's config:0-19) [P7]. */
HVPMU_FIELD(P7_EV, PMCSEL, 0, 8)
HVPMU_FIELD(P7_EV, L2SEL, 8, 3)
HVPMU_FIELD(P7_EV, COMBINE, 11, 1)
HVPMU_FIELD(P7_EV, UNIT, 12, 4)
HVPMU_FIELD(P7_EV, PMC, 16, 4)   /* 1-based PMC of a direct event; 0: any of PMC1-4 */
#define HVPMU_P7_EV_MASK UINT64_C(0xfffff)
#define HVPMU_P7_UNIT_L2 6u       /* unit 6: the L2 events, L2SEL shared by all */

/* The interrupts the PAPR personality delivers to the partition's OS
 * (struct hvpmu_guest_trap.tt, src/services/papr_hv.c): the Performance
 * Monitor interrupt (vector 0xF00) for the exception above, the
 * Decrementer (0x900) for the tick compare the OS arms [ISA Book III-S
 * "Interrupt Definitions"]. */
#define HVPMU_P7_TRAP_PERF 0xf00u
#define HVPMU_P7_TRAP_DEC 0x900u

/* The fixed events of PMC5 and PMC6 [P7]. */
#define HVPMU_P7_PM_RUN_INST_CMPL5 UINT64_C(0x500fa)
#define HVPMU_P7_PM_RUN_CYC6 UINT64_C(0x600f4)

/*
 * The event code the MMCR1 setting `mmcr1` selects for PMCn (n = 1..4):
 * PMC n, the unit, combine and selector of PMCn, the L2SEL of unit 6.
 * 0 if the selector is 0 (PMCn counts nothing) or n is out of range.
 */
uint64_t hvpmu_power7_mmcr1_event(uint64_t mmcr1, unsigned n);

struct hvpmu_power7_pmu;

/* A thread's PMU in its reset state.  `class_flags`: the machine's table
 * of HVPMU_MAX_ICLASS class-flag words (hvpmu/insn.h), read at each feed,
 * outliving the PMU.  NULL on ENOMEM or a NULL table. */
struct hvpmu_power7_pmu *hvpmu_power7_pmu_create(const uint32_t *class_flags);
void hvpmu_power7_pmu_destroy(struct hvpmu_power7_pmu *pmu);

/*
 * mfspr / mtspr of SPR `spr` in `mode`.  Returns 0, HVPMU_ETRAP (a
 * privileged SPR from problem state; any mtspr of a user alias),
 * HVPMU_ERANGE (not a performance-monitor SPR) or HVPMU_EINVAL (mode out
 * of range).
 */
int hvpmu_power7_read(const struct hvpmu_power7_pmu *pmu, enum hvpmu_mode mode, unsigned spr, uint64_t *val);
int hvpmu_power7_write(struct hvpmu_power7_pmu *pmu, enum hvpmu_mode mode, unsigned spr, uint64_t val);

struct hvpmu_pmu_feed;
/* What one feed did: bit n - 1 is PMCn. */
struct hvpmu_power7_feed_result {
	uint32_t rise_mask;  /* PMCs whose bit 31 went 0 -> 1 */
	uint32_t alert_mask; /* PMCs whose rise was an enabled condition (PMC1CE / PMCjCE) */
	uint32_t irq_mask;   /* while PMAO is 1: the PMCs of the alert (never 0 then) */
	uint64_t tpc;        /* with irq_mask: the feed's next_pc */
};

/* Count one feed's activity (hvpmu/pmu.h struct hvpmu_pmu_feed); apply the
 * alert rules above. */
void hvpmu_power7_pmu_feed(struct hvpmu_power7_pmu *pmu, const struct hvpmu_pmu_feed *f,
			   struct hvpmu_power7_feed_result *res);

/* Least further problem-state instructions (each of at most
 * `max_cycles_per_insn` cycles) that could make an enabled condition
 * occur that acts (MMCR0 PMAE or FCECE set: an enabled condition with
 * neither changes no register, so the machine need not sync for it);
 * 1 while PMAO is set; UINT64_MAX if none can. */
uint64_t hvpmu_power7_pmu_headroom(const struct hvpmu_power7_pmu *pmu, uint64_t max_cycles_per_insn);
/* The same in memory events of hvpmu_power7_pmu_mem_watch(). */
uint64_t hvpmu_power7_pmu_mem_headroom(const struct hvpmu_power7_pmu *pmu);
uint64_t hvpmu_power7_pmu_mem_watch(const struct hvpmu_power7_pmu *pmu);

/* Raw state for tests and debuggers (no privilege check): PMCn (1..6),
 * MMCR0, MMCR1, MMCRA. */
uint32_t hvpmu_power7_pmu_peek_pmc(const struct hvpmu_power7_pmu *pmu, unsigned n);
uint64_t hvpmu_power7_pmu_peek_spr(const struct hvpmu_power7_pmu *pmu, unsigned spr);

/* ---- the event table (src/pmu/power7_events.c) ---- */

/* Where an event's count comes from. */
enum hvpmu_power7_src {
	HVPMU_P7_SRC_NONE = 0, /* not modeled: counts 0 */
	HVPMU_P7_SRC_CYCLES,   /* cycles of the counted states */
	HVPMU_P7_SRC_INSN,     /* retired instructions with any of `iany` class flags */
	HVPMU_P7_SRC_MEV,      /* memory events `mevs` */
	HVPMU_P7_SRC_MISPRED,  /* mispredicted branches (the branch model) */
	HVPMU_P7_SRC_TAKEN,    /* taken branches: conditional ones taken, and unconditional ones */
};

/* What an event needs from the machine. */
#define HVPMU_P7_NEEDS_MEMORY 0x1u
#define HVPMU_P7_NEEDS_BRANCHES 0x2u

struct hvpmu_power7_event {
	const char *name;   /* power7-events-list.h's name (PM_...) */
	uint32_t code;      /* the event code (config:0-19) */
	uint8_t src;        /* enum hvpmu_power7_src */
	uint8_t needs;      /* HVPMU_P7_NEEDS_* */
	uint32_t iany;      /* SRC_INSN: class flags */
	uint64_t mevs;      /* SRC_MEV: bit e = enum hvpmu_mem_event e */
	const char *desc;   /* what the model counts, or why it is not modeled */
};

/* The table: entries 0 .. hvpmu_power7_nevents()-1, NULL past it. */
unsigned hvpmu_power7_nevents(void);
const struct hvpmu_power7_event *hvpmu_power7_event_at(unsigned i);
/* The entry of event code `code` by name (case-sensitive), or NULL. */
const struct hvpmu_power7_event *hvpmu_power7_event_named(const char *name);
const struct hvpmu_power7_event *hvpmu_power7_event_of(uint64_t code);
/* What PMCn (1..6) counts for the code an MMCR setting selects
 * (the table's entry of the code, of the code without its PMC field when
 * the event may count on any PMC, or of its 4x-decode twin [P7]
 * find_alternative_decode); NULL: nothing the model produces. */
const struct hvpmu_power7_event *hvpmu_power7_event_on_pmc(uint64_t code, unsigned n);

/* What the model counts for event `e` (its table line), or, for an event
 * it does not produce, why not (one line); NULL for a NULL e. */
const char *hvpmu_power7_event_desc(const struct hvpmu_power7_event *e);

/* ---- what Linux's driver compiles in [P7], pure functions ---- */

/* perf's generic and cache event names and the code Linux maps each to
 * (power7_generic_events, power7_cache_events: the entries that name an
 * event); entries 0 .. until NULL. */
struct hvpmu_power7_generic {
	const char *name;  /* "cycles", "L1-dcache-load-misses" ... */
	uint32_t code;
};
const struct hvpmu_power7_generic *hvpmu_power7_event_generic_at(unsigned i);

/* power7_get_constraint: 0 and the constraint's mask and value, or -1 (no
 * PMC can count `code`: a PMC field > 6, or PMC5/6 with another event). */
int hvpmu_power7_event_constraint(uint64_t code, uint64_t *mask, uint64_t *value);
/* power7_get_alternatives: `code` first, then the same event on other
 * PMCs; with `only_count_run` (a per-task event, core-book3s.c's
 * PPMU_ONLY_COUNT_RUN) PM_CYC <-> PM_RUN_CYC and PM_INST_CMPL (0x2) <->
 * PM_RUN_INST_CMPL.  Returns how many (1 .. HVPMU_P7_MAX_ALT). */
#define HVPMU_P7_MAX_ALT 8
unsigned hvpmu_power7_event_alternatives(uint64_t code, int only_count_run, uint64_t alt[HVPMU_P7_MAX_ALT]);
/* core-book3s.c power_check_constraints with POWER7's add_fields 0x1555
 * and test_adder 0x3000: can the `n` (<= 6) events count at once, taking
 * alternatives?  0 and the codes replaced by the chosen alternatives (the
 * first feasible choice, in Linux's search order), or -1 (unchanged). */
int hvpmu_power7_event_check_constraints(uint64_t *codes, unsigned n, int only_count_run);
/* power7_compute_mmcr: the PMC (0-based, hwc[i]) of each event and
 * mmcr[0..2] = MMCR0 (PMC1CE, PMCjCE), MMCR1, MMCRA; 0, or -1 (two events
 * on one PMC, more any-PMC events than free PMC1-4). */
int hvpmu_power7_event_compute_mmcr(const uint64_t *codes, unsigned n, unsigned *hwc, uint64_t mmcr[3]);

#ifdef __cplusplus
}
#endif
#endif
