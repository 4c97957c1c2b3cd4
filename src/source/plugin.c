/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QEMU event source of layer 1 (hvpmu/qemu_source.h): a TCG plugin
 * for QEMU 10 user mode (plugin API v4, src/source/qemu_glue.h) that
 * reports a program's activity to a machine (hvpmu/machine.h) and does
 * nothing else.  The session host (src/supervisor/session_qemu.c) builds
 * the run and starts it; the machine's ISA (hvpmu/isa.h) decodes each
 * translated instruction once into a class, and the plugin keeps, per
 * translation block, the histogram of its classes.  On the exact path,
 * per executed block it costs one inline add (the block's own completion
 * counter, a scoreboard slot, at its last instruction) and one exec
 * callback at block entry, which:
 *   - accounts the previous block: all of it if it reached its last
 *     instruction (its completion counter moved; whole executions are
 *     expanded into class counts lazily, before the machine syncs) -- minus
 *     that last instruction if this block restarts it after a trap
 *     (register-window spill/fill) -- or, if it was left early and this
 *     block restarts one of its instructions, exactly the instructions
 *     before that one.  Counts are exact per retired instruction
 *     (docs/event-source.md);
 *   - resolves the previous block's conditional branch (taken iff this
 *     block starts at its target, or from its registers where the
 *     addresses cannot tell; docs/branch-prediction.md "Outcomes");
 *   - keeps the upper bound the machine model uses to sync exactly when a
 *     counter could wrap or the OS tick is due (hvpmu/machine.h).
 * A run that shows only its totals gives most blocks no callback at all
 * (docs/event-source.md "Totals only"), with any number of threads.
 * What it reports beyond retired instructions follows the machine's
 * features (taken outcomes, branch outcomes, memory references).  The
 * guest OS's events -- a thread starts or ends, a system call enters and
 * returns, the program ends -- go to the machine (hvpmu_machine_os_event)
 * after the strand's activity is accounted.  Guest threads (vCPUs) map to
 * strands by the description's placement.  Every counter is a scoreboard
 * slot with a row per vCPU; with more than one guest thread the exact
 * path re-translates with callbacks that take the lock where the model
 * is shared (tb_exec, or batches with the memory model).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <hvpmu/hvpmu.h>
#include "qemu_glue.h"
#include <hvpmu/qemu_source.h>
#include "feed.h"
#include "turns.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = HVPMU_QEMU_PLUGIN_VERSION;


/*
 * The run (struct feed) of this process, for the callbacks QEMU's API
 * gives no data of the plugin's own: vCPU init and exit, translation,
 * system call entry and return, the translation flush and the end of a
 * reset (qemu_plugin_reset); and for what is no QEMU callback at all: the
 * interposed kill() and the fork handlers (pthread_atfork).  Every other
 * callback reaches the run from its data (tb_info.feed, mem_insn.feed,
 * pf_insn.feed, cond_insn.feed, the run itself).  Set once, at the
 * source's start (docs/event-source.md "The run").
 */
static struct feed *the_run;

/* Blocks translated now record into their vCPU's batch: several threads
 * and the memory model (HVPMU_BATCH=0, for tests: the model at every
 * callback, under the lock). */
static int batch_wanted(const struct feed *f)
{
	const char *b = getenv("HVPMU_BATCH");

	return f->mt && f->need_memory && !(b && strcmp(b, "0") == 0);
}

static void reset_done(qemu_plugin_id_t id);

/* ---- threads in turns (turns.h; docs/event-source.md "Turns") ---- */

/* vCPU i's turn is given: its row of turn_slot counts down the turn's
 * instructions (under turns.mu: its thread waits). */
static void turn_arm(void *ctx, uint32_t i, uint64_t left)
{
	struct feed *f = ctx;

	*feed_slot_v(f, f->turn_slot, &f->vcpu[i]) = left;
}

/* A block entry of a vCPU past its turn's end (the block-level conditional
 * callback on its row of turn_slot, every block when turns are on): leave
 * the loop once this block has run. */
static void turn_over_cb(unsigned int vcpu_index, void *udata)
{
	struct feed *f = udata; /* the run */

	if (vcpu_of(f, vcpu_index) && turns_over(&f->turn, (int)vcpu_index))
		qemu_plugin_vcpu_exit_request(vcpu_index);
}

/* The vCPU left QEMU's execution loop (a system call, a signal, its turn
 * over, its first entry): wait here for its turn when it is not its own;
 * before it passes the turn it runs its batch, so that the model takes
 * the threads' references turn by turn. */
static void turn_idle(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct feed *f = the_run; /* (no data: the API's idle callback has none) */
	struct vcpu *v = vcpu_of(f, vcpu_index);

	(void)id;
	if (!v || !turns_idle_needed(&f->turn, (int)vcpu_index))
		return;
	if (f->mq.on) /* the model takes this turn's references before the next one's */
		feed_mq_put(f, v);
	else
		feed_batch_flush(f, v);
	turns_idle(&f->turn, (int)vcpu_index);
}

/*
 * The first clone that makes a thread, at its system call (the only
 * guest thread, vCPU v, is in its callback: the same point of the program
 * on every run): turns start, v's first.  Every block is translated anew
 * (reset_done, once this thread has left the execution loop: the new
 * thread waits for its turn meanwhile) with the callbacks of several
 * threads and its turn count (turn.slot, tb_trans); totals only goes on
 * (qswitch 3); the model queue starts there.
 */
/* The machine's time for the guest's clocks (gtime.now): after the
 * batches handed over so far (lock() waits for the model queue). */
static uint64_t gtime_now(void *ctx)
{
	struct feed *f = ctx;
	uint64_t now;

	lock(f);
	now = hvpmu_machine_now(f->m);
	unlock(f);
	return now;
}

/* gtime.lagged: with the model queue, its time a few batches back, which
 * needs no wait for the queue (feed_mq_lagged_now); without it, the time
 * now (lock() waits for nothing).  Under turns.mu, where the batches
 * handed over so far are the turns' (the holder's batch is handed over
 * before the next turn starts). */
static uint64_t gtime_lagged(void *ctx)
{
	struct feed *f = ctx;

	return f->mq.on ? feed_mq_lagged_now(f) : gtime_now(ctx);
}

/* QEMU's system-call filter (our patch 0004): the guest's clocks, sleeps
 * and futex deadlines in modeled time once the turns run (gtime.h). */
static bool gtime_filter_cb(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1, uint64_t a2,
			    uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8, uint64_t *sysret)
{
	struct feed *f = the_run; /* (no data: the API's filter has none) */

	(void)id;
	(void)a7;
	(void)a8;
	return f && f->gtime.on && vcpu_of(f, vcpu_index) &&
	       gtime_filter(&f->gtime, (int)vcpu_index, num, (const uint64_t[6]){ a1, a2, a3, a4, a5, a6 }, sysret);
}

static void turn_engage(struct feed *f, int me)
{
	int go;

	lock(f);
	go = !f->qswitch; /* (else a re-translation is asked for already) */
	if (go && f->qclass)
		f->qswitch = 3; /* totals only goes on: its blocks count their turns too */
	f->mt = 1;
	unlock(f);
	turns_engage(&f->turn, me);
	if (f->gtime_filter) /* (the guest's clocks: modeled from here) */
		gtime_start(&f->gtime);
	if (go)
		qemu_plugin_reset(f->id, reset_done);
}

/* Several guest threads: without the memory model the common case takes
 * the fast path too (with it, each block entry goes through the batches,
 * or, with HVPMU_BATCH=0, through feed_block_entry() under the lock). */
static void entry_mt(struct feed *f, unsigned int vcpu_index, struct tb_info *ti)
{
	struct vcpu *v = vcpu_of(f, vcpu_index);

	if (v) {
		struct tb_info *p = v->prev;

		feed_batch_flush(f, v);
		/* the block entered before reached its end iff its counter (v's
		 * row) moved since its entry */
		if (!f->need_memory && p && p->mt && entry_fast(f, v, ti, feed_execs_v(v, p) != v->mark_seen))
			return;
		feed_block_entry(f, v, ti);
	}
}

static void tb_exec(unsigned int vcpu_index, void *udata)
{
	struct tb_info *ti = udata;

	entry_mt(ti->feed, vcpu_index, ti);
}

/* One guest thread: the fast path of every block entry, for every mode. */
static __attribute__((noinline)) void entry_st(struct feed *f, unsigned int vcpu_index, struct tb_info *ti)
{
	struct vcpu *v = &f->vcpu[0];
	struct tb_info *p = v->prev;

	if (__builtin_expect(vcpu_index != 0 || !entry_fast(f, v, ti, p && feed_execs(p) != v->mark_seen), 0))
		entry_mt(f, vcpu_index, ti);
}

