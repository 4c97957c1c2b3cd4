/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DRAM model of one SPARC T4 MCU: queues, banks, scheduling, and the
 * activity the §10.5 DRAM performance counters count
 * (sparc-t4-performance-instrumentation.md TABLE 10-7).  Policy and
 * definitions: dram.h and docs/dram-model.md.
 *
 * Simulation is event-driven: step() schedules one cycle and then, if
 * nothing could issue, jumps to the next cycle at which something can
 * change (a bank frees or a write starves), accounting the skipped cycles
 * in O(1): during the jump the queues do not change, so each skipped cycle
 * has the same queue depths and is a bank-busy stall.
 */
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "dram.h"

_Static_assert(DRAM_NCHANNELS == HVPMU_T4_MCU_NCHANNELS, "TABLE 10-7 counts two channels");
_Static_assert(DRAM_NPORTS == HVPMU_T4_MCU_NPORTS, "§10.5: four COU ports per MCU");
_Static_assert((1u << DRAM_MCU_BITS) == HVPMU_T4_MCUS_PER_CHIP, "MCU select bits");
_Static_assert(DRAM_DEFAULT_WQ_LOW < DRAM_DEFAULT_WQ_HIGH && DRAM_DEFAULT_WQ_HIGH <= DRAM_WQ_DEPTH,
	       "write-drain watermarks");

/* dram_req.flags */
enum {
	REQ_STARVED = 1u << 0, /* a write that waited write_starve_cycles */
	REQ_URGENT = 1u << 1,  /* a write some read is deferred behind */
	REQ_PROMOTED = REQ_STARVED | REQ_URGENT,
};

#define FIELD(paddr, name) (((paddr) >> DRAM_##name##_SHIFT) & ((1u << DRAM_##name##_BITS) - 1))

void dram_config_default(struct dram_config *cfg)
{
	cfg->bank_busy_cycles = DRAM_DEFAULT_BANK_BUSY_CYCLES;
	cfg->write_starve_cycles = DRAM_DEFAULT_WRITE_STARVE_CYCLES;
	cfg->wq_high = DRAM_DEFAULT_WQ_HIGH;
	cfg->wq_low = DRAM_DEFAULT_WQ_LOW;
}

int dram_init(struct dram *d, const struct dram_config *cfg)
{
	struct dram_config def;

	if (!cfg) {
		dram_config_default(&def);
		cfg = &def;
	}
	if (!d || cfg->bank_busy_cycles == 0 || cfg->write_starve_cycles == 0 || cfg->wq_high > DRAM_WQ_DEPTH ||
	    cfg->wq_low >= cfg->wq_high)
		return HVPMU_EINVAL;
	memset(d, 0, sizeof *d);
	d->cfg = *cfg;
	return HVPMU_OK;
}

void dram_set_issue_hook(struct dram *d, dram_issue_fn fn, void *ctx)
{
	d->issue_fn = fn;
	d->issue_ctx = ctx;
}

void dram_map(uint64_t paddr, struct dram_addr *a)
{
	a->line = paddr >> DRAM_LINE_SHIFT;
	a->mcu = (unsigned)FIELD(paddr, MCU);
	a->port = (unsigned)FIELD(paddr, PORT);
	a->channel = (unsigned)FIELD(paddr, CHANNEL);
	a->bank = (unsigned)FIELD(paddr, BANK);
}

uint64_t dram_now(const struct dram *d) { return d->now; }

unsigned dram_queued(const struct dram *d, int is_write) { return is_write ? d->wq.n : d->rq.n; }

/* `cycles` cycles with the current queue contents. */
static void account(struct dram *d, uint64_t cycles)
{
	for (unsigned p = 0; p < DRAM_NPORTS; p++) {
		d->act.rd_queue_cycles[p] += d->rq.per_port[p] * cycles;
		d->act.wr_queue_cycles[p] += d->wq.per_port[p] * cycles;
	}
}

/* Writes that reach write_starve_cycles of waiting at cycle d->now. */
static void mark_starved(struct dram *d)
{
	for (uint32_t i = 0; i < d->wq.n; i++) {
		struct dram_req *w = &d->wq.e[i];

		if (!(w->flags & REQ_STARVED) && d->now - w->arrival >= d->cfg.write_starve_cycles) {
			w->flags |= REQ_STARVED;
			d->act.write_starved[w->port]++;
		}
	}
}

static int can_issue(const struct dram *d, const struct dram_req *r, unsigned ch)
{
	return r->channel == ch && r->wait_for == 0 && d->bank_free[r->channel][r->bank] <= d->now;
}

/* Oldest request of q on channel ch that can issue and, if `flags` is not
 * 0, has one of `flags`; -1 if none. */
static int oldest(const struct dram *d, const struct dram_queue *q, unsigned ch, unsigned flags)
{
	for (uint32_t i = 0; i < q->n; i++)
		if (can_issue(d, &q->e[i], ch) && (!flags || (q->e[i].flags & flags)))
			return (int)i;
	return -1;
}

/* The request channel ch issues this cycle (dram.h priority), or NULL. */
static struct dram_queue *pick(struct dram *d, unsigned ch, int *idx)
{
	struct dram_queue *first = d->draining ? &d->wq : &d->rq;
	struct dram_queue *second = d->draining ? &d->rq : &d->wq;

