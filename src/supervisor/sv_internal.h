/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal state of the guest OS performance-counter driver (layer 5),
 * shared by its parts: sv.c (common entry points, the T4 PCR/PIC back-end
 * and the MCU driver), sv_niagara.c (the UltraSPARC T1 %pcr/%pic
 * back-end, the Niagara DRAM/JBUS PerfRegs and the MMU-statistics client)
 * and sv_origin.c (the IRIX kernel's R10000 counter back-end).
 * The entry points reach a strand's PMU only through the back-end table
 * struct sv_pcbe_ops, selected once per platform at creation
 * (../shared/STYLE.md; illumos pcbe_ops_t).
 * Not installed; hidden from the shared library.
 */
#ifndef HVPMU_SV_INTERNAL_H
#define HVPMU_SV_INTERNAL_H

#include <hvpmu/hvpmu.h>
#include <hvpmu/session.h>

#define SV_HIDDEN __attribute__((visibility("hidden")))

/* Most counters (PICs) of one strand any back-end drives. */
#define SV_MAX_PIC 6 /* POWER7: PMC1-6 */

/* T4 event configs (hvpmu/supervisor.h): (sl << 6) | mask, the Solaris
 * PCBE and Linux encoding of TABLE 10-2 (reference/t4-events.md §0). */
#define SV_T4_SL_SHIFT 6
#define SV_T4_MASK_BITS 0x3fu
#define SV_T4_MAX_SL 31u
#define SV_T4_CONFIG_MAX ((SV_T4_MAX_SL << SV_T4_SL_SHIFT) | SV_T4_MASK_BITS)
static inline unsigned sv_t4_sl(uint64_t config) { return (unsigned)(config >> SV_T4_SL_SHIFT); }
static inline unsigned sv_t4_mask(uint64_t config) { return (unsigned)(config & SV_T4_MASK_BITS); }
static inline uint64_t sv_t4_config(unsigned sl, unsigned mask) { return (uint64_t)sl << SV_T4_SL_SHIFT | mask; }
static inline int sv_t4_config_valid(uint64_t config) { return config <= SV_T4_CONFIG_MAX; }

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
	uint64_t pcr[SV_MAX_PIC];         /* software copy of each programmed PCR */
	int ev[SV_MAX_PIC];               /* event on each PIC, -1 if none */
	uint64_t ovf[SV_MAX_PIC];         /* overflows since the last fold */
	uint64_t base[SV_MAX_PIC];        /* PIC value at the last fold (pic_init when programmed) */
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
/* The modes each chip's PCR can select: T4 ut, st, ht (TABLE 10-1);
 * T1 UT and ST only (niagara-perf-api.txt §2.1). */
#define SV_T4_MODES (HVPMU_SV_MODE_USER | HVPMU_SV_MODE_KERNEL | HVPMU_SV_MODE_HYPER)
#define SV_T1_MODES (HVPMU_SV_MODE_USER | HVPMU_SV_MODE_KERNEL)
/* POWER7 MMCR0: FCP, FCS, FCH freeze problem, privileged, hypervisor state
 * (Power ISA 2.06 Book III-S ch. 9; hvpmu/power7_pmu.h). */
#define SV_P7_MODES (HVPMU_SV_MODE_USER | HVPMU_SV_MODE_KERNEL | HVPMU_SV_MODE_HYPER)
/* R10000 PerfControl: U, K, S, EXL (R10000 User's Manual Figure 14-22). */
#define SV_R10K_MODES (HVPMU_SV_MODE_USER | HVPMU_SV_MODE_KERNEL | HVPMU_SV_MODE_SUPERVISOR | HVPMU_SV_MODE_EXL)

struct sv_pcbe_ops {
	const char *name;   /* pcbe_impl_name: "t4", "t1", "r10k" */
	unsigned npic;      /* pcbe_ncounters: PICs the driver uses per strand (<= SV_MAX_PIC) */
	unsigned modes;     /* the modes its PCR can select (HVPMU_SV_MODE_*) */
	/* The guest trap types (struct hvpmu_guest_trap.tt) of its counter
	 * interrupt and of the OS tick: sun4v interrupt_level_15 / 14; IRIX
	 * HVPMU_IRIX_TRAP_PERF / HVPMU_IRIX_TRAP_CLOCK. */
	uint32_t ovf_tt, tick_tt;
	/* NULL: the driver arms each strand's tick compare itself every
	 * cfg.rotate_cycles (its own OS tick).  Else the OS's clock ticks
	 * (the IRIX kernel arms the compares, hvpmu/irix.h): the driver arms
	 * nothing, does its tick work when the clock trap comes, and takes
	 * this period (cycles) as its rotate_cycles. */
	uint64_t (*os_clock_cycles)(const struct hvpmu_sv *sv);
	/* 1 if `config` is an encoding of this back-end (hvpmu/supervisor.h). */
	int (*config_valid)(uint64_t config);
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
	/* NULL both: no chip-wide device (HVPMU_ERANGE).
	 * Chip-wide device `dev` (hvpmu_sv_uncore_program): program its two
	 * counters with code[0] (pic0) and code[1] (pic1) and clear them;
	 * HVPMU_ERANGE for a device or code the machine lacks, HVPMU_EHV for
	 * a refused hypercall (sv->last_status). */
	int (*uncore_program)(struct hvpmu_sv *sv, uint32_t strand, unsigned dev, const unsigned code[2]);
	/* Read device `dev`'s two 31-bit counters (cur[0] = pic0) and clear
	 * the sticky bits a wrap set, keeping the counts; HVPMU_ERANGE,
	 * HVPMU_EHV.  The caller extends them to 64 bits. */
	int (*uncore_sample)(struct hvpmu_sv *sv, uint32_t strand, unsigned dev, uint32_t cur[2]);
};

SV_HIDDEN extern const struct sv_pcbe_ops sv_pcbe_t4; /* sv.c */
SV_HIDDEN extern const struct sv_pcbe_ops sv_pcbe_t1; /* sv_niagara.c */
SV_HIDDEN extern const struct sv_pcbe_ops sv_pcbe_r10k; /* sv_origin.c */
SV_HIDDEN extern const struct sv_pcbe_ops sv_pcbe_power7; /* sv_power7.c */

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
	} uncore[HVPMU_SV_MAX_UNCORE];
};

