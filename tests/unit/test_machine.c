/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_machine.c - the machine model's fast-path contract end to end,
 * without QEMU (include/hvpmu/machine.h; src/model/machine.c with the
 * hypervisor src/services/sun4v.c and the guest driver src/supervisor/sv.c).
 *
 * The test plays the event source the way the TCG plugin does: classes are
 * interned from real SPARC V9 words through hvpmu_sparc_decode(); for each
 * executed block it adds the block length to act->bound, calls
 * hvpmu_machine_sync() when bound >= next_check, then adds one to
 * act->icount[class] per retired instruction and to act->taken_cond for a
 * taken conditional branch.  Checked through the supervisor (layer 5):
 *   - exact counts (sparc-t4-performance-instrumentation.md TABLE 10-2
 *     sl=3, sl=4, sl=26);
 *   - precise overflow traps land on the overflowing instruction (§10.1
 *     item 7 "no skid", §10.3);
 *   - perf-style multiplexing of more events than the 4 PICs (§10.1 item 1;
 *     linux-clients.md §1.7) and its enabled/running scaling;
 *   - the OS tick (timer) is taken only in user mode (machine.h);
 *   - privileged cycles counted by sl=26 with st=1 only (TABLE 10-2 sl=26);
 *   - determinism (DESIGN.md "Runs are deterministic").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <hvpmu/hvpmu.h>

/* SPARC V9 words (GNU as -Av9 -64) */
#define W_LDX 0xd25a0000u    /* ldx [%o0], %o1 */
#define W_LDX8 0xd25a2008u   /* ldx [%o0+8], %o1 */
#define W_ADD 0x90022001u    /* add %o0, 1, %o0 */
#define W_STX 0xd2720000u    /* stx %o1, [%o0] */
#define W_NOP 0x01000000u    /* nop */
#define W_BNE_OP 0x12800000u /* bne %icc, disp22 (a=0) */
#define DISP22_MASK 0x3fffffu

#define LOOP_VA UINT64_C(0x100000)
#define LOOP_N 7
#define LOOP_BNE 5            /* index of the bne in the loop block */
#define EXIT_N 2
#define MAX_OVF 64

struct ovf_rec {
	unsigned event;
	uint64_t tpc;
	int precise;
	uint32_t pic_mask;
};

struct sim {
	struct hvpmu_md md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	struct hvpmu_sv *sv;
	struct hvpmu_activity *act;
	const struct hvpmu_block *prev;
	uint8_t loop_cls[LOOP_N];
	uint8_t exit_cls[EXIT_N];
	struct hvpmu_block loop, exit;
	/* ground truth */
	uint64_t insns, loads, stores, taken, others;
	/* on_overflow calls */
	unsigned novf;
	struct ovf_rec ovf[MAX_OVF];
};

/* Objects of the sims alive in the current test, freed by the teardown
 * even when an assertion ends the test early. */
#define MAX_LIVE 4
static struct sim *live[MAX_LIVE];

static void track(struct sim *s, int on)
{
	for (unsigned i = 0; i < MAX_LIVE; i++) {
		if (on && !live[i]) {
			live[i] = s;
			return;
		}
		if (!on && live[i] == s) {
			live[i] = NULL;
			return;
		}
	}
	assert_false(on);
}

static void on_overflow(void *ctx, unsigned event, const struct hvpmu_guest_trap *t)
{
	struct sim *s = ctx;

	if (s->novf < MAX_OVF) {
		s->ovf[s->novf].event = event;
		s->ovf[s->novf].tpc = t->tpc;
		s->ovf[s->novf].precise = t->precise;
		s->ovf[s->novf].pic_mask = t->pic_mask;
	}
	s->novf++;
}

static uint8_t intern(struct sim *s, uint32_t word, uint64_t pc)
{
	struct hvpmu_sparc_insn d;
	int cls;

	hvpmu_sparc_decode(word, pc, &d);
	cls = hvpmu_machine_class(s->m, d.flags);
	assert_true(cls >= 0 && cls < HVPMU_MAX_ICLASS);
	return (uint8_t)cls;
}

/*
 * loop:  ldx [%o0], %o1; add; stx; ldx [%o0+8], %o1; add; bne loop; nop
 * exit:  add; nop
 */
static void sim_init(struct sim *s, uint64_t rotate_cycles, uint32_t pic_init, void (*edit)(struct hvpmu_md *))
{
	struct hvpmu_sv_config cfg;
	const uint32_t bne = W_BNE_OP | ((uint32_t)-LOOP_BNE & DISP22_MASK);
	const uint32_t loop_words[LOOP_N] = { W_LDX, W_ADD, W_STX, W_LDX8, W_ADD, bne, W_NOP };
	const uint32_t exit_words[EXIT_N] = { W_ADD, W_NOP };
	struct hvpmu_sparc_insn d;

	memset(s, 0, sizeof *s);
	track(s, 1);
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &s->md), HVPMU_OK);
	if (edit)
		edit(&s->md);
	assert_int_equal(hvpmu_machine_create(&s->md, &s->m), HVPMU_OK);
	assert_int_equal(hvpmu_hv_create(s->m, &s->hv), HVPMU_OK);
	memset(&cfg, 0, sizeof cfg);
	cfg.rotate_cycles = rotate_cycles;
	cfg.pic_init = pic_init;
	cfg.on_overflow = on_overflow;
	cfg.ctx = s;
	assert_int_equal(hvpmu_sv_create(s->hv, 0, &cfg, &s->sv), HVPMU_OK);
	s->act = hvpmu_machine_activity(s->m, 0);
	assert_non_null(s->act);

	for (unsigned i = 0; i < LOOP_N; i++)
		s->loop_cls[i] = intern(s, loop_words[i], LOOP_VA + 4 * i);
	for (unsigned i = 0; i < EXIT_N; i++)
		s->exit_cls[i] = intern(s, exit_words[i], LOOP_VA + 4 * (LOOP_N + i));
	/* the words decode as the test assumes */
	hvpmu_sparc_decode(bne, LOOP_VA + 4 * LOOP_BNE, &d);
	assert_true(d.flags & HVPMU_IC_CTI_COND);
	assert_int_equal(d.target, LOOP_VA);
	assert_int_equal(hvpmu_machine_class_flags(s->m, s->loop_cls[0]), HVPMU_IC_LOAD);
	assert_int_equal(hvpmu_machine_class_flags(s->m, s->loop_cls[2]), HVPMU_IC_STORE);
	assert_int_equal(hvpmu_machine_class_flags(s->m, s->loop_cls[1]), HVPMU_IC_OTHER);
	assert_int_equal(s->loop_cls[0], s->loop_cls[3]);
	assert_int_equal(s->loop_cls[1], s->exit_cls[0]);
	s->loop = (struct hvpmu_block){ .vaddr = LOOP_VA, .n = LOOP_N, .cond_cti = LOOP_BNE, .cti = LOOP_BNE, .cls = s->loop_cls };
	s->exit = (struct hvpmu_block){ .vaddr = LOOP_VA + 4 * LOOP_N, .n = EXIT_N, .cond_cti = -1, .cti = -1, .cls = s->exit_cls };
}