static void tb_exec_st(unsigned int vcpu_index, void *udata)
{
	struct tb_info *ti = udata;

	entry_st(ti->feed, vcpu_index, ti);
}


/*
 * Instruction events only (no memory model, no branch model) and one
 * guest thread: the block-entry callback of blocks translated then.  The
 * case every block entry but a few takes, with the effect of
 * entry_fast() and nothing it does not need: the block entered before
 * reached its last instruction (its inline counter moved), was not
 * restarted there and is no block of several threads (tb_info.mt) and has
 * no in-block annulled slot;
 * no sync is due; the pending conditional CTI (only with taken-branch
 * events) is decided by this block's address as resolve_pending() does,
 * unless this block is the delay slot of one that does not annul (then
 * it stays pending).  Its fields are in the first line of each tb_info,
 * the outcome precomputed (tb_info.pends, taken_at, wait_at).
 * Everything else goes through tb_exec_st().
 * docs/event-source.md "Instruction events only".
 */
static void tb_exec_insn(unsigned int vcpu_index, void *udata)
{
	struct tb_info *ti = udata, *p;
	struct feed *f = ti->feed;
	struct vcpu *v = f->vcpu;
	struct hvpmu_activity *act;
	uint64_t vaddr = ti->blk.vaddr, bound;

	p = v->prev;
	if (__builtin_expect(vcpu_index != 0 || !p, 0))
		goto slow;
	act = v->act;
	bound = act->bound + ti->blk.n;
	if (__builtin_expect(feed_execs(p) == v->mark_seen || vaddr == p->last_pc || p->slow_next ||
				     bound >= act->next_check, 0))
		goto slow;
	if (v->pend) {
		const struct tb_info *t = v->pend_tb;

		if (__builtin_expect(vaddr == t->wait_at, 0)) /* the delay slot as its own block */
			goto slow;
		act->taken_cond += vaddr == t->taken_at;
		v->pend = 0;
	}
	if (!p->dirty) { /* note_completed() */
		p->dirty = 1;
		p->next_dirty = v->dirty;
		v->dirty = p;
	}
	if (ti->pends) {
		v->pend = 1;
		v->pend_tb = ti;
	}
	act->bound = bound;
	v->mark_seen = feed_execs(ti);
	v->prev = ti;
	return;
slow:
	entry_st(f, vcpu_index, ti);
}

/* block_entry()'s sync, between the block entered before (`last`) and ti
 * (one guest thread: the lock for the machine only). */
static __attribute__((noinline)) void entry_sync(struct feed *f, struct vcpu *v, const struct tb_info *last,
						 const struct tb_info *ti)
{
	lock(f);
	feed_sync_vcpu(f, v, last, ti);
	unlock(f);
}

/*
 * entry_full() when this block is the delay slot of the pending CTI, an
 * annulling branch (QEMU's block after a taken `b<cc>,a`): the branch was
 * taken.  What entry_fast() leaves to block_entry(), in block_entry()'s
 * order -- the outcome before this block's fetch, the sync bound after it
 * -- out of line, so that the common entry keeps fewer registers.
 */
static __attribute__((noinline)) void entry_annul_taken(struct feed *f, struct tb_info *ti)
{
	struct vcpu *v = f->vcpu;
	struct tb_info *p = v->prev;
	const struct tb_info *t = v->pend_tb;
	struct hvpmu_activity *act = v->act;

	if (!p->dirty) { /* note_completed() */
		p->dirty = 1;
		p->next_dirty = v->dirty;
		v->dirty = p;
	}
	v->pend = 0;
	v->reg_taken = 0;
	act->taken_cond++;
	if (f->need_branches) /* execution goes on at the target after the delay slot */
		hvpmu_machine_branch(f->m, v->strand, t->cti_pc, t->cti_flags, 1, t->cti_target);
	if (ti->pends) {
		v->pend = 1;
		v->pend_tb = ti;
	}
	if (f->need_memory)
		hvpmu_machine_ifetch(f->m, v->strand, ti->blk.vaddr, ti->bytes);
	act->bound += ti->blk.n;
	if (__builtin_expect(act->bound >= act->next_check, 0)) /* (the model's calls moved it) */
		entry_sync(f, v, p, ti);
	v->mark_seen = feed_execs(ti); /* note_entered() */
	v->prev = ti;
}

/*
 * The memory or branch model and one guest thread: the block-entry
 * callback of blocks translated then, chosen at translation per kind of
 * run (which models run: `memory`, `branches`, constant for the run) and
 * of block (whether it leaves its CTI pending, tb_info.pends: `pends`;
 * none for a block at address 0, which resolve_pending() would not
 * decide).  The effect of entry_st() where entry_fast() takes the block,
 * in entry_fast()'s order (the model hears of this block's fetch before
 * the pending CTI's outcome), and nothing that is constant for the block
 * or the run: entry_fast()'s tests of the block entered before (it
 * reached its end, was not restarted, is no block of several threads and
 * has no in-block annulled slot or CTI the slow path decides:
 * tb_info.slow_next), the prefetches waiting for a donor and the sync
 * bound; the pending CTI decided by its tb_info.pend_kind, worked out at
 * translation (tb_pend_kind()).  When this block is the pending CTI's
 * delay slot, an annulling branch was taken (entry_annul_taken()); any
 * other CTI waits (the slow path).  Everything else goes through
 * entry_st().
 */
static inline __attribute__((always_inline)) void entry_full(unsigned int vcpu_index, struct tb_info *ti, int memory,
							       int branches, int pends)
{
	struct feed *f = ti->feed;
	struct vcpu *v = f->vcpu;
	struct tb_info *p = v->prev;
	const struct tb_info *t = NULL;
	struct hvpmu_activity *act;
	uint64_t vaddr = ti->blk.vaddr;

	if (__builtin_expect(vcpu_index != 0 || !p, 0))
		goto slow;
	act = v->act;
	if (__builtin_expect(feed_execs(p) == v->mark_seen || vaddr == p->last_pc || p->slow_next || v->npf_pend ||
				     act->bound + ti->blk.n >= act->next_check,
			     0))
		goto slow;
	if (v->pend) {
		t = v->pend_tb;
		if (__builtin_expect(vaddr == t->cti_ds || t->pend_kind == FEED_PEND_SLOW, 0)) {
			if (vaddr == t->cti_ds && t->pend_kind == FEED_PEND_ANNUL) {
				entry_annul_taken(f, ti);
				return;
			}
			goto slow;
		}
	}
	if (!p->dirty) { /* note_completed() */
		p->dirty = 1;
		p->next_dirty = v->dirty;
		v->dirty = p;
	}
	if (memory)
		hvpmu_machine_ifetch(f->m, v->strand, vaddr, ti->bytes);
	if (t) { /* resolve_pending(), the previous block having run to its end */
		int taken = t->pend_kind == FEED_PEND_ALWAYS || (t->pend_kind == FEED_PEND_TARGET && vaddr == t->cti_target);

		v->pend = 0;
		v->reg_taken = 0;
		if (taken && t->pend_kind != FEED_PEND_ALWAYS)
			act->taken_cond++;
		if (branches)
			hvpmu_machine_branch(f->m, v->strand, t->cti_pc, t->cti_flags, taken, vaddr);
	}
	if (pends) { /* set_pending() */
		v->pend = 1;
		v->pend_tb = ti;
	}
	act->bound += ti->blk.n;
	v->mark_seen = feed_execs(ti); /* note_entered() */
	v->prev = ti;
	return;
slow:
	entry_st(f, vcpu_index, ti);
}

static void tb_exec_full_mb(unsigned int vcpu_index, void *udata) { entry_full(vcpu_index, udata, 1, 1, 0); }
static void tb_exec_full_mb_p(unsigned int vcpu_index, void *udata) { entry_full(vcpu_index, udata, 1, 1, 1); }
static void tb_exec_full_m(unsigned int vcpu_index, void *udata) { entry_full(vcpu_index, udata, 1, 0, 0); }
static void tb_exec_full_m_p(unsigned int vcpu_index, void *udata) { entry_full(vcpu_index, udata, 1, 0, 1); }
static void tb_exec_full_br(unsigned int vcpu_index, void *udata) { entry_full(vcpu_index, udata, 0, 1, 0); }
static void tb_exec_full_br_p(unsigned int vcpu_index, void *udata) { entry_full(vcpu_index, udata, 0, 1, 1); }

/* How entry_full() decides block ti's CTI when it is pending (the
 * registers' decision, reg_cond, is made by now). */
static uint8_t tb_pend_kind(const struct tb_info *ti)
{
	if (!(ti->cti_flags & HVPMU_IC_CTI_COND))
		return FEED_PEND_ALWAYS;
	if (ti->reg_cond || ti->blk.cond_cti < 0)
		return FEED_PEND_SLOW;
	return ti->cti_annul ? FEED_PEND_ANNUL : FEED_PEND_TARGET;
}

