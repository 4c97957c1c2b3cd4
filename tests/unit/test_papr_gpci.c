/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * H_GetPerformanceCounterInfo, hcall 0xF080 (hvpmu/papr.h,
 * src/services/papr.c) over the default CEC and its statistics device,
 * fed by the explicit feeder of cec_feed.h:
 *   - every status path, and the spec's order of the four checks
 *     (../shared/specs/papr-platform-hcalls.xml, "Semantics");
 *   - every request's lists byte by byte, big-endian, against images
 *     this file builds from the spec's tables at literal offsets and from
 *     what the feeder fed;
 *   - Linux's call sequences (../shared/reference/linux-clients.md §2.4):
 *     the 48-byte capabilities probe, the 4096-byte version probe, and
 *     single_gpci_request()'s big-endian assembly of a counter;
 *   - two partitions, one without the right to see the other: H_Authority.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <hvpmu/hvpmu.h>
#include "cec_feed.h"

#define RA UINT64_C(0x100000)  /* the block, in the partition's first segment */
#define SEG_BYTES 0x10000u
#define RA2 (RA + SEG_BYTES)   /* a second segment adjacent to the first */
#define BUF 4096u              /* Linux's HGPCI_REQ_BUFFER_SIZE */

struct world {
	struct hvpmu_cec cec;
	struct hvpmu_cec_stats *st;
	struct hvpmu_papr *p;
	struct hvpmu_guest_mem *mem[HVPMU_CEC_MAX_PARTITIONS];
	struct hvpmu_papr_caller c[HVPMU_CEC_MAX_PARTITIONS];
	struct expect e;
	uint64_t tb;
	int bus_fail;
};

static int bus_read(void *ctx, unsigned reg, uint64_t *v)
{
	struct world *w = ctx;

	return w->bus_fail ? HVPMU_ERANGE : hvpmu_cec_stats_read(w->st, reg, v);
}

static int bus_write(void *ctx, unsigned reg, uint64_t v)
{
	struct world *w = ctx;

	return w->bus_fail ? HVPMU_ERANGE : hvpmu_cec_stats_write(w->st, reg, v);
}

/* The default CEC (or `cec`), fed `windows` dispatch windows; partition
 * i calls from the first processor it runs on in the feeder. */
static struct world *world(const struct hvpmu_cec *cec, int windows)
{
	static struct world w;
	static const unsigned runs_on[] = { 0, 4, 8 };
	const struct hvpmu_guest_mem_seg segs[] = { { RA, SEG_BYTES }, { RA2, 0x1000 } };
	struct hvpmu_papr_bus bus = { bus_read, bus_write, &w };

	memset(&w, 0, sizeof w);
	if (cec)
		w.cec = *cec;
	else
		hvpmu_cec_default(&w.cec);
	assert_int_equal(hvpmu_cec_stats_create(&w.cec, &w.st), 0);
	assert_int_equal(hvpmu_papr_create(&w.cec, &bus, &w.p), 0);
	for (unsigned i = 0; i < w.cec.npartitions; i++) {
		assert_int_equal(hvpmu_guest_mem_create(segs, 2, &w.mem[i]), 0);
		w.c[i] = (struct hvpmu_papr_caller){ i, runs_on[i], w.mem[i] };
	}
	for (int k = 0; k < windows; k++)
		window(w.st, &w.cec, &w.e, &w.tb, 5000 + rnd(50000));
	return &w;
}

static void world_free(struct world *w)
{
	for (unsigned i = 0; i < HVPMU_CEC_MAX_PARTITIONS; i++)
		hvpmu_guest_mem_destroy(w->mem[i]);
	hvpmu_papr_destroy(w->p);
	hvpmu_cec_stats_destroy(w->st);
}

static void put32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24), b[1] = (uint8_t)(v >> 16), b[2] = (uint8_t)(v >> 8), b[3] = (uint8_t)v;
}
static void put16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)(v >> 8), b[1] = (uint8_t)v; }
static void put64(uint8_t *b, uint64_t v)
{
	put32(b, (uint32_t)(v >> 32));
	put32(b + 4, (uint32_t)v);
}
static uint64_t get(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | b[i];
	return v;
}

/* Write a parameter block of `size` bytes (0-filled past the header, as
 * Linux zeroes its buffer) at ra in partition part's memory. */
static void block_v(struct world *w, unsigned part, uint64_t ra, uint32_t req, uint32_t start, uint8_t version_in,
		    size_t size)
{
	static uint8_t b[2 * BUF];

	assert_true(size <= sizeof b);
	memset(b, 0, size);
	if (size >= 32) {
		put32(b, req);
		put32(b + 4, start);
		b[0x12] = version_in;
	}
	assert_int_equal(hvpmu_guest_mem_write(w->mem[part], ra, b, size), 0);
}

static void block(struct world *w, unsigned part, uint64_t ra, uint32_t req, uint32_t start, size_t size)
{
	block_v(w, part, ra, req, start, 0, size);
}

static int64_t call(struct world *w, unsigned part, uint64_t ra, uint64_t size)
{
	const uint64_t gpr[3] = { 0xF080, ra, size };

	return hvpmu_papr_hcall(w->p, &w->c[part], gpr);
}

static const uint8_t *read_back(struct world *w, unsigned part, uint64_t ra, size_t n)
{
	static uint8_t b[2 * BUF];

	assert_true(n <= sizeof b);
	assert_int_equal(hvpmu_guest_mem_read(w->mem[part], ra, b, n), 0);
	return b;
}

/* A status path leaves the block as it was. */
static void expect_status(struct world *w, unsigned part, uint64_t ra, uint64_t size, int64_t want)
{
	static uint8_t before[BUF];
	size_t n = size > BUF ? BUF : (size_t)size;
	int mapped = hvpmu_guest_mem_range_ok(w->mem[part], ra, n);

	if (mapped)
		memcpy(before, read_back(w, part, ra, n), n);
	assert_int_equal(call(w, part, ra, size), want);
	if (mapped)
		assert_memory_equal(before, read_back(w, part, ra, n), n);
}

/* ---- status paths, in the spec's order ---- */

static void test_privilege(void **state)
{
	struct world *w = world(NULL, 2);
	struct hvpmu_papr_caller none = { 0, 0, NULL };
	const uint64_t gpr[3] = { 0xF080, RA, BUF };

	(void)state;
	block(w, 0, RA, 0x10, 0, BUF);
	expect_status(w, 0, 0x5000, BUF, HVPMU_H_PRIVILEGE);               /* not in the partition's memory */
	expect_status(w, 0, RA + SEG_BYTES - 16, 32, HVPMU_H_PRIVILEGE);   /* across two segments */
	expect_status(w, 0, RA + SEG_BYTES - BUF + 8, BUF, HVPMU_H_PRIVILEGE);
	expect_status(w, 0, UINT64_MAX - 8, 32, HVPMU_H_PRIVILEGE);        /* wraps */
	expect_status(w, 0, 0x5000, 0, HVPMU_H_PRIVILEGE);                 /* size 0: the byte at ra */
	expect_status(w, 0, RA, UINT64_MAX, HVPMU_H_PRIVILEGE);
	assert_int_equal(hvpmu_papr_hcall(w->p, &none, gpr), HVPMU_H_PRIVILEGE); /* no real memory */
	/* first check first: an unknown request in an inaccessible block */
	block(w, 0, RA2, 0x12345, 0, 0x1000);
	expect_status(w, 0, RA2, 0x1001, HVPMU_H_PRIVILEGE);
	world_free(w);
}

