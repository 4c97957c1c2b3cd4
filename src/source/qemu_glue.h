/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the QEMU event source (plugin.c, attach.c) builds on QEMU 10's TCG
 * plugin API (QEMU_PLUGIN_VERSION 4, qemu-plugin.h of the QEMU that
 * scripts/build-qemu.sh builds) beyond single calls: counter slots in
 * scoreboards for inline adds, an instruction's word, and the guest's
 * read-only code ranges; and what both sources need at their start and
 * end (the API check, the wall time), so that the in-process source
 * (plugin.c) and the attached one (attach.c) share this lower module and
 * only plugin.c calls attach.c (its kill() and execve following), never
 * the other way.  Nothing here reaches past the API (docs/event-source.md
 * "QEMU").  Plugin-only: the library has no QEMU.
 */
#ifndef HVPMU_QEMU_GLUE_H
#define HVPMU_QEMU_GLUE_H

#include <stdint.h>
#include <qemu-plugin.h>
#include <hvpmu/isa.h>

/* Our QEMU patch 0004's calls (guest time, gtime.h): weak in every file
 * that uses them, so that the plugin loads into an emulator built
 * without the patch (plugin.c registers the filter only if all three
 * are there), and into the other programs its preload reaches (a shell
 * script standing in for the emulator). */
#pragma weak qemu_plugin_register_vcpu_syscall_filter_cb
#pragma weak qemu_plugin_write_memory_vaddr
#pragma weak qemu_plugin_guest_host_address

/* The plugin API version hvpmu is written for (qemu_plugin_version). */
#define HVPMU_QEMU_PLUGIN_VERSION 4

/*
 * Counter slots.  API v2 and later add inline only into scoreboards (one
 * element per vCPU).  A slot is one uint64_t of a chunk scoreboard of
 * FEED_SLOT_CHUNK counters per vCPU, zero when made, never freed (like the
 * blocks that own them, bounded by translations).  The caller keeps the
 * rows: rows[c] is vCPU 0's row of chunk c (feed_slot_in(rows, s), feed.h,
 * is vCPU 0's copy of slot s), written when qg_slot_new() makes the chunk;
 * qg_slot_entry(s) is what an inline operation takes.
 * QEMU moves every scoreboard when the vCPU count passes its allocation
 * (16, then doubling; it flushes all translations then): qg_slots_refresh()
 * re-reads the rows, from the vCPU init and flush callbacks, and says
 * whether they moved (tb_info.execs then follows: feed_slots_moved()).
 * One user of slots per process (the in-process source or the attached
 * one), as QEMU's scoreboards are the process's.
 * Called from translation callbacks (QEMU serialises them); not
 * thread-safe otherwise.  Returns 0, or -1 when out of memory or slots.
 */
int qg_slot_new(uint64_t **rows, uint32_t *slot);
qemu_plugin_u64 qg_slot_entry(uint32_t slot);
int qg_slots_refresh(uint64_t **rows); /* 1 if a row moved (pointers into it must follow) */

/* n bytes of guest memory at guest address ga into out, through
 * qemu_plugin_read_memory_vaddr (from a vCPU's callback): a bad address
 * is an error, not a fault.  0, or -1. */
int qg_guest_read(uint64_t ga, void *out, size_t n);

/* The instruction's word in host order: 0 if it is not one word of the
 * ISA's size (hvpmu_isa_word). */
uint32_t qg_insn_word(const struct hvpmu_isa *isa, const struct qemu_plugin_insn *insn);

/*
 * Read-only code ranges (docs/event-source.md "Totals only"): guest
 * address ranges that hold code the program cannot write, so QEMU never
 * re-translates a block there because of a store.  Known from the main
 * program's ELF program headers (its PT_LOAD segments with PF_X and
 * without PF_W, at the load bias qemu_plugin_start_code() shows), from
 * the interpreter's (found below its entry in guest memory,
 * qg_code_entry()) and from the program's system calls: mmap and mprotect
 * with PROT_EXEC and without PROT_WRITE add their range once they
 * succeed; munmap, mremap, mprotect and a MAP_FIXED mmap take theirs away
 * when they are made.  Anything else (the signal trampoline, a writable
 * PLT) is not known read-only.
 * Thread-safe (a mutex of its own).
 *
 * qg_code_init: the main program's ranges; 0, or -1 (then none are known).
 * qg_code_readonly: [lo, hi) lies in one known range; the range is marked
 *   as used (a block may count on it).
 * qg_code_syscall / qg_code_syscall_ret: at a system call's entry (its
 *   first arguments) and return, from vCPU vcpu_index; the entry returns 1
 *   when it takes away part of a used range: blocks translated on the
 *   promise must be translated again (the caller resets).
 */
