/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal state of the machine model (layer 2), shared by its three parts:
 *   machine.c  strands, classes, syncs, overflow scheduling, privilege
 *              modes, %tick and traps, branch outcomes (hvpmu/machine.h);
 *   memhier.c  the memory hierarchy: TLBs, caches, coherence, request and
 *              store buffers, prefetch, DRAM traffic (docs/memory-model.md);
 *   regbus.c   the register bus: the per-strand PMU devices behind one
 *              interface, their register access in the strand's mode, and
 *              the chip-wide (uncore) counter devices.
 * Not installed; hidden from the shared library.
 */
#ifndef HVPMU_MODEL_MACHINE_INTERNAL_H
#define HVPMU_MODEL_MACHINE_INTERNAL_H

#include <hvpmu/hvpmu.h>
#include "bpred.h"
#include "cache.h"
#include "origin_dir.h"
#include "coherence.h"
#include "dram.h"
#include "l2buf.h"
#include "pipeline.h"
#include "prefetch.h"
#include "stbuf.h"
#include "tlb.h"

#define MACHINE_HIDDEN __attribute__((visibility("hidden")))

/* TABLE 10-2 footnote 12: block loads and stores decode into 8 micro-ops. */
#define BLOCK_UOPS 8
/* fetch line + two data lines (an access crossing a line boundary) */
#define MAX_MISSES_PER_INSN 3

/* fetch memo entries per strand (a power of two) */
#define FETCH_MEMO_N 128
#define FETCH_MEMO_IDX(va) (((va) >> 2) & (FETCH_MEMO_N - 1))

struct strand {
	struct hvpmu_activity act;        /* written by the event source */
	/* hot: what the fast paths of hvpmu_machine_dref / _ifetch and the
	 * store buffer's clock read, together after act's mem_refs and bound */
	struct core *core;                /* the strand's core and chip L3 */
	struct tlb *itlb, *dtlb;          /* docs/tlb-model.md */
	uint32_t ctx;                     /* MMU context of the running code: user_ctx; 0 in the kernel path */
	uint32_t user_ctx;                /* the context of the process whose thread runs here (USER_CTX
					     unless the guest OS says: hvpmu_machine_set_user_context) */
	enum hvpmu_mode mode;
	uint64_t mev_watch;               /* memory events a counter counts: they move act.mem_refs (mev_add) */
	uint64_t cycles[HVPMU_NMODES];    /* modeled cycles per mode */
	uint64_t idle;                    /* cycles its thread waited in the OS (hvpmu_machine_resume): time, in no mode */
	uint64_t pending[HVPMU_NMODES];   /* cycles not yet fed to the PMU */
	uint64_t sb_icycles;              /* user instruction cycles folded into pending at syncs */
	uint64_t sb_other;                /* sb_other_cycles(), kept up to date where its terms move */
	uint64_t sb_blk_vaddr, sb_blk_bytes, sb_blk_pos; /* block being run (ifetch): start, bytes, act.bound before it */
	/* the 8 KB page of the last fetch that hit the ITLB's MRU slot, its PA
	 * and the ITLB clock then (hvpmu_machine_ifetch), in the context the
	 * strand runs in (a change of context forgets it: machine_set_ctx) */
	uint64_t ipage_vpn, ipage_pa, ipage_clock;
	/* store buffer (src/model/stbuf.h; its filter first) and its clock, sb_clock() */
	struct stbuf sb;
	uint64_t synced[HVPMU_MAX_ICLASS];/* act.icount at the last sync */
	uint64_t synced_taken;
	uint64_t synced_mispred[HVPMU_NMISPRED];
	uint64_t synced_mev[HVPMU_NMEV];
	uint64_t dir_pending[HVPMU_NDIREV]; /* directory events not yet fed (Origin: origin_request) */
	uint64_t mem_pc;                  /* PC of the access that triggered a sync, 0 if none */
	struct bpred bp;
	struct pipe_strand pipe;          /* BTC (src/model/pipeline.c) */
	uint64_t pipe_pending[HVPMU_NPIPE]; /* user stall cycles by cause, part of pending[USER] */
	uint64_t dram_wait;               /* DRAM queueing wait of the last memory read (pipeline.h) */
	uint64_t tick_cmpr;               /* 0 = disarmed */
	uint64_t next_len;                /* length of the block about to run (outer sync) */
	/* hvpmu_machine_budget(): what machine_schedule() found at the last
	 * sync, before it took the worst case per instruction for the time */
	uint64_t insn_check;              /* act.bound at which a PIC counting instructions could wrap */
	unsigned depth;                   /* sync nesting (traps call back in) */
	struct cache *l3;                 /* the strand's chip L3 */
	struct tlb_stats ts;
	struct walk_ctx { struct hvpmu_machine *m; uint32_t strand; } wctx;
	void *pmu;                        /* the strand's PMU device (machine.ops) */
	uint32_t late_precise;            /* precise overflows in the kernel path, delivered on return */
	uint64_t kretired;                /* privileged instructions retired (kernel path, machine_retire) */
	struct pf_stats pf;               /* prefetch statistics (docs/prefetch-model.md) */
	/* request buffers (src/model/l2buf.h): the access being modeled, the
	 * buffer waits of its last L2 miss, whether the strand has run */
	uint64_t l2b_pc, l2b_wait;
	int l2b_ran;
	/* fetch memo (hvpmu_machine_ifetch): blocks of one 8 KB page whose
	 * every line was a fast-path hit, with the core's L1I version then */
	struct fetch_memo {
		uint64_t vaddr;   /* block start (0 with bytes 0: empty) */
		uint64_t version; /* core's l1i.version after the block */
		uint64_t page_pa; /* physical 8 KB page of the block */
		uint64_t last_key; /* L1I key (line + 1) of the block's last line */
		uint32_t bytes;
	} fmemo[FETCH_MEMO_N];
};