static void test_parameter(void **state)
{
	struct world *w = world(NULL, 2);

	(void)state;
	block(w, 0, RA, 0x10, 0, BUF);
	expect_status(w, 0, RA, 0, HVPMU_H_PARAMETER);
	expect_status(w, 0, RA, 31, HVPMU_H_PARAMETER);
	for (uint32_t req = 0; req < 0x200; req++) { /* codes neither implemented nor known */
		if (hvpmu_gpci_request_find(req) || hvpmu_gpci_request_known(req))
			continue;
		block(w, 0, RA, req, 0, BUF);
		expect_status(w, 0, RA, BUF, HVPMU_H_PARAMETER);
	}
	block(w, 0, RA, 0x12345678, 0xFFFFFFFF, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_PARAMETER);
	/* a starting index with nothing at or past it */
	block(w, 0, RA, 0x10, 32, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_PARAMETER);
	block(w, 0, RA, 0x80002000, 0x7FFFFFFF, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_PARAMETER);
	block(w, 0, RA, 0x20, 4, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_PARAMETER);
	block(w, 0, RA, 0x30, 0xFFFF, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_PARAMETER);
	block(w, 0, RA, 0x50, 0x14, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_PARAMETER);
	block(w, 0, RA, 0x60, 0xFFFFFFFE, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_PARAMETER);
	/* Set MMCRH: its value must be there and be one MMCRH can hold */
	block(w, 0, RA, 0x80001000, 0, 40);
	expect_status(w, 0, RA, 39, HVPMU_H_PARAMETER);
	{
		uint8_t v[8];

		put64(v, 1); /* a reserved bit */
		assert_int_equal(hvpmu_guest_mem_write(w->mem[0], RA + 32, v, 8), 0);
		expect_status(w, 0, RA, 40, HVPMU_H_PARAMETER);
		put64(v, 0x00000500); /* no event 5 */
		assert_int_equal(hvpmu_guest_mem_write(w->mem[0], RA + 32, v, 8), 0);
		expect_status(w, 0, RA, 40, HVPMU_H_PARAMETER);
		/* before H_Authority: the partition without the right */
		assert_int_equal(hvpmu_guest_mem_write(w->mem[1], RA, read_back(w, 0, RA, 40), 40), 0);
		expect_status(w, 1, RA, 40, HVPMU_H_PARAMETER);
	}
	/* before H_Authority: the partition without the right, a bad index */
	block(w, 1, RA, 0x10, 99, BUF);
	expect_status(w, 1, RA, BUF, HVPMU_H_PARAMETER);
	/* before H_Not_Available: 0x40 with index 0 in a block too small for its list */
	block(w, 0, RA, 0x40, 0, 47);
	assert_int_equal(call(w, 0, RA, 47), HVPMU_H_PARAMETER);
	world_free(w);
}

/* A block with room for the header but not for one list. */
static void test_buffer_too_small(void **state)
{
	struct world *w = world(NULL, 2);
	static const struct { uint32_t req, bytes; } r[] = {
		{ 0x10, 0x30 }, { 0x20, 0x30 }, { 0x30, 0x18 }, { 0x40, 0x10 }, { 0x50, 0x40 }, { 0x60, 0x50 },
		{ 0x80002000, 0x48 },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof r / sizeof r[0]; i++) {
		const uint8_t *h;

		block(w, 0, RA, r[i].req, 0xFFFFFFFF, 32 + r[i].bytes + 8);
		assert_int_equal(call(w, 0, RA, 32 + r[i].bytes - 1), HVPMU_H_PARAMETER);
		h = read_back(w, 0, RA, 32 + r[i].bytes + 8);
		assert_int_equal(get(h + 0x0, 4), r[i].req);
		assert_int_equal(get(h + 0x4, 4), 0xFFFFFFFF);
		assert_int_equal(get(h + 0x8, 4), 0);    /* returned_values */
		assert_int_equal(get(h + 0xC, 4), 0x1B); /* detail_rc GEN_BUF_TOO_SMALL */
		assert_int_equal(get(h + 0x10, 2), r[i].bytes);
		for (unsigned k = 32; k < 32 + r[i].bytes + 8; k++)
			assert_int_equal(h[k], 0); /* no list written */
	}
	world_free(w);
}

static void test_not_available(void **state)
{
	static const uint32_t known[] = { 0x70, 0x80, 0x90, 0x91, 0x94, 0x95, 0xA0, 0xB0,
					  0xB1, 0xC0, 0xD0, 0xE0, 0xF0, 0xF4, 0x100 };
	struct world *w = world(NULL, 2);
	struct hvpmu_cec nolab;

	(void)state;
	for (unsigned i = 0; i < sizeof known / sizeof known[0]; i++) {
		assert_true(hvpmu_gpci_request_known(known[i]));
		for (unsigned part = 0; part < 2; part++) { /* before H_Authority too */
			block(w, part, RA, known[i], 0, BUF);
			expect_status(w, part, RA, BUF, HVPMU_H_NOT_AVAILABLE);
			block(w, part, RA, known[i], 0xFFFFFFFF, BUF);
			expect_status(w, part, RA, BUF, HVPMU_H_NOT_AVAILABLE);
		}
	}
	/* 0x40 with a starting index other than -1, whoever asks */
	for (unsigned part = 0; part < 3; part++) {
		block(w, part, RA, 0x40, 0, BUF);
		expect_status(w, part, RA, BUF, HVPMU_H_NOT_AVAILABLE);
		block(w, part, RA, 0x40, 2, 48);
		expect_status(w, part, RA, 48, HVPMU_H_NOT_AVAILABLE);
	}
	world_free(w);
	/* LAB requests on a firmware without them */
	hvpmu_cec_default(&nolab);
	nolab.lab = 0;
	w = world(&nolab, 1);
	block(w, 0, RA, 0x80002000, 0, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_NOT_AVAILABLE);
	block(w, 0, RA, 0x80001000, 0, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_NOT_AVAILABLE);
	block(w, 1, RA, 0x80002000, 0, BUF); /* before H_Authority */
	expect_status(w, 1, RA, BUF, HVPMU_H_NOT_AVAILABLE);
	/* and the capability mask says so */
	block(w, 0, RA, 0x40, 0xFFFFFFFF, 48);
	assert_int_equal(call(w, 0, RA, 48), HVPMU_H_SUCCESS);
	assert_int_equal(read_back(w, 0, RA, 48)[0x21], 0x80);
	world_free(w);
}

/*
 * papr-platform-hcalls.xml "Semantics" (lines 107-112): "Validate the size
 * and contents of getPerformanceCounterInfoParms, else H_Parameter."
 * comes before "Validate information is available for the firmware level
 * and platform, else H_Not_Available."  A LAB request whose block is bad
 * is H_Parameter on a firmware without LAB too (issue 30).
 */
