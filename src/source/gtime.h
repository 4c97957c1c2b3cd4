/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest time (docs/event-source.md "Guest time", issue 27): once a
 * program's threads run in turns (turns.h), its clocks and deadlines are
 * the machine's modeled time, not the host's, so that how often a thread
 * that waits with a timeout wakes, and what it reads of the time, follow
 * the program and the model -- the same on every run.
 *
 * Through QEMU's system-call filter (our patch 0004), in one emulator:
 *   - clock_gettime (every clock), gettimeofday and time answer
 *     base + the machine's time (hvpmu_machine_now: the furthest strand's
 *     %tick, in cycles of the description's clock_hz) + the cycles the
 *     machine idled forward (`skip`); `base` is the host's clock when
 *     the turns start, rounded up to a whole second, so the clock goes on
 *     from where the host's left it, forward only, and its nanoseconds
 *     are the model's;
 *   - a futex wait with a timeout (FUTEX_WAIT relative, FUTEX_WAIT_BITSET
 *     absolute, either clock), nanosleep and clock_nanosleep wait
 *     without a host deadline; the turns wake the thread at the first
 *     turn boundary where the machine's time has passed its deadline
 *     (its call returns ETIMEDOUT, a sleep 0), and when no thread can run
 *     and one sleeps with a deadline, the machine's time moves on to the
 *     earliest (as an idle machine's would).
 * The guest's structures are the 64-bit big-endian targets' (struct
 * timespec: two 8-byte words; struct timeval: 8-byte tv_sec, tv_usec 8
 * bytes, or 4 on sparc64).
 *
 * Thread-safety: gtime_filter runs in the calling vCPU's thread; the
 * deadlines are under turns.mu, which gtime_timers runs under.
 */
#ifndef HVPMU_SOURCE_GTIME_H
#define HVPMU_SOURCE_GTIME_H

#include <stdint.h>
#include <hvpmu/isa.h>
#include "turns.h"

/* A vCPU's call with a deadline, from its entry (gtime_entry) to its
 * return (gtime_filter). */
struct gtime_wait {
	uint64_t deadline;     /* cycles of guest time (machine time + skip); 0: none */
	uint32_t *host;        /* the word it sleeps on, in QEMU's address space */
	uint32_t hval;         /* its value as the host reads it */
	uint32_t bitset;       /* FUTEX_WAIT_BITSET's */
	uint32_t own;          /* a sleep's word (nothing else wakes it) */
	uint8_t priv;          /* the wait's FUTEX_PRIVATE_FLAG */
	uint8_t sleep;         /* a sleep: returns 0 at its deadline */
	uint8_t timed_out;     /* woken by its deadline (gtime_timers) */
	uint8_t early;         /* answered at its entry (a bad argument, a changed value): ret */
	int64_t ret;
};

struct gtime {
	int on;                /* guest time is modeled (from turns_engage on) */
	const struct hvpmu_isa *isa;
	struct turns *T;
	uint64_t (*now)(void *ctx); /* the machine's time, cycles (takes the model's lock) */
	/* a lower bound of it that needs no wait for the model, the same on
	 * every run (the turn-boundary deadline checks: gtime_timers without
	 * `idle`); NULL: `now` (set by the caller after gtime_init) */
	uint64_t (*lagged)(void *ctx);
	/* the host's futex wait without a deadline (futex(2): word, op, val,
	 * bitset): the call's value, -1 with errno (a test may replace it) */
	long (*wait)(uint32_t *word, int op, uint32_t val, uint32_t bitset);
	void *ctx;
	uint64_t hz;           /* cycles per second (hvpmu_md.clock_hz) */
	int64_t base_s;        /* guest seconds at machine time 0 (CLOCK_REALTIME) */
	int64_t mono_base_s;   /* and on CLOCK_MONOTONIC */
	uint64_t skip;         /* cycles the machine idled forward (under turns.mu) */
	struct gtime_wait *w;  /* [T->n] */
};

/* Sets G up for T's threads, the machine's time from now(ctx), its clock
 * at hz.  Registers gtime_timers with T.  Returns 0, or -1 after one line
 * (out of memory). */
int gtime_init(struct gtime *G, const struct hvpmu_isa *isa, struct turns *T, uint64_t (*now)(void *ctx),
	       void *ctx, uint64_t hz);

/* Turns start (turns_engage, in the clone's call): from here the guest's
 * clocks are modeled, continuing the host's. */
void gtime_start(struct gtime *G);

/* A system call's entry, before turns_syscall: a futex wait with a
 * timeout or a sleep registers its deadline, so that the turns see it
 * before the thread leaves the rotation. */
void gtime_entry(struct gtime *G, int me, int64_t num, const uint64_t a[6]);

/* The system-call filter (qemu_plugin_vcpu_syscall_filter_cb_t): 1 if the
 * call was answered here (*ret: its value, a negative target errno for
 * an error), 0 if it goes on to QEMU.  `me` is the calling vCPU. */
int gtime_filter(struct gtime *G, int me, int64_t num, const uint64_t a[6], uint64_t *ret);

/* turns.timers (under turns.mu): wakes the threads asleep past their
 * deadline; `idle`: no thread but `me` can run, so the machine's time
 * moves on to the earliest deadline first.  Without `idle` (at every
 * turn's start while a thread waits with a deadline) the time is
 * G->lagged's, which may be a few turns behind: a deadline is met at
 * most that much later, never earlier.  Returns the threads woken. */
unsigned gtime_timers(void *G, int me, int idle);

#endif
