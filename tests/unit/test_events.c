/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_events.c - unit tests for the SPARC T4 event tables
 * (src/pmu/t4_events.c, include/hvpmu/t4_events.h) and the chip drivers'
 * event-list parser (hvpmu_sv_parse_events, src/supervisor/backend*.c).
 *
 * Tables: groups, Precise column and reserved sl values of
 * sparc-t4-performance-instrumentation.md TABLE 10-2 (§10.2); the Solaris
 * T4 PCBE names (../shared/reference/t4-events.md §4); the generic aliases
 * as Linux maps them for T4 (linux-clients.md §1.7).
 * Parser: native names, aliases, raw `sl=N,mask=M` (two comma-separated
 * tokens) and `rHHH` = (sl << 6) | mask (t4-events.md §0), perf modifiers
 * :u :k :h, default user+kernel without hypervisor (linux-clients.md §1.7),
 * and every error returning -1 with a message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>

#define ERRLEN 256

/* --- event table ---------------------------------------------------------- */

static void expect_event(const char *name, unsigned sl, unsigned mask)
{
	const struct hvpmu_t4_event *e = hvpmu_t4_event_by_name(name);

	assert_non_null(e);
	assert_string_equal(e->name, name);
	assert_int_equal(e->sl, sl);
	assert_int_equal(e->mask, mask);
	assert_non_null(e->desc);
}

static void test_event_by_name(void **state)
{
	(void)state;
	expect_event("Instr_all", 3, 0x3f);
	expect_event("Branches", 3, 0x01);
	expect_event("Instr_FGU_crypto", 3, 0x02);
	expect_event("Instr_ld", 3, 0x04);
	expect_event("Instr_st", 3, 0x08);
	expect_event("SPR_ring_ops", 3, 0x10);
	expect_event("Instr_other", 3, 0x20);
	expect_event("Br_taken", 4, 0x02);
	expect_event("Sw_count_intr", 4, 0x04);
	expect_event("Atomics", 4, 0x08); /* TABLE 10-2 bit, not the PCBE's 0x18 */
	expect_event("SW_prefetch", 4, 0x10);
	expect_event("Block_ld_st", 4, 0x20);
	expect_event("Cycles_user", 26, 0x00);
	expect_event("DC_miss_nospec", 16, 0x07);
	expect_event("Br_mispred", 25, 0x0f);
	expect_event("Commit_1_or_2", 28, 0x0c);
	/* case-sensitive, exact */
	assert_null(hvpmu_t4_event_by_name("instr_all"));
	assert_null(hvpmu_t4_event_by_name("Instr_al"));
	assert_null(hvpmu_t4_event_by_name("Instr_all "));
	assert_null(hvpmu_t4_event_by_name(""));
	assert_null(hvpmu_t4_event_by_name(NULL));
	/* aliases are not native names */
	assert_null(hvpmu_t4_event_by_name("cycles"));
}

/* Every row: a defined group, mask within the group's bits, names unique,
 * rows in (sl, mask) order as the header says. */
static void test_event_table_consistent(void **state)
{
	unsigned n = 0;
	const struct hvpmu_t4_event *ev = hvpmu_t4_events(&n);

	(void)state;
	assert_non_null(ev);
	assert_true(n > 100);
	assert_ptr_equal(hvpmu_t4_events(NULL), ev);
	for (unsigned i = 0; i < n; i++) {
		const struct hvpmu_t4_group *g = hvpmu_t4_group(ev[i].sl);

		assert_non_null(g);
		assert_true(g->kind != HVPMU_T4_KIND_NONE);
		if ((ev[i].mask & ~g->valid_mask) != 0)
			fail_msg("%s: mask 0x%x outside sl=%u bits 0x%x", ev[i].name, ev[i].mask, ev[i].sl,
				 g->valid_mask);
		assert_ptr_equal(hvpmu_t4_event_by_name(ev[i].name), &ev[i]);
		for (unsigned j = 0; j < i; j++)
			assert_true(strcmp(ev[i].name, ev[j].name) != 0);
	}
}