static void test_check_order_lab(void **state)
{
	struct hvpmu_cec nolab;
	struct world *w;
	const uint8_t *h;
	uint8_t v[8];

	(void)state;
	hvpmu_cec_default(&nolab);
	nolab.lab = 0;
	w = world(&nolab, 1);
	/* Set MMCRH: a block too small to hold its value (lines 531-532) */
	block(w, 0, RA, 0x80001000, 0, 40);
	expect_status(w, 0, RA, 32, HVPMU_H_PARAMETER);
	expect_status(w, 0, RA, 39, HVPMU_H_PARAMETER);
	/* ... a value MMCRH cannot hold (a reserved bit), from either partition */
	put64(v, 1);
	assert_int_equal(hvpmu_guest_mem_write(w->mem[0], RA + 32, v, 8), 0);
	expect_status(w, 0, RA, 40, HVPMU_H_PARAMETER);
	assert_int_equal(hvpmu_guest_mem_write(w->mem[1], RA, read_back(w, 0, RA, 40), 40), 0);
	expect_status(w, 1, RA, 40, HVPMU_H_PARAMETER);
	/* ... a good value: now the firmware level is asked */
	put64(v, 0x003C1200);
	assert_int_equal(hvpmu_guest_mem_write(w->mem[0], RA + 32, v, 8), 0);
	expect_status(w, 0, RA, 40, HVPMU_H_NOT_AVAILABLE);
	/* Retrieve HPMCx: a starting index naming no processor */
	block(w, 0, RA, 0x80002000, 99, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_PARAMETER);
	/* ... a block too small for one list of 72 bytes (lines 558-577):
	 * H_Parameter with GEN_BUF_TOO_SMALL, as on a LAB firmware */
	block(w, 0, RA, 0x80002000, 0, 32 + 72);
	assert_int_equal(call(w, 0, RA, 32 + 71), HVPMU_H_PARAMETER);
	h = read_back(w, 0, RA, 32 + 72);
	assert_int_equal(get(h + 0x8, 4), 0);
	assert_int_equal(get(h + 0xC, 4), 0x1B);
	assert_int_equal(get(h + 0x10, 2), 72);
	/* ... a good block: H_Not_Available, whoever asks */
	block(w, 0, RA, 0x80002000, 0, BUF);
	expect_status(w, 0, RA, BUF, HVPMU_H_NOT_AVAILABLE);
	block(w, 1, RA, 0x80002000, 0xFFFFFFFF, BUF);
	expect_status(w, 1, RA, BUF, HVPMU_H_NOT_AVAILABLE);
	world_free(w);
}

static void test_authority(void **state)
{
	struct world *w = world(NULL, 3);
	static const struct { uint32_t req, start; } denied[] = {
		{ 0x10, 0xFFFFFFFF }, { 0x10, 0 }, { 0x50, 0xFFFFFFFF }, { 0x50, 0x10 }, { 0x60, 0 },
		{ 0x20, 0 + 1 }, { 0x20, 3 }, { 0x30, 3 }, { 0x30, 0 + 1 }, { 0x80002000, 0 },
		{ 0x80002000, 0xFFFFFFFF },
	};
	const uint8_t *h;

	(void)state;
	/* partition 2 (index 1) has no right to others' data */
	for (unsigned i = 0; i < sizeof denied / sizeof denied[0]; i++) {
		block(w, 1, RA, denied[i].req, denied[i].start, BUF);
		expect_status(w, 1, RA, BUF, HVPMU_H_AUTHORITY);
	}
	block(w, 1, RA, 0x80001000, 0, 40); /* a valid MMCRH value (0): still every processor's */
	expect_status(w, 1, RA, 40, HVPMU_H_AUTHORITY);
	/* about itself it may ask: -1 or its own id, one list, its own */
	for (uint32_t start = 0xFFFFFFFF, k = 0; k < 2; k++, start = 2) {
		block(w, 1, RA, 0x20, start, BUF);
		assert_int_equal(call(w, 1, RA, BUF), HVPMU_H_SUCCESS);
		h = read_back(w, 1, RA, BUF);
		assert_int_equal(get(h + 4, 4), 2);
		assert_int_equal(get(h + 8, 4), 1);
		assert_int_equal(get(h + 32, 8), 2);
		assert_true(get(h + 32 + 0x10, 8) == w->e.part[1][HVPMU_CEC_L_CAPPED]);
	}
	block(w, 1, RA, 0x40, 0xFFFFFFFF, 48);
	assert_int_equal(call(w, 1, RA, 48), HVPMU_H_SUCCESS);
	assert_int_equal(read_back(w, 1, RA, 48)[0x20], 0); /* perf_collect_privileged */
	/* the partition with the right sees the others */
	block(w, 0, RA, 0x30, 2, BUF);
	assert_int_equal(call(w, 0, RA, BUF), HVPMU_H_SUCCESS);
	h = read_back(w, 0, RA, BUF);
	assert_int_equal(get(h + 8, 4), 2); /* partitions 2 and 3 */
	assert_true(get(h + 32 + 24 + 8, 8) == w->e.part[2][HVPMU_CEC_L_RUN_INSNS]);
	world_free(w);
}

/* Two partitions, one without the right (issue 15): it gets H_Authority
 * for the other's counters, the other gets both. */
static void test_two_partitions(void **state)
{
	struct hvpmu_cec cec;
	struct world *w;
	const uint8_t *h;

	(void)state;
	hvpmu_cec_default(&cec);
	cec.npartitions = 2; /* the dedicated one (with the right), the capped one (without) */
	w = world(&cec, 0);
	/* the feeder's windows need all three: feed these two by hand */
	w->tb = 100000;
	assert_int_equal(hvpmu_cec_stats_advance(w->st, w->tb), 0);
	for (unsigned p = 0; p < 2; p++) {
		struct hvpmu_cec_dispatch d = { .proc = p ? 5 : 1, .part = p };

		assert_int_equal(hvpmu_cec_stats_entitle(w->st, p, 1000 + rnd(1000)), 0);
		d.capped = 500 + rnd(500);
		d.idle = rnd(d.capped);
		assert_int_equal(hvpmu_cec_stats_dispatch(w->st, &d), 0);
		w->e.part[p][HVPMU_CEC_L_CAPPED] = d.capped;
		w->e.part[p][HVPMU_CEC_L_IDLE] = d.idle;
	}
	for (uint32_t start = 1; start <= 2; start++) {
		block(w, 1, RA, 0x20, start, BUF);
		if (start == 1)
			expect_status(w, 1, RA, BUF, HVPMU_H_AUTHORITY);
		else
			assert_int_equal(call(w, 1, RA, BUF), HVPMU_H_SUCCESS);
	}
	block(w, 0, RA, 0x20, 1, BUF);
	assert_int_equal(call(w, 0, RA, BUF), HVPMU_H_SUCCESS);
	h = read_back(w, 0, RA, BUF);
	assert_int_equal(get(h + 8, 4), 2);
	for (unsigned p = 0; p < 2; p++) {
		assert_int_equal(get(h + 32 + 48 * p, 8), p + 1);
		assert_true(get(h + 32 + 48 * p + 0x10, 8) == w->e.part[p][HVPMU_CEC_L_CAPPED]);
		assert_true(get(h + 32 + 48 * p + 0x28, 8) == w->e.part[p][HVPMU_CEC_L_IDLE]);
	}
	world_free(w);
}

static void test_hardware(void **state)
{
	struct world *w = world(NULL, 1);
	static const uint32_t reqs[] = { 0x10, 0x20, 0x30, 0x50, 0x60, 0x80002000 };

	(void)state;
	w->bus_fail = 1;
	for (unsigned i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
		block(w, 0, RA, reqs[i], 0xFFFFFFFF, BUF);
		expect_status(w, 0, RA, BUF, HVPMU_H_HARDWARE);
	}
	block(w, 0, RA, 0x80001000, 0, 40);
	expect_status(w, 0, RA, 40, HVPMU_H_HARDWARE);
	/* the capabilities come from the description, not the device */
	block(w, 0, RA, 0x40, 0xFFFFFFFF, 48);
	assert_int_equal(call(w, 0, RA, 48), HVPMU_H_SUCCESS);
	world_free(w);
}

static void test_function(void **state)
{
	struct world *w = world(NULL, 0);
	uint64_t gpr[3] = { 0xF07C, RA, BUF }; /* H_GET_24X7_DATA: not this firmware's */

	(void)state;
	assert_int_equal(hvpmu_papr_hcall(w->p, &w->c[0], gpr), HVPMU_H_FUNCTION);
	gpr[0] = 0xF080 + 4;
	assert_int_equal(hvpmu_papr_hcall(w->p, &w->c[0], gpr), HVPMU_H_FUNCTION);
	world_free(w);
}

/* ---- layouts, byte by byte ---- */

/* Call `req` from partition 0 (with the right) with a BUF-byte block and
 * check the header: status, starting_index out, returned_values,
 * detail_rc, cv_element_size, version_out, and the inputs unchanged. */
