/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_mmustat.c - libFuzzer target for the Niagara MMU statistics service
 * (src/services/mmustat.c) over guest real memory (src/services/guest_mem.c).
 *
 * The input picks up to four guest memory segments (adjacent, separated,
 * at RA 0, ending at 2^64), one to four vCPUs, then a sequence of
 * NIAGARA_MMUSTAT_CONF / INFO, TSB hits with any size code and tick delta,
 * vCPU resets and guest stores.  A shadow copy of every guest word and of
 * each vCPU's configured RA is kept independently of the code under test.
 * Invariants (../shared/specs/niagara-mmustat-api.txt §2.1-2.3,
 * ../shared/reference/hw-and-hypervisor.md §1.4-1.5, docs/mmustat.md),
 * abort on violation:
 *   - CONF returns ENOCPU for a vCPU past the last, else EBADALIGN iff ra is
 *     not 64-byte aligned, else EOK for ra 0, else ENORADDR iff
 *     [ra, ra + 0x200) is not inside one segment; EOK returns the previous
 *     RA; an error leaves *old_ra alone and the vCPU's RA 0 (collection
 *     stopped, §2.1 "If an error is returned no statistics are
 *     collected"), ENOCPU changes no vCPU;
 *   - INFO returns EOK and the shadow RA;
 *   - after every operation all of guest memory equals the shadow: a TSB
 *     hit changes exactly the hits and ticks words of its slot (hits + 1,
 *     ticks + delta, big-endian), and only for size codes 0, 1, 3, 5 with
 *     collection enabled; reserved words and every other byte never change.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/mmustat.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SEGS 4
#define MAX_VCPUS 4
#define MAX_SEG_WORDS 2048u /* 16 KB per segment: two or three host pages */
#define MAX_OPS 256
#define AREA HVPMU_MMUSTAT_AREA_SIZE

enum { OP_CONF, OP_INFO, OP_HIT, OP_HIT_VALID, OP_RESET, OP_STORE, OP_ZERO_BUFFER, N_OPS };

#define CHECK(c) do { if (!(c)) abort(); } while (0)

struct seg {
	uint64_t base, size;
	uint64_t *w; /* shadow words, host order */
};

struct state {
	struct seg s[MAX_SEGS];
	unsigned nseg;
	unsigned nvcpus;
	uint64_t ra[MAX_VCPUS];
	struct hvpmu_guest_mem *gm;
	struct hvpmu_mmustat *ms;
};

/* Segment holding [ra, ra + len) wholly, or NULL (the rule, restated). */
static struct seg *holder(struct state *st, uint64_t ra, uint64_t len)
{
	for (unsigned i = 0; i < st->nseg; i++) {
		struct seg *s = &st->s[i];

		if (ra >= s->base && ra - s->base < s->size && len <= s->size - (ra - s->base))
			return s;
	}
	return NULL;
}

static uint64_t *shadow_word(struct state *st, uint64_t ra)
{
	struct seg *s = holder(st, ra, 8);

	return s ? &s->w[(ra - s->base) / 8] : NULL;
}

/* Segments laid out upwards from a chosen start, each after a chosen gap;
 * the last may instead end at 2^64. */
static void make_segments(struct state *st, struct in *in)
{
	static const uint64_t starts[] = { 0, 0x40, 0x2000, UINT64_C(0x100000), UINT64_C(0x7FFFFFFFFFF8) };
	uint8_t t = u8(in);
	uint64_t next = starts[(t >> 2) % (sizeof starts / sizeof starts[0])];

	st->nseg = 1 + (t & 3);
	for (unsigned i = 0; i < st->nseg; i++) {
		uint8_t g = u8(in);
		uint64_t size = 8 * (1 + u16(in) % MAX_SEG_WORDS);
		uint64_t gap = (g & 3) == 0 ? 0 : (g & 3) == 1 ? 8 : (g & 3) == 2 ? 0x40 : 8 * (uint64_t)u16(in);

		if (i)
			next += gap;
		if (i == st->nseg - 1 && (g & 4) && next <= UINT64_MAX - size * 2)
			next = 0 - size; /* ends at 2^64 */
		st->s[i].base = next;
		st->s[i].size = size;
		st->s[i].w = calloc(size / 8, sizeof(uint64_t));
		CHECK(st->s[i].w);
		next += size;
	}
}

