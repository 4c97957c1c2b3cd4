/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/machine.h - the machine model (layer 2 of ../shared/DESIGN.md).
 *
 * A machine holds the strands of a machine description, their privilege
 * mode, their modeled cycle count (%tick), and the PMU devices of layer 3
 * (a PMU per strand and chip-wide counter devices, hvpmu/pmu.h).  An event source (layer 1) feeds it activity:
 * retired instructions by decode class, taken conditional branches, mode
 * changes and system calls.  The machine turns activity into hardware events
 * and hands them to the PMU devices; PMU traps come back out through the
 * trap handler the hypervisor installs.
 *
 * Fast path contract (what makes a TCG plugin cheap):
 *   - hvpmu_machine_class() interns a decoded instruction's flags into a
 *     small class index at translation time;
 *   - the source then counts retired instructions by adding 1 to
 *     `act->icount[class]` for each retired instruction (a QEMU inline add),
 *     and for each executed block adds the block's length to `act->bound`;
 *   - whenever `act->bound >= act->next_check` the source calls
 *     hvpmu_machine_sync() before the block runs.  The machine sets
 *     `next_check` so that no counter can overflow, and no timer can expire,
 *     between two syncs without being noticed, and overflows are located to
 *     the exact instruction (no skid, sparc-t4-performance-instrumentation.md
 *     §10.1 item 7).
 * Everything else (mode changes, system calls, reads) goes through functions.
 *
 * Thread-safety: a machine is not internally locked.  Each strand's activity
 * block may be updated by the one host thread running that strand; every
 * function below must be serialised by the caller (the QEMU plugin holds one
 * lock around them for multi-threaded guests).
 */
#ifndef HVPMU_MACHINE_H
#define HVPMU_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <hvpmu/insn.h>
#include <hvpmu/md.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Privilege modes: user, privileged (supervisor), hyperprivileged. */
enum hvpmu_mode {
	HVPMU_MODE_USER = 0,
	HVPMU_MODE_PRIV = 1,
	HVPMU_MODE_HYPER = 2,
	HVPMU_NMODES = 3,
};

/* At most this many distinct instruction classes (distinct decode flag sets). */
#define HVPMU_MAX_ICLASS 64

/* Branch mispredict kinds of TABLE 10-2 sl=25 (docs/branch-prediction.md). */
enum hvpmu_mispred {
	HVPMU_MISPRED_DIR = 0,   /* direction (sl=25 mask 0x01) */
	HVPMU_MISPRED_FAR = 1,   /* target, far table (mask 0x02) */
	HVPMU_MISPRED_INDIR = 2, /* target, indirect table (mask 0x04) */
	HVPMU_MISPRED_RET = 3,   /* target, return stack (masks 0x08 and 0x02) */
	HVPMU_NMISPRED = 4,
};

/*
 * Memory-hierarchy events of a strand (docs/memory-model.md), the inputs of
 * TABLE 10-2 sl=5, 6, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23, 24.  "Remote"
 * outcomes occur only on multi-chip machine descriptions
 * (docs/coherence-model.md).
 */
