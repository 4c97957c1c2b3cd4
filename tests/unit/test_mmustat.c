/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Niagara MMU statistics service (src/services/mmustat.c, hvpmu/mmustat.h)
 * against ../shared/specs/niagara-mmustat-api.txt and the OpenSPARC
 * behaviour of ../shared/reference/hw-and-hypervisor.md §1.4-1.5:
 *  - CONF (§2.1): 64-byte alignment checked first (EBADALIGN), ra 0
 *    disables without a range check and returns the old ra, the 0x200-byte
 *    buffer must lie in one memory segment (ENORADDR), host memory for it
 *    (EIO); an error stops collection for the vCPU (§2.1 "If an error is
 *    returned no statistics are collected"), ENOCPU touches no vCPU;
 *  - INFO (§2.2): the current ra, idempotent;
 *  - the buffer (§2.3): every slot at the spec's offset, big-endian words,
 *    hits += 1 and ticks += delta, reserved words never written, invalid
 *    size codes not recorded, one buffer per vCPU.
 * Decisions: docs/mmustat.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/mmustat.h>
#include "model/tlb.h"

/* The TLB model's per-strand TSB-hit counters (struct tlb_stats.tsb) have
 * the buffer's shape (niagara-mmustat-api.txt §2.3): the same slot by the
 * same offset, the same T1 page-size codes.  (The service and the model
 * meet only through the TSB-hit handler; this ties their layouts.) */
#define TSB_OFF(side, nz, code) \
	(offsetof(struct tlb_stats, tsb[side][nz][code]) - offsetof(struct tlb_stats, tsb))
_Static_assert(sizeof(((struct tlb_stats *)0)->tsb) == HVPMU_MMUSTAT_AREA_SIZE, "tsb[] is the buffer");
_Static_assert(TSB_OFF(TLB_SIDE_D, 1, TLB_PGSZ_256M) ==
	       HVPMU_MMUSTAT_D + HVPMU_MMUSTAT_CTXNON0 + (TLB_PGSZ_256M << HVPMU_MMUSTAT_ENTRY_SZ_SHIFT),
	       "tsb[side][ctxnon0][code] offset");
_Static_assert(offsetof(struct tlb_tsb_stat, ticks) == HVPMU_MMUSTAT_TICK, "ticks at +8");
_Static_assert(TLB_PGMASK_T1 == HVPMU_MMUSTAT_CODES_T1, "T1 page sizes");
_Static_assert(TLB_NPGSZ == HVPMU_MMUSTAT_NCODES, "slots per block");
_Static_assert(HVPMU_MMUSTAT_AREA_SIZE == 2 * HVPMU_MMUSTAT_D, "two halves of two 0x80 blocks");

#define SEG_A UINT64_C(0x100000) /* 64 KB, followed directly by SEG_B */
#define SEG_B UINT64_C(0x110000) /* 64 KB */
#define SEG_C UINT64_C(0x200000) /* 4 KB */
#define SEG_TOP UINT64_C(0xFFFFFFFFFFFF0000) /* 64 KB ending at 2^64 */
#define SEG_SIZE UINT64_C(0x10000)
#define AREA HVPMU_MMUSTAT_AREA_SIZE
#define NWORDS HVPMU_MMUSTAT_WORDS
#define SENTINEL UINT64_C(0x5EA1ED5EA1ED5EA1)

struct env {
	struct hvpmu_guest_mem *gm;
	struct hvpmu_mmustat *ms;
};

static struct env env_new(unsigned nvcpus)
{
	const struct hvpmu_guest_mem_seg s[] = {
		{ 0, SEG_SIZE }, { SEG_A, SEG_SIZE }, { SEG_B, SEG_SIZE }, { SEG_C, 0x1000 }, { SEG_TOP, SEG_SIZE },
	};
	struct env e = { NULL, NULL };

	assert_int_equal(hvpmu_guest_mem_create(s, sizeof s / sizeof s[0], &e.gm), 0);
	assert_int_equal(hvpmu_mmustat_create(e.gm, nvcpus, &e.ms), 0);
	return e;
}

static void env_free(struct env *e)
{
	hvpmu_mmustat_destroy(e->ms);
	hvpmu_guest_mem_destroy(e->gm);
}

/* A recognisable non-zero value for the word at ra. */
static uint64_t pattern(uint64_t ra)
{
	return UINT64_C(0xA5A5000000000000) ^ (ra * UINT64_C(0x100000001B3));
}

/* Fill [ra, ra + len) with pattern() words. */
static void fill(struct env *e, uint64_t ra, uint64_t len)
{
	for (uint64_t a = ra; a < ra + len; a += 8)
		assert_int_equal(hvpmu_guest_mem_write64(e->gm, a, pattern(a)), 0);
}

static uint64_t word(struct env *e, uint64_t ra)
{
	uint64_t v = 0;

	assert_int_equal(hvpmu_guest_mem_read64(e->gm, ra, &v), 0);
	return v;
}

/* Every word of [ra, ra + len) still holds its pattern. */
static void assert_pattern(struct env *e, uint64_t ra, uint64_t len)
{
	for (uint64_t a = ra; a < ra + len; a += 8)
		assert_true(word(e, a) == pattern(a));
}

static uint64_t conf(struct env *e, unsigned vcpu, uint64_t ra, uint64_t *old)
{
	*old = SENTINEL;
	return hvpmu_mmustat_conf(e->ms, vcpu, ra, old);
}

static uint64_t info(struct env *e, unsigned vcpu)
{
	uint64_t ra = SENTINEL;

	assert_int_equal(hvpmu_mmustat_info(e->ms, vcpu, &ra), HV_EOK);
	return ra;
}

/* §2.3 as printed: the hits word of each counted slot. */
static const struct {
	int dmmu, ctxnon0;
	unsigned code;
	uint32_t off;
} spec_slots[] = {
	{ 0, 0, 0, 0x000 }, { 0, 0, 1, 0x010 }, { 0, 0, 3, 0x030 }, { 0, 0, 5, 0x050 },
	{ 0, 1, 0, 0x080 }, { 0, 1, 1, 0x090 }, { 0, 1, 3, 0x0B0 }, { 0, 1, 5, 0x0D0 },
	{ 1, 0, 0, 0x100 }, { 1, 0, 1, 0x110 }, { 1, 0, 3, 0x130 }, { 1, 0, 5, 0x150 },
	{ 1, 1, 0, 0x180 }, { 1, 1, 1, 0x190 }, { 1, 1, 3, 0x1B0 }, { 1, 1, 5, 0x1D0 },
};
#define NSPEC (sizeof spec_slots / sizeof spec_slots[0])

/* ---- CONF: alignment -------------------------------------------------- */

/* 64-byte alignment (spec §2.1), checked before anything else. */
static void test_alignment(void **state)
{
	struct env e = env_new(1);
	uint64_t old;

	(void)state;
	assert_int_equal(conf(&e, 0, 0x40, &old), HV_EOK);
	assert_true(old == 0);
	assert_int_equal(conf(&e, 0, 0x8, &old), HV_EBADALIGN);
	assert_true(old == SENTINEL);
	assert_int_equal(conf(&e, 0, 0x20, &old), HV_EBADALIGN);
	/* 8-aligned is what OpenSPARC accepts; the spec's 64 is followed */
	assert_int_equal(conf(&e, 0, SEG_A + 0x48, &old), HV_EBADALIGN);
	assert_int_equal(conf(&e, 0, SEG_A + 1, &old), HV_EBADALIGN);
	/* alignment comes first: a misaligned ra in no segment is EBADALIGN */
	assert_int_equal(conf(&e, 0, UINT64_C(0xDEAD0008), &old), HV_EBADALIGN);
	assert_int_equal(conf(&e, 0, UINT64_C(0xFFFFFFFFFFFFFFF8), &old), HV_EBADALIGN);
	assert_true(info(&e, 0) == 0); /* an error stops collection (§2.1) */
	assert_int_equal(conf(&e, 0, 0x40, &old), HV_EOK);
	assert_true(old == 0);
	assert_int_equal(conf(&e, 0, 0x80, &old), HV_EOK);
	assert_true(old == 0x40);
	assert_int_equal(conf(&e, 0, SEG_A + 0x1C0, &old), HV_EOK);
	assert_true(old == 0x80);
	assert_true(info(&e, 0) == SEG_A + 0x1C0);
	env_free(&e);
}

/* ---- CONF: range ------------------------------------------------------ */

static void test_range(void **state)
{
	struct env e = env_new(1);
	uint64_t old, cur = SEG_A + 0x40;

	(void)state;
	assert_int_equal(conf(&e, 0, cur, &old), HV_EOK); /* inside */
	/* straddling SEG_A and SEG_B, which are adjacent */
	assert_int_equal(conf(&e, 0, SEG_B - 0x100, &old), HV_ENORADDR);
	assert_true(old == SENTINEL);
	/* past the end of SEG_C, and starting in the hole after it */
	assert_int_equal(conf(&e, 0, SEG_C + 0x1000 - 0x100, &old), HV_ENORADDR);
	assert_int_equal(conf(&e, 0, SEG_C + 0x1000, &old), HV_ENORADDR);
	/* in no segment at all */
	assert_int_equal(conf(&e, 0, UINT64_C(0x300000), &old), HV_ENORADDR);
	assert_int_equal(conf(&e, 0, UINT64_C(0x8000000000), &old), HV_ENORADDR);
	/* a buffer that would wrap past 2^64 */
	assert_int_equal(conf(&e, 0, UINT64_C(0xFFFFFFFFFFFFFF00), &old), HV_ENORADDR);
	assert_int_equal(conf(&e, 0, UINT64_C(0xFFFFFFFFFFFFFFC0), &old), HV_ENORADDR);
	assert_true(info(&e, 0) == 0); /* an error stops collection (§2.1) */

	/* ending exactly at a segment's end */
	assert_int_equal(conf(&e, 0, cur, &old), HV_EOK);
	assert_int_equal(conf(&e, 0, SEG_C + 0x1000 - AREA, &old), HV_EOK);
	assert_true(old == cur);
	assert_int_equal(conf(&e, 0, SEG_B - AREA, &old), HV_EOK);
	assert_true(old == SEG_C + 0x1000 - AREA);
	assert_int_equal(conf(&e, 0, SEG_B, &old), HV_EOK); /* first bytes of the next one */
	assert_int_equal(conf(&e, 0, UINT64_C(0xFFFFFFFFFFFFFE00), &old), HV_EOK); /* ends at 2^64 */
	assert_true(old == SEG_B);
	assert_true(info(&e, 0) == UINT64_C(0xFFFFFFFFFFFFFE00));
	env_free(&e);
}

/* ---- CONF: disabling -------------------------------------------------- */

/* ra 0 disables collection without a range check and returns the previous
 * ra (even though segment 0 starts at RA 0, no buffer can be put there). */
static void test_disable(void **state)
{
	struct env e = env_new(1);
	uint64_t old;

	(void)state;
	assert_int_equal(conf(&e, 0, 0, &old), HV_EOK);
	assert_true(old == 0);
	assert_int_equal(conf(&e, 0, SEG_A, &old), HV_EOK);
	assert_true(old == 0);
	assert_int_equal(conf(&e, 0, SEG_B, &old), HV_EOK);
	assert_true(old == SEG_A);
	assert_int_equal(conf(&e, 0, 0, &old), HV_EOK);
	assert_true(old == SEG_B);
	assert_true(info(&e, 0) == 0);
	assert_int_equal(conf(&e, 0, 0, &old), HV_EOK);
	assert_true(old == 0);
	/* nothing collected while disabled, in the old buffers or at RA 0 */
	fill(&e, 0, AREA);
	fill(&e, SEG_A, AREA);
	fill(&e, SEG_B, AREA);
	for (unsigned i = 0; i < NSPEC; i++)
		hvpmu_mmustat_tsb_hit(e.ms, 0, spec_slots[i].dmmu, spec_slots[i].ctxnon0, spec_slots[i].code, 9);
	assert_pattern(&e, 0, AREA);
	assert_pattern(&e, SEG_A, AREA);
	assert_pattern(&e, SEG_B, AREA);
	/* old_ra may be NULL */
	assert_int_equal(hvpmu_mmustat_conf(e.ms, 0, SEG_A, NULL), HV_EOK);
	assert_true(info(&e, 0) == SEG_A);
	env_free(&e);
}

/* ---- CONF: an error stops collection ---------------------------------- */

/* niagara-mmustat-api.txt §2.1: "If an error is returned no statistics are
 * collected (equivalent to passing an raddr of zero)."  A failed CONF
 * disables collection for the vCPU: INFO returns 0, the previous buffer is
 * no longer written (a guest may free it), nothing is written at the
 * refused ra, *old_ra is not written, and the next successful CONF returns
 * 0 as the previous buffer.  Errors are made to happen by `refuse`. */
static void check_error_stops(struct env *e, uint64_t (*refuse)(struct env *e, uint64_t *old), uint64_t want)
{
	uint64_t old, buf = SEG_A + 0x400;

	fill(e, SEG_A, SEG_SIZE);
	fill(e, SEG_B, 0x200);

	/* no buffer yet: the failed call leaves collection off */
	assert_int_equal(refuse(e, &old), want);
	assert_true(old == SENTINEL);
	assert_true(info(e, 0) == 0);
	for (unsigned i = 0; i < NSPEC; i++)
		hvpmu_mmustat_tsb_hit(e->ms, 0, spec_slots[i].dmmu, spec_slots[i].ctxnon0, spec_slots[i].code, 3);
	assert_pattern(e, SEG_A, SEG_SIZE);
	assert_pattern(e, SEG_B, 0x200);

	/* with a working buffer: the failed call turns collection off */
	assert_int_equal(conf(e, 0, buf, &old), HV_EOK);
	hvpmu_mmustat_tsb_hit(e->ms, 0, 1, 1, 0, 100);
	assert_true(word(e, buf + 0x180) == pattern(buf + 0x180) + 1);
	assert_true(word(e, buf + 0x188) == pattern(buf + 0x188) + 100);
	assert_int_equal(refuse(e, &old), want);
	assert_true(old == SENTINEL); /* %o1 stays as the guest passed it */
	assert_true(info(e, 0) == 0);
	for (unsigned i = 0; i < NSPEC; i++)
		hvpmu_mmustat_tsb_hit(e->ms, 0, spec_slots[i].dmmu, spec_slots[i].ctxnon0, spec_slots[i].code, 5);
	assert_true(word(e, buf + 0x180) == pattern(buf + 0x180) + 1); /* no longer accessed */
	assert_true(word(e, buf + 0x188) == pattern(buf + 0x188) + 100);
	assert_pattern(e, SEG_A, buf + 0x180 - SEG_A);
	assert_pattern(e, buf + 0x190, SEG_A + SEG_SIZE - buf - 0x190);
	assert_pattern(e, SEG_B, 0x200);
	/* as after a CONF of ra 0: the next CONF finds no previous buffer */
	assert_int_equal(conf(e, 0, buf, &old), HV_EOK);
	assert_true(old == 0);
	hvpmu_mmustat_tsb_hit(e->ms, 0, 1, 1, 0, 1);
	assert_true(word(e, buf + 0x180) == pattern(buf + 0x180) + 2);
}

static uint64_t fail_badalign(struct env *e, uint64_t *old)
{
	return conf(e, 0, SEG_A + 0x408, old);
}

static uint64_t fail_noraddr(struct env *e, uint64_t *old)
{
	return conf(e, 0, SEG_B - 0x100, old); /* straddles SEG_A and SEG_B */
}

/* Host out of memory while backing a buffer no earlier call backed. */
static unsigned calloc_failures;
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size)
{
	if (calloc_failures) {
		calloc_failures--;
		return NULL;
	}
	return __real_calloc(n, size);
}

