/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dram.c - the DRAM model of one T4 memory controller
 * (src/model/dram.c, dram.h; docs/dram-model.md), the source of the
 * events of sparc-t4-performance-instrumentation.md §10.5 TABLE 10-7:
 *   - configuration checks and the address mapping;
 *   - scheduling policy: one issue per channel per cycle, bank busy time,
 *     reads first with opportunistic writes, write drain between the
 *     watermarks, promotion of starved writes and of writes a read waits for;
 *   - queue-latency accumulation per COU port (arrival to issue), bank-busy
 *     stall cycles, writeback-buffer hits (deferred reads), write starvation;
 *   - back-pressure when a queue is full, idle jumps, determinism, and
 *     that advancing in one step or cycle by cycle gives the same activity;
 *   - the activity driving the MCU counters (hvpmu/t4_mcu.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include "model/dram.h"

/* Small timing so that schedules are easy to follow by hand. */
#define BUSY 10
#define STARVE 25
#define WQ_HIGH 4
#define WQ_LOW 1
#define ROW_SHIFT (DRAM_BANK_SHIFT + DRAM_BANK_BITS)
#define MAX_LOG 256

struct issue_rec {
	uint64_t cycle;
	uint64_t line_paddr;
	int is_write;
	unsigned port;
};

struct log {
	unsigned n;
	struct issue_rec r[MAX_LOG];
};

static void log_issue(void *ctx, uint64_t cycle, uint64_t line_paddr, int is_write, unsigned port)
{
	struct log *l = ctx;

	assert_true(l->n < MAX_LOG);
	l->r[l->n].cycle = cycle;
	l->r[l->n].line_paddr = line_paddr;
	l->r[l->n].is_write = is_write;
	l->r[l->n].port = port;
	l->n++;
}

/* A physical address on (channel, bank) in row `row`. */
static uint64_t addr(unsigned channel, unsigned bank, uint64_t row)
{
	return (uint64_t)channel << DRAM_CHANNEL_SHIFT | (uint64_t)bank << DRAM_BANK_SHIFT | row << ROW_SHIFT;
}

static void small_init(struct dram *d, struct log *l)
{
	struct dram_config c = { BUSY, STARVE, WQ_HIGH, WQ_LOW };

	assert_int_equal(dram_init(d, &c), HVPMU_OK);
	if (l) {
		memset(l, 0, sizeof *l);
		dram_set_issue_hook(d, log_issue, l);
	}
}

static void check_issue(const struct log *l, unsigned i, uint64_t cycle, uint64_t paddr, int is_write)
{
	assert_true(i < l->n);
	assert_int_equal(l->r[i].cycle, cycle);
	assert_int_equal(l->r[i].line_paddr, paddr >> DRAM_LINE_SHIFT << DRAM_LINE_SHIFT);
	assert_int_equal(l->r[i].is_write, is_write);
}

static uint64_t sum4(const uint64_t *v)
{
	return v[0] + v[1] + v[2] + v[3];
}

/* --- configuration and mapping ------------------------------------------ */

static void test_config_and_map(void **state)
{
	struct dram d;
	struct dram_config c;
	struct dram_addr a;
	uint64_t pa;

	(void)state;
	dram_config_default(&c);
	assert_int_equal(c.bank_busy_cycles, DRAM_DEFAULT_BANK_BUSY_CYCLES);
	assert_int_equal(c.write_starve_cycles, DRAM_DEFAULT_WRITE_STARVE_CYCLES);
	assert_int_equal(c.wq_high, DRAM_DEFAULT_WQ_HIGH);
	assert_int_equal(c.wq_low, DRAM_DEFAULT_WQ_LOW);
	assert_int_equal(dram_init(&d, NULL), HVPMU_OK);
	assert_int_equal(d.cfg.bank_busy_cycles, DRAM_DEFAULT_BANK_BUSY_CYCLES);
	assert_int_equal(dram_now(&d), 0);
	assert_int_equal(dram_queued(&d, 0), 0);
	assert_int_equal(dram_queued(&d, 1), 0);

	/* invalid configurations */
	c.bank_busy_cycles = 0;
	assert_int_equal(dram_init(&d, &c), HVPMU_EINVAL);
	dram_config_default(&c);
	c.write_starve_cycles = 0;
	assert_int_equal(dram_init(&d, &c), HVPMU_EINVAL);
	dram_config_default(&c);
	c.wq_high = DRAM_WQ_DEPTH + 1;
	assert_int_equal(dram_init(&d, &c), HVPMU_EINVAL);
	dram_config_default(&c);
	c.wq_low = c.wq_high;
	assert_int_equal(dram_init(&d, &c), HVPMU_EINVAL);
	assert_int_equal(dram_init(NULL, NULL), HVPMU_EINVAL);

	/* geometry: 2 channels x 8 banks, 4 COU ports, 2 MCUs per chip */
	assert_int_equal(DRAM_NCHANNELS, HVPMU_T4_MCU_NCHANNELS);
	assert_int_equal(DRAM_NBANKS, 8);
	assert_int_equal(DRAM_NPORTS, HVPMU_T4_MCU_NPORTS);
	/* mapping: 5:0 byte, 6 MCU, 8:7 port, 9 channel, 12:10 bank */
	pa = UINT64_C(0x123) << 13 | UINT64_C(5) << 10 | UINT64_C(1) << 9 | UINT64_C(2) << 7 | UINT64_C(1) << 6 | 0x3f;
	dram_map(pa, &a);
	assert_int_equal(a.line, pa >> 6);
	assert_int_equal(a.mcu, 1);
	assert_int_equal(a.port, 2);
	assert_int_equal(a.channel, 1);
	assert_int_equal(a.bank, 5);
	dram_map(0, &a);
	assert_int_equal(a.line | a.mcu | a.port | a.channel | a.bank, 0);
	/* L3 bank b (bits 8:6) -> MCU b & 1, port b >> 1 */
	for (unsigned b = 0; b < 8; b++) {
		dram_map((uint64_t)b << 6, &a);
		assert_int_equal(a.mcu, b & 1);
		assert_int_equal(a.port, b >> 1);
	}
}

static void test_bad_port(void **state)
{
	struct dram d;
	struct hvpmu_t4_mcu_activity a;

	(void)state;
	small_init(&d, NULL);
	assert_int_equal(dram_request(&d, 0, 0, 0, DRAM_NPORTS), HVPMU_EINVAL);
	assert_int_equal(dram_request(&d, 0, 0, 1, ~0u), HVPMU_EINVAL);
	assert_int_equal(dram_queued(&d, 0) + dram_queued(&d, 1), 0);
	dram_advance(&d, 100, &a);
	assert_int_equal(sum4(a.reads) + sum4(a.writes), 0);
}

/* --- scheduling --------------------------------------------------------- */

/* A read to an idle bank issues in its arrival cycle: no queue latency. */
static void test_read_on_arrival(void **state)
{
	struct dram d;
	struct log l;
	struct hvpmu_t4_mcu_activity a;

	(void)state;
	small_init(&d, &l);
	assert_int_equal(dram_request(&d, 100, addr(1, 3, 7) | 0x28, 0, 2), HVPMU_OK);
	assert_int_equal(dram_queued(&d, 0), 1);
	dram_advance(&d, 100, &a); /* cycle 100 not simulated yet */
	assert_int_equal(l.n, 0);
	assert_int_equal(a.reads[2], 1);
	dram_advance(&d, 101, &a);
	assert_int_equal(l.n, 1);
	check_issue(&l, 0, 100, addr(1, 3, 7), 0);
	assert_int_equal(l.r[0].port, 2);
	assert_int_equal(a.reads[2], 0); /* activity is per interval */
	assert_int_equal(a.channel_issued[1], 1);
	assert_int_equal(a.channel_issued[0], 0);
	assert_int_equal(sum4(a.rd_queue_cycles), 0);
	assert_int_equal(a.bank_busy_cycles, 0);
	assert_int_equal(dram_queued(&d, 0), 0);
}

/* Same bank: the second waits out the bank busy time.  Same channel,
 * other bank: one cycle later (one issue per channel per cycle).  Other
 * channel: same cycle. */
static void test_bank_conflict(void **state)
{
	struct dram d;
	struct log l;
	struct hvpmu_t4_mcu_activity a;

	(void)state;
	small_init(&d, &l);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);
	dram_request(&d, 0, addr(0, 0, 2), 0, 1);
	dram_advance(&d, 1000, &a);
	assert_int_equal(l.n, 2);
	check_issue(&l, 0, 0, addr(0, 0, 1), 0);
	check_issue(&l, 1, BUSY, addr(0, 0, 2), 0);
	assert_int_equal(a.rd_queue_cycles[0], 0);
	assert_int_equal(a.rd_queue_cycles[1], BUSY);
	assert_int_equal(a.bank_busy_cycles, BUSY - 1); /* cycles 1..BUSY-1 */
	assert_int_equal(a.channel_issued[0], 2);

	small_init(&d, &l);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);
	dram_request(&d, 0, addr(0, 1, 1), 0, 0);
	dram_advance(&d, 1000, &a);
	check_issue(&l, 0, 0, addr(0, 0, 1), 0);
	check_issue(&l, 1, 1, addr(0, 1, 1), 0);
	assert_int_equal(a.rd_queue_cycles[0], 1);
	assert_int_equal(a.bank_busy_cycles, 0);

	small_init(&d, &l);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);
	dram_request(&d, 0, addr(1, 0, 1), 0, 3);
	dram_advance(&d, 1000, &a);
	check_issue(&l, 0, 0, addr(0, 0, 1), 0);
	check_issue(&l, 1, 0, addr(1, 0, 1), 0);
	assert_int_equal(sum4(a.rd_queue_cycles), 0);
	assert_int_equal(a.channel_issued[0], 1);
	assert_int_equal(a.channel_issued[1], 1);
}

