/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's MMU contexts for a guest OS's processes
 * (hvpmu_machine_context_alloc / _free, docs/service.md "Address
 * spaces"): the lowest free context is given, HVPMU_CTX_MAX at once at
 * most, a freed one is given again; a process's pages touched through
 * the memory model get frames that go back to the modeled physical
 * memory when its context is freed and serve the next process; the
 * TLBs forget the context and the caches its lines (the next process's
 * loads miss to memory as the first's did).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <hvpmu/hvpmu.h>

#define PAGES 64
#define PAGE 8192u

static struct hvpmu_machine *machine(void)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_by_name("t4", &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	hvpmu_machine_enable_memory(m, 1);
	return m;
}

/* A process in context ctx on strand 0 loads from PAGES pages. */
static void touch(struct hvpmu_machine *m, uint32_t ctx)
{
	int cls = hvpmu_machine_class(m, HVPMU_IC_LOAD);

	assert_true(cls >= 0);
	assert_int_equal(hvpmu_machine_set_user_context(m, 0, ctx), 0);
	for (unsigned i = 0; i < PAGES; i++)
		hvpmu_machine_dref(m, 0, 0x10000, 0x200000 + (uint64_t)i * PAGE, 8, HVPMU_IC_LOAD, 0);
}

static void alloc_free(void **state)
{
	struct hvpmu_machine *m = machine();
	uint32_t c, n = 0;

	(void)state;
	while (hvpmu_machine_context_alloc(m, &c) == 0) {
		assert_int_equal(c, n + 1); /* the lowest free */
		n++;
	}
	assert_int_equal(n, HVPMU_CTX_MAX);
	assert_int_equal(hvpmu_machine_context_alloc(m, &c), HVPMU_EFULL);
	assert_int_equal(hvpmu_machine_context_free(m, 5), 0);
	assert_int_equal(hvpmu_machine_context_free(m, 5), HVPMU_EINVAL); /* not in use */
	assert_int_equal(hvpmu_machine_context_free(m, 0), HVPMU_EINVAL);
	assert_int_equal(hvpmu_machine_context_free(m, HVPMU_CTX_MAX + 1), HVPMU_EINVAL);
	assert_int_equal(hvpmu_machine_context_alloc(m, &c), 0);
	assert_int_equal(c, 5);
	hvpmu_machine_destroy(m);
}

static void memory_reused(void **state)
{
	struct hvpmu_machine *m = machine();
	uint32_t a, b;
	uint64_t freed;

	(void)state;
	assert_int_equal(hvpmu_machine_context_alloc(m, &a), 0);
	touch(m, a);
	assert_true(hvpmu_machine_phys_free(m) == 0);
	assert_int_equal(hvpmu_machine_context_free(m, a), 0);
	freed = hvpmu_machine_phys_free(m);
	assert_true(freed >= (uint64_t)PAGES * PAGE); /* its frames and its TSB */
	/* the next process (the same context number again) gets them back */
	assert_int_equal(hvpmu_machine_context_alloc(m, &b), 0);
	assert_int_equal(b, a);
	touch(m, b);
	assert_true(hvpmu_machine_phys_free(m) == 0);
	/* the memory came back cold: the second process's loads missed to
	 * memory as the first's did (its lines were dropped from the caches) */
	{
		struct hvpmu_machine *m2 = machine();
		const struct hvpmu_activity *act = hvpmu_machine_activity(m2, 0);
		uint64_t first, second;

		assert_int_equal(hvpmu_machine_context_alloc(m2, &b), 0);
		touch(m2, b);
		first = act->mev[HVPMU_MEV_DC_MISS_MEM];
		assert_true(first >= PAGES);
		assert_int_equal(hvpmu_machine_context_free(m2, b), 0);
		assert_int_equal(hvpmu_machine_context_alloc(m2, &b), 0);
		touch(m2, b);
		second = act->mev[HVPMU_MEV_DC_MISS_MEM] - first;
		assert_true(second == first);
		hvpmu_machine_destroy(m2);
	}
	/* a thousand processes one after another: the memory stays the first one's */
	for (int k = 0; k < 1000; k++) {
		assert_int_equal(hvpmu_machine_context_free(m, b), 0);
		assert_int_equal(hvpmu_machine_context_alloc(m, &b), 0);
		touch(m, b);
		assert_true(hvpmu_machine_phys_free(m) == 0);
	}
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_free),
		cmocka_unit_test(memory_reused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
