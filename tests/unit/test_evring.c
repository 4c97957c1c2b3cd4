/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record ring between the guest thread and the model thread
 * (src/source/evring.h): with a real second thread, every record arrives
 * once, whole and in order, across many wraps of a small ring; multi-slot
 * records never wrap the buffer's end (padding fills it); evring_drain()
 * returns only after the consumer has processed everything, so the
 * consumer's effects are visible to the producer; and a producer that
 * outruns the consumer waits instead of overwriting.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "source/evring.h"

#define PAD UINT64_MAX      /* w0 of a padding record */
#define STOP (UINT64_MAX - 1)

/* Records: w0 = sequence number, w1 = number of slots of the record
 * (1..3); the later slots of a record repeat its sequence number. */
struct consumer {
	struct evring *r;
	uint64_t next;          /* sequence number expected next */
	uint64_t processed;     /* records processed (read by the producer after drains) */
	uint64_t pads, bad, split;
	unsigned delay;         /* busy work per record: a slow consumer */
};

static void *consume(void *arg)
{
	struct consumer *c = arg;

	for (;;) {
		const struct evrec *e;
		size_t n = evring_peek(c->r, &e), i = 0;

		while (i < n) {
			uint64_t len = e[i].w1;

			if (e[i].w0 == PAD) {
				c->pads++;
				i++;
				continue;
			}
			if (e[i].w0 == STOP) {
				evring_release(c->r, i + 1);
				return NULL;
			}
			if (i + len > n) /* a record must be whole inside one span */
				c->split++;
			for (uint64_t k = 0; k < len && i + k < n; k++)
				if (e[i + k].w0 != c->next || e[i + k].w1 != len)
					c->bad++;
			for (volatile unsigned d = 0; d < c->delay; d++)
				;
			c->next++;
			c->processed++;
			i += len;
		}
		evring_release(c->r, n);
	}
}

static void produce(struct evring *r, uint64_t first, uint64_t count)
{
	for (uint64_t s = first; s < first + count; s++) {
		uint64_t len = 1 + s % 3;
		struct evrec *e = evring_reserve(r, len, (struct evrec){ PAD, 1 });

		for (uint64_t k = 0; k < len; k++)
			e[k] = (struct evrec){ s, len };
		evring_commit(r, len);
	}
}

static void run(unsigned log2_slots, unsigned delay, uint64_t count)
{
	struct evring r;
	struct consumer c = { .r = &r, .delay = delay };
	pthread_t t;

	assert_int_equal(evring_init(&r, log2_slots), 0);
	assert_int_equal(pthread_create(&t, NULL, consume, &c), 0);
	produce(&r, 0, count / 2);
	evring_drain(&r);
	/* drained: everything so far is processed and visible here */
	assert_int_equal(c.processed, count / 2);
	produce(&r, count / 2, count - count / 2);
	evring_drain(&r);
	assert_int_equal(c.processed, count);
	evring_put(&r, STOP, 0);
	evring_publish(&r, 1);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(c.next, count);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.split, 0);
	/* records of 2 and 3 slots meet the buffer's end: some padding */
	assert_true(c.pads > 0);
	evring_destroy(&r);
}

/* A small ring (2048 slots) wraps about a hundred times. */
static void test_order_across_wraps(void **state)
{
	(void)state;
	run(11, 0, 100000);
}

/* A slow consumer: the producer fills the ring and must wait. */
static void test_slow_consumer(void **state)
{
	(void)state;
	run(11, 2000, 20000);
}

/* The ring size used by the plugin. */
static void test_plugin_size(void **state)
{
	(void)state;
	run(16, 0, 300000);
}

/* Drain with nothing produced returns at once; sizes out of range are refused. */
static void test_edges(void **state)
{
	struct evring r;

	(void)state;
	assert_int_equal(evring_init(&r, 10), -1);
	assert_int_equal(evring_init(&r, 29), -1);
	assert_int_equal(evring_init(&r, 11), 0);
	evring_drain(&r);
	evring_destroy(&r);
	evring_destroy(&r); /* twice is harmless */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_across_wraps),
		cmocka_unit_test(test_slow_consumer),
		cmocka_unit_test(test_plugin_size),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
