/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The remote event source (hvpmu/remote.h): the service's side of the
 * shared-memory areas of attached guest processes (remote_shm.h, the
 * guest's side is attach.c), run through the feed (feed.h) as the QEMU
 * plugin runs its own callbacks.  docs/service.md.
 */

#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <signal.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/futex.h>
#include <hvpmu/remote.h>
#include "common/shm_seal.h"
#include "feed.h"
#include "remote_proto.h"
#include "remote_shm.h"

#define RING_MASK (REMOTE_RING_SLOTS - 1u)
#define TICKET_GAP_MS 1000 /* longest wait for a missing ticket's publication (run_published) */
#define SCHED_TICK_MS 4    /* the guest OS's tick (Linux's 4 ms, the driver's default: docs/cli.md) */

/* Records a vCPU runs between looks at its strand's time. */
#define TIME_CHECK 64u

/* A block of an image, as the source decoded it (lazily, at first use). */
struct rblock {
	struct tb_info *ti;
	struct mem_insn **mi; /* per instruction, or NULL without the memory model */
	struct pf_insn **pf;
};

/* One process image. */
struct rproc {
	uint32_t num;             /* 1.. (hvpmu_os_call.process) */
	int pid;
	uint32_t from;            /* FORK, EXEC: the image it comes from (0: the root) */
	char comm[16];
	unsigned guest;           /* the md guest it runs in (its strands) */
	struct remote_area *area; /* mapped while the image or a fork child of it lives (refs) */
	int refs;                 /* the image itself until it ends, and each living fork child */
	struct rproc *parent;     /* a fork child: the ids below `base` are its */
	uint32_t base;
	uint64_t token[2];        /* its welcome's: a fork child's hello shows it (real_parent) */
	struct rblock *blocks;    /* by id - base */
	uint32_t nblocks;         /* decoded so far: blocks[] has room for ncap */
	uint32_t ncap;
	uint64_t tail[REMOTE_RINGS];
	struct vcpu *v[REMOTE_RINGS]; /* the feed vCPU of the ring's thread (NULL: none, or not counted) */
	uint8_t started[REMOTE_RINGS];
	unsigned nthreads;        /* rings whose thread has started and not exited */
	uint8_t timed;            /* its publications' machine times are noted (time_note): from the
				     first ordered one on (its guest time may be modeled from there) */
	uint32_t clones;          /* calls of a clone that may make a thread run so far, and */
	uint32_t joins;           /* starts of a thread beside another run: a start is due
				     (a ring whose thread has not started may run) while
				     clones > joins (start_due) */
	uint8_t cloning;          /* its one thread is in a clone that may make a thread (CLONE_VM |
				     CLONE_THREAD, or clone3): the new thread's start comes between
				     its call and its return, so it runs in publication order (ordered) */
	uint8_t in_syscall[REMOTE_RINGS];
	/* block counts (REMOTE_F_COUNTS): per ring, the instructions of the
	 * blocks its thread entered since C_START (the producer's gbound, at
	 * the ring's tail) and the grant last given */
	uint64_t gent[REMOTE_RINGS];
	uint64_t gcyc[REMOTE_RINGS];  /* and its cycle count, as its last record said */
	uint64_t grant[REMOTE_RINGS], grant_cyc[REMOTE_RINGS], grant_at[REMOTE_RINGS];
	uint64_t sc_flags[REMOTE_RINGS]; /* the system call in progress: clone's flags */
	uint64_t sc_arg1[REMOTE_RINGS];  /* and its second argument (a futex's operation) */
	/* the guest OS's scheduler (sched): a started thread without a
	 * strand waits in its guest's run queue (queued), or sleeps in a call
	 * that may wait, its strand given up (asleep: it queues when its
	 * return comes); lost: it could not be started on a strand (its
	 * records run uncounted); fresh: its next R_TB is its first on this
	 * strand (nothing is pending there); moved: it may still count blocks
	 * under a grant given for its last strand (until its next sync) */
	uint8_t queued[REMOTE_RINGS], asleep[REMOTE_RINGS], lost[REMOTE_RINGS], fresh[REMOTE_RINGS];
	uint8_t moved[REMOTE_RINGS], ran[REMOTE_RINGS];
	unsigned nasleep;
	int64_t sc_num[REMOTE_RINGS];     /* and its number */
	uint64_t next_ticket;     /* the ticket after the highest C_SEQ run (publications run in ticket order) */
	uint64_t gap_since;       /* ms: since when the next ticket's publication is missing (0: it is not) */
	int ending;               /* proc_end() is running its rings' last records */
	int exit_ring;            /* the ring whose thread called exit_group (-1: none) */
	int exit_reached;         /* its block had reached the call (the trap) */
	uint64_t exit_args[6];
	int ended;                /* C_END run (or detached): nothing more runs */
	int end_sig;
	int closed;               /* the connection closed */
	int bad;                  /* a malformed record detached it */
	int exec_wait;            /* it ended in an execve whose image may still attach (its parent) */
	int end_deferred;         /* its connection closed while a thread's records waited for a strand:
				     it ends (with defer_sig) once they have run */
	int defer_sig;
	int dead;                 /* (reap: freed now) */
};

/* What stays of an image once its state is freed (reap): the last
 * REMOTE_ENDED_KEEP of them, for the getters and the fork checks. */
struct rended {
	uint32_t num, from;
	int pid, end_sig;
	unsigned guest;
	char comm[16];
};
#define REMOTE_ENDED_KEEP 256u

struct hvpmu_remote {
	struct feed *f;           /* the run every image's threads feed (its vCPUs are the strands) */
	struct hvpmu_machine *m;
	const struct hvpmu_isa *isa;
	uint64_t quantum;
	uint64_t qend;            /* the current quantum ends at this %tick */
	int barrier;              /* the strands share a model (memory): quanta keep them in step */
	struct rproc **proc;      /* the images not freed yet (reap), by ascending number */
	uint32_t nproc, cap;
	uint32_t nimages;         /* images attached so far: the last one's number */
	uint32_t live;
	int reap;                 /* an image may be free to go (reap) */
	int root_pid;             /* image 1's pid, and how the last image of that pid ended */
	int root_end;
	struct rended ended[REMOTE_ENDED_KEEP]; /* a ring: the last images freed */
	uint32_t nended;          /* freed so far */
	/* the guest OS's scheduler (docs/service.md "More threads than
	 * strands"): per md guest, the threads waiting for a strand, first
	 * come first; per feed vCPU (strand), the %tick of its next OS tick */
	struct runq {
		struct rq_ent { struct rproc *p; unsigned i; } *e;
		uint32_t n, cap;
	} *runq;
	uint32_t nrunq;
	uint64_t *tick_next;
	uint64_t sched_tick;      /* the OS tick: SCHED_TICK_MS of the machine's clock */
	uint64_t n_switches;
	int efd;
	unsigned features;        /* REMOTE_F_* */
	uint64_t n_tb, n_counted; /* blocks entered by R_TB, and whole executions sent in R_CNT */
	uint64_t n_grants, n_syscalls;
	uint64_t n_forced;        /* quanta the barrier ran past a silent thread (grace over) */
	/* images announced but not attached yet: fork children (the parent's
	 * fork returned their pid) and programs an execve started */
	struct expect {
		int pid;
		struct rproc *holder; /* a fork child: its parent, whose area it will read */
		time_t since;         /* (monotonic seconds) an image attaches at once, or never */
		int orphan;           /* the holder's process was gone when its fork return ran: the
					 child must show the holder's token */
	} *expect;
	uint32_t nexpect, expect_cap;
};

static void area_release(struct rproc *p);
static int attached_already(const struct hvpmu_remote *r, int pid, uint32_t from);

#define LINUX_CLONE_VM 0x100u     /* Linux include/uapi/linux/sched.h: a thread, not a process... */
#define LINUX_CLONE_VFORK 0x4000u /* ...unless with CLONE_VFORK (posix_spawn), which QEMU runs as a fork */
#define LINUX_CLONE_THREAD 0x10000u /* (with CLONE_VM) a thread of the same process */
#define EXPECT_SECONDS 10         /* an announced image that has not attached by then never will */

static time_t mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* Host process pid's state (/proc/PID/stat field 3: 'R' running or
 * runnable, 'S' asleep, 'Z' a zombie...) and parent pid (field 4): 0, or
 * -1 if it cannot be read (no such process). */
static int proc_stat(int pid, char *state, int *ppid)
{
	char path[64], buf[512], *q;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	q = strrchr(buf, ')'); /* (the command name may hold anything) */
	if (!q || sscanf(q + 1, " %c %d", state, ppid) != 2)
		return -1;
	return 0;
}

/* The parent pid of host process pid, or -1. */
static int parent_of(int pid)
{
	char state;
	int ppid;

	return proc_stat(pid, &state, &ppid) ? -1 : ppid;
}

/* Whether host process pid has exited (gone, or a zombie not reaped yet). */
static int process_gone(int pid)
{
	char state;
	int ppid;

	return proc_stat(pid, &state, &ppid) || state == 'Z' || state == 'X';
}

/* Whether a hello shows image p's token. */
static int token_of(const struct remote_hello *h, const struct rproc *p)
{
	return (p->token[0] | p->token[1]) && ((h->token[0] ^ p->token[0]) | (h->token[1] ^ p->token[1])) == 0;
}

/* Image `pid` will attach; a fork child (holder: its parent) reads its
 * ancestors' blocks, whose areas stay mapped for it meanwhile. */
