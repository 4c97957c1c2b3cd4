/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest OS's hv_gpci client (hvpmu/gpci.h): the call sequences of
 * Linux's arch/powerpc/perf/hv-gpci.c and hv-common.c
 * (../shared/reference/linux-clients.md §2.4), and the replies decoded
 * with the service's request tables (hvpmu/papr.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
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
	r->version_out = b[HVPMU_GPCI_VERSION_OUT];
	r->rq = hvpmu_gpci_request_layout(request, r->version_out); /* the layout it answered in */
	r->starting_index = (uint32_t)get_be(b + HVPMU_GPCI_STARTING_INDEX, 4);
	r->detail_rc = (uint32_t)get_be(b + HVPMU_GPCI_DETAIL_RC, 4);
	r->element_bytes = (uint16_t)get_be(b + HVPMU_GPCI_CV_ELEMENT_SIZE, 2);
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

const struct hvpmu_gpci_request *hvpmu_gpci_sv_request_at(unsigned i) { return hvpmu_gpci_request_at(i); }

const struct hvpmu_gpci_request *hvpmu_gpci_sv_request_parse(const char *s)
{
	const struct hvpmu_gpci_request *r;
	char *end;
	unsigned long code;

	if (!s || !*s)
		return NULL;
	for (unsigned i = 0; (r = hvpmu_gpci_request_at(i)); i++)
		if (strcmp(r->name, s) == 0)
			return r;
	code = strtoul(s, &end, 0);
	return *end || code > UINT32_MAX || s[0] == '-' ? NULL : hvpmu_gpci_request_find((uint32_t)code);
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

/* ---- a machine to ask (hvpmu_gpci_sys_open) ---- */

struct hvpmu_gpci_sys {
	struct hvpmu_machine *m;  /* owned (hvpmu_gpci_sys_open), or NULL (attached) */
	struct hvpmu_hv *hv;
	struct hvpmu_guest_mem *mem;
	uint32_t strand;
	struct hvpmu_gpci_os os;
};

static int sys_write(void *ctx, uint64_t ra, const void *buf, size_t n)
{
	struct hvpmu_gpci_sys *s = ctx;

	return hvpmu_guest_mem_write(s->mem, ra, buf, n);
}

static int sys_read(void *ctx, uint64_t ra, void *buf, size_t n)
{
	struct hvpmu_gpci_sys *s = ctx;

	return hvpmu_guest_mem_read(s->mem, ra, buf, n);
}

static int64_t sys_hcall(void *ctx, const uint64_t gpr[3])
{
	struct hvpmu_gpci_sys *s = ctx;

	return hvpmu_papr_hv_hcall(s->hv, s->strand, gpr);
}

/* Bind s to partition `partition_id` (0: the first) of md, on hypervisor s->hv. */
static int bind(struct hvpmu_gpci_sys *s, const struct hvpmu_md *md, unsigned partition_id)
{
	unsigned part = 0;

	if (partition_id) {
		int i = hvpmu_cec_partition_index(&md->cec, partition_id);

		if (i < 0)
			return HVPMU_EINVAL;
		part = (unsigned)i;
	}
	s->mem = hvpmu_hv_guest_mem(s->hv, part);
	s->strand = md->guests[part].first_strand;
	s->os.buf_ra = md->guests[part].mem[0].base + md->guests[part].mem[0].size - HVPMU_GPCI_REQ_BUFFER_SIZE;
	s->os.write = sys_write;
	s->os.read = sys_read;
	s->os.hcall = sys_hcall;
	s->os.ctx = s;
	return HVPMU_OK;
}

/* Can partition `partition_id` of md be asked from? */
static int askable(const struct hvpmu_md *md, unsigned partition_id)
{
	int part = partition_id ? hvpmu_cec_partition_index(&md->cec, partition_id) : 0;

	return md->cec.npartitions && part >= 0 && (unsigned)part < md->nguests && md->guests[part].nmem &&
	       md->guests[part].mem[0].size >= HVPMU_GPCI_REQ_BUFFER_SIZE;
}

int hvpmu_gpci_sys_open(const struct hvpmu_md *md, unsigned partition_id, struct hvpmu_gpci_sys **out)
{
	struct hvpmu_gpci_sys *s;
	int rc;

	if (!out)
		return HVPMU_EINVAL;
	*out = NULL;
	if (!md || !askable(md, partition_id))
		return HVPMU_EINVAL;
	if (!(s = calloc(1, sizeof *s)))
		return HVPMU_ENOMEM;
	if ((rc = hvpmu_machine_create(md, &s->m)) || (rc = hvpmu_hv_create(s->m, &s->hv)) ||
	    (rc = bind(s, hvpmu_machine_md(s->m), partition_id))) {
		hvpmu_gpci_sys_close(s);
		return rc;
	}
	*out = s;
	return HVPMU_OK;
}

int hvpmu_gpci_sys_attach(struct hvpmu_hv *hv, const struct hvpmu_md *md, unsigned partition_id,
			  struct hvpmu_gpci_sys **out)
{
	struct hvpmu_gpci_sys *s;

	if (!out)
		return HVPMU_EINVAL;
	*out = NULL;
	if (!hv || !md || !askable(md, partition_id))
		return HVPMU_EINVAL;
	if (!(s = calloc(1, sizeof *s)))
		return HVPMU_ENOMEM;
	s->hv = hv;
	bind(s, md, partition_id);
	*out = s;
	return HVPMU_OK;
}

const struct hvpmu_gpci_os *hvpmu_gpci_sys_os(const struct hvpmu_gpci_sys *sys) { return &sys->os; }

void hvpmu_gpci_sys_close(struct hvpmu_gpci_sys *sys)
{
	if (!sys)
		return;
	if (sys->m) { /* opened, not attached */
		hvpmu_hv_destroy(sys->hv);
		hvpmu_machine_destroy(sys->m);
	}
	free(sys);
}
