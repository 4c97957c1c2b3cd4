/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A standing service and its tools (docs/service.md "Guests and
 * monitors"):
 *   hvpmu serve [-p PLATFORM] [--md FILE] [--placement P] [--name NAME]
 *       one machine with a guest OS per guest of its description, until
 *       SIGINT or SIGTERM;
 *   hvpmu run --service NAME [--guest GUEST] -- PROGRAM [ARGS]
 *       run a program in a guest of it (its processes too);
 * and, for every monitor tool (stat -a, cpustat, busstat --service), the
 * monitor's run (monitor_guest); the service's machine description is
 * mdopt.c's (tool_service_md).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/remote.h>
#include <hvpmu/session.h>
#include "tools.h"

#define DEFAULT_NAME "default"

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void catch_stop(struct sigaction old[2])
{
	struct sigaction act;

	memset(&act, 0, sizeof act);
	act.sa_handler = on_stop; /* no SA_RESTART: poll and waitpid return */
	sigemptyset(&act.sa_mask);
	stop_flag = 0;
	sigaction(SIGINT, &act, &old[0]);
	sigaction(SIGTERM, &act, &old[1]);
}

static void restore_stop(const struct sigaction old[2])
{
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
}

int cmd_serve(int argc, char **argv)
{
	static const struct option opts[] = {
		TOOL_LONGOPT_PLATFORM,
		TOOL_LONGOPT_MD,
		TOOL_LONGOPT_PLACEMENT,
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char use[] = "usage: hvpmu serve [-p PLATFORM] [--md FILE] [--placement pack|spread] [--name NAME]\n"
				  "  one modeled machine with a guest OS per guest of its description; programs\n"
				  "  attach with hvpmu run --service NAME --guest GUEST, tools watch with\n"
				  "  hvpmu stat -a / cpustat / busstat --service NAME; ends on SIGINT or SIGTERM\n";
	struct tool_md_opts m = { .tool = "hvpmu serve" };
	struct stat_request rq;
	struct hvpmu_md md;
	struct sigaction old[2];
	const char *name = DEFAULT_NAME;
	char err[512];
	int c, fd, rc, shared = 0;

	memset(&rq, 0, sizeof rq);
	rq.result_fd = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n': name = optarg; break;
		case 'h': fputs(use, stdout); return 0;
		default:
			if ((rc = tool_md_option(&m, c, optarg, &rq)) > 0)
				break;
			return EXIT_USAGE; /* after one line: getopt's or the option's */
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hvpmu serve: unexpected operand '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (tool_md_load(&m, &rq, &md, NULL))
		return EXIT_USAGE;
	for (uint32_t g = 0; g < md.nguests; g++)
		shared |= md.guests[g].uid != HVPMU_MD_PROP_ABSENT;
	/* guests with uids of their own reach the socket: not in the user's
	 * private $XDG_RUNTIME_DIR (docs/service.md "Where the socket is") */
	if (shared && name[0] != '/')
		unsetenv("XDG_RUNTIME_DIR");
	if ((fd = hvpmu_service_listen(name, err, sizeof err)) < 0) {
		fprintf(stderr, "hvpmu serve: %s\n", err);
		return EXIT_USAGE;
	}
	if (shared && hvpmu_service_share(name, err, sizeof err)) {
		hvpmu_service_unlisten(name, fd);
		fprintf(stderr, "hvpmu serve: %s\n", err);
		return EXIT_USAGE;
	}
	fprintf(stderr, "hvpmu serve: service '%s': %s with guest%s", name, rq.platform, md.nguests == 1 ? "" : "s");
	for (uint32_t g = 0; g < md.nguests; g++)
		fprintf(stderr, "%s %s (strands %u-%u, perfctraccess %s)", g ? "," : "", md.guests[g].name,
			md.guests[g].first_strand, md.guests[g].first_strand + md.guests[g].nstrands - 1,
			md.guests[g].perfctraccess == HVPMU_MD_PROP_ABSENT ? "absent"
			: md.guests[g].perfctraccess ? "yes" : "no");
	for (uint32_t g = 0; g < md.nguests; g++)
		if (md.guests[g].uid != HVPMU_MD_PROP_ABSENT)
			fprintf(stderr, "%s %s is uid %lld", g ? "," : "; guest", md.guests[g].name,
				(long long)md.guests[g].uid);
	fprintf(stderr, "\n");
	catch_stop(old);
	rc = hvpmu_service_serve(&rq, fd, &stop_flag, err, sizeof err);
	restore_stop(old);
	hvpmu_service_unlisten(name, fd);
	if (rc) {
		fprintf(stderr, "hvpmu serve: %s\n", err);
		return EXIT_NOEXEC;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		TOOL_LONGOPT_SERVICE,
		TOOL_LONGOPT_GUEST,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char use[] = "usage: hvpmu run [--service NAME] [--guest GUEST] -- PROGRAM [ARGS]\n"
				  "  run a program (and the processes it starts) in a guest of a running\n"
				  "  hvpmu serve (default service 'default', its first guest)\n";
	struct tool_md_opts m = { .tool = "hvpmu run", .service = DEFAULT_NAME, .guest = "" };
	struct stat_request rq;
	struct stat_result rs;
	struct run_times t;
	struct hvpmu_md md;
	int c, ok;

	memset(&rq, 0, sizeof rq);
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(use, stdout);
			return 0;
		}
		if (tool_md_option(&m, c, optarg, &rq) <= 0) /* getopt's one line */
			return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "hvpmu run: no program given (hvpmu run --service NAME -- PROGRAM [ARGS])\n");
		return EXIT_USAGE;
	}
	if (tool_md_load(&m, &rq, &md, NULL))
		return EXIT_USAGE;
	return run_guest("hvpmu run", &rq, &md, argc - optind, argv + optind, &rs, &t, &ok);
}

