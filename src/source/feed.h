/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * feed: how layer 1 feeds the machine model (hvpmu/machine.h) with a
 * program's execution -- the part of the QEMU event source that is not
 * QEMU's (docs/event-source.md).  Translated blocks are decoded once into
 * a struct tb_info (classes, the histogram, the block's CTI, its memory
 * and prefetch instructions); per executed block, per data access and per
 * software prefetch, a vCPU's state (struct vcpu) is brought forward and
 * the machine told: retired instructions by class, branch outcomes,
 * instruction fetches, data references, prefetches, syncs, and the guest
 * OS's events (system calls, thread start and exit).
 *
 * Two clients: the QEMU plugin (src/source/plugin.c), whose callbacks
 * call these functions directly or record into per-vCPU batches, and the
 * service's remote source (src/source/remote.c), which runs the records
 * a guest process streams to it.  Each run is one object, struct feed
 * (feed_new): the machine, the vCPUs, the blocks and the modes; every
 * function here takes it, and every block (tb_info.feed), memory
 * instruction (mem_insn.feed) and prefetch (pf_insn.feed) the plugin hands
 * QEMU as a callback's data points back to it.  Records of all kinds --
 * the plugin's batches and model-thread ring (struct evrec) and the
 * service's rings (remote_shm.h) -- are decoded into one event (struct
 * feed_ev) and run by one interpreter, feed_run_ev().
 *
 * Thread-safety: with several vCPUs (f->mt) every function that touches
 * the machine runs under f->lock (lock()); the fast paths (entry_fast, the
 * batch runner) are called with it held or with one vCPU only.
 */
#ifndef HVPMU_SOURCE_FEED_H
#define HVPMU_SOURCE_FEED_H

#include <pthread.h>
#include "turns.h"
#include "gtime.h"
#include <stddef.h>
#include <stdint.h>
#include <hvpmu/hvpmu.h>
#include "evring.h"

/* The longest block QEMU translates (TCG_MAX_INSNS). */
#define FEED_MAX_INSNS 512

struct class_count {
	uint8_t cls;
	uint16_t n;
};

/* A translated block.  The fields the instruction-only fast path
 * (plugin.c tb_exec_insn) reads of the block entered and of the one
 * before it come first, in the first 64 bytes (the block is allocated
 * 64-byte aligned). */
/*
 * Counter slots: uint64_t counters that QEMU's generated code adds to
 * (inline operations of plugin API v4 target scoreboards, one row per
 * vCPU; src/source/qemu_glue.c makes them).  rows[c] is vCPU 0's row of
 * chunk c (struct feed slot_row, or the attached source's own table); the
 * rows move only when QEMU grows its scoreboards (qg_slots_refresh()).
 */
#define FEED_SLOT_CHUNK 4096u
#define FEED_SLOT_MAXCHUNKS 1024u
static inline uint64_t *feed_slot_in(uint64_t *const *rows, uint32_t s)
{
	return &rows[s / FEED_SLOT_CHUNK][s % FEED_SLOT_CHUNK];
}

struct feed;

struct tb_info {
	struct hvpmu_block blk;
	uint64_t *execs;       /* vCPU 0's count of its counter slot (feed_slot()): times the
				  last instruction started, an inline add; vCPU i's is
				  execs[i * FEED_SLOT_CHUNK] (feed_execs_v); feed_slots_moved()
				  updates it; NULL for the service's blocks (records say) */
	uint64_t last_pc;      /* address of the last instruction */
	struct feed *feed;     /* the run it belongs to (its callbacks' way back to it) */
	uint8_t dirty;
	uint8_t slow_next;     /* the next block entry takes the slow path: the block is one of
				  several threads (mt) or its last instruction may be annulled
				  (slot_annul) */
	uint8_t pends;         /* its CTI's outcome is needed (set_pending()) */
	uint8_t cti_annul;     /* it is a conditional branch with a = 1: taken iff its delay slot runs */
	uint32_t bytes;        /* the block's instruction bytes: blk.n words */
	uint64_t taken_at;     /* the next block's address that means its pending conditional CTI was
				  taken: cti_target, or for an annulling branch its delay slot cti_ds */
	uint64_t wait_at;      /* the next block's address that leaves it pending: its delay slot
				  run as a block of its own, cti_ds, or 1 (none) for an annulling
				  branch (resolve_pending()) */
	struct tb_info *next_dirty;     /* single-threaded mode: blocks with unexpanded executions
					   (written once per block and sync: not in the first line) */
	uint64_t cti_target;   /* static target of the block's last CTI (PC-relative ones) */
	uint64_t cti_pc;       /* address of that CTI */
	uint64_t cti_ds;       /* the address after it: its delay slot on ISAs that have one;
				  UINT64_MAX (no block starts there) on ISAs without (ppc64) */
	uint64_t cti_fall;     /* where execution goes on when it is not taken: after its delay slot */
	uint32_t cti_flags;    /* its decode flags */
	uint8_t slot_annul;    /* the last instruction is the in-block delay slot of an annulling
				  branch (isa->annul_in_block): it did not run when execution goes
				  on past it instead of at the branch's target */
	uint8_t reg_cond;      /* its conditional CTI's outcome is read from the registers it
				  tests (the target is where it falls through: the next block's
				  address cannot tell; hvpmu_isa.cond_taken) */
	uint8_t cti_self;      /* the last instruction is a CTI whose target is itself (a one-
				  instruction loop, ISAs without delay slots): a block starting
				  there is the branch taken, not a restart */
	uint8_t pend_kind;     /* enum feed_pend_kind: how the full model's fast entry decides
				  its CTI when pending (set at translation by the plugin) */
	struct tb_info *next_alloc;
	uint64_t oexecs;       /* model thread: executions seen to reach the last instruction */
	uint32_t slot;         /* its counter slot (feed_slot()), behind execs */
	uint64_t synced_execs; /* execs (oexecs on the model thread) already expanded into class counts */
	uint32_t *flags;       /* decode flags per instruction, until the classes are known (feed_finish_tb) */
	int mt;                /* translated for several threads: each whole execution counted
				  at the next entry (add_whole), its reaching the end told by its
				  counter's row (plugin) or by the record (batches, service) */
	const struct class_count *hist; /* distinct classes of the block and their counts */
	uint32_t nhist;
	uint32_t qcycles;      /* totals only: its instructions' cycles by the machine's cycle rule */
	uint8_t last_cls;
	uint8_t cls[];         /* then the histogram */
};

