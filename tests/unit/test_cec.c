/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CEC description (hvpmu/cec.h, src/common/cec.c) and its JSON form
 * (key "cec" of a machine-description file, src/model/cec_json.c,
 * docs/machine-description.md): the documented default, every
 * consistency rule refused with the key it breaks, and file errors placed
 * at LINE:COL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <hvpmu/hvpmu.h>

/* The default CEC is the one docs/papr-gpci.md describes. */
static void test_default(void **state)
{
	struct hvpmu_cec c;
	unsigned states[8] = { 0 }, owned = 0;
	char err[256];

	(void)state;
	hvpmu_cec_default(&c);
	assert_int_equal(hvpmu_cec_check(&c, "cec", err, sizeof err), 0);
	assert_int_equal(c.nchips, 4);
	assert_int_equal(c.nprocs, 32);
	assert_int_equal(c.npartitions, 3);
	assert_true(c.timebase_hz == 512000000u);
	assert_int_equal(c.window_us, 10000); /* PowerVM's dispatch wheel */
	for (unsigned i = 0; i < c.nchips; i++) {
		assert_int_equal(c.chips[i].module, i / 2);
		assert_int_equal(c.chips[c.chips[i].link[HVPMU_CEC_LINK_X]].module, c.chips[i].module);
		assert_true(c.chips[c.chips[i].link[HVPMU_CEC_LINK_A]].module != c.chips[i].module);
	}
	for (unsigned i = 0; i < c.nprocs; i++) {
		const struct hvpmu_cec_proc *p = &c.procs[i];

		states[p->state]++;
		owned += p->owner == 1;
		assert_int_equal(p->version >> 16, 0x003F); /* PVR_POWER7 */
		assert_int_equal(p->primary_domain, c.chips[p->chip].module);
		assert_int_equal(p->secondary_domain, p->chip);
	}
	assert_int_equal(states[HVPMU_CEC_DEDICATED], 4);
	assert_int_equal(states[HVPMU_CEC_UNLICENSED], 2);
	assert_int_equal(states[HVPMU_CEC_SHARED], 26);
	assert_int_equal(owned, 4);
	assert_int_equal(c.partitions[0].mode, HVPMU_CEC_MODE_DEDICATED);
	assert_true(c.partitions[0].donating && c.partitions[0].collect_privileged);
	assert_int_equal(c.partitions[1].mode, HVPMU_CEC_MODE_CAPPED);
	assert_int_equal(c.partitions[1].entitlement, 200);
	assert_false(c.partitions[1].collect_privileged);
	assert_int_equal(c.partitions[2].mode, HVPMU_CEC_MODE_UNCAPPED);
	assert_int_equal(c.partitions[2].weight, 128);
	assert_int_equal(hvpmu_cec_partition_index(&c, 3), 2);
	assert_int_equal(hvpmu_cec_partition_index(&c, 9), -1);
	assert_int_equal(hvpmu_cec_chip_index(&c, c.chips[3].hw_id), 3);
}

static void test_names(void **state)
{
	(void)state;
	for (unsigned s = HVPMU_CEC_NOT_INSTALLED; s <= HVPMU_CEC_DEDICATED; s++)
		assert_int_equal(hvpmu_cec_state_by_name(hvpmu_cec_state_name(s)), (int)s);
	assert_null(hvpmu_cec_state_name(0));
	assert_null(hvpmu_cec_state_name(7));
	for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++)
		assert_int_equal(hvpmu_cec_link_by_name(hvpmu_cec_link_name(l)), (int)l);
	assert_string_equal(hvpmu_cec_link_name(HVPMU_CEC_LINK_W), "W");
	assert_int_equal(hvpmu_cec_mode_by_name("uncapped"), HVPMU_CEC_MODE_UNCAPPED);
	assert_int_equal(hvpmu_cec_mode_by_name("nope"), -1);
}

