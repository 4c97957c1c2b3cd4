/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_hypercall.c - libFuzzer target for the sun4v trap dispatcher
 * (src/services/sun4v.c): FAST_TRAP 0x80 and CORE_TRAP 0xff with arbitrary %o0-%o5
 * on one hypervisor, interleaved with machine activity that makes the PICs
 * the guest programs wrap and trap.
 *
 * The input picks the machine description (perfctraccess, perfctrhtaccess,
 * one or two guests), then a sequence of operations; each trap is issued
 * in a mode the input picks (user, privileged, hyperprivileged: bits 7:3
 * of the operation byte, 0 = privileged).  Invariants, from
 * ../shared/reference/hw-and-hypervisor.md §2 / §4, the Tcc rules of
 * docs/sun4v-hypervisor.md "Who reaches the hypervisor" and
 * sparc-t4-performance-instrumentation.md TABLE 10-1, abort on violation:
 *   - hvpmu_hv_trap() services the trap (HVPMU_OK) exactly when the strand
 *     exists, is not in user mode and the 8-bit trap number is 0x80-0xff;
 *     a strand past the last gives HVPMU_ERANGE, every other trap
 *     HVPMU_ETRAP with %o0-%o5 untouched; the wrappers return
 *     HVPMU_HV_ETRAP / HVPMU_HV_ERANGE then, and only then;
 *   - the guest OS's handler sees only tt 0x4e, 0x4f and, for a trap that
 *     is not a hypercall, 0x100 + the number (7 bits in user mode), with
 *     the strand in privileged mode;
 *   - every status in %o0 is a sun4v status (<= ECHANNEL 16);
 *   - %o3..%o5 are preserved by every call, %o2 except by a successful
 *     API_GET_VERSION, %o1 except by the calls that return it;
 *   - the strand's mode is restored after the trap;
 *   - a PCR read back through VT_GET_PERFREG has bits 63:19 clear, an MCU
 *     DRAM_PERF_CTL_REG bits 63:16 (TABLE 10-4);
 *   - VT ids past the last MCU's registers never succeed;
 *   - a successful VT_SET_PERFREG followed by VT_GET_PERFREG gives the
 *     written value in every PCR field but ov and ntc, every MCU count
 *     register bit (nothing feeds the MCUs here), and the DRAM_PERF_CTL_REG
 *     sel fields of the guest's own counter groups (docs/sun4v-hypervisor.md).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hvpmu/hvpmu.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OP_HCALL_FAST, OP_HCALL_CORE, OP_HCALL_RAW, OP_VT_PAIR, OP_RUN, OP_CYCLES, OP_MODE, OP_SYNC, N_OPS };

/* Function numbers and groups worth hitting often. */
static const uint64_t fast_fns[] = { HV_FAST_VT_GET_PERFREG, HV_FAST_VT_SET_PERFREG, 0x100, 0x104, 0x186, 0 };
static const uint64_t core_fns[] = { HV_CORE_SET_VER, HV_CORE_GET_VER, 0x01, 0x02 };
static const uint64_t groups[] = { HV_GRP_SUN4V, HV_GRP_CORE, HV_GRP_VT_CPU, 0x0202, 0x0200 };
static const uint64_t specials[] = { 0, 1, 2, 3, 4, 5, 6, 9, 99, UINT64_C(0x100000000), ~UINT64_C(0),
				     (uint64_t)-4, UINT64_C(0x8000000000000000) };

/* A PCR value: often a sensible one, sometimes anything. */
static uint64_t pcr_value(struct in *in)
{
	uint8_t t = u8(in);
	uint64_t v;

	if (t & 0x80)
		return u64(in);
	v = HVPMU_FDP(0, T4_PCR, SL, (t & 1) ? 26u : (t & 2) ? 4u : 3u);
	v = HVPMU_FDP(v, T4_PCR, MASK, u8(in));
	v = HVPMU_FDP(v, T4_PCR, UT, (t >> 2) & 1);
	v = HVPMU_FDP(v, T4_PCR, ST, (t >> 3) & 1);
	v = HVPMU_FDP(v, T4_PCR, HT, (t >> 4) & 1);
	v = HVPMU_FDP(v, T4_PCR, TOE, (t >> 5) & 1);
	v = HVPMU_FDP(v, T4_PCR, OV, (t >> 6) & 1);
	return v;
}

