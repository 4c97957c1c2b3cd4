/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/prefetch.h - SPARC V9 software prefetches for the event source
 * (docs/prefetch-model.md), reached through the ISA descriptor
 * hvpmu_isa_sparcv9 (hvpmu/isa.h).
 *
 * QEMU 7.2 user mode emits no memory access for PREFETCH / PREFETCHA and
 * plugin API v1 cannot read registers, so a prefetch's address is
 * recovered at translation time from another data access of the same
 * translation block that uses the same base register(s) with no write to
 * them in between (the "donor"); see hvpmu_prefetch_resolve().
 *
 * Where a prefetch goes follows its function code (SPARC V9 A.49 fcn, the
 * rd field; TABLE 10-2 sl=21 note in sparc-t4-performance-instrumentation.md:
 * "this group only counts prefetches that were destined for the L2 (e.g., it
 * excludes prefetch instructions with function codes equal to 0 or 14)").
 *
 * All functions are pure: thread-safe, no allocation, no global state.
 */
#ifndef HVPMU_PREFETCH_H
#define HVPMU_PREFETCH_H

#include <stdint.h>
#include <hvpmu/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Destination (enum hvpmu_pf_dest, hvpmu/machine.h) of function code
 * `fcn` (0..31): HVPMU_PF_L1 for fcn 0x00 (#n_reads) and 0x14
 * (#n_reads_strong), HVPMU_PF_L2 for 0x01-0x04, 0x11 and 0x15-0x17,
 * HVPMU_PF_NONE for the rest (reserved or implementation-dependent). */
enum hvpmu_pf_dest hvpmu_prefetch_dest(unsigned fcn);

/* How a prefetch's address is known. */
enum hvpmu_pf_how {
	HVPMU_PF_UNRESOLVED = 0, /* no donor: the prefetch is counted as unresolved, never issued */
	HVPMU_PF_ABSOLUTE = 1,   /* [%g0 + simm13]: the address is `delta` */
	HVPMU_PF_BEFORE = 2,     /* donor earlier in the block: address = donor's + delta */
	HVPMU_PF_AFTER = 3,      /* donor later in the block: address = donor's + delta,
	                            issued just before the donor's own access */
};

struct hvpmu_pf_link {
	enum hvpmu_pf_how how;
	uint32_t donor;  /* index of the donor instruction (BEFORE, AFTER) */
	int64_t delta;   /* address offset from the donor's address (or the address, ABSOLUTE) */
};

/*
 * Recover the address of the prefetch at words[i] of a translation block of
 * `n` instruction words (host order, consecutive addresses).  The donor
 * rule (docs/prefetch-model.md):
 *   - the donor is a data access with hvpmu_sparc_operands().donor set whose
 *     address uses the same base register set as the prefetch:
 *     [rs1 + simm13] matches [rs1 + simm13'] (delta = simm13 - simm13'),
 *     [rs1 + rs2] matches [rs1 + rs2] or [rs2 + rs1] (delta 0), and
 *     [r + %g0] / [%g0 + r] count as [r + 0];
 *   - no instruction from the donor (included) up to the prefetch (excluded)
 *     may write a base register (donor earlier), or from the prefetch
 *     (excluded) up to the donor (excluded) (donor later), where SAVE,
 *     RESTORE and RETURN write r8..r31 and Tcc writes every register;
 *   - a later donor must not follow a control transfer that comes at or
 *     after the prefetch;
 *   - the nearest earlier donor wins, else the nearest later one.
 * Returns out->how (HVPMU_PF_UNRESOLVED also if words[i] is no prefetch).
 */
enum hvpmu_pf_how hvpmu_prefetch_resolve(const uint32_t *words, uint32_t n, uint32_t i,
					 struct hvpmu_pf_link *out);

#ifdef __cplusplus
}
#endif
#endif
