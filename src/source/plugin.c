/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QEMU event source of layer 1 (hvpmu/qemu_source.h): a TCG plugin
 * for QEMU 7.2 user mode (plugin API v1) that reports a program's activity
 * to a machine (hvpmu/machine.h) and does nothing else.  The session host
 * (src/supervisor/session_qemu.c) builds the run and starts it; the
 * machine's ISA (hvpmu/isa.h) decodes each translated instruction once
 * into a class, and the plugin keeps, per translation block, the
 * histogram of its classes.  Per executed block it costs one inline add
 * (the block's own completion counter, at its last instruction) and one
 * exec callback at block entry, which:
 *   - accounts the previous block: all of it if it reached its last
 *     instruction (its completion counter moved; whole executions are
 *     expanded into class counts lazily, before the machine syncs) -- minus
 *     that last instruction if this block restarts it after a trap
 *     (register-window spill/fill) -- or, if it was left early and this
 *     block restarts one of its instructions, exactly the instructions
 *     before that one.  Counts are exact per retired instruction
 *     (docs/event-source.md);
 *   - resolves the previous block's conditional branch (taken iff this
 *     block starts at its target; docs/branch-prediction.md "Outcomes");
 *   - keeps the upper bound the machine model uses to sync exactly when a
 *     counter could wrap or the OS tick is due (hvpmu/machine.h).
 * What it reports beyond retired instructions follows the machine's
 * features (taken outcomes, branch outcomes, memory references).  The
 * guest OS's events -- a thread starts or ends, a system call enters and
 * returns, the program ends -- go to the machine (hvpmu_machine_os_event)
 * after the strand's activity is accounted.  Guest threads (vCPUs) map to
 * strands by the description's placement.  With more than one guest thread
 * the plugin re-translates with a per-vCPU marker callback instead of the
 * inline marker (API v1 inline adds cannot target per-vCPU slots;
 * anchors.md §1.5).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <hvpmu/hvpmu.h>
#include "qemu_plugin_api.h"
#include <hvpmu/qemu_source.h>
#include "evring.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = HVPMU_QEMU_PLUGIN_VERSION;


struct class_count {
	uint8_t cls;
	uint16_t n;
};

struct tb_info {
	struct hvpmu_block blk;
	uint32_t bytes;        /* the block's instruction bytes: blk.n words */
	uint64_t last_pc;      /* address of the last instruction */
	uint64_t cti_target;   /* static target of the block's last CTI (PC-relative ones) */
	uint64_t cti_pc;       /* address of that CTI */
	uint64_t cti_ds;       /* the address after it: its delay slot on ISAs that have one */
	uint32_t cti_flags;    /* its decode flags */
	uint8_t cti_annul;     /* it is a conditional branch with a = 1: taken iff its delay slot runs */
	uint8_t slot_annul;    /* the last instruction is the in-block delay slot of an annulling
				  branch (isa->annul_in_block): it did not run when execution goes
				  on past it instead of at the branch's target */
	struct tb_info *next_alloc;
	struct tb_info *next_dirty;     /* single-threaded mode: blocks with unexpanded executions */
	uint64_t execs;        /* inline: times the last instruction started (single-threaded mode) */
	uint64_t oexecs;       /* model thread: executions seen to reach the last instruction */
	uint64_t synced_execs; /* execs (oexecs on the model thread) already expanded into class counts */
	uint32_t *flags;       /* decode flags per instruction, until the classes are known (finish_tb) */
	int dirty;
	int mt;                /* translated in multi-threaded mode (marker callback) */
	const struct class_count *hist; /* distinct classes of the block and their counts */
	uint32_t nhist;
	uint8_t last_cls;
	uint8_t cls[];         /* then the histogram */
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
};

struct vcpu {
	int live;
	uint32_t strand;
	struct hvpmu_activity *act;
	struct tb_info *prev;  /* block entered last, not yet accounted */
	uint64_t mark_seen;    /* prev->execs at prev's entry (inline marker) */
	struct tb_info *dirty; /* blocks whose executions are not expanded yet */
	int reached_last;      /* prev reached its last instruction (callback marker) */
	int pend;              /* the previous block's CTI awaits its outcome */
	const struct tb_info *pend_tb; /* the block whose CTI it is */
	uint64_t pf_base[PF_SLOTS];    /* addresses of prefetch donors (BEFORE) */
	const struct pf_insn *pf_pend[PF_PEND]; /* prefetches waiting for their donor (AFTER) */
	unsigned npf_pend;
	/* batches (several guest threads and the memory model: docs/event-source.md
	 * "Batches"): the vCPU's own records not yet run through the model */
	struct evrec *batch;   /* BATCH_MAX records */
	uint32_t nb;
	int held;              /* the batch is being run: this thread holds the lock */
};

static struct plugin {
	qemu_plugin_id_t id;
	pthread_mutex_t lock;
	int mt;                /* per-vCPU marker callbacks */
	int batch;             /* blocks translated now record into their vCPU's batch */
	const struct hvpmu_isa *isa; /* the machine's instruction set */
	struct hvpmu_machine *m;
	uint32_t nvcpu;        /* == number of strands */
	struct vcpu *vcpu;
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
	 * once every thread's batch has run (syscall_entry, program_end) */
	int exit_pending;
	struct hvpmu_os_call exit_call;
} P = { .lock = PTHREAD_MUTEX_INITIALIZER };

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

static void lock(void) { pthread_mutex_lock(&P.lock); }
static void unlock(void) { pthread_mutex_unlock(&P.lock); }

static struct vcpu *vcpu_of(unsigned idx)
{
	return idx < P.nvcpu && P.vcpu[idx].live ? &P.vcpu[idx] : NULL;
}

/* Delay slot of the pending CTI: a block starting there leaves it pending. */
static uint64_t pend_ds(const struct vcpu *v)
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
 * pending); for one whose target is pc+8 that is always true
 * (docs/branch-prediction.md "Outcomes").  Other CTIs are always taken.
 */