static void sim_fini(struct sim *s)
{
	hvpmu_sv_destroy(s->sv);
	hvpmu_hv_destroy(s->hv);
	hvpmu_machine_destroy(s->m);
	s->sv = NULL;
	s->hv = NULL;
	s->m = NULL;
	track(s, 0);
}

static int teardown(void **state)
{
	(void)state;
	for (unsigned i = 0; i < MAX_LIVE; i++)
		if (live[i])
			sim_fini(live[i]);
	return 0;
}

static int add_event(struct sim *s, const char *name, unsigned sl, unsigned mask, int ut, int st, int ht)
{
	struct hvpmu_sv_event ev;
	int idx;

	memset(&ev, 0, sizeof ev);
	strncpy(ev.name, name, sizeof ev.name - 1);
	ev.config = HVPMU_SV_T4_CONFIG(sl, mask);
	ev.modes = (uint8_t)((ut ? HVPMU_SV_MODE_USER : 0) | (st ? HVPMU_SV_MODE_KERNEL : 0) |
			     (ht ? HVPMU_SV_MODE_HYPER : 0));
	idx = hvpmu_sv_add_event(s->sv, &ev);
	assert_true(idx >= 0);
	return idx;
}

/* The source executing one block. */
static void exec_block(struct sim *s, const struct hvpmu_block *b, int taken)
{
	s->act->bound += b->n;
	if (s->act->bound >= s->act->next_check)
		assert_int_equal(hvpmu_machine_sync(s->m, 0, s->prev, b), HVPMU_OK);
	for (uint32_t i = 0; i < b->n; i++) {
		uint32_t fl = hvpmu_machine_class_flags(s->m, b->cls[i]);

		s->act->icount[b->cls[i]]++;
		s->insns++;
		s->loads += (fl & HVPMU_IC_LOAD) != 0;
		s->stores += (fl & HVPMU_IC_STORE) != 0;
		s->others += (fl & HVPMU_IC_OTHER) != 0;
	}
	if (taken && b->cond_cti >= 0) {
		s->act->taken_cond++;
		s->taken++;
	}
	s->prev = b;
}

static void run_loop(struct sim *s, unsigned iters)
{
	for (unsigned it = 0; it < iters; it++)
		exec_block(s, &s->loop, it + 1 < iters);
	exec_block(s, &s->exit, 0);
}

/* Program end: last sync, thread exit. */
static void sim_stop(struct sim *s)
{
	assert_int_equal(hvpmu_machine_sync(s->m, 0, s->prev, NULL), HVPMU_OK);
	assert_int_equal(hvpmu_sv_stop_strand(s->sv, 0), HVPMU_OK);
}

static struct hvpmu_sv_count read_ev(struct sim *s, int idx)
{
	struct hvpmu_sv_count c;

	memset(&c, 0xa5, sizeof c);
	assert_int_equal(hvpmu_sv_read(s->sv, (unsigned)idx, &c), HVPMU_OK);
	return c;
}

/* scaled must be raw * enabled / running, as perf stat computes it */
static void check_scaled(const struct hvpmu_sv_count *c)
{
	double want = (double)c->raw * (double)c->enabled / (double)c->running;
	double diff = c->scaled - want;

	assert_true(c->running > 0);
	assert_true(diff <= want * 1e-12 && -diff <= want * 1e-12);
}

static void assert_near_d(double got, double want, double rel)
{
	double d = got - want;

	if (d < 0)
		d = -d;
	if (d > rel * want)
		fail_msg("%.1f not within %.1f%% of %.1f", got, rel * 100, want);
}

/* --- exact counts -------------------------------------------------------- */

static void test_exact_counts(void **state)
{
	static struct sim s;
	int all, ld, st, tk;
	struct hvpmu_sv_count c;

	(void)state;
	sim_init(&s, 0, 0, NULL);
	all = add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
	ld = add_event(&s, "Instr_ld", 3, 0x04, 1, 0, 0);
	st = add_event(&s, "Instr_st", 3, 0x08, 1, 0, 0);
	tk = add_event(&s, "Br_taken", 4, 0x02, 1, 0, 0);
	assert_int_equal(hvpmu_sv_nevents(s.sv), 4);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 1000);
	sim_stop(&s);

	assert_int_equal(s.insns, 1000 * LOOP_N + EXIT_N);
	assert_int_equal(hvpmu_machine_retired(s.m, 0), s.insns);
	c = read_ev(&s, all);
	assert_int_equal(c.supported, 1);
	assert_int_equal(c.raw, s.insns);
	assert_int_equal(c.overflows, 0);
	assert_true(c.enabled > 0);
	assert_int_equal(c.running, c.enabled);
	assert_true(c.scaled == (double)c.raw);
	c = read_ev(&s, ld);
	assert_int_equal(c.raw, 2000);
	assert_int_equal(c.raw, s.loads);
	c = read_ev(&s, st);
	assert_int_equal(c.raw, 1000);
	c = read_ev(&s, tk);
	assert_int_equal(c.raw, 999);
	assert_int_equal(c.raw, s.taken);
	assert_int_equal(s.novf, 0);
	assert_int_equal(hvpmu_sv_last_status(s.sv), HV_EOK);
	sim_fini(&s);
}

/* Counts extend past 32 bits through overflow accounting. */
static void test_counts_extend_past_wrap(void **state)
{
	static struct sim s;
	int all, ld;
	struct hvpmu_sv_count c;
	const uint32_t init = 0xffffffffu - 99;

	(void)state;
	sim_init(&s, 0, init, NULL);
	all = add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
	ld = add_event(&s, "Instr_ld", 3, 0x04, 1, 0, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 300);
	sim_stop(&s);
	c = read_ev(&s, all);
	assert_int_equal(c.raw, s.insns);
	assert_int_equal(c.overflows, 1);
	c = read_ev(&s, ld);
	assert_int_equal(c.raw, s.loads);
	assert_int_equal(c.overflows, 1);
	assert_int_equal(s.novf, 2);
	sim_fini(&s);
}

/* --- precise overflow: trap PC is the overflowing instruction ------------ */

static void test_precise_trap_pc(void **state)
{
	static struct sim s;
	int ld, br, tk, all;
	struct hvpmu_sv_count c;
	int seen[4] = { 0 };

	(void)state;
	/* 4 events to wrap: 4th instruction = iteration 0 index 3; 4th load =
	 * iteration 1, ldx [%o0+8] (index 3); 4th branch and 4th taken
	 * branch = the bne of iteration 3 (one trap for both PICs) */
	sim_init(&s, 0, 0xfffffffcu, NULL);
	ld = add_event(&s, "Instr_ld", 3, 0x04, 1, 0, 0);
	br = add_event(&s, "branches", 4, 0x01, 1, 0, 0);
	tk = add_event(&s, "Br_taken", 4, 0x02, 1, 0, 0);
	all = add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 10);
	sim_stop(&s);
	assert_int_equal(s.novf, 4);
	for (unsigned i = 0; i < s.novf; i++) {
		int e = (int)s.ovf[i].event;

		assert_int_equal(s.ovf[i].precise, 1);
		assert_true(e >= 0 && e < 4);
		seen[e]++;
		if (e == ld) {
			assert_int_equal(s.ovf[i].tpc, LOOP_VA + 4 * 3);
			assert_int_equal(s.ovf[i].pic_mask, 1u << 0);
		} else if (e == br || e == tk) {
			assert_int_equal(s.ovf[i].tpc, LOOP_VA + 4 * LOOP_BNE);
			assert_int_equal(s.ovf[i].pic_mask, (1u << 1) | (1u << 2));
		} else {
			assert_int_equal(e, all);
			assert_int_equal(s.ovf[i].tpc, LOOP_VA + 4 * 3);
			assert_int_equal(s.ovf[i].pic_mask, 1u << 3);
		}
	}
	for (unsigned e = 0; e < 4; e++)
		assert_int_equal(seen[e], 1);
	/* traps come in program order */
	assert_int_equal((int)s.ovf[0].event, all);
	assert_int_equal((int)s.ovf[1].event, ld);
	/* counts stay exact across the traps */
	c = read_ev(&s, ld);
	assert_int_equal(c.raw, 20);
	assert_int_equal(c.overflows, 1);
	assert_int_equal(read_ev(&s, br).raw, 10);
	assert_int_equal(read_ev(&s, tk).raw, 9);
	assert_int_equal(read_ev(&s, all).raw, s.insns);
	sim_fini(&s);
}

