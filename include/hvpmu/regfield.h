/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/regfield.h - register fields named once, for every register
 * family of every PMU device (../shared/STYLE.md "Every register field
 * named once"): one (shift, length) pair per field, extract and deposit
 * through the field's name, as QEMU's hw/registerfields.h does.
 *
 *   HVPMU_FIELD(T4_PCR, SL, 11, 5)        declares T4_PCR_SL_SHIFT / _LEN
 *   HVPMU_FMASK(T4_PCR, SL)               the field's mask in place
 *   HVPMU_FEX(v, T4_PCR, SL)              extract it from v
 *   HVPMU_FDP(v, T4_PCR, SL, x)           v with the field replaced by x
 * Pure macros; thread-safe.
 */
#ifndef HVPMU_REGFIELD_H
#define HVPMU_REGFIELD_H

#include <stdint.h>

#define HVPMU_FIELD(reg, field, shift, len)                                    \
	enum { reg##_##field##_SHIFT = (shift), reg##_##field##_LEN = (len) };

/* Extract / deposit a named field. */
#define HVPMU_FMASK(reg, field)                                                \
	(((UINT64_C(1) << reg##_##field##_LEN) - 1) << reg##_##field##_SHIFT)
#define HVPMU_FEX(v, reg, field)                                               \
	(((uint64_t)(v) >> reg##_##field##_SHIFT) &                            \
	 ((UINT64_C(1) << reg##_##field##_LEN) - 1))
#define HVPMU_FDP(v, reg, field, x)                                            \
	(((uint64_t)(v) & ~HVPMU_FMASK(reg, field)) |                          \
	 (((uint64_t)(x) << reg##_##field##_SHIFT) & HVPMU_FMASK(reg, field)))

#endif
