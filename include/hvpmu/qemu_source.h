/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/qemu_source.h - the QEMU event source (layer 1, src/source/plugin.c):
 * a TCG plugin for QEMU 10 user mode (plugin API v4) that reports a
 * program's retired instructions by class, branch outcomes, memory
 * references and guest-OS events to a machine (hvpmu/machine.h), and
 * nothing else.  What it reports follows hvpmu_machine_features(); the
 * instructions are decoded by the machine's ISA (hvpmu/isa.h).  Each
 * start makes the run's object (src/source/feed.h struct feed), which the
 * plugin's callbacks reach from their data (docs/event-source.md "The
 * run").
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
 * (vCPU) i runs on strand hvpmu_md_vcpu_strand(md, i).  totals_tick: 0,
 * or the OS tick's period in cycles when the run reports only its totals
 * (hvpmu_session_totals_only): the source may then sync the machine at
 * coarser points than every block (docs/event-source.md "Totals only";
 * HVPMU_QUIET=0 in the environment keeps the exact points).  Returns 0,
 * or -1 after one line on stderr (plugin API version, a QEMU target other
 * than the ISA's, no memory).  Once per process.
 */
int hvpmu_qemu_source_start(uint64_t id, const struct qemu_info_t *info, struct hvpmu_machine *m,
			    const struct hvpmu_isa *isa, uint64_t totals_tick);

/*
 * Install the source attached to a service instead (src/source/attach.c,
 * docs/service.md): the program's execution streams to the service named
 * at `service` (a Unix-domain socket: a path, or a run's abstract name;
 * src/common/sock.h: a server of another uid is refused), whose machine runs
 * `isa`; exec_of is 0 for the run's first program, else the service's
 * number of the image whose execve this program is; comm the program's
 * file name (for per-process counts; NULL: none); guest the service's
 * guest to run in (md guests[].name, "" = the first; the plugin argument
 * guest=NAME).  Fork children attach
 * themselves, and an execve of a program of the ISA runs it attached.
 * Returns -1 after one line on stderr (plugin API version, QEMU target,
 * name); 0 otherwise, also when the service cannot be reached or refuses
 * (the program then runs uncounted, with one line on stderr).  Once per
 * process.
 */
int hvpmu_qemu_attach_start(uint64_t id, const struct qemu_info_t *info, const struct hvpmu_isa *isa,
			    const char *service, uint32_t exec_of, const char *comm, const char *guest);
/* Attached and counted. */
int hvpmu_qemu_attach_active(void);

/*
 * Programs a process starts with execve run under this emulator too (the
 * host kernel cannot run them without binfmt_misc): system call `num`
 * with args[0..5], if an execve (or execveat from the current directory)
 * of a program of the ISA, runs it under a new emulator with the plugin
 * (attached as the process's next image when attached, else uncounted,
 * following its own execve calls); returns only if it does not.
 * hvpmu_qemu_follow_start sets the ISA (hvpmu_qemu_attach_start does too)
 * and, with `now`, registers a system-call callback that does only this
 * (an uncounted program: plugin argument follow=1).
 */
void hvpmu_qemu_follow_execve(int64_t num, const uint64_t *args);
int hvpmu_qemu_follow_start(uint64_t id, const struct hvpmu_isa *isa, int now);
/* The program dies of signal sig (the plugin's kill()): its image ends. */
void hvpmu_qemu_attach_end(int sig);

#ifdef __cplusplus
}
#endif
#endif
