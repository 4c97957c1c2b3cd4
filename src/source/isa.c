/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The instruction sets behind the ISA seam (hvpmu/isa.h), by name, and
 * the program format they share (ELF). */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <hvpmu/isa.h>
#include <hvpmu/mips64_decode.h>
#include <hvpmu/ppc64_decode.h>

static const struct hvpmu_isa *const isas[] = { &hvpmu_isa_sparcv9, &hvpmu_isa_mips64, &hvpmu_isa_ppc64 };

const struct hvpmu_isa *hvpmu_isa_by_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof isas / sizeof isas[0]; i++)
		if (strcmp(isas[i]->name, name) == 0)
			return isas[i];
	return NULL;
}

/* ELF identification (System V gABI): e_ident[EI_CLASS], [EI_DATA], then
 * e_type (2 bytes) and e_machine (2 bytes, in the EI_DATA encoding). */
#define ELF_HEAD_LEN 20
#define EI_CLASS 4
#define EI_DATA 5
#define E_MACHINE_OFF 18
#define ELFDATA2MSB 2

int hvpmu_isa_is_program(const struct hvpmu_isa *isa, const char *path)
{
	unsigned char h[ELF_HEAD_LEN];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned mach;
	ssize_t r;

	if (fd < 0)
		return 0;
	r = read(fd, h, sizeof h);
	close(fd);
	if (r != (ssize_t)sizeof h || memcmp(h, "\177ELF", 4) != 0 || h[EI_CLASS] != isa->elf_class ||
	    h[EI_DATA] != isa->elf_data)
		return 0;
	mach = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[E_MACHINE_OFF] << 8 | h[E_MACHINE_OFF + 1]
					 : (unsigned)h[E_MACHINE_OFF + 1] << 8 | h[E_MACHINE_OFF];
	return mach == isa->elf_machine;
}