int qg_code_init(const struct hvpmu_isa *isa);
/* The program's first translated block, at vaddr: when it is not in the
 * main program, it is the interpreter's entry, and the interpreter's
 * read-only code comes from its ELF headers in guest memory. */
void qg_code_entry(uint64_t vaddr);
int qg_code_readonly(uint64_t lo, uint64_t hi);
int qg_code_syscall(unsigned vcpu_index, int64_t num, const uint64_t args[6]);
void qg_code_syscall_ret(unsigned vcpu_index, int64_t num, int64_t ret);

/*
 * A signal whose default action ends the process without a core (SIGINT,
 * SIGTERM, SIGHUP, SIGPIPE, ...) and that the program leaves at its
 * default: QEMU 10's linux-user leaves the host's default action for it
 * (signal_init installs its handler only for the core-dumping signals),
 * so the emulator would die at once, with no callback and no kill() of
 * its own to report the end with its counts.  qg_signals_to_guest()
 * gives each such signal QEMU's own host handler (the one it installed
 * for SIGSEGV), as QEMU 7.2 did for every signal: QEMU then delivers it
 * to the program, whose default action ends it through
 * dump_core_and_abort() and the kill() the source interposes
 * (docs/event-source.md "The end of a run").  Call once QEMU's signals
 * are set up (the first translation); signals the program or its parent
 * set otherwise are left alone.
 */
void qg_signals_to_guest(void);

/*
 * Registers (plugin API v4 qemu_plugin_get_registers / read_register;
 * QEMU describes them from the target's gdb XML: ppc64 has them, sparc64
 * through scripts/qemu-patches/0001, mips64 none).  qg_regs_init() lists
 * them once, from a vCPU init callback (handles are the same for every
 * vCPU: gdb register numbers).  qg_reg(name): the handle, or NULL.
 * qg_reg_read(): its value, from a callback registered with
 * QEMU_PLUGIN_CB_R_REGS (as it was before that instruction ran), bytes in
 * the target's order (big_endian) widened to uint64_t; 0, or -1 if it
 * cannot be read or is wider than 8 bytes.  Thread-safe once inited.
 */
void qg_regs_init(void);
struct qemu_plugin_register *qg_reg(const char *name);
int qg_reg_read(struct qemu_plugin_register *reg, int big_endian, uint64_t *val);

/*
 * A conditional CTI decided from the registers it tests (hvpmu_isa
 * cond_regs / cond_taken).  qg_cond_make: the handles for the CTI `word`
 * into *c; 0, or -1 when it is not such a CTI or QEMU lacks a register.
 * qg_cond_read: from a QEMU_PLUGIN_CB_R_REGS callback on that CTI, 1
 * (taken) or 0 as the registers are before it runs, or -1.
 */
struct qg_cond {
	uint32_t word;
	int nregs;
	struct qemu_plugin_register *reg[HVPMU_ISA_COND_REGS];
};
int qg_cond_make(const struct hvpmu_isa *isa, uint32_t word, struct qg_cond *c);
int qg_cond_read(const struct hvpmu_isa *isa, const struct qg_cond *c);

/* The QEMU that loaded the plugin runs the plugin API version hvpmu was
 * built for and the ISA's user-mode target: 0, or -1 after one line on
 * stderr (for the in-process and attached sources, plugin.c, attach.c). */
int qemu_source_check(const qemu_info_t *info, const struct hvpmu_isa *isa);

/* HVPMU_PLUGIN_WALL=FILE (bench/service.sh): the source appends the
 * program's name (comm, "-" if NULL) and its wall time in seconds, from
 * qemu_source_wall_start() (the source's start) to qemu_source_wall_end()
 * (the program's exit), to FILE: one guest's time, whether it runs in a
 * machine of its own or attached to a service (plugin.c, attach.c). */
void qemu_source_wall_start(const char *comm);
void qemu_source_wall_end(void);

#endif
