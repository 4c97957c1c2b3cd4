/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_power7_pmu.c - libFuzzer target for the POWER7 core performance
 * monitor (src/pmu/power7_pmu.c, hvpmu/power7_pmu.h, docs/power7-pmu.md):
 * a sequence of mfspr / mtspr of any SPR number in any state (the
 * performance-monitor SPRs and their user aliases most of the time, any
 * 10-bit number otherwise), feeds of any classes, cycles, mispredicts and
 * memory events in any mode, and the machine's questions (headroom).
 * Invariants (abort on violation):
 *   - an access returns HVPMU_OK, HVPMU_ETRAP or HVPMU_ERANGE; a
 *     privileged number from problem state and any write of a user alias
 *     trap; a number outside 770-782, 786-792, 795, 798 is HVPMU_ERANGE;
 *   - a PMC reads back what was written, masked to 32 bits; MMCR0 to bits
 *     31:0; MMCR1 and MMCRA whole; a user alias reads its register;
 *   - a feed never changes a PMC while FC was set at its start (and
 *     PMC5/6 not under FC56), and never clears PMAO; PMAE and PMAO are
 *     never both set after an alert; a request (irq_mask) exists exactly
 *     while PMAO is set;
 *   - a feed of fewer problem-state instructions than headroom(k), with
 *     at most k cycles each and no memory events, raises no alert.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hvpmu/hvpmu.h>
#include <hvpmu/pmu.h>
#include <hvpmu/power7_pmu.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NCLS 8
static const uint32_t flags_init[NCLS] = {
	HVPMU_IC_LOAD, HVPMU_IC_STORE, HVPMU_IC_FP, HVPMU_IC_BRANCH | HVPMU_IC_CTI_COND,
	HVPMU_IC_BRANCH | HVPMU_IC_CTI_ALWAYS, HVPMU_IC_OTHER, HVPMU_IC_SPR, HVPMU_IC_STORE | HVPMU_IC_STORE_COND,
};
static uint32_t class_flags[HVPMU_MAX_ICLASS];

static const unsigned sprs[] = { 770, 771, 772, 773, 774, 775, 776, 779, 782, 780, 781, 786, 787, 788,
				 789, 790, 791, 792, 795, 798 };
#define NSPRS (sizeof sprs / sizeof sprs[0])

static int is_alias(unsigned spr) { return spr >= 770 && spr <= 782 && spr != 780 && spr != 781; }
static int is_ours(unsigned spr)
{
	unsigned r = is_alias(spr) ? spr + 16 : spr;

	return r == 780 || r == 781 || r == 786 || (r >= 787 && r <= 792) || r == 795 || r == 798;
}

