/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QEMU event source attached to a service (hvpmu/qemu_source.h
 * hvpmu_qemu_attach_start, docs/service.md): instead of feeding a machine
 * in this process, the plugin streams the program's execution to the
 * service's remote source (src/source/remote.c) through the shared area
 * the service gives it (remote_shm.h): each translated block's words, and
 * per vCPU a ring of records -- block entries, data accesses, software
 * prefetches, system calls, thread starts and ends, the image's end.
 *
 * The guest follows its own process tree: a fork child attaches itself
 * as a new image (pthread_atfork), and an execve of a program of the
 * machine's ISA runs that program under the same emulator with the
 * plugin attached (REMOTE_EXEC), instead of leaving it to the host
 * kernel, which cannot run it (no binfmt_misc) or would run it unseen.
 *
 * The hot path writes 16 bytes to the vCPU's own ring and publishes every
 * REMOTE_PUBLISH records; it waits only when the ring is full.  If the
 * service goes away, the program runs on uncounted (one line on stderr).
 */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <hvpmu/qemu_source.h>
#include "common/cpu_relax.h"
#include "common/sock.h"
#include "feed.h"
#include "gtime.h"
#include "qemu_glue.h"
#include "remote_proto.h"
#include "remote_shm.h"
#include "turns.h"


#define RING_MASK (REMOTE_RING_SLOTS - 1u)
#define PATH_MAX_GUEST 4096
#define ARGS_MAX 32768         /* argv + envp strings followed at an execve */
#define ARG_STR_MAX (128 * 1024) /* Linux MAX_ARG_STRLEN: the longest argument or variable */

/*
 * A block translated while the service grants block counts
 * (REMOTE_F_COUNTS, docs/service.md "Block counts"): its block-entry
 * callback's data, 64-byte aligned, what tb_exec_cnt() reads of the block
 * entered and of the one before it in its one line.
 */
struct gblk {
	uint64_t *execs;       /* vCPU 0's count of its counter slot: times its last instruction
				  started, an inline add (one guest thread: the row stays) */
	uint64_t vaddr;
	uint64_t last_pc;      /* address of its last instruction */
	uint64_t agg;          /* whole executions counted on the fast path, not sent yet */
	/* taken branches (REMOTE_F_TAKEN), as feed.c's tb_info: */
	uint64_t taken_at;     /* the next block's address that means its conditional CTI was taken */
	uint64_t wait_at;      /* the next block's address that leaves it pending (its delay slot) */
	uint32_t cyc;          /* cycles, by the area's rule (hvpmu_insn_cycles): what it adds to
				  the cycle count once entered (a bound: it may not run whole) */
	uint16_t n;            /* instructions */
	uint8_t slow;          /* the entry after it takes the slow path: its last instruction
				  is an annulled branch's slot in the block (feed.c slot_annul), or
				  (REMOTE_F_TAKEN) its conditional CTI has no static target */
	uint8_t dirty;
	uint8_t pends;         /* (REMOTE_F_TAKEN) it ends in a conditional CTI whose outcome counts */
	/* the second line: the slow paths' */
	struct gblk *next_dirty; /* blocks with agg > 0 (avcpu.dirty) */
	uint32_t id;
	uint32_t slot;         /* its counter slot (feed_slot_in(A.slot_row, slot)), behind execs */
};
_Static_assert(offsetof(struct gblk, pends) < 64, "what the fast path reads of a block in its first line");

/* The producer's side of one vCPU's ring. */
struct avcpu {
	/* block counts (REMOTE_F_COUNTS): the entries the grant allows are
	 * counted here, not recorded one by one; what tb_exec_cnt() reads and
	 * writes first, in the vCPU's first line */
	_Alignas(64) uint64_t grant; /* the grant held (0: none): an entry is fast while gbound + n < grant */
	uint64_t grant_cyc;    /* and while gcyc + the cycles of the block before it < grant_cyc */
	uint64_t gbound;       /* instructions of the blocks entered since C_START (struct remote_ring) */
	uint64_t gcyc;         /* cycles of the blocks entered since then before the last one */
	struct gblk *cprev;    /* the counted block entered last (NULL: none, or a marker's block) */
	uint64_t cmark;        /* its inline counter at its entry */
	struct gblk *pend;     /* (REMOTE_F_TAKEN) the block whose conditional CTI awaits its outcome */
	uint64_t taken;        /* (REMOTE_F_TAKEN) taken conditional CTIs decided on the fast path, not sent */
	struct gblk *dirty;    /* blocks whose fast executions are not sent yet */
	uint64_t rec_bound;    /* gbound at the last R_TB or C_FAST: the fast entries' since are the rest */
	uint64_t inval_at;     /* head after the last record that can move the strand's deadline */
	int live;
	int in_publish;        /* a record of several slots (or the ticket) is being written: no
				  ticket goes between its slots */
	uint64_t sealed;       /* head at the last ticket */
	int known;             /* its host thread has said which it is (self) */
	int reached;           /* the block entered last reached its last instruction */
	unsigned reg_out;      /* the pending conditional CTI's outcome from its registers, 2 |
				  taken (acond_exec), for the next R_TB (R_TB_REG), or 0 */
	uint64_t head;         /* records written */
	uint64_t tail;         /* the consumer's position, as last seen */
	uint64_t turn_left;    /* threads in turns: the instructions left of its turn, minus
				  one (negative: over; turns.arm, tb_exec) */
};
_Static_assert(offsetof(struct avcpu, taken) < 64, "the fast path's fields in the first line");

static struct {
	const struct hvpmu_isa *isa;
	char service[REMOTE_NAME_MAX];
	char comm[16];         /* the program's file name */
	char guest[REMOTE_GUEST_MAX]; /* the service's guest it runs in ("" = the first) */
	int conn;              /* the control connection (-1: none) */
	int efd;               /* the service's doorbell */
	struct remote_area *area;
	uint32_t process;      /* this image's number */
	uint64_t token[2];     /* this image's token (its welcome's): a fork child's hello shows it */
	uint32_t next_id;      /* the next block's id */
	unsigned features;
	int counts;            /* blocks are counted under grants: the service offers it
				  (REMOTE_F_COUNTS) and the image has had one thread only */
	int taken;             /* and taken conditional CTIs are counted (REMOTE_F_TAKEN) */
	int dead;              /* not counted any more (the service is gone, or a failure) */
	int ended;             /* C_END written */
	int exit_called;       /* exit_group, or the last thread's exit, was called (at_exit) */
	int signals_set;       /* qg_signals_to_guest() ran */
	struct avcpu v[REMOTE_RINGS];
	uint64_t *slot_row[FEED_SLOT_MAXCHUNKS]; /* vCPU 0's row of each chunk of counter slots */
	/* the image's threads in turns (turns.h, docs/service.md "Time"):
	 * each turn's records are published, with their ticket, before the
	 * next turn starts, so that the service runs them in the turns' order */
	struct turns turn;
	/* guest time once the turns start (gtime.h, docs/service.md "Guest
	 * time"): the machine's time after a publication, from the area */
	struct gtime gtime;
	int gtime_filter;      /* QEMU has the system-call filter (our patch 0004) */
} A = { .conn = -1, .efd = -1 };

