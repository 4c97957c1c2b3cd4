/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/t4_regs.h - SPARC T4 PCR, PIC and MCU DRAM counter register fields,
 * each named once.
 *
 * PCR0-3: sparc-t4-performance-instrumentation.md §10.2 TABLE 10-1
 *         (ASI 0x64, VA 0x00/0x08/0x10/0x18, hyperprivileged).
 * PIC0-3: §10.3 TABLE 10-3 (ASI 0xB0, VA 0x00/0x08/0x10/0x18).
 * MCU DRAM_PERF_CTL/COUNT01/COUNT23: §10.5 TABLE 10-4, 10-5, 10-6.
 * Cross-checked with Linux PCR_N4_* (../shared/reference/linux-clients.md §1.5).
 *
 * Fields are declared with hvpmu/regfield.h.
 */
#ifndef HVPMU_T4_REGS_H
#define HVPMU_T4_REGS_H

#include <stdint.h>
#include <hvpmu/regfield.h>


/* TABLE 10-1: PCR fields. */
HVPMU_FIELD(T4_PCR, OV, 0, 1)      /* PIC wrapped 2^32-1 -> 0; sticky; software may clear, never set */
HVPMU_FIELD(T4_PCR, TOE, 1, 1)     /* trap on event (overflow) */
HVPMU_FIELD(T4_PCR, UT, 2, 1)      /* count user-mode events */
HVPMU_FIELD(T4_PCR, ST, 3, 1)      /* count privileged-mode events */
HVPMU_FIELD(T4_PCR, HT, 4, 1)      /* count hyperprivileged-mode events */
HVPMU_FIELD(T4_PCR, MASK, 5, 6)    /* sub-event mask, TABLE 10-2 */
HVPMU_FIELD(T4_PCR, SL, 11, 5)     /* event group select, TABLE 10-2 */
HVPMU_FIELD(T4_PCR, PICNPT, 16, 1) /* non-privileged PIC access traps */
HVPMU_FIELD(T4_PCR, PICNHT, 17, 1) /* non-hyperprivileged PIC access traps */
HVPMU_FIELD(T4_PCR, NTC, 18, 1)    /* wrap happened on a next-to-commit instruction; sticky */

/* Bits 63:19 are reserved, read as 0 (TABLE 10-1). */
#define HVPMU_T4_PCR_IMPL_MASK UINT64_C(0x7ffff)
/* State bits software may clear but never set (§10.2). */
#define HVPMU_T4_PCR_STICKY_MASK (HVPMU_FMASK(T4_PCR, OV) | HVPMU_FMASK(T4_PCR, NTC))

/* TABLE 10-3: PIC = one 32-bit counter in bits 31:0; bits 63:32 reserved. */
HVPMU_FIELD(T4_PIC, COUNTER, 0, 32)
#define HVPMU_T4_PIC_WRAP (UINT64_C(1) << 32)

/*
 * §10.5 DRAM performance counters of one memory controller (MCU):
 * TABLE 10-4 DRAM_PERF_CTL_REG (F804 0000 0408, + 4096 per MCU): one 4-bit
 * select code per counter (TABLE 10-7); bits 63:16 reserved, read as 0.
 */
HVPMU_FIELD(T4_DRAM_CTL, SEL0, 0, 4)   /* counter 0: cou0 port0 */
HVPMU_FIELD(T4_DRAM_CTL, SEL1, 4, 4)   /* counter 1: cou0 port1 */
HVPMU_FIELD(T4_DRAM_CTL, SEL2, 8, 4)   /* counter 2: cou1 port0 */
HVPMU_FIELD(T4_DRAM_CTL, SEL3, 12, 4)  /* counter 3: cou1 port1 */
#define HVPMU_T4_DRAM_CTL_IMPL_MASK UINT64_C(0xffff)

/* TABLE 10-5 DRAM_PERF_COUNT01_REG (F804 0000 0410): 31-bit counters, each
 * with a sticky overflow bit above it.  Note counter 0 is the high half. */
HVPMU_FIELD(T4_DRAM_COUNT01, COUNTER1, 0, 31)
HVPMU_FIELD(T4_DRAM_COUNT01, STICKY1, 31, 1)
HVPMU_FIELD(T4_DRAM_COUNT01, COUNTER0, 32, 31)
HVPMU_FIELD(T4_DRAM_COUNT01, STICKY0, 63, 1)

/* TABLE 10-6 DRAM_PERF_COUNT23_REG (F804 0000 0418): counter 3 is the high half. */
HVPMU_FIELD(T4_DRAM_COUNT23, COUNTER2, 0, 31)
HVPMU_FIELD(T4_DRAM_COUNT23, STICKY2, 31, 1)
HVPMU_FIELD(T4_DRAM_COUNT23, COUNTER3, 32, 31)
HVPMU_FIELD(T4_DRAM_COUNT23, STICKY3, 63, 1)

/* A DRAM counter wraps 2^31-1 -> 0 and sets its sticky bit. */
#define HVPMU_T4_DRAM_COUNTER_WRAP (UINT64_C(1) << T4_DRAM_COUNT01_COUNTER0_LEN)

#define HVPMU_T4_NPIC 4            /* 4 PCR/PIC pairs per virtual processor (§10.1 item 1) */
#define HVPMU_T4_ASI_PCR 0x64      /* TABLE 10-1 */
#define HVPMU_T4_ASI_PIC 0xb0      /* TABLE 10-3 */

#endif
