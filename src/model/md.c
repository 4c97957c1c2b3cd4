/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine descriptions: built-in platform defaults (../shared/DESIGN.md
 * "Machine descriptions") and the sun4v MD guest properties the hypervisor
 * reads (../shared/reference/hw-and-hypervisor.md §1.3, §4).
 */
#include <stdio.h>
#include <string.h>
#include <hvpmu/hvpmu.h>

/* SPARC T4: 8 cores x 8 strands per chip (sparc-t4-performance-
 * instrumentation.md §10.1 "virtual processor"; DESIGN.md), SPARC T4-1
 * clock 2.85 GHz (Oracle SPARC T4-1 data sheet). */
#define T4_CORES_PER_CHIP 8
#define T4_STRANDS_PER_CORE 8
#define T4_CLOCK_HZ UINT64_C(2850000000)

#define GUEST_MEM_BYTES (UINT64_C(256) << 20)
#define GUEST_MEM_SHIFT 28

/* Multi-chip T4 servers (docs/machine-figures.md §8): SPARC T4-2 has 2
 * processors at 2.85 GHz, SPARC T4-4 has 4 at 3.0 GHz (Oracle, "SPARC
 * T4-1, T4-2, T4-4 and T4-1B Server Architecture", June 2012).  A remote
 * access pays +50 ns for the coherence-link hop (no published figure:
 * docs/machine-figures.md §2): 142 cycles at 2.85 GHz (rounded down), 150 at 3.0 GHz. */
#define T4_4_CLOCK_HZ UINT64_C(3000000000)
#define T4_REMOTE_NS 50

/* Timing-model defaults: docs/timing-model.md gives the reasoning. */
#define T4_INSN_CYCLES 1
#define T4_TAKEN_CTI_CYCLES 1
#define T4_SYSCALL_CYCLES 1500
#define T4_HCALL_CYCLES 100
#define T4_TRAP_CYCLES 200
/* Pipeline timing of T4 (docs/timing-model.md, docs/machine-figures.md §5):
 * a taken CTI costs nothing when the BTC supplies its target. */
#define T4_PIPE_TAKEN_CTI_CYCLES 0
#define T4_MISPREDICT_CYCLES 24  /* gprofng sparc_t4 br_msp_stalls: 24 cycles per Br_mispred */
#define T4_REFETCH_CYCLES 3      /* fetch stages from redirect to Select (hvpmu's choice) */
#define T4_BTC_CYCLES 2          /* redirect from decode instead of fetch (hvpmu's choice) */
#define T4_UTAG_CYCLES 2         /* fetch replay after the ptag compare (hvpmu's choice) */
#define T4_DRAM_WAIT_CAP 576     /* 4 DRAM bank cycles (4 x 144, docs/dram-model.md) */

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

/* ---- POWER (issue 15; docs/power-platform.md gives every source and choice) ----
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

/* The guest kernel's system-call path (docs/kernel-model.md, which gives
 * the source or the reason of every figure).  Addresses follow Linux
 * sparc64: the image at KERNBASE 0x400000 (asm/head_64.h), the linear map
 * at PAGE_OFFSET 0xfffff80000000000 (43-bit VA), both mapped with 4 MB
 * pages; a 16 KB kernel stack (THREAD_SIZE) with thread_info at its base
 * and struct pt_regs (160 bytes, TRACEREG_SZ) at its top.  The trap table
 * is 32 KB aligned (SPARC V9 TBA{63:15}); the handler's length and table
 * placement are choices. */
#define KERNBASE UINT64_C(0x400000)
#define PAGE_OFFSET UINT64_C(0xfffff80000000000)
#define KPAGE (UINT64_C(4) << 20)
#define THREAD_SIZE 0x4000u
#define TRACEREG_SZ 160u
#define KSTACK (PAGE_OFFSET + 0x100000u)
static const struct hvpmu_md_kernel linux_kernel = {
	.syscall_insns = 300,
	.page_bytes = KPAGE,
	.text_va = KERNBASE,
	.text_bytes = KPAGE,
	.tba = KERNBASE + 0x8000u,
	.handler_va = KERNBASE + 0x20000u,
	.syscall_table = KERNBASE + 0x300000u,
	.nsyscalls = 512,
	.data_va = PAGE_OFFSET,
	.data_bytes = KPAGE,
	.thread_info = KSTACK,
	.trap_frame = KSTACK + THREAD_SIZE - TRACEREG_SZ,
	.trap_frame_bytes = TRACEREG_SZ,
};

