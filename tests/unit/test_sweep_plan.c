/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan of `hvpmu sweep` (src/tools/sweep_plan.c, compiled in;
 * docs/sweeps.md "The plan"): what a plan gives and its defaults, paths
 * resolved against the plan's directory, every kind of bad plan refused
 * in one line naming the key, the axes' key paths set into a description,
 * and the canonical JSON the keys hash (key order and blanks do not
 * change it; values do).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tools/sweep_plan.c"

static int parse(const char *text, struct sweep_plan *pl, char *err, size_t n)
{
	return sweep_plan_parse(text, strlen(text), "/plans", "p.json", pl, err, n);
}

static void test_plan(void **state)
{
	struct sweep_plan pl;
	char err[512];
	const char *opt, *val;

	(void)state;
	assert_int_equal(parse("{ \"events\": [\"cycles:u\", \"L2_clean_evict\"], \"options\": [\"--hw-prefetch=2\"],"
			       "  \"repeat\": 3, \"axes\": { \"memory.l2.size\": [32768, 131072], \"chips\": [1, 2, 4] },"
			       "  \"env\": { \"Z\": \"1\", \"A\": \"2\" },"
			       "  \"programs\": [ { \"path\": \"bin/seq_l2\", \"args\": [\"-x\"], \"input\": \"/in\" },"
			       "                 { \"name\": \"b\", \"path\": \"/abs/b\", \"files\": [\"f\"], \"status\": 3 } ] }",
			       &pl, err, sizeof err), 0);
	assert_int_equal(pl.tool, SWEEP_STAT);
	assert_int_equal(pl.nevents, 2);
	assert_int_equal(pl.repeat, 3);
	assert_int_equal(pl.naxes, 2);
	assert_int_equal(pl.npoints, 6);
	assert_string_equal(pl.axis[0].key, "memory.l2.size");
	assert_int_equal(pl.nprog, 2);
	assert_string_equal(pl.prog[0].name, "seq_l2"); /* the file's name */
	assert_string_equal(pl.prog[0].path, "/plans/bin/seq_l2");
	assert_string_equal(pl.prog[0].input, "/in");
	assert_string_equal(pl.prog[0].args[0], "-x");
	assert_string_equal(pl.prog[1].files[0], "/plans/f");
	assert_int_equal(pl.prog[1].status, 3);
	assert_string_equal(pl.env[0], "A=2"); /* sorted */
	assert_string_equal(pl.cwd, "/plans");
	assert_int_equal(sweep_plan_option_argv(&pl, 0, &opt, &val), 0);
	assert_string_equal(opt, "--hw-prefetch");
	assert_string_equal(val, "2");
	sweep_plan_free(&pl);

	/* programs in guests; mdperf's and gpci's options as their tools spell them */
	assert_int_equal(parse("{ \"tool\": \"gpci\", \"options\": [\"--index=0\"], \"programs\": [ { \"name\": \"pair\","
			       " \"guests\": [ { \"guest\": \"a\", \"path\": \"x\" }, { \"guest\": \"b\", \"path\": \"y\" } ] } ] }",
			       &pl, err, sizeof err), 0);
	assert_int_equal(pl.prog[0].nguests, 2);
	assert_string_equal(pl.prog[0].guests[1].guest, "b");
	assert_string_equal(pl.prog[0].guests[1].path, "/plans/y");
	assert_int_equal(sweep_plan_option_argv(&pl, 0, &opt, &val), 0);
	assert_string_equal(opt, "-s");
	sweep_plan_free(&pl);
}