/* ---- a monitor ---- */

static double since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

int monitor_guest(const char *tool, struct stat_request *rq, int argc, char **argv, struct stat_result *rs,
		  struct run_times *t, int *ok)
{
	char err[512], req[64];
	struct sigaction old[2];
	struct timespec t0;
	int area_fd, req_fd, conn, status = 0, rc = 0, ended = 0;
	pid_t pid = -1;

	*ok = 0;
	memset(rs, 0, sizeof *rs);
	memset(t, 0, sizeof *t);
	if (tool_request_files(tool, rq, 0, &area_fd, &req_fd, req, sizeof req))
		return EXIT_NOEXEC;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	conn = hvpmu_service_monitor(rq->service, rq->guest, req_fd, area_fd, &status, err, sizeof err);
	close(req_fd);
	if (conn < 0) {
		fprintf(stderr, "%s: service '%s': %s\n", tool, rq->service, err);
		close(area_fd);
		return 1;
	}
	/* the monitor runs: for the host command's time, or until its own
	 * time is up (the service closes the connection) or the user stops it */
	catch_stop(old);
	if (argc > 0) {
		pid = fork();
		if (pid == 0) {
			restore_stop(old);
			execvp(argv[0], argv);
			fprintf(stderr, "%s: %s: %s\n", tool, argv[0], strerror(errno));
			_exit(errno == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC);
		}
		if (pid < 0)
			fprintf(stderr, "%s: fork: %s\n", tool, strerror(errno));
	}
	for (;;) {
		struct pollfd pf = { .fd = conn, .events = POLLIN };
		int st;

		if (pid > 0 && waitpid(pid, &st, WNOHANG) == pid) {
			rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			pid = -1;
		}
		if (!ended && (stop_flag || pid == 0 || (argc > 0 && pid < 0))) {
			shutdown(conn, SHUT_WR); /* the monitor ends: the final publication comes */
			ended = 1;
		}
		if (poll(&pf, 1, 50) > 0) {
			char b;

			if (recv(conn, &b, 1, MSG_DONTWAIT) <= 0)
				break; /* the service closed it: the area holds the final counts */
		}
	}
	if (pid > 0) /* the monitor's time was up first: the command runs on */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (pid > 0)
		rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	restore_stop(old);
	close(conn);
	t->elapsed = since(&t0);
	if (stat_area_read(area_fd, rs, err, sizeof err) == 0) {
		*ok = 1;
		if (rs->uncounted) { /* a thread or process of the guest was not counted: the counts are incomplete */
			fprintf(stderr, "%s: %u thread%s or process%s of guest %s ran uncounted (the service said why): "
					"the counts are incomplete\n", tool, rs->uncounted, rs->uncounted == 1 ? "" : "s",
				rs->uncounted == 1 ? "" : "es", rq->guest[0] ? rq->guest : "(the first)");
			if (rc == 0)
				rc = EXIT_FAILURE;
		}
	} else
		fprintf(stderr, "%s: no counts from the service (%s)\n", tool, err);
	close(area_fd);
	return rc;
}
