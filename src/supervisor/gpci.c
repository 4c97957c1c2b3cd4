/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest OS's hv_gpci client (hvpmu/gpci.h): the call sequences of
 * Linux's arch/powerpc/perf/hv-gpci.c and hv-common.c
 * (../shared/reference/linux-clients.md §2.4), and the replies decoded
 * with the service's request tables (hvpmu/papr.h).
 */
#include <stddef.h>
#include <string.h>
#include <hvpmu/error.h>
#include <hvpmu/gpci.h>

static uint64_t get_be(const uint8_t *b, unsigned width)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < width; i++)
		v = v << 8 | b[i];
	return v;
}

static void put_be32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

/* The zeroed buffer of `size` bytes with the inputs, written to the
 * guest; the hcall; the buffer read back into b.  The status, or
 * H_Hardware when the guest memory failed. */
static int64_t issue(const struct hvpmu_gpci_os *os, uint8_t *b, size_t size, uint32_t request, uint32_t start,
		     uint16_t secondary, uint8_t version_in)
{
	uint64_t gpr[3] = { HVPMU_H_GET_PERF_COUNTER_INFO, os->buf_ra, size };
	int64_t rc;

	memset(b, 0, size);
	put_be32(b + HVPMU_GPCI_REQUEST, request);
	put_be32(b + HVPMU_GPCI_STARTING_INDEX, start);
	b[HVPMU_GPCI_RETURNED_VALUES] = (uint8_t)(secondary >> 8); /* Linux's secondary_index, be16 @8 */
	b[HVPMU_GPCI_RETURNED_VALUES + 1] = (uint8_t)secondary;
	b[HVPMU_GPCI_VERSION_IN] = version_in;
	if (os->write(os->ctx, os->buf_ra, b, size))
		return HVPMU_H_HARDWARE;
	rc = os->hcall(os->ctx, gpr);
	if (os->read(os->ctx, os->buf_ra, b, size))
		return HVPMU_H_HARDWARE;
	return rc;
}

int64_t hvpmu_gpci_caps_get(const struct hvpmu_gpci_os *os, struct hvpmu_gpci_caps *out)
{
	uint8_t b[HVPMU_GPCI_CAPS_BUFFER_SIZE];
	int64_t rc = issue(os, b, sizeof b, HVPMU_GPCI_SYSTEM_CAPABILITIES, HVPMU_GPCI_INDEX_SELF, 0, 0);
	uint8_t mask = b[HVPMU_GPCI_HEADER_BYTES + 1];

	if (rc != HVPMU_H_SUCCESS)
		return rc;
	out->version = b[HVPMU_GPCI_VERSION_OUT];
	out->collect_privileged = b[HVPMU_GPCI_HEADER_BYTES] != 0;
	out->ga = (mask & HVPMU_GPCI_CM_GA) != 0;
	out->expanded = (mask & HVPMU_GPCI_CM_EXPANDED) != 0;
	out->lab = (mask & HVPMU_GPCI_CM_LAB) != 0;
	return rc;
}

int hvpmu_gpci_reply_ok(const struct hvpmu_gpci_reply *r)
{
	return r->status == HVPMU_H_SUCCESS ||
	       (r->status == HVPMU_H_PARAMETER && r->detail_rc == HVPMU_GPCI_DETAIL_BUF_TOO_SMALL);
}

int64_t hvpmu_gpci_call(const struct hvpmu_gpci_os *os, uint32_t request, uint32_t starting_index,
			uint16_t secondary_index, uint8_t version_in, struct hvpmu_gpci_reply *r)
{
	uint8_t b[HVPMU_GPCI_REQ_BUFFER_SIZE]; /* Linux: the per-CPU hv_gpci_reqb */
	uint64_t n;

	memset(r, 0, offsetof(struct hvpmu_gpci_reply, data));
	r->status = issue(os, b, sizeof b, request, starting_index, secondary_index, version_in);
	r->request = request;
	r->rq = hvpmu_gpci_request_find(request);
	r->starting_index = (uint32_t)get_be(b + HVPMU_GPCI_STARTING_INDEX, 4);
	r->detail_rc = (uint32_t)get_be(b + HVPMU_GPCI_DETAIL_RC, 4);
	r->element_bytes = (uint16_t)get_be(b + HVPMU_GPCI_CV_ELEMENT_SIZE, 2);
	r->version_out = b[HVPMU_GPCI_VERSION_OUT];
	n = get_be(b + HVPMU_GPCI_RETURNED_VALUES, 4);
	/* never more lists than the buffer holds, whatever the header says */
	if (r->element_bytes && n > HVPMU_GPCI_MAX_DATA_BYTES / r->element_bytes)
		n = HVPMU_GPCI_MAX_DATA_BYTES / r->element_bytes;
	r->returned_values = hvpmu_gpci_reply_ok(r) ? (uint32_t)n : 0;
	memcpy(r->data, b + HVPMU_GPCI_HEADER_BYTES, sizeof r->data);
	return r->status;
}

int hvpmu_gpci_field(const struct hvpmu_gpci_reply *r, unsigned element, unsigned field, uint64_t *val)
{
	const struct hvpmu_gpci_field *f;
	size_t at;

	if (!r->rq || field >= r->rq->nfields || element >= r->returned_values || !hvpmu_gpci_reply_ok(r))
		return HVPMU_ERANGE;
	f = &r->rq->fields[field];
	at = (size_t)element * r->rq->element_bytes + f->offset;
	if (at + f->width > sizeof r->data)
		return HVPMU_ERANGE;
	*val = get_be(r->data + at, f->width);
	return HVPMU_OK;
}

int hvpmu_gpci_event_read(const struct hvpmu_gpci_os *os, uint32_t request, uint32_t starting_index,
			  uint16_t secondary_index, uint8_t version_in, uint32_t offset, uint32_t length,
			  uint64_t *val, int64_t *status)
{
	struct hvpmu_gpci_reply r;
	uint64_t v = 0;

	if (length < 1 || length > 8 || offset > HVPMU_GPCI_MAX_DATA_BYTES - length)
		return HVPMU_EINVAL;
	*status = hvpmu_gpci_call(os, request, starting_index, secondary_index, version_in, &r);
	if (!hvpmu_gpci_reply_ok(&r))
		return HVPMU_EHV;
	for (uint32_t i = offset; i < offset + length; i++)
		v |= (uint64_t)r.data[i] << ((length - 1 - (i - offset)) * 8);
	*val = v;
	return HVPMU_OK;
}

const char *hvpmu_gpci_status_name(int64_t status)
{
	static const struct {
		int64_t status;
		const char *name;
	} names[] = {
		{ HVPMU_H_SUCCESS, "H_SUCCESS" },     { HVPMU_H_NOT_AVAILABLE, "H_NOT_AVAILABLE" },
		{ HVPMU_H_HARDWARE, "H_HARDWARE" },   { HVPMU_H_FUNCTION, "H_FUNCTION" },
		{ HVPMU_H_PRIVILEGE, "H_PRIVILEGE" }, { HVPMU_H_PARAMETER, "H_PARAMETER" },
		{ HVPMU_H_AUTHORITY, "H_AUTHORITY" },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].status == status)
			return names[i].name;
	return "H_?";
}