static __thread int self = -1; /* this host thread's vCPU, once a callback said */

static void detach(const char *why)
{
	if (!A.dead)
		fprintf(stderr, "hvpmu: %s; this process is no longer counted\n", why);
	A.dead = 1;
	A.gtime.on = 0; /* (its clocks are the host's again; a modeled wait times out: time_at) */
}

/* ---- connecting ---- */

/* Connect to the service as an image of kind `how`; maps the area.
 * Returns 0, or -1 after one line on stderr. */
static int connect_service(enum remote_how how, uint32_t parent, uint32_t base)
{
	struct remote_hello h = { .magic = REMOTE_HELLO_MAGIC, .version = REMOTE_PROTO_VERSION, .how = how,
				  .parent = parent, .base = base, .pid = getpid() };
	struct remote_welcome w;
	struct remote_area *area;
	char why[256];
	int s, efd;

	snprintf(h.isa, sizeof h.isa, "%s", A.isa->name);
	if (how != REMOTE_FORK)
		snprintf(h.comm, sizeof h.comm, "%s", A.comm);
	if (how == REMOTE_ROOT)
		snprintf(h.guest, sizeof h.guest, "%s", A.guest);
	if (how == REMOTE_FORK) /* (the parent's: this process is its copy) */
		memcpy(h.token, A.token, sizeof h.token);
	/* a service of another uid is refused before the hello (common/sock.h) */
	if ((s = sock_connect(A.service, why, sizeof why)) < 0 && why[0]) {
		fprintf(stderr, "hvpmu: %s; this process is not counted\n", why);
		return -1;
	}
	/* (a send refused with EPIPE: the service said why and closed) */
	if (s < 0 || (send(s, &h, sizeof h, MSG_NOSIGNAL) != (ssize_t)sizeof h && errno != EPIPE)) {
		fprintf(stderr, "hvpmu: cannot attach to the service '%s': %s; this process is not counted\n",
			A.service, strerror(errno));
		if (s >= 0)
			close(s);
		return -1;
	}
	switch (remote_welcome_recv(s, &w, &area, &efd, why, sizeof why)) {
	case 0:
		break;
	case 1:
		fprintf(stderr, "hvpmu: the service refused this process: %s; it is not counted\n", why);
		close(s);
		return -1;
	default:
		fprintf(stderr, "hvpmu: cannot attach to the service '%s': %s; this process is not counted\n",
			A.service, why);
		close(s);
		return -1;
	}
	if (A.area)
		munmap(A.area, sizeof *A.area);
	if (A.conn >= 0)
		close(A.conn);
	if (A.efd >= 0)
		close(A.efd);
	A.area = area;
	A.conn = s;
	A.efd = efd;
	A.process = w.process;
	memcpy(A.token, w.token, sizeof A.token);
	A.features = w.features;
	/* (a fork child of an image that had several threads keeps its
	 * blocks, translated with markers: it goes on with them) */
	A.counts = (w.features & REMOTE_F_COUNTS) && (how != REMOTE_FORK || A.counts);
	A.taken = (w.features & REMOTE_F_TAKEN) != 0;
	return 0;
}

/* ---- the rings ---- */

/* Publish ring i's records.  The service is woken if it sleeps, and
 * `force` (a system call, an end: the service must see it now) or a
 * quarter of the ring waits: a wake-up costs two system calls, so it
 * comes every few thousand records, not every publication. */
static inline void put(unsigned i, uint64_t w0, uint64_t w1);

static void publish_ring(unsigned i, int force)
{
	static const uint64_t one = 1;
	struct avcpu *a = &A.v[i];

	/* the publication's ticket closes it (C_SEQ): the service runs a
	 * process's threads in the order they published */
	if (a->head != a->sealed && !a->in_publish) {
		a->in_publish = 1;
		put(i, R_CTL_W0(C_SEQ, 0), atomic_fetch_add_explicit(&A.area->seq, 1, memory_order_relaxed));
		a->sealed = a->head;
		a->in_publish = 0;
	}
	atomic_store_explicit(&A.area->ring[i].head, a->head, memory_order_seq_cst);
	if (atomic_load_explicit(&A.area->cons_sleep, memory_order_seq_cst) &&
	    (force || a->head - atomic_load_explicit(&A.area->ring[i].tail, memory_order_relaxed) >=
			      REMOTE_RING_SLOTS / 4) &&
	    write(A.efd, &one, sizeof one) < 0)
		return; /* the counter is full: the service is awake anyway */
}

static void publish(unsigned i)
{
	publish_ring(i, 1);
}

/* Is the service still there (its end of the connection open)? */
static int service_alive(void)
{
	struct pollfd p = { .fd = A.conn, .events = POLLIN };

	return poll(&p, 1, 0) == 0 || !(p.revents & (POLLHUP | POLLERR | POLLIN));
}

/* Wait until ring i has room (back-pressure: never a dropped record). */
static __attribute__((noinline)) void wait_space(unsigned i)
{
	struct remote_ring *rg = &A.area->ring[i];
	struct avcpu *a = &A.v[i];

	publish(i);
	for (unsigned spin = 0;; spin++) {
		a->tail = atomic_load_explicit(&rg->tail, memory_order_seq_cst);
		if (a->head - a->tail < REMOTE_RING_SLOTS)
			return;
		if (spin < 64) {
			sched_yield();
			continue;
		}
		atomic_store_explicit(&rg->prod_wait, 1, memory_order_seq_cst);
		a->tail = atomic_load_explicit(&rg->tail, memory_order_seq_cst);
		if (a->head - a->tail >= REMOTE_RING_SLOTS) {
			struct timespec ts = { 0, 100 * 1000 * 1000 };

			syscall(SYS_futex, (uint32_t *)&rg->tail, FUTEX_WAIT, (uint32_t)a->tail, &ts, NULL, 0);
		}
		atomic_store_explicit(&rg->prod_wait, 0, memory_order_relaxed);
		if (!service_alive()) {
			detach("the service is gone");
			return;
		}
		if (atomic_load(&A.area->abandoned)) {
			detach("the service detached it");
			return;
		}
	}
}

