/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The example platform's PMU (hvpmu/example.h): two 32-bit counters,
 * retired instructions and retired loads, behind the machine's per-strand
 * PMU interface (hvpmu/pmu.h).
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/example.h>

struct example_pmu {
	const uint32_t *class_flags; /* the machine's class table (hvpmu/pmu.h create) */
	uint64_t ctl;                /* implemented bits only */
	uint32_t cnt[HVPMU_EXAMPLE_NCOUNTERS];
	uint32_t irq;                /* counters whose wrap requested the interrupt, not yet taken */
};

static void *pmu_create(const uint32_t *class_flags)
{
	struct example_pmu *p = class_flags ? calloc(1, sizeof *p) : NULL;

	if (p)
		p->class_flags = class_flags;
	return p;
}

static void pmu_destroy(void *p) { free(p); }
static void pmu_classes_changed(void *p) { (void)p; } /* the class table is read at each feed */

static int enabled(const struct example_pmu *p, unsigned c)
{
	return c == 0 ? (int)HVPMU_FEX(p->ctl, EXAMPLE_CTL, EN0) : (int)HVPMU_FEX(p->ctl, EXAMPLE_CTL, EN1);
}

/* Count what the strand retired in f->mode; a wrap sets OVn and, with IE,
 * requests the level-15 interrupt (disrupting, TPC the next instruction). */
static void pmu_feed(void *pp, const struct hvpmu_pmu_feed *f, struct hvpmu_pmu_feed_result *r)
{
	struct example_pmu *p = pp;
	uint64_t n[HVPMU_EXAMPLE_NCOUNTERS] = { 0, 0 };
	static const uint64_t ov[HVPMU_EXAMPLE_NCOUNTERS] = { HVPMU_FMASK(EXAMPLE_CTL, OV0),
							       HVPMU_FMASK(EXAMPLE_CTL, OV1) };

	memset(r, 0, sizeof *r);
	if (f->mode == HVPMU_MODE_USER ? HVPMU_FEX(p->ctl, EXAMPLE_CTL, UT)
	    : f->mode == HVPMU_MODE_PRIV ? HVPMU_FEX(p->ctl, EXAMPLE_CTL, ST) : 0) {
		for (uint64_t bits = f->dclass ? f->dclass_nonzero : 0; bits; bits &= bits - 1) {
			unsigned k = (unsigned)__builtin_ctzll(bits);

			n[0] += f->dclass[k];
			if (p->class_flags[k] & HVPMU_IC_LOAD)
				n[1] += f->dclass[k];
		}
		for (unsigned c = 0; c < HVPMU_EXAMPLE_NCOUNTERS; c++) {
			uint64_t v = (uint64_t)p->cnt[c] + n[c];

			if (!enabled(p, c) || !n[c])
				continue;
			p->cnt[c] = (uint32_t)v;
			if (v >= HVPMU_EXAMPLE_WRAP) {
				p->ctl |= ov[c];
				r->ovf_mask |= 1u << c;
			}
		}
	}
	if (r->ovf_mask && HVPMU_FEX(p->ctl, EXAMPLE_CTL, IE))
		p->irq |= r->ovf_mask;
	r->disrupt_mask = p->irq;
}

static void pmu_trap_taken(void *p) { ((struct example_pmu *)p)->irq = 0; }

/* Counter 0 counts every instruction, counter 1 at most every one: the
 * nearest wrap is at least this many user instructions away. */
static uint64_t pmu_headroom(const void *pp, uint64_t max_cycles_per_insn)
{
	const struct example_pmu *p = pp;
	uint64_t best = UINT64_MAX;

	(void)max_cycles_per_insn;
	if (!HVPMU_FEX(p->ctl, EXAMPLE_CTL, UT))
		return UINT64_MAX;
	for (unsigned c = 0; c < HVPMU_EXAMPLE_NCOUNTERS; c++)
		if (enabled(p, c) && HVPMU_EXAMPLE_WRAP - p->cnt[c] < best)
			best = HVPMU_EXAMPLE_WRAP - p->cnt[c];
	return best;
}

static uint64_t pmu_mem_headroom(const void *p) { (void)p; return UINT64_MAX; } /* no memory events */
static uint64_t pmu_mem_watch(const void *p) { (void)p; return 0; }

/* RDASR/WRASR of CTL, CNT0, CNT1: privileged only. */
static int pmu_reg(struct example_pmu *p, enum hvpmu_reg_space sp, unsigned asr, enum hvpmu_mode mode,
		   uint64_t **ctl, uint32_t **cnt)
{
	if (sp != HVPMU_REG_ASR || asr < HVPMU_EXAMPLE_ASR_CTL || asr > HVPMU_EXAMPLE_ASR_CNT1)
		return HVPMU_ERANGE;
	if (mode == HVPMU_MODE_USER)
		return HVPMU_ETRAP;
	*ctl = asr == HVPMU_EXAMPLE_ASR_CTL ? &p->ctl : NULL;
	*cnt = asr == HVPMU_EXAMPLE_ASR_CTL ? NULL : &p->cnt[asr - HVPMU_EXAMPLE_ASR_CNT0];
	return HVPMU_OK;
}

static int pmu_reg_read(void *p, enum hvpmu_reg_space sp, unsigned asr, uint64_t addr, enum hvpmu_mode mode,
			uint64_t *val)
{
	uint64_t *ctl;
	uint32_t *cnt;
	int rc = pmu_reg(p, sp, asr, mode, &ctl, &cnt);

	(void)addr;
	if (rc == HVPMU_OK)
		*val = ctl ? *ctl : *cnt;
	return rc;
}

static int pmu_reg_write(void *p, enum hvpmu_reg_space sp, unsigned asr, uint64_t addr, enum hvpmu_mode mode,
			 uint64_t val)
{
	uint64_t *ctl;
	uint32_t *cnt;
	int rc = pmu_reg(p, sp, asr, mode, &ctl, &cnt);

	(void)addr;
	if (rc == HVPMU_OK && ctl)
		*ctl = val & HVPMU_EXAMPLE_CTL_MASK;
	else if (rc == HVPMU_OK)
		*cnt = (uint32_t)val;
	return rc;
}

const struct hvpmu_pmu_ops hvpmu_example_pmu_ops = {
	.name = "example",
	.npic = HVPMU_EXAMPLE_NCOUNTERS,
	.create = pmu_create,
	.destroy = pmu_destroy,
	.classes_changed = pmu_classes_changed,
	.feed = pmu_feed,
	.trap_taken = pmu_trap_taken,
	.headroom = pmu_headroom,
	.mem_headroom = pmu_mem_headroom,
	.mem_watch = pmu_mem_watch,
	.reg_read = pmu_reg_read,
	.reg_write = pmu_reg_write,
};
