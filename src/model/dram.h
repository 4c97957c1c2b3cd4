/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DRAM behind one SPARC T4 memory controller (MCU) (layer 2): the model that
 * produces the events of the MCU DRAM performance counters,
 * sparc-t4-performance-instrumentation.md §10.5 TABLE 10-7 (reads, writes,
 * bank-busy stalls, read/write queue latency, writeback-buffer hits, write
 * starvation, per-channel traffic).  The geometry and the scheduling policy
 * are hvpmu's choices (the spec gives neither); docs/dram-model.md explains
 * them.  Summary:
 *
 *   - 2 channels x 8 banks; one read queue and one write queue per MCU
 *     (DRAM_RQ_DEPTH / DRAM_WQ_DEPTH entries), in arrival order.
 *   - Address mapping of a physical address (dram_map()):
 *       bits  5:0  byte in the 64-byte line
 *       bit   6    MCU of the chip (the caller routes the request)
 *       bits  8:7  COU port: L3 bank b (bits 8:6, one of 8) sends its
 *                  misses to MCU b & 1, port b >> 1.  The caller passes
 *                  the port explicitly; dram_map() suggests this one.
 *       bit   9    channel
 *       bits 12:10 bank
 *   - Each cycle each channel issues at most one request, to a bank that is
 *     not busy; an issue keeps its bank busy for cfg.bank_busy_cycles
 *     (a tRC-like row cycle).  Priority, oldest first within a class:
 *       1. promoted writes: starved ones, and those a read waits for;
 *       2. in write-drain mode: writes, then reads;
 *          otherwise:           reads, then writes (reads first, writes
 *          opportunistically when no read can issue).
 *     Write-drain mode starts when the write queue holds cfg.wq_high
 *     entries and ends when it is down to cfg.wq_low.
 *   - Writeback-buffer hit: a read to a line with a queued write is
 *     deferred until every such write has issued (read-after-write order),
 *     counted once, when the read arrives; those writes are promoted.
 *   - A write starves when it has waited cfg.write_starve_cycles cycles
 *     without issuing; counted once, at that cycle; it is then promoted.
 *   - Queue latency: a request is in its queue from its arrival cycle up
 *     to, not including, its issue cycle (one issued on arrival adds 0).
 *   - Bank-busy stall cycle: a cycle that starts with a request queued and
 *     in which nothing issues (every queued request waits for a busy bank,
 *     directly or through the write it is deferred behind).
 *
 * Time is in processor cycles, non-decreasing across calls.  Requests and
 * advances cost O(queue) per state change; idle time and stretches in
 * which everything waits for a busy bank are jumped over in O(1).  No
 * allocation: a struct dram is plain data.  Deterministic.  Not thread-safe.
 */
#ifndef HVPMU_MODEL_DRAM_H
#define HVPMU_MODEL_DRAM_H

#include <stdint.h>
#include <hvpmu/t4_mcu.h>

/* Address mapping (see above). */
#define DRAM_LINE_SHIFT 6
#define DRAM_MCU_SHIFT 6
#define DRAM_MCU_BITS 1
#define DRAM_PORT_SHIFT 7
#define DRAM_PORT_BITS 2
#define DRAM_CHANNEL_SHIFT 9
#define DRAM_CHANNEL_BITS 1
#define DRAM_BANK_SHIFT 10
#define DRAM_BANK_BITS 3

#define DRAM_NCHANNELS (1u << DRAM_CHANNEL_BITS)
#define DRAM_NBANKS (1u << DRAM_BANK_BITS)    /* banks per channel */
#define DRAM_NPORTS (1u << DRAM_PORT_BITS)

#define DRAM_RQ_DEPTH 32   /* read queue entries */
#define DRAM_WQ_DEPTH 32   /* write queue entries */

/* Defaults (docs/dram-model.md): DDR3-1066 tRC = tRAS 37.5 ns + tRP
 * 13.125 ns = 50.6 ns, at the T4-1's 2.85 GHz = 144 processor cycles. */