/*
 * Two PICs overflowing at different instructions of one block: each
 * overflow is precise, so each trap PC is its own instruction (§10.1
 * item 7, TABLE 10-1 toe: "TPC will contain the address of an instruction
 * that generated the counter overflow event").  Here the 4th store
 * (iteration 3, index 2) and the 4th taken branch (iteration 3, index 5)
 * wrap in the same block.
 */
static void test_precise_two_pcs_in_one_block(void **state)
{
	static struct sim s;
	int st, tk;

	(void)state;
	sim_init(&s, 0, 0xfffffffcu, NULL);
	st = add_event(&s, "Instr_st", 3, 0x08, 1, 0, 0);
	tk = add_event(&s, "Br_taken", 4, 0x02, 1, 0, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 10);
	sim_stop(&s);
	assert_int_equal(s.novf, 2);
	for (unsigned i = 0; i < s.novf; i++) {
		if ((int)s.ovf[i].event == st)
			assert_int_equal(s.ovf[i].tpc, LOOP_VA + 4 * 2);
		else if ((int)s.ovf[i].event == tk)
			assert_int_equal(s.ovf[i].tpc, LOOP_VA + 4 * LOOP_BNE);
		else
			fail();
	}
	assert_int_equal(read_ev(&s, st).raw, 10);
	assert_int_equal(read_ev(&s, tk).raw, 9);
	sim_fini(&s);
}

/* The overflowing instruction at each position of the block. */
static void test_precise_trap_pc_every_position(void **state)
{
	(void)state;
	for (unsigned k = 1; k <= 2 * LOOP_N; k++) {
		static struct sim s;
		int all;

		sim_init(&s, 0, (uint32_t)(0x100000000ull - k), NULL);
		all = add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
		assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
		run_loop(&s, 5);
		sim_stop(&s);
		assert_int_equal(s.novf, 1);
		assert_int_equal((int)s.ovf[0].event, all);
		assert_int_equal(s.ovf[0].tpc, LOOP_VA + 4 * ((k - 1) % LOOP_N));
		assert_int_equal(read_ev(&s, all).raw, s.insns);
		sim_fini(&s);
	}
}

/* --- multiplexing -------------------------------------------------------- */

static void add_six(struct sim *s, int idx[6])
{
	idx[0] = add_event(s, "Instr_all", 3, 0x3f, 1, 0, 0);
	idx[1] = add_event(s, "Instr_ld", 3, 0x04, 1, 0, 0);
	idx[2] = add_event(s, "Instr_st", 3, 0x08, 1, 0, 0);
	idx[3] = add_event(s, "Br_taken", 4, 0x02, 1, 0, 0);
	idx[4] = add_event(s, "Instr_other", 3, 0x20, 1, 0, 0);
	idx[5] = add_event(s, "cycles:u", 26, 0x00, 1, 0, 0);
}

static void test_multiplex_six_events(void **state)
{
	static struct sim s;
	int idx[6];
	double truth[6];
	uint64_t enabled;

	(void)state;
	sim_init(&s, 50000, 0, NULL);
	add_six(&s, idx);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 100000);
	sim_stop(&s);
	truth[0] = (double)s.insns;
	truth[1] = (double)s.loads;
	truth[2] = (double)s.stores;
	truth[3] = (double)s.taken;
	truth[4] = (double)s.others;
	truth[5] = (double)(s.insns); /* 1 cycle per instruction; conditional branches cost no extra (docs/timing-model.md) */
	enabled = read_ev(&s, idx[0]).enabled;
	for (unsigned i = 0; i < 6; i++) {
		struct hvpmu_sv_count c = read_ev(&s, idx[i]);

		assert_int_equal(c.supported, 1);
		assert_int_equal(c.enabled, enabled); /* all enabled the whole run */
		assert_true(c.running < c.enabled);
		assert_true(c.running > c.enabled / 4);
		assert_true((double)c.raw < truth[i]);
		assert_int_equal(c.overflows, 0);
		check_scaled(&c);
		/* the estimate: rotation overhead (hypervisor time with no
		 * group on the PICs) inflates it a little */
		assert_near_d(c.scaled, truth[i], 0.10);
	}
	/* events of one group share their running time */
	for (unsigned i = 1; i < 4; i++)
		assert_int_equal(read_ev(&s, idx[i]).running, read_ev(&s, idx[0]).running);
	assert_int_equal(read_ev(&s, idx[5]).running, read_ev(&s, idx[4]).running);
	/* and the two groups together ran less than the enabled time */
	assert_true(read_ev(&s, idx[0]).running + read_ev(&s, idx[4]).running <= enabled);
	assert_near_d((double)(read_ev(&s, idx[0]).running + read_ev(&s, idx[4]).running),
		      (double)enabled, 0.10);
	sim_fini(&s);
}

static void test_four_events_no_multiplexing(void **state)
{
	static struct sim s;
	int idx[4];

	(void)state;
	sim_init(&s, 5000, 0, NULL);
	idx[0] = add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
	idx[1] = add_event(&s, "Instr_ld", 3, 0x04, 1, 0, 0);
	idx[2] = add_event(&s, "branches", 4, 0x01, 1, 0, 0);
	idx[3] = add_event(&s, "cycles:u", 26, 0x00, 1, 0, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 20000);
	sim_stop(&s);
	for (unsigned i = 0; i < 4; i++) {
		struct hvpmu_sv_count c = read_ev(&s, idx[i]);

		assert_int_equal(c.running, c.enabled);
		assert_true(c.scaled == (double)c.raw);
	}
	assert_int_equal(read_ev(&s, idx[0]).raw, s.insns);
	assert_int_equal(read_ev(&s, idx[1]).raw, s.loads);
	assert_int_equal(read_ev(&s, idx[2]).raw, 20000);
	assert_int_equal(read_ev(&s, idx[3]).raw, s.insns);
	sim_fini(&s);
}

