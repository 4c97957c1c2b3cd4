/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MIPS64 instruction set behind the ISA seam (hvpmu/isa.h), as the SGI
 * Origin's R10000 runs it under Linux's n64 ABI: the decoder of
 * hvpmu/mips64_decode.h, the software-prefetch rules (below), the n64
 * system-call numbers (Linux arch/mips/kernel/syscalls/syscall_n64.tbl,
 * numbered from __NR_Linux = 5000 by arch/mips/include/uapi/asm/unistd.h
 * for _MIPS_SIM_ABI64), the ELF and QEMU names of the format (System V
 * gABI: EM_MIPS = 8, ELFCLASS64, ELFDATA2MSB for big-endian mips64).
 * docs/mips64-isa.md.
 *
 * Software prefetch.  QEMU 7.2 translates PREF and PREFX without a memory
 * access (target/mips/tcg/translate.c: `case OPC_PREF: ... Treat as NOP`,
 * and the same for OPC_PREFX), so the plugin never sees their address.
 * As for SPARC (hvpmu/prefetch.h, docs/prefetch-model.md §2) the address
 * is recovered at translation time from a donor: another data access of
 * the same translation block that QEMU reports once at its effective
 * address, with the same base register(s) and no write to them in
 * between.  MIPS addressing is GPR[base] + simm16 (PREF, loads, stores)
 * or GPR[base] + GPR[index] (PREFX, LWXC1 .. SDXC1).
 */
#include <hvpmu/isa.h>
#include <hvpmu/mips64_decode.h>
#include "prefetch_search.h"

#define ELFCLASS64 2
#define ELFDATA2MSB 2
#define EM_MIPS 8
#define MIPS_INSN_BYTES 4

/* syscall_n64.tbl: `NNN n64 name entry`; the number is 5000 + NNN. */
#define N64_BASE 5000
enum {
	N64_READ = N64_BASE + 0,        /* 0   n64 read        sys_read */
	N64_WRITE = N64_BASE + 1,       /* 1   n64 write       sys_write */
	/* the calls that may wait (Debian's linux-libc-dev-mips64-cross,
	 * /usr/mips64-linux-gnuabi64/include/asm/unistd_n64.h __NR_*) */
	N64_POLL = N64_BASE + 7,
	N64_READV = N64_BASE + 18,
	N64_NEWSELECT = N64_BASE + 22,  /* _newselect: n64's select */
	N64_WAIT4 = N64_BASE + 59,
	N64_FUTEX = N64_BASE + 194,
	N64_EPOLL_WAIT = N64_BASE + 209,
	N64_PSELECT6 = N64_BASE + 260,
	N64_PPOLL = N64_BASE + 261,
	N64_EPOLL_PWAIT = N64_BASE + 272,
	N64_EPOLL_PWAIT2 = N64_BASE + 441,
	N64_MMAP = N64_BASE + 9,        /* 9   n64 mmap        sys_mips_mmap */
	N64_MADVISE = N64_BASE + 27,    /* 27  n64 madvise     sys_madvise */
	N64_MPROTECT = N64_BASE + 10,   /* 10  n64 mprotect    sys_mprotect */
	N64_MUNMAP = N64_BASE + 11,     /* 11  n64 munmap      sys_munmap */
	N64_MREMAP = N64_BASE + 24,     /* 24  n64 mremap      __sys_mremap */
	N64_CLONE = N64_BASE + 55,      /* 55  n64 clone       __sys_clone */
	N64_FORK = N64_BASE + 56,       /* 56  n64 fork        __sys_fork */
	N64_EXECVE = N64_BASE + 57,     /* 57  n64 execve      sys_execve */
	N64_EXIT = N64_BASE + 58,       /* 58  n64 exit        sys_exit */
	N64_EXIT_GROUP = N64_BASE + 205, /* 205 n64 exit_group sys_exit_group */
	N64_EXECVEAT = N64_BASE + 316,  /* 316 n64 execveat    sys_execveat */
	N64_CLONE3 = N64_BASE + 435,    /* 435 n64 clone3      __sys_clone3 */
};
/* The n64 table has no vfork (glibc's vfork is clone(CLONE_VM|CLONE_VFORK)). */
#define N64_NONE (-1)

/*
 * PREF / PREFX hint (MIPS IV PREF: 0 load, 1 store, 4 load_streamed,
 * 5 store_streamed, 6 load_retained, 7 store_retained; 2, 3 and 8-31
 * reserved; MIPS64 adds 25 writeback_invalidate and 30 PrepareForStore).
 * The R10000 moves prefetched data "from memory into the secondary and
 * primary caches" (MIPS R10000 Microprocessor Product Overview, SGI
 * Developer Toolbox 6.1, §1.7): every defined MIPS IV hint goes to the L1
 * (and the inclusive L2).  The rest have no memory effect here
 * (docs/mips64-isa.md "Prefetch": no R10000 source names them).
 */
