/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest time in modeled time (gtime.h; docs/event-source.md "Guest
 * time"): the guest's clocks, sleeps and futex deadlines, once its
 * threads run in turns.  Linux's semantics (futex(2), clock_gettime(2),
 * nanosleep(2), clock_nanosleep(2)): a futex wait checks the word's
 * value first (EAGAIN), then waits until woken or its timeout passes
 * (ETIMEDOUT); FUTEX_WAIT's timeout is relative (CLOCK_MONOTONIC),
 * FUTEX_WAIT_BITSET's absolute on CLOCK_MONOTONIC, or CLOCK_REALTIME with
 * FUTEX_CLOCK_REALTIME; clock_nanosleep's TIMER_ABSTIME (1) makes its
 * time absolute.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include "gtime.h"
#include "qemu_glue.h"

#define NS 1000000000ull
#define EFAULT_T 14 /* EFAULT, EINVAL, EAGAIN and EINTR have the generic numbers on the three targets */
#define EINVAL_T 22
#define EAGAIN_T 11
#define EINTR_T 4
#define FUTEX_CMD(op) ((op) & ~(uint64_t)(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))

/* Cycles to nanoseconds, at most KTIME_MAX (INT64_MAX ns, Linux's
 * include/linux/ktime.h: about 292 years), as the kernel's clocks. */
static uint64_t cyc_to_ns(const struct gtime *G, uint64_t c)
{
	uint64_t s = c / G->hz;

	if (s >= (uint64_t)INT64_MAX / NS)
		return (uint64_t)INT64_MAX;
	return s * NS + (uint64_t)((unsigned __int128)(c % G->hz) * NS / G->hz);
}

/* Nanoseconds to cycles, rounded up: a deadline is never early. */
static uint64_t ns_to_cyc(const struct gtime *G, uint64_t ns)
{
	unsigned __int128 c = ((unsigned __int128)ns * G->hz + NS - 1) / NS;

	return c > UINT64_MAX / 2 ? UINT64_MAX / 2 : (uint64_t)c;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* The host's futex wait (no deadline): the call's value, -1 with errno. */
static long host_wait(uint32_t *word, int op, uint32_t val, uint32_t bitset)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, bitset);
}

/* Guest time now, cycles: the machine's time plus the idle skip. */
static uint64_t guest_cycles(struct gtime *G)
{
	uint64_t c;

	pthread_mutex_lock(&G->T->mu);
	c = sat_add(G->now(G->ctx), G->skip);
	pthread_mutex_unlock(&G->T->mu);
	return c;
}

/* Linux clock ids (uapi/linux/time.h): REALTIME 0, MONOTONIC 1,
 * PROCESS_CPUTIME_ID 2, THREAD_CPUTIME_ID 3, MONOTONIC_RAW 4,
 * REALTIME_COARSE 5, MONOTONIC_COARSE 6, BOOTTIME 7, REALTIME_ALARM 8,
 * BOOTTIME_ALARM 9, TAI 11.  The CPU-time clocks are the machine's time
 * too (the model has no per-thread CPU clock a guest may read).  -1: a
 * clock id this does not answer (a pthread_getcpuclockid one). */
static int clock_base(const struct gtime *G, uint64_t clk, int64_t *base_s)
{
	switch (clk) {
	case 0: case 5: case 8: case 11:
		*base_s = G->base_s;
		return 0;
	case 1: case 2: case 3: case 4: case 6: case 7: case 9:
		*base_s = G->mono_base_s;
		return 0;
	default:
		return -1;
	}
}

static void put_be(uint8_t *b, uint64_t v, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		b[k] = (uint8_t)(v >> (8 * (n - 1 - k)));
}

static uint64_t get_be(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;

	for (unsigned k = 0; k < n; k++)
		v = v << 8 | b[k];
	return v;
}

static int guest_write(uint64_t ga, const uint8_t *b, unsigned n)
{
	GByteArray *a = g_byte_array_new();
	int ok;

	g_byte_array_append(a, b, n);
	ok = qemu_plugin_write_memory_vaddr(ga, a);
	g_byte_array_free(a, TRUE);
	return ok ? 0 : -1;
}