static void resolve_pending(struct vcpu *v, uint64_t vaddr, int ran)
{
	const struct tb_info *t = v->pend_tb;
	uint64_t to = vaddr;
	int taken = 1;

	if (!v->pend)
		return;
	if (vaddr == pend_ds(v) && !t->cti_annul) /* delay slot run as its own block: wait */
		return;
	v->pend = 0;
	if (!ran || !vaddr)
		return;
	if (t->cti_annul) {
		taken = vaddr == pend_ds(v);
		if (taken) /* execution goes on at the target after the delay slot */
			to = t->cti_target;
	} else if (t->cti_flags & HVPMU_IC_CTI_COND) {
		taken = vaddr == t->cti_target;
	}
	if (taken && (t->cti_flags & HVPMU_IC_CTI_COND))
		v->act->taken_cond++;
	if (P.need_branches)
		hvpmu_machine_branch(P.m, v->strand, t->cti_pc, t->cti_flags, taken, to);
}

static void set_pending(struct vcpu *v, const struct tb_info *ti)
{
	if (ti->blk.cti >= 0 && (P.need_branches || (P.need_taken && ti->blk.cond_cti >= 0))) {
		v->pend = 1;
		v->pend_tb = ti;
	}
}

/* One whole execution of p (a block with the per-vCPU marker). */
static inline void add_whole(struct vcpu *v, const struct tb_info *p)
{
	for (uint32_t k = 0; k < p->nhist; k++)
		v->act->icount[p->hist[k].cls] += p->hist[k].n;
}

static void add_prefix(struct vcpu *v, const struct tb_info *p, uint64_t ninsn)
{
	for (uint64_t i = 0; i < ninsn; i++)
		v->act->icount[p->cls[i]]++;
}

/* Expand the whole executions of dirty blocks into class counts: due
 * before every machine sync (single-threaded mode). */
static void expand_dirty(struct vcpu *v)
{
	while (v->dirty) {
		struct tb_info *t = v->dirty;
		uint64_t now = P.off ? t->oexecs : t->execs;
		uint64_t d = now - t->synced_execs;

		for (uint32_t k = 0; k < t->nhist; k++)
			v->act->icount[t->hist[k].cls] += d * t->hist[k].n;
		t->synced_execs = now;
		t->dirty = 0;
		v->dirty = t->next_dirty;
	}
}

/* Block p ran to its last instruction: its execution is expanded lazily
 * (expand_dirty); the model thread counts it itself (oexecs). */
static inline void note_completed(struct vcpu *v, struct tb_info *p)
{
	p->oexecs += (uint64_t)P.off;
	if (!p->dirty) {
		p->dirty = 1;
		p->next_dirty = v->dirty;
		v->dirty = p;
	}
}

/* Block ti is entered: it is v->prev until the next entry. */
static inline void note_entered(struct vcpu *v, struct tb_info *ti)
{
	if (!P.off) /* the guest thread's view of the inline counter */
		v->mark_seen = ti->execs;
	v->prev = ti;
}

/*
 * Account the instructions of v->prev that retired, given that the next
 * block starts at `vaddr` (0 if none: system call, exit, flush).
 */
static int account_prev(struct vcpu *v, uint64_t vaddr)
{
	struct tb_info *p = v->prev;
	int reached;

	v->prev = NULL;
	if (!p)
		return 0;
	if (p->mt) {
		reached = v->reached_last;
		v->reached_last = 0;
		if (reached)
			add_whole(v, p);
	} else {
		/* the model thread is told by the record (REC_TB); here the
		 * inline counter is read live */
		reached = P.off ? v->reached_last : p->execs != v->mark_seen;
		v->reached_last = 0;
		if (reached)
			note_completed(v, p);
	}
	if (reached) {
		if (vaddr == p->last_pc) /* the last instruction trapped and restarts */
			v->act->icount[p->last_cls]--;
		else if (p->slot_annul && vaddr == p->last_pc + P.isa->insn_bytes && vaddr != p->cti_target)
			v->act->icount[p->last_cls]--; /* not taken: its slot was annulled */
	} else if (vaddr >= p->blk.vaddr && vaddr < p->last_pc) {
		/* left early: instruction (vaddr - start) / 4 trapped and restarts */
		add_prefix(v, p, (vaddr - p->blk.vaddr) / P.isa->insn_bytes);
	}
	/* else left early at an unknown instruction (a guest signal handler
	 * took over): nothing of it is counted (docs/event-source.md) */
	return reached;
}

/* Bring the strand's activity up to date and sync the machine. */
static void sync_vcpu(struct vcpu *v, const struct tb_info *last, const struct tb_info *next)
{
	expand_dirty(v);
	hvpmu_machine_sync(P.m, v->strand, last ? &last->blk : NULL, next ? &next->blk : NULL);
}

/* Prefetches whose later donor did not run (the block was left early):
 * unresolved. */
static void drop_pending_prefetches(struct vcpu *v)
{
	for (unsigned k = 0; k < v->npf_pend; k++)
		hvpmu_machine_prefetch_unresolved(P.m, v->strand);
	v->npf_pend = 0;
}

static void batch_flush(struct vcpu *v);

static void block_entry(struct vcpu *v, struct tb_info *ti)
{
	const struct tb_info *last = v->prev;

	if (v->npf_pend)
		drop_pending_prefetches(v);
	resolve_pending(v, ti->blk.vaddr, account_prev(v, ti->blk.vaddr));
	set_pending(v, ti);
	if (P.need_memory) {
		/* the strands share caches, L3s and the address space: one at a time */
		if (P.mt && !v->held)
			lock();
		hvpmu_machine_ifetch(P.m, v->strand, ti->blk.vaddr, ti->bytes);
		if (P.mt && !v->held)
			unlock();
	}
	v->act->bound += ti->blk.n;
	if (v->act->bound >= v->act->next_check) {
		if (!v->held)
			lock();
		sync_vcpu(v, last, ti);
		if (!v->held)
			unlock();
	}
	note_entered(v, ti);
}

static inline int entry_fast(struct vcpu *v, struct tb_info *ti, int reached);

/* Several guest threads: without the memory model the common case takes
 * the fast path too (with it, each block entry goes through the batches,
 * or, with HVPMU_BATCH=0, through block_entry() under the lock). */
static void tb_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	if (v) {
		struct tb_info *ti = udata;
		int reached = v->reached_last;

		batch_flush(v);
		if (!P.need_memory && v->prev && v->prev->mt) {
			v->reached_last = 0;
			if (entry_fast(v, ti, reached))
				return;
			v->reached_last = reached;
		}
		block_entry(v, ti);
	}
}

/*
 * Fast path of block_entry(): the common case (previous block completed,
 * `reached`, and not restarted, no sync due) here; returns 0 for
 * everything else, which goes through block_entry().  Same effect as
 * block_entry().  For the single guest thread (tb_exec_st, the model
 * thread) and for a batch being run (batch_run: the lock is held).
 */