static void test_event_table_order(void **state)
{
	unsigned n = 0;
	const struct hvpmu_t4_event *ev = hvpmu_t4_events(&n);

	(void)state;
	for (unsigned i = 1; i < n; i++) {
		unsigned a = (unsigned)ev[i - 1].sl << 8 | ev[i - 1].mask;
		unsigned b = (unsigned)ev[i].sl << 8 | ev[i].mask;

		if (a >= b)
			fail_msg("events not in (sl, mask) order: %s (%u,0x%02x) before %s (%u,0x%02x)",
				 ev[i - 1].name, ev[i - 1].sl, ev[i - 1].mask, ev[i].name, ev[i].sl, ev[i].mask);
	}
}

/* --- groups (TABLE 10-2) ------------------------------------------------- */

static void test_groups(void **state)
{
	static const unsigned reserved[] = { 12, 13, 14, 15, 27, 29, 30, 31 };
	static const unsigned precise[] = { 3, 4, 5, 16, 25 };

	(void)state;
	for (unsigned sl = 0; sl < 32; sl++) {
		const struct hvpmu_t4_group *g = hvpmu_t4_group(sl);
		int is_precise = 0;

		assert_non_null(g);
		assert_int_equal(g->sl, sl);
		assert_non_null(g->title);
		for (unsigned k = 0; k < sizeof precise / sizeof precise[0]; k++)
			is_precise |= precise[k] == sl;
		assert_int_equal(g->precise, is_precise);
		assert_true((g->valid_mask & ~0x3fu) == 0);
	}
	assert_null(hvpmu_t4_group(32));
	assert_null(hvpmu_t4_group(~0u));
	assert_int_equal(hvpmu_t4_group(0)->kind, HVPMU_T4_KIND_NONE);
	for (unsigned k = 0; k < sizeof reserved / sizeof reserved[0]; k++) {
		assert_int_equal(hvpmu_t4_group(reserved[k])->kind, HVPMU_T4_KIND_NONE);
		assert_int_equal(hvpmu_t4_group(reserved[k])->valid_mask, 0);
	}
	assert_int_equal(hvpmu_t4_group(3)->kind, HVPMU_T4_KIND_SL3);
	assert_int_equal(hvpmu_t4_group(3)->valid_mask, 0x3f);
	assert_int_equal(hvpmu_t4_group(4)->kind, HVPMU_T4_KIND_SL4);
	assert_int_equal(hvpmu_t4_group(4)->valid_mask, 0x3f);
	assert_int_equal(hvpmu_t4_group(26)->kind, HVPMU_T4_KIND_CYCLES);
	assert_int_equal(hvpmu_t4_group(26)->valid_mask, 0); /* "the mask field is ignored" */
	assert_int_equal(hvpmu_t4_group(16)->kind, HVPMU_T4_KIND_MEM);
	assert_int_equal(hvpmu_t4_group(19)->kind, HVPMU_T4_KIND_MEM); /* the store buffer */
	assert_int_equal(hvpmu_t4_group(19)->modeled_mask, 0x0f);
	assert_int_equal(hvpmu_t4_group(1)->kind, HVPMU_T4_KIND_PIPE);
	/* "Virtual processor-specific" column: sl 9, 24 are not; 8 is (Fetch-0) */
	assert_int_equal(hvpmu_t4_group(9)->strand_specific, 0);
	assert_int_equal(hvpmu_t4_group(24)->strand_specific, 0);
	assert_int_equal(hvpmu_t4_group(3)->strand_specific, 1);
	assert_int_equal(hvpmu_t4_group(26)->strand_specific, 1);
}