/* Reads first; a write goes when no read can. */
static void test_reads_first(void **state)
{
	struct dram d;
	struct log l;
	struct hvpmu_t4_mcu_activity a;

	(void)state;
	small_init(&d, &l);
	dram_request(&d, 0, addr(0, 0, 1), 1, 0); /* write arrives first */
	dram_request(&d, 0, addr(0, 1, 1), 0, 0);
	dram_advance(&d, 100, &a);
	check_issue(&l, 0, 0, addr(0, 1, 1), 0);
	check_issue(&l, 1, 1, addr(0, 0, 1), 1);
	assert_int_equal(a.wr_queue_cycles[0], 1);
	assert_int_equal(a.rd_queue_cycles[0], 0);
	assert_int_equal(a.writes[0], 1);
	assert_int_equal(a.reads[0], 1);

	/* opportunistic write: the only read waits for its bank */
	small_init(&d, &l);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);
	dram_request(&d, 1, addr(0, 0, 2), 0, 0);
	dram_request(&d, 1, addr(0, 1, 2), 1, 0);
	dram_advance(&d, 100, &a);
	check_issue(&l, 0, 0, addr(0, 0, 1), 0);
	check_issue(&l, 1, 1, addr(0, 1, 2), 1);
	check_issue(&l, 2, BUSY, addr(0, 0, 2), 0);
}

