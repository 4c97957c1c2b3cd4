/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine descriptions: built-in platform defaults (../shared/DESIGN.md
 * "Machine descriptions") and the sun4v MD guest properties the hypervisor
 * reads (../shared/reference/hw-and-hypervisor.md §1.3, §4).
 */
#include <stdio.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "platform.h"

const struct hvpmu_md_timing md_base_timing = {
	.insn_cycles = MD_INSN_CYCLES,
	.taken_cti_cycles = MD_TAKEN_CTI_CYCLES,
	.syscall_cycles = MD_SYSCALL_CYCLES,
	.hcall_cycles = MD_HCALL_CYCLES,
	.trap_cycles = MD_TRAP_CYCLES,
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
const struct hvpmu_md_kernel md_linux_sparc64_kernel = {
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

const char *hvpmu_platform_name(enum hvpmu_platform p)
{
	const struct platform_rec *r = platform_rec(p);

	return r ? r->info.name : NULL;
}

int hvpmu_platform_by_name(const char *name)
{
	for (unsigned i = 0; name && i < HVPMU_NPLATFORMS; i++)
		if (platform_rec(i) && strcmp(platform_rec(i)->info.name, name) == 0)
			return (int)i;
	return -1;
}

/* A remote access's extra cycles at the description's clock. */
static uint32_t remote_latency(const struct hvpmu_platform_info *p, uint64_t clock_hz)
{
	return p->remote_ns ? (uint32_t)(p->remote_ns * clock_hz / UINT64_C(1000000000)) : p->remote_cycles;
}

int hvpmu_md_default(enum hvpmu_platform platform, struct hvpmu_md *md)
{
	const struct platform_rec *r = platform_rec(platform);
	const struct hvpmu_platform_info *p;

	if (!md || !r)
		return HVPMU_EINVAL;
	p = &r->info;
	memset(md, 0, sizeof *md);
	md->platform = platform;
	snprintf(md->isa, sizeof md->isa, "%s", p->isa);
	md->chips = p->chips;
	md->cores_per_chip = p->cores_per_chip;
	md->strands_per_core = p->strands_per_core;
	md->clock_hz = p->clock_hz;
	md->uncore_clock_hz = p->uncore_clock_hz;
	md->os_hz = p->os_hz;
	md->timing = *p->timing;
	md->mem = *p->mem;
	if (p->kernel)
		md->kernel = *p->kernel;
	md->nguests = 1;
	strcpy(md->guests[0].name, "primary");
	md->guests[0].perfctraccess = 1;
	md->guests[0].perfctrhtaccess = HVPMU_MD_PROP_ABSENT;
	md->guests[0].uid = HVPMU_MD_PROP_ABSENT;
	md->guests[0].dram_counter_group = p->dram_counter_group;
	/* one 256 MB real-memory segment at RA 0 (docs/mmustat.md) */
	md->guests[0].nmem = 1;
	md->guests[0].mem[0].base = 0;
	md->guests[0].mem[0].size = MD_GUEST_MEM_BYTES;
	md->guests[0].first_strand = 0;
	md->guests[0].nstrands = hvpmu_md_nstrands(md);
	md->home_shift = p->home_shift;
	md->remote_latency = remote_latency(p, md->clock_hz);
	md->placement = HVPMU_PLACE_PACK;
	if (p->cec)
		hvpmu_cec_default(&md->cec);
	return HVPMU_OK;
}

int hvpmu_md_by_name(const char *name, struct hvpmu_md *md)
{
	int p = name && md ? hvpmu_platform_by_name(name) : -1;

	if (p >= 0)
		return hvpmu_md_default((enum hvpmu_platform)p, md);
	for (unsigned k = 0; name && md && k < HVPMU_NPLATFORMS; k++) {
		const struct hvpmu_platform_info *pi = hvpmu_platform_info(k);

		for (unsigned i = 0; pi && i < pi->nshapes; i++)
			if (strcmp(pi->shapes[i].name, name) == 0) {
				hvpmu_md_default((enum hvpmu_platform)k, md);
				md->chips = pi->shapes[i].chips;
				md->clock_hz = pi->shapes[i].clock_hz;
				md->home_shift = pi->shapes[i].home_shift;
				md->remote_latency = remote_latency(pi, md->clock_hz);
				md->guests[0].nstrands = hvpmu_md_nstrands(md);
				return HVPMU_OK;
			}
	}
	return HVPMU_EINVAL;
}

const char *hvpmu_md_name_at(unsigned i)
{
	for (unsigned p = 0; p < HVPMU_NPLATFORMS; p++) {
		const struct hvpmu_platform_info *pi = hvpmu_platform_info(p);

		if (!pi)
			continue;
		if (i-- == 0)
			return pi->name;
		if (i < pi->nshapes)
			return pi->shapes[i].name;
		i -= pi->nshapes;
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
