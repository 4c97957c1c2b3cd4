/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Threads in turns (docs/event-source.md "Turns", issue 27): the guest
 * threads of one emulator run one at a time, for a quantum of
 * instructions each, in vCPU order, as the bound phase of a parallel
 * simulator does.  One engine serves both QEMU event sources: the
 * in-process run (plugin.c, struct feed) and a process attached to a
 * service (attach.c), which hands each turn's records over before the
 * next turn starts, so that the order the model sees is the turns'.
 *
 * The source owns the quantum's count: `arm` sets vCPU i's count to the
 * instructions of a turn minus one as the turn is given; the source
 * subtracts each block's instructions at its entry and calls
 * turns_over() once the count is negative.  A thread whose turn is over
 * leaves QEMU's execution loop (qemu_plugin_vcpu_exit_request) and waits
 * in the vCPU idle callback (turns_idle), outside the loop, where QEMU's
 * exclusive sections (fork, a translation-cache flush, an atomic step,
 * exit_group) need not wait for it.
 *
 * Thread-safety: every function takes turns.mu itself; none may be
 * called with it held.  The per-thread fields are the rotation's, under
 * turns.mu, except `back` (atomic, set by its own thread) and `over`
 * (its own thread's).
 */
#ifndef HVPMU_SOURCE_TURNS_H
#define HVPMU_SOURCE_TURNS_H

#include <pthread.h>
#include <stdint.h>
#include <hvpmu/isa.h>

/* The quantum when HVPMU_QUANTUM does not set one: ZSim's bound phase
 * (10,000 cycles) in instructions (docs/event-source.md "Turns"). */
#define TURNS_QUANTUM 10000u

/* One guest thread (vCPU) of the rotation. */
struct turn_thread {
	uint8_t live;          /* in the rotation (its thread runs) */
	uint8_t blocked;       /* in a system call that may wait: out of the rotation */
	uint8_t asleep;        /* blocked, and seen asleep in the call (settle) */
	uint8_t back;          /* blocked, and its call returned (set by its thread, atomic) */
	uint8_t over;          /* its turn is over: it asked QEMU to leave the execution loop */
	uint8_t call_futex;    /* the call that may wait: a futex (in_syscall) */
	uint8_t waking;        /* asleep, and woken by the rotation (turns.timers): it is
				  waited for until back, never taken as asleep again */
	int tid;               /* its host thread's id (at its first call that may wait) */
	uint64_t call_op;      /* its futex operation, and its value as QEMU passes it */
	uint32_t call_val;
	pthread_cond_t cv;     /* signalled when its turn comes (turns.mu) */
};

struct turns {
	int on;                /* turns have started (turns_engage) */
	uint64_t quantum;      /* instructions of a turn (0: threads run free) */
	int holder;            /* the vCPU whose turn it is (-1: none can run) */
	unsigned pending_new;  /* threads a clone made that have not joined the rotation */
	uint64_t turns;        /* turns given (every TURN_LOOK a full settle) */
	int settled;           /* the holder has settled the blocked threads */
	int recheck;           /* a thread asleep in a call may have been woken: the next
				  turn looks at every blocked thread again */
	pthread_mutex_t mu;    /* the rest of the rotation: holder, pending_new, threads' fields */
	pthread_cond_t cv;     /* a new thread joined (pending_new) */
	uint32_t n;            /* threads (vCPUs) the rotation may hold */
	struct turn_thread *t; /* [n] */
	const struct hvpmu_isa *isa;
	void (*arm)(void *ctx, uint32_t i, uint64_t left); /* vCPU i's count: `left` (under mu) */
	void *ctx;
	/* deadlines in modeled time (gtime.h), under mu, after the blocked
	 * threads are settled: wakes the threads asleep past their deadline
	 * (each marked `waking`) and returns how many; `idle`: no thread but
	 * `me` can run and `me` is about to wait, so the machine's time runs
	 * on to the earliest deadline first.  NULL: none. */
	unsigned (*timers)(void *tctx, int me, int idle);
	void *tctx;
	unsigned timed;        /* threads in a call with such a deadline (gtime) */
	uint8_t sleeps;        /* nanosleep and clock_nanosleep leave the rotation (their
				  deadline is modeled: gtime) */
};

/* Sets up T for n vCPUs of isa (threads run free until turns_engage).
 * The quantum comes from HVPMU_QUANTUM (a positive number of
 * instructions, or `off`: 0, threads run free), else TURNS_QUANTUM.
 * Returns 0, or -1 after one line on stderr (a value that is neither, or
 * out of memory). */
int turns_init(struct turns *T, const struct hvpmu_isa *isa, uint32_t n,
	       void (*arm)(void *ctx, uint32_t i, uint64_t left), void *ctx);

/* A fork child: the forking thread is its only one; the rotation starts
 * afresh (off, until its own first thread clone). */
void turns_fork_child(struct turns *T);

/* clone or clone3 with (a1) its flags or its struct clone_args: does it
 * make a thread of this process (CLONE_VM | CLONE_THREAD)? */
int turns_makes_thread(const struct turns *T, int64_t num, uint64_t a1);

/* The first clone that makes a thread, at its system call: turns start,
 * `me` (the only thread) first. */
void turns_engage(struct turns *T, int me);

/* System-call entry of `me` (turns on): a thread clone is pending; a call
 * that may wait leaves the rotation. */
void turns_syscall(struct turns *T, int me, int64_t num, uint64_t a1, uint64_t a2, uint64_t a3);

/* System-call return of `me`, first thing, before anything that may
 * sleep: 1 if its call had left the rotation (pass it to
 * turns_syscall_ret's `blocked`), else 0. */
int turns_returned(struct turns *T, int me);

/* System-call return of `me` (turns on): a clone waits for its thread to
 * join (ret > 0); a call that left the rotation waits for its next turn;
 * any other call settles the threads it may have woken. */
void turns_syscall_ret(struct turns *T, int me, int64_t num, int64_t ret, int blocked);

/* A vCPU's thread starts, before its first block (i < 0: a thread that
 * is not counted, which a clone may wait for). */
void turns_join(struct turns *T, int i);

/* vCPU `me`'s thread ends. */
void turns_leave(struct turns *T, int me);

/* vCPU `me`'s count went negative at a block entry: 1 if its turn is now
 * over (the caller asks QEMU to leave the loop), 0 if it was already. */
int turns_over(struct turns *T, int me);

/* The idle callback of vCPU `me`: 1 if it must wait for a turn (the
 * caller hands its records over first, then calls turns_idle), else 0. */
int turns_idle_needed(const struct turns *T, int me);

/* vCPU `me` passes the turn if its own is over and waits for its next. */
void turns_idle(struct turns *T, int me);

#endif
