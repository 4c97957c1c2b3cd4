/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_sparc_decode.c - libFuzzer target for the SPARC T4 instruction
 * classifier (src/source/sparc_decode.c).
 *
 * Every 4-byte big-endian word of the input is decoded at a PC taken from
 * the input; the invariants of sparc-t4-performance-instrumentation.md
 * TABLE 10-2 sl=3 ("3F counts all instructions": exactly one of the six
 * group bits) and footnote 12 (1, 2 or 8 micro-ops) must hold, or the
 * target aborts.
 *
 * Build: clang -fsanitize=fuzzer,address,undefined -Iinclude \
 *          src/source/sparc_decode.c tests/fuzz/fuzz_sparc_decode.c
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hvpmu/sparc_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { WORD_BYTES = 4, PC_BYTES = 8, BYTE_BITS = 8 };

#define FLAGS_DEFINED ((uint32_t)(HVPMU_SI_SL3_MASK | HVPMU_SI_SWCOUNT | HVPMU_SI_ATOMIC | \
	HVPMU_SI_PREFETCH | HVPMU_SI_BLOCK | HVPMU_SI_NTC | HVPMU_SI_CTI_COND | \
	HVPMU_SI_CTI_ALWAYS | HVPMU_SI_ASI_REG | HVPMU_SI_ILLEGAL | HVPMU_SI_SYSCALL | \
	HVPMU_SI_CALL | HVPMU_SI_RET | HVPMU_SI_INDIRECT))
#define CTI_KINDS (HVPMU_SI_CALL | HVPMU_SI_RET | HVPMU_SI_INDIRECT)

static uint64_t load_be(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t k = 0; k < n; k++)
		v = (v << BYTE_BITS) | p[k];
	return v;
}

static void check(uint32_t word, uint64_t pc)
{
	struct hvpmu_sparc_insn d;
	uint32_t flags, sl3;

	memset(&d, 0xa5, sizeof(d));
	flags = hvpmu_sparc_decode(word, pc, &d);
	sl3 = flags & HVPMU_SI_SL3_MASK;

	if (flags != d.flags || (flags & ~FLAGS_DEFINED) != 0)
		abort();
	if (sl3 == 0 || (sl3 & (sl3 - 1)) != 0) /* partition: exactly one sl=3 bit */
		abort();
	if (d.uops != 1 && d.uops != 2 && d.uops != 8)
		abort();
	if ((d.uops == 8) != ((flags & HVPMU_SI_BLOCK) != 0))
		abort();
	if ((flags & HVPMU_SI_CTI_COND) && (flags & HVPMU_SI_CTI_ALWAYS))
		abort();
	if ((flags & (HVPMU_SI_CTI_COND | HVPMU_SI_CTI_ALWAYS)) && !(flags & HVPMU_SI_BRANCH))
		abort();
	/* call / return / indirect only on always-taken CTIs; returns are indirect, never calls */
	if ((flags & CTI_KINDS) && !(flags & HVPMU_SI_CTI_ALWAYS))
		abort();
	if ((flags & HVPMU_SI_RET) && (!(flags & HVPMU_SI_INDIRECT) || (flags & HVPMU_SI_CALL)))
		abort();
	if (d.has_target > 1 || (d.has_target && !(flags & HVPMU_SI_BRANCH)) ||
	    (!d.has_target && d.target != 0))
		abort();
	if ((flags & HVPMU_SI_ASI_REG) && d.asi != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t pc = 0;

	if (size >= PC_BYTES) {
		pc = load_be(data, PC_BYTES);
		data += PC_BYTES;
		size -= PC_BYTES;
	}
	for (; size >= WORD_BYTES; data += WORD_BYTES, size -= WORD_BYTES, pc += WORD_BYTES)
		check((uint32_t)load_be(data, WORD_BYTES), pc);
	return 0;
}
