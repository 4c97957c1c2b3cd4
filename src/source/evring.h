/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * evring: a single-producer, single-consumer ring of 16-byte event records
 * between the thread that runs the guest (QEMU's vCPU thread, calling the
 * plugin's callbacks) and the thread that runs the machine model
 * (docs/event-source.md "Model thread").
 *
 * The guest never waits for the model: nothing the model computes flows
 * back into the guest's execution, so the model may run behind it, on the
 * other host core, and still see every event in program order.  Records
 * are whole (a multi-slot record never wraps the buffer, see
 * evring_reserve()) and are published in batches; the consumer takes
 * contiguous spans of published records and releases them when it has
 * processed them, so evring_drain() returns only when the model has
 * caught up with the guest.
 *
 * Cost on the producer: one 16-byte store and an index increment per
 * slot, an atomic store every EVRING_PUBLISH slots.  Neither side spins
 * for long: after a short spin a side sleeps on a condition variable and
 * the other wakes it only once a quarter of the ring is ready (or at a
 * drain), so a wake-up costs a system call per tens of thousands of
 * records.
 *
 * Thread-safety: exactly one producer thread (evring_put, evring_reserve,
 * evring_commit, evring_publish, evring_drain) and one consumer thread
 * (evring_peek, evring_release) at a time; evring_init / evring_destroy
 * with neither running.
 */
#ifndef HVPMU_SOURCE_EVRING_H
#define HVPMU_SOURCE_EVRING_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* One record slot: the meaning of the two words is the user's. */
struct evrec {
	uint64_t w0, w1;
};

/* Slots published together (a power of two). */
#define EVRING_PUBLISH 512u
/* How far ahead of the slot being written the producer prefetches, and
 * ahead of the slot being read the consumer does (slots: 16 lines). */
#define EVRING_AHEAD 64u

struct evring {
	struct evrec *buf;
	uint64_t size, mask;          /* slots (a power of two) */
	uint64_t wake;                /* a sleeping side is woken once this many slots are ready */
	/* producer's own */
	_Alignas(64) uint64_t phead;  /* next slot to write */
	uint64_t ptail;               /* last consumer position seen */
	uint64_t published;           /* last head published */
	/* consumer's own */
	_Alignas(64) uint64_t ctail;  /* next slot to read */
	uint64_t chead;               /* last head seen */
	/* shared */
	_Alignas(64) _Atomic uint64_t head;
	_Alignas(64) _Atomic uint64_t tail;
	_Atomic int cons_sleep;       /* the consumer sleeps (or is about to) */
	_Atomic int prod_sleep;       /* the producer sleeps until tail >= prod_want */
	uint64_t prod_want;
	pthread_mutex_t mu;
	pthread_cond_t cons_cv, prod_cv;
};

/*
 * Set up a ring of 2^log2_slots slots (at least 2 * EVRING_PUBLISH).
 * Returns 0, or -1 if out of memory or the size is out of range.
 */
int evring_init(struct evring *r, unsigned log2_slots);
void evring_destroy(struct evring *r);

/* Producer: wait until the consumer has freed slots (the slow path of
 * evring_reserve()). */
void evring_wait_space(struct evring *r, uint64_t n);

/* Producer: publish every committed slot now, waking the consumer if it
 * sleeps and `force` or a quarter of the ring is ready. */
void evring_publish(struct evring *r, int force);

/*
 * Producer: room for a record of n slots (1 <= n <= EVRING_PUBLISH) that
 * does not wrap around the buffer's end: slots up to the end are filled
 * with copies of `pad` (a record the consumer skips) when n would wrap.
 * Returns the first slot, to be filled and then committed.
 */
static inline struct evrec *evring_reserve(struct evring *r, uint64_t n, struct evrec pad)
{
	uint64_t room = r->size - (r->phead & r->mask);

	if (__builtin_expect(room < n, 0)) {
		if (r->phead + room - r->ptail > r->size)
			evring_wait_space(r, room);
		while (room--)
			r->buf[r->phead++ & r->mask] = pad;
	}
	if (__builtin_expect(r->phead + n - r->ptail > r->size, 0))
		evring_wait_space(r, n);
	return &r->buf[r->phead & r->mask];
}

/* Producer: the n slots reserved are filled; publish every
 * EVRING_PUBLISH slots. */
static inline void evring_commit(struct evring *r, uint64_t n)
{
	r->phead += n;
	if (__builtin_expect(r->phead - r->published >= EVRING_PUBLISH, 0))
		evring_publish(r, 0);
}

/* Producer: one single-slot record. */
static inline void evring_put(struct evring *r, uint64_t w0, uint64_t w1)
{
	struct evrec *e;

	if (__builtin_expect(r->phead - r->ptail >= r->size, 0))
		evring_wait_space(r, 1);
	e = &r->buf[r->phead & r->mask];
	/* take the line EVRING_AHEAD slots on for writing now: the consumer's
	 * core read it last, and a store that waits for it stalls the guest */
	__builtin_prefetch(&r->buf[(r->phead + EVRING_AHEAD) & r->mask], 1);
	e->w0 = w0;
	e->w1 = w1;
	evring_commit(r, 1);
}

/* Producer: publish everything and wait until the consumer has released
 * every record (processed it).  Afterwards the consumer's effects are
 * visible to the producer's thread. */
void evring_drain(struct evring *r);

/*
 * Consumer: the next span of published records, contiguous in memory
 * (*recs), waiting for one if there is none.  Returns its length (> 0).
 * Records stay valid until evring_release().
 */
size_t evring_peek(struct evring *r, const struct evrec **recs);

/* Consumer: the first n records of the last span are processed. */
void evring_release(struct evring *r, size_t n);

#endif