static void test_errors(void **state)
{
	static const struct {
		const char *plan, *msg;
	} bad[] = {
		{ "", "p.json: 1:1: JSON: the text ends inside the JSON" },
		{ "{ \"programs\": [ ", "p.json: 1:17: JSON: the text ends inside the JSON" },
		{ "{} x", "text after the plan's object" },
		{ "[]", "p.json: not a JSON object" },
		{ "{}", "p.json: no \"programs\"" },
		{ "{ \"programs\": [] }", "programs: needs 1..256 programs" },
		{ "{ \"programs\": [ {} ] }", "programs[0]: no \"path\"" },
		{ "{ \"programs\": [ { \"path\": \"\" } ] }", "programs[0].path: an empty path" },
		{ "{ \"programs\": [ { \"path\": 1 } ] }", "programs[0].path: not a string" },
		{ "{ \"programs\": [ { \"path\": \"a/.x\" } ] }", "no \"name\", and the file's name '.x' is not one" },
		{ "{ \"programs\": [ { \"path\": \"x\", \"size\": 1 } ] }", "programs[0].size: unknown key" },
		{ "{ \"programs\": [ { \"path\": \"x\" }, { \"path\": \"y/x\" } ] }", "'x' names programs[0] already" },
		{ "{ \"programs\": [ { \"path\": \"x\", \"status\": 256 } ] }", "status: out of range 0..255" },
		{ "{ \"programs\": [ { \"name\": \"g\", \"guests\": [ { \"path\": \"x\" } ] } ] }", "guests[0]: no \"guest\"" },
		{ "{ \"programs\": [ { \"name\": \"g\", \"path\": \"y\", \"guests\": [ { \"guest\": \"a\", \"path\": \"x\" } ] } ] }",
		  "no path, args, input or files of its own" },
		{ "{ \"programs\": [ { \"name\": \"g\", \"guests\": [ { \"guest\": \"a\", \"path\": \"x\" }, "
		  "{ \"guest\": \"a\", \"path\": \"y\" } ] } ] }", "guest 'a' runs" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"axes\": { \"memory.l2.size\": [] } }",
		  "axes.memory.l2.size: needs 1..256 values" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"axes\": { \"a..b\": [1] } }", "not a description key" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"axes\": { \"chips\": [1, 1] } }", "value 1 repeats value 0" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"axes\": { \"chips\": 2 } }", "not an array of values" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"options\": [\"-o\"] }", "'-o' is not an option a stat sweep takes" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"options\": [\"--hw-prefetch\"] }", "needs a value" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"options\": [\"--follow=1\"] }", "takes no value" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"repeat\": 0 }", "repeat: out of range 1..1000" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"repeat\": 1.5 }", "repeat: not an integer" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"tool\": \"perf\" }", "'perf': stat, mdperf or gpci" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"env\": { \"HVPMU_QEMU\": \"q\" } }", "not HVPMU_*" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"events\": [\"a b\"] }", "'a b' is not an event" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"tool\": \"gpci\", \"events\": [\"a\", \"b\"] }",
		  "a gpci sweep asks one request" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"colour\": 1 }", "p.json: colour: unknown key" },
		{ "{ \"programs\": [ { \"path\": \"x\" } ], \"repeat\": 1000, \"axes\": { \"a\": [1,2,3,4,5,6,7,8,9,10],"
		  " \"b\": [1,2,3,4,5,6,7,8,9,10], \"c\": [1,2,3,4,5,6,7,8,9,10], \"d\": [1,2,3,4,5,6,7,8,9,10] } }",
		  "more than 1000000 jobs" },
	};
	struct sweep_plan pl, empty;
	char err[512];

	(void)state;
	memset(&empty, 0, sizeof empty);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (parse(bad[i].plan, &pl, err, sizeof err) != -1 || !strstr(err, bad[i].msg)) {
			fprintf(stderr, "plan %zu '%s': got '%s', wanted '%s'\n", i, bad[i].plan, err, bad[i].msg);
			fail();
		}
		assert_null(strchr(err, '\n'));
		assert_memory_equal(&pl, &empty, sizeof pl);
	}
}

static void test_set_key(void **state)
{
	json_object *md = json_tokener_parse("{ \"memory\": { \"l1d\": { \"size\": 16384 } }, \"guests\": [ { \"nstrands\": 64 } ],"
					     " \"chips\": 1 }");
	json_object *v = json_object_new_int(262144), *got;
	char err[256], *c;

	(void)state;
	assert_int_equal(sweep_set_key(md, "memory.l2.size", v, err, sizeof err), 0);
	assert_int_equal(sweep_set_key(md, "guests[0].nstrands", v, err, sizeof err), 0);
	assert_true(json_object_object_get_ex(md, "memory", &got));
	c = sweep_canonical_json(md);
	assert_string_equal(c, "{\"chips\":1,\"guests\":[{\"nstrands\":262144}],\"memory\":{\"l1d\":{\"size\":16384},"
			       "\"l2\":{\"size\":262144}}}");
	free(c);
	assert_int_equal(sweep_set_key(md, "guests[1].nstrands", v, err, sizeof err), -1);
	assert_string_equal(err, "guests[1]: the description has no such element");
	assert_int_equal(sweep_set_key(md, "chips.x", v, err, sizeof err), -1);
	assert_string_equal(err, "chips: not an object in the description");
	assert_int_equal(sweep_set_key(md, "cec.procs[0].chip", v, err, sizeof err), -1);
	assert_string_equal(err, "cec.procs: the description has no such array");
	json_object_put(v);
	json_object_put(md);
}

static void test_canonical(void **state)
{
	json_object *a = json_tokener_parse("{ \"b\": [1, {\"y\": 2, \"x\": \"s/t\"}], \"a\": null, \"c\": 1.50 }");
	json_object *b = json_tokener_parse("{\"c\":1.50,\"a\":null,\"b\":[1,{\"x\":\"s/t\",\"y\":2}]}");
	json_object *d = json_tokener_parse("{\"c\":1.50,\"a\":null,\"b\":[1,{\"x\":\"s/t\",\"y\":3}]}");
	char *ca = sweep_canonical_json(a), *cb = sweep_canonical_json(b), *cd = sweep_canonical_json(d);

	(void)state;
	assert_string_equal(ca, "{\"a\":null,\"b\":[1,{\"x\":\"s/t\",\"y\":2}],\"c\":1.50}");
	assert_string_equal(ca, cb);
	assert_string_not_equal(ca, cd);
	free(ca);
	free(cb);
	free(cd);
	json_object_put(a);
	json_object_put(b);
	json_object_put(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_set_key),
		cmocka_unit_test(test_canonical),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