static void test_event_supported(void **state)
{
	(void)state;
	assert_int_equal(hvpmu_t4_event_supported(3, 0x3f), 1);
	assert_int_equal(hvpmu_t4_event_supported(3, 0x00), 1);
	assert_int_equal(hvpmu_t4_event_supported(4, 0x02), 1);
	assert_int_equal(hvpmu_t4_event_supported(4, 0x3f), 1);
	assert_int_equal(hvpmu_t4_event_supported(26, 0x00), 1);
	assert_int_equal(hvpmu_t4_event_supported(26, 0x3f), 1);
	/* unmodeled, reserved, disabled */
	assert_int_equal(hvpmu_t4_event_supported(16, 0x07), 1); /* the memory model */
	assert_int_equal(hvpmu_t4_event_supported(5, 0x07), 1);
	assert_int_equal(hvpmu_t4_event_supported(5, 0x08), 1); /* BTC miss: the pipeline model */
	assert_int_equal(hvpmu_t4_event_supported(5, 0x0f), 1);
	assert_int_equal(hvpmu_t4_event_supported(22, 0x04), 1); /* local cache-to-cache (coherence) */
	assert_int_equal(hvpmu_t4_event_supported(20, 0x0a), 1); /* snoop invalidations (coherence) */
	assert_int_equal(hvpmu_t4_event_supported(24, 0x04), 1); /* L2 fill buffer full (src/model/l2buf.h) */
	assert_int_equal(hvpmu_t4_event_supported(24, 0x3f), 1);
	assert_int_equal(hvpmu_t4_event_supported(20, 0x10), 1); /* store queue tag wait: the store buffer */
	assert_int_equal(hvpmu_t4_event_supported(12, 0x01), 0); /* reserved */
	assert_int_equal(hvpmu_t4_event_supported(19, 0x03), 1); /* the store buffer */
	assert_int_equal(hvpmu_t4_event_supported(19, 0x0c), 1);
	assert_int_equal(hvpmu_t4_event_supported(19, 0x0f), 1);
	/* sl=19 mask bits -> RAW events, one each (TABLE 10-2 rows 01/02/04/08) */
	assert_int_equal(hvpmu_t4_mem_events(19, 0), UINT64_C(1) << HVPMU_MEV_RAW_SB_FULL);
	assert_int_equal(hvpmu_t4_mem_events(19, 1), UINT64_C(1) << HVPMU_MEV_RAW_SB_PARTIAL);
	assert_int_equal(hvpmu_t4_mem_events(19, 2), UINT64_C(1) << HVPMU_MEV_RAW_SQ_FULL);
	assert_int_equal(hvpmu_t4_mem_events(19, 3), UINT64_C(1) << HVPMU_MEV_RAW_SQ_PARTIAL);
	assert_int_equal(hvpmu_t4_mem_events(19, 4), 0);
	assert_int_equal(hvpmu_t4_event_supported(25, 0x0f), 1); /* the strand's branch predictor */
	/* pipeline cycle groups (docs/timing-model.md) */
	for (unsigned b = 0; b < 5; b++)
		assert_int_equal(hvpmu_t4_event_supported(1, 1u << b), 1);
	assert_int_equal(hvpmu_t4_event_supported(2, 0x0e), 1);
	assert_int_equal(hvpmu_t4_event_supported(7, 0x0f), 1);
	assert_int_equal(hvpmu_t4_event_supported(8, 0x01), 1);
	assert_int_equal(hvpmu_t4_event_supported(9, 0x10), 1);
	assert_int_equal(hvpmu_t4_event_supported(28, 0x01), 1);
	assert_int_equal(hvpmu_t4_event_supported(28, 0x30), 0); /* no valid mask bit */
	for (unsigned sl = 12; sl <= 15; sl++)
		assert_int_equal(hvpmu_t4_event_supported(sl, 0), 0);
	assert_int_equal(hvpmu_t4_event_supported(27, 0), 0);
	assert_int_equal(hvpmu_t4_event_supported(29, 0), 0);
	assert_int_equal(hvpmu_t4_event_supported(31, 0x3f), 0);
	assert_int_equal(hvpmu_t4_event_supported(0, 0), 0);
	/* out of range */
	assert_int_equal(hvpmu_t4_event_supported(32, 0), 0);
	assert_int_equal(hvpmu_t4_event_supported(3, 0x40), 0);
	assert_int_equal(hvpmu_t4_event_supported(~0u, ~0u), 0);
}

/* --- aliases (Linux perf_event.c niagara4) ------------------------------- */

static void expect_alias(const char *alias, unsigned sl, unsigned mask)
{
	const struct hvpmu_t4_alias *a = hvpmu_t4_alias_by_name(alias);

	assert_non_null(a);
	assert_string_equal(a->alias, alias);
	assert_int_equal(a->sl, sl);
	assert_int_equal(a->mask, mask);
}