struct core {
	struct cache l1d;                 /* l1d and dup_track: the load fast path */
	int dup_track;                    /* several running strands and an L1D miss buffer (T4): track fills */
	struct cache l1i, l2;
	uint32_t idx, chip;               /* coherence (docs/coherence-model.md) */
	uint32_t last_strand;             /* strand that filled last: snoop events count there */
	int active;                       /* has filled its caches (coh_activate) */
	struct pipe_utag utag;            /* L1I microtags (src/model/pipeline.c) */
	int utag_on;                      /* they run (HVPMU_PART_UTAG) */
	/* request buffers (src/model/l2buf.h, docs/memory-model.md "L2 buffers") */
	struct l2buf_pool l1mb, l2mb, l2fb, l2wb;
	uint32_t nrunning;                /* strands of the core that have run (sl=18 0x04) */
	int l2bufs;                       /* some L2 / L3 buffer is finite and runs: L2 misses go through l2b_miss() */
	int l1bufs;                       /* the L1D miss buffer is finite and runs */
	struct l2buf_fills fills;         /* pending L1D fills (duplicate misses, dup_miss()) */
};

/* A chip-wide counter device on the register bus (regbus.c). */
struct machine_device {
	const struct hvpmu_uncore_ops *ops;
	void *dev;
	unsigned unit;  /* index among the devices of its kind */
	unsigned chip;
};

