/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/gpci.h - the guest OS's client of H_GetPerformanceCounterInfo
 * (layer 5), as Linux's hv_gpci driver issues it
 * (../shared/reference/linux-clients.md §2.4; torvalds/linux
 * arch/powerpc/perf/hv-gpci.c, hv-common.c):
 *   - the capabilities probe of hv_perf_caps_get(): a 48-byte block
 *     (32-byte header + 16 bytes), request 0x40, starting index -1,
 *     counter_info_version_in 0;
 *   - every other call as single_gpci_request(): the per-CPU 4096-byte
 *     buffer zeroed, request, starting index, secondary index and
 *     counter_info_version_in filled, the hcall made with length 4096;
 *     H_Success, or H_Parameter with detail_rc 0x1B (partial lists), is
 *     a reply;
 *   - a counter read as perf reads an hv_gpci event: `length` (1..8)
 *     bytes at `offset` of counter_value, big-endian, offset + length <=
 *     4064.
 * The replies are decoded with the service's request tables
 * (hvpmu/papr.h hvpmu_gpci_request_find): lists of named fields.
 *
 * The guest OS is reached through struct hvpmu_gpci_os: its real memory
 * (where the buffer lives) and its hcall instruction.  Calls on one os
 * share its buffer: serialise them (Linux: one buffer per CPU).
 */
#ifndef HVPMU_GPCI_H
#define HVPMU_GPCI_H

#include <stddef.h>
#include <stdint.h>
#include <hvpmu/papr.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HVPMU_GPCI_REQ_BUFFER_SIZE 4096u /* HGPCI_REQ_BUFFER_SIZE */
#define HVPMU_GPCI_MAX_DATA_BYTES (HVPMU_GPCI_REQ_BUFFER_SIZE - HVPMU_GPCI_HEADER_BYTES) /* HGPCI_MAX_DATA_BYTES 4064 */
#define HVPMU_GPCI_CAPS_BUFFER_SIZE 48u   /* hv_perf_caps_get(): params + 16-byte caps */

/* The guest OS: `buf_ra` is the real address of its 4096-byte request
 * buffer; write/read copy to and from its real memory (0, or non-zero on
 * failure); hcall makes the hcall gpr[0] (r3) with arguments gpr[1..2]
 * (r4, r5) and returns r3. */
struct hvpmu_gpci_os {
	uint64_t buf_ra;
	int (*write)(void *ctx, uint64_t ra, const void *buf, size_t n);
	int (*read)(void *ctx, uint64_t ra, void *buf, size_t n);
	int64_t (*hcall)(void *ctx, const uint64_t gpr[3]);
	void *ctx;
};

/* hv_perf_caps_get()'s view of request 0x40. */
struct hvpmu_gpci_caps {
	uint8_t version;            /* counter_info_version_out */
	uint8_t collect_privileged; /* byte 0 != 0 */
	uint8_t ga, expanded, lab;  /* capability mask bits (HVPMU_GPCI_CM_*) */
};
/* The status of the call (HVPMU_H_*); *out filled on H_Success.
 * HVPMU_H_HARDWARE if the buffer could not be written or read. */
int64_t hvpmu_gpci_caps_get(const struct hvpmu_gpci_os *os, struct hvpmu_gpci_caps *out);

/* One reply: the header's outputs and the lists. */
struct hvpmu_gpci_reply {
	int64_t status;            /* HVPMU_H_*: H_Success, or H_Parameter with detail_rc 0x1B, carry lists */
	uint32_t request;
	uint32_t starting_index;   /* out: the first processor / partition / chip found */
	uint32_t returned_values;  /* lists in data (at most what fits) */
	uint32_t detail_rc;
	uint16_t element_bytes;    /* cv_element_size */
	uint8_t version_out;
	const struct hvpmu_gpci_request *rq; /* the request's layout at version_out, NULL if unknown to hvpmu */
	uint8_t data[HVPMU_GPCI_MAX_DATA_BYTES];
};

/* 1 if r carries lists (H_Success, or H_Parameter with detail_rc 0x1B). */
int hvpmu_gpci_reply_ok(const struct hvpmu_gpci_reply *r);

/* single_gpci_request(): returns r->status (HVPMU_H_HARDWARE when the
 * buffer could not be written or read). */
int64_t hvpmu_gpci_call(const struct hvpmu_gpci_os *os, uint32_t request, uint32_t starting_index,
			uint16_t secondary_index, uint8_t version_in, struct hvpmu_gpci_reply *r);

/* Field `field` (index into r->rq->fields) of list `element`: 0 and
 * *val, or HVPMU_ERANGE (no such list or field; the reply carries none). */
int hvpmu_gpci_field(const struct hvpmu_gpci_reply *r, unsigned element, unsigned field, uint64_t *val);

/* An hv_gpci event read: `length` bytes at `offset` of counter_value,
 * big-endian (current kernels' assembly).  0 and *val; HVPMU_EINVAL for
 * length outside 1..8 or offset + length > 4064 (event init's checks);
 * HVPMU_EHV when the call gives no lists.  *status: the call's status
 * (untouched on HVPMU_EINVAL: no call is made). */
int hvpmu_gpci_event_read(const struct hvpmu_gpci_os *os, uint32_t request, uint32_t starting_index,
			  uint16_t secondary_index, uint8_t version_in, uint32_t offset, uint32_t length,
			  uint64_t *val, int64_t *status);

/* The requests the hypervisor implements, for decoders (the service's
 * tables, hvpmu_gpci_request_at): i = 0, 1, ..., NULL past the last;
 * by code or by name ("dispatch_purr_by_processor"; a number, decimal or
 * 0x hex, is a code): NULL if none.  Thread-safe. */
