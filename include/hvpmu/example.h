/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/example.h - the example platform: its PMU (layer 3) and the one
 * service of its firmware (layer 4).  The platform is the worked example
 * of docs/architecture.md "Adding a platform": not a real chip, its
 * register layout is hvpmu's own, the smallest that a guest driver can
 * program, sample and extend to 64 bits as it does a real PMU.
 *
 * Per strand, on the SPARC V9 register access instructions (RDASR /
 * WRASR, privileged: user mode gets privileged_opcode, HVPMU_ETRAP):
 *   ASR 0x10  CTL   control (fields below)
 *   ASR 0x11  CNT0  counter 0: retired instructions (32 bits)
 *   ASR 0x12  CNT1  counter 1: retired loads (instructions of class
 *                   HVPMU_IC_LOAD, hvpmu/insn.h; 32 bits)
 * A counter counts the instructions retired in user mode when CTL.UT is
 * set, in privileged mode (the kernel path) when CTL.ST is; never in
 * hyperprivileged mode.  A counter wraps 0xffffffff -> 0: its sticky
 * CTL.OVn bit sets and, with CTL.IE, the strand's level-15 interrupt is
 * requested until taken (a disrupting trap).  A CTL write loads every
 * field, the OV bits included; counter writes load the low 32 bits.
 *
 * The device behind the machine's interface is hvpmu_example_pmu_ops
 * (hvpmu/pmu.h).  Not thread-safe: one caller per strand's PMU.
 */
#ifndef HVPMU_EXAMPLE_H
#define HVPMU_EXAMPLE_H

#include <hvpmu/platform.h>
#include <hvpmu/pmu.h>
#include <hvpmu/regfield.h>

#define HVPMU_EXAMPLE_ASR_CTL 0x10
#define HVPMU_EXAMPLE_ASR_CNT0 0x11
#define HVPMU_EXAMPLE_ASR_CNT1 0x12
#define HVPMU_EXAMPLE_NCOUNTERS 2
#define HVPMU_EXAMPLE_WRAP (UINT64_C(1) << 32)

HVPMU_FIELD(EXAMPLE_CTL, EN0, 0, 1) /* counter 0 counts */
HVPMU_FIELD(EXAMPLE_CTL, EN1, 1, 1) /* counter 1 counts */
HVPMU_FIELD(EXAMPLE_CTL, UT, 2, 1)  /* count user mode */
HVPMU_FIELD(EXAMPLE_CTL, ST, 3, 1)  /* count privileged mode */
HVPMU_FIELD(EXAMPLE_CTL, OV0, 4, 1) /* counter 0 wrapped (sticky) */
HVPMU_FIELD(EXAMPLE_CTL, OV1, 5, 1) /* counter 1 wrapped (sticky) */
HVPMU_FIELD(EXAMPLE_CTL, IE, 6, 1)  /* a wrap requests the level-15 interrupt */
#define HVPMU_EXAMPLE_CTL_MASK UINT64_C(0x7f) /* the implemented bits; the rest read 0 */

extern const struct hvpmu_pmu_ops hvpmu_example_pmu_ops;

/*
 * The example firmware's service (hvpmu/platform.h enum hvpmu_firmware):
 * a census of the run that the guest OS prints when the program ends --
 * the threads it started, the cpus they ran on, the OS ticks it took
 * (src/host/ext_example.c, a run-host extension every run on the
 * platform uses).
 */
#define HVPMU_FW_EXAMPLE_CENSUS HVPMU_FW_PLATFORM(0)

#endif
