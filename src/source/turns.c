/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Threads in turns (turns.h; docs/event-source.md "Turns"): one guest
 * thread runs at a time, for `quantum` instructions of the blocks it
 * enters (the source counts them: turns.arm, turns_over), then the next
 * live one that is not in a system call that may wait, in vCPU order.  A
 * thread whose turn is over asks QEMU to leave its execution loop (the
 * block it runs finishes) and waits in the vCPU idle callback, outside
 * the loop, where QEMU's exclusive sections (fork, a translation-cache
 * flush, an atomic step) need not wait for it.  Before it passes the turn
 * the source hands its records over, so that the model takes the
 * threads' references turn by turn.  A thread entering a system call
 * that may wait leaves the rotation (the turn passes) and rejoins when
 * the call returns.  A clone that makes a thread waits, at its return,
 * for the new thread to join: the rotation does not depend on how soon
 * the host starts it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "qemu_glue.h"
#include "turns.h"

/* The next vCPU after `after` that may run (itself last); -1 if none. */
static int turn_next(struct turns *T, int after)
{
	for (uint32_t k = 1; k <= T->n; k++) {
		uint32_t i = ((uint32_t)after + k) % T->n;

		if (T->t[i].live && !T->t[i].blocked)
			return (int)i;
	}
	return -1;
}

/* Under turns.mu: vCPU i's turn starts; it ends `quantum` instructions on
 * (set as the turn is given: the thread may find it its own before it
 * waits, a new thread between joining and its first block). */
static void turn_give(struct turns *T, int i)
{
	T->holder = i;
	T->settled = 0; /* (turn_wait settles before the turn runs) */
	if (i >= 0) {
		T->arm(T->ctx, (uint32_t)i, T->quantum - 1); /* (its thread waits) */
		pthread_cond_signal(&T->t[i].cv); /* only the thread whose turn it is wakes */
	} else {
		for (uint32_t k = 0; k < T->n; k++) /* a thread whose call returned may take it */
			if (T->t[k].live && T->t[k].blocked)
				pthread_cond_signal(&T->t[k].cv);
	}
}

/* Under turns.mu: the turn passes on from `me`. */
static void turn_pass(struct turns *T, int me)
{
	turn_give(T, turn_next(T, me));
}

/* The first bytes of /proc/self/task/TID/NAME into line (NUL-ended):
 * their count, or -1. */
static ssize_t turn_proc(int tid, const char *name, char *line, size_t size)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof path, "/proc/self/task/%d/%s", tid, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, line, size - 1);
		close(fd);
	}
	line[n > 0 ? n : 0] = 0;
	return n;
}

/* Whether vCPU w's host thread sleeps in its system call, waiting (read
 * twice, around its kernel function, the same both times): its
 * /proc/self/task/TID/syscall line is a call's number, not "running" (nor
 * -1: asleep outside a call, e.g. a page fault); that call is not a
 * futex wait of a host mutex (FUTEX_WAIT_PRIVATE 0x80 for the value 2, as
 * glibc's lock waits: QEMU's own locks on the way to the call, such as
 * the descriptor translation lock of read and write), unless the guest's
 * call is that very wait (its operation, and its value as QEMU passes it,
 * byte-swapped for a big-endian guest: turn_syscall); its state
 * (/proc/self/task/TID/stat) is an interruptible sleep (S): a thread
 * another's wake-up made runnable (R) shows its call until it runs, and
 * one in D waits for I/O; and the kernel
 * function it sleeps in (wchan, where readable) is no lock's: a moment's
 * wait on a pipe's mutex is on its way, not waiting for another thread.
 * Where /proc cannot be read, 1 after one line on stderr: the threads
 * blocked in calls then come back at the host's time. */
