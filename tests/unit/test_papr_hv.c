/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PAPR hypervisor on a POWER machine (src/services/papr_hv.c): the
 * platform services of platform power are the "papr" personality, the
 * machine carries the CEC statistics device on its register bus, a
 * partition's hcall from one of its strands reaches
 * H_GetPerformanceCounterInfo with its real memory, its processor (the
 * strand's core) and its rights; MMCRH set through the hcall is the
 * device's.  Counters fed into the machine's device are the ones the
 * hcall returns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <hvpmu/hvpmu.h>

#define RA UINT64_C(0x10000)
#define BUF 4096u

/* A POWER machine whose three partitions are three guests: 1 on cores
 * 0-3 (its dedicated processors), 2 on cores 4-7, 3 on cores 8-15. */
static const char three[] =
	"{\"platform\": \"power\", \"guests\": ["
	" {\"name\": \"dedicated\", \"first_strand\": 0, \"nstrands\": 16, \"mblock\": [{\"base\": 0, \"size\": 16777216}]},"
	" {\"name\": \"capped\", \"first_strand\": 16, \"nstrands\": 16, \"mblock\": [{\"base\": 0, \"size\": 16777216}]},"
	" {\"name\": \"uncapped\", \"first_strand\": 32, \"nstrands\": 32, \"mblock\": [{\"base\": 0, \"size\": 16777216}]}"
	"]}";

struct sys {
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
};

static void up(struct sys *s)
{
	char err[256];

	assert_int_equal(hvpmu_md_parse(three, strlen(three), NULL, &s->md, err, sizeof err), 0);
	assert_int_equal(hvpmu_machine_create(&s->md, &s->m), 0);
	assert_int_equal(hvpmu_hv_create(s->m, &s->hv), 0);
}

static void down(struct sys *s)
{
	hvpmu_hv_destroy(s->hv);
	hvpmu_machine_destroy(s->m);
}

static uint64_t get(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | b[i];
	return v;
}

/* A request from `strand` in its partition's memory at RA; the block back. */
static int64_t req(struct sys *s, uint32_t strand, uint32_t code, uint32_t start, uint64_t size, uint8_t *b)
{
	int guest = -1;
	struct hvpmu_guest_mem *gm;
	const uint64_t gpr[3] = { 0xF080, RA, size };
	int64_t rc;

	for (unsigned g = 0; g < s->md.nguests; g++)
		if (strand >= s->md.guests[g].first_strand && strand < s->md.guests[g].first_strand + s->md.guests[g].nstrands)
			guest = (int)g;
	assert_true(guest >= 0);
	gm = hvpmu_hv_guest_mem(s->hv, (unsigned)guest);
	memset(b, 0, BUF);
	for (int i = 0; i < 4; i++) {
		b[i] = (uint8_t)(code >> (24 - 8 * i));
		b[4 + i] = (uint8_t)(start >> (24 - 8 * i));
	}
	assert_int_equal(hvpmu_guest_mem_write(gm, RA, b, BUF), 0);
	rc = hvpmu_papr_hv_hcall(s->hv, strand, gpr);
	assert_int_equal(hvpmu_guest_mem_read(gm, RA, b, BUF), 0);
	return rc;
}

static void test_personality_and_device(void **state)
{
	struct sys s;
	struct hvpmu_device_info info;
	int dev;

	(void)state;
	up(&s);
	assert_string_equal(hvpmu_hv_personality(s.hv), "papr");
	dev = hvpmu_machine_device_find(s.m, HVPMU_DEV_CEC_STATS, 0);
	assert_true(dev >= 0);
	assert_int_equal(hvpmu_machine_device(s.m, (unsigned)dev, &info), 0);
	assert_string_equal(info.name, "cec-stats");
	down(&s);
	/* a machine of another platform: no PAPR hypervisor */
	{
		struct hvpmu_md md;
		const uint64_t gpr[3] = { 0xF080, RA, BUF };

		assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
		assert_int_equal(hvpmu_machine_create(&md, &s.m), 0);
		assert_int_equal(hvpmu_hv_create(s.m, &s.hv), 0);
		assert_int_equal(hvpmu_papr_hv_hcall(s.hv, 0, gpr), HVPMU_H_FUNCTION);
		assert_int_equal(hvpmu_machine_device_find(s.m, HVPMU_DEV_CEC_STATS, 0), HVPMU_ERANGE);
		down(&s);
	}
	/* a POWER description whose CEC is not its machine's */
	{
		struct hvpmu_md md;

		assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_POWER, &md), 0);
		md.cec.nchips = 0;
		assert_int_equal(hvpmu_machine_create(&md, &s.m), HVPMU_EINVAL);
	}
}