enum hvpmu_mem_event {
	HVPMU_MEV_IC_MISS_L2L3 = 0, /* L1I miss served by L2 or L3 (sl=5 0x01, sl=11 0x01) */
	HVPMU_MEV_IC_MISS_MEM,      /* L1I miss served by local memory (sl=5 0x02, sl=11 0x02) */
	HVPMU_MEV_DC_MISS_L2L3,     /* L1D miss of an ordinary load served by L2 or L3 (sl=16/23 0x01) */
	HVPMU_MEV_DC_MISS_MEM,      /* ... served by local memory (sl=16/23 0x02) */
	HVPMU_MEV_ST_HIT_L2,        /* store hits L2 (sl=22 0x01) */
	HVPMU_MEV_ST_HIT_L3,        /* store misses L2, hits L3 (sl=22 0x02) */
	HVPMU_MEV_ST_MEM,           /* store served by local memory (sl=22 0x10) */
	HVPMU_MEV_L2_CLEAN_EVICT,   /* sl=24 0x01 */
	HVPMU_MEV_L2_DIRTY_EVICT,   /* sl=24 0x02 */
	HVPMU_MEV_IC_EVICT_INVAL,   /* L1I line invalidated by an L2 eviction (sl=20 0x01) */
	HVPMU_MEV_DC_EVICT_INVAL,   /* L1D line invalidated by an L2 eviction (sl=20 0x04) */
	HVPMU_MEV_ITLB_MISS,        /* ITLB tablewalks, successful or not (sl=5 0x10) */
	HVPMU_MEV_ITLB_FILL_8K,     /* sl=6 0x01 .. 0x10: ITLB fills by page size */
	HVPMU_MEV_ITLB_FILL_64K,
	HVPMU_MEV_ITLB_FILL_4M,
	HVPMU_MEV_ITLB_FILL_256M,
	HVPMU_MEV_ITLB_FILL_2G,
	HVPMU_MEV_ITLB_FILL_TRAP,   /* sl=6 0x20: unsuccessful ITLB tablewalks */
	HVPMU_MEV_DTLB_FILL_8K,     /* sl=17 0x01 .. 0x10: DTLB fills by page size */
	HVPMU_MEV_DTLB_FILL_64K,
	HVPMU_MEV_DTLB_FILL_4M,
	HVPMU_MEV_DTLB_FILL_256M,
	HVPMU_MEV_DTLB_FILL_2G,
	HVPMU_MEV_DTLB_FILL_TRAP,   /* sl=17 0x20 */
	HVPMU_MEV_HWTW_I_L2,        /* sl=10 0x01 / 0x02 / 0x04: ITLB tablewalk references */
	HVPMU_MEV_HWTW_I_L3,
	HVPMU_MEV_HWTW_I_MEM,
	HVPMU_MEV_HWTW_D_L2,        /* sl=10 0x08 / 0x10 / 0x20: DTLB tablewalk references */
	HVPMU_MEV_HWTW_D_L3,
	HVPMU_MEV_HWTW_D_MEM,
	/* prefetch (src/model/prefetch.c, docs/prefetch-model.md) */
	HVPMU_MEV_HWPF_DROP_DC_HIT, /* L1D hardware prefetch dropped, line in L1D (sl=18 0x01) */
	HVPMU_MEV_SWPF_DROP_DC_HIT, /* software prefetch dropped, line in L1D (sl=18 0x02) */
	HVPMU_MEV_PF_HIT_L2,        /* L2-destined software prefetch hits L2 (sl=21 0x01) */
	HVPMU_MEV_PF_HIT_L3,        /* ... misses L2, hits L3 (sl=21 0x04) */
	HVPMU_MEV_PF_HIT_MEM,       /* ... served by local memory (sl=21 0x08) */
	HVPMU_MEV_PF_HIT_REMOTE,    /* ... served by remote memory (sl=21 0x10; multi-chip) */
	/* coherence (src/model/coherence.[ch], docs/coherence-model.md) */
	HVPMU_MEV_IC_MISS_REMOTE,   /* L1I miss served by a remote L3, remote memory or a
	                               remote L2 (sl=5 0x04, sl=11 0x02) */
	HVPMU_MEV_DC_MISS_REMOTE,   /* ... served remotely (sl=16/23 0x04) */
	HVPMU_MEV_ST_L2_LOCAL_C2C,  /* store takes the line from another core's L2, same die (sl=22 0x04) */
	HVPMU_MEV_ST_L2_REMOTE_C2C, /* ... from another core's L2 on another die (sl=22 0x08) */
	HVPMU_MEV_ST_REMOTE,        /* store served by remote memory (sl=22 0x20) */
	HVPMU_MEV_IC_SNOOP_INVAL,   /* L1I line invalidated by another core's store (sl=20 0x02) */
	HVPMU_MEV_DC_SNOOP_INVAL,   /* L1D line invalidated by another core's store (sl=20 0x08) */
	/* pipeline front end (docs/timing-model.md, src/model/pipeline.c) */
	HVPMU_MEV_BTC_MISS,         /* taken CTI without a BTC entry (sl=5 0x08) */
	HVPMU_MEV_BTC_TARG_INCORRECT, /* taken CTI whose BTC target was wrong (sl=8 0x08) */
	HVPMU_MEV_MTAG_MISS_PTAG_MISS, /* I$ microtag miss, line absent (sl=7 0x01) */
	HVPMU_MEV_MTAG_MISS_PTAG_HIT,  /* microtag miss, line present (sl=7 0x01 and 0x02) */
	HVPMU_MEV_MTAG_HIT_PTAG_MISS,  /* microtag hit, line absent (sl=7 0x04) */
	HVPMU_MEV_MTAG_WAY_MISMATCH,   /* microtag hit, line present in another way (sl=7 0x08) */
	/* store buffer (docs/memory-model.md "Store buffer"): loads whose bytes
	 * a buffered store holds, in the T4 store buffer or store queue */
	HVPMU_MEV_RAW_SB_FULL,      /* sl=19 0x01: wholly inside a store-buffer store */
	HVPMU_MEV_RAW_SB_PARTIAL,   /* sl=19 0x02: overlapping it partly */
	HVPMU_MEV_RAW_SQ_FULL,      /* sl=19 0x04: wholly inside a store-queue store */
	HVPMU_MEV_RAW_SQ_PARTIAL,   /* sl=19 0x08 */
	HVPMU_MEV_SB_FULL_CYCLES,   /* cycles with every entry occupied (T1 PICL SB_full) */
	HVPMU_MEV_SQ_TAG_WAIT,      /* cycles a store waits for an entry of the full buffer (sl=20 0x10) */
	/* L1D / L2 / L3 request buffers (src/model/l2buf.[ch], docs/memory-model.md
	 * "L2 buffers"): occurrences, one per request that finds a buffer full */
	HVPMU_MEV_SWPF_DROP_MB_FULL, /* software prefetch dropped, L1D miss buffer full (sl=18 0x04) */
	HVPMU_MEV_PF_DROP_L2,       /* L2-destined software prefetch dropped, L2 miss buffer full (sl=21 0x02) */
	HVPMU_MEV_PF_DROP_L3,       /* ... dropped, L3 miss buffer full (sl=21 0x20) */
	HVPMU_MEV_L2_FB_FULL,       /* an L2 fill finds the fill buffer full (sl=24 0x04) */
	HVPMU_MEV_L2_WB_FULL,       /* a dirty L2 victim finds the writeback buffer full (sl=24 0x08) */
	HVPMU_MEV_L2_MB_FULL,       /* an L2 miss finds the miss buffer full (sl=24 0x10) */
	HVPMU_MEV_L2_PIPE_STALL,    /* an L2 request held back by a full buffer (sl=24 0x20) */
	/* an L1D miss of a block load, an atomic or a software prefetch,
	 * served from anywhere (the T4's sl=16/23 leave these out, TABLE 10-2) */
	HVPMU_MEV_DC_MISS_SPECIAL,
	HVPMU_NMEV,
};

/*
 * Coherence events of a CPU's secondary cache that a directory produces
 * (the SGI Origin's, src/model/origin_dir.c, docs/origin-directory.md
 * "What each CPU sees"): requests the home Hub sends to the CPU, and the
 * state its own stores find in its secondary cache.  The inputs of the
 * R10000's events 12, 13 and 28-31 (docs/r10k-counters.md); 0 on the
 * platforms without a directory.
 */
enum hvpmu_dir_event {
	HVPMU_DIREV_EXT_INTERV = 0,  /* an intervention (read-shared or read-exclusive) sent to the CPU */
	HVPMU_DIREV_EXT_INVAL,       /* an invalidation sent to the CPU (a store of another CPU) */
	HVPMU_DIREV_EXT_INTERV_HIT,  /* an intervention that found the line in the CPU's secondary cache */
	HVPMU_DIREV_EXT_INVAL_HIT,   /* an invalidation that found the line there */
	HVPMU_DIREV_ST_CLEAN_EXCL,   /* a store to a line the CPU holds clean exclusive (made dirty, no message) */
	HVPMU_DIREV_ST_SHARED,       /* a store to a line the CPU holds shared (an upgrade request) */
	HVPMU_NDIREV,
};

/*
 * Pipeline timing (docs/timing-model.md): the causes that partition each
 * strand's user-mode cycles; the inputs of TABLE 10-2 sl=1, 2, 8, 9, 28.
 * Privileged and hyperprivileged cycles (modeled OS / hypervisor work)
 * count as HVPMU_PIPE_ISSUE.
 */
