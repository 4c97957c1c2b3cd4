/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One job of a sweep (sweep.h, docs/sweeps.md "A job"): `hvpmu sweep --job
 * DIR/jobs/KEY.json` runs the tool the job names on its program, with
 * the job's environment, working directory and standard input, and
 * writes DIR/results/KEY.json: the tool's JSON lines, the counts by
 * event, and what decided them.  Before it runs it checks that the
 * program, its input and files, hvpmu, the plugin and the emulator are
 * still the ones the key was made of; a result that exists is not made
 * again.  The tool's stderr (and the program's) goes to DIR/logs/KEY.err,
 * the program's stdout to /dev/null.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include "sweep.h"
#include "tools.h"

#define TOOL "hvpmu sweep"
#define MAX_ARGS (SWEEP_MAX_ARGS + 2 * SWEEP_MAX_LIST + 16)
#define MAX_ENV (2 * SWEEP_MAX_LIST + 64)

static json_object *arr_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_array) ? v : NULL;
}

/* The file still has the hash the key was made with: 0, or -1 after one line. */
static int same_file(const char *what, const char *path, const char *sha, const char *job)
{
	char now[SWEEP_HEX];

	if (!path || !sha) {
		fprintf(stderr, TOOL ": job %s: the job file names no %s\n", job, what);
		return -1;
	}
	if (sweep_sha256_file(path, now)) {
		fprintf(stderr, TOOL ": job %s: %s %s: %s\n", job, what, path, strerror(errno));
		return -1;
	}
	if (strcmp(now, sha)) {
		fprintf(stderr, TOOL ": job %s: %s %s changed since the sweep was planned (run hvpmu sweep again: "
				"the new one makes new points)\n", job, what, path);
		return -1;
	}
	return 0;
}

static int check_inputs(json_object *spec, json_object *dec, const char *job)
{
	json_object *ver, *runs = arr_of(dec, "runs"), *sruns = arr_of(spec, "runs");
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (!json_object_object_get_ex(dec, "versions", &ver) || !runs || !sruns || !json_object_array_length(runs) ||
	    json_object_array_length(runs) != json_object_array_length(sruns)) {
		fprintf(stderr, TOOL ": job %s: not a job file of this hvpmu\n", job);
		return -1;
	}
	if (len <= 0)
		return -1;
	exe[len] = 0;
	if (same_file("hvpmu", exe, sweep_str_of(ver, "hvpmu_sha256"), job) ||
	    same_file("plugin", sweep_str_of(spec, "plugin"), sweep_str_of(ver, "plugin_sha256"), job) ||
	    same_file("emulator", sweep_str_of(spec, "qemu"), sweep_str_of(ver, "qemu_sha256"), job))
		return -1;
	for (size_t r = 0; r < json_object_array_length(runs); r++) {
		json_object *run = json_object_array_get_idx(runs, r), *argv = arr_of(run, "argv");
		json_object *files = arr_of(run, "files");
		const char *input = sweep_str_of(json_object_array_get_idx(sruns, r), "input");

		if (!json_object_is_type(run, json_type_object) || !argv || !json_object_array_length(argv) || !files) {
			fprintf(stderr, TOOL ": job %s: not a job file of this hvpmu\n", job);
			return -1;
		}
		if (same_file("program", json_object_get_string(json_object_array_get_idx(argv, 0)),
			      sweep_str_of(run, "program_sha256"), job))
			return -1;
		if (input && same_file("input", input, sweep_str_of(run, "input_sha256"), job))
			return -1;
		for (size_t i = 0; i < json_object_array_length(files); i++) {
			json_object *f = json_object_array_get_idx(files, i);

			if (!json_object_is_type(f, json_type_array) || json_object_array_length(f) != 2) {
				fprintf(stderr, TOOL ": job %s: not a job file of this hvpmu\n", job);
				return -1;
			}
			if (same_file("file", json_object_get_string(json_object_array_get_idx(f, 0)),
				      json_object_get_string(json_object_array_get_idx(f, 1)), job))
				return -1;
		}
	}
	return 0;
}

/* A number of the tool's output: an integer when it is one. */
static json_object *number(const char *s)
{
	char *end;
	double d;

	if (!s)
		return NULL;
	d = strtod(s, &end);
	if (end == s || *end || !isfinite(d))
		return NULL; /* <not supported>, <not counted> */
	if (d == floor(d) && fabs(d) < 9007199254740992.0)
		return json_object_new_int64((int64_t)d);
	return json_object_new_double(d);
}

