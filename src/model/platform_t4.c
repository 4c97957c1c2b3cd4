/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SPARC T4 platform record (platform.h): 1-4 chips of 8 cores x 8
 * strands, four PCR/PIC pairs per strand (sparc-t4-performance-
 * instrumentation.md §10), two MCUs per chip with DRAM counters (§10.5),
 * the sun4v hypervisor with the VT_CPU perf-register group.
 */
#include <hvpmu/t4_pmu.h>
#include <hvpmu/t4_mcu.h>
#include "machine_internal.h"
#include "platform.h"

/* SPARC T4: 8 cores x 8 strands per chip (sparc-t4-performance-
 * instrumentation.md §10.1 "virtual processor"; DESIGN.md), SPARC T4-1
 * clock 2.85 GHz (Oracle SPARC T4-1 data sheet). */
#define T4_CORES_PER_CHIP 8
#define T4_STRANDS_PER_CORE 8
#define T4_CLOCK_HZ UINT64_C(2850000000)
#define T4_MAX_CHIPS 4            /* DESIGN.md: t4 has 1-4 chips */

/* Multi-chip T4 servers (docs/machine-figures.md §8): SPARC T4-2 has 2
 * processors at 2.85 GHz, SPARC T4-4 has 4 at 3.0 GHz (Oracle, "SPARC
 * T4-1, T4-2, T4-4 and T4-1B Server Architecture", June 2012).  A remote
 * access pays +50 ns for the coherence-link hop (no published figure:
 * docs/machine-figures.md §2): 142 cycles at 2.85 GHz (rounded down), 150 at 3.0 GHz. */
#define T4_4_CLOCK_HZ UINT64_C(3000000000)
#define T4_REMOTE_NS 50

/* Pipeline timing of T4 (docs/timing-model.md, docs/machine-figures.md §5):
 * a taken CTI costs nothing when the BTC supplies its target. */
static const struct hvpmu_md_timing t4_timing = {
	.insn_cycles = MD_INSN_CYCLES,
	.taken_cti_cycles = 0,
	.syscall_cycles = MD_SYSCALL_CYCLES,
	.hcall_cycles = MD_HCALL_CYCLES,
	.trap_cycles = MD_TRAP_CYCLES,
	.mispredict_cycles = 24, /* gprofng sparc_t4 br_msp_stalls: 24 cycles per Br_mispred */
	.refetch_cycles = 3,     /* fetch stages from redirect to Select (hvpmu's choice) */
	.btc_cycles = 2,         /* redirect from decode instead of fetch (hvpmu's choice) */
	.utag_cycles = 2,        /* fetch replay after the ptag compare (hvpmu's choice) */
	.dram_wait_cap = 576,    /* 4 DRAM bank cycles (4 x 144, docs/dram-model.md) */
};

/* SPARC T4 caches (docs/machine-figures.md, with sources and confidence;
 * associativities and latencies are its suggested defaults): 16 KB 4-way L1I and L1D with
 * 32-byte lines, 128 KB 8-way L2 per core (32-byte lines), 4 MB 16-way L3
 * per chip (64-byte lines).  Latencies: docs/timing-model.md. */
static const struct hvpmu_md_memory t4_memory = {
	.l1i = { 16 * 1024, 4, 32, 0 },
	.l1d = { 16 * 1024, 4, 32, 0 },
	.l2 = { 128 * 1024, 8, 32, 20 },
	.l3 = { 4 * 1024 * 1024, 16, 64, 45 },
	.mem_latency = 314, /* 110 ns at 2.85 GHz */
	.l1d_hw_prefetch = 0, /* off until the validation figures include it (docs/prefetch-model.md) */
	/* store buffer + store queue (PRM sl=9 mask 0x08, sl=19, sl=20 mask
	 * 0x10: both exist; sizes not published): 8 entries per strand, a
	 * store commits to the store queue 4 cycles after it executes, and
	 * leaves after the L2 latency, one per 2 cycles (docs/machine-figures.md
	 * §5, docs/memory-model.md "Store buffer") */
	.stbuf = { 8, 4, 20, 2 },
	/* request buffers (PRM sl=18 0x04, sl=21 0x02 / 0x20, sl=24 0x04 ..
	 * 0x10 name them; T4 sizes not published): the L1D miss buffer of GCC's
	 * Niagara comment (32 entries, prefetches dropped from 30); L2 miss /
	 * fill / writeback buffers of one OpenSPARC T2 L2 bank (16 / 8 / 8);
	 * L3 miss buffer 32 and a fill-buffer hold of 4 cycles are hvpmu's
	 * choices (docs/machine-figures.md §5) */
	.buf = { 32, 30, 16, 8, 8, 32, 4 },
};

/* Multi-chip T4 servers: chips, clock; each chip is home of an equal,
 * contiguous share of guest real memory (node-contiguous physical
 * address ranges, docs/coherence-model.md). */
static const struct hvpmu_platform_shape t4_servers[] = {
	{ "t4-1", 1, MD_GUEST_MEM_SHIFT, T4_CLOCK_HZ },
	{ "t4-2", 2, MD_GUEST_MEM_SHIFT - 1, T4_CLOCK_HZ },
	{ "t4-4", 4, MD_GUEST_MEM_SHIFT - 2, T4_4_CLOCK_HZ },
};

/* A line's DRAM channel: its chip's MCU by the address map (dram_map,
 * docs/dram-model.md), and the port the map suggests. */
static uint32_t t4_dram_channel(uint64_t addr, uint32_t chip, unsigned *port)
{
	struct dram_addr a;

	dram_map(addr, &a);
	*port = a.port;
	return chip * HVPMU_T4_MCUS_PER_CHIP + a.mcu;
}

const struct platform_rec platform_t4 = {
	.info = {
		.name = "t4",
		.isa = "sparcv9",
		.personality = "sun4v",
		.firmware = HVPMU_FW_SUN4V_CORE | HVPMU_FW_SUN4V_VT_CPU,
		.chips = 1,
		.cores_per_chip = T4_CORES_PER_CHIP,
		.strands_per_core = T4_STRANDS_PER_CORE,
		.clock_hz = T4_CLOCK_HZ,
		.mem = &t4_memory,
		.timing = &t4_timing,
		.kernel = &md_linux_sparc64_kernel,
		.dram_counter_group = HVPMU_MD_DRAM_GROUP_OS, /* §10.5: COUNT01 is the OS's */
		.home_shift = MD_GUEST_MEM_SHIFT,
		.remote_ns = T4_REMOTE_NS,
		.max_chips = T4_MAX_CHIPS,
		.shapes = t4_servers,
		.nshapes = sizeof t4_servers / sizeof t4_servers[0],
	},
	.tlb = &tlb_chip_t4,
	.kernel_pgmask = TLB_PGMASK_T4,
	/* §10.5: two MCUs per T4 chip */
	.pmu = &hvpmu_t4_pmu_ops,
	.uncore = &hvpmu_t4_mcu_ops,
	.uncore_per_chip = HVPMU_T4_MCUS_PER_CHIP,
	.dram_channel = t4_dram_channel,
	.call_return_offset = BPRED_CALL_RETURN_OFFSET,
};