	if ((*idx = oldest(d, &d->wq, ch, REQ_PROMOTED)) >= 0)
		return &d->wq;
	if ((*idx = oldest(d, first, ch, 0)) >= 0)
		return first;
	if ((*idx = oldest(d, second, ch, 0)) >= 0)
		return second;
	return NULL;
}

static void issue(struct dram *d, struct dram_queue *q, int idx)
{
	struct dram_req r = q->e[idx];
	int is_write = q == &d->wq;

	d->bank_free[r.channel][r.bank] = d->now + d->cfg.bank_busy_cycles;
	d->act.channel_issued[r.channel]++;
	q->per_port[r.port]--;
	q->n--;
	memmove(&q->e[idx], &q->e[idx + 1], (q->n - (uint32_t)idx) * sizeof q->e[0]);
	if (is_write) /* reads that arrived after it no longer wait for it */
		for (uint32_t i = 0; i < d->rq.n; i++)
			if (d->rq.e[i].line == r.line && d->rq.e[i].seq > r.seq)
				d->rq.e[i].wait_for--;
	if (d->issue_fn)
		d->issue_fn(d->issue_ctx, d->now, r.line << DRAM_LINE_SHIFT, is_write, r.port);
}

/*
 * First cycle >= d->now at which a queue in which nothing could issue last
 * cycle can change: the bank of a queued write, or of a queued read not
 * deferred behind a write, frees (a deferred read can only move after its
 * write issues), or a queued write starves.
 */
static uint64_t next_event(const struct dram *d)
{
	uint64_t next = UINT64_MAX;
	const struct dram_queue *qs[] = { &d->rq, &d->wq };

	for (unsigned k = 0; k < sizeof qs / sizeof qs[0]; k++)
		for (uint32_t i = 0; i < qs[k]->n; i++) {
			const struct dram_req *r = &qs[k]->e[i];
			uint64_t f = d->bank_free[r->channel][r->bank];

			if (r->wait_for == 0 && f < next)
				next = f;
		}
	for (uint32_t i = 0; i < d->wq.n; i++) {
		const struct dram_req *w = &d->wq.e[i];
		uint64_t s = w->arrival + d->cfg.write_starve_cycles;

		if (!(w->flags & REQ_STARVED) && s < next)
			next = s;
	}
	return next < d->now ? d->now : next;
}

/* Simulate cycle d->now and any following cycles in which nothing can
 * change, stopping at `limit` (> d->now). */
static void step(struct dram *d, uint64_t limit)
{
	unsigned issued = 0;
	uint64_t next;

	if (d->rq.n + d->wq.n == 0) { /* idle: nothing to count */
		d->now = limit;
		return;
	}
	mark_starved(d);
	if (d->wq.n >= d->cfg.wq_high)
		d->draining = 1;
	else if (d->wq.n <= d->cfg.wq_low)
		d->draining = 0;
	for (unsigned ch = 0; ch < DRAM_NCHANNELS; ch++) {
		int idx;
		struct dram_queue *q = pick(d, ch, &idx);

		if (q) {
			issue(d, q, idx);
			issued++;
		}
	}
	account(d, 1);
	if (!issued)
		d->act.bank_busy_cycles++;
	d->now++;
	if (issued || d->now >= limit || d->rq.n + d->wq.n == 0)
		return;
	next = next_event(d);
	if (next > limit)
		next = limit;
	account(d, next - d->now);
	d->act.bank_busy_cycles += next - d->now;
	d->now = next;
}

static void run_until(struct dram *d, uint64_t end)
{
	while (d->now < end)
		step(d, end);
}

int dram_request(struct dram *d, uint64_t now_cycle, uint64_t paddr, int is_write, unsigned cou_port)
{
	struct dram_queue *q = is_write ? &d->wq : &d->rq;
	uint32_t depth = is_write ? DRAM_WQ_DEPTH : DRAM_RQ_DEPTH;
	struct dram_addr a;
	struct dram_req *r;

	if (cou_port >= DRAM_NPORTS)
		return HVPMU_EINVAL;
	run_until(d, now_cycle);
	while (q->n == depth) /* back-pressure: wait at the COU port */
		step(d, UINT64_MAX);
	dram_map(paddr, &a);
	r = &q->e[q->n];
	memset(r, 0, sizeof *r);
	r->line = a.line;
	r->arrival = d->now;
	r->seq = d->seq++;
	r->port = (uint8_t)cou_port;
	r->channel = (uint8_t)a.channel;
	r->bank = (uint8_t)a.bank;
	if (is_write) {
		d->act.writes[cou_port]++;
	} else {
		d->act.reads[cou_port]++;
		for (uint32_t i = 0; i < d->wq.n; i++)
			if (d->wq.e[i].line == a.line) {
				r->wait_for++;
				d->wq.e[i].flags |= REQ_URGENT;
			}
		if (r->wait_for)
			d->act.wb_hits[cou_port]++;
	}
	q->per_port[cou_port]++;
	q->n++;
	return HVPMU_OK;
}

void dram_advance(struct dram *d, uint64_t now_cycle, struct hvpmu_t4_mcu_activity *out)
{
	run_until(d, now_cycle);
	if (out) {
		*out = d->act;
		memset(&d->act, 0, sizeof d->act);
	}
}
