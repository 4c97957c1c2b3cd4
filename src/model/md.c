/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine descriptions: built-in platform defaults (../shared/DESIGN.md
 * "Machine descriptions") and the sun4v MD guest properties the hypervisor
 * reads (../shared/reference/hw-and-hypervisor.md §1.3, §4).
 */
#include <string.h>
#include <hvpmu/hvpmu.h>

/* SPARC T4: 8 cores x 8 strands per chip (sparc-t4-performance-
 * instrumentation.md §10.1 "virtual processor"; DESIGN.md), SPARC T4-1
 * clock 2.85 GHz (Oracle SPARC T4-1 data sheet). */
#define T4_CORES_PER_CHIP 8
#define T4_STRANDS_PER_CORE 8
#define T4_CLOCK_HZ UINT64_C(2850000000)

/* Timing-model defaults: docs/timing-model.md gives the reasoning. */
#define T4_INSN_CYCLES 1
#define T4_TAKEN_CTI_CYCLES 1
#define T4_SYSCALL_CYCLES 1500
#define T4_HCALL_CYCLES 100
#define T4_TRAP_CYCLES 200

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
};

static const char *const platform_names[] = {
	[HVPMU_PLATFORM_T4] = "t4",
};

const char *hvpmu_platform_name(enum hvpmu_platform p)
{
	if ((unsigned)p >= sizeof platform_names / sizeof platform_names[0])
		return NULL;
	return platform_names[p];
}

int hvpmu_platform_by_name(const char *name)
{
	for (unsigned i = 0; i < sizeof platform_names / sizeof platform_names[0]; i++)
		if (platform_names[i] && name && strcmp(platform_names[i], name) == 0)
			return (int)i;
	return -1;
}

int hvpmu_md_default(enum hvpmu_platform platform, struct hvpmu_md *md)
{
	if (!md || platform != HVPMU_PLATFORM_T4)
		return HVPMU_EINVAL;
	memset(md, 0, sizeof *md);
	md->platform = platform;
	md->chips = 1;
	md->cores_per_chip = T4_CORES_PER_CHIP;
	md->strands_per_core = T4_STRANDS_PER_CORE;
	md->clock_hz = T4_CLOCK_HZ;
	md->timing.insn_cycles = T4_INSN_CYCLES;
	md->timing.taken_cti_cycles = T4_TAKEN_CTI_CYCLES;
	md->timing.syscall_cycles = T4_SYSCALL_CYCLES;
	md->timing.hcall_cycles = T4_HCALL_CYCLES;
	md->timing.trap_cycles = T4_TRAP_CYCLES;
	md->mem = t4_memory;
	md->nguests = 1;
	strcpy(md->guests[0].name, "primary");
	md->guests[0].perfctraccess = 1;
	md->guests[0].perfctrhtaccess = HVPMU_MD_PROP_ABSENT;
	md->guests[0].dram_counter_group = HVPMU_MD_DRAM_GROUP_OS; /* §10.5: COUNT01 is the OS's */
	md->guests[0].first_strand = 0;
	md->guests[0].nstrands = hvpmu_md_nstrands(md);
	return HVPMU_OK;
}

uint32_t hvpmu_md_nstrands(const struct hvpmu_md *md)
{
	return md->chips * md->cores_per_chip * md->strands_per_core;
}

const char *hvpmu_strerror(int err)
{
	switch (err) {
	case HVPMU_OK: return "success";
	case HVPMU_EINVAL: return "invalid argument";
	case HVPMU_ENOMEM: return "out of memory";
	case HVPMU_ERANGE: return "index out of range";
	case HVPMU_ENOTSUP: return "not supported by the model";
	case HVPMU_EHV: return "hypercall failed";
	case HVPMU_EFULL: return "table full";
	case HVPMU_ETRAP: return "access trapped (privileged_action)";
	default: return "unknown error";
	}
}
