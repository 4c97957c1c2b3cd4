/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/md.h - machine description (layer 2 configuration, layer 4 policy).
 *
 * A machine description names a platform, its topology, the timing
 * parameters of the model, and the hypervisor's guest properties.  It plays
 * the role of the sun4v machine description (MD) that the OpenSPARC
 * hypervisor reads (../shared/reference/hw-and-hypervisor.md §1.3): the
 * guest node's `perfctraccess` property gates the perf-register hypercalls,
 * `perfctrhtaccess` gates setting PCR.ht (§4).
 *
 * Built-in defaults come from hvpmu_md_default(); callers may edit the
 * struct before creating a machine.  Plain data: copy freely.
 */
#ifndef HVPMU_MD_H
#define HVPMU_MD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hvpmu_platform {
	HVPMU_PLATFORM_T4 = 0, /* SPARC T4: 8 cores x 8 strands per chip, 4 PCR/PIC per strand */
	HVPMU_PLATFORM_T1 = 1, /* UltraSPARC T1: 8 cores x 4 strands, PCR/PIC in ASRs, DRAM/JBUS PerfRegs */
};

#define HVPMU_MD_MAX_GUESTS 8
#define HVPMU_MD_MAX_MEM 4     /* real-memory segments per guest */
#define HVPMU_MD_PROP_ABSENT (-1) /* an MD integer property that is not present */
#define HVPMU_MD_DRAM_GROUP_OS 0x1 /* DRAM_PERF_COUNT01_REG + sel0/sel1: the OS (Solaris) */
#define HVPMU_MD_DRAM_GROUP_PM 0x2 /* DRAM_PERF_COUNT23_REG + sel2/sel3: power management */

/* One guest (logical domain) of the sun4v machine description. */
struct hvpmu_md_guest {
	char name[32];
	/* `perfctraccess`: absent (HVPMU_MD_PROP_ABSENT) or 0 denies the
	 * perf-register hypercalls (ENOACCESS); any other value grants them
	 * (hw-and-hypervisor.md §1.3: "any non-zero value grants access"). */
	int64_t perfctraccess;
	/* `perfctrhtaccess`: absent or 0 makes a PCR write with ht=1 fail with
	 * ENOACCESS (hw-and-hypervisor.md §4, Niagara-2 check order). */
	int64_t perfctrhtaccess;
	/* `dram_counter_group` (hvpmu's property): which MCU DRAM counter
	 * groups of sparc-t4-performance-instrumentation.md §10.5 the guest
	 * owns, a mask of HVPMU_MD_DRAM_GROUP_*.  Absent or 0: none, the MCU
	 * perf registers give ENOACCESS (docs/sun4v-hypervisor.md). */
	int64_t dram_counter_group;
	/* Guest real memory segments (RA base, size in bytes), as the MD's
	 * `mblock` nodes give them; the MMU-statistics buffer must lie in one. */
	uint32_t nmem;
	struct { uint64_t base, size; } mem[HVPMU_MD_MAX_MEM];
	uint32_t first_strand; /* strands [first_strand, first_strand + nstrands) belong to the guest */
	uint32_t nstrands;
};

/*
 * Timing model of the instruction-driven slice (docs/timing-model.md).
 * All values in cycles.
 */
struct hvpmu_md_timing {
	uint32_t insn_cycles;        /* cycles per retired instruction (micro-op) */
	uint32_t taken_cti_cycles;   /* extra cycles for an always-taken control transfer (fetch redirect);
	                                conditional branches are predicted and cost no extra cycle */
	uint32_t syscall_cycles;     /* privileged-mode cycles the guest OS spends per system call */
	uint32_t hcall_cycles;       /* hyperprivileged-mode cycles per hypercall */
	uint32_t trap_cycles;        /* hyperprivileged cycles to take and deliver a PMU trap */
};

/* One cache level (docs/machine-figures.md gives the sources). */
struct hvpmu_md_cache {
	uint64_t size;       /* bytes */
	uint32_t ways;
	uint32_t line;       /* bytes */
	uint32_t latency;    /* extra cycles when an access is served at this level */
};

/*
 * Per-strand store buffer (docs/memory-model.md "Store buffer",
 * docs/machine-figures.md for the figures).  Stores enter it in program
 * order and drain to the L2 in FIFO order; a store that finds every entry
 * occupied stalls the strand until the oldest entry has drained.
 * All times in cycles.  entries = 0: no store buffer (stores complete at
 * once, no store-buffer events).
 */
struct hvpmu_md_stbuf {
	uint32_t entries;        /* entries per strand, 0..16 */
	uint32_t commit_cycles;  /* T4: cycles a store stays in the store buffer before it
	                            commits to the store queue (TABLE 10-2 sl=19); 0: one structure */
	uint32_t drain_latency;  /* cycles from entering to leaving the buffer (written to L2) */
	uint32_t drain_interval; /* at most one entry leaves per this many cycles */
};

/* Memory hierarchy: per-core L1I, L1D, L2; L3 shared per chip; memory.
 * A level of size 0 is absent (UltraSPARC T1 has no private L2: its shared
 * 3 MB L2 sits in the `l3` slot, the chip's last level). */
struct hvpmu_md_memory {
	struct hvpmu_md_cache l1i, l1d, l2, l3;
	uint32_t mem_latency; /* extra cycles when served by local memory */
	struct hvpmu_md_stbuf stbuf; /* store buffer of each strand */
};

struct hvpmu_md {
	enum hvpmu_platform platform;
	uint32_t chips;
	uint32_t cores_per_chip;
	uint32_t strands_per_core;
	uint64_t clock_hz;           /* processor clock, to convert cycles to seconds */
	struct hvpmu_md_timing timing;
	struct hvpmu_md_memory mem;
	uint32_t nguests;
	struct hvpmu_md_guest guests[HVPMU_MD_MAX_GUESTS];
};

/*
 * Fill *md with the built-in description of `platform`.  For T4: one chip,
 * 8 cores x 8 strands, 2.85 GHz (SPARC T4-1), one guest "primary" owning
 * every strand with perfctraccess=1, perfctrhtaccess absent and
 * dram_counter_group=HVPMU_MD_DRAM_GROUP_OS.  For T1: one chip, 8 cores x
 * 4 strands, 1.2 GHz (Sun Fire T2000), the T1 caches (docs/machine-figures.md),
 * one guest with perfctraccess=1.
 * Returns 0, or HVPMU_EINVAL for an unknown platform.  Thread-safe.
 */
int hvpmu_md_default(enum hvpmu_platform platform, struct hvpmu_md *md);

/* Total number of strands described by *md. */
uint32_t hvpmu_md_nstrands(const struct hvpmu_md *md);

/* Platform name ("t4") or NULL; and the reverse lookup (-1 if unknown). */
const char *hvpmu_platform_name(enum hvpmu_platform p);
int hvpmu_platform_by_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