/* Each partition calls from its strands: its memory, its rights, its processor. */
static void test_partitions(void **state)
{
	struct sys s;
	static uint8_t b[BUF];

	(void)state;
	up(&s);
	/* the capabilities probe from every partition */
	for (uint32_t strand = 0; strand < 64; strand += 16) {
		unsigned part = strand < 16 ? 0 : strand < 32 ? 1 : 2;

		assert_int_equal(req(&s, strand, 0x40, 0xFFFFFFFF, 48, b), HVPMU_H_SUCCESS);
		assert_int_equal(b[0x20], s.md.cec.partitions[part].collect_privileged);
		assert_int_equal(get(b + 4, 4), s.md.cec.partitions[part].id);
	}
	/* partition 1 sees the CEC: every processor, its description */
	assert_int_equal(req(&s, 5, 0x10, 0, BUF, b), HVPMU_H_SUCCESS);
	assert_int_equal(get(b + 8, 4), 32);
	for (unsigned i = 0; i < 32; i++) {
		const uint8_t *e = b + 32 + 48 * i;

		assert_int_equal(get(e + 8, 4), s.md.cec.procs[i].hw_id);
		assert_int_equal(get(e + 0xC, 2), s.md.cec.procs[i].owner);
		assert_int_equal(e[0xE], s.md.cec.procs[i].state);
		assert_int_equal(get(e + 0x10, 4), s.md.cec.chips[i / 8].hw_id);
	}
	/* -1: the strand's core (strand 13: core 3) */
	assert_int_equal(req(&s, 13, 0x10, 0xFFFFFFFF, BUF, b), HVPMU_H_SUCCESS);
	assert_int_equal(get(b + 4, 4), 3);
	assert_int_equal(get(b + 32 + 8, 4), s.md.cec.procs[3].hw_id);
	/* partition 2: only its own data */
	assert_int_equal(req(&s, 20, 0x10, 0, BUF, b), HVPMU_H_AUTHORITY);
	assert_int_equal(req(&s, 20, 0x20, 0xFFFFFFFF, BUF, b), HVPMU_H_SUCCESS);
	assert_int_equal(get(b + 32, 8), 2);
	assert_int_equal(req(&s, 40, 0x30, 1, BUF, b), HVPMU_H_AUTHORITY);
	/* a strand of no partition */
	{
		const uint64_t gpr[3] = { 0xF080, RA, BUF };

		assert_int_equal(hvpmu_papr_hv_hcall(s.hv, 100, gpr), HVPMU_H_HARDWARE);
	}
	down(&s);
}

/* The machine's device is the hcall's: what is fed into it, MMCRH set by the hcall. */
static void test_device_on_the_bus(void **state)
{
	struct sys s;
	static uint8_t b[BUF];
	struct hvpmu_cec_stats *st;
	struct hvpmu_cec_dispatch d = { .proc = 9, .part = 2, .capped = 1234, .idle = 34, .run_insns = 5678,
					.run_cycles = 1000 };
	uint64_t v;

	(void)state;
	up(&s);
	st = hvpmu_machine_device_state(s.m, (unsigned)hvpmu_machine_device_find(s.m, HVPMU_DEV_CEC_STATS, 0));
	assert_non_null(st);
	assert_int_equal(hvpmu_cec_stats_advance(st, 100000), 0);
	assert_int_equal(hvpmu_cec_stats_entitle(st, 2, 150000), 0);
	assert_int_equal(hvpmu_cec_stats_dispatch(st, &d), 0);
	assert_int_equal(req(&s, 0, 0x30, 3, BUF, b), HVPMU_H_SUCCESS);
	assert_int_equal(get(b + 32 + 8, 8), 5678);
	assert_int_equal(get(b + 32 + 16, 8), 1000);
	assert_int_equal(req(&s, 0, 0x10, 9, BUF, b), HVPMU_H_SUCCESS);
	assert_int_equal(get(b + 32, 8), 1234);
	/* Set MMCRH through the hcall: the device's register */
	{
		struct hvpmu_guest_mem *gm = hvpmu_hv_guest_mem(s.hv, 0);
		uint8_t blk[40] = { 0x80, 0x00, 0x10, 0x00 };
		const uint64_t gpr[3] = { 0xF080, RA, sizeof blk };

		blk[32 + 6] = 0x02; /* MMCRH 0x0200: HPMC1 counts run-latch instructions */
		assert_int_equal(hvpmu_guest_mem_write(gm, RA, blk, sizeof blk), 0);
		assert_int_equal(hvpmu_papr_hv_hcall(s.hv, 0, gpr), HVPMU_H_SUCCESS);
		assert_int_equal(hvpmu_cec_stats_read(st, HVPMU_CEC_REG(HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_MMCRH), &v), 0);
		assert_int_equal(v, 0x0200);
	}
	down(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_personality_and_device),
		cmocka_unit_test(test_partitions),
		cmocka_unit_test(test_device_on_the_bus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
