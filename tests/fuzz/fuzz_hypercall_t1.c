/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the sun4v fast-trap / core-trap dispatcher on platform
 * t1, where API group 0x200 holds NIAGARA_GET/SET_PERFREG 0x100/0x101
 * (niagara-perf-api.txt) and NIAGARA_MMUSTAT_CONF/INFO 0x102/0x103
 * (niagara-mmustat-api.txt), interleaved with memory activity that makes
 * the hypervisor account TSB hits.  Bytes choose function numbers (every
 * one near the group's range and random ones), arguments, strands and the
 * machine-description properties, and the mode each trap is issued in
 * (user, privileged, hyperprivileged; a byte per step, 0 = privileged).
 * Invariants: the hypervisor services the trap exactly when the strand
 * exists, is not in user mode and the 8-bit trap number is 0x80-0xff
 * (SPARC V9 / UA2005 Tcc, docs/sun4v-hypervisor.md); any other trap
 * leaves %o0-%o5 untouched, and reaches the guest OS's handler as tt
 * 0x100 + number (7 bits in user mode) unless it came from
 * hyperprivileged mode; a user-mode trap changes neither a PerfReg
 * control register nor the MMU-statistics configuration.  For a serviced trap: the status is a
 * sun4v code (<= ECHANNEL); the strand's mode is restored; %o2..%o5 are
 * preserved and %o1 changes only as the function's result; a successful
 * CONF took an aligned address (or 0); a successful PERFREG access took
 * an id < 10, and control registers read back within their 8 bits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MMUSTAT_ALIGN 64
#define CTL_BITS 0xffu

static const uint64_t fns[] = { HV_FAST_NIAGARA_GET_PERFREG, HV_FAST_NIAGARA_SET_PERFREG,
				HV_FAST_NIAGARA_MMUSTAT_CONF, HV_FAST_NIAGARA_MMUSTAT_INFO,
				0xff, 0x104, HV_FAST_VT_GET_PERFREG, 0 };
static const uint64_t args[] = { 0, 1, 2, 3, 9, 10, 0x40, 0x100000, 0x100008, 0x10001c0,
				 (UINT64_C(256) << 20) - 0x200, (UINT64_C(256) << 20) - 0x100, ~UINT64_C(0) };

/* The guest OS's trap table: software traps it receives. */
struct os {
	struct hvpmu_machine *m;
	unsigned expect_tt, sw_traps;
};

static void os_trap(void *ctx, const struct hvpmu_guest_trap *t)
{
	struct os *o = ctx;

	if (hvpmu_machine_mode(o->m, t->strand) != HVPMU_MODE_PRIV)
		abort();
	if (t->tt < HV_TT_TRAP_INSTRUCTION)
		return; /* interrupt_level_14/15 */
	if (t->tt != o->expect_tt || t->pic_mask)
		abort();
	o->sw_traps++;
}

/* What a user-mode trap must not change: the PerfReg control registers
 * (the counters move with the DRAM and JBUS activity of the time that
 * passes), the vCPU's MMU-statistics buffer, the group's negotiation; as
 * the guest OS sees them (the status and the value of each query). */
struct snap {
	uint64_t perfreg_st[HVPMU_T1_NPERFREGS], perfreg[HVPMU_T1_NPERFREGS];
	uint64_t mmu_st, mmu_ra;
};

static void snapshot(struct hvpmu_hv *hv, struct hvpmu_machine *m, uint32_t strand, struct snap *s)
{
	enum hvpmu_mode mode = hvpmu_machine_mode(m, strand);

	memset(s, 0, sizeof *s);
	if (hvpmu_machine_set_mode(m, strand, HVPMU_MODE_PRIV))
		abort();
	for (unsigned i = 0; i < HVPMU_T1_NPERFREGS; i++)
		if (hvpmu_t1_perfreg_is_ctl(i))
			s->perfreg_st[i] = hvpmu_hv_niagara_get_perfreg(hv, strand, i, &s->perfreg[i]);
	s->mmu_st = hvpmu_hv_mmustat_info(hv, strand, &s->mmu_ra);
	if (hvpmu_machine_set_mode(m, strand, mode))
		abort();
}

/* Issue the trap in `mode` (hvpmu_hv_tcc_*(): the Tcc rules). */
static void check(struct hvpmu_hv *hv, struct hvpmu_machine *m, struct os *o, uint32_t strand,
		  enum hvpmu_mode mode, unsigned trapnum, const struct hvpmu_hv_regs *in_r)
{
	struct hvpmu_hv_regs r = *in_r;
	enum hvpmu_mode before;
	uint64_t st, fn = in_r->o[5];
	unsigned num, sw_before = o->sw_traps;
	struct snap s0 = { { 0 }, { 0 }, 0, 0 }, s1;
	int result_o1, rc;

	if (strand < hvpmu_machine_nstrands(m) && hvpmu_machine_set_mode(m, strand, mode))
		abort();
	before = hvpmu_machine_mode(m, strand);
	num = hvpmu_hv_tcc_trapnum(before, trapnum);
	if (strand < hvpmu_machine_nstrands(m))
		snapshot(hv, m, strand, &s0);
	o->expect_tt = hvpmu_hv_tcc_tt(before, trapnum);
	rc = hvpmu_hv_trap(hv, strand, trapnum, &r);
	o->expect_tt = 0;
	if (strand >= hvpmu_machine_nstrands(m)) {
		if (rc != HVPMU_ERANGE || memcmp(&r, in_r, sizeof r))
			abort();
		return;
	}
	if (hvpmu_machine_mode(m, strand) != before)
		abort();
	if (num < HV_TRAPNUM_HV_FIRST) { /* trap_instruction: the guest OS's */
		snapshot(hv, m, strand, &s1);
		if (rc != HVPMU_ETRAP || memcmp(&r, in_r, sizeof r) || memcmp(&s0, &s1, sizeof s0))
			abort();
		if (o->sw_traps != sw_before + (before != HVPMU_MODE_HYPER))
			abort();
		return;
	}
	if (rc != HVPMU_OK || before == HVPMU_MODE_USER || o->sw_traps != sw_before)
		abort();
	st = r.o[0];
	if (st > HV_ECHANNEL)
		abort();
	if (r.o[3] != in_r->o[3] || r.o[4] != in_r->o[4] || r.o[5] != in_r->o[5])
		abort();
	result_o1 = st == HV_EOK && ((num == HV_CORE_TRAP && (fn == HV_CORE_SET_VER || fn == HV_CORE_GET_VER)) ||
				      (num == HV_FAST_TRAP && (fn == HV_FAST_NIAGARA_GET_PERFREG ||
								fn == HV_FAST_NIAGARA_MMUSTAT_CONF ||
								fn == HV_FAST_NIAGARA_MMUSTAT_INFO)));
	if (!result_o1 && r.o[1] != in_r->o[1])
		abort();
	if (!(st == HV_EOK && num == HV_CORE_TRAP && fn == HV_CORE_GET_VER) && r.o[2] != in_r->o[2])
		abort();
	if (st != HV_EOK || num != HV_FAST_TRAP)
		return;
	if ((fn == HV_FAST_NIAGARA_GET_PERFREG || fn == HV_FAST_NIAGARA_SET_PERFREG) && in_r->o[0] >= HVPMU_T1_NPERFREGS)
		abort();
	if (fn == HV_FAST_NIAGARA_GET_PERFREG && hvpmu_t1_perfreg_is_ctl((unsigned)in_r->o[0]) && (r.o[1] & ~CTL_BITS))
		abort();
	if (fn == HV_FAST_NIAGARA_MMUSTAT_CONF && in_r->o[0] % MMUSTAT_ALIGN)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t prop[] = { HVPMU_MD_PROP_ABSENT, 0, 1, 42 };
	struct in in = { data, size };
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	struct hvpmu_hv *hv = NULL;
	struct os o = { 0 };
	uint8_t cfg = u8(&in);

	if (hvpmu_md_default(HVPMU_PLATFORM_T1, &md))
		abort();
	md.cores_per_chip = 1; /* 4 strands keep each run cheap */
	md.guests[0].nstrands = hvpmu_md_nstrands(&md);
	md.guests[0].perfctraccess = prop[cfg & 3];
	if (hvpmu_machine_create(&md, &m) || hvpmu_hv_create(m, &hv))
		abort();
	o.m = m;
	if (hvpmu_hv_set_guest_trap_handler(hv, 0, os_trap, &o))
		abort();
	hvpmu_machine_enable_memory(m, (cfg >> 2) & 1);
	for (unsigned step = 0; step < 64 && in.n; step++) {
		uint8_t op = u8(&in);
		uint32_t strand = u8(&in) % 6; /* past the last strand too */
		/* 0 = privileged, where hypercalls come from */
		enum hvpmu_mode mode = (enum hvpmu_mode)((u8(&in) % HVPMU_NMODES + HVPMU_MODE_PRIV) % HVPMU_NMODES);
		struct hvpmu_hv_regs r;

		for (int k = 0; k < 5; k++) {
			uint8_t sel = u8(&in);

			r.o[k] = sel < 0x80 ? args[sel % (sizeof args / sizeof args[0])] : u64(&in);
		}
		switch (op % 4) {
		case 0: /* fast trap */
			r.o[5] = (op & 0x80) ? u64(&in) : fns[(op >> 2) % (sizeof fns / sizeof fns[0])];
			check(hv, m, &o, strand, mode, HV_FAST_TRAP, &r);
			break;
		case 1: /* core trap: negotiate or query a group */
			r.o[5] = (op & 0x80) ? HV_CORE_GET_VER : HV_CORE_SET_VER;
			r.o[0] = (op & 0x40) ? HV_GRP_NIAGARA : r.o[0];
			check(hv, m, &o, strand, mode, HV_CORE_TRAP, &r);
			break;
		case 2: /* another trap number */
			r.o[5] = u8(&in);
			check(hv, m, &o, strand, mode, u8(&in), &r);
			break;
		default: /* memory activity: TLB walks, TSB hits, DRAM traffic */
			if (strand < hvpmu_machine_nstrands(m))
				hvpmu_machine_dref(m, strand, 0x1000, r.o[0] & UINT64_C(0xffffff8), 8,
						   HVPMU_IC_LOAD, (op >> 2) & 1);
			break;
		}
	}
	hvpmu_hv_destroy(hv);
	hvpmu_machine_destroy(m);
	return 0;
}