static inline int entry_fast(struct vcpu *v, struct tb_info *ti, int reached)
{
	struct tb_info *p = v->prev;
	struct hvpmu_activity *act = v->act;
	uint64_t vaddr = ti->blk.vaddr;

	if (__builtin_expect(!p || !reached || vaddr == p->last_pc || p->slot_annul || (v->pend && vaddr == pend_ds(v)) ||
			     v->npf_pend || act->bound + ti->blk.n >= act->next_check, 0))
		return 0;
	if (p->mt) /* per-vCPU marker: counted here, as account_prev() does */
		add_whole(v, p);
	else
		note_completed(v, p);
	if (P.need_memory)
		hvpmu_machine_ifetch(P.m, v->strand, vaddr, ti->bytes);
	if (v->pend) /* the previous block ran to its end */
		resolve_pending(v, vaddr, 1);
	set_pending(v, ti);
	act->bound += ti->blk.n;
	note_entered(v, ti);
	return 1;
}

static void tb_exec_st(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = &P.vcpu[0];
	struct tb_info *p = v->prev;

	if (__builtin_expect(vcpu_index != 0 || !entry_fast(v, udata, p && p->execs != v->mark_seen), 0))
		tb_exec(vcpu_index, udata);
}

/* Memory model: a data access of `size` bytes by the instruction mi.
 * SPARC accesses are naturally aligned, so one of up to 8 bytes stays in
 * one cache line; QEMU splits block loads and stores into 8-byte accesses. */
static void mem_access(struct vcpu *v, const struct mem_insn *mi, uint64_t vaddr, unsigned size, int store)
{
	if (mi->rec_slot >= 0)
		v->pf_base[mi->rec_slot] = vaddr;
	if (P.mt && !v->held) /* shared caches and address space (docs/coherence-model.md) */
		lock();
	if (mi->after && v->npf_pend) { /* the prefetches waiting for this access go first */
		unsigned keep = 0;

		for (unsigned k = 0; k < v->npf_pend; k++) {
			const struct pf_insn *p = v->pf_pend[k];

			if (p->donor == mi)
				hvpmu_machine_prefetch(P.m, v->strand, p->pc, vaddr + (uint64_t)p->delta, p->dest);
			else
				v->pf_pend[keep++] = p;
		}
		v->npf_pend = keep;
	}
	hvpmu_machine_dref(P.m, v->strand, mi->d.pc, vaddr, size, mi->d.si_flags, mi->is_store || store);
	if (P.mt && !v->held)
		unlock();
}

static void mem_exec(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	if (v) {
		batch_flush(v);
		mem_access(v, udata, vaddr, 1u << qemu_plugin_mem_size_shift(info), qemu_plugin_mem_is_store(info));
	}
}

/* Guest thread only: an access's size and direction follow from its
 * meminfo, which QEMU bakes into the translated code, so they are worked
 * out again only when the instruction's meminfo differs from the one seen
 * last (an atomic's load and store sides alternate: twice per execution). */
static inline void mem_info(struct mem_insn *mi, qemu_plugin_meminfo_t info)
{
	if (__builtin_expect(mi->pinfo != (uint64_t)info, 0)) {
		unsigned shift = qemu_plugin_mem_size_shift(info) & 7u;
		int store = qemu_plugin_mem_is_store(info);

		mi->pcode = (uint8_t)(shift << 2 | (store ? 1u : 0u) << 5);
		mi->d.size = 1u << shift;
		mi->d.is_store = (uint8_t)(mi->is_store || store);
		mi->pinfo = (uint64_t)info;
	}
}

/*
 * Single-threaded fast path of mem_exec() (the callback of blocks
 * translated while one vCPU runs, as tb_exec_st()): one guest thread, so
 * no lock and vCPU 0's strand; an instruction that is no prefetch donor
 * goes straight to the model.  Everything else goes through mem_exec().
 * Same effect as mem_exec().
 */
static void mem_exec_st(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct mem_insn *mi = udata;

	if (__builtin_expect((vcpu_index | (unsigned)P.mt | mi->donor | (unsigned)!P.vcpu[0].live) != 0, 0)) {
		mem_exec(vcpu_index, info, vaddr, udata);
		return;
	}
	mem_info(mi, info);
	hvpmu_machine_dref_insn(P.m, P.vcpu[0].strand, &mi->d, vaddr);
}

/* A software prefetch starts (QEMU reports no memory access for it). */
static void pf_access(struct vcpu *v, const struct pf_insn *p)
{
	if (P.mt && !v->held)
		lock();
	switch (p->how) {
	case HVPMU_PF_ABSOLUTE:
		hvpmu_machine_prefetch(P.m, v->strand, p->pc, (uint64_t)p->delta, p->dest);
		break;
	case HVPMU_PF_BEFORE:
		hvpmu_machine_prefetch(P.m, v->strand, p->pc, v->pf_base[p->slot] + (uint64_t)p->delta, p->dest);
		break;
	case HVPMU_PF_AFTER:
		if (v->npf_pend < PF_PEND)
			v->pf_pend[v->npf_pend++] = p;
		else /* no room to wait */
			hvpmu_machine_prefetch_unresolved(P.m, v->strand);
		break;
	default:
		hvpmu_machine_prefetch_unresolved(P.m, v->strand);
		break;
	}
	if (P.mt && !v->held)
		unlock();
}

static void pf_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	if (v) {
		batch_flush(v);
		pf_access(v, udata);
	}
}

/* ---- batches (docs/event-source.md "Batches") ---- */

/* A REC_MEM record: its mem_insn, the access's size and direction. */
static inline void run_mem_rec(struct vcpu *v, uint64_t w0, uint64_t vaddr)
{
	mem_access(v, (const struct mem_insn *)(uintptr_t)(w0 & ~(uint64_t)(MEM_INSN_ALIGN - 1)), vaddr,
		   1u << ((w0 >> 2) & 7u), (int)((w0 >> 5) & 1u));
}

/*
 * Run v's batch through the model, record by record, as the callbacks
 * would have without it; the caller holds the lock.  The marker of the
 * block running now (v->reached_last) is the guest thread's: kept across.
 */
