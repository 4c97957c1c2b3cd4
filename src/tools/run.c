/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running a program on the modeled machine, for every tool (tools.h
 * run_guest): find it as execvp would, check that it is a program of the
 * machine's instruction set (its ELF identity, hvpmu_sv_program_format),
 * and run it under the ISA's qemu-user with the hvpmu plugin and the
 * tool's request (hvpmu/session.h); pass the tool's signals on to it, and
 * read the result area however the run ended (docs/cli.md "How a run
 * ends").
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tools.h"
#include "progress.h"

/* Whether execve could run file `path`: 0, or -1 with errno (ENOENT, or
 * EACCES for a file without execute permission or not a regular file). */
static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	if (!S_ISREG(st.st_mode) || access(path, X_OK)) {
		errno = EACCES;
		return -1;
	}
	return 0;
}

/* Find PROGRAM as execvp would (PATH search when it has no '/'), and check
 * that it may be executed, as execve would before the emulator is
 * started: 0, or -1 with errno ENOENT (not found: EXIT_NOTFOUND) or
 * EACCES (found, not executable: EXIT_NOEXEC). */
static int resolve_program(const char *prog, char *out, size_t n)
{
	const char *path = getenv("PATH");
	int denied = 0;

	if (strchr(prog, '/')) {
		snprintf(out, n, "%s", prog);
		return executable(out);
	}
	if (!path)
		path = "/bin:/usr/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(out, n, "%.*s/%s", (int)len, len ? path : ".", prog);
		if (executable(out) == 0)
			return 0;
		denied |= errno == EACCES; /* execvp: EACCES if some file was found */
		path += len + (path[len] == ':');
	}
	errno = denied ? EACCES : ENOENT;
	return -1;
}

/* The directory of this executable (/proc/self/exe without its last
 * component) into out; -1 if unknown or too long. */
static int exe_dir(char *out, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", out, n - 1);
	char *slash;

	if (len <= 0 || (size_t)len >= n - 1)
		return -1;
	out[len] = 0;
	slash = strrchr(out, '/');
	if (!slash)
		return -1;
	*slash = 0;
	return 0;
}

/* dir/name into out if it fits and access(mode) allows it. */
static int found(char *out, size_t n, const char *dir, const char *sub, const char *name, int mode)
{
	if ((size_t)snprintf(out, n, "%s%s%s/%s", dir, sub ? "/" : "", sub ? sub : "", name) >= n)
		return 0;
	return access(out, mode) == 0;
}

/* The plugin (docs/packaging.md "Relocation"): $HVPMU_PLUGIN; else beside
 * this executable (the build tree); else HVPMU_PLUGIN_RELDIR from this
 * executable's directory (an installed tree, wherever it was moved: bin/
 * -> lib/<triplet>/hvpmu); else the compiled-in install directory. */
static int find_plugin(char *out, size_t n)
{
	const char *env = getenv("HVPMU_PLUGIN"), *name = "libhvpmu_plugin.so";
	char exe[PATH_MAX];

	if (env) {
		snprintf(out, n, "%s", env);
		return access(out, R_OK);
	}
	if (exe_dir(exe, sizeof exe) == 0 &&
	    (found(out, n, exe, NULL, name, R_OK) || found(out, n, exe, HVPMU_PLUGIN_RELDIR, name, R_OK)))
		return 0;
	snprintf(out, n, "%s/%s", HVPMU_INSTALL_PLUGIN_DIR, name);
	return access(out, R_OK);
}