/* The tool's JSON lines into lines[] (each with "guest": prefix when
 * prefix is not ""), and counts {PREFIX/EVENT: value} and metrics
 * {PREFIX/UNIT: value} (stat), counts {SET.NAME: value} (mdperf; per node
 * "nodeN.SET.NAME" when several nodes print without their sum) or
 * {REQUEST[LIST].FIELD: value} (gpci: the fields that are numbers). */
static int read_counts(const char *path, const char *tool, const char *prefix, json_object *lines,
		       json_object *counts, json_object *metrics, const char *job)
{
	char *text, *line, *save = NULL, pre[64];
	size_t len, first = json_object_array_length(lines);
	int nodes_seen = 0, node0 = 0, sum = 0;

	snprintf(pre, sizeof pre, "%s%s", prefix, prefix[0] ? "/" : "");
	if (!(text = sweep_read_file(path, 64u << 20, &len))) {
		fprintf(stderr, TOOL ": job %s: the tool's output %s: %s\n", job, path, strerror(errno));
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_object *o = json_tokener_parse(line);

		if (!o || !json_object_is_type(o, json_type_object)) {
			fprintf(stderr, TOOL ": job %s: the tool printed a line that is not a JSON object\n", job);
			json_object_put(o);
			free(text);
			return -1;
		}
		if (prefix[0])
			json_object_object_add(o, "guest", json_object_new_string(prefix));
		json_object_array_add(lines, o);
	}
	free(text);
	if (!strcmp(tool, "mdperf")) /* several nodes without a sum row? */
		for (size_t i = first; i < json_object_array_length(lines); i++) {
			json_object *o = json_object_array_get_idx(lines, i), *v;
			int node = json_object_object_get_ex(o, "node", &v) ? json_object_get_int(v) : 0;

			if (node == -1)
				sum = 1;
			else if (!nodes_seen++)
				node0 = node;
			else if (node != node0)
				nodes_seen = -1000000;
		}
	for (size_t i = first; i < json_object_array_length(lines); i++) {
		json_object *o = json_object_array_get_idx(lines, i), *v;
		char name[1024];

		if (!strcmp(tool, "stat")) {
			const char *ev = sweep_str_of(o, "event"), *unit = sweep_str_of(o, "metric-unit");

			if (!ev)
				continue;
			snprintf(name, sizeof name, "%s%s", pre, ev);
			json_object_object_add(counts, name, number(sweep_str_of(o, "counter-value")));
			snprintf(name, sizeof name, "%s%s", pre, unit ? unit : "");
			if (unit && unit[0])
				json_object_object_add(metrics, name, number(sweep_str_of(o, "metric-value")));
		} else if (!strcmp(tool, "gpci")) {
			const char *req = sweep_str_of(o, "request");
			int list = json_object_object_get_ex(o, "list", &v) ? json_object_get_int(v) : 0;

			if (!req)
				continue;
			json_object_object_foreach(o, k, fv) {
				if (!strcmp(k, "request") || !strcmp(k, "list") || !strcmp(k, "time") ||
				    !json_object_is_type(fv, json_type_int))
					continue;
				snprintf(name, sizeof name, "%s[%d].%s", req, list, k);
				json_object_object_add(counts, name, json_object_get(fv));
			}
		} else {
			int node = json_object_object_get_ex(o, "node", &v) ? json_object_get_int(v) : 0;
			const char *set = sweep_str_of(o, "set_name"), *cn = sweep_str_of(o, "name");

			if (!set || !cn || !json_object_object_get_ex(o, "value", &v))
				continue;
			if (sum && node != -1)
				continue; /* the sum row is the machine's */
			if (!sum && nodes_seen < 0)
				snprintf(name, sizeof name, "node%d.%s.%s", node, set, cn);
			else
				snprintf(name, sizeof name, "%s.%s", set, cn);
			json_object_object_add(counts, name, json_object_get(v));
		}
	}
	return 0;
}

/* A signal that ends the job (SIGINT, SIGTERM from the engine: Slurm's
 * time limit, ^C of parallel): its children are stopped, its temporary
 * files and its service's directory removed, then it dies of the signal. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void catch_stops(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop; /* no SA_RESTART: waitpid returns EINTR */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Start exe with argv and envp in cwd, stdin from input (NULL:
 * /dev/null), stdout to out (NULL: /dev/null), stderr appended to log:
 * its pid, or -1 after one line. */
