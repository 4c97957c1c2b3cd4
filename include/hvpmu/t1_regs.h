/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/t1_regs.h - UltraSPARC T1 (Niagara-1) performance register fields,
 * each named once.
 *
 * DRAM and JBUS performance registers, reached through NIAGARA_GET/SET_PERFREG
 * (niagara-perf-api.txt §2.2, §2.3, §3.1):
 *   - DRAM perf control / counter, one pair per DRAM channel:
 *     ../shared/reference/hw-and-hypervisor.md §3.3 (OpenSPARC T1 RTL
 *     dram_que.v; Solaris niagara_perfctr.c);
 *   - JBUS perf control / counter of the JBI:
 *     hw-and-hypervisor.md §3.4 (OpenSPARC T1 RTL jbi_csr.v, jbi.h);
 *   - the hypervisor's write masks: hw-and-hypervisor.md §1.2
 *     (OpenSPARC hypervisor hcall_niagara.s, niagara_perf_paddr_table).
 *
 * Counter numbers are the hardware's (the RTL's), which differ between the
 * two units: DRAM counter0 is the UPPER half of its counter register, JBUS
 * counter0 the LOWER half.  In both units the upper select field (bits 7:4)
 * drives the upper counter (bits 62:32).  hvpmu/t1_perfregs.h maps these to
 * busstat's pic0/pic1.
 *
 * The extract/deposit helpers HVPMU_FIELD / HVPMU_FMASK / HVPMU_FEX /
 * HVPMU_FDP are those of hvpmu/regfield.h.
 */
#ifndef HVPMU_T1_REGS_H
#define HVPMU_T1_REGS_H

#include <stdint.h>
#include <hvpmu/regfield.h>

/*
 * §3.3 DRAM performance control register (0x97_0000_0400 + ch * 0x1000):
 * 8 bits; reads return 56 zero bits above them.  A counter advances only
 * while its stop bit is 0.
 */
HVPMU_FIELD(T1_DRAM_CTL, SEL1, 0, 3)   /* event select of counter1 (lower half) */
HVPMU_FIELD(T1_DRAM_CTL, STOP1, 3, 1)  /* 1: counter1 does not count */
HVPMU_FIELD(T1_DRAM_CTL, SEL0, 4, 3)   /* event select of counter0 (upper half) */
HVPMU_FIELD(T1_DRAM_CTL, STOP0, 7, 1)  /* 1: counter0 does not count */

/*
 * §3.3 DRAM performance counter register (0x97_0000_0408 + ch * 0x1000):
 * two 31-bit counters, each with a sticky overflow bit above it; a count
 * wraps 0x7fffffff -> 0 and sets its sticky bit.  Counter0 is the high half.
 * A write loads every field, sticky bits included.
 */
HVPMU_FIELD(T1_DRAM_COUNT, COUNTER1, 0, 31)
HVPMU_FIELD(T1_DRAM_COUNT, STICKY1, 31, 1)
HVPMU_FIELD(T1_DRAM_COUNT, COUNTER0, 32, 31)
HVPMU_FIELD(T1_DRAM_COUNT, STICKY0, 63, 1)

/*
 * §3.4 JBUS performance control register (0x80_0002_0000): 8 bits, two
 * 4-bit event selects.  Bits 7:4 select for counter1, bits 3:0 for counter0
 * ("bits 7:4 = event for counter1, bits 3:0 = event for counter0").
 */
HVPMU_FIELD(T1_JBUS_CTL, SEL0, 0, 4)   /* event select of counter0 (lower half) */
HVPMU_FIELD(T1_JBUS_CTL, SEL1, 4, 4)   /* event select of counter1 (upper half) */

/*
 * §3.4 JBUS performance counter register (0x80_0002_0008): bit 63 sticky of
 * counter1, 62:32 counter1, bit 31 sticky of counter0, 30:0 counter0.  The
 * sticky bit is set when an increment occurs while the count is all ones.
 * A write loads every field.  Note counter1 is the high half here.
 */
HVPMU_FIELD(T1_JBUS_COUNT, COUNTER0, 0, 31)
HVPMU_FIELD(T1_JBUS_COUNT, STICKY0, 31, 1)
HVPMU_FIELD(T1_JBUS_COUNT, COUNTER1, 32, 31)
HVPMU_FIELD(T1_JBUS_COUNT, STICKY1, 63, 1)

/* All four counters are 31 bits and wrap 2^31 - 1 -> 0 (§3.3, §3.4). */
#define HVPMU_T1_PERF_COUNTER_WRAP (UINT64_C(1) << T1_DRAM_COUNT_COUNTER0_LEN)

/*
 * §1.2: NIAGARA_SET_PERFREG ANDs a value written to a control register with
 * 0xff (the 8 implemented bits; upper bits are always written as 0) and
 * writes a counter register unmasked.
 */
#define HVPMU_T1_PERF_CTL_WRITE_MASK UINT64_C(0xff)
#define HVPMU_T1_PERF_COUNT_WRITE_MASK (~UINT64_C(0))

#endif