/* An argument register: small, a group, a special value, a PCR value or raw. */
static uint64_t arg(struct in *in)
{
	uint8_t t = u8(in);

	switch (t & 7) {
	case 0: return t >> 3;
	case 1: return groups[(t >> 3) % (sizeof groups / sizeof groups[0])];
	case 2: return specials[(t >> 3) % (sizeof specials / sizeof specials[0])];
	case 3: return pcr_value(in);
	default: return u64(in);
	}
}

struct ctx {
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	int depth;
	unsigned traps;
	unsigned expect_tt; /* tt of the software trap being issued, 0 if none */
	unsigned sw_traps;  /* software traps the guest OS received */
};

/* The mode a trap is issued in: bits 7:3 of the operation byte, so that
 * the plain operation codes (and the seed corpus) trap from privileged
 * mode, where hypercalls come from. */
static enum hvpmu_mode op_mode(uint8_t op)
{
	return (enum hvpmu_mode)(((op >> 3) % HVPMU_NMODES + HVPMU_MODE_PRIV) % HVPMU_NMODES);
}

static void set_mode(struct ctx *x, uint32_t strand, enum hvpmu_mode mode)
{
	if (strand < hvpmu_machine_nstrands(x->m) && hvpmu_machine_set_mode(x->m, strand, mode))
		abort();
}

/* A wrapper's result: a sun4v status when the hypervisor serviced the
 * call, else the library's answer for a strand that is not privileged or
 * does not exist. */
static void check_wrapper_status(struct ctx *x, uint32_t strand, enum hvpmu_mode mode, uint64_t st)
{
	if (strand >= hvpmu_machine_nstrands(x->m)) {
		if (st != HVPMU_HV_ERANGE)
			abort();
	} else if (mode == HVPMU_MODE_USER) {
		if (st != HVPMU_HV_ETRAP)
			abort();
	} else if (st > HV_ECHANNEL) {
		abort();
	}
}

/* VT perf-register ids: PCRs, then 3 per MCU (hvpmu/sun4v.h). */
static uint64_t vt_nregs(struct hvpmu_machine *m)
{
	return HV_VT_PERFREG_MCU0 + (uint64_t)HV_VT_PERFREG_PER_MCU * hvpmu_machine_nmcu(m);
}

static int is_mcu_ctl(uint64_t reg)
{
	return reg >= HV_VT_PERFREG_MCU0 && (reg - HV_VT_PERFREG_MCU0) % HV_VT_PERFREG_PER_MCU == HVPMU_T4_MCU_CTL;
}

/* The guest that owns `strand`, or NULL. */
static const struct hvpmu_md_guest *owner(struct ctx *x, uint32_t strand)
{
	const struct hvpmu_md *md = hvpmu_machine_md(x->m);

	for (unsigned g = 0; g < md->nguests; g++) {
		const struct hvpmu_md_guest *gu = &md->guests[g];

		if (strand >= gu->first_strand && strand - gu->first_strand < gu->nstrands)
			return gu;
	}
	return NULL;
}

/* DRAM_PERF_CTL_REG fields the guest owning `strand` may write. */
static uint64_t own_ctl_fields(struct ctx *x, uint32_t strand)
{
	const struct hvpmu_md_guest *gu = owner(x, strand);
	int64_t grp;

	if (!gu)
		return 0;
	grp = gu->dram_counter_group;
	if (grp == HVPMU_MD_PROP_ABSENT)
		return 0;
	return ((grp & HVPMU_MD_DRAM_GROUP_OS) ? HVPMU_T4_DRAM_CTL_GROUP01_MASK : 0) |
	       ((grp & HVPMU_MD_DRAM_GROUP_PM) ? HVPMU_T4_DRAM_CTL_GROUP23_MASK : 0);
}

