/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The platform records (private to src/model/): hvpmu/platform.h's public
 * part and what only the machine model reads.  One record per platform,
 * in src/model/platform_<name>.c; the table in platform.c.  Nothing in the
 * model compares a platform: it reads the record of md->platform.
 */
#ifndef HVPMU_MODEL_PLATFORM_H
#define HVPMU_MODEL_PLATFORM_H

#include <hvpmu/platform.h>
#include <hvpmu/pmu.h>
#include "tlb.h"

struct platform_rec {
	struct hvpmu_platform_info info;
	const struct tlb_chip *tlb;     /* the TLBs and the tablewalk (docs/tlb-model.md) */
	uint32_t kernel_pgmask;         /* page sizes the kernel path may map (TLB_PGMASK bits) */
	/* devices (regbus.c): the per-strand PMU (NULL: no CPU counters
	 * modeled), the chip-wide device kind and its count (per chip, or
	 * one for the machine where per_chip is 0) */
	const struct hvpmu_pmu_ops *pmu;
	const struct hvpmu_uncore_ops *uncore;
	unsigned uncore_per_chip;
	/* DRAM channels (memhier.c): a fixed number, or (0) one per T4 MCU
	 * device; the channel of a line at `addr` on chip `chip`, and the
	 * port it takes (*port); NULL where no DRAM is modeled */
	unsigned dram_channels;
	uint32_t (*dram_channel)(uint64_t addr, uint32_t chip, unsigned *port);
	/* bytes from a call to its return address: 8 with a delay slot, 4
	 * without (bpred.h; the ISA's delay_slot, which a unit test compares) */
	uint32_t call_return_offset;
	int timed_caches;               /* the caches are timed even without request buffers (parts.c) */
};

/* Guest real memory of the default guest: one 256 MB segment at RA 0
 * (docs/mmustat.md); each chip is home of an equal share of it. */
#define MD_GUEST_MEM_BYTES (UINT64_C(256) << 20)
#define MD_GUEST_MEM_SHIFT 28

/* The instruction-driven timing every platform starts from
 * (docs/timing-model.md gives the reasoning); T4 adds its pipeline's. */
#define MD_INSN_CYCLES 1
#define MD_TAKEN_CTI_CYCLES 1
#define MD_SYSCALL_CYCLES 1500
#define MD_HCALL_CYCLES 100
#define MD_TRAP_CYCLES 200
extern const struct hvpmu_md_timing md_base_timing;

/* The records are platform_<name> of platform_<name>.c (hvpmu/platforms.def). */
/* The linux sparc64 system-call path the SPARC platforms share (md.c). */
extern const struct hvpmu_md_kernel md_linux_sparc64_kernel;
/* The record of md->platform (valid for a description hvpmu_md_default made). */
const struct platform_rec *platform_of(const struct hvpmu_md *md);
const struct platform_rec *platform_rec(enum hvpmu_platform p);

#endif
