/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SPARC V9 software prefetches for the event source (hvpmu/prefetch.h,
 * docs/prefetch-model.md): the destination of each function code, and the
 * translation-time address recovery rule (QEMU 7.2 reports no memory
 * access for PREFETCH / PREFETCHA).  Reached through hvpmu_isa_sparcv9.
 */
#include <hvpmu/prefetch.h>
#include <hvpmu/sparc_decode.h>

/* SPARC V9 A.49 / Oracle SPARC Architecture 2011 prefetch function codes
 * (assembler names #n_reads .. #one_write_strong). */
enum {
	FCN_N_READS = 0x00, FCN_ONE_READ = 0x01, FCN_N_WRITES = 0x02, FCN_ONE_WRITE = 0x03,
	FCN_PAGE = 0x04, FCN_UNIFIED = 0x11, FCN_N_READS_STRONG = 0x14, FCN_ONE_READ_STRONG = 0x15,
	FCN_N_WRITES_STRONG = 0x16, FCN_ONE_WRITE_STRONG = 0x17,
};

enum hvpmu_pf_dest hvpmu_prefetch_dest(unsigned fcn)
{
	switch (fcn) {
	case FCN_N_READS:
	case FCN_N_READS_STRONG: /* TABLE 10-2 sl=21 note: not destined for L2 */
		return HVPMU_PF_L1;
	case FCN_ONE_READ: case FCN_N_WRITES: case FCN_ONE_WRITE: case FCN_PAGE:
	case FCN_UNIFIED: case FCN_ONE_READ_STRONG: case FCN_N_WRITES_STRONG: case FCN_ONE_WRITE_STRONG:
		return HVPMU_PF_L2;
	default: /* reserved (5-15) or implementation-dependent: no memory effect */
		return HVPMU_PF_NONE;
	}
}

/* Base register set and offset of an address: {a, b} with a <= b, 0 = none. */
struct addr_key {
	uint8_t a, b;
	int64_t off;
};

static int addr_key(const struct hvpmu_sparc_operands *o, struct addr_key *k)
{
	uint8_t x = o->rs1, y = o->form == HVPMU_SA_REG ? o->rs2 : 0;

	if (o->form == HVPMU_SA_NONE)
		return 0;
	k->off = o->form == HVPMU_SA_IMM ? o->simm13 : 0;
	k->a = x < y ? x : y;
	k->b = x < y ? y : x;
	if (k->a == 0) { /* %g0 reads 0: a single base register (or none) */
		k->a = k->b;
		k->b = 0;
	}
	return 1;
}

static uint32_t key_regs(const struct addr_key *k)
{
	return ((k->a ? 1u << k->a : 0) | (k->b ? 1u << k->b : 0));
}

static int same_base(const struct addr_key *p, const struct addr_key *d)
{
	return p->a == d->a && p->b == d->b;
}

enum hvpmu_pf_how hvpmu_prefetch_resolve(const uint32_t *words, uint32_t n, uint32_t i,
					 struct hvpmu_pf_link *out)
{
	struct hvpmu_sparc_operands po, o;
	struct addr_key pk, dk;
	uint32_t regs, written = 0;

	*out = (struct hvpmu_pf_link){ HVPMU_PF_UNRESOLVED, 0, 0 };
	if (!words || i >= n)
		return out->how;
	hvpmu_sparc_operands(words[i], &po);
	if (!po.prefetch || !addr_key(&po, &pk))
		return out->how;
	if (pk.a == 0) { /* [%g0 + simm13] */
		out->how = HVPMU_PF_ABSOLUTE;
		out->delta = pk.off;
		return out->how;
	}
	regs = key_regs(&pk);
	/* nearest earlier donor: walk back, the donor's own write counts */
	for (uint32_t j = i; j-- > 0;) {
		hvpmu_sparc_operands(words[j], &o);
		written |= o.writes;
		if (written & regs)
			break;
		if (o.donor && addr_key(&o, &dk) && same_base(&pk, &dk)) {
			*out = (struct hvpmu_pf_link){ HVPMU_PF_BEFORE, j, pk.off - dk.off };
			return out->how;
		}
	}
	/* nearest later donor: no write to the base in between, no CTI from the prefetch on */
	hvpmu_sparc_operands(words[i], &o);
	written = 0;
	for (uint32_t j = i + 1, cti = o.cti; j < n && !cti; j++) {
		hvpmu_sparc_operands(words[j], &o);
		if (o.donor && addr_key(&o, &dk) && same_base(&pk, &dk)) {
			*out = (struct hvpmu_pf_link){ HVPMU_PF_AFTER, j, pk.off - dk.off };
			return out->how;
		}
		written |= o.writes;
		cti = o.cti;
		if (written & regs)
			break;
	}
	return out->how;
}