static inline void put(unsigned i, uint64_t w0, uint64_t w1)
{
	struct avcpu *a = &A.v[i];

	if (__builtin_expect(a->head - a->tail >= REMOTE_RING_SLOTS, 0)) {
		wait_space(i);
		if (A.dead)
			return;
	}
	A.area->ring[i].slot[a->head & RING_MASK] = (struct remote_rec){ w0, w1 };
	if (__builtin_expect((++a->head & (REMOTE_PUBLISH - 1)) == 0, 0) && !a->in_publish)
		publish_ring(i, 0);
}

/* A record of n slots, whole between two tickets. */
static void put_n(unsigned i, const struct remote_rec *r, unsigned n)
{
	A.v[i].in_publish = 1;
	for (unsigned k = 0; k < n; k++)
		put(i, r[k].w0, r[k].w1);
	A.v[i].in_publish = 0;
}

/* The vCPU's ring, if its thread is counted. */
static inline int ring_of(unsigned vcpu_index)
{
	return vcpu_index < REMOTE_RINGS && A.v[vcpu_index].live && !A.dead ? (int)vcpu_index : -1;
}

/* ---- block counts (docs/service.md "Block counts") ---- */

/* Did the block entered last on a reach its last instruction?  Its marker
 * callback said so, or (a counted block) its inline counter moved since
 * its entry.  Forgets it: the next record accounts it. */
static inline int prev_reached(struct avcpu *a)
{
	int r = a->reached || (a->cprev && *a->cprev->execs != a->cmark);

	a->reached = 0;
	a->cprev = NULL;
	return r;
}

/* The blocks entered on the fast path since the last record: C_FAST. */
static void fast_close(unsigned i)
{
	struct avcpu *a = &A.v[i];

	if (a->gbound != a->rec_bound) {
		put_n(i, (const struct remote_rec[2]){ { R_FAST_W0(a->cprev->id), a->gbound - a->rec_bound },
						       { a->gcyc, a->taken } }, 2);
		a->rec_bound = a->gbound;
		a->taken = 0;
	}
}

/* Everything counted and not sent: before any record that reads or syncs
 * the strand's counts. */
static void counts_send(unsigned i)
{
	struct avcpu *a = &A.v[i];

	fast_close(i);
	while (a->dirty) {
		struct gblk *g = a->dirty;

		put(i, R_CNT_W0(g->id), g->agg);
		g->agg = 0;
		g->dirty = 0;
		a->dirty = g->next_dirty;
	}
}

/* A record that can move the strand's deadline was written: the grant
 * held is void, and one must come from after it. */
static void grant_drop(unsigned i)
{
	A.v[i].grant = 0;
	A.v[i].inval_at = A.v[i].head;
}

/* Take the consumer's grant if it holds here: given after the last record
 * that could void it, and not reached by the records since (none of them
 * synced the strand then).  Returns 0 if the consumer has not answered
 * since that record (an answer may be no grant: 0). */
static int grant_take(unsigned i)
{
	struct remote_ring *rg = &A.area->ring[i];
	struct avcpu *a = &A.v[i];
	uint64_t at = atomic_load_explicit(&rg->grant_at, memory_order_acquire), g, gc;

	if (at < a->inval_at || at > a->head)
		return 0;
	g = atomic_load_explicit(&rg->grant, memory_order_relaxed);
	gc = atomic_load_explicit(&rg->grant_cyc, memory_order_relaxed);
	if (a->gbound < g && a->gcyc < gc) {
		a->grant = g;
		a->grant_cyc = gc;
	}
	return 1;
}

/* After a record that voided the grant (published): wait a moment for
 * the next one, GRANT_WAIT_NS at most, rather than record the blocks
 * meanwhile -- the service would run each of them. */
#define GRANT_WAIT_NS 50000
static void grant_wait(unsigned i)
{
	struct timespec t0, t;

	if (!A.counts || A.dead)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned k = 1;; k++) {
		if (grant_take(i))
			return;
		if (k % 8 == 0)
			sched_yield(); /* (the service may be waiting for this core) */
		else
			cpu_relax();
		if (k % 64 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > GRANT_WAIT_NS)
				return;
		}
	}
}

/* Every entry of a counted block that is not fast: recorded (R_TB). */
static __attribute__((noinline)) void tb_exec_cnt_slow(unsigned int vcpu_index, struct gblk *ti)
{
	int i = ring_of(vcpu_index);
	struct avcpu *a;
	uint64_t b;
	int crossed = 0;

	if (i < 0)
		return;
	a = &A.v[i];
	if (__builtin_expect(!a->known, 0)) {
		self = i;
		a->known = 1;
	}
	b = a->gbound + ti->n;
	if (a->cprev)
		a->gcyc += a->cprev->cyc;
	if (a->grant && (b >= a->grant || a->gcyc >= a->grant_cyc)) {
		/* past the grant: the strand syncs at this entry, its counts first */
		counts_send((unsigned)i);
		put((unsigned)i, R_TB_W0(ti->id, prev_reached(a)) | R_TB_SYNC | R_TB_REG_BITS(a->reg_out), a->gcyc);
		grant_drop((unsigned)i);
		publish_ring((unsigned)i, 1); /* for the next grant */
		crossed = 1;
	} else {
		fast_close((unsigned)i);
		put((unsigned)i, R_TB_W0(ti->id, prev_reached(a)) | R_TB_REG_BITS(a->reg_out), a->gcyc);
	}
	a->reg_out = 0;
	a->gbound = b;
	a->rec_bound = b;
	a->cprev = ti;
	a->cmark = *ti->execs;
	/* the service decides the pending CTI (resolve_pending, set_pending):
	 * it stays pending at its delay slot run as a block of its own */
	if (!(a->pend && ti->vaddr == a->pend->wait_at))
		a->pend = NULL;
	if (ti->pends)
		a->pend = ti;
	if (crossed)
		grant_wait((unsigned)i);
	else if (!a->grant && A.counts)
		grant_take((unsigned)i);
}

/*
 * Block entry of a counted block: the fast path counts it.  The block
 * entered before it reached its last instruction (its inline counter
 * moved), did not restart there, has no annulled slot, and the grant
 * allows the entry: that block ran whole once more (agg), and nothing is
 * recorded.  With taken branches (`taken`, REMOTE_F_TAKEN) the pending
 * conditional CTI is decided by this block's address, as tb_exec_insn()
 * does in one emulator (resolve_pending(): taken iff execution goes on at
 * taken_at; still pending at its delay slot run alone, wait_at: that
 * entry is recorded).  Everything else: tb_exec_cnt_slow().  The same
 * effect on the service's counts as an R_TB per entry (entry_fast()
 * there).
 */