/* At WQ_HIGH queued writes the scheduler drains writes first until WQ_LOW. */
static void test_write_drain(void **state)
{
	struct dram d;
	struct log l;
	struct hvpmu_t4_mcu_activity a;
	static const int order[] = { 1, 1, 1, 0, 0, 0, 0, 1 };

	(void)state;
	small_init(&d, &l);
	for (unsigned i = 0; i < WQ_HIGH; i++)
		dram_request(&d, 0, addr(0, i, 1), 1, i);
	for (unsigned i = 0; i < WQ_HIGH; i++)
		dram_request(&d, 0, addr(0, WQ_HIGH + i, 1), 0, i);
	dram_advance(&d, 100, &a);
	assert_int_equal(l.n, sizeof order / sizeof order[0]);
	for (unsigned i = 0; i < l.n; i++) {
		assert_int_equal(l.r[i].cycle, i);
		assert_int_equal(l.r[i].is_write, order[i]);
	}
	/* writes left in age order: the last one is the youngest */
	check_issue(&l, 7, 7, addr(0, WQ_HIGH - 1, 1), 1);
	/* reads waited 3, 3, 3, 3 + 1, 2, 3 ... : read i issued at 3 + i */
	for (unsigned p = 0; p < 4; p++) {
		assert_int_equal(a.rd_queue_cycles[p], 3 + p);
		assert_int_equal(a.wr_queue_cycles[p], p < WQ_HIGH - 1 ? p : 7);
	}
	assert_int_equal(a.bank_busy_cycles, 0);

	/* below the high watermark reads go first */
	small_init(&d, &l);
	for (unsigned i = 0; i < WQ_HIGH - 1; i++)
		dram_request(&d, 0, addr(0, i, 1), 1, 0);
	dram_request(&d, 0, addr(0, 7, 1), 0, 0);
	dram_advance(&d, 100, NULL);
	assert_int_equal(l.r[0].is_write, 0);
}