enum hvpmu_pipe_cause {
	HVPMU_PIPE_ISSUE = 0, /* one micro-op selected, picked and committed (base CPI) */
	HVPMU_PIPE_FETCH,     /* front end delivers nothing: I$ miss, ITLB miss, microtag replay, BTC redirect */
	HVPMU_PIPE_REFETCH,   /* after a mispredict, until the correct path reaches Select */
	HVPMU_PIPE_DRAIN,     /* correct path waits at Select for the mispredicted CTI to commit */
	HVPMU_PIPE_DATA,      /* waiting for load-miss data (L2 / L3 / memory latency + DRAM queueing) */
	HVPMU_PIPE_DTLB,      /* loads and stores wait at Pick for a DTLB miss (hardware tablewalk) */
	HVPMU_PIPE_SBFULL,    /* a store waits at Select for a store-buffer entry (full buffer) */
	HVPMU_NPIPE,
};

/*
 * Per-strand activity written by the event source on the hot path.  All
 * counts are monotonic, in retired instructions; the source counts
 * user-mode ones, the machine adds the kernel path's privileged
 * instructions to icount itself (hvpmu_machine_syscall).
 */
struct hvpmu_activity {
	uint64_t icount[HVPMU_MAX_ICLASS]; /* retired instructions per class */
	uint64_t taken_cond;   /* conditional CTIs that were taken (HVPMU_IC_CTI_COND) */
	uint64_t mispred[HVPMU_NMISPRED]; /* mispredicted CTIs by kind (hvpmu_machine_branch) */
	uint64_t mev[HVPMU_NMEV]; /* memory-hierarchy events (hvpmu_machine_dref / _ifetch) */
	uint64_t mem_refs;     /* occurrences of the memory events a counter counts (pmu.h mem_watch) */
	uint64_t mem_next_check; /* the machine syncs itself when mem_refs reaches this */
	uint64_t bound;        /* upper bound on retired instructions (sum of block lengths entered) */
	uint64_t next_check;   /* call hvpmu_machine_sync() once bound >= next_check */
};

/*
 * A straight-line block of instructions as the source executes it (a QEMU
 * translation block).  Instruction i sits at vaddr + 4*i and has class
 * cls[i].  `cond_cti` is the index of its conditional CTI whose outcome
 * is reported through taken_cond, or -1; `cti` the index of its last CTI of
 * any kind (the one hvpmu_machine_branch() reports), or -1.  Owned by the
 * source; must stay valid until the next hvpmu_machine_sync() of the strand
 * that ran it.
 */
struct hvpmu_block {
	uint64_t vaddr;
	uint32_t n;
	int32_t cond_cti;
	int32_t cti;
	const uint8_t *cls;
};

/* A trap raised by the hardware model towards the hypervisor. */
enum hvpmu_trap_type {
	HVPMU_TT_PRECISE_PERF = 1,    /* precise_performance_event (§10.2 toe, §10.3) */
	HVPMU_TT_DISRUPTING_PERF = 2, /* disrupting_performance_event */
	HVPMU_TT_TIMER = 3,           /* %stick_cmpr match: interrupt_level_14 for the OS tick */
};

struct hvpmu_trap {
	enum hvpmu_trap_type tt;
	uint32_t strand;
	uint32_t pic_mask;   /* PICs whose overflow caused a PMU trap (bit i = PIC i) */
	uint64_t tpc;        /* trap PC: for precise traps the instruction that overflowed */
	enum hvpmu_mode mode;/* mode of the strand when the trap was taken */
};

/* Trap handler installed by the hypervisor.  Called after the machine state
 * is consistent; the handler may call any machine / PMU function. */
typedef void (*hvpmu_trap_fn)(void *ctx, const struct hvpmu_trap *trap);

struct hvpmu_machine;

/* Create a machine from *md (copied).  Returns 0 or HVPMU_EINVAL/ENOMEM. */
int hvpmu_machine_create(const struct hvpmu_md *md, struct hvpmu_machine **out);
void hvpmu_machine_destroy(struct hvpmu_machine *m);

const struct hvpmu_md *hvpmu_machine_md(const struct hvpmu_machine *m);
uint32_t hvpmu_machine_nstrands(const struct hvpmu_machine *m);

/*
 * The hypervisor's TLB-miss handler as far as MMU statistics go: called
 * for every tablewalk that found its translation in a TSB (a "TSB hit the
 * hypervisor services", niagara-mmustat-api.txt), with the I/D side, the
 * context class, the TTE size code and the %tick cycles of that miss
 * handling.  Called from the strand's thread, inside memory accesses.
 */
typedef void (*hvpmu_tsb_hit_fn)(void *ctx, uint32_t strand, int dmmu, int ctx_nonzero,
				 unsigned size_code, uint64_t ticks);
void hvpmu_machine_set_tsb_hit_handler(struct hvpmu_machine *m, hvpmu_tsb_hit_fn fn, void *ctx);
/* The TLB model's own count of TSB hits of a strand (for cross-checks). */
uint64_t hvpmu_machine_tsb_hits(const struct hvpmu_machine *m, uint32_t strand, int dmmu, int ctx_nonzero,
				unsigned size_code);

/* Install the hypervisor's trap handler (NULL to drop traps). */
void hvpmu_machine_set_trap_handler(struct hvpmu_machine *m, hvpmu_trap_fn fn, void *ctx);

/*
 * Intern decode flags (enum hvpmu_ic_flags) into a class index 0..63.
 * Returns the index, or HVPMU_EFULL when 64 distinct classes exist.
 * Called at translation time, not per instruction.
 */
int hvpmu_machine_class(struct hvpmu_machine *m, uint32_t si_flags);
/* Flags of class `cls` (0 if unused). */
uint32_t hvpmu_machine_class_flags(const struct hvpmu_machine *m, unsigned cls);

/* Hot-path activity block of `strand`, or NULL if out of range.  The
 * pointer is stable for the life of the machine. */
struct hvpmu_activity *hvpmu_machine_activity(struct hvpmu_machine *m, uint32_t strand);

/*
 * Fold the strand's activity since the last sync into its PMU, locate and
 * raise overflow traps, fire the timer, and recompute act->next_check.
 * `last` is the block that ran last (the one any overflow happened in), or
 * NULL if unknown; `next` is the block about to run, or NULL.  Returns 0 or
 * HVPMU_ERANGE.
 */
int hvpmu_machine_sync(struct hvpmu_machine *m, uint32_t strand,
		       const struct hvpmu_block *last, const struct hvpmu_block *next);

/*
 * Change the strand's privilege mode (after syncing it).  Traps are taken
 * only while the strand runs in user mode (the guest program): a disrupting
 * PMU trap or timer match that becomes due in privileged or hyperprivileged
 * mode is delivered at the first sync after returning to user mode, and a
 * precise trap in hyperprivileged mode is lost (§10.3).
 */