/* Each rule of hvpmu_cec_check, broken once on the default, names its key. */
static void test_check_rules(void **state)
{
	struct hvpmu_cec c;
	char err[256];

	(void)state;
#define BREAK(stmt, want)                                                                  \
	do {                                                                               \
		hvpmu_cec_default(&c);                                                     \
		stmt;                                                                      \
		assert_int_equal(hvpmu_cec_check(&c, "cec", err, sizeof err), HVPMU_EINVAL); \
		if (strncmp(err, want, strlen(want)) != 0)                                 \
			fail_msg("got \"%s\", want \"%s...\"", err, want);                  \
	} while (0)
	BREAK(c.timebase_hz = 0, "cec.timebase_hz: ");
	BREAK(c.window_us = 0, "cec.dispatch_window_us: ");
	BREAK(c.window_us = 1000001, "cec.dispatch_window_us: ");
	BREAK(c.nchips = 0, "cec.chips: ");
	BREAK(c.chips[2].hw_id = c.chips[0].hw_id, "cec.chips[2]: ");
	BREAK(c.chips[1].link[HVPMU_CEC_LINK_B] = 1, "cec.chips[1].links.B: ");
	BREAK(c.chips[1].link[HVPMU_CEC_LINK_B] = 40, "cec.chips[1].links.B: ");
	BREAK(c.chips[0].link[HVPMU_CEC_LINK_W] = 3, "cec.chips[0].links.W: "); /* no link back */
	BREAK((c.chips[0].link[HVPMU_CEC_LINK_C] = 3, c.chips[3].link[HVPMU_CEC_LINK_Y] = 0),
	      "cec.chips[0].links.C: "); /* back, but in the other group */
	BREAK(c.nprocs = 0, "cec.procs: ");
	BREAK(c.procs[5].hw_id = c.procs[4].hw_id, "cec.procs[5]: ");
	BREAK(c.procs[5].logical_index = 4, "cec.procs[5]: ");
	BREAK(c.procs[5].chip = 4, "cec.procs[5].chip: ");
	BREAK(c.procs[5].state = 7, "cec.procs[5].state: ");
	BREAK(c.procs[5].state = HVPMU_CEC_NOT_INSTALLED, "cec.procs[5].version: ");
	BREAK(c.procs[5].owner = 1, "cec.procs[5].owner: ");           /* shared with an owner */
	BREAK(c.procs[0].owner = 2, "cec.procs[0].owner: ");           /* dedicated to a shared partition */
	BREAK((c.partitions[0].donating = 0, c.procs[0].state = HVPMU_CEC_BORROWED), "cec.procs[0].owner: ");
	BREAK(c.partitions[1].id = 1, "cec.partitions[1].id: ");
	BREAK(c.partitions[1].id = 0, "cec.partitions[1].id: ");
	BREAK(c.partitions[1].mode = 3, "cec.partitions[1].mode: ");
	BREAK(c.partitions[0].nvps = 3, "cec.partitions[0].vps: ");
	BREAK(c.partitions[0].entitlement = 300, "cec.partitions[0].entitlement: ");
	BREAK(c.partitions[0].weight = 1, "cec.partitions[0].weight: ");
	BREAK(c.partitions[1].donating = 1, "cec.partitions[1].donating: ");
	BREAK(c.partitions[1].nvps = 0, "cec.partitions[1].vps: ");
	BREAK(c.partitions[1].entitlement = 401, "cec.partitions[1].entitlement: ");
	BREAK(c.partitions[1].entitlement = 0, "cec.partitions[1].entitlement: ");
	BREAK(c.partitions[1].weight = 5, "cec.partitions[1].weight: ");   /* capped */
	BREAK(c.partitions[2].weight = 256, "cec.partitions[2].weight: ");
	BREAK((c.partitions[1].nvps = 30, c.partitions[1].entitlement = 2500), "cec.partitions: "); /* pool is 26 */
	BREAK(c.npartitions = 9, "cec.partitions: ");
#undef BREAK
	/* the pool's exact fill is accepted */
	hvpmu_cec_default(&c);
	c.partitions[1].nvps = 30;
	c.partitions[1].entitlement = 26 * HVPMU_CEC_PU - c.partitions[2].entitlement;
	assert_int_equal(hvpmu_cec_check(&c, "cec", err, sizeof err), 0);
}

static int parse(const char *text, struct hvpmu_md *md, char *err, size_t n)
{
	return hvpmu_md_parse(text, strlen(text), NULL, md, err, n);
}