static double tv_s(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

/* qsort: pairs ("-U", NAME) by NAME's length, longest first. */
static int longer_name_first(const void *a, const void *b)
{
	size_t la = strlen(((char *const *)a)[1]), lb = strlen(((char *const *)b)[1]);

	return la < lb ? 1 : la > lb ? -1 : 0;
}

/* ---- the emulator's process ---- */

/* The signals the tool passes on to the program (docs/cli.md "How a run
 * ends"), and the emulator's pid while it runs. */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NFORWARDED (sizeof forwarded / sizeof forwarded[0])
static volatile pid_t child_pid;

/* A terminal's ^C or ^\ reaches the whole foreground process group, the
 * emulator included (the kernel sends it: si_code SI_KERNEL); it is not
 * sent twice.  Any other sender meant the tool: the program gets it. */
static void forward(int sig, siginfo_t *si, void *uc)
{
	pid_t pid = child_pid;

	(void)uc;
	if (pid > 0 && !(si && si->si_code == SI_KERNEL))
		kill(pid, sig);
}

/* Undo a half-built emulator_argv(). */
static void free_owned(char **owned, size_t n, char **av)
{
	while (n)
		free(owned[--n]); /* free(NULL) for a failed one */
	free(av);
}

/* The emulator's command line: qemu -L SYSROOT [-R RESERVED_VA]
 * [-U VAR | -E VAR=VAL]... -plugin PLUGIN,cfg=REQUEST PROGRAM ARGS. */
static char **emulator_argv(const char *qemu, const char *sysroot, const char *reserved_va, const char *plugin_arg,
			    const char *prog, const char *ld_preload, int argc, char **argv)
{
	extern char **environ;
	size_t nenv = 0;
	char **av, **owned;
	size_t nowned = 0;
	int k = 0, first;

	for (char **e = environ; *e; e++)
		nenv++;
	/* argv, its NULL, then the strings allocated here and a NULL (free_argv) */
	if (!(av = calloc((size_t)argc + 14 + 3 * nenv, sizeof *av)))
		return NULL;
	owned = av + argc + 13 + 2 * nenv; /* scratch: copied after argv's NULL at the end */
	av[k++] = (char *)qemu;
	av[k++] = "-L";
	av[k++] = (char *)sysroot;
	if (reserved_va) { /* the guest's addresses the same at every run (hvpmu_isa.qemu_reserved_va) */
		av[k++] = "-R";
		av[k++] = (char *)reserved_va;
	}
	/* the program sees its environment without hvpmu's own settings
	 * (HVPMU_*, read by this tool and the plugin) and without the preload
	 * of the plugin into the emulator (LD_PRELOAD as it was, or none): its
	 * stack, and so its counts, do not depend on them (qemu -U VAR).  QEMU
	 * 7.2 unsets the first variable whose name starts with VAR, so the
	 * longer names go first. */
	first = k;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "HVPMU_", 6) == 0 && strchr(*e, '=')) {
			av[k++] = "-U";
			if (!(av[k++] = owned[nowned++] = strndup(*e, (size_t)(strchr(*e, '=') - *e)))) {
				free_owned(owned, nowned, av);
				return NULL;
			}
		}
	if (!ld_preload) {
		av[k++] = "-U";
		av[k++] = "LD_PRELOAD";
	}
	qsort(av + first, (size_t)(k - first) / 2, 2 * sizeof *av, longer_name_first);
	if (ld_preload) {
		char *e = malloc(strlen(ld_preload) + sizeof "LD_PRELOAD=");

		if (!e) {
			free_owned(owned, nowned, av);
			return NULL;
		}
		sprintf(e, "LD_PRELOAD=%s", ld_preload);
		av[k++] = "-E";
		av[k++] = owned[nowned++] = e;
	}
	av[k++] = "-plugin";
	av[k++] = (char *)plugin_arg;
	av[k++] = (char *)prog;
	for (int i = 1; i < argc; i++)
		av[k++] = argv[i];
	k++; /* argv's NULL */
	for (size_t i = 0; i < nowned; i++) /* forward: k < the scratch index i */
		av[k++] = owned[i];
	av[k] = NULL;
	return av;
}

/* Free an emulator_argv() vector and the strings it allocated. */
static void free_argv(char **av)
{
	char **p = av;

	if (!av)
		return;
	while (*p)
		p++;
	for (p++; *p; p++)
		free(*p);
	free(av);
}

/* In the child: die with the tool (no emulator outlives it), take the
 * signals as the tool got them, preload the plugin, start the emulator. */