/* A read to a line with a queued write is deferred until the write issues
 * (one writeback-buffer hit); the write is promoted over older reads. */
static void test_writeback_hit(void **state)
{
	struct dram d;
	struct log l;
	struct hvpmu_t4_mcu_activity a0, a;

	(void)state;
	small_init(&d, &l);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);          /* A: issues at 0, bank 0 busy to BUSY */
	dram_request(&d, 1, addr(0, 0, 2), 1, 1);          /* W */
	dram_request(&d, 2, addr(0, 0, 2) | 0x10, 0, 2);   /* R: same line as W -> hit */
	dram_request(&d, 2, addr(0, 0, 3), 0, 3);          /* R2: other line, same bank */
	dram_advance(&d, 3, &a0);
	assert_int_equal(a0.wb_hits[2], 1);
	assert_int_equal(sum4(a0.wb_hits), 1);
	dram_advance(&d, 1000, &a);
	assert_int_equal(l.n, 4);
	check_issue(&l, 0, 0, addr(0, 0, 1), 0);
	check_issue(&l, 1, BUSY, addr(0, 0, 2), 1);       /* promoted over R2 */
	check_issue(&l, 2, 2 * BUSY, addr(0, 0, 2), 0);   /* R after W, before younger R2 */
	check_issue(&l, 3, 3 * BUSY, addr(0, 0, 3), 0);
	assert_int_equal(sum4(a.wb_hits), 0);
	/* waits: W 1 -> BUSY, R 2 -> 2 BUSY, R2 2 -> 3 BUSY, over both intervals */
	assert_int_equal(a0.wr_queue_cycles[1] + a.wr_queue_cycles[1], BUSY - 1);
	assert_int_equal(a0.rd_queue_cycles[2] + a.rd_queue_cycles[2], 2 * BUSY - 2);
	assert_int_equal(a0.rd_queue_cycles[3] + a.rd_queue_cycles[3], 3 * BUSY - 2);

	/* once the write has issued, a read of its line is no hit */
	dram_request(&d, 2000, addr(0, 0, 2), 0, 2);
	dram_advance(&d, 3000, &a);
	assert_int_equal(sum4(a.wb_hits), 0);

	/* two queued writes to the line: the read waits for both, counts once */
	small_init(&d, &l);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);
	dram_request(&d, 1, addr(0, 0, 2), 1, 0);
	dram_request(&d, 1, addr(0, 0, 2), 1, 0);
	dram_request(&d, 2, addr(0, 0, 2), 0, 1);
	dram_advance(&d, 1000, &a);
	assert_int_equal(a.wb_hits[1], 1);
	check_issue(&l, 1, BUSY, addr(0, 0, 2), 1);
	check_issue(&l, 2, 2 * BUSY, addr(0, 0, 2), 1);
	check_issue(&l, 3, 3 * BUSY, addr(0, 0, 2), 0);

	/* a read that arrived before the write is not held back by it */
	small_init(&d, &l);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);
	dram_request(&d, 1, addr(0, 0, 2), 0, 0);
	dram_request(&d, 1, addr(0, 0, 2), 1, 0);
	dram_advance(&d, 1000, &a);
	assert_int_equal(sum4(a.wb_hits), 0);
	check_issue(&l, 1, BUSY, addr(0, 0, 2), 0);
	check_issue(&l, 2, 2 * BUSY, addr(0, 0, 2), 1);
}