/* "Totals only" (docs/event-source.md): how a block translated in that
 * mode is instrumented. */
enum feed_qkind {
	FEED_Q_NONE = 0,
	FEED_Q_QUIET, /* inline adds only: f->qcyc at entry, execs at its last instruction */
	FEED_Q_CHECK, /* the same and a callback that syncs when f->qcyc reaches f->qlimit */
	FEED_Q_FULL,  /* the exact per-block callback (it may be restarted inside) */
};
/* Totals only: the execution counters of quiet and check blocks (their
 * inline add at the last instruction goes here, not to tb_info.execs),
 * side by side so that a sync can compare them all quickly. */
#define FEED_QCHUNK 4096
struct feed_qchunk {
	uint32_t slot[FEED_QCHUNK]; /* counter slots (feed_slot()); each vCPU's count already
				       expanded is its vcpu.qsynced[] at the same index */
	struct tb_info *ti[FEED_QCHUNK];
	uint32_t nslots;            /* slot[0..nslots) are made */
};
/* Totals only: a machine whose counters could wrap within this many
 * instructions is run with the exact per-block accounting again. */
#define FEED_QUIET_MIN_INSNS (UINT64_C(1) << 26)
/* ... and the cycles of all quiet blocks together stay below this bound
 * (and an eighth of the OS tick period): the most a run of them can last
 * between two checks. */
#define FEED_QUIET_MAX_SUM (UINT64_C(1) << 22)
#define TB_INFO_ALIGN 64
_Static_assert(offsetof(struct tb_info, bytes) < TB_INFO_ALIGN, "the fast path's fields in the first line");
_Static_assert(offsetof(struct tb_info, taken_at) == TB_INFO_ALIGN && offsetof(struct tb_info, pend_kind) < 2 * TB_INFO_ALIGN,
	       "what the fast paths read of a pending CTI's block (cti_*, pend_kind) in its second line");

/*
 * How the full model's fast block entry (plugin.c entry_full()) decides a
 * pending CTI from the next block's address: resolve_pending()'s cases,
 * sorted out once at translation.  A next block at the CTI's delay slot
 * (cti_ds) leaves the CTI pending (the slow way, as in entry_fast()) but
 * after an annulling branch, which it shows taken (entry_annul_taken()).
 */
enum feed_pend_kind {
	FEED_PEND_SLOW = 0, /* on the slow path: decided from its registers (reg_cond), or a
			       conditional CTI to a register (ppc64 bclr, bcctr) */
	FEED_PEND_ALWAYS,   /* not conditional: taken */
	FEED_PEND_TARGET,   /* conditional with a static target: taken iff the next block
			       starts at the target */
	FEED_PEND_ANNUL,    /* conditional and annulling (cti_annul): taken iff the next block
			       is its delay slot (entry_annul_taken()), else not taken */
};

/* A memory-accessing instruction, for the memory model's callbacks.
 * MEM_INSN_ALIGN-aligned: its address shares a record word with the
 * access's size and direction (struct evrec, REC_MEM). */
#define MEM_INSN_ALIGN 64
struct mem_insn {
	/* pc and decode flags (set at translation); the size and direction
	 * of meminfo pinfo (guest thread, mem_info()) */
	struct hvpmu_dref_insn d;
	int is_store;          /* a plain store (no load side) */
	int8_t rec_slot;       /* prefetch donor: record the address in vcpu.pf_base[slot], or -1 */
	uint8_t after;         /* prefetch donor of an earlier prefetch (HVPMU_PF_AFTER) */
	uint8_t donor;         /* rec_slot >= 0 or after: a prefetch donor (set once translated) */
	uint8_t pcode;         /* guest thread: the REC_MEM bits of meminfo pinfo */
	uint64_t pinfo;        /* guest thread: the meminfo last seen (UINT64_MAX: none yet) */
	struct feed *feed;     /* the run (its callbacks' way back to it) */
};
_Static_assert(sizeof(struct mem_insn) <= MEM_INSN_ALIGN, "mem_insn fits its alignment");

/*
 * A software prefetch and how its address is recovered (hvpmu/prefetch.h,
 * docs/prefetch-model.md): from the address the donor recorded in a slot
 * (BEFORE), at the donor's access (AFTER), absolute, or not at all.
 */
#define PF_SLOTS 16            /* donors recorded per translation block */
#define PF_PEND 8              /* prefetches waiting for a later donor */
struct pf_insn {
	uint64_t pc;
	int64_t delta;
	const struct mem_insn *donor; /* AFTER */
	uint8_t how;           /* enum hvpmu_pf_how */
	uint8_t dest;          /* enum hvpmu_pf_dest */
	uint8_t slot;          /* BEFORE */
	struct feed *feed;     /* the run (its callback's way back to it) */
};

/* A guest thread's state.  What the block-entry fast paths read and
 * write (tb_exec_insn, entry_fast) comes first, in one 64-byte line; each
 * vCPU's lines are its own (no line shared between two threads). */
