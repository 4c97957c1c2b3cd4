/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_ppc64_decode.c - libFuzzer target for the 64-bit PowerPC instruction
 * set behind the ISA seam (src/source/ppc64_decode.c, src/source/isa_ppc64.c).
 *
 * The input is a PC (8 bytes, big-endian) and a block of 4-byte big-endian
 * instruction words.  Every word is decoded at its address; the invariants
 * of hvpmu/insn.h (exactly one of the six group bits) and of
 * hvpmu/ppc64_decode.h (micro-ops only for the multiple and string forms,
 * CTI flags only on branches, targets only on b and bc, no annul,
 * undefined words OTHER, operands consistent with the flags) must hold.
 * Every prefetch of the block is resolved with the descriptor's recovery
 * rule, whose donor must be a donor with the same address registers inside
 * the block.  A violation aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hvpmu/isa.h"
#include "hvpmu/ppc64_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { WORD_BYTES = 4, PC_BYTES = 8, BYTE_BITS = 8, MAX_WORDS = 512, NOREG = 32 };

#define FLAGS_DEFINED ((uint32_t)(HVPMU_IC_GROUPS | HVPMU_IC_LOAD_LINKED | HVPMU_IC_STORE_COND | \
	HVPMU_IC_PREFETCH | HVPMU_IC_BLOCK | HVPMU_IC_NTC | HVPMU_IC_ILLEGAL | HVPMU_IC_SYSCALL | \
	HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_CALL | HVPMU_IC_RET | HVPMU_IC_INDIRECT))
#define CTI_FLAGS ((uint32_t)(HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS | HVPMU_IC_CALL | \
	HVPMU_IC_RET | HVPMU_IC_INDIRECT))

static uint64_t load_be(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t k = 0; k < n; k++)
		v = (v << BYTE_BITS) | p[k];
	return v;
}

static void check(uint32_t word, uint64_t pc)
{
	struct hvpmu_insn d;
	struct hvpmu_ppc64_operands o;
	uint32_t flags, g;

	memset(&d, 0xa5, sizeof(d));
	flags = hvpmu_ppc64_decode(word, pc, &d);
	g = flags & HVPMU_IC_GROUPS;
	if (flags != d.flags || (flags & ~FLAGS_DEFINED) != 0)
		abort();
	if (g == 0 || (g & (g - 1)) != 0) /* partition: exactly one group */
		abort();
	if (d.uops == 0 || d.uops > 32 || (d.uops > 1 && !(flags & HVPMU_IC_BLOCK)))
		abort();
	if ((flags & HVPMU_IC_ILLEGAL) && flags != (HVPMU_IC_OTHER | HVPMU_IC_ILLEGAL))
		abort();
	if ((flags & CTI_FLAGS) && !(flags & HVPMU_IC_BRANCH))
		abort();
	if ((flags & HVPMU_IC_CTI_COND) && (flags & HVPMU_IC_CTI_ALWAYS))
		abort();
	if ((flags & HVPMU_IC_BRANCH) && !(flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)))
		abort(); /* no never-taken form on Power */
	if ((flags & HVPMU_IC_RET) && (flags & HVPMU_IC_CALL))
		abort();
	if ((flags & HVPMU_IC_RET) && !(flags & HVPMU_IC_INDIRECT))
		abort();
	if (d.has_target > 1 || (d.has_target && ((flags & HVPMU_IC_INDIRECT) || !(flags & HVPMU_IC_BRANCH))) ||
	    (!d.has_target && d.target != 0) || d.annul != 0)
		abort();
	if ((flags & HVPMU_IC_BRANCH) && !d.has_target && !(flags & HVPMU_IC_INDIRECT))
		abort();
	hvpmu_ppc64_operands(word, &o);
	if (o.form > HVPMU_PA_RA || o.ra > 31 || o.rb > 31 || o.size > 16)
		abort();
	if (o.form != HVPMU_PA_NONE && !(flags & (HVPMU_IC_LOAD | HVPMU_IC_STORE | HVPMU_IC_PREFETCH)))
		abort();
	if (o.prefetch != ((flags & HVPMU_IC_PREFETCH) != 0) || (o.th && !o.prefetch))
		abort();
	if (o.donor && (!(flags & (HVPMU_IC_LOAD | HVPMU_IC_STORE)) || o.form == HVPMU_PA_NONE || !o.size))
		abort();
	if (o.update && !(o.writes & (1u << o.ra)))
		abort();
	if (o.cti != ((flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) != 0))
		abort();
	if ((flags & (HVPMU_IC_ILLEGAL | HVPMU_IC_SYSCALL)) && o.writes != ~0u)
		abort();
}

/* An address as its sorted register pair (NOREG: none) and offset. */
struct key {
	unsigned a, b;
	int64_t off;
};

static struct key key_of(const struct hvpmu_ppc64_operands *o)
{
	unsigned x = o->ra ? o->ra : NOREG, y = o->form == HVPMU_PA_X ? o->rb : NOREG;
	struct key k = { x < y ? x : y, x < y ? y : x, o->form == HVPMU_PA_D ? o->offset : 0 };

	return k;
}

static void check_prefetch(const uint32_t *w, uint32_t n, uint32_t i)
{
	const struct hvpmu_isa *isa = &hvpmu_isa_ppc64;
	struct hvpmu_ppc64_operands p, o;
	struct hvpmu_pf_link l;
	struct key pk, dk;
	enum hvpmu_pf_how how = isa->prefetch_resolve(w, n, i, &l);
	enum hvpmu_pf_dest dest = isa->prefetch_dest(w[i]);

	hvpmu_ppc64_operands(w[i], &p);
	pk = key_of(&p);
	if (how != l.how || dest > HVPMU_PF_L2 || (!p.prefetch && (how != HVPMU_PF_UNRESOLVED || dest)))
		abort();
	switch (how) {
	case HVPMU_PF_ABSOLUTE: /* dcbt always has RB: never */
		abort();
	case HVPMU_PF_BEFORE:
	case HVPMU_PF_AFTER:
		if (l.donor >= n || (how == HVPMU_PF_BEFORE) != (l.donor < i) || l.donor == i)
			abort();
		hvpmu_ppc64_operands(w[l.donor], &o);
		dk = key_of(&o);
		if (!o.donor || dk.a != pk.a || dk.b != pk.b || l.delta != pk.off - dk.off)
			abort();
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t words[MAX_WORDS];
	uint32_t n = 0;
	uint64_t pc = 0;

	if (size >= PC_BYTES) {
		pc = load_be(data, PC_BYTES);
		data += PC_BYTES;
		size -= PC_BYTES;
	}
	for (; size >= WORD_BYTES && n < MAX_WORDS; data += WORD_BYTES, size -= WORD_BYTES, pc += WORD_BYTES) {
		words[n] = (uint32_t)load_be(data, WORD_BYTES);
		check(words[n++], pc);
	}
	for (uint32_t i = 0; i < n; i++)
		check_prefetch(words, n, i);
	return 0;
}