int hvpmu_machine_set_mode(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_mode mode);
enum hvpmu_mode hvpmu_machine_mode(const struct hvpmu_machine *m, uint32_t strand);

/*
 * Account `cycles` spent by the strand in `mode` without retiring modeled
 * instructions (guest OS system-call work, hypervisor work).  Counts towards
 * %tick and the sl=26 cycle events of that mode.
 */
int hvpmu_machine_add_cycles(struct hvpmu_machine *m, uint32_t strand,
			     enum hvpmu_mode mode, uint64_t cycles);

/*
 * One system call of the strand's program, made while the strand is in
 * privileged mode (after hvpmu_machine_set_mode(PRIV); the source returns
 * it to user mode when the call returns).  `num` is the system-call number
 * (Linux sparc64), `returns` 0 for a call that ends the program (exit,
 * exit_group).  For a call that returns, when md.kernel.syscall_insns is
 * not 0, the machine runs the guest kernel's system-call path of
 * md.kernel (docs/kernel-model.md): instruction fetches of the trap-table
 * entry and handler text and data references to the trap frame,
 * thread_info and the system-call table, through the ITLB/DTLB in MMU
 * context 0 (TSB hits reported to the tsb-hit handler as ctx0) and the
 * caches, when the memory model is enabled; it retires syscall_insns
 * privileged instructions (stores, loads, others) and charges their
 * cycles plus miss latencies to privileged mode.  In every case the
 * privileged cycles are at least md.timing.syscall_cycles: the retired
 * instructions' cycles are part of it.  Deterministic.  Returns 0,
 * HVPMU_ERANGE (strand), HVPMU_EINVAL (strand not in privileged mode),
 * HVPMU_EFULL/ENOMEM (modeled physical memory or host memory exhausted
 * mapping the kernel at the first call).
 */
int hvpmu_machine_syscall(struct hvpmu_machine *m, uint32_t strand, int64_t num, int returns);

/*
 * Report one executed control transfer of the strand to its branch
 * predictor (docs/branch-prediction.md): `pc` of the CTI, its decode flags
 * (HVPMU_IC_CTI_COND / _CTI_ALWAYS / _CALL / _RET / _INDIRECT), whether it
 * was taken, and the address execution continued at when taken.  Updates
 * the predictor and act->mispred.  Hot-path safe (no allocation); call from
 * the thread running the strand.  Returns the enum hvpmu_mispred kind, or
 * -1 if predicted correctly (or `strand` is out of range).
 */
int hvpmu_machine_branch(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint32_t si_flags,
			 int taken, uint64_t target);

/*
 * Memory references of the strand's user-mode code, for the memory model
 * (docs/memory-model.md).  hvpmu_machine_syscall() makes them too, for the
 * kernel path, translated in context 0; latencies and tablewalk cycles are
 * charged to the strand's current mode.  Report them only while hvpmu_machine_wants_memory()
 * says so (a memory or cycle event is counting); otherwise the model is idle.
 *   dref: one data access of `size` bytes at `vaddr` by the instruction at
 *         `pc` with decode flags `si_flags` (loads, stores, atomics,
 *         prefetches, block accesses; `is_store` for the store side).
 *   ifetch: the instruction fetch of `bytes` starting at `vaddr` (a block).
 * They update the caches, the strand's store buffer (stores enter it,
 * loads are checked against it; docs/memory-model.md "Store buffer"),
 * act->mev, the strand's cycles (miss latencies, full-store-buffer stalls)
 * and, when a counter could wrap, sync the strand so that precise events
 * trap at `pc` (or the fetch address).  ifetch also marks the start of the
 * block being run, which the store buffer's clock uses to place each
 * access `pc` in time.  Hot-path safe: no allocation.
 */
void hvpmu_machine_dref(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t vaddr,
			unsigned size, uint32_t si_flags, int is_store);
void hvpmu_machine_ifetch(struct hvpmu_machine *m, uint32_t strand, uint64_t vaddr, uint32_t bytes);
/*
 * hvpmu_machine_dref() with the access described by a struct: the same as
 * hvpmu_machine_dref(m, strand, d->pc, vaddr, d->size, d->si_flags,
 * d->is_store), in four arguments, so that an event source that describes
 * each data-access instruction once (its pc and decode flags when it is
 * translated, its size and direction when it first runs) can pass the
 * description on as a tail call.  `d` must not be NULL; it is read during
 * the call only.  As with hvpmu_machine_dref(): a size of 0, a strand out
 * of range or the memory model off make the call do nothing; any nonzero
 * is_store is the store side; same thread-safety and hot-path guarantees.
 */
struct hvpmu_dref_insn {
	uint64_t pc;           /* the instruction's address */
	uint32_t si_flags;     /* its class flags (enum hvpmu_ic_flags, hvpmu/insn.h) */
	uint32_t size;         /* bytes of the access (SPARC: 1, 2, 4 or 8; block loads and stores come as 8-byte accesses) */
	uint8_t is_store;      /* nonzero: the store side (a store, or an atomic's store) */
};
void hvpmu_machine_dref_insn(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_dref_insn *d,
			     uint64_t vaddr);
/*
 * hvpmu_machine_dref_insn() specialised for the description at start-up
 * (docs/memory-model.md "Seventh pass"): without the per-reference tests
 * that a source can make once.  hvpmu_machine_dref_plain_ok() says
 * whether the machine allows it: every strand takes references (the
 * memory model is on) and the description has no fetch-and-op region
 * (the SGI Origin's Hub, which takes some accesses uncached).  Then, as
 * long as the features stay as they were (hvpmu_machine_set_features()),
 * hvpmu_machine_dref_plain() is hvpmu_machine_dref_insn() for a strand in
 * range and a size that is not 0 (neither is checked).
 */
int hvpmu_machine_dref_plain_ok(const struct hvpmu_machine *m);
void hvpmu_machine_dref_plain(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_dref_insn *d,
			      uint64_t vaddr);
/*
 * Software prefetches (docs/prefetch-model.md): the source reports each
 * executed prefetch instruction whose address it knows with
 * hvpmu_machine_prefetch() -- `dest` is where the instruction sends the
 * line (the ISA's function code, e.g. SPARC V9 A.49 fcn through
 * hvpmu/prefetch.h) -- and each one whose address it could not recover
 * with hvpmu_machine_prefetch_unresolved().  Same rules as
 * hvpmu_machine_dref().  The statistics count, per strand, prefetches
 * issued (those with no memory effect, HVPMU_PF_NONE, apart), unresolved
 * ones, and L1D hardware prefetches (md mem.l1d_hw_prefetch).
 */
