/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The IBM POWER7 platform record (platform.h; issue 15, docs/power-platform.md
 * gives every source and choice): a CEC of POWER7 chips, 8 cores x 4 SMT
 * threads per chip, the PAPR hypervisor with H_GetPerformanceCounterInfo
 * over the CEC's statistics; per thread the POWER7 core PMU (PMC1-6,
 * MMCR0/1/A: hvpmu/power7_pmu.h, docs/power7-pmu.md).
 */
#include <hvpmu/cec_stats.h>
#include <hvpmu/pmu.h>
#include "machine_internal.h"
#include "platform.h"

/*
 * IBM POWER7 (Sinharoy et al., "IBM POWER7 multicore server processor",
 * IBM J. Res. & Dev. 55(3), 2011): 8 cores per chip, 4 SMT threads per
 * core; per core a 32 KB 4-way L1I and a 32 KB 8-way L1D (store-through)
 * with 128-byte lines, a 256 KB 8-way L2 with 128-byte lines; a 32 MB
 * eDRAM L3 per chip (4 MB local region per core), 8-way, 128-byte lines.
 * The default CEC is two modules of two chips (four chips: chips 0-1 on
 * module 0, 2-3 on module 1, hvpmu's choice after a Power 780's drawer of
 * two dual-chip modules); 3.86 GHz (Power 780, 9179-MHB).  Latencies in
 * core cycles: L2 8, L3 25 (the paper's load-to-use figures, rounded),
 * memory about 100 ns (386 cycles) and another chip's cache or memory
 * about 50 ns more (hvpmu's choices, as for the T4 servers). */
#define POWER_CHIPS 4
#define POWER_CORES_PER_CHIP 8
#define POWER_THREADS_PER_CORE 4
#define POWER_CLOCK_HZ UINT64_C(3860000000)
#define POWER_REMOTE_NS 50
static const struct hvpmu_md_memory power_memory = {
	.l1i = { 32 * 1024, 4, 128, 0 },
	.l1d = { 32 * 1024, 8, 128, 0 },
	.l2 = { 256 * 1024, 8, 128, 8 },
	.l3 = { 32 * 1024 * 1024, 8, 128, 25 },
	.mem_latency = 386, /* 100 ns at 3.86 GHz */
};

const struct platform_rec platform_power = {
	.info = {
		.name = "power",
		.isa = "ppc64",
		.personality = "papr",
		.firmware = HVPMU_FW_PAPR_GPCI,
		.chips = POWER_CHIPS,
		.cores_per_chip = POWER_CORES_PER_CHIP,
		.strands_per_core = POWER_THREADS_PER_CORE,
		.clock_hz = POWER_CLOCK_HZ,
		.mem = &power_memory,
		.timing = &md_base_timing,
		.kernel = NULL, /* no modeled kernel path: the one there is is Linux sparc64's */
		.dram_counter_group = HVPMU_MD_PROP_ABSENT,
		.home_shift = MD_GUEST_MEM_SHIFT - 2, /* a quarter of guest memory per chip */
		.remote_ns = POWER_REMOTE_NS,
		.cec = 1, /* the CEC and its partitions (hvpmu/cec.h, docs/papr-gpci.md) */
	},
	.tlb = &tlb_chip_power,
	.kernel_pgmask = TLB_PGMASK_T4,
	/* each thread's POWER7 PMU; the CEC's statistics behind
	 * H_GetPerformanceCounterInfo (hvpmu/cec_stats.h), one per CEC */
	.pmu = &hvpmu_power7_pmu_ops,
	.uncore = &hvpmu_cec_stats_ops,
	.uncore_per_chip = 0,
	.call_return_offset = BPRED_CALL_RETURN_OFFSET_NO_DS, /* no delay slot */
};