struct vcpu {
	_Alignas(64) struct hvpmu_activity *act;
	struct tb_info *prev;  /* block entered last, not yet accounted */
	uint64_t mark_seen;    /* its row of prev's counter at prev's entry (batches: bmark) */
	struct tb_info *dirty; /* blocks whose executions are not expanded yet */
	const struct tb_info *pend_tb; /* the block whose CTI it is */
	int pend;              /* the previous block's CTI awaits its outcome */
	uint8_t reg_taken;     /* the pending CTI's outcome from its registers: 2 | taken, 0 none
				  (tb_info.reg_cond; resolve_pending() takes it) */
	unsigned npf_pend;     /* prefetches waiting for their donor (pf_pend) */
	int live;
	uint32_t strand;
	uint32_t process;      /* its guest process (hvpmu_os_call.process) */
	int reached_last;      /* prev reached its last instruction, as a record says (batches,
				  the model thread, the service's records) */
	uint32_t row;          /* its row of the counter slots: its index times FEED_SLOT_CHUNK */
	/* totals only (docs/event-source.md "Totals only"), its own: the
	 * qrem and qexp slots' row of this vCPU, and its syncs */
	uint64_t qcyc_at;      /* feed_qcyc() after prev's entry (it moved: quiet blocks ran since) */
	uint64_t qanchor_q, qanchor_r; /* the cycles of the blocks entered (upper bound, machine's
				  rule) when its qrem row was last set, and the row then:
				  feed_qcyc() is qanchor_q + (qanchor_r - qrem) */
	uint64_t qlimit;       /* a check or full block entered with feed_qcyc() at or past it syncs */
	uint64_t qtaken;       /* taken conditional CTIs not yet in act->taken_cond */
	uint64_t *qsynced;     /* per quiet or check block counter (f->nq index): the count of its
				  row already expanded (f->nqchunks * FEED_QCHUNK of them; kept
				  when the thread ends: QEMU gives its index to a later one) */
	uint64_t pf_base[PF_SLOTS];    /* addresses of prefetch donors (BEFORE) */
	const struct pf_insn *pf_pend[PF_PEND]; /* prefetches waiting for their donor (AFTER) */
	/* The guest thread's own line while its records wait (batches:
	 * several guest threads and the memory model, docs/event-source.md
	 * "Batches"; the model thread): what its record callbacks write, apart
	 * from what the thread running its earlier records writes (the model
	 * queue's, feed.mq) */
	_Alignas(64) struct evrec *batch; /* BATCH_MAX records not yet run through the model */
	uint32_t nb;
	uint8_t reg_live;      /* the guest thread's reg_taken while its records wait (batches,
				  model thread): it goes with the next REC_TB, in w1 */
	struct tb_info *bprev; /* batches: the block the guest thread entered last (prev lags
				  behind until the batch runs) */
	uint64_t bmark;        /* batches: its row of bprev's counter at bprev's entry */
	struct evrec *spare;   /* the model queue's second buffer (BATCH_MAX records): NULL
				  while the queue holds it (feed.mq) */
	_Alignas(64) int held; /* the batch is being run: this thread holds the lock */
};
_Static_assert(offsetof(struct vcpu, npf_pend) < 64, "the fast paths' fields of a vCPU in its first line");

/*
 * One run of the event source: what it feeds (the machine), how (the
 * features its events need, the modes below) and its vCPUs.  Made by
 * feed_new() when the source starts (the plugin's install, the service's
 * hvpmu_remote_create) and freed by feed_destroy(); every function of the
 * feed takes it.  The QEMU plugin reaches it from each callback's data
 * (tb_info.feed, mem_insn.feed, pf_insn.feed, the run itself for the
 * atexit callback) and, for the callbacks QEMU's API gives no data (vCPU
 * init and exit, translation, system calls, flush, reset), through its
 * one pointer to the run (plugin.c `the_run`).
 */
