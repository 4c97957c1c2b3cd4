/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run-host extension (extension.h): `hvpmu stat -p power -e
 * hv_gpci/.../` -- the partition's OS reads every hv_gpci event as
 * Linux's hv_gpci does (linux-clients.md §2.4: single_gpci_request,
 * `length` bytes at `offset`, big-endian; counting is delta-based): when
 * the program starts the values it subtracts, at its end the counts.  A
 * read the hypervisor refuses marks the event not supported with its
 * status (the first refusal).  Also a service's one-shot request for
 * `hvpmu gpci --service` (hvpmu_session_gpci).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "extension.h"

struct gpci {
	struct hvpmu_gpci_sys *sys;  /* bound to the guest's partition */
	int begun;                   /* the start values are read */
	uint64_t start[STAT_MAX_GPCI];
};

static int wanted(const struct stat_request *rq) { return rq->ngpci != 0; }

static void gpci_read(struct gpci *g, const struct host_run *r, int end)
{
	const struct hvpmu_gpci_os *os = hvpmu_gpci_sys_os(g->sys);

	for (unsigned i = 0; i < r->rq->ngpci; i++) {
		const struct hvpmu_gpci_event *e = &r->rq->gpci[i];
		struct stat_gpci *o = &r->rs->gpci[i];
		int64_t status = HVPMU_H_PARAMETER; /* (a length or offset the client refuses: no call) */
		uint64_t v = 0, mask = e->length >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * e->length)) - 1;

		if (hvpmu_gpci_event_read(os, e->request, e->starting_index, e->secondary_index, e->version_in,
					  e->offset, e->length, &v, &status)) {
			if (o->supported) {
				o->supported = 0;
				o->status = status;
			}
			o->value = 0;
			continue;
		}
		if (!end)
			g->start[i] = v;
		else if (o->supported)
			o->value = (v - g->start[i]) & mask;
	}
}

/* The run's guest as Linux's hv_gpci client: a partition of the CEC
 * with a request buffer in its real memory (hvpmu_gpci_sys_attach).  0,
 * ENOTSUP (not a partition) or EINVAL (no room for the buffer). */
static int attach(const struct host_run *r, struct hvpmu_gpci_sys **sys)
{
	const struct hvpmu_md *md = r->md;

	if (r->guest >= md->cec.npartitions)
		return ENOTSUP;
	return hvpmu_gpci_sys_attach(r->hv, md, md->cec.partitions[r->guest].id, sys) ? EINVAL : 0;
}

static int start(const struct host_run *r, void **x, char *err, size_t n)
{
	struct gpci *g;
	int rc;

	if (r->rq->ngpci > STAT_MAX_GPCI) {
		snprintf(err, n, "too many hv_gpci events");
		return -1;
	}
	if (!(g = calloc(1, sizeof *g))) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if ((rc = attach(r, &g->sys))) {
		free(g);
		if (rc == ENOTSUP)
			snprintf(err, n, "hv_gpci events need a partition of a PAPR CEC; platform %s",
				 hvpmu_platform_name(r->md->platform));
		else
			snprintf(err, n, "the partition has no 4096 bytes of real memory for hv_gpci's request buffer");
		return -1;
	}
	r->rs->ngpci = r->rq->ngpci;
	for (unsigned i = 0; i < r->rq->ngpci; i++)
		r->rs->gpci[i] = (struct stat_gpci){ .supported = 1 };
	*x = g;
	return 0;
}

/* The program starts: hv_gpci's start values, what the strands ran
 * before accounted. */
static void thread_start(void *x, const struct host_run *r, uint32_t strand, uint64_t start_tick)
{
	struct gpci *g = x;

	(void)strand; (void)start_tick;
	if (g->begun)
		return;
	g->begun = 1;
	host_dispatch(r);
	gpci_read(g, r, 0);
}

/* The counts (the host accounted the last instructions, the machine idle). */
static void end(void *x, const struct host_run *r)
{
	struct gpci *g = x;

	if (g->begun)
		gpci_read(g, r, 1);
}

static void destroy(void *x)
{
	struct gpci *g = x;

	if (g)
		hvpmu_gpci_sys_close(g->sys);
	free(g);
}

const struct host_ext host_ext_gpci = {
	.name = "hv_gpci",
	.firmware = HVPMU_FW_PAPR_GPCI,
	.refusal = "hv_gpci events need a partition of a PAPR CEC; platform ",
	.monitor_ok = 1, /* (a monitor asks none: hvpmu stat -a refuses -e on power) */
	.wanted = wanted,
	.start = start,
	.thread_start = thread_start,
	.end = end,
	.destroy = destroy,
};

int hvpmu_session_gpci(struct hvpmu_session *s, const uint32_t args[3], struct hvpmu_gpci_reply *reply, char *err,
		       size_t n)
{
	const struct host_run *r = host_run_of(s);
	const struct hvpmu_md *md = r->md;
	struct hvpmu_gpci_sys *sys;
	int rc = attach(r, &sys);

	if (rc == ENOTSUP)
		snprintf(err, n, "guest %s is not a PAPR partition (no H_GetPerformanceCounterInfo)",
			 md->guests[r->guest].name);
	else if (rc)
		snprintf(err, n, "partition %u has no 4096 bytes of real memory for its request buffer",
			 (unsigned)md->cec.partitions[r->guest].id);
	if (rc)
		return rc;
	hvpmu_gpci_call(hvpmu_gpci_sys_os(sys), args[0], args[1], (uint16_t)(args[2] >> 8), (uint8_t)args[2], reply);
	hvpmu_gpci_sys_close(sys);
	return 0;
}
