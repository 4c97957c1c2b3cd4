/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/t1_pcr_regs.h - UltraSPARC T1 (Niagara-1) per-strand PCR and PIC
 * register fields and PICL event codes, each named once.
 *
 * %pcr = ASR 0x10, %pic = ASR 0x11, one pair per strand, accessed directly
 * by privileged code with rd/wr (niagara-perf-api.txt §2.1: "directly
 * accessible by the privileged code and no hypervisor API is needed").
 * Layout: ../shared/reference/hw-and-hypervisor.md §3.1 (PCR) and §3.2
 * (PIC, event codes), from the OpenSPARC T1 TLU (tlu_pib.v, tlu_mon.v),
 * illumos niagararegs.h / niagara_pcbe.c and Linux asm/pcr.h; cross-checked
 * with linux-clients.md §1.5 (PCR_PIC_PRIV 0x1, PCR_STRACE 0x2,
 * PCR_UTRACE 0x4; PIC0 select 3 bits at 6:4; overflow bits 0x300).
 *
 * The DRAM/JBUS counter registers of the T1 are in hvpmu/t1_regs.h; the
 * field helpers (HVPMU_FIELD, HVPMU_FEX, HVPMU_FDP, HVPMU_FMASK) are the
 * ones of hvpmu/regfield.h.
 */
#ifndef HVPMU_T1_PCR_REGS_H
#define HVPMU_T1_PCR_REGS_H

#include <stdint.h>
#include <hvpmu/regfield.h>

/* §3.1 PCR (ASR 0x10) fields; bits 3, 7 and 63:10 are reserved, read as 0. */
HVPMU_FIELD(T1_PCR, PRIV, 0, 1) /* 1: non-privileged rd/wr %pic traps privileged_action */
HVPMU_FIELD(T1_PCR, ST, 1, 1)   /* count events in privileged mode */
HVPMU_FIELD(T1_PCR, UT, 2, 1)   /* count events in user mode */
HVPMU_FIELD(T1_PCR, SL, 4, 3)   /* PICL event select (enum hvpmu_t1_picl_event) */
HVPMU_FIELD(T1_PCR, OVFL, 8, 1) /* PICL wrapped 2^32-1 -> 0; sticky */
HVPMU_FIELD(T1_PCR, OVFH, 9, 1) /* PICH wrapped 2^32-1 -> 0; sticky */

/* Implemented bits 9:8, 6:4, 2:0 (§3.1; "Implications" item 3). */
#define HVPMU_T1_PCR_IMPL_MASK UINT64_C(0x377)
/* The two sticky overflow bits (Solaris "OVF mask 0x300", §3.1). */
#define HVPMU_T1_PCR_OVF_MASK (HVPMU_FMASK(T1_PCR, OVFL) | HVPMU_FMASK(T1_PCR, OVFH))

/* §3.2 PIC (ASR 0x11): two 32-bit counters in one 64-bit register. */
HVPMU_FIELD(T1_PIC, PICL, 0, 32)  /* counts the PCR.SL event ("PIC0" in Solaris) */
HVPMU_FIELD(T1_PIC, PICH, 32, 32) /* counts instructions, Instr_cnt ("PIC1") */
/* Each half wraps 2^32-1 -> 0. */
#define HVPMU_T1_PIC_WRAP (UINT64_C(1) << 32)

/* §3.2 PICL event codes (PCR.SL), with the Solaris cpustat names. */
enum hvpmu_t1_picl_event {
	HVPMU_T1_SL_SB_FULL = 0,      /* SB_full: store-buffer-full cycles */
	HVPMU_T1_SL_FP_INSTR_CNT = 1, /* FP_instr_cnt: floating-point instructions */
	HVPMU_T1_SL_IC_MISS = 2,      /* IC_miss: L1 instruction-cache misses */
	HVPMU_T1_SL_DC_MISS = 3,      /* DC_miss: L1 data-cache (load) misses */
	HVPMU_T1_SL_ITLB_MISS = 4,    /* ITLB_miss */
	HVPMU_T1_SL_DTLB_MISS = 5,    /* DTLB_miss */
	HVPMU_T1_SL_L2_IMISS = 6,     /* L2_imiss: instruction fetches missing L2 */
	HVPMU_T1_SL_L2_DMISS_LD = 7,  /* L2_dmiss_ld: data loads missing L2 */
	HVPMU_T1_NSL = 8,
};

#define HVPMU_T1_ASR_PCR 0x10 /* niagara-perf-api.txt §2.1 */
#define HVPMU_T1_ASR_PIC 0x11

/* SPARC V9 trap types raised around the T1 PMU. */
#define HVPMU_T1_TT_PRIVILEGED_OPCODE 0x011 /* rd/wr %pcr outside privileged mode */
#define HVPMU_T1_TT_PRIVILEGED_ACTION 0x037 /* rd/wr %pic from user mode with PCR.PRIV=1 (§3.2) */
#define HVPMU_T1_TT_INTERRUPT_LEVEL_15 0x04f /* counter wrap via SOFTINT bit 15 (§3.2) */
#define HVPMU_T1_SOFTINT_PIC_BIT 15          /* SOFTINT bit a wrap sets (§3.2) */

#endif