enum hvpmu_pf_dest {
	HVPMU_PF_NONE = 0, /* no memory effect (SPARC: a reserved or implementation-dependent fcn) */
	HVPMU_PF_L1 = 1,   /* the L1 D-cache (and L2, inclusive) */
	HVPMU_PF_L2 = 2,   /* the L2 only */
};
void hvpmu_machine_prefetch(struct hvpmu_machine *m, uint32_t strand, uint64_t pc, uint64_t vaddr,
			    enum hvpmu_pf_dest dest);
void hvpmu_machine_prefetch_unresolved(struct hvpmu_machine *m, uint32_t strand);
struct hvpmu_prefetch_stats {
	uint64_t sw_issued, sw_nop, sw_unresolved, hw_issued;
};
/* Returns 0, or HVPMU_ERANGE for a bad strand. */
int hvpmu_machine_prefetch_stats(const struct hvpmu_machine *m, uint32_t strand, struct hvpmu_prefetch_stats *st);
/* Enable the whole memory model (the source calls the functions above):
 * the same as setting or clearing HVPMU_FEAT_MEMORY below; memory_enabled
 * is whether HVPMU_PART_CORE runs (the references are wanted). */
void hvpmu_machine_enable_memory(struct hvpmu_machine *m, int on);
int hvpmu_machine_memory_enabled(const struct hvpmu_machine *m);

/*
 * What the counters read, so that the machine runs only the parts of its
 * model that produce it (the gem5 way: a part costs only while something
 * reads it; docs/memory-model.md "Model parts").  Set once, before the
 * program runs, by whoever configures the run (the supervisor's session:
 * the OR of its events' hvpmu_sv_event_features(), plus
 * HVPMU_FEAT_MEMORY for the uncore tools); the source reads
 * hvpmu_machine_features() when it starts.
 *
 * Requested (hvpmu_machine_set_features): any of the bits below.  An
 * output may depend on parts of the model that produce other outputs --
 * cache outcomes on the clock where request buffers can drop prefetches,
 * the clock on every part the machine description gives a cost -- and
 * the machine runs the closure of that table (src/model/parts.c, data):
 * every requested output is exactly what it is with every part on.
 *
 * Reported (hvpmu_machine_features): what the source must feed, only
 * TAKEN, BRANCHES (every CTI's outcome, hvpmu_machine_branch: for the
 * predictor or the branch timing) and MEMORY (references, fetches and
 * prefetches: hvpmu_machine_dref ...).
 */
enum hvpmu_feature {
	HVPMU_FEAT_TAKEN = 1u << 0,    /* conditional CTI outcomes (act->taken_cond) */
	HVPMU_FEAT_BRANCHES = 1u << 1, /* branch mispredicts (act->mispred) / every CTI's outcome */
	HVPMU_FEAT_MEMORY = 1u << 2,   /* every memory and timing output below: the whole model */
	HVPMU_FEAT_CYCLES = 1u << 3,   /* the modeled time: %tick, sl=26 and pipeline causes, exact */
	HVPMU_FEAT_TLB = 1u << 4,      /* TLB misses, fills and fill traps */
	HVPMU_FEAT_CACHES = 1u << 5,   /* cache outcomes: misses by source, stores, evictions,
					  invalidations, tablewalk references, prefetch outcomes */
	HVPMU_FEAT_BTC = 1u << 6,      /* branch target cache misses and wrong targets */
	HVPMU_FEAT_UTAG = 1u << 7,     /* L1I microtag outcomes */
	HVPMU_FEAT_STBUF = 1u << 8,    /* store-buffer RAW hits, full cycles and tag waits */
	HVPMU_FEAT_BUFFERS = 1u << 9,  /* request-buffer events: full buffers, dropped prefetches */
	HVPMU_FEAT_DRAM = 1u << 10,    /* memory-controller traffic (the DRAM and JBUS counters) */
};
/* The outputs of HVPMU_FEAT_MEMORY (BTC only where the timing charges
 * its bubbles, through CYCLES). */
#define HVPMU_FEAT_MEMORY_OUTPUTS                                                                          \
	(HVPMU_FEAT_CYCLES | HVPMU_FEAT_TLB | HVPMU_FEAT_CACHES | HVPMU_FEAT_UTAG | HVPMU_FEAT_STBUF |        \
	 HVPMU_FEAT_BUFFERS | HVPMU_FEAT_DRAM)
void hvpmu_machine_set_features(struct hvpmu_machine *m, unsigned features);
unsigned hvpmu_machine_features(const struct hvpmu_machine *m);
/* The outputs (HVPMU_FEAT_*) that memory events (bit e = enum
 * hvpmu_mem_event e) are: what a counter of those events reads. */
unsigned hvpmu_machine_mev_features(uint64_t mevs);

/* Parts of the model (docs/memory-model.md "Model parts"). */
enum hvpmu_model_part {
	HVPMU_PART_BPRED = 1u << 0,   /* branch predictor: mispredicts */
	HVPMU_PART_BTC = 1u << 1,     /* branch target cache and the branch timing rules */
	HVPMU_PART_CORE = 1u << 2,    /* every reference: TLBs and TSB walks, caches, coherence,
				         prefetch fills, the kernel path's references */
	HVPMU_PART_UTAG = 1u << 3,    /* L1I microtags */
	HVPMU_PART_SB = 1u << 4,      /* store buffer occupancy: a store finding it full waits */
	HVPMU_PART_SB_RAW = 1u << 5,  /* store buffer addresses: RAW lookups, full cycles */
	HVPMU_PART_BUFFERS = 1u << 6, /* L1D / L2 / L3 request buffers (the finite ones) */
	HVPMU_PART_DRAM = 1u << 7,    /* DRAM models (queues, banks) */
};
/* The parts that run for the requested features: the closure of the
 * table on this machine description. */
unsigned hvpmu_machine_parts(const struct hvpmu_machine *m);
/* The same for a description and a request, without a machine. */
unsigned hvpmu_md_parts(const struct hvpmu_md *md, unsigned features);

/*
 * The guest operating system's side of a strand, as the event source sees
 * it happen (QEMU user mode runs the kernel's work itself): a thread
 * starts on the strand, its program traps into the OS for a system call
 * and the call returns, the thread ends, the whole program ends.  The
 * source reports each after accounting and syncing the strand's activity
 * up to that point; the machine changes the strand's mode as the trap
 * does (a system call runs privileged, its return and a thread start are
 * user mode) and passes the event to the guest OS's handler (the
 * supervisor installs it: a user-mode software trap goes to the guest
 * OS's own trap table, sun4v hypervisor traps are separate, hvpmu/sun4v.h).
 * `num` and `args` are the ISA's Linux system-call number and arguments
 * (hvpmu/isa.h), `ret` the call's result (negative errno on failure).
 */