static void test_aliases(void **state)
{
	unsigned n = 0;
	const struct hvpmu_t4_alias *al = hvpmu_t4_aliases(&n);

	(void)state;
	expect_alias("cycles", 26, 0x00);
	expect_alias("cpu-cycles", 26, 0x00);
	expect_alias("instructions", 3, 0x3f);
	expect_alias("cache-references", 3, 0x04);
	expect_alias("cache-misses", 16, 0x07);
	expect_alias("branches", 4, 0x01);
	expect_alias("branch-instructions", 4, 0x01);
	expect_alias("branch-misses", 25, 0x0f);
	/* cache map */
	expect_alias("L1-dcache-loads", 3, 0x04);
	expect_alias("L1-dcache-load-misses", 16, 0x07);
	expect_alias("L1-dcache-stores", 3, 0x08);
	expect_alias("L1-icache-loads", 3, 0x3f);
	expect_alias("L1-icache-load-misses", 11, 0x03);
	expect_alias("dTLB-load-misses", 17, 0x3f);
	expect_alias("iTLB-load-misses", 6, 0x3f);
	assert_null(hvpmu_t4_alias_by_name("Cycles"));
	assert_null(hvpmu_t4_alias_by_name("Instr_all"));
	assert_null(hvpmu_t4_alias_by_name(NULL));
	/* a named native event, when given, has the same encoding */
	assert_non_null(al);
	for (unsigned i = 0; i < n; i++) {
		if (al[i].native) {
			const struct hvpmu_t4_event *e = hvpmu_t4_event_by_name(al[i].native);

			assert_non_null(e);
			assert_int_equal(e->sl, al[i].sl);
			assert_int_equal(e->mask, al[i].mask);
		}
		assert_null(hvpmu_t4_event_by_name(al[i].alias));
	}
}

/* --- CLI parser ---------------------------------------------------------- */

static const struct hvpmu_sv_backend *t4(void) { return hvpmu_sv_backend_of(HVPMU_PLATFORM_T4); }

struct parsed {
	struct hvpmu_sv_event ev[HVPMU_SV_MAX_EVENTS];
	unsigned n;
	char err[ERRLEN];
	int rc;
};

static struct parsed *parse(const char *list, unsigned cap)
{
	static struct parsed p;

	memset(&p, 0, sizeof p);
	p.rc = hvpmu_sv_parse_events(t4(), list, p.ev, &p.n, cap, p.err, sizeof p.err);
	return &p;
}

static void expect_ev(const struct hvpmu_sv_event *e, const char *name, unsigned sl, unsigned mask,
		      int ut, int st, int ht)
{
	assert_string_equal(e->name, name);
	assert_int_equal(e->config, (uint64_t)sl << 6 | mask); /* t4-events.md §0: rHHH = (sl << 6) | mask */
	assert_int_equal(e->modes, (ut ? HVPMU_SV_MODE_USER : 0) | (st ? HVPMU_SV_MODE_KERNEL : 0) |
					   (ht ? HVPMU_SV_MODE_HYPER : 0));
}

static void expect_error(const char *list, unsigned cap, const char *needle)
{
	struct parsed *p = parse(list, cap);

	if (p->rc != -1)
		fail_msg("'%s' was accepted (%u events)", list, p->n);
	assert_true(p->err[0] != 0);
	assert_null(strchr(p->err, '\n'));
	if (needle && !strstr(p->err, needle))
		fail_msg("error for '%s' is '%s', wants '%s'", list, p->err, needle);
}