/* A struct timespec of the guest at ga: nanoseconds, or -1 (unreadable,
 * or a field out of range: EFAULT / EINVAL as *err says). */
static int64_t read_timespec(uint64_t ga, int64_t *err)
{
	uint8_t b[16];
	int64_t s, ns;

	if (qg_guest_read(ga, b, sizeof b)) {
		*err = EFAULT_T;
		return -1;
	}
	s = (int64_t)get_be(b, 8);
	ns = (int64_t)get_be(b + 8, 8);
	if (s < 0 || ns < 0 || ns >= (int64_t)NS) {
		*err = EINVAL_T;
		return -1;
	}
	return s > (INT64_MAX - ns) / (int64_t)NS ? INT64_MAX : s * (int64_t)NS + ns;
}

/* An absolute time on a clock whose base is base_s: its guest cycles
 * (0 if before the machine's start). */
static uint64_t abs_to_cyc(const struct gtime *G, int64_t base_s, int64_t abs_ns)
{
	__int128 rel = (__int128)abs_ns - (__int128)base_s * (__int128)NS;

	return rel <= 0 ? 0 : rel >= (__int128)UINT64_MAX ? UINT64_MAX : ns_to_cyc(G, (uint64_t)rel);
}

int gtime_init(struct gtime *G, const struct hvpmu_isa *isa, struct turns *T, uint64_t (*now)(void *ctx),
	       void *ctx, uint64_t hz)
{
	*G = (struct gtime){ .isa = isa, .T = T, .now = now, .ctx = ctx, .hz = hz ? hz : 1000000000u, .wait = host_wait };
	if (!(G->w = calloc(T->n ? T->n : 1, sizeof *G->w))) {
		fprintf(stderr, "hvpmu plugin: out of memory\n");
		return -1;
	}
	T->timers = gtime_timers;
	T->tctx = G;
	return 0;
}

void gtime_start(struct gtime *G)
{
	struct timespec rt, mono;
	uint64_t at;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	pthread_mutex_lock(&G->T->mu);
	at = cyc_to_ns(G, G->now(G->ctx)) / NS; /* whole seconds of machine time so far */
	/* the guest's clock goes on from the host's, forward only, at the
	 * next whole second: its nanoseconds are the model's */
	G->base_s = (int64_t)rt.tv_sec + 1 - (int64_t)at;
	G->mono_base_s = (int64_t)mono.tv_sec + 1 - (int64_t)at;
	G->T->sleeps = 1;
	G->on = 1;
	pthread_mutex_unlock(&G->T->mu);
}

/* Registers vCPU me's wait until `deadline` (guest cycles) on host word
 * `host` (its value hval, FUTEX_WAIT_BITSET `bitset`), or a sleep on its
 * own word: from here the turns see its deadline (gtime_timers). */
static void wait_register(struct gtime *G, int me, uint32_t *host, uint32_t hval, uint64_t deadline, int priv,
			  uint32_t bitset, int sleep)
{
	struct gtime_wait *w = &G->w[me];

	pthread_mutex_lock(&G->T->mu);
	*w = (struct gtime_wait){ .deadline = deadline ? deadline : 1, .host = host, .hval = hval, .bitset = bitset,
				  .priv = (uint8_t)priv, .sleep = (uint8_t)sleep };
	if (sleep) {
		w->host = &w->own;
		w->priv = 1;
	}
	G->T->timed++;
	pthread_mutex_unlock(&G->T->mu);
}

/* The registered wait of me, in its call: without a host deadline, until
 * woken or (gtime_timers) past its deadline.  Returns the call's value:
 * 0, or -ETIMEDOUT (the target's), -EAGAIN, -EINTR. */
