/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * feed: the machine model's side of layer 1's event sources (feed.h):
 * accounting retired instructions by block, branch outcomes, memory
 * references and prefetches, syncs, batches and the guest-OS events of a
 * vCPU, for the QEMU plugin and the service's remote source.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "feed.h"

struct feed *feed_new(struct hvpmu_machine *m, const struct hvpmu_isa *isa)
{
	uint32_t n = hvpmu_machine_nstrands(m);
	unsigned features = hvpmu_machine_features(m);
	size_t size = sizeof(struct feed) + n * sizeof(struct vcpu);
	struct feed *f;

	size = (size + _Alignof(struct feed) - 1) / _Alignof(struct feed) * _Alignof(struct feed);
	if (!(f = aligned_alloc(_Alignof(struct feed), size)))
		return NULL;
	memset(f, 0, size);
	if (pthread_mutex_init(&f->lock, NULL)) {
		free(f);
		return NULL;
	}
	f->m = m;
	f->isa = isa;
	f->nvcpu = n;
	f->need_taken = (features & HVPMU_FEAT_TAKEN) != 0;
	f->need_branches = (features & HVPMU_FEAT_BRANCHES) != 0;
	f->need_memory = (features & HVPMU_FEAT_MEMORY) != 0;
	/* class used if 64 distinct classes were ever exceeded: a NOP's */
	f->fallback_class = hvpmu_machine_class(m, HVPMU_IC_OTHER);
	return f;
}

