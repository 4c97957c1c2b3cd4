/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The example platform's record (platform.h; hvpmu/example.h;
 * docs/architecture.md "Adding a platform"): one SPARC V9 chip of 2 cores
 * x 2 strands at 1 GHz, each strand with the example PMU (two counters:
 * instructions and loads), the sun4v hypervisor's core groups, and the
 * example firmware's census service.  Not a real machine: its figures are
 * round numbers of hvpmu's choosing.
 */
#include <hvpmu/example.h>
#include "machine_internal.h"
#include "platform.h"

/* 16 KB 4-way L1I and L1D with 32-byte lines, no private L2, a shared
 * 1 MB 8-way last level with 64-byte lines, 20 cycles; memory 100 cycles. */
static const struct hvpmu_md_memory example_memory = {
	.l1i = { 16 * 1024, 4, 32, 0 },
	.l1d = { 16 * 1024, 4, 32, 0 },
	.l2 = { 0, 0, 0, 0 },
	.l3 = { 1024 * 1024, 8, 64, 20 },
	.mem_latency = 100,
};

const struct platform_rec platform_example = {
	.info = {
		.name = "example",
		.isa = "sparcv9",
		.personality = "sun4v",
		.firmware = HVPMU_FW_SUN4V_CORE | HVPMU_FW_EXAMPLE_CENSUS,
		.chips = 1,
		.cores_per_chip = 2,
		.strands_per_core = 2,
		.clock_hz = UINT64_C(1000000000),
		.mem = &example_memory,
		.timing = &md_base_timing,
		.kernel = &md_linux_sparc64_kernel,
		.dram_counter_group = HVPMU_MD_PROP_ABSENT,
		.home_shift = MD_GUEST_MEM_SHIFT,
		.max_chips = 1,
	},
	.tlb = &tlb_chip_t4,             /* T4's TLBs and tablewalk */
	.kernel_pgmask = TLB_PGMASK_T4,
	.pmu = &hvpmu_example_pmu_ops,
	.uncore = NULL,                  /* no chip-wide counters */
	.call_return_offset = BPRED_CALL_RETURN_OFFSET, /* SPARC's delay slot */
};
