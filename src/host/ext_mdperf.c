/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run-host extension (extension.h): the SGI Origin Hub MD counters of
 * `hvpmu mdperf`, through the IRIX kernel (irix-mdperf.2,
 * hw-and-hypervisor.md §5): a monitoring process enables the request's
 * node (or the system) and sets with syssgi(SGI_EVENTCTR,
 * MDPERF_NODE_ENABLE), reads every monitored node's values at each tick
 * of the IRIX clock (MDPERF_NODE_GET_COUNT; the kernel's tick path
 * collected them), adds interval rows, and disables at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "extension.h"

/* The monitoring process's buffer for syssgi (a caller address range,
 * hvpmu/irix.h), its identity (root: CAP_DEVICE_MGT, as system mode
 * needs) and the CPU it calls from. */
#define MD_UBASE UINT64_C(0x10000000)
#define MD_UBYTES 512
#define MD_CTRL_UA MD_UBASE
#define MD_VALUES_UA (MD_UBASE + 64)
#define MD_CPU 0

struct mdperf {
	int on;                          /* its ENABLE succeeded */
	struct hvpmu_irix_caller caller;
	struct hvpmu_irix_range range;   /* its address space: mem at MD_UBASE */
	uint8_t mem[MD_UBYTES];
	uint64_t next_sample;            /* strand `first`'s %tick of the next interval row */
};

static int wanted(const struct stat_request *rq) { return rq->mdperf != 0; }
/* the Hub sees the memory traffic */
static unsigned features(const struct stat_request *rq) { (void)rq; return HVPMU_FEAT_MEMORY; }

static struct hvpmu_irix_ret md_syssgi(struct mdperf *d, const struct host_run *r, int64_t cmd, int64_t node,
				       uint64_t ua)
{
	struct hvpmu_irix_ret ret = { -1, HVPMU_IRIX_EINVAL, 0 };

	hvpmu_irix_eventctr(r->hv, MD_CPU, &d->caller, cmd, node, ua, &ret);
	return ret;
}

/* Every monitored node's values (MDPERF_NODE_GET_COUNT) into the result:
 * the kernel's flags are read-to-clear, so the result keeps every flag
 * seen in the run; `final`: DISABLE first (the last collection). */
static void md_read(struct mdperf *d, const struct host_run *r, int final)
{
	struct stat_result *rs = r->rs;
	int node = r->rq->mdperf_node;
	unsigned k = 0;

	if (!d->on)
		return;
	if (final) {
		md_syssgi(d, r, HVPMU_MDPERF_NODE_DISABLE, node, 0);
		d->on = 0;
	}
	for (uint32_t n = 0; n < r->md->chips && k < STAT_MAX_MDNODES; n++) {
		struct hvpmu_md_perf_values v;
		struct stat_mdnode *o = &rs->md[k];
		struct hvpmu_irix_ret ret;

		if (node != HVPMU_IRIX_CNODEID_NONE && (int)n != node)
			continue;
		ret = md_syssgi(d, r, HVPMU_MDPERF_NODE_GET_COUNT, n, MD_VALUES_UA);
		if (ret.ret)
			continue;
		hvpmu_md_perf_values_decode(d->mem + (MD_VALUES_UA - MD_UBASE), &v);
		if (o->node != (int32_t)n || k >= rs->nmdnodes)
			memset(o, 0, sizeof *o);
		o->node = (int32_t)n;
		o->generation = ret.rval;
		for (unsigned set = 0; set < STAT_MD_SETS; set++) {
			for (unsigned c = 0; c < STAT_MD_COUNTERS; c++) {
				o->value[set][c] = v.value[set][c];
				if (v.overflow[set][c])
					o->overflow |= UINT64_C(1) << (set * STAT_MD_COUNTERS + c);
			}
			o->timestamp[set] = v.timestamp[set];
			o->live_ticks[set] = hvpmu_irix_live_ticks(r->hv, (int)n, set);
		}
		k++;
	}
	rs->nmdnodes = k;
	rs->md_ticks = hvpmu_irix_lbolt(r->hv);
}

/* MDPERF_NODE_ENABLE of the request's node (or the system) and sets; a
 * refusal is the errno the tool reports (-1: md_perf.c's raw -1); the
 * values at the start. */
static int start(const struct host_run *r, void **x, char *err, size_t n)
{
	struct mdperf *d = calloc(1, sizeof *d);
	uint32_t ctrl = r->rq->mdperf_sets;
	struct hvpmu_irix_ret ret;

	if (!d) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	d->range = (struct hvpmu_irix_range){ MD_UBASE, d->mem, sizeof d->mem };
	d->caller = (struct hvpmu_irix_caller){ .uid = 0, .caps = HVPMU_IRIX_CAP_DEVICE_MGT,
						.copyin = hvpmu_irix_range_copyin,
						.copyout = hvpmu_irix_range_copyout, .ctx = &d->range };
	d->mem[0] = (uint8_t)(ctrl >> 24);
	d->mem[1] = (uint8_t)(ctrl >> 16);
	d->mem[2] = (uint8_t)(ctrl >> 8);
	d->mem[3] = (uint8_t)ctrl;
	ret = md_syssgi(d, r, HVPMU_MDPERF_NODE_ENABLE, r->rq->mdperf_node, MD_CTRL_UA);
	d->on = ret.ret == 0;
	r->rs->md_errno = ret.ret ? ret.err : 0;
	md_read(d, r, 0);
	*x = d;
	return 0;
}

/* The program's first strand sets the interval rows' clock. */
static void thread_start(void *x, const struct host_run *r, uint32_t strand, uint64_t start_tick)
{
	struct mdperf *d = x;

	if (strand == r->first)
		d->next_sample = start_tick + r->rq->sample_cycles;
}

/* mdperf interval rows: every monitored node's counters at `tick`. */
static void md_sample(const struct host_run *r, uint64_t tick)
{
	const struct stat_result *rs = r->rs;
	struct stat_sample *smp;

	for (unsigned i = 0; i < rs->nmdnodes; i++)
		for (unsigned k = 0; k < STAT_MD_SETS * STAT_MD_COUNTERS && (smp = host_sample_slot(r)); k++) {
			smp->tick = tick;
			smp->dev = k;
			smp->cpu = (unsigned)rs->md[i].node;
			smp->count[0] = rs->md[i].value[k / STAT_MD_COUNTERS][k % STAT_MD_COUNTERS];
			smp->count[1] = (rs->md[i].overflow >> k) & 1;
		}
}

/* A tick of the IRIX clock: the Hub values and the interval rows. */
static void tick(void *x, const struct host_run *r, uint32_t strand, uint64_t t)
{
	struct mdperf *d = x;

	(void)strand;
	md_read(d, r, 0);
	if (r->rq->sample_cycles && t >= d->next_sample) {
		md_sample(r, t);
		while (d->next_sample <= t)
			d->next_sample += r->rq->sample_cycles;
	}
}

static void exec(void *x, const struct host_run *r) { md_read(x, r, 0); }
static void end(void *x, const struct host_run *r) { md_read(x, r, 1); }

const struct host_ext host_ext_mdperf = {
	.name = "mdperf",
	.firmware = HVPMU_FW_IRIX_MDPERF,
	.refusal = "no Hub MD counters on platform ",
	.monitor_ok = 0,
	.wanted = wanted,
	.features = features,
	.start = start,
	.thread_start = thread_start,
	.tick = tick,
	.exec = exec,
	.end = end,
	.destroy = free,
};