struct hvpmu_machine {
	struct hvpmu_md md;
	const struct hvpmu_pmu_ops *ops;  /* the platform's per-strand PMU (regbus.c) */
	uint32_t ref_strands;             /* nstrands while HVPMU_PART_CORE runs (references are modeled), else 0:
					     a reference's one check (strand < ref_strands) */
	unsigned parts;                   /* enum hvpmu_model_part: what runs (parts.c) */
	unsigned requested;               /* enum hvpmu_feature: what the counters read */
	uint32_t ncores;
	struct core *cores;
	struct cache *l3;                 /* one per chip */
	struct l2buf_pool *l3mb;          /* L3 miss buffer, one per chip (src/model/l2buf.h) */
	uint64_t l2b_cap;                 /* cap on one access's buffer waits */
	uint64_t served_latency[8];       /* memhier.c latency(), by its enum served */
	struct coh coh;                   /* multi-core / multi-chip coherence */
	struct tlb_mmu *mmu;              /* the guest's address space (docs/tlb-model.md) */
	struct dram *dram;                /* one DRAM model per MCU (docs/dram-model.md) */
	/* the channel of a line on a chip, and its port (the platform record's rule, platform.h) */
	uint32_t (*dram_channel)(uint64_t addr, uint32_t chip, unsigned *port);
	uint64_t chip_now;                /* latest cycle a strand reached: the DRAM models' clock */
	uint32_t nstrands;
	unsigned nclass;
	uint32_t class_flags[HVPMU_MAX_ICLASS];
	uint64_t class_cycles[HVPMU_MAX_ICLASS];
	uint64_t max_insn_cycles;         /* worst cycles one instruction can cost (memory model on) */
	uint64_t max_insn_cycles_nomem;   /* ... with the memory model off */
	hvpmu_trap_fn trap_fn;
	void *trap_ctx;
	hvpmu_os_fn os_fn;                /* the guest OS (hvpmu_machine_os_event) */
	void *os_ctx;
	hvpmu_tsb_hit_fn tsb_fn;
	void *tsb_ctx;
	struct strand *s;
	struct machine_device *dev;       /* chip-wide counter devices (regbus.c) */
	unsigned ndev;
	uint32_t nmcu;                    /* devices of kind HVPMU_DEV_T4_MCU: HVPMU_T4_MCUS_PER_CHIP per chip (T4) */
	struct machine_device *jbus_dev;  /* T1: the DRAM + JBUS PerfRegs, NULL elsewhere */
	uint32_t ndram;                   /* DRAM models: one per T4 MCU, one per T1 channel */
	struct hvpmu_t1_jbus_activity jbus; /* T1: JBUS activity not yet counted */
	uint64_t jbus_now;                /* chip cycle up to which JBUS cycles were counted */
	int kernel_mapped;                /* context 0 regions of md.kernel declared (kernel.c) */
	/* SGI Origin (NULL elsewhere): per node, what its Hub's MD unit did
	 * and has not been counted yet (the directory model adds events and
	 * set-0 busy cycles; idle cycles are the rest of the elapsed Hub
	 * cycles, regbus.c) and the Hub cycles counted so far; the directory
	 * (origin_dir.c) */
	struct hvpmu_origin_md_activity *hub_act;
	uint64_t *hub_cycles;
	struct origin_dir od;
	/* the Hub's fetch-and-op region of the program's addresses (md.h
	 * fetchop_va, fetchop_bytes; 0 bytes: none, always off the Origin) */
	uint64_t fop_va, fop_bytes;
	/* PAPR (NULL elsewhere): the hypervisor's dispatcher (dispatch.c) and
	 * its count of lines moved between chips, [from chip][to chip]
	 * (coherent_miss(); NULL on one chip) */
	struct dispatch *disp;
	uint64_t *xfer;
	/* PAPR: the strands sync by this machine time (cycles), the end of
	 * the dispatcher's next quantum, and every sync_period cycles after it
	 * (0: no such deadline), so that their %tick, by which the service's
	 * quanta stop them, is never more than a quantum stale (machine_schedule) */
	uint64_t sync_at, sync_period;
	/* MMU contexts in use (hvpmu_machine_context_alloc), by number */
	uint8_t ctx_used[HVPMU_CTX_MAX + 1];
};

/* UltraSPARC T1 memory system (docs/t1-platform.md): 4 DRAM channels, one
 * per L2 bank, banks interleaved on 64-byte lines (PA[7:6]); a 128-bit
 * J-Bus at 2.56 GB/s = 160 MHz, i.e. 2 JBus cycles per 15 CPU cycles at
 * 1.2 GHz; I/O modeled from the guest's read/write system calls. */
#define T1_DRAM_CHANNELS 4
#define T1_CHANNEL_SHIFT 6
#define JBUS_PER_CPU_NUM 2
#define JBUS_PER_CPU_DEN 15
#define JBUS_DMA_BYTES 64          /* one DMA transaction per 64-byte line */
#define JBUS_DMA_READ_LATENCY 16   /* JBus cycles: ~memory latency (120 CPU cycles) */
#define JBUS_PIO_READ_LATENCY 40   /* JBus cycles: a device status read */

