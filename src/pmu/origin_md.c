/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SGI Origin Hub's memory/directory (MD) performance counters
 * (hvpmu/origin_md.h; hw-and-hypervisor.md §5.3, hubmd.h; irix-mdperf.2
 * "6 20-bit counters which peg at their maximum value"): MD_PERF_SEL
 * selects one of six sets and enables counting; while enabled, counter i
 * counts event i of the selected set, saturating at 0xFFFFF.  Software
 * reads and writes the counters (the IRIX tick path clears them,
 * md_perf.c, §5.4).  No allocation after creation; not thread-safe.
 */
#include <stdlib.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/origin_md.h>
#include <hvpmu/pmu.h>

struct hvpmu_origin_md {
	uint64_t sel;                          /* MD_PERF_SEL as implemented: sel and en */
	uint64_t cnt[HVPMU_HUBMD_PERF_COUNTERS];  /* 20-bit */
};

#define SEL_IMPL (HVPMU_FMASK(MD_PERF_SEL, SEL) | HVPMU_FMASK(MD_PERF_SEL, EN))

void hvpmu_origin_md_count(struct hvpmu_origin_md *d, const struct hvpmu_origin_md_activity *a)
{
	unsigned set = (unsigned)HVPMU_FEX(d->sel, MD_PERF_SEL, SEL);

	if (!HVPMU_FEX(d->sel, MD_PERF_SEL, EN) || set >= HVPMU_HUBMD_PERF_SETS)
		return;
	for (unsigned i = 0; i < HVPMU_HUBMD_PERF_COUNTERS; i++) {
		uint64_t room = HVPMU_HUBMD_PERF_PEG - d->cnt[i];

		d->cnt[i] += a->ev[set][i] < room ? a->ev[set][i] : room; /* pegs (§5.3) */
	}
}

static void *md_create(void) { return calloc(1, sizeof(struct hvpmu_origin_md)); }
static void md_destroy(void *dev) { free(dev); }

static int md_read(const void *dev, unsigned reg, uint64_t *val)
{
	const struct hvpmu_origin_md *d = dev;

	if (reg >= HVPMU_HUBMD_NREGS)
		return HVPMU_ERANGE;
	*val = reg == HVPMU_HUBMD_REG_SEL ? d->sel : d->cnt[reg - HVPMU_HUBMD_REG_CNT0];
	return HVPMU_OK;
}

static int md_write(void *dev, unsigned reg, uint64_t val)
{
	struct hvpmu_origin_md *d = dev;

	if (reg >= HVPMU_HUBMD_NREGS)
		return HVPMU_ERANGE;
	if (reg == HVPMU_HUBMD_REG_SEL)
		d->sel = val & SEL_IMPL;
	else
		d->cnt[reg - HVPMU_HUBMD_REG_CNT0] = HVPMU_FEX(val, MD_PERF_CNT, VALUE);
	return HVPMU_OK;
}

const struct hvpmu_uncore_ops hvpmu_origin_md_ops = {
	.kind = HVPMU_DEV_ORIGIN_MD,
	.name = "origin-md",
	.nregs = HVPMU_HUBMD_NREGS,
	.create = md_create,
	.destroy = md_destroy,
	.read = md_read,
	.write = md_write,
};
