/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal state of the guest OS performance-counter driver (layer 5),
 * shared by its parts: sv.c (common entry points, the T4 PCR/PIC back-end
 * and the MCU driver) and sv_niagara.c (the UltraSPARC T1 %pcr/%pic
 * back-end, the Niagara DRAM/JBUS PerfRegs and the MMU-statistics client).
 * The entry points reach a strand's PMU only through the back-end table
 * struct sv_pcbe_ops, selected once per platform at creation
 * (../shared/STYLE.md; illumos pcbe_ops_t).
 * Not installed; hidden from the shared library.
 */
#ifndef HVPMU_SV_INTERNAL_H
#define HVPMU_SV_INTERNAL_H

#include <hvpmu/hvpmu.h>

#define SV_HIDDEN __attribute__((visibility("hidden")))

struct sv_event {
	struct hvpmu_sv_event req;
	int supported;
	unsigned group;
	unsigned pic;
	uint64_t raw, enabled, running, overflows;
};

struct sv_strand {
	int active;
	unsigned cur_group;
	uint64_t start_tick;
	uint64_t group_tick;
	uint64_t next_tick;               /* %tick of the next OS tick (tick_cmpr deadline) */
	uint64_t pcr[HVPMU_T4_NPIC];      /* software copy of each programmed PCR */
	int ev[HVPMU_T4_NPIC];            /* event on each PIC, -1 if none */
	uint64_t ovf[HVPMU_T4_NPIC];      /* overflows since the last fold */
	uint64_t base[HVPMU_T4_NPIC];     /* PIC value at the last fold (pic_init when programmed) */
	uint64_t raw[HVPMU_SV_MAX_EVENTS];     /* this strand's share of each event's raw */
	uint64_t running[HVPMU_SV_MAX_EVENTS]; /* ... and of its running cycles */
};

struct hvpmu_sv;

/*
 * A PMU back-end of the driver: the operations of illumos's pcbe_ops_t
 * that hvpmu needs, for one platform.  The framework (sv.c entry points)
 * never knows which chip it drives.  All run as guest OS code (the caller
 * has entered privileged mode, sv_enter_os) on `strand`.
 */
struct sv_pcbe_ops {
	const char *name;   /* pcbe_impl_name: "t4", "t1" */
	unsigned npic;      /* pcbe_ncounters: PICs the driver uses per strand (<= HVPMU_T4_NPIC) */
	/* pcbe_list_events / event coverage: place the new event `e` (e->req
	 * set, the rest zero): e->supported, e->group, e->pic; update
	 * sv->ngroups.  Events before `e` are placed already. */
	void (*configure)(struct hvpmu_sv *sv, struct sv_event *e);
	/* Make the PMU reachable before its first use: negotiate the API group
	 * it is programmed through.  HVPMU_OK, or HVPMU_EHV (sv->last_status
	 * says why; events become unsupported). */
	int (*attach)(struct hvpmu_sv *sv, uint32_t strand);
	/* pcbe_program: stop, load every PIC with cfg.pic_init, and count
	 * group g's events; ss->cur_group, ss->ev, ss->base, ss->group_tick. */
	void (*program)(struct hvpmu_sv *sv, uint32_t strand, unsigned g);
	/* pcbe_allstop + the last pcbe_sample: fold the group's counts into
	 * its events and stop counting; ss->ev emptied. */
	void (*allstop)(struct hvpmu_sv *sv, uint32_t strand, uint64_t now);
	/* pcbe_overflow_bitmap + the handler: account the wraps the level-15
	 * trap `t` reports, or poll every PIC (t NULL: the OS tick), clearing
	 * the overflow bits; counting goes on. */
	void (*overflow)(struct hvpmu_sv *sv, uint32_t strand, const struct hvpmu_guest_trap *t);
	/* pcbe_sample: fold the running group's counts into its events (raw,
	 * overflows, running up to `now`) without stopping it; the next fold
	 * continues from here. */
	void (*sample)(struct hvpmu_sv *sv, uint32_t strand, uint64_t now);
};

SV_HIDDEN extern const struct sv_pcbe_ops sv_pcbe_t4; /* sv.c */
SV_HIDDEN extern const struct sv_pcbe_ops sv_pcbe_t1; /* sv_niagara.c */

struct hvpmu_sv {
	struct hvpmu_hv *hv;
	struct hvpmu_machine *m;
	unsigned guest;
	struct hvpmu_sv_config cfg;
	struct sv_event ev[HVPMU_SV_MAX_EVENTS];
	unsigned nevents;
	unsigned ngroups;
	int negotiated;      /* 1 ok, -1 failed */
	const struct sv_pcbe_ops *ops; /* the platform's PMU back-end */
	int t1_pich_event;   /* T1: the event on PICH in every group, -1 if none */
	int niag_negotiated; /* group 0x200: 1 ok, -1 failed */
	uint64_t last_status;
	uint32_t nstrands;   /* the machine's; st[] is indexed by machine strand */
	uint32_t first_strand, own_strands; /* the guest's strands (hvpmu/md.h) */
	struct sv_strand *st;
	struct {
		uint32_t last[2];  /* raw 31-bit counters at the last read */
		uint64_t acc[2];   /* extended counts since program */
	} mcu[HVPMU_SV_MAX_MCU], t1u[HVPMU_SV_T1_UNITS];
};

/* T1 "PICs" of the driver: PICL (the selected event) and PICH (instructions);
 * bit i of a level-15 trap's pic_mask (HVPMU_T1_OVF_PICL/PICH) is PIC i. */
enum { T1_PIC_PICL = 0, T1_PIC_PICH = 1, T1_NPIC = 2 };

/* 1 if `strand` is one of the driver's guest's strands: the only ones its
 * OS runs on, and so the only ones it may make hypercalls or touch PMUs on
 * (the hypervisor takes a strand's hypercalls as its guest's). */
SV_HIDDEN int sv_owns(const struct hvpmu_sv *sv, uint32_t strand);
/* Guest OS code runs on the strand in privileged mode. */
SV_HIDDEN enum hvpmu_mode sv_enter_os(struct hvpmu_sv *sv, uint32_t strand);
SV_HIDDEN void sv_leave_os(struct hvpmu_sv *sv, uint32_t strand, enum hvpmu_mode prev);
/* 1 if a hypercall status is EOK, else records it as the last status. */
SV_HIDDEN int sv_call_ok(struct hvpmu_sv *sv, uint64_t st);

/* Fold one PIC's count into event `idx` and the strand's share: `count`
 * events (its `ovf` wraps included) over `running` cycles.  Back-ends
 * account every count through it. */
SV_HIDDEN void sv_account(struct hvpmu_sv *sv, uint32_t strand, unsigned idx, uint64_t count, uint64_t ovf,
			  uint64_t running);

/* Fold PIC p of the strand (its event ss->ev[p], value `pic` read now,
 * the wraps in ss->ovf[p]) through sv_account: running = 1 (a sample)
 * keeps counting from `pic`, 0 (allstop) frees the PIC. */
SV_HIDDEN void sv_fold_pic(struct hvpmu_sv *sv, uint32_t strand, unsigned p, uint64_t pic, uint64_t now,
			   int running);

#endif
