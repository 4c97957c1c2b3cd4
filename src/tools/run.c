/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running a program on the modeled machine, for every tool (tools.h
 * run_guest): find it as execvp would, check that it is a program of the
 * machine's instruction set (its ELF identity, hvpmu_sv_program_format),
 * and run it under the ISA's qemu-user with the hvpmu plugin and the
 * tool's request (hvpmu/session.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tools.h"

/* ELF identification (System V gABI): e_ident[EI_CLASS], [EI_DATA], e_machine. */
#define ELF_IDENT_LEN 20
#define EI_CLASS 4
#define EI_DATA 5
#define E_MACHINE_OFF 18
#define ELFDATA2MSB 2

/* Find PROGRAM as execvp would (PATH search when it has no '/'). */
static int resolve_program(const char *prog, char *out, size_t n)
{
	const char *path = getenv("PATH");

	if (strchr(prog, '/')) {
		snprintf(out, n, "%s", prog);
		return access(out, F_OK) == 0 ? 0 : -1;
	}
	if (!path)
		path = "/bin:/usr/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(out, n, "%.*s/%s", (int)len, len ? path : ".", prog);
		if (access(out, X_OK) == 0)
			return 0;
		path += len + (path[len] == ':');
	}
	errno = ENOENT;
	return -1;
}

/* A program of the machine's processors: ELF, with the ISA's class, data
 * encoding and machine (e_machine is big-endian for a big-endian ISA). */
static int is_program_of(const char *file, const struct hvpmu_sv_program_format *pf)
{
	unsigned char h[ELF_IDENT_LEN];
	int fd = open(file, O_RDONLY);
	unsigned mach;
	ssize_t r;

	if (fd < 0)
		return 0;
	r = read(fd, h, sizeof h);
	close(fd);
	if (r != (ssize_t)sizeof h || memcmp(h, "\177ELF", 4) != 0 || h[EI_CLASS] != pf->elf_class ||
	    h[EI_DATA] != pf->elf_data)
		return 0;
	mach = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[E_MACHINE_OFF] << 8 | h[E_MACHINE_OFF + 1]
			       : (unsigned)h[E_MACHINE_OFF + 1] << 8 | h[E_MACHINE_OFF];
	return mach == pf->elf_machine;
}

static int find_plugin(char *out, size_t n)
{
	const char *env = getenv("HVPMU_PLUGIN");
	char exe[PATH_MAX];
	ssize_t len;

	if (env) {
		snprintf(out, n, "%s", env);
		return access(out, R_OK);
	}
	len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		char *slash;

		exe[len] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			if ((size_t)snprintf(out, n, "%s/libhvpmu_plugin.so", exe) < n && access(out, R_OK) == 0)
				return 0;
		}
	}
	snprintf(out, n, "%s/libhvpmu_plugin.so", HVPMU_INSTALL_PLUGIN_DIR);
	return access(out, R_OK);
}