/* Guest OS trap handler: as Linux's overflow handler, read each PCR that
 * overflowed and rewrite it with ov cleared, through the hypercalls. */
static void guest_trap(void *c, const struct hvpmu_guest_trap *t)
{
	struct ctx *x = c;

	if (hvpmu_machine_mode(x->m, t->strand) != HVPMU_MODE_PRIV)
		abort();
	if (t->tt >= HV_TT_TRAP_INSTRUCTION) { /* a software trap: only the one issued */
		if (t->tt != x->expect_tt || t->pic_mask)
			abort();
		x->sw_traps++;
		return;
	}
	if (t->tt != HV_TT_INTERRUPT_LEVEL_14 && t->tt != HV_TT_INTERRUPT_LEVEL_15)
		abort();
	x->traps++;
	if (x->depth++ > 2 || x->traps > 10000) {
		x->depth--;
		return;
	}
	for (unsigned p = 0; p < HVPMU_T4_NPIC; p++) {
		uint64_t v = 0;

		if (!(t->pic_mask & (1u << p)))
			continue;
		if (hvpmu_hv_vt_get_perfreg(x->hv, t->strand, p, &v) == HV_EOK)
			hvpmu_hv_vt_set_perfreg(x->hv, t->strand, p, v & ~HVPMU_T4_PCR_STICKY_MASK);
	}
	x->depth--;
}

static void check_call(struct ctx *x, uint32_t strand, enum hvpmu_mode mode, unsigned trapnum,
		       const struct hvpmu_hv_regs *in_r)
{
	struct hvpmu_hv_regs r = *in_r;
	enum hvpmu_mode before;
	unsigned num, sw_before = x->sw_traps;
	uint64_t st;
	int core_get, core_set, vt_get, rc;

	set_mode(x, strand, mode);
	before = hvpmu_machine_mode(x->m, strand);
	num = hvpmu_hv_tcc_trapnum(before, trapnum);
	x->expect_tt = hvpmu_hv_tcc_tt(before, trapnum);
	rc = hvpmu_hv_trap(x->hv, strand, trapnum, &r);
	x->expect_tt = 0;
	if (strand >= hvpmu_machine_nstrands(x->m)) {
		if (rc != HVPMU_ERANGE || memcmp(&r, in_r, sizeof r))
			abort();
		return;
	}
	if (hvpmu_machine_mode(x->m, strand) != before)
		abort();
	if (num < HV_TRAPNUM_HV_FIRST) { /* trap_instruction: the guest OS's */
		if (rc != HVPMU_ETRAP || memcmp(&r, in_r, sizeof r))
			abort();
		/* delivered to the strand's guest OS, unless it trapped from
		 * hyperprivileged mode (every guest here has a handler) */
		if (x->sw_traps != sw_before + (before != HVPMU_MODE_HYPER && owner(x, strand)))
			abort();
		return;
	}
	if (rc != HVPMU_OK || before == HVPMU_MODE_USER || x->sw_traps != sw_before)
		abort();
	st = r.o[0];
	if (st > HV_ECHANNEL)
		abort();
	if (r.o[3] != in_r->o[3] || r.o[4] != in_r->o[4] || r.o[5] != in_r->o[5])
		abort();
	core_get = num == HV_CORE_TRAP && in_r->o[5] == HV_CORE_GET_VER && st == HV_EOK;
	core_set = num == HV_CORE_TRAP && in_r->o[5] == HV_CORE_SET_VER && st == HV_EOK;
	vt_get = num == HV_FAST_TRAP && in_r->o[5] == HV_FAST_VT_GET_PERFREG && st == HV_EOK;
	if (!core_get && r.o[2] != in_r->o[2])
		abort();
	if (!core_get && !core_set && !vt_get && r.o[1] != in_r->o[1])
		abort();
	if (vt_get && in_r->o[0] < HV_VT_PERFREG_NPCR && (r.o[1] & ~HVPMU_T4_PCR_IMPL_MASK))
		abort();
	if (vt_get && is_mcu_ctl(in_r->o[0]) && (r.o[1] & ~HVPMU_T4_DRAM_CTL_IMPL_MASK))
		abort();
	if (core_get && (r.o[1] != 1 || r.o[2] > 6))
		abort();
	if (core_set && r.o[1] > in_r->o[2])
		abort();
	if (st == HV_EOK && num == HV_FAST_TRAP && in_r->o[0] >= vt_nregs(x->m))
		abort();
}

