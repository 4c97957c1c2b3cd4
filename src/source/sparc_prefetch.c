/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SPARC V9 software prefetches for the event source (hvpmu/prefetch.h,
 * docs/prefetch-model.md): the destination of each function code, and the
 * translation-time address recovery rule (QEMU 7.2 reports no memory
 * access for PREFETCH / PREFETCHA).  Reached through hvpmu_isa_sparcv9.
 */
#include <hvpmu/prefetch.h>
#include <hvpmu/sparc_decode.h>
#include "prefetch_search.h"

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

/* An instruction for the donor search (prefetch_search.h): its address's
 * base register set (%g0 reads 0: a single base register, or none) and
 * offset. */
static void sparc_pf_decode(uint32_t word, struct pf_insn *out)
{
	struct hvpmu_sparc_operands o;

	hvpmu_sparc_operands(word, &o);
	*out = (struct pf_insn){ .prefetch = o.prefetch, .donor = o.donor, .cti = o.cti, .writes = o.writes };
	if (o.form != HVPMU_SA_NONE)
		pf_set_addr(out, o.rs1, o.form == HVPMU_SA_REG ? o.rs2 : 0, o.form == HVPMU_SA_IMM ? o.simm13 : 0, 0);
}

/* docs/prefetch-model.md §2: a later donor must not follow a control
 * transfer at or after the prefetch (it may be in an annulled delay slot
 * or not run). */
static const struct pf_search_isa sparc_pf_search = { .decode = sparc_pf_decode, .slot_runs = 0 };

enum hvpmu_pf_how hvpmu_prefetch_resolve(const uint32_t *words, uint32_t n, uint32_t i,
					 struct hvpmu_pf_link *out)
{
	return pf_search_donor(&sparc_pf_search, words, n, i, out);
}