/* Context number of the guest's user process (the kernel is ctx 0). */
#define USER_CTX HVPMU_CTX_USER

/* regbus.c */
/* The per-strand PMU of platform p (NULL if none). */
MACHINE_HIDDEN const struct hvpmu_pmu_ops *machine_pmu_ops_of(enum hvpmu_platform p);
/* Create / destroy the platform's chip-wide devices (m->dev, m->ndev,
 * m->nmcu, m->jbus_dev).  Returns 0 or HVPMU_ENOMEM (destroy cleans up). */
MACHINE_HIDDEN int machine_devices_create(struct hvpmu_machine *m);
MACHINE_HIDDEN void machine_devices_destroy(struct hvpmu_machine *m);
/* SGI Origin: the directory's per-CPU events (origin_dir.h od_cpu_event_fn; memhier.c) */
MACHINE_HIDDEN void machine_dir_event(void *ctx, uint32_t cpu, enum hvpmu_dir_event e);

/* %tick of a strand: its cycles in every mode. */
static inline uint64_t tick_of(const struct strand *s)
{
	return s->cycles[HVPMU_MODE_USER] + s->cycles[HVPMU_MODE_PRIV] + s->cycles[HVPMU_MODE_HYPER] + s->idle;
}

/* A strand's modeled time: %tick and the cycles not yet synced. */
static inline uint64_t time_of(const struct strand *s)
{
	return tick_of(s) + s->pending[HVPMU_MODE_USER] + s->pending[HVPMU_MODE_PRIV] + s->pending[HVPMU_MODE_HYPER];
}

/* Charge `cyc` user cycles to cause `c`: every user stall goes through
 * here, so the causes partition the user cycles. */
static inline void charge(struct strand *s, enum hvpmu_pipe_cause c, uint64_t cyc)
{
	s->sb_other += cyc;
	if (s->mode != HVPMU_MODE_USER) { /* the kernel path: privileged cycles are issue cycles */
		s->pending[s->mode] += cyc;
		return;
	}
	s->pending[HVPMU_MODE_USER] += cyc;
	s->pipe_pending[c] += cyc;
}

/* `n` occurrences of memory event `e`: act.mem_refs moves by as many if a
 * counter counts the event (the strand's mev_watch, set at each
 * machine_schedule()), so that the syncs mem_check() makes depend only on
 * what is counted, never on which other parts run (parts.c). */
static inline void mev_add(struct strand *s, unsigned e, uint64_t n)
{
	s->act.mev[e] += n;
	s->act.mem_refs += n & (UINT64_C(0) - ((s->mev_watch >> e) & 1));
}

/* machine.c */
/* Fold the strand's activity into its PMU, raise traps, reschedule;
 * mid_block: called during a block (a memory access). */
MACHINE_HIDDEN int machine_sync_strand(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_block *last,
				       const struct hvpmu_block *next, int mid_block);
/* Next point at which a PIC could wrap or the tick compare could match. */
MACHINE_HIDDEN void machine_schedule(struct hvpmu_machine *m, struct strand *s);
/* The strand waits `cycles` (the hypervisor does not dispatch it): idle
 * time, as hvpmu_machine_resume()'s. */
MACHINE_HIDDEN void machine_hold(struct hvpmu_machine *m, struct strand *s, uint64_t cycles);

/* memhier.c */
/* The store buffer's full cycles up to now, at a sync. */
MACHINE_HIDDEN void machine_sb_sync(const struct hvpmu_machine *m, struct strand *s);
/* An access's events are in (mev_add): sync when a memory-event PIC could
 * have wrapped, so that a precise trap's PC is `pc`. */
MACHINE_HIDDEN void machine_mem_check(struct hvpmu_machine *m, uint32_t strand, uint64_t pc);
/* Apply m->parts to the derived flags (request buffers, the strands'
 * duplicate-miss tracking). */
MACHINE_HIDDEN void machine_apply_parts(struct hvpmu_machine *m);
/* The strand's current cycle, advancing the chip clock the DRAM models run on. */
MACHINE_HIDDEN uint64_t machine_strand_now(struct hvpmu_machine *m, uint32_t strand);

#endif