/* An unsupported event takes no PIC: 4 supported + 1 unmodeled = one group. */
static void test_unsupported_event_takes_no_pic(void **state)
{
	static struct sim s;
	int idx[5];

	(void)state;
	sim_init(&s, 5000, 0, NULL);
	idx[0] = add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
	idx[1] = add_event(&s, "r301", 12, 0x01, 1, 0, 0); /* sl=12: reserved, nothing to count */
	idx[2] = add_event(&s, "Instr_ld", 3, 0x04, 1, 0, 0);
	idx[3] = add_event(&s, "Instr_st", 3, 0x08, 1, 0, 0);
	idx[4] = add_event(&s, "Br_taken", 4, 0x02, 1, 0, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 5000);
	sim_stop(&s);
	assert_int_equal(read_ev(&s, idx[1]).supported, 0);
	assert_int_equal(read_ev(&s, idx[1]).raw, 0);
	for (unsigned i = 0; i < 5; i++) {
		if (i == 1)
			continue;
		assert_int_equal(read_ev(&s, idx[i]).supported, 1);
		assert_int_equal(read_ev(&s, idx[i]).running, read_ev(&s, idx[i]).enabled);
	}
	assert_int_equal(read_ev(&s, idx[0]).raw, s.insns);
	sim_fini(&s);
}

/* --- the timer is taken only in user mode -------------------------------- */

static uint64_t pcr0_mask(struct sim *s)
{
	uint64_t v = 0;

	assert_int_equal(hvpmu_t4_pcr_read(hvpmu_machine_pmu(s->m, 0), 0, &v), HVPMU_OK);
	return HVPMU_FEX(v, T4_PCR, MASK);
}

static void test_timer_only_in_user_mode(void **state)
{
	static struct sim s;
	int idx[6];
	const uint64_t rot = 5000;

	uint64_t t0, now, next;

	(void)state;
	sim_init(&s, rot, 0, NULL);
	add_six(&s, idx); /* PIC0: group 0 Instr_all (0x3f), group 1 Instr_other (0x20) */
	t0 = hvpmu_machine_tick(s.m, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	assert_int_equal(pcr0_mask(&s), 0x3f);

	/* privileged work far past the deadline: no tick while privileged */
	assert_int_equal(hvpmu_machine_set_mode(s.m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_machine_add_cycles(s.m, 0, HVPMU_MODE_PRIV, 10 * rot), HVPMU_OK);
	assert_int_equal(hvpmu_machine_sync(s.m, 0, NULL, NULL), HVPMU_OK);
	assert_int_equal(pcr0_mask(&s), 0x3f);
	/* back in user mode, the pending tick is delivered: rotation */
	assert_int_equal(hvpmu_machine_set_mode(s.m, 0, HVPMU_MODE_USER), HVPMU_OK);
	assert_int_equal(pcr0_mask(&s), 0x20);

	/* same in hyperprivileged mode */
	assert_int_equal(hvpmu_machine_set_mode(s.m, 0, HVPMU_MODE_HYPER), HVPMU_OK);
	assert_int_equal(hvpmu_machine_add_cycles(s.m, 0, HVPMU_MODE_HYPER, 10 * rot), HVPMU_OK);
	assert_int_equal(pcr0_mask(&s), 0x20);
	assert_int_equal(hvpmu_machine_set_mode(s.m, 0, HVPMU_MODE_USER), HVPMU_OK);
	assert_int_equal(pcr0_mask(&s), 0x3f);

	/* user-mode work rotates on its own; before the deadline it does not.
	 * The OS tick is periodic: ticks missed while privileged are skipped,
	 * the next deadline is the next multiple of rot after the start. */
	now = hvpmu_machine_tick(s.m, 0);
	next = t0 + ((now - t0) / rot + 1) * rot;
	assert_int_equal(hvpmu_machine_add_cycles(s.m, 0, HVPMU_MODE_USER, next - now - 1), HVPMU_OK);
	assert_int_equal(pcr0_mask(&s), 0x3f);
	run_loop(&s, (unsigned)(rot / LOOP_N / 2)); /* crosses that deadline, not the one after */
	assert_int_equal(pcr0_mask(&s), 0x20);
	sim_stop(&s);
	sim_fini(&s);
}

/* The machine's own tick compare: one HVPMU_TT_TIMER per arming, user mode only. */
struct timer_spy {
	unsigned timers, others;
	enum hvpmu_mode mode;
};

static void spy_trap(void *ctx, const struct hvpmu_trap *t)
{
	struct timer_spy *spy = ctx;

	if (t->tt == HVPMU_TT_TIMER) {
		spy->timers++;
		spy->mode = t->mode;
	} else {
		spy->others++;
	}
}

/* A default T4 whose traps go to `spy`. */
static struct hvpmu_machine *spied_t4(struct timer_spy *spy)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m;

	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), HVPMU_OK);
	assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_OK);
	hvpmu_machine_set_trap_handler(m, spy_trap, spy);
	return m;
}

static void test_machine_tick_compare(void **state)
{
	struct timer_spy spy = { 0, 0, HVPMU_NMODES };
	struct hvpmu_machine *m = spied_t4(&spy);

	(void)state;
	assert_int_equal(hvpmu_machine_set_tick_compare(m, 0, 1000), HVPMU_OK);
	assert_int_equal(hvpmu_machine_add_cycles(m, 0, HVPMU_MODE_USER, 999), HVPMU_OK);
	assert_int_equal(spy.timers, 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_machine_add_cycles(m, 0, HVPMU_MODE_PRIV, 5), HVPMU_OK);
	assert_int_equal(hvpmu_machine_tick(m, 0), 1004);
	assert_int_equal(spy.timers, 0);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), HVPMU_OK);
	assert_int_equal(spy.timers, 1);
	assert_int_equal(spy.mode, HVPMU_MODE_USER);
	/* fires once per arming */
	assert_int_equal(hvpmu_machine_add_cycles(m, 0, HVPMU_MODE_USER, 5000), HVPMU_OK);
	assert_int_equal(spy.timers, 1);
	/* disarmed by 0 */
	assert_int_equal(hvpmu_machine_set_tick_compare(m, 0, 7000), HVPMU_OK);
	assert_int_equal(hvpmu_machine_set_tick_compare(m, 0, 0), HVPMU_OK);
	assert_int_equal(hvpmu_machine_add_cycles(m, 0, HVPMU_MODE_USER, 5000), HVPMU_OK);
	assert_int_equal(spy.timers, 1);
	assert_int_equal(spy.others, 0);
	/* the source's next_check brings a sync before the deadline passes */
	{
		struct hvpmu_activity *act = hvpmu_machine_activity(m, 0);
		uint64_t now = hvpmu_machine_tick(m, 0);

		assert_int_equal(hvpmu_machine_set_tick_compare(m, 0, now + 100), HVPMU_OK);
		assert_true(act->next_check <= act->bound + 100);
	}
	assert_int_equal(hvpmu_machine_set_tick_compare(m, 99, 1), HVPMU_ERANGE);
	hvpmu_machine_destroy(m);
}

/* --- a source that counts blocks between syncs (hvpmu_machine_budget) ----- */

/* The cycles of block b by the machine's rule (what a guest computes). */
static uint64_t block_cycles(struct sim *s, const struct hvpmu_block *b)
{
	struct hvpmu_cycle_rule r;
	uint64_t c = 0;

	hvpmu_machine_cycle_rule(s->m, &r);
	for (uint32_t i = 0; i < b->n; i++)
		c += hvpmu_insn_cycles(&r, hvpmu_machine_class_flags(s->m, b->cls[i]));
	return c;
}

