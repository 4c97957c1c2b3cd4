/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The strand branch predictor behind TABLE 10-2 sl=25
 * (sparc-t4-performance-instrumentation.md), through
 * hvpmu_machine_branch(): direction (2-bit counters, weakly not-taken at
 * reset), return stack (CALL pushes pc+8, ret/retl pop), indirect table
 * (last target), far table (direct CTIs leaving their 8 KB page), as
 * docs/branch-prediction.md specifies them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

#define COND (HVPMU_IC_BRANCH | HVPMU_IC_CTI_COND)
#define BA (HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS)
#define CALL (HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_CALL)
#define RET (HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_INDIRECT | HVPMU_IC_RET)
#define JMP (HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_INDIRECT)
#define PC UINT64_C(0x100100)
#define PAGE UINT64_C(0x2000)

static struct hvpmu_machine *new_machine(void)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	return m;
}

/* A loop branch taken N-1 times then not taken: mispredicted on the first
 * taken (weakly not-taken counter) and on the exit. */
static void test_loop_direction(void **state)
{
	struct hvpmu_machine *m = new_machine();
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);
	int wrong = 0;

	(void)state;
	for (int i = 0; i < 100; i++)
		wrong += hvpmu_machine_branch(m, 0, PC, COND, i < 99, PC - 16) == HVPMU_MISPRED_DIR;
	assert_int_equal(wrong, 2);
	assert_int_equal(a->mispred[HVPMU_MISPRED_DIR], 2);
	/* the same loop again: the counter is strongly taken, only the exit misses */
	for (int i = 0; i < 100; i++)
		hvpmu_machine_branch(m, 0, PC, COND, i < 99, PC - 16);
	assert_int_equal(a->mispred[HVPMU_MISPRED_DIR], 3);
	hvpmu_machine_destroy(m);
}

/* Strict alternation on a 2-bit counter from weakly not-taken: T,N,T,N...
 * mispredicts every taken (counter 1 -> 2 -> 1 ...): predicted N, N, ... */
static void test_alternating(void **state)
{
	struct hvpmu_machine *m = new_machine();

	(void)state;
	for (int i = 0; i < 10; i++)
		hvpmu_machine_branch(m, 0, PC, COND, i % 2 == 0, PC + 64);
	/* 1:T(pred N, miss)->2, N(pred T, miss)->1, ... every one misses */
	assert_int_equal(hvpmu_machine_activity(m, 0)->mispred[HVPMU_MISPRED_DIR], 10);
	hvpmu_machine_destroy(m);
}

static void test_return_stack(void **state)
{
	struct hvpmu_machine *m = new_machine();
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);

	(void)state;
	/* nested calls 3 deep, matched returns: no mispredicts */
	assert_int_equal(hvpmu_machine_branch(m, 0, PC, CALL, 1, PC + 0x40), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x40, CALL, 1, PC + 0x80), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x80, CALL, 1, PC + 0xc0), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0xc8, RET, 1, PC + 0x88), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x90, RET, 1, PC + 0x48), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x50, RET, 1, PC + 8), -1);
	/* a return with an empty stack, and one to a different address */
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x50, RET, 1, PC + 8), HVPMU_MISPRED_RET);
	hvpmu_machine_branch(m, 0, PC, CALL, 1, PC + 0x40);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x50, RET, 1, PC + 0x200), HVPMU_MISPRED_RET);
	assert_int_equal(a->mispred[HVPMU_MISPRED_RET], 2);
	hvpmu_machine_destroy(m);
}

/* 9 nested calls overflow the 8-entry stack: the outermost return misses. */
static void test_return_stack_overflow(void **state)
{
	struct hvpmu_machine *m = new_machine();

	(void)state;
	for (uint64_t d = 0; d < 9; d++)
		hvpmu_machine_branch(m, 0, PC + 0x100 * d, CALL, 1, PC + 0x100 * (d + 1));
	for (uint64_t d = 9; d-- > 0;)
		hvpmu_machine_branch(m, 0, PC + 0x100 * (d + 1) + 0x10, RET, 1, PC + 0x100 * d + 8);
	assert_int_equal(hvpmu_machine_activity(m, 0)->mispred[HVPMU_MISPRED_RET], 1);
	hvpmu_machine_destroy(m);
}

static void test_indirect_and_far(void **state)
{
	struct hvpmu_machine *m = new_machine();
	struct hvpmu_activity *a = hvpmu_machine_activity(m, 0);

	(void)state;
	/* indirect jump: first use and every change of target miss */
	assert_int_equal(hvpmu_machine_branch(m, 0, PC, JMP, 1, PC + 0x400), HVPMU_MISPRED_INDIR);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC, JMP, 1, PC + 0x400), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC, JMP, 1, PC + 0x800), HVPMU_MISPRED_INDIR);
	assert_int_equal(a->mispred[HVPMU_MISPRED_INDIR], 2);
	/* a direct branch within its 8 KB page never uses the far table */
	assert_int_equal(hvpmu_machine_branch(m, 0, PC, BA, 1, PC + 0x100), -1);
	/* one leaving the page misses once, then hits */
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 8, BA, 1, PC + 4 * PAGE), HVPMU_MISPRED_FAR);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 8, BA, 1, PC + 4 * PAGE), -1);
	assert_int_equal(a->mispred[HVPMU_MISPRED_FAR], 1);
	/* a not-taken conditional branch never checks a target */
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 16, COND, 0, PC + 8 * PAGE), -1);
	/* strands have their own predictors; bad strand is -1 */
	assert_int_equal(hvpmu_machine_branch(m, 1, PC, JMP, 1, PC + 0x800), HVPMU_MISPRED_INDIR);
	assert_int_equal(hvpmu_machine_branch(m, 100000, PC, JMP, 1, 0), -1);
	hvpmu_machine_destroy(m);
}

/* The return stack on an ISA without a delay slot (the POWER platform:
 * bl sets LR = CIA + 4, Power ISA v2.06 Book I 2.4): a call returns to
 * pc + 4, predicted; returning to pc + 8 is a return-stack mispredict.
 * (MIPS's JAL links pc + 8, as SPARC's CALL returns: the T4 tests above.) */
static void test_return_stack_no_delay_slot(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	struct hvpmu_activity *a;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_POWER, &md), 0);
	assert_int_equal(hvpmu_machine_create(&md, &m), 0);
	a = hvpmu_machine_activity(m, 0);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC, CALL, 1, PC + 0x40), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x40, CALL, 1, PC + 0x80), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x84, RET, 1, PC + 0x44), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x48, RET, 1, PC + 4), -1);
	assert_int_equal(a->mispred[HVPMU_MISPRED_RET], 0);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC, CALL, 1, PC + 0x40), -1);
	assert_int_equal(hvpmu_machine_branch(m, 0, PC + 0x48, RET, 1, PC + 8), HVPMU_MISPRED_RET);
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_direction),
		cmocka_unit_test(test_alternating),
		cmocka_unit_test(test_return_stack),
		cmocka_unit_test(test_return_stack_overflow),
		cmocka_unit_test(test_indirect_and_far),
		cmocka_unit_test(test_return_stack_no_delay_slot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