static void batch_run(struct vcpu *v)
{
	int live = v->reached_last;

	v->held = 1;
	for (uint32_t i = 0; i < v->nb; i++) {
		uint64_t w0 = v->batch[i].w0;

		switch (w0 & REC_KIND) {
		case REC_MEM:
			run_mem_rec(v, w0, v->batch[i].w1);
			break;
		case REC_TB: {
			struct tb_info *ti = (struct tb_info *)(uintptr_t)(w0 & ~UINT64_C(7));
			int reached = (int)((w0 >> 2) & 1u);

			if (!entry_fast(v, ti, reached)) {
				v->reached_last = reached;
				block_entry(v, ti);
			}
			break;
		}
		default: /* REC_PF */
			pf_access(v, (const struct pf_insn *)(uintptr_t)(w0 & ~(uint64_t)REC_KIND));
			break;
		}
	}
	v->nb = 0;
	v->held = 0;
	v->reached_last = live;
}

/* Run v's batch now: before anything else uses the model for v.  Called on
 * v's own thread, or on another while v's thread runs no callback
 * (QEMU's exclusive sections: a translation flush, the exit). */
static void batch_flush(struct vcpu *v)
{
	if (v->nb) {
		lock();
		batch_run(v);
		unlock();
	}
}

/* The vCPU of this host thread, as far as known (set where a callback of
 * its own flushes its batch): the one whose batch a fatal signal's
 * kill() can still run (program_end). */
static __thread struct vcpu *self_vcpu;

/* A full batch: run it, now if the lock is free or when it is at the
 * latest (the guest thread records on meanwhile: the model's work is
 * one thread's at a time, the threads' own work is not). */
static __attribute__((noinline)) void batch_full(struct vcpu *v)
{
	if (v->nb < BATCH_MAX && pthread_mutex_trylock(&P.lock) != 0)
		return;
	if (v->nb == BATCH_MAX)
		lock();
	batch_run(v);
	unlock();
}

static inline void batch_put(struct vcpu *v, uint64_t w0, uint64_t w1)
{
	if (__builtin_expect(v->nb == 0, 0))
		self_vcpu = v; /* a fatal signal may come before the batch is full */
	v->batch[v->nb++] = (struct evrec){ w0, w1 };
	if (__builtin_expect((v->nb & (BATCH_SLOTS - 1)) == 0, 0))
		batch_full(v);
}

/* Guest thread, per block entry: a REC_TB record with the marker of the
 * block entered before (it reached its last instruction). */
static void tb_exec_b(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	if (v) {
		uint64_t reached = v->reached_last != 0;

		v->reached_last = 0;
		batch_put(v, (uintptr_t)udata | reached << 2 | REC_TB, 0);
	}
}

/* Guest thread, per data access: a REC_MEM record, the size and direction
 * from this access's meminfo (a mem_insn is shared by the threads). */
static void mem_exec_b(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	if (v)
		batch_put(v,
			  (uintptr_t)udata | (uint64_t)(qemu_plugin_mem_size_shift(info) & 7u) << 2 |
				  (uint64_t)(qemu_plugin_mem_is_store(info) != 0) << 5 | REC_MEM,
			  vaddr);
}

static void pf_exec_b(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	if (v)
		batch_put(v, (uintptr_t)udata | REC_PF, 0);
}

/* Marker in multi-threaded mode: the block reached its last instruction. */
static void last_exec_mt(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	(void)udata;
	if (v)
		v->reached_last = 1;
}

/* Fill ti->hist from ti->cls (classes in first-seen order). */
static void build_histogram(struct tb_info *ti, struct class_count *h)
{
	uint32_t nh = 0;

	for (uint32_t i = 0; i < ti->blk.n; i++) {
		uint32_t k = 0;

		while (k < nh && h[k].cls != ti->cls[i])
			k++;
		if (k == nh)
			h[nh++] = (struct class_count){ ti->cls[i], 0 };
		h[k].n++;
	}
	ti->hist = h;
	ti->nhist = nh;
}

/* The instruction's word in host order (0 if it is not one word). */
static uint32_t insn_word(struct qemu_plugin_insn *insn)
{
	if (qemu_plugin_insn_size(insn) != P.isa->insn_bytes)
		return 0;
	return hvpmu_isa_word(P.isa, qemu_plugin_insn_data(insn));
}

/* Translation scratch of the memory model (under the lock): per
 * instruction of the block being translated, its memory-callback data and
 * its prefetch data.  Both live as long as the translation info: until exit. */
#define TB_SCRATCH 512
static struct {
	uint32_t word[TB_SCRATCH];
	struct mem_insn *mi[TB_SCRATCH];
	struct pf_insn *pf[TB_SCRATCH];
} T;

/* Fill T for the block: data accesses get a mem_insn, prefetches a
 * pf_insn linked to their donor (hvpmu_prefetch_resolve()). */