/* The service's block counts, played: under a grant the blocks' counts
 * wait (pending) and the syncs next_check asks for are made without them;
 * the entry past either budget syncs with everything. */
struct granted {
	int valid;
	uint64_t insn_check, cyc_grant; /* the grant: act->bound, and `cyc` units */
	uint64_t cyc;                   /* cycles of the blocks entered before the current one */
	uint64_t pending[HVPMU_MAX_ICLASS];
	unsigned stale_syncs, grants;
};

static void granted_flush(struct sim *s, struct granted *g)
{
	for (unsigned k = 0; k < HVPMU_MAX_ICLASS; k++) {
		s->act->icount[k] += g->pending[k];
		g->pending[k] = 0;
	}
}

static void exec_block_granted(struct sim *s, struct granted *g, const struct hvpmu_block *b, int taken)
{
	uint64_t cyc_p = s->prev ? block_cycles(s, s->prev) : 0, check, cycles;
	int fast = g->valid && s->act->bound + b->n < g->insn_check && g->cyc + cyc_p < g->cyc_grant;

	g->cyc += cyc_p;
	s->act->bound += b->n;
	if (fast) {
		if (s->act->bound >= s->act->next_check) { /* with counts pending: nothing comes due */
			assert_int_equal(hvpmu_machine_sync(s->m, 0, s->prev, b), HVPMU_OK);
			g->stale_syncs++;
		}
	} else {
		int sync = g->valid;

		granted_flush(s, g);
		g->valid = 0;
		if (sync || s->act->bound >= s->act->next_check)
			assert_int_equal(hvpmu_machine_sync(s->m, 0, s->prev, b), HVPMU_OK);
		/* the next grant, with every instruction before this block */
		assert_int_equal(hvpmu_machine_budget(s->m, 0, &check, &cycles), HVPMU_OK);
		g->valid = 1;
		g->insn_check = check;
		g->cyc_grant = cycles > UINT64_MAX - g->cyc ? UINT64_MAX : g->cyc + cycles;
		g->grants++;
	}
	for (uint32_t i = 0; i < b->n; i++) {
		if (g->valid && fast)
			g->pending[b->cls[i]]++;
		else
			s->act->icount[b->cls[i]]++;
		s->insns++;
	}
	if (taken && b->cond_cti >= 0)
		s->act->taken_cond++;
	s->prev = b;
}

/* The same program through a source that syncs whenever next_check asks
 * (a) and one that counts blocks under grants (b), `six` events (else
 * four instruction events), PICs from pic_init, the tick every `rotate`
 * cycles: the same traps, counts and time. */
static void budget_compare(uint64_t rotate, uint32_t pic_init, int six)
{
	static struct sim a, b;
	static struct granted g;
	int ia[6], ib[6], n = six ? 6 : 4;

	memset(&g, 0, sizeof g);
	sim_init(&a, rotate, pic_init, NULL);
	sim_init(&b, rotate, pic_init, NULL);
	if (six) {
		add_six(&a, ia);
		add_six(&b, ib);
	} else {
		static const struct { const char *name; unsigned mask; } four[4] = {
			{ "Instr_all", 0x3f }, { "Instr_ld", 0x04 }, { "Instr_st", 0x08 }, { "Instr_other", 0x20 } };

		for (unsigned i = 0; i < 4; i++) {
			ia[i] = add_event(&a, four[i].name, 3, four[i].mask, 1, 0, 0);
			ib[i] = add_event(&b, four[i].name, 3, four[i].mask, 1, 0, 0);
		}
	}
	assert_int_equal(hvpmu_sv_start_strand(a.sv, 0), HVPMU_OK);
	assert_int_equal(hvpmu_sv_start_strand(b.sv, 0), HVPMU_OK);
	for (unsigned it = 0; it < 30000; it++) {
		exec_block(&a, &a.loop, it + 1 < 30000);
		exec_block_granted(&b, &g, &b.loop, it + 1 < 30000);
	}
	exec_block(&a, &a.exit, 0);
	exec_block_granted(&b, &g, &b.exit, 0);
	granted_flush(&b, &g);
	sim_stop(&a);
	sim_stop(&b);
	/* the granted source synced far less often, and with counts pending */
	assert_true(g.grants > 2 && g.grants < 30000 / 20);
	if (six) /* (the tick's syncs: with the instruction budget alone next_check is it) */
		assert_true(g.stale_syncs > 0);
	assert_true(a.novf > 0);
	assert_int_equal(b.novf, a.novf);
	for (unsigned i = 0; i < a.novf && i < MAX_OVF; i++) {
		assert_int_equal(b.ovf[i].event, a.ovf[i].event);
		assert_int_equal(b.ovf[i].tpc, a.ovf[i].tpc);
		assert_int_equal(b.ovf[i].precise, a.ovf[i].precise);
		assert_int_equal(b.ovf[i].pic_mask, a.ovf[i].pic_mask);
	}
	for (int i = 0; i < n; i++) {
		struct hvpmu_sv_count ca = read_ev(&a, ia[i]), cb = read_ev(&b, ib[i]);

		assert_int_equal(cb.raw, ca.raw);
		assert_int_equal(cb.enabled, ca.enabled);
		assert_int_equal(cb.running, ca.running);
		assert_int_equal(cb.overflows, ca.overflows);
	}
	assert_int_equal(hvpmu_machine_tick(b.m, 0), hvpmu_machine_tick(a.m, 0));
	sim_fini(&a);
	sim_fini(&b);
}

/*
 * hvpmu_machine_budget's contract: a source that syncs only at the entries
 * past its budgets, leaves out the syncs next_check asks for in between or
 * makes them with part of the instructions still pending, gives the same
 * overflow traps (event, precise tpc), the same multiplexing (the OS tick
 * rotates the groups: where it fires decides every running time) and the
 * same counts as one that syncs whenever next_check asks with every
 * instruction counted.  Six events (a cycle-counting PIC, sl=26, among
 * them) rotated every 5,000 cycles; four instruction events 100 and 4096
 * below the wrap (the instruction budget decides).
 */
static void test_budget_same_as_every_sync(void **state)
{
	static struct sim s;
	struct hvpmu_cycle_rule r;
	uint64_t check, cycles;

	(void)state;
	sim_init(&s, 5000, 0, NULL);
	/* the rule is the description's timing */
	hvpmu_machine_cycle_rule(s.m, &r);
	assert_int_equal(r.insn_cycles, s.md.timing.insn_cycles);
	assert_int_equal(r.taken_cti_cycles, s.md.timing.taken_cti_cycles);
	assert_int_equal(r.block_uops, 8);
	assert_int_equal(hvpmu_insn_cycles(&r, HVPMU_IC_BLOCK | HVPMU_IC_LOAD), 8u * r.insn_cycles);
	assert_int_equal(hvpmu_insn_cycles(&r, HVPMU_IC_CTI_ALWAYS), r.insn_cycles + r.taken_cti_cycles);
	/* the instruction budget is next_check's or later */
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	assert_int_equal(hvpmu_machine_budget(s.m, 0, &check, &cycles), HVPMU_OK);
	assert_true(check >= s.act->next_check);
	assert_true(cycles > 0);
	assert_int_equal(hvpmu_machine_budget(s.m, 99, &check, &cycles), HVPMU_ERANGE);
	/* with the memory model, none: cycles are not the classes' */
	hvpmu_machine_enable_memory(s.m, 1);
	assert_int_equal(hvpmu_machine_budget(s.m, 0, &check, &cycles), HVPMU_EINVAL);
	sim_fini(&s);
	budget_compare(5000, 0xfffff000u, 1);
	budget_compare(0, 0xffffff9cu, 0);
	budget_compare(0, 0xfffff000u, 0);
}