static void exec_emulator(const char *tool, pid_t parent, const sigset_t *mask, char **av, const char *plugin,
			  const char *ld_preload)
{
	char *pre = malloc(strlen(plugin) + (ld_preload ? strlen(ld_preload) + 1 : 0) + 1);

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(EXIT_NOEXEC);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (!pre || !av)
		_exit(EXIT_NOEXEC);
	sprintf(pre, "%s%s%s", plugin, ld_preload ? ":" : "", ld_preload ? ld_preload : "");
	setenv("LD_PRELOAD", pre, 1);
	execvp(av[0], av);
	fprintf(stderr, "%s: %s: %s (scripts/build-qemu.sh builds QEMU 10 with plugins)\n", tool, av[0],
		strerror(errno));
	_exit(EXIT_NOTFOUND);
}

/* One line on how the run ended, before the counts (perf stat prints the
 * program's fatal signal so): rc the program's exit status. */
static void report_end(const char *tool, const char *prog, int status, const struct stat_result *rs)
{
	switch (rs->end) {
	case STAT_END_EXIT:
		break;
	case STAT_END_SIGNAL:
		fprintf(stderr, "%s: %s: %s by signal %d (%s)\n", tool, prog,
			rs->signal == SIGINT ? "interrupted" : "killed", rs->signal, strsignal(rs->signal));
		break;
	case STAT_END_EXEC:
		fprintf(stderr, "%s: %s: replaced itself (execve): the counts stop at the call\n", tool, prog);
		break;
	case STAT_END_NONE:
		fprintf(stderr,
			"%s: %s: %s before the program's end: counts as of the last OS tick, modeled time %.6f s "
			"(each CPU may have run up to %llu cycles more)\n",
			tool, prog,
			WIFSIGNALED(status) ? "the emulator was killed" : "the emulator ended without a last word",
			rs->clock_hz ? (double)rs->tick / (double)rs->clock_hz : 0.0,
			(unsigned long long)rs->stale_cycles);
		break;
	}
}

/*
 * The service of a run that follows the program's processes (rq->follow,
 * docs/service.md): a child process of the tool hosting the machine,
 * listening on an abstract Unix-domain socket whose name goes to name[].
 * It dies with the tool, and ignores the signals the tool passes on to
 * the program: it ends when the program's processes have.  Returns its
 * pid, or -1 after one line on stderr.
 */
static pid_t start_service(const char *tool, const struct stat_request *rq, char *name, size_t n, int *root_w)
{
	/* the terminal's signals go to the program's processes, whose end
	 * ends the service; SIGTERM and SIGHUP end it (the tool passes them
	 * on once the program's first process is gone) */
	static const int ignored[] = { SIGINT, SIGQUIT };
	int root[2];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timespec ts;
	pid_t pid, parent = getpid();
	int fd;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(name, n, "hvpmu-%d-%ld", (int)parent, (long)(ts.tv_nsec ^ ts.tv_sec));
	memcpy(sa.sun_path + 1, name, strlen(name)); /* abstract: no file */
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name))) ||
	    listen(fd, 64)) {
		fprintf(stderr, "%s: cannot create the service's socket: %s\n", tool, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (pipe2(root, O_CLOEXEC)) {
		fprintf(stderr, "%s: pipe: %s\n", tool, strerror(errno));
		close(fd);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		char err[512];

		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(EXIT_NOEXEC);
		for (unsigned i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
			signal(ignored[i], SIG_IGN);
		close(root[1]);
		if (hvpmu_service_run(rq, fd, root[0], err, sizeof err)) {
			fprintf(stderr, "%s: service: %s\n", tool, err);
			_exit(EXIT_NOEXEC);
		}
		_exit(0);
	}
	close(fd);
	close(root[0]);
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", tool, strerror(errno));
		close(root[1]);
	} else {
		*root_w = root[1]; /* closed once the program's first process is reaped */
	}
	return pid;
}

/* An emulator the tool runs, with the tool's signals passed on to it
 * (forward) from its start to emulator_done. */
struct emulator_run {
	pid_t pid;
	sigset_t block, mask;
	struct sigaction old[NFORWARDED];
};

/* Start the emulator of argv av (freed here): 0, or -1 after one line. */
static int emulator_start(const char *tool, struct emulator_run *er, char **av, const char *plugin,
			  const char *ld_preload)
{
	struct sigaction act;
	pid_t parent = getpid();

	/* the forwarded signals wait until the handlers know the child */
	sigemptyset(&er->block);
	for (unsigned i = 0; i < NFORWARDED; i++)
		sigaddset(&er->block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &er->block, &er->mask);
	er->pid = fork();
	if (er->pid == 0)
		exec_emulator(tool, parent, &er->mask, av, plugin, ld_preload);
	free_argv(av);
	if (er->pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", tool, strerror(errno));
		sigprocmask(SIG_SETMASK, &er->mask, NULL);
		return -1;
	}
	child_pid = er->pid;
	memset(&act, 0, sizeof act);
	act.sa_sigaction = forward;
	act.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&act.sa_mask);
	for (unsigned i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &act, &er->old[i]);
	sigprocmask(SIG_SETMASK, &er->mask, NULL);
	return 0;
}

