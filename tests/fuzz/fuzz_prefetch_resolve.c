/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_prefetch_resolve.c - libFuzzer target for the software-prefetch
 * address recovery rule (hvpmu_prefetch_resolve, src/model/prefetch.c;
 * docs/prefetch-model.md) and hvpmu_sparc_operands.
 *
 * The input is a translation block of big-endian instruction words.  For
 * every word: %g0 is never written; and for every prefetch, a donor link
 * must name a donor of the same base register set on the right side, with
 * no write to the base in between and the delta of the immediates, or
 * the target aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "hvpmu/prefetch.h"
#include "hvpmu/sparc_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { WORD_BYTES = 4, MAX_WORDS = 512 };

/* Base registers (bit mask) and offset of an address form. */
static uint32_t base_of(const struct hvpmu_sparc_operands *o, int64_t *off)
{
	uint32_t m = 1u << o->rs1;

	*off = o->form == HVPMU_SA_IMM ? o->simm13 : 0;
	if (o->form == HVPMU_SA_REG)
		m |= 1u << o->rs2;
	return m & ~1u;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t w[MAX_WORDS];
	uint32_t n = 0;

	for (size_t k = 0; k + WORD_BYTES <= size && n < MAX_WORDS; k += WORD_BYTES)
		w[n++] = (uint32_t)data[k] << 24 | (uint32_t)data[k + 1] << 16 | (uint32_t)data[k + 2] << 8 | data[k + 3];
	for (uint32_t i = 0; i < n; i++) {
		struct hvpmu_sparc_operands p, d, o;
		struct hvpmu_pf_link l;
		int64_t poff, doff;
		uint32_t pb, lo, hi;

		hvpmu_sparc_operands(w[i], &p);
		if (p.writes & 1u)
			abort();
		if (hvpmu_prefetch_resolve(w, n, i, &l) != l.how)
			abort();
		if (!p.prefetch) {
			if (l.how != HVPMU_PF_UNRESOLVED)
				abort();
			continue;
		}
		if (hvpmu_prefetch_dest(p.fcn) > HVPMU_PF_L2)
			abort();
		pb = base_of(&p, &poff);
		if (l.how == HVPMU_PF_ABSOLUTE && (pb != 0 || l.delta != poff))
			abort();
		if (l.how != HVPMU_PF_BEFORE && l.how != HVPMU_PF_AFTER)
			continue;
		if (l.donor >= n || (l.how == HVPMU_PF_BEFORE) != (l.donor < i) || l.donor == i)
			abort();
		hvpmu_sparc_operands(w[l.donor], &d);
		if (!d.donor || base_of(&d, &doff) != pb || pb == 0 || l.delta != poff - doff)
			abort();
		/* no base write in between: [donor, i) or (i, donor) */
		lo = l.how == HVPMU_PF_BEFORE ? l.donor : i + 1;
		hi = l.how == HVPMU_PF_BEFORE ? i : l.donor;
		for (uint32_t k = lo; k < hi; k++) {
			hvpmu_sparc_operands(w[k], &o);
			if (o.writes & pb)
				abort();
		}
	}
	return 0;
}
