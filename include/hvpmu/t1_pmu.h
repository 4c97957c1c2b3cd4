/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/t1_pmu.h - UltraSPARC T1 (Niagara-1) per-strand PMU device (layer 3).
 *
 * Models the one %pcr / %pic pair of a T1 strand (ASR 0x10 / 0x11) as
 * ../shared/reference/hw-and-hypervisor.md §3.1-3.2 describe it, with the
 * access model of niagara-perf-api.txt §2.1 (privileged code reads and
 * writes them directly; no hypercall is involved):
 *
 *   - %pcr (hvpmu/t1_pcr_regs.h): PRIV bit 0, ST 1, UT 2, SL 6:4, OVFL 8,
 *     OVFH 9; every other bit is reserved, dropped on write and read as 0.
 *     rd/wr %pcr is privileged: from user mode it traps privileged_opcode
 *     (HVPMU_ETRAP here).
 *   - %pic: PICH (63:32) counts retired instructions, PICL (31:0) counts
 *     the event PCR.SL selects (enum hvpmu_t1_picl_event).  rd %pic returns
 *     both halves; wr %pic loads both halves.  With PCR.PRIV=1 a user-mode
 *     rd/wr %pic traps privileged_action (HVPMU_ETRAP); privileged and
 *     hyperprivileged code always has access (§3.2, tlu_pib
 *     pib_priv_act_trap_m = non-privileged PIC access & PCR.PRIV).
 *   - OVFL/OVFH are sticky: hardware sets the bit when its half wraps
 *     2^32-1 -> 0 and never clears it; software clears it by writing 0.
 *     Decision: software CAN also set them by writing 1.  §3.1 says a write
 *     "loads PRIV/ST/UT/SL/OVFL/OVFH from the written value", and the
 *     OpenSPARC T1 RTL (tlu_pib.v: pcr_wdata_in takes wsr data bits 9:8 into
 *     the OVF flops on a PCR write) loads them unconditionally.  This is
 *     unlike the T4, whose ov can only be cleared (hvpmu/t4_pmu.h).  A
 *     software-set OVF bit is only status: it requests no interrupt (only
 *     a wrap sets SOFTINT bit 15, §3.2).  The RTL also feeds a written OVF
 *     value into its wrap detector (tlu_pib.v, "bug 3937"), so on silicon
 *     writing 1 while the counter counts may look like a wrap to the trap
 *     logic.  That glitch is not modeled.
 *   - Counting filter: UT counts user-mode events, ST privileged-mode ones.
 *     Nothing counts in hyperprivileged mode: on sun4v HPSTATE.enb=1, and
 *     tlu_pib.v pic_cnt_en has no term for hyperprivileged execution then.
 *     The machine feeds the user program's activity in user mode and the
 *     modeled kernel path of each system call in privileged mode
 *     (docs/kernel-model.md), so ST counts the kernel path.
 *   - Wrap: either half wrapping 2^32-1 -> 0 sets its OVF bit and sets
 *     SOFTINT bit 15, i.e. requests interrupt_level_15 (TT 0x4f; §3.2,
 *     tlu_tdp.v ORs the wrap pulses into sftint[15]).  There is no
 *     trap-enable bit: every wrap requests the interrupt.  Whether and when
 *     it is taken (PSTATE.IE, PIL < 15) is for the machine/hypervisor.  The
 *     interrupt is not precise here: its TPC is the next PC at the feed,
 *     like the T4's disrupting_performance_event.  (The RTL makes PICH
 *     wraps precise with "one/two below" look-ahead flags, §3.2.  That
 *     refinement is not modeled.)
 *   - After reset, PCR, PICH and PICL are 0 (tlu_pib.v local reset).
 *
 * PICL events from the machine's activity (struct hvpmu_t1_feed):
 *   SL 0 SB_full      HVPMU_MEV_SB_FULL_CYCLES: cycles the strand's store
 *                     buffer has every entry occupied (the RTL counts a
 *                     level signal once per cycle: tlu_pib.v picl_event[0] =
 *                     lsu_tlu_stb_full_w2; docs/memory-model.md "Store buffer")
 *   SL 1 FP_instr_cnt user instructions of classes with HVPMU_IC_FP
 *   SL 2 IC_miss      HVPMU_MEV_IC_MISS_L2L3 + HVPMU_MEV_IC_MISS_MEM
 *   SL 3 DC_miss      HVPMU_MEV_DC_MISS_L2L3 + HVPMU_MEV_DC_MISS_MEM
 *   SL 4 ITLB_miss    HVPMU_MEV_ITLB_MISS
 *   SL 5 DTLB_miss    HVPMU_MEV_DTLB_FILL_8K .. _2G + HVPMU_MEV_DTLB_FILL_TRAP
 *   SL 6 L2_imiss     HVPMU_MEV_IC_MISS_MEM (served beyond L2)
 *   SL 7 L2_dmiss_ld  HVPMU_MEV_DC_MISS_MEM (served beyond L2)
 *
 * Register access comes from code running on the strand (rd/wr %asr16 and
 * %asr17) in a given mode.  The machine syncs the strand first, so a read
 * sees every event so far and a write applies from then on.  One caller at
 * a time per PMU; not thread-safe.
 */
#ifndef HVPMU_T1_PMU_H
#define HVPMU_T1_PMU_H

#include <stdint.h>
#include <hvpmu/machine.h>
#include <hvpmu/t1_pcr_regs.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hvpmu_t1_pmu;