static void test_parse_names_and_aliases(void **state)
{
	struct parsed *p;

	(void)state;
	p = parse("Instr_all", HVPMU_SV_MAX_EVENTS);
	assert_int_equal(p->rc, 0);
	assert_int_equal(p->n, 1);
	expect_ev(&p->ev[0], "Instr_all", 3, 0x3f, 1, 1, 0); /* default :uk, no ht */

	p = parse("cycles,instructions,branches,branch-misses,Br_taken,Atomics", HVPMU_SV_MAX_EVENTS);
	assert_int_equal(p->rc, 0);
	assert_int_equal(p->n, 6);
	expect_ev(&p->ev[0], "cycles", 26, 0x00, 1, 1, 0);
	expect_ev(&p->ev[1], "instructions", 3, 0x3f, 1, 1, 0);
	expect_ev(&p->ev[2], "branches", 4, 0x01, 1, 1, 0);
	expect_ev(&p->ev[3], "branch-misses", 25, 0x0f, 1, 1, 0);
	expect_ev(&p->ev[4], "Br_taken", 4, 0x02, 1, 1, 0);
	expect_ev(&p->ev[5], "Atomics", 4, 0x08, 1, 1, 0);

	/* exact case wins; any case when unambiguous (docs/cli.md "Event
	 * names"): T4's Branches is sl 3, Linux's alias branches sl 4 */
	p = parse("Branches,branches,instr_all:u,BR_TAKEN,CYCLES", HVPMU_SV_MAX_EVENTS);
	assert_int_equal(p->rc, 0);
	assert_int_equal(p->n, 5);
	expect_ev(&p->ev[0], "Branches", 3, 0x01, 1, 1, 0);
	expect_ev(&p->ev[1], "branches", 4, 0x01, 1, 1, 0);
	expect_ev(&p->ev[2], "instr_all:u", 3, 0x3f, 1, 0, 0); /* named as typed, as perf */
	expect_ev(&p->ev[3], "BR_TAKEN", 4, 0x02, 1, 1, 0);
	expect_ev(&p->ev[4], "CYCLES", 26, 0x00, 1, 1, 0);
}

static void test_parse_raw(void **state)
{
	struct parsed *p;

	(void)state;
	/* sl=N,mask=M spans two comma-separated tokens */
	p = parse("sl=3,mask=0x3f", HVPMU_SV_MAX_EVENTS);
	assert_int_equal(p->rc, 0);
	assert_int_equal(p->n, 1);
	expect_ev(&p->ev[0], "sl=3,mask=0x3f", 3, 0x3f, 1, 1, 0);

	p = parse("Instr_ld,sl=4,mask=2:u,sl=26,mask=0,Instr_st", HVPMU_SV_MAX_EVENTS);
	assert_int_equal(p->rc, 0);
	assert_int_equal(p->n, 4);
	expect_ev(&p->ev[0], "Instr_ld", 3, 0x04, 1, 1, 0);
	expect_ev(&p->ev[1], "sl=4,mask=2:u", 4, 0x02, 1, 0, 0);
	expect_ev(&p->ev[2], "sl=26,mask=0", 26, 0x00, 1, 1, 0);
	expect_ev(&p->ev[3], "Instr_st", 3, 0x08, 1, 1, 0);

	p = parse("sl=31,mask=63", HVPMU_SV_MAX_EVENTS);
	assert_int_equal(p->rc, 0);
	expect_ev(&p->ev[0], "sl=31,mask=63", 31, 0x3f, 1, 1, 0);

	/* rHHH = (sl << 6) | mask */
	p = parse("r0c4", HVPMU_SV_MAX_EVENTS);
	assert_int_equal(p->rc, 0);
	assert_int_equal(p->n, 1);
	assert_int_equal(0x0c4, (3 << 6) | 4);
	expect_ev(&p->ev[0], "r0c4", 3, 0x04, 1, 1, 0);
	p = parse("rC4:k,r680,r7ff,r0", HVPMU_SV_MAX_EVENTS);
	assert_int_equal(p->rc, 0);
	assert_int_equal(p->n, 4);
	expect_ev(&p->ev[0], "rC4:k", 3, 0x04, 0, 1, 0);
	expect_ev(&p->ev[1], "r680", 26, 0x00, 1, 1, 0);
	expect_ev(&p->ev[2], "r7ff", 31, 0x3f, 1, 1, 0);
	expect_ev(&p->ev[3], "r0", 0, 0x00, 1, 1, 0);
}