static uint64_t fail_eio(struct env *e, uint64_t *old)
{
	uint64_t st;

	calloc_failures = 1;
	st = conf(e, 0, SEG_C, old); /* SEG_C is never written: no page yet */
	calloc_failures = 0;
	return st;
}

static void test_error_stops_collection(void **state)
{
	static uint64_t (*const fails[])(struct env *, uint64_t *) = { fail_badalign, fail_noraddr, fail_eio };
	static const uint64_t want[] = { HV_EBADALIGN, HV_ENORADDR, HV_EIO };

	(void)state;
	for (unsigned k = 0; k < sizeof fails / sizeof fails[0]; k++) {
		struct env e = env_new(1);

		check_error_stops(&e, fails[k], want[k]);
		env_free(&e);
	}
}

/* ENOCPU names no vCPU of the guest: nothing to disable, and the other
 * vCPUs keep collecting. */
static void test_enocpu_leaves_others(void **state)
{
	struct env e = env_new(2);
	uint64_t old;

	(void)state;
	assert_int_equal(conf(&e, 0, SEG_A, &old), HV_EOK);
	assert_int_equal(conf(&e, 1, SEG_B, &old), HV_EOK);
	assert_int_equal(conf(&e, 2, SEG_C, &old), HV_ENOCPU);
	assert_true(old == SENTINEL);
	assert_int_equal(conf(&e, UINT32_MAX, 0x8, &old), HV_ENOCPU);
	assert_true(info(&e, 0) == SEG_A && info(&e, 1) == SEG_B);
	hvpmu_mmustat_tsb_hit(e.ms, 0, 0, 0, 0, 7);
	hvpmu_mmustat_tsb_hit(e.ms, 1, 0, 0, 0, 9);
	assert_true(word(&e, SEG_A) == 1 && word(&e, SEG_A + 8) == 7);
	assert_true(word(&e, SEG_B) == 1 && word(&e, SEG_B + 8) == 9);
	/* an error of one vCPU does not touch another's buffer */
	assert_int_equal(conf(&e, 1, 0x8, &old), HV_EBADALIGN);
	assert_true(info(&e, 0) == SEG_A && info(&e, 1) == 0);
	env_free(&e);
}