/* The block-entry callback of a block translated with the memory or
 * branch model while one guest thread runs: entry_full()'s for its kind
 * of run and block, or the general one (a block at address 0). */
static qemu_plugin_vcpu_udata_cb_t tb_exec_full_for(const struct feed *f, const struct tb_info *ti)
{
	static const qemu_plugin_vcpu_udata_cb_t cb[2][2][2] = {
		{ { tb_exec_st, tb_exec_st }, { tb_exec_full_br, tb_exec_full_br_p } }, /* (no model: tb_exec_insn) */
		{ { tb_exec_full_m, tb_exec_full_m_p }, { tb_exec_full_mb, tb_exec_full_mb_p } },
	};

	return ti->blk.vaddr ? cb[f->need_memory != 0][f->need_branches != 0][ti->pends != 0] : tb_exec_st;
}

/* A block or thread runs uncounted: the run's counts are incomplete, which
 * the guest OS publishes and the tool reports as a failed run (under the
 * lock). */
static void uncounted(struct feed *f)
{
	hvpmu_machine_os_event(f->m, &(struct hvpmu_os_call){ .ev = HVPMU_OS_UNCOUNTED, .num = 1 });
}

/* ---- totals only (docs/event-source.md "Totals only") ---- */

/*
 * A store to a page that holds translated code makes QEMU re-translate its
 * blocks and restart the one that stored, at the store: only blocks in the
 * guest's read-only code ranges (qg_code_readonly(), from the program's
 * ELF headers and its mmap/mprotect calls) may go quiet.
 */

/* v's block entered last was a full one, and blocks without a full
 * callback ran since (its cycle row, feed_qcyc(), moved): its successor is unknown, so it was
 * not restarted (feed_account_prev() with no address). */
static inline void quiet_stale(struct feed *f, struct vcpu *v)
{
	if (v->prev && feed_qcyc(f, v) != v->qcyc_at)
		feed_account_prev(f, v, 0);
}

static __attribute__((noinline)) void quiet_due(struct feed *f, struct vcpu *v, struct tb_info *ti)
{
	lock(f);
	f->qsyncs++;
	feed_sync_vcpu(f, v, NULL, ti); /* every block expanded, then the next v->qlimit */
	unlock(f);
}

/* A check block (one a run of quiet blocks may loop through): the
 * blocks the vCPU entered since its last sync may have reached its budget
 * (the conditional callback fires once its qrem row is negative). */
static void tb_exec_qchk(unsigned int vcpu_index, void *udata)
{
	struct tb_info *ti = udata;
	struct feed *f = ti->feed;
	struct vcpu *v = vcpu_of(f, vcpu_index);

	if (!v || __builtin_expect(feed_qcyc(f, v) < v->qlimit, 1) || !f->quiet)
		return;
	/* the full block entered last is not restarted by this one, which
	 * restarts nothing (quiet_kind) */
	feed_account_prev(f, v, 0);
	quiet_due(f, v, ti);
}

/* A full block (it may be restarted inside): the exact per-block path,
 * its cycles into the vCPU's cycle row (feed_qcyc()), and the sync if its
 * budget is reached.  Every vCPU's counters are its own rows; another
 * thread's model work takes the lock as the exact path does (tb_exec). */
static void tb_exec_qfull(unsigned int vcpu_index, void *udata)
{
	struct tb_info *ti = udata;
	struct feed *f = ti->feed;
	struct vcpu *v = vcpu_of(f, vcpu_index);
	uint64_t q;

	if (!v)
		return;
	q = feed_qcyc(f, v);
	if (f->quiet && v->prev && q != v->qcyc_at && !v->prev->mt) {
		/* quiet_stale() and feed_block_entry() as they go here: the
		 * block entered last reached its end iff its counter moved (a
		 * block of several threads from before the mode, counted
		 * whole at each entry, goes the long way);
		 * without branch or memory model nothing is pending, and only
		 * v->qlimit syncs */
		struct tb_info *p = v->prev;

		if (feed_execs_v(v, p) != v->mark_seen)
			note_completed(f, v, p);
		v->act->bound += ti->blk.n;
		v->mark_seen = feed_execs_v(v, ti);
		v->prev = ti;
	} else {
		quiet_stale(f, v);
		if (v == f->vcpu)
			entry_st(f, 0, ti);
		else
			entry_mt(f, vcpu_index, ti);
	}
	feed_qcyc_add(f, v, ti->qcycles);
	v->qcyc_at = feed_qcyc(f, v);
	if (__builtin_expect(q >= v->qlimit, 0) && f->quiet)
		quiet_due(f, v, ti);
}

/*
 * How a block translated for totals only is instrumented (enum
 * feed_qkind): full if QEMU may restart it inside (an instruction the ISA
 * says restarts, a page the program can write, a block of several threads or an
 * in-block annulled slot); else check if a run of blocks without a check
 * could loop through it -- its CTI goes to a register or to its own start
 * or below, it may be a delay slot run as a block of its own (the word
 * before it is a CTI, or unknown: the start of a host page), or the quiet
 * blocks' cycles would pass their bound; else quiet.  Between two checks
 * a run of quiet blocks visits strictly increasing addresses, so each at
 * most once: their cycles bound how late a sync can come.
 */
static enum feed_qkind quiet_kind(struct feed *f, const struct tb_info *ti, const uint32_t *words, struct qemu_plugin_insn *first)
{
	uint32_t n = ti->blk.n, bytes = f->isa->insn_bytes;
	uint64_t vaddr = ti->blk.vaddr;

	for (uint32_t i = 0; i < n; i++)
		if (f->isa->restarts(words[i]))
			return FEED_Q_FULL;
	if (!qg_code_readonly(vaddr, ti->last_pc + bytes) || ti->slow_next || ti->cti_self)
		return FEED_Q_FULL;
	if (ti->blk.cti >= 0 && (!ti->cti_target || ti->cti_target <= vaddr))
		return FEED_Q_CHECK;
	{
		/* the word before, when it is on the instruction's own host page */
		const uint8_t *h = qemu_plugin_insn_haddr(first);
		struct hvpmu_insn d;

		if (!h || ((uintptr_t)h & (uintptr_t)(f->host_page - 1)) < bytes)
			return FEED_Q_CHECK;
		f->isa->decode(hvpmu_isa_word(f->isa, h - bytes), vaddr - bytes, &d);
		if (d.flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS))
			return FEED_Q_CHECK;
	}
	if (f->qsum + ti->qcycles > f->qcap)
		return FEED_Q_CHECK;
	return FEED_Q_QUIET;
}


/* A new counter slot (struct feed slot_new): QEMU's scoreboards, the
 * run's rows of them. */
static int slot_new(struct feed *f, uint32_t *slot)
{
	return qg_slot_new(f->slot_row, slot);
}

/* Leave the mode (a counter could wrap soon) or come back to it:
 * everything is translated anew (reset_done, f->qswitch). */
static void quiet_reset(struct feed *f)
{
	qemu_plugin_reset(f->id, reset_done);
}

/* Leave totals only (under the lock), for good if `for_good` (then
 * feed_quiet_rearm() brings it back no more); 1 if the caller is to
 * re-translate (quiet_reset(), outside the lock), 0 if the mode is off or
 * a re-translation is asked for already. */
static int quiet_leave_locked(struct feed *f, int for_good)
{
	int pending = f->qswitch == 3; /* (a re-translation in the mode is asked for: it leaves) */

	if (for_good)
		f->qeligible = 0;
	if (!f->quiet || (f->qswitch && !pending))
		return 0;
	feed_quiet_leave(f);
	return !pending;
}

/* Totals only cannot start (vCPU 0's start, before any translation):
 * every count, taken CTIs included, on the exact path. */
static void quiet_never(struct feed *f)
{
	f->qeligible = f->quiet = f->qclass = 0;
	feed_quiet_limit(f, &f->vcpu[0], UINT64_MAX);
	if (f->qtk) {
		f->qtk = 0;
		f->need_taken = 1;
	}
}

