/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 64-bit PowerPC instruction set behind the ISA seam (hvpmu/isa.h), as
 * a POWER7 runs big-endian Linux programs (the ELFv1 ABI of Debian's
 * powerpc64 port): the decoder of hvpmu/ppc64_decode.h, the
 * software-prefetch rules (below), Linux's 64-bit PowerPC system-call
 * numbers (arch/powerpc/kernel/syscalls/syscall.tbl, entries of ABI
 * "common" and "64", as Debian's linux-libc-dev-ppc64-cross 6.1.4 installs
 * them in /usr/powerpc64-linux-gnu/include/asm/unistd_64.h), the ELF and
 * QEMU names of the format (System V gABI: EM_PPC64 = 21, ELFCLASS64,
 * ELFDATA2MSB).  docs/ppc64-isa.md.
 *
 * System calls: `sc` with the number in r0 and the arguments in r3..r8
 * (Linux Documentation/powerpc/syscall64-abi.rst); QEMU hands both to the
 * plugin's system-call callback, so the descriptor needs no register.
 *
 * Software prefetch.  QEMU 7.2 translates dcbt and dcbtst without a
 * memory access (target/ppc/translate.c gen_dcbt(): "interpreted as
 * no-op"), so the plugin never sees their address.  As for SPARC and MIPS
 * (hvpmu/prefetch.h, docs/prefetch-model.md §2) the address is recovered
 * at translation time from a donor: another data access of the same
 * translation block that QEMU reports once at its effective address, with
 * the same address registers and no write to them in between.  Power
 * addressing is (RA|0) + EXTS(D) or (RA|0) + (RB) (Book I §1.10.3); dcbt
 * and dcbtst are X-form.
 */
#include <hvpmu/isa.h>
#include <hvpmu/ppc64_decode.h>
#include "prefetch_search.h"

#define ELFCLASS64 2
#define ELFDATA2MSB 2
#define EM_PPC64 21
#define PPC_INSN_BYTES 4

/* unistd_64.h __NR_* (syscall.tbl number, ABI, name, entry). */
enum {
	PPC64_EXIT = 1,           /* 1   common exit          sys_exit */
	PPC64_FORK = 2,           /* 2   common fork          sys_fork */
	PPC64_READ = 3,           /* 3   common read          sys_read */
	PPC64_WRITE = 4,          /* 4   common write         sys_write */
	PPC64_EXECVE = 11,        /* 11  common execve        sys_execve */
	PPC64_SELECT = 82,        /* 82  64     select        sys_ni_syscall */
	PPC64_MMAP = 90,          /* 90  common mmap          sys_mmap */
	PPC64_MUNMAP = 91,        /* 91  common munmap        sys_munmap */
	PPC64_MPROTECT = 125,     /* 125 common mprotect      sys_mprotect */
	PPC64_MREMAP = 163,       /* 163 common mremap        sys_mremap */
	PPC64_WAIT4 = 114,        /* 114 common wait4         sys_wait4 */
	PPC64_CLONE = 120,        /* 120 common clone         sys_clone */
	PPC64_NEWSELECT = 142,    /* 142 common _newselect    sys_select: the select glibc calls */
	PPC64_READV = 145,        /* 145 common readv         sys_readv */
	PPC64_POLL = 167,         /* 167 common poll          sys_poll */
	PPC64_VFORK = 189,        /* 189 common vfork         sys_vfork */
	PPC64_MADVISE = 205,      /* 205 common madvise       sys_madvise */
	PPC64_FUTEX = 221,        /* 221 common futex         sys_futex */
	PPC64_EXIT_GROUP = 234,   /* 234 common exit_group    sys_exit_group */
	PPC64_EPOLL_WAIT = 238,   /* 238 common epoll_wait    sys_epoll_wait */
	PPC64_PSELECT6 = 280,     /* 280 common pselect6      sys_pselect6 */
	PPC64_PPOLL = 281,        /* 281 common ppoll         sys_ppoll */
	PPC64_EPOLL_PWAIT = 303,  /* 303 common epoll_pwait   sys_epoll_pwait */
	PPC64_EXECVEAT = 362,     /* 362 common execveat      sys_execveat */
	PPC64_CLONE3 = 435,       /* 435 nospu  clone3        sys_clone3 */
	PPC64_EPOLL_PWAIT2 = 441, /* 441 common epoll_pwait2  sys_epoll_pwait2 */
};

/*
 * dcbt / dcbtst TH (bits 6:10; Book II §3.2, the dcbt and dcbtst pages):
 * TH = 0b00000 names the block that holds the byte addressed; the other
 * values describe data streams for the hardware prefetcher (0b01000,
 * 0b01010) or are reserved, and the model's prefetcher takes no hints: no
 * memory effect (docs/ppc64-isa.md "Prefetch").  dcbt fills the L1 data
 * cache; dcbtst the L2, because POWER7's L1 data cache is store-through
 * and a store writes the L2 (docs/ppc64-isa.md gives the source).
 */
#define TH_BLOCK 0u

static enum hvpmu_pf_dest ppc64_prefetch_dest(uint32_t word)
{
	struct hvpmu_ppc64_operands o;

	hvpmu_ppc64_operands(word, &o);
	if (!o.prefetch || o.th != TH_BLOCK)
		return HVPMU_PF_NONE;
	return o.prefetch == HVPMU_PPC64_TOUCH_STORE ? HVPMU_PF_L2 : HVPMU_PF_L1;
}

/* An instruction for the donor search (prefetch_search.h): the registers
 * its address adds (NOREG: none; RA = 0 reads 0, RB = 0 is r0) and its
 * displacement. */
#define NOREG 32u
static void ppc64_pf_decode(uint32_t word, struct pf_insn *out)
{
	struct hvpmu_ppc64_operands o;

	hvpmu_ppc64_operands(word, &o);
	*out = (struct pf_insn){ .prefetch = o.prefetch, .donor = o.donor, .cti = o.cti, .writes = o.writes };
	if (o.form == HVPMU_PA_D || o.form == HVPMU_PA_X)
		pf_set_addr(out, o.ra ? o.ra : (uint8_t)NOREG, o.form == HVPMU_PA_X ? o.rb : (uint8_t)NOREG,
			    o.form == HVPMU_PA_D ? o.offset : 0, NOREG);
}

/*
 * The rule of hvpmu_prefetch_resolve() (hvpmu/prefetch.h) without delay
 * slots: the nearest earlier donor whose address registers are not
 * written from the donor (included) up to the prefetch, else the nearest
 * later one with no write to them strictly between and no control
 * transfer before it (QEMU ends a block at a branch, so a later donor is
 * in the same block only when none comes between).  A prefetch (dcbt,
 * dcbtst: X-form) always reads RB: never ABSOLUTE.
 */
static const struct pf_search_isa ppc64_pf_search = { .decode = ppc64_pf_decode, .slot_runs = 0 };

static enum hvpmu_pf_how ppc64_prefetch_resolve(const uint32_t *words, uint32_t n, uint32_t i,
						struct hvpmu_pf_link *out)
{
	return pf_search_donor(&ppc64_pf_search, words, n, i, out);
}

/*
 * bc's, bclr's and bcctr's outcome from CR and CTR (Power ISA 2.06B
 * Book I 2.4 "Branch Instructions": opcode 16, and 19 with XO 16 or 528;
 * BO in bits 6:10 and BI in 11:15 of the word,
 * i.e. bits 25:21 and 20:16 counted from the right).  BO_0 (0x10) ignores
 * the condition, BO_1 (0x08) is the CR bit's wanted value, BO_2 (0x04)
 * leaves CTR alone, BO_3 (0x02) branches on CTR = 0 after the decrement.
 * The names are those of QEMU's power64-core.xml: "cr" (32 bits, CR0 in
 * the high nibble), "ctr" (64 bits; 64-bit mode).
 */
/* sc (opcode 17) runs again from its own address when the system call
 * is restarted (QEMU linux-user/ppc cpu_loop: nip -= 4 on
 * -QEMU_ERESTARTSYS).  So do the atomic memory operations QEMU has no
 * parallel code for (Power ISA 3.0 Book II 4.5: lwat/ldat, opcode 31 XO
 * 582/614, with function code 16, 24, 25 or 28; stwat/stdat, XO 710/742,
 * with 24; the function code in the RB field, bits 11:15): with several
 * threads their first run leaves the block before it takes effect and
 * cpu_exec_step_atomic() runs them again, alone (QEMU 10.0
 * target/ppc/translate.c gen_ld_atomic, gen_st_atomic: "Restart with
 * exclusive lock"). */
static int ppc64_restarts(uint32_t w)
{
	unsigned xo = (w >> 1) & 0x3ff, fc = (w >> 11) & 0x1f;

	if (w >> 26 == 17)
		return 1;
	if (w >> 26 != 31)
		return 0;
	if (xo == 582 || xo == 614)
		return fc == 16 || fc == 24 || fc == 25 || fc == 28;
	return (xo == 710 || xo == 742) && fc == 24;
}

/* bc (opcode 16), bclr and bcctr (opcode 19, XO 16 and 528 in bits 1:10) */
static int ppc64_is_bc(uint32_t w)
{
	unsigned xo = (w >> 1) & 0x3ff;

	return w >> 26 == 16 || (w >> 26 == 19 && (xo == 16 || xo == 528));
}

static const char *const ppc64_cond_reg_needs[] = { "cr", "ctr", NULL };

static int ppc64_cond_regs(uint32_t w, const char *names[])
{
	if (!ppc64_is_bc(w))
		return -1;
	names[0] = "cr";
	names[1] = "ctr";
	return 2;
}

static int ppc64_cond_taken(uint32_t w, const uint64_t vals[])
{
	unsigned bo = (w >> 21) & 31, bi = (w >> 16) & 31;
	int ctr_ok = (bo & 0x04) || ((vals[1] - 1 != 0) != ((bo & 0x02) != 0));
	int cond_ok = (bo & 0x10) || ((unsigned)((vals[0] >> (31 - bi)) & 1) == ((bo & 0x08) != 0));

	if (!ppc64_is_bc(w) || (w >> 26 == 19 && ((w >> 1) & 0x3ff) == 528 && !(bo & 0x04)))
		return -1; /* (bcctr that would decrement CTR: an invalid form) */
	return ctr_ok && cond_ok;
}

const struct hvpmu_isa hvpmu_isa_ppc64 = {
	.name = "ppc64",
	.elf_class = ELFCLASS64,
	.elf_data = ELFDATA2MSB,
	.elf_machine = EM_PPC64,
	.qemu_target = "ppc64",
	.qemu_user = "qemu-ppc64",
	.qemu_reserved_va = "0x10000000000", /* 1 TiB */
	.sysroot = "/usr/powerpc64-linux-gnu",
	.insn_bytes = PPC_INSN_BYTES,
	.big_endian = 1,
	.delay_slot = 0,
	.annul_in_block = 0,
	.sc = {
		.exit = PPC64_EXIT, .exit_group = PPC64_EXIT_GROUP, .read = PPC64_READ, .write = PPC64_WRITE,
		.futex = PPC64_FUTEX,
		.waits = { PPC64_READ, PPC64_READV, PPC64_WAIT4, PPC64_POLL, PPC64_PPOLL, PPC64_SELECT,
			   PPC64_PSELECT6, PPC64_EPOLL_WAIT, PPC64_EPOLL_PWAIT, PPC64_EPOLL_PWAIT2,
			   PPC64_NEWSELECT },
		.fork = PPC64_FORK, .vfork = PPC64_VFORK, .clone = PPC64_CLONE, .clone3 = PPC64_CLONE3,
		.mprotect = PPC64_MPROTECT, .munmap = PPC64_MUNMAP, .mremap = PPC64_MREMAP,
		.mmap = PPC64_MMAP, .madvise = PPC64_MADVISE, .execve = PPC64_EXECVE, .execveat = PPC64_EXECVEAT,
		/* asm/unistd.h: clock_gettime 246, gettimeofday 78, time 13,
		 * nanosleep 162, clock_nanosleep 248; asm-generic/errno.h ETIMEDOUT 110 */
		.clock_gettime = 246, .gettimeofday = 78, .time = 13, .nanosleep = 162, .clock_nanosleep = 248,
		.etimedout = 110,
	},
	.restarts = ppc64_restarts,
	.cond_reg_needs = ppc64_cond_reg_needs,
	.decode = hvpmu_ppc64_decode,
	.cond_regs = ppc64_cond_regs,
	.cond_taken = ppc64_cond_taken,
	.prefetch_dest = ppc64_prefetch_dest,
	.prefetch_resolve = ppc64_prefetch_resolve,
};
