/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/papr.h - the PAPR hypervisor's H_GetPerformanceCounterInfo
 * (hcall 0xF080, layer 4): ../shared/specs/papr-platform-hcalls.xml
 * "H_GetPerformanceCounterInfo (0xF080)", with the header fields Linux's
 * hv_gpci client reads (../shared/reference/linux-clients.md §2.2-§2.5;
 * torvalds/linux arch/powerpc/include/asm/hvcall.h).  docs/papr-gpci.md
 * gives every choice where the sources are silent.
 *
 * The parameter block lives big-endian in the calling partition's real
 * memory (hvpmu/guest_mem.h).  The service answers from the CEC's
 * description (hvpmu/cec.h: hardware ids, topology, partitions' rights)
 * and from the CEC statistics device's registers (hvpmu/cec_stats.h),
 * which it reads over a bus: the machine's register bus in a full model,
 * the device itself in unit tests.
 *
 * Not thread-safe: serialise the calls on one struct hvpmu_papr.
 */
#ifndef HVPMU_PAPR_H
#define HVPMU_PAPR_H

#include <stddef.h>
#include <stdint.h>
#include <hvpmu/cec.h>
#include <hvpmu/guest_mem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* hcall function token (papr-platform-hcalls.xml, table of platform
 * dependent hcalls; Linux hvcall.h H_GET_PERF_COUNTER_INFO). */
#define HVPMU_H_GET_PERF_COUNTER_INFO 0xF080u

/* Status codes (Linux hvcall.h, linux-clients.md §2.1; QEMU spapr.h agrees). */
#define HVPMU_H_SUCCESS 0
#define HVPMU_H_NOT_AVAILABLE 3
#define HVPMU_H_HARDWARE (-1)
#define HVPMU_H_FUNCTION (-2)
#define HVPMU_H_PRIVILEGE (-3)
#define HVPMU_H_PARAMETER (-4)
#define HVPMU_H_AUTHORITY (-10)

/* The parameter block's header, byte offsets (seed table
 * "Performance_Counter_Info_Parms struct"; Linux's names in brackets,
 * struct hv_get_perf_counter_info_params, linux-clients.md §2.2). */
#define HVPMU_GPCI_REQUEST 0x00        /* u32 in: Requested_Information [counter_request] */
#define HVPMU_GPCI_STARTING_INDEX 0x04 /* i32 in/out: -1 = the caller's processor/partition/chip */
#define HVPMU_GPCI_RETURNED_VALUES 0x08 /* u32 out: lists returned [secondary_index be16 @8,
					   returned_values be16 @0xA] */
#define HVPMU_GPCI_DETAIL_RC 0x0C      /* u32 out: seed reserved [detail_rc] */
#define HVPMU_GPCI_CV_ELEMENT_SIZE 0x10 /* u16 out: seed reserved [cv_element_size] */
#define HVPMU_GPCI_VERSION_IN 0x12     /* u8 in: seed reserved [counter_info_version_in] */
#define HVPMU_GPCI_VERSION_OUT 0x13    /* u8 out: seed reserved [counter_info_version_out] */
#define HVPMU_GPCI_HEADER_BYTES 0x20   /* counter_value starts here */
#define HVPMU_GPCI_INDEX_SELF 0xFFFFFFFFu /* starting_index -1 */
/* detail_rc: GEN_BUF_TOO_SMALL, the buffer held only part of the lists
 * (Linux hv-gpci.c, commit ad86d7ee43b2; linux-clients.md §2.2). */
#define HVPMU_GPCI_DETAIL_BUF_TOO_SMALL 0x1Bu
/* Request 0x40 byte 1, capability mask (Linux hv-gpci.h HV_GPCI_CM_*). */
#define HVPMU_GPCI_CM_GA 0x80u
#define HVPMU_GPCI_CM_EXPANDED 0x40u
#define HVPMU_GPCI_CM_LAB 0x20u

/* Requested_Information values (seed table; Linux's names differ for
 * 0x10 and 0x20: dispatch_timebase_by_processor, ..._timebase_by_partition). */