static pid_t spawn(const char *exe, char **argv, char **envp, const char *cwd, const char *input, const char *out,
		   const char *log, const char *job)
{
	pid_t pid, parent = getpid();

	if (stop_signal)
		return -1;
	if ((pid = fork()) < 0) {
		fprintf(stderr, TOOL ": job %s: fork: %s\n", job, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int in;

		/* the tool dies with the job (its own children with it) */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(126);
		in = open(input ? input : "/dev/null", O_RDONLY);
		int o = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : open("/dev/null", O_WRONLY);
		int err = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (in < 0 || o < 0 || err < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 || dup2(err, 2) < 0) {
			fprintf(stderr, TOOL ": job %s: %s: %s\n", job, in < 0 ? input : o < 0 ? out : log,
				strerror(errno));
			_exit(126);
		}
		if (chdir(cwd)) {
			fprintf(stderr, TOOL ": job %s: cwd %s: %s\n", job, cwd, strerror(errno));
			_exit(126);
		}
		execve(exe, argv, envp);
		fprintf(stderr, TOOL ": job %s: %s: %s\n", job, exe, strerror(errno));
		_exit(126);
	}
	return pid;
}

/* Its exit status (128+N for a signal), or -1.  A stop of the job passes
 * SIGTERM on to it. */
static int wait_for(pid_t pid)
{
	int st, passed = 0;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
		if (stop_signal && !passed) {
			kill(pid, SIGTERM);
			passed = 1;
		}
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The strings of array a (at most max) into out[] after *n. */
static int add_strings(json_object *a, const char **out, unsigned *n, unsigned max)
{
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		json_object *s = json_object_array_get_idx(a, i);

		if (!json_object_is_type(s, json_type_string) || *n >= max)
			return -1;
		out[(*n)++] = json_object_get_string(s);
	}
	return 0;
}

/* A command of the job: exe, then a's strings (at most MAX_ARGS - 1),
 * "@OUTPUT@" and "@SERVICE@" replaced in the first `subst` of them. */
static int command(const char *exe, json_object *a, size_t subst, const char *output, const char *service,
		   const char **argv)
{
	size_t n = 0;

	argv[n++] = exe;
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		json_object *s = json_object_array_get_idx(a, i);
		const char *v = json_object_get_string(s);

		if (!json_object_is_type(s, json_type_string) || n >= MAX_ARGS - 1)
			return -1;
		if (i < subst && !strcmp(v, "@OUTPUT@"))
			v = output;
		else if (i < subst && !strcmp(v, "@SERVICE@"))
			v = service;
		argv[n++] = v;
	}
	argv[n] = NULL;
	return a ? 0 : -1;
}

/* The job's own service (hvpmu serve at socket `sock`, its stderr to
 * log): its pid once it says it runs, or -1 after one line. */
static pid_t start_service(const char *exe, json_object *serve_argv, const char *sock, char **envp, const char *cwd,
			   const char *log, const char *job)
{
	const char *argv[MAX_ARGS];
	char *text;
	size_t len;
	pid_t pid;

	if (command(exe, serve_argv, (size_t)-1, "", sock, argv) ||
	    (pid = spawn(exe, (char **)argv, envp, cwd, NULL, NULL, log, job)) < 0)
		return -1;
	for (int i = 0; i < 400 && !stop_signal; i++) { /* 20 s */
		int st;

		if ((text = sweep_read_file(log, 1u << 20, &len))) {
			int up = strstr(text, "hvpmu serve: service") != NULL;

			free(text);
			if (up)
				return pid;
		}
		if (waitpid(pid, &st, WNOHANG) == pid) {
			fprintf(stderr, TOOL ": job %s: its service did not start: see %s\n", job, log);
			return -1;
		}
		usleep(50000);
	}
	kill(pid, SIGTERM);
	wait_for(pid);
	fprintf(stderr, TOOL ": job %s: its service did not start in 20 s: see %s\n", job, log);
	return -1;
}