/* ---- INFO --------------------------------------------------------------- */

static void test_info_idempotent(void **state)
{
	struct env e = env_new(2);
	uint64_t old;

	(void)state;
	assert_true(info(&e, 0) == 0);
	assert_true(info(&e, 0) == 0);
	assert_int_equal(conf(&e, 0, SEG_C, &old), HV_EOK);
	fill(&e, SEG_C, AREA);
	for (int i = 0; i < 5; i++)
		assert_true(info(&e, 0) == SEG_C);
	assert_true(info(&e, 1) == 0);
	assert_pattern(&e, SEG_C, AREA); /* neither conf nor info touches the buffer */
	env_free(&e);
}

/* ---- the buffer --------------------------------------------------------- */

/* Each counted slot (I/D x ctx0/ctxnon0 x codes 0, 1, 3, 5) at the offset
 * §2.3 gives it, and no other word. */
static void test_every_offset(void **state)
{
	struct env e = env_new(1);
	uint64_t old, buf = SEG_A + 0x1000;
	const uint64_t ticks = UINT64_C(0x0102030405060708);

	(void)state;
	assert_int_equal(conf(&e, 0, buf, &old), HV_EOK);
	for (unsigned i = 0; i < NSPEC; i++) {
		uint32_t off = spec_slots[i].off;

		assert_int_equal(hvpmu_mmustat_slot(spec_slots[i].dmmu, spec_slots[i].ctxnon0, spec_slots[i].code), off);
		fill(&e, buf - 0x100, AREA + 0x200);
		hvpmu_mmustat_tsb_hit(e.ms, 0, spec_slots[i].dmmu, spec_slots[i].ctxnon0, spec_slots[i].code, ticks);
		for (uint32_t w = 0; w < AREA; w += 8) {
			uint64_t want = pattern(buf + w);

			if (w == off)
				want += 1;
			else if (w == off + 8)
				want += ticks;
			assert_true(word(&e, buf + w) == want);
		}
		assert_pattern(&e, buf - 0x100, 0x100);
		assert_pattern(&e, buf + AREA, 0x100);
	}
	env_free(&e);
}

