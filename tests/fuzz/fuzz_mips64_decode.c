/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_mips64_decode.c - libFuzzer target for the MIPS64 instruction set
 * behind the ISA seam (src/source/mips64_decode.c, src/source/isa_mips64.c).
 *
 * The input is a PC (8 bytes, big-endian) and a block of 4-byte big-endian
 * instruction words.  Every word is decoded at its address; the invariants
 * of hvpmu/insn.h (exactly one of the six group bits) and of
 * hvpmu/mips64_decode.h (one micro-op, CTI flags only on branches,
 * targets and annul only on PC-relative branches, undefined words OTHER)
 * must hold.  Every prefetch of the block is resolved with the
 * descriptor's recovery rule, whose donor must be a donor of the same base
 * inside the block.  A violation aborts.
 *
 * Build: clang -fsanitize=fuzzer,address,undefined -Iinclude \
 *          src/source/mips64_decode.c src/source/isa_mips64.c \
 *          tests/fuzz/fuzz_mips64_decode.c
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hvpmu/isa.h"
#include "hvpmu/mips64_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { WORD_BYTES = 4, PC_BYTES = 8, BYTE_BITS = 8, MAX_WORDS = 512 };

#define FLAGS_DEFINED ((uint32_t)(HVPMU_IC_GROUPS | HVPMU_IC_LOAD_LINKED | HVPMU_IC_STORE_COND | \
	HVPMU_IC_PREFETCH | HVPMU_IC_NTC | HVPMU_IC_ILLEGAL | HVPMU_IC_SYSCALL | HVPMU_IC_CTI_COND | \
	HVPMU_IC_CTI_ALWAYS | HVPMU_IC_CALL | HVPMU_IC_RET | HVPMU_IC_INDIRECT))
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
	struct hvpmu_mips64_operands o;
	uint32_t flags, g;

	memset(&d, 0xa5, sizeof(d));
	flags = hvpmu_mips64_decode(word, pc, &d);
	g = flags & HVPMU_IC_GROUPS;
	if (flags != d.flags || (flags & ~FLAGS_DEFINED) != 0)
		abort();
	if (g == 0 || (g & (g - 1)) != 0) /* partition: exactly one group */
		abort();
	if (d.uops != 1)
		abort();
	if ((flags & HVPMU_IC_ILLEGAL) && flags != (HVPMU_IC_OTHER | HVPMU_IC_ILLEGAL))
		abort();
	if ((flags & CTI_FLAGS) && !(flags & HVPMU_IC_BRANCH))
		abort();
	if ((flags & HVPMU_IC_CTI_COND) && (flags & HVPMU_IC_CTI_ALWAYS))
		abort();
	if ((flags & (HVPMU_IC_RET | HVPMU_IC_INDIRECT)) && !(flags & HVPMU_IC_CTI_ALWAYS))
		abort();
	if ((flags & HVPMU_IC_RET) && (flags & HVPMU_IC_CALL))
		abort();
	if (d.has_target > 1 || (d.has_target && !(flags & HVPMU_IC_BRANCH)) ||
	    (!d.has_target && d.target != 0))
		abort();
	if (d.annul > 1 || (d.annul && !d.has_target))
		abort();
	hvpmu_mips64_operands(word, &o);
	if (o.form > HVPMU_MA_REG || o.base > 31 || o.index > 31 || (o.writes & 1u))
		abort();
	if (o.prefetch != ((flags & HVPMU_IC_PREFETCH) != 0) || (o.hint && !o.prefetch))
		abort();
	if (o.donor && !(flags & (HVPMU_IC_LOAD | HVPMU_IC_STORE)))
		abort();
	if (o.cti != ((flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) != 0) || (o.likely && !d.annul))
		abort();
}

/* An address as {registers other than $0, offset}. */
struct key {
	uint32_t regs;
	int64_t off;
};

static struct key key_of(const struct hvpmu_mips64_operands *o)
{
	struct key k = { 1u << o->base, o->form == HVPMU_MA_IMM ? o->offset : 0 };

	if (o->form == HVPMU_MA_REG)
		k.regs |= 1u << o->index;
	k.regs &= ~1u;
	return k;
}

static void check_prefetch(const uint32_t *w, uint32_t n, uint32_t i)
{
	const struct hvpmu_isa *isa = &hvpmu_isa_mips64;
	struct hvpmu_mips64_operands p, o;
	struct hvpmu_pf_link l;
	struct key pk, dk;
	enum hvpmu_pf_how how = isa->prefetch_resolve(w, n, i, &l);
	enum hvpmu_pf_dest dest = isa->prefetch_dest(w[i]);

	hvpmu_mips64_operands(w[i], &p);
	pk = key_of(&p);
	if (how != l.how || dest > HVPMU_PF_L2 || (!p.prefetch && (how != HVPMU_PF_UNRESOLVED || dest)))
		abort();
	switch (how) {
	case HVPMU_PF_ABSOLUTE: /* [$0 + simm16], [$0 + $0] */
		if (pk.regs != 0 || l.delta != pk.off)
			abort();
		break;
	case HVPMU_PF_BEFORE:
	case HVPMU_PF_AFTER:
		if (l.donor >= n || (how == HVPMU_PF_BEFORE) != (l.donor < i) || l.donor == i)
			abort();
		hvpmu_mips64_operands(w[l.donor], &o);
		dk = key_of(&o);
		if (!o.donor || dk.regs != pk.regs || pk.regs == 0 || l.delta != pk.off - dk.off)
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