static const uint8_t *request_v(struct world *w, uint32_t req, uint32_t start, uint8_t version_in,
				uint8_t version_out, uint32_t first, uint32_t n, uint16_t element)
{
	const uint8_t *h;

	block_v(w, 0, RA, req, start, version_in, BUF);
	assert_int_equal(call(w, 0, RA, BUF), HVPMU_H_SUCCESS);
	h = read_back(w, 0, RA, BUF);
	assert_int_equal(get(h + 0x00, 4), req);
	assert_int_equal(get(h + 0x04, 4), first);
	assert_int_equal(get(h + 0x08, 4), n);
	assert_int_equal(get(h + 0x0C, 4), 0);
	assert_int_equal(get(h + 0x10, 2), element);
	assert_int_equal(h[0x12], version_in);
	assert_int_equal(h[0x13], version_out);
	for (unsigned k = 0x14; k < 0x20; k++)
		assert_int_equal(h[k], 0);
	for (unsigned k = 32 + n * element; k < BUF; k++)
		assert_int_equal(h[k], 0); /* nothing past the lists */
	return h + 32;
}

/* version 0 asked: the seed's layout, version_out 0 */
static const uint8_t *request(struct world *w, uint32_t req, uint32_t start, uint32_t first, uint32_t n,
			      uint16_t element)
{
	return request_v(w, req, start, 0, 0, first, n, element);
}

static void test_layout_0x10(void **state)
{
	struct world *w;
	struct hvpmu_cec cec;
	uint8_t want[48];

	(void)state;
	hvpmu_cec_default(&cec);
	cec.procs[31].state = HVPMU_CEC_NOT_INSTALLED; /* chip id and version -1 */
	cec.procs[31].version = UINT32_MAX;
	cec.procs[30].state = HVPMU_CEC_GUARDED_OFF;
	w = world(&cec, 4);
	assert_int_equal(hvpmu_cec_stats_lend(w->st, 2, 1), 0); /* a borrowed processor, reported as such */
	for (uint32_t start = 0; start < 32; start += 7) {
		const uint8_t *v = request(w, 0x10, start, start, 32 - start, 48);

		for (uint32_t i = start; i < 32; i++) {
			const struct hvpmu_cec_proc *p = &cec.procs[i];
			int absent = p->state == HVPMU_CEC_NOT_INSTALLED;

			memset(want, 0, sizeof want);
			put64(want + 0x00, w->e.purr[i]);
			put32(want + 0x08, p->hw_id);
			put16(want + 0x0C, p->owner);
			want[0x0E] = i == 2 ? HVPMU_CEC_BORROWED : p->state;
			put32(want + 0x10, absent ? 0xFFFFFFFF : cec.chips[p->chip].hw_id);
			put32(want + 0x14, cec.chips[p->chip].module);
			put32(want + 0x18, p->primary_domain);
			put32(want + 0x1C, p->secondary_domain);
			put32(want + 0x20, absent ? 0xFFFFFFFF : p->version);
			put16(want + 0x24, p->logical_index);
			assert_memory_equal(v + 48 * (i - start), want, sizeof want);
		}
	}
	/* -1: the caller's processor only */
	{
		const uint8_t *v = request(w, 0x10, 0xFFFFFFFF, 0, 1, 48);

		assert_true(get(v, 8) == w->e.purr[0]);
		assert_int_equal(get(v + 0x0C, 2), 1);
		assert_int_equal(v[0x0E], HVPMU_CEC_DEDICATED);
	}
	world_free(w);
}

static void test_layout_0x20_0x30(void **state)
{
	struct world *w = world(NULL, 5);
	uint8_t want[48];

	(void)state;
	for (uint32_t start = 0; start <= 3; start++) {
		uint32_t first = start ? start : 1;
		const uint8_t *v = request(w, 0x20, start, first, 4 - first, 48);
		const uint8_t *r;

		for (uint32_t id = first; id <= 3; id++) {
			memset(want, 0, sizeof want);
			put64(want + 0x00, id);
			put64(want + 0x08, w->e.part[id - 1][HVPMU_CEC_L_ENTITLED]);
			put64(want + 0x10, w->e.part[id - 1][HVPMU_CEC_L_CAPPED]);
			put64(want + 0x18, w->e.part[id - 1][HVPMU_CEC_L_UNCAPPED]);
			put64(want + 0x20, w->e.part[id - 1][HVPMU_CEC_L_DONATED]);
			put64(want + 0x28, w->e.part[id - 1][HVPMU_CEC_L_IDLE]);
			assert_memory_equal(v + 48 * (id - first), want, 48);
		}
		r = request(w, 0x30, start, first, 4 - first, 24);
		for (uint32_t id = first; id <= 3; id++) {
			memset(want, 0, sizeof want);
			put64(want + 0x00, id);
			put64(want + 0x08, w->e.part[id - 1][HVPMU_CEC_L_RUN_INSNS]);
			put64(want + 0x10, w->e.part[id - 1][HVPMU_CEC_L_RUN_CYCLES]);
			assert_memory_equal(r + 24 * (id - first), want, 24);
		}
	}
	/* the fed world has every kind of cycle */
	assert_true(w->e.part[0][HVPMU_CEC_L_DONATED] && w->e.part[2][HVPMU_CEC_L_UNCAPPED] &&
		    w->e.part[1][HVPMU_CEC_L_IDLE]);
	/* -1 from partition 3: its own */
	block(w, 2, RA, 0x20, 0xFFFFFFFF, BUF);
	assert_int_equal(call(w, 2, RA, BUF), HVPMU_H_SUCCESS);
	assert_int_equal(get(read_back(w, 2, RA, 64) + 4, 4), 3);
	assert_int_equal(get(read_back(w, 2, RA, 64) + 32, 8), 3);
	world_free(w);
}

static void test_layout_0x40(void **state)
{
	struct world *w = world(NULL, 1);
	const uint8_t *v = request(w, 0x40, 0xFFFFFFFF, 1, 1, 16);
	uint8_t want[16] = { 1, 0x80 | 0x20 }; /* privileged; GA and LAB, not EXPANDED */

	(void)state;
	assert_memory_equal(v, want, 16);
	world_free(w);
}

/* The default CEC with every link of every chip connected, so that each
 * link has its own counts. */
static void all_links(struct hvpmu_cec *cec)
{
	static const unsigned peer[HVPMU_CEC_NLINKS] = { 2, 1, 3, 1, 2, 3, 1 }; /* c ^ peer */

	hvpmu_cec_default(cec);
	for (unsigned c = 0; c < 4; c++)
		for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++)
			cec->chips[c].link[l] = (int32_t)(c ^ peer[l]);
}

/* The longest fed total of `n` links of chip c from link `first`. */
static uint64_t total_of(const struct world *w, unsigned c, unsigned first, unsigned n)
{
	uint64_t t = 0;

	for (unsigned l = first; l < first + n; l++)
		if (w->e.link[c][HVPMU_CEC_C_LINK_TOTAL(l)] > t)
			t = w->e.link[c][HVPMU_CEC_C_LINK_TOTAL(l)];
	return t;
}