/* The words are big-endian: on a zeroed buffer one hit with 0x0102..08
 * ticks leaves exactly these bytes. */
static void test_big_endian_layout(void **state)
{
	struct env e = env_new(1);
	uint64_t old, buf = SEG_B + 0x200;
	uint8_t got[AREA], want[AREA];

	(void)state;
	assert_int_equal(conf(&e, 0, buf, &old), HV_EOK);
	hvpmu_mmustat_tsb_hit(e.ms, 0, 1, 0, 3, UINT64_C(0x0102030405060708)); /* DMMU ctx0 4mb: 0x130 */
	hvpmu_mmustat_tsb_hit(e.ms, 0, 0, 1, 5, UINT64_C(0x1122334455667788)); /* IMMU ctxnon0 256mb: 0xD0 */
	memset(want, 0, sizeof want);
	want[0x137] = 1;
	for (int i = 0; i < 8; i++)
		want[0x138 + i] = (uint8_t)(i + 1);
	want[0xD7] = 1;
	for (int i = 0; i < 8; i++)
		want[0xD8 + i] = (uint8_t)(0x11 * (i + 1));
	assert_int_equal(hvpmu_guest_mem_read(e.gm, buf, got, sizeof got), 0);
	assert_memory_equal(got, want, sizeof want);
	env_free(&e);
}