static inline __attribute__((always_inline)) void cnt_entry(unsigned int vcpu_index, struct gblk *ti, int taken)
{
	struct gblk *p, *q = NULL;
	struct avcpu *a;
	uint64_t b;

	if (__builtin_expect(vcpu_index >= REMOTE_RINGS, 0))
		return;
	a = &A.v[vcpu_index];
	p = a->cprev;
	if (taken)
		q = a->pend;
	b = a->gbound + ti->n;
	if (__builtin_expect(!p || *p->execs == a->cmark || ti->vaddr == p->last_pc || p->slow || b >= a->grant ||
				     a->gcyc + p->cyc >= a->grant_cyc || (taken && q && ti->vaddr == q->wait_at), 0)) {
		tb_exec_cnt_slow(vcpu_index, ti);
		return;
	}
	if (taken) {
		if (q)
			a->taken += ti->vaddr == q->taken_at;
		a->pend = ti->pends ? ti : NULL;
	}
	a->gcyc += p->cyc;
	p->agg++;
	if (!p->dirty) {
		p->dirty = 1;
		p->next_dirty = a->dirty;
		a->dirty = p;
	}
	a->gbound = b;
	a->cmark = *ti->execs;
	a->cprev = ti;
}

static void tb_exec_cnt(unsigned int vcpu_index, void *udata)
{
	cnt_entry(vcpu_index, udata, 0);
}

static void tb_exec_cnt_tk(unsigned int vcpu_index, void *udata)
{
	cnt_entry(vcpu_index, udata, 1);
}

/* ---- callbacks ---- */

/* A block of n instructions entered in turns: past the turn's end, the
 * thread leaves the loop once the block has run (turns_idle).  Counted
 * whether or not the ring is (a detached image's threads keep turning). */
static inline void turn_count(unsigned int vcpu_index, uint32_t n)
{
	if (A.turn.on && vcpu_index < REMOTE_RINGS && (int64_t)(A.v[vcpu_index].turn_left -= n) < 0 &&
	    turns_over(&A.turn, (int)vcpu_index))
		qemu_plugin_vcpu_exit_request(vcpu_index);
}

/* Block entry of a block translated with markers: its R_TB (udata: its
 * id, and its instructions << 32). */
static void tb_exec(unsigned int vcpu_index, void *udata)
{
	int i = ring_of(vcpu_index);
	uint64_t u = (uintptr_t)udata;

	turn_count(vcpu_index, (uint32_t)(u >> 32));
	if (i >= 0) {
		if (__builtin_expect(!A.v[i].known, 0)) { /* for a fatal signal's end (image_end) */
			self = i;
			A.v[i].known = 1;
		}
		fast_close((unsigned)i);
		put((unsigned)i, R_TB_W0((uint32_t)u, prev_reached(&A.v[i])) | R_TB_REG_BITS(A.v[i].reg_out), 0);
		A.v[i].reg_out = 0;
	}
}

/* A conditional CTI the service cannot decide from the next block's
 * address (feed_cond_needs_regs()): its outcome, read from its registers
 * before it runs, goes with the next R_TB (R_TB_REG). */
static void acond_exec(unsigned int vcpu_index, void *udata)
{
	int t;

	if (vcpu_index < REMOTE_RINGS && (t = qg_cond_read(A.isa, udata)) >= 0)
		A.v[vcpu_index].reg_out = 2u | (unsigned)t;
}

/* The conditional CTI of a block of n words at vaddr (words), if the
 * service will want it from the registers: registers its callback; 1 if
 * so (its entries then go to the slow path, which records them). */
static int acond_register(struct qemu_plugin_tb *tb, const uint32_t *words, size_t n, uint64_t vaddr)
{
	struct hvpmu_insn d;
	struct qg_cond *c;
	size_t k = n;
	int found = 0;

	for (size_t j = 0; j < n; j++) {
		uint64_t pc = vaddr + j * (uint64_t)A.isa->insn_bytes;

		if (A.isa->decode(words[j], pc, &d) & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) {
			k = j;
			found = (d.flags & HVPMU_IC_CTI_COND) && d.has_target;
		}
	}
	if (!found)
		return 0;
	A.isa->decode(words[k], vaddr + k * (uint64_t)A.isa->insn_bytes, &d);
	if (d.annul || !feed_cond_needs_regs(A.isa, d.target,
					     vaddr + (k + 1u + A.isa->delay_slot) * (uint64_t)A.isa->insn_bytes,
					     (uint32_t)k, (uint32_t)n, words[n - 1]) ||
	    !(c = malloc(sizeof *c)))
		return 0;
	if (qg_cond_make(A.isa, words[k], c)) {
		free(c);
		return 0;
	}
	qemu_plugin_register_vcpu_insn_exec_cb(qemu_plugin_tb_get_insn(tb, k), acond_exec, QEMU_PLUGIN_CB_R_REGS, c);
	return 1;
}

static void last_exec(unsigned int vcpu_index, void *udata)
{
	(void)udata;
	if (vcpu_index < REMOTE_RINGS)
		A.v[vcpu_index].reached = 1;
}

static void mem_exec(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	int i = ring_of(vcpu_index);

	if (i >= 0)
		put((unsigned)i,
		    (uintptr_t)udata | (uint64_t)(qemu_plugin_mem_size_shift(info) & 7u) << 3 |
			    (uint64_t)(qemu_plugin_mem_is_store(info) != 0) << 6,
		    vaddr);
}

static void pf_exec(unsigned int vcpu_index, void *udata)
{
	int i = ring_of(vcpu_index);

	if (i >= 0)
		put((unsigned)i, (uintptr_t)udata, 0);
}

static void image_end(int sig, int all);

/* Translation (serialised by QEMU user mode's mmap_lock): the block's
 * words into the area's table, published before the block can run. */