static void mem_exec(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct mem_insn *mi = udata;
	struct feed *f = mi->feed;
	struct vcpu *v = vcpu_of(f, vcpu_index);

	if (v) {
		feed_batch_flush(f, v);
		feed_mem_access(f, v, mi, vaddr, 1u << qemu_plugin_mem_size_shift(info), qemu_plugin_mem_is_store(info));
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
static __attribute__((noinline)) void mem_exec_st_slow(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
							uint64_t vaddr, void *udata)
{
	struct mem_insn *mi = udata;
	struct feed *f = mi->feed;

	if ((vcpu_index | (unsigned)f->mt | mi->donor | (unsigned)!f->vcpu[0].live) != 0) {
		mem_exec(vcpu_index, info, vaddr, udata);
		return;
	}
	mem_info(mi, info);
	hvpmu_machine_dref_insn(f->m, f->vcpu[0].strand, &mi->d, vaddr);
}

/* `plain`: the machine's description allows hvpmu_machine_dref_plain()
 * (its meminfo seen, the access's size is not 0; vCPU 0's strand is one
 * of the machine's), which the run knows at start-up: mem_exec_plain(). */
static inline __attribute__((always_inline)) void mem_st(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
							 uint64_t vaddr, void *udata, int plain)
{
	struct mem_insn *mi = udata;
	struct feed *f = mi->feed;

	/* one unlikely branch for everything else, out of line (mem_info()
	 * calls into QEMU): the common case makes only tail calls, so it
	 * saves no registers */
	if (__builtin_expect((vcpu_index | (unsigned)f->mt | mi->donor | (unsigned)!f->vcpu[0].live) != 0 ||
				     mi->pinfo != (uint64_t)info,
			     0)) {
		mem_exec_st_slow(vcpu_index, info, vaddr, udata);
		return;
	}
	if (plain)
		hvpmu_machine_dref_plain(f->m, f->vcpu[0].strand, &mi->d, vaddr);
	else
		hvpmu_machine_dref_insn(f->m, f->vcpu[0].strand, &mi->d, vaddr);
}

static void mem_exec_st(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	mem_st(vcpu_index, info, vaddr, udata, 0);
}

/* The data-access dispatch specialised per description at start-up
 * (hvpmu_machine_dref_plain_ok(): not the Origin's fetch-and-op region). */
static void mem_exec_plain(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	mem_st(vcpu_index, info, vaddr, udata, 1);
}


static void pf_exec(unsigned int vcpu_index, void *udata)
{
	const struct pf_insn *pf = udata;
	struct feed *f = pf->feed;
	struct vcpu *v = vcpu_of(f, vcpu_index);

	if (v) {
		feed_batch_flush(f, v);
		feed_pf_access(f, v, pf);
	}
}

/* ---- batches (docs/event-source.md "Batches") ---- */




/* The vCPU of this host thread, as far as known (set where a callback of
 * its own flushes its batch): the one whose batch a fatal signal's
 * kill() can still run (program_end). */
static __thread struct vcpu *self_vcpu;

/* A full batch: run it, now if the lock is free or when it is at the
 * latest (the guest thread records on meanwhile: the model's work is
 * one thread's at a time, the threads' own work is not). */
static __attribute__((noinline)) void batch_full(struct feed *f, struct vcpu *v)
{
	if (f->mq.on) { /* (turns) when full, the model queue's thread runs it meanwhile */
		if (v->nb == BATCH_MAX)
			feed_mq_put(f, v);
		return;
	}
	if (v->nb < BATCH_MAX && pthread_mutex_trylock(&f->lock) != 0)
		return;
	if (v->nb == BATCH_MAX)
		lock(f);
	feed_batch_run(f, v);
	unlock(f);
}

static inline void batch_put(struct feed *f, struct vcpu *v, uint64_t w0, uint64_t w1)
{
	if (__builtin_expect(v->nb == 0, 0))
		self_vcpu = v; /* a fatal signal may come before the batch is full */
	v->batch[v->nb++] = (struct evrec){ w0, w1 };
	if (__builtin_expect((v->nb & (BATCH_SLOTS - 1)) == 0, 0))
		batch_full(f, v);
}

/* Guest thread, per block entry: a REC_TB record saying whether the block
 * it entered before reached its last instruction (its counter, v's row,
 * moved since that entry: vcpu.bprev, bmark). */
static void tb_exec_b(unsigned int vcpu_index, void *udata)
{
	struct tb_info *ti = udata;
	struct feed *f = ti->feed;
	struct vcpu *v = vcpu_of(f, vcpu_index);

	if (v) {
		struct tb_info *p = v->bprev;
		uint64_t reached = p && feed_execs_v(v, p) != v->bmark;

		v->bprev = ti;
		v->bmark = feed_execs_v(v, ti);
		batch_put(f, v, (uintptr_t)udata | reached << 2 | REC_TB, v->reg_live);
		v->reg_live = 0;
	}
}

/*
 * A conditional CTI whose target is where it falls through
 * (tb_info.reg_cond): its outcome from the registers it tests, read
 * before it runs (hvpmu_isa.cond_taken).  Straight into v->reg_taken
 * when this thread runs the model itself; into v->reg_live, for the next
 * block entry's record, when its records wait (batches, model thread).
 */
struct cond_insn {
	struct qg_cond c;
	int quiet;             /* translated for totals only with taken branches: count into vcpu.qtaken */
	struct feed *feed;     /* the run */
};

static void cond_exec(unsigned int vcpu_index, void *udata)
{
	const struct cond_insn *c = udata;
	struct feed *f = c->feed;
	struct vcpu *v = vcpu_of(f, vcpu_index);
	int t;

	if (!v || (t = qg_cond_read(f->isa, &c->c)) < 0)
		return;
	if (c->quiet) {
		v->qtaken += (uint64_t)(t == 1);
		return;
	}
	if (f->batch || f->off)
		v->reg_live = (uint8_t)(2 | t);
	else
		v->reg_taken = (uint8_t)(2 | t);
}

/* Whether block ti's conditional CTI (static target, not annulled) is
 * one the next block's address cannot decide at once: its target is where
 * it falls through, or it ends the block with its delay slot to come (the
 * slot's block, which may hold the next CTI, comes between), or its delay
 * slot, last in the block, may trap and run again as a block of its own. */
static int cond_needs_regs(struct feed *f, const struct tb_info *ti, const uint32_t *words)
{
	return feed_cond_needs_regs(f->isa, ti->cti_target, ti->cti_fall, (uint32_t)ti->blk.cond_cti, ti->blk.n,
				    words[ti->blk.n - 1]);
}

/* Block ti's CTI is decided from registers when cond_needs_regs() and
 * QEMU lists the registers it tests: the callback's data, or NULL (then
 * the addresses decide, as before).  In totals only (`quiet`) also a
 * conditional CTI to a register (ppc64 bclr, bcctr), which has no static
 * edge for the qexp slot. */
static struct cond_insn *cond_insn_for(struct feed *f, const struct tb_info *ti, const uint32_t *words, int quiet)
{
	struct cond_insn c = { .quiet = quiet, .feed = f }, *out;
	int to_reg = quiet && ti->blk.cond_cti < 0 && ti->blk.cti >= 0;

	if (!(ti->cti_flags & HVPMU_IC_CTI_COND) || ti->cti_annul || (ti->blk.cond_cti < 0 && !to_reg) ||
	    (!to_reg && !cond_needs_regs(f, ti, words)) ||
	    qg_cond_make(f->isa, words[to_reg ? ti->blk.cti : ti->blk.cond_cti], &c.c))
		return NULL;
	if ((out = malloc(sizeof *out))) /* (kept to the end, as the block's tb_info) */
		*out = c;
	return out;
}

/* Guest thread, per data access: a REC_MEM record, the size and direction
 * from this access's meminfo (a mem_insn is shared by the threads). */
static void mem_exec_b(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct feed *f = ((const struct mem_insn *)udata)->feed;
	struct vcpu *v = vcpu_of(f, vcpu_index);

	if (v)
		batch_put(f, v,
			  (uintptr_t)udata | (uint64_t)(qemu_plugin_mem_size_shift(info) & 7u) << 2 |
				  (uint64_t)(qemu_plugin_mem_is_store(info) != 0) << 5 | REC_MEM,
			  vaddr);
}

static void pf_exec_b(unsigned int vcpu_index, void *udata)
{
	struct feed *f = ((const struct pf_insn *)udata)->feed;
	struct vcpu *v = vcpu_of(f, vcpu_index);

	if (v)
		batch_put(f, v, (uintptr_t)udata | REC_PF, 0);
}

static void tb_exec_off(unsigned int vcpu_index, void *udata);
static void mem_exec_off(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
static void pf_exec_off(unsigned int vcpu_index, void *udata);
static void ring_put_ctl(struct feed *f, unsigned op, uint64_t arg);

/* Totals only with taken branches: a block entered at the address the
 * block before left in the qexp slot is that block's CTI taken. */
static void qtk_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpu_of(udata, vcpu_index); /* (its data: the run) */

	if (v)
		v->qtaken++;
}

/*
 * How a block translated for totals only with taken branches tells its
 * conditional CTI's outcome without a callback of its own
 * (docs/event-source.md "Taken branches without a callback"): at its first
 * instruction, the conditional callback on the qexp slot holding this
 * block's address; at its last, the slot set to the address its CTI's
 * taken edge leads to (the target; the delay slot of an annulling
 * branch), or to 0 when it has none.  A block left before its last
 * instruction leaves the slot as it was: a full block (QEMU may restart
 * it inside, the restart being a block of its own) clears it at its first
 * instruction too.  A CTI the next block cannot decide (cond_needs_regs())
 * is read from its registers instead.  Registered after the block's other
 * operations on the same instructions, in this order (QEMU runs an
 * instruction's operations in registration order).
 */
static int quiet_taken(struct feed *f, struct qemu_plugin_tb *tb, struct tb_info *ti, const uint32_t *words, enum feed_qkind qk)
{
	struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, 0), *last = qemu_plugin_tb_get_insn(tb, ti->blk.n - 1);
	qemu_plugin_u64 exp = qg_slot_entry(f->qexp_slot);
	uint64_t at = 0;

	qemu_plugin_register_vcpu_insn_exec_cond_cb(first, qtk_exec, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_EQ, exp,
						     ti->blk.vaddr, f);
	if (qk == FEED_Q_FULL)
		qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(first, QEMU_PLUGIN_INLINE_STORE_U64, exp, 0);
	if ((ti->cti_flags & HVPMU_IC_CTI_COND) && ti->blk.cond_cti >= 0) {
		struct cond_insn *c;

		if (ti->cti_annul || !cond_needs_regs(f, ti, words))
			at = ti->taken_at;
		else if ((c = cond_insn_for(f, ti, words, 1)))
			qemu_plugin_register_vcpu_insn_exec_cb(qemu_plugin_tb_get_insn(tb, (size_t)ti->blk.cond_cti),
							       cond_exec, QEMU_PLUGIN_CB_R_REGS, c);
		else /* no registers to read (mips64): the mode cannot decide it */
			return -1;
	} else if ((ti->cti_flags & HVPMU_IC_CTI_COND) && ti->blk.cti >= 0) {
		/* a conditional CTI to a register (ppc64 bclr, bcctr): no static
		 * edge, its registers decide */
		struct cond_insn *c = cond_insn_for(f, ti, words, 1);

		if (!c)
			return -1;
		qemu_plugin_register_vcpu_insn_exec_cb(qemu_plugin_tb_get_insn(tb, (size_t)ti->blk.cti), cond_exec,
						       QEMU_PLUGIN_CB_R_REGS, c);
	}
	qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(last, QEMU_PLUGIN_INLINE_STORE_U64, exp, at);
	return 0;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct feed *f = the_run; /* (no data: the API's translation callback has none) */
	uint32_t *words = f->words; /* under the lock */
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct tb_info *ti;
	struct mem_insn *const *mi;
	struct pf_insn *const *pf;
	int off = f->off;
	/* who runs the model: the model thread (records in its ring), the
	 * guest thread in batches (several threads), or the guest thread at
	 * once (one thread: the fast paths; several: under the lock) */
	qemu_plugin_vcpu_udata_cb_t tb_cb = off ? tb_exec_off : f->batch ? tb_exec_b : f->mt ? tb_exec :
					   f->need_memory || f->need_branches ? tb_exec_st : tb_exec_insn;
	enum feed_qkind qk = FEED_Q_NONE;
	int give_up = 0;
	qemu_plugin_vcpu_udata_cb_t pf_cb = off ? pf_exec_off : f->batch ? pf_exec_b : pf_exec;
	qemu_plugin_vcpu_mem_cb_t mem_cb = off ? mem_exec_off : f->batch ? mem_exec_b : f->mt ? mem_exec :
					   hvpmu_machine_dref_plain_ok(f->m) ? mem_exec_plain : mem_exec_st;

	(void)id;
	if (n == 0 || n > FEED_MAX_INSNS)
		return;
	lock(f);
	if (!f->qentry_seen) { /* the program's first block */
		f->qentry_seen = 1;
		qg_signals_to_guest();
		if (f->qeligible)
			qg_code_entry(qemu_plugin_tb_vaddr(tb));
	}
	for (size_t i = 0; i < n; i++)
		words[i] = qg_insn_word(f->isa, qemu_plugin_tb_get_insn(tb, i));
	ti = feed_block_new(f, qemu_plugin_tb_vaddr(tb), words, (uint32_t)n, &mi, &pf);
	if (!ti) {
		unlock(f);
		return;
	}
	if (f->qclass && !off && !f->batch) {
		for (size_t i = 0; i < n; i++)
			ti->qcycles += (uint32_t)hvpmu_insn_cycles(&f->rule, ti->flags[i]);
		qk = quiet_kind(f, ti, words, qemu_plugin_tb_get_insn(tb, 0));
		/* a quiet or check block's counter is in the chunks a sync scans */
		if (qk != FEED_Q_FULL && feed_quiet_counter(f, ti, &ti->slot))
			qk = FEED_Q_FULL; /* out of memory for its counter */
	}
	if ((qk == FEED_Q_NONE || qk == FEED_Q_FULL) && f->slot_new(f, &ti->slot)) {
		/* no counter for its end: it runs uncounted (as without memory) */
		uncounted(f);
		unlock(f);
		fprintf(stderr, "hvpmu plugin: out of counter slots; a block at 0x%" PRIx64 " is not counted\n",
			ti->blk.vaddr);
		return;
	}
	ti->execs = feed_slot(f, ti->slot);
	if (qk != FEED_Q_NONE) {
		if (qk == FEED_Q_QUIET)
			f->qsum += ti->qcycles;
		f->qblocks[qk]++;
		tb_cb = qk == FEED_Q_FULL ? tb_exec_qfull : tb_exec_qchk;
	}
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (mi && mi[i])
			qemu_plugin_register_vcpu_mem_cb(insn, mem_cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, mi[i]);
		if (pf && pf[i])
			qemu_plugin_register_vcpu_insn_exec_cb(insn, pf_cb, QEMU_PLUGIN_CB_NO_REGS, pf[i]);
		if (i == 0 && (qk == FEED_Q_QUIET || qk == FEED_Q_CHECK)) {
			qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64,
									    qg_slot_entry(f->qrem_slot),
									    (uint64_t)0 - ti->qcycles);
		}
		if (i + 1 < n)
			continue;
		qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								    qg_slot_entry(ti->slot), 1);
	}
	/* a block the mode cannot count exactly: a branch-likely's slot in
	 * its block (its callbacks fire even when it is annulled: the block
	 * entered next would have to tell), or a taken edge without the
	 * registers to decide it.  The mode ends for good: QEMU stops this
	 * vCPU at the next block boundary for the reset, so the block never
	 * runs as translated here (qemu_plugin_reset, cpu_exit). */
	if (qk != FEED_Q_NONE) {
		give_up = ti->slot_annul || (f->qtk && quiet_taken(f, tb, ti, words, qk));
	} else if (ti->pends && ti->blk.cond_cti >= 0) {
		struct cond_insn *c = cond_insn_for(f, ti, words, 0);

		if (c) {
			qemu_plugin_register_vcpu_insn_exec_cb(qemu_plugin_tb_get_insn(tb, (size_t)ti->blk.cond_cti),
							       cond_exec, QEMU_PLUGIN_CB_R_REGS, c);
			ti->reg_cond = 1;
			ti->slow_next = 1; /* resolve_pending() decides it, on the slow path */
		}
	}
	ti->pend_kind = tb_pend_kind(ti);
	if (tb_cb == tb_exec_st)
		tb_cb = tb_exec_full_for(f, ti);
	if (!off)
		feed_finish_tb(f, ti);
	give_up = give_up && quiet_leave_locked(f, 1);
	unlock(f);
	if (give_up)
		quiet_reset(f);
	/* the model thread assigns the classes, before the block's first
	 * entry; not under the lock: the put may wait for the model thread,
	 * which may need the lock to get on */
	if (off)
		ring_put_ctl(f, CTL_TRANS, (uintptr_t)ti);
	if (f->turn.on) { /* its turn: minus its instructions, then past the end? (in this order) */
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
								  qg_slot_entry(f->turn_slot), (uint64_t)0 - n);
		qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, turn_over_cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_GE,
							  qg_slot_entry(f->turn_slot), UINT64_C(1) << 63, f);
	}
	if (qk == FEED_Q_CHECK) /* only once the budget is spent: qrem negative */
		qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, tb_cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_GE,
							  qg_slot_entry(f->qrem_slot), UINT64_C(1) << 63, ti);
	else if (qk != FEED_Q_QUIET)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_cb, QEMU_PLUGIN_CB_NO_REGS, ti);
}