static int turn_in_syscall(const struct turn_thread *w)
{
	static int warned;
	char line[96];
	unsigned long long nr, a0, op, val;

	if (turn_proc(w->tid, "syscall", line, sizeof line) <= 0) {
		if (!warned++)
			fprintf(stderr, "hvpmu plugin: /proc/self/task/%d/syscall unreadable: threads blocked in system "
					"calls come back at the host's time (docs/event-source.md \"Turns\")\n", w->tid);
		return 1;
	}
	if (line[0] < '0' || line[0] > '9')
		return 0;
	if (sscanf(line, "%llu %llx %llx %llx", &nr, &a0, &op, &val) == 4 && nr == SYS_futex && op == 0x80 &&
	    val == 2 && !(w->call_futex && w->call_op == 0x80 && w->call_val == 2))
		return 0;
	{
		/* and it was there all along: the same call, at the same place,
		 * after its state and the kernel function were read */
		char wchan[64], again[96], stat[160];
		ssize_t n = turn_proc(w->tid, "wchan", wchan, sizeof wchan);
		const char *st = turn_proc(w->tid, "stat", stat, sizeof stat) > 0 ? strrchr(stat, ')') : NULL;

		if (turn_proc(w->tid, "syscall", again, sizeof again) <= 0 || strcmp(again, line) != 0)
			return 0;
		/* proc(5) stat's third field: a thread a wake-up has made
		 * runnable (R) that has not run yet still shows its call in
		 * `syscall` (and wchan 0): it is on its way back, not asleep;
		 * one in an uninterruptible sleep (D) waits for I/O, not for
		 * another thread: on its way too */
		if (st && st[1] == ' ' && st[2] != 'S')
			return 0;
		return n <= 0 || !(strstr(wchan, "mutex") || strstr(wchan, "rwsem") || strstr(wchan, "lock"));
	}
}

/* w, blocked in a call that may wait, sleeps there and has not come back
 * (its return sets turn_back before it can sleep again). */
static int turn_sleeps(const struct turn_thread *w)
{
	return !__atomic_load_n(&w->back, __ATOMIC_ACQUIRE) && w->tid && turn_in_syscall(w) &&
	       !__atomic_load_n(&w->back, __ATOMIC_ACQUIRE);
}

/* Under turns.mu: let another thread's call settle a while (the k-th time). */
static void turn_pause(struct turns *T, unsigned k)
{
	pthread_mutex_unlock(&T->mu);
	if (k < 64)
		sched_yield();
	else
		nanosleep(&(struct timespec){ 0, 20000 }, NULL);
	pthread_mutex_lock(&T->mu);
}

/*
 * Under turns.mu, by the thread whose turn it is (`me`), before it runs:
 * every thread blocked in a system call that may wait is settled -- it
 * sleeps in the call, or the call has returned (then it is back in the
 * rotation from here).  Both are decided by what the threads ran before,
 * in turns: a futex wait whose value changed returns at once, one whose
 * value did not sleeps; a wake-up by a call of the turn before is seen
 * as the woken thread's return.  The host only decides how long this
 * waits, not what it finds (docs/event-source.md "Turns": calls that
 * wait).  A thread seen asleep is looked at again only after a call or an
 * exit that may have woken it (`full`: turns.recheck), and every
 * TURN_LOOK turns; one woken by the host's time (a timeout, a signal,
 * another process) comes back at the next settle that looks.
 */
#define TURN_LOOK 64
static void turn_settle(struct turns *T, int me, int full)
{
	for (uint32_t i = 0; i < T->n; i++) {
		struct turn_thread *w = &T->t[i];

		if ((int)i == me || !w->live || !w->blocked)
			continue;
		if (w->asleep && !full)
			continue; /* (back or not, it comes back at a settle that looks: a full one) */
		for (unsigned k = 0;; k++) {
			if (__atomic_load_n(&w->back, __ATOMIC_ACQUIRE)) {
				w->blocked = w->asleep = w->waking = 0;
				__atomic_store_n(&w->back, 0, __ATOMIC_RELAXED);
				break;
			}
			if (!w->waking && turn_sleeps(w)) {
				w->asleep = 1;
				break;
			}
			turn_pause(T, k);
		}
	}
}

/* Under turns.mu: wait for v's turn (take it if no thread can run), and
 * settle the blocked threads before it runs. */
