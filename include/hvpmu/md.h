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

#include <stddef.h>
#include <stdint.h>
#include <hvpmu/cec.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The platforms: include/hvpmu/platforms.def lists them (one line each). */
enum hvpmu_platform {
#define HVPMU_PLATFORM_DEF(ID, name) HVPMU_PLATFORM_##ID,
#include <hvpmu/platforms.def>
#undef HVPMU_PLATFORM_DEF
	HVPMU_NPLATFORMS
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
	/* `uid` (hvpmu's property, docs/service.md "Who a client is"): the
	 * host uid the guest's programs and monitors run as under a standing
	 * service; a client of that uid belongs to this guest alone.  1 ..
	 * 4294967294, no two guests alike; absent (HVPMU_MD_PROP_ABSENT): the
	 * guest has no uid of its own, only the operator (root, the
	 * service's uid) reaches it. */
	int64_t uid;
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
	/* Pipeline timing (docs/timing-model.md, src/model/pipeline.c); 0 turns a rule off. */
	uint32_t mispredict_cycles;  /* user cycles lost per mispredicted CTI (sl=25), refetch + drain */
	uint32_t refetch_cycles;     /* of those, cycles until the correct path reaches Select; the
	                                rest wait at Select for the branch to commit (sl=1 mask 0x01) */
	uint32_t btc_cycles;         /* fetch bubble of a taken CTI that misses the BTC or whose BTC
	                                target is incorrect (sl=5 0x08, sl=8 0x08) */
	uint32_t utag_cycles;        /* refetch after an I$ microtag miss with ptag hit or a way
	                                mismatch (sl=7 0x02, 0x08) */
	uint32_t dram_wait_cap;      /* largest DRAM queueing delay added to a load miss (0: none) */
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

/*
 * Finite request buffers (docs/memory-model.md "L2 buffers", figures in
 * docs/machine-figures.md §5): entries per core (L1D miss buffer, L2 miss,
 * fill and write-back buffers) and per chip (L3 miss buffer), each held
 * for a time in cycles.  0 entries: that buffer is unbounded (not
 * modeled).  At most 64 entries each.
 */
struct hvpmu_md_l2buf {
	uint32_t l1d_miss;      /* L1D miss buffer entries, shared by the core's strands */
	uint32_t l1d_pf_drop;   /* a software prefetch is dropped from this many held entries when
	                           more than one strand of the core runs (TABLE 10-2 sl=18 0x04) */
	uint32_t l2_miss;       /* L2 miss buffer: an L2 miss until its fill returns */
	uint32_t l2_fill;       /* L2 fill buffer: a returned line until written into L2 */
	uint32_t l2_wb;         /* L2 writeback buffer: a dirty victim until written to L3 */
	uint32_t l3_miss;       /* L3 miss buffer, per chip: an L3 miss until memory returns */
	uint32_t fill_cycles;   /* cycles a fill-buffer entry is held */
};

/* Memory hierarchy: per-core L1I, L1D, L2; L3 shared per chip; memory.
 * A level of size 0 is absent (UltraSPARC T1 has no private L2: its shared
 * 3 MB L2 sits in the `l3` slot, the chip's last level). */
#define HVPMU_MD_MAX_L1D_HW_PREFETCH 4
struct hvpmu_md_memory {
	struct hvpmu_md_cache l1i, l1d, l2, l3;
	uint32_t mem_latency; /* extra cycles when served by local memory */
	uint32_t l1d_hw_prefetch; /* L1D hardware prefetcher: next lines fetched on an L1D
	                             load miss, 0 = off, at most HVPMU_MD_MAX_L1D_HW_PREFETCH
	                             (docs/prefetch-model.md) */
	struct hvpmu_md_stbuf stbuf; /* store buffer of each strand */
	struct hvpmu_md_l2buf buf;   /* L1D / L2 / L3 request buffers (T4; T1: all 0) */
};

/*
 * The guest kernel's system-call path (docs/kernel-model.md): what the
 * machine runs in privileged mode, MMU context 0, for each system call of
 * the program that returns to it (hvpmu_machine_syscall()).  Addresses are
 * context-0 virtual addresses of a Linux sun4v-like kernel; both mappings
 * use pages of `page_bytes`, entered in the context-0 TSB.
 */
struct hvpmu_md_kernel {
	uint32_t syscall_insns;     /* privileged instructions retired per system call; 0: no kernel
	                               path (then only timing.syscall_cycles is charged) */
	uint64_t page_bytes;        /* page size of the kernel mappings: 4 MB (8 KB << 3 * 3) */
	uint64_t text_va;           /* kernel image text mapping (Linux KERNBASE) */
	uint64_t text_bytes;        /* its length, a multiple of page_bytes */
	uint64_t tba;               /* trap base address: the entry of trap type TT is at tba + TT * 32 */
	uint64_t handler_va;        /* system-call handler text, fetched straight-line after the entry */
	uint64_t syscall_table;     /* table of 4-byte entries indexed by the system-call number */
	uint32_t nsyscalls;         /* entries in it: larger numbers read entry 0 */
	uint64_t data_va;           /* kernel data mapping (Linux linear map, PAGE_OFFSET) */
	uint64_t data_bytes;        /* its length, a multiple of page_bytes */
	uint64_t thread_info;       /* flags word loaded once per system call */
	uint64_t trap_frame;        /* pt_regs: 8-byte words stored at entry, loaded at return */
	uint32_t trap_frame_bytes;  /* a multiple of 8 */
};

/* How guest threads (vCPUs) are placed on strands (docs/coherence-model.md). */
enum hvpmu_placement {
	HVPMU_PLACE_PACK = 0,   /* vCPU i on strand i: fill a core's strands first */
	HVPMU_PLACE_SPREAD = 1, /* round robin over chips, then cores, then strands */
};

/* The service's default time quantum, cycles: ZSim's default phase
 * length (Sanchez and Kozyrakis, ISCA 2013, "bound-weave" phases of
 * 10,000 cycles). */
#define HVPMU_MD_QUANTUM_DEFAULT 10000u

struct hvpmu_md {
	enum hvpmu_platform platform;
	char isa[16];                /* the processors' instruction set (hvpmu_isa_by_name, hvpmu/isa.h) */
	uint32_t chips;
	uint32_t cores_per_chip;
	uint32_t strands_per_core;
	uint64_t clock_hz;           /* processor clock, to convert cycles to seconds */
	struct hvpmu_md_timing timing;
	struct hvpmu_md_memory mem;
	struct hvpmu_md_kernel kernel;
	uint32_t nguests;
	struct hvpmu_md_guest guests[HVPMU_MD_MAX_GUESTS];
	/* Multi-chip coherence (docs/coherence-model.md, figures in
	 * docs/machine-figures.md §8): the home chip of physical address pa
	 * is (pa >> home_shift) % chips; a miss served by another chip (its
	 * L3, its memory or one of its L2s) costs remote_latency extra cycles. */
	uint32_t home_shift;
	uint32_t remote_latency;
	enum hvpmu_placement placement;
	/* The clock of the chip-wide units (the Origin Hub: 100 MHz), Hz; 0:
	 * the processor clock.  Cycle counts of the Hub MD counters' set 0
	 * are in this clock (hw-and-hypervisor.md §5.2). */
	uint64_t uncore_clock_hz;
	/* The guest OS's clock-tick rate (IRIX HZ: 100, lbolt ticks of 10 ms),
	 * Hz; 0: the guest driver's own default. */
	uint32_t os_hz;
	/* The service (docs/service.md "Time"): guest processes' threads
	 * advance in quanta of this many modeled cycles (0: the default,
	 * HVPMU_MD_QUANTUM_DEFAULT). */
	uint64_t quantum_cycles;
	/* The PAPR CEC and its partitions (hvpmu/cec.h): chips, processors
	 * and partitions as H_GetPerformanceCounterInfo reports them; partition
	 * i is guests[i].  nchips 0: the machine has no CEC (every non-PAPR
	 * platform); the power description has hvpmu_cec_default()'s.  A
	 * file's "cec" key sets it (docs/machine-description.md). */
	struct hvpmu_cec cec;
	/* I/O by DMA through the directory (docs/origin-directory.md "I/O"):
	 * 1 = each read() and write() of the program moves its bytes by DMA
	 * through the I/O interface of node 0's Hub, a request per 128-byte
	 * line of its buffer at the line's home; 0 (the default): no I/O
	 * reaches the directory.  Only a machine with a directory (the SGI
	 * Origin) has such I/O; elsewhere it changes nothing. */
	uint32_t io_dma;
	/* The Hub's fetch-and-op region (docs/origin-directory.md
	 * "Fetch-and-op"): the program's virtual addresses [fetchop_va,
	 * fetchop_va + fetchop_bytes) are mapped to it, as IRIX maps
	 * /dev/fetchop: every load and store there is an uncached
	 * fetch-and-op at the home Hub of its page.  Both 16 KB aligned;
	 * fetchop_bytes 0 (the default): no region.  Only a machine with a
	 * directory (the SGI Origin) has one; elsewhere it changes nothing. */
	uint64_t fetchop_va;
	uint64_t fetchop_bytes;
	/* Page migration (docs/origin-directory.md "Migration"), IRIX's
	 * policy on the Hub's migration counters (MD_MIG_DIFF_THRESH): 0 (the
	 * default) off; else a 16 KB page migrates to a node whose CPUs have
	 * made more than this many requests to it beyond those of its home
	 * node's CPUs, and the old home's entries are poisoned for the CPUs
	 * that held a translation of it.  Only a machine with a directory (the
	 * SGI Origin) migrates; elsewhere it changes nothing. */
	uint32_t migration_threshold;
};

/*
 * Fill *md with the built-in description of `platform`.  For T4: one chip,
 * 8 cores x 8 strands, 2.85 GHz (SPARC T4-1), one guest "primary" owning
 * every strand with perfctraccess=1, perfctrhtaccess absent and
 * dram_counter_group=HVPMU_MD_DRAM_GROUP_OS.  For T1: one chip, 8 cores x
 * 4 strands, 1.2 GHz (Sun Fire T2000), the T1 caches (docs/machine-figures.md),
 * one guest with perfctraccess=1.  For POWER (docs/power-platform.md):
 * four POWER7 chips (two modules of two), 8 cores x 4 threads each,
 * 3.86 GHz, POWER7 caches, guest memory homed a quarter per chip, no
 * modeled kernel path.
 * Returns 0, or HVPMU_EINVAL for an unknown platform.  Thread-safe.
 */
int hvpmu_md_default(enum hvpmu_platform platform, struct hvpmu_md *md);

/*
 * Machine-description files (docs/machine-description.md): a JSON object
 * that starts from *base (NULL: the t4 default), or from the built-in
 * description its "platform" names (hvpmu_md_by_name: t4, t4-1, t4-2,
 * t4-4, t1), and overrides the fields it gives: chips, cores_per_chip,
 * strands_per_core, clock_hz, home_shift, remote_latency, placement,
 * timing.*, memory.{l1i, l1d, l2, l3}.{size, ways, line, latency},
 * memory.{mem_latency, l1d_hw_prefetch}, kernel.*, cec (hvpmu/cec.h), and guests[]
 * (replacing the default guest: name, perfctraccess, perfctrhtaccess,
 * dram_counter_group - null or absent = property absent -, mblock[] of
 * {base, size}, first_strand, nstrands).  Unknown keys, wrong types,
 * out-of-range values and inconsistent shapes (cache geometry, strands,
 * overlapping guests, kernel regions) are errors.
 * On success returns 0 and fills *md; else HVPMU_EINVAL (or HVPMU_ENOMEM)
 * with a one-line reason in err[errlen], *md untouched: "LINE:COL: KEY:
 * what" (hvpmu_md_parse; LINE and COL 1-based, of the offending value, of
 * the key when it is unknown, where the JSON stopped for a syntax error;
 * without them when the text does not hold the key, e.g. a value taken
 * from *base), "PATH:LINE:COL: KEY: what" or "PATH: what" (hvpmu_md_load).
 * Files are at most 1 MB.  Thread-safe.
 */
int hvpmu_md_parse(const char *text, size_t len, const struct hvpmu_md *base, struct hvpmu_md *md, char *err,
		   size_t errlen);
int hvpmu_md_load(const char *path, const struct hvpmu_md *base, struct hvpmu_md *md, char *err, size_t errlen);

/*
 * A complete description that did not come from a file (a tool's finished
 * description in a request, hvpmu/session.h): every value in the range a
 * file may give, the guests, the CEC and the cross-field rules of
 * hvpmu_md_load.  0, or HVPMU_EINVAL with "KEY: what" in err.
 */
int hvpmu_md_check(const struct hvpmu_md *md, char *err, size_t errlen);

/*
 * Fill *md with a built-in description by name: a platform name
 * ("t4", "t1") or a multi-chip T4 server: "t4-1" (= "t4"), "t4-2" (2 chips),
 * "t4-4" (4 chips, 3.0 GHz); docs/machine-figures.md §8.  Placement is
 * HVPMU_PLACE_PACK.  Returns 0, or HVPMU_EINVAL for an unknown name.
 */
int hvpmu_md_by_name(const char *name, struct hvpmu_md *md);

/* The strand that guest thread (vCPU) `vcpu` runs on under md->placement;
 * a bijection on [0, hvpmu_md_nstrands(md)).  Returns UINT32_MAX when
 * vcpu is out of range. */
uint32_t hvpmu_md_vcpu_strand(const struct hvpmu_md *md, uint32_t vcpu);

/* Placement by name ("pack", "spread"), -1 if unknown. */
int hvpmu_placement_by_name(const char *name);

/* Total number of strands described by *md. */
uint32_t hvpmu_md_nstrands(const struct hvpmu_md *md);

/* The names hvpmu_md_by_name knows, i = 0, 1, ... (NULL past the last):
 * each platform's name, a platform's named servers after it ("t4",
 * "t4-1", "t4-2", "t4-4", "t1").  Thread-safe. */
const char *hvpmu_md_name_at(unsigned i);

/* Platform name ("t4") or NULL; and the reverse lookup (-1 if unknown). */
const char *hvpmu_platform_name(enum hvpmu_platform p);
int hvpmu_platform_by_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