/*
 * Create the PMU of one strand, in its reset state (all zero).
 * `class_flags` points at the machine's table of HVPMU_MAX_ICLASS
 * decode-flag words (hvpmu/sparc_decode.h), indexed by instruction class.
 * It must outlive the PMU.  It is read at each feed, so classes interned
 * later need no notification.  Returns NULL on ENOMEM or a NULL table.
 */
struct hvpmu_t1_pmu *hvpmu_t1_pmu_create(const uint32_t *class_flags);
void hvpmu_t1_pmu_destroy(struct hvpmu_t1_pmu *pmu);

/* --- %pcr (ASR 0x10), executed in `mode` ------------------------------- */
/*
 * rd %pcr: the implemented bits (reserved bits read 0).
 * Returns 0, HVPMU_ETRAP (privileged_opcode: mode is user) or HVPMU_EINVAL
 * (mode out of range).
 */
int hvpmu_t1_pcr_read(const struct hvpmu_t1_pmu *pmu, enum hvpmu_mode mode, uint64_t *val);
/*
 * wr %pcr: loads PRIV, ST, UT, SL, OVFL and OVFH from `val`; reserved bits
 * are dropped.  Writing 0 to an OVF bit clears it; writing 1 sets it
 * without requesting an interrupt (see above).  The counters are not
 * touched.  Returns 0, HVPMU_ETRAP (privileged_opcode: mode is user) or
 * HVPMU_EINVAL.
 */
int hvpmu_t1_pcr_write(struct hvpmu_t1_pmu *pmu, enum hvpmu_mode mode, uint64_t val);

/* --- %pic (ASR 0x11), executed in `mode` ------------------------------- */
/*
 * rd %pic gives PICH:PICL, and wr %pic loads both halves from `val`
 * without touching OVFL/OVFH.  Returns 0, HVPMU_ETRAP (privileged_action:
 * mode is user and PCR.PRIV=1) or HVPMU_EINVAL.
 */
int hvpmu_t1_pic_read(const struct hvpmu_t1_pmu *pmu, enum hvpmu_mode mode, uint64_t *val);
int hvpmu_t1_pic_write(struct hvpmu_t1_pmu *pmu, enum hvpmu_mode mode, uint64_t val);

/*
 * Activity since the previous feed, from the machine model.  The fields
 * have the names, units and meaning of the same fields of struct
 * hvpmu_pmu_feed (hvpmu/pmu.h), so one sync can fill both.
 */
struct hvpmu_t1_feed {
	const uint64_t *dclass;    /* [HVPMU_MAX_ICLASS] retired instructions per class */
	uint64_t dclass_nonzero;   /* bitmap: classes whose dclass is non-zero */
	uint64_t dmev[HVPMU_NMEV]; /* memory-hierarchy events */
	uint64_t next_pc;          /* PC of the next instruction: TPC of the interrupt */
	enum hvpmu_mode mode;      /* mode all of the above happened in: counted with UT (user),
	                              ST (privileged: the kernel path), never in hyperprivileged */
};

/* Which half wrapped (struct hvpmu_t1_feed_result.ovf_mask). */
#define HVPMU_T1_OVF_PICL 0x1u
#define HVPMU_T1_OVF_PICH 0x2u

struct hvpmu_t1_feed_result {
	uint32_t ovf_mask;   /* HVPMU_T1_OVF_* halves that wrapped during this feed */
	uint32_t int_level15; /* 1: a wrap set SOFTINT bit 15, interrupt_level_15 requested */
	uint64_t tpc;         /* when int_level15: f->next_pc (not precise); else 0 */
};

/* Count the activity (UT/ST and SL applied); report wraps. */
void hvpmu_t1_pmu_feed(struct hvpmu_t1_pmu *pmu, const struct hvpmu_t1_feed *f,
		       struct hvpmu_t1_feed_result *res);

/*
 * Least number of further user-mode instructions that could make PICH or
 * an instruction-driven PICL (FP_instr_cnt) wrap, assuming every
 * instruction counts in both.  UINT64_MAX when neither counts (UT=0).  The
 * machine schedules syncs with it, like hvpmu_t4_pmu_headroom.
 */
uint64_t hvpmu_t1_pmu_headroom(const struct hvpmu_t1_pmu *pmu);

/*
 * Least number of further memory events that could make PICL wrap when it
 * counts a memory event (SL 0 or 2-7 with UT=1); UINT64_MAX otherwise.  Like
 * hvpmu_t4_pmu_mem_headroom.
 */
uint64_t hvpmu_t1_pmu_mem_headroom(const struct hvpmu_t1_pmu *pmu);
/* The memory events (bit e = enum hvpmu_mem_event e) PICL counts when
 * hvpmu_t1_pmu_wants_memory(), else 0. */
uint64_t hvpmu_t1_pmu_mem_watch(const struct hvpmu_t1_pmu *pmu);

/* 1 if PICL counts an event the memory model produces (SL 0, 2-7, UT=1). */
int hvpmu_t1_pmu_wants_memory(const struct hvpmu_t1_pmu *pmu);

/* Solaris cpustat name of PICL event `sl` ("SB_full" ...), or NULL if
 * sl > 7.  Thread-safe. */
const char *hvpmu_t1_picl_name(unsigned sl);
/* The memory events (bit e = enum hvpmu_mem_event e) PICL event `sl`
 * sums; 0 for an instruction event or sl > 7.  Thread-safe. */
uint64_t hvpmu_t1_picl_mevs(unsigned sl);

/* Raw register state for debugging and tests (no privilege check). */
uint64_t hvpmu_t1_pmu_peek_pcr(const struct hvpmu_t1_pmu *pmu);
uint64_t hvpmu_t1_pmu_peek_pic(const struct hvpmu_t1_pmu *pmu);

#ifdef __cplusplus
}
#endif
#endif