static void expect_pid(struct hvpmu_remote *r, int pid, struct rproc *holder)
{
	/* a fork child may attach before its parent's fork return runs here;
	 * and the guest's word is not taken for it: the pid must be a child
	 * of the image's process */
	int orphan = 0;

	if (holder && attached_already(r, pid, holder->num))
		return;
	/* (a parent that exited at once: its child is init's now, and only
	 * the token its hello shows proves whose it is) */
	if (holder && parent_of(pid) != holder->pid && !(orphan = process_gone(holder->pid)))
		return;
	if (r->nexpect == r->expect_cap) {
		uint32_t cap = r->expect_cap ? 2 * r->expect_cap : 16;
		struct expect *n = realloc(r->expect, cap * sizeof *n);

		if (!n)
			return; /* (the run may then end before that image attaches) */
		r->expect = n;
		r->expect_cap = cap;
	}
	for (struct rproc *q = holder; q; q = q->parent)
		q->refs++;
	r->expect[r->nexpect++] = (struct expect){ pid, holder, mono_s(), orphan };
}

static void expect_drop(struct hvpmu_remote *r, uint32_t k)
{
	r->reap = 1; /* (its holder may be free to go) */
	if (r->expect[k].holder)
		area_release(r->expect[k].holder);
	else /* an execve's image: the one it comes from may go now */
		for (uint32_t n = 0; n < r->nproc; n++)
			if (r->proc[n]->exec_wait && r->proc[n]->pid == r->expect[k].pid) {
				r->proc[n]->exec_wait = 0;
				r->reap = 1;
			}
	r->expect[k] = r->expect[--r->nexpect];
}

static void expect_done(struct hvpmu_remote *r, int pid)
{
	for (uint32_t k = 0; k < r->nexpect; k++)
		if (r->expect[k].pid == pid) {
			expect_drop(r, k);
			return;
		}
}

uint32_t hvpmu_remote_expecting(struct hvpmu_remote *r)
{
	for (uint32_t k = 0; k < r->nexpect;)
		if ((kill(r->expect[k].pid, 0) && errno == ESRCH) || /* it died before attaching */
		    mono_s() - r->expect[k].since > EXPECT_SECONDS)
			expect_drop(r, k);
		else
			k++;
	return r->nexpect;
}

/* 1 if NUL-terminated s has a control character (a newline: not one line). */
static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int remote_hello_check(const void *msg, size_t n, char *why, size_t len)
{
	struct remote_hello h;

	if (n != sizeof h) {
		snprintf(why, len, "hello of %zu bytes (expected %zu)", n, sizeof h);
		return EPROTO;
	}
	memcpy(&h, msg, sizeof h);
	if (h.magic != REMOTE_HELLO_MAGIC || h.version != REMOTE_PROTO_VERSION) {
		snprintf(why, len, "not an hvpmu guest (magic %#x, version %u; expected version %u)", h.magic,
			 h.version, REMOTE_PROTO_VERSION);
		return EPROTO;
	}
	if (h.how > REMOTE_GPCI) {
		snprintf(why, len, "hello: unknown kind %u", h.how);
		return EPROTO;
	}
	if (!memchr(h.isa, 0, sizeof h.isa) || !memchr(h.comm, 0, sizeof h.comm) || !memchr(h.guest, 0, sizeof h.guest)) {
		snprintf(why, len, "hello: ISA, program or guest name not terminated");
		return EPROTO;
	}
	if (has_control(h.isa) || has_control(h.guest)) { /* the refusals quote them, in one line */
		snprintf(why, len, "hello: a control character in the ISA or guest name");
		return EPROTO;
	}
	if (h.base > REMOTE_MAX_BLOCKS * 64u) {
		snprintf(why, len, "hello: block base %u out of range", h.base);
		return EPROTO;
	}
	return 0;
}

int hvpmu_remote_create(struct hvpmu_machine *m, const struct hvpmu_isa *isa, uint64_t quantum,
			struct hvpmu_remote **out)
{
	struct hvpmu_remote *r;
	struct feed *f;

	*out = NULL;
	if (!m || !isa || !quantum)
		return HVPMU_EINVAL;
	if (!(r = calloc(1, sizeof *r)))
		return HVPMU_ENOMEM;
	r->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	r->f = f = feed_new(m, isa);
	if (r->efd < 0 || !f) {
		if (r->efd >= 0)
			close(r->efd);
		feed_destroy(f);
		free(r);
		return HVPMU_ENOMEM;
	}
	f->mt = 1; /* every block ends with its marker: R_TB says whether it was reached */
	r->nrunq = hvpmu_machine_md(m)->nguests ? hvpmu_machine_md(m)->nguests : 1;
	r->runq = calloc(r->nrunq, sizeof *r->runq);
	r->tick_next = calloc(f->nvcpu ? f->nvcpu : 1, sizeof *r->tick_next);
	if (!r->runq || !r->tick_next) {
		free(r->runq);
		free(r->tick_next);
		close(r->efd);
		feed_destroy(f);
		free(r);
		return HVPMU_ENOMEM;
	}
	r->sched_tick = hvpmu_machine_md(m)->clock_hz * SCHED_TICK_MS / 1000u;
	if (!r->sched_tick)
		r->sched_tick = 1;
	r->m = m;
	r->isa = isa;
	r->quantum = quantum;
	r->qend = quantum;
	/* without the memory model nothing of one strand reaches another's
	 * counts: each thread runs as fast as its records come; except on a
	 * PAPR machine, whose hypervisor dispatches the strands by the
	 * quanta (hvpmu_machine_dispatch: the barrier's time is the CEC's) */
	r->barrier = f->need_memory || hvpmu_machine_md(m)->cec.nchips;
	r->features = f->need_memory ? REMOTE_F_MEMORY : 0;
	/* block counts: nothing but instruction classes and taken branches
	 * (no branch model, no memory model) and no barrier
	 * (docs/service.md "Block counts");
	 * HVPMU_REMOTE_COUNTS=0 records every block (testing: the counts
	 * must not differ) */
	if (!r->barrier && !f->need_branches &&
	    !(getenv("HVPMU_REMOTE_COUNTS") && strcmp(getenv("HVPMU_REMOTE_COUNTS"), "0") == 0))
		r->features |= REMOTE_F_COUNTS | (f->need_taken ? REMOTE_F_TAKEN : 0);
	*out = r;
	return HVPMU_OK;
}

/* The blocks image p decoded: once nothing runs them (the image and its
 * fork children have ended, area_release), a standing service must not
 * keep them. */
static void blocks_free(struct rproc *p)
{
	for (uint32_t i = 0; i < p->nblocks; i++) {
		for (uint32_t k = 0; p->blocks[i].mi && k < p->blocks[i].ti->blk.n; k++) {
			free(p->blocks[i].mi[k]);
			free(p->blocks[i].pf[k]);
		}
		free(p->blocks[i].mi);
		free(p->blocks[i].pf);
		feed_block_free(p->blocks[i].ti);
	}
	free(p->blocks);
	p->blocks = NULL;
	p->nblocks = p->ncap = 0;
}

static void proc_free(struct rproc *p)
{
	if (!p)
		return;
	blocks_free(p);
	if (p->area)
		munmap(p->area, sizeof *p->area);
	free(p);
}

void hvpmu_remote_destroy(struct hvpmu_remote *r)
{
	if (!r)
		return;
	if (getenv("HVPMU_REMOTE_STATS")) /* (tests: which way the blocks came) */
		fprintf(stderr, "hvpmu service: %" PRIu64 " block entries recorded, %" PRIu64 " executions counted; %"
			PRIu64 " grants, %" PRIu64 " system calls; %u of %u images kept; %" PRIu64 " switches; %" PRIu64
			" quanta past a silent thread\n",
			r->n_tb, r->n_counted, r->n_grants, r->n_syscalls, r->nproc, r->nimages, r->n_switches, r->n_forced);
	for (uint32_t i = 0; i < r->nproc; i++)
		proc_free(r->proc[i]);
	free(r->proc);
	free(r->expect);
	for (uint32_t g = 0; g < r->nrunq; g++)
		free(r->runq[g].e);
	free(r->runq);
	free(r->tick_next);
	close(r->efd);
	feed_destroy(r->f);
	free(r);
}

int hvpmu_remote_doorbell(const struct hvpmu_remote *r)
{
	return r->efd;
}

/* Image `num` if its state is kept (not freed: reap), else NULL. */
static struct rproc *proc_of(const struct hvpmu_remote *r, uint32_t num)
{
	uint32_t lo = 0, hi = r->nproc;