/*
 * A chip driver as the tools see it (hvpmu/supervisor.h "the chip drivers
 * as the tools see them"): its description, its event list and syntax,
 * the properties of an event, and its chip-wide devices.  One per
 * platform: backend_t4.c, backend_t1.c, backend_origin.c; the generic code
 * in backend.c.
 */
struct sv_uncore_kind {
	const char *prefix;    /* device names: prefix + number ("mcu0") */
	unsigned first;        /* the first device of the kind; the name's number is dev - first */
	unsigned max;          /* devices of the kind at most (HVPMU_SV_MAX_UNCORE bounds the rest) */
	unsigned ncodes;       /* codes 0 .. ncodes-1 may be given by number */
	unsigned clear_code;   /* "clear_pic": a code that counts nothing */
	const char *(*code_name)(unsigned code); /* a code's name, or NULL */
	int (*code_by_name)(const char *name);   /* a name's code, or -1 */
};

struct hvpmu_sv_backend {
	struct hvpmu_sv_backend_desc desc;
	int platform;                    /* enum hvpmu_platform */
	const struct sv_pcbe_ops *ops;   /* the guest driver's back-end */
	/* the i-th native event, generic alias: 0 or HVPMU_ERANGE */
	int (*event)(unsigned i, struct hvpmu_sv_event_info *out);
	int (*alias)(unsigned i, struct hvpmu_sv_event_info *out);
	/* an event name without its modifiers (`base`, of token `tok`): a
	 * native name, an alias or the raw syntax; 0, or -1 with a message */
	int (*lookup)(const char *tok, const char *base, uint64_t *config, char *err, size_t errlen);
	/* NULL, or the whole parsed list (ev[0..n-1], each looked up): place
	 * or refuse the events together (the R10000: one event per counter);
	 * may change a config to an equivalent one; 0, or -1 with a message */
	int (*check)(struct hvpmu_sv_event *ev, unsigned n, char *err, size_t errlen);
	int (*supported)(uint64_t config);
	/* the hooks below may be NULL: no counter (pics 0), never shared,
	 * no generic meaning, reads and needs nothing of the model, no
	 * chip-wide device (backend.c) */
	uint32_t (*pics)(uint64_t config);
	int (*shared)(uint64_t config);
	int (*fit)(const uint64_t *configs, unsigned n); /* NULL: any set fits (hvpmu_sv_events_fit) */
	int (*generic)(uint64_t config);
	/* what counting it reads of the model (enum hvpmu_feature) */
	unsigned (*reads)(uint64_t config);
	/* what the run needs for it: reads, and the exact modeled time for
	 * the events the memory model serves (backend.c) */
	unsigned (*features)(uint64_t config);
	const struct sv_uncore_kind *kinds;
	unsigned nkinds;
	unsigned (*uncore_count)(const struct hvpmu_md *md);
	/* A back-end without counters (ops NULL) whose events come from
	 * elsewhere (backend_power.c): hvpmu_sv_request_events,
	 * hvpmu_sv_result_counts and hvpmu_sv_count_refusal (hvpmu/session.h).
	 * NULL for a back-end whose events are its counters'. */
	int (*request)(const struct hvpmu_md *md, const char *list, struct stat_request *rq, struct hvpmu_sv_event *ev,
		       char (*names)[HVPMU_SV_NAME_MAX], unsigned *nev, char *err, size_t n, int given);
	void (*result)(const struct hvpmu_sv_event *ev, unsigned nev, struct stat_result *rs);
	const char *(*refusal)(const struct hvpmu_sv_event *ev, const struct stat_result *rs, char *buf, size_t n);
};

/* The back-ends are sv_backend_<name> of backend_<name>.c (backends.def). */

/* Event names (backend.c, docs/cli.md "Event names"): an exact-case match
 * of a listed name (native or alias) wins; else a name equal to exactly
 * one listed name in any case is that name (copied to out: 1); two that
 * differ only in case make it ambiguous (-1 with a message naming both);
 * 0: no listed name, base as it is.  out may be base. */
SV_HIDDEN int sv_resolve_name(const struct hvpmu_sv_backend *be, const char *base, char *out, size_t n, char *err,
			      size_t errlen);
/* After a failed lookup of base: "; did you mean 'NAME'?" appended to err
 * when a listed name is within a typo or two (sv_edit_distance). */
SV_HIDDEN void sv_suggest_name(const struct hvpmu_sv_backend *be, const char *base, char *err, size_t errlen);
/* Levenshtein distance of a and b, case-insensitive (UINT32_MAX past 128
 * bytes). */
SV_HIDDEN unsigned sv_edit_distance(const char *a, const char *b);

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
