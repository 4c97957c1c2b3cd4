/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu stat [-e EVENT,...] [-x SEP | -j] [-o FILE] -- PROGRAM [ARGS]`:
 * runs a sparc64 program under qemu-sparc64 with the hvpmu plugin (which
 * hosts the machine, hypervisor and guest driver) and prints the counts in
 * perf stat's layout.  The program's stdin, stdout, stderr and exit status
 * pass through.  docs/cli.md describes every option.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
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
#include "events.h"
#include "output.h"
#include "tools.h"

/* ELF identification (System V gABI): class 64, big-endian, EM_SPARCV9. */
#define ELF_IDENT_LEN 20
#define EI_CLASS 4
#define EI_DATA 5
#define ELFCLASS64 2
#define ELFDATA2MSB 2
#define E_MACHINE_OFF 18
#define EM_SPARCV9 43

#define DEFAULT_EVENTS "cycles,instructions,branches,Instr_ld"
#define DEFAULT_EVENTS_T1 "Instr_cnt,DC_miss"
#define MAX_EVENT_LISTS 32

static const char *default_sysroot = "/usr/sparc64-linux-gnu";

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

static int is_sparc64_elf(const char *file)
{
	unsigned char h[ELF_IDENT_LEN];
	int fd = open(file, O_RDONLY);
	ssize_t r;

	if (fd < 0)
		return 0;
	r = read(fd, h, sizeof h);
	close(fd);
	return r == (ssize_t)sizeof h && memcmp(h, "\177ELF", 4) == 0 && h[EI_CLASS] == ELFCLASS64 &&
	       h[EI_DATA] == ELFDATA2MSB && ((h[E_MACHINE_OFF] << 8) | h[E_MACHINE_OFF + 1]) == EM_SPARCV9;
}

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu stat [-e EVENT,...] [-x SEP | -j] [-o FILE] -- PROGRAM [ARGS]\n"
		   "  -e, --event LIST     events: T4 names, perf aliases, sl=N,mask=M, rHHH; :u :k :h\n"
		   "  -x, --field-separator SEP   CSV output (perf stat field order)\n"
		   "  -j, --json-output    JSON lines with perf stat's keys\n"
		   "  -o, --output FILE    write counts to FILE instead of stderr\n"
		   "      --pic-init N     start every PIC at N (32-bit; excluded from counts)\n"
		   "      --overflow-log FILE   log every PIC overflow trap (pic, event, tpc, precise)\n"
		   "      --rotate-cycles N     multiplexing tick in cycles (default 4 ms)\n"
		   "  -p, --platform P     t4 (default), t4-2, t4-4 (2/4 chips) or t1 (UltraSPARC T1: Instr_cnt +\n"
		   "                       one PICL event at a time)\n"
		   "      --placement P    guest threads on strands: pack (default: thread i on strand i)\n"
		   "                       or spread (over chips, then cores)\n"
		   "      --md FILE        machine description (JSON; docs/machine-description.md)\n"
		   "      --hw-prefetch N  L1D hardware prefetcher: N next lines on a load miss (0-4, default 0 = off)\n"
		   "default events: " DEFAULT_EVENTS "\n");
	return EXIT_USAGE;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end || *s == '-' || v > max)
		return -1;
	*out = v;
	return 0;
}

static void join_cmdline(char *dst, size_t n, int argc, char **argv)
{
	size_t used = 0;

	dst[0] = 0;
	for (int i = 0; i < argc && used < n; i++)
		used += (size_t)snprintf(dst + used, n - used, "%s%s", i ? " " : "", argv[i]);
}

static double tv_s(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

/* qsort: pairs ("-U", NAME) by NAME's length, longest first. */
static int longer_name_first(const void *a, const void *b)
{
	size_t la = strlen(((char *const *)a)[1]), lb = strlen(((char *const *)b)[1]);

	return la < lb ? 1 : la > lb ? -1 : 0;
}

int run_guest(const char *tool, struct stat_request *rq, int argc, char **argv, struct stat_result *rs,
	      struct run_times *t, int *ok)
{
	char err[512], prog[PATH_MAX], dir[] = "/tmp/hvpmu.XXXXXX", req[PATH_MAX], plugin[PATH_MAX];
	char plugin_arg[2 * PATH_MAX + 16];
	const char *qemu, *sysroot;
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
	if (!is_sparc64_elf(prog)) {
		fprintf(stderr, "%s: %s: not a sparc64 ELF executable\n", tool, argv[0]);
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
	qemu = getenv("HVPMU_QEMU") ? getenv("HVPMU_QEMU") : "qemu-sparc64";
	sysroot = getenv("HVPMU_SYSROOT") ? getenv("HVPMU_SYSROOT") : default_sysroot;
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

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json-output", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "pic-init", required_argument, NULL, 'P' },
		{ "overflow-log", required_argument, NULL, 'L' },
		{ "rotate-cycles", required_argument, NULL, 'R' },
		{ "platform", required_argument, NULL, 'p' },
		{ "md", required_argument, NULL, 'M' },
		{ "hw-prefetch", required_argument, NULL, 'H' },
		{ "placement", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat_request rq;
	struct stat_result rs;
	struct run_times t;
	enum out_format fmt = OUT_TABLE;
	const char *sep = NULL, *outfile = NULL;
	char err[512], cmdline[1024];
	int have_events = 0, c, rc, ok, t1, platform_given = 0;
	const char *md_file = NULL;
	struct hvpmu_md md;
	const char *lists[MAX_EVENT_LISTS];
	unsigned nlists = 0;
	uint64_t v;
	FILE *out = stderr;

	memset(&rq, 0, sizeof rq);
	setlocale(LC_ALL, "");
	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:x:jo:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (nlists == MAX_EVENT_LISTS) {
				fprintf(stderr, "hvpmu stat: too many -e options\n");
				return EXIT_USAGE;
			}
			lists[nlists++] = optarg;
			have_events = 1;
			break;
		case 'p': {
			struct hvpmu_md named;

			if (tool_set_platform("hvpmu stat", optarg, &rq, &named))
				return EXIT_USAGE;
			platform_given = 1;
			break;
		}
		case 'M': md_file = optarg; break;
		case 'C':
			if (hvpmu_placement_by_name(optarg) < 0) {
				fprintf(stderr, "hvpmu stat: unknown placement '%s' (pack, spread)\n", optarg);
				return EXIT_USAGE;
			}
			strcpy(rq.placement, optarg);
			break;
		case 'x': sep = optarg; fmt = OUT_CSV; break;
		case 'j': fmt = OUT_JSON; break;
		case 'o': outfile = optarg; break;
		case 'P':
			if (parse_u64(optarg, UINT32_MAX, &v)) {
				fprintf(stderr, "hvpmu stat: --pic-init wants 0..0xffffffff, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			rq.pic_init = (uint32_t)v;
			break;
		case 'L': snprintf(rq.overflow_log, sizeof rq.overflow_log, "%s", optarg); break;
		case 'H':
			if (parse_u64(optarg, HVPMU_MD_MAX_L1D_HW_PREFETCH, &v)) {
				fprintf(stderr, "hvpmu stat: --hw-prefetch wants 0..%u, got '%s'\n",
					HVPMU_MD_MAX_L1D_HW_PREFETCH, optarg);
				return EXIT_USAGE;
			}
			rq.hw_prefetch = (uint32_t)v;
			break;
		case 'R':
			if (parse_u64(optarg, UINT64_MAX, &v) || v == 0) {
				fprintf(stderr, "hvpmu stat: --rotate-cycles wants a positive number, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			rq.rotate_cycles = v;
			break;
		case 'h': return usage(stdout) & 0;
		default: return usage(stderr);
		}
	}
	if (sep && fmt == OUT_JSON) {
		fprintf(stderr, "hvpmu stat: -x and -j cannot be combined\n");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "hvpmu stat: no program given (hvpmu stat [OPTIONS] -- PROGRAM [ARGS])\n");
		return EXIT_USAGE;
	}
	if (tool_load_md("hvpmu stat", md_file, platform_given, &rq, &md))
		return EXIT_USAGE;
	t1 = md.platform == HVPMU_PLATFORM_T1;
	if (!have_events)
		lists[nlists++] = t1 ? DEFAULT_EVENTS_T1 : DEFAULT_EVENTS;
	for (unsigned i = 0; i < nlists; i++)
		if (parse_event_list_for(t1, lists[i], rq.ev, &rq.nevents, HVPMU_SV_MAX_EVENTS, err, sizeof err)) {
			fprintf(stderr, "hvpmu stat: %s\n", err);
			return EXIT_USAGE;
		}
	if (outfile && !(out = fopen(outfile, "w"))) {
		fprintf(stderr, "hvpmu stat: %s: %s\n", outfile, strerror(errno));
		return EXIT_USAGE;
	}
	join_cmdline(cmdline, sizeof cmdline, argc - optind, argv + optind);
	rc = run_guest("hvpmu stat", &rq, argc - optind, argv + optind, &rs, &t, &ok);
	if (ok) {
		print_stat(out, fmt, sep, cmdline, rq.ev, &rs, &t);
		if (rs.hv_status) /* e.g. ENOACCESS: the description gives no perfctraccess */
			fprintf(stderr, "hvpmu stat: the hypervisor refused the counters (%s)\n",
				hvpmu_hv_status_name(rs.hv_status));
		stat_result_free(&rs);
	}
	if (out != stderr)
		fclose(out);
	return rc;
}