static void turn_wait(struct turns *T, int me)
{
	while (T->holder != me) {
		if (T->holder < 0) {
			turn_give(T, me);
			break;
		}
		pthread_cond_wait(&T->t[me].cv, &T->mu);
	}
	turn_settle(T, me, T->recheck || ++T->turns % TURN_LOOK == 0);
	T->recheck = 0;
	/* threads asleep past their deadline in modeled time are woken,
	 * and back before this turn runs */
	if (T->timers && T->timed && T->timers(T->tctx, me, 0))
		turn_settle(T, me, 1);
	T->settled = 1;
}

/* A read or write on descriptor fd (QEMU's linux-user passes the guest's
 * numbers through) never waits for another thread: a regular file (the
 * page cache; its transient sleeps in I/O are not another thread's), or
 * /dev/null or /dev/zero (devices 1:3, 1:5, Documentation/admin-guide/
 * devices.txt).  Such a call keeps its turn, so its return is not left
 * to how the host schedules it (turn_settle). */
static int turn_fd_never_waits(uint64_t fd)
{
	struct stat st;

	if (fd > INT_MAX || fstat((int)fd, &st))
		return 0;
	return S_ISREG(st.st_mode) ||
	       (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && (minor(st.st_rdev) == 3 || minor(st.st_rdev) == 5));
}

/* Linux futex operations that wait (FUTEX_WAIT 0, LOCK_PI 6, WAIT_BITSET
 * 9, WAIT_REQUEUE_PI 11, LOCK_PI2 13; without PRIVATE 128, CLOCK_REALTIME
 * 256), the ISA's other calls that may wait (hvpmu_isa.sc.waits), and
 * write, which waits while a pipe is full (a thread that kept its turn
 * asleep there would stop its reader for good: workloads/mips64/c/
 * pipefill.c). */
static int turn_may_wait(const struct turns *T, int64_t num, uint64_t a1, uint64_t a2)
{
	const struct hvpmu_isa_syscalls *sc = &T->isa->sc;

	if ((num == sc->read || num == sc->write) && turn_fd_never_waits(a1))
		return 0;
	if (num == sc->write)
		return 1;
	if (T->sleeps && (num == sc->nanosleep || num == sc->clock_nanosleep))
		return 1;
	if (num == sc->futex) {
		uint64_t op = a2 & ~(uint64_t)(128 | 256);

		return op == 0 || op == 6 || op == 9 || op == 11 || op == 13;
	}
	for (unsigned i = 0; i < HVPMU_ISA_NWAITS; i++)
		if (num == sc->waits[i])
			return 1;
	return 0;
}

/* clone (flags first) or clone3 (flags first in struct clone_args): does
 * it make a thread of this process (CLONE_VM 0x100 | CLONE_THREAD 0x10000)? */
int turns_makes_thread(const struct turns *T, int64_t num, uint64_t a1)
{
	uint64_t flags = a1;

	if (num == T->isa->sc.clone3) {
		GByteArray *b = g_byte_array_new();

		flags = 0;
		if (qemu_plugin_read_memory_vaddr(a1, b, 8) && b->len == 8)
			for (unsigned i = 0; i < 8; i++) /* the guest's byte order (hvpmu_isa.big_endian) */
				flags |= (uint64_t)b->data[i] << (T->isa->big_endian ? 8 * (7 - i) : 8 * i);
		g_byte_array_free(b, TRUE);
	} else if (num != T->isa->sc.clone) {
		return 0;
	}
	return (flags & 0x10100) == 0x10100;
}

/* System-call entry of v: a thread clone is pending; a call that may wait
 * leaves the rotation (its turn passes). */
