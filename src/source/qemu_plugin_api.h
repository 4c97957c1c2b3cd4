/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QEMU TCG plugin interface, version 1 (QEMU 7.2), declared from its
 * documentation: ../shared/reference/anchors.md §1.1-1.4 (qemu/qemu
 * include/qemu/qemu-plugin.h @v7.2.0, docs/devel/tcg-plugins.rst).  No
 * Debian package ships qemu-plugin.h, so hvpmu carries its own declarations
 * of exactly the v1 symbols it uses.  tests/unit/test_plugin_abi.c checks the
 * layouts; tests/integration checks the plugin loads into qemu-sparc64.
 */
#ifndef HVPMU_QEMU_PLUGIN_API_H
#define HVPMU_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define HVPMU_QEMU_PLUGIN_VERSION 1 /* QEMU_PLUGIN_VERSION of 7.2 */

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;

/* anchors.md §1.2: field order and offsets on x86-64 (size 32). */
typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

/* anchors.md §1.3 */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS = 0,
	QEMU_PLUGIN_CB_R_REGS = 1,
	QEMU_PLUGIN_CB_RW_REGS = 2,
};
enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W = 2,
	QEMU_PLUGIN_MEM_RW = 3,
};
enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64 = 0,
};

struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* anchors.md §1.4: callback types */
typedef void (*qemu_plugin_simple_cb_t)(qemu_plugin_id_t id);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num,
					      uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
					      uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8);
typedef void (*qemu_plugin_vcpu_syscall_ret_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_idx,
						  int64_t num, int64_t ret);

/* Functions QEMU exports (resolved when the plugin is dlopen()ed). */
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_exit_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op,
						void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw, void *userdata);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_cb_t cb);
void qemu_plugin_register_vcpu_syscall_ret_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_ret_cb_t cb);
void qemu_plugin_register_flush_cb(qemu_plugin_id_t id, qemu_plugin_simple_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_reset(qemu_plugin_id_t id, qemu_plugin_simple_cb_t cb);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
/* anchors.md §1.4; in user mode the host address of the instruction's
 * bytes (the guest's memory as QEMU maps it) */
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn);

/* Entry point the plugin exports (anchors.md §1.1). */
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv);

/* The QEMU that loaded the plugin runs the plugin API version hvpmu was
 * built for and the ISA's user-mode target: 0, or -1 after one line on
 * stderr (src/source/plugin.c; for the in-process and attached sources). */
struct hvpmu_isa;
int qemu_source_check(const struct qemu_info_t *info, const struct hvpmu_isa *isa);

/* HVPMU_PLUGIN_WALL=FILE (bench/service.sh): the source appends the
 * program's name (comm, "-" if NULL) and its wall time in seconds, from
 * qemu_source_wall_start() (the source's start) to qemu_source_wall_end()
 * (the program's exit), to FILE: one guest's time, whether it runs in a
 * machine of its own or attached to a service (src/source/plugin.c). */
void qemu_source_wall_start(const char *comm);
void qemu_source_wall_end(void);

#endif