static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct remote_area *ar = A.area;
	struct gblk *g = NULL;
	uint32_t idx, bid;

	(void)id;
	if (!A.signals_set) { /* the program's first block: QEMU's signals are set up */
		A.signals_set = 1;
		qg_signals_to_guest();
	}
	if (A.dead || n == 0 || n > REMOTE_BLOCK_MAX_INSNS)
		return;
	idx = A.next_id - ar->base;
	if (idx >= REMOTE_MAX_BLOCKS || ar->nwords > REMOTE_MAX_WORDS - n) {
		image_end(0, 0); /* its counts so far are whole: the service ends the image there */
		detach("the program translated more code than the service's area holds");
		return;
	}
	bid = A.next_id++;
	ar->block[idx] = (struct remote_block){ .vaddr = qemu_plugin_tb_vaddr(tb), .word = ar->nwords,
						.n = (uint32_t)n };
	if (A.counts && !(g = aligned_alloc(64, (sizeof(struct gblk) + 63) / 64 * 64))) {
		image_end(0, 0);
		detach("out of memory for a block's counts");
		return;
	}
	if (g && qg_slot_new(A.slot_row, &g->slot)) {
		free(g);
		image_end(0, 0);
		detach("out of counter slots for a block's counts");
		return;
	}
	for (size_t k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
		uint32_t word = qg_insn_word(A.isa, insn);
		struct hvpmu_insn d;

		ar->words[ar->nwords + k] = word;
		if (A.features & REMOTE_F_MEMORY) {
			A.isa->decode(word, 0, &d);
			if (d.flags & (HVPMU_IC_LOAD | HVPMU_IC_STORE | HVPMU_IC_ATOMIC))
				qemu_plugin_register_vcpu_mem_cb(insn, mem_exec, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
								 (void *)(uintptr_t)R_INSN_W0(R_MEM, bid, k));
			if ((d.flags & HVPMU_IC_PREFETCH) && A.isa->prefetch_resolve)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, pf_exec, QEMU_PLUGIN_CB_NO_REGS,
								       (void *)(uintptr_t)R_INSN_W0(R_PF, bid, k));
		}
		if (k + 1 < n)
			continue;
		if (g) /* the entry after it sees whether it was reached */
			qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64,
									    qg_slot_entry(g->slot), 1);
		else
			qemu_plugin_register_vcpu_insn_exec_cb(insn, last_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
	if (g) {
		const struct hvpmu_cycle_rule rule = { ar->insn_cycles, ar->block_uops, ar->taken_cti_cycles };
		uint64_t vaddr = ar->block[idx].vaddr, cyc = 0;
		struct hvpmu_insn d, cti = { 0 };
		struct feed_cti c = { 0 };

		/* as feed_block_new(): the block's last CTI, its cycles */
		for (size_t k = 0; k < n; k++) {
			uint64_t pc = vaddr + k * (uint64_t)A.isa->insn_bytes;

			A.isa->decode(ar->words[ar->nwords + k], pc, &d);
			cyc += hvpmu_insn_cycles(&rule, d.flags);
			if (d.flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) {
				cti = d;
				c = feed_cti_facts(A.isa, &d, pc, (uint32_t)k, (uint32_t)n);
			}
		}
		*g = (struct gblk){ .execs = feed_slot_in(A.slot_row, g->slot), .slot = g->slot, .vaddr = vaddr, .last_pc = vaddr + (n - 1) * (uint64_t)A.isa->insn_bytes,
				    .id = bid, .n = (uint16_t)n, .cyc = cyc > UINT32_MAX ? UINT32_MAX : (uint32_t)cyc,
				    .slow = c.slot_annul };
		if (A.taken && (cti.flags & HVPMU_IC_CTI_COND)) {
			g->pends = 1;
			g->taken_at = c.taken_at;
			g->wait_at = c.wait_at;
			/* a conditional CTI to a register (ppc64 bclr): the
			 * service decides it from where execution goes */
			if (!cti.has_target)
				g->slow = 1;
		}
	}
	if (acond_register(tb, &ar->words[ar->nwords], n, ar->block[idx].vaddr) && g)
		g->slow = 1; /* the service decides it, with the outcome the next R_TB carries */
	ar->nwords += (uint32_t)n;
	atomic_store_explicit(&ar->nblocks, idx + 1, memory_order_release);
	if (g)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, A.taken ? tb_exec_cnt_tk : tb_exec_cnt, QEMU_PLUGIN_CB_NO_REGS, g);
	else
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)(bid | (uint64_t)n << 32));
}

static void thread_start(unsigned i)
{
	struct avcpu *a = &A.v[i];

	a->live = 1;
	a->known = 0;
	a->reached = 0;
	a->gbound = 0;
	a->gcyc = 0;
	a->rec_bound = 0;
	a->cprev = NULL;
	a->dirty = NULL;
	a->pend = NULL;
	a->taken = 0;
	put(i, R_CTL_W0(C_START, 0), (uint64_t)syscall(SYS_gettid));
	grant_drop(i);
}

static void register_all(qemu_plugin_id_t id);

/* Every block is translated anew (the reset flushed them): with markers. */
static void reset_done(qemu_plugin_id_t id)
{
	register_all(id);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	(void)id;
	qg_regs_init(); /* conditional CTIs the service cannot decide (acond_register) */
	if (vcpu_index >= REMOTE_RINGS) {
		if (!A.dead)
			fprintf(stderr, "hvpmu: guest thread %u has no ring (at most %u threads); not counted\n",
				vcpu_index, REMOTE_RINGS);
		if (A.turn.on) /* (it runs outside the rotation; its clone waits for it) */
			turns_join(&A.turn, -1);
		return;
	}
	if (A.dead || A.v[vcpu_index].live) {
		if (A.turn.on) /* (a detached image's threads keep turning) */
			turns_join(&A.turn, (int)vcpu_index);
		return;
	}
	/* a second thread: the blocks' inline counters would be shared, so
	 * every block is translated again with its marker callback, as an
	 * emulator of its own does (plugin.c vcpu_init).  The thread that
	 * starts it is in its clone call: it holds no grant and has sent its
	 * counts (syscall_cb). */
	for (unsigned k = 0; A.counts && k < REMOTE_RINGS; k++)
		if (A.v[k].live) {
			A.counts = 0; /* (ends the loop) */
			qemu_plugin_reset(id, reset_done);
		}
	thread_start(vcpu_index);
	/* its start goes before its creator's return (its ticket first), and
	 * it joins the rotation before its first block */
	publish(vcpu_index);
	if (A.turn.on)
		turns_join(&A.turn, (int)vcpu_index);
}

static void vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	int i = ring_of(vcpu_index);

	(void)id;
	if (i >= 0) {
		counts_send((unsigned)i);
		A.v[i].pend = NULL; /* (the service drops it: feed_account_prev, resolve_pending at 0) */
		put((unsigned)i, R_CTL_W0(C_EXIT, prev_reached(&A.v[i])), 0);
		grant_drop((unsigned)i);
		publish((unsigned)i);
		A.v[i].live = 0;
	}
	if (A.turn.on && vcpu_index < REMOTE_RINGS) /* (its end in its turn) */
		turns_leave(&A.turn, (int)vcpu_index);
}

/* The vCPU left QEMU's execution loop (a system call, a signal, its turn
 * over, its first entry): it publishes its turn's records, with their
 * ticket, and waits here for its next turn when it is not its own. */
static void turn_idle(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	(void)id;
	if (!turns_idle_needed(&A.turn, (int)vcpu_index))
		return;
	if (ring_of(vcpu_index) >= 0)
		publish(vcpu_index);
	turns_idle(&A.turn, (int)vcpu_index);
}