static void test_parse_modifiers(void **state)
{
	static const struct {
		const char *mod;
		int ut, st, ht;
	} cases[] = {
		{ ":u", 1, 0, 0 },  { ":k", 0, 1, 0 },  { ":h", 0, 0, 1 },  { ":uk", 1, 1, 0 },
		{ ":ku", 1, 1, 0 }, { ":uh", 1, 0, 1 }, { ":ukh", 1, 1, 1 }, { "", 1, 1, 0 },
		{ ":uu", 1, 0, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char list[64];
		struct parsed *p;

		snprintf(list, sizeof list, "Instr_ld%s", cases[i].mod);
		p = parse(list, HVPMU_SV_MAX_EVENTS);
		assert_int_equal(p->rc, 0);
		assert_int_equal(p->n, 1);
		expect_ev(&p->ev[0], list, 3, 0x04, cases[i].ut, cases[i].st, cases[i].ht);
	}
}

static void test_parse_appends(void **state)
{
	struct hvpmu_sv_event ev[4];
	unsigned n = 1;
	char err[ERRLEN] = "";

	(void)state;
	memset(ev, 0, sizeof ev);
	strcpy(ev[0].name, "keep");
	assert_int_equal(hvpmu_sv_parse_events(t4(), "cycles,instructions", ev, &n, 4, err, sizeof err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(ev[0].name, "keep");
	expect_ev(&ev[1], "cycles", 26, 0, 1, 1, 0);
	expect_ev(&ev[2], "instructions", 3, 0x3f, 1, 1, 0);
	/* exactly cap events is fine */
	n = 0;
	assert_int_equal(hvpmu_sv_parse_events(t4(), "cycles,cycles:u,cycles:k,cycles:h", ev, &n, 4, err, sizeof err), 0);
	assert_int_equal(n, 4);
}

static void test_parse_errors(void **state)
{
	char big[200];

	(void)state;
	expect_error("Bogus", HVPMU_SV_MAX_EVENTS, "Bogus");
	expect_error("Instr_all,Bogus", HVPMU_SV_MAX_EVENTS, "Bogus");
	expect_error("BRANCHES", HVPMU_SV_MAX_EVENTS, "'BRANCHES' is ambiguous: 'Branches' (sl=3");
	expect_error("bRANCHES", HVPMU_SV_MAX_EVENTS, "'branches' (sl=4");
	expect_error("cyles", HVPMU_SV_MAX_EVENTS, "did you mean 'cycles'?");
	expect_error("Instr_alll", HVPMU_SV_MAX_EVENTS, "did you mean 'Instr_all'?");
	/* modifiers */
	expect_error("Instr_all:x", HVPMU_SV_MAX_EVENTS, "modifier");
	expect_error("Instr_all:", HVPMU_SV_MAX_EVENTS, "modifier");
	expect_error("Instr_all:U", HVPMU_SV_MAX_EVENTS, "modifier");
	expect_error("cycles:u:k", HVPMU_SV_MAX_EVENTS, "modifier");
	/* raw sl / mask out of range or malformed */
	expect_error("sl=32,mask=0", HVPMU_SV_MAX_EVENTS, "sl=");
	expect_error("sl=3,mask=0x40", HVPMU_SV_MAX_EVENTS, "sl=");
	expect_error("sl=-1,mask=0", HVPMU_SV_MAX_EVENTS, NULL);
	expect_error("sl=3,mask=-1", HVPMU_SV_MAX_EVENTS, NULL);
	expect_error("sl=3", HVPMU_SV_MAX_EVENTS, "sl=");
	expect_error("sl=3,Instr_all", HVPMU_SV_MAX_EVENTS, "sl=");
	expect_error("sl=,mask=1", HVPMU_SV_MAX_EVENTS, NULL);
	expect_error("sl=3,mask=", HVPMU_SV_MAX_EVENTS, NULL);
	expect_error("sl=3x,mask=1", HVPMU_SV_MAX_EVENTS, NULL);
	expect_error("r800", HVPMU_SV_MAX_EVENTS, NULL);   /* sl 32 */
	expect_error("rxyz", HVPMU_SV_MAX_EVENTS, "rxyz");
	expect_error("r", HVPMU_SV_MAX_EVENTS, NULL);
	expect_error("r0x1", HVPMU_SV_MAX_EVENTS, NULL);
	/* control characters: refused without quoting them (one-line message) */
	expect_error("Instr_all\nBogus", HVPMU_SV_MAX_EVENTS, "0x0a");
	expect_error("Instr_all\t", HVPMU_SV_MAX_EVENTS, "0x09");
	/* empty list */
	expect_error("", HVPMU_SV_MAX_EVENTS, "empty");
	expect_error(NULL, HVPMU_SV_MAX_EVENTS, "empty");
	expect_error(":u", HVPMU_SV_MAX_EVENTS, NULL);
	/* too many events */
	expect_error("cycles,instructions,branches", 2, "too many");
	expect_error("cycles", 0, "too many");
	/* a name longer than the event name field */
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = 0;
	expect_error(big, HVPMU_SV_MAX_EVENTS, NULL);
}

/* A list with no event in it ("," or ",,") is as empty as "". */
static void test_parse_no_events_is_error(void **state)
{
	(void)state;
	expect_error(",", HVPMU_SV_MAX_EVENTS, "empty");
	expect_error(",,", HVPMU_SV_MAX_EVENTS, "empty");
}

/* The T1 driver: Instr_cnt on PICH (config HVPMU_SV_T1_PICH), the eight
 * PICL events by SL (niagara-perf-api.txt §2.1), rN the PICL select, no
 * hypervisor mode (the T1 PCR has UT and ST only) and no sl=,mask=. */
static void test_parse_t1(void **state)
{
	const struct hvpmu_sv_backend *t1 = hvpmu_sv_backend_of(HVPMU_PLATFORM_T1);
	struct hvpmu_sv_event ev[8];
	unsigned n = 0;
	char err[ERRLEN] = "";

	(void)state;
	assert_non_null(t1);
	assert_int_equal(hvpmu_sv_parse_events(t1, "Instr_cnt,DC_miss:u,r6:k,instructions,cache-misses", ev, &n, 8,
					       err, sizeof err), 0);
	assert_int_equal(n, 5);
	assert_int_equal(ev[0].config, HVPMU_SV_T1_PICH);
	assert_int_equal(ev[0].modes, HVPMU_SV_MODE_USER | HVPMU_SV_MODE_KERNEL);
	assert_int_equal(ev[1].config, HVPMU_T1_SL_DC_MISS);
	assert_int_equal(ev[1].modes, HVPMU_SV_MODE_USER);
	assert_int_equal(ev[2].config, 6);
	assert_int_equal(ev[2].modes, HVPMU_SV_MODE_KERNEL);
	assert_int_equal(ev[3].config, HVPMU_SV_T1_PICH);
	assert_int_equal(ev[4].config, HVPMU_T1_SL_DC_MISS);
	/* counters: Instr_cnt only on pic1 (PICH), PICL events only on pic0 */
	assert_int_equal(hvpmu_sv_event_pics(t1, HVPMU_SV_T1_PICH), 0x2);
	assert_int_equal(hvpmu_sv_event_pics(t1, HVPMU_T1_SL_DC_MISS), 0x1);
	assert_true(hvpmu_sv_event_shared(t1, HVPMU_SV_T1_PICH));
	assert_false(hvpmu_sv_event_shared(t1, HVPMU_T1_SL_DC_MISS));
	/* T4 has no shared event and any event on any counter */
	assert_int_equal(hvpmu_sv_event_pics(t4(), 3 << 6 | 0x3f), 0xf);
	assert_false(hvpmu_sv_event_shared(t4(), 3 << 6 | 0x3f));
	for (unsigned i = 0; i < 4; i++) {
		static const char *const bad[] = { "DC_miss:h", "sl=3,mask=1", "r8", "Instr_all" };

		n = 0;
		err[0] = 0;
		if (hvpmu_sv_parse_events(t1, bad[i], ev, &n, 8, err, sizeof err) != -1)
			fail_msg("T1 accepted '%s'", bad[i]);
		assert_true(err[0] != 0);
	}
	/* emask: T4 ORs mask bits 0..0x3f; the T1 takes none */
	{
		uint64_t c = 0;

		assert_int_equal(hvpmu_sv_event_emask(t4(), 3 << 6, 0x3f, &c), 0);
		assert_int_equal(c, 3 << 6 | 0x3f);
		assert_int_equal(hvpmu_sv_event_emask(t4(), 3 << 6, 0x40, &c), -1);
		assert_int_equal(hvpmu_sv_event_emask(t1, HVPMU_T1_SL_DC_MISS, 1, &c), -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_by_name),
		cmocka_unit_test(test_event_table_consistent),
		cmocka_unit_test(test_event_table_order),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_event_supported),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_parse_names_and_aliases),
		cmocka_unit_test(test_parse_raw),
		cmocka_unit_test(test_parse_modifiers),
		cmocka_unit_test(test_parse_appends),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_no_events_is_error),
		cmocka_unit_test(test_parse_t1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
