/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/qemu_source.h - the QEMU event source (layer 1, src/source/plugin.c):
 * a TCG plugin for QEMU 7.2 user mode (plugin API v1) that reports a
 * program's retired instructions by class, branch outcomes, memory
 * references and guest-OS events to a machine (hvpmu/machine.h), and
 * nothing else.  What it reports follows hvpmu_machine_features(); the
 * instructions are decoded by the machine's ISA (hvpmu/isa.h).
 *
 * The plugin library's qemu_plugin_install is the session host's
 * (src/supervisor/session_qemu.c): it builds the run, then starts the
 * source here.
 */
#ifndef HVPMU_QEMU_SOURCE_H
#define HVPMU_QEMU_SOURCE_H

#include <stdint.h>
#include <hvpmu/isa.h>
#include <hvpmu/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

struct qemu_info_t;

/*
 * Install the source in the QEMU that loaded the plugin, feeding machine
 * `m` (which must outlive the program) whose processors run `isa`; `id`
 * and `info` are those qemu_plugin_install received.  Guest thread
 * (vCPU) i runs on strand hvpmu_md_vcpu_strand(md, i).  Returns 0, or -1
 * after one line on stderr (plugin API version, a QEMU target other than
 * the ISA's, no memory).  Once per process.
 */
int hvpmu_qemu_source_start(uint64_t id, const struct qemu_info_t *info, struct hvpmu_machine *m,
			    const struct hvpmu_isa *isa);

#ifdef __cplusplus
}
#endif
#endif
