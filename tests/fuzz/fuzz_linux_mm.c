/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_linux_mm.c - libFuzzer target for the guest's page-size system
 * calls (src/source/linux_mm.c): any mmap / madvise arguments and results
 * a guest can produce, in sequence, on a T4 or T1 machine.
 *
 * Input: byte 0 picks the platform (bit 0: t1); then records of 64 bytes:
 * num selector (madvise / mmap / other), six arguments, the result.
 * Invariants (abort on violation): a call never declares more bytes than
 * its (rounded-up) length allows - at most len + one 2 GB page - and a
 * failed call (result in [-4095, -1]) declares nothing.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/linux_mm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REC 64
#define MAX_RECS 64

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hvpmu_md md;
	struct hvpmu_machine *m = NULL;
	const int64_t nums[] = { hvpmu_isa_sparcv9.sc.madvise, hvpmu_isa_sparcv9.sc.mmap, hvpmu_isa_sparcv9.sc.read };

	if (size < 1)
		return 0;
	if (hvpmu_md_default((data[0] & 1) ? HVPMU_PLATFORM_T1 : HVPMU_PLATFORM_T4, &md) ||
	    hvpmu_machine_create(&md, &m))
		abort();
	for (size_t off = 1, k = 0; off + REC <= size && k < MAX_RECS; off += REC, k++) {
		const uint8_t *r = data + off;
		uint64_t a[6], got;
		int64_t num = nums[r[0] % 3], ret;

		for (int i = 0; i < 6; i++)
			a[i] = be64(r + 8 + 8 * i) >> (r[1 + i] & 63); /* small values too */
		ret = (int64_t)be64(r + 56);
		if (r[7] & 1)
			ret = -(int64_t)(ret & 4095) - 1;
		got = linux_mm_syscall(m, HVPMU_CTX_USER, &hvpmu_isa_sparcv9.sc, num, a, ret);
		if (ret < 0 && ret >= -4095 && got)
			abort();
		if (got && a[1] <= UINT64_MAX - (UINT64_C(2) << 30) && got > a[1] + (UINT64_C(2) << 30))
			abort();
	}
	hvpmu_machine_destroy(m);
	return 0;
}