static void prepare_memory(struct qemu_plugin_tb *tb, size_t n)
{
	unsigned slots = 0;

	if (n > TB_SCRATCH)
		n = TB_SCRATCH; /* longer blocks (none with QEMU's 512-insn limit): rest unmodeled */
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		struct hvpmu_insn d;

		T.word[i] = insn_word(insn);
		T.mi[i] = NULL;
		T.pf[i] = NULL;
		P.isa->decode(T.word[i], 0, &d);
		if ((d.flags & (HVPMU_IC_LOAD | HVPMU_IC_STORE | HVPMU_IC_ATOMIC)) &&
		    (T.mi[i] = aligned_alloc(MEM_INSN_ALIGN, MEM_INSN_ALIGN))) {
			memset(T.mi[i], 0, sizeof *T.mi[i]);
			T.mi[i]->d.pc = qemu_plugin_insn_vaddr(insn);
			T.mi[i]->d.si_flags = d.flags;
			T.mi[i]->is_store = (d.flags & HVPMU_IC_STORE) != 0;
			T.mi[i]->rec_slot = -1;
			T.mi[i]->pinfo = UINT64_MAX;
		}
		if ((d.flags & HVPMU_IC_PREFETCH) && P.isa->prefetch_resolve &&
		    (T.pf[i] = calloc(1, sizeof *T.pf[i]))) {
			T.pf[i]->pc = qemu_plugin_insn_vaddr(insn);
			T.pf[i]->dest = (uint8_t)P.isa->prefetch_dest(T.word[i]);
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct pf_insn *p = T.pf[i];
		struct hvpmu_pf_link l;

		if (!p)
			continue;
		P.isa->prefetch_resolve(T.word, (uint32_t)n, (uint32_t)i, &l);
		if ((l.how == HVPMU_PF_BEFORE || l.how == HVPMU_PF_AFTER) && !T.mi[l.donor])
			l.how = HVPMU_PF_UNRESOLVED; /* out of memory */
		if (l.how == HVPMU_PF_BEFORE && T.mi[l.donor]->rec_slot < 0) {
			if (slots == PF_SLOTS)
				l.how = HVPMU_PF_UNRESOLVED;
			else
				T.mi[l.donor]->rec_slot = (int8_t)slots++;
		}
		p->how = (uint8_t)l.how;
		p->delta = l.delta;
		if (l.how == HVPMU_PF_BEFORE)
			p->slot = (uint8_t)T.mi[l.donor]->rec_slot;
		if (l.how == HVPMU_PF_AFTER) {
			p->donor = T.mi[l.donor];
			T.mi[l.donor]->after = 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (T.mi[i])
			T.mi[i]->donor = T.mi[i]->rec_slot >= 0 || T.mi[i]->after;
}

/* Where a block of n instructions keeps its histogram: after cls[n]. */
static size_t tb_hist_offset(size_t n)
{
	return (sizeof(struct tb_info) + n + _Alignof(struct class_count) - 1) / _Alignof(struct class_count) *
	       _Alignof(struct class_count);
}

/*
 * The model's instruction classes of a translated block (machine classes
 * are registered in first-seen order, by the kernel path as well, so only
 * the thread that runs the model may assign them): ti->cls and the
 * histogram, from the decode flags kept since translation.
 */
static void finish_tb(struct tb_info *ti)
{
	for (uint32_t i = 0; i < ti->blk.n; i++) {
		int cls = hvpmu_machine_class(P.m, ti->flags[i]);

		ti->cls[i] = (uint8_t)(cls < 0 ? P.fallback_class : cls);
	}
	ti->last_cls = ti->cls[ti->blk.n - 1];
	build_histogram(ti, (struct class_count *)((char *)ti + tb_hist_offset(ti->blk.n)));
	free(ti->flags);
	ti->flags = NULL;
}

static void tb_exec_off(unsigned int vcpu_index, void *udata);
static void mem_exec_off(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
static void pf_exec_off(unsigned int vcpu_index, void *udata);
static void ring_put_ctl(unsigned op, uint64_t arg);

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct tb_info *ti = calloc(1, tb_hist_offset(n) + n * sizeof(struct class_count));
	int off = P.off;
	/* who runs the model: the model thread (records in its ring), the
	 * guest thread in batches (several threads), or the guest thread at
	 * once (one thread: the fast paths; several: under the lock) */
	qemu_plugin_vcpu_udata_cb_t tb_cb = off ? tb_exec_off : P.batch ? tb_exec_b : P.mt ? tb_exec : tb_exec_st;
	qemu_plugin_vcpu_udata_cb_t pf_cb = off ? pf_exec_off : P.batch ? pf_exec_b : pf_exec;
	qemu_plugin_vcpu_mem_cb_t mem_cb = off ? mem_exec_off : P.batch ? mem_exec_b : P.mt ? mem_exec : mem_exec_st;

	(void)id;
	if (!ti || n == 0 || !(ti->flags = malloc(n * sizeof *ti->flags))) {
		free(ti);
		return;
	}
	ti->blk.vaddr = qemu_plugin_tb_vaddr(tb);
	ti->blk.n = (uint32_t)n;
	ti->blk.cond_cti = -1;
	ti->blk.cti = -1;
	ti->blk.cls = ti->cls;
	ti->bytes = (uint32_t)(n * P.isa->insn_bytes);
	ti->last_pc = ti->blk.vaddr + (n - 1) * P.isa->insn_bytes;
	ti->mt = P.mt;
	lock();
	ti->next_alloc = P.allocs;
	P.allocs = ti;
	if (P.need_memory)
		prepare_memory(tb, n);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		struct hvpmu_insn d;
		uint32_t word = insn_word(insn);

		P.isa->decode(word, pc, &d);
		ti->flags[i] = d.flags;
		if (d.flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) {
			ti->blk.cti = (int32_t)i;
			ti->blk.cond_cti = (d.flags & HVPMU_IC_CTI_COND) && d.has_target ? (int32_t)i : -1;
			ti->cti_target = d.has_target ? d.target : 0;
			ti->cti_pc = pc;
			ti->cti_ds = pc + P.isa->insn_bytes;
			ti->cti_flags = d.flags;
			ti->cti_annul = (d.flags & HVPMU_IC_CTI_COND) && d.annul && !P.isa->annul_in_block;
			ti->slot_annul = (d.flags & HVPMU_IC_CTI_COND) && d.annul && P.isa->annul_in_block &&
					 i + 2 == n && d.has_target;
		}
		if (P.need_memory && i < TB_SCRATCH && T.mi[i])
			qemu_plugin_register_vcpu_mem_cb(insn, mem_cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, T.mi[i]);
		if (P.need_memory && i < TB_SCRATCH && T.pf[i])
			qemu_plugin_register_vcpu_insn_exec_cb(insn, pf_cb, QEMU_PLUGIN_CB_NO_REGS, T.pf[i]);
		if (i + 1 < n)
			continue;
		if (P.mt)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, last_exec_mt, QEMU_PLUGIN_CB_NO_REGS, NULL);
		else
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &ti->execs, 1);
	}
	if (!off)
		finish_tb(ti);
	unlock();
	/* the model thread assigns the classes, before the block's first
	 * entry; not under the lock: the put may wait for the model thread,
	 * which may need the lock to get on */
	if (off)
		ring_put_ctl(CTL_TRANS, (uintptr_t)ti);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_cb, QEMU_PLUGIN_CB_NO_REGS, ti);
}

/* Tell the machine about a guest-OS event of the strand (its activity
 * is accounted and synced already). */
static void os_event(enum hvpmu_os_event ev, uint32_t strand, int64_t num, const uint64_t *args, int64_t ret)
{
	struct hvpmu_os_call c = { .ev = ev, .strand = strand, .num = num, .ret = ret };

	if (args)
		memcpy(c.args, args, sizeof c.args);
	hvpmu_machine_os_event(P.m, &c);
}

/* Account everything the vCPU ran so far and sync its strand: before its
 * thread or the program ends. */
static void flush_vcpu(struct vcpu *v)
{
	const struct tb_info *last = v->prev;

	drop_pending_prefetches(v);
	account_prev(v, 0);
	sync_vcpu(v, last, NULL);
}