	while (lo < hi) { /* (r->proc is in ascending numbers) */
		uint32_t mid = lo + (hi - lo) / 2;

		if (r->proc[mid]->num == num)
			return r->proc[mid];
		if (r->proc[mid]->num < num)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* What stays of image `num`, freed lately, or NULL. */
static const struct rended *ended_of(const struct hvpmu_remote *r, uint32_t num)
{
	for (uint32_t k = 0; k < REMOTE_ENDED_KEEP && k < r->nended; k++)
		if (r->ended[k].num == num)
			return &r->ended[k];
	return NULL;
}

/* Has an image of pid `pid` from image `from` attached (kept or freed
 * lately)? */
static int attached_already(const struct hvpmu_remote *r, int pid, uint32_t from)
{
	for (uint32_t k = 0; k < r->nproc; k++)
		if (r->proc[k]->pid == pid && r->proc[k]->from == from)
			return 1;
	for (uint32_t k = 0; k < REMOTE_ENDED_KEEP && k < r->nended; k++)
		if (r->ended[k].pid == pid && r->ended[k].from == from)
			return 1;
	return 0;
}

/*
 * Free the state of the images that have ended and that nothing needs
 * any more: no fork child or expected one reads their blocks (refs), no
 * image an execve started is still to attach as their successor
 * (exec_wait).  What stays is a struct rended in a ring of the last
 * REMOTE_ENDED_KEEP, so that a standing service's memory does not grow
 * with the processes it has run (docs/service.md "Memory").
 */
static void reap(struct hvpmu_remote *r)
{
	uint32_t w = 0, n;

	r->reap = 0;
	for (n = 0; n < r->nproc; n++) {
		struct rproc *p = r->proc[n];

		p->dead = p->ended && p->refs <= 0 && !p->area && !p->exec_wait;
	}
	for (n = 0; n < r->nproc; n++) { /* (none points at a freed one: refs say none would read it) */
		struct rproc *p = r->proc[n];

		if (!p->dead && p->parent && p->parent->dead)
			p->parent = NULL;
	}
	for (n = 0; n < r->nproc; n++) {
		struct rproc *p = r->proc[n];
		struct rended *e;

		if (!p->dead) {
			r->proc[w++] = p;
			continue;
		}
		e = &r->ended[r->nended++ % REMOTE_ENDED_KEEP];
		*e = (struct rended){ .num = p->num, .from = p->from, .pid = p->pid, .end_sig = p->end_sig,
				      .guest = p->guest };
		memcpy(e->comm, p->comm, sizeof e->comm);
		proc_free(p);
	}
	r->nproc = w;
	if (r->cap > 64 && w < r->cap / 4) { /* (a burst's table shrinks again) */
		struct rproc **np = realloc(r->proc, (r->cap / 2) * sizeof *np);

		if (np) {
			r->proc = np;
			r->cap /= 2;
		}
	}
}

static int refuse(void *welcome, size_t wlen_max, size_t *wlen, int status, const char *why)
{
	struct remote_welcome w = { .magic = REMOTE_WELCOME_MAGIC, .version = REMOTE_PROTO_VERSION, .status = status };

	snprintf(w.reason, sizeof w.reason, "%.95s", why);
	*wlen = 0;
	if (wlen_max >= sizeof w) {
		memcpy(welcome, &w, sizeof w);
		*wlen = sizeof w;
	}
	return status;
}

int hvpmu_remote_hello(const void *hello, size_t n, enum hvpmu_remote_kind *kind, int *pid, char *guest,
		       char *why, size_t len)
{
	struct remote_hello h;
	int rc = remote_hello_check(hello, n, why, len);

	if (rc)
		return rc;
	memcpy(&h, hello, sizeof h);
	*kind = h.how == REMOTE_MONITOR ? HVPMU_REMOTE_MONITOR
		: h.how == REMOTE_DESCRIBE ? HVPMU_REMOTE_DESCRIBE
		: h.how == REMOTE_GPCI ? HVPMU_REMOTE_GPCI : HVPMU_REMOTE_IMAGE;
	*pid = h.pid;
	memcpy(guest, h.guest, sizeof h.guest);
	return 0;
}

int hvpmu_remote_hello_args(const void *hello, size_t n, uint32_t args[3])
{
	struct remote_hello h;
	char why[8];

	if (remote_hello_check(hello, n, why, sizeof why))
		return EPROTO;
	memcpy(&h, hello, sizeof h);
	memcpy(args, h.arg, sizeof h.arg);
	return 0;
}

size_t hvpmu_remote_gpci_answer(void *buf, size_t n, struct hvpmu_remote_gpci *a)
{
	a->magic = HVPMU_REMOTE_GPCI_MAGIC;
	a->version = REMOTE_PROTO_VERSION;
	n = n < sizeof *a ? n : sizeof *a;
	memcpy(buf, a, n);
	return n;
}

size_t hvpmu_remote_welcome(void *buf, size_t n, int status, const char *reason)
{
	struct remote_welcome w = { .magic = REMOTE_WELCOME_MAGIC, .version = REMOTE_PROTO_VERSION, .status = status };

	snprintf(w.reason, sizeof w.reason, "%s", reason ? reason : "");
	n = n < sizeof w ? n : sizeof w;
	memcpy(buf, &w, n);
	return n;
}

size_t hvpmu_remote_machine(void *buf, size_t n, const char *platform, const char *md_path, const struct hvpmu_md *md)
{
	struct remote_machine d = { .magic = REMOTE_MACHINE_MAGIC, .version = REMOTE_PROTO_VERSION };

	snprintf(d.platform, sizeof d.platform, "%s", platform);
	snprintf(d.md_path, sizeof d.md_path, "%s", md_path);
	d.nguests = md->nguests < 8 ? md->nguests : 8;
	for (uint32_t g = 0; g < d.nguests; g++)
		snprintf(d.guest[g], sizeof d.guest[g], "%s", md->guests[g].name);
	n = n < sizeof d ? n : sizeof d;
	memcpy(buf, &d, n);
	return n;
}

/* The md guest named `name` ("" = the first), or -1. */
static int guest_by_name(const struct hvpmu_remote *r, const char *name)
{
	const struct hvpmu_md *md = hvpmu_machine_md(r->m);

	if (!name[0])
		return md->nguests ? 0 : -1;
	for (uint32_t i = 0; i < md->nguests; i++)
		if (strcmp(md->guests[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Whether a FORK or EXEC hello's parent image is the peer's real one, as
 * the kernel says, not the guest (docs/service.md "Who a client is"): the
 * image not ended, and its process the peer's parent (fork) or the peer
 * itself (exec); or, the image ended already, the peer announced by it
 * before its end (a fork's return, checked then against the process
 * tree: expect_pid; an execve's end).  0, or EPERM with the reason. */
static int real_parent(const struct hvpmu_remote *r, const struct remote_hello *h, const struct rproc *parent,
		       int peer_pid, char *why, size_t len)
{
	const struct rproc *holder = h->how == REMOTE_FORK ? parent : NULL;

	if (h->how == REMOTE_EXEC && parent->pid != peer_pid) {
		snprintf(why, len, "hello: image %u is pid %d's, not the execve of pid %d", parent->num, parent->pid,
			 peer_pid);
		return EPERM;
	}
	for (uint32_t k = 0; k < r->nexpect; k++)
		if (r->expect[k].pid == peer_pid && r->expect[k].holder == holder &&
		    (!r->expect[k].orphan || token_of(h, parent)))
			return 0;
	if (parent->ended) {
		snprintf(why, len, "hello: image %u has ended: no process joins it", parent->num);
		return EPERM;
	}
	/* a child whose parent exited before the service ran the fork: its
	 * parent is init now; it shows the image's token instead */
	if (h->how == REMOTE_FORK && parent_of(peer_pid) != parent->pid &&
	    !(process_gone(parent->pid) && token_of(h, parent))) {
		snprintf(why, len, "hello: pid %d is not a child of image %u's pid %d", peer_pid, parent->num,
			 parent->pid);
		return EPERM;
	}
	return 0;
}

int hvpmu_remote_hello_guest(const struct hvpmu_remote *r, const void *hello, size_t n)
{
	struct remote_hello h;
	const struct rproc *parent;
	char why[128];

	if (remote_hello_check(hello, n, why, sizeof why))
		return -1;
	memcpy(&h, hello, sizeof h);
	if (h.how == REMOTE_ROOT)
		return guest_by_name(r, h.guest);
	if (h.how > REMOTE_EXEC || !(parent = proc_of(r, h.parent)))
		return -1;
	return (int)parent->guest;
}

int hvpmu_remote_attach(struct hvpmu_remote *r, const void *hello, size_t n, int peer_pid, uint32_t *process,
			void *welcome, size_t welcome_len, size_t *wlen, int *area_fd)
{
	struct remote_hello h;
	struct remote_welcome w = { .magic = REMOTE_WELCOME_MAGIC, .version = REMOTE_PROTO_VERSION };
	struct rproc *p, *parent = NULL;
	char why[128];
	int rc, fd, guest = 0;

	*area_fd = -1;
	*process = 0;
	if ((rc = remote_hello_check(hello, n, why, sizeof why)))
		return refuse(welcome, welcome_len, wlen, rc, why);
	memcpy(&h, hello, sizeof h);
	if (h.pid != peer_pid)
		return refuse(welcome, welcome_len, wlen, EPERM, "hello: pid is not the caller's");
	if (h.how > REMOTE_EXEC)
		return refuse(welcome, welcome_len, wlen, EPROTO, "hello: not a process image");
	if (strcmp(h.isa, r->isa->name) != 0) {
		snprintf(why, sizeof why, "the machine's processors run %s, not %s", r->isa->name, h.isa);
		return refuse(welcome, welcome_len, wlen, ENOEXEC, why);
	}
	if (h.how != REMOTE_ROOT) {
		parent = proc_of(r, h.parent);
		if (!parent && h.parent && h.parent <= r->nimages) { /* (freed: it ended) */
			snprintf(why, sizeof why, "hello: image %u has ended: no process joins it", h.parent);
			return refuse(welcome, welcome_len, wlen, EPERM, why);
		}
		if (!parent)
			return refuse(welcome, welcome_len, wlen, ESRCH, "hello: no such parent image");
		if ((rc = real_parent(r, &h, parent, peer_pid, why, sizeof why)))
			return refuse(welcome, welcome_len, wlen, rc, why);
		if (h.how == REMOTE_FORK && h.base < parent->base)
			return refuse(welcome, welcome_len, wlen, EPROTO, "hello: fork base below the parent's");
	}
	if (h.how == REMOTE_ROOT && (guest = guest_by_name(r, h.guest)) < 0) {
		snprintf(why, sizeof why, "the machine has no guest %.32s", h.guest);
		return refuse(welcome, welcome_len, wlen, ENOENT, why);
	}
	if (r->live >= HVPMU_CTX_MAX) /* (contexts of ended images are free again) */
		return refuse(welcome, welcome_len, wlen, EAGAIN, "the machine has no MMU context left for a process");
	if (r->nproc == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 16;
		struct rproc **np = realloc(r->proc, cap * sizeof *np);

		if (!np)
			return refuse(welcome, welcome_len, wlen, ENOMEM, "out of memory");
		r->proc = np;
		r->cap = cap;
	}
	if (!(p = calloc(1, sizeof *p)))
		return refuse(welcome, welcome_len, wlen, ENOMEM, "out of memory");
	p->exit_ring = -1;
	/* sealed before the guest has it (common/shm_seal.h; memfd_create(2),
	 * fcntl(2) "File Sealing"): a guest that ftruncates its area gets
	 * EPERM; unsealed, the service would die of SIGBUS at its next read
	 * of the ring heads */
	fd = shm_create("hvpmu-guest", MFD_CLOEXEC, sizeof *p->area);
	if (fd < 0 || shm_seal(fd) ||
	    (p->area = mmap(NULL, sizeof *p->area, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		p->area = NULL;
		if (fd >= 0)
			close(fd);
		free(p);
		return refuse(welcome, welcome_len, wlen, ENOMEM, "cannot create the shared area");
	}
	p->num = ++r->nimages;
	p->refs = 1;
	p->pid = h.pid;
	p->from = h.how == REMOTE_ROOT ? 0 : h.parent;
	p->guest = parent ? parent->guest : (unsigned)guest;
	memcpy(p->comm, h.comm, sizeof p->comm);
	if (h.how == REMOTE_FORK) {
		p->parent = parent;
		p->base = h.base;
		for (struct rproc *q = parent; q; q = q->parent) /* its blocks may be read while the child lives */
			q->refs++;
	}
	p->area->magic = REMOTE_MAGIC;
	p->area->version = REMOTE_VERSION;
	p->area->base = p->base;
	p->area->features = r->features;
	{
		struct hvpmu_cycle_rule rule;

		hvpmu_machine_cycle_rule(r->m, &rule);
		p->area->insn_cycles = rule.insn_cycles;
		p->area->block_uops = rule.block_uops;
		p->area->taken_cti_cycles = rule.taken_cti_cycles;
	}
	p->area->clock_hz = hvpmu_machine_md(r->m)->clock_hz;
	r->proc[r->nproc++] = p;
	r->live++;
	if (p->num == 1)
		r->root_pid = p->pid;
	if (p->pid == r->root_pid)
		r->root_end = -1; /* (until it ends) */
	expect_done(r, h.pid); /* (after the child's own references above) */
	*process = p->num;
	*area_fd = fd; /* the caller sends and closes it: the mapping stays */
	if (getrandom(p->token, sizeof p->token, 0) != (ssize_t)sizeof p->token) {
		/* (no token: its children prove their descent by the process tree only) */
		p->token[0] = p->token[1] = 0;
	}
	w.process = p->num;
	w.features = r->features;
	memcpy(w.token, p->token, sizeof w.token);
	memcpy(welcome, &w, welcome_len < sizeof w ? welcome_len : sizeof w);
	*wlen = welcome_len < sizeof w ? welcome_len : sizeof w;
	return 0;
}

/* Image p no longer needs its area: unmapped once nothing can read it
 * (the blocks it decoded stay, on the feed's list). */
static void area_release(struct rproc *p)
{
	for (; p; p = p->parent)
		if (--p->refs == 0 && p->area) {
			munmap(p->area, sizeof *p->area);
			p->area = NULL;
			blocks_free(p);
		}
}

/* ---- running an image's records ---- */

static void proc_fail(struct rproc *p, const char *what, uint64_t a)
{
	if (!p->bad) {
		fprintf(stderr, "hvpmu service: process %u (pid %d): %s (%#llx); detached, its counts so far kept\n",
			p->num, p->pid, what, (unsigned long long)a);
		/* the guest stops recording (and waiting for room) */
		atomic_store(&p->area->abandoned, 1);
		for (unsigned i = 0; i < REMOTE_RINGS; i++)
			syscall(SYS_futex, (uint32_t *)&p->area->ring[i].tail, FUTEX_WAKE, 1, NULL, NULL, 0);
	}
	p->bad = 1;
}

/* Block `id` of image p (or of the image it was forked from), decoded on
 * first use; NULL if the id names no published block. */
static struct rblock *block_of(struct feed *f, struct rproc *p, uint64_t id)
{
	struct rproc *q = p;
	struct remote_block b;
	uint32_t idx, pub, words[REMOTE_BLOCK_MAX_INSNS];
	struct mem_insn *const *mi;
	struct pf_insn *const *pf;
	struct rblock *rb;

	while (q->parent && id < q->base)
		q = q->parent;
	if (id < q->base || id - q->base >= REMOTE_MAX_BLOCKS)
		return NULL;
	idx = (uint32_t)(id - q->base);
	if (idx < q->nblocks && q->blocks[idx].ti)
		return &q->blocks[idx];
	if (!q->area) /* (an image whose area is gone: a fork child attached after nothing held it) */
		return NULL;
	pub = atomic_load_explicit(&q->area->nblocks, memory_order_acquire);
	if (idx >= pub || pub > REMOTE_MAX_BLOCKS)
		return NULL;
	if (idx >= q->ncap) {
		uint32_t cap = q->ncap ? q->ncap : 1024;
		struct rblock *nb;

		while (cap <= idx)
			cap *= 2;
		if (!(nb = realloc(q->blocks, cap * sizeof *nb)))
			return NULL;
		memset(nb + q->ncap, 0, (cap - q->ncap) * sizeof *nb);
		q->blocks = nb;
		q->ncap = cap;
	}
	/* a copy of the guest's entry and words: nothing is read twice */
	b = q->area->block[idx];
	if (b.n == 0 || b.n > REMOTE_BLOCK_MAX_INSNS || b.word > REMOTE_MAX_WORDS - b.n)
		return NULL;
	memcpy(words, &q->area->words[b.word], b.n * sizeof *words);
	rb = &q->blocks[idx];
	if (!(rb->ti = feed_block_new(f, b.vaddr, words, b.n, &mi, &pf)))
		return NULL;
	feed_block_own(f, rb->ti); /* freed with the image (blocks_free) */
	feed_finish_tb(f, rb->ti);
	{ /* a conditional CTI the addresses cannot decide: the guest reads its
	   * registers and sends the outcome with the next R_TB (R_TB_REG) */
		struct tb_info *ti = rb->ti;

		if ((ti->cti_flags & HVPMU_IC_CTI_COND) && !ti->cti_annul && ti->blk.cond_cti >= 0 &&
		    feed_cond_needs_regs(f->isa, ti->cti_target, ti->cti_fall, (uint32_t)ti->blk.cond_cti, b.n,
					 words[b.n - 1])) {
			ti->reg_cond = 1;
			ti->slow_next = 1; /* resolve_pending() decides it, on the slow path */
		}
	}
	if (mi) {
		rb->mi = malloc(b.n * sizeof *rb->mi);
		rb->pf = malloc(b.n * sizeof *rb->pf);
		if (!rb->mi || !rb->pf) {
			free(rb->mi);
			free(rb->pf);
			rb->mi = NULL;
			rb->pf = NULL;
		} else {
			memcpy(rb->mi, mi, b.n * sizeof *rb->mi);
			memcpy(rb->pf, pf, b.n * sizeof *rb->pf);
		}
	}
	if (idx >= q->nblocks)
		q->nblocks = idx + 1;
	return rb;
}

/* A thread of image p runs uncounted (it got no strand), or p was
 * detached (a bad record): its guest OS publishes it with the counts,
 * and the tool that reads them fails the run with a line (never 100 %
 * over missing work: docs/service.md "More threads than strands"). */
static void uncounted(struct hvpmu_remote *r, const struct rproc *p)
{
	const struct hvpmu_md *md = hvpmu_machine_md(r->m);
	struct hvpmu_os_call c = { .ev = HVPMU_OS_UNCOUNTED, .num = 1, .process = p->num,
				   .strand = p->guest < md->nguests ? md->guests[p->guest].first_strand : 0 };

	hvpmu_machine_os_event(r->m, &c);
}

/* The first free vCPU slot in placement order on a strand of guest g,
 * or NULL. */
static struct vcpu *free_vcpu(struct hvpmu_remote *r, unsigned g)
{
	struct feed *f = r->f;
	const struct hvpmu_md *md = hvpmu_machine_md(r->m);
	const struct hvpmu_md_guest *gu = &md->guests[g];

	for (uint32_t k = 0; k < f->nvcpu; k++)
		if (!f->vcpu[k].live && hvpmu_md_vcpu_strand(md, k) - gu->first_strand < gu->nstrands)
			return &f->vcpu[k];
	return NULL;
}

static void vcpu_end(struct feed *f, struct vcpu *v);

/* The thread of ring i of image p runs on v's strand from now on (the
 * guest OS dispatches it: its counters start there, docs/kernel-model.md). */
static void thread_on(struct hvpmu_remote *r, struct rproc *p, unsigned i, struct vcpu *v)
{
	struct feed *f = r->f;
	uint32_t k = (uint32_t)(v - f->vcpu);
	int rc;

	lock(f);
	rc = feed_vcpu_start(f, v, hvpmu_md_vcpu_strand(hvpmu_machine_md(r->m), k), p->num);
	unlock(f);
	if (rc) { /* (out of host memory) */
		fprintf(stderr, "hvpmu service: a thread of process %u (pid %d) cannot start on a strand; not counted\n",
			p->num, p->pid);
		p->lost[i] = 1;
		uncounted(r, p);
		return;
	}
	v->held = 1; /* one thread runs every vCPU: no lock around the model */
	p->v[i] = v;
	p->fresh[i] = 1;
	p->moved[i] = p->ran[i];
	p->ran[i] = 1;
	r->tick_next[k] = hvpmu_machine_tick(r->m, v->strand) + r->sched_tick;
}

/* The thread of ring i of image p leaves its strand (its counts so far
 * are the strand's: the guest OS stops its counters there). */
static void thread_off(struct hvpmu_remote *r, struct rproc *p, unsigned i)
{
	vcpu_end(r->f, p->v[i]);
	p->v[i] = NULL;
	r->n_switches++;
}

static int enqueue(struct hvpmu_remote *r, struct rproc *p, unsigned i)
{
	struct runq *q = &r->runq[p->guest < r->nrunq ? p->guest : 0];

	if (q->n == q->cap) {
		uint32_t cap = q->cap ? 2 * q->cap : 16;
		struct rq_ent *n = realloc(q->e, cap * sizeof *n);

		if (!n)
			return -1;
		q->e = n;
		q->cap = cap;
	}
	q->e[q->n++] = (struct rq_ent){ p, i };
	p->queued[i] = 1;
	return 0;
}

/* Threads of guest g wait for a strand (its run queue is not empty). */
static inline uint32_t waiters(const struct hvpmu_remote *r, unsigned g)
{
	return r->runq[g < r->nrunq ? g : 0].n;
}

/* A call whose return the guest OS needs on the strand that made it
 * (linux_mm: large pages), or that ends the process: its thread keeps
 * its strand through it.  (Such calls do not wait for another process.) */
static int call_keeps_strand(const struct hvpmu_isa_syscalls *sc, int64_t num)
{
	return num == sc->mmap || num == sc->madvise || num == sc->mremap || num == sc->munmap ||
	       num == sc->mprotect || num == sc->exit_group;
}

/* A strand of guest g held by a thread inside a system call whose return
 * is not published yet (it may be blocked: a read of an empty pipe, a
 * write to a full one, a wait): the thread gives it up, as a kernel
 * deschedules a thread that blocks.  NULL if none. */
static struct vcpu *take_sleeper(struct hvpmu_remote *r, unsigned g)
{
	for (uint32_t n = 0; n < r->nproc; n++) {
		struct rproc *p = r->proc[n];

		if (p->guest != g || p->ended || p->ending || p->bad)
			continue;
		for (unsigned i = 0; i < REMOTE_RINGS; i++) {
			struct vcpu *v = p->v[i];

			if (v && p->in_syscall[i] && (int)i != p->exit_ring &&
			    !call_keeps_strand(&r->isa->sc, p->sc_num[i]) &&
			    atomic_load_explicit(&p->area->ring[i].head, memory_order_acquire) == p->tail[i]) {
				thread_off(r, p, i);
				p->asleep[i] = 1;
				p->nasleep++;
				return v;
			}
		}
	}
	return NULL;
}

/* The guest OS of guest g dispatches the threads waiting for a strand:
 * onto free strands, then onto those of threads asleep in their calls. */
static void sched(struct hvpmu_remote *r, unsigned g)
{
	struct runq *q = &r->runq[g < r->nrunq ? g : 0];

	while (q->n) {
		struct vcpu *v = free_vcpu(r, g);
		struct rq_ent e;

		if (!v && !(v = take_sleeper(r, g)))
			return;
		e = q->e[0];
		memmove(q->e, q->e + 1, --q->n * sizeof *q->e);
		e.p->queued[e.i] = 0;
		thread_on(r, e.p, e.i, v);
	}
}

/* Image p ends: its threads leave the run queue. */
static void dequeue_proc(struct hvpmu_remote *r, struct rproc *p)
{
	struct runq *q = &r->runq[p->guest < r->nrunq ? p->guest : 0];
	uint32_t w = 0;

	for (uint32_t k = 0; k < q->n; k++)
		if (q->e[k].p != p)
			q->e[w++] = q->e[k];
	q->n = w;
	memset(p->queued, 0, sizeof p->queued);
	memset(p->asleep, 0, sizeof p->asleep);
	p->nasleep = 0;
}

/* A thread starts (C_START of ring i): on a free strand of its guest if
 * no thread waits for one, else at the back of the run queue. */
static void thread_new(struct hvpmu_remote *r, struct rproc *p, unsigned i)
{
	struct vcpu *v = waiters(r, p->guest) && !p->ending ? NULL : free_vcpu(r, p->guest);

	if (v) {
		thread_on(r, p, i, v);
		return;
	}
	if (p->ending || enqueue(r, p, i)) { /* (ending: its image's last records run now, on no strand) */
		p->lost[i] = 1;
		uncounted(r, p);
		return;
	}
	sched(r, p->guest);
}

/* Its OS tick has come on the strand of v, whose guest has threads
 * waiting for a strand: the thread on it goes to the back of the queue. */
static inline int tick_due(const struct hvpmu_remote *r, const struct vcpu *v)
{
	return hvpmu_machine_tick(r->m, v->strand) >= r->tick_next[v - r->f->vcpu];
}

/* Its records run on no strand: it waits for one (queued, asleep). */
static inline int ring_waits(const struct rproc *p, unsigned i)
{
	return !p->v[i] && p->started[i] && !p->lost[i];
}

/* A thread of p waits for a strand with records published (queued, or
 * asleep with its call's return published). */
static int waits_with_records(const struct rproc *p)
{
	for (unsigned i = 0; i < REMOTE_RINGS; i++)
		if (ring_waits(p, i) &&
		    atomic_load_explicit(&p->area->ring[i].head, memory_order_acquire) != p->tail[i])
			return 1;
	return 0;
}

/* Ring records of p are published and not run yet. */
static int has_records(const struct hvpmu_remote *r, const struct rproc *p)
{
	(void)r;
	for (unsigned i = 0; i < REMOTE_RINGS; i++)
		if (atomic_load_explicit(&p->area->ring[i].head, memory_order_acquire) != p->tail[i])
			return 1;
	return 0;
}

/* Threads of p asleep in a call whose return has come queue for a strand. */
static void wake(struct hvpmu_remote *r, struct rproc *p)
{
	for (unsigned i = 0; i < REMOTE_RINGS && p->nasleep; i++)
		if (p->asleep[i] && atomic_load_explicit(&p->area->ring[i].head, memory_order_acquire) != p->tail[i]) {
			p->asleep[i] = 0;
			p->nasleep--;
			if (enqueue(r, p, i)) {
				p->lost[i] = 1;
				uncounted(r, p);
			}
			sched(r, p->guest);
		}
}

static void vcpu_end(struct feed *f, struct vcpu *v)
{

	v->held = 0;
	feed_vcpu_exit(f, v);
	/* its blocks may be freed with its image: nothing of them stays */
	feed_expand_dirty(f, v);
	v->prev = NULL;
	v->pend = 0;
	v->pend_tb = NULL;
}

static inline struct remote_rec rec_at(const struct remote_ring *rg, uint64_t i)
{
	return rg->slot[i & RING_MASK];
}

/* Wake the ring's producer if it sleeps for room. */
static void release(struct remote_ring *rg, uint64_t tail)
{
	atomic_store_explicit(&rg->tail, tail, memory_order_seq_cst);
	if (atomic_load_explicit(&rg->prod_wait, memory_order_seq_cst))
		syscall(SYS_futex, (uint32_t *)&rg->tail, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* Image p ends: every ring's published records run (in ring order), then
 * its threads stop. */
static void proc_end(struct hvpmu_remote *r, struct rproc *p, int sig);
static uint64_t run_published(struct hvpmu_remote *r, struct rproc *p, int final);

static inline uint64_t add_sat(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/*
 * Ring i of image p has run up to its head t: the grant for its thread
 * (struct remote_ring), the instruction and cycle counts below which
 * nothing comes due on its strand (hvpmu_machine_budget), if it may count
 * blocks now: one thread, not in a system call.  (The producer takes it
 * only where its counts are all sent.)  Written only when it changes.
 */
static void grant(struct hvpmu_remote *r, struct rproc *p, unsigned i, uint64_t t)
{
	struct remote_ring *rg = &p->area->ring[i];
	struct vcpu *v = p->v[i];
	uint64_t check, cycles, g = 0, gc;

	if (!(r->features & REMOTE_F_COUNTS) || p->in_syscall[i] || p->ending || p->ended || p->bad)
		return;
	/* (none, 0, is an answer too: the thread waits for one, grant_wait) */
	if (!v || p->nthreads != 1 || hvpmu_machine_budget(r->m, v->strand, &check, &cycles)) {
		gc = 0;
	} else {
		uint32_t k = (uint32_t)(v - r->f->vcpu);
		uint64_t now = hvpmu_machine_tick(r->m, v->strand);

		/* no further than the strand's next OS tick, where its thread
		 * may have to give the strand to a waiting one (sched) */
		if (r->tick_next[k] <= now)
			r->tick_next[k] += ((now - r->tick_next[k]) / r->sched_tick + 1) * r->sched_tick;
		if (cycles > r->tick_next[k] - now)
			cycles = r->tick_next[k] - now;
		if (check > v->act->bound)
			g = add_sat(p->gent[i], check - v->act->bound);
		gc = add_sat(p->gcyc[i], cycles);
	}
	if (p->grant[i] == g && p->grant_cyc[i] == gc && p->grant_at[i] == t)
		return;
	p->grant[i] = g;
	p->grant_cyc[i] = gc;
	p->grant_at[i] = t;
	r->n_grants++;
	atomic_store_explicit(&rg->grant, g, memory_order_relaxed);
	atomic_store_explicit(&rg->grant_cyc, gc, memory_order_relaxed);
	atomic_store_explicit(&rg->grant_at, t, memory_order_release);
}

/* What a record of a ring is to run_ring(): a feed event (run by
 * feed_run_ev(), the interpreter the plugin's records go through too),
 * done here, the image's end, or bad (the image is detached). */
enum { RING_BAD = -1, RING_DONE, RING_EV, RING_END };

/* A block entry, block count, data access or prefetch of ring i of image
 * p: its feed event, its block and instruction checked. */
static int ring_data(struct hvpmu_remote *r, struct rproc *p, unsigned i, struct remote_rec e, struct feed_ev *ev)
{
	struct rblock *b;
	unsigned k = R_INSN_IDX(e.w0);

	switch (R_KIND(e.w0)) {
	case R_TB:
		if (!(b = block_of(r->f, p, R_TB_ID(e.w0))))
			break;
		r->n_tb++;
		p->gent[i] += b->ti->blk.n;
		if (r->features & REMOTE_F_COUNTS)
			p->gcyc[i] = e.w1;
		if (e.w0 & R_TB_SYNC) /* (its grant is over: the next is this strand's) */
			p->moved[i] = 0;
		if (__builtin_expect(p->fresh[i], 0)) { /* its first on this strand: nothing is pending */
			p->fresh[i] = 0;
			*ev = (struct feed_ev){ .kind = FEED_EV_TB, .ti = b->ti, .sync = (e.w0 & R_TB_SYNC) != 0 };
			return RING_EV;
		}
		/* the pending CTI's outcome from its registers, or none: an R_TB
		 * says it for the CTI pending before it, and only 2 | taken
		 * means one (the guest is not trusted); past a grant (sync) the
		 * syncs left out catch up at this entry */
		*ev = (struct feed_ev){ .kind = FEED_EV_TB, .ti = b->ti, .reached = (uint8_t)R_TB_REACHED(e.w0),
					.reg = (uint8_t)(R_TB_REG(e.w0) & 2u ? R_TB_REG(e.w0) : 0u),
					.sync = (e.w0 & R_TB_SYNC) != 0 };
		return RING_EV;
	case R_CNT: /* whole executions of a block, counted by the guest */
		if (!(b = block_of(r->f, p, R_CNT_ID(e.w0))) || !(r->features & REMOTE_F_COUNTS))
			break;
		r->n_counted += e.w1;
		*ev = (struct feed_ev){ .kind = FEED_EV_CNT, .ti = b->ti, .a = e.w1 };
		return RING_EV;
	case R_MEM:
	case R_PF:
		b = block_of(r->f, p, R_INSN_ID(e.w0));
		if (!b || k >= b->ti->blk.n || !b->mi || (R_KIND(e.w0) == R_MEM ? !b->mi[k] : !b->pf[k])) {
			proc_fail(p, "record names no memory instruction", e.w0);
			return RING_BAD;
		}
		if (R_KIND(e.w0) == R_MEM)
			*ev = (struct feed_ev){ .kind = FEED_EV_MEM, .mi = b->mi[k], .a = e.w1, .size = 1u << R_MEM_SHIFT(e.w0),
						.store = (uint8_t)R_MEM_STORE(e.w0) };
		else
			*ev = (struct feed_ev){ .kind = FEED_EV_PF, .pf = b->pf[k] };
		return RING_EV;
	default:
		proc_fail(p, "unknown record", e.w0);
		return RING_BAD;
	}
	proc_fail(p, "record names no block", e.w0);
	return RING_BAD;
}

/* C_FAST at t of ring i: blocks entered under the grant (their counts
 * came as R_CNT), checked against the grant. */
static int ring_fast(struct hvpmu_remote *r, struct rproc *p, unsigned i, uint64_t t, struct remote_rec e,
		     struct feed_ev *ev)
{
	struct rblock *b = block_of(r->f, p, R_FAST_ID(e.w0));
	struct remote_rec e1 = rec_at(&p->area->ring[i], t + 1);
	struct vcpu *v = p->v[i];
	uint64_t check, cycles;

	if (!b || !(r->features & REMOTE_F_COUNTS)) {
		proc_fail(p, "record names no block", e.w0);
		return RING_BAD;
	}
	p->gent[i] += e.w1;
	p->gcyc[i] = e1.w0;
	if (!v)
		return RING_DONE;
	if (e1.w1 && !(r->features & REMOTE_F_TAKEN)) {
		proc_fail(p, "taken branches counted unasked", e.w0);
		return RING_BAD;
	}
	/* (the instructions are checked; their cycles are the guest's word,
	 * as its R_TB are) */
	if (!p->moved[i] && (hvpmu_machine_budget(r->m, v->strand, &check, &cycles) || check <= v->act->bound ||
			     e.w1 >= check - v->act->bound)) {
		proc_fail(p, "block counts beyond the grant", e.w1);
		return RING_BAD;
	}
	*ev = (struct feed_ev){ .kind = FEED_EV_FAST, .ti = b->ti, .a = e.w1, .b = e1.w1 };
	return RING_EV;
}

/* C_SYSCALL and C_SYSRET at t of ring i (their slots published); the
 * arguments into args. */
static int ring_syscall(struct hvpmu_remote *r, struct rproc *p, unsigned i, uint64_t t, struct remote_rec e,
			struct feed_ev *ev, uint64_t *args)
{
	const struct remote_ring *rg = &p->area->ring[i];
	const struct hvpmu_isa_syscalls *sc = &r->isa->sc;
	struct vcpu *v = p->v[i];
	int64_t num = (int64_t)e.w1, ret = (int64_t)rec_at(rg, t + 1).w0;

	if (R_CTL_OP(e.w0) == C_SYSRET) {
		if (num == sc->clone || num == sc->clone3)
			p->cloning = 0;
		/* a new process: its image will attach */
		if (ret > 0 && ret <= INT32_MAX &&
		    (num == sc->fork || num == sc->vfork ||
		     (num == sc->clone && (!(p->sc_flags[i] & LINUX_CLONE_VM) || (p->sc_flags[i] & LINUX_CLONE_VFORK)))))
			expect_pid(r, (int)ret, p);
		p->in_syscall[i] = 0;
		*ev = (struct feed_ev){ .kind = FEED_EV_SYSRET, .a = (uint64_t)num, .b = (uint64_t)ret };
		return RING_EV;
	}
	for (unsigned k = 0; k < 3; k++) {
		args[2 * k] = rec_at(rg, t + 1 + k).w0;
		args[2 * k + 1] = rec_at(rg, t + 1 + k).w1;
	}
	p->in_syscall[i] = 1;
	r->n_syscalls++;
	p->sc_flags[i] = args[0];
	p->sc_arg1[i] = args[1];
	p->sc_num[i] = num;
	if ((num == sc->clone && (args[0] & (LINUX_CLONE_VM | LINUX_CLONE_THREAD)) ==
					(LINUX_CLONE_VM | LINUX_CLONE_THREAD)) ||
	    num == sc->clone3) {
		p->cloning = 1;
		p->clones++;
	}
	p->moved[i] = 0; /* (the guest counts no blocks under a grant past a call) */
	if (v) /* (it accounts the block entered last) */
		v->reached_last = (int)R_REACHED(e.w0);
	if (num == sc->exit_group && v && p->exit_ring < 0) {
		/* every thread of the image ends: what the others published
		 * runs first, at the image's end (proc_end) */
		p->exit_ring = (int)i;
		p->exit_reached = v->reached_last;
		memcpy(p->exit_args, args, sizeof p->exit_args);
		return RING_DONE;
	}
	*ev = (struct feed_ev){ .kind = FEED_EV_SYSCALL, .a = (uint64_t)num, .args = args,
				.reached = (uint8_t)R_REACHED(e.w0) };
	return RING_EV;
}

static inline int ordered(const struct rproc *p);

/* Publication `ticket` of image p (in ticket order) has run: the
 * machine's time after it, for the image's guest time (struct
 * remote_area: the producer waits for it, reads it, and checks the slot's
 * ticket; it reads nothing the service relies on). */
static void time_note(struct hvpmu_remote *r, struct rproc *p, uint64_t ticket)
{
	struct remote_time *t = &p->area->time[ticket % REMOTE_TIME_SLOTS];

	p->timed = 1;
	atomic_store_explicit(&t->cycles, hvpmu_machine_now(r->m), memory_order_relaxed);
	atomic_store_explicit(&t->ticket, ticket + 1, memory_order_release);
	atomic_store_explicit(&p->area->time_done, p->next_ticket, memory_order_release);
}

/* A control record at t of ring i (its slots published). */
static int ring_ctl(struct hvpmu_remote *r, struct rproc *p, unsigned i, uint64_t t, struct remote_rec e,
		    struct feed_ev *ev, uint64_t *args)
{
	struct vcpu *v = p->v[i];

	switch (R_CTL_OP(e.w0)) {
	case C_NOP:
		return RING_DONE;
	case C_SEQ: /* (the order of publications: run_published) */
		if (e.w1 >= p->next_ticket)
			p->next_ticket = e.w1 + 1;
		if (p->timed || ordered(p))
			time_note(r, p, e.w1);
		return RING_DONE;
	case C_FAST:
		return ring_fast(r, p, i, t, e, ev);
	case C_START:
		if (p->v[i] || p->started[i]) {
			proc_fail(p, "thread started twice on a vCPU", i);
			return RING_BAD;
		}
		if (p->nthreads)
			p->joins++;
		p->started[i] = 1;
		p->nthreads++;
		p->gent[i] = 0;
		p->gcyc[i] = 0;
		p->lost[i] = 0;
		p->ran[i] = 0;
		thread_new(r, p, i);
		return RING_DONE;
	case C_EXIT:
		if (v) { /* (it accounts the block entered last) */
			v->reached_last = (int)R_REACHED(e.w0);
			vcpu_end(r->f, v);
		}
		p->v[i] = NULL;
		p->nthreads -= p->started[i];
		p->started[i] = 0;
		p->in_syscall[i] = 0;
		if (v) /* its strand is free: the next waiting thread's */
			sched(r, p->guest);
		return RING_DONE;
	case C_SYSCALL:
	case C_SYSRET:
		return ring_syscall(r, p, i, t, e, ev, args);
	case C_END:
		return RING_END;
	default:
		proc_fail(p, "unknown control record", e.w0);
		return RING_BAD;
	}
}

/* C_END (w1) was run: the image ends, unless its end is being run
 * already (proc_end), which this record's signal then ends. */
static void ring_end(struct hvpmu_remote *r, struct rproc *p, uint64_t w1)
{
	if (w1 & C_END_EXEC) { /* its new program attaches next */
		uint32_t before = r->nexpect;

		expect_pid(r, p->pid, NULL);
		p->exec_wait = r->nexpect > before; /* (kept as its parent until then) */
	}
	if (p->ending) /* its end is being run: the rest goes on, this is how */
		p->end_sig = (int)(w1 & 0xff);
	else
		proc_end(r, p, (int)(w1 & 0xff));
}

/* The OS tick of ring i's strand (its next record e is an R_TB): the
 * block before it is accounted there, the thread leaves the strand for
 * the back of the run queue and the first waiting thread takes it.
 * Returns 1 if it left (its R_TB runs on its next strand). */
static int preempt(struct hvpmu_remote *r, struct rproc *p, unsigned i, struct remote_rec e)
{
	struct rblock *b = block_of(r->f, p, R_TB_ID(e.w0));
	struct vcpu *v = p->v[i];

	if (!b || !feed_switch_out(r->f, v, b->ti, (int)R_TB_REACHED(e.w0),
				   (uint8_t)(R_TB_REG(e.w0) & 2u ? R_TB_REG(e.w0) : 0u)))
		return 0; /* (a bad id fails as the record runs; a pending delay slot: at a later entry) */
	thread_off(r, p, i);
	if (enqueue(r, p, i)) { /* (out of host memory: it keeps a strand) */
		thread_on(r, p, i, v);
		p->fresh[i] = 1;
		return 1;
	}
	sched(r, p->guest);
	return 1;
}

/* Its records run in the order its threads published them (run_published):
 * it has several threads, or its one thread is making another. */
static inline int ordered(const struct rproc *p)
{
	return p->nthreads > 1 || p->cloning;
}

/* May ring i of p run?  Not while it is a new thread's (its image has a
 * thread, its own has not started) and no clone run so far has a start
 * still due: its start runs after the clone's call, never before it by
 * quanta (the start is published before the clone returns, and the
 * creator's ring may be held at the quantum's end).  With the threads in
 * turns the start runs in publication order anyway; with them free
 * (HVPMU_QUANTUM=off) the clone's return may run before the start, and
 * the start is still due then. */
static inline int start_due(const struct rproc *p, unsigned i)
{
	return !p->nthreads || p->started[i] || p->clones > p->joins;
}

/*
 * Run ring i of image p: published records, at most `max`, while its
 * strand's %tick is below `limit` (UINT64_MAX: all), each decoded into a
 * feed event and run by the feed's interpreter (feed_run_ev).  Returns
 * the records run; *blocked says it stopped for want of records (not at
 * the quantum's end or `max`).
 */
static uint64_t run_ring(struct hvpmu_remote *r, struct rproc *p, unsigned i, uint64_t limit, uint64_t max,
			 int *blocked)
{
	struct remote_ring *rg = &p->area->ring[i];
	uint64_t head = atomic_load_explicit(&rg->head, memory_order_acquire);
	uint64_t t = p->tail[i], start = t, args[6];
	unsigned since = TIME_CHECK - 1; /* the first record looks */

	*blocked = 0;
	if (head - t > REMOTE_RING_SLOTS) {
		proc_fail(p, "ring head out of range", head);
		return 0;
	}
	while (!p->ended && !p->bad) {
		struct vcpu *v = p->v[i];
		struct feed_ev ev;
		struct remote_rec e;
		int rc;

		if (t == head) {
			*blocked = 1;
			break;
		}
		if (t - start >= max)
			break;
		if (__builtin_expect(!v, 0) && ring_waits(p, i) && !p->ending)
			break; /* (its records wait for a strand: sched) */
		if (v && ++since >= TIME_CHECK) {
			since = 0;
			if (limit != UINT64_MAX && hvpmu_machine_tick(r->m, v->strand) >= limit)
				break;
		}
		e = rec_at(rg, t);
		if (head - t < R_SLOTS(e.w0)) { /* the rest of it is not published yet */
			*blocked = 1;
			break;
		}
		/* the strand's OS tick with threads waiting for a strand: the
		 * thread goes to the back of the run queue, at a block's entry */
		if (__builtin_expect(v && waiters(r, p->guest) != 0, 0) && R_KIND(e.w0) == R_TB && !p->ending &&
		    tick_due(r, v) && preempt(r, p, i, e))
			continue;
		rc = R_KIND(e.w0) == R_CTL ? ring_ctl(r, p, i, t, e, &ev, args) : ring_data(r, p, i, e, &ev);
		if (rc == RING_BAD)
			break;
		if (rc == RING_EV) {
			feed_run_ev(r->f, v, &ev);
			/* a call that may wait, with threads waiting for a strand:
			 * the thread gives its strand up until the call returns */
			if (__builtin_expect(ev.kind == FEED_EV_SYSCALL, 0) && waiters(r, p->guest) && !p->ending &&
			    hvpmu_isa_call_may_wait(&r->isa->sc, (int64_t)ev.a, ev.args)) {
				t += R_SLOTS(e.w0);
				thread_off(r, p, i);
				p->asleep[i] = 1;
				p->nasleep++;
				sched(r, p->guest);
				continue;
			}
		}
		t += R_SLOTS(e.w0);
		if (rc == RING_END) {
			p->tail[i] = t;
			release(rg, t);
			ring_end(r, p, e.w1);
			return t - start;
		}
		/* a second thread starts (a clone that may make one, or the
		 * thread's start): from here the process runs in publication
		 * order (run_published), not by quanta */
		if (R_KIND(e.w0) == R_CTL && (R_CTL_OP(e.w0) == C_START || R_CTL_OP(e.w0) == C_SYSCALL) &&
		    max == UINT64_MAX && ordered(p) && !p->ending)
			break;
		if (((t - start) & 1023u) == 0) /* give the producer room as we go */
			release(rg, t);
	}
	p->tail[i] = t;
	if (t == head)
		grant(r, p, i, t);
	release(rg, t);
	return t - start;
}

static void proc_end(struct hvpmu_remote *r, struct rproc *p, int sig)
{
	struct feed *f = r->f;
	int blocked;

	if (p->ending || p->ended)
		return;
	if (p->bad) /* (detached: what it ran after the bad record is not counted) */
		uncounted(r, p);
	if (!p->bad && waits_with_records(p)) /* (a thread of several, when another ended them all) */
		uncounted(r, p);
	dequeue_proc(r, p);
	p->ending = 1;
	p->end_sig = sig; /* unless its last records say otherwise (C_END) */
	/* what its threads published and did not run yet: in the order they
	 * published it while it has several (its emulator may have ended
	 * before the service ran its last publications), then the rest */
	if (!p->bad && ordered(p))
		run_published(r, p, 1);
	for (unsigned i = 0; i < REMOTE_RINGS && !p->bad; i++)
		run_ring(r, p, i, UINT64_MAX, UINT64_MAX, &blocked);
	if (p->exit_ring >= 0 && p->v[p->exit_ring]) { /* exit_group, after the other threads' records */
		struct vcpu *v = p->v[p->exit_ring];

		v->held = 0;
		v->reached_last = p->exit_reached;
		feed_syscall_entry(f, v, r->isa->sc.exit_group, p->exit_args);
	}
	for (unsigned i = 0; i < REMOTE_RINGS; i++) {
		if (p->v[i])
			vcpu_end(r->f, p->v[i]);
		p->v[i] = NULL;
		p->started[i] = 0;
		p->in_syscall[i] = 0;
	}
	p->nthreads = 0;
	p->cloning = 0;
	p->ended = 1;
	r->live--;
	dequeue_proc(r, p); /* (none of its threads waits any more: it is freed once nothing needs it) */
	sched(r, p->guest); /* (its strands are free) */
	r->reap = 1;
	if (p->pid == r->root_pid)
		r->root_end = p->end_sig;
	area_release(p);
	{ /* its guest OS frees what the process held (its MMU context) */
		const struct hvpmu_md *md = hvpmu_machine_md(r->m);
		struct hvpmu_os_call c = { .ev = HVPMU_OS_PROCESS_EXIT, .process = p->num,
					   .strand = p->guest < md->nguests ? md->guests[p->guest].first_strand : 0 };

		hvpmu_machine_os_event(r->m, &c);
	}
	/* PAPR (no-op elsewhere): its last instructions accounted; when no
	 * image runs any more, the machine's time runs on to its furthest
	 * strand so that the work the dispatcher held back is dispatched */
	hvpmu_machine_dispatch(r->m, r->live ? r->qend : UINT64_MAX);
}

void hvpmu_remote_detach(struct hvpmu_remote *r, uint32_t process)
{
	struct rproc *p = proc_of(r, process);

	if (!p || p->closed)
		return;
	p->closed = 1;
	if (!p->ended) { /* gone without a last word: killed (SIGKILL of its emulator), or an
			    execve of a program the service does not follow (a host program) */
		int sig = 9;

		for (unsigned i = 0; i < REMOTE_RINGS; i++)
			if (p->in_syscall[i] && (p->sc_num[i] == r->isa->sc.execve || p->sc_num[i] == r->isa->sc.execveat))
				sig = 0;
		if (waits_with_records(p) || (has_records(r, p) && (waiters(r, p->guest) || !free_vcpu(r, p->guest)))) {
			/* they run when its thread has a strand (again) */
			p->end_deferred = 1;
			p->defer_sig = sig;
			return;
		}
		proc_end(r, p, sig);
	}
}

/* Is image p's ring i holding the barrier: its thread runs (not in a
 * system call), below the quantum's end, with nothing published to run? */
static int holds_barrier(struct hvpmu_remote *r, struct rproc *p, unsigned i)
{
	struct vcpu *v = p->v[i];

	return r->barrier && v && p->nthreads == 1 && !p->in_syscall[i] && hvpmu_machine_tick(r->m, v->strand) < r->qend;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u + 1; /* never 0 */
}

/* The end of ring i's next publication (the record after its C_SEQ) and
 * its ticket, if it is published whole: 1; 0 if not yet. */
static int next_publication(struct rproc *p, unsigned i, uint64_t *end, uint64_t *ticket)
{
	const struct remote_ring *rg = &p->area->ring[i];
	uint64_t head = atomic_load_explicit(&rg->head, memory_order_acquire), t = p->tail[i];

	if (head - t > REMOTE_RING_SLOTS)
		return 0;
	while (t < head) {
		struct remote_rec e = rec_at(rg, t);

		if (R_KIND(e.w0) == R_CTL && R_CTL_OP(e.w0) == C_SEQ) {
			*end = t + 1;
			*ticket = e.w1;
			return 1;
		}
		t += R_SLOTS(e.w0);
	}
	return 0;
}

/*
 * A process with several threads: they share memory whose order only the
 * host knows (a spin on a flag another thread sets), so they run in the
 * order they published (the tickets of C_SEQ, a publication every
 * REMOTE_PUBLISH records or system call), as the batches of one emulator
 * run in the order they fill -- not in quanta, which would reorder what
 * one thread wrote and another saw (docs/service.md "Time").  `final`:
 * the image is gone (proc_end), every publication it made is there, and
 * a missing ticket will never come.  Returns the records run.
 */
static uint64_t run_published(struct hvpmu_remote *r, struct rproc *p, int final)
{
	uint64_t total = 0;

	while (!p->ended && !p->bad && ordered(p)) {
		uint64_t best = UINT64_MAX, best_end = 0, end, ticket, wmin = UINT64_MAX;
		unsigned bi = 0;
		int blocked;

		for (unsigned i = 0; i < REMOTE_RINGS; i++)
			if (p->tail[i] != atomic_load_explicit(&p->area->ring[i].head, memory_order_relaxed) &&
			    next_publication(p, i, &end, &ticket)) {
				if (ring_waits(p, i)) { /* (its thread waits for a strand: the others go on) */
					wmin = ticket < wmin ? ticket : wmin;
				} else if (ticket < best) {
					best = ticket;
					best_end = end;
					bi = i;
				}
			}
		if (best == UINT64_MAX)
			break;
		if (wmin < best) /* (the tickets before best are a waiting thread's: not a gap) */
			p->next_ticket = best;
		/* a lower ticket is taken but not visible yet (its thread is
		 * between taking it and publishing): wait for it, a moment --
		 * a ticket whose publication never comes (its thread died in
		 * between) is given up after TICKET_GAP_MS */
		if (best > p->next_ticket && !final) {
			if (!p->gap_since)
				p->gap_since = mono_ms();
			if (mono_ms() - p->gap_since < TICKET_GAP_MS)
				break;
		}
		p->gap_since = 0;
		total += run_ring(r, p, bi, UINT64_MAX, best_end - p->tail[bi], &blocked);
	}
	return total;
}

/* The lowest %tick of a thread that has a whole record to run (its
 * ring's next record is published entirely); UINT64_MAX if none.  A
 * thread waiting for a strand has none to run (sched); one that runs on
 * no strand (lost: uncounted) counts as 0. */
static uint64_t runnable_min(struct hvpmu_remote *r)
{
	uint64_t min = UINT64_MAX;

	for (uint32_t n = 0; n < r->nproc; n++) {
		struct rproc *p = r->proc[n];

		if (p->ended || p->bad)
			continue;
		for (unsigned i = 0; i < REMOTE_RINGS; i++) {
			struct remote_ring *rg = &p->area->ring[i];
			uint64_t avail = atomic_load_explicit(&rg->head, memory_order_acquire) - p->tail[i], tick;
			struct remote_rec e;

			if (!avail || avail > REMOTE_RING_SLOTS)
				continue;
			e = rec_at(rg, p->tail[i]);
			if (avail < R_SLOTS(e.w0))
				continue;
			if (ring_waits(p, i)) /* (it cannot run: sched) */
				continue;
			if (!start_due(p, i) && !ordered(p)) /* (a new thread's start: after the clone) */
				continue;
			tick = p->v[i] ? hvpmu_machine_tick(r->m, p->v[i]->strand) : 0;
			if (tick < min)
				min = tick;
		}
	}
	return min;
}

/* Records one call runs at most: the caller's loop must get to accept
 * and detach images while producers keep up with the model. */
#define RUN_BUDGET (UINT64_C(1) << 20)

uint64_t hvpmu_remote_run(struct hvpmu_remote *r, int force)
{
	uint64_t total = 0;

	if (r->reap)
		reap(r);
	for (;;) {
		if (total >= RUN_BUDGET)
			return total;
		uint64_t ran = 0;
		int waiting = 0;

		for (uint32_t n = 0; n < r->nproc; n++) {
			struct rproc *p = r->proc[n];

			if (p->ended)
				continue;
			if (p->nasleep)
				wake(r, p);
			for (unsigned i = 0; i < REMOTE_RINGS && !p->ended && !p->bad; i++) {
				int blocked = 1;

				if (ordered(p)) { /* in publication order, below */
					blocked = 0;
					continue;
				}
				/* a new thread's start runs in publication order too,
				 * after its creator's clone (which makes the image
				 * ordered), never before it by quanta: the start's
				 * publication is out before the clone's call returns,
				 * and the creator's ring may be held at the quantum's end */
				if (!start_due(p, i))
					continue;
				if (atomic_load_explicit(&p->area->ring[i].head, memory_order_acquire) != p->tail[i])
					ran += run_ring(r, p, i, r->barrier ? r->qend : UINT64_MAX, UINT64_MAX, &blocked);
				if (!p->ended && !p->bad && blocked && holds_barrier(r, p, i))
					waiting = 1;
			}
			if (!p->ended && !p->bad && ordered(p))
				ran += run_published(r, p, 0);
			if (p->end_deferred && !p->ended && !p->bad && !waits_with_records(p))
				proc_end(r, p, p->defer_sig); /* (its connection had closed) */
			if (p->bad)
				proc_end(r, p, 0);
		}
		total += ran;
		if (!ran) /* a thread may have blocked in its call since: its strand is another's now */
			for (uint32_t g = 0; g < r->nrunq; g++)
				if (r->runq[g].n)
					sched(r, g);
		if (waiting && !force) {
			if (!ran)
				return total; /* the barrier waits for input */
			continue;
		}
		r->n_forced += waiting; /* (the grace period was over) */
		/* every running thread has reached the quantum's end (or the
		 * grace period is over: force): the next quantum, or the first
		 * one in which a thread with records to run is below its end */
		if (ran) {
			hvpmu_machine_dispatch(r->m, r->qend); /* PAPR: the hypervisor's dispatcher, once per quantum */
			r->qend += r->quantum;
		} else {
			uint64_t min = runnable_min(r);

			if (min == UINT64_MAX || min < r->qend) /* (below: it would have run) */
				return total;
			hvpmu_machine_dispatch(r->m, r->qend);
			r->qend = (min / r->quantum + 1) * r->quantum;
		}
	}
}

int hvpmu_remote_sleep(struct hvpmu_remote *r)
{
	uint64_t buf;

	for (uint32_t n = 0; n < r->nproc; n++)
		if (!r->proc[n]->ended)
			atomic_store(&r->proc[n]->area->cons_sleep, 1);
	if (read(r->efd, &buf, sizeof buf) < 0 && errno != EAGAIN)
		return 1;
	for (uint32_t n = 0; n < r->nproc; n++) {
		struct rproc *p = r->proc[n];

		if (p->ended)
			continue;
		for (unsigned i = 0; i < REMOTE_RINGS; i++)
			if (atomic_load(&p->area->ring[i].head) != p->tail[i] && (!ring_waits(p, i) || p->asleep[i]))
				return 1;
	}
	return 0;
}

void hvpmu_remote_wake(struct hvpmu_remote *r)
{
	for (uint32_t n = 0; n < r->nproc; n++)
		if (!r->proc[n]->ended)
			atomic_store(&r->proc[n]->area->cons_sleep, 0);
}

/* Whether host process pid is running or runnable. */
static int runnable(int pid)
{
	char state;
	int ppid;

	return !proc_stat(pid, &state, &ppid) && state == 'R';
}

int hvpmu_remote_holders_coming(struct hvpmu_remote *r)
{
	for (uint32_t n = 0; n < r->nproc; n++) {
		struct rproc *p = r->proc[n];

		if (p->ended || p->bad || p->nthreads != 1 || p->pid <= 0)
			continue;
		for (unsigned i = 0; i < REMOTE_RINGS; i++)
			if (holds_barrier(r, p, i) &&
			    (atomic_load_explicit(&p->area->ring[i].head, memory_order_acquire) != p->tail[i] ||
			     runnable(p->pid)))
				return 1;
	}
	return 0;
}

uint32_t hvpmu_remote_images(const struct hvpmu_remote *r)
{
	return r->nimages;
}

uint32_t hvpmu_remote_kept(const struct hvpmu_remote *r)
{
	return r->nproc;
}

int hvpmu_remote_root_end(const struct hvpmu_remote *r)
{
	return r->nimages ? r->root_end : -1;
}

uint32_t hvpmu_remote_live(const struct hvpmu_remote *r)
{
	return r->live;
}

uint32_t hvpmu_remote_draining(const struct hvpmu_remote *r)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < r->nproc; i++)
		n += r->proc[i]->closed && !r->proc[i]->ended;
	return n;
}

int hvpmu_remote_pid(const struct hvpmu_remote *r, uint32_t process)
{
	const struct rproc *p = proc_of(r, process);
	const struct rended *e = p ? NULL : ended_of(r, process);

	return p ? p->pid : e ? e->pid : 0;
}

uint32_t hvpmu_remote_from(const struct hvpmu_remote *r, uint32_t process)
{
	const struct rproc *p = proc_of(r, process);
	const struct rended *e = p ? NULL : ended_of(r, process);

	return p ? p->from : e ? e->from : 0;
}

unsigned hvpmu_remote_guest(const struct hvpmu_remote *r, uint32_t process)
{
	const struct rproc *p = proc_of(r, process);
	const struct rended *e = p ? NULL : ended_of(r, process);

	return p ? p->guest : e ? e->guest : 0;
}

const char *hvpmu_remote_comm(const struct hvpmu_remote *r, uint32_t process)
{
	const struct rproc *p = proc_of(r, process);
	const struct rended *e = p ? NULL : ended_of(r, process);

	return p ? p->comm : e ? e->comm : "";
}

int hvpmu_remote_end_status(const struct hvpmu_remote *r, uint32_t process)
{
	const struct rproc *p = proc_of(r, process);
	const struct rended *e = p ? NULL : ended_of(r, process);

	return p && p->ended ? p->end_sig : e ? e->end_sig : -1;
}

void hvpmu_remote_halt(struct hvpmu_remote *r, int sig)
{
	struct feed *f = r->f;

	lock(f);
	if (!f->ended) {
		f->ended = 1;
		feed_os_event(f, HVPMU_OS_HALT, NULL, sig, NULL, 0);
	}
	unlock(f);
}