int sweep_run_job(const char *file)
{
	char real[PATH_MAX], dir[PATH_MAX], result[PATH_MAX + 96], log[PATH_MAX + 96];
	char tmp[SWEEP_MAX_GUESTS + 1][PATH_MAX + 96], rundir[64] = "", sock[96] = "";
	char job[1024], key_now[SWEEP_HEX], *canon = NULL, *slash;
	const char *argv[MAX_ARGS], *envp[MAX_ENV], *key, *exe, *cwd, *tool;
	json_object *spec = NULL, *dec, *res = NULL, *lines, *counts, *metrics, *runs, *st_want, *serve_argv, *after;
	pid_t pids[SWEEP_MAX_GUESTS], srv = -1;
	unsigned ne = 0, nruns, started = 0;
	struct timespec t0, t1;
	struct stat st;
	int status[SWEEP_MAX_GUESTS], rc = 1, want, failed = 0;

	memset(tmp, 0, sizeof tmp);
	if (!realpath(file, real)) {
		fprintf(stderr, TOOL ": --job %s: %s\n", file, strerror(errno));
		return 1;
	}
	/* DIR/jobs/KEY.json */
	snprintf(dir, sizeof dir, "%s", real);
	for (int up = 0; up < 2; up++) {
		if (!(slash = strrchr(dir, '/')) || slash == dir) {
			fprintf(stderr, TOOL ": --job %s: not in a results directory's jobs/\n", file);
			return 1;
		}
		*slash = 0;
	}
	if (!(spec = json_object_from_file(real)) || !json_object_is_type(spec, json_type_object) ||
	    !(key = sweep_str_of(spec, "key")) || strlen(key) != SWEEP_HEX - 1 || strspn(key, "0123456789abcdef") != strlen(key) ||
	    !json_object_object_get_ex(spec, "decides", &dec) || !(exe = sweep_str_of(spec, "hvpmu")) ||
	    !(runs = arr_of(spec, "runs")) || (nruns = (unsigned)json_object_array_length(runs)) < 1 ||
	    nruns > SWEEP_MAX_GUESTS || !(cwd = sweep_str_of(dec, "cwd")) || !(tool = sweep_str_of(dec, "tool")) ||
	    !json_object_object_get_ex(dec, "status", &st_want)) {
		fprintf(stderr, TOOL ": --job %s: not a job file of this hvpmu\n", file);
		goto out;
	}
	serve_argv = arr_of(spec, "serve_argv");
	after = arr_of(spec, "after_argv");
	want = json_object_get_int(st_want);
	sweep_job_text(spec, job, sizeof job);
	snprintf(result, sizeof result, "%s/results/%s.json", dir, key);
	if (stat(result, &st) == 0) { /* done already */
		rc = 0;
		goto out;
	}
	if (!(canon = sweep_canonical_json(dec)))
		goto out;
	sweep_sha256(canon, strlen(canon), key_now);
	if (strcmp(key_now, key)) {
		fprintf(stderr, TOOL ": job %s: %s is not the job its key names (edited?)\n", job, file);
		goto out;
	}
	if (check_inputs(spec, dec, job))
		goto out;
	snprintf(log, sizeof log, "%s/logs/%s.err", dir, key);
	unlink(log); /* this attempt's */
	for (unsigned i = 0; i <= nruns; i++)
		snprintf(tmp[i], sizeof tmp[i], "%s/results/.%s.%ld.%u.counts", dir, key, (long)getpid(), i);
	if (add_strings(arr_of(dec, "env"), envp, &ne, MAX_ENV - 1) ||
	    add_strings(arr_of(spec, "tool_env"), envp, &ne, MAX_ENV - 1)) {
		fprintf(stderr, TOOL ": job %s: a bad environment in %s\n", job, file);
		goto out;
	}
	envp[ne] = NULL;
	catch_stops();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (serve_argv) { /* a service of the job's own: its socket in a 0700 directory of its own */
		snprintf(rundir, sizeof rundir, "/tmp/hvpmu-sweep-XXXXXX");
		if (!mkdtemp(rundir)) {
			fprintf(stderr, TOOL ": job %s: mkdtemp: %s\n", job, strerror(errno));
			rundir[0] = 0;
			goto out;
		}
		snprintf(sock, sizeof sock, "%s/service", rundir);
		if ((srv = start_service(exe, serve_argv, sock, (char **)envp, cwd, log, job)) < 0)
			goto out;
	}
	for (unsigned i = 0; i < nruns; i++) { /* every run at once */
		json_object *run = json_object_array_get_idx(runs, i), *at;
		size_t subst = json_object_object_get_ex(run, "program_at", &at) ? (size_t)json_object_get_int(at) : 0;

		if (command(exe, arr_of(run, "argv"), subst, tmp[i], sock, argv)) {
			fprintf(stderr, TOOL ": job %s: a bad command in %s\n", job, file);
			failed = 1;
			break;
		}
		if ((pids[i] = spawn(exe, (char **)argv, (char **)envp, cwd, sweep_str_of(run, "input"), NULL, log, job)) < 0) {
			failed = 1;
			break;
		}
		started++;
	}
	for (unsigned i = 0; i < started; i++) {
		status[i] = wait_for(pids[i]);
		if (status[i] != want) {
			const char *g = sweep_str_of(json_object_array_get_idx(runs, i), "guest");

			fprintf(stderr, TOOL ": job %s: %s%s%sexit status %d (success is %d): see %s\n", job, g ? "guest " : "",
				g ? g : "", g ? ": " : "", status[i], want, log);
			failed = 1;
		}
	}
	if (!failed && after) { /* asked once the runs have ended */
		pid_t ap = -1;

		if (command(exe, after, (size_t)-1, tmp[nruns], sock, argv) ||
		    (ap = spawn(exe, (char **)argv, (char **)envp, cwd, NULL, tmp[nruns], log, job)) < 0 ||
		    wait_for(ap) != 0) {
			fprintf(stderr, TOOL ": job %s: %s failed: see %s\n", job, json_object_get_string(
				json_object_array_get_idx(after, 0)), log);
			failed = 1;
		}
	}
	if (srv > 0) {
		kill(srv, SIGTERM);
		wait_for(srv);
		srv = -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (stop_signal)
		fprintf(stderr, TOOL ": job %s: stopped by signal %d (%s): no result\n", job, (int)stop_signal,
			strsignal(stop_signal));
	if (failed || started < nruns || stop_signal)
		goto out;
	res = json_object_new_object();
	lines = json_object_new_array();
	counts = json_object_new_object();
	metrics = json_object_new_object();
	json_object_object_add(res, "format", json_object_new_int(SWEEP_FORMAT));
	json_object_object_add(res, "key", json_object_new_string(key));
	json_object_object_add(res, "program", json_object_get(json_object_object_get(spec, "program")));
	json_object_object_add(res, "repeat", json_object_get(json_object_object_get(spec, "repeat")));
	json_object_object_add(res, "axes", json_object_get(json_object_object_get(spec, "axes")));
	json_object_object_add(res, "tool", json_object_new_string(tool));
	json_object_object_add(res, "counts", counts);
	json_object_object_add(res, "metrics", metrics);
	json_object_object_add(res, "lines", lines);
	json_object_object_add(res, "exit_status", json_object_new_int(want));
	json_object_object_add(res, "wall_seconds", json_object_new_double((double)(t1.tv_sec - t0.tv_sec) +
									    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9));
	{
		char host[256];

		if (gethostname(host, sizeof host) == 0) {
			host[sizeof host - 1] = 0;
			json_object_object_add(res, "host", json_object_new_string(host));
		}
	}
	json_object_object_add(res, "decides", json_object_get(dec));
	json_object_object_add(res, "description", json_object_get(json_object_object_get(spec, "description")));
	if (after) {
		if (read_counts(tmp[nruns], tool, "", lines, counts, metrics, job))
			goto out;
	} else {
		for (unsigned i = 0; i < nruns; i++) {
			const char *g = sweep_str_of(json_object_array_get_idx(runs, i), "guest");

			if (read_counts(tmp[i], tool, serve_argv && g ? g : "", lines, counts, metrics, job))
				goto out;
		}
	}
	{
		const char *text = json_object_to_json_string_ext(res, JSON_C_TO_STRING_PRETTY |
								  JSON_C_TO_STRING_NOSLASHESCAPE);

		if (sweep_write_file(result, text, strlen(text))) {
			fprintf(stderr, TOOL ": job %s: %s: %s\n", job, result, strerror(errno));
			goto out;
		}
	}
	rc = 0;
out:
	if (srv > 0) {
		kill(srv, SIGTERM);
		wait_for(srv);
	}
	if (rundir[0]) { /* what a killed service may have left */
		char f[160];

		unlink(sock);
		snprintf(f, sizeof f, "%s.lock", sock);
		unlink(f);
		rmdir(rundir);
	}
	for (unsigned i = 0; i <= SWEEP_MAX_GUESTS; i++)
		if (tmp[i][0])
			unlink(tmp[i]);
	free(canon);
	json_object_put(res);
	json_object_put(spec);
	if (stop_signal) { /* die of it, as the engine expects */
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return rc;
}
