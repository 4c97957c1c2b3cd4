/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/isa.h - the instruction-set seam of the event source (layer 1,
 * ../shared/DESIGN.md "ISA").  Everything the event source needs to know
 * about the guest's instruction set and its Linux user ABI is one
 * descriptor, struct hvpmu_isa; the event source (src/source/plugin.c) and
 * the tools know no ISA by name.  Implementations: SPARC V9
 * (hvpmu_isa_sparcv9, src/source/isa_sparc.c: hvpmu/sparc_decode.h and the
 * prefetch address recovery of hvpmu/prefetch.h) and MIPS64 n64
 * (hvpmu_isa_mips64, src/source/isa_mips64.c, hvpmu/mips64_decode.h).
 * ppc64 is a new descriptor of the same shape: fixed 32-bit big-endian
 * instruction words, delay slots or none, its own system-call numbers.
 *
 * Everything here is constant data and pure functions: thread-safe.
 */
#ifndef HVPMU_ISA_H
#define HVPMU_ISA_H

#include <stddef.h>
#include <stdint.h>
#include <hvpmu/insn.h>
#include <hvpmu/machine.h>
#include <hvpmu/prefetch.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One decoded instruction, in the generic vocabulary. */
struct hvpmu_insn {
	uint32_t flags;     /* enum hvpmu_ic_flags (hvpmu/insn.h) */
	uint8_t uops;       /* micro-ops it decodes into (>= 1) */
	uint8_t annul;      /* a conditional branch whose delay slot runs only when it is taken
	                       (SPARC a = 1, MIPS branch-likely) */
	uint8_t has_target; /* 1 if `target` is valid: a PC-relative control transfer */
	uint64_t target;    /* its absolute target */
};

/* Calls that may wait for another thread or process, besides futex. */
#define HVPMU_ISA_NWAITS 11

/* Linux system-call numbers of the ISA's user ABI (-1: none). */
struct hvpmu_isa_syscalls {
	int64_t exit, exit_group; /* end a thread / the process */
	int64_t read, write;      /* move data through a file descriptor */
	int64_t fork, vfork, clone, clone3; /* create a process or a thread */
	int64_t mmap, madvise;    /* choose mappings and page sizes */
	int64_t mprotect, munmap, mremap; /* change or drop mappings (the QEMU source's
				     read-only code ranges, docs/event-source.md "Totals only") */
	int64_t execve, execveat; /* replace the program */
	/* may wait for another thread or process (docs/kernel-model.md
	 * "Waiting"): futex with a wait operation, and read, readv, wait4,
	 * poll, ppoll, select, pselect6, epoll_wait, epoll_pwait, epoll_pwait2
	 * and the ISA's second select (_newselect; -1 where select is one call)
	 * in that order */
	int64_t futex;
	int64_t waits[HVPMU_ISA_NWAITS];
	/* the guest's clocks and sleeps, answered in modeled time once
	 * threads run in turns (docs/event-source.md "Guest time"; -1: the
	 * ISA has no such call) */
	int64_t clock_gettime, gettimeofday, time, nanosleep, clock_nanosleep;
	int64_t etimedout;        /* the target's ETIMEDOUT (asm/errno.h) */
	uint8_t timeval_usec_4;   /* struct timeval's tv_usec is a 4-byte int (sparc64) */
};

/* Linux futex operations that wait (include/uapi/linux/futex.h: the
 * command is op & FUTEX_CMD_MASK, without FUTEX_PRIVATE_FLAG 128 and
 * FUTEX_CLOCK_REALTIME 256): FUTEX_WAIT 0, FUTEX_LOCK_PI 6,
 * FUTEX_WAIT_BITSET 9, FUTEX_WAIT_REQUEUE_PI 11, FUTEX_LOCK_PI2 13. */
static inline int hvpmu_isa_futex_waits(uint64_t op)
{
	switch (op & ~(uint64_t)(128 | 256)) {
	case 0: case 6: case 9: case 11: case 13:
		return 1;
	default:
		return 0;
	}
}

/* Call `num` with these arguments may wait for another thread or process
 * (docs/kernel-model.md "Waiting"). */
static inline int hvpmu_isa_call_may_wait(const struct hvpmu_isa_syscalls *sc, int64_t num, const uint64_t args[6])
{
	if (num == sc->futex)
		return hvpmu_isa_futex_waits(args[1]);
	for (unsigned i = 0; i < HVPMU_ISA_NWAITS; i++)
		if (num == sc->waits[i])
			return 1;
	return 0;
}