/* A write waiting STARVE cycles starves once, at that cycle, and is then
 * promoted over the reads that kept its bank busy. */
static void test_write_starvation(void **state)
{
	struct dram d;
	struct log l;
	struct hvpmu_t4_mcu_activity a;

	(void)state;
	small_init(&d, &l);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);  /* A @0 */
	dram_request(&d, 0, addr(0, 0, 2), 1, 3);  /* W: waits behind reads */
	dram_request(&d, 1, addr(0, 0, 3), 0, 0);  /* R1 @10 */
	dram_request(&d, 1, addr(0, 0, 4), 0, 0);  /* R2 @20 */
	dram_request(&d, 1, addr(0, 0, 5), 0, 0);  /* R3: after W */
	dram_advance(&d, STARVE, &a);
	assert_int_equal(sum4(a.write_starved), 0);
	dram_advance(&d, STARVE + 1, &a);
	assert_int_equal(a.write_starved[3], 1);
	assert_int_equal(sum4(a.write_starved), 1);
	dram_advance(&d, 1000, &a);
	assert_int_equal(sum4(a.write_starved), 0); /* counted once */
	assert_int_equal(l.n, 5);
	check_issue(&l, 1, BUSY, addr(0, 0, 3), 0);
	check_issue(&l, 2, 2 * BUSY, addr(0, 0, 4), 0);
	check_issue(&l, 3, 3 * BUSY, addr(0, 0, 2), 1);
	check_issue(&l, 4, 4 * BUSY, addr(0, 0, 5), 0);

	/* a write issued after waiting fewer than write_starve_cycles never
	 * starves; one still queued when its wait reaches them has starved */
	{
		struct dram_config c = { BUSY, BUSY + 1, WQ_HIGH, WQ_LOW };

		assert_int_equal(dram_init(&d, &c), HVPMU_OK);
		dram_request(&d, 0, addr(0, 0, 1), 0, 0);
		dram_request(&d, 0, addr(0, 0, 2), 1, 0);
		dram_advance(&d, 1000, &a);
		assert_int_equal(sum4(a.write_starved), 0);
		assert_int_equal(a.wr_queue_cycles[0], BUSY);
		c.write_starve_cycles = BUSY;
		assert_int_equal(dram_init(&d, &c), HVPMU_OK);
		dram_request(&d, 0, addr(0, 0, 1), 0, 0);
		dram_request(&d, 0, addr(0, 0, 2), 1, 0);
		dram_advance(&d, 1000, &a);
		assert_int_equal(a.write_starved[0], 1);
	}
}

/* Queue latency adds the queue depth per port each cycle; bank-busy stall
 * cycles are the cycles with requests queued and none issuing. */
#define LONG_BUSY 1000
#define LATE 500

static void test_queue_latency(void **state)
{
	struct dram d;
	struct hvpmu_t4_mcu_activity a;
	struct dram_config c = { LONG_BUSY, 100 * LONG_BUSY, WQ_HIGH, WQ_LOW };

	(void)state;
	assert_int_equal(dram_init(&d, &c), HVPMU_OK);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);    /* R0 issues at 0 */
	dram_request(&d, 0, addr(0, 0, 2), 0, 1);    /* R1 at LONG_BUSY */
	dram_request(&d, 0, addr(0, 0, 3), 1, 2);    /* W: reads first, at 3 LONG_BUSY */
	dram_request(&d, LATE, addr(0, 0, 4), 0, 1); /* R3 at 2 LONG_BUSY */
	dram_advance(&d, LATE, &a);
	/* cycles 0 .. LATE-1: R1 and W queued throughout; cycle 0 issued R0 */
	assert_int_equal(a.rd_queue_cycles[1], LATE);
	assert_int_equal(a.wr_queue_cycles[2], LATE);
	assert_int_equal(a.rd_queue_cycles[0], 0);
	assert_int_equal(a.bank_busy_cycles, LATE - 1);
	assert_int_equal(a.channel_issued[0], 1);
	dram_advance(&d, 10 * LONG_BUSY, &a);
	/* R1 waited LONG_BUSY, R3 2 LONG_BUSY - LATE, W 3 LONG_BUSY */
	assert_int_equal(a.rd_queue_cycles[1], LONG_BUSY - LATE + 2 * LONG_BUSY - LATE);
	assert_int_equal(a.wr_queue_cycles[2], 3 * LONG_BUSY - LATE);
	assert_int_equal(a.rd_queue_cycles[0] + a.rd_queue_cycles[2] + a.rd_queue_cycles[3], 0);
	assert_int_equal(a.wr_queue_cycles[0] + a.wr_queue_cycles[1] + a.wr_queue_cycles[3], 0);
	/* stalls: cycles 1 .. 3 LONG_BUSY - 1 but the two issue cycles */
	assert_int_equal(a.bank_busy_cycles, 3 * LONG_BUSY - 1 - 2 - (LATE - 1));
	assert_int_equal(a.channel_issued[0], 3);
	assert_int_equal(sum4(a.reads), 0); /* R3 was accepted in the first interval */
	assert_int_equal(dram_queued(&d, 0) + dram_queued(&d, 1), 0);
}

