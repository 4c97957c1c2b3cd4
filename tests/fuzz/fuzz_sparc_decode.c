/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_sparc_decode.c - libFuzzer target for the SPARC T4 instruction
 * classifier (src/source/sparc_decode.c).
 *
 * Every 4-byte big-endian word of the input is decoded at a PC taken from
 * the input; the invariants of sparc-t4-performance-instrumentation.md
 * TABLE 10-2 sl=3 ("3F counts all instructions": exactly one of the six
 * group bits, HVPMU_IC_GROUPS of hvpmu/insn.h) and footnote 12 (1, 2 or 8 micro-ops) must hold, or the
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

#define FLAGS_DEFINED ((uint32_t)(HVPMU_IC_GROUPS | HVPMU_IC_SWCOUNT | HVPMU_IC_ATOMIC | \
	HVPMU_IC_PREFETCH | HVPMU_IC_BLOCK | HVPMU_IC_NTC | HVPMU_IC_CTI_COND | \
	HVPMU_IC_CTI_ALWAYS | HVPMU_IC_ALTSPACE_DYN | HVPMU_IC_ILLEGAL | HVPMU_IC_SYSCALL | \
	HVPMU_IC_CALL | HVPMU_IC_RET | HVPMU_IC_INDIRECT))
#define CTI_KINDS (HVPMU_IC_CALL | HVPMU_IC_RET | HVPMU_IC_INDIRECT)

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
	sl3 = flags & HVPMU_IC_GROUPS;

	if (flags != d.flags || (flags & ~FLAGS_DEFINED) != 0)
		abort();
	if (sl3 == 0 || (sl3 & (sl3 - 1)) != 0) /* partition: exactly one sl=3 bit */
		abort();
	if (d.uops != 1 && d.uops != 2 && d.uops != 8)
		abort();
	if ((d.uops == 8) != ((flags & HVPMU_IC_BLOCK) != 0))
		abort();
	if ((flags & HVPMU_IC_CTI_COND) && (flags & HVPMU_IC_CTI_ALWAYS))
		abort();
	if ((flags & (HVPMU_IC_CTI_COND | HVPMU_IC_CTI_ALWAYS)) && !(flags & HVPMU_IC_BRANCH))
		abort();
	/* call / return / indirect only on always-taken CTIs; returns are indirect, never calls */
	if ((flags & CTI_KINDS) && !(flags & HVPMU_IC_CTI_ALWAYS))
		abort();
	if ((flags & HVPMU_IC_RET) && (!(flags & HVPMU_IC_INDIRECT) || (flags & HVPMU_IC_CALL)))
		abort();
	if (d.has_target > 1 || (d.has_target && !(flags & HVPMU_IC_BRANCH)) ||
	    (!d.has_target && d.target != 0))
		abort();
	if ((flags & HVPMU_IC_ALTSPACE_DYN) && d.asi != 0)
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
