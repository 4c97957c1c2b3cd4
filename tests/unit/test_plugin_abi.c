/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_plugin_abi.c - hvpmu's own declarations of the QEMU 7.2 TCG plugin
 * API v1 (src/source/qemu_plugin_api.h) against the facts recorded from
 * qemu/qemu include/qemu/qemu-plugin.h @v7.2.0 in
 * ../shared/reference/anchors.md §1.1 (version, id type), §1.2
 * (qemu_info_t layout on x86-64) and §1.3 (enum values), §1.4 (callback
 * and function shapes).  No Debian package ships qemu-plugin.h, so this is
 * the only check that the plugin's view of the ABI matches QEMU's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "source/qemu_plugin_api.h"

#define SAME_TYPE(a, b) __builtin_types_compatible_p(a, b)

/* §1.4 callback typedefs */
_Static_assert(SAME_TYPE(qemu_plugin_simple_cb_t, void (*)(qemu_plugin_id_t)), "simple cb");
_Static_assert(SAME_TYPE(qemu_plugin_udata_cb_t, void (*)(qemu_plugin_id_t, void *)), "udata cb");
_Static_assert(SAME_TYPE(qemu_plugin_vcpu_simple_cb_t, void (*)(qemu_plugin_id_t, unsigned int)),
	       "vcpu simple cb");
_Static_assert(SAME_TYPE(qemu_plugin_vcpu_udata_cb_t, void (*)(unsigned int, void *)),
	       "vcpu udata cb has no id");
_Static_assert(SAME_TYPE(qemu_plugin_vcpu_tb_trans_cb_t, void (*)(qemu_plugin_id_t, struct qemu_plugin_tb *)),
	       "tb trans cb");
_Static_assert(SAME_TYPE(qemu_plugin_vcpu_syscall_cb_t,
			 void (*)(qemu_plugin_id_t, unsigned int, int64_t, uint64_t, uint64_t, uint64_t,
				  uint64_t, uint64_t, uint64_t, uint64_t, uint64_t)),
	       "syscall cb: 8 arguments");
_Static_assert(SAME_TYPE(qemu_plugin_vcpu_syscall_ret_cb_t,
			 void (*)(qemu_plugin_id_t, unsigned int, int64_t, int64_t)),
	       "syscall ret cb");

/* §1.4 functions the plugin uses */
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_register_vcpu_tb_exec_cb),
			 void (*)(struct qemu_plugin_tb *, qemu_plugin_vcpu_udata_cb_t,
				  enum qemu_plugin_cb_flags, void *)),
	       "register_vcpu_tb_exec_cb");
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_register_vcpu_insn_exec_cb),
			 void (*)(struct qemu_plugin_insn *, qemu_plugin_vcpu_udata_cb_t,
				  enum qemu_plugin_cb_flags, void *)),
	       "register_vcpu_insn_exec_cb");
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_register_vcpu_insn_exec_inline),
			 void (*)(struct qemu_plugin_insn *, enum qemu_plugin_op, void *, uint64_t)),
	       "register_vcpu_insn_exec_inline");
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_register_atexit_cb),
			 void (*)(qemu_plugin_id_t, qemu_plugin_udata_cb_t, void *)),
	       "register_atexit_cb");
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_tb_n_insns), size_t (*)(const struct qemu_plugin_tb *)),
	       "tb_n_insns");
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_tb_vaddr), uint64_t (*)(const struct qemu_plugin_tb *)),
	       "tb_vaddr");
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_tb_get_insn),
			 struct qemu_plugin_insn *(*)(const struct qemu_plugin_tb *, size_t)),
	       "tb_get_insn");
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_insn_data), const void *(*)(const struct qemu_plugin_insn *)),
	       "insn_data");
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_insn_vaddr), uint64_t (*)(const struct qemu_plugin_insn *)),
	       "insn_vaddr");
_Static_assert(SAME_TYPE(__typeof__(&qemu_plugin_install),
			 int (*)(qemu_plugin_id_t, const qemu_info_t *, int, char **)),
	       "qemu_plugin_install");

static void test_info_layout(void **state)
{
	(void)state;
	/* §1.2: size 32; offsets 0, 8, 12, 16, 20, 24 on x86-64 */
	assert_int_equal(sizeof(qemu_info_t), 32);
	assert_int_equal(offsetof(qemu_info_t, target_name), 0);
	assert_int_equal(offsetof(qemu_info_t, version.min), 8);
	assert_int_equal(offsetof(qemu_info_t, version.cur), 12);
	assert_int_equal(offsetof(qemu_info_t, system_emulation), 16);
	assert_int_equal(offsetof(qemu_info_t, system.smp_vcpus), 20);
	assert_int_equal(offsetof(qemu_info_t, system.max_vcpus), 24);
	assert_int_equal(sizeof(((qemu_info_t *)0)->system_emulation), 1);
	assert_int_equal(sizeof(((qemu_info_t *)0)->version.min), sizeof(int));
}

static void test_enums(void **state)
{
	(void)state;
	/* §1.3 */
	assert_int_equal(QEMU_PLUGIN_CB_NO_REGS, 0);
	assert_int_equal(QEMU_PLUGIN_CB_R_REGS, 1);
	assert_int_equal(QEMU_PLUGIN_CB_RW_REGS, 2);
	assert_int_equal(QEMU_PLUGIN_MEM_R, 1);
	assert_int_equal(QEMU_PLUGIN_MEM_W, 2);
	assert_int_equal(QEMU_PLUGIN_MEM_RW, 3);
	assert_int_equal(QEMU_PLUGIN_INLINE_ADD_U64, 0);
	assert_int_equal(sizeof(enum qemu_plugin_cb_flags), 4);
	assert_int_equal(sizeof(enum qemu_plugin_mem_rw), 4);
	assert_int_equal(sizeof(enum qemu_plugin_op), 4);
	assert_int_equal(sizeof(qemu_plugin_meminfo_t), 4);
}

static void test_version_and_ids(void **state)
{
	(void)state;
	/* §1.1: QEMU_PLUGIN_VERSION of 7.2 is 1; qemu_plugin_id_t is uint64_t */
	assert_int_equal(HVPMU_QEMU_PLUGIN_VERSION, 1);
	assert_int_equal(sizeof(qemu_plugin_id_t), 8);
	assert_true(SAME_TYPE(qemu_plugin_id_t, uint64_t));
	assert_true(SAME_TYPE(qemu_plugin_meminfo_t, uint32_t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info_layout),
		cmocka_unit_test(test_enums),
		cmocka_unit_test(test_version_and_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