const struct hvpmu_gpci_request *hvpmu_gpci_sv_request_at(unsigned i);
const struct hvpmu_gpci_request *hvpmu_gpci_sv_request_parse(const char *name_or_code);

/* A status's name: "H_SUCCESS", "H_PARAMETER", ...; "H_?" if unknown. */
const char *hvpmu_gpci_status_name(int64_t status);

/*
 * perf's hv_gpci event syntax, as `hvpmu stat -e` takes it
 * (../shared/reference/linux-clients.md §2.4 "Event encoding"; the
 * names of torvalds/linux arch/powerpc/perf/hv-gpci-requests.h, §2.3):
 *
 *   hv_gpci/NAME,PARAM=N/     a named event Linux's sysfs publishes:
 *                             NAME = <request>_<counter> (e.g.
 *                             dispatch_timebase_by_processor_processor_time_in_timebase_cycles),
 *                             PARAM its starting index's name
 *                             (phys_processor_idx, sibling_part_id,
 *                             hw_chip_id), required, given once;
 *   hv_gpci/request=R,starting_index=I,secondary_index=S,
 *           counter_info_version=V,offset=O,length=L/
 *                             the raw form, fields of the sysfs format/
 *                             directory in any order, each at most once
 *                             (starting_index also spelled
 *                             phys_processor_idx, sibling_part_id,
 *                             hw_chip_id or partition_id); request and
 *                             length required, the others 0 if absent.
 *
 * Numbers are decimal or 0x hex (request, starting_index, offset up to
 * 0xffffffff, secondary_index 0xffff, counter_info_version 0xff); length
 * 1..8 and offset + length <= 4064 (Linux's event init).  A named event
 * asks Linux's current counter_info_version, 8, and reads the field
 * Linux's counter names in the layout the firmware answers version 8 in
 * (hvpmu/papr.h hvpmu_gpci_request_layout: Linux's offsets, the version-3
 * layout for 0x50 and 0x60; docs/papr-gpci.md "hv_gpci events").  The
 * raw form is taken as given (any request: the hypervisor answers).
 */
#define HVPMU_GPCI_EVENT_PMU "hv_gpci/"
#define HVPMU_GPCI_COUNTER_INFO_VERSION_CURRENT 8u /* Linux's COUNTER_INFO_VERSION_CURRENT */

/* One event: what hvpmu_gpci_event_read() takes. */
struct hvpmu_gpci_event {
	uint32_t request;
	uint32_t starting_index;
	uint16_t secondary_index;
	uint8_t version_in;      /* counter_info_version */
	uint32_t offset;         /* bytes into counter_value */
	uint32_t length;         /* 1..8 bytes, big-endian */
};

/* A named event Linux publishes and hvpmu maps: Linux's name, its
 * request, its starting index's name, Linux's offset and length
 * (hv-gpci-requests.h __count) and the field of our request table it
 * reads (hvpmu_gpci_request_layout(request, 8)->fields, by name). */
struct hvpmu_gpci_named_event {
	const char *name;
	uint32_t request;
	const char *index_param;
	uint16_t linux_offset;
	uint8_t length;
	const char *field;
};
/* The named events, i = 0, 1, ... (NULL past the last).  Thread-safe. */
const struct hvpmu_gpci_named_event *hvpmu_gpci_named_event_at(unsigned i);
/* The field of our request table that named event `ne` reads (NULL if
 * the tables disagree: a bug the unit test catches).  Thread-safe. */
const struct hvpmu_gpci_field *hvpmu_gpci_named_event_field(const struct hvpmu_gpci_named_event *ne);

/*
 * Parse one hv_gpci event at s (it must start with "hv_gpci/") into *ev:
 * 0, *used = the characters up to and including the closing '/' (what
 * follows is the caller's: ',' or the end of an -e list); or
 * HVPMU_EINVAL with a one-line reason in err[errlen] (not an hv_gpci
 * event, no closing '/', an empty or unknown term, an unknown event
 * name, a missing, repeated or out-of-range parameter, a raw field with
 * a named event).  *ev and *used are untouched on error.  Thread-safe.
 */
int hvpmu_gpci_event_parse(const char *s, struct hvpmu_gpci_event *ev, size_t *used, char *err, size_t errlen);

/*
 * A modeled machine of description `md` with its platform services, and
 * the guest OS of the partition with id `partition_id` (0: the first of
 * the CEC) bound as a struct hvpmu_gpci_os: its hcalls are made from the
 * first strand of its guest (partition i is guest i), its request buffer
 * is the last 4096 bytes of its first real-memory segment.  For tools
 * that query the hypervisor without running a program (`hvpmu gpci`).
 * 0 and *out; HVPMU_EINVAL (no such partition, a partition without a
 * guest or with a first segment under 4096 bytes, a description the
 * machine refuses), HVPMU_ENOMEM.  A machine whose hypervisor has no
 * 0xF080 answers every call with H_Function.
 */
struct hvpmu_md;
struct hvpmu_gpci_sys;
int hvpmu_gpci_sys_open(const struct hvpmu_md *md, unsigned partition_id, struct hvpmu_gpci_sys **out);
/* The same binding on a machine that runs (a service's guest OS: its
 * hypervisor `hv`, its description `md`, both outliving the binding):
 * nothing is created, hvpmu_gpci_sys_close frees only the binding. */
struct hvpmu_hv;
int hvpmu_gpci_sys_attach(struct hvpmu_hv *hv, const struct hvpmu_md *md, unsigned partition_id,
			  struct hvpmu_gpci_sys **out);
const struct hvpmu_gpci_os *hvpmu_gpci_sys_os(const struct hvpmu_gpci_sys *sys);
void hvpmu_gpci_sys_close(struct hvpmu_gpci_sys *sys);

#ifdef __cplusplus
}
#endif
#endif