/* --- a thread resumes after a wait (hvpmu_machine_resume) ------------------ */

/* A strand behind the furthest one catches up as idle time: %tick moves
 * to the machine's time, a tick compare in the gap fires at the next sync
 * in user mode, the furthest strand and a strand that is not behind stay. */
static void test_resume_catches_up(void **state)
{
	struct timer_spy spy = { 0, 0, HVPMU_NMODES };
	struct hvpmu_machine *m = spied_t4(&spy);

	(void)state;
	assert_int_equal(hvpmu_machine_set_tick_compare(m, 0, 3000), HVPMU_OK);
	assert_int_equal(hvpmu_machine_add_cycles(m, 1, HVPMU_MODE_USER, 5000), HVPMU_OK);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_machine_add_cycles(m, 0, HVPMU_MODE_PRIV, 100), HVPMU_OK);
	assert_int_equal(hvpmu_machine_tick(m, 0), 100);
	hvpmu_machine_resume(m, 0);
	assert_int_equal(hvpmu_machine_tick(m, 0), 5000);
	assert_int_equal(spy.timers, 0); /* privileged: delivered in user mode */
	hvpmu_machine_resume(m, 0);      /* not behind: nothing */
	assert_int_equal(hvpmu_machine_tick(m, 0), 5000);
	hvpmu_machine_resume(m, 1);      /* the furthest: nothing */
	assert_int_equal(hvpmu_machine_tick(m, 1), 5000);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_USER), HVPMU_OK);
	assert_int_equal(spy.timers, 1);
	hvpmu_machine_resume(m, 99);     /* no such strand: nothing */
	hvpmu_machine_destroy(m);
}

/* The idle time is in no mode: cycles:uk counts only what the strand ran. */
static void test_resume_counts_no_cycles(void **state)
{
	static struct sim s;
	int cuk;

	(void)state;
	sim_init(&s, 0, 0, NULL);
	cuk = add_event(&s, "cycles:uk", 26, 0, 1, 1, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 100);
	assert_int_equal(hvpmu_machine_add_cycles(s.m, 1, HVPMU_MODE_USER, 1000000), HVPMU_OK);
	assert_int_equal(hvpmu_machine_sync(s.m, 0, s.prev, NULL), HVPMU_OK);
	hvpmu_machine_resume(s.m, 0);
	assert_true(hvpmu_machine_tick(s.m, 0) >= 1000000);
	run_loop(&s, 100);
	sim_stop(&s);
	assert_int_equal(read_ev(&s, cuk).raw, s.insns);
	sim_fini(&s);
}

/* --- privileged cycles: sl=26 with st=1 ---------------------------------- */

/* A system call as the plugin models it: the OS runs privileged. */
static void do_syscall(struct sim *s)
{
	assert_int_equal(hvpmu_machine_sync(s->m, 0, s->prev, NULL), HVPMU_OK);
	assert_int_equal(hvpmu_machine_set_mode(s->m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_machine_add_cycles(s->m, 0, HVPMU_MODE_PRIV, s->md.timing.syscall_cycles),
			 HVPMU_OK);
	assert_int_equal(hvpmu_machine_set_mode(s->m, 0, HVPMU_MODE_USER), HVPMU_OK);
}

static void test_privileged_cycles(void **state)
{
	static struct sim s;
	int ck, cu, cuk, ik;

	(void)state;
	sim_init(&s, 0, 0, NULL);
	ck = add_event(&s, "cycles:k", 26, 0, 0, 1, 0);
	cu = add_event(&s, "cycles:u", 26, 0, 1, 0, 0);
	cuk = add_event(&s, "cycles:uk", 26, 0, 1, 1, 0);
	ik = add_event(&s, "instructions:k", 3, 0x3f, 0, 1, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 100);
	do_syscall(&s);
	do_syscall(&s);
	run_loop(&s, 100);
	do_syscall(&s);
	sim_stop(&s);
	assert_int_equal(read_ev(&s, ck).raw, 3 * (uint64_t)s.md.timing.syscall_cycles);
	assert_int_equal(read_ev(&s, cu).raw, s.insns);
	assert_int_equal(read_ev(&s, cuk).raw, s.insns + 3 * (uint64_t)s.md.timing.syscall_cycles);
	assert_int_equal(read_ev(&s, ik).raw, 0); /* modeled instructions are user mode */
	sim_fini(&s);
}

/* ht=1 needs perfctrhtaccess: refused (unsupported, ENOACCESS) by default. */
static void grant_ht(struct hvpmu_md *md)
{
	md->guests[0].perfctrhtaccess = 1;
}

static void test_hyper_cycles_need_htaccess(void **state)
{
	static struct sim s;
	int ch, cu;

	(void)state;
	sim_init(&s, 0, 0, NULL);
	ch = add_event(&s, "cycles:h", 26, 0, 0, 0, 1);
	cu = add_event(&s, "cycles:u", 26, 0, 1, 0, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 100);
	sim_stop(&s);
	assert_int_equal(read_ev(&s, ch).supported, 0);
	assert_int_equal(hvpmu_sv_last_status(s.sv), HV_ENOACCESS);
	assert_int_equal(read_ev(&s, cu).supported, 1);
	assert_int_equal(read_ev(&s, cu).raw, s.insns);
	sim_fini(&s);

	sim_init(&s, 0, 0, grant_ht);
	ch = add_event(&s, "cycles:h", 26, 0, 0, 0, 1);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 100);
	sim_stop(&s);
	assert_int_equal(read_ev(&s, ch).supported, 1);
	assert_true(read_ev(&s, ch).raw > 0);
	assert_true(read_ev(&s, ch).raw % s.md.timing.hcall_cycles == 0);
	assert_int_equal(hvpmu_sv_last_status(s.sv), HV_EOK);
	sim_fini(&s);
}

/* --- determinism --------------------------------------------------------- */

struct run_result {
	struct hvpmu_sv_count c[6];
	unsigned novf;
	struct ovf_rec ovf[MAX_OVF];
	uint64_t tick;
};

static void one_run(struct run_result *rr)
{
	static struct sim s;
	int idx[6];

	sim_init(&s, 3000, 0xffffff00u, NULL);
	add_six(&s, idx);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 3000);
	do_syscall(&s);
	run_loop(&s, 2000);
	sim_stop(&s);
	memset(rr, 0, sizeof *rr);
	for (unsigned i = 0; i < 6; i++)
		rr->c[i] = read_ev(&s, idx[i]);
	rr->novf = s.novf;
	memcpy(rr->ovf, s.ovf, sizeof rr->ovf);
	rr->tick = hvpmu_machine_tick(s.m, 0);
	sim_fini(&s);
}

