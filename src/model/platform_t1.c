/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The UltraSPARC T1 platform record (platform.h): one chip of 8 cores x 4
 * strands, PCR/PIC in ASRs, the DRAM and JBUS PerfRegs, the sun4v
 * hypervisor with the Niagara perf group and the MMU statistics
 * (niagara-perf-api.txt, niagara-mmustat-api.txt, docs/t1-platform.md).
 */
#include <hvpmu/t1_pmu.h>
#include <hvpmu/t1_perfregs.h>
#include "machine_internal.h"
#include "platform.h"

#define T1_CLOCK_HZ UINT64_C(1200000000)
#define T1_REMOTE_NS 50 /* as T4's (one chip: never paid) */

/* UltraSPARC T1 (docs/machine-figures.md §T1): 16 KB 4-way L1I with 32 B
 * lines, 8 KB 4-way L1D with 16 B lines (write-through), no private L2, a
 * shared 3 MB 12-way L2 with 64 B lines (in the `l3` slot), L2 hit about
 * 22 cycles, memory about 100 ns at 1.2 GHz. */
static const struct hvpmu_md_memory t1_memory = {
	.l1i = { 16 * 1024, 4, 32, 0 },
	.l1d = { 8 * 1024, 4, 16, 0 },
	.l2 = { 0, 0, 0, 0 },
	.l3 = { 3 * 1024 * 1024, 12, 64, 22 },
	.mem_latency = 120, /* 100 ns at 1.2 GHz */
	/* 8-entry store buffer per thread (OpenSPARC T1 RTL lsu_stb_ctl.v:
	 * 8 entries, one store sent to the L2 only once the next older one is
	 * acknowledged): an entry is held for the L2 round trip (22 cycles)
	 * and the stores of a strand drain one at a time (docs/machine-figures.md §6) */
	.stbuf = { 8, 0, 22, 22 },
};

/* A line's DRAM channel: its L2 bank, PA[7:6] (niagara-perf-api.txt
 * §2.2: four channels, one per pair of banks). */
static uint32_t t1_dram_channel(uint64_t addr, uint32_t chip, unsigned *port)
{
	(void)chip;
	*port = 0;
	return (addr >> T1_CHANNEL_SHIFT) & (T1_DRAM_CHANNELS - 1);
}

const struct platform_rec platform_t1 = {
	.info = {
		.name = "t1",
		.isa = "sparcv9",
		.personality = "sun4v",
		.firmware = HVPMU_FW_SUN4V_CORE | HVPMU_FW_SUN4V_NIAGARA | HVPMU_FW_SUN4V_MMUSTAT,
		.chips = 1,
		.cores_per_chip = 8,
		.strands_per_core = 4,
		.clock_hz = T1_CLOCK_HZ,
		.mem = &t1_memory,
		.timing = &md_base_timing, /* no pipeline timing: the instruction-driven slice */
		.kernel = &md_linux_sparc64_kernel,
		.dram_counter_group = HVPMU_MD_PROP_ABSENT,
		.home_shift = MD_GUEST_MEM_SHIFT,
		.remote_ns = T1_REMOTE_NS,
		.max_chips = 1,
	},
	.tlb = &tlb_chip_t1,
	.kernel_pgmask = TLB_PGMASK_T1,
	/* niagara-perf-api.txt: one JBUS and four DRAM channels, one register file */
	.pmu = &hvpmu_t1_pmu_ops,
	.uncore = &hvpmu_t1_perfregs_ops,
	.uncore_per_chip = 0,
	.dram_channels = T1_DRAM_CHANNELS,
	.dram_channel = t1_dram_channel,
	.call_return_offset = BPRED_CALL_RETURN_OFFSET,
};