static void test_layout_links(void **state)
{
	struct hvpmu_cec cec;
	struct world *w;
	static const struct { uint32_t req; uint16_t bytes; unsigned first_link, nlinks; } r[] = {
		{ 0x50, 64, HVPMU_CEC_LINK_A, 3 }, { 0x60, 80, HVPMU_CEC_LINK_W, 4 },
	};
	uint8_t want[80];

	(void)state;
	all_links(&cec); /* so that each link has its own counts */
	w = world(&cec, 6);
	for (unsigned k = 0; k < 2; k++)
		for (uint32_t start = 0; start <= 0x13; start += 0x9) {
			uint32_t c0 = start <= 0x10 ? 0 : start - 0x10;
			const uint8_t *v = request(w, r[k].req, start, 0x10 + c0, 4 - c0, r[k].bytes);

			for (uint32_t c = c0; c < 4; c++) {
				memset(want, 0, sizeof want);
				put32(want, 0x10 + c);
				/* (bounded by want's size too: gcc -O3 cannot see nlinks <= 4) */
				for (unsigned l = 0; l < r[k].nlinks && 0x20 + 16 * l <= sizeof want; l++) {
					put64(want + 0x10 + 16 * l, w->e.link[c][HVPMU_CEC_C_LINK_IDLE(r[k].first_link + l)]);
					put64(want + 0x18 + 16 * l, w->e.link[c][HVPMU_CEC_C_LINK_TOTAL(r[k].first_link + l)]);
				}
				assert_memory_equal(v + r[k].bytes * (c - c0), want, r[k].bytes);
			}
		}
	/* the fed links are distinct non-zero counts */
	for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++)
		assert_true(w->e.link[0][HVPMU_CEC_C_LINK_IDLE(l)] &&
			    w->e.link[0][HVPMU_CEC_C_LINK_TOTAL(l)] != w->e.link[0][HVPMU_CEC_C_LINK_IDLE(l)]);
	/* -1: the chip of the caller's processor (partition 3 on processor 8: chip 1) */
	block(w, 0, RA, 0x60, 0xFFFFFFFF, BUF);
	w->c[0].proc = 8;
	assert_int_equal(call(w, 0, RA, BUF), HVPMU_H_SUCCESS);
	assert_int_equal(get(read_back(w, 0, RA, 64) + 4, 4), 0x11);
	assert_int_equal(get(read_back(w, 0, RA, 64) + 8, 4), 1);
	assert_int_equal(get(read_back(w, 0, RA, 64) + 32, 4), 0x11);
	world_free(w);
}

/*
 * Counter-info versions (issue 30): the caller's counter_info_version_in
 * names the layout (Linux: "0 (zero) for versions < 0x3", hvpmu/papr.h;
 * the layouts of torvalds/linux arch/powerpc/perf/hv-gpci-requests.h,
 * from version 3 as the historical hv-gpci.h says: 0x50 and 0x60 "valid
 * if counter_info_version >= 0x3", 0x10's processor_id_register and
 * phys_processor_idx "counter_info_version >= 0x3"), and
 * counter_info_version_out says which one was written.  Version 0 is the
 * seed's (papr-platform-hcalls.xml lines 440-523: idle, then the time
 * collected, per link from 0x10); a version Linux does not name, or one
 * above the firmware's level, gets the seed's and version_out 0.
 */
static void test_versions(void **state)
{
	static const uint8_t named[] = { 3, 5, 6, 8 }, unknown[] = { 1, 2, 4, 7, 9, 0x10, 0x80, 0xFF };
	struct hvpmu_cec cec;
	struct world *w;
	uint8_t want[96];

	(void)state;
	all_links(&cec);
	w = world(&cec, 6);
	for (unsigned k = 0; k < sizeof named; k++) {
		const uint8_t *v = request_v(w, 0x50, 0x11, named[k], named[k], 0x11, 3, 80);

		for (unsigned c = 1; c < 4; c++) { /* total_link_cycles @0x10, idle A, B, C @0x18, 0x20, 0x28 */
			memset(want, 0, sizeof want);
			put32(want, 0x10 + c);
			put64(want + 0x10, total_of(w, c, HVPMU_CEC_LINK_A, 3));
			for (unsigned l = 0; l < 3; l++)
				put64(want + 0x18 + 8 * l, w->e.link[c][HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_A + l)]);
			assert_memory_equal(v + 80 * (c - 1), want, 80);
		}
		v = request_v(w, 0x60, 0, named[k], named[k], 0x10, 4, 96);
		for (unsigned c = 0; c < 4; c++) { /* total @0x10, idle W, X, Y, Z @0x18 .. 0x30 */
			memset(want, 0, sizeof want);
			put32(want, 0x10 + c);
			put64(want + 0x10, total_of(w, c, HVPMU_CEC_LINK_W, 4));
			for (unsigned l = 0; l < 4; l++)
				put64(want + 0x18 + 8 * l, w->e.link[c][HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_W + l)]);
			assert_memory_equal(v + 96 * c, want, 96);
		}
		v = request_v(w, 0x10, 28, named[k], named[k], 28, 4, 48);
		for (unsigned i = 28; i < 32; i++) {
			const uint8_t *e = v + 48 * (i - 28);

			assert_true(get(e, 8) == w->e.purr[i]);
			assert_int_equal(get(e + 0x08, 4), cec.procs[i].hw_id);
			assert_int_equal(get(e + 0x24, 2), cec.procs[i].logical_index);
			assert_int_equal(get(e + 0x26, 2), 0);
			assert_int_equal(get(e + 0x28, 4), cec.procs[i].hw_id); /* processor_id_register */
			assert_int_equal(get(e + 0x2C, 4), i);                  /* phys_processor_idx */
		}
		/* the others have one layout: the version is reported all the same */
		v = request_v(w, 0x30, 2, named[k], named[k], 2, 2, 24);
		assert_true(get(v + 8, 8) == w->e.part[1][HVPMU_CEC_L_RUN_INSNS]);
		request_v(w, 0x40, 0xFFFFFFFF, named[k], named[k], 1, 1, 16);
		/* a block too small for one list of the version's layout */
		block_v(w, 0, RA, 0x60, 0x10, named[k], 32 + 96);
		assert_int_equal(call(w, 0, RA, 32 + 95), HVPMU_H_PARAMETER);
		assert_int_equal(get(read_back(w, 0, RA, 32) + 0xC, 4), 0x1B);
		assert_int_equal(get(read_back(w, 0, RA, 32) + 0x10, 2), 96);
		assert_int_equal(read_back(w, 0, RA, 32)[0x13], named[k]);
	}
	/* the seed's version, and versions this firmware does not know: the seed's layout, version_out 0 */
	for (unsigned k = 0; k <= sizeof unknown; k++) {
		uint8_t in = k ? unknown[k - 1] : 0;
		const uint8_t *v = request_v(w, 0x50, 0x10, in, 0, 0x10, 4, 64);

		for (unsigned c = 0; c < 4; c++)
			for (unsigned l = 0; l < 3; l++) {
				assert_true(get(v + 64 * c + 0x10 + 16 * l, 8) ==
					    w->e.link[c][HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_A + l)]);
				assert_true(get(v + 64 * c + 0x18 + 16 * l, 8) ==
					    w->e.link[c][HVPMU_CEC_C_LINK_TOTAL(HVPMU_CEC_LINK_A + l)]);
			}
		v = request_v(w, 0x60, 0x13, in, 0, 0x13, 1, 80);
		assert_true(get(v + 0x40, 8) == w->e.link[3][HVPMU_CEC_C_LINK_IDLE(HVPMU_CEC_LINK_Z)]);
		v = request_v(w, 0x10, 31, in, 0, 31, 1, 48);
		for (unsigned b = 0x26; b < 48; b++)
			assert_int_equal(v[b], 0); /* the seed's uint8[10] reserved */
	}
	world_free(w);
	/* the firmware's level (the description's counter_info_version): above it, the seed's */
	cec.counter_info_version = 6;
	w = world(&cec, 1);
	request_v(w, 0x50, 0x10, 8, 0, 0x10, 4, 64);
	request_v(w, 0x50, 0x10, 6, 6, 0x10, 4, 80);
	request_v(w, 0x50, 0x10, 3, 3, 0x10, 4, 80);
	world_free(w);
	cec.counter_info_version = 0; /* a v7r{2,3,4}m0 firmware: only the seed's */
	w = world(&cec, 1);
	request_v(w, 0x60, 0x10, 8, 0, 0x10, 4, 80);
	request_v(w, 0x60, 0x10, 3, 0, 0x10, 4, 80);
	request_v(w, 0x10, 0, 3, 0, 0, 32, 48);
	world_free(w);
}

