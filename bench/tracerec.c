/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracerec - a QEMU 10 TCG plugin (API v4) for qemu-sparc64 that records
 * the memory references of a real program as an hvpmu trace
 * (docs/trace-format.md), for bench/memcore.sh: the model core fed a
 * recorded reference stream (issue 3).  Not part of hvpmu proper.
 *
 *   qemu-sparc64 -plugin libtracerec.so,out=FILE[,max=N][,skip=N] PROGRAM ...
 *
 * The records are the references hvpmu's own plugin (src/source/plugin.c)
 * feeds the memory model, in the same order: one instruction fetch per
 * executed translation block (its start address and 4 bytes per
 * instruction, at block entry), and one data reference per memory
 * callback (address, size, read or write; atomic, prefetch and block
 * attributes from the SPARC decoder).  `skip` references are left out at
 * the start, then at most `max` are written (default: all).  One guest
 * thread (vCPU 0) only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/trace.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct rec_block {
	uint64_t vaddr;
	uint32_t bytes;
};

struct rec_insn {
	uint32_t pc;
	uint8_t attr;
	uint8_t is_store;
};

static struct hvpmu_trace *T;
static uint64_t skip, left = UINT64_MAX, written;
static int failed;

static void put(const struct hvpmu_trace_rec *r)
{
	if (skip) {
		skip--;
		return;
	}
	if (!left || failed)
		return;
	left--;
	if (hvpmu_trace_write(T, r)) {
		fprintf(stderr, "tracerec: %s\n", hvpmu_trace_error(T));
		failed = 1;
		return;
	}
	written++;
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	const struct rec_block *b = udata;
	struct hvpmu_trace_rec r = { b->vaddr, (uint32_t)b->vaddr, (uint16_t)b->bytes, HVPMU_TRACE_IFETCH, 0 };

	if (vcpu == 0)
		put(&r);
}

static void mem_exec(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	const struct rec_insn *i = udata;
	int st = i->is_store || qemu_plugin_mem_is_store(info);
	struct hvpmu_trace_rec r = { vaddr, i->pc, (uint16_t)(1u << qemu_plugin_mem_size_shift(info)),
				     st ? HVPMU_TRACE_WRITE : HVPMU_TRACE_READ, i->attr };

	if (vcpu != 0)
		return;
	if (st && r.attr == HVPMU_TRACE_PREFETCH)
		r.attr = 0;
	put(&r);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct rec_block *b = malloc(sizeof *b); /* lives until exit */

	(void)id;
	if (!b || !n) {
		free(b);
		return;
	}
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->bytes = (uint32_t)n * 4;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, b);
	for (size_t k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
		uint8_t p[4];
		struct hvpmu_sparc_insn d;
		uint32_t word = 0;
		struct rec_insn *ri;

		if (qemu_plugin_insn_size(insn) == 4 && qemu_plugin_insn_data(insn, p, 4) == 4)
			word = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		hvpmu_sparc_decode(word, qemu_plugin_insn_vaddr(insn), &d);
		if (!(d.flags & (HVPMU_IC_LOAD | HVPMU_IC_STORE | HVPMU_IC_ATOMIC | HVPMU_IC_PREFETCH)))
			continue;
		if (!(ri = malloc(sizeof *ri)))
			continue;
		ri->pc = (uint32_t)qemu_plugin_insn_vaddr(insn);
		ri->is_store = (d.flags & HVPMU_IC_STORE) != 0;
		ri->attr = (d.flags & HVPMU_IC_ATOMIC) ? HVPMU_TRACE_ATOMIC :
			   (d.flags & HVPMU_IC_PREFETCH) ? HVPMU_TRACE_PREFETCH :
			   (d.flags & HVPMU_IC_BLOCK) ? HVPMU_TRACE_BLOCK : 0;
		qemu_plugin_register_vcpu_mem_cb(insn, mem_exec, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, ri);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (hvpmu_trace_close(T))
		failed = 1;
	fprintf(stderr, "tracerec: %llu references written%s\n", (unsigned long long)written,
		failed ? " (write error)" : "");
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	const char *out = NULL;

	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out = argv[i] + 4;
		else if (!strncmp(argv[i], "max=", 4))
			left = strtoull(argv[i] + 4, NULL, 0);
		else if (!strncmp(argv[i], "skip=", 5))
			skip = strtoull(argv[i] + 5, NULL, 0);
	}
	if (!out || hvpmu_trace_create(out, HVPMU_TRACE_BIN, &T)) {
		fprintf(stderr, "tracerec: needs out=FILE (a writable path)\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