/* Size codes without a slot on T1 (2, 4, 6, 7) and codes past 7 are not
 * recorded: the reserved words, the rest of the buffer and the memory
 * around it keep their contents. */
static void test_reserved_untouched(void **state)
{
	static const unsigned bad[] = { 2, 4, 6, 7, 8, 9, 15, 16, 0xFFFFFFFFu };
	struct env e = env_new(1);
	uint64_t old, buf = SEG_C + 0x400;

	(void)state;
	assert_int_equal(conf(&e, 0, buf, &old), HV_EOK);
	fill(&e, SEG_C, 0x1000);
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_false(hvpmu_mmustat_code_valid(bad[i]));
		for (int d = 0; d < 2; d++)
			for (int c = 0; c < 2; c++)
				hvpmu_mmustat_tsb_hit(e.ms, 0, d, c, bad[i], 77);
	}
	assert_pattern(&e, SEG_C, 0x1000);

	/* every counted slot hit many times: the reserved words still hold
	 * their pattern (the buffer was filled with it, not zeroed) */
	for (int n = 0; n < 3; n++)
		for (unsigned i = 0; i < NSPEC; i++)
			hvpmu_mmustat_tsb_hit(e.ms, 0, spec_slots[i].dmmu, spec_slots[i].ctxnon0, spec_slots[i].code, 5);
	for (uint32_t w = 0; w < AREA; w += 8) {
		int counted = hvpmu_mmustat_field_name(w) != NULL;

		if (counted)
			assert_true(word(&e, buf + w) == pattern(buf + w) + ((w & 8) ? 15 : 3));
		else
			assert_true(word(&e, buf + w) == pattern(buf + w));
	}
	assert_pattern(&e, SEG_C, buf - SEG_C);
	assert_pattern(&e, buf + AREA, SEG_C + 0x1000 - buf - AREA);
	env_free(&e);
}

