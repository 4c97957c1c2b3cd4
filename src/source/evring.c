/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * evring: the single-producer, single-consumer record ring (evring.h).
 *
 * Ordering: the producer writes slots, then stores `head` (release); the
 * consumer loads `head` (acquire), reads them, processes them, then stores
 * `tail` (release); the producer loads `tail` (acquire) before it reuses a
 * slot.  Sleeping uses the Dekker pattern with sequentially consistent
 * accesses: a side sets its sleep flag, then checks the other's index
 * again under the mutex before waiting; the other stores its index, then
 * reads the flag and signals under the mutex.  At least one of the two
 * sees the other's store, so no wake-up is lost.
 */
#include <stdlib.h>
#include <string.h>
#include "evring.h"
#include "common/cpu_relax.h"

/* Polls of the other side's index before sleeping (a few microseconds). */
#define SPIN 256


int evring_init(struct evring *r, unsigned log2_slots)
{
	memset(r, 0, sizeof *r);
	if (log2_slots < 11 || log2_slots > 28)
		return -1;
	r->size = UINT64_C(1) << log2_slots;
	r->mask = r->size - 1;
	r->wake = r->size / 4;
	r->buf = calloc(r->size, sizeof *r->buf);
	if (!r->buf)
		return -1;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	atomic_init(&r->cons_sleep, 0);
	atomic_init(&r->prod_sleep, 0);
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cons_cv, NULL);
	pthread_cond_init(&r->prod_cv, NULL);
	return 0;
}

void evring_destroy(struct evring *r)
{
	if (!r->buf)
		return;
	pthread_cond_destroy(&r->prod_cv);
	pthread_cond_destroy(&r->cons_cv);
	pthread_mutex_destroy(&r->mu);
	free(r->buf);
	r->buf = NULL;
}

void evring_publish(struct evring *r, int force)
{
	uint64_t tail;

	r->published = r->phead;
	atomic_store(&r->head, r->phead); /* seq_cst: before reading cons_sleep */
	if (!atomic_load(&r->cons_sleep))
		return;
	tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	if (force || r->phead - tail >= r->wake) {
		pthread_mutex_lock(&r->mu);
		pthread_cond_signal(&r->cons_cv);
		pthread_mutex_unlock(&r->mu);
	}
}

/* Producer: wait until tail >= want. */
static void wait_tail(struct evring *r, uint64_t want)
{
	for (unsigned i = 0; i < SPIN; i++) {
		r->ptail = atomic_load_explicit(&r->tail, memory_order_acquire);
		if (r->ptail >= want)
			return;
		cpu_relax();
	}
	pthread_mutex_lock(&r->mu);
	r->prod_want = want;
	atomic_store(&r->prod_sleep, 1);
	while ((r->ptail = atomic_load(&r->tail)) < want)
		pthread_cond_wait(&r->prod_cv, &r->mu);
	atomic_store(&r->prod_sleep, 0);
	pthread_mutex_unlock(&r->mu);
}

void evring_wait_space(struct evring *r, uint64_t n)
{
	/* everything written so far must be visible before we wait for it */
	evring_publish(r, 1);
	/* room for n slots (tail >= phead + n - size), and at least a quarter
	 * of the ring free, so that wake-ups stay rare; the caller saw the
	 * ring full, so phead + n > size */
	wait_tail(r, r->phead + (n > r->wake ? n : r->wake) - r->size);
}

void evring_drain(struct evring *r)
{
	evring_publish(r, 1);
	wait_tail(r, r->phead);
}

size_t evring_peek(struct evring *r, const struct evrec **recs)
{
	uint64_t end;

	if (r->ctail == r->chead) {
		unsigned i;

		for (i = 0; i < SPIN; i++) {
			r->chead = atomic_load_explicit(&r->head, memory_order_acquire);
			if (r->chead != r->ctail)
				break;
			cpu_relax();
		}
		if (i == SPIN) {
			pthread_mutex_lock(&r->mu);
			atomic_store(&r->cons_sleep, 1);
			while ((r->chead = atomic_load(&r->head)) == r->ctail)
				pthread_cond_wait(&r->cons_cv, &r->mu);
			atomic_store(&r->cons_sleep, 0);
			pthread_mutex_unlock(&r->mu);
		}
	}
	end = r->chead;
	if (end - r->ctail > r->size - (r->ctail & r->mask))
		end = r->ctail + (r->size - (r->ctail & r->mask)); /* up to the buffer's end */
	*recs = &r->buf[r->ctail & r->mask];
	return (size_t)(end - r->ctail);
}

void evring_release(struct evring *r, size_t n)
{
	r->ctail += n;
	atomic_store(&r->tail, r->ctail); /* seq_cst: before reading prod_sleep */
	if (atomic_load(&r->prod_sleep)) {
		pthread_mutex_lock(&r->mu);
		if (r->ctail >= r->prod_want)
			pthread_cond_signal(&r->prod_cv);
		pthread_mutex_unlock(&r->mu);
	}
}