/* ---- model thread (docs/event-source.md "Model thread") ---- */

/* Guest thread: did the block entered last reach its last instruction? */
static inline uint64_t prod_reached(struct feed *f)
{
	return f->prod_prev && feed_execs(f->prod_prev) != f->prod_mark ? CTL_REACHED : 0;
}

static void ring_put_ctl(struct feed *f, unsigned op, uint64_t arg)
{
	evring_put(&f->ring, CTL(op) | (op == CTL_FLUSH ? prod_reached(f) : 0), arg);
}

/* Guest thread, per block entry: one record. */
static void tb_exec_off(unsigned int vcpu_index, void *udata)
{
	struct tb_info *ti = udata, *p;
	struct feed *f = ti->feed;
	struct vcpu *v = f->vcpu;
	uint64_t reached;

	p = f->prod_prev;
	if (__builtin_expect(!f->off || vcpu_index != 0, 0)) { /* the model thread stopped */
		entry_st(f, vcpu_index, ti);
		return;
	}
	reached = p && feed_execs(p) != f->prod_mark;
	f->prod_prev = ti;
	f->prod_mark = feed_execs(ti);
	evring_put(&f->ring, (uintptr_t)ti | reached << 2 | REC_TB, v->reg_live);
	v->reg_live = 0;
}