struct feed {
	uint64_t id;           /* the QEMU plugin's id (qemu_plugin_id_t) */
	pthread_mutex_t lock;
	int mt;                /* several threads: blocks translated now are tb_info.mt */
	int batch;             /* blocks translated now record into their vCPU's batch */
	const struct hvpmu_isa *isa; /* the machine's instruction set */
	struct hvpmu_machine *m;
	uint32_t nvcpu;        /* == number of strands: vcpu[0..nvcpu) */
	struct tb_info *allocs;
	int fallback_class;
	int need_taken;        /* some event counts taken conditional branches */
	int need_branches;     /* some event counts branch mispredicts */
	int need_memory;       /* the memory model runs (memory or cycle events, busstat) */
	/* model thread (docs/event-source.md "Model thread"): while `off`,
	 * the guest thread's callbacks only append records to `ring` and the
	 * model thread `thr` does everything else, in order */
	int off;
	struct evring ring;
	pthread_t thr;
	struct tb_info *prod_prev; /* guest thread: block entered last */
	uint64_t prod_mark;        /* its execs at its entry */
	int ended;                 /* the program's end is reported (HVPMU_OS_HALT) */
	/* batches: exit_group's system call, told to the guest OS at the end,
	 * once every thread's batch has run (feed_syscall_entry, program_end) */
	int exit_pending;
	struct hvpmu_os_call exit_call;
	/* totals only (docs/event-source.md "Totals only"): blocks that cannot
	 * be restarted inside get inline adds and no callback, or a callback
	 * only where a run of them could close a loop */
	int quiet;             /* each vCPU syncs when feed_qcyc() reaches v->qlimit (the budget) */
	int qclass;            /* blocks translated now are classed (enum feed_qkind), and such
				  blocks may run: every sync of a vCPU expands its row of them all */
	uint64_t qsum, qcap;   /* the cycles of every quiet block translated, and their bound */
	uint64_t qwrap;        /* FEED_QUIET_MIN_INSNS (tests: HVPMU_QUIET_WRAP) */
	struct hvpmu_cycle_rule rule;
	int qeligible;         /* the run may use the mode (it may leave it and come back) */
	int qswitch;           /* a re-translation is asked for: 1 out of the mode, 2 into it,
				  3 in it still (turns start: every block counts its turn) */
	void (*q_reset)(struct feed *f); /* re-translate everything (the plugin's reset_done
					    follows qswitch) */
	int (*slot_new)(struct feed *f, uint32_t *slot); /* a new counter slot (plugin only) */
	int qcyc_made;         /* qrem_slot is made (vCPU 0's start) */
	/* totals only with taken branches (docs/event-source.md "Taken
	 * branches without a callback"): a conditional CTI's block stores the
	 * address that means "taken" into its vCPU's row of the qexp slot at
	 * its last instruction; every block's first instruction has a
	 * conditional callback that fires when the row holds its own address:
	 * vcpu.qtaken counts those, and the CTIs decided from registers */
	int qtk;               /* Br_taken is asked for: the mode counts taken CTIs so */
	uint32_t qexp_slot;    /* counter slot: the address of the taken edge pending, or 0 */
	uint32_t qrem_slot;    /* counter slot, per vCPU: qlimit - qcyc - 1, as the blocks run (an
				  inline add of minus its cycles at each quiet or check block's
				  first instruction): a check block's conditional callback fires
				  once its vCPU's row is negative (>= 2^63) */
	int qentry_seen;       /* the first block was translated (qg_code_entry()) */
	struct feed_qchunk **qchunks; /* the quiet and check blocks' counters, in chunks (the slots
					 are used again once a re-translation has dropped their blocks) */
	uint32_t nq, nqchunks;
	uint64_t qblocks[4];   /* blocks translated, by enum feed_qkind (HVPMU_QUIET_STATS=1) */
	uint64_t qsyncs;       /* syncs a check or full block made for the budget */
	uint64_t qentries;     /* times the mode started (HVPMU_QUIET_STATS=1) */
	/* the QEMU plugin's own (plugin.c) */
	long host_page;        /* the host's page size (quiet_kind) */
	int exit_called;       /* exit_group, or the last thread's exit, was called (at_exit) */
	struct tb_info *q_pend; /* totals only with taken branches: a pending CTI per vCPU
				   (quiet_taken_leave) */
	uint32_t words[FEED_MAX_INSNS]; /* translation scratch (under the lock): the block's words */
	/* translation scratch of the memory model (under the lock): per
	 * instruction of the block being translated, its memory-callback data
	 * and its prefetch data (feed_block_new) */
	struct mem_insn *scratch_mi[FEED_MAX_INSNS];
	struct pf_insn *scratch_pf[FEED_MAX_INSNS];
	/* vCPU 0's row of each chunk of counter slots (feed_slot(); the plugin
	 * only: the service's blocks have no counters) */
	uint64_t *slot_row[FEED_SLOT_MAXCHUNKS];
	/* threads in turns (turns.h; plugin.c, docs/event-source.md "Turns"):
	 * one guest thread runs at a time, turn.quantum instructions a turn, in
	 * vCPU order; the others wait outside QEMU's execution loop (the vCPU
	 * idle callback) */
	struct turns turn;
	struct gtime gtime;     /* the guest's clocks and deadlines in modeled time, from the
				   turns' start (gtime.h) */
	int gtime_filter;       /* QEMU has the system-call filter (our patch 0004) */
	uint32_t turn_slot;     /* counter slot, per vCPU: the instructions left of its turn,
				   minus one; every block adds minus its instructions at its
				   entry and calls back once it is negative (>= 2^63) */
	int turn_slot_made;
	/* the model queue (threads in turns with the memory model:
	 * docs/event-source.md "The model queue"): a vCPU hands its batch to
	 * the queue and records on into its spare buffer; the queue's thread
	 * runs the batches through the model in the order they were handed
	 * over (the turns').  lock() waits for the queue to empty first, so
	 * every other use of the model comes after the batches handed before. */
	struct feed_mq {
		int on;
		pthread_t thr;
		pthread_mutex_t mu;    /* the queue; taken before `lock`, never while holding it */
		pthread_cond_t work;   /* a batch was queued, or `stop` */
		pthread_cond_t idle;   /* a batch has run (its buffer is its vCPU's spare again) */
		struct feed_mq_item { struct vcpu *v; struct evrec *r; uint32_t n; } *q; /* nvcpu */
		uint32_t head, n;
		int stop;
		/* the machine's time after each batch (feed_mq_lagged_now), under
		 * mu: batches handed over so far, and hvpmu_machine_now() after
		 * batch s in done_now[s % (nvcpu + 1)] (batch 0: the queue's start) */
		uint64_t put_seq;
		uint64_t *done_now;    /* nvcpu + 1 */
	} mq;
	struct vcpu vcpu[];    /* nvcpu of them: guest thread (vCPU) i is vcpu[i] */
};

/* A run feeding machine m, whose processors run isa, with nvcpu vCPUs
 * (the machine's strands), its features (hvpmu_machine_features) read;
 * NULL if out of memory.  feed_destroy() frees it, its blocks (but not
 * their memory and prefetch instructions) and its vCPUs' buffers. */
struct feed *feed_new(struct hvpmu_machine *m, const struct hvpmu_isa *isa);
void feed_destroy(struct feed *f);

/* Counter slot s's row of vCPU 0 in run f. */
static inline uint64_t *feed_slot(struct feed *f, uint32_t s)
{
	return feed_slot_in(f->slot_row, s);
}