/* Idle time and long stalls are jumped over, not stepped through. */
static void test_jumps(void **state)
{
	struct dram d;
	struct hvpmu_t4_mcu_activity a;
	struct dram_config c = { UINT32_MAX, UINT32_MAX, WQ_HIGH, WQ_LOW };
	const uint64_t far = UINT64_C(1) << 50;

	(void)state;
	assert_int_equal(dram_init(&d, &c), HVPMU_OK);
	dram_advance(&d, far, &a);
	assert_int_equal(dram_now(&d), far);
	dram_request(&d, far, addr(0, 0, 1), 0, 0);
	dram_request(&d, far, addr(0, 0, 2), 0, 1);
	dram_advance(&d, far + 2 * (uint64_t)UINT32_MAX + 1, &a);
	assert_int_equal(a.rd_queue_cycles[1], UINT32_MAX);
	assert_int_equal(a.bank_busy_cycles, (uint64_t)UINT32_MAX - 1);
	assert_int_equal(a.channel_issued[0], 2);
	/* time never goes back: an advance to the past does nothing */
	dram_advance(&d, 5, &a);
	assert_int_equal(dram_now(&d), far + 2 * (uint64_t)UINT32_MAX + 1);
}

/* A full queue holds the request at its port until an entry frees; later
 * requests for earlier cycles arrive at the model's cycle. */
static void test_backpressure(void **state)
{
	struct dram d;
	struct log l;
	struct hvpmu_t4_mcu_activity a;

	(void)state;
	small_init(&d, &l);
	for (unsigned i = 0; i < DRAM_RQ_DEPTH; i++)
		assert_int_equal(dram_request(&d, 0, addr(0, 0, i), 0, 0), HVPMU_OK);
	assert_int_equal(dram_queued(&d, 0), DRAM_RQ_DEPTH);
	assert_int_equal(dram_now(&d), 0);
	assert_int_equal(dram_request(&d, 0, addr(0, 0, 100), 0, 1), HVPMU_OK);
	assert_int_equal(dram_now(&d), 1); /* cycle 0 issued one read */
	assert_int_equal(dram_queued(&d, 0), DRAM_RQ_DEPTH);
	assert_int_equal(l.n, 1);
	/* full again: the next slot frees at cycle BUSY */
	assert_int_equal(dram_request(&d, 0, addr(1, 0, 100), 0, 2), HVPMU_OK);
	assert_int_equal(dram_now(&d), BUSY + 1);
	dram_advance(&d, UINT64_C(1) << 20, &a);
	assert_int_equal(sum4(a.reads), DRAM_RQ_DEPTH + 2);
	assert_int_equal(a.channel_issued[0] + a.channel_issued[1], DRAM_RQ_DEPTH + 2);
	/* the read on channel 1 entered at BUSY + 1 and issued at once */
	for (unsigned i = 0; i < l.n; i++)
		if (l.r[i].port == 2)
			assert_int_equal(l.r[i].cycle, BUSY + 1);
	assert_int_equal(a.rd_queue_cycles[2], 0);

	/* the write queue too */
	small_init(&d, &l);
	for (unsigned i = 0; i <= DRAM_WQ_DEPTH; i++)
		assert_int_equal(dram_request(&d, 0, addr(0, 0, i), 1, 0), HVPMU_OK);
	assert_int_equal(dram_now(&d), 1);
	assert_int_equal(dram_queued(&d, 1), DRAM_WQ_DEPTH);
}

