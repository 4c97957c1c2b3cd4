/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_input.h - reading a libFuzzer input as a stream of big-endian
 * integers, for the targets that turn their input into a sequence of
 * operations (fuzz_hypercall.c, fuzz_hypercall_t1.c, fuzz_mmustat.c).
 * Past the input's end every read gives 0, so a short input is still a
 * whole (if dull) sequence.
 */
#ifndef HVPMU_FUZZ_INPUT_H
#define HVPMU_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t u8(struct in *in)
{
	uint8_t v = 0;

	if (in->n) {
		v = *in->p++;
		in->n--;
	}
	return v;
}

static inline uint16_t u16(struct in *in)
{
	return (uint16_t)(u8(in) << 8 | u8(in));
}

static inline uint64_t u64(struct in *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | u8(in);
	return v;
}

#endif
