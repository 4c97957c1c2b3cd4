/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PAPR hypervisor's dispatcher (src/model/dispatch.c,
 * docs/papr-dispatcher.md), driven through the machine's interface as an
 * event source drives it: strands retire instructions and run cycles (or
 * wait in the OS), hvpmu_machine_dispatch() runs once per quantum, and
 * the CEC statistics device is read back over the register bus.
 *   - a capped partition never consumes beyond its entitlement: its
 *     strand is held back, so its work takes work / entitlement of
 *     elapsed time; no uncapped cycles;
 *   - two uncapped partitions competing for the pool's spare cycles get
 *     them in the ratio of their weights;
 *   - a donating dedicated partition's idle processor is lent: the
 *     uncapped partition's cycles there are its donated cycles; a
 *     non-donating one's processor stays dispatched to it (its idle
 *     time is its idle PURR), and it donates nothing;
 *   - run-latch instructions are each partition's retired instructions,
 *     exactly, after every dispatch;
 *   - per processor, PURR cycles never exceed the elapsed timebase;
 *   - a caller with no quanta (hvpmu_machine_dispatch_catch_up, a
 *     program's own machine) does not make its steps the strands' sync
 *     period, where a quantum's dispatch does (hvpmu_machine_dispatch).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/cec_stats.h>

#define QUANTUM 10000u /* cycles per dispatch, as the service's default quantum */

struct sys {
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	int dev, cls;
	uint64_t qend;
	uint64_t busy[3]; /* cycles each partition's strands ran */
};

/* Processors: 0-1 dedicated to partition 1 (donating or not), 2-3
 * shared (the pool), the rest unlicensed. */
static void up(struct sys *s, const char *partitions, int donating)
{
	char json[4096], procs[2048], err[256];
	size_t n = 0;

	n += (size_t)snprintf(procs + n, sizeof procs - n, "[");
	for (unsigned p = 0; p < 32; p++)
		n += (size_t)snprintf(procs + n, sizeof procs - n, "%s{\"chip\": %u, \"state\": \"%s\"%s}", p ? "," : "",
				      p / 8, p < 2 ? "dedicated" : p < 4 ? "shared" : "unlicensed",
				      p < 2 ? ", \"owner\": 1" : "");
	snprintf(procs + n, sizeof procs - n, "]");
	snprintf(json, sizeof json,
		 "{\"platform\": \"power\", \"cec\": {\"procs\": %s, \"partitions\": ["
		 "{\"id\": 1, \"mode\": \"dedicated\", \"vps\": 2, \"donating\": %s}, %s]},"
		 "\"guests\": ["
		 " {\"name\": \"a\", \"first_strand\": 0, \"nstrands\": 8, \"mblock\": [{\"base\": 0, \"size\": 16777216}]},"
		 " {\"name\": \"b\", \"first_strand\": 8, \"nstrands\": 8, \"mblock\": [{\"base\": 0, \"size\": 16777216}]},"
		 " {\"name\": \"c\", \"first_strand\": 16, \"nstrands\": 8, \"mblock\": [{\"base\": 0, \"size\": 16777216}]}]}",
		 procs, donating ? "true" : "false", partitions);
	assert_int_equal(hvpmu_md_parse(json, strlen(json), NULL, &s->md, err, sizeof err), 0);
	assert_int_equal(hvpmu_machine_create(&s->md, &s->m), 0);
	s->dev = hvpmu_machine_device_find(s->m, HVPMU_DEV_CEC_STATS, 0);
	assert_true(s->dev >= 0);
	s->cls = hvpmu_machine_class(s->m, 0); /* plain instructions */
	assert_true(s->cls >= 0);
}

static void down(struct sys *s) { hvpmu_machine_destroy(s->m); }

static uint64_t rd(struct sys *s, unsigned group, unsigned index, unsigned field)
{
	uint64_t v = 0;

	assert_int_equal(hvpmu_machine_bus_read(s->m, (unsigned)s->dev, HVPMU_CEC_REG(group, index, field), &v), 0);
	return v;
}

static uint64_t part(struct sys *s, unsigned p, unsigned field) { return rd(s, HVPMU_CEC_GRP_PARTITION, p, field); }

/* Strand `st` retires `insns` instructions (their cycles: the class's
 * cycles each); returns the cycles it ran. */
static uint64_t run(struct sys *s, uint32_t st, uint64_t insns)
{
	struct hvpmu_activity *a = hvpmu_machine_activity(s->m, st);
	uint64_t t0 = hvpmu_machine_tick(s->m, st);

	a->icount[s->cls] += insns;
	assert_int_equal(hvpmu_machine_sync(s->m, st, NULL, NULL), 0);
	return hvpmu_machine_tick(s->m, st) - t0;
}

/* The invariants every read must satisfy (the device refuses feeds that
 * break them; these check the dispatcher fed what it should). */
static void check(struct sys *s, const uint64_t *retired)
{
	uint64_t tb = rd(s, HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_TIMEBASE);

	for (unsigned p = 0; p < s->md.cec.nprocs; p++)
		assert_true(rd(s, HVPMU_CEC_GRP_PROC, p, HVPMU_CEC_P_PURR) <= tb);
	for (unsigned q = 0; q < s->md.cec.npartitions; q++) {
		assert_true(part(s, q, HVPMU_CEC_L_CAPPED) <= part(s, q, HVPMU_CEC_L_ENTITLED));
		assert_int_equal(part(s, q, HVPMU_CEC_L_RUN_INSNS), retired[q]);
		if (s->md.cec.partitions[q].mode == HVPMU_CEC_MODE_CAPPED)
			assert_int_equal(part(s, q, HVPMU_CEC_L_UNCAPPED), 0);
		if (!s->md.cec.partitions[q].donating)
			assert_int_equal(part(s, q, HVPMU_CEC_L_DONATED), 0);
	}
}

/* One quantum, as the service's barrier runs it: every strand in `busy`
 * below the quantum's end runs up to it (a strand the dispatcher held
 * beyond it waits); then the dispatcher. */
static void quantum(struct sys *s, const uint32_t *busy, unsigned n, uint64_t *retired)
{
	s->qend += QUANTUM;
	for (unsigned k = 0; k < n; k++) {
		uint64_t t = hvpmu_machine_tick(s->m, busy[k]);

		if (t < s->qend) { /* (one cycle per instruction: the class's cost) */
			s->busy[busy[k] / 8] += run(s, busy[k], s->qend - t);
			retired[busy[k] / 8] += s->qend - t;
		}
	}
	hvpmu_machine_dispatch(s->m, s->qend);
	check(s, retired);
}

/* Strand 0 at 100 cycles, the dispatcher run twice 100 cycles apart: as
 * quanta, the strand must sync within ~100 cycles of instructions; as
 * catch-ups, its next check is where the PMU alone puts it. */
static void catch_up_keeps_checks(void **state)
{
	struct sys q = { 0 }, c = { 0 };
	uint64_t nq, nc;

	(void)state;
	up(&q, "{\"id\": 2, \"mode\": \"uncapped\", \"entitlement\": 0.5, \"weight\": 128}", 1);
	up(&c, "{\"id\": 2, \"mode\": \"uncapped\", \"entitlement\": 0.5, \"weight\": 128}", 1);
	for (int k = 1; k <= 2; k++) {
		run(&q, 0, 100);
		run(&c, 0, 100);
		hvpmu_machine_dispatch(q.m, hvpmu_machine_tick(q.m, 0));
		hvpmu_machine_dispatch_catch_up(c.m, hvpmu_machine_tick(c.m, 0));
	}
	assert_int_equal(hvpmu_machine_tick(q.m, 0), hvpmu_machine_tick(c.m, 0));
	run(&q, 0, 1);
	run(&c, 0, 1);
	nq = hvpmu_machine_activity(q.m, 0)->next_check;
	nc = hvpmu_machine_activity(c.m, 0)->next_check;
	assert_true(nq < 1000);        /* a quantum of 100 cycles on */
	assert_true(nc > 100000000u);  /* nothing but the PMU's own */
	down(&q);
	down(&c);
}

static void capped_waits(void **state)
{
	struct sys s = { 0 };
	uint64_t retired[3] = { 0 };
	const uint32_t busy[] = { 8 };
	uint64_t cap, tb, ent;

	(void)state;
	up(&s, "{\"id\": 2, \"mode\": \"capped\", \"entitlement\": 0.5},"
	       "{\"id\": 3, \"mode\": \"uncapped\", \"entitlement\": 0.5, \"weight\": 128}", 1);
	for (int i = 0; i < 2000; i++)
		quantum(&s, busy, 1, retired);
	cap = part(&s, 1, HVPMU_CEC_L_CAPPED);
	ent = part(&s, 1, HVPMU_CEC_L_ENTITLED);
	tb = rd(&s, HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_TIMEBASE);
	/* held back: half the elapsed time is its own (within a quantum per window) */
	assert_true(cap * 2 <= tb + 2);
	assert_true(cap * 2 + 2 * QUANTUM > tb);
	assert_true(ent - cap < QUANTUM);
	/* the strand's time: its work at half speed */
	assert_int_equal(s.busy[1], retired[1]);
	assert_true(hvpmu_machine_tick(s.m, 8) * 100 >= 2 * s.busy[1] * 98);
	assert_true(hvpmu_machine_tick(s.m, 8) * 100 <= 2 * s.busy[1] * 102);
	down(&s);
}

static void weights(void **state)
{
	struct sys s = { 0 };
	uint64_t retired[3] = { 0 };
	/* two cores each (strands 8, 12 and 16, 20): demand 2 processors each */
	const uint32_t busy[] = { 8, 12, 16, 20 };
	uint64_t u1, u2;

	(void)state;
	up(&s, "{\"id\": 2, \"mode\": \"uncapped\", \"entitlement\": 0.5, \"weight\": 192, \"vps\": 2},"
	       "{\"id\": 3, \"mode\": \"uncapped\", \"entitlement\": 0.5, \"weight\": 64, \"vps\": 2}", 0);
	for (int i = 0; i < 2000; i++)
		quantum(&s, busy, 4, retired);
	u1 = part(&s, 1, HVPMU_CEC_L_UNCAPPED);
	u2 = part(&s, 2, HVPMU_CEC_L_UNCAPPED);
	/* the pool (2 processors) less the entitlements (0.5 + 0.5): 1.0 to share 3:1 */
	assert_true(u1 > 0 && u2 > 0);
	assert_true(u1 * 100 >= u2 * 3 * 95 && u1 * 100 <= u2 * 3 * 105);
	/* the pool is used up: both partitions' PURR fills the shared processors */
	{
		uint64_t tb = rd(&s, HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_TIMEBASE);
		uint64_t used = rd(&s, HVPMU_CEC_GRP_PROC, 2, HVPMU_CEC_P_PURR) + rd(&s, HVPMU_CEC_GRP_PROC, 3, HVPMU_CEC_P_PURR);

		assert_true(used * 100 >= 2 * tb * 95);
	}
	/* the dedicated partition (not donating) ran nothing: its processors
	 * were dispatched to it all the time, idle */
	assert_int_equal(part(&s, 0, HVPMU_CEC_L_IDLE), part(&s, 0, HVPMU_CEC_L_CAPPED));
	assert_true(part(&s, 0, HVPMU_CEC_L_CAPPED) > 0);
	down(&s);
}

static void donation(void **state)
{
	struct sys s = { 0 };
	uint64_t retired[3] = { 0 };
	/* partition 1 busy on its first processor, the capped one on one; the
	 * uncapped one wants 2: the pool (2) is full with their entitlements */
	const uint32_t busy[] = { 0, 8, 16, 20 };
	uint64_t don, unc;

	(void)state;
	up(&s, "{\"id\": 2, \"mode\": \"capped\", \"entitlement\": 1.0},"
	       "{\"id\": 3, \"mode\": \"uncapped\", \"entitlement\": 1.0, \"weight\": 128, \"vps\": 2}", 1);
	for (int i = 0; i < 2000; i++)
		quantum(&s, busy, 4, retired);
	don = part(&s, 0, HVPMU_CEC_L_DONATED);
	unc = part(&s, 2, HVPMU_CEC_L_UNCAPPED);
	/* the uncapped partition's second processor's worth: the lent processor 1 */
	assert_true(don > 0);
	assert_true(don <= unc);
	assert_int_equal(rd(&s, HVPMU_CEC_GRP_PROC, 1, HVPMU_CEC_P_STATE), HVPMU_CEC_BORROWED);
	assert_int_equal(rd(&s, HVPMU_CEC_GRP_PROC, 0, HVPMU_CEC_P_STATE), HVPMU_CEC_DEDICATED);
	assert_int_equal(part(&s, 0, HVPMU_CEC_L_IDLE), 0); /* a donating partition cedes its idle time */
	down(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(catch_up_keeps_checks),
		cmocka_unit_test(capped_waits),
		cmocka_unit_test(weights),
		cmocka_unit_test(donation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