/* Set MMCRH, run a window, retrieve HPMCx: what was fed since the set. */
static void test_layout_hpmc(void **state)
{
	struct world *w = world(NULL, 3);
	static struct expect before;
	uint8_t want[72], val[8];
	uint64_t tb0;

	(void)state;
	block(w, 0, RA, 0x80001000, 0, 40);
	put64(val, 0x1E0200); /* HPMC1 run instructions, HPMC2 run cycles */
	assert_int_equal(hvpmu_guest_mem_write(w->mem[0], RA + 32, val, 8), 0);
	assert_int_equal(call(w, 0, RA, 40), HVPMU_H_SUCCESS);
	assert_int_equal(get(read_back(w, 0, RA, 40) + 8, 8), 0); /* no output */
	before = w->e;
	tb0 = w->tb;
	window(w->st, &w->cec, &w->e, &w->tb, 20000);
	for (uint32_t start = 0; start < 32; start += 5) {
		const uint8_t *v = request(w, 0x80002000, start, start, 32 - start, 72);

		for (uint32_t i = start; i < 32; i++) {
			uint64_t di = w->e.insns[i] - before.insns[i], dc = w->e.cycles[i] - before.cycles[i];

			memset(want, 0, sizeof want);
			put32(want + 0x00, w->cec.procs[i].hw_id);
			put64(want + 0x08, 0x1E0200);
			put64(want + 0x10, w->tb - tb0);
			put64(want + 0x18, di);
			put64(want + 0x20, dc);
			put64(want + 0x28, di);
			put64(want + 0x30, w->e.insns[i]);
			put64(want + 0x38, dc);
			put64(want + 0x40, w->e.cycles[i]);
			assert_memory_equal(v + 72 * (i - start), want, 72);
		}
	}
	/* -1 disables: since-set values 0 */
	block(w, 0, RA, 0x80001000, 0, 40);
	put64(val, UINT64_MAX);
	assert_int_equal(hvpmu_guest_mem_write(w->mem[0], RA + 32, val, 8), 0);
	assert_int_equal(call(w, 0, RA, 40), HVPMU_H_SUCCESS);
	{
		const uint8_t *v = request(w, 0x80002000, 0xFFFFFFFF, 0, 1, 72);

		assert_true(get(v + 0x08, 8) == UINT64_MAX);
		assert_true(get(v + 0x18, 8) == 0 && get(v + 0x28, 8) == 0 && get(v + 0x38, 8) == 0);
		assert_true(get(v + 0x30, 8) == w->e.insns[0]);
	}
	world_free(w);
}

/* A buffer that holds some lists: those, H_Parameter, detail_rc 0x1B. */
static void test_partial(void **state)
{
	struct world *w = world(NULL, 2);
	const uint8_t *h;

	(void)state;
	block(w, 0, RA, 0x10, 4, BUF);
	assert_int_equal(call(w, 0, RA, 32 + 3 * 48 + 47), HVPMU_H_PARAMETER);
	h = read_back(w, 0, RA, BUF);
	assert_int_equal(get(h + 4, 4), 4);
	assert_int_equal(get(h + 8, 4), 3);
	assert_int_equal(get(h + 0xC, 4), 0x1B);
	for (unsigned i = 0; i < 3; i++)
		assert_true(get(h + 32 + 48 * i, 8) == w->e.purr[4 + i]);
	for (unsigned k = 32 + 3 * 48; k < BUF; k++)
		assert_int_equal(h[k], 0);
	world_free(w);
}

/* ---- Linux's call sequences (linux-clients.md §2.4) ---- */

/* single_gpci_request(): zeroed 4096-byte buffer, request, index,
 * version_in; `length` bytes at counter_value[offset..] big-endian
 * (current kernels); H_Success or H_Parameter with detail_rc 0x1B. */
static int linux_read(struct world *w, unsigned part, uint32_t req, uint32_t index, uint8_t version, unsigned offset,
		      unsigned length, uint64_t *count)
{
	const uint8_t *b;
	int64_t rc;

	block_v(w, part, RA, req, index, version, BUF);
	rc = call(w, part, RA, BUF);
	b = read_back(w, part, RA, BUF);
	if (rc && !(rc == HVPMU_H_PARAMETER && get(b + 0xC, 4) == 0x1B))
		return -1;
	*count = 0;
	for (unsigned i = offset; i < offset + length; i++)
		*count |= (uint64_t)b[32 + i] << ((length - 1 - (i - offset)) * 8);
	return 0;
}

static void test_linux_probe(void **state)
{
	struct world *w = world(NULL, 3);
	const uint8_t *b;
	uint64_t v, prev;

	(void)state;
	/* hv_perf_caps_get(): 48 bytes, request 0x40, index -1, version_in 0 */
	for (unsigned part = 0; part < 3; part++) {
		block(w, part, RA, 0x40, 0xFFFFFFFF, 48);
		assert_int_equal(call(w, part, RA, 48), HVPMU_H_SUCCESS);
		b = read_back(w, part, RA, 48);
		assert_int_equal(b[0x13], 0); /* version: the one asked, 0 */
		assert_int_equal(!!b[0x20], w->cec.partitions[part].collect_privileged);
		assert_true(b[0x21] & 0x80);  /* ga */
		assert_false(b[0x21] & 0x40); /* expanded */
		assert_true(b[0x21] & 0x20);  /* lab */
	}
	/* hv_gpci_init(): request 0x10 in a zeroed 4096-byte buffer (index 0) */
	block(w, 0, RA, 0x10, 0, BUF);
	assert_int_equal(call(w, 0, RA, BUF), HVPMU_H_SUCCESS);
	assert_true(read_back(w, 0, RA, BUF)[0x13] < 8); /* the v6 event list, with 0x30 */
	/* ... a partition without the right: the call fails, Linux assumes 8 */
	block(w, 1, RA, 0x10, 0, BUF);
	assert_int_equal(call(w, 1, RA, BUF), HVPMU_H_AUTHORITY);
	/* events read as perf does, deltas across a window */
	assert_int_equal(linux_read(w, 0, 0x10, 5, 6, 0, 8, &v), 0);
	assert_true(v == w->e.purr[5]);
	assert_int_equal(linux_read(w, 0, 0x20, 3, 6, 0x18, 8, &v), 0); /* consumed_uncapped_cycles */
	assert_true(v == w->e.part[2][HVPMU_CEC_L_UNCAPPED]);
	assert_int_equal(linux_read(w, 0, 0x30, 2, 6, 0x8, 8, &v), 0); /* instructions_completed */
	prev = v;
	assert_true(v == w->e.part[1][HVPMU_CEC_L_RUN_INSNS]);
	assert_int_equal(linux_read(w, 0, 0x10, 7, 6, 0x8, 4, &v), 0); /* a field: hw_processor_id */
	assert_int_equal(v, w->cec.procs[7].hw_id);
	window(w->st, &w->cec, &w->e, &w->tb, 30000);
	assert_int_equal(linux_read(w, 0, 0x30, 2, 6, 0x8, 8, &v), 0);
	assert_true(v == w->e.part[1][HVPMU_CEC_L_RUN_INSNS]);
	assert_true(v > prev); /* the window ran it: a delta for perf */
	/* the partition without the right reads its own counters with index -1 */
	assert_int_equal(linux_read(w, 1, 0x20, 0xFFFFFFFF, 6, 0x8, 8, &v), 0);
	assert_true(v == w->e.part[1][HVPMU_CEC_L_ENTITLED]);
	assert_int_equal(linux_read(w, 1, 0x20, 1, 6, 0x8, 8, &v), -1); /* -EPERM at event init */
	world_free(w);
}

