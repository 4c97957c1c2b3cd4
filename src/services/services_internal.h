/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The platform services of layer 4 (../shared/DESIGN.md "Platform
 * service"): one dispatcher (services.c) that holds the machine
 * description's guests -- their strands, real memory and trap handlers --
 * and routes the machine's traps to them, and a personality per kind of
 * service behind it, selected by the platform: the sun4v hypervisor
 * (sun4v.c: fast and core traps, API groups, perf registers, MMU
 * statistics) and the IRIX kernel of the SGI Origin (irix.c: syssgi
 * SGI_EVENTCTR and the clock tick) and the PAPR hypervisor of POWER
 * (papr_hv.c, papr.c: H_GetPerformanceCounterInfo).
 * A personality exports its own calling convention (hvpmu/sun4v.h) and
 * keeps its per-guest state behind svc_guest.p.
 * Not installed; hidden from the shared library.
 */
#ifndef HVPMU_SERVICES_INTERNAL_H
#define HVPMU_SERVICES_INTERNAL_H

#include <hvpmu/hvpmu.h>

#define SVC_HIDDEN __attribute__((visibility("hidden")))

/* A guest of the machine description, as the dispatcher holds it. */
struct svc_guest {
	hvpmu_guest_trap_fn trap_fn; /* the guest OS's trap table (hvpmu_hv_set_guest_trap_handler) */
	void *trap_ctx;
	struct hvpmu_guest_mem *mem; /* its real memory (hvpmu/guest_mem.h), NULL if it has none */
	void *p;                     /* the personality's state of the guest */
};

struct svc_personality;

struct hvpmu_hv {
	struct hvpmu_machine *m;
	const struct hvpmu_md *md;
	const struct svc_personality *ps; /* the one the platform record names */
	unsigned firmware;                /* the record's enum hvpmu_firmware: what ps offers */
	struct svc_guest g[HVPMU_MD_MAX_GUESTS];
};

struct svc_personality {
	const char *name;       /* "sun4v": what a platform record names (hvpmu_platform_info.personality) */
	/* The personality's state of guest `guest` (its memory is set up);
	 * NULL on ENOMEM.  Freed with guest_destroy. */
	void *(*guest_create)(struct hvpmu_hv *hv, unsigned guest);
	void (*guest_destroy)(void *p);
	/* A trap the machine raised on a strand of `guest` (PMU overflow,
	 * tick compare): deliver it to the guest OS as the service does. */
	void (*machine_trap)(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_trap *t);
	/* A TSB hit the service's TLB-miss handler serviced on vCPU `vcpu`
	 * (the strand's index in its guest); NULL: the service keeps none. */
	void (*tsb_hit)(struct hvpmu_hv *hv, unsigned guest, unsigned vcpu, int dmmu, int ctx_nonzero,
			unsigned size_code, uint64_t ticks);
};

SVC_HIDDEN extern const struct svc_personality svc_sun4v; /* sun4v.c */
SVC_HIDDEN extern const struct svc_personality svc_irix;  /* irix.c: SGI Origin */
SVC_HIDDEN extern const struct svc_personality svc_papr;  /* papr_hv.c: PAPR on POWER */

/* The guest that owns `strand`, or -1. */
SVC_HIDDEN int svc_guest_of(const struct hvpmu_hv *hv, uint32_t strand);
/* Run guest `guest`'s trap handler for `gt`, in privileged mode, then
 * return the strand to the mode it trapped from.  No handler: nothing. */
SVC_HIDDEN void svc_to_guest_os(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_guest_trap *gt);

#endif