/* A system call starts (args: its first six arguments).  The trap
 * instruction (last of its block) retired in user mode; the guest OS takes
 * it (hvpmu_machine_os_event).  exit_group ends every thread: each one's
 * activity is accounted first. */
static void syscall_entry(struct vcpu *v, int64_t num, const uint64_t *args)
{
	const struct tb_info *last;

	lock();
	last = v->prev;
	account_prev(v, 0);
	resolve_pending(v, 0, 1);
	sync_vcpu(v, last, NULL);
	if (num == P.isa->sc.exit_group && P.batch) {
		/* The other threads' batches can run only at the end (program_end):
		 * their threads record on until QEMU stops them.  The guest OS
		 * stops every strand's counters at exit_group, so it hears of it
		 * then, after those batches. */
		P.exit_pending = 1;
		P.exit_call = (struct hvpmu_os_call){ .ev = HVPMU_OS_SYSCALL, .strand = v->strand, .num = num };
		memcpy(P.exit_call.args, args, sizeof P.exit_call.args);
		unlock();
		return;
	}
	if (num == P.isa->sc.exit_group || num == P.isa->sc.exit)
		for (uint32_t i = 0; i < P.nvcpu; i++)
			if (P.vcpu[i].live && (&P.vcpu[i] == v || num == P.isa->sc.exit_group))
				flush_vcpu(&P.vcpu[i]);
	os_event(HVPMU_OS_SYSCALL, v->strand, num, args, 0);
	unlock();
}

/* A system call returns `ret`. */
static void syscall_return(struct vcpu *v, int64_t num, int64_t ret)
{
	lock();
	os_event(HVPMU_OS_SYSRET, v->strand, num, NULL, ret);
	unlock();
}


/* ---- model thread (docs/event-source.md "Model thread") ---- */

/* Guest thread: did the block entered last reach its last instruction? */
static inline uint64_t prod_reached(void)
{
	return P.prod_prev && P.prod_prev->execs != P.prod_mark ? CTL_REACHED : 0;
}

static void ring_put_ctl(unsigned op, uint64_t arg)
{
	evring_put(&P.ring, CTL(op) | (op == CTL_FLUSH ? prod_reached() : 0), arg);
}

/* Guest thread, per block entry: one record. */
static void tb_exec_off(unsigned int vcpu_index, void *udata)
{
	struct tb_info *ti = udata, *p = P.prod_prev;
	uint64_t reached;

	if (__builtin_expect(!P.off || vcpu_index != 0, 0)) { /* the model thread stopped */
		tb_exec_st(vcpu_index, udata);
		return;
	}
	reached = p && p->execs != P.prod_mark;
	P.prod_prev = ti;
	P.prod_mark = ti->execs;
	evring_put(&P.ring, (uintptr_t)ti | reached << 2 | REC_TB, 0);
}

/* Guest thread, per data access: one record, with the access's size and
 * direction from mem_info(). */
static void mem_exec_off(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct mem_insn *mi = udata;

	if (__builtin_expect(!P.off || vcpu_index != 0, 0)) {
		mem_exec(vcpu_index, info, vaddr, udata);
		return;
	}
	mem_info(mi, info);
	evring_put(&P.ring, (uintptr_t)mi | mi->pcode | REC_MEM, vaddr);
}

static void pf_exec_off(unsigned int vcpu_index, void *udata)
{
	if (__builtin_expect(!P.off || vcpu_index != 0, 0)) {
		pf_exec(vcpu_index, udata);
		return;
	}
	evring_put(&P.ring, (uintptr_t)udata | REC_PF, 0);
}

static void flush_all(void);

/* Model thread: one control record (of `*len` slots).  Returns 0 at CTL_STOP. */
static int run_ctl(struct vcpu *v, const struct evrec *e, size_t *len)
{
	*len = 1;
	switch (CTL_OP(e->w0)) {
	case CTL_TRANS:
		finish_tb((struct tb_info *)(uintptr_t)e->w1);
		break;
	case CTL_SYSCALL: {
		const uint64_t args[6] = { e[1].w0, e[1].w1, e[2].w0, e[2].w1, e[3].w0, e[3].w1 };

		*len = 4;
		if (v) {
			v->reached_last = (e->w0 & CTL_REACHED) != 0;
			syscall_entry(v, (int64_t)e->w1, args);
		}
		break;
	}
	case CTL_SYSRET:
		*len = 2;
		if (v)
			syscall_return(v, (int64_t)e->w1, (int64_t)e[1].w0);
		break;
	case CTL_FLUSH:
		if (v)
			v->reached_last = (e->w0 & CTL_REACHED) != 0;
		flush_all();
		break;
	case CTL_STOP:
		return 0;
	default: /* CTL_NOP: padding */
		break;
	}
	return 1;
}

/* Model thread: everything the guest thread's callbacks would have done
 * without it, record by record, in order (vCPU 0 only). */
static void *model_thread(void *arg)
{
	(void)arg;
	for (;;) {
		const struct evrec *r;
		size_t n = evring_peek(&P.ring, &r), i = 0, len;
		struct vcpu *v = vcpu_of(0);

		while (i < n) {
			uint64_t w0 = r[i].w0;

			/* the lines the guest thread wrote last come from its
			 * core: ask early (a prefetch never faults past the span) */
			__builtin_prefetch(&r[i + EVRING_AHEAD]);
			switch (w0 & REC_KIND) {
			case REC_MEM:
				if (v)
					run_mem_rec(v, w0, r[i].w1);
				i++;
				break;
			case REC_TB:
				if (v) {
					struct tb_info *ti = (struct tb_info *)(uintptr_t)(w0 & ~UINT64_C(7));
					int reached = (int)((w0 >> 2) & 1u);

					if (!entry_fast(v, ti, reached)) {
						v->reached_last = reached;
						block_entry(v, ti);
					}
				}
				i++;
				break;
			case REC_PF:
				if (v)
					pf_access(v, (const struct pf_insn *)(uintptr_t)(w0 & ~(uint64_t)REC_KIND));
				i++;
				break;
			default:
				if (!run_ctl(v, &r[i], &len)) {
					evring_release(&P.ring, i + 1);
					return NULL;
				}
				i += len;
				break;
			}
		}
		evring_release(&P.ring, n);
	}
}