void feed_destroy(struct feed *f)
{
	if (!f)
		return;
	feed_free_blocks(f);
	for (uint32_t k = 0; k < f->nvcpu; k++) {
		free(f->vcpu[k].batch);
		free(f->vcpu[k].spare);
		free(f->vcpu[k].qsynced);
	}
	for (uint32_t c = 0; c < f->nqchunks; c++)
		free(f->qchunks[c]);
	free(f->qchunks);
	free(f->q_pend);
	free(f->mq.q);
	free(f->mq.done_now);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

static inline void expand(struct vcpu *v, struct tb_info *t, uint64_t d)
{
	for (uint32_t k = 0; k < t->nhist; k++)
		v->act->icount[t->hist[k].cls] += d * t->hist[k].n;
}

/* Expand the whole executions of dirty blocks into class counts: due
 * before every machine sync (single-threaded mode). */
void feed_expand_dirty(struct feed *f, struct vcpu *v)
{
	while (v->dirty) {
		struct tb_info *t = v->dirty;
		uint64_t now = f->off ? t->oexecs : feed_execs(t);

		expand(v, t, now - t->synced_execs);
		t->synced_execs = now;
		t->dirty = 0;
		v->dirty = t->next_dirty;
	}
	/* totals only: a quiet or check block is never on the dirty list
	 * (no callback sees its end); its entries also go into the bound now
	 * (a full block's went in at each entry); v's row of each counter
	 * (a vCPU that is not live was expanded as its thread ended) */
	if (f->qclass && v->live) {
		for (uint32_t i = 0; i < f->nq; i++) {
			struct feed_qchunk *c = f->qchunks[i / FEED_QCHUNK];
			uint32_t k = i % FEED_QCHUNK;
			uint64_t d = *feed_slot_v(f, c->slot[k], v) - v->qsynced[i];

			if (!d)
				continue;
			v->qsynced[i] += d;
			expand(v, c->ti[k], d);
			v->act->bound += d * c->ti[k]->blk.n;
		}
		v->act->taken_cond += v->qtaken;
		v->qtaken = 0;
	}
}

/* Room in v->qsynced for every quiet counter of `nchunks` chunks (the
 * new part 0: the counts of slots never run, or a fresh vCPU's row). */
static int qsynced_grow(struct vcpu *v, uint32_t from, uint32_t nchunks)
{
	uint64_t *a;

	if (from == nchunks)
		return 0;
	if (!(a = realloc(v->qsynced, (size_t)nchunks * FEED_QCHUNK * sizeof *a)))
		return -1;
	memset(a + (size_t)from * FEED_QCHUNK, 0, (size_t)(nchunks - from) * FEED_QCHUNK * sizeof *a);
	v->qsynced = a;
	return 0;
}

int feed_quiet_counter(struct feed *f, struct tb_info *ti, uint32_t *slot)
{
	uint32_t c = f->nq / FEED_QCHUNK, k = f->nq % FEED_QCHUNK;

	if (c == f->nqchunks) {
		struct feed_qchunk **a = realloc(f->qchunks, (c + 1) * sizeof *a);

		if (!a)
			return -1;
		f->qchunks = a;
		/* every vCPU that has run (or runs) keeps a count per counter */
		for (uint32_t i = 0; i < f->nvcpu; i++)
			if ((f->vcpu[i].live || f->vcpu[i].qsynced) && qsynced_grow(&f->vcpu[i], c, c + 1))
				return -1;
		if (!(a[c] = calloc(1, sizeof **a)))
			return -1;
		f->nqchunks = c + 1;
	}
	/* a slot a re-translation freed serves again (each vCPU's row and its
	 * qsynced agree: they were expanded as its blocks went); a new one is 0 */
	if (k >= f->qchunks[c]->nslots) {
		if (f->slot_new(f, &f->qchunks[c]->slot[k]))
			return -1;
		f->qchunks[c]->nslots = k + 1;
	}
	f->qchunks[c]->ti[k] = ti;
	f->nq++;
	*slot = f->qchunks[c]->slot[k];
	return 0;
}

/* The instructions u's strand may retire before one of its counters could
 * wrap (hvpmu_machine_budget() less those already counted) and the cycles
 * before its next OS tick or other due event (*cyc); -1 if the machine
 * gives no budget. */
static int strand_room(struct feed *f, const struct vcpu *u, uint64_t *insns, uint64_t *cyc)
{
	uint64_t insn_check = 0;

	*cyc = 0;
	if (hvpmu_machine_budget(f->m, u->strand, &insn_check, cyc) != HVPMU_OK)
		return -1;
	*insns = insn_check > u->act->bound ? insn_check - u->act->bound : 0;
	return 0;
}

void feed_quiet_rearm(struct feed *f, struct vcpu *v)
{
	uint64_t cyc, r = 0, lim;
	int ok;

	if (!f->qeligible || f->ended || f->qswitch || (!f->quiet && f->qclass))
		return;
	ok = strand_room(f, v, &r, &cyc) == 0;
	if (!f->quiet) { /* out of the mode: back when every counter of every strand run is past its wrap */
		for (uint32_t i = 0; ok && r / 2 >= f->qwrap && i < f->nvcpu; i++)
			if (&f->vcpu[i] != v && f->vcpu[i].live)
				ok = strand_room(f, &f->vcpu[i], &r, &cyc) == 0;
		if (ok && r / 2 >= f->qwrap) {
			f->qswitch = 2;
			f->q_reset(f);
		}
		return;
	}
	if (!ok || r < f->qwrap) {
		feed_quiet_leave(f);
		f->q_reset(f);
		return;
	}
	/* an instruction takes insn_cycles at least: r of them at least that
	 * many times r cycles (syncs before a counter wraps: early, harmless) */
	lim = r > UINT64_MAX / f->rule.insn_cycles ? UINT64_MAX : r * f->rule.insn_cycles;
	if (cyc < lim)
		lim = cyc;
	feed_quiet_limit(f, v, feed_qcyc(f, v) > UINT64_MAX - lim ? UINT64_MAX : feed_qcyc(f, v) + lim);
	/* the full blocks' exact path syncs only when v->qlimit says so */
	v->act->next_check = UINT64_MAX;
}

/*
 * Account the instructions of v->prev that retired, given that the next
 * block starts at `vaddr` (0 if none: system call, exit, flush).
 */
int feed_account_prev(struct feed *f, struct vcpu *v, uint64_t vaddr)
{
	struct tb_info *p = v->prev;
	int reached;

	v->prev = NULL;
	if (!p)
		return 0;
	if (p->mt) {
		/* several threads: a batch's or the service's record says;
		 * else its counter (v's row) moved since its entry */
		reached = v->held || !p->execs ? v->reached_last
					       : feed_execs_v(v, p) != (f->batch ? v->bmark : v->mark_seen);
		v->reached_last = 0;
		if (reached)
			add_whole(v, p);
	} else {
		/* the model thread is told by the record (REC_TB); here the
		 * inline counter is read live */
		reached = f->off ? v->reached_last : feed_execs_v(v, p) != v->mark_seen;
		v->reached_last = 0;
		if (reached)
			note_completed(f, v, p);
	}
	if (reached) {
		if (vaddr == p->last_pc && !p->cti_self) /* the last instruction trapped and restarts */
			v->act->icount[p->last_cls]--;
		else if (p->slot_annul && vaddr == p->last_pc + f->isa->insn_bytes && vaddr != p->cti_target)
			v->act->icount[p->last_cls]--; /* not taken: its slot was annulled */
	} else if (vaddr >= p->blk.vaddr && vaddr < p->last_pc) {
		/* left early: instruction (vaddr - start) / 4 trapped and restarts */
		add_prefix(v, p, (vaddr - p->blk.vaddr) / f->isa->insn_bytes);
	}
	/* else left early at an unknown instruction (a guest signal handler
	 * took over): nothing of it is counted (docs/event-source.md) */
	return reached;
}

/* Bring the strand's activity up to date and sync the machine. */
void feed_sync_vcpu(struct feed *f, struct vcpu *v, const struct tb_info *last, const struct tb_info *next)
{
	feed_expand_dirty(f, v);
	hvpmu_machine_sync(f->m, v->strand, last ? &last->blk : NULL, next ? &next->blk : NULL);
	feed_quiet_rearm(f, v);
}

/* Prefetches whose later donor did not run (the block was left early):
 * unresolved. */
void feed_drop_pending_prefetches(struct feed *f, struct vcpu *v)
{
	for (unsigned k = 0; k < v->npf_pend; k++)
		hvpmu_machine_prefetch_unresolved(f->m, v->strand);
	v->npf_pend = 0;
}

static void block_entry(struct feed *f, struct vcpu *v, struct tb_info *ti, int sync)
{
	const struct tb_info *last = v->prev;

	if (v->npf_pend)
		feed_drop_pending_prefetches(f, v);
	resolve_pending(f, v, ti->blk.vaddr, feed_account_prev(f, v, ti->blk.vaddr));
	set_pending(f, v, ti);
	if (f->need_memory) {
		/* the strands share caches, L3s and the address space: one at a time */
		if (f->mt && !v->held)
			lock(f);
		hvpmu_machine_ifetch(f->m, v->strand, ti->blk.vaddr, ti->bytes);
		if (f->mt && !v->held)
			unlock(f);
	}
	v->act->bound += ti->blk.n;
	if (sync || v->act->bound >= v->act->next_check) {
		if (!v->held)
			lock(f);
		feed_sync_vcpu(f, v, last, ti);
		if (!v->held)
			unlock(f);
	}
	note_entered(f, v, ti);
}

void feed_block_entry(struct feed *f, struct vcpu *v, struct tb_info *ti)
{
	block_entry(f, v, ti, 0);
}

/* Memory model: a data access of `size` bytes by the instruction mi.
 * SPARC accesses are naturally aligned, so one of up to 8 bytes stays in
 * one cache line; QEMU splits block loads and stores into 8-byte accesses. */
void feed_mem_access(struct feed *f, struct vcpu *v, const struct mem_insn *mi, uint64_t vaddr, unsigned size, int store)
{
	if (mi->rec_slot >= 0)
		v->pf_base[mi->rec_slot] = vaddr;
	if (f->mt && !v->held) /* shared caches and address space (docs/coherence-model.md) */
		lock(f);
	if (mi->after && v->npf_pend) { /* the prefetches waiting for this access go first */
		unsigned keep = 0;

		for (unsigned k = 0; k < v->npf_pend; k++) {
			const struct pf_insn *p = v->pf_pend[k];

			if (p->donor == mi)
				hvpmu_machine_prefetch(f->m, v->strand, p->pc, vaddr + (uint64_t)p->delta, p->dest);
			else
				v->pf_pend[keep++] = p;
		}
		v->npf_pend = keep;
	}
	hvpmu_machine_dref(f->m, v->strand, mi->d.pc, vaddr, size, mi->d.si_flags, mi->is_store || store);
	if (f->mt && !v->held)
		unlock(f);
}

/* A software prefetch starts (QEMU reports no memory access for it). */
void feed_pf_access(struct feed *f, struct vcpu *v, const struct pf_insn *p)
{
	if (f->mt && !v->held)
		lock(f);
	switch (p->how) {
	case HVPMU_PF_ABSOLUTE:
		hvpmu_machine_prefetch(f->m, v->strand, p->pc, (uint64_t)p->delta, p->dest);
		break;
	case HVPMU_PF_BEFORE:
		hvpmu_machine_prefetch(f->m, v->strand, p->pc, v->pf_base[p->slot] + (uint64_t)p->delta, p->dest);
		break;
	case HVPMU_PF_AFTER:
		if (v->npf_pend < PF_PEND)
			v->pf_pend[v->npf_pend++] = p;
		else /* no room to wait */
			hvpmu_machine_prefetch_unresolved(f->m, v->strand);
		break;
	default:
		hvpmu_machine_prefetch_unresolved(f->m, v->strand);
		break;
	}
	if (f->mt && !v->held)
		unlock(f);
}

/* The interpreter (feed_run_ev), inlined into the plugin's record walker
 * so that each kind's case is its own straight line. */
static inline __attribute__((always_inline)) void run_ev(struct feed *f, struct vcpu *v, const struct feed_ev *e)
{
	int held;

	if (!v && e->kind != FEED_EV_TRANS && e->kind != FEED_EV_FLUSH)
		return;
	switch (e->kind) {
	case FEED_EV_TB:
		if (e->reg) /* the pending CTI's outcome from its registers */
			v->reg_taken = e->reg;
		if (e->sync) { /* (the service: past a grant, the syncs left out catch up here) */
			v->reached_last = e->reached;
			block_entry(f, v, e->ti, 1);
		} else if (!entry_fast(f, v, e->ti, e->reached)) {
			v->reached_last = e->reached;
			block_entry(f, v, e->ti, 0);
		}
		break;
	case FEED_EV_MEM:
		feed_mem_access(f, v, e->mi, e->a, e->size, e->store);
		break;
	case FEED_EV_PF:
		feed_pf_access(f, v, e->pf);
		break;
	case FEED_EV_CNT:
		expand(v, e->ti, e->a);
		break;
	case FEED_EV_FAST:
		/* the block before is in the counts; this one is accounted by
		 * the next event, as after a TB; the source decided the
		 * outcomes of the CTIs before it */
		v->prev = e->ti;
		v->reached_last = 0;
		v->act->bound += e->a;
		v->act->taken_cond += e->b;
		v->pend = 0;
		set_pending(f, v, e->ti);
		break;
	case FEED_EV_SYSCALL:
	case FEED_EV_SYSRET:
		held = v->held; /* (they take the lock themselves) */
		v->held = 0;
		if (e->kind == FEED_EV_SYSCALL) {
			v->reached_last = e->reached;
			feed_syscall_entry(f, v, (int64_t)e->a, e->args);
		} else {
			feed_syscall_return(f, v, (int64_t)e->a, (int64_t)e->b);
		}
		v->held = held;
		break;
	case FEED_EV_FLUSH:
		if (v)
			v->reached_last = e->reached;
		feed_flush_all(f);
		break;
	case FEED_EV_TRANS:
		feed_finish_tb(f, e->ti);
		break;
	}
}

void feed_run_ev(struct feed *f, struct vcpu *v, const struct feed_ev *e)
{
	run_ev(f, v, e);
}

/* A control record (not CTL_STOP) of the model thread's ring: its slots. */
static size_t ctl_run(struct feed *f, struct vcpu *v, const struct evrec *e)
{
	uint8_t reached = (e->w0 & CTL_REACHED) != 0;

	switch (CTL_OP(e->w0)) {
	case CTL_TRANS:
		run_ev(f, v, &(struct feed_ev){ .kind = FEED_EV_TRANS, .ti = (struct tb_info *)(uintptr_t)e->w1 });
		return 1;
	case CTL_SYSCALL: {
		const uint64_t args[6] = { e[1].w0, e[1].w1, e[2].w0, e[2].w1, e[3].w0, e[3].w1 };

		run_ev(f, v, &(struct feed_ev){ .kind = FEED_EV_SYSCALL, .a = e->w1, .args = args, .reached = reached });
		return 4;
	}
	case CTL_SYSRET:
		run_ev(f, v, &(struct feed_ev){ .kind = FEED_EV_SYSRET, .a = e->w1, .b = e[1].w0 });
		return 2;
	case CTL_FLUSH:
		run_ev(f, v, &(struct feed_ev){ .kind = FEED_EV_FLUSH, .reached = reached });
		return 1;
	default: /* CTL_NOP: padding */
		return 1;
	}
}

/*
 * The plugin's records (feed.h REC_*), decoded: a block entry, a data
 * access, a prefetch (a batch holds only those), and the model thread's
 * control records, of one to four slots.
 */
size_t feed_run_evrecs(struct feed *f, struct vcpu *v, const struct evrec *r, size_t n, int *stop)
{
	size_t i = 0;

	while (i < n) {
		uint64_t w0 = r[i].w0;

		/* (the model thread: the lines the guest thread wrote last come
		 * from its core; ask early, a prefetch never faults) */
		__builtin_prefetch(&r[i + EVRING_AHEAD]);
		switch (w0 & REC_KIND) {
		case REC_TB:
			run_ev(f, v, &(struct feed_ev){ .kind = FEED_EV_TB, .ti = (struct tb_info *)(uintptr_t)(w0 & ~UINT64_C(7)),
							 .reached = (uint8_t)((w0 >> 2) & 1u), .reg = (uint8_t)r[i].w1 });
			i++;
			break;
		case REC_MEM:
			run_ev(f, v, &(struct feed_ev){ .kind = FEED_EV_MEM,
							 .mi = (const struct mem_insn *)(uintptr_t)(w0 & ~(uint64_t)(MEM_INSN_ALIGN - 1)),
							 .a = r[i].w1, .size = 1u << ((w0 >> 2) & 7u), .store = (uint8_t)((w0 >> 5) & 1u) });
			i++;
			break;
		case REC_PF:
			run_ev(f, v, &(struct feed_ev){ .kind = FEED_EV_PF,
							 .pf = (const struct pf_insn *)(uintptr_t)(w0 & ~(uint64_t)REC_KIND) });
			i++;
			break;
		default:
			if (CTL_OP(w0) == CTL_STOP) {
				*stop = 1;
				return i + 1;
			}
			i += ctl_run(f, v, &r[i]);
			break;
		}
	}
	return i;
}

/* Run v's batch through the model, record by record, as the callbacks
 * would have without it; the caller holds the lock. */
static void batch_run_recs(struct feed *f, struct vcpu *v, const struct evrec *r, uint32_t n)
{
	int stop = 0;

	v->held = 1;
	feed_run_evrecs(f, v, r, n, &stop);
	v->held = 0;
	v->reached_last = 0;
}

void feed_batch_run(struct feed *f, struct vcpu *v)
{
	batch_run_recs(f, v, v->batch, v->nb);
	v->nb = 0;
}

/* Run v's batch now: before anything else uses the model for v.  Called on
 * v's own thread, or on another while v's thread runs no callback
 * (QEMU's exclusive sections: a translation flush, the exit). */
void feed_batch_flush(struct feed *f, struct vcpu *v)
{
	/* with the model queue, also once the queue has run v's batches: its
	 * thread sets v->held while it runs one, which tells the model's
	 * functions that the lock is held (they take it themselves else) */
	if (v->nb || f->mq.on) {
		lock(f);
		if (v->nb)
			feed_batch_run(f, v);
		unlock(f);
	}
}

/* ---- the model queue (docs/event-source.md "The model queue") ----
 *
 * In turns only one guest thread records at a time, so the order in which
 * batches are handed over is the turns' order, the same on every run.  The
 * queue's thread runs them in that order, under the lock, while the next
 * turn's thread runs its guest code: the model's work and the guest's
 * overlap, and the model still takes the threads' references turn by
 * turn.  A vCPU has two buffers; it records into one while the queue holds
 * the other, so the queue holds at most one batch per vCPU (mq.q has
 * nvcpu entries). */

static void *mq_thread(void *arg)
{
	struct feed *f = arg;
	struct feed_mq *q = &f->mq;

	pthread_mutex_lock(&q->mu);
	for (;;) {
		struct feed_mq_item it;
		uint64_t now;

		while (!q->n && !q->stop)
			pthread_cond_wait(&q->work, &q->mu);
		if (!q->n)
			break;
		it = q->q[q->head]; /* (it stays queued while it runs: lock() waits for it) */
		pthread_mutex_unlock(&q->mu);
		pthread_mutex_lock(&f->lock);
		batch_run_recs(f, it.v, it.r, it.n);
		now = hvpmu_machine_now(f->m);
		pthread_mutex_unlock(&f->lock);
		pthread_mutex_lock(&q->mu);
		/* this batch is number put_seq - n + 1 */
		q->done_now[(q->put_seq - q->n + 1) % (f->nvcpu + 1)] = now;
		q->head = (q->head + 1) % f->nvcpu;
		q->n--;
		it.v->spare = it.r;
		pthread_cond_broadcast(&q->idle);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

/* v's spare buffer (the model queue), if it has a batch and none yet. */
static int mq_spare(struct feed *f, struct vcpu *v)
{
	return f->mq.on && v->batch && !v->spare && !(v->spare = malloc(BATCH_MAX * sizeof *v->spare)) ? -1 : 0;
}

int feed_mq_start(struct feed *f)
{
	struct feed_mq *q = &f->mq;
	sigset_t all, old;
	int err;

	if (q->on)
		return 0;
	if (!q->q && !(q->q = calloc(f->nvcpu, sizeof *q->q)))
		return -1;
	if (!q->done_now && !(q->done_now = calloc(f->nvcpu + 1, sizeof *q->done_now)))
		return -1;
	q->on = 1;
	for (uint32_t i = 0; i < f->nvcpu; i++)
		if (mq_spare(f, &f->vcpu[i])) {
			q->on = 0;
			return -1;
		}
	q->head = q->n = 0;
	q->stop = 0;
	q->put_seq = 0;
	pthread_mutex_lock(&f->lock);
	q->done_now[0] = hvpmu_machine_now(f->m);
	pthread_mutex_unlock(&f->lock);
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->work, NULL);
	pthread_cond_init(&q->idle, NULL);
	/* QEMU handles the guest's signals on its vCPU threads: this one takes none */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&q->thr, NULL, mq_thread, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		q->on = 0;
	return err ? -1 : 0;
}

/* Under mq.mu: wait until every queued batch has run. */
static void mq_wait_empty(struct feed_mq *q)
{
	while (q->n)
		pthread_cond_wait(&q->idle, &q->mu);
}

void feed_mq_lock(struct feed *f)
{
	pthread_mutex_lock(&f->mq.mu);
	mq_wait_empty(&f->mq);
	pthread_mutex_lock(&f->lock); /* (the queue's thread takes it only with a batch queued) */
	pthread_mutex_unlock(&f->mq.mu);
}

void feed_mq_put(struct feed *f, struct vcpu *v)
{
	struct feed_mq *q = &f->mq;

	if (!v->nb)
		return;
	pthread_mutex_lock(&q->mu);
	while (!v->spare) /* the batch it handed over before is still queued */
		pthread_cond_wait(&q->idle, &q->mu);
	q->q[(q->head + q->n) % f->nvcpu] = (struct feed_mq_item){ v, v->batch, v->nb };
	q->n++;
	q->put_seq++;
	v->batch = v->spare;
	v->spare = NULL;
	v->nb = 0;
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->mu);
}

uint64_t feed_mq_lagged_now(struct feed *f)
{
	struct feed_mq *q = &f->mq;
	uint64_t s, now;

	pthread_mutex_lock(&q->mu);
	/* batches put_seq - n + 1 .. put_seq are queued (n <= nvcpu), so
	 * batch s has run; later ones (at most put_seq) leave its entry be */
	s = q->put_seq > f->nvcpu ? q->put_seq - f->nvcpu : 0;
	now = q->done_now[s % (f->nvcpu + 1)];
	pthread_mutex_unlock(&q->mu);
	return now;
}

void feed_mq_stop(struct feed *f)
{
	struct feed_mq *q = &f->mq;

	if (!q->on)
		return;
	pthread_mutex_lock(&q->mu);
	mq_wait_empty(q);
	q->stop = 1;
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->mu);
	pthread_join(q->thr, NULL);
	q->on = 0;
}