static double tv_s(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

/* qsort: pairs ("-U", NAME) by NAME's length, longest first. */
static int longer_name_first(const void *a, const void *b)
{
	size_t la = strlen(((char *const *)a)[1]), lb = strlen(((char *const *)b)[1]);

	return la < lb ? 1 : la > lb ? -1 : 0;
}

int run_guest(const char *tool, struct stat_request *rq, const struct hvpmu_md *md, int argc, char **argv,
	      struct stat_result *rs, struct run_times *t, int *ok)
{
	char err[512], prog[PATH_MAX], dir[] = "/tmp/hvpmu.XXXXXX", req[PATH_MAX], plugin[PATH_MAX];
	char plugin_arg[2 * PATH_MAX + 16];
	const char *qemu, *sysroot;
	struct hvpmu_sv_program_format pf;
	struct timespec t0, t1;
	struct rusage ru;
	int status, rc;
	pid_t pid;

	*ok = 0;
	memset(rs, 0, sizeof *rs);
	if (resolve_program(argv[0], prog, sizeof prog)) {
		fprintf(stderr, "%s: %s: %s\n", tool, argv[0], strerror(errno));
		return EXIT_NOTFOUND;
	}
	if (hvpmu_sv_program_format(md, &pf)) {
		fprintf(stderr, "%s: the machine's instruction set is unknown\n", tool);
		return EXIT_NOEXEC;
	}
	if (!is_program_of(prog, &pf)) {
		fprintf(stderr, "%s: %s: not a %s ELF executable\n", tool, argv[0], pf.isa);
		return EXIT_NOEXEC;
	}
	if (find_plugin(plugin, sizeof plugin)) {
		fprintf(stderr, "%s: cannot find libhvpmu_plugin.so (set HVPMU_PLUGIN)\n", tool);
		return EXIT_NOEXEC;
	}
	if (!mkdtemp(dir)) {
		fprintf(stderr, "%s: mkdtemp: %s\n", tool, strerror(errno));
		return EXIT_NOEXEC;
	}
	snprintf(req, sizeof req, "%s/request.json", dir);
	snprintf(rq->out, sizeof rq->out, "%s/result.json", dir);
	if (stat_request_write(req, rq, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", tool, err);
		rmdir(dir);
		return EXIT_NOEXEC;
	}
	qemu = getenv("HVPMU_QEMU") ? getenv("HVPMU_QEMU") : pf.qemu_user;
	sysroot = getenv("HVPMU_SYSROOT") ? getenv("HVPMU_SYSROOT") : pf.sysroot;
	snprintf(plugin_arg, sizeof plugin_arg, "%s,cfg=%s", plugin, req);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		extern char **environ;
		size_t nenv = 0;
		char **av;
		int k = 0;

		for (char **e = environ; *e; e++)
			nenv++;
		if (!(av = calloc((size_t)argc + 8 + 2 * nenv, sizeof *av)))
			_exit(EXIT_NOEXEC);
		av[k++] = (char *)qemu;
		av[k++] = "-L";
		av[k++] = (char *)sysroot;
		/* the program sees its environment without hvpmu's own settings
		 * (HVPMU_*, read by this tool and the plugin): its stack, and so
		 * its counts, do not depend on them (qemu -U VAR).  QEMU 7.2
		 * unsets the first variable whose name starts with VAR, so the
		 * longer names go first. */
		{
			int first = k;

			for (char **e = environ; *e; e++)
				if (strncmp(*e, "HVPMU_", 6) == 0 && strchr(*e, '=')) {
					av[k++] = "-U";
					av[k++] = strndup(*e, (size_t)(strchr(*e, '=') - *e));
				}
			qsort(av + first, (size_t)(k - first) / 2, 2 * sizeof *av, longer_name_first);
		}
		av[k++] = "-plugin";
		av[k++] = plugin_arg;
		av[k++] = prog;
		for (int i = 1; i < argc; i++)
			av[k++] = argv[i];
		execvp(qemu, av);
		fprintf(stderr, "%s: %s: %s (install qemu-user)\n", tool, qemu, strerror(errno));
		_exit(EXIT_NOTFOUND);
	}
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", tool, strerror(errno));
		unlink(req);
		rmdir(dir);
		return EXIT_NOEXEC;
	}
	/* as perf stat: let the program take ^C, then print what was counted */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_CHILDREN, &ru);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (stat_result_read(rq->out, rs, err, sizeof err) == 0) {
		t->elapsed = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		t->user = tv_s(ru.ru_utime);
		t->sys = tv_s(ru.ru_stime);
		*ok = 1;
	} else {
		fprintf(stderr, "%s: no counts: the plugin did not report (%s)\n", tool, err);
		if (rc == 0)
			rc = EXIT_NOEXEC;
	}
	unlink(req);
	unlink(rq->out);
	rmdir(dir);
	return rc;
}