/* The built-in platforms as data. */
static const struct platform {
	const char *name;
	const char *isa;      /* hvpmu/isa.h: the processors' instruction set */
	uint32_t cores, strands;
	uint64_t clock_hz;
	const struct hvpmu_md_memory *mem;
	int64_t dram_group;
} platforms[] = {
	[HVPMU_PLATFORM_T4] = { "t4", "sparcv9", T4_CORES_PER_CHIP, T4_STRANDS_PER_CORE, T4_CLOCK_HZ, &t4_memory,
				HVPMU_MD_DRAM_GROUP_OS /* §10.5: COUNT01 is the OS's */ },
	[HVPMU_PLATFORM_T1] = { "t1", "sparcv9", 8, 4, UINT64_C(1200000000), &t1_memory, HVPMU_MD_PROP_ABSENT },
	/* a node: a Hub and two R10000 CPUs ("cores" of one strand) */
	[HVPMU_PLATFORM_ORIGIN] = { "origin", "mips64", 2, 1, ORIGIN_CLOCK_HZ, &origin_memory, HVPMU_MD_PROP_ABSENT },
	[HVPMU_PLATFORM_POWER] = { "power", "ppc64", POWER_CORES_PER_CHIP, POWER_THREADS_PER_CORE, POWER_CLOCK_HZ,
				   &power_memory, HVPMU_MD_PROP_ABSENT },
};

const char *hvpmu_platform_name(enum hvpmu_platform p)
{
	if ((unsigned)p >= sizeof platforms / sizeof platforms[0])
		return NULL;
	return platforms[p].name;
}

int hvpmu_platform_by_name(const char *name)
{
	for (unsigned i = 0; i < sizeof platforms / sizeof platforms[0]; i++)
		if (platforms[i].name && name && strcmp(platforms[i].name, name) == 0)
			return (int)i;
	return -1;
}

int hvpmu_md_default(enum hvpmu_platform platform, struct hvpmu_md *md)
{
	const struct platform *p;

	if (!md || (unsigned)platform >= sizeof platforms / sizeof platforms[0])
		return HVPMU_EINVAL;
	p = &platforms[platform];
	memset(md, 0, sizeof *md);
	md->platform = platform;
	snprintf(md->isa, sizeof md->isa, "%s", p->isa);
	md->chips = 1;
	md->cores_per_chip = p->cores;
	md->strands_per_core = p->strands;
	md->clock_hz = p->clock_hz;
	md->timing.insn_cycles = T4_INSN_CYCLES;
	md->timing.taken_cti_cycles = T4_TAKEN_CTI_CYCLES;
	md->timing.syscall_cycles = T4_SYSCALL_CYCLES;
	md->timing.hcall_cycles = T4_HCALL_CYCLES;
	md->timing.trap_cycles = T4_TRAP_CYCLES;
	if (platform == HVPMU_PLATFORM_T4) { /* T1 keeps the instruction-driven timing */
		md->timing.taken_cti_cycles = T4_PIPE_TAKEN_CTI_CYCLES;
		md->timing.mispredict_cycles = T4_MISPREDICT_CYCLES;
		md->timing.refetch_cycles = T4_REFETCH_CYCLES;
		md->timing.btc_cycles = T4_BTC_CYCLES;
		md->timing.utag_cycles = T4_UTAG_CYCLES;
		md->timing.dram_wait_cap = T4_DRAM_WAIT_CAP;
	}
	md->mem = *p->mem;
	md->kernel = linux_kernel;
	md->nguests = 1;
	strcpy(md->guests[0].name, "primary");
	md->guests[0].perfctraccess = 1;
	md->guests[0].perfctrhtaccess = HVPMU_MD_PROP_ABSENT;
	md->guests[0].dram_counter_group = p->dram_group;
	/* one 256 MB real-memory segment at RA 0 (docs/mmustat.md) */
	md->guests[0].nmem = 1;
	md->guests[0].mem[0].base = 0;
	md->guests[0].mem[0].size = GUEST_MEM_BYTES;
	md->guests[0].first_strand = 0;
	md->guests[0].nstrands = hvpmu_md_nstrands(md);
	md->home_shift = GUEST_MEM_SHIFT;
	md->remote_latency = (uint32_t)(T4_REMOTE_NS * md->clock_hz / UINT64_C(1000000000));
	md->placement = HVPMU_PLACE_PACK;
	if (platform == HVPMU_PLATFORM_ORIGIN) {
		md->chips = ORIGIN_NODES;
		md->uncore_clock_hz = ORIGIN_HUB_HZ;
		md->os_hz = ORIGIN_HZ;
		/* no modeled kernel path: it is the Linux sparc64 one */
		memset(&md->kernel, 0, sizeof md->kernel);
		md->remote_latency = ORIGIN_REMOTE_CYCLES;
		md->home_shift = GUEST_MEM_SHIFT - 2; /* a quarter of guest memory per node */
		md->guests[0].nstrands = hvpmu_md_nstrands(md);
	}
	if (platform == HVPMU_PLATFORM_POWER) {
		md->chips = POWER_CHIPS;
		/* no modeled kernel path: the one of md->kernel is Linux sparc64's */
		memset(&md->kernel, 0, sizeof md->kernel);
		md->remote_latency = (uint32_t)(POWER_REMOTE_NS * md->clock_hz / UINT64_C(1000000000));
		md->home_shift = GUEST_MEM_SHIFT - 2; /* a quarter of guest memory per chip */
		md->guests[0].nstrands = hvpmu_md_nstrands(md);
		/* the CEC and its partitions (hvpmu/cec.h, docs/papr-gpci.md) */
		hvpmu_cec_default(&md->cec);
	}
	return HVPMU_OK;
}

