/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run-host extension (extension.h): the sun4v MMU statistics of `hvpmu
 * mmustat` -- the guest OS gives each CPU a buffer in its real memory
 * when the CPU's first thread starts (NIAGARA_MMUSTAT_CONF,
 * niagara-mmustat-api.txt), reads it at every OS tick and at the end
 * through the hypervisor (NIAGARA_MMUSTAT_INFO gives its address), and
 * stops it at the end.  A refusal is reported by the tool through the
 * result's hv_status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "extension.h"

/* Guest real addresses of the per-CPU MMU-statistics buffers (in the
 * machine description's first memory segment; 64-byte aligned). */
#define MMUSTAT_RA UINT64_C(0x100000)
#define MMUSTAT_STRIDE 0x200

struct mmustat {
	struct stat_mmu mmu[STAT_MAX_CPUS];     /* by strand: the buffer as last read */
	struct stat_mmu pub[STAT_MAX_CPUS];     /* those of the CPUs with a buffer, in strand order */
	uint8_t on[STAT_MAX_CPUS];              /* the strand's buffer is registered */
};

static int wanted(const struct stat_request *rq) { return rq->mmustat != 0; }
/* the TSB walks the statistics count */
static unsigned features(const struct stat_request *rq) { (void)rq; return HVPMU_FEAT_MEMORY; }

static int start(const struct host_run *r, void **x, char *err, size_t n)
{
	(void)r;
	if (!(*x = calloc(1, sizeof(struct mmustat)))) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	return 0;
}

static void thread_start(void *x, const struct host_run *r, uint32_t strand, uint64_t start_tick)
{
	struct mmustat *u = x;

	(void)start_tick;
	if (strand < STAT_MAX_CPUS)
		u->on[strand] = 0;
	if (r->sv && !hvpmu_sv_mmustat_start(r->sv, strand, MMUSTAT_RA + MMUSTAT_STRIDE * (uint64_t)strand) &&
	    strand < STAT_MAX_CPUS) {
		u->on[strand] = 1;
		u->mmu[strand].cpu = strand;
	}
}

/* The strand's buffer, read through the hypervisor (the counts as of
 * this tick, for the tool whatever happens next). */
static void tick(void *x, const struct host_run *r, uint32_t strand, uint64_t t)
{
	struct mmustat *u = x;

	(void)t;
	if (!r->publishing || strand >= STAT_MAX_CPUS || !u->on[strand])
		return;
	if (hvpmu_sv_mmustat_read(r->sv, strand, u->mmu[strand].words))
		memset(u->mmu[strand].words, 0, sizeof u->mmu[strand].words);
}

/* The final read of every CPU's buffer: the ones the hypervisor answers
 * are reported (on a platform without the service the read's refusal is
 * the status the tool shows). */
static void end(void *x, const struct host_run *r)
{
	struct mmustat *u = x;

	for (uint32_t k = r->first; r->sv && k < r->first + r->nown && k < STAT_MAX_CPUS; k++)
		if (host_strand_started(r, k)) {
			u->on[k] = !hvpmu_sv_mmustat_read(r->sv, k, u->mmu[k].words);
			u->mmu[k].cpu = k;
			if (u->on[k])
				hvpmu_sv_mmustat_stop(r->sv, k);
		}
}

static void publish(void *x, const struct host_run *r, struct stat_result *rs)
{
	struct mmustat *u = x;

	rs->mmu = u->pub;
	rs->nmmu = 0;
	for (uint32_t k = r->first; k < r->first + r->nown && k < STAT_MAX_CPUS; k++)
		if (host_strand_started(r, k) && u->on[k])
			u->pub[rs->nmmu++] = u->mmu[k];
}

const struct host_ext host_ext_mmustat = {
	.name = "mmustat",
	/* the MMU statistics are a sun4v hypervisor service */
	.firmware = HVPMU_FW_SUN4V_CORE,
	.refusal = "no hypervisor counter services on platform ",
	.monitor_ok = 0,
	.wanted = wanted,
	.features = features,
	.start = start,
	.thread_start = thread_start,
	.tick = tick,
	.end = end,
	.publish = publish,
	.destroy = free,
};
