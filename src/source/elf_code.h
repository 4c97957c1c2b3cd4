/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The code segments of an ELF-64 program (System V gABI, "ELF Header" and
 * "Program Header"): what the QEMU source needs to know which guest
 * ranges hold code the program cannot write (src/source/qemu_glue.c,
 * docs/event-source.md "Totals only").  No QEMU in it, so that it is
 * fuzzed (tests/fuzz/fuzz_elf_code.c).  Thread-safe (no state).
 */
#ifndef HVPMU_ELF_CODE_H
#define HVPMU_ELF_CODE_H

#include <stddef.h>
#include <stdint.h>

#define ELF_CODE_EHDR 64u   /* sizeof(Elf64_Ehdr) */
#define ELF_CODE_PHDR 56u   /* sizeof(Elf64_Phdr): e_phentsize must be this */
#define ELF_CODE_MAX_PHNUM 64u

/* What the header says (e_ident EI_CLASS = ELFCLASS64 is required). */
struct elf_code_hdr {
	int big_endian;      /* EI_DATA = ELFDATA2MSB */
	uint16_t type;       /* e_type: 2 ET_EXEC, 3 ET_DYN */
	uint64_t entry;      /* e_entry */
	uint64_t phoff;      /* e_phoff: file offset of the program headers */
	uint16_t phnum;      /* e_phnum, 1..ELF_CODE_MAX_PHNUM */
};

/* The first n bytes of a file or an image as an ELF-64 header: 0, or -1
 * when it is not one hvpmu reads (too short, not "\177ELF", not 64-bit,
 * e_phentsize not 56, no or too many program headers). */
int elf_code_header(const uint8_t *b, size_t n, struct elf_code_hdr *out);

/* One range of code: [lo, hi) at the load bias. */
struct elf_code_seg {
	uint64_t lo, hi;
};

/* The program headers at ph (n bytes, h->phnum of them needed): the
 * PT_LOAD segments with PF_X and without PF_W, p_vaddr + bias to
 * p_vaddr + p_filesz + bias (an empty or wrapping one is left out), into
 * out[max]; *lowx (if not NULL) the lowest p_vaddr of a PT_LOAD with PF_X
 * (UINT64_MAX if none).  Returns how many went into out, or -1 if n is
 * too short. */
int elf_code_segments(const struct elf_code_hdr *h, const uint8_t *ph, size_t n, uint64_t bias,
		      struct elf_code_seg *out, int max, uint64_t *lowx);

#endif
