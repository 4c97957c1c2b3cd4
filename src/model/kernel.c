/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest kernel's system-call path (docs/kernel-model.md).  QEMU user
 * mode runs only the program; for each of its system calls the machine
 * runs a modeled kernel path, privileged, in MMU context 0:
 *   - the trap-table entry of the syscall trap (`ta 0x6d`, TT 0x16d; SPARC
 *     V9 Tcc: TT = 0x100 + trap number; TL=0 entries are 32 bytes, 8
 *     instructions, at TBA + TT * 32) is fetched, then the handler text
 *     straight-line;
 *   - the trap frame (struct pt_regs) is stored at entry and loaded at
 *     return, the thread_info flags word and the system-call table entry
 *     are loaded;
 * every fetch and reference goes through the ITLB/DTLB in context 0 (the
 * kernel's 4 MB pages, found in the context-0 TSB: TSB hits reach the
 * hypervisor's MMU statistics as ctx0 hits) and through the caches, and
 * the path retires its instructions in privileged mode.  All sizes and
 * addresses are data: struct hvpmu_md_kernel (src/model/md.c).
 */
#include <hvpmu/hvpmu.h>
#include "kernel.h"
#include "platform.h"
#include "tlb.h"

#define TT_SYSCALL 0x16du          /* 0x100 + 0x6d: Linux sparc64 64-bit system call */
#define TRAP_ENTRY_SHIFT 5         /* 32-byte trap-table entries */
#define TRAP_ENTRY_INSNS 8
#define TBA_ALIGN (UINT64_C(1) << 15) /* TBA{63:15} */
#define INSN_BYTES 4u
#define TABLE_ENTRY_BYTES 4u       /* Linux sys_call_table64: .word entries */

/* Loads and stores of one system call. */
static uint64_t path_stores(const struct hvpmu_md_kernel *k)
{
	return k->trap_frame_bytes / 8u;
}

static uint64_t path_loads(const struct hvpmu_md_kernel *k)
{
	return k->trap_frame_bytes / 8u + 2u; /* frame, thread_info flags, table entry */
}

static int page_code(uint64_t bytes)
{
	for (unsigned c = 0; c < TLB_NPGSZ; c++)
		if (TLB_PAGE_SIZE(c) == bytes)
			return (int)c;
	return -1;
}

static int region_ok(uint64_t va, uint64_t len, uint64_t page)
{
	return len && !(va & (page - 1)) && !(len & (page - 1)) && len - 1 <= UINT64_MAX - va;
}

static int inside(uint64_t va, uint64_t len, uint64_t base, uint64_t blen)
{
	return va >= base && len <= blen && va - base <= blen - len;
}

int kernel_check(const struct hvpmu_md *md)
{
	const struct hvpmu_md_kernel *k = &md->kernel;
	uint32_t mask = platform_of(md)->kernel_pgmask;
	int code = page_code(k->page_bytes);
	uint64_t text;

	if (k->syscall_insns == 0)
		return HVPMU_OK;
	if (code < 0 || !(mask & TLB_PGMASK(code)) || k->trap_frame_bytes % 8u ||
	    k->syscall_insns < TRAP_ENTRY_INSNS + path_loads(k) + path_stores(k) ||
	    !region_ok(k->text_va, k->text_bytes, k->page_bytes) ||
	    !region_ok(k->data_va, k->data_bytes, k->page_bytes) || k->tba & (TBA_ALIGN - 1) ||
	    k->nsyscalls == 0 || k->trap_frame & 7u || k->thread_info & 7u)
		return HVPMU_EINVAL;
	/* text, the table, the stack inside their mappings, which do not overlap */
	text = (uint64_t)(k->syscall_insns - TRAP_ENTRY_INSNS) * INSN_BYTES;
	if (!inside(k->tba + ((uint64_t)TT_SYSCALL << TRAP_ENTRY_SHIFT), 32, k->text_va, k->text_bytes) ||
	    !inside(k->handler_va, text, k->text_va, k->text_bytes) ||
	    !inside(k->syscall_table, (uint64_t)k->nsyscalls * TABLE_ENTRY_BYTES, k->text_va, k->text_bytes) ||
	    !inside(k->thread_info, 8, k->data_va, k->data_bytes) ||
	    !inside(k->trap_frame, k->trap_frame_bytes, k->data_va, k->data_bytes) ||
	    inside(k->data_va, 1, k->text_va, k->text_bytes) || inside(k->text_va, 1, k->data_va, k->data_bytes))
		return HVPMU_EINVAL;
	return HVPMU_OK;
}

/* Context-0 mappings, declared at the first system call (so that a
 * program that makes none keeps its physical layout). */
static int map_kernel(struct hvpmu_machine *m, const struct hvpmu_md_kernel *k)
{
	unsigned code = (unsigned)page_code(k->page_bytes);
	int rc;

	if (machine_kernel_is_mapped(m))
		return HVPMU_OK;
	rc = machine_kernel_map(m, k->text_va, k->text_bytes, code);
	if (!rc)
		rc = machine_kernel_map(m, k->data_va, k->data_bytes, code);
	if (!rc)
		machine_kernel_mapped(m);
	return rc;
}

/* The references and fetches of one system call, in program order. */
static void run_path(struct hvpmu_machine *m, uint32_t strand, const struct hvpmu_md_kernel *k, int64_t num)
{
	uint64_t entry = k->tba + ((uint64_t)TT_SYSCALL << TRAP_ENTRY_SHIFT);
	uint64_t idx = num >= 0 && (uint64_t)num < k->nsyscalls ? (uint64_t)num : 0;
	uint64_t pc = k->handler_va;

	hvpmu_machine_ifetch(m, strand, entry, TRAP_ENTRY_INSNS * INSN_BYTES);
	for (uint32_t off = 0; off < k->trap_frame_bytes; off += 8) /* etrap: save the trap frame */
		hvpmu_machine_dref(m, strand, entry, k->trap_frame + off, 8, HVPMU_IC_STORE, 1);
	hvpmu_machine_dref(m, strand, pc, k->thread_info, 8, HVPMU_IC_LOAD, 0);
	hvpmu_machine_ifetch(m, strand, k->handler_va, (k->syscall_insns - TRAP_ENTRY_INSNS) * INSN_BYTES);
	hvpmu_machine_dref(m, strand, pc, k->syscall_table + idx * TABLE_ENTRY_BYTES, TABLE_ENTRY_BYTES,
			   HVPMU_IC_LOAD, 0);
	for (uint32_t off = 0; off < k->trap_frame_bytes; off += 8) /* rtrap: restore it */
		hvpmu_machine_dref(m, strand, pc, k->trap_frame + off, 8, HVPMU_IC_LOAD, 0);
}

int hvpmu_machine_syscall(struct hvpmu_machine *m, uint32_t strand, int64_t num, int returns)
{
	const struct hvpmu_md *md;
	const struct hvpmu_md_kernel *k;
	uint64_t flat;
	int rc;

	if (!m || strand >= hvpmu_machine_nstrands(m))
		return HVPMU_ERANGE;
	if (hvpmu_machine_mode(m, strand) != HVPMU_MODE_PRIV)
		return HVPMU_EINVAL;
	md = hvpmu_machine_md(m);
	k = &md->kernel;
	flat = md->timing.syscall_cycles;
	if (returns && k->syscall_insns) {
		uint64_t insn_cycles = (uint64_t)k->syscall_insns * md->timing.insn_cycles;

		rc = map_kernel(m, k);
		if (rc)
			return rc;
		machine_set_ctx(m, strand, 0);
		run_path(m, strand, k, num);
		machine_set_ctx(m, strand, machine_user_ctx(m, strand));
		rc = machine_retire(m, strand, HVPMU_IC_STORE, path_stores(k));
		if (!rc)
			rc = machine_retire(m, strand, HVPMU_IC_LOAD, path_loads(k));
		if (!rc)
			rc = machine_retire(m, strand, HVPMU_IC_OTHER,
					    k->syscall_insns - path_loads(k) - path_stores(k));
		if (rc)
			return rc;
		/* the retired instructions cost insn_cycles each: the rest of
		 * syscall_cycles is the path's unmodeled work */
		flat = flat > insn_cycles ? flat - insn_cycles : 0;
	}
	return hvpmu_machine_add_cycles(m, strand, HVPMU_MODE_PRIV, flat);
}