/* Start the model thread (single guest thread only).  Returns 0, or -1
 * when it cannot run (the guest thread then runs the model itself). */
static int offload_start(void)
{
	sigset_t all, old;
	int err;
	const char *ring = getenv("HVPMU_MODEL_THREAD_RING"); /* testing: log2 of the slots */

	if (evring_init(&P.ring, ring ? (unsigned)atoi(ring) : RING_LOG2))
		return -1;
	/* QEMU handles the guest's signals on its vCPU threads: the model
	 * thread takes none */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&P.thr, NULL, model_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		evring_destroy(&P.ring);
		return -1;
	}
	P.off = 1;
	return 0;
}

/*
 * Let the model thread catch up and end; from then on the guest threads
 * run the model themselves.  The inline counters of the blocks are handed
 * over: every entry but the running block's is accounted, so each block's
 * executions so far are expanded, and the running block's last
 * instruction has started iff its counter moved since its entry.
 */
static void offload_stop(void)
{
	struct vcpu *v0 = vcpu_of(0);

	if (!P.off)
		return;
	evring_drain(&P.ring);
	evring_put(&P.ring, CTL(CTL_STOP), 0);
	evring_publish(&P.ring, 1);
	pthread_join(P.thr, NULL);
	evring_destroy(&P.ring);
	lock();
	for (uint32_t i = 0; i < P.nvcpu; i++)
		if (P.vcpu[i].live)
			expand_dirty(&P.vcpu[i]);
	P.off = 0;
	for (struct tb_info *t = P.allocs; t; t = t->next_alloc)
		t->synced_execs = t->execs;
	if (v0 && v0->prev) {
		v0->prev->synced_execs = P.prod_mark;
		v0->mark_seen = P.prod_mark;
	}
	unlock();
}

static void syscall_cb(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1,
		       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	struct vcpu *v = vcpu_of(vcpu_index);
	const uint64_t args[6] = { a1, a2, a3, a4, a5, a6 };

	(void)id; (void)a7; (void)a8;
	if (P.off && (num == P.isa->sc.fork || num == P.isa->sc.vfork || num == P.isa->sc.clone ||
		      num == P.isa->sc.clone3))
		offload_stop(); /* a child process would have no model thread: run in the guest thread */
	if (P.off && vcpu_index == 0) {
		struct evrec *e = evring_reserve(&P.ring, 4, (struct evrec){ CTL(CTL_NOP), 0 });

		e[0] = (struct evrec){ CTL(CTL_SYSCALL) | prod_reached(), (uint64_t)num };
		e[1] = (struct evrec){ a1, a2 };
		e[2] = (struct evrec){ a3, a4 };
		e[3] = (struct evrec){ a5, a6 };
		evring_commit(&P.ring, 4);
		return;
	}
	if (v) {
		self_vcpu = v;
		batch_flush(v);
		syscall_entry(v, num, args);
	}
}

static void syscall_ret_cb(qemu_plugin_id_t id, unsigned int vcpu_idx, int64_t num, int64_t ret)
{
	struct vcpu *v = vcpu_of(vcpu_idx);

	(void)id;
	if (P.off && vcpu_idx == 0) {
		struct evrec *e = evring_reserve(&P.ring, 2, (struct evrec){ CTL(CTL_NOP), 0 });

		e[0] = (struct evrec){ CTL(CTL_SYSRET), (uint64_t)num };
		e[1] = (struct evrec){ (uint64_t)ret, 0 };
		evring_commit(&P.ring, 2);
		return;
	}
	if (v) {
		batch_flush(v);
		syscall_return(v, num, ret);
	}
}

static void register_callbacks(qemu_plugin_id_t id);

/* Every block is translated anew from here (the reset flushed them all),
 * with per-vCPU callbacks: in batches when the memory model runs. */
static void reset_done(qemu_plugin_id_t id)
{
	const char *b = getenv("HVPMU_BATCH"); /* testing: 0 runs the model at every callback */

	P.batch = P.mt && P.need_memory && !(b && strcmp(b, "0") == 0);
	register_callbacks(id);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct vcpu *v;
	int go_mt = 0;

	if (P.off && vcpu_index > 0)
		offload_stop(); /* several guest threads: the model runs in theirs, under the lock */
	else if (P.off)
		evring_drain(&P.ring); /* the model thread is idle while this one uses the model */
	lock();
	if (vcpu_index >= P.nvcpu) {
		fprintf(stderr, "hvpmu: guest thread %u has no strand (machine has %u); not counted\n",
			vcpu_index, P.nvcpu);
		unlock();
		return;
	}
	v = &P.vcpu[vcpu_index];
	if (!v->live) {
		/* QEMU gives a new thread the index of one that exited (the
		 * highest free): its batch buffer serves again */
		struct evrec *batch = v->batch;

		memset(v, 0, sizeof *v);
		v->batch = batch;
		if (P.need_memory && !v->batch && !(v->batch = malloc(BATCH_MAX * sizeof *v->batch))) {
			fprintf(stderr, "hvpmu: out of memory for guest thread %u; not counted\n", vcpu_index);
			unlock();
			return;
		}
		v->live = 1;
		v->strand = hvpmu_md_vcpu_strand(hvpmu_machine_md(P.m), vcpu_index);
		v->act = hvpmu_machine_activity(P.m, v->strand);
		os_event(HVPMU_OS_THREAD_START, v->strand, 0, NULL, 0);
		if (vcpu_index > 0 && !P.mt) {
			for (uint32_t i = 0; i < P.nvcpu; i++)
				expand_dirty(&P.vcpu[i]);
			P.mt = 1;
			go_mt = 1;
		}
	}
	unlock();
	if (go_mt) /* re-translate everything with per-vCPU callbacks */
		qemu_plugin_reset(id, reset_done);
}

static void vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct vcpu *v = vcpu_of(vcpu_index);

	(void)id;
	if (P.off)
		evring_drain(&P.ring);
	if (!v)
		return;
	batch_flush(v);
	lock();
	flush_vcpu(v);
	os_event(HVPMU_OS_THREAD_EXIT, v->strand, 0, NULL, 0);
	v->live = 0; /* the index is free: QEMU may give it to the next thread */
	unlock();
	if (self_vcpu == v)
		self_vcpu = NULL;
}

