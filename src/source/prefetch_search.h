/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The donor search of a software prefetch (hvpmu/prefetch.h
 * hvpmu_prefetch_resolve(), docs/prefetch-model.md §2), one for every
 * ISA: each ISA decodes an instruction into a struct pf_insn and says how
 * its delay slots run; prefetch_search.c walks the block.  Not installed.
 */
#ifndef HVPMU_SOURCE_PREFETCH_SEARCH_H
#define HVPMU_SOURCE_PREFETCH_SEARCH_H

#include <stdint.h>
#include <hvpmu/prefetch.h>

/* One instruction as the search sees it. */
struct pf_insn {
	uint8_t prefetch; /* a software prefetch whose address is wanted */
	uint8_t donor;    /* a data access QEMU reports once, at exactly its effective address */
	uint8_t cti;      /* a control transfer */
	uint8_t likely;   /* a CTI whose delay slot runs only when it is taken (MIPS branch-likely) */
	uint32_t writes;  /* bit r set: integer register r may change */
	/* The address, when has_addr: the registers it adds as a pair in the
	 * ISA's own order and encoding (two addresses have the same base when
	 * their pairs are equal), `regs` their mask (0: the address reads no
	 * register: it is `off`), `off` the displacement. */
	uint8_t has_addr;
	uint8_t a, b;
	uint32_t regs;
	int64_t off;
};

/* o's address: registers x and y (`none`: the encoding of no register,
 * or of one that reads 0) as the pair {a, b} with none last, so that equal
 * pairs are equal sets; regs their mask; off the displacement. */
static inline void pf_set_addr(struct pf_insn *o, uint8_t x, uint8_t y, int64_t off, uint8_t none)
{
	int x_first = y == none || (x != none && x < y);

	o->has_addr = 1;
	o->off = off;
	o->a = x_first ? x : y;
	o->b = x_first ? y : x;
	o->regs = (o->a != none ? 1u << o->a : 0) | (o->b != none ? 1u << o->b : 0);
}

struct pf_search_isa {
	/* word into *out (every field set) */
	void (*decode)(uint32_t word, struct pf_insn *out);
	/* 1: the delay slot of a CTI that is not `likely` always runs and is
	 * translated in the CTI's block, so a later donor may stand there, and
	 * a prefetch in a delay slot ends its block (MIPS).  0: no later
	 * donor after a CTI (SPARC: the slot may be annulled; ppc64: none). */
	int slot_runs;
};

/*
 * The rule of hvpmu_prefetch_resolve() for instruction i of words[0..n)
 * with `isa`'s decoder: an address that reads no register is ABSOLUTE;
 * else the nearest earlier donor with the same base whose registers are
 * not written from the donor (included) up to the prefetch, else the
 * nearest later one with no write to them strictly between and no control
 * transfer from the prefetch on (but see slot_runs).  *out and its how.
 */
enum hvpmu_pf_how pf_search_donor(const struct pf_search_isa *isa, const uint32_t *words, uint32_t n, uint32_t i,
				  struct hvpmu_pf_link *out);

#endif