/* --- whole-run properties ----------------------------------------------- */

struct lcg {
	uint64_t s;
};

static uint32_t lcg_next(struct lcg *g)
{
	g->s = g->s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
	return (uint32_t)(g->s >> 33);
}

#define RUN_REQS 2000
#define RUN_END 1000000

static void add_act(struct hvpmu_t4_mcu_activity *t, const struct hvpmu_t4_mcu_activity *a)
{
	for (unsigned p = 0; p < HVPMU_T4_MCU_NPORTS; p++) {
		t->reads[p] += a->reads[p];
		t->writes[p] += a->writes[p];
		t->rd_queue_cycles[p] += a->rd_queue_cycles[p];
		t->wr_queue_cycles[p] += a->wr_queue_cycles[p];
		t->wb_hits[p] += a->wb_hits[p];
		t->write_starved[p] += a->write_starved[p];
	}
	for (unsigned ch = 0; ch < HVPMU_T4_MCU_NCHANNELS; ch++)
		t->channel_issued[ch] += a->channel_issued[ch];
	t->bank_busy_cycles += a->bank_busy_cycles;
}

/* A mixed random workload on a few hot lines of four banks per channel
 * (bank conflicts, writeback hits, starvation, drains); mostly `gap`
 * cycles or less between requests (1: bursts that fill the queues).
 * `stride` 0 advances once at the end, otherwise every `stride` cycles
 * (stride 1: the cycle-by-cycle path, no jumps). */
static void run_workload(uint64_t seed, uint64_t stride, uint32_t gap, struct hvpmu_t4_mcu_activity *total)
{
	struct dram d;
	struct dram_config c = { 37, 400, 12, 4 };
	struct lcg g = { seed };
	struct hvpmu_t4_mcu_activity a;
	uint64_t t = 0, adv = 0;

	memset(total, 0, sizeof *total);
	assert_int_equal(dram_init(&d, &c), HVPMU_OK);
	for (unsigned i = 0; i < RUN_REQS; i++) {
		uint32_t r = lcg_next(&g), x = lcg_next(&g);
		uint64_t pa = addr(x & 1, (x >> 1) % 4, (x >> 3) % 4);

		t += (r & 0xf) == 0 ? r % 300 : r % gap;
		while (stride && adv + stride <= t) {
			adv += stride;
			dram_advance(&d, adv, &a);
			add_act(total, &a);
		}
		assert_int_equal(dram_request(&d, t, pa, (r >> 8) % 3 == 0, (r >> 12) % 4), HVPMU_OK);
	}
	while (stride && adv + stride <= RUN_END) {
		adv += stride;
		dram_advance(&d, adv, &a);
		add_act(total, &a);
	}
	dram_advance(&d, RUN_END, &a);
	add_act(total, &a);
	assert_int_equal(dram_queued(&d, 0) + dram_queued(&d, 1), 0);
}

#define GAP_LIGHT 4
#define GAP_BURST 1

static void test_determinism_and_jumps(void **state)
{
	struct hvpmu_t4_mcu_activity a1, a2, a3, a4;
	static const uint32_t gaps[] = { GAP_LIGHT, GAP_BURST };

	(void)state;
	for (unsigned k = 0; k < sizeof gaps / sizeof gaps[0]; k++) {
		run_workload(1, 0, gaps[k], &a1);
		run_workload(1, 0, gaps[k], &a2);
		assert_memory_equal(&a1, &a2, sizeof a1);
		/* stepping every cycle gives what the event jumps give */
		run_workload(1, 1, gaps[k], &a3);
		assert_memory_equal(&a1, &a3, sizeof a1);
		run_workload(1, 97, gaps[k], &a4);
		assert_memory_equal(&a1, &a4, sizeof a1);
		/* conservation: every accepted request issued once */
		assert_int_equal(sum4(a1.reads) + sum4(a1.writes), RUN_REQS);
		assert_int_equal(a1.channel_issued[0] + a1.channel_issued[1], RUN_REQS);
		/* the workload exercises every event kind */
		assert_true(sum4(a1.wb_hits) > 0);
		assert_true(sum4(a1.write_starved) > 0);
		assert_true(a1.bank_busy_cycles > 0);
		assert_true(sum4(a1.rd_queue_cycles) > 0 && sum4(a1.wr_queue_cycles) > 0);
		/* another seed differs */
		run_workload(2, 0, gaps[k], &a2);
		assert_memory_not_equal(&a1, &a2, sizeof a1);
	}
}