void turns_syscall(struct turns *T, int me, int64_t num, uint64_t a1, uint64_t a2, uint64_t a3)
{
	struct turn_thread *v = &T->t[me];

	pthread_mutex_lock(&T->mu);
	if (turns_makes_thread(T, num, a1))
		T->pending_new++;
	else if (turn_may_wait(T, num, a1, a2)) {
		if (!v->tid)
			v->tid = (int)syscall(SYS_gettid);
		v->blocked = 1;
		v->asleep = 0;
		/* the call as the host sees it (turn_in_syscall) */
		v->call_futex = num == T->isa->sc.futex;
		v->call_op = a2;
		v->call_val = T->isa->big_endian ? __builtin_bswap32((uint32_t)a3) : (uint32_t)a3;
		__atomic_store_n(&v->back, 0, __ATOMIC_RELAXED);
		/* the turn passes; where no other thread can run, it keeps it in
		 * its call (turns_syscall_ret: one whose call returns meanwhile
		 * takes it only once this one sleeps) -- and where the others
		 * sleep, the machine idles on to the earliest deadline in
		 * modeled time (turns.timers), whose thread then wakes */
		if (T->holder == me && turn_next(T, me) >= 0)
			turn_pass(T, me);
		else if (T->holder == me && T->timers && T->timed) {
			turn_settle(T, me, 1);
			if (turn_next(T, me) < 0 && T->timers(T->tctx, me, 1))
				turn_settle(T, me, 1); /* (the woken are back) */
			if (turn_next(T, me) >= 0)
				turn_pass(T, me);
		}
		if (T->holder == me) /* a thread back from its call waits for this one to sleep */
			for (uint32_t k = 0; k < T->n; k++)
				if ((int)k != me && T->t[k].live && T->t[k].blocked)
					pthread_cond_signal(&T->t[k].cv);
	}
	pthread_mutex_unlock(&T->mu);
}

/* System-call return of v, first thing (before anything that may sleep):
 * a blocked thread's call has returned (turn_settle).  Whether the call
 * left the rotation: read here, before a settle can put the thread back
 * (it does so only once turn_back is set). */
int turns_returned(struct turns *T, int me)
{
	struct turn_thread *v = me >= 0 && (uint32_t)me < T->n ? &T->t[me] : NULL;

	if (!T->on || !v || !v->blocked)
		return 0;
	__atomic_store_n(&v->back, 1, __ATOMIC_RELEASE);
	return 1;
}

/* System-call return of v: a clone waits for its thread to join (ret > 0);
 * a call that left the rotation (`blocked`, turns_returned) waits for its
 * next turn. */
void turns_syscall_ret(struct turns *T, int me, int64_t num, int64_t ret, int blocked)
{
	struct turn_thread *v = &T->t[me];

	pthread_mutex_lock(&T->mu);
	if ((num == T->isa->sc.clone || num == T->isa->sc.clone3) && T->pending_new) {
		if (ret > 0)
			while (T->pending_new)
				pthread_cond_wait(&T->cv, &T->mu);
		else
			T->pending_new--; /* the clone failed */
	}
	if (blocked) {
		/* back in the rotation where the thread whose turn it is
		 * settles it (turn_settle); at once if it kept the turn in its
		 * call (turn_syscall) or none can run.  A thread that kept the
		 * turn in a call of its own is settled here: asleep there, it
		 * leaves the turn to this one (which the host's time brought
		 * back: nothing in turns ran to wake it); back, it goes on, and
		 * settles this one */
		for (unsigned k = 0; v->blocked; k++) {
			int h = T->holder;
			struct turn_thread *w = h >= 0 ? &T->t[h] : NULL;

			if (!w || h == me)
				break;
			if (!w->blocked) {
				pthread_cond_wait(&v->cv, &T->mu);
				continue;
			}
			if (turn_sleeps(w)) {
				w->asleep = 1;
				turn_give(T, me);
				break;
			}
			turn_pause(T, k);
		}
		v->blocked = v->asleep = 0;
		__atomic_store_n(&v->back, 0, __ATOMIC_RELAXED);
		T->recheck = 1; /* (its call may have woken others: a pipe's writer) */
		turn_wait(T, me);
	} else if (T->holder == me) {
		/* its call may have woken threads asleep in theirs: they are
		 * back before it runs on */
		turn_settle(T, me, 1);
	}
	pthread_mutex_unlock(&T->mu);
}

/* A vCPU starts (its thread before its first block; NULL: a thread not
 * counted, which a clone may wait for) or ends. */