/* ---- the supervisor's client (hvpmu/gpci.h) bound to the service ---- */

struct os_ctx {
	struct world *w;
	unsigned part;
};

static int os_write(void *ctx, uint64_t ra, const void *buf, size_t n)
{
	struct os_ctx *o = ctx;

	return hvpmu_guest_mem_write(o->w->mem[o->part], ra, buf, n);
}

static int os_read(void *ctx, uint64_t ra, void *buf, size_t n)
{
	struct os_ctx *o = ctx;

	return hvpmu_guest_mem_read(o->w->mem[o->part], ra, buf, n);
}

static int64_t os_hcall(void *ctx, const uint64_t gpr[3])
{
	struct os_ctx *o = ctx;

	return hvpmu_papr_hcall(o->w->p, &o->w->c[o->part], gpr);
}

static void test_client(void **state)
{
	struct world *w = world(NULL, 4);
	struct os_ctx oc = { w, 0 };
	struct hvpmu_gpci_os os = { RA, os_write, os_read, os_hcall, &oc };
	struct hvpmu_gpci_caps caps;
	static struct hvpmu_gpci_reply r;
	int64_t st;
	uint64_t v;

	(void)state;
	assert_int_equal(hvpmu_gpci_caps_get(&os, &caps), HVPMU_H_SUCCESS);
	assert_true(caps.collect_privileged && caps.ga && caps.lab && !caps.expanded);
	assert_int_equal(caps.version, 0);
	/* every list of 0x20, decoded by name through the table */
	assert_int_equal(hvpmu_gpci_call(&os, 0x20, 0, 0, 0, &r), HVPMU_H_SUCCESS);
	assert_true(hvpmu_gpci_reply_ok(&r));
	assert_int_equal(r.returned_values, 3);
	assert_int_equal(r.element_bytes, 48);
	assert_int_equal(r.starting_index, 1);
	assert_non_null(r.rq);
	for (unsigned e = 0; e < 3; e++) {
		static const unsigned field_of[] = { HVPMU_CEC_L_ENTITLED, HVPMU_CEC_L_CAPPED, HVPMU_CEC_L_UNCAPPED,
						     HVPMU_CEC_L_DONATED, HVPMU_CEC_L_IDLE };

		assert_int_equal(hvpmu_gpci_field(&r, e, 0, &v), 0);
		assert_int_equal(v, e + 1);
		for (unsigned f = 1; f < 6; f++) {
			assert_int_equal(hvpmu_gpci_field(&r, e, f, &v), 0);
			assert_true(v == w->e.part[e][field_of[f - 1]]);
		}
	}
	assert_int_equal(hvpmu_gpci_field(&r, 3, 0, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_gpci_field(&r, 0, 6, &v), HVPMU_ERANGE);
	/* processors: all 32 lists fit Linux's 4064 bytes */
	assert_int_equal(hvpmu_gpci_call(&os, 0x10, 0, 0, 8, &r), HVPMU_H_SUCCESS);
	assert_int_equal(r.returned_values, 32);
	assert_int_equal(hvpmu_gpci_field(&r, 31, 1, &v), 0);
	assert_int_equal(v, w->cec.procs[31].hw_id);
	/* a perf event read, and its init checks */
	assert_int_equal(hvpmu_gpci_event_read(&os, 0x30, 3, 0, 6, 0x10, 8, &v, &st), 0);
	assert_true(v == w->e.part[2][HVPMU_CEC_L_RUN_CYCLES]);
	assert_int_equal(hvpmu_gpci_event_read(&os, 0x10, 4, 0, 6, 0x0E, 1, &v, &st), 0);
	assert_int_equal(v, HVPMU_CEC_SHARED);
	assert_int_equal(hvpmu_gpci_event_read(&os, 0x10, 4, 0, 6, 4060, 5, &v, &st), HVPMU_EINVAL);
	assert_int_equal(hvpmu_gpci_event_read(&os, 0x10, 4, 0, 6, 0, 9, &v, &st), HVPMU_EINVAL);
	assert_int_equal(hvpmu_gpci_event_read(&os, 0x10, 4, 0, 6, 0, 0, &v, &st), HVPMU_EINVAL);
	assert_int_equal(hvpmu_gpci_event_read(&os, 0xE0, 1, 0, 8, 8, 8, &v, &st), HVPMU_EHV);
	assert_int_equal(st, HVPMU_H_NOT_AVAILABLE);
	assert_string_equal(hvpmu_gpci_status_name(st), "H_NOT_AVAILABLE");
	/* without the right */
	oc.part = 1;
	assert_int_equal(hvpmu_gpci_caps_get(&os, &caps), HVPMU_H_SUCCESS);
	assert_false(caps.collect_privileged);
	assert_int_equal(hvpmu_gpci_call(&os, 0x10, 0, 0, 0, &r), HVPMU_H_AUTHORITY);
	assert_false(hvpmu_gpci_reply_ok(&r));
	assert_int_equal(r.returned_values, 0);
	assert_int_equal(hvpmu_gpci_field(&r, 0, 0, &v), HVPMU_ERANGE);
	world_free(w);
}

/*
 * Linux's published hv_gpci events of the requests the seed implements,
 * as its sysfs gives them (torvalds/linux
 * arch/powerpc/perf/hv-gpci-requests.h __count(offset, 8, name) in the
 * REQUEST_BEGIN blocks of 0x10-0x60, commit 2555693dd85c; req-gen/perf.h
 * writes every one as "request=R,<index>=?,counter_info_version=8,
 * length=8,offset=O"), written out here rather than taken from the
 * tables under test, and what the model fed for each.
 */
enum kind { K_PROC, K_PART, K_CHIP };
enum what { W_PURR, W_PART, W_TOTAL, W_IDLE };
static const struct linux_event {
	uint32_t request;
	enum kind kind;
	const char *name; /* <request>_<counter> */
	uint32_t offset;
	enum what what;
	unsigned arg; /* W_PART: the partition field; W_TOTAL: the first link; W_IDLE: the link */
} linux_events[] = {
	{ 0x10, K_PROC, "dispatch_timebase_by_processor_processor_time_in_timebase_cycles", 0x0, W_PURR, 0 },
	{ 0x20, K_PART, "entitled_capped_uncapped_donated_idle_timebase_by_partition_entitled_cycles", 0x8, W_PART,
	  HVPMU_CEC_L_ENTITLED },
	{ 0x20, K_PART, "entitled_capped_uncapped_donated_idle_timebase_by_partition_consumed_capped_cycles", 0x10,
	  W_PART, HVPMU_CEC_L_CAPPED },
	{ 0x20, K_PART, "entitled_capped_uncapped_donated_idle_timebase_by_partition_consumed_uncapped_cycles", 0x18,
	  W_PART, HVPMU_CEC_L_UNCAPPED },
	{ 0x20, K_PART, "entitled_capped_uncapped_donated_idle_timebase_by_partition_cycles_donated", 0x20, W_PART,
	  HVPMU_CEC_L_DONATED },
	{ 0x20, K_PART, "entitled_capped_uncapped_donated_idle_timebase_by_partition_purr_idle_cycles", 0x28, W_PART,
	  HVPMU_CEC_L_IDLE },
	{ 0x30, K_PART, "run_instructions_run_cycles_by_partition_instructions_completed", 0x8, W_PART,
	  HVPMU_CEC_L_RUN_INSNS },
	{ 0x30, K_PART, "run_instructions_run_cycles_by_partition_cycles", 0x10, W_PART, HVPMU_CEC_L_RUN_CYCLES },
	{ 0x50, K_CHIP, "processor_bus_utilization_abc_links_total_link_cycles", 0x10, W_TOTAL, HVPMU_CEC_LINK_A },
	{ 0x50, K_CHIP, "processor_bus_utilization_abc_links_idle_cycles_for_a_link", 0x18, W_IDLE, HVPMU_CEC_LINK_A },
	{ 0x50, K_CHIP, "processor_bus_utilization_abc_links_idle_cycles_for_b_link", 0x20, W_IDLE, HVPMU_CEC_LINK_B },
	{ 0x50, K_CHIP, "processor_bus_utilization_abc_links_idle_cycles_for_c_link", 0x28, W_IDLE, HVPMU_CEC_LINK_C },
	{ 0x60, K_CHIP, "processor_bus_utilization_wxyz_links_total_link_cycles", 0x10, W_TOTAL, HVPMU_CEC_LINK_W },
	{ 0x60, K_CHIP, "processor_bus_utilization_wxyz_links_idle_cycles_for_w_link", 0x18, W_IDLE, HVPMU_CEC_LINK_W },
	{ 0x60, K_CHIP, "processor_bus_utilization_wxyz_links_idle_cycles_for_x_link", 0x20, W_IDLE, HVPMU_CEC_LINK_X },
	{ 0x60, K_CHIP, "processor_bus_utilization_wxyz_links_idle_cycles_for_y_link", 0x28, W_IDLE, HVPMU_CEC_LINK_Y },
	{ 0x60, K_CHIP, "processor_bus_utilization_wxyz_links_idle_cycles_for_z_link", 0x30, W_IDLE, HVPMU_CEC_LINK_Z },
};

/* What the model holds for event le at index `idx` (processor index,
 * partition id, chip hardware id): what the feeder fed.  The one total
 * of a link request is the time its links' data was collected: the
 * longest of their totals (every connected link's, under the dispatcher,
 * the elapsed timebase). */
static uint64_t model(const struct world *w, const struct linux_event *le, uint32_t idx)
{
	switch (le->what) {
	case W_PURR: return w->e.purr[idx];
	case W_PART: return w->e.part[idx - 1][le->arg];
	case W_TOTAL: return total_of(w, idx - 0x10, le->arg, le->arg == HVPMU_CEC_LINK_A ? 3 : 4);
	default: return w->e.link[idx - 0x10][HVPMU_CEC_C_LINK_IDLE(le->arg)];
	}
}

/* Replay each of Linux's events for every processor, partition and chip:
 * single_gpci_request() as perf makes it (linux_read: the request, the
 * starting index, counter_info_version 8, `length` bytes at `offset`),
 * and the same event through the guest OS's parser and reader, raw as
 * sysfs spells it and by name: every value is the model's (issue 30:
 * total_link_cycles read the A link's idle cycles, idle_cycles_for_a_link
 * the total, the WXYZ total 0). */
static void replay_linux_events(const struct hvpmu_cec *cec, int windows, int every)
{
	static const uint32_t count[] = { [K_PROC] = 32, [K_PART] = 3, [K_CHIP] = 4 };
	static const uint32_t base[] = { [K_PROC] = 0, [K_PART] = 1, [K_CHIP] = 0x10 };
	static const char *const param[] = { [K_PROC] = "phys_processor_idx", [K_PART] = "sibling_part_id",
					     [K_CHIP] = "hw_chip_id" };
	struct world *w = world(cec, windows);
	struct os_ctx oc = { w, 0 };
	struct hvpmu_gpci_os os = { RA, os_write, os_read, os_hcall, &oc };
	for (unsigned k = 0; k < sizeof linux_events / sizeof linux_events[0]; k++) {
		const struct linux_event *le = &linux_events[k];
		unsigned nonzero = 0;

		for (uint32_t idx = base[le->kind]; idx < base[le->kind] + count[le->kind]; idx++) {
			char raw[160], named[200], err[200];
			struct hvpmu_gpci_event ev;
			uint64_t v, want = model(w, le, idx);
			int64_t st;
			size_t used;

			assert_int_equal(linux_read(w, 0, le->request, idx, 8, le->offset, 8, &v), 0);
			if (v != want)
				fail_msg("%s, %s=%u: Linux reads %llu at offset 0x%x, the model has %llu", le->name,
					 param[le->kind], idx, (unsigned long long)v, le->offset,
					 (unsigned long long)want);
			nonzero += want != 0;
			snprintf(raw, sizeof raw, "hv_gpci/request=0x%x,%s=%u,counter_info_version=8,length=8,offset=%u/",
				 le->request, param[le->kind], idx, le->offset);
			snprintf(named, sizeof named, "hv_gpci/%s,%s=%u/", le->name, param[le->kind], idx);
			for (int n = 0; n < 2; n++) {
				assert_int_equal(hvpmu_gpci_event_parse(n ? named : raw, &ev, &used, err, sizeof err), 0);
				assert_int_equal(ev.offset, le->offset);
				assert_int_equal(ev.version_in, 8);
				assert_int_equal(hvpmu_gpci_event_read(&os, ev.request, ev.starting_index,
								       ev.secondary_index, ev.version_in, ev.offset,
								       ev.length, &v, &st),
						 0);
				assert_true(v == want);
			}
		}
		if (every && !nonzero) /* the fed world has counts where Linux looks */
			fail_msg("%s: 0 for every %s", le->name, param[le->kind]);
	}
	world_free(w);
}

static void test_linux_events(void **state)
{
	struct hvpmu_cec cec;
	struct world *w;
	uint64_t v = 0; /* (set by linux_read; -O3 cannot tell) */

	(void)state;
	all_links(&cec); /* every link its own counts */
	replay_linux_events(&cec, 5, 1);
	replay_linux_events(NULL, 3, 0); /* the default CEC: W, Y, Z not connected, X is */
	w = world(NULL, 3);
	for (uint32_t chip = 0x10; chip < 0x14; chip++) { /* the WXYZ total is X's, not 0 */
		assert_int_equal(linux_read(w, 0, 0x60, chip, 8, 0x10, 8, &v), 0);
		assert_true(v != 0 && v == w->e.link[chip - 0x10][HVPMU_CEC_C_LINK_TOTAL(HVPMU_CEC_LINK_X)]);
	}
	world_free(w);
}

static void test_tables(void **state)
{
	static const uint32_t codes[] = { 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x80001000, 0x80002000 };
	unsigned i;

	(void)state;
	for (i = 0; hvpmu_gpci_request_at(i); i++) {
		const struct hvpmu_gpci_request *r = hvpmu_gpci_request_at(i);

		assert_int_equal(r->code, codes[i]);
		assert_ptr_equal(hvpmu_gpci_request_find(r->code), r);
		assert_false(hvpmu_gpci_request_known(r->code));
		for (unsigned f = 0; f < r->nfields; f++)
			assert_true(r->fields[f].offset + r->fields[f].width <= r->element_bytes);
	}
	assert_int_equal(i, 8);
	assert_null(hvpmu_gpci_request_find(0x70));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_privilege),
		cmocka_unit_test(test_parameter),
		cmocka_unit_test(test_buffer_too_small),
		cmocka_unit_test(test_not_available),
		cmocka_unit_test(test_check_order_lab),
		cmocka_unit_test(test_authority),
		cmocka_unit_test(test_two_partitions),
		cmocka_unit_test(test_hardware),
		cmocka_unit_test(test_function),
		cmocka_unit_test(test_layout_0x10),
		cmocka_unit_test(test_layout_0x20_0x30),
		cmocka_unit_test(test_layout_0x40),
		cmocka_unit_test(test_layout_links),
		cmocka_unit_test(test_layout_hpmc),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_linux_probe),
		cmocka_unit_test(test_client),
		cmocka_unit_test(test_linux_events),
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