/* The issue log is the same on two runs (a short prefix that fits it). */
static void test_issue_log_deterministic(void **state)
{
	static struct log l1, l2;
	struct dram d1, d2;
	struct lcg g1 = { 7 }, g2 = { 7 };

	(void)state;
	small_init(&d1, &l1);
	small_init(&d2, &l2);
	for (unsigned i = 0; i < MAX_LOG; i++) {
		uint32_t r1 = lcg_next(&g1), r2 = lcg_next(&g2);

		dram_request(&d1, i * 3, (uint64_t)r1 << DRAM_LINE_SHIFT, r1 & 1, (r1 >> 4) & 3);
		dram_request(&d2, i * 3, (uint64_t)r2 << DRAM_LINE_SHIFT, r2 & 1, (r2 >> 4) & 3);
	}
	dram_advance(&d1, UINT64_C(1) << 32, NULL);
	dram_advance(&d2, UINT64_C(1) << 32, NULL);
	assert_int_equal(l1.n, MAX_LOG);
	assert_int_equal(l2.n, MAX_LOG);
	assert_memory_equal(l1.r, l2.r, sizeof l1.r);
	/* issue cycles never go back */
	for (unsigned i = 1; i < l1.n; i++)
		assert_true(l1.r[i].cycle >= l1.r[i - 1].cycle);
}

/* The model's activity drives the MCU counters: TABLE 10-7 sel 0xB/0xC and
 * 0/1/4. */
static void test_drives_mcu(void **state)
{
	struct dram d;
	struct hvpmu_t4_mcu *mcu = hvpmu_t4_mcu_create();
	struct hvpmu_t4_mcu_activity a;
	uint64_t ctl = 0;

	(void)state;
	assert_non_null(mcu);
	small_init(&d, NULL);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL0, HVPMU_T4_DRAM_SEL_READS);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL1, HVPMU_T4_DRAM_SEL_RD_QUEUE_LAT);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL2, HVPMU_T4_DRAM_SEL_CHANNEL0);
	ctl = HVPMU_FDP(ctl, T4_DRAM_CTL, SEL3, HVPMU_T4_DRAM_SEL_CHANNEL1);
	assert_int_equal(hvpmu_t4_mcu_write(mcu, HVPMU_T4_MCU_CTL, ctl), HVPMU_OK);
	dram_request(&d, 0, addr(0, 0, 1), 0, 0);
	dram_request(&d, 0, addr(0, 0, 2), 0, 1);
	dram_request(&d, 0, addr(1, 0, 1), 1, 2);
	dram_advance(&d, 100, &a);
	assert_int_equal(hvpmu_t4_mcu_count(mcu, &a), 0);
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 0), 1);    /* port 0 reads */
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 1), BUSY); /* port 1 read waited BUSY */
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 2), 2);    /* channel 0 */
	assert_int_equal(hvpmu_t4_mcu_peek_counter(mcu, 3), 1);    /* channel 1 */
	hvpmu_t4_mcu_destroy(mcu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_and_map),
		cmocka_unit_test(test_bad_port),
		cmocka_unit_test(test_read_on_arrival),
		cmocka_unit_test(test_bank_conflict),
		cmocka_unit_test(test_reads_first),
		cmocka_unit_test(test_write_drain),
		cmocka_unit_test(test_writeback_hit),
		cmocka_unit_test(test_write_starvation),
		cmocka_unit_test(test_queue_latency),
		cmocka_unit_test(test_jumps),
		cmocka_unit_test(test_backpressure),
		cmocka_unit_test(test_determinism_and_jumps),
		cmocka_unit_test(test_issue_log_deterministic),
		cmocka_unit_test(test_drives_mcu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