/* Guest thread, per data access: one record, with the access's size and
 * direction from mem_info(). */
static void mem_exec_off(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct mem_insn *mi = udata;
	struct feed *f = mi->feed;

	if (__builtin_expect(!f->off || vcpu_index != 0, 0)) {
		mem_exec(vcpu_index, info, vaddr, udata);
		return;
	}
	mem_info(mi, info);
	evring_put(&f->ring, (uintptr_t)mi | mi->pcode | REC_MEM, vaddr);
}

static void pf_exec_off(unsigned int vcpu_index, void *udata)
{
	struct feed *f = ((const struct pf_insn *)udata)->feed;

	if (__builtin_expect(!f->off || vcpu_index != 0, 0)) {
		pf_exec(vcpu_index, udata);
		return;
	}
	evring_put(&f->ring, (uintptr_t)udata | REC_PF, 0);
}


/* Model thread: everything the guest thread's callbacks would have done
 * without it, record by record, in order (vCPU 0 only: feed_run_evrecs). */
static void *model_thread(void *arg)
{
	struct feed *f = arg;
	int stop = 0;

	while (!stop) {
		const struct evrec *r;
		size_t n = evring_peek(&f->ring, &r);

		evring_release(&f->ring, feed_run_evrecs(f, vcpu_of(f, 0), r, n, &stop));
	}
	return NULL;
}

/* Start the model thread (single guest thread only).  Returns 0, or -1
 * when it cannot run (the guest thread then runs the model itself). */
static int offload_start(struct feed *f)
{
	sigset_t all, old;
	int err;
	const char *ring = getenv("HVPMU_MODEL_THREAD_RING"); /* testing: log2 of the slots */

	if (evring_init(&f->ring, ring ? (unsigned)atoi(ring) : RING_LOG2))
		return -1;
	/* QEMU handles the guest's signals on its vCPU threads: the model
	 * thread takes none */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&f->thr, NULL, model_thread, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		evring_destroy(&f->ring);
		return -1;
	}
	f->off = 1;
	return 0;
}

/*
 * Let the model thread catch up and end; from then on the guest threads
 * run the model themselves.  The inline counters of the blocks are handed
 * over: every entry but the running block's is accounted, so each block's
 * executions so far are expanded, and the running block's last
 * instruction has started iff its counter moved since its entry.
 */
static void offload_stop(struct feed *f)
{
	struct vcpu *v0 = vcpu_of(f, 0);

	if (!f->off)
		return;
	evring_drain(&f->ring);
	evring_put(&f->ring, CTL(CTL_STOP), 0);
	evring_publish(&f->ring, 1);
	pthread_join(f->thr, NULL);
	evring_destroy(&f->ring);
	lock(f);
	for (uint32_t i = 0; i < f->nvcpu; i++)
		if (f->vcpu[i].live)
			feed_expand_dirty(f, &f->vcpu[i]);
	f->off = 0;
	for (struct tb_info *t = f->allocs; t; t = t->next_alloc)
		t->synced_execs = feed_execs(t);
	if (v0 && v0->prev) {
		v0->prev->synced_execs = f->prod_mark;
		v0->mark_seen = f->prod_mark;
	}
	unlock(f);
}

/* The program ends by a system call (exit_group, or the last thread's
 * exit: feed.exit_called): QEMU's atexit callback follows, and that is
 * the end.  QEMU 10 also runs the atexit callback when a signal kills the
 * program, before its kill() (linux-user dump_core_and_abort:
 * preexit_cleanup, then die_with_signal): that end, with its signal, is
 * kill()'s to report. */

/* exit: the end only when no other thread lives */
static void note_exit_call(struct feed *f)
{
	uint32_t live = 0;

	lock(f);
	for (uint32_t i = 0; i < f->nvcpu; i++)
		live += f->vcpu[i].live != 0;
	unlock(f);
	if (live <= 1)
		f->exit_called = 1;
}

/* A read-only code range that quiet blocks count on is unmapped or made
 * writable: every block is translated anew, out of the mode (which
 * feed_quiet_rearm() enters again at a later sync). */
static void quiet_code_changed(struct feed *f)
{
	int go;

	lock(f);
	go = quiet_leave_locked(f, 0);
	unlock(f);
	if (go)
		quiet_reset(f);
}

static void syscall_cb(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1,
		       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	struct feed *f = the_run; /* (no data: the API's system-call callback has none) */
	struct vcpu *v = vcpu_of(f, vcpu_index);
	const uint64_t args[6] = { a1, a2, a3, a4, a5, a6 };

	(void)id; (void)a7; (void)a8;
	if (num == f->isa->sc.exit_group)
		f->exit_called = 1;
	else if (num == f->isa->sc.exit)
		note_exit_call(f);
	if (f->qeligible && qg_code_syscall(vcpu_index, num, args))
		quiet_code_changed(f);
	if (f->off && (num == f->isa->sc.fork || num == f->isa->sc.vfork || num == f->isa->sc.clone ||
		      num == f->isa->sc.clone3))
		offload_stop(f); /* a child process would have no model thread: run in the guest thread */
	if (f->off && vcpu_index == 0) {
		struct evrec *e = evring_reserve(&f->ring, 4, (struct evrec){ CTL(CTL_NOP), 0 });

		e[0] = (struct evrec){ CTL(CTL_SYSCALL) | prod_reached(f), (uint64_t)num };
		e[1] = (struct evrec){ a1, a2 };
		e[2] = (struct evrec){ a3, a4 };
		e[3] = (struct evrec){ a5, a6 };
		evring_commit(&f->ring, 4);
		return;
	}
	if (v) {
		self_vcpu = v;
		feed_batch_flush(f, v);
		feed_syscall_entry(f, v, num, args);
		if (!f->turn.on && f->turn.quantum && turns_makes_thread(&f->turn, num, a1))
			turn_engage(f, (int)vcpu_index);
		if (f->turn.on) {
			gtime_entry(&f->gtime, (int)vcpu_index, num, args); /* (a deadline, before it waits) */
			turns_syscall(&f->turn, (int)vcpu_index, num, a1, a2, a3);
		}
	}
	hvpmu_qemu_follow_execve(num, args); /* a program of the ISA runs under this emulator (uncounted) */
}

static void syscall_ret_cb(qemu_plugin_id_t id, unsigned int vcpu_idx, int64_t num, int64_t ret)
{
	struct feed *f = the_run; /* (no data: the API's system-call callback has none) */
	struct vcpu *v = vcpu_of(f, vcpu_idx);
	int blocked = v && turns_returned(&f->turn, (int)vcpu_idx);

	(void)id;
	if (f->qeligible)
		qg_code_syscall_ret(vcpu_idx, num, ret);
	if (f->off && vcpu_idx == 0) {
		struct evrec *e = evring_reserve(&f->ring, 2, (struct evrec){ CTL(CTL_NOP), 0 });

		e[0] = (struct evrec){ CTL(CTL_SYSRET), (uint64_t)num };
		e[1] = (struct evrec){ (uint64_t)ret, 0 };
		evring_commit(&f->ring, 2);
		return;
	}
	if (blocked) {
		/* back in turn first: the model hears of the return at the
		 * point of the turns where the thread comes back */
		turns_syscall_ret(&f->turn, (int)vcpu_idx, num, ret, 1);
		feed_batch_flush(f, v);
		feed_syscall_return(f, v, num, ret);
	} else if (v) {
		/* a clone's new thread starts (feed_vcpu_start: at its creator's
		 * time) before the model hears of the clone's return */
		int clone_first = f->turn.on && (num == f->isa->sc.clone || num == f->isa->sc.clone3);

		if (clone_first)
			turns_syscall_ret(&f->turn, (int)vcpu_idx, num, ret, 0);
		feed_batch_flush(f, v);
		feed_syscall_return(f, v, num, ret);
		if (f->turn.on && !clone_first)
			turns_syscall_ret(&f->turn, (int)vcpu_idx, num, ret, 0);
	}
}

static void register_callbacks(struct feed *f, qemu_plugin_id_t id);