/*
 * Records of the ring (struct evrec).  The low two bits of w0 say the kind;
 * the rest of w0 is a pointer to the plugin's per-block or per-instruction
 * data (aligned so that its low bits are free) and a few bits of the event:
 *   REC_TB   block entry: w0 = tb_info | reached << 2, where reached says
 *            that the block entered before reached its last instruction
 *            (its inline counter moved);
 *   REC_MEM  data access: w0 = mem_insn | size_shift << 2 | store << 5,
 *            w1 = vaddr;
 *   REC_PF   software prefetch: w0 = pf_insn;
 *   REC_CTL  w0 = CTL_x << 2 | reached << 5, w1 = argument, where
 *            reached is as for REC_TB at that moment (CTL_SYSCALL and
 *            CTL_FLUSH account the block); CTL_SYSCALL is followed by
 *            three slots of arguments (a1 a2, a3 a4, a5 a6) and CTL_SYSRET
 *            by one (w0 = the return value).
 */
enum { REC_TB, REC_MEM, REC_PF, REC_CTL };
enum { CTL_NOP, CTL_TRANS, CTL_SYSCALL, CTL_SYSRET, CTL_FLUSH, CTL_STOP };
#define REC_KIND 3u
#define CTL(op) ((uint64_t)(op) << 2 | REC_CTL)
#define CTL_OP(w0) (((w0) >> 2) & 7u)
#define CTL_REACHED (UINT64_C(1) << 5)
/* ring size: 2^16 slots of 16 bytes (1 MB) */
#define RING_LOG2 16
/* batches: a vCPU runs its records through the model once it has
 * BATCH_SLOTS of them if the lock is free; while another thread holds it,
 * it goes on recording, up to BATCH_MAX, and then waits for the lock */
#define BATCH_SLOTS 4096u
#define BATCH_MAX (4u * BATCH_SLOTS)


/* Times t's last instruction started (vCPU 0's count of its slot). */
static inline uint64_t feed_execs(const struct tb_info *t) { return *t->execs; }
/* The same, v's count (its row of the slot). */
static inline uint64_t feed_execs_v(const struct vcpu *v, const struct tb_info *t) { return t->execs[v->row]; }
/* v's row of counter slot s. */
static inline uint64_t *feed_slot_v(struct feed *f, uint32_t s, const struct vcpu *v) { return feed_slot(f, s) + v->row; }
/* Totals only: v's cycles of the blocks entered (upper bound, the
 * machine's rule): what its qrem row went down by since it was set. */
static inline uint64_t feed_qcyc(struct feed *f, const struct vcpu *v)
{
	return f->qcyc_made ? v->qanchor_q + (v->qanchor_r - *feed_slot_v(f, f->qrem_slot, v)) : v->qanchor_q;
}

/* Totals only: a full block's cycles (its callback's, in v's own thread). */
static inline void feed_qcyc_add(struct feed *f, const struct vcpu *v, uint64_t cycles)
{
	*feed_slot_v(f, f->qrem_slot, v) -= cycles;
}

/* Totals only: v's next sync when its cycles reach lim (UINT64_MAX: none,
 * 0: at once); its qrem row follows (once qcyc_made).  Only where v's
 * inline operations cannot run meanwhile: in v's own thread, or with
 * every vCPU stopped (a concurrent inline add would undo the store). */
#define FEED_QREM_NEVER (UINT64_C(1) << 62)
static inline void feed_quiet_limit(struct feed *f, struct vcpu *v, uint64_t lim)
{
	v->qlimit = lim;
	if (f->qcyc_made) {
		uint64_t q = feed_qcyc(f, v), r;

		r = lim == UINT64_MAX ? FEED_QREM_NEVER
				      : lim > q ? (lim - q - 1 < FEED_QREM_NEVER ? lim - q - 1 : FEED_QREM_NEVER) : UINT64_MAX;
		*feed_slot_v(f, f->qrem_slot, v) = r;
		v->qanchor_q = q;
		v->qanchor_r = r;
	}
}

/* Totals only: leave the mode (under the lock; f->quiet set, no switch
 * asked for yet): the exact path's own syncs again, and every block is to
 * be translated anew (f->q_reset(), by the caller).  No vCPU syncs for
 * the budget any more; their qrem rows are set again once every vCPU
 * has stopped for the re-translation (the plugin's reset_done). */
static inline void feed_quiet_leave(struct feed *f)
{
	f->quiet = 0;
	for (uint32_t i = 0; i < f->nvcpu; i++)
		f->vcpu[i].qlimit = UINT64_MAX;
	f->qswitch = 1;
}


/* Take the model queue's lock, once every batch handed to it has run. */
void feed_mq_lock(struct feed *f);
static inline void lock(struct feed *f)
{
	if (__builtin_expect(f->mq.on, 0))
		feed_mq_lock(f);
	else
		pthread_mutex_lock(&f->lock);
}
static inline void unlock(struct feed *f) { pthread_mutex_unlock(&f->lock); }

/* Expand v's blocks' whole executions into class counts (the dirty
 * blocks; with f->qclass and v vCPU 0, every block classed for totals only). */
void feed_expand_dirty(struct feed *f, struct vcpu *v);
/* Totals only: the execution counter slot of a quiet or check block just
 * made (under the lock) into *slot (from f->slot_new); 0, or -1 if out of
 * memory or slots. */
int feed_quiet_counter(struct feed *f, struct tb_info *ti, uint32_t *slot);
/* QEMU moved its scoreboards (the rows of feed_slot() changed): every block's
 * execs pointer follows (under the lock). */
void feed_slots_moved(struct feed *f);
/* Totals only: after a sync of v with all of its instructions (in v's
 * own thread), the point (v->qlimit) at which it syncs next, from
 * hvpmu_machine_budget() for its strand; leaves the mode (f->q_reset) when
 * a counter could wrap within f->qwrap instructions or the machine's time
 * is not a function of the classes, and, out of it, comes back once every
 * counter of every live vCPU's strand is twice that far from a wrap (past
 * the wrap).  Nothing otherwise. */