enum hvpmu_os_event {
	HVPMU_OS_THREAD_START = 0, /* a guest thread starts running on `strand` */
	HVPMU_OS_SYSCALL = 1,      /* system call `num`(args): the strand enters privileged mode first */
	HVPMU_OS_SYSRET = 2,       /* system call `num` returns `ret`: the strand returns to user mode after */
	HVPMU_OS_THREAD_EXIT = 3,  /* the thread on `strand` ended */
	HVPMU_OS_HALT = 4,         /* the program ended; every strand's activity is reported;
				    * `num`: 0 if it exited, else the signal that ended it */
	HVPMU_OS_PROCESS_EXIT = 5, /* process `process` is gone (its image ended: every thread's
				    * records ran); `strand`: one of its guest's, for routing */
	HVPMU_OS_UNCOUNTED = 6,    /* the source runs part of the program uncounted: `num`
				    * more blocks or threads (out of counter slots or memory, a
				    * thread without a strand); the counts are incomplete.  Names
				    * no strand */
};
/* `process` numbers the guest process whose thread it is: 0 in a run of
 * one program in its own emulator; 1, 2, ... for the processes the
 * service hosts (docs/service.md), numbered without end (their MMU
 * contexts are recycled: hvpmu_machine_context_alloc). */
struct hvpmu_os_call {
	enum hvpmu_os_event ev;
	uint32_t strand;
	int64_t num;
	uint64_t args[6];
	int64_t ret;
	uint32_t process;
};
typedef void (*hvpmu_os_fn)(void *ctx, const struct hvpmu_os_call *call);
void hvpmu_machine_set_os_handler(struct hvpmu_machine *m, hvpmu_os_fn fn, void *ctx);
/* Returns 0, HVPMU_ERANGE (strand, for events other than HALT) or
 * HVPMU_EINVAL (unknown event). */
int hvpmu_machine_os_event(struct hvpmu_machine *m, const struct hvpmu_os_call *call);

/*
 * PAPR machines (a description with a CEC): the hypervisor's dispatcher
 * accounts what the strands did since its previous run, up to the
 * machine's time `now` (cycles; a time before the previous run's counts
 * as that): the partitions' virtual processors dispatched onto physical
 * processors, their entitled, capped, uncapped, donated and idle PURR
 * cycles, run-latch instructions (exact: every instruction retired so
 * far) and cycles, and the inter-chip links' idle and total cycles, into
 * the CEC statistics device (hvpmu/cec_stats.h; docs/papr-dispatcher.md).
 * A partition beyond its entitlement (capped) or the pool (uncapped) has
 * its strands held back as idle time; cycles not dispatched yet wait for
 * the next run.  `now` is the time every running strand has reached (a
 * strand held back runs ahead of it): the service passes the end of its
 * time quantum, once per quantum and at a process's end, so that a run
 * is deterministic; the device shows the counts as of the last run.
 * now = UINT64_MAX: the machine is idle (no thread runs): its time runs
 * on to its furthest strand, held ones included, until no work waits.
 * Nothing on other machines.  Single-threaded like the rest of the machine.
 */
void hvpmu_machine_dispatch(struct hvpmu_machine *m, uint64_t now);
/* The same run, for a caller with no time quanta (a program's own
 * machine, hvpmu stat: the dispatcher catches up at system calls): the
 * steps between its calls are no quantum, so they do not make the strands
 * sync more often (a quantum's strands sync at least once a quantum, the
 * shortest step seen; two system calls a few cycles apart made that a
 * sync every few instructions: docs/papr-dispatcher.md). */
void hvpmu_machine_dispatch_catch_up(struct hvpmu_machine *m, uint64_t now);

/* The machine's time: the furthest any strand's %tick has got (cycles). */
uint64_t hvpmu_machine_now(struct hvpmu_machine *m);

/* Modeled %tick of the strand, in cycles (all modes, and the time its
 * thread waited: hvpmu_machine_resume). */
uint64_t hvpmu_machine_tick(struct hvpmu_machine *m, uint32_t strand);

/*
 * The user cycles of one retired instruction without the memory model:
 * insn_cycles per micro-op (a block load or store decodes into
 * block_uops, TABLE 10-2 footnote 12) and taken_cti_cycles more for an
 * always-taken CTI (struct hvpmu_md_timing).  What the machine charges
 * per instruction class (hvpmu_machine_class), for a source that bounds
 * the time of the blocks it runs (hvpmu_machine_budget).
 */
struct hvpmu_cycle_rule {
	uint32_t insn_cycles;
	uint32_t block_uops;
	uint32_t taken_cti_cycles;
};

/* Cycles of an instruction with decode flags `flags` (hvpmu/insn.h). */
static inline uint64_t hvpmu_insn_cycles(const struct hvpmu_cycle_rule *r, uint32_t flags)
{
	return (uint64_t)r->insn_cycles * ((flags & HVPMU_IC_BLOCK) ? r->block_uops : 1u) +
	       ((flags & HVPMU_IC_CTI_ALWAYS) ? r->taken_cti_cycles : 0u);
}

/* The machine's rule (its description's timing). */
void hvpmu_machine_cycle_rule(const struct hvpmu_machine *m, struct hvpmu_cycle_rule *out);

/*
 * For a source that counts a strand's blocks itself between syncs (the
 * service's block counts, docs/service.md "Block counts"): how far the
 * strand may run before anything can come due, in two budgets, from its
 * last sync and its activity now.
 *   *insn_check  in act->bound units, like act->next_check but for what
 *                instruction counts decide exactly (a PIC counting
 *                instructions could wrap): a sync is due at the entry of
 *                a block that takes act->bound to it or past;
 *   *cycles      user cycles the strand may still complete, each
 *                instruction counted by hvpmu_insn_cycles(), before the
 *                tick compare could match or a PIC counting cycles could
 *                wrap: a sync is due at the first block entry after
 *                which its completed instructions' cycles could reach it.
 * The source syncs (hvpmu_machine_sync) at the first block entry past
 * either budget with every instruction before it in act->icount; the
 * syncs act->next_check asks for before that may be left out, or made
 * with part of the instructions not yet in act->icount: nothing comes due
 * there (a PIC's value is its sum, the tick compare matches only at a
 * sync where %tick has reached it).  Valid while the strand runs in user
 * mode without a sync made with all of its instructions; single-threaded
 * like the rest of the machine.
 * Returns HVPMU_OK, HVPMU_ERANGE (no such strand), or HVPMU_EINVAL when
 * a strand's cycles are not a function of its instruction classes (the
 * memory or branch model runs, a PAPR dispatcher holds the strands).
 */