/* A buffer RA worth trying: 0, in or around a segment, or anything. */
static uint64_t pick_ra(struct state *st, struct in *in)
{
	uint8_t t = u8(in);
	struct seg *s = &st->s[(t >> 3) % st->nseg];
	uint64_t off = u16(in);

	switch (t & 7) {
	case 0: return 0;
	case 1: return s->base + (off % s->size & ~UINT64_C(0x3F));   /* 64-aligned offset */
	case 2: return s->base + (off % s->size & ~UINT64_C(7));      /* 8-aligned */
	case 3: return s->base + s->size - AREA + (int8_t)u8(in);      /* near the end */
	case 4: return s->base - (off & 0x3F8);                        /* just below */
	case 5: return (s->base + 0x3F) & ~UINT64_C(0x3F);             /* first aligned */
	case 6: return u64(in) & ~UINT64_C(0x3F);
	default: return u64(in);
	}
}

static unsigned pick_vcpu(struct state *st, struct in *in)
{
	uint8_t t = u8(in);

	return t >= 0xFE ? st->nvcpus + (t & 1) : t % st->nvcpus; /* sometimes past the last */
}

static void check_range(struct state *st, uint64_t ra, uint64_t len)
{
	/* counted: a range may end at 2^64 */
	for (uint64_t k = 0; k < len / 8; k++) {
		uint64_t a = ra + 8 * k, v = ~*shadow_word(st, a);

		CHECK(hvpmu_guest_mem_read64(st->gm, a, &v) == 0);
		CHECK(v == *shadow_word(st, a));
	}
}

/* Every configured buffer after each operation (cheap); all of guest
 * memory every FULL_CHECK_EVERY operations and at the end. */
#define FULL_CHECK_EVERY 16
static void check_memory(struct state *st, int full)
{
	if (full) {
		for (unsigned i = 0; i < st->nseg; i++)
			check_range(st, st->s[i].base, st->s[i].size);
		return;
	}
	for (unsigned v = 0; v < st->nvcpus; v++)
		if (st->ra[v])
			check_range(st, st->ra[v], AREA);
}

static void op_conf(struct state *st, struct in *in)
{
	unsigned vcpu = pick_vcpu(st, in);
	uint64_t ra = pick_ra(st, in), old = 0xBADC0FFEE, want;
	uint64_t status = hvpmu_mmustat_conf(st->ms, vcpu, ra, &old);

	if (vcpu >= st->nvcpus)
		want = HV_ENOCPU;
	else if (ra % 64)
		want = HV_EBADALIGN;
	else if (ra && !holder(st, ra, AREA))
		want = HV_ENORADDR;
	else
		want = HV_EOK;
	CHECK(status == want);
	if (status != HV_EOK) {
		CHECK(old == 0xBADC0FFEE);
		if (vcpu < st->nvcpus) /* §2.1: an error stops collection */
			st->ra[vcpu] = 0;
		return;
	}
	CHECK(old == st->ra[vcpu]);
	st->ra[vcpu] = ra;
}

static void op_hit(struct state *st, struct in *in, int valid_only)
{
	static const unsigned valid[] = { 0, 1, 3, 5 };
	unsigned vcpu = pick_vcpu(st, in);
	uint8_t t = u8(in);
	int dmmu = t & 1, nz = (t >> 1) & 1;
	unsigned code = valid_only ? valid[(t >> 2) & 3] : (t & 0x80) ? (unsigned)u16(in) << 8 : (t >> 2) & 15;
	uint64_t ticks = (t & 0x40) ? u64(in) : u8(in);

	hvpmu_mmustat_tsb_hit(st->ms, vcpu, dmmu, nz, code, ticks);
	/* T1 size codes 0, 1, 3, 5 only (restated, hw-and-hypervisor.md §1.5) */
	if (vcpu >= st->nvcpus || !st->ra[vcpu] || code > 7 || !((0x2Bu >> code) & 1))
		return;
	/* §2.3: (I 0x000 | D 0x100) + (ctx0 0 | ctxnon0 0x80) + code * 16 */
	{
		uint64_t slot = st->ra[vcpu] + (dmmu ? 0x100 : 0) + (nz ? 0x80 : 0) + code * 16;
		uint64_t *h = shadow_word(st, slot), *k = shadow_word(st, slot + 8);

		CHECK(h && k);
		*h += 1;
		*k += ticks;
	}
}