void feed_quiet_rearm(struct feed *f, struct vcpu *v);
int feed_account_prev(struct feed *f, struct vcpu *v, uint64_t vaddr);
void feed_sync_vcpu(struct feed *f, struct vcpu *v, const struct tb_info *last, const struct tb_info *next);
void feed_drop_pending_prefetches(struct feed *f, struct vcpu *v);
/* Block ti is entered on v (the slow path of entry_fast). */
void feed_block_entry(struct feed *f, struct vcpu *v, struct tb_info *ti);
void feed_mem_access(struct feed *f, struct vcpu *v, const struct mem_insn *mi, uint64_t vaddr, unsigned size,
		     int store);
void feed_pf_access(struct feed *f, struct vcpu *v, const struct pf_insn *p);
/*
 * One event of a vCPU as a record tells it: the plugin's batches and
 * model-thread ring (struct evrec, feed_run_evrecs) and the service's
 * rings (remote_shm.h, src/source/remote.c) are decoded into it, and
 * feed_run_ev() runs it -- one interpreter for every source of records,
 * with the same effect as the plugin's callbacks running the model at
 * once.
 */
enum feed_ev_kind {
	FEED_EV_TB,      /* block ti entered: `reached`, the block entered before reached its
			    last instruction; `reg`, the pending CTI's outcome from its
			    registers, 2 | taken, or 0 (none: the addresses decide); `sync`,
			    the strand syncs at this entry (the service's grant ran out) */
	FEED_EV_MEM,     /* data access of mi at `a`, `size` bytes, `store` */
	FEED_EV_PF,      /* software prefetch pf */
	FEED_EV_CNT,     /* `a` whole executions of ti, counted by the source (the service's
			    R_CNT: each was entered and reached its end) */
	FEED_EV_FAST,    /* blocks entered on the source's fast path, up to ti (entered, not
			    accounted yet): `a` instructions in all, `b` of their conditional
			    CTIs taken (the service's C_FAST; their executions come as CNT) */
	FEED_EV_SYSCALL, /* system call `a` with args[6] starts; `reached` as for TB */
	FEED_EV_SYSRET,  /* system call `a` returns `b` */
	FEED_EV_FLUSH,   /* translations flushed; `reached` as for TB */
	FEED_EV_TRANS,   /* block ti translated: its classes (the model thread's) */
};
struct feed_ev {
	uint8_t kind;    /* enum feed_ev_kind */
	uint8_t reached, reg, sync, store;
	uint32_t size;
	struct tb_info *ti;
	const struct mem_insn *mi;
	const struct pf_insn *pf;
	uint64_t a, b;
	const uint64_t *args;
};
/* Run event e of vCPU v (NULL: a thread not counted, whose events but
 * TRANS and FLUSH are dropped).  Whoever runs the model for v calls it:
 * the lock held with v->held set (a batch, the service), or on the only
 * thread that uses the model (the model thread). */
void feed_run_ev(struct feed *f, struct vcpu *v, const struct feed_ev *e);
/* Run records r[0..n) of the plugin's format (struct evrec) for v, in
 * order, through feed_run_ev(); stops after a CTL_STOP (then *stop is set).
 * Returns the slots run. */
size_t feed_run_evrecs(struct feed *f, struct vcpu *v, const struct evrec *r, size_t n, int *stop);
/* Run v's batch through the model (the caller holds the lock). */
void feed_batch_run(struct feed *f, struct vcpu *v);
/* Run v's batch now, under the lock, if it has records. */
void feed_batch_flush(struct feed *f, struct vcpu *v);
/* The model queue (struct feed_mq): start its thread, with a spare buffer
 * for every vCPU that has a batch (and for those that start later); 0,
 * or -1 if out of memory or threads (then the batches run as before).
 * Only while no batch holds records, every other thread waiting. */
int feed_mq_start(struct feed *f);
/* v's own thread: hand v's batch to the queue (if it has records) and
 * record on into its spare buffer, once the queue has run the batch it
 * held before.  Without the lock. */
void feed_mq_put(struct feed *f, struct vcpu *v);
/* Run every queued batch and end the queue's thread (none: nothing).
 * Without the lock. */
void feed_mq_stop(struct feed *f);

/* The machine's time (hvpmu_machine_now, cycles) as it was after the
 * batch handed over nvcpu batches before the last one (after batch 0,
 * the queue's start, while fewer were): a lower bound of the time that
 * never waits for the queue, since it holds at most nvcpu batches, and
 * is the same on every run where the batches are handed over in the
 * turns' order (docs/event-source.md "Guest time").  The queue must be
 * on.  Takes mq.mu. */
uint64_t feed_mq_lagged_now(struct feed *f);
/* Fork handlers (pthread_atfork): prepare takes the queue, once empty,
 * and the lock; the parent gives both back; the child has no queue
 * thread and runs its batches itself. */
void feed_mq_fork_prepare(struct feed *f);
void feed_mq_fork_parent(struct feed *f);
void feed_mq_fork_child(struct feed *f);
void feed_finish_tb(struct feed *f, struct tb_info *ti);
void feed_os_event(struct feed *f, enum hvpmu_os_event ev, const struct vcpu *v, int64_t num, const uint64_t *args,
		   int64_t ret);
void feed_flush_vcpu(struct feed *f, struct vcpu *v);
void feed_syscall_entry(struct feed *f, struct vcpu *v, int64_t num, const uint64_t *args);
void feed_syscall_return(struct feed *f, struct vcpu *v, int64_t num, int64_t ret);


