/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A 31-bit event counter with a sticky overflow bit, the counter of the
 * chip-wide memory-controller devices of both SPARC platforms: the T4
 * MCU DRAM counters (sparc-t4-performance-instrumentation.md §10.5,
 * TABLE 10-5 and 10-6: counter 30:0 or 62:32, sticky bit 31 or 63) and the
 * UltraSPARC T1 DRAM and JBUS counters (niagara-perf-api.txt; reference
 * hw-and-hypervisor.md §3.3, §3.4: the same widths and places).  Counting
 * wraps the 31 bits and sets the sticky bit (hardware sets it, never
 * clears it); a register write loads both.  Private to src/pmu; pure
 * inline functions, thread-safe on distinct counters.
 */
#ifndef HVPMU_PMU_COUNTER31_H
#define HVPMU_PMU_COUNTER31_H

#include <stdint.h>

#define CTR31_BITS 31
#define CTR31_WRAP (UINT64_C(1) << CTR31_BITS)
#define CTR31_MASK (CTR31_WRAP - 1)

struct ctr31 {
	uint32_t value;   /* the 31 count bits */
	uint8_t sticky;   /* set on a wrap */
};

/* Where a counter sits in its 64-bit count register. */
struct ctr31_place {
	uint8_t count_shift;
	uint8_t sticky_shift;
};

/* Count `delta` events.  A 64-bit delta may wrap the 31-bit counter
 * several times: the sticky bit records that it wrapped at all.  Returns
 * 1 if it wrapped. */
static inline int ctr31_add(struct ctr31 *c, uint64_t delta)
{
	uint64_t v = (uint64_t)c->value + delta;
	int wrapped = v >= CTR31_WRAP || v < c->value;

	if (wrapped)
		c->sticky = 1;
	c->value = (uint32_t)(v & CTR31_MASK);
	return wrapped;
}

/* The counter's bits of its count register. */
static inline uint64_t ctr31_pack(const struct ctr31 *c, const struct ctr31_place *p)
{
	return (uint64_t)c->value << p->count_shift | (uint64_t)c->sticky << p->sticky_shift;
}

/* A write of the count register `v`: the counter loads its bits. */
static inline void ctr31_load(struct ctr31 *c, const struct ctr31_place *p, uint64_t v)
{
	c->value = (uint32_t)((v >> p->count_shift) & CTR31_MASK);
	c->sticky = (uint8_t)((v >> p->sticky_shift) & 1);
}

#endif
