/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model queue's lagged time (src/source/feed.h feed_mq_lagged_now,
 * docs/event-source.md "Guest time"): with a real queue thread, after
 * the k-th batch handed over it answers the machine's time as it was
 * after batch k - nvcpu (after none: the queue's start), exactly what a
 * second machine that runs the same batches one by one shows after that
 * batch; it never waits for the queue (a batch is always that far
 * behind); and the exact time, once the queue is empty, is the last
 * batch's.  The batches are entries of a block of adds on the T4's first
 * two strands, whose %tick moves at each sync: an OS tick every 50,000
 * cycles (a tick compare the trap handler sets again, as a kernel's
 * clock interrupt does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include "source/feed.h"

#define BATCHES 120 /* more than a T4 has strands (the feed's nvcpu, 64): the lag shows */
#define TICK 50000u                 /* cycles between OS ticks */
#define ADD_G1 UINT32_C(0x82006001) /* add %g1, 1, %g1 (op 2, op3 0, i = 1, simm13 1) */

struct clock {
	struct hvpmu_machine *m;
	unsigned ticks;
};

/* The OS tick: the next one a TICK later. */
static void on_trap(void *ctx, const struct hvpmu_trap *t)
{
	struct clock *c = ctx;

	if (t->tt != HVPMU_TT_TIMER)
		return;
	c->ticks++;
	hvpmu_machine_set_tick_compare(c->m, t->strand, hvpmu_machine_tick(c->m, t->strand) + TICK);
}

/* A machine of the T4 with the whole model and an OS tick, a feed of its
 * first two strands as vCPUs 0 and 1, and its block of 64 adds. */
static struct feed *feed_up(struct clock *c, struct tb_info **bp)
{
	uint32_t words[64];
	struct mem_insn *const *mi;
	struct pf_insn *const *pf;
	struct hvpmu_md md;
	struct feed *f;

	for (unsigned i = 0; i < 64; i++)
		words[i] = ADD_G1;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &c->m), 0);
	hvpmu_machine_set_features(c->m, HVPMU_FEAT_MEMORY);
	hvpmu_machine_set_trap_handler(c->m, on_trap, c);
	f = feed_new(c->m, hvpmu_isa_by_name("sparcv9"));
	assert_non_null(f);
	assert_true(f->nvcpu >= 2 && f->nvcpu + 20 < BATCHES);
	f->mt = 1;    /* several threads: blocks say by their records whether they ran whole */
	f->batch = 1; /* and record into their vCPU's batch */
	for (uint32_t i = 0; i < 2; i++) {
		assert_int_equal(feed_vcpu_start(f, &f->vcpu[i], i, 1), 0);
		assert_int_equal(hvpmu_machine_set_tick_compare(c->m, i, TICK), 0);
	}
	*bp = feed_block_new(f, 0x10000, words, 64, &mi, &pf);
	assert_non_null(*bp);
	feed_finish_tb(f, *bp);
	return f;
}

/* Batch k of vCPU v: 100 * (1 + k % 4) entries of block b, each after
 * the last one reached its end. */
static void fill(struct vcpu *v, struct tb_info *b, unsigned k)
{
	v->nb = 0;
	for (unsigned c = 0; c < 100 * (1 + k % 4); c++)
		v->batch[v->nb++] = (struct evrec){ (uintptr_t)b | 1u << 2 | REC_TB, 0 };
}

static void lagged_is_the_time_nvcpu_batches_back(void **state)
{
	struct clock c = { 0 }, cr = { 0 };
	struct tb_info *b, *br;
	struct feed *f = feed_up(&c, &b), *ref = feed_up(&cr, &br);
	uint64_t want[BATCHES + 1];
	unsigned moved = 0;

	(void)state;
	/* the reference: the same batches run one by one, the time after each */
	want[0] = hvpmu_machine_now(cr.m);
	for (unsigned k = 0; k < BATCHES; k++) {
		struct vcpu *v = &ref->vcpu[k % 2];

		fill(v, br, k);
		pthread_mutex_lock(&ref->lock);
		feed_batch_run(ref, v);
		pthread_mutex_unlock(&ref->lock);
		want[k + 1] = hvpmu_machine_now(cr.m);
		moved += want[k + 1] != want[k];
	}
	assert_true(moved >= BATCHES / 2); /* (the time moves at most batches) */

	assert_int_equal(feed_mq_start(f), 0);
	assert_int_equal(feed_mq_lagged_now(f), want[0]);
	for (unsigned k = 0; k < BATCHES; k++) {
		struct vcpu *v = &f->vcpu[k % 2];
		uint64_t put = k + 1;

		fill(v, b, k);
		feed_mq_put(f, v); /* (waits only for v's own batch before) */
		assert_int_equal(feed_mq_lagged_now(f), want[put > f->nvcpu ? put - f->nvcpu : 0]);
	}
	lock(f); /* the exact time: after every batch */
	assert_int_equal(hvpmu_machine_now(c.m), want[BATCHES]);
	unlock(f);
	assert_int_equal(c.ticks, cr.ticks);
	feed_mq_stop(f);
	feed_destroy(f);
	feed_destroy(ref);
	hvpmu_machine_destroy(c.m);
	hvpmu_machine_destroy(cr.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lagged_is_the_time_nvcpu_batches_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