#define DRAM_DEFAULT_BANK_BUSY_CYCLES 144
#define DRAM_DEFAULT_WRITE_STARVE_CYCLES (16 * DRAM_DEFAULT_BANK_BUSY_CYCLES)
#define DRAM_DEFAULT_WQ_HIGH 24
#define DRAM_DEFAULT_WQ_LOW 8

struct dram_config {
	uint32_t bank_busy_cycles;    /* >= 1: cycles a bank stays busy after an issue */
	uint32_t write_starve_cycles; /* >= 1: wait after which a queued write has starved */
	uint32_t wq_high;             /* write-drain starts at this many queued writes (<= DRAM_WQ_DEPTH) */
	uint32_t wq_low;              /* and stops at this many (< wq_high) */
};

/* Where an address goes (dram_map()). */
struct dram_addr {
	uint64_t line;     /* paddr >> DRAM_LINE_SHIFT: the unit of writeback matching */
	unsigned mcu;      /* 0 .. HVPMU_T4_MCUS_PER_CHIP-1 within the chip */
	unsigned port;     /* suggested COU port */
	unsigned channel;
	unsigned bank;
};

/* One queued request. */
struct dram_req {
	uint64_t line;
	uint64_t arrival;  /* cycle it entered the queue */
	uint64_t seq;      /* arrival order across both queues */
	uint32_t wait_for; /* reads: queued older writes to the same line */
	uint8_t port, channel, bank, flags;
};

struct dram_queue {
	struct dram_req e[DRAM_RQ_DEPTH > DRAM_WQ_DEPTH ? DRAM_RQ_DEPTH : DRAM_WQ_DEPTH];
	uint32_t n;
	uint32_t per_port[DRAM_NPORTS];
};

/* Called for each issued request (cycle of issue, line address); must not
 * call back into the DRAM model.  Lets a cache model time its fills. */
typedef void (*dram_issue_fn)(void *ctx, uint64_t cycle, uint64_t line_paddr, int is_write, unsigned port);

struct dram {
	struct dram_config cfg;
	uint64_t now;       /* first cycle not simulated yet */
	uint64_t seq;
	int draining;
	uint64_t bank_free[DRAM_NCHANNELS][DRAM_NBANKS]; /* first cycle the bank can issue */
	struct dram_queue rq, wq;
	struct hvpmu_t4_mcu_activity act;  /* since the last dram_advance() */
	dram_issue_fn issue_fn;
	void *issue_ctx;
};

void dram_config_default(struct dram_config *cfg);
/* Reset *d (empty queues, idle banks, cycle 0) with *cfg (NULL: defaults).
 * Returns 0 or HVPMU_EINVAL for an invalid configuration. */
int dram_init(struct dram *d, const struct dram_config *cfg);
void dram_set_issue_hook(struct dram *d, dram_issue_fn fn, void *ctx);

/* Decompose a physical address (mapping above). */
void dram_map(uint64_t paddr, struct dram_addr *a);

/*
 * A read (is_write 0) or write of the line of `paddr` arrives from COU port
 * `cou_port` at cycle `now_cycle`.  The model first simulates the cycles
 * before it.  A request for an earlier cycle than the model has reached
 * arrives at the model's cycle.  If its queue is full the request waits at
 * its COU port: the model simulates until an entry frees, and it enters the
 * queue then (dram_now() tells the caller).  Returns 0, or HVPMU_EINVAL for
 * a port >= DRAM_NPORTS.
 */
int dram_request(struct dram *d, uint64_t now_cycle, uint64_t paddr, int is_write, unsigned cou_port);

/*
 * Simulate every cycle before `now_cycle` and store in *out the activity
 * since the previous dram_advance() (overwriting *out).  With out NULL the
 * activity stays pending for the next call.
 */
void dram_advance(struct dram *d, uint64_t now_cycle, struct hvpmu_t4_mcu_activity *out);

/* First cycle not simulated yet. */
uint64_t dram_now(const struct dram *d);
/* Requests waiting in the read (is_write 0) or write queue. */
unsigned dram_queued(const struct dram *d, int is_write);

#endif