int hvpmu_machine_budget(struct hvpmu_machine *m, uint32_t strand, uint64_t *insn_check, uint64_t *cycles);

/*
 * The strand's thread resumes after waiting in the OS for the others (the
 * guest OS says when: a new thread's first dispatch, the return of a
 * system call that may wait for another thread, docs/kernel-model.md
 * "Waiting").  A strand's time is the cycles it ran, so one whose thread
 * was blocked is behind the others; it catches up with the machine's
 * current time (the furthest strand's, %tick plus cycles not yet synced)
 * as idle time: %tick moves, no mode's cycles do (no PMU counts it), the
 * store buffer drains meanwhile, and a tick compare that falls in the gap
 * fires at the strand's next sync (the next block it runs).  Nothing if the strand is not behind
 * (a single thread never is).  Single-threaded like the rest of the
 * machine.
 */
void hvpmu_machine_resume(struct hvpmu_machine *m, uint32_t strand);

/*
 * Arm the strand's tick compare: when %tick reaches `deadline` cycles a
 * HVPMU_TT_TIMER trap is raised once (at the next block boundary).
 * deadline 0 disarms.
 */
int hvpmu_machine_set_tick_compare(struct hvpmu_machine *m, uint32_t strand, uint64_t deadline);

/*
 * Declare [va, va + len) of the guest's user address space as mapped with
 * large pages of `bytes` (64 KB, 4 MB, 256 MB or 2 GB; docs/tlb-model.md).
 * Returns 0, HVPMU_EINVAL (size, alignment, overlap).
 */
int hvpmu_machine_map_large(struct hvpmu_machine *m, uint64_t va, uint64_t len, uint64_t bytes);

/*
 * Address spaces.  Each guest process has its own MMU context (sun4v: the
 * 13-bit context number of the TTE tag, 1..HVPMU_CTX_MAX; 0 is the
 * nucleus, the kernel path's): its pages get frames, TLB entries and TSB
 * entries of their own.  A machine starts with every strand in context
 * HVPMU_CTX_USER, the one process of an in-process run.
 */
#define HVPMU_CTX_USER 1
#define HVPMU_CTX_MAX 8191
/* The process whose thread runs on `strand` from now on has context ctx
 * (the guest OS switches it at dispatch).  Returns 0, HVPMU_ERANGE
 * (strand) or HVPMU_EINVAL (ctx 0 or above HVPMU_CTX_MAX). */
int hvpmu_machine_set_user_context(struct hvpmu_machine *m, uint32_t strand, uint32_t ctx);
/*
 * The guest OS's MMU contexts for the processes it runs (a service runs
 * any number of processes over time, at most HVPMU_CTX_MAX at once:
 * docs/service.md "Address spaces").  hvpmu_machine_context_alloc: the
 * lowest free context (1..HVPMU_CTX_MAX) into *ctx, now in use; 0 or
 * HVPMU_EFULL.  hvpmu_machine_context_free: its process is gone: every
 * strand's TLBs forget the context (tlb demap), its frames and TSBs go
 * back to the modeled physical memory for the pages of later processes
 * (last freed, first reused), its page layout is forgotten, and it is
 * free again; 0, HVPMU_EINVAL (not in use), HVPMU_ENOMEM (some of its
 * memory is not reused).  A run of one program never calls them (it
 * runs in context HVPMU_CTX_USER).  Single-threaded like the machine.
 */
int hvpmu_machine_context_alloc(struct hvpmu_machine *m, uint32_t *ctx);
int hvpmu_machine_context_free(struct hvpmu_machine *m, uint32_t ctx);
/* Bytes of modeled physical memory given back and not yet reused. */
uint64_t hvpmu_machine_phys_free(const struct hvpmu_machine *m);
/* hvpmu_machine_map_large in context ctx (hvpmu_machine_map_large: in
 * HVPMU_CTX_USER). */
int hvpmu_machine_map_large_ctx(struct hvpmu_machine *m, uint32_t ctx, uint64_t va, uint64_t len, uint64_t bytes);

/*
 * The register bus (src/model/regbus.c).
 *
 * Register-access instructions of code running on `strand`, in the
 * strand's current mode, reach the strand's PMU device (hvpmu/pmu.h), which
 * applies its own privilege checks.  The register spaces: */
enum hvpmu_reg_space {
	HVPMU_REG_ASI = 0, /* SPARC V9 LDXA / STXA: sel = the ASI, addr = the VA */
	HVPMU_REG_ASR = 1, /* SPARC V9 RDASR / WRASR: sel = the ASR number, addr = 0 */
	HVPMU_REG_CP0 = 2, /* MIPS MFC0 / MTC0: sel = the CP0 register number, addr = the
	                      instruction's function bits 5:0 (R10000 register 25: MFPC/MTPC/
	                      MFPS/MTPS, hvpmu/r10k_pmu.h) */
	HVPMU_REG_SPR = 3, /* POWER mfspr / mtspr: sel = the SPR number, addr = 0 (POWER7's
	                      MMCR0/1/A and PMC1-6, hvpmu/power7_pmu.h) */
};
/* The strand is synced first, so a read sees every event so far and a
 * write applies from now on.  Returns 0, HVPMU_ETRAP (the device's
 * privilege check: privileged_action / privileged_opcode), or
 * HVPMU_ERANGE (strand, or not a register of the strand's PMU). */
int hvpmu_machine_reg_read(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_reg_space sp, unsigned sel,
			   uint64_t addr, uint64_t *val);
int hvpmu_machine_reg_write(struct hvpmu_machine *m, uint32_t strand, enum hvpmu_reg_space sp, unsigned sel,
			    uint64_t addr, uint64_t val);
/*
 * The same in SPARC's spelling:
 *   LDXA / STXA, T4: ASI 0x64 (HVPMU_T4_ASI_PCR), VA 0x00/0x08/0x10/0x18:
 *            PCR0-3, TABLE 10-1, hyperprivileged only (other modes get
 *            HVPMU_ETRAP); ASI 0xB0 (HVPMU_T4_ASI_PIC), same VAs: PIC0-3,
 *            TABLE 10-3, with the picnht/picnpt checks (HVPMU_ETRAP =
 *            privileged_action);
 *   RDASR / WRASR, T1: %pcr (ASR 0x10) and %pic (ASR 0x11),
 *            niagara-perf-api.txt §2.1 (hvpmu/t1_pmu.h for the checks).
 * MIPS code uses hvpmu_machine_reg_read/_write with HVPMU_REG_CP0 (the
 * R10000's PerfControl/PerfCount, hvpmu/r10k_pmu.h).
 */
