/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A spin-wait hint to the processor (x86 PAUSE, Arm YIELD): for the short
 * spins before a side of a ring sleeps (src/source/evring.c, the service). */
#ifndef HVPMU_COMMON_CPU_RELAX_H
#define HVPMU_COMMON_CPU_RELAX_H

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

#endif
