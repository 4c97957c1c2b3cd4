/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's guest-OS events (hvpmu/machine.h hvpmu_machine_os_event):
 * each reaches the installed handler once, with the strand in the mode the
 * trap gives it (a system call runs privileged, its return and a thread
 * start are user mode); bad strands and unknown events change nothing.
 * And the features the event source reads (hvpmu_machine_features).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hvpmu/hvpmu.h>

struct seen {
	struct hvpmu_machine *m;
	unsigned n;
	struct hvpmu_os_call last;
	enum hvpmu_mode mode; /* the strand's mode inside the handler */
};

static void handler(void *ctx, const struct hvpmu_os_call *c)
{
	struct seen *s = ctx;

	s->n++;
	s->last = *c;
	s->mode = hvpmu_machine_mode(s->m, c->strand < hvpmu_machine_nstrands(s->m) ? c->strand : 0);
}

static struct hvpmu_machine *t4(void)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), HVPMU_OK);
	assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_OK);
	return m;
}

static void test_os_events(void **state)
{
	struct hvpmu_machine *m = t4();
	struct seen s = { .m = m };
	struct hvpmu_os_call c = { .ev = HVPMU_OS_THREAD_START, .strand = 3 };

	(void)state;
	/* no handler: the mode changes all the same */
	c.ev = HVPMU_OS_SYSCALL;
	assert_int_equal(hvpmu_machine_os_event(m, &c), HVPMU_OK);
	assert_int_equal(hvpmu_machine_mode(m, 3), HVPMU_MODE_PRIV);
	hvpmu_machine_set_os_handler(m, handler, &s);
	c.ev = HVPMU_OS_THREAD_START;
	assert_int_equal(hvpmu_machine_os_event(m, &c), HVPMU_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.mode, HVPMU_MODE_USER);
	c = (struct hvpmu_os_call){ .ev = HVPMU_OS_SYSCALL, .strand = 3, .num = 4, .args = { 1, 2, 3, 4, 5, 6 } };
	assert_int_equal(hvpmu_machine_os_event(m, &c), HVPMU_OK);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.mode, HVPMU_MODE_PRIV);
	assert_int_equal(s.last.num, 4);
	assert_int_equal(s.last.args[5], 6);
	assert_int_equal(hvpmu_machine_mode(m, 3), HVPMU_MODE_PRIV);
	c = (struct hvpmu_os_call){ .ev = HVPMU_OS_SYSRET, .strand = 3, .num = 4, .ret = -14 };
	assert_int_equal(hvpmu_machine_os_event(m, &c), HVPMU_OK);
	assert_int_equal(s.mode, HVPMU_MODE_PRIV); /* the OS returns from privileged mode */
	assert_int_equal(s.last.ret, -14);
	assert_int_equal(hvpmu_machine_mode(m, 3), HVPMU_MODE_USER);
	c = (struct hvpmu_os_call){ .ev = HVPMU_OS_THREAD_EXIT, .strand = 3 };
	assert_int_equal(hvpmu_machine_os_event(m, &c), HVPMU_OK);
	assert_int_equal(s.last.ev, HVPMU_OS_THREAD_EXIT);
	/* HALT names no strand */
	c = (struct hvpmu_os_call){ .ev = HVPMU_OS_HALT, .strand = UINT32_MAX };
	assert_int_equal(hvpmu_machine_os_event(m, &c), HVPMU_OK);
	assert_int_equal(s.n, 5);
	/* neither does UNCOUNTED: passed on with its count, no mode changed */
	c = (struct hvpmu_os_call){ .ev = HVPMU_OS_UNCOUNTED, .strand = UINT32_MAX, .num = 1 };
	assert_int_equal(hvpmu_machine_os_event(m, &c), HVPMU_OK);
	assert_int_equal(s.last.ev, HVPMU_OS_UNCOUNTED);
	assert_int_equal(s.last.num, 1);
	assert_int_equal(hvpmu_machine_mode(m, 3), HVPMU_MODE_USER);
	s.n--;
	/* a strand past the machine, an unknown event: refused, not passed on */
	c = (struct hvpmu_os_call){ .ev = HVPMU_OS_SYSCALL, .strand = hvpmu_machine_nstrands(m) };
	assert_int_equal(hvpmu_machine_os_event(m, &c), HVPMU_ERANGE);
	c = (struct hvpmu_os_call){ .ev = (enum hvpmu_os_event)99, .strand = 0 };
	assert_int_equal(hvpmu_machine_os_event(m, &c), HVPMU_EINVAL);
	assert_int_equal(s.n, 5);
	hvpmu_machine_destroy(m);
}

static void test_features(void **state)
{
	struct hvpmu_machine *m = t4();

	(void)state;
	assert_int_equal(hvpmu_machine_features(m), 0);
	hvpmu_machine_set_features(m, HVPMU_FEAT_TAKEN);
	assert_int_equal(hvpmu_machine_features(m), HVPMU_FEAT_TAKEN);
	assert_false(hvpmu_machine_memory_enabled(m));
	/* the memory model brings every CTI's outcome with it (timing) */
	hvpmu_machine_set_features(m, HVPMU_FEAT_MEMORY);
	assert_true(hvpmu_machine_memory_enabled(m));
	assert_int_equal(hvpmu_machine_features(m), HVPMU_FEAT_MEMORY | HVPMU_FEAT_BRANCHES);
	hvpmu_machine_enable_memory(m, 0);
	assert_int_equal(hvpmu_machine_features(m), 0);
	hvpmu_machine_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_os_events),
		cmocka_unit_test(test_features),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