int hvpmu_machine_ldxa(struct hvpmu_machine *m, uint32_t strand, unsigned asi, uint64_t va, uint64_t *val);
int hvpmu_machine_stxa(struct hvpmu_machine *m, uint32_t strand, unsigned asi, uint64_t va, uint64_t val);
int hvpmu_machine_rdasr(struct hvpmu_machine *m, uint32_t strand, unsigned asr, uint64_t *val);
int hvpmu_machine_wrasr(struct hvpmu_machine *m, uint32_t strand, unsigned asr, uint64_t val);

/* The PMU device of `strand` and the interface it implements
 * (hvpmu/pmu.h), for tests and debuggers that look at its state; NULL if
 * strand is out of range.  Code that models software uses the register
 * access above. */
struct hvpmu_pmu_ops;
void *hvpmu_machine_pmu(struct hvpmu_machine *m, uint32_t strand);
const struct hvpmu_pmu_ops *hvpmu_machine_pmu_ops(const struct hvpmu_machine *m);

/*
 * Chip-wide ("uncore") counter devices, numbered 0 .. ndevices-1 on the
 * bus: T4, the memory controllers' DRAM counters (§10.5; HVPMU_T4_MCUS_PER_CHIP
 * per chip, MCU i on chip i / HVPMU_T4_MCUS_PER_CHIP, registers enum
 * hvpmu_t4_mcu_reg); T1, one device with the JBUS and DRAM PerfRegs 0..9
 * (niagara-perf-api.txt, hvpmu/t1_perfregs.h).  Every strand reaches the
 * same devices.  A bus access first brings the device up to date with the
 * DRAM channels' and the JBUS's activity up to the chip's current cycle.
 */
enum hvpmu_device_kind {
	HVPMU_DEV_T4_MCU = 0,      /* a T4 memory controller's DRAM counters */
	HVPMU_DEV_T1_PERFREGS = 1, /* the T1 JBUS and DRAM PerfRegs */
	HVPMU_DEV_ORIGIN_MD = 2,   /* an SGI Origin Hub's MD performance counters (one per node) */
	HVPMU_DEV_CEC_STATS = 3,   /* a PAPR CEC's statistics (hvpmu/cec_stats.h; one per machine) */
	HVPMU_NDEVICE_KINDS
};
struct hvpmu_device_info {
	enum hvpmu_device_kind kind;
	const char *name;  /* the device's kind as text: "t4-mcu", "t1-perfregs" */
	unsigned unit;     /* index among the machine's devices of its kind (the MCU number) */
	unsigned chip;     /* the chip it belongs to */
	unsigned nregs;    /* registers 0 .. nregs-1 */
};
unsigned hvpmu_machine_ndevices(const struct hvpmu_machine *m);
/* Returns 0 or HVPMU_ERANGE. */
int hvpmu_machine_device(const struct hvpmu_machine *m, unsigned dev, struct hvpmu_device_info *out);
/* The bus number of the `unit`-th device of `kind`, or HVPMU_ERANGE. */
int hvpmu_machine_device_find(const struct hvpmu_machine *m, enum hvpmu_device_kind kind, unsigned unit);
/* Devices of kind HVPMU_DEV_T4_MCU (0 on T1). */
uint32_t hvpmu_machine_nmcu(const struct hvpmu_machine *m);
/* Register `reg` of device `dev`, as the hardware holds it.  Returns 0 or
 * HVPMU_ERANGE (dev, reg). */
int hvpmu_machine_bus_read(struct hvpmu_machine *m, unsigned dev, unsigned reg, uint64_t *val);
int hvpmu_machine_bus_write(struct hvpmu_machine *m, unsigned dev, unsigned reg, uint64_t val);
/* The device object of `dev` (struct hvpmu_t4_mcu *, struct
 * hvpmu_t1_perfregs *), brought up to date as by a bus access, for tests
 * and debuggers that look at its state; NULL if dev is out of range. */
void *hvpmu_machine_device_state(struct hvpmu_machine *m, unsigned dev);

/*
 * An I/O transfer of the guest on T1 (docs/t1-platform.md): `bytes` moved
 * by DMA over the JBUS, device-to-memory (the guest's read()) or the
 * reverse (write()), plus the driver's PIO write (start) and PIO read
 * (status).  No-op on machines without a JBUS.
 */
void hvpmu_machine_io(struct hvpmu_machine *m, uint32_t strand, int device_to_memory, uint64_t bytes);

/*
 * The same transfer with the guest buffer's virtual address `vaddr` (in
 * the context of the process the strand runs): as hvpmu_machine_io(), and
 * on a machine with a directory whose description sets io_dma (the SGI
 * Origin, docs/origin-directory.md "I/O"), a DMA request of node 0's I/O
 * interface per 128-byte line of [vaddr, vaddr + bytes) at the line's home
 * Hub, which invalidates the CPUs' copies it must.  Only while the memory
 * model runs; vaddr 0: as hvpmu_machine_io().  Not thread-safe (the
 * machine's lock).
 */
void hvpmu_machine_io_at(struct hvpmu_machine *m, uint32_t strand, int device_to_memory, uint64_t vaddr,
			 uint64_t bytes);

/* Retired user-mode instructions of the strand, summed over classes (exact
 * as of the last sync); the kernel path's privileged instructions are not
 * included. */
uint64_t hvpmu_machine_retired(struct hvpmu_machine *m, uint32_t strand);

/* Retired instructions of the strand whose class flags (enum
 * hvpmu_ic_flags) have a bit of `mask` (HVPMU_IC_LOAD: its loads), exact
 * as of the last sync; these include the kernel path's privileged
 * instructions when the description has one (md.kernel.syscall_insns). */
uint64_t hvpmu_machine_retired_class(struct hvpmu_machine *m, uint32_t strand, uint32_t mask);
/* Taken conditional branches of the strand as of the last sync (counted
 * only when the features ask for them: HVPMU_FEAT_TAKEN or _BRANCHES). */
uint64_t hvpmu_machine_taken_cond(struct hvpmu_machine *m, uint32_t strand);

#ifdef __cplusplus
}
#endif
#endif