void feed_mq_fork_prepare(struct feed *f)
{
	if (f->mq.on) {
		pthread_mutex_lock(&f->mq.mu);
		mq_wait_empty(&f->mq);
	}
	pthread_mutex_lock(&f->lock);
}

void feed_mq_fork_parent(struct feed *f)
{
	pthread_mutex_unlock(&f->lock);
	if (f->mq.on)
		pthread_mutex_unlock(&f->mq.mu);
}

void feed_mq_fork_child(struct feed *f)
{
	pthread_mutex_unlock(&f->lock);
	if (f->mq.on) {
		pthread_mutex_unlock(&f->mq.mu);
		f->mq.on = 0; /* its thread is the parent's (the queue was empty: every buffer is a vCPU's) */
	}
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
void feed_finish_tb(struct feed *f, struct tb_info *ti)
{
	for (uint32_t i = 0; i < ti->blk.n; i++) {
		int cls = hvpmu_machine_class(f->m, ti->flags[i]);

		ti->cls[i] = (uint8_t)(cls < 0 ? f->fallback_class : cls);
	}
	ti->last_cls = ti->cls[ti->blk.n - 1];
	build_histogram(ti, (struct class_count *)((char *)ti + tb_hist_offset(ti->blk.n)));
	free(ti->flags);
	ti->flags = NULL;
}

/* Tell the machine about a guest-OS event of v's strand (its activity
 * is accounted and synced already; v NULL: HALT). */
void feed_os_event(struct feed *f, enum hvpmu_os_event ev, const struct vcpu *v, int64_t num, const uint64_t *args, int64_t ret)
{
	struct hvpmu_os_call c = { .ev = ev, .num = num, .ret = ret };

	if (v) {
		c.strand = v->strand;
		c.process = v->process;
	}
	if (args)
		memcpy(c.args, args, sizeof c.args);
	hvpmu_machine_os_event(f->m, &c);
}

/* Account everything the vCPU ran so far and sync its strand: before its
 * thread or the program ends. */
void feed_flush_vcpu(struct feed *f, struct vcpu *v)
{
	const struct tb_info *last = v->prev;

	feed_drop_pending_prefetches(f, v);
	feed_account_prev(f, v, 0);
	feed_sync_vcpu(f, v, last, NULL);
}

/* A system call starts (args: its first six arguments).  The trap
 * instruction (last of its block) retired in user mode; the guest OS takes
 * it (hvpmu_machine_os_event).  exit_group ends every thread of the
 * process: each one's activity is accounted first. */
void feed_syscall_entry(struct feed *f, struct vcpu *v, int64_t num, const uint64_t *args)
{
	const struct tb_info *last;

	lock(f);
	last = v->prev;
	feed_account_prev(f, v, 0);
	resolve_pending(f, v, 0, 1);
	feed_sync_vcpu(f, v, last, NULL);
	if (num == f->isa->sc.exit_group && f->batch) {
		/* The other threads' batches can run only at the end (program_end):
		 * their threads record on until QEMU stops them.  The guest OS
		 * stops every strand's counters at exit_group, so it hears of it
		 * then, after those batches. */
		f->exit_pending = 1;
		f->exit_call = (struct hvpmu_os_call){
			.ev = HVPMU_OS_SYSCALL, .strand = v->strand, .num = num, .process = v->process
		};
		memcpy(f->exit_call.args, args, sizeof f->exit_call.args);
		unlock(f);
		return;
	}
	if (num == f->isa->sc.exit_group)
		f->qeligible = 0; /* totals only: no vCPU's budget is set again (the others' qrem
				    rows are theirs to write: feed_quiet_limit()) */
	if (num == f->isa->sc.exit_group || num == f->isa->sc.exit)
		for (uint32_t i = 0; i < f->nvcpu; i++)
			if (f->vcpu[i].live && (&f->vcpu[i] == v ||
					       (num == f->isa->sc.exit_group && f->vcpu[i].process == v->process)))
				feed_flush_vcpu(f, &f->vcpu[i]);
	feed_os_event(f, HVPMU_OS_SYSCALL, v, num, args, 0);
	unlock(f);
}

/* A system call returns `ret`. */
void feed_syscall_return(struct feed *f, struct vcpu *v, int64_t num, int64_t ret)
{
	lock(f);
	feed_os_event(f, HVPMU_OS_SYSRET, v, num, NULL, ret);
	feed_quiet_rearm(f, v);
	unlock(f);
}


/* Fill the run's translation scratch (f->scratch_mi, scratch_pf: each
 * lives as long as the block's tb_info) for the block: data accesses get a mem_insn, prefetches a
 * pf_insn linked to their donor (hvpmu_prefetch_resolve()). */
static void prepare_memory(struct feed *f, uint64_t vaddr, const uint32_t *words, uint32_t n)
{
	unsigned slots = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t pc = vaddr + (uint64_t)i * f->isa->insn_bytes;
		struct hvpmu_insn d;

		f->scratch_mi[i] = NULL;
		f->scratch_pf[i] = NULL;
		f->isa->decode(words[i], 0, &d);
		if ((d.flags & (HVPMU_IC_LOAD | HVPMU_IC_STORE | HVPMU_IC_ATOMIC)) &&
		    (f->scratch_mi[i] = aligned_alloc(MEM_INSN_ALIGN, MEM_INSN_ALIGN))) {
			memset(f->scratch_mi[i], 0, sizeof *f->scratch_mi[i]);
			f->scratch_mi[i]->d.pc = pc;
			f->scratch_mi[i]->d.si_flags = d.flags;
			f->scratch_mi[i]->is_store = (d.flags & HVPMU_IC_STORE) != 0;
			f->scratch_mi[i]->rec_slot = -1;
			f->scratch_mi[i]->pinfo = UINT64_MAX;
			f->scratch_mi[i]->feed = f;
		}
		if ((d.flags & HVPMU_IC_PREFETCH) && f->isa->prefetch_resolve &&
		    (f->scratch_pf[i] = calloc(1, sizeof *f->scratch_pf[i]))) {
			f->scratch_pf[i]->pc = pc;
			f->scratch_pf[i]->dest = (uint8_t)f->isa->prefetch_dest(words[i]);
			f->scratch_pf[i]->feed = f;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		struct pf_insn *p = f->scratch_pf[i];
		struct hvpmu_pf_link l;

		if (!p)
			continue;
		f->isa->prefetch_resolve(words, n, i, &l);
		if ((l.how == HVPMU_PF_BEFORE || l.how == HVPMU_PF_AFTER) && !f->scratch_mi[l.donor])
			l.how = HVPMU_PF_UNRESOLVED; /* out of memory */
		if (l.how == HVPMU_PF_BEFORE && f->scratch_mi[l.donor]->rec_slot < 0) {
			if (slots == PF_SLOTS)
				l.how = HVPMU_PF_UNRESOLVED;
			else
				f->scratch_mi[l.donor]->rec_slot = (int8_t)slots++;
		}
		p->how = (uint8_t)l.how;
		p->delta = l.delta;
		if (l.how == HVPMU_PF_BEFORE)
			p->slot = (uint8_t)f->scratch_mi[l.donor]->rec_slot;
		if (l.how == HVPMU_PF_AFTER) {
			p->donor = f->scratch_mi[l.donor];
			f->scratch_mi[l.donor]->after = 1;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		if (f->scratch_mi[i])
			f->scratch_mi[i]->donor = f->scratch_mi[i]->rec_slot >= 0 || f->scratch_mi[i]->after;
}

struct tb_info *feed_block_new(struct feed *f, uint64_t vaddr, const uint32_t *words, uint32_t n, struct mem_insn *const **mi,
			       struct pf_insn *const **pf)
{
	struct tb_info *ti;
	size_t size;

	if (n == 0 || n > FEED_MAX_INSNS)
		return NULL;
	size = tb_hist_offset(n) + n * sizeof(struct class_count);
	size = (size + TB_INFO_ALIGN - 1) / TB_INFO_ALIGN * TB_INFO_ALIGN; /* aligned_alloc: a multiple */
	ti = aligned_alloc(TB_INFO_ALIGN, size);
	if (!ti)
		return NULL;
	memset(ti, 0, size);
	if (!(ti->flags = malloc(n * sizeof *ti->flags))) {
		free(ti);
		return NULL;
	}
	ti->blk.vaddr = vaddr;
	ti->blk.n = n;
	ti->blk.cond_cti = -1;
	ti->blk.cti = -1;
	ti->blk.cls = ti->cls;
	ti->feed = f;
	ti->bytes = n * f->isa->insn_bytes;
	ti->last_pc = vaddr + (n - 1) * (uint64_t)f->isa->insn_bytes;
	ti->mt = f->mt && !f->qclass; /* totals only: an inline counter per vCPU (its scoreboard row) */
	ti->next_alloc = f->allocs;
	f->allocs = ti;
	if (f->need_memory)
		prepare_memory(f, vaddr, words, n);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t pc = vaddr + (uint64_t)i * f->isa->insn_bytes;
		struct hvpmu_insn d;

		f->isa->decode(words[i], pc, &d);
		ti->flags[i] = d.flags;
		if (d.flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) {
			/* (taken_at, wait_at: what the fast paths read, worked
			 * out once; set_pending(), resolve_pending()) */
			const struct feed_cti c = feed_cti_facts(f->isa, &d, pc, i, n);

			ti->blk.cti = (int32_t)i;
			ti->blk.cond_cti = (d.flags & HVPMU_IC_CTI_COND) && d.has_target ? (int32_t)i : -1;
			ti->cti_target = d.has_target ? d.target : 0;
			ti->cti_pc = pc;
			ti->cti_ds = c.ds;
			ti->cti_fall = pc + (uint64_t)f->isa->insn_bytes * (1u + f->isa->delay_slot);
			ti->cti_self = !f->isa->delay_slot && i + 1 == n && d.has_target && d.target == pc;
			ti->cti_flags = d.flags;
			ti->cti_annul = c.annul;
			ti->slot_annul = c.slot_annul;
			ti->taken_at = c.taken_at;
			ti->wait_at = c.wait_at;
		}
	}
	ti->pends = ti->blk.cti >= 0 && (f->need_branches || (f->need_taken && (ti->cti_flags & HVPMU_IC_CTI_COND)));
	/* a conditional CTI to a register (ppc64 bclr/bcctr) is taken iff
	 * execution does not go on where it falls through: resolve_pending()
	 * decides it, on the slow path */
	ti->slow_next = ti->mt || ti->slot_annul || ((ti->cti_flags & HVPMU_IC_CTI_COND) && ti->blk.cond_cti < 0);
	if (mi)
		*mi = f->need_memory ? f->scratch_mi : NULL;
	if (pf)
		*pf = f->need_memory ? f->scratch_pf : NULL;
	return ti;
}

int feed_vcpu_start(struct feed *f, struct vcpu *v, uint32_t strand, uint32_t process)
{
	/* QEMU gives a new thread the index of one that exited (the
	 * highest free): its batch buffer serves again */
	struct evrec *batch = v->batch, *spare = v->spare;
	uint64_t *qsynced = v->qsynced;

	memset(v, 0, sizeof *v);
	v->batch = batch;
	v->spare = spare;
	v->qsynced = qsynced;
	v->row = (uint32_t)(v - f->vcpu) * FEED_SLOT_CHUNK;
	if (!v->qsynced && qsynced_grow(v, 0, f->nqchunks))
		return -1;
	if (f->need_memory && !v->batch && !(v->batch = malloc(BATCH_MAX * sizeof *v->batch)))
		return -1;
	if (mq_spare(f, v))
		return -1;
	v->live = 1;
	v->strand = strand;
	v->process = process;
	v->act = hvpmu_machine_activity(f->m, v->strand);
	feed_os_event(f, HVPMU_OS_THREAD_START, v, 0, NULL, 0);
	feed_quiet_rearm(f, v);
	return 0;
}

void feed_vcpu_exit(struct feed *f, struct vcpu *v)
{
	feed_batch_flush(f, v);
	lock(f);
	feed_flush_vcpu(f, v);
	feed_os_event(f, HVPMU_OS_THREAD_EXIT, v, 0, NULL, 0);
	v->live = 0; /* the index is free: QEMU may give it to the next thread */
	unlock(f);
}

int feed_switch_out(struct feed *f, struct vcpu *v, const struct tb_info *next, int reached, uint8_t reg)
{
	const struct tb_info *last = v->prev;

	if (v->pend && next->blk.vaddr == pend_ds(v) && !v->pend_tb->cti_annul)
		return 0;
	if (reg)
		v->reg_taken = reg;
	v->reached_last = reached;
	if (v->npf_pend)
		feed_drop_pending_prefetches(f, v);
	resolve_pending(f, v, next->blk.vaddr, feed_account_prev(f, v, next->blk.vaddr));
	v->pend = 0;
	v->reg_taken = 0;
	feed_sync_vcpu(f, v, last, NULL);
	return 1;
}

void feed_flush_all(struct feed *f)
{
	/* Translation blocks are gone: no block may be referenced any more.
	 * Their tb_info stay allocated until exit (bounded by translations).
	 * QEMU flushes them with every vCPU stopped: their batches run now. */
	for (uint32_t i = 0; i < f->nvcpu; i++)
		if (f->vcpu[i].live)
			feed_batch_flush(f, &f->vcpu[i]);
	lock(f);
	for (uint32_t i = 0; i < f->nvcpu; i++) {
		feed_account_prev(f, &f->vcpu[i], 0);
		feed_expand_dirty(f, &f->vcpu[i]);
	}
	unlock(f);
}

void feed_block_own(struct feed *f, struct tb_info *ti)
{
	if (f->allocs == ti) /* (feed_block_new put it first) */
		f->allocs = ti->next_alloc;
	ti->next_alloc = NULL;
}

void feed_block_free(struct tb_info *ti)
{
	if (!ti)
		return;
	free(ti->flags);
	free(ti);
}

void feed_free_blocks(struct feed *f)
{
	while (f->allocs) {
		struct tb_info *t = f->allocs;

		f->allocs = t->next_alloc;
		free(t->flags);
		free(t);
	}
}

void feed_slots_moved(struct feed *f)
{
	for (struct tb_info *t = f->allocs; t; t = t->next_alloc)
		if (t->execs)
			t->execs = feed_slot(f, t->slot);
}
