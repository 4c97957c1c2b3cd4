/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/platform.h - a platform as one record (layer 2), what the layers
 * above may read of it.
 *
 * Every fact that tells one platform from another lives in its record
 * (src/model/platform_<name>.c): the topology and the model's defaults
 * (caches, timing, kernel path), the limits of a description, the ISA, and
 * the names by which the layers above reach their part of the platform
 * (the firmware personality of src/services/, whose functions the record's
 * `firmware` bits enable).  The model's own part of the record (the TLB
 * chip, the PMU and uncore devices, the DRAM channel rule) is private to
 * src/model/ (platform.h there).  The records are listed, in `enum
 * hvpmu_platform` order, in the table of src/model/platform.c;
 * docs/architecture.md "Adding a platform" walks through a new one.
 *
 * Records are constant data: any thread may read them at any time.
 */
#ifndef HVPMU_PLATFORM_H
#define HVPMU_PLATFORM_H

#include <stdint.h>
#include <hvpmu/md.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a platform's firmware offers its guests (hvpmu_platform_info.firmware);
 * the personality serves a function only where its bit is set. */
enum hvpmu_firmware {
	/* sun4v API groups SUN4V 1.0 and CORE 1.6 (linux-clients.md §1.2) */
	HVPMU_FW_SUN4V_CORE = 1u << 0,
	/* API group VT_CPU 1.0: HV_FAST_VT_GET/SET_PERFREG (T4, hw-and-hypervisor.md §1.1) */
	HVPMU_FW_SUN4V_VT_CPU = 1u << 1,
	/* API group NIAGARA 0x200 1.0: the Niagara perf registers (T1, §1.1) */
	HVPMU_FW_SUN4V_NIAGARA = 1u << 2,
	/* the MMU-statistics service over guest real memory (niagara-mmustat-api.txt) */
	HVPMU_FW_SUN4V_MMUSTAT = 1u << 3,
	/* the IRIX kernel's syssgi(SGI_EVENTCTR) MDPERF_* commands on the Hub MD counters
	 * (irix-mdperf.2) */
	HVPMU_FW_IRIX_MDPERF = 1u << 4,
	/* the PAPR hcall H_GetPerformanceCounterInfo (papr-platform-hcalls.xml) */
	HVPMU_FW_PAPR_GPCI = 1u << 5,
};
/* Bits 16-31: a service only one platform's firmware offers; that
 * platform's own header names its bit (HVPMU_FW_PLATFORM(n), n < 16). */
#define HVPMU_FW_PLATFORM(n) (1u << (16 + (n)))

/* A named shape of a platform (a server model: "t4-2"): its chips, clock
 * and the share of guest real memory each chip is home of. */
struct hvpmu_platform_shape {
	const char *name;
	uint32_t chips;
	uint32_t home_shift;   /* log2 of the bytes of guest memory each chip is home of */
	uint64_t clock_hz;
};

/* What a platform is, for every layer (a record's public part). */
struct hvpmu_platform_info {
	const char *name;          /* -p NAME, a description's "platform" */
	const char *isa;           /* the processors' instruction set: a name of hvpmu/isa.h */
	const char *personality;   /* its firmware: a personality of src/services/ ("sun4v", "irix", "papr") */
	unsigned firmware;         /* enum hvpmu_firmware: what that firmware offers */
	/* hvpmu_md_default()'s description: */
	uint32_t chips, cores_per_chip, strands_per_core;
	uint64_t clock_hz;
	uint64_t uncore_clock_hz;  /* 0: the core clock */
	uint32_t os_hz;            /* the guest kernel's clock (0: the driver's tick) */
	const struct hvpmu_md_memory *mem;
	const struct hvpmu_md_timing *timing;
	const struct hvpmu_md_kernel *kernel; /* the modeled system-call path; NULL: none */
	int64_t dram_counter_group;           /* the default guest's (HVPMU_MD_PROP_ABSENT: none) */
	uint32_t home_shift;       /* log2 bytes of guest memory each chip is home of */
	uint32_t remote_ns;        /* a remote access's extra time (ns); 0: remote_cycles */
	uint32_t remote_cycles;    /* the same in cycles, where remote_ns is 0 */
	int cec;                   /* the description has a PAPR CEC (hvpmu_cec_default) */
	/* a description's limits: */
	uint32_t max_chips;        /* 1..max_chips chips (0: only the 4096-strand bound) */
	/* named shapes, listed after the platform's name (hvpmu_md_name_at) */
	const struct hvpmu_platform_shape *shapes;
	unsigned nshapes;
};

/* The record of platform `p`; NULL if there is none. */
const struct hvpmu_platform_info *hvpmu_platform_info(enum hvpmu_platform p);
/* The platform a tool takes when none is given: the table's first. */
enum hvpmu_platform hvpmu_platform_default(void);

#ifdef __cplusplus
}
#endif
#endif