static void test_determinism(void **state)
{
	static struct run_result a, b;

	(void)state;
	one_run(&a);
	one_run(&b);
	assert_true(a.novf > 0);
	assert_int_equal(a.novf, b.novf);
	assert_int_equal(a.tick, b.tick);
	for (unsigned i = 0; i < 6; i++) {
		assert_int_equal(a.c[i].raw, b.c[i].raw);
		assert_int_equal(a.c[i].enabled, b.c[i].enabled);
		assert_int_equal(a.c[i].running, b.c[i].running);
		assert_int_equal(a.c[i].overflows, b.c[i].overflows);
		assert_true(a.c[i].scaled == b.c[i].scaled);
	}
	for (unsigned i = 0; i < a.novf && i < MAX_OVF; i++) {
		assert_int_equal(a.ovf[i].event, b.ovf[i].event);
		assert_int_equal(a.ovf[i].tpc, b.ovf[i].tpc);
		assert_int_equal(a.ovf[i].pic_mask, b.ovf[i].pic_mask);
	}
}

/*
 * hvpmu_sv_read() sums the strands stopped so far (supervisor.h): a running
 * strand's counts appear once it stops.
 */
static void test_read_sums_stopped_strands(void **state)
{
	static struct sim s;
	int all;

	(void)state;
	sim_init(&s, 0, 0, NULL);
	all = add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 100);
	assert_int_equal(hvpmu_machine_sync(s.m, 0, s.prev, NULL), HVPMU_OK);
	assert_int_equal(read_ev(&s, all).raw, 0);
	assert_int_equal(read_ev(&s, all).enabled, 0);
	sim_stop(&s);
	assert_int_equal(read_ev(&s, all).raw, s.insns);
	/* stopping twice adds nothing */
	assert_int_equal(hvpmu_sv_stop_strand(s.sv, 0), HVPMU_OK);
	assert_int_equal(read_ev(&s, all).raw, s.insns);
	{
		struct hvpmu_sv_count c;

		assert_int_equal(hvpmu_sv_read(s.sv, 1, &c), HVPMU_ERANGE);
		assert_int_equal(hvpmu_sv_read(s.sv, 0, NULL), HVPMU_ERANGE);
	}
	sim_fini(&s);
}

/*
 * cpustat's sample (supervisor.h hvpmu_sv_fold / hvpmu_sv_read_strand): a
 * fold between two halves of a run makes the first half's counts readable
 * per strand, and the two halves add up to the unfolded count exactly.
 * new_group puts the second event in a group of its own: it runs only
 * when the driver rotates to it.
 */
static void test_fold_and_strand_share(void **state)
{
	static struct sim s;
	int all, ld;
	uint64_t raw = 1, run = 1, half;

	(void)state;
	sim_init(&s, 0, 0, NULL);
	all = add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	assert_int_equal(hvpmu_sv_read_strand(s.sv, 0, (unsigned)all, &raw, &run), HVPMU_OK);
	assert_int_equal(raw, 0);
	assert_int_equal(run, 0);
	run_loop(&s, 100);
	assert_int_equal(hvpmu_machine_sync(s.m, 0, s.prev, NULL), HVPMU_OK);
	assert_int_equal(hvpmu_sv_fold(s.sv, 0), HVPMU_OK);
	assert_int_equal(hvpmu_sv_read_strand(s.sv, 0, (unsigned)all, &raw, &run), HVPMU_OK);
	assert_int_equal(raw, s.insns);
	assert_true(run > 0);
	half = raw;
	run_loop(&s, 100);
	sim_stop(&s);
	assert_int_equal(hvpmu_sv_read_strand(s.sv, 0, (unsigned)all, &raw, &run), HVPMU_OK);
	assert_int_equal(raw, s.insns);
	assert_int_equal(raw, 2 * half);
	assert_int_equal(read_ev(&s, all).raw, s.insns);
	assert_int_equal(hvpmu_sv_fold(s.sv, 0), HVPMU_OK); /* stopped: nothing to fold */
	assert_int_equal(read_ev(&s, all).raw, s.insns);
	assert_int_equal(hvpmu_sv_fold(s.sv, 64), HVPMU_ERANGE);
	assert_int_equal(hvpmu_sv_read_strand(s.sv, 64, 0, &raw, &run), HVPMU_ERANGE);
	assert_int_equal(hvpmu_sv_read_strand(s.sv, 0, 1, &raw, &run), HVPMU_ERANGE);
	assert_int_equal(hvpmu_sv_read_strand(s.sv, 0, 0, NULL, &run), HVPMU_ERANGE);
	sim_fini(&s);

	/* two one-event groups: without rotation the second never runs */
	sim_init(&s, 0, 0, NULL);
	all = add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
	{
		struct hvpmu_sv_event ev;

		memset(&ev, 0, sizeof ev);
		strcpy(ev.name, "Instr_ld");
		ev.config = HVPMU_SV_T4_CONFIG(3, 0x04);
		ev.modes = HVPMU_SV_MODE_USER;
		ev.new_group = 1;
		ld = hvpmu_sv_add_event(s.sv, &ev);
		assert_true(ld >= 0);
	}
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 0), HVPMU_OK);
	run_loop(&s, 100);
	sim_stop(&s);
	assert_int_equal(read_ev(&s, all).raw, s.insns);
	assert_int_equal(read_ev(&s, ld).raw, 0);
	assert_int_equal(read_ev(&s, ld).running, 0);
	sim_fini(&s);
}

/* Supervisor argument checks and a failed negotiation. */
static void own_four_strands(struct hvpmu_md *md)
{
	md->guests[0].nstrands = 4;
}