enum {
	HINT_LOAD = 0, HINT_STORE = 1, HINT_LOAD_STREAMED = 4, HINT_STORE_STREAMED = 5,
	HINT_LOAD_RETAINED = 6, HINT_STORE_RETAINED = 7,
};
#define HINTS_TO_L1 ((1u << HINT_LOAD) | (1u << HINT_STORE) | (1u << HINT_LOAD_STREAMED) | \
		     (1u << HINT_STORE_STREAMED) | (1u << HINT_LOAD_RETAINED) | (1u << HINT_STORE_RETAINED))

static enum hvpmu_pf_dest mips64_prefetch_dest(uint32_t word)
{
	struct hvpmu_mips64_operands o;

	hvpmu_mips64_operands(word, &o);
	if (!o.prefetch)
		return HVPMU_PF_NONE;
	return ((HINTS_TO_L1 >> o.hint) & 1u) ? HVPMU_PF_L1 : HVPMU_PF_NONE;
}

/* An instruction for the donor search (prefetch_search.h): its address's
 * base register set ($0 reads 0: [r + $0] is [r + 0]) and offset. */
static void mips64_pf_decode(uint32_t word, struct pf_insn *out)
{
	struct hvpmu_mips64_operands o;

	hvpmu_mips64_operands(word, &o);
	*out = (struct pf_insn){ .prefetch = o.prefetch, .donor = o.donor, .cti = o.cti, .likely = o.likely,
				 .writes = o.writes };
	if (o.form != HVPMU_MA_NONE)
		pf_set_addr(out, o.base, o.form == HVPMU_MA_REG ? o.index : 0, o.form == HVPMU_MA_IMM ? o.offset : 0, 0);
}

/*
 * The rule of hvpmu_prefetch_resolve() (hvpmu/prefetch.h) with MIPS's
 * delay slots: the nearest earlier donor whose base is not written from
 * the donor (included) up to the prefetch, else the nearest later one with
 * no write to the base strictly between.  A later donor must not follow a
 * control transfer at or after the prefetch, except in the delay slot of
 * one that is not a branch-likely: that slot always executes (MIPS IV
 * "Jump and Branch Instructions": the instruction after a branch runs
 * before the branch takes effect) and QEMU 7.2 translates it in the
 * branch's block.  A branch-likely's slot runs only when it is taken.
 */
static const struct pf_search_isa mips64_pf_search = { .decode = mips64_pf_decode, .slot_runs = 1 };

static enum hvpmu_pf_how mips64_prefetch_resolve(const uint32_t *words, uint32_t n, uint32_t i,
						 struct hvpmu_pf_link *out)
{
	return pf_search_donor(&mips64_pf_search, words, n, i, out);
}

/* SYSCALL (SPECIAL, function 0x0c) runs again from its own address when
 * the system call is restarted (QEMU linux-user/mips cpu_loop: PC -= 4 on
 * -QEMU_ERESTARTSYS); nothing else restarts in user mode. */
static int mips64_restarts(uint32_t w)
{
	return w >> 26 == 0 && (w & 0x3f) == 0x0c;
}

const struct hvpmu_isa hvpmu_isa_mips64 = {
	.name = "mips64",
	.elf_class = ELFCLASS64,
	.elf_data = ELFDATA2MSB,
	.elf_machine = EM_MIPS,
	.qemu_target = "mips64",
	.qemu_user = "qemu-mips64",
	.qemu_reserved_va = "0x10000000000", /* 1 TiB */
	.sysroot = "/usr/mips64-linux-gnuabi64",
	.insn_bytes = MIPS_INSN_BYTES,
	.big_endian = 1,
	.delay_slot = 1,
	.annul_in_block = 1, /* the branch-likely's slot is in its block (docs/mips64-isa.md) */
	.sc = {
		.exit = N64_EXIT, .exit_group = N64_EXIT_GROUP, .read = N64_READ, .write = N64_WRITE,
		.futex = N64_FUTEX,
		.waits = { N64_READ, N64_READV, N64_WAIT4, N64_POLL, N64_PPOLL, N64_NEWSELECT, N64_PSELECT6,
			   N64_EPOLL_WAIT, N64_EPOLL_PWAIT, N64_EPOLL_PWAIT2, N64_NONE /* one select */ },
		.fork = N64_FORK, .vfork = N64_NONE, .clone = N64_CLONE, .clone3 = N64_CLONE3,
		.mprotect = N64_MPROTECT, .munmap = N64_MUNMAP, .mremap = N64_MREMAP,
		.mmap = N64_MMAP, .madvise = N64_MADVISE, .execve = N64_EXECVE, .execveat = N64_EXECVEAT,
		/* unistd_n64.h: clock_gettime 222, gettimeofday 94, nanosleep 34,
		 * clock_nanosleep 224 (n64 has no time); asm/errno.h ETIMEDOUT 145 */
		.clock_gettime = N64_BASE + 222, .gettimeofday = N64_BASE + 94, .time = N64_NONE,
		.nanosleep = N64_BASE + 34, .clock_nanosleep = N64_BASE + 224, .etimedout = 145,
	},
	.restarts = mips64_restarts,
	.decode = hvpmu_mips64_decode,
	.prefetch_dest = mips64_prefetch_dest,
	.prefetch_resolve = mips64_prefetch_resolve,
};