/* "cec": {} is the default CEC; keys override it; lists replace it. */
static void test_json(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_cec def;
	char err[256];

	(void)state;
	hvpmu_cec_default(&def);
	assert_int_equal(parse("{}", &md, err, sizeof err), 0);
	assert_int_equal(md.cec.nchips, 0); /* no CEC unless the file has one */
	assert_int_equal(parse("{\"platform\": \"power\"}", &md, err, sizeof err), 0);
	assert_memory_equal(&md.cec, &def, sizeof def); /* the power description's CEC */
	assert_int_equal(parse("{\"platform\": \"power\", \"cec\": {}}", &md, err, sizeof err), 0);
	assert_memory_equal(&md.cec, &def, sizeof def);
	/* the CEC is the machine's: its chips and one processor per core */
	assert_int_equal(parse("{\"cec\": {}}", &md, err, sizeof err), HVPMU_EINVAL); /* t4: one chip */
	assert_string_equal(err, "cec.chips: not as many chips as the machine's");
	assert_int_equal(parse("{\"platform\": \"power\", \"cores_per_chip\": 4}", &md, err, sizeof err), HVPMU_EINVAL);
	assert_string_equal(err, "cec.procs: not one processor per core of the machine");
	assert_int_equal(parse("{\"platform\": \"power\", \"cec\": {\"lab\": false, \"counter_info_version\": 3,"
			       " \"timebase_hz\": 1000000, \"dispatch_window_us\": 250}}", &md, err, sizeof err),
			 0);
	assert_int_equal(md.cec.window_us, 250);
	assert_int_equal(md.cec.lab, 0);
	assert_int_equal(md.cec.counter_info_version, 3);
	assert_true(md.cec.timebase_hz == 1000000);
	static const char two[] =
		"{\"platform\": \"power\", \"chips\": 2, \"cores_per_chip\": 3, \"cec\": {\n"
		"  \"chips\": [ {\"hw_id\": 7, \"module\": 3, \"links\": {\"W\": 1}},\n"
		"             {\"hw_id\": 9, \"module\": 3, \"links\": {\"Z\": 0, \"A\": null}} ],\n"
		"  \"procs\": [ {\"hw_id\": 100, \"chip\": 0, \"state\": \"dedicated\", \"owner\": 5},\n"
		"             {\"hw_id\": 101, \"chip\": 0, \"state\": \"borrowed\", \"owner\": 5},\n"
		"             {\"hw_id\": 102, \"chip\": 0},\n"
		"             {\"hw_id\": 103, \"chip\": 1, \"state\": \"not-installed\"},\n"
		"             {\"hw_id\": 104, \"chip\": 1, \"state\": \"guarded-off\", \"logical_index\": 9,\n"
		"              \"primary_domain\": 6, \"version\": 4849664},\n"
		"             {\"hw_id\": 105, \"chip\": 1} ],\n"
		"  \"partitions\": [ {\"id\": 5, \"mode\": \"dedicated\", \"vps\": 2, \"donating\": true},\n"
		"                  {\"id\": 6, \"name\": \"web\", \"mode\": \"uncapped\", \"entitlement\": 0.35,\n"
		"                   \"weight\": 200, \"vps\": 1, \"collect_privileged\": true} ]\n"
		"}}\n";
	assert_int_equal(parse(two, &md, err, sizeof err), 0);
	assert_int_equal(md.cec.nchips, 2);
	assert_int_equal(md.cec.chips[1].hw_id, 9);
	assert_int_equal(md.cec.chips[0].link[HVPMU_CEC_LINK_W], 1);
	assert_int_equal(md.cec.chips[0].link[HVPMU_CEC_LINK_A], HVPMU_CEC_LINK_NONE);
	assert_int_equal(md.cec.nprocs, 6);
	assert_int_equal(md.cec.procs[1].state, HVPMU_CEC_BORROWED);
	assert_int_equal(md.cec.procs[2].owner, HVPMU_CEC_NO_OWNER);
	assert_int_equal(md.cec.procs[2].primary_domain, 3); /* its chip's module */
	assert_int_equal(md.cec.procs[2].secondary_domain, 0);
	assert_int_equal(md.cec.procs[2].logical_index, 2);
	assert_true(md.cec.procs[3].version == UINT32_MAX); /* not installed */
	assert_int_equal(md.cec.procs[4].primary_domain, 6);
	assert_int_equal(md.cec.procs[4].version, 0x004A0000);
	assert_int_equal(md.cec.partitions[0].entitlement, 200);
	assert_int_equal(md.cec.partitions[1].entitlement, 35);
	assert_string_equal(md.cec.partitions[1].name, "web");
	assert_true(md.cec.partitions[1].collect_privileged);
	{
		char bad[sizeof two + 16];
		char *at;

		snprintf(bad, sizeof bad, "%s", two);
		at = strstr(bad, "\"chip\": 0},");
		at[8] = '1'; /* processor 2 on chip 1: not core 2 */
		assert_int_equal(parse(bad, &md, err, sizeof err), HVPMU_EINVAL);
		assert_non_null(strstr(err, "cec.procs[2].chip: processor i is core i"));
	}
}