enum hvpmu_gpci_request_code {
	HVPMU_GPCI_DISPATCH_PURR_BY_PROCESSOR = 0x10,
	HVPMU_GPCI_PURR_BY_PARTITION = 0x20,       /* Entitled_capped_uncapped_donated_idle_PURR_by_partition */
	HVPMU_GPCI_RUN_BY_PARTITION = 0x30,        /* Run_instructions_run_cycles_by_partition */
	HVPMU_GPCI_SYSTEM_CAPABILITIES = 0x40,     /* System_performance_capabilities */
	HVPMU_GPCI_BUS_ABC_LINKS = 0x50,           /* Processor_bus_utilization_ABC_links */
	HVPMU_GPCI_BUS_WXYZ_LINKS = 0x60,          /* Processor_bus_utilization_WXYZ_links */
	HVPMU_GPCI_SET_MMCRH = 0x80001000,         /* LAB only */
	HVPMU_GPCI_RETRIEVE_HPMCX = 0x80002000,    /* LAB only */
};

/* What a request's starting index names. */
enum hvpmu_gpci_index_kind {
	HVPMU_GPCI_IDX_PROCESSOR = 0, /* physical processor index (position in the CEC's processors) */
	HVPMU_GPCI_IDX_PARTITION = 1, /* partition id */
	HVPMU_GPCI_IDX_CHIP = 2,      /* hardware chip id */
	HVPMU_GPCI_IDX_SELF = 3,      /* only -1: the caller (0x40) */
	HVPMU_GPCI_IDX_NONE = 4,      /* no list (0x80001000) */
};

/* One field of a request's element: byte offset in the element, width in
 * bytes (1, 2, 4, 8; big-endian), name (the spec's meaning, Linux's
 * name where it has one), and whether it is a counter (monotonic). */
struct hvpmu_gpci_field {
	const char *name;
	uint16_t offset;
	uint8_t width;
	uint8_t counter;
};

/* A request the service implements, in one layout, as data (the service
 * walks these tables; the supervisor's decoder too).  A request has the
 * seed's layout (min_version 0) and may have later ones: the layout
 * answers the counter-info versions from min_version on, up to the next
 * layout's (docs/papr-gpci.md "Counter-info versions"). */
struct hvpmu_gpci_request {
	uint32_t code;
	const char *name;        /* the seed's name, lower case */
	enum hvpmu_gpci_index_kind index;
	uint16_t element_bytes;  /* one list of counters (cv_element_size); 0x80001000: its input */
	uint8_t lab;             /* LAB only */
	uint8_t nfields;
	const struct hvpmu_gpci_field *fields;
	uint8_t min_version;     /* the first counter_info_version in this layout */
};
/* The implemented requests in the seed's layout, i = 0, 1, ... (NULL
 * past the last), and by code (NULL if not implemented).  Thread-safe. */
const struct hvpmu_gpci_request *hvpmu_gpci_request_at(unsigned i);
const struct hvpmu_gpci_request *hvpmu_gpci_request_find(uint32_t code);

/* The counter-info versions Linux names (torvalds/linux
 * arch/powerpc/perf/hv-gpci.h: 0 v7r{2,3,4}m0, 3 v7r6m0, 5 v7r7m0,
 * 6 TLBIE, 8 POWER8; 1, 2, 4, 7 skipped): 1 if `version` is one. */
int hvpmu_gpci_version_named(unsigned version);
/* The counter_info_version a firmware of level `level` (struct hvpmu_cec
 * counter_info_version: the highest it knows) answers a caller's
 * `version_in` in, and reports in counter_info_version_out: version_in
 * when it is named and at most `level`, else 0, the seed's. */
uint8_t hvpmu_gpci_version_answered(uint8_t level, uint8_t version_in);
/* Request `code`'s layout at counter-info version `version` (an answered
 * one): the layout with the highest min_version <= version (NULL if not
 * implemented).  Thread-safe. */
const struct hvpmu_gpci_request *hvpmu_gpci_request_layout(uint32_t code, uint8_t version);
/* 1 if `code` is a request Linux knows that this firmware does not
 * implement (0x70, 0x80, 0x90, 0x91, 0x94, 0x95, 0xA0, 0xB0, 0xB1, 0xC0,
 * 0xD0, 0xE0, 0xF0, 0xF4, 0x100: linux-clients.md §2.3): H_Not_Available. */
int hvpmu_gpci_request_known(uint32_t code);

