/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session host inside QEMU: the entry point of the hvpmu TCG plugin
 * (libhvpmu_plugin.so).  `hvpmu stat` and the other tools start
 * qemu-<arch> with `-plugin libhvpmu_plugin.so,cfg=/proc/self/fd/N`, N an
 * anonymous file holding the request; QEMU calls qemu_plugin_install,
 * which reads the request (hvpmu/session.h) and closes N (the program
 * starts with the descriptors it would have without hvpmu),
 * builds the run -- machine, platform services, guest OS -- and starts the
 * QEMU event source on its machine (hvpmu/qemu_source.h).  This is the one
 * place where layer 5 starts layer 1: the composition root of a run, as
 * perf stat starts the workload (docs/architecture.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hvpmu/qemu_source.h>
#include <hvpmu/session.h>

#define CFG_ARG "cfg="
#define FD_PATH "/proc/self/fd/"

/* QEMU 7.2 plugin entry point (include/qemu/qemu-plugin.h: qemu_plugin_id_t
 * is uint64_t); the plugin library exports it. */
struct qemu_info_t;
__attribute__((visibility("default"))) int qemu_plugin_install(uint64_t id, const struct qemu_info_t *info,
							       int argc, char **argv);

int qemu_plugin_install(uint64_t id, const struct qemu_info_t *info, int argc, char **argv)
{
	static struct hvpmu_session *run; /* lives until the process ends */
	struct stat_request rq;
	const char *cfg = NULL;
	char err[512];
	int fd, used = 0;

	const char *attach = NULL, *isa = NULL, *comm = NULL, *guest = "";
	int follow = 0;
	unsigned long exec_of = 0;

	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], CFG_ARG, strlen(CFG_ARG)) == 0)
			cfg = argv[i] + strlen(CFG_ARG);
		else if (strncmp(argv[i], "attach=", 7) == 0)
			attach = argv[i] + 7;
		else if (strncmp(argv[i], "isa=", 4) == 0)
			isa = argv[i] + 4;
		else if (strcmp(argv[i], "follow=1") == 0)
			follow = 1;
		else if (strncmp(argv[i], "comm=", 5) == 0)
			comm = argv[i] + 5;
		else if (strncmp(argv[i], "guest=", 6) == 0)
			guest = argv[i] + 6;
		else if (strncmp(argv[i], "exec=", 5) == 0)
			exec_of = strtoul(argv[i] + 5, NULL, 10);
	/* attached to a service (docs/service.md): the machine is the
	 * service's, this process only streams the program's execution */
	if (follow && !attach) { /* started by an uncounted process: run, follow execve */
		if (!hvpmu_isa_by_name(isa)) {
			fprintf(stderr, "hvpmu plugin: follow=1 needs isa=NAME of a known ISA\n");
			return -1;
		}
		return hvpmu_qemu_follow_start(id, hvpmu_isa_by_name(isa), 1);
	}
	if (attach) {
		if (!hvpmu_isa_by_name(isa) || exec_of > UINT32_MAX) {
			fprintf(stderr, "hvpmu plugin: attach= needs isa=NAME of a known ISA and a valid exec=N\n");
			return -1;
		}
		return hvpmu_qemu_attach_start(id, info, hvpmu_isa_by_name(isa), attach, (uint32_t)exec_of, comm,
					       guest);
	}
	if (!cfg) {
		fprintf(stderr, "hvpmu plugin: missing argument cfg=FILE (or attach=SERVICE)\n");
		return -1;
	}
	if (stat_request_read(cfg, &rq, err, sizeof err)) {
		fprintf(stderr, "hvpmu plugin: %s\n", err);
		return -1;
	}
	if (sscanf(cfg, FD_PATH "%d%n", &fd, &used) == 1 && cfg[used] == 0 && fd > 2)
		close(fd);
	if (hvpmu_session_create(&rq, &run, err, sizeof err)) {
		fprintf(stderr, "hvpmu plugin: %s\n", err);
		return -1;
	}
	hvpmu_session_own_dispatcher(run); /* one emulator, no service: the session dispatches (PAPR) */
	return hvpmu_qemu_source_start(id, info, hvpmu_session_machine(run), hvpmu_session_isa(run),
				       hvpmu_session_totals_only(run));
}
