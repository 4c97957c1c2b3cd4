/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_elf_code.c - libFuzzer target for the ELF-64 reading behind the
 * QEMU source's read-only code ranges (src/source/elf_code.c): the
 * program's file, and the interpreter's image in guest memory, are
 * outside input.  The input is a file image: its header, then its
 * program headers at e_phoff if they lie in it.  Invariants (abort on
 * violation): a header accepted has 1..ELF_CODE_MAX_PHNUM program
 * headers of 56 bytes; program headers short of phnum are refused; every
 * segment returned is non-empty and does not wrap, at most max of them,
 * each at or above the lowest executable p_vaddr plus the bias.
 *
 * Seeds (tests/fuzz/corpus/fuzz_elf_code, written by hand with Python's
 * struct: an ELF-64 header and three program headers each): dyn-be, a
 * big-endian ET_DYN like a sparc64 PIE (text R E, data RWE, a PT_NOTE);
 * exec-le, a little-endian ET_EXEC (R, R E, RW).
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "source/elf_code.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_code_hdr h;
	struct elf_code_seg seg[8];
	uint64_t lowx, bias = size > 0 ? (uint64_t)data[size - 1] << 40 : 0;
	size_t left;
	int n;

	if (elf_code_header(data, size, &h))
		return 0;
	if (h.phnum == 0 || h.phnum > ELF_CODE_MAX_PHNUM)
		abort();
	if (h.phoff > size)
		return 0;
	left = size - (size_t)h.phoff;
	n = elf_code_segments(&h, data + h.phoff, left, bias, seg, 8, &lowx);
	if (left < (size_t)h.phnum * ELF_CODE_PHDR) {
		if (n != -1)
			abort();
		return 0;
	}
	if (n < 0 || n > 8)
		abort();
	for (int i = 0; i < n; i++)
		if (seg[i].hi <= seg[i].lo || seg[i].lo - bias < lowx)
			abort();
	return 0;
}
