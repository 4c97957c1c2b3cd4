/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SGI Origin platform record (platform.h): nodes of two R10000 CPUs
 * and a Hub with the MD performance counters (hw-and-hypervisor.md §5),
 * the IRIX kernel's syssgi(SGI_EVENTCTR) personality; no shared last
 * level, no DRAM model (memory is behind its node's Hub).
 */
#include <hvpmu/r10k_pmu.h>
#include <hvpmu/origin_md.h>
#include "machine_internal.h"
#include "platform.h"

/* SGI Origin 2000 (SN0/IP27) with R10000 CPUs (docs/machine-figures.md
 * "Origin"): 32 KB 2-way L1I with 64-byte lines, 32 KB 2-way L1D with
 * 32-byte lines, a 4 MB 2-way unified secondary cache per CPU with
 * 128-byte lines (the coherence unit; R10000 User's Manual §1, the Origin
 * node board's 4 MB option), 195 MHz (the Origin 2000's R10000 clock; 250
 * MHz boards exist), a 100 MHz Hub.  Latencies in CPU cycles at 195 MHz:
 * secondary cache hit about 10 cycles; local memory about 313 ns (61
 * cycles) and a remote node about 240 ns more (47 cycles), the figures of
 * Laudon and Lenoski, "The SGI Origin: a ccNUMA highly scalable server",
 * ISCA 1997, rounded (docs/machine-figures.md gives the reasoning).  No
 * store buffer or request-buffer model (R10000 figures not modeled:
 * docs/machine-figures.md). */
#define ORIGIN_CLOCK_HZ UINT64_C(195000000)
#define ORIGIN_HUB_HZ UINT64_C(100000000)
#define ORIGIN_NODES 4
#define ORIGIN_HZ 100                 /* IRIX HZ: lbolt ticks of 10 ms (§5.4) */
#define ORIGIN_REMOTE_CYCLES 47
static const struct hvpmu_md_memory origin_memory = {
	.l1i = { 32 * 1024, 2, 64, 0 },
	.l1d = { 32 * 1024, 2, 32, 0 },
	.l2 = { 4 * 1024 * 1024, 2, 128, 10 },
	.l3 = { 0, 0, 0, 0 },
	.mem_latency = 61,
};

const struct platform_rec platform_origin = {
	.info = {
		.name = "origin",
		.isa = "mips64",
		.personality = "irix",
		.firmware = HVPMU_FW_IRIX_MDPERF,
		.chips = ORIGIN_NODES,
		/* a node: a Hub and two R10000 CPUs ("cores" of one strand) */
		.cores_per_chip = 2,
		.strands_per_core = 1,
		.clock_hz = ORIGIN_CLOCK_HZ,
		.uncore_clock_hz = ORIGIN_HUB_HZ,
		.os_hz = ORIGIN_HZ,
		.mem = &origin_memory,
		.timing = &md_base_timing,
		.kernel = NULL, /* no modeled kernel path: it is the Linux sparc64 one */
		.dram_counter_group = HVPMU_MD_PROP_ABSENT,
		.home_shift = MD_GUEST_MEM_SHIFT - 2, /* a quarter of guest memory per node */
		.remote_cycles = ORIGIN_REMOTE_CYCLES,
	},
	.tlb = &tlb_chip_origin,
	.kernel_pgmask = TLB_PGMASK_T4,
	/* hw-and-hypervisor.md §5.3: a Hub per node; each CPU's R10000
	 * counters (hvpmu/r10k_pmu.h) */
	.pmu = &hvpmu_r10k_pmu_ops,
	.uncore = &hvpmu_origin_md_ops,
	.uncore_per_chip = 1,
	.call_return_offset = BPRED_CALL_RETURN_OFFSET, /* MIPS has a delay slot */
	.timed_caches = 1, /* the directory's latencies (docs/coherence-model.md) */
};
