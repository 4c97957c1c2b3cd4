/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal state of the guest OS performance-counter driver (layer 5),
 * shared by its parts: sv.c (common entry points, the T4
 * PCR/PIC and MCU driver) and sv_niagara.c (the UltraSPARC T1 %pcr/%pic
 * driver, the Niagara DRAM/JBUS PerfRegs and the MMU-statistics client).
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
	uint64_t pcr[HVPMU_T4_NPIC];      /* software copy of each programmed PCR */
	int ev[HVPMU_T4_NPIC];            /* event on each PIC, -1 if none */
	uint64_t ovf[HVPMU_T4_NPIC];      /* overflows during this activation */
	uint64_t raw[HVPMU_SV_MAX_EVENTS];     /* this strand's share of each event's raw */
	uint64_t running[HVPMU_SV_MAX_EVENTS]; /* ... and of its running cycles */
};

struct hvpmu_sv {
	struct hvpmu_hv *hv;
	struct hvpmu_machine *m;
	unsigned guest;
	struct hvpmu_sv_config cfg;
	struct sv_event ev[HVPMU_SV_MAX_EVENTS];
	unsigned nevents;
	unsigned ngroups;
	int negotiated;      /* 1 ok, -1 failed */
	int t1;              /* UltraSPARC T1 back-end: %pcr/%pic through RDASR/WRASR */
	int t1_pich_event;   /* T1: the event on PICH in every group, -1 if none */
	int niag_negotiated; /* group 0x200: 1 ok, -1 failed */
	uint64_t last_status;
	uint32_t nstrands;
	struct sv_strand *st;
	struct {
		uint32_t last[2];  /* raw 31-bit counters at the last read */
		uint64_t acc[2];   /* extended counts since program */
	} mcu[HVPMU_SV_MAX_MCU], t1u[HVPMU_SV_T1_UNITS];
};

/* T1 "PICs" of the driver: PICL (the selected event) and PICH (instructions);
 * bit i of a level-15 trap's pic_mask (HVPMU_T1_OVF_PICL/PICH) is PIC i. */
enum { T1_PIC_PICL = 0, T1_PIC_PICH = 1, T1_NPIC = 2 };

/* Guest OS code runs on the strand in privileged mode. */
SV_HIDDEN enum hvpmu_mode sv_enter_os(struct hvpmu_sv *sv, uint32_t strand);
SV_HIDDEN void sv_leave_os(struct hvpmu_sv *sv, uint32_t strand, enum hvpmu_mode prev);
/* 1 if a hypercall status is EOK, else records it as the last status. */
SV_HIDDEN int sv_call_ok(struct hvpmu_sv *sv, uint64_t st);

/* Fold one PIC's count into event `idx` (and the strand's share): `count`
 * events over `running` cycles with `ovf` wraps already in `count`. */
SV_HIDDEN void sv_account(struct hvpmu_sv *sv, uint32_t strand, unsigned idx, uint64_t count, uint64_t ovf,
			  uint64_t running);

/* The T1 driver (sv_niagara.c). */
SV_HIDDEN void t1_program_group(struct hvpmu_sv *sv, uint32_t strand, unsigned g);
SV_HIDDEN void t1_poll_ov(struct hvpmu_sv *sv, uint32_t strand, const struct hvpmu_guest_trap *t);
SV_HIDDEN void t1_unprogram_group(struct hvpmu_sv *sv, uint32_t strand, uint64_t now);

#endif