/* vCPU i's turn is given (under turns.mu: its thread waits). */
static void turn_arm(void *ctx, uint32_t i, uint64_t left)
{
	(void)ctx;
	A.v[i].turn_left = left;
}

/* The image ends (sig 0: exit or exec; else the signal): the last record,
 * in the calling thread's ring. */
static void image_end(int sig, int all)
{
	int i = self >= 0 && self < (int)REMOTE_RINGS && A.v[self].live ? self : -1;

	if (A.dead || A.ended || !A.area)
		return;
	if (all) /* no callback runs any more: every ring's records are whole */
		for (unsigned k = 0; k < REMOTE_RINGS; k++)
			if (A.v[k].live) {
				counts_send(k);
				publish(k);
			}
	if (i < 0) /* no thread of its own known: ring 0's, whose owner has stopped */
		for (unsigned k = 0; k < REMOTE_RINGS && i < 0; k++)
			if (A.v[k].live)
				i = (int)k;
	if (i < 0)
		return;
	A.ended = 1;
	counts_send((unsigned)i);
	put((unsigned)i, R_CTL_W0(C_END, 0), (uint64_t)sig);
	publish((unsigned)i);
}

/* ---- following execve ---- */

/* Copy a guest string at guest address ga (at most n bytes with its NUL)
 * into out, in pieces that never cross a 256-byte boundary (so none
 * crosses a page: a piece that fails is unmapped).  Returns its length or
 * -1. */
static long guest_string(uint64_t ga, char *out, size_t n)
{
	size_t got = 0;

	while (got < n) {
		size_t room = 256 - (size_t)((ga + got) & 255), chunk = n - got < room ? n - got : room;
		char *z;

		if (qg_guest_read(ga + got, out + got, chunk))
			return -1;
		if ((z = memchr(out + got, 0, chunk)))
			return (long)(z - out);
		got += chunk;
	}
	return -1;
}

/* A guest pointer array element (the ISA's pointer size and byte order). */
static int guest_ptr(uint64_t ga, uint64_t *out)
{
	uint8_t b[8];

	if (qg_guest_read(ga, b, 8))
		return -1;
	*out = 0;
	for (int k = 0; k < 8; k++)
		*out |= (uint64_t)b[A.isa->big_endian ? k : 7 - k] << (8 * (A.isa->big_endian ? 7 - k : k));
	return 0;
}

/* A guest string vector (argv or envp) into v[max], strings malloc'ed.
 * Returns the count, or -1. */
static int guest_vector(uint64_t ga, char **v, int max, int skip_preload)
{
	int n = 0;

	for (int k = 0; ga; k++) {
		uint64_t p;
		static char buf[ARG_STR_MAX]; /* (execve: the calling thread is the only one to follow) */
		long len;

		if (guest_ptr(ga + 8u * (uint64_t)k, &p))
			return -1;
		if (!p)
			break;
		if (n == max || (len = guest_string(p, buf, sizeof buf)) < 0)
			return -1;
		if (skip_preload && strncmp(buf, "LD_PRELOAD=", 11) == 0)
			continue;
		if (!(v[n++] = strndup(buf, (size_t)len)))
			return -1;
	}
	return n;
}

/* Is `file` a program of the machine's ISA that may be run? */
static int is_isa_program(const char *file)
{
	return hvpmu_isa_is_program(A.isa, file) && access(file, X_OK) == 0;
}

/* qsort: "-U NAME" pairs, longer NAME first (QEMU 7.2's -U unsets the
 * first variable whose name starts with NAME). */
static int longer_first(const void *x, const void *y)
{
	size_t a = strlen(((char *const *)x)[1]), b = strlen(((char *const *)y)[1]);

	return a < b ? 1 : a > b ? -1 : 0;
}

/*
 * execve(path, argv, envp) of the guest: if path is a program of the
 * machine's ISA (looked up in the sysroot first, as QEMU's -L does), run
 * it here under this emulator with the plugin attached as the new image:
 *   qemu -L SYSROOT [-U NAME].. -plugin PLUGIN,attach=SERVICE,isa=ISA,exec=N
 *        -0 ARGV0 FILE ARGV1..
 * with the guest's environment, plus this emulator's HVPMU_* settings and
 * the plugin's preload, which -U hides from the program again (as
 * hvpmu's tools start the first one).  Returns only if it does not run
 * it; the call then goes on to QEMU as usual.
 */
static void follow_exec(const uint64_t *a)
{
	extern char **environ;
	static char *gargv[ARGS_MAX], *genv[ARGS_MAX + 64], *av[ARGS_MAX + 160];
	char path[PATH_MAX_GUEST], file[PATH_MAX + PATH_MAX_GUEST], qemu[PATH_MAX], plugin_arg[PATH_MAX + 160];
	char preload[PATH_MAX + 16];
	const char *sysroot = getenv("HVPMU_SYSROOT") ? getenv("HVPMU_SYSROOT") : A.isa->sysroot;
	Dl_info dl;
	ssize_t ql;
	int argc, envc, k = 0, first;

	if (guest_string(a[0], path, sizeof path) <= 0)
		return;
	snprintf(file, sizeof file, "%s%s", path[0] == '/' && sysroot ? sysroot : "", path);
	if (!is_isa_program(file))
		snprintf(file, sizeof file, "%s", path);
	if (!is_isa_program(file))
		return; /* a host program, or nothing: QEMU's execve */
	ql = readlink("/proc/self/exe", qemu, sizeof qemu - 1);
	if (ql <= 0 || !dladdr((void *)hvpmu_qemu_attach_start, &dl) || !dl.dli_fname)
		return;
	qemu[ql] = 0;
	if ((argc = guest_vector(a[1], gargv, ARGS_MAX, 0)) < 0 ||
	    (envc = guest_vector(a[2], genv, ARGS_MAX, 1)) < 0) {
		/* (the strings copied so far are not freed: execve is near) */
		fprintf(stderr, "hvpmu: cannot follow the execve of %s (its arguments or environment are unreadable or "
			"too many); it goes to the host\n", path);
		return;
	}
	av[k++] = qemu;
	av[k++] = "-L";
	av[k++] = (char *)sysroot;
	if (A.isa->qemu_reserved_va) {
		av[k++] = "-R";
		av[k++] = (char *)A.isa->qemu_reserved_va;
	}
	first = k;
	for (char **e = environ; *e && envc < ARGS_MAX + 62; e++)
		if (strncmp(*e, "HVPMU_", 6) == 0 && strchr(*e, '=')) {
			genv[envc++] = *e;
			av[k++] = "-U";
			if (!(av[k++] = strndup(*e, (size_t)(strchr(*e, '=') - *e))))
				return;
		}
	av[k++] = "-U";
	av[k++] = "LD_PRELOAD";
	qsort(av + first, (size_t)(k - first) / 2, 2 * sizeof *av, longer_first);
	snprintf(preload, sizeof preload, "LD_PRELOAD=%s", dl.dli_fname);
	genv[envc++] = preload;
	genv[envc] = NULL;
	if (A.area && !A.dead) /* attached: the new program attaches as this process's next image */
		snprintf(plugin_arg, sizeof plugin_arg, "%s,attach=%s,isa=%s,exec=%u", dl.dli_fname, A.service,
			 A.isa->name, A.process);
	else /* not counted: it runs, and follows its own execve calls */
		snprintf(plugin_arg, sizeof plugin_arg, "%s,follow=1,isa=%s", dl.dli_fname, A.isa->name);
	av[k++] = "-plugin";
	av[k++] = plugin_arg;
	av[k++] = "-0";
	av[k++] = argc ? gargv[0] : path;
	av[k++] = file;
	for (int n = 1; n < argc; n++)
		av[k++] = gargv[n];
	av[k] = NULL;
	{ /* the program's file name for per-process rows (no comma: it would end the argument) */
		size_t at = strlen(plugin_arg);

		snprintf(plugin_arg + at, sizeof plugin_arg - at, ",comm=%.15s",
			 strrchr(file, '/') ? strrchr(file, '/') + 1 : file);
		for (char *c = plugin_arg + at + 6; *c; c++)
			if (*c == ',')
				*c = '_';
	}
	if (A.area && !A.dead)
		image_end(C_END_EXEC, 0);
	execve(qemu, av, genv);
	if (A.area && !A.dead)
		detach("cannot run the new program under the emulator");
}