static void test_sv_api(void **state)
{
	static struct sim s;
	struct hvpmu_sv *sv2 = NULL;
	struct hvpmu_sv_event ev;
	int ld;

	(void)state;
	sim_init(&s, 0, 0, own_four_strands);
	assert_int_equal(hvpmu_sv_create(NULL, 0, NULL, &sv2), HVPMU_EINVAL);
	assert_int_equal(hvpmu_sv_create(s.hv, 0, NULL, NULL), HVPMU_EINVAL);
	assert_int_equal(hvpmu_sv_create(s.hv, 1, NULL, &sv2), HVPMU_EINVAL); /* no guest 1 */
	memset(&ev, 0, sizeof ev);
	ev.config = HVPMU_SV_T4_CONFIG(32, 0); /* sl is 5 bits (TABLE 10-1) */
	ev.modes = HVPMU_SV_MODE_USER;
	assert_int_equal(hvpmu_sv_add_event(s.sv, &ev), HVPMU_EINVAL);
	ev.config = UINT64_C(1) << 40;
	assert_int_equal(hvpmu_sv_add_event(s.sv, &ev), HVPMU_EINVAL);
	ev.config = HVPMU_SV_T4_CONFIG(3, 0x3f);
	ev.modes = 0x8; /* no such mode */
	assert_int_equal(hvpmu_sv_add_event(s.sv, &ev), HVPMU_EINVAL);
	ev.modes = 0;
	assert_int_equal(hvpmu_sv_add_event(s.sv, &ev), HVPMU_EINVAL);
	assert_int_equal(hvpmu_sv_add_event(s.sv, NULL), HVPMU_EINVAL);
	ld = add_event(&s, "Instr_ld", 3, 0x04, 1, 0, 0);
	for (unsigned i = 1; i < HVPMU_SV_MAX_EVENTS; i++)
		add_event(&s, "Instr_all", 3, 0x3f, 1, 0, 0);
	ev.modes = HVPMU_SV_MODE_USER;
	assert_int_equal(hvpmu_sv_add_event(s.sv, &ev), HVPMU_EFULL);
	assert_int_equal(hvpmu_sv_nevents(s.sv), HVPMU_SV_MAX_EVENTS);
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 64), HVPMU_ERANGE);
	assert_int_equal(hvpmu_sv_stop_strand(s.sv, 64), HVPMU_ERANGE);
	assert_int_equal(hvpmu_sv_stop_strand(s.sv, 1), HVPMU_OK); /* never started */
	/* strand 10 belongs to no guest, so not to the driver's: refused
	 * before any hypercall, and the events stay as they were */
	assert_int_equal(hvpmu_sv_start_strand(s.sv, 10), HVPMU_ERANGE);
	assert_int_equal(hvpmu_sv_last_status(s.sv), HV_EOK);
	assert_int_equal(read_ev(&s, ld).supported, 1);
	assert_int_equal(hvpmu_machine_mode(s.m, 10), HVPMU_MODE_USER);
	assert_int_equal(hvpmu_machine_tick(s.m, 10), 0);
	sim_fini(&s);
}

/* --- machine API edges ---------------------------------------------------- */

static void test_machine_api(void **state)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	uint64_t v;

	(void)state;
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), HVPMU_OK);
	assert_int_equal(hvpmu_md_nstrands(&md), 64);
	assert_int_equal(hvpmu_machine_create(NULL, &m), HVPMU_EINVAL);
	assert_int_equal(hvpmu_machine_create(&md, NULL), HVPMU_EINVAL);
	md.chips = 0;
	assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_EINVAL);
	assert_int_equal(hvpmu_md_default(HVPMU_PLATFORM_T4, &md), HVPMU_OK);
	assert_int_equal(hvpmu_machine_create(&md, &m), HVPMU_OK);
	assert_int_equal(hvpmu_machine_nstrands(m), 64);
	assert_null(hvpmu_machine_activity(m, 64));
	assert_null(hvpmu_machine_pmu(m, 64));
	assert_int_equal(hvpmu_machine_sync(m, 64, NULL, NULL), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_set_mode(m, 64, HVPMU_MODE_PRIV), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_NMODES), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_add_cycles(m, 0, HVPMU_NMODES, 1), HVPMU_ERANGE);
	/* next_check starts at "never" */
	assert_int_equal(hvpmu_machine_activity(m, 0)->next_check, UINT64_MAX);
	/* classes: interned once each, 64 at most */
	assert_int_equal(hvpmu_machine_class(m, HVPMU_IC_LOAD), 0);
	assert_int_equal(hvpmu_machine_class(m, HVPMU_IC_OTHER), 1);
	assert_int_equal(hvpmu_machine_class(m, HVPMU_IC_LOAD), 0);
	for (uint32_t k = 2; k < HVPMU_MAX_ICLASS; k++)
		assert_int_equal(hvpmu_machine_class(m, HVPMU_IC_OTHER | (k << 16)), (int)k);
	assert_int_equal(hvpmu_machine_class(m, HVPMU_IC_STORE), HVPMU_EFULL);
	assert_int_equal(hvpmu_machine_class_flags(m, 0), HVPMU_IC_LOAD);
	assert_int_equal(hvpmu_machine_class_flags(m, HVPMU_MAX_ICLASS), 0);
	/* ASI access: PCRs hyperprivileged only; other ASIs / VAs out of range */
	assert_int_equal(hvpmu_machine_ldxa(m, 0, HVPMU_T4_ASI_PCR, 0, &v), HVPMU_ETRAP);
	assert_int_equal(hvpmu_machine_stxa(m, 0, HVPMU_T4_ASI_PCR, 8, 0), HVPMU_ETRAP);
	assert_int_equal(hvpmu_machine_ldxa(m, 0, HVPMU_T4_ASI_PIC, 0x18, &v), HVPMU_OK);
	assert_int_equal(hvpmu_machine_ldxa(m, 0, HVPMU_T4_ASI_PIC, 0x20, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_ldxa(m, 0, HVPMU_T4_ASI_PIC, 0x4, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_ldxa(m, 0, 0x80, 0, &v), HVPMU_ERANGE);
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_HYPER), HVPMU_OK);
	assert_int_equal(hvpmu_machine_stxa(m, 0, HVPMU_T4_ASI_PCR, 0x10, ~UINT64_C(0)), HVPMU_OK);
	assert_int_equal(hvpmu_machine_ldxa(m, 0, HVPMU_T4_ASI_PCR, 0x10, &v), HVPMU_OK);
	assert_int_equal(v, HVPMU_T4_PCR_IMPL_MASK & ~HVPMU_T4_PCR_STICKY_MASK);
	/* picnht now set on PCR2: privileged PIC2 access traps */
	assert_int_equal(hvpmu_machine_set_mode(m, 0, HVPMU_MODE_PRIV), HVPMU_OK);
	assert_int_equal(hvpmu_machine_ldxa(m, 0, HVPMU_T4_ASI_PIC, 0x10, &v), HVPMU_ETRAP);
	assert_int_equal(hvpmu_machine_ldxa(m, 0, HVPMU_T4_ASI_PIC, 0x08, &v), HVPMU_OK);
	hvpmu_machine_destroy(m);
	hvpmu_machine_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_exact_counts, teardown),
		cmocka_unit_test(test_resume_catches_up),
		cmocka_unit_test_teardown(test_resume_counts_no_cycles, teardown),
		cmocka_unit_test_teardown(test_counts_extend_past_wrap, teardown),
		cmocka_unit_test_teardown(test_precise_trap_pc, teardown),
		cmocka_unit_test_teardown(test_precise_two_pcs_in_one_block, teardown),
		cmocka_unit_test_teardown(test_precise_trap_pc_every_position, teardown),
		cmocka_unit_test_teardown(test_multiplex_six_events, teardown),
		cmocka_unit_test_teardown(test_four_events_no_multiplexing, teardown),
		cmocka_unit_test_teardown(test_unsupported_event_takes_no_pic, teardown),
		cmocka_unit_test_teardown(test_timer_only_in_user_mode, teardown),
		cmocka_unit_test(test_machine_tick_compare),
		cmocka_unit_test_teardown(test_budget_same_as_every_sync, teardown),
		cmocka_unit_test_teardown(test_privileged_cycles, teardown),
		cmocka_unit_test_teardown(test_hyper_cycles_need_htaccess, teardown),
		cmocka_unit_test_teardown(test_determinism, teardown),
		cmocka_unit_test_teardown(test_read_sums_stopped_strands, teardown),
		cmocka_unit_test_teardown(test_fold_and_strand_share, teardown),
		cmocka_unit_test_teardown(test_sv_api, teardown),
		cmocka_unit_test(test_machine_api),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
