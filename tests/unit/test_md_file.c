/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine-description files (hvpmu/md.h hvpmu_md_parse / hvpmu_md_load,
 * docs/machine-description.md): a file starts from its platform's
 * built-in description and overrides what it names; every kind of bad
 * input is refused with a one-line reason naming the key, and leaves the
 * caller's description untouched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <hvpmu/hvpmu.h>

static int parse(const char *text, struct hvpmu_md *md, char *err, size_t n)
{
	return hvpmu_md_parse(text, strlen(text), NULL, md, err, n);
}

static void test_empty_is_default(void **state)
{
	struct hvpmu_md md, def;
	char err[256];

	(void)state;
	assert_int_equal(parse("{}", &md, err, sizeof err), HVPMU_OK);
	hvpmu_md_default(HVPMU_PLATFORM_T4, &def);
	assert_memory_equal(&md, &def, sizeof md);
	assert_int_equal(parse("{\"platform\": \"t1\"}", &md, err, sizeof err), HVPMU_OK);
	hvpmu_md_default(HVPMU_PLATFORM_T1, &def);
	assert_memory_equal(&md, &def, sizeof md);
	/* the base description when the file names none */
	hvpmu_md_default(HVPMU_PLATFORM_T1, &def);
	assert_int_equal(hvpmu_md_parse("{}", 2, &def, &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(md.platform, HVPMU_PLATFORM_T1);
	/* a named server; chips keep an equal share of memory each; a new
	 * clock keeps the remote penalty's time */
	assert_int_equal(parse("{\"platform\": \"t4-2\"}", &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(hvpmu_md_by_name("t4-2", &def), HVPMU_OK);
	assert_memory_equal(&md, &def, sizeof md);
	assert_int_equal(parse("{\"platform\": \"t4-2\", \"chips\": 4, \"clock_hz\": 5700000000,"
			       " \"placement\": \"spread\"}", &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(md.home_shift, def.home_shift - 1);
	assert_int_equal(md.remote_latency, 2 * def.remote_latency);
	assert_int_equal(md.placement, HVPMU_PLACE_SPREAD);
	assert_int_equal(parse("{\"chips\": 2, \"home_shift\": 20, \"remote_latency\": 7}", &md, err, sizeof err),
			 HVPMU_OK);
	assert_int_equal(md.home_shift, 20);
	assert_int_equal(md.remote_latency, 7);
}

/* Every name hvpmu_md_name_at lists is a description hvpmu_md_by_name
 * loads, each once, and the platform names come first in their group:
 * the real machines first, in this order (a platform added later, as the
 * example of docs/architecture.md, follows them). */
static void test_names(void **state)
{
	static const char *const want[] = { "t4", "t4-1", "t4-2", "t4-4", "t1", "origin", "power" };
	struct hvpmu_md md;
	unsigned i;

	(void)state;
	for (i = 0; hvpmu_md_name_at(i); i++) {
		if (i < sizeof want / sizeof want[0])
			assert_string_equal(hvpmu_md_name_at(i), want[i]);
		for (unsigned k = 0; k < i; k++)
			assert_string_not_equal(hvpmu_md_name_at(k), hvpmu_md_name_at(i));
		assert_int_equal(hvpmu_md_by_name(hvpmu_md_name_at(i), &md), HVPMU_OK);
	}
	assert_true(i >= sizeof want / sizeof want[0]);
	assert_null(hvpmu_md_name_at(1000));
}

static void test_overrides(void **state)
{
	struct hvpmu_md md;
	char err[256];
	struct hvpmu_machine *m = NULL;
	static const char text[] =
		"{ \"platform\": \"t4\", \"chips\": 2, \"clock_hz\": 3000000000,\n"
		"  \"timing\": { \"syscall_cycles\": 2000 },\n"
		"  \"memory\": { \"l2\": { \"size\": 262144, \"latency\": 24 }, \"mem_latency\": 400 },\n"
		"  \"guests\": [ { \"name\": \"ldom1\", \"perfctraccess\": 1, \"perfctrhtaccess\": 1,\n"
		"                  \"dram_counter_group\": 3, \"first_strand\": 0, \"nstrands\": 64,\n"
		"                  \"mblock\": [ { \"base\": 0, \"size\": 268435456 } ] },\n"
		"                { \"name\": \"ldom2\", \"first_strand\": 64, \"nstrands\": 64,\n"
		"                  \"mblock\": [ { \"base\": 0, \"size\": 1048576 }, { \"base\": 4294967296, \"size\": 8192 } ] } ] }";

	(void)state;
	assert_int_equal(parse(text, &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(md.chips, 2);
	assert_int_equal(hvpmu_md_nstrands(&md), 128);
	assert_int_equal(md.clock_hz, 3000000000u);
	assert_int_equal(md.timing.syscall_cycles, 2000);
	assert_int_equal(md.timing.insn_cycles, 1); /* untouched: the default */
	assert_int_equal(md.mem.l2.size, 262144);
	assert_int_equal(md.mem.l2.ways, 8);
	assert_int_equal(md.mem.l2.latency, 24);
	assert_int_equal(md.mem.mem_latency, 400);
	assert_int_equal(parse("{\"kernel\": {\"syscall_insns\": 0}}", &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(md.kernel.syscall_insns, 0);
	assert_int_equal(parse("{\"memory\": {\"stbuf\": {\"entries\": 4}}, \"timing\": {\"btc_cycles\": 0}}", &md,
			       err, sizeof err), HVPMU_OK);
	assert_int_equal(md.mem.stbuf.entries, 4);
	assert_int_equal(md.mem.stbuf.drain_latency, 20);
	assert_int_equal(md.timing.btc_cycles, 0);
	/* request buffers (docs/memory-model.md "L2 buffers") */
	assert_int_equal(parse("{\"memory\": {\"buffers\": {\"l2_miss\": 4, \"fill_cycles\": 9}}}", &md, err,
			       sizeof err), HVPMU_OK);
	assert_int_equal(md.mem.buf.l2_miss, 4);
	assert_int_equal(md.mem.buf.fill_cycles, 9);
	assert_int_equal(md.mem.buf.l2_wb, 8);
	assert_int_equal(parse(text, &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(md.nguests, 2);
	assert_string_equal(md.guests[0].name, "ldom1");
	assert_int_equal(md.guests[0].dram_counter_group, 3);
	assert_int_equal(md.guests[0].perfctrhtaccess, 1);
	/* a guest from a file has only the properties it names */
	assert_int_equal(md.guests[1].perfctraccess, HVPMU_MD_PROP_ABSENT);
	assert_int_equal(md.guests[1].dram_counter_group, HVPMU_MD_PROP_ABSENT);
	assert_int_equal(md.guests[1].nmem, 2);
	assert_int_equal(md.guests[1].mem[1].base, UINT64_C(4294967296));
	assert_int_equal(md.guests[1].first_strand, 64);
	assert_int_equal(md.guests[1].uid, HVPMU_MD_PROP_ABSENT); /* no uid: the operator's alone */
	/* the description builds a machine with 4 MCUs */
	assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_OK);
	assert_int_equal(hvpmu_machine_nmcu(m), 4);
	hvpmu_machine_destroy(m);
	/* null = the property is absent; a new shape resizes the default guest */
	assert_int_equal(parse("{\"cores_per_chip\": 2, \"guests\": [ { \"perfctraccess\": null, \"nstrands\": 16,"
			       " \"mblock\": [ {\"base\": 0, \"size\": 8192} ] } ] }", &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(md.guests[0].perfctraccess, HVPMU_MD_PROP_ABSENT);
	assert_string_equal(md.guests[0].name, "guest0");
	/* guests' uids, each its own (the highest: (uid_t)-2) */
	assert_int_equal(parse("{\"cores_per_chip\": 2, \"guests\": [ { \"uid\": 59990, \"nstrands\": 8,"
			       " \"mblock\": [ {\"base\": 0, \"size\": 8192} ] }, { \"uid\": 4294967294,"
			       " \"first_strand\": 8, \"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 8192} ] } ] }",
			       &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(md.guests[0].uid, 59990);
	assert_int_equal(md.guests[1].uid, INT64_C(4294967294));
	assert_int_equal(parse("{\"cores_per_chip\": 2}", &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(md.guests[0].nstrands, 16);
}

static void test_errors(void **state)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "", "1:1: JSON: the file ends" },
		{ "{", "1:2: JSON: the file ends" },
		{ "{} x", "JSON: text after the JSON object" },
		{ "[]", "not a JSON object" },
		{ "{\"chip\": 1}", "chip: unknown key" },
		{ "{\"chips\": \"2\"}", "chips: not an integer" },
		{ "{\"chips\": 0}", "chips: out of range" },
		{ "{\"chips\": 8, \"cores_per_chip\": 1}", "t4 has 1..4 chips" },
		{ "{\"platform\": \"t1\", \"chips\": 2}", "t1 has one chip" },
		{ "{\"platform\": \"t9\"}", "platform: not a description name" },
		{ "{\"platform\": 4}", "platform: not a description name" },
		{ "{\"chips\": 3}", "chips: not a power of two" },
		{ "{\"placement\": \"wide\"}", "placement: not a placement" },
		{ "{\"clock_hz\": -1}", "clock_hz: out of range" },
		{ "{\"timing\": {\"insn_cycles\": 0}}", "timing.insn_cycles: out of range" },
		{ "{\"timing\": {\"bogus\": 1}}", "timing.bogus: unknown key" },
		{ "{\"timing\": 3}", "timing: not an object" },
		{ "{\"memory\": {\"l1d\": {\"ways\": 3}}}", "memory.l1d: needs a power-of-two" },
		{ "{\"memory\": {\"l3\": {\"line\": 16}}}", "line sizes must not shrink" },
		{ "{\"memory\": {\"l4\": {}}}", "memory.l4: unknown key" },
		{ "{\"memory\": {\"l2\": {\"size\": 134217728}}}", "memory.l2.size: out of range" },
		{ "{\"strands_per_core\": 64, \"cores_per_chip\": 64, \"chips\": 2}", "more than 4096" },
		{ "{\"guests\": []}", "guests: not an array" },
		{ "{\"guests\": [ {\"nstrands\": 8} ]}", "guests[0]: needs mblock" },
		{ "{\"guests\": [ {\"mblock\": [ {\"base\": 0, \"size\": 8192} ]} ]}", "guests[0]: needs nstrands" },
		{ "{\"guests\": [ {\"nstrands\": 65, \"mblock\": [ {\"base\": 0, \"size\": 8192} ]} ]}",
		  "guests[0]: strands beyond" },
		{ "{\"guests\": [ {\"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 8192} ]},"
		  " {\"first_strand\": 4, \"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 8192} ]} ]}",
		  "guests[1]: shares strands" },
		{ "{\"guests\": [ {\"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 0} ]} ]}",
		  "guests[0].mblock[0].size: out of range" },
		{ "{\"guests\": [ {\"nstrands\": 8, \"mblock\": [ {\"base\": 9223372036854775808, \"size\": 8192} ]} ]}",
		  "guests[0].mblock[0].base: out of range" },
		{ "{\"guests\": [ {\"name\": \"\", \"nstrands\": 8} ]}", "guests[0].name: not a name" },
		{ "{\"guests\": [ {\"dram_counter_group\": 4, \"nstrands\": 8} ]}", "dram_counter_group: out of range" },
		{ "{\"kernel\": {\"text_bytes\": 12345}}", "kernel: regions not page-aligned" },
		{ "{\"kernel\": {\"syscalls\": 1}}", "kernel.syscalls: unknown key" },
		{ "{\"timing\": {\"refetch_cycles\": 30}}", "timing.refetch_cycles: more than" },
		{ "{\"memory\": {\"stbuf\": {\"entries\": 17}}}", "memory.stbuf.entries: out of range" },
		{ "{\"memory\": {\"buffers\": {\"l2_miss\": 65}}}", "memory.buffers.l2_miss: out of range" },
		/* a guest's uid: not root's (the operator), not (uid_t)-1, one guest's */
		{ "{\"guests\": [ {\"uid\": 0, \"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 8192} ]} ]}",
		  "guests[0].uid: out of range" },
		{ "{\"guests\": [ {\"uid\": 4294967295, \"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 8192} ]} ]}",
		  "guests[0].uid: out of range" },
		{ "{\"guests\": [ {\"uid\": \"bob\", \"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 8192} ]} ]}",
		  "guests[0].uid: not an integer" },
		{ "{\"guests\": [ {\"uid\": 59990, \"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 8192} ]},"
		  " {\"uid\": 59990, \"first_strand\": 8, \"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 8192} ]} ]}",
		  "guests[1]: has another guest's uid" },
	};
	struct hvpmu_md md, before;
	char err[256];

	(void)state;
	hvpmu_md_default(HVPMU_PLATFORM_T1, &md);
	before = md;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(err, 0, sizeof err);
		if (parse(bad[i].text, &md, err, sizeof err) != HVPMU_EINVAL)
			fail_msg("accepted: %s", bad[i].text);
		if (!strstr(err, bad[i].says))
			fail_msg("'%s': error '%s' does not say '%s'", bad[i].text, err, bad[i].says);
		assert_null(strchr(err, '\n'));
		assert_memory_equal(&md, &before, sizeof md);
	}
	assert_int_equal(hvpmu_md_parse(NULL, 0, NULL, &md, err, sizeof err), HVPMU_EINVAL);
}

/* Errors say where: line and column (1-based, bytes) of the offending
 * value, of an unknown key's name, or where the JSON stops. */
static void test_error_positions(void **state)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "{\n  \"chips\": 0\n}", "2:12: chips: out of range" },
		{ "{\n  \"chipz\": 1\n}", "2:3: chipz: unknown key" },
		{ "{\n  \"timing\": {\n    \"bogus\": 1 } }", "3:5: timing.bogus: unknown key" },
		{ "{ \"guests\": [\n  { \"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 8192} ] },\n"
		  "  { \"nstrands\": 0 } ] }", "3:17: guests[1].nstrands: out of range" },
		{ "{ \"guests\": [ { \"nstrands\": 8, \"mblock\": [ {\"base\": 0, \"size\": 0} ] } ] }",
		  "1:64: guests[0].mblock[0].size: out of range" },
		{ "{ \"chips\": ", "1:12: JSON: the file ends" },
		{ "{ \"platform\": \"t\\u0034\", \"chips\": 0 }", "1:35: chips: out of range" }, /* an escape before */
		{ "{ \"chips\": 2, \"cores_per_chip\": 1, \"chips\": 8 }", "t4 has 1..4 chips" },
		{ "{ \"guests\": [ { \"name\": \"a\\\"b\", \"nstrands\": 0 } ] }",
		  "1:45: guests[0].nstrands: out of range" }, /* an escaped quote before */
	};
	struct hvpmu_md md;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(err, 0, sizeof err);
		assert_int_equal(parse(bad[i].text, &md, err, sizeof err), HVPMU_EINVAL);
		if (!strstr(err, bad[i].says))
			fail_msg("'%s': error '%s' does not say '%s'", bad[i].text, err, bad[i].says);
	}
}

static void test_load(void **state)
{
	char path[] = "/tmp/hvpmu-md-XXXXXX", err[256];
	struct hvpmu_md md;
	int fd = mkstemp(path);
	static const char text[] = "{ \"platform\": \"t1\", \"clock_hz\": 1400000000 }\n";

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
	close(fd);
	assert_int_equal(hvpmu_md_load(path, NULL, &md, err, sizeof err), HVPMU_OK);
	assert_int_equal(md.platform, HVPMU_PLATFORM_T1);
	assert_int_equal(md.clock_hz, 1400000000u);
	unlink(path);
	assert_int_equal(hvpmu_md_load(path, NULL, &md, err, sizeof err), HVPMU_EINVAL);
	assert_non_null(strstr(err, "No such file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_is_default),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_positions),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