/*
 * Totals only with taken branches, across a re-translation (under the
 * lock, every vCPU stopped).  Leaving: the exact path counts taken CTIs
 * again (f->need_taken), and a taken edge the last quiet block left in the
 * qexp slot becomes its pending CTI (q_pend: taken iff the next block
 * starts there).  Entering: the exact path's pending CTI goes into the
 * slot the same way, or, decided from its registers, is counted now.
 */
static const struct tb_info q_pend0 = { .cti_flags = HVPMU_IC_CTI_COND, .blk = { .cond_cti = 0, .cti = 0 },
					.wait_at = 1, .cti_ds = UINT64_MAX };

static void quiet_taken_leave(struct feed *f, struct vcpu *v)
{
	uint64_t *exp = feed_slot_v(f, f->qexp_slot, v);

	f->need_taken = 1;
	if (*exp && v->live) {
		struct tb_info *q = &f->q_pend[v - f->vcpu]; /* (one per vCPU) */

		*q = q_pend0;
		q->cti_target = q->taken_at = *exp;
		v->pend = 1;
		v->pend_tb = q;
	}
	*exp = 0;
}

static void quiet_taken_enter(struct feed *f, struct vcpu *v)
{
	f->need_taken = 0;
	if (v->pend) {
		const struct tb_info *t = v->pend_tb;

		if (t->reg_cond)
			v->act->taken_cond += v->reg_taken == 3;
		else if (t->cti_flags & HVPMU_IC_CTI_COND)
			*feed_slot_v(f, f->qexp_slot, v) = t->taken_at;
	}
	v->pend = 0;
	v->reg_taken = 0;
}

/* Every block is translated anew from here (the reset flushed them all),
 * with per-vCPU callbacks: in batches when the memory model runs. */
static void reset_done(qemu_plugin_id_t id)
{
	struct feed *f = the_run; /* (no data: the API's reset callback has none) */

	lock(f);
	if (f->qswitch == 3) { /* in totals only still: the blocks count their turns too */
	} else if (f->qclass) { /* out of totals only: no quiet block runs any more */
		for (uint32_t i = 0; i < f->nvcpu; i++) {
			struct vcpu *v = &f->vcpu[i];

			if (!v->live)
				continue;
			quiet_stale(f, v);
			feed_expand_dirty(f, v);
			feed_quiet_limit(f, v, UINT64_MAX);
			if (f->qtk)
				quiet_taken_leave(f, v);
		}
		f->quiet = f->qclass = 0;
	} else if (f->qswitch == 2) { /* back into it: the block entered last is current */
		for (uint32_t i = 0; i < f->nvcpu; i++) {
			struct vcpu *v = &f->vcpu[i];

			if (!v->live)
				continue;
			if (f->qtk)
				quiet_taken_enter(f, v);
			v->qcyc_at = feed_qcyc(f, v);
			feed_quiet_limit(f, v, 0); /* its first check or full block syncs and asks for the budget */
		}
		/* the blocks translated in the mode before are gone, and their
		 * counts expanded as it ended: their counter slots serve again */
		f->qsum = 0;
		f->nq = 0;
		f->quiet = f->qclass = 1;
		f->qentries++;
	}
	f->qswitch = 0;
	/* batches: the guest thread's view of the block it entered last */
	for (uint32_t i = 0; i < f->nvcpu; i++) {
		f->vcpu[i].bprev = f->vcpu[i].prev;
		f->vcpu[i].bmark = f->vcpu[i].mark_seen;
	}
	unlock(f);

	f->batch = batch_wanted(f);
	if (f->turn.on && f->batch && !f->mq.on) {
		const char *mq = getenv("HVPMU_MODEL_QUEUE"); /* 0: without it (tests, comparisons) */

		if (!(mq && strcmp(mq, "0") == 0)) {
			/* the queue counts every vCPU's blocks as its records
			 * run: vCPU 0's counted so far first */
			lock(f);
			for (uint32_t i = 0; i < f->nvcpu; i++)
				if (f->vcpu[i].live)
					feed_expand_dirty(f, &f->vcpu[i]);
			unlock(f);
			feed_mq_start(f); /* (if it cannot start, each thread runs its batch at its turn's end) */
		}
	}
	register_callbacks(f, id);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct feed *f = the_run; /* (no data: the API's vCPU init callback has none) */
	struct vcpu *v;
	int go_mt = 0;

	if (qg_slots_refresh(f->slot_row)) { /* QEMU grew its scoreboards for this vCPU */
		lock(f);
		feed_slots_moved(f);
		unlock(f);
	}
	if (f->need_taken || f->need_branches || f->qtk)
		qg_regs_init(); /* conditional CTIs the addresses cannot decide (cond_insn_for) */
	if (vcpu_index == 0 && f->qtk && !f->qcyc_made)
		for (const char *const *r = f->isa->cond_reg_needs; r && *r; r++)
			if (!qg_reg(*r)) { /* a CTI the mode could not count */
				quiet_never(f);
				break;
			}
	if (vcpu_index == 0 && f->qeligible && !f->qcyc_made) {
		/* totals only: the cycle slot, before the first sync reads it,
		 * and the read-only code ranges (the API's program queries need
		 * a vCPU: not at install) */
		if (slot_new(f, &f->qrem_slot) == 0 && (!f->qtk || slot_new(f, &f->qexp_slot) == 0) &&
		    qg_code_init(f->isa) == 0) {
			f->qcyc_made = 1;
			feed_quiet_limit(f, &f->vcpu[0], 0); /* the first check syncs and asks for the budget */
		} else {
			quiet_never(f);
		}
	}
	if (vcpu_index == 0 && f->turn.quantum && !f->turn_slot_made) {
		if (slot_new(f, &f->turn_slot) == 0)
			f->turn_slot_made = 1;
		else { /* (no scoreboard slot: no turns) */
			fprintf(stderr, "hvpmu plugin: out of counter slots: threads run free, not in turns\n");
			f->turn.quantum = 0;
		}
	}
	if (f->off && vcpu_index > 0)
		offload_stop(f); /* several guest threads: the model runs in theirs, under the lock */
	else if (f->off)
		evring_drain(&f->ring); /* the model thread is idle while this one uses the model */
	lock(f);
	if (vcpu_index >= f->nvcpu) {
		fprintf(stderr, "hvpmu: guest thread %u has no strand (machine has %u); not counted\n",
			vcpu_index, f->nvcpu);
		uncounted(f);
		unlock(f);
		if (f->turn.on) /* (it runs outside the rotation: the counts are incomplete) */
			turns_join(&f->turn, -1);
		return;
	}
	v = &f->vcpu[vcpu_index];
	if (!v->live) {
		if (feed_vcpu_start(f, v, hvpmu_md_vcpu_strand(hvpmu_machine_md(f->m), vcpu_index), 0)) {
			fprintf(stderr, "hvpmu: out of memory for guest thread %u; not counted\n", vcpu_index);
			uncounted(f);
			unlock(f);
			if (f->turn.on)
				turns_join(&f->turn, -1);
			return;
		}
		if (vcpu_index > 0 && !f->mt) {
			/* QEMU runs this in the new thread while vCPU 0 runs on:
			 * its callbacks count into its qtaken and dirty list
			 * without the lock until the blocks are translated anew,
			 * so its own next sync expands them, never this thread */
			f->mt = 1;
			/* blocks classed for totals only serve every vCPU as they
			 * are (their counters and callbacks are per vCPU); the
			 * exact path's blocks are translated again with callbacks
			 * for several threads (a translation already asked for
			 * does it) */
			go_mt = !f->qclass && !f->qswitch;
		}
	}
	unlock(f);
	if (f->turn.on) /* it joins the rotation before its first block */
		turns_join(&f->turn, (int)vcpu_index);
	if (go_mt) /* re-translate everything with per-vCPU callbacks */
		qemu_plugin_reset(id, reset_done);
}

static void vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct feed *f = the_run; /* (no data: the API's vCPU exit callback has none) */
	struct vcpu *v = vcpu_of(f, vcpu_index);

	(void)id;
	if (f->off)
		evring_drain(&f->ring);
	if (!v)
		return;
	feed_vcpu_exit(f, v); /* (its last records and its end, in its turn) */
	if (f->turn.on)
		turns_leave(&f->turn, (int)vcpu_index);
	if (self_vcpu == v)
		self_vcpu = NULL;
}


static void flush_cb(qemu_plugin_id_t id)
{
	struct feed *f = the_run; /* (no data: the API's flush callback has none) */

	(void)id;
	if (qg_slots_refresh(f->slot_row)) { /* (every vCPU is stopped) */
		lock(f);
		feed_slots_moved(f);
		unlock(f);
	}
	if (f->off) {
		ring_put_ctl(f, CTL_FLUSH, 0);
		f->prod_prev = NULL; /* the next block entry has no predecessor */
	} else {
		feed_flush_all(f);
	}
}