/* Multi-chip T4 servers: chips, clock; each chip is home of an equal,
 * contiguous share of guest real memory (node-contiguous physical
 * address ranges, docs/coherence-model.md). */
static const struct server {
	const char *name;
	uint32_t chips, home_shift;
	uint64_t clock_hz;
} t4_servers[] = {
	{ "t4-1", 1, GUEST_MEM_SHIFT, T4_CLOCK_HZ },
	{ "t4-2", 2, GUEST_MEM_SHIFT - 1, T4_CLOCK_HZ },
	{ "t4-4", 4, GUEST_MEM_SHIFT - 2, T4_4_CLOCK_HZ },
};

int hvpmu_md_by_name(const char *name, struct hvpmu_md *md)
{
	int p = name && md ? hvpmu_platform_by_name(name) : -1;

	if (p >= 0)
		return hvpmu_md_default((enum hvpmu_platform)p, md);
	for (unsigned i = 0; name && md && i < sizeof t4_servers / sizeof t4_servers[0]; i++)
		if (strcmp(t4_servers[i].name, name) == 0) {
			hvpmu_md_default(HVPMU_PLATFORM_T4, md);
			md->chips = t4_servers[i].chips;
			md->clock_hz = t4_servers[i].clock_hz;
			md->home_shift = t4_servers[i].home_shift;
			md->remote_latency = (uint32_t)(T4_REMOTE_NS * md->clock_hz / UINT64_C(1000000000));
			md->guests[0].nstrands = hvpmu_md_nstrands(md);
			return HVPMU_OK;
		}
	return HVPMU_EINVAL;
}

const char *hvpmu_md_name_at(unsigned i)
{
	for (unsigned p = 0; p < HVPMU_NPLATFORMS; p++) {
		if (!platforms[p].name)
			continue;
		if (i-- == 0)
			return platforms[p].name;
		if (p == HVPMU_PLATFORM_T4) {
			if (i < sizeof t4_servers / sizeof t4_servers[0])
				return t4_servers[i].name;
			i -= sizeof t4_servers / sizeof t4_servers[0];
		}
	}
	return NULL;
}

uint32_t hvpmu_md_vcpu_strand(const struct hvpmu_md *md, uint32_t vcpu)
{
	uint32_t chips = md->chips ? md->chips : 1, cores = md->cores_per_chip ? md->cores_per_chip : 1;
	uint32_t chip, core, sic;

	if (vcpu >= hvpmu_md_nstrands(md))
		return UINT32_MAX;
	if (md->placement != HVPMU_PLACE_SPREAD)
		return vcpu;
	chip = vcpu % chips;
	core = (vcpu / chips) % cores;
	sic = vcpu / (chips * cores);
	return (chip * cores + core) * md->strands_per_core + sic;
}

int hvpmu_placement_by_name(const char *name)
{
	if (name && strcmp(name, "pack") == 0)
		return HVPMU_PLACE_PACK;
	if (name && strcmp(name, "spread") == 0)
		return HVPMU_PLACE_SPREAD;
	return -1;
}

uint32_t hvpmu_md_nstrands(const struct hvpmu_md *md)
{
	return md->chips * md->cores_per_chip * md->strands_per_core;
}
