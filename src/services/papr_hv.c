/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PAPR hypervisor as the platform-services personality of platform
 * power (services_internal.h): partition i of the machine description's
 * CEC is guest i (its strands and real memory); its hcalls go to the
 * H_GetPerformanceCounterInfo service (papr.c), which reads the machine's
 * CEC statistics device over the register bus (hvpmu/cec_stats.h).
 */
#include <stdlib.h>
#include <hvpmu/papr.h>
#include <hvpmu/power7_pmu.h>
#include "services_internal.h"

/* The hypervisor's state: one service for the CEC, shared by the guests. */
struct papr_shared {
	struct hvpmu_papr *p;
	struct hvpmu_machine *m;
	unsigned dev; /* the CEC statistics device on the machine's bus */
};

struct papr_guest {
	struct papr_shared *sh;
	unsigned index;
};

static int bus_read(void *ctx, unsigned reg, uint64_t *val)
{
	struct papr_shared *sh = ctx;

	return hvpmu_machine_bus_read(sh->m, sh->dev, reg, val);
}

static int bus_write(void *ctx, unsigned reg, uint64_t val)
{
	struct papr_shared *sh = ctx;

	return hvpmu_machine_bus_write(sh->m, sh->dev, reg, val);
}

/* Guest 0 creates the service (the guests are created in order); the
 * others share it. */
static void *guest_create(struct hvpmu_hv *hv, unsigned guest)
{
	struct papr_guest *g = calloc(1, sizeof *g);
	struct papr_shared *sh;
	int dev;

	if (!g)
		return NULL;
	g->index = guest;
	if (guest) {
		g->sh = ((struct papr_guest *)hv->g[0].p)->sh;
		return g;
	}
	dev = hvpmu_machine_device_find(hv->m, HVPMU_DEV_CEC_STATS, 0);
	if (dev < 0 || !(sh = calloc(1, sizeof *sh))) {
		free(g);
		return NULL;
	}
	sh->m = hv->m;
	sh->dev = (unsigned)dev;
	if (hvpmu_papr_create(&hv->md->cec, &(struct hvpmu_papr_bus){ bus_read, bus_write, sh }, &sh->p)) {
		free(sh);
		free(g);
		return NULL;
	}
	g->sh = sh;
	return g;
}

static void guest_destroy(void *p)
{
	struct papr_guest *g = p;

	if (g->index == 0) {
		hvpmu_papr_destroy(g->sh->p);
		free(g->sh);
	}
	free(g);
}

/* The POWER7 PMU's exception (disrupting: PMAO, hvpmu/power7_pmu.h) and
 * the tick compare go to the partition's OS as the Performance Monitor
 * interrupt and the Decrementer: a partition's OS takes both directly (no
 * hcall is involved; the hypervisor only lends the thread). */
static void machine_trap(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_trap *t)
{
	struct hvpmu_guest_trap gt = { 0 };

	if (t->tt != HVPMU_TT_DISRUPTING_PERF && t->tt != HVPMU_TT_TIMER)
		return; /* the POWER7 PMU raises no precise trap */
	gt.strand = t->strand;
	gt.tt = t->tt == HVPMU_TT_TIMER ? HVPMU_P7_TRAP_DEC : HVPMU_P7_TRAP_PERF;
	gt.pic_mask = t->pic_mask;
	gt.tpc = t->tpc;
	svc_to_guest_os(hv, guest, &gt);
}

const struct svc_personality svc_papr = {
	.name = "papr",
	.guest_create = guest_create,
	.guest_destroy = guest_destroy,
	.machine_trap = machine_trap,
};

int64_t hvpmu_papr_hv_hcall(struct hvpmu_hv *hv, uint32_t strand, const uint64_t gpr[3])
{
	const struct papr_guest *g;
	struct hvpmu_papr_caller c;
	int guest;

	if (!hv || hv->ps != &svc_papr || !gpr)
		return HVPMU_H_FUNCTION;
	guest = svc_guest_of(hv, strand);
	if (guest < 0 || (unsigned)guest >= hv->md->cec.npartitions)
		return HVPMU_H_HARDWARE; /* a strand of no partition */
	g = hv->g[guest].p;
	c.partition = (unsigned)guest;
	c.proc = strand / hv->md->strands_per_core; /* processor i is core i (docs/papr-gpci.md) */
	c.mem = hv->g[guest].mem;
	return hvpmu_papr_hcall(g->sh->p, &c, gpr);
}