/* The program ends (sig 0: it exited; else that signal ends it): every
 * vCPU's activity is accounted, then the guest OS takes its last samples
 * and reports (HVPMU_OS_HALT).  Once. */
static void program_end(struct feed *f, int sig)
{
	if (f->ended)
		return;
	offload_stop(f);
	feed_mq_stop(f);
	/* At the exit QEMU has taken every callback off (qemu_plugin_user_exit):
	 * every batch can run.  A fatal signal's kill() comes while the other
	 * threads may still be recording: only this thread's batch runs, the
	 * others' last records are lost (docs/event-source.md "Batches"). */
	if (!sig) {
		for (uint32_t i = 0; i < f->nvcpu; i++)
			if (f->vcpu[i].live)
				feed_batch_flush(f, &f->vcpu[i]);
	} else if (self_vcpu) {
		feed_batch_flush(f, self_vcpu);
	}
	lock(f);
	if (!f->ended) {
		f->ended = 1;
		for (uint32_t i = 0; i < f->nvcpu; i++) {
			struct vcpu *v = &f->vcpu[i];

			if (!v->live)
				continue;
			if (v->nb) {
				/* records that will not run: the block entered
				 * last was not reached, its successor is unknown */
				v->prev = NULL;
				v->reached_last = 0;
				v->pend = 0;
			}
			feed_flush_vcpu(f, v);
		}
		if (f->exit_pending)
			hvpmu_machine_os_event(f->m, &f->exit_call);
		feed_os_event(f, HVPMU_OS_HALT, NULL, sig, NULL, 0);
	}
	unlock(f);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	struct feed *f = udata; /* the run */
	const char *st = getenv("HVPMU_QUIET_STATS");

	(void)id;
	if (f->exit_called) /* else a signal ends the program: kill() reports it */
		program_end(f, 0);
	/* tests: proof the mode ran (docs/event-source.md), to stderr (1) or
	 * appended to a file (an absolute path: a program may close its stderr) */
	if (st && (strcmp(st, "1") == 0 || st[0] == '/')) {
		FILE *out = st[0] == '/' ? fopen(st, "a") : stderr;

		if (out)
			fprintf(out, "hvpmu quiet: %llu quiet, %llu check, %llu full blocks; %llu budget syncs; "
				   "entered %llu times; %s\n",
				(unsigned long long)f->qblocks[FEED_Q_QUIET], (unsigned long long)f->qblocks[FEED_Q_CHECK],
				(unsigned long long)f->qblocks[FEED_Q_FULL], (unsigned long long)f->qsyncs,
				(unsigned long long)f->qentries, f->quiet ? "on to the end" : "off");
		if (out && out != stderr)
			fclose(out);
	}
	qemu_source_wall_end();
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
	struct feed *f = the_run; /* (no QEMU callback: NULL before the source starts, or attached) */

	if (pid == getpid() && ((f && !f->ended) || hvpmu_qemu_attach_active()) && ends_process(sig)) {
		sigset_t all, old;

		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		if (f)
			program_end(f, sig);
		else
			hvpmu_qemu_attach_end(sig);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	return (int)syscall(SYS_kill, pid, sig);
}

/* In a fork child (not followed: hvpmu stat without -f): its counts are
 * nobody's.  The guest OS hears nothing more from the machine, so the
 * child never publishes into the parent's result area; it runs on (its
 * model too, unseen) and the programs it starts run uncounted. */
static void fork_child(void)
{
	struct feed *f = the_run;

	feed_mq_fork_child(f);
	f->turn.on = 0; /* one thread, uncounted: no turns */
	f->gtime.on = 0;
	hvpmu_machine_set_os_handler(f->m, NULL, NULL);
	hvpmu_machine_set_trap_handler(f->m, NULL, NULL);
	hvpmu_machine_set_tsb_hit_handler(f->m, NULL, NULL);
}

/* A fork takes the run's lock first (pthread_atfork: no data either). */
static void fork_prepare(void)
{
	feed_mq_fork_prepare(the_run);
}

static void fork_parent(void)
{
	feed_mq_fork_parent(the_run);
}

static void register_callbacks(struct feed *f, qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	if (f->turn.quantum) /* (before turns start: a new thread waits for its turn from the first) */
		qemu_plugin_register_vcpu_idle_cb(id, turn_idle);
	qemu_plugin_register_vcpu_exit_cb(id, vcpu_exit);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_vcpu_syscall_cb(id, syscall_cb);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, syscall_ret_cb);
	qemu_plugin_register_flush_cb(id, flush_cb);
	qemu_plugin_register_atexit_cb(id, at_exit, f);
}

/* Totals only (docs/event-source.md): when the run reports its totals
 * alone, the events need nothing but instruction classes, the ISA says
 * which instructions restart, and QEMU's page flags can be read. */
static void quiet_start(struct feed *f, uint64_t totals_tick, unsigned features)
{
	const char *env = getenv("HVPMU_QUIET"), *wrap = getenv("HVPMU_QUIET_WRAP");

	if (!totals_tick || (features & ~(unsigned)HVPMU_FEAT_TAKEN) || !f->isa->restarts ||
	    (env && strcmp(env, "0") == 0))
		return;
	hvpmu_machine_cycle_rule(f->m, &f->rule);
	f->host_page = sysconf(_SC_PAGESIZE);
	if (!f->rule.insn_cycles || f->host_page < 4096 || (f->host_page & (f->host_page - 1)))
		return;
	f->qcap = totals_tick / 8 < FEED_QUIET_MAX_SUM ? totals_tick / 8 : FEED_QUIET_MAX_SUM;
	/* tests: leave the mode while a counter is this many instructions
	 * from a possible wrap */
	f->qwrap = wrap ? strtoull(wrap, NULL, 0) : FEED_QUIET_MIN_INSNS;
	f->q_reset = quiet_reset;
	f->quiet = f->qclass = f->qeligible = 1;
	f->qentries = 1;
	if (features & HVPMU_FEAT_TAKEN) { /* counted without the exact path (quiet_taken()) */
		f->qtk = 1;
		f->need_taken = 0;
	}
}

int hvpmu_qemu_source_start(uint64_t id, const struct qemu_info_t *info, struct hvpmu_machine *m,
			    const struct hvpmu_isa *isa, uint64_t totals_tick)
{
	unsigned features = hvpmu_machine_features(m);
	struct feed *f;

	if (qemu_source_check(info, isa))
		return -1;
	if (the_run) {
		fprintf(stderr, "hvpmu plugin: the source is started once per process\n");
		return -1;
	}
	f = feed_new(m, isa);
	if (!f || !(f->q_pend = calloc(f->nvcpu, sizeof *f->q_pend))) {
		feed_destroy(f);
		fprintf(stderr, "hvpmu plugin: out of memory\n");
		return -1;
	}
	f->id = id;
	f->slot_new = slot_new;
	if (turns_init(&f->turn, isa, f->nvcpu, turn_arm, f) ||
	    gtime_init(&f->gtime, isa, &f->turn, gtime_now, f, hvpmu_machine_md(m)->clock_hz)) {
		feed_destroy(f);
		return -1;
	}
	f->gtime.lagged = gtime_lagged;
	quiet_start(f, totals_tick, features);
	/* HVPMU_MODEL_THREAD=1: the memory model runs on a thread of its own
	 * (docs/event-source.md "Model thread": off by default, it measured
	 * slower on the 2-vCPU development machine; without the memory model
	 * the per-block work is smaller than the records' cost); if it cannot
	 * start, the guest thread runs the model */
	if (f->need_memory && getenv("HVPMU_MODEL_THREAD") && strcmp(getenv("HVPMU_MODEL_THREAD"), "1") == 0)
		offload_start(f);
	/* A thread may hold the lock in a system-call callback (outside QEMU's
	 * exclusive section) while another forks: the child would inherit it
	 * held.  Forks take it first. */
	hvpmu_qemu_follow_start(id, isa, 0); /* execve of the ISA's programs (syscall_cb) */
	the_run = f; /* (the run lives as long as the process: QEMU may call back until exit) */
	if (pthread_atfork(fork_prepare, fork_parent, fork_child) != 0) {
		fprintf(stderr, "hvpmu plugin: pthread_atfork failed\n");
		return -1;
	}
	register_callbacks(f, id);
	/* (it answers nothing before the turns start; an emulator without
	 * our patch 0004 has no filter: the guest's time stays the host's) */
	if (f->turn.quantum && qemu_plugin_register_vcpu_syscall_filter_cb && qemu_plugin_write_memory_vaddr &&
	    qemu_plugin_guest_host_address) {
		qemu_plugin_register_vcpu_syscall_filter_cb(id, gtime_filter_cb);
		f->gtime_filter = 1;
	}
	qemu_source_wall_start(NULL);
	return 0;
}