/*
 * A translated block of n instructions (1 <= n <= FEED_MAX_INSNS) at
 * vaddr: words[i] is instruction i in host order (0 if it is not one
 * word), at vaddr + i * insn_bytes.  Decodes it with f->isa into a new
 * tb_info (kept until the process ends, on f->allocs), translated for the
 * current mode (f->mt); with the memory model, (*mi)[i] and (*pf)[i] are
 * instruction i's memory-access and prefetch data or NULL (arrays valid
 * until the next call).  Classes are not assigned yet: feed_finish_tb()
 * does that on the thread that runs the model.  The caller holds the
 * lock.  Returns NULL if out of memory.
 */
struct tb_info *feed_block_new(struct feed *f, uint64_t vaddr, const uint32_t *words, uint32_t n, struct mem_insn *const **mi,
			       struct pf_insn *const **pf);

/* Start vCPU v on `strand` (a new guest thread of guest process
 * `process`, hvpmu_os_call.process): its state from zero, its batch kept;
 * tells the guest OS (HVPMU_OS_THREAD_START).  The caller holds the lock.
 * Returns 0, or -1 if out of memory for its batch. */
int feed_vcpu_start(struct feed *f, struct vcpu *v, uint32_t strand, uint32_t process);
/* v's thread ends: its batch runs, its activity is accounted, the guest
 * OS is told (HVPMU_OS_THREAD_EXIT) and v is free.  Takes the lock. */
void feed_vcpu_exit(struct feed *f, struct vcpu *v);
/* The thread on v leaves its strand just before it enters block `next`
 * (a context switch of the service's guest OS, remote.c): the block it
 * entered last is accounted as next's entry would account it (`reached`,
 * the pending CTI's outcome from next's address or `reg`), the strand
 * synced; then feed_vcpu_exit() frees v, and the thread's next strand
 * enters `next` with nothing pending.  Returns 0 (nothing done) where
 * the pending CTI would still wait (next is its delay slot run as a
 * block of its own): the switch waits for a later entry. */
int feed_switch_out(struct feed *f, struct vcpu *v, const struct tb_info *next, int reached, uint8_t reg);
/* Free every block on f->allocs (no vCPU may reference one any more; their
 * memory and prefetch instructions are the caller's). */
void feed_free_blocks(struct feed *f);
/* The caller owns ti, just made by feed_block_new: feed_free_blocks
 * leaves it, and the caller frees it (feed_block_free) once no vCPU can
 * reference it (its image's threads have ended: feed_vcpu_exit). */
void feed_block_own(struct feed *f, struct tb_info *ti);
void feed_block_free(struct tb_info *ti);
/* A translation flush: every vCPU's batch runs and its blocks are
 * accounted (no block may be referenced afterwards).  Takes the lock. */
void feed_flush_all(struct feed *f);

static inline struct vcpu *vcpu_of(struct feed *f, unsigned idx)
{
	return idx < f->nvcpu && f->vcpu[idx].live ? &f->vcpu[idx] : NULL;
}

/*
 * What the outcome logic reads of a block's last CTI, decoded as d at pc,
 * instruction i of the block's n (feed_block_new's tb_info fields, and the
 * guest's block counts, src/source/attach.c): its delay slot (UINT64_MAX
 * on ISAs without), whether it annuls its slot outside the block
 * (cti_annul: taken iff the slot runs) or inside it (slot_annul: the
 * last instruction, MIPS's branch-likely), and the next block's address
 * that means taken (taken_at) or leaves it pending (wait_at: its delay slot
 * run as a block of its own; 1, none, when the slot annuls).
 */
struct feed_cti {
	uint64_t ds, taken_at, wait_at;
	uint8_t annul, slot_annul;
};

static inline struct feed_cti feed_cti_facts(const struct hvpmu_isa *isa, const struct hvpmu_insn *d, uint64_t pc,
					     uint32_t i, uint32_t n)
{
	int cond_annul = (d->flags & HVPMU_IC_CTI_COND) && d->annul;
	struct feed_cti c;

	c.ds = isa->delay_slot ? pc + isa->insn_bytes : UINT64_MAX;
	c.annul = (uint8_t)(cond_annul && !isa->annul_in_block);
	c.slot_annul = (uint8_t)(cond_annul && isa->annul_in_block && i + 2 == n && d->has_target);
	c.taken_at = c.annul ? c.ds : (d->has_target ? d->target : 0);
	c.wait_at = c.annul ? 1 : c.ds;
	return c;
}

/*
 * Whether a conditional CTI with a static target, not annulling, at index
 * k of a block of n words is one the next block's address cannot decide
 * at once (docs/branch-prediction.md "Outcomes"): its target is where it
 * falls through, or it ends the block with its delay slot still to come
 * (the slot's block, which may hold the next CTI, comes between), or its
 * delay slot, last in the block (`last_word`), may trap and run again as
 * a block of its own.  Its registers decide it instead, where QEMU lists
 * them (the QEMU source and the service alike).
 */
static inline int feed_cond_needs_regs(const struct hvpmu_isa *isa, uint64_t target, uint64_t fall, uint32_t k,
				       uint32_t n, uint32_t last_word)
{
	return target == fall || (isa->delay_slot && k + 1 == n) ||
	       (isa->delay_slot && isa->restarts && k + 2 == n && isa->restarts(last_word));
}

/* Delay slot of the pending CTI: a block starting there leaves it pending. */
static inline uint64_t pend_ds(const struct vcpu *v)
{
	return v->pend_tb->cti_ds;
}