static int64_t wait_run(struct gtime *G, int me)
{
	struct gtime_wait *w = &G->w[me];
	int64_t rc = 0;
	int to, e = 0, sleep = w->sleep;

	pthread_mutex_lock(&G->T->mu);
	to = w->timed_out || sat_add(G->now(G->ctx), G->skip) >= w->deadline;
	pthread_mutex_unlock(&G->T->mu);
	if (!to) {
		rc = G->wait(w->host, FUTEX_WAIT_BITSET | (w->priv ? FUTEX_PRIVATE_FLAG : 0), w->hval, w->bitset);
		if (rc < 0)
			e = errno;
	}
	pthread_mutex_lock(&G->T->mu);
	to |= w->timed_out;
	*w = (struct gtime_wait){ 0 };
	G->T->timed--;
	pthread_mutex_unlock(&G->T->mu);
	if (to)
		return sleep ? 0 : -G->isa->sc.etimedout;
	if (rc == 0)
		return 0;
	if (e == EAGAIN)
		return sleep ? 0 : -EAGAIN_T; /* (a sleep's own word never changes) */
	return e == EINTR ? -EINTR_T : -EINVAL_T;
}

/* futex(uaddr, op, val, timeout, uaddr2, val3) with a wait and a timeout,
 * at its entry: registered, or answered at once (w->early). */
static void futex_entry(struct gtime *G, int me, const uint64_t a[6])
{
	uint64_t cmd = FUTEX_CMD(a[1]), deadline;
	int64_t err = 0, t;
	uint8_t b[4];
	uint32_t word, val = (uint32_t)a[2];
	struct gtime_wait *w = &G->w[me];

	if ((cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET) || !a[3])
		return;
	if (cmd == FUTEX_WAIT_BITSET && (uint32_t)a[5] == 0)
		return; /* (EINVAL: QEMU says so) */
	if ((t = read_timespec(a[3], &err)) < 0) {
		*w = (struct gtime_wait){ .early = 1, .ret = -err };
		return;
	}
	if (cmd == FUTEX_WAIT) { /* relative */
		deadline = sat_add(guest_cycles(G), ns_to_cyc(G, (uint64_t)t));
	} else {
		int64_t base = a[1] & FUTEX_CLOCK_REALTIME ? G->base_s : G->mono_base_s;

		deadline = abs_to_cyc(G, base, t);
	}
	if (qg_guest_read(a[0], b, sizeof b)) {
		*w = (struct gtime_wait){ .early = 1, .ret = -EFAULT_T };
		return;
	}
	word = G->isa->big_endian ? (uint32_t)get_be(b, 4)
				  : (uint32_t)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);
	if (word != val) { /* Linux checks the value before the time */
		*w = (struct gtime_wait){ .early = 1, .ret = -EAGAIN_T };
		return;
	}
	wait_register(G, me, qemu_plugin_guest_host_address(a[0]), G->isa->big_endian ? __builtin_bswap32(val) : val,
		      deadline, (a[1] & FUTEX_PRIVATE_FLAG) != 0,
		      cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : (uint32_t)a[5], 0);
}

/* nanosleep(req, rem) and clock_nanosleep(clk, flags, req, rem), at their
 * entry. */
static void sleep_entry(struct gtime *G, int me, int64_t num, const uint64_t a[6])
{
	int abs = 0;
	uint64_t req = a[0], deadline;
	int64_t base = G->mono_base_s, err = 0, t;

	if (num == G->isa->sc.clock_nanosleep) {
		if (clock_base(G, a[0], &base))
			return;
		abs = (a[1] & 1) != 0; /* TIMER_ABSTIME */
		req = a[2];
	}
	if ((t = read_timespec(req, &err)) < 0) {
		G->w[me] = (struct gtime_wait){ .early = 1, .ret = -err };
		return;
	}
	deadline = abs ? abs_to_cyc(G, base, t) : sat_add(guest_cycles(G), ns_to_cyc(G, (uint64_t)t));
	wait_register(G, me, NULL, 0, deadline, 1, FUTEX_BITSET_MATCH_ANY, 1);
}

void gtime_entry(struct gtime *G, int me, int64_t num, const uint64_t a[6])
{
	const struct hvpmu_isa_syscalls *sc = &G->isa->sc;

	if (!G->on || me < 0 || (uint32_t)me >= G->T->n || num < 0)
		return;
	if (num == sc->futex)
		futex_entry(G, me, a);
	else if (num == sc->nanosleep || num == sc->clock_nanosleep)
		sleep_entry(G, me, num, a);
}