/* Uncounted processes (a fork child of a program counted in its own
 * emulator, or a program started by one): only their execve calls, so
 * that a program of the ISA they start runs too. */
static void follow_syscall_cb(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1, uint64_t a2,
			      uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	(void)id;
	(void)vcpu_index;
	(void)a6;
	(void)a7;
	(void)a8;
	hvpmu_qemu_follow_execve(num, (const uint64_t[6]){ a1, a2, a3, a4, a5, 0 });
}

void hvpmu_qemu_follow_execve(int64_t num, const uint64_t *args)
{
	if (!A.isa) /* (a process not counted still runs the programs it starts) */
		return;
	if (num == A.isa->sc.execve) {
		follow_exec(args);
	} else if (num == A.isa->sc.execveat && (int32_t)args[0] == -100 /* AT_FDCWD */ && args[4] == 0) {
		const uint64_t a[3] = { args[1], args[2], args[3] };

		follow_exec(a);
	}
}

int hvpmu_qemu_follow_start(uint64_t id, const struct hvpmu_isa *isa, int now)
{
	A.isa = isa;
	if (now)
		qemu_plugin_register_vcpu_syscall_cb(id, follow_syscall_cb);
	return 0;
}

/* ---- system calls, the end, fork ---- */

/* The machine's time after this image's publication `ticket` (cycles),
 * as the service noted it (remote.c time_note): waits until the service
 * has run it.  Where the service has given that ticket up (a gap) or
 * moved REMOTE_TIME_SLOTS past it, the latest time it noted.  Once the
 * image is detached (the service is gone), a time past every deadline:
 * a thread in a modeled wait returns (ETIMEDOUT) rather than sleep on. */
static uint64_t time_at(uint64_t ticket)
{
	struct remote_area *ar = A.area;
	const struct remote_time *t = &ar->time[ticket % REMOTE_TIME_SLOTS];
	static const uint64_t one = 1;
	uint64_t done, c;

	for (unsigned spin = 0; !A.dead; spin++) {
		if (atomic_load_explicit(&ar->time_done, memory_order_acquire) > ticket)
			break;
		if (atomic_load_explicit(&ar->cons_sleep, memory_order_seq_cst) && write(A.efd, &one, sizeof one) < 0) {
			/* (the counter is full: the service is awake anyway) */
		}
		if (spin < 64) {
			sched_yield();
			continue;
		}
		nanosleep(&(struct timespec){ 0, 50000 }, NULL);
		if (spin % 2048 == 0 && (!service_alive() || atomic_load(&ar->abandoned))) {
			detach(atomic_load(&ar->abandoned) ? "the service detached it" : "the service is gone");
			break;
		}
	}
	if (A.dead)
		return UINT64_MAX / 2;
	c = atomic_load_explicit(&t->cycles, memory_order_relaxed);
	if (atomic_load_explicit(&t->ticket, memory_order_acquire) == ticket + 1 &&
	    atomic_load_explicit(&t->cycles, memory_order_relaxed) == c)
		return c;
	done = atomic_load_explicit(&ar->time_done, memory_order_acquire);
	return done ? atomic_load_explicit(&ar->time[(done - 1) % REMOTE_TIME_SLOTS].cycles, memory_order_relaxed) : 0;
}

/* gtime.now: the machine's time after every publication so far (each
 * call that reads it has published its thread's records first). */
static uint64_t time_now(void *ctx)
{
	uint64_t seq = atomic_load_explicit(&A.area->seq, memory_order_relaxed);

	(void)ctx;
	return time_at(seq ? seq - 1 : 0);
}

/* QEMU's system-call filter (our patch 0004): the guest's clocks, sleeps
 * and futex deadlines in modeled time once the turns run (gtime.h). */
static bool gtime_filter_cb(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1, uint64_t a2,
			    uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8, uint64_t *sysret)
{
	(void)id;
	(void)a7;
	(void)a8;
	return A.gtime.on && !A.dead && vcpu_index < REMOTE_RINGS &&
	       gtime_filter(&A.gtime, (int)vcpu_index, num, (const uint64_t[6]){ a1, a2, a3, a4, a5, a6 }, sysret);
}