/*
 * Decide the pending CTI now that execution continues at `vaddr`; `ran`
 * says whether the previous block reached its end (else the CTI did not
 * execute, unless `vaddr` is its delay slot).  SPARC V9 6.3.4.1: a
 * conditional branch is taken exactly when its condition holds, and one
 * with the annul bit runs its delay slot only when taken.  QEMU ends a
 * block at an annulled conditional branch and starts the next one at its
 * delay slot when it is taken, at pc+8 when not, so such a branch is
 * taken iff its delay slot runs -- also when its target is pc+8, where
 * "execution continued at the target" holds either way.  Any other
 * conditional CTI is taken iff execution goes on at its static target
 * after the delay slot (a block starting at the delay slot leaves it
 * pending), except one whose target is where it falls through (pc+8;
 * ppc64: pc+4), which the addresses cannot tell: its outcome was read
 * from the registers it tests, before it ran (v->reg_taken; without
 * registers it counts as taken; docs/branch-prediction.md "Outcomes").
 * Other CTIs are always taken.
 */
static inline void resolve_pending(struct feed *f, struct vcpu *v, uint64_t vaddr, int ran)
{
	const struct tb_info *t = v->pend_tb;
	uint64_t to = vaddr;
	int taken = 1, rt;

	if (!v->pend)
		return;
	/* read from its registers before it ran: known now, whatever comes
	 * next (its delay slot's block may hold the next CTI) */
	rt = t->reg_cond ? v->reg_taken : 0;
	if (vaddr == pend_ds(v) && !t->cti_annul && !rt) /* delay slot run as its own block: wait */
		return;
	v->pend = 0;
	v->reg_taken = 0;
	if (!ran || !vaddr)
		return;
	if (t->cti_annul) {
		taken = vaddr == pend_ds(v);
		if (taken) /* execution goes on at the target after the delay slot */
			to = t->cti_target;
	} else if (rt) {
		taken = rt & 1;
		to = t->cti_target; /* (= where it falls through) */
	} else if (t->cti_flags & HVPMU_IC_CTI_COND) {
		/* a conditional CTI to a register (ppc64 bclr/bcctr): taken
		 * iff execution does not go on where it falls through */
		taken = t->blk.cond_cti >= 0 ? vaddr == t->cti_target : vaddr != t->cti_fall;
	}
	if (taken && (t->cti_flags & HVPMU_IC_CTI_COND))
		v->act->taken_cond++;
	if (f->need_branches)
		hvpmu_machine_branch(f->m, v->strand, t->cti_pc, t->cti_flags, taken, to);
}

static inline void set_pending(struct feed *f, struct vcpu *v, const struct tb_info *ti)
{
	if (ti->blk.cti >= 0 && (f->need_branches || (f->need_taken && (ti->cti_flags & HVPMU_IC_CTI_COND)))) {
		v->pend = 1;
		v->pend_tb = ti;
	}
}

/* One whole execution of p (a block of several threads, or another vCPU's). */
static inline void add_whole(struct vcpu *v, const struct tb_info *p)
{
	for (uint32_t k = 0; k < p->nhist; k++)
		v->act->icount[p->hist[k].cls] += p->hist[k].n;
}

static inline void add_prefix(struct vcpu *v, const struct tb_info *p, uint64_t ninsn)
{
	for (uint64_t i = 0; i < ninsn; i++)
		v->act->icount[p->cls[i]]++;
}

/* Block p ran to its last instruction: vCPU 0's execution is expanded
 * lazily (feed_expand_dirty; a block's synced_execs is vCPU 0's); the model
 * thread counts it itself (oexecs); another vCPU's (totals only with
 * several threads: a full block with an inline counter), and every one
 * the model queue runs (vCPU 0's counters move on meanwhile), is counted now. */
static inline void note_completed(struct feed *f, struct vcpu *v, struct tb_info *p)
{
	if (__builtin_expect(v != f->vcpu || f->mq.on, 0)) {
		add_whole(v, p);
		return;
	}
	p->oexecs += (uint64_t)f->off;
	if (!p->dirty) {
		p->dirty = 1;
		p->next_dirty = v->dirty;
		v->dirty = p;
	}
}

/* Block ti is entered: it is v->prev until the next entry. */
static inline void note_entered(struct feed *f, struct vcpu *v, struct tb_info *ti)
{
	if (!f->off && !v->held && ti->execs) /* the guest thread's view of the inline counter
						   (a record's block: the record says; with
						   batches the guest thread keeps it, tb_exec_b) */
		v->mark_seen = feed_execs_v(v, ti);
	v->prev = ti;
}

/*
 * Fast path of feed_block_entry(): the common case (previous block completed,
 * `reached`, and not restarted, no sync due) here; returns 0 for
 * everything else, which goes through feed_block_entry().  Same effect as
 * feed_block_entry().  For the single guest thread (tb_exec_st, the model
 * thread) and for a batch being run (feed_batch_run: the lock is held).
 */
static inline int entry_fast(struct feed *f, struct vcpu *v, struct tb_info *ti, int reached)
{
	struct tb_info *p = v->prev;
	struct hvpmu_activity *act = v->act;
	uint64_t vaddr = ti->blk.vaddr;

	if (__builtin_expect(!p || !reached || vaddr == p->last_pc || p->slot_annul || (v->pend && vaddr == pend_ds(v)) ||
			     v->npf_pend || act->bound + ti->blk.n >= act->next_check, 0))
		return 0;
	if (p->mt) /* several threads: counted here, as feed_account_prev() does */
		add_whole(v, p);
	else
		note_completed(f, v, p);
	if (f->need_memory)
		hvpmu_machine_ifetch(f->m, v->strand, vaddr, ti->bytes);
	if (v->pend) /* the previous block ran to its end */
		resolve_pending(f, v, vaddr, 1);
	set_pending(f, v, ti);
	act->bound += ti->blk.n;
	note_entered(f, v, ti);
	return 1;
}

#endif