/* Each vCPU has its own buffer and state (hw-and-hypervisor.md §1.4). */
static void test_per_vcpu(void **state)
{
	struct env e = env_new(3);
	uint64_t old, a = SEG_A, b = SEG_A + AREA;

	(void)state;
	assert_int_equal(hvpmu_mmustat_nvcpus(e.ms), 3);
	assert_int_equal(conf(&e, 0, a, &old), HV_EOK);
	assert_int_equal(conf(&e, 1, b, &old), HV_EOK);
	assert_true(old == 0); /* vCPU 0's buffer is not vCPU 1's previous one */
	assert_true(info(&e, 0) == a);
	assert_true(info(&e, 1) == b);
	assert_true(info(&e, 2) == 0);

	hvpmu_mmustat_tsb_hit(e.ms, 0, 0, 0, 0, 10);
	hvpmu_mmustat_tsb_hit(e.ms, 1, 0, 0, 0, 20);
	hvpmu_mmustat_tsb_hit(e.ms, 1, 0, 0, 0, 20);
	hvpmu_mmustat_tsb_hit(e.ms, 2, 0, 0, 0, 40); /* collection off */
	assert_true(word(&e, a) == 1 && word(&e, a + 8) == 10);
	assert_true(word(&e, b) == 2 && word(&e, b + 8) == 40);

	/* reset of vCPU 0 disables it only; the buffer keeps its counts */
	hvpmu_mmustat_reset(e.ms, 0);
	assert_true(info(&e, 0) == 0);
	assert_true(info(&e, 1) == b);
	hvpmu_mmustat_tsb_hit(e.ms, 0, 0, 0, 0, 10);
	hvpmu_mmustat_tsb_hit(e.ms, 1, 0, 0, 0, 20);
	assert_true(word(&e, a) == 1 && word(&e, a + 8) == 10);
	assert_true(word(&e, b) == 3 && word(&e, b + 8) == 60);
	assert_int_equal(conf(&e, 0, a, &old), HV_EOK);
	assert_true(old == 0);

	/* two vCPUs may share a buffer (nothing forbids it): counts add */
	assert_int_equal(conf(&e, 2, b, &old), HV_EOK);
	hvpmu_mmustat_tsb_hit(e.ms, 2, 0, 0, 0, 1);
	assert_true(word(&e, b) == 4 && word(&e, b + 8) == 61);
	env_free(&e);
}