static void check(int ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct hvpmu_power7_pmu *p;
	uint64_t shadow[800] = { 0 }; /* by the privileged SPR number */

	memcpy(class_flags, flags_init, sizeof flags_init);
	p = hvpmu_power7_pmu_create(class_flags);
	if (!p)
		return 0;
	for (int step = 0; step < 256 && in.n; step++) {
		uint8_t op = u8(&in);
		enum hvpmu_mode mode = (enum hvpmu_mode)(u8(&in) % 3);
		unsigned spr = (op & 0x80) ? (unsigned)(u16(&in) & 0x3ff) : sprs[u8(&in) % NSPRS];
		unsigned reg = is_alias(spr) ? spr + 16 : spr;
		uint64_t v = 0;
		int rc;

		switch (op & 3) {
		case 0: /* mtspr */
			v = u64(&in);
			rc = hvpmu_power7_write(p, mode, spr, v);
			check(rc == HVPMU_OK || rc == HVPMU_ETRAP || rc == HVPMU_ERANGE);
			check((rc == HVPMU_ERANGE) == !is_ours(spr));
			if (rc == HVPMU_ERANGE)
				break;
			check((rc == HVPMU_ETRAP) == (is_alias(spr) || mode == HVPMU_MODE_USER));
			if (rc == HVPMU_OK)
				shadow[reg] = reg >= 787 && reg <= 792 ? v & 0xffffffffu
					      : reg == 795		   ? v & 0xffffffffu
					      : reg == 780 || reg == 781 ? 0
									   : v;
			break;
		case 1: /* mfspr */
			rc = hvpmu_power7_read(p, mode, spr, &v);
			check(rc == HVPMU_OK || rc == HVPMU_ETRAP || rc == HVPMU_ERANGE);
			check((rc == HVPMU_ERANGE) == !is_ours(spr));
			if (rc == HVPMU_ERANGE)
				break;
			check((rc == HVPMU_ETRAP) == (!is_alias(spr) && mode == HVPMU_MODE_USER));
			if (rc == HVPMU_OK)
				check(v == shadow[reg]);
			break;
		default: { /* a feed */
			uint64_t dclass[HVPMU_MAX_ICLASS] = { 0 };
			struct hvpmu_pmu_feed f;
			struct hvpmu_power7_feed_result r;
			uint64_t k = 1 + u8(&in) % 8, h = hvpmu_power7_pmu_headroom(p, k), n = 0;
			uint64_t mmcr0 = hvpmu_power7_pmu_peek_spr(p, 795), before[7], after;
			int small = (op & 4) != 0;

			memset(&f, 0, sizeof f);
			f.dclass = dclass;
			f.mode = small ? HVPMU_MODE_USER : mode;
			for (unsigned c = 0; c < NCLS; c++) {
				dclass[c] = small ? u8(&in) % 4 : u64(&in) >> (u8(&in) % 64);
				n += dclass[c];
				if (dclass[c])
					f.dclass_nonzero |= UINT64_C(1) << c;
			}
			if (small) {
				f.dcycles[HVPMU_MODE_USER] = n * k;
				f.dtaken_cond = dclass[3];
				f.dmispred[0] = dclass[3];
			} else {
				for (int md = 0; md < HVPMU_NMODES; md++)
					f.dcycles[md] = u64(&in) >> (u8(&in) % 64);
				f.dtaken_cond = u16(&in);
				for (int i = 0; i < HVPMU_NMISPRED; i++)
					f.dmispred[i] = u8(&in);
				for (int i = 0; i < 4; i++)
					f.dmev[u8(&in) % HVPMU_NMEV] = u16(&in);
			}
			f.next_pc = u64(&in);
			for (unsigned i = 1; i <= 6; i++)
				before[i] = hvpmu_power7_pmu_peek_pmc(p, i);
			hvpmu_power7_pmu_feed(p, &f, &r);
			after = hvpmu_power7_pmu_peek_spr(p, 795);
			for (unsigned i = 1; i <= 6; i++) {
				if ((mmcr0 & 0x80000000u) || (i >= 5 && (mmcr0 & 0x10)))
					check(hvpmu_power7_pmu_peek_pmc(p, i) == before[i]);
				shadow[786 + i] = hvpmu_power7_pmu_peek_pmc(p, i);
			}
			check(!(mmcr0 & 0x80) || (after & 0x80));
			if (r.alert_mask && (mmcr0 & 0x04000000u)) /* PMAE: cleared, PMAO set */
				check(!(after & 0x04000000u) && (after & 0x80));
			check(((after & 0x80) != 0) == (r.irq_mask != 0));
			check((after >> 32) == 0);
			/* the headroom counts the conditions that act (PMAE or
			 * FCECE set: 0x04000000, 0x02000000); one with neither
			 * changes nothing, and the machine need not sync for it */
			if (small && n < h && !(mmcr0 & 0x80) && (mmcr0 & 0x06000000u))
				check(r.alert_mask == 0);
			shadow[795] = after;
			break;
		}
		}
	}
	hvpmu_power7_pmu_destroy(p);
	return 0;
}