/* Bad input: one line naming the key, at its line and column. */
static void test_json_errors(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "{\"cec\": 3}", "1:9: cec: not an object" },
		{ "{\"cec\": {\"bogus\": 1}}", "1:10: cec.bogus: unknown key" },
		{ "{\"cec\": {\"lab\": 1}}", "1:17: cec.lab: not true or false" },
		{ "{\"cec\": {\"timebase_hz\": 5}}", "1:25: cec.timebase_hz: out of range" },
		{ "{\"cec\": {\"dispatch_window_us\": 0}}", "1:32: cec.dispatch_window_us: out of range" },
		{ "{\"cec\": {\"chips\": []}}", "1:19: cec.chips: not an array of 1..16 chips" },
		{ "{\"cec\": {\"chips\": [{\"links\": {\"Q\": 1}}]}}", "1:31: cec.chips[0].links.Q: unknown key" },
		{ "{\"cec\": {\"chips\": [{\"links\": {\"A\": 1}}]}}", "1:36: cec.chips[0].links.A: not the index" },
		{ "{\"cec\": {\"procs\": [{\"state\": \"on\"}]}}", "1:30: cec.procs[0].state: not a state" },
		{ "{\"cec\": {\"procs\": [{\"owner\": 0}]}}", "1:30: cec.procs[0].owner: out of range" },
		{ "{\"cec\": {\"procs\": [{\"chip\": 5}]}}", ": cec.procs[0].chip: not the index of a chip" },
		{ "{\"cec\": {\"partitions\": [{\"entitlement\": 0.333}]}}",
		  "1:41: cec.partitions[0].entitlement: not 0.01..128" },
		/* (fuzz_md_file: a negative one was converted to an integer first) */
		{ "{\"cec\": {\"partitions\": [{\"entitlement\": -24.5}]}}",
		  "1:41: cec.partitions[0].entitlement: not 0.01..128" },
		{ "{\"cec\": {\"partitions\": [{\"mode\": \"shared\"}]}}", "1:34: cec.partitions[0].mode: not a mode" },
		{ "{\"cec\": {\"procs\": [{}], \"partitions\": [{\"id\": 1}, {\"id\": 1}]}}", "1:58: cec.partitions[1].id: not 1..65534" },
		{ "{\"cec\": {\"partitions\": [{\"vps\": 2, \"entitlement\": 0.5, \"x\": 1}]}}",
		  "1:56: cec.partitions[0].x: unknown key" },
		{ "{\"cec\": {\"procs\": [{}, {}],\n \"partitions\": [\n  {\"mode\": \"uncapped\", \"weight\": 3, \"vps\": 1},\n"
		  "  {\"mode\": \"capped\", \"weight\": 3}]}}",
		  "4:32: cec.partitions[1].weight: 0..255, and only for uncapped" },
	};
	struct hvpmu_md md;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&md, 0x5A, sizeof md);
		assert_int_equal(parse(cases[i].text, &md, err, sizeof err), HVPMU_EINVAL);
		if (!strstr(err, cases[i].want))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, err, cases[i].want);
		assert_null(strchr(err, '\n'));
		assert_int_equal(((unsigned char *)&md)[0], 0x5A); /* untouched */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_check_rules),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
