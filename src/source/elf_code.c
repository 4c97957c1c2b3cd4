/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ELF-64 code segments (elf_code.h). */
#include <string.h>
#include "elf_code.h"

/* n bytes at p as an unsigned integer in the file's byte order */
static uint64_t rd(const uint8_t *p, unsigned n, int be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * (be ? n - 1 - i : i));
	return v;
}

int elf_code_header(const uint8_t *b, size_t n, struct elf_code_hdr *out)
{
	int be;

	/* e_ident: EI_MAG0..3, EI_CLASS (4) = ELFCLASS64 (2), EI_DATA (5) */
	if (n < ELF_CODE_EHDR || memcmp(b, "\177ELF", 4) != 0 || b[4] != 2 || (b[5] != 1 && b[5] != 2))
		return -1;
	be = b[5] == 2;
	out->big_endian = be;
	out->type = (uint16_t)rd(b + 16, 2, be);   /* e_type */
	out->entry = rd(b + 24, 8, be);            /* e_entry */
	out->phoff = rd(b + 32, 8, be);            /* e_phoff */
	out->phnum = (uint16_t)rd(b + 56, 2, be);  /* e_phnum */
	if (rd(b + 54, 2, be) != ELF_CODE_PHDR || out->phnum == 0 || out->phnum > ELF_CODE_MAX_PHNUM)
		return -1;                         /* e_phentsize */
	return 0;
}

int elf_code_segments(const struct elf_code_hdr *h, const uint8_t *ph, size_t n, uint64_t bias,
		      struct elf_code_seg *out, int max, uint64_t *lowx)
{
	int k = 0;

	if (n < (size_t)h->phnum * ELF_CODE_PHDR)
		return -1;
	if (lowx)
		*lowx = UINT64_MAX;
	for (unsigned i = 0; i < h->phnum; i++) {
		const uint8_t *p = ph + (size_t)i * ELF_CODE_PHDR;
		/* p_type at 0 (PT_LOAD = 1), p_flags at 4 (PF_X = 1, PF_W = 2),
		 * p_vaddr at 16, p_filesz at 32 */
		uint64_t flags = rd(p + 4, 4, h->big_endian), va = rd(p + 16, 8, h->big_endian);
		uint64_t sz = rd(p + 32, 8, h->big_endian), lo = va + bias, hi = lo + sz;

		if (rd(p, 4, h->big_endian) != 1 || !(flags & 1))
			continue;
		if (lowx && va < *lowx)
			*lowx = va;
		if ((flags & 2) || sz == 0 || hi < lo || k >= max)
			continue;
		out[k++] = (struct elf_code_seg){ lo, hi };
	}
	return k;
}