/* ticks accumulate the deltas, hits count, both modulo 2^64; a re-enabled
 * buffer is not cleared (the guest zeroes it, spec §2.1). */
static void test_ticks_accumulate(void **state)
{
	struct env e = env_new(1);
	uint64_t old, buf = SEG_A, sum = 0, slot = SEG_A + 0x0B0; /* IMMU ctxnon0 4mb */

	(void)state;
	assert_int_equal(conf(&e, 0, buf, &old), HV_EOK);
	for (uint64_t i = 0; i < 1000; i++) {
		hvpmu_mmustat_tsb_hit(e.ms, 0, 0, 1, 3, i * 7 + 3);
		sum += i * 7 + 3;
	}
	assert_true(word(&e, slot) == 1000);
	assert_true(word(&e, slot + 8) == sum);
	hvpmu_mmustat_tsb_hit(e.ms, 0, 0, 1, 3, 0);
	assert_true(word(&e, slot) == 1001 && word(&e, slot + 8) == sum);

	assert_int_equal(conf(&e, 0, 0, &old), HV_EOK);
	assert_int_equal(conf(&e, 0, buf, &old), HV_EOK);
	assert_true(word(&e, slot) == 1001);

	assert_int_equal(hvpmu_guest_mem_write64(e.gm, slot, UINT64_MAX), 0);
	assert_int_equal(hvpmu_guest_mem_write64(e.gm, slot + 8, UINT64_MAX - 1), 0);
	hvpmu_mmustat_tsb_hit(e.ms, 0, 0, 1, 3, 3);
	assert_true(word(&e, slot) == 0);
	assert_true(word(&e, slot + 8) == 1);
	env_free(&e);
}

/* The buffer's host pages are allocated by CONF, so TSB hits never
 * allocate (and so never fail). */
static void test_backing(void **state)
{
	struct env e = env_new(1);
	uint64_t old, pages;

	(void)state;
	assert_true(hvpmu_guest_mem_host_pages(e.gm) == 0);
	assert_int_equal(conf(&e, 0, SEG_A + HVPMU_GUEST_MEM_PAGE - 0x100, &old), HV_EOK); /* spans 2 pages */
	pages = hvpmu_guest_mem_host_pages(e.gm);
	assert_true(pages == 2);
	for (unsigned i = 0; i < NSPEC; i++)
		hvpmu_mmustat_tsb_hit(e.ms, 0, spec_slots[i].dmmu, spec_slots[i].ctxnon0, spec_slots[i].code, 1);
	assert_true(hvpmu_guest_mem_host_pages(e.gm) == pages);
	env_free(&e);
}

static void test_bad_vcpu(void **state)
{
	struct env e = env_new(2);
	uint64_t old, ra = SENTINEL;

	(void)state;
	assert_int_equal(conf(&e, 2, SEG_A, &old), HV_ENOCPU);
	assert_true(old == SENTINEL);
	assert_int_equal(hvpmu_mmustat_info(e.ms, 2, &ra), HV_ENOCPU);
	assert_true(ra == 0);
	assert_int_equal(hvpmu_mmustat_info(e.ms, UINT32_MAX, &ra), HV_ENOCPU);
	hvpmu_mmustat_tsb_hit(e.ms, 2, 0, 0, 0, 1);
	hvpmu_mmustat_reset(e.ms, 2);
	assert_true(info(&e, 0) == 0 && info(&e, 1) == 0);
	env_free(&e);
}

static void test_create_errors(void **state)
{
	struct hvpmu_guest_mem *gm = NULL;
	struct hvpmu_mmustat *ms = (void *)1;

	(void)state;
	assert_int_equal(hvpmu_guest_mem_create(NULL, 0, &gm), 0);
	assert_int_equal(hvpmu_mmustat_create(gm, 0, &ms), HVPMU_EINVAL);
	assert_null(ms);
	assert_int_equal(hvpmu_mmustat_create(NULL, 1, &ms), HVPMU_EINVAL);
	assert_int_equal(hvpmu_mmustat_create(gm, 1, NULL), HVPMU_EINVAL);
	/* no memory: every non-zero buffer is ENORADDR, ra 0 still disables */
	assert_int_equal(hvpmu_mmustat_create(gm, 1, &ms), 0);
	assert_int_equal(hvpmu_mmustat_conf(ms, 0, 0x40, NULL), HV_ENORADDR);
	assert_int_equal(hvpmu_mmustat_conf(ms, 0, 0, NULL), HV_EOK);
	hvpmu_mmustat_destroy(ms);
	hvpmu_mmustat_destroy(NULL);
	hvpmu_guest_mem_destroy(gm);
}

