/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/supervisor.h - the guest OS performance-counter driver (layer 5).
 *
 * Acts as Linux's sparc perf driver does on T4 (../shared/reference/
 * linux-clients.md §1.6-1.7), through layer 4 only:
 *   - negotiates API group HV_GRP_VT_CPU 0x20c major 1 before use;
 *   - programs PCRs only with HV_FAST_VT_SET_PERFREG / reads them with
 *     HV_FAST_VT_GET_PERFREG, and reads/writes PICs only through the PIC ASI
 *     path (ASI 0xB0) in privileged mode, subject to picnht/picnpt;
 *   - changes events with the §10.2 sequence: disable (sl=0, ut=st=ht=0),
 *     reset the PIC, enable;
 *   - sets toe and extends each 32-bit PIC to a 64-bit count: every overflow
 *     trap (interrupt_level_15 from the hypervisor) or poll that finds PCR.ov
 *     adds 2^32 and clears ov;
 *   - with more events than the 4 PICs, rotates groups of up to 4 events on
 *     the OS tick (every `rotate_cycles` of %tick) and scales counts by
 *     enabled/running time as perf stat does.
 * Each strand (guest thread) has its own PMU; counts are summed over strands
 * as perf stat sums an inherited counter.
 * Strands: every function taking a `strand` acts only on the strands of
 * the driver's guest (md guests[guest].first_strand .. + nstrands - 1),
 * the only strands its OS runs on; any other strand is HVPMU_ERANGE and no
 * hypercall is made on it (the hypervisor would take it as the other
 * guest's).  Each entry point runs as guest OS code: it puts the strand
 * in privileged mode for its hypercalls and PMU accesses, and returns it
 * to the mode it was in (user mode while the program runs).
 * Not thread-safe: the caller serialises (as the plugin does).
 */
#ifndef HVPMU_SUPERVISOR_H
#define HVPMU_SUPERVISOR_H

#include <stdint.h>
#include <hvpmu/sun4v.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HVPMU_SV_MAX_EVENTS 64

/* An event request.  On platform t4: a TABLE 10-2 (sl, mask).  On t1:
 * `sl` is the PICL event (enum hvpmu_t1_picl_event) with mask 0, or
 * mask HVPMU_SV_T1_PICH for the PICH instruction count (Instr_cnt).  The
 * T1 driver keeps PICH on the instruction event in every group and
 * rotates the PICL events; the PCR's single UT/ST pair takes the union of
 * the group's modes (Linux's niagara1 PMU requires them equal). */
#define HVPMU_SV_T1_PICH 0x1
struct hvpmu_sv_event {
	char name[64];     /* name as the user spelled it, for reports */
	uint8_t sl;        /* TABLE 10-2 sl 0..31 */
	uint8_t mask;      /* TABLE 10-2 mask 0..0x3f */
	uint8_t ut, st, ht;/* count in user / privileged / hyperprivileged mode */
	uint8_t new_group; /* t4: start a new group with this event, even if the
			    * last one has a free PIC (cpustat's -c sets) */
};

struct hvpmu_sv_config {
	uint64_t rotate_cycles; /* OS tick for group rotation and overflow polling, cycles; 0 = default */
	uint32_t pic_init;      /* value each PIC starts from (default 0); excluded from counts */
	/* Called on every overflow the driver accounts (may be NULL). */
	void (*on_overflow)(void *ctx, unsigned event, const struct hvpmu_guest_trap *trap);
	/* Called at every OS tick of a running strand, after rotation, with the
	 * strand's %tick (may be NULL).  The driver's own work is done; the
	 * callback may use the MCU functions below. */
	void (*on_tick)(void *ctx, uint32_t strand, uint64_t tick);
	void *ctx;
};

/* Result for one event, summed over strands. */
struct hvpmu_sv_count {
	int supported;       /* 0: "<not supported>" (unmodeled or refused by the hypervisor) */
	uint64_t raw;        /* events counted while on a PIC (64-bit extended) */
	uint64_t enabled;    /* cycles the event was enabled */
	uint64_t running;    /* cycles the event was on a PIC */
	uint64_t overflows;  /* PIC wraps accounted */
	double scaled;       /* raw * enabled / running (== raw when always running) */
};

struct hvpmu_sv;

/* Create a driver for guest `guest` of hv; installs its trap handler
 * (which handles interrupt_level_15 and _14 and ignores other trap types).
 * cfg may be NULL for defaults.  Returns 0, HVPMU_EINVAL (also for a guest
 * the machine description does not have) or HVPMU_ENOMEM. */
int hvpmu_sv_create(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_sv_config *cfg,
		    struct hvpmu_sv **out);
void hvpmu_sv_destroy(struct hvpmu_sv *sv);

/* Add an event before the first hvpmu_sv_start_strand().  Returns its index
 * (>= 0), HVPMU_EFULL, or HVPMU_EINVAL (sl > 31, mask > 0x3f, no mode). An
 * event the model cannot count is accepted and reported unsupported. */
int hvpmu_sv_add_event(struct hvpmu_sv *sv, const struct hvpmu_sv_event *ev);
unsigned hvpmu_sv_nevents(const struct hvpmu_sv *sv);

/* A strand starts running the measured program (thread creation): program
 * its PMU with the first group.  Negotiates the API group on first use.
 * Returns 0, HVPMU_EHV (negotiation failed) or HVPMU_ERANGE. */
int hvpmu_sv_start_strand(struct hvpmu_sv *sv, uint32_t strand);
/* The strand stops (thread exit / program end): fold its counts, disable. */
int hvpmu_sv_stop_strand(struct hvpmu_sv *sv, uint32_t strand);

/* Fold the counts of a running strand's current group into its events
 * without stopping it (the back-end's pcbe_sample: poll overflows, read
 * the PICs, fold their advance since the last fold), so that
 * hvpmu_sv_read() and hvpmu_sv_read_strand() include them: a sample, as
 * cpustat takes one each interval.  Counts are exact across folds; enabled
 * time advances too.  A strand not running: nothing to do.  Returns 0,
 * HVPMU_ERANGE. */
int hvpmu_sv_fold(struct hvpmu_sv *sv, uint32_t strand);

/* Strand `strand`'s share of event `idx` folded so far (by hvpmu_sv_fold,
 * group rotation or hvpmu_sv_stop_strand): *raw events (64-bit extended,
 * unscaled) and *running cycles on a PIC.  Returns 0 or HVPMU_ERANGE. */
int hvpmu_sv_read_strand(struct hvpmu_sv *sv, uint32_t strand, unsigned idx, uint64_t *raw, uint64_t *running);

/* Counts of event `idx`, summed over the strands stopped so far (call
 * hvpmu_sv_stop_strand() first for a running strand).  Returns 0 or
 * HVPMU_ERANGE. */
int hvpmu_sv_read(struct hvpmu_sv *sv, unsigned idx, struct hvpmu_sv_count *out);

/*
 * Memory-controller DRAM counters (sparc-t4-performance-instrumentation.md
 * §10.5), the OS's group: counters 0 and 1 (DRAM_PERF_COUNT01_REG) with
 * selects sel0 / sel1 of DRAM_PERF_CTL_REG (TABLE 10-7 codes), reached only
 * through HV_FAST_VT_GET/SET_PERFREG ids HV_VT_PERFREG_MCU0 + 3 * mcu + k,
 * running as guest OS code on `strand`.
 *   program: write the two selects, clear both counters (and their sticky
 *            bits); negotiates the API group on first use.
 *   read:    extend the 31-bit counters to 64 bits (a wrap, shown by the
 *            sticky bit and the value, adds 2^31; the sticky bit is then
 *            cleared) and return the counts since program.  Sample often
 *            enough that fewer than 2^31 events happen between reads.
 * Return 0, HVPMU_ERANGE (mcu), or HVPMU_EHV (a hypercall failed: e.g.
 * ENOACCESS when the machine description gives the guest no DRAM group);
 * hvpmu_sv_last_status() tells which.
 */
#define HVPMU_SV_MAX_MCU 16
int hvpmu_sv_mcu_program(struct hvpmu_sv *sv, uint32_t strand, unsigned mcu, unsigned sel0, unsigned sel1);
int hvpmu_sv_mcu_read(struct hvpmu_sv *sv, uint32_t strand, unsigned mcu, uint64_t counts[2]);

/*
 * UltraSPARC T1 DRAM / JBUS counters (niagara-perf-api.txt), through
 * NIAGARA_GET/SET_PERFREG only.  `unit` 0 is the JBUS, 1..4 DRAM channels
 * 0..3; pic0 / pic1 as Solaris busstat names them (pic0 = the upper half,
 * hvpmu_t1_pic_counter); codes are the 4-bit codes of hvpmu/t1_perfregs.h
 * (DRAM: stop << 3 | select).  program: set both codes, clear the counter
 * register; read: 31-bit counters extended to 64 bits (as the MCU read
 * above), counts since program.  Return 0, HVPMU_ERANGE, HVPMU_EHV.
 */
#define HVPMU_SV_T1_UNITS 5
int hvpmu_sv_t1perf_program(struct hvpmu_sv *sv, uint32_t strand, unsigned unit, unsigned code0, unsigned code1);
int hvpmu_sv_t1perf_read(struct hvpmu_sv *sv, uint32_t strand, unsigned unit, uint64_t counts[2]);

/*
 * Niagara MMU statistics (niagara-mmustat-api.txt), as Linux's
 * arch/sparc/kernel/sysfs.c does it (linux-clients.md §1.4): negotiate
 * group 0x200 (pre-versioning fallback to 1.0 on EBADTRAP/ENOTSUPPORTED),
 * zero the 0x200-byte buffer at guest real address `ra` (64-byte aligned),
 * and NIAGARA_MMUSTAT_CONF it for `strand`.  read: the buffer's 64 words
 * (host order) after NIAGARA_MMUSTAT_INFO confirms the buffer; stop:
 * CONF with ra 0.  Return 0 or HVPMU_EHV (hvpmu_sv_last_status() says
 * which sun4v status), HVPMU_ERANGE.
 */
#define HVPMU_SV_MMUSTAT_WORDS 64
int hvpmu_sv_mmustat_start(struct hvpmu_sv *sv, uint32_t strand, uint64_t ra);
int hvpmu_sv_mmustat_read(struct hvpmu_sv *sv, uint32_t strand, uint64_t words[HVPMU_SV_MMUSTAT_WORDS]);
int hvpmu_sv_mmustat_stop(struct hvpmu_sv *sv, uint32_t strand);

/* Last hypervisor status that made an event unsupported or negotiation
 * fail (HV_EOK if none). */
uint64_t hvpmu_sv_last_status(const struct hvpmu_sv *sv);

#ifdef __cplusplus
}
#endif
#endif
