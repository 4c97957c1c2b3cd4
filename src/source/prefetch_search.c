/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The donor search of a software prefetch, for every ISA: prefetch_search.h. */
#include "prefetch_search.h"

static int same_base(const struct pf_insn *p, const struct pf_insn *d)
{
	return d->has_addr && p->a == d->a && p->b == d->b;
}

/* Nearest earlier donor: walk back, the donor's own write counts
 * (`ldx [%o0], %o0` changes %o0 after its access). */
static int search_before(const struct pf_search_isa *isa, const uint32_t *words, uint32_t i, const struct pf_insn *p,
			 struct hvpmu_pf_link *out)
{
	struct pf_insn o;
	uint32_t written = 0;

	for (uint32_t j = i; j-- > 0;) {
		isa->decode(words[j], &o);
		written |= o.writes;
		if (written & p->regs)
			break;
		if (o.donor && same_base(p, &o)) {
			*out = (struct hvpmu_pf_link){ HVPMU_PF_BEFORE, j, p->off - o.off };
			return 1;
		}
	}
	return 0;
}

/* Nearest later donor: no write to the base strictly between, no CTI from
 * the prefetch on, except (slot_runs) the delay slot of one that is not
 * `likely`. */
static int search_after(const struct pf_search_isa *isa, const uint32_t *words, uint32_t n, uint32_t i,
			const struct pf_insn *p, struct hvpmu_pf_link *out)
{
	struct pf_insn o;
	uint32_t written = 0;

	if (p->cti)
		return 0;
	if (isa->slot_runs && i > 0) { /* a prefetch in a delay slot ends its block */
		isa->decode(words[i - 1], &o);
		if (o.cti)
			return 0;
	}
	for (uint32_t j = i + 1, last = n; j < n && j <= last; j++) {
		isa->decode(words[j], &o);
		if (o.donor && same_base(p, &o)) {
			*out = (struct hvpmu_pf_link){ HVPMU_PF_AFTER, j, p->off - o.off };
			return 1;
		}
		written |= o.writes;
		if (written & p->regs)
			break;
		if (o.cti) {
			if (!isa->slot_runs || o.likely || j == last) /* (a CTI in a delay slot: UNPREDICTABLE) */
				break;
			last = j + 1; /* the delay slot, then no more */
		}
	}
	return 0;
}

enum hvpmu_pf_how pf_search_donor(const struct pf_search_isa *isa, const uint32_t *words, uint32_t n, uint32_t i,
				  struct hvpmu_pf_link *out)
{
	struct pf_insn p;

	*out = (struct hvpmu_pf_link){ HVPMU_PF_UNRESOLVED, 0, 0 };
	if (!words || i >= n)
		return out->how;
	isa->decode(words[i], &p);
	if (!p.prefetch || !p.has_addr)
		return out->how;
	if (!p.regs) { /* [%g0 + simm13], [$0 + simm16]: the address is the immediate */
		out->how = HVPMU_PF_ABSOLUTE;
		out->delta = p.off;
		return out->how;
	}
	if (!search_before(isa, words, i, &p, out))
		search_after(isa, words, n, i, &p, out);
	return out->how;
}