static void flush_all(void)
{
	/* Translation blocks are gone: no block may be referenced any more.
	 * Their tb_info stay allocated until exit (bounded by translations).
	 * QEMU flushes them with every vCPU stopped: their batches run now. */
	for (uint32_t i = 0; i < P.nvcpu; i++)
		if (P.vcpu[i].live)
			batch_flush(&P.vcpu[i]);
	lock();
	for (uint32_t i = 0; i < P.nvcpu; i++) {
		account_prev(&P.vcpu[i], 0);
		expand_dirty(&P.vcpu[i]);
	}
	unlock();
}

static void flush_cb(qemu_plugin_id_t id)
{
	(void)id;
	if (P.off) {
		ring_put_ctl(CTL_FLUSH, 0);
		P.prod_prev = NULL; /* the next block entry has no predecessor */
	} else {
		flush_all();
	}
}

/* The program ends (sig 0: it exited; else that signal ends it): every
 * vCPU's activity is accounted, then the guest OS takes its last samples
 * and reports (HVPMU_OS_HALT).  Once. */
static void program_end(int sig)
{
	if (P.ended)
		return;
	offload_stop();
	/* At the exit QEMU has taken every callback off (qemu_plugin_user_exit):
	 * every batch can run.  A fatal signal's kill() comes while the other
	 * threads may still be recording: only this thread's batch runs, the
	 * others' last records are lost (docs/event-source.md "Batches"). */
	if (!sig) {
		for (uint32_t i = 0; i < P.nvcpu; i++)
			if (P.vcpu[i].live)
				batch_flush(&P.vcpu[i]);
	} else if (self_vcpu) {
		batch_flush(self_vcpu);
	}
	lock();
	if (!P.ended) {
		P.ended = 1;
		for (uint32_t i = 0; i < P.nvcpu; i++) {
			struct vcpu *v = &P.vcpu[i];

			if (!v->live)
				continue;
			if (v->nb) {
				/* records that will not run: the block entered
				 * last was not reached, its successor is unknown */
				v->prev = NULL;
				v->reached_last = 0;
				v->pend = 0;
			}
			flush_vcpu(v);
		}
		if (P.exit_pending)
			hvpmu_machine_os_event(P.m, &P.exit_call);
		os_event(HVPMU_OS_HALT, 0, sig, NULL, 0);
	}
	unlock();
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id; (void)udata;
	program_end(0);
}

/*
 * The program dies of a signal.  QEMU 7.2's linux-user gives plugins no
 * last word then (dump_core_and_abort runs no atexit callback): it resets
 * the host signal to SIG_DFL and sends it to itself with kill(getpid(),
 * sig).  The tools preload this library into the emulator (LD_PRELOAD;
 * the program does not see the variable: qemu -U LD_PRELOAD), so the
 * kill() below is the one QEMU calls: for a signal to the process itself
 * whose action is the default and ends the process, the end is reported
 * first, with every other signal held off until it is, then the signal is
 * sent.  Every other kill() goes straight to the system call.  Without
 * the preload (qemu -plugin by hand) the emulator binds the C library's
 * kill and the tool has the counts of the last OS tick (docs/cli.md "How
 * a run ends").
 */
static int ends_process(int sig)
{
	struct sigaction sa;

	switch (sig) {
	case 0: case SIGCHLD: case SIGCONT: case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
	case SIGURG: case SIGWINCH: /* ignored or stopping by default */
		return 0;
	default:
		return sigaction(sig, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL;
	}
}

__attribute__((visibility("default"))) int kill(pid_t pid, int sig);
int kill(pid_t pid, int sig)
{
	if (pid == getpid() && P.m && !P.ended && ends_process(sig)) {
		sigset_t all, old;

		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		program_end(sig);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	return (int)syscall(SYS_kill, pid, sig);
}

static void register_callbacks(qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_exit_cb(id, vcpu_exit);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_vcpu_syscall_cb(id, syscall_cb);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, syscall_ret_cb);
	qemu_plugin_register_flush_cb(id, flush_cb);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
}

int hvpmu_qemu_source_start(uint64_t id, const struct qemu_info_t *info, struct hvpmu_machine *m,
			    const struct hvpmu_isa *isa)
{
	unsigned features = hvpmu_machine_features(m);

	if (info->version.cur < HVPMU_QEMU_PLUGIN_VERSION || info->version.min > HVPMU_QEMU_PLUGIN_VERSION) {
		fprintf(stderr, "hvpmu plugin: needs plugin API version %d, QEMU offers %d..%d\n",
			HVPMU_QEMU_PLUGIN_VERSION, info->version.min, info->version.cur);
		return -1;
	}
	if (!info->target_name || strcmp(info->target_name, isa->qemu_target) != 0 || info->system_emulation) {
		fprintf(stderr, "hvpmu plugin: the machine's %s programs run only under %s user mode (got %s)\n",
			isa->name, isa->qemu_user, info->target_name ? info->target_name : "?");
		return -1;
	}
	P.m = m;
	P.isa = isa;
	P.need_taken = (features & HVPMU_FEAT_TAKEN) != 0;
	P.need_branches = (features & HVPMU_FEAT_BRANCHES) != 0;
	P.need_memory = (features & HVPMU_FEAT_MEMORY) != 0;
	/* class used if 64 distinct classes were ever exceeded: a NOP's */
	P.fallback_class = hvpmu_machine_class(P.m, HVPMU_IC_OTHER);
	P.nvcpu = hvpmu_machine_nstrands(P.m);
	P.vcpu = calloc(P.nvcpu, sizeof *P.vcpu);
	if (!P.vcpu) {
		fprintf(stderr, "hvpmu plugin: out of memory\n");
		return -1;
	}
	/* HVPMU_MODEL_THREAD=1: the memory model runs on a thread of its own
	 * (docs/event-source.md "Model thread": off by default, it measured
	 * slower on the 2-vCPU development machine; without the memory model
	 * the per-block work is smaller than the records' cost); if it cannot
	 * start, the guest thread runs the model */
	if (P.need_memory && getenv("HVPMU_MODEL_THREAD") && strcmp(getenv("HVPMU_MODEL_THREAD"), "1") == 0)
		offload_start();
	/* A thread may hold the lock in a system-call callback (outside QEMU's
	 * exclusive section) while another forks: the child would inherit it
	 * held.  Forks take it first. */
	if (pthread_atfork(lock, unlock, unlock) != 0) {
		fprintf(stderr, "hvpmu plugin: pthread_atfork failed\n");
		return -1;
	}
	P.id = id;
	register_callbacks(id);
	return 0;
}