struct hvpmu_isa {
	const char *name;        /* "sparcv9" */
	/* the program format: ELF e_ident class and data, e_machine */
	uint8_t elf_class;       /* ELFCLASS64 = 2 */
	uint8_t elf_data;        /* ELFDATA2MSB = 2 */
	uint16_t elf_machine;    /* EM_SPARCV9 = 43 */
	/* QEMU user mode */
	const char *qemu_target; /* QEMU's target name (qemu_info_t.target_name): "sparc64" */
	const char *qemu_user;   /* the binary: "qemu-sparc64" */
	/* QEMU's -R (reserved_va): the guest's address space, reserved at
	 * start, in which QEMU places every guest mapping itself.  QEMU 10
	 * otherwise places them where the host's mmap (and its address space
	 * randomisation) puts them, so the program's addresses, and the
	 * memory model's counts, would change from run to run and with the
	 * emulator's own mappings (docs/event-source.md "QEMU"). */
	const char *qemu_reserved_va;
	const char *sysroot;     /* default -L: the Debian cross sysroot, "/usr/sparc64-linux-gnu" */
	/* instruction words */
	uint8_t insn_bytes;      /* every instruction is one word of this many bytes (4) */
	uint8_t big_endian;      /* the words are big-endian in memory */
	uint8_t delay_slot;      /* 1: the instruction after a control transfer runs before it takes effect */
	/* 1: QEMU translates the delay slot of an annulling branch in the
	 * branch's block and fires the slot's instruction callbacks also when
	 * the slot is annulled; the branch is taken iff execution continues at
	 * its target (MIPS branch-likely: docs/mips64-isa.md "Branch-likely
	 * under QEMU 7.2").  0: QEMU ends the block at an annulling branch and
	 * the slot is a block of its own when it runs (SPARC a = 1). */
	uint8_t annul_in_block;
	struct hvpmu_isa_syscalls sc;
	/* Decode the instruction `word` (host order) at `pc`; returns out->flags. */
	uint32_t (*decode)(uint32_t word, uint64_t pc, struct hvpmu_insn *out);
	/* Software prefetch: where the prefetch `word` goes, and its address
	 * recovery in a block of n words (hvpmu/prefetch.h); NULL when the
	 * ISA's prefetches are reported with their address. */
	enum hvpmu_pf_dest (*prefetch_dest)(uint32_t word);
	enum hvpmu_pf_how (*prefetch_resolve)(const uint32_t *words, uint32_t n, uint32_t i,
					      struct hvpmu_pf_link *out);
	/* 1 if the instruction `word` may trap in user mode and run again
	 * from its own address with no program code in between (register-
	 * window spills and fills, a restarted system call, an atomic
	 * instruction QEMU runs again alone in an atomic step); NULL when the
	 * ISA does not say, and the QEMU source then keeps exact per-block
	 * accounting (docs/event-source.md "Totals only"). */
	int (*restarts)(uint32_t word);
	/*
	 * A conditional CTI's outcome from the registers it tests, for the
	 * cases its next instruction's address cannot tell: a branch whose
	 * target is where it falls through (SPARC a = 0 to pc+8, ppc64 bc to
	 * pc+4; docs/branch-prediction.md "Outcomes").  cond_regs puts into
	 * names[] the registers the CTI `word` tests, as QEMU's plugin API
	 * names them (the gdb XML of the target: SPARC "state", "fsr", "o0";
	 * ppc64 "cr", "ctr"), and returns how many (at most
	 * HVPMU_ISA_COND_REGS), or -1 when `word` is not such a CTI.
	 * cond_taken gives 1 (taken) or 0 from their values as read before
	 * the CTI runs (big-endian bytes as the target holds them, widened to
	 * uint64_t), or -1 if they cannot tell.  NULL: the ISA has none.
	 */
	int (*cond_regs)(uint32_t word, const char *names[]);
	int (*cond_taken)(uint32_t word, const uint64_t vals[]);
	/* The registers (NULL-terminated; NULL: none) a conditional CTI to a
	 * register needs (ppc64 bclr, bcctr: "cr", "ctr"): its outcome has no
	 * static edge, so a source that does not follow the next block's
	 * address (totals only with taken branches) reads them. */
	const char *const *cond_reg_needs;
};
#define HVPMU_ISA_COND_REGS 2

extern const struct hvpmu_isa hvpmu_isa_sparcv9;

/* The ISA of that name ("sparcv9"), or NULL. */
const struct hvpmu_isa *hvpmu_isa_by_name(const char *name);

/*
 * Whether the file at `path` is a program of `isa` by its ELF header
 * (System V gABI): the magic, e_ident[EI_CLASS] and [EI_DATA] the ISA's
 * elf_class and elf_data, and e_machine, read in that data encoding, its
 * elf_machine.  1 if so; 0 if not, or if the file cannot be opened or is
 * shorter than the header's first 20 bytes.  Whether it may be executed
 * is the caller's to ask.  The QEMU source's execve following
 * (src/source/attach.c) and the tools (through hvpmu_sv_program_of,
 * hvpmu/supervisor.h) both decide with it.
 */
int hvpmu_isa_is_program(const struct hvpmu_isa *isa, const char *path);

/* The instruction word at `code` (insn_bytes bytes, in memory order), in
 * host order. */
static inline uint32_t hvpmu_isa_word(const struct hvpmu_isa *isa, const uint8_t *code)
{
	return isa->big_endian ? (uint32_t)code[0] << 24 | (uint32_t)code[1] << 16 | (uint32_t)code[2] << 8 | code[3]
			       : (uint32_t)code[3] << 24 | (uint32_t)code[2] << 16 | (uint32_t)code[1] << 8 | code[0];
}

#ifdef __cplusplus
}
#endif
#endif