void turns_join(struct turns *T, int i)
{
	struct turn_thread *v = i >= 0 && (uint32_t)i < T->n ? &T->t[i] : NULL;

	pthread_mutex_lock(&T->mu);
	if (v) {
		v->live = 1;
		v->blocked = v->over = 0;
	}
	if (T->pending_new)
		T->pending_new--;
	pthread_cond_broadcast(&T->cv);
	pthread_mutex_unlock(&T->mu);
}

void turns_leave(struct turns *T, int me)
{
	struct turn_thread *v = &T->t[me];

	pthread_mutex_lock(&T->mu);
	v->live = 0;
	T->recheck = 1; /* (its exit woke those waiting for it: CLONE_CHILD_CLEARTID) */
	if (T->holder == me && turn_next(T, me) < 0 && T->timers && T->timed) {
		/* the last thread that could run: the others are settled, and
		 * the machine idles on to the earliest deadline (turns.timers) */
		turn_settle(T, me, 1);
		if (turn_next(T, me) < 0 && T->timers(T->tctx, -1, 1))
			turn_settle(T, me, 1);
	}
	if (T->holder == me)
		turn_pass(T, me);
	pthread_mutex_unlock(&T->mu);
}

int turns_init(struct turns *T, const struct hvpmu_isa *isa, uint32_t n,
	       void (*arm)(void *ctx, uint32_t i, uint64_t left), void *ctx)
{
	const char *q = getenv("HVPMU_QUANTUM");
	char *end;

	*T = (struct turns){ .holder = -1, .n = n, .isa = isa, .arm = arm, .ctx = ctx, .quantum = TURNS_QUANTUM };
	if (!(T->t = calloc(n ? n : 1, sizeof *T->t))) {
		fprintf(stderr, "hvpmu plugin: out of memory\n");
		return -1;
	}
	pthread_mutex_init(&T->mu, NULL);
	pthread_cond_init(&T->cv, NULL);
	for (uint32_t i = 0; i < n; i++)
		pthread_cond_init(&T->t[i].cv, NULL);
	if (!q)
		return 0;
	if (strcmp(q, "off") == 0) {
		T->quantum = 0;
		return 0;
	}
	errno = 0;
	T->quantum = strtoull(q, &end, 0);
	if (errno || !*q || *end || *q == '-' || T->quantum == 0) {
		fprintf(stderr, "hvpmu plugin: HVPMU_QUANTUM='%.40s': not a positive number of instructions, nor 'off'\n", q);
		return -1;
	}
	return 0;
}

void turns_fork_child(struct turns *T)
{
	/* (the other threads are gone; none held the lock: QEMU forks with
	 * every other vCPU outside its loop, and the rotation's critical
	 * sections do not span a fork) */
	T->on = 0;
	T->holder = -1;
	T->pending_new = 0;
	T->settled = T->recheck = 0;
	pthread_mutex_init(&T->mu, NULL);
	pthread_cond_init(&T->cv, NULL);
	for (uint32_t i = 0; i < T->n; i++) {
		T->t[i] = (struct turn_thread){ 0 };
		pthread_cond_init(&T->t[i].cv, NULL);
	}
}

void turns_engage(struct turns *T, int me)
{
	pthread_mutex_lock(&T->mu);
	T->on = 1;
	T->t[me].live = 1;
	T->t[me].blocked = T->t[me].over = 0;
	turn_give(T, me);
	pthread_mutex_unlock(&T->mu);
}

int turns_over(struct turns *T, int me)
{
	if (me < 0 || (uint32_t)me >= T->n || T->t[me].over)
		return 0;
	T->t[me].over = 1;
	return 1;
}

int turns_idle_needed(const struct turns *T, int me)
{
	const struct turn_thread *v = me >= 0 && (uint32_t)me < T->n ? &T->t[me] : NULL;

	/* (a turn given before the thread got here is settled here first) */
	return T->on && v && v->live && (v->over || T->holder != me || !T->settled);
}

void turns_idle(struct turns *T, int me)
{
	struct turn_thread *v = &T->t[me];

	pthread_mutex_lock(&T->mu);
	if (v->over && T->holder == me)
		turn_pass(T, me);
	v->over = 0;
	turn_wait(T, me);
	pthread_mutex_unlock(&T->mu);
}
