/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/cec.h - the CEC (central electronics complex) of a PAPR machine as
 * its hypervisor sees it (layer 2 configuration, layer 4 policy): chips
 * with hardware chip ids in modules and the links between them, physical
 * processors in the states of H_GetPerformanceCounterInfo, and the
 * logical partitions with their processor modes, entitlements and rights.
 *
 * Every field is one that ../shared/specs/papr-platform-hcalls.xml
 * (H_GetPerformanceCounterInfo, table "Performance Counter Info
 * Requested_Information Values") reports, or one the hypervisor's
 * dispatcher needs to account the cycles that table defines (entitled,
 * capped, uncapped, donated).  docs/papr-gpci.md gives the default CEC
 * and every choice where the spec is silent; docs/machine-description.md
 * the JSON form (key "cec" of a machine-description file).
 *
 * Partition i of the CEC is guest i of the machine description (its real
 * memory and strands, hvpmu/md.h); partitions are named by their
 * partition id in every hcall, by their index in this struct.
 *
 * Plain data: copy freely.  The functions are thread-safe.
 */
#ifndef HVPMU_CEC_H
#define HVPMU_CEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HVPMU_CEC_MAX_CHIPS 16
#define HVPMU_CEC_MAX_PROCS 128
#define HVPMU_CEC_MAX_PARTITIONS 8 /* = HVPMU_MD_MAX_GUESTS: a partition is a guest */
#define HVPMU_CEC_NO_OWNER 0xFFFFu /* request 0x10 "owning partition id (0xFFFF is shared or unowned)" */
#define HVPMU_CEC_MAX_PARTITION_ID 0xFFFEu
#define HVPMU_CEC_LINK_NONE (-1)   /* a chip's link that is not connected */
#define HVPMU_CEC_MAX_WEIGHT 255   /* uncapped weight 0..255 (PowerVM's range: docs/papr-gpci.md) */
#define HVPMU_CEC_PU 100           /* entitlement unit: hundredths of a processing unit */
#define HVPMU_CEC_WINDOW_US_DEFAULT 10000u /* PowerVM's dispatch wheel: 10 ms */
/* The default processors' version: POWER7 DD2.1, PVR_POWER7 0x003F (Linux
 * arch/powerpc/include/asm/reg.h) in the upper half, revision 0x0201 in
 * the lower. */
#define HVPMU_CEC_DEFAULT_PVR 0x003F0201u

/* Processor states, the values request 0x10 reports (papr-platform-hcalls.xml,
 * Dispatch_PURR_by_processor: "uint8 processor state"). */
enum hvpmu_cec_proc_state {
	HVPMU_CEC_NOT_INSTALLED = 0x01,
	HVPMU_CEC_GUARDED_OFF = 0x02,
	HVPMU_CEC_UNLICENSED = 0x03,
	HVPMU_CEC_SHARED = 0x04,    /* in the shared processor pool */
	HVPMU_CEC_BORROWED = 0x05,  /* a donating dedicated partition's processor lent to the pool */
	HVPMU_CEC_DEDICATED = 0x06, /* owned by a dedicated partition */
};

/* The inter-chip links requests 0x50 (A, B, C) and 0x60 (W, X, Y, Z) report. */
enum hvpmu_cec_link {
	HVPMU_CEC_LINK_A = 0, HVPMU_CEC_LINK_B, HVPMU_CEC_LINK_C,
	HVPMU_CEC_LINK_W, HVPMU_CEC_LINK_X, HVPMU_CEC_LINK_Y, HVPMU_CEC_LINK_Z,
	HVPMU_CEC_NLINKS
};

struct hvpmu_cec_chip {
	uint32_t hw_id;   /* hardware chip id (requests 0x10, 0x50, 0x60; the index of 0x50/0x60) */
	uint32_t module;  /* hardware module id (request 0x10) */
	/* The chip at the other end of each link (index into chips[]), or
	 * HVPMU_CEC_LINK_NONE.  Links are symmetric: the peer has a link of
	 * the same group (A-C or W-Z) back. */
	int32_t link[HVPMU_CEC_NLINKS];
};

struct hvpmu_cec_proc {
	uint32_t hw_id;            /* hardware processor id (requests 0x10, 0x80002000) */
	uint32_t chip;             /* index into chips[]: the socket it sits in */
	uint8_t state;             /* enum hvpmu_cec_proc_state at CEC boot */
	uint16_t owner;            /* partition id of the dedicated partition owning it (states
	                              DEDICATED, BORROWED), else HVPMU_CEC_NO_OWNER */
	uint32_t primary_domain;   /* primary affinity domain (request 0x10) */
	uint32_t secondary_domain; /* secondary affinity domain */
	uint32_t version;          /* processor version: the PVR (request 0x10) */
	uint16_t logical_index;    /* logical processor index (request 0x10) */
};

enum hvpmu_cec_mode {
	HVPMU_CEC_MODE_DEDICATED = 0,   /* owns whole processors; may donate its idle cycles */
	HVPMU_CEC_MODE_CAPPED = 1,      /* shared, never beyond its entitlement */
	HVPMU_CEC_MODE_UNCAPPED = 2,    /* shared, may use idle pool cycles by weight */
};

struct hvpmu_cec_partition {
	uint16_t id;          /* partition id, 1..HVPMU_CEC_MAX_PARTITION_ID */
	char name[32];
	uint8_t mode;         /* enum hvpmu_cec_mode */
	uint8_t donating;     /* dedicated: lends its idle processors to uncapped partitions */
	uint32_t entitlement; /* shared: entitled capacity in HVPMU_CEC_PU (150 = 1.5 processing
	                         units), 1..HVPMU_CEC_PU x nvps; dedicated: HVPMU_CEC_PU x nvps */
	uint32_t weight;      /* uncapped: weight 0..HVPMU_CEC_MAX_WEIGHT; else 0 */
	uint32_t nvps;        /* virtual processors; dedicated: = processors it owns */
	/* The right to see other partitions' performance data: byte 0 of
	 * request 0x40 (Linux: perf_collect_privileged); without it requests
	 * about other partitions or the whole CEC give H_Authority. */
	uint8_t collect_privileged;
};

struct hvpmu_cec {
	uint64_t timebase_hz;       /* timebase frequency: PURR and link cycles tick at it */
	/* The firmware's level: the highest counter_info_version it knows and
	 * answers in (Linux hv-gpci.h's versions up to it; docs/papr-gpci.md) */
	uint8_t counter_info_version;
	uint8_t lab;                /* the LAB-only requests (0x80001000, 0x80002000) exist */
	/* The dispatcher's window, microseconds of timebase (the period over
	 * which a shared partition's entitlement is guaranteed and capped;
	 * docs/papr-dispatcher.md): PowerVM's 10 ms dispatch wheel by default,
	 * HVPMU_CEC_WINDOW_US_DEFAULT; 1..10^6. */
	uint32_t window_us;
	uint32_t nchips, nprocs, npartitions;
	struct hvpmu_cec_chip chips[HVPMU_CEC_MAX_CHIPS];
	struct hvpmu_cec_proc procs[HVPMU_CEC_MAX_PROCS];
	struct hvpmu_cec_partition partitions[HVPMU_CEC_MAX_PARTITIONS];
};

/*
 * The default CEC (docs/papr-gpci.md "Default CEC"): two modules of two
 * POWER7 chips (PVR 0x003F0201), 8 processors per chip, 512 MHz
 * timebase; chip i has hardware id 0x10 + i; in a module the chips are
 * joined by their X link, chips of the two modules by A links (0-2, 1-3);
 * processor p has hardware id 0x100 + p, logical index p, primary affinity
 * domain its module, secondary its chip; the last two processors of chip 3
 * are unlicensed.  Three partitions: 1 "dedicated" (4 dedicated processors
 * of chip 0, donating, with the right to see others), 2 "capped" (shared
 * capped, 2.00 units, 4 virtual processors), 3 "uncapped" (shared
 * uncapped, 1.50 units, weight 128, 8 virtual processors); the other 26
 * licensed processors form the shared pool.  Firmware: counter info
 * version 0 (the seed's layouts), LAB requests present.
 */
void hvpmu_cec_default(struct hvpmu_cec *cec);

/*
 * Check a description's shape: chip, processor and partition counts in
 * range; unique hardware chip and processor ids, logical indices and
 * partition ids; links in range and symmetric; a processor's chip in
 * range, state 1..6, owner a dedicated partition exactly when DEDICATED or
 * BORROWED (BORROWED: a donating one); a dedicated partition owns nvps
 * processors, a shared one has 1 <= entitlement <= HVPMU_CEC_PU x nvps,
 * weight only when uncapped, and the shared partitions' entitlements fit
 * the shared pool (SHARED processors x HVPMU_CEC_PU); timebase_hz > 0;
 * window_us 1..10^6.
 * Returns 0, or HVPMU_EINVAL with "KEY: what" in err[errlen] (KEY the
 * description's JSON path under `prefix`, e.g. "cec.procs[3].owner").
 */
int hvpmu_cec_check(const struct hvpmu_cec *cec, const char *prefix, char *err, size_t errlen);

/* Index of the partition with id `id`, of the chip with hardware id
 * `hw_id`; -1 if none. */
int hvpmu_cec_partition_index(const struct hvpmu_cec *cec, uint32_t id);
int hvpmu_cec_chip_index(const struct hvpmu_cec *cec, uint32_t hw_id);

/* Names: "not-installed", "guarded-off", "unlicensed", "shared",
 * "borrowed", "dedicated"; "dedicated", "capped", "uncapped"; "A".."Z".
 * NULL (or -1 for the reverse lookups) when unknown. */
const char *hvpmu_cec_state_name(unsigned state);
int hvpmu_cec_state_by_name(const char *name);
const char *hvpmu_cec_mode_name(unsigned mode);
int hvpmu_cec_mode_by_name(const char *name);
const char *hvpmu_cec_link_name(unsigned link);
int hvpmu_cec_link_by_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