/* The guest stores a word (anywhere in its memory, buffers included). */
static void op_store(struct state *st, struct in *in)
{
	struct seg *s = &st->s[u8(in) % st->nseg];
	uint64_t ra = s->base + 8 * (u16(in) % (s->size / 8));
	uint64_t v = u64(in);
	uint8_t b[8];

	CHECK(hvpmu_guest_mem_write64(st->gm, ra, v) == 0);
	s->w[(ra - s->base) / 8] = v;
	CHECK(hvpmu_guest_mem_read(st->gm, ra, b, sizeof b) == 0);
	for (int i = 0; i < 8; i++)
		CHECK(b[i] == (uint8_t)(v >> (56 - 8 * i)));
}

/* The guest zeroes its buffer, as the spec asks before enabling. */
static void op_zero_buffer(struct state *st, struct in *in)
{
	unsigned vcpu = u8(in) % st->nvcpus;
	uint64_t ra = st->ra[vcpu];
	static const uint8_t zero[AREA];

	if (!ra)
		return;
	CHECK(hvpmu_guest_mem_write(st->gm, ra, zero, sizeof zero) == 0);
	for (uint64_t k = 0; k < AREA / 8; k++)
		*shadow_word(st, ra + 8 * k) = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct state st;
	struct hvpmu_guest_mem_seg segs[MAX_SEGS];

	memset(&st, 0, sizeof st);
	make_segments(&st, &in);
	st.nvcpus = 1 + u8(&in) % MAX_VCPUS;
	for (unsigned i = 0; i < st.nseg; i++) {
		segs[i].base = st.s[i].base;
		segs[i].size = st.s[i].size;
	}
	CHECK(hvpmu_guest_mem_create(segs, st.nseg, &st.gm) == 0);
	CHECK(hvpmu_mmustat_create(st.gm, st.nvcpus, &st.ms) == 0);

	for (int n = 0; n < MAX_OPS && in.n; n++) {
		uint8_t op = u8(&in) % N_OPS;

		switch (op) {
		case OP_CONF: op_conf(&st, &in); break;
		case OP_INFO: {
			unsigned vcpu = pick_vcpu(&st, &in);
			uint64_t ra = 0xBADC0FFEE;
			uint64_t status = hvpmu_mmustat_info(st.ms, vcpu, &ra);

			CHECK(status == (vcpu < st.nvcpus ? HV_EOK : HV_ENOCPU));
			CHECK(ra == (vcpu < st.nvcpus ? st.ra[vcpu] : 0));
			break;
		}
		case OP_HIT: op_hit(&st, &in, 0); break;
		case OP_HIT_VALID: op_hit(&st, &in, 1); break;
		case OP_RESET: {
			unsigned vcpu = pick_vcpu(&st, &in);

			hvpmu_mmustat_reset(st.ms, vcpu);
			if (vcpu < st.nvcpus)
				st.ra[vcpu] = 0;
			break;
		}
		case OP_STORE: op_store(&st, &in); break;
		case OP_ZERO_BUFFER: op_zero_buffer(&st, &in); break;
		}
		check_memory(&st, n % FULL_CHECK_EVERY == FULL_CHECK_EVERY - 1);
	}
	check_memory(&st, 1);

	hvpmu_mmustat_destroy(st.ms);
	hvpmu_guest_mem_destroy(st.gm);
	for (unsigned i = 0; i < st.nseg; i++)
		free(st.s[i].w);
	return 0;
}