/* VT_SET_PERFREG then VT_GET_PERFREG: fields other than ov/ntc read back;
 * MCU registers per their own rules. */
static void check_vt_pair(struct ctx *x, uint32_t strand, enum hvpmu_mode mode, uint64_t reg, uint64_t val)
{
	uint64_t got = 0, st;
	uint64_t keep = HVPMU_T4_PCR_IMPL_MASK & ~HVPMU_T4_PCR_STICKY_MASK;
	uint64_t impl = HVPMU_T4_PCR_IMPL_MASK;

	set_mode(x, strand, mode);
	mode = hvpmu_machine_mode(x->m, strand);
	/* a user-mode `ta 0x80` reaches the guest OS as tt 0x100 */
	x->expect_tt = hvpmu_hv_tcc_tt(mode, HV_FAST_TRAP);
	st = hvpmu_hv_vt_set_perfreg(x->hv, strand, reg, val);
	check_wrapper_status(x, strand, mode, st);
	if (st != HV_EOK) {
		x->expect_tt = 0;
		return;
	}
	if (hvpmu_hv_vt_get_perfreg(x->hv, strand, reg, &got) != HV_EOK)
		abort();
	x->expect_tt = 0;
	if (is_mcu_ctl(reg)) {
		keep = own_ctl_fields(x, strand);
		impl = HVPMU_T4_DRAM_CTL_IMPL_MASK;
	} else if (reg >= HV_VT_PERFREG_MCU0) {
		keep = impl = ~UINT64_C(0);
	}
	if ((got & keep) != (val & keep) || (got & ~impl))
		abort();
}