int gtime_filter(struct gtime *G, int me, int64_t num, const uint64_t a[6], uint64_t *ret)
{
	const struct hvpmu_isa_syscalls *sc = &G->isa->sc;
	uint8_t b[16];

	if (!G->on || me < 0 || (uint32_t)me >= G->T->n || num < 0)
		return 0;
	if (G->w[me].early) { /* answered at its entry */
		*ret = (uint64_t)G->w[me].ret;
		G->w[me] = (struct gtime_wait){ 0 };
		return 1;
	}
	if (G->w[me].deadline && (num == sc->futex || num == sc->nanosleep || num == sc->clock_nanosleep)) {
		*ret = (uint64_t)wait_run(G, me);
		return 1;
	}
	if (num == sc->clock_gettime) {
		int64_t base;
		uint64_t ns;

		if (clock_base(G, a[0], &base))
			return 0;
		ns = cyc_to_ns(G, guest_cycles(G));
		put_be(b, (uint64_t)base + ns / NS, 8);
		put_be(b + 8, ns % NS, 8);
		*ret = a[1] && guest_write(a[1], b, 16) ? (uint64_t)-EFAULT_T : 0;
		return 1;
	}
	if (num == sc->gettimeofday) {
		uint64_t ns = cyc_to_ns(G, guest_cycles(G));

		*ret = 0;
		memset(b, 0, sizeof b);
		put_be(b, (uint64_t)G->base_s + ns / NS, 8);
		if (sc->timeval_usec_4)
			put_be(b + 8, ns % NS / 1000, 4);
		else
			put_be(b + 8, ns % NS / 1000, 8);
		if (a[0] && guest_write(a[0], b, 16))
			*ret = (uint64_t)-EFAULT_T;
		memset(b, 0, 8); /* struct timezone: UTC, no DST */
		if (a[1] && guest_write(a[1], b, 8))
			*ret = (uint64_t)-EFAULT_T;
		return 1;
	}
	if (num == sc->time) {
		uint64_t s = (uint64_t)G->base_s + cyc_to_ns(G, guest_cycles(G)) / NS;

		put_be(b, s, 8);
		*ret = a[0] && guest_write(a[0], b, 8) ? (uint64_t)-EFAULT_T : s;
		return 1;
	}
	return 0;
}

unsigned gtime_timers(void *g, int me, int idle)
{
	struct gtime *G = g;
	struct turns *T = G->T;
	uint64_t now;
	unsigned n = 0;

	if (!G->T->timed)
		return 0;
	now = sat_add(idle || !G->lagged ? G->now(G->ctx) : G->lagged(G->ctx), G->skip);
	if (idle) { /* the machine idles on to the earliest deadline */
		uint64_t min = UINT64_MAX;

		for (uint32_t i = 0; i < T->n; i++)
			if (G->w[i].deadline && !G->w[i].timed_out &&
			    ((int)i == me || (T->t[i].live && T->t[i].blocked && T->t[i].asleep)))
				min = G->w[i].deadline < min ? G->w[i].deadline : min;
		/* (a deadline past half of KTIME_MAX is Linux's "never" in
		 * practice: the machine does not idle on to it) */
		if (min != UINT64_MAX && min > now && cyc_to_ns(G, min) < (uint64_t)INT64_MAX / 2) {
			G->skip += min - now;
			now = min;
		}
	}
	for (uint32_t i = 0; i < T->n; i++) {
		struct gtime_wait *w = &G->w[i];

		if ((int)i == me || !w->deadline || w->timed_out || w->deadline > now || !T->t[i].live ||
		    !T->t[i].blocked || !T->t[i].asleep)
			continue;
		w->timed_out = 1;
		T->t[i].waking = 1;
		T->t[i].asleep = 0;
		syscall(SYS_futex, w->host, FUTEX_WAKE | (w->priv ? FUTEX_PRIVATE_FLAG : 0), INT_MAX, NULL, NULL, 0);
		n++;
	}
	return n;
}