/* The emulator's wait status. */
static int emulator_wait(const struct emulator_run *er)
{
	int status = 0;

	while (waitpid(er->pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* The tool's signals are its own again. */
static void emulator_done(struct emulator_run *er)
{
	sigprocmask(SIG_BLOCK, &er->block, NULL);
	child_pid = 0;
	for (unsigned i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &er->old[i], NULL);
	sigprocmask(SIG_SETMASK, &er->mask, NULL);
}

int tool_request_files(const char *tool, struct stat_request *rq, int inherit, int *area_fd, int *req_fd, char *path,
		       size_t n)
{
	char err[512];

	if ((*area_fd = stat_area_create(err, sizeof err)) < 0) {
		fprintf(stderr, "%s: %s\n", tool, err);
		return -1;
	}
	if (!inherit)
		fcntl(*area_fd, F_SETFD, FD_CLOEXEC);
	rq->result_fd = *area_fd;
	if ((*req_fd = memfd_create("hvpmu-request", inherit ? 0 : MFD_CLOEXEC)) < 0) {
		fprintf(stderr, "%s: memfd_create: %s\n", tool, strerror(errno));
		close(*area_fd);
		return -1;
	}
	snprintf(path, n, "/proc/self/fd/%d", *req_fd);
	if (stat_request_write(path, rq, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", tool, err);
		close(*req_fd);
		close(*area_fd);
		return -1;
	}
	return 0;
}

/* The program's comm for the service (its file name; a comma would end
 * the plugin argument). */
static void comm_of(const char *prog, char comm[16])
{
	snprintf(comm, 16, "%.15s", strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog);
	for (char *c = comm; *c; c++)
		if (*c == ',')
			*c = '_';
}

/* The user-mode emulator a platform's programs run under: $HVPMU_QEMU;
 * else HVPMU_QEMU_RELDIR from this executable's directory (an installed
 * tree, wherever it was moved: bin/ -> libexec/hvpmu); else the one of the
 * QEMU build hvpmu was configured with (HVPMU_QEMU_BINDIR:
 * scripts/build-qemu.sh, QEMU 10 with plugins); else the compiled-in
 * install directory; else `name` looked up on PATH. */
static const char *qemu_path(const char *name)
{
	static char buf[PATH_MAX];
	char exe[PATH_MAX];

	if (getenv("HVPMU_QEMU"))
		return getenv("HVPMU_QEMU");
	if (exe_dir(exe, sizeof exe) == 0 && found(buf, sizeof buf, exe, HVPMU_QEMU_RELDIR, name, X_OK))
		return buf;
#ifdef HVPMU_QEMU_BINDIR
	if (found(buf, sizeof buf, HVPMU_QEMU_BINDIR, NULL, name, X_OK))
		return buf;
#endif
	if (found(buf, sizeof buf, HVPMU_INSTALL_QEMU_DIR, NULL, name, X_OK))
		return buf;
	return name;
}

/* hvpmu run: the program attaches to guest rq->guest of the standing
 * service rq->service; the tool passes its signals on and returns the
 * program's exit status. */
static int run_in_service(const char *tool, const struct stat_request *rq, const struct hvpmu_sv_program_format *pf,
			  const char *prog, const char *plugin, const char *ld_preload, int argc, char **argv)
{
	char plugin_arg[PATH_MAX + 256], addr[128], comm[16];
	const char *qemu = qemu_path(pf->qemu_user);
	const char *sysroot = getenv("HVPMU_SYSROOT") ? getenv("HVPMU_SYSROOT") : pf->sysroot;
	struct emulator_run er;
	int status;

	if (hvpmu_service_address(rq->service, addr, sizeof addr) || strpbrk(rq->guest, ", ")) {
		fprintf(stderr, "%s: bad service or guest name\n", tool);
		return EXIT_USAGE;
	}
	comm_of(prog, comm);
	snprintf(plugin_arg, sizeof plugin_arg, "%s,attach=%s,isa=%s,comm=%s%s%s", plugin, addr, pf->isa, comm,
		 rq->guest[0] ? ",guest=" : "", rq->guest);
	if (emulator_start(tool, &er, emulator_argv(qemu, sysroot, pf->qemu_reserved_va, plugin_arg, prog, ld_preload, argc, argv), plugin,
			   ld_preload))
		return EXIT_NOEXEC;
	status = emulator_wait(&er);
	emulator_done(&er);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run_guest(const char *tool, struct stat_request *rq, const struct hvpmu_md *md, int argc, char **argv,
	      struct stat_result *rs, struct run_times *t, int *ok)
{
	char err[512], prog[PATH_MAX], req[64], plugin[PATH_MAX], plugin_arg[PATH_MAX + 128];
	const char *qemu, *sysroot, *ld_preload = getenv("LD_PRELOAD");
	struct hvpmu_sv_program_format pf;
	struct emulator_run er;
	struct timespec t0, t1;
	struct rusage ru;
	int status = 0, rc, req_fd, area_fd;
	char **av;
	pid_t service_pid = 0;
	int root_w = -1, service_failed = 0, sst = 0;

	*ok = 0;
	memset(rs, 0, sizeof *rs);
	if (resolve_program(argv[0], prog, sizeof prog)) {
		int e = errno;

		fprintf(stderr, "%s: %s: %s\n", tool, argv[0], strerror(e));
		return e == EACCES ? EXIT_NOEXEC : EXIT_NOTFOUND;
	}
	if (hvpmu_sv_program_format(md, &pf)) {
		fprintf(stderr, "%s: the machine's instruction set is unknown\n", tool);
		return EXIT_NOEXEC;
	}
	if (!hvpmu_sv_program_of(&pf, prog)) {
		fprintf(stderr, "%s: %s: not a %s ELF executable\n", tool, argv[0], pf.isa);
		return EXIT_NOEXEC;
	}
	if (rq->follow == TOOL_FOLLOW_AUTO) /* stat's default: the whole tree, in one emulator when it is one process */
		rq->follow = !rq->service[0] && tool_program_may_spawn(prog);
	if (find_plugin(plugin, sizeof plugin) || strchr(plugin, ':') || strchr(plugin, ' ')) {
		fprintf(stderr, "%s: cannot find libhvpmu_plugin.so, or its path has ':' or ' ' (set HVPMU_PLUGIN)\n",
			tool);
		return EXIT_NOEXEC;
	}
	if (ld_preload && !*ld_preload)
		ld_preload = NULL;
	if (rq->service[0]) /* hvpmu run: the program runs in a guest of a standing service */
		return run_in_service(tool, rq, &pf, prog, plugin, ld_preload, argc, argv);
	/* no file outlives the run: the request and the result area are
	 * anonymous files the emulator inherits (hvpmu/session.h) */
	if (tool_request_files(tool, rq, 1, &area_fd, &req_fd, req, sizeof req))
		return EXIT_NOEXEC;
	qemu = qemu_path(pf.qemu_user);
	sysroot = getenv("HVPMU_SYSROOT") ? getenv("HVPMU_SYSROOT") : pf.sysroot;
	snprintf(plugin_arg, sizeof plugin_arg, "%s,cfg=%s", plugin, req);
	if (rq->follow) { /* the machine is the service's; every process attaches to it */
		char name[64];

		if ((service_pid = start_service(tool, rq, name, sizeof name, &root_w)) < 0) {
			close(req_fd);
			close(area_fd);
			return EXIT_NOEXEC;
		}
		/* the guests get neither the request nor the result area */
		fcntl(req_fd, F_SETFD, FD_CLOEXEC);
		fcntl(area_fd, F_SETFD, FD_CLOEXEC);
		char comm[16];

		comm_of(prog, comm); /* the program's file name for per-process rows */
		snprintf(plugin_arg, sizeof plugin_arg, "%s,attach=%s,isa=%s,comm=%s", plugin, name, pf.isa, comm);
	}
	av = emulator_argv(qemu, sysroot, pf.qemu_reserved_va, plugin_arg, prog, ld_preload, argc, argv);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = emulator_start(tool, &er, av, plugin, ld_preload);
	close(req_fd);
	if (rc) {
		close(area_fd);
		return EXIT_NOEXEC;
	}
	/* a long run on a terminal says how far it is (progress.c) */
	status = progress_wanted() ? progress_wait(tool, er.pid, area_fd) : emulator_wait(&er);
	if (service_pid > 0) { /* the service ends once every process has */
		child_pid = service_pid; /* the tool's signals end it now */
		close(root_w);
		while (waitpid(service_pid, &sst, 0) < 0 && errno == EINTR)
			;
		service_failed = !WIFEXITED(sst) || WEXITSTATUS(sst);
	}
	emulator_done(&er);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_CHILDREN, &ru);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (service_failed) { /* the counts were the service's: what it left is not the run's */
		if (WIFSIGNALED(sst))
			fprintf(stderr, "%s: the service counting the processes was killed by signal %d (%s): no counts\n",
				tool, WTERMSIG(sst), strsignal(WTERMSIG(sst)));
		else
			fprintf(stderr, "%s: the service counting the processes failed (exit status %d): no counts\n",
				tool, WEXITSTATUS(sst));
		close(area_fd);
		return rc ? rc : EXIT_FAILURE;
	}
	if (stat_area_read(area_fd, rs, err, sizeof err) == 0) {
		t->elapsed = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		t->user = tv_s(ru.ru_utime);
		t->sys = tv_s(ru.ru_stime);
		*ok = 1;
		report_end(tool, argv[0], status, rs);
		if (rs->untracked)
			fprintf(stderr, "%s: %s started %u process%s, not counted (hvpmu stat -f counts a process tree)\n",
				tool, argv[0], rs->untracked, rs->untracked == 1 ? "" : "es");
		if (rs->uncounted) { /* a count that could not be made fails the run */
			fprintf(stderr, "%s: %s: %u block%s or thread%s ran uncounted (the plugin or the service said why): "
					"the counts are incomplete\n",
				tool, argv[0], rs->uncounted, rs->uncounted == 1 ? "" : "s",
				rs->uncounted == 1 ? "" : "s");
			if (rc == 0)
				rc = EXIT_FAILURE;
		}
	} else {
		fprintf(stderr, "%s: no counts: the plugin did not report (%s)\n", tool, err);
		if (rc == 0)
			rc = EXIT_NOEXEC;
	}
	close(area_fd);
	return rc;
}

/* For `hvpmu sweep` (sweep.h), which records and hashes what a run will use. */
const char *tool_qemu_path(const char *name)
{
	return qemu_path(name);
}

int tool_find_plugin(char *out, size_t n)
{
	return find_plugin(out, n);
}