static void run_user(struct ctx *x, uint32_t strand, struct in *in, const uint8_t *cls, unsigned ncls)
{
	struct hvpmu_activity *act = hvpmu_machine_activity(x->m, strand);
	unsigned n = 1 + u8(in);
	unsigned k = cls[u8(in) % ncls];

	if (!act)
		return;
	act->icount[k] += n;
	act->bound += n;
	if (u8(in) & 1)
		act->taken_cond += 1;
	if (act->bound >= act->next_check || (u8(in) & 1))
		hvpmu_machine_sync(x->m, strand, NULL, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct hvpmu_md md;
	struct ctx x = { 0 };
	uint8_t cfg = u8(&in);
	static const int64_t prop[] = { HVPMU_MD_PROP_ABSENT, 0, 1, 42 };
	uint8_t cls[4];
	unsigned ncls = 0;
	const uint32_t flags[] = { HVPMU_IC_OTHER, HVPMU_IC_LOAD, HVPMU_IC_SPR | HVPMU_IC_NTC,
				   HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS };

	if (hvpmu_md_default(HVPMU_PLATFORM_T4, &md))
		abort();
	/* two cores keep each run cheap; strand numbers past them are tried too */
	md.cores_per_chip = 2;
	md.guests[0].nstrands = hvpmu_md_nstrands(&md);
	md.guests[0].perfctraccess = prop[cfg & 3];
	md.guests[0].perfctrhtaccess = prop[(cfg >> 2) & 3];
	if (cfg & 0x10) {
		/* two guests; a few strands owned by nobody */
		md.nguests = 2;
		md.guests[0].nstrands = 6;
		md.guests[1] = md.guests[0];
		md.guests[1].first_strand = 8;
		md.guests[1].nstrands = 8;
		md.guests[1].perfctraccess = prop[(cfg >> 5) & 3];
		/* none, OS, power management, both (hvpmu/md.h) */
		md.guests[1].dram_counter_group = (cfg >> 5) & 3;
	}
	md.timing.hcall_cycles = (cfg & 0x80) ? 0 : md.timing.hcall_cycles;
	if (hvpmu_machine_create(&md, &x.m))
		abort();
	if (hvpmu_hv_create(x.m, &x.hv))
		abort();
	for (unsigned g = 0; g < md.nguests; g++)
		hvpmu_hv_set_guest_trap_handler(x.hv, g, guest_trap, &x);
	for (unsigned i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		int c = hvpmu_machine_class(x.m, flags[i]);

		if (c < 0)
			abort();
		cls[ncls++] = (uint8_t)c;
	}

	for (unsigned ops = 0; in.n && ops < 1024; ops++) {
		uint8_t op = u8(&in);
		uint32_t strand = u8(&in) % (hvpmu_machine_nstrands(x.m) + 4);
		enum hvpmu_mode mode = op_mode(op);
		struct hvpmu_hv_regs r;

		switch (op % N_OPS) {
		case OP_HCALL_FAST:
			for (int i = 0; i < 5; i++)
				r.o[i] = arg(&in);
			r.o[5] = fast_fns[u8(&in) % (sizeof fast_fns / sizeof fast_fns[0])];
			check_call(&x, strand, mode, HV_FAST_TRAP, &r);
			break;
		case OP_HCALL_CORE:
			for (int i = 0; i < 5; i++)
				r.o[i] = arg(&in);
			r.o[5] = core_fns[u8(&in) % (sizeof core_fns / sizeof core_fns[0])];
			check_call(&x, strand, mode, HV_CORE_TRAP, &r);
			break;
		case OP_HCALL_RAW: {
			unsigned trapnum;

			for (int i = 0; i < 6; i++)
				r.o[i] = arg(&in);
			trapnum = u8(&in);
			if (trapnum & 1) /* operands past 8 bits: the Tcc masks them */
				trapnum |= (unsigned)u8(&in) << 8;
			check_call(&x, strand, mode, trapnum, &r);
			break;
		}
		case OP_VT_PAIR: {
			uint64_t reg = arg(&in);

			check_vt_pair(&x, strand, mode, reg, pcr_value(&in));
			break;
		}
		case OP_RUN:
			if (strand < hvpmu_machine_nstrands(x.m))
				run_user(&x, strand, &in, cls, ncls);
			break;
		case OP_CYCLES:
			hvpmu_machine_add_cycles(x.m, strand, (enum hvpmu_mode)(u8(&in) % HVPMU_NMODES),
						 (uint64_t)u8(&in) << (u8(&in) % 33));
			break;
		case OP_MODE:
			hvpmu_machine_set_mode(x.m, strand, (enum hvpmu_mode)(u8(&in) % (HVPMU_NMODES + 1)));
			break;
		case OP_SYNC: {
			uint64_t v = u64(&in);

			/* PIC access as guest code would do it, then a sync */
			if (u8(&in) & 1)
				hvpmu_machine_stxa(x.m, strand, HVPMU_T4_ASI_PIC, (v & 3) * 8, v >> 2);
			else
				hvpmu_machine_ldxa(x.m, strand, u8(&in), v & 0x3f, &v);
			hvpmu_machine_sync(x.m, strand, NULL, NULL);
			break;
		}
		}
	}
	hvpmu_hv_destroy(x.hv);
	hvpmu_machine_destroy(x.m);
	return 0;
}