static void syscall_cb(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1, uint64_t a2,
		       uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	int i = ring_of(vcpu_index);

	(void)id;
	(void)a7;
	(void)a8;
	if (num == A.isa->sc.exit_group) {
		A.exit_called = 1;
	} else if (num == A.isa->sc.exit) { /* the end only when no other thread lives */
		unsigned live = 0;

		for (unsigned k = 0; k < REMOTE_RINGS; k++)
			live += A.v[k].live != 0;
		A.exit_called |= live <= 1;
	}
	if (i >= 0) {
		self = i;
		counts_send((unsigned)i);
		A.v[i].pend = NULL; /* (the service drops it: feed_syscall_entry, resolve_pending at 0) */
		put_n((unsigned)i,
		      (const struct remote_rec[4]){ { R_CTL_W0(C_SYSCALL, prev_reached(&A.v[i])), (uint64_t)num },
						    { a1, a2 }, { a3, a4 }, { a5, a6 } },
		      4);
		grant_drop((unsigned)i);
		publish((unsigned)i);
	}
	/* threads in turns (turns.h): the first clone that makes a thread
	 * starts them; a call that may wait leaves the rotation, its records
	 * published first */
	if (vcpu_index < REMOTE_RINGS) {
		if (!A.turn.on && A.turn.quantum && turns_makes_thread(&A.turn, num, a1)) {
			turns_engage(&A.turn, (int)vcpu_index);
			if (A.gtime_filter && !A.dead) /* (the guest's clocks: modeled from here) */
				gtime_start(&A.gtime);
			/* every block counts its turn from here: blocks under
			 * block counts are translated anew with markers now, in
			 * this thread's call (it runs no block before the reset:
			 * the request kicks it out of the loop), not at the new
			 * thread's start, which this thread's blocks would race */
			if (A.counts) {
				A.counts = 0;
				qemu_plugin_reset(id, reset_done);
			}
		}
		if (A.turn.on) {
			gtime_entry(&A.gtime, (int)vcpu_index, num, /* (a deadline, before it waits) */
				    (const uint64_t[6]){ a1, a2, a3, a4, a5, a6 });
			turns_syscall(&A.turn, (int)vcpu_index, num, a1, a2, a3);
		}
	}
	if (i >= 0)
		hvpmu_qemu_follow_execve(num, (const uint64_t[6]){ a1, a2, a3, a4, a5, a6 });
}

static void sysret_put(int i, int64_t num, int64_t ret)
{
	if (i < 0)
		return;
	self = i;
	put_n((unsigned)i, (const struct remote_rec[2]){ { R_CTL_W0(C_SYSRET, 0), (uint64_t)num }, { (uint64_t)ret, 0 } },
	      2);
	grant_drop((unsigned)i);
	publish((unsigned)i);
}

/* As plugin.c's: a call that left the rotation is back in turn before its
 * return is recorded (the service hears of it at the point of the turns
 * where the thread comes back); a clone's new thread starts before its
 * creator's return is recorded; any other call's return is recorded, then
 * the threads it may have woken are settled. */
static void syscall_ret_cb(qemu_plugin_id_t id, unsigned int vcpu_idx, int64_t num, int64_t ret)
{
	int i = ring_of(vcpu_idx), me = (int)vcpu_idx;
	int in_turns = vcpu_idx < REMOTE_RINGS && A.turn.on;
	int blocked = in_turns && turns_returned(&A.turn, me);
	int clone_first = in_turns && !blocked && (num == A.isa->sc.clone || num == A.isa->sc.clone3);

	(void)id;
	if (blocked || clone_first)
		turns_syscall_ret(&A.turn, me, num, ret, blocked);
	sysret_put(i, num, ret);
	if (in_turns && !blocked && !clone_first)
		turns_syscall_ret(&A.turn, me, num, ret, 0);
	if (i >= 0)
		grant_wait((unsigned)i);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	/* QEMU 10 runs this callback also when a signal kills the program,
	 * before its kill(): that end, with its signal, is kill()'s
	 * (hvpmu_qemu_attach_end; plugin.c exit_called) */
	if (A.exit_called)
		image_end(0, 1);
	qemu_source_wall_end();
}

/* In a fork child: a new image, the forking thread its only one. */
static void child_after_fork(void)
{
	int me = self;

	turns_fork_child(&A.turn); /* (its only thread: no turns until it makes one) */
	A.gtime.on = 0;            /* (nor guest time: its clock is the host's again until then) */
	if (!A.area || A.dead || A.ended)
		return;
	for (unsigned k = 0; k < REMOTE_RINGS; k++)
		A.v[k] = (struct avcpu){ 0 };
	if (connect_service(REMOTE_FORK, A.process, A.next_id)) {
		A.dead = 1;
		return;
	}
	if (me >= 0 && me < (int)REMOTE_RINGS)
		thread_start((unsigned)me);
}

int hvpmu_qemu_attach_active(void)
{
	return A.area && !A.dead;
}

void hvpmu_qemu_attach_end(int sig)
{
	image_end(sig, 0);
}

int hvpmu_qemu_attach_start(uint64_t id, const struct qemu_info_t *info, const struct hvpmu_isa *isa,
			    const char *service, uint32_t exec_of, const char *comm, const char *guest)
{
	if (qemu_source_check(info, isa))
		return -1;
	if (turns_init(&A.turn, isa, REMOTE_RINGS, turn_arm, NULL))
		return -1;
	if (!service[0] || strlen(service) >= sizeof A.service) {
		fprintf(stderr, "hvpmu plugin: bad service name\n");
		return -1;
	}
	if (!guest || strlen(guest) >= sizeof A.guest) {
		fprintf(stderr, "hvpmu plugin: bad guest name\n");
		return -1;
	}
	snprintf(A.guest, sizeof A.guest, "%s", guest);
	A.isa = isa;
	snprintf(A.service, sizeof A.service, "%s", service);
	snprintf(A.comm, sizeof A.comm, "%s", comm ? comm : "");
	if (connect_service(exec_of ? REMOTE_EXEC : REMOTE_ROOT, exec_of, 0))
		return 0; /* the program runs uncounted */
	if (pthread_atfork(NULL, NULL, child_after_fork)) {
		detach("pthread_atfork failed");
		return 0;
	}
	if (gtime_init(&A.gtime, isa, &A.turn, time_now, NULL, A.area->clock_hz)) {
		detach("out of memory");
		return 0;
	}
	/* (no lagged time: every check reads the time after the last
	 * publication, docs/service.md "Guest time") */
	register_all(id);
	/* (it answers nothing before the turns start; an emulator without
	 * our patch 0004 has no filter: the guest's time stays the host's) */
	if (A.turn.quantum && qemu_plugin_register_vcpu_syscall_filter_cb && qemu_plugin_write_memory_vaddr &&
	    qemu_plugin_guest_host_address) {
		qemu_plugin_register_vcpu_syscall_filter_cb(id, gtime_filter_cb);
		A.gtime_filter = 1;
	}
	qemu_source_wall_start(comm);
	return 0;
}

static void register_all(qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	if (A.turn.quantum) /* (before turns start: a new thread waits for its turn from the first) */
		qemu_plugin_register_vcpu_idle_cb(id, turn_idle);
	qemu_plugin_register_vcpu_exit_cb(id, vcpu_exit);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_vcpu_syscall_cb(id, syscall_cb);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, syscall_ret_cb);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
}
