/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cec_feed.h - an explicit feeder for the unit tests of the CEC
 * statistics device and of H_GetPerformanceCounterInfo: it stands in for
 * the hypervisor's dispatcher on the default CEC (hvpmu_cec_default),
 * draws each window's cycles from a seeded generator, feeds them through
 * the device's feeding interface (hvpmu/cec_stats.h) and keeps what it
 * fed in a struct expect for the tests to compare with.  Header-only,
 * for tests that include cmocka.h first.
 */
#ifndef HVPMU_TEST_CEC_FEED_H
#define HVPMU_TEST_CEC_FEED_H

#include <hvpmu/hvpmu.h>

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t rnd(uint64_t n) /* 0..n-1, xorshift64 */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : 0;
}

/* What the feeder fed, to compare with the registers. */
struct expect {
	uint64_t part[HVPMU_CEC_MAX_PARTITIONS][HVPMU_CEC_NPARTITION_FIELDS];
	uint64_t purr[HVPMU_CEC_MAX_PROCS], insns[HVPMU_CEC_MAX_PROCS], cycles[HVPMU_CEC_MAX_PROCS];
	uint64_t link[HVPMU_CEC_MAX_CHIPS][HVPMU_CEC_NCHIP_FIELDS];
};

/* One dispatch window of `w` timebase cycles on the default CEC: the
 * dedicated partition on its 4 processors, the capped partition on pool
 * processors 4-7 within its entitlement, the uncapped one on 8-15 with
 * some cycles beyond it, and on processor 3 lent for part of the window. */
static void window(struct hvpmu_cec_stats *st, const struct hvpmu_cec *cec, struct expect *e, uint64_t *tb,
		   uint64_t w)
{
	*tb += w;
	assert_int_equal(hvpmu_cec_stats_advance(st, *tb), 0);
	for (unsigned p = 0; p < cec->npartitions; p++) {
		uint64_t ent = w * cec->partitions[p].entitlement / HVPMU_CEC_PU;

		assert_int_equal(hvpmu_cec_stats_entitle(st, p, ent), 0);
		e->part[p][HVPMU_CEC_L_ENTITLED] += ent;
	}
	for (unsigned proc = 0; proc < 16; proc++) {
		struct hvpmu_cec_dispatch d = { .proc = proc };
		uint64_t room = w;

		if (proc < 3 || (proc == 3 && rnd(2))) {
			d.part = 0;
			d.capped = w / 4 + rnd(w / 4); /* within 1.00 unit per processor */
		} else if (proc == 3) {
			uint64_t own = rnd(w / 2);

			d.part = 0;
			d.capped = own;
			if (own) {
				assert_int_equal(hvpmu_cec_stats_dispatch(st, &d), 0);
				e->part[0][HVPMU_CEC_L_CAPPED] += own;
				e->purr[proc] += own;
			}
			/* the rest of the window: lent to the uncapped partition */
			assert_int_equal(hvpmu_cec_stats_lend(st, proc, 1), 0);
			d = (struct hvpmu_cec_dispatch){ .proc = proc, .part = 2, .uncapped = rnd(w - own) };
			room = d.uncapped;
			d.idle = rnd(room + 1);
			d.run_cycles = room - d.idle;
			d.run_insns = rnd(2 * d.run_cycles + 1);
			assert_int_equal(hvpmu_cec_stats_dispatch(st, &d), 0);
			e->part[2][HVPMU_CEC_L_UNCAPPED] += d.uncapped;
			e->part[0][HVPMU_CEC_L_DONATED] += d.uncapped;
			assert_int_equal(hvpmu_cec_stats_lend(st, proc, 0), 0);
			goto account;
		} else if (proc < 8) {
			d.part = 1;
			d.capped = w / 2 * 200 / 400 / 2 + rnd(w / 8); /* 2.00 units over 4 VPs */
		} else {
			d.part = 2;
			d.capped = w * 150 / 800 / 2;                 /* half its 1.50 units over 8 VPs */
			d.uncapped = rnd(w / 2);
		}
		room = d.capped + d.uncapped;
		d.idle = rnd(room + 1);
		d.run_cycles = room - d.idle;
		d.run_insns = rnd(2 * d.run_cycles + 1);
		assert_int_equal(hvpmu_cec_stats_dispatch(st, &d), 0);
		e->part[d.part][HVPMU_CEC_L_CAPPED] += d.capped;
		e->part[d.part][HVPMU_CEC_L_UNCAPPED] += d.uncapped;
account:
		e->part[d.part][HVPMU_CEC_L_IDLE] += d.idle;
		e->part[d.part][HVPMU_CEC_L_RUN_INSNS] += d.run_insns;
		e->part[d.part][HVPMU_CEC_L_RUN_CYCLES] += d.run_cycles;
		e->purr[proc] += d.capped + d.uncapped;
		e->insns[proc] += d.run_insns;
		e->cycles[proc] += d.run_cycles;
	}
	for (unsigned c = 0; c < cec->nchips; c++)
		for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++) {
			uint64_t total = rnd(w + 1), idle = rnd(total + 1);

			if (cec->chips[c].link[l] == HVPMU_CEC_LINK_NONE) {
				assert_int_equal(hvpmu_cec_stats_link(st, c, l, idle, total), HVPMU_ERANGE);
				continue;
			}
			assert_int_equal(hvpmu_cec_stats_link(st, c, l, idle, total), 0);
			e->link[c][HVPMU_CEC_C_LINK_IDLE(l)] += idle;
			e->link[c][HVPMU_CEC_C_LINK_TOTAL(l)] += total;
		}
}

#endif
