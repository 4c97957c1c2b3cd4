/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/r10k_pmu.h - the MIPS R10000's own performance counters, one set
 * per CPU of the SGI Origin (`-p origin`), as a per-strand PMU device
 * (layer 3, struct hvpmu_pmu_ops hvpmu_r10k_pmu_ops).  docs/r10k-counters.md
 * has every fact with its source and every choice; the sources are:
 *
 *   [UM]   MIPS R10000 Microprocessor User's Manual, version 2.0 (MIPS
 *          Technologies, 1997), §14.20 "Performance Counter Registers (25)"
 *          (Figure 14-22, Table 14-18 and the counting rules after it) and
 *          §14.32 "Move To/From the Performance Counter";
 *   [BU]   GNU binutils opcodes/mips-opc.c: mfpc 0x4000c801, mfps
 *          0x4000c800, mask 0xffe0ffc1 (mtpc/mtps: 0x4080c80x);
 *   [LX]   Linux arch/mips/include/asm/mipsregs.h (read_r10k_perf_cntr ...:
 *          "a 5-bit performance counter number encoded into bits 1 ... 5
 *          of the instruction"; M_PERFCTL_EXL/KERNEL/SUPERVISOR/USER/
 *          INTERRUPT_ENABLE bits 0-4, the event from bit 5), its 2.6-era
 *          "R10000 performance counter definitions" (CE0_* events of
 *          counter 0, CE1_* of counter 1, CEB_USER 8 / SUPERVISOR 4 /
 *          KERNEL 2 / EXL 1), arch/mips/kernel/perf_event_mipsxx.c
 *          (R10000: 2 counters; 32-bit counters overflow at 1 << 31);
 *   [IR]   IRIX r10k_counters(5) / perfex(1): events 0-15 on counter 0,
 *          16-31 on counter 1, the names (as PAPI's irix-mips.c lists them).
 *
 * The registers (CP0 register 25, reached with MFC0/MTC0 whose function
 * bits 5:0 select: bit 0 = 1 a counter (MFPC/MTPC), 0 its control
 * register (MFPS/MTPS); bits 5:1 the number, 0 or 1 [UM §14.32, BU, LX]):
 *
 *   - PerfControl0/1 [UM Fig. 14-22]: EXL bit 0, K 1, S 2, U 3 (count in
 *     exception level / kernel / supervisor / user mode), IE 4 (interrupt
 *     enable), Event 8:5.  Bits 31:9 are reserved: dropped on write, read
 *     as 0 (choice; [UM] "all unused bits are reserved").
 *   - PerfCount0/1: 32-bit read/write counters [UM §14.20].  A write loads
 *     the low 32 bits of the value; a read returns the 32-bit register
 *     zero-extended (MFC0 sign-extends it into the GPR: the instruction's
 *     business, not the register's).
 *   - Counter 0 counts events 0-15, counter 1 events 16-31: the control
 *     register's Event field e selects event e on counter 0 and 16 + e on
 *     counter 1 [UM Table 14-18, IR].
 *   - Counting continues past bit 31 and wraps 2^32 - 1 -> 0 [UM].
 *   - Interrupt [UM §14.20]: a counter asserts IP[7] when its bit 31
 *     becomes one and its IE is set.  Modeled as a level: the request is
 *     up while some counter has bit 31 and IE set (software drops it by
 *     writing the counter or clearing IE), and a 0 -> 1 transition of bit
 *     31 with IE set during a feed requests it even if the count wrapped
 *     past it (choice; Linux's handler tests bit 31 of each counter, [LX]).
 *     Not precise: the TPC is the next PC at the feed.
 *   - Access: MFC0/MTC0 of CP0 are privileged: from user mode they trap
 *     (Coprocessor Unusable; HVPMU_ETRAP here); numbers 2-31 are not
 *     registers of the R10000 ([UM §14.32] "only register 0 and 1 are
 *     valid"): HVPMU_ERANGE.
 *   - Reset: every register 0 (choice: [UM] does not say).
 *
 * Modes (choices, docs/r10k-counters.md "Modes"): the machine feeds the
 * program's activity in user mode (counted with U) and the modeled kernel
 * path of each system call in privileged mode (counted with K: IRIX runs
 * its system calls in kernel mode with EXL cleared).  The model runs
 * nothing in supervisor mode or at exception level, so S or EXL alone
 * count nothing; hyperprivileged activity (none on the Origin) is never
 * counted.  ERL (which disables all counting [UM]) is never set.
 *
 * Events from the machine's activity: the table in src/pmu/r10k_pmu.c
 * (data), listed by hvpmu_r10k_event_name() / _supported() / _needs().
 * Events the model cannot produce are "not supported": they count 0, and
 * the guest driver reports them as not supported (docs/r10k-counters.md
 * has the list and why).
 *
 * Not thread-safe: one caller at a time per PMU.  The event-table
 * functions are pure and thread-safe.
 */
#ifndef HVPMU_R10K_PMU_H
#define HVPMU_R10K_PMU_H

#include <stdint.h>
#include <hvpmu/machine.h>
#include <hvpmu/regfield.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CP0 register 25: the performance counters and their control registers. */
#define HVPMU_R10K_CP0_PERF 25u

/* The function bits 5:0 of MFC0/MTC0 on register 25 [BU, LX]: the
 * `addr` of a HVPMU_REG_CP0 access (hvpmu/machine.h). */
HVPMU_FIELD(R10K_PERFSEL, COUNTER, 0, 1) /* 1: PerfCount (MFPC/MTPC); 0: PerfControl (MFPS/MTPS) */
HVPMU_FIELD(R10K_PERFSEL, NUM, 1, 5)     /* register number; 0 and 1 exist */
/* The function bits of each register. */
#define HVPMU_R10K_SEL_CONTROL(n) ((uint64_t)(n) << 1)
#define HVPMU_R10K_SEL_COUNT(n) (((uint64_t)(n) << 1) | 1u)

/* PerfControl0/1 [UM Figure 14-22]. */
HVPMU_FIELD(R10K_PERFCTL, EXL, 0, 1)   /* count at exception level (EXL = 1, ERL = 0) */
HVPMU_FIELD(R10K_PERFCTL, K, 1, 1)     /* count in kernel mode (EXL = ERL = 0) */
HVPMU_FIELD(R10K_PERFCTL, S, 2, 1)     /* count in supervisor mode */
HVPMU_FIELD(R10K_PERFCTL, U, 3, 1)     /* count in user mode */
HVPMU_FIELD(R10K_PERFCTL, IE, 4, 1)    /* interrupt (IP[7]) when bit 31 of the counter becomes 1 */
HVPMU_FIELD(R10K_PERFCTL, EVENT, 5, 4) /* event: e on counter 0, 16 + e on counter 1 */
/* Implemented control bits 8:0; 31:9 are reserved (read 0). */
#define HVPMU_R10K_PERFCTL_IMPL_MASK UINT64_C(0x1ff)

#define HVPMU_R10K_NCOUNTERS 2u
#define HVPMU_R10K_NEVENTS 32u             /* IRIX event numbers 0-31 */
#define HVPMU_R10K_EVENTS_PER_COUNTER 16u
#define HVPMU_R10K_COUNT_MASK UINT64_C(0xffffffff) /* 32-bit counters */
#define HVPMU_R10K_COUNT_MSB (UINT64_C(1) << 31)   /* the bit whose rise interrupts */

/* The counter that counts IRIX event `ev` (0-31), and its Event field. */
static inline unsigned hvpmu_r10k_event_counter(unsigned ev) { return ev / HVPMU_R10K_EVENTS_PER_COUNTER; }
static inline unsigned hvpmu_r10k_event_field(unsigned ev) { return ev % HVPMU_R10K_EVENTS_PER_COUNTER; }

/* A few IRIX event numbers the driver and tests name. */
enum hvpmu_r10k_event {
	HVPMU_R10K_EV_CYCLES0 = 0,        /* Cycles, counter 0 */
	HVPMU_R10K_EV_DECODED_BRANCHES = 6,
	HVPMU_R10K_EV_GRAD_INSNS0 = 15,   /* Graduated_instructions, counter 0 */
	HVPMU_R10K_EV_CYCLES1 = 16,       /* Cycles, counter 1 */
	HVPMU_R10K_EV_GRAD_INSNS1 = 17,   /* Graduated_instructions, counter 1 */
	HVPMU_R10K_EV_GRAD_LOADS = 18,
	HVPMU_R10K_EV_GRAD_STORES = 19,
	HVPMU_R10K_EV_GRAD_SC = 20,
	HVPMU_R10K_EV_GRAD_FP = 21,
	HVPMU_R10K_EV_MISPREDICTED = 24,
	HVPMU_R10K_EV_DC_MISSES = 25,
	HVPMU_R10K_EV_SC_DMISSES = 26,
};

/* What an event needs from the machine (hvpmu_r10k_event_needs). */
#define HVPMU_R10K_NEEDS_MEMORY 0x1u   /* the memory model (caches, timing with latencies) */
#define HVPMU_R10K_NEEDS_BRANCHES 0x2u /* every branch's outcome (the branch predictor) */

/* IRIX r10k_counters(5) name of event `ev` ("Cycles", "Graduated_loads"
 * ...: spaces as underscores), or NULL if ev > 31. */
const char *hvpmu_r10k_event_name(unsigned ev);
/* One line on what the model counts for it (for `hvpmu list`), or NULL. */
const char *hvpmu_r10k_event_desc(unsigned ev);
/* 1 if the model produces event `ev`, 0 if not (it counts 0) or ev > 31. */
int hvpmu_r10k_event_supported(unsigned ev);
/* HVPMU_R10K_NEEDS_* of event `ev` (0 for ev > 31). */
unsigned hvpmu_r10k_event_needs(unsigned ev);
/* The event of the other counter that counts the same thing (Cycles 0 /
 * 16, Graduated_instructions 15 / 17), or -1. */
int hvpmu_r10k_event_twin(unsigned ev);

struct hvpmu_r10k_pmu;

/*
 * The counters of one CPU in their reset state (all zero).  `class_flags`:
 * the machine's table of HVPMU_MAX_ICLASS class-flag words (hvpmu/insn.h),
 * read at each feed; it must outlive the PMU.  NULL on ENOMEM or a NULL
 * table.
 */
struct hvpmu_r10k_pmu *hvpmu_r10k_pmu_create(const uint32_t *class_flags);
void hvpmu_r10k_pmu_destroy(struct hvpmu_r10k_pmu *pmu);

/*
 * MFC0 / MTC0 of register 25 executed in `mode`, `sel` the instruction's
 * function bits 5:0 (R10K_PERFSEL; HVPMU_R10K_SEL_*).  Returns 0,
 * HVPMU_ETRAP (user mode: Coprocessor Unusable), HVPMU_ERANGE (register
 * number > 1) or HVPMU_EINVAL (mode out of range).  A control write keeps
 * bits 8:0; a counter write the low 32 bits.  Neither touches the other
 * register.
 */
int hvpmu_r10k_read(const struct hvpmu_r10k_pmu *pmu, enum hvpmu_mode mode, uint64_t sel, uint64_t *val);
int hvpmu_r10k_write(struct hvpmu_r10k_pmu *pmu, enum hvpmu_mode mode, uint64_t sel, uint64_t val);

struct hvpmu_pmu_feed;
/* What one feed did: bit i is counter i. */
struct hvpmu_r10k_feed_result {
	uint32_t rise_mask; /* counters whose bit 31 went 0 -> 1 during the feed */
	uint32_t irq_mask;  /* counters requesting IP[7] now (see above) */
	uint64_t tpc;       /* when irq_mask: the feed's next_pc (not precise); else 0 */
};

/*
 * Count the activity of one feed (struct hvpmu_pmu_feed, hvpmu/pmu.h: the
 * classes, mispredicts and memory events happened in f->mode; cycles per
 * mode) with each counter's event and mode bits; report rises and the
 * interrupt request.
 */
void hvpmu_r10k_pmu_feed(struct hvpmu_r10k_pmu *pmu, const struct hvpmu_pmu_feed *f,
			 struct hvpmu_r10k_feed_result *res);

/*
 * Least number of further user-mode instructions (each of at most
 * `max_cycles_per_insn` cycles) that could raise bit 31 of a counter with
 * IE and U set counting instructions, mispredicts or cycles; 1 while an
 * interrupt request is up (so that it is delivered at once); UINT64_MAX if
 * none.
 */
uint64_t hvpmu_r10k_pmu_headroom(const struct hvpmu_r10k_pmu *pmu, uint64_t max_cycles_per_insn);
/* Least number of further memory accesses that could raise bit 31 of a
 * counter with IE counting a memory event; UINT64_MAX if none. */
uint64_t hvpmu_r10k_pmu_mem_headroom(const struct hvpmu_r10k_pmu *pmu);
/* The memory events (bit e = enum hvpmu_mem_event e) those counters count. */
uint64_t hvpmu_r10k_pmu_mem_watch(const struct hvpmu_r10k_pmu *pmu);

/* Raw register state for tests and debuggers (no privilege check). */
uint32_t hvpmu_r10k_pmu_peek_control(const struct hvpmu_r10k_pmu *pmu, unsigned n);
uint32_t hvpmu_r10k_pmu_peek_count(const struct hvpmu_r10k_pmu *pmu, unsigned n);

#ifdef __cplusplus
}
#endif
#endif