/* The CEC statistics device's register file (hvpmu/cec_stats.h numbers):
 * read and write as the device's hvpmu_cec_stats_read/_write, 0 or a
 * negative hvpmu_err.  A read or write that fails is H_Hardware. */
struct hvpmu_papr_bus {
	int (*read)(void *ctx, unsigned reg, uint64_t *val);
	int (*write)(void *ctx, unsigned reg, uint64_t val);
	void *ctx;
};

struct hvpmu_papr;

/* The service for CEC `cec` (copied; must pass hvpmu_cec_check()),
 * reading counters over `bus` (copied).  0 and *out, HVPMU_EINVAL, HVPMU_ENOMEM. */
int hvpmu_papr_create(const struct hvpmu_cec *cec, const struct hvpmu_papr_bus *bus, struct hvpmu_papr **out);
void hvpmu_papr_destroy(struct hvpmu_papr *p);

/* Who makes the call: partition index `partition` of the CEC, running on
 * physical processor index `proc`, with real memory `mem` (NULL: none). */
struct hvpmu_papr_caller {
	unsigned partition;
	unsigned proc;
	struct hvpmu_guest_mem *mem;
};

/*
 * H_GetPerformanceCounterInfo(buffer real address `ra`, `size` bytes):
 * the argument order Linux uses (r4 = address, r5 = length; the seed's
 * syntax block lists size first: docs/papr-gpci.md).  Checks, in the
 * spec's order, each failing with the first status that applies:
 *   H_Privilege     [ra, ra + size) (one byte at ra when size is 0) is not
 *                   inside one segment of the caller's real memory;
 *   H_Parameter     size < 32; a request code neither implemented nor
 *                   known; a starting index naming no processor, partition
 *                   or chip at or past it; a buffer too small for one
 *                   list (detail_rc 0x1B, returned_values 0); 0x80001000:
 *                   size < 40 or a value MMCRH cannot hold;
 *   H_Not_Available a request Linux knows and this firmware lacks; a
 *                   LAB request when the CEC has no LAB firmware; 0x40
 *                   with a starting index other than -1;
 *   H_Authority     a caller without collect_privileged asking for the
 *                   CEC-wide requests (0x10, 0x50, 0x60, 0x80001000,
 *                   0x80002000) or for partitions other than itself;
 *   H_Hardware      the statistics device did not answer;
 *   H_Success       the lists from the starting index on (-1: the
 *                   caller's processor, partition or chip), in index
 *                   order, in the layout of the version answered
 *                   (hvpmu_gpci_version_answered of the CEC's level and
 *                   counter_info_version_in); starting_index = the
 *                   first one found, returned_values, detail_rc 0,
 *                   cv_element_size, counter_info_version_out (the
 *                   version answered) written.  When the buffer
 *                   holds only some of them: those, detail_rc 0x1B and
 *                   H_Parameter (what Linux's single_gpci_request
 *                   accepts).
 * On any other status the block is not written.  Returns the status.
 */
int64_t hvpmu_papr_get_perf_counter_info(struct hvpmu_papr *p, const struct hvpmu_papr_caller *c, uint64_t ra,
					 uint64_t size);

/* An hcall: gpr[0] = r3 the function token, gpr[1..] = r4.. its
 * arguments.  Returns r3: 0xF080's status, H_Function for any other
 * token. */
int64_t hvpmu_papr_hcall(struct hvpmu_papr *p, const struct hvpmu_papr_caller *c, const uint64_t gpr[3]);

struct hvpmu_hv;
/*
 * An hcall (sc 1) of the partition that owns `strand`, on the platform
 * services of a POWER machine (hvpmu_hv_create on platform power: the
 * "papr" personality, the CEC of its machine description, the CEC
 * statistics device on its register bus).  Partition i is guest i of the
 * description (its real memory); the caller's processor is the strand's
 * core (processor i is core i).  Returns r3 as hvpmu_papr_hcall();
 * H_Function when hv is not a PAPR hypervisor, H_Hardware for a strand
 * of no partition.  Not thread-safe: serialise with the hypervisor's
 * other calls.
 */
int64_t hvpmu_papr_hv_hcall(struct hvpmu_hv *hv, uint32_t strand, const uint64_t gpr[3]);

#ifdef __cplusplus
}
#endif
#endif
