/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/t4_pmu.h - SPARC T4 per-strand PMU device (layer 3).
 *
 * Models PCR0-3 and PIC0-3 of one virtual processor exactly as
 * sparc-t4-performance-instrumentation.md §10.1-10.3 describe them:
 *   - field layout, RW/RO behaviour, reserved bits (TABLE 10-1, 10-3;
 *     hvpmu/t4_regs.h);
 *   - ov/ntc sticky: set by hardware on a 2^32-1 -> 0 wrap (ntc only on a
 *     next-to-commit instruction, TABLE 10-1 footnote 1), cleared but never
 *     set by software;
 *   - ut/st/ht filtering by the privilege mode the event happens in;
 *   - toe: precise_performance_event for groups marked Precise in TABLE 10-2
 *     (trap PC = the overflowing instruction, no skid; lost in hyperprivileged
 *     mode or with ht=1, §10.3), disrupting_performance_event otherwise
 *     (level: re-raised while toe && ov, §10.2 programming notes);
 *   - picnht/picnpt checks on PIC access raising privileged_action (§10.3);
 *   - sl=0 and reserved sl values count nothing;
 *   - the §10.2 programming note on ov being re-set by the PCR write itself.
 * Which (sl, mask) events exist and which the model can count is data:
 * hvpmu/t4_events.h.
 *
 * A PMU is fed activity by the machine (hvpmu_t4_pmu_feed); register access
 * comes from the hypervisor (PCRs: hyperprivileged ASI 0x64) and from any
 * mode through the PIC ASI path (0xB0) with the privilege checks.  The
 * machine drives it through hvpmu_t4_pmu_ops (hvpmu/pmu.h).
 * Not thread-safe: one caller at a time per PMU.
 */
#ifndef HVPMU_T4_PMU_H
#define HVPMU_T4_PMU_H

#include <stdint.h>
#include <hvpmu/machine.h>
#include <hvpmu/pmu.h>
#include <hvpmu/t4_regs.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hvpmu_t4_pmu;

/*
 * Create a PMU for one strand.  `class_flags` points at the machine's table
 * of HVPMU_MAX_ICLASS decode-flag words (hvpmu/sparc_decode.h), indexed by
 * instruction class; it must outlive the PMU.  Returns NULL on ENOMEM.
 */
struct hvpmu_t4_pmu *hvpmu_t4_pmu_create(const uint32_t *class_flags);
void hvpmu_t4_pmu_destroy(struct hvpmu_t4_pmu *pmu);

/* Re-evaluate which classes each PCR counts, after new classes appeared. */
void hvpmu_t4_pmu_classes_changed(struct hvpmu_t4_pmu *pmu);

/* --- Hyperprivileged PCR access (ASI 0x64). idx 0..3, else HVPMU_ERANGE. --- */
int hvpmu_t4_pcr_read(const struct hvpmu_t4_pmu *pmu, unsigned idx, uint64_t *val);
/*
 * Write PCR idx.  All fields except ntc and ov take the written value; ntc
 * and ov can only be cleared (new = old & written); reserved bits 63:19 are
 * dropped.  `mode` is the mode of the writing instruction (HVPMU_MODE_HYPER
 * for the hypervisor): the STXA to ASI 0x64 is itself an SPR ring op and is
 * counted under the settings in force while it executes (the old PCR) when
 * those count it; if that wraps the PIC, ov (and ntc) are set again after the
 * write (the §10.2 ov programming note).
 * Returns 0 or HVPMU_ERANGE.
 */
int hvpmu_t4_pcr_write(struct hvpmu_t4_pmu *pmu, unsigned idx, uint64_t val, enum hvpmu_mode mode);

/* --- PIC access (ASI 0xB0) from `mode`. --- */
/*
 * Returns 0, HVPMU_ERANGE, or HVPMU_ETRAP (privileged_action: PCR.picnht=1
 * and mode != hyper, or PCR.picnpt=1 and mode == user).  Reads give bits
 * 31:0 (63:32 read as 0); writes load bits 31:0 and ignore 63:32.
 */
int hvpmu_t4_pic_read(const struct hvpmu_t4_pmu *pmu, unsigned idx, enum hvpmu_mode mode, uint64_t *val);
int hvpmu_t4_pic_write(struct hvpmu_t4_pmu *pmu, unsigned idx, enum hvpmu_mode mode, uint64_t val);

/* Count the activity (struct hvpmu_pmu_feed, hvpmu/pmu.h); report
 * overflows and traps. */
void hvpmu_t4_pmu_feed(struct hvpmu_t4_pmu *pmu, const struct hvpmu_pmu_feed *f,
		       struct hvpmu_pmu_feed_result *res);

/*
 * Least number of further user-mode instructions that could make any
 * counting PIC wrap (toe or not: ntc must be located too), given at most `max_cycles_per_insn` cycles per instruction;
 * UINT64_MAX when no such PIC counts.  Used by the machine to schedule syncs.
 */
uint64_t hvpmu_t4_pmu_headroom(const struct hvpmu_t4_pmu *pmu, uint64_t max_cycles_per_insn);

/*
 * Least number of further memory events of hvpmu_t4_pmu_mem_watch() that
 * could make a counting memory-event PIC (user mode) wrap; UINT64_MAX if
 * none counts.
 */
uint64_t hvpmu_t4_pmu_mem_headroom(const struct hvpmu_t4_pmu *pmu);
/* The memory events (bit e = enum hvpmu_mem_event e) those PICs count. */
uint64_t hvpmu_t4_pmu_mem_watch(const struct hvpmu_t4_pmu *pmu);

/* Raw counter state for debugging and tests (no privilege check). */
uint32_t hvpmu_t4_pmu_peek_pic(const struct hvpmu_t4_pmu *pmu, unsigned idx);

#ifdef __cplusplus
}
#endif
#endif