/* Linux's names of the 32 counted words (struct hv_mmu_statistics,
 * linux-clients.md §1.4), NULL exactly for the reserved ones. */
static void test_field_names(void **state)
{
	unsigned named = 0;

	(void)state;
	assert_string_equal(hvpmu_mmustat_field_name(0x000), "immu_tsb_hits_ctx0_8k_tte");
	assert_string_equal(hvpmu_mmustat_field_name(0x018), "immu_tsb_ticks_ctx0_64k_tte");
	assert_string_equal(hvpmu_mmustat_field_name(0x0B0), "immu_tsb_hits_ctxnon0_4mb_tte");
	assert_string_equal(hvpmu_mmustat_field_name(0x158), "dmmu_tsb_ticks_ctx0_256mb_tte");
	assert_string_equal(hvpmu_mmustat_field_name(0x1D8), "dmmu_tsb_ticks_ctxnon0_256mb_tte");
	assert_null(hvpmu_mmustat_field_name(0x020));
	assert_null(hvpmu_mmustat_field_name(0x1F8));
	assert_null(hvpmu_mmustat_field_name(0x004));
	assert_null(hvpmu_mmustat_field_name(0x200));
	for (uint32_t w = 0; w < AREA; w += 8) {
		const char *n = hvpmu_mmustat_field_name(w);
		int counted = 0;

		for (unsigned i = 0; i < NSPEC; i++)
			counted |= w == spec_slots[i].off || w == spec_slots[i].off + 8;
		assert_int_equal(n != NULL, counted);
		assert_int_equal(hvpmu_mmustat_code_valid((w >> 4) & 7), counted);
		if (!n)
			continue;
		named++;
		assert_true(strstr(n, (w & 8) ? "_tsb_ticks_" : "_tsb_hits_") != NULL);
		assert_true(strncmp(n, (w & 0x100) ? "dmmu" : "immu", 4) == 0);
		assert_true(strstr(n, (w & 0x80) ? "_ctxnon0_" : "_ctx0_") != NULL);
		for (uint32_t v = 0; v < w; v += 8)
			if (hvpmu_mmustat_field_name(v))
				assert_string_not_equal(n, hvpmu_mmustat_field_name(v));
	}
	assert_int_equal(named, 32);
}

/* The TLB model's struct tlb_stats.tsb[side][ctx != 0][code] has the
 * buffer's layout (src/model/tlb.h), slot for slot. */
static void test_tlb_stats_layout(void **state)
{
	(void)state;
	assert_int_equal(sizeof(((struct tlb_stats *)0)->tsb), AREA);
	for (int s = 0; s < TLB_NSIDES; s++)
		for (int c = 0; c < 2; c++)
			for (unsigned k = 0; k < TLB_NPGSZ; k++) {
				size_t off = offsetof(struct tlb_stats, tsb[s][c][k]) - offsetof(struct tlb_stats, tsb);

				assert_int_equal(off, hvpmu_mmustat_slot(s == TLB_SIDE_D, c, k));
				assert_int_equal(hvpmu_mmustat_code_valid(k), (TLB_PGMASK_T1 >> k) & 1);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_disable),
		cmocka_unit_test(test_error_stops_collection),
		cmocka_unit_test(test_enocpu_leaves_others),
		cmocka_unit_test(test_info_idempotent),
		cmocka_unit_test(test_every_offset),
		cmocka_unit_test(test_big_endian_layout),
		cmocka_unit_test(test_reserved_untouched),
		cmocka_unit_test(test_per_vcpu),
		cmocka_unit_test(test_ticks_accumulate),
		cmocka_unit_test(test_backing),
		cmocka_unit_test(test_bad_vcpu),
		cmocka_unit_test(test_create_errors),
		cmocka_unit_test(test_field_names),
		cmocka_unit_test(test_tlb_stats_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
