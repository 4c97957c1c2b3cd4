/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a program may start processes, from its ELF file alone: the
 * choice of `hvpmu stat`'s default run (docs/cli.md "Processes").  A
 * dynamically linked program starts a process through a function it
 * imports (fork, system, posix_spawn, the exec family...: glibc's names);
 * a static one with a symbol table through such a function linked in.
 * One whose symbols name none of them runs in one emulator; if it starts
 * a process all the same (a raw clone system call, a library that forks
 * for it), the run says so and fails (stat.c).  A file without symbols,
 * or one this cannot read, may: it runs on the service's machine, which
 * counts whatever it starts.
 */
#include <elf.h>
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools.h"

/* glibc's functions that create a process (or replace the program, which
 * perf's inherit follows too) */
static const char *const spawners[] = {
	"fork", "vfork", "_Fork", "__libc_fork", "system", "popen", "posix_spawn", "posix_spawnp",
	"execve", "execv", "execvp", "execvpe", "execl", "execlp", "execle", "fexecve", "execveat", "daemon",
	"forkpty", "wordexp",
};

struct elf_view {
	const unsigned char *b;
	size_t n;
	int msb;
};

static uint64_t get(const struct elf_view *e, size_t off, unsigned size)
{
	uint64_t v = 0;

	if (off > e->n || size > e->n - off)
		return 0;
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)e->b[off + i] << (8 * (e->msb ? size - 1 - i : i));
	return v;
}

/* 1 when the ELF64 image's symbols of section type `type` (SHT_DYNSYM,
 * SHT_SYMTAB) name a spawner, 0 when they name none, -1 when it has no
 * such section or cannot be read. */
static int symbols_spawn(const struct elf_view *e, unsigned type)
{
	uint64_t shoff = get(e, offsetof(Elf64_Ehdr, e_shoff), 8);
	unsigned shentsize = (unsigned)get(e, offsetof(Elf64_Ehdr, e_shentsize), 2);
	unsigned shnum = (unsigned)get(e, offsetof(Elf64_Ehdr, e_shnum), 2);
	int found = -1;

	if (shentsize < sizeof(Elf64_Shdr) || !shnum || shoff >= e->n)
		return -1;
	for (unsigned s = 0; s < shnum; s++) {
		size_t sh = shoff + (size_t)s * shentsize, str;
		uint64_t off, size, entsize, stroff, strsize;
		unsigned link;

		if (get(e, sh + offsetof(Elf64_Shdr, sh_type), 4) != type)
			continue;
		off = get(e, sh + offsetof(Elf64_Shdr, sh_offset), 8);
		size = get(e, sh + offsetof(Elf64_Shdr, sh_size), 8);
		entsize = get(e, sh + offsetof(Elf64_Shdr, sh_entsize), 8);
		link = (unsigned)get(e, sh + offsetof(Elf64_Shdr, sh_link), 4);
		if (entsize < sizeof(Elf64_Sym) || link >= shnum || off > e->n || size > e->n - off)
			return -1;
		str = shoff + (size_t)link * shentsize;
		stroff = get(e, str + offsetof(Elf64_Shdr, sh_offset), 8);
		strsize = get(e, str + offsetof(Elf64_Shdr, sh_size), 8);
		if (stroff > e->n || strsize > e->n - stroff)
			return -1;
		found = 0;
		for (uint64_t k = 0; k + entsize <= size; k += entsize) {
			uint64_t name = get(e, off + k + offsetof(Elf64_Sym, st_name), 4);
			const char *nm = (const char *)e->b + stroff + name;

			if (name >= strsize || !memchr(nm, 0, strsize - name))
				continue;
			for (size_t i = 0; i < sizeof spawners / sizeof spawners[0]; i++)
				if (strcmp(nm, spawners[i]) == 0)
					return 1;
		}
	}
	return found;
}

int tool_elf_may_spawn(const unsigned char *b, size_t n)
{
	struct elf_view e = { .b = b, .n = n };
	int r;

	if (n <= sizeof(Elf64_Ehdr) || memcmp(b, ELFMAG, SELFMAG) != 0 || b[EI_CLASS] != ELFCLASS64)
		return 1;
	e.msb = b[EI_DATA] == ELFDATA2MSB;
	if ((r = symbols_spawn(&e, SHT_DYNSYM)) < 0) /* static: the functions linked in */
		r = symbols_spawn(&e, SHT_SYMTAB);
	return r != 0; /* no symbols, unreadable or a spawner: it may */
}

int tool_program_may_spawn(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;
	int r = 1;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
		r = tool_elf_may_spawn(buf, (size_t)n);
	if (f)
		fclose(f);
	free(buf);
	return r;
}
