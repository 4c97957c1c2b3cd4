/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SPARC V9 instruction set behind the ISA seam (hvpmu/isa.h): the
 * decoder of hvpmu/sparc_decode.h, the software-prefetch rules of
 * hvpmu/prefetch.h, sparc64 Linux's system-call numbers
 * (arch/sparc/include/uapi/asm/unistd.h, 64-bit ABI), the ELF and QEMU
 * names of the format (System V gABI: EM_SPARCV9 = 43, ELFCLASS64,
 * ELFDATA2MSB).
 */
#include <hvpmu/isa.h>
#include <hvpmu/sparc_decode.h>

#define ELFCLASS64 2
#define ELFDATA2MSB 2
#define EM_SPARCV9 43
#define SPARC_INSN_BYTES 4

static uint32_t sparc_decode(uint32_t word, uint64_t pc, struct hvpmu_insn *out)
{
	struct hvpmu_sparc_insn d;

	hvpmu_sparc_decode(word, pc, &d);
	out->flags = d.flags;
	out->uops = d.uops;
	out->annul = d.annul;
	out->has_target = d.has_target;
	out->target = d.target;
	return d.flags;
}

/* A prefetch's function code (the rd field, SPARC V9 A.49) chooses its
 * destination. */
static enum hvpmu_pf_dest sparc_prefetch_dest(uint32_t word)
{
	struct hvpmu_sparc_operands o;

	hvpmu_sparc_operands(word, &o);
	return hvpmu_prefetch_dest(o.fcn);
}

const struct hvpmu_isa hvpmu_isa_sparcv9 = {
	.name = "sparcv9",
	.elf_class = ELFCLASS64,
	.elf_data = ELFDATA2MSB,
	.elf_machine = EM_SPARCV9,
	.qemu_target = "sparc64",
	.qemu_user = "qemu-sparc64",
	.qemu_reserved_va = "0x10000000000", /* 1 TiB */
	.sysroot = "/usr/sparc64-linux-gnu",
	.insn_bytes = SPARC_INSN_BYTES,
	.big_endian = 1,
	.delay_slot = 1,
	.restarts = hvpmu_sparc_restarts,
	.sc = {
		.exit = 1, .exit_group = 188, .read = 3, .write = 4,
		.fork = 2, .vfork = 66, .clone = 217, .clone3 = 435,
		.mmap = 71, .madvise = 75,
		/* unistd_64.h: __NR_mprotect 74, __NR_munmap 73, __NR_mremap 250 */
		.mprotect = 74, .munmap = 73, .mremap = 250,
		.execve = 59, .execveat = 350,
		/* Debian's linux-libc-dev-sparc64-cross,
		 * /usr/sparc64-linux-gnu/include/asm/unistd_64.h __NR_*: futex 142;
		 * read 3, readv 120, wait4 7, poll 153, ppoll 298, select 93,
		 * pselect6 297, epoll_wait 195, epoll_pwait 309, epoll_pwait2 441,
		 * _newselect 230 (the select glibc calls) */
		.futex = 142,
		.waits = { 3, 120, 7, 153, 298, 93, 297, 195, 309, 441, 230 },
	},
	.decode = sparc_decode,
	.prefetch_dest = sparc_prefetch_dest,
	.prefetch_resolve = hvpmu_prefetch_resolve,
};
