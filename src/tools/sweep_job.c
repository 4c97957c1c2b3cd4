/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One job of a sweep (sweep.h, docs/sweep.md "A job"): `hvpmu sweep --job
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

/* A string member of o, or NULL. */
static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v) : NULL;
}

static json_object *arr_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_array) ? v : NULL;
}

/* What a job is about, for its messages: "PROGRAM KEY=V ... repeat R". */
static void job_text(json_object *spec, char *out, size_t n)
{
	json_object *axes, *r;
	size_t used;

	used = (size_t)snprintf(out, n, "%s", str_of(spec, "program") ? str_of(spec, "program") : "?");
	if (json_object_object_get_ex(spec, "axes", &axes) && json_object_is_type(axes, json_type_object)) {
		json_object_object_foreach(axes, k, v) {
			if (used >= n)
				break;
			used += (size_t)snprintf(out + used, n - used, " %s=%s", k,
						 json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
		}
	}
	if (used < n && json_object_object_get_ex(spec, "repeat", &r))
		snprintf(out + used, n - used, " repeat %d", json_object_get_int(r));
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
	json_object *ver, *files = arr_of(dec, "files"), *argv = arr_of(dec, "argv");
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (!json_object_object_get_ex(dec, "versions", &ver) || !argv || !json_object_array_length(argv) || !files) {
		fprintf(stderr, TOOL ": job %s: not a job file of this hvpmu\n", job);
		return -1;
	}
	if (len <= 0)
		return -1;
	exe[len] = 0;
	if (same_file("hvpmu", exe, str_of(ver, "hvpmu_sha256"), job) ||
	    same_file("plugin", str_of(spec, "plugin"), str_of(ver, "plugin_sha256"), job) ||
	    same_file("emulator", str_of(spec, "qemu"), str_of(ver, "qemu_sha256"), job) ||
	    same_file("program", json_object_get_string(json_object_array_get_idx(argv, 0)),
		      str_of(dec, "program_sha256"), job))
		return -1;
	if (str_of(spec, "input") && same_file("input", str_of(spec, "input"), str_of(dec, "input_sha256"), job))
		return -1;
	for (size_t i = 0; i < json_object_array_length(files); i++) {
		json_object *f = json_object_array_get_idx(files, i);

		if (same_file("file", json_object_get_string(json_object_array_get_idx(f, 0)),
			      json_object_get_string(json_object_array_get_idx(f, 1)), job))
			return -1;
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

/* The tool's JSON lines into lines[], and counts {event: value} and
 * metrics {unit: value} (stat) or counts {SET.NAME: value} (mdperf; per
 * node "nodeN.SET.NAME" when several nodes print without their sum). */
static int read_counts(const char *path, const char *tool, json_object *lines, json_object *counts,
		       json_object *metrics, const char *job)
{
	char *text, *line, *save = NULL;
	size_t len;
	int nodes_seen = 0, node0 = 0, sum = 0;

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
		json_object_array_add(lines, o);
	}
	free(text);
	if (!strcmp(tool, "mdperf")) /* several nodes without a sum row? */
		for (size_t i = 0; i < json_object_array_length(lines); i++) {
			json_object *o = json_object_array_get_idx(lines, i), *v;
			int node = json_object_object_get_ex(o, "node", &v) ? json_object_get_int(v) : 0;

			if (node == -1)
				sum = 1;
			else if (!nodes_seen++)
				node0 = node;
			else if (node != node0)
				nodes_seen = -1000000;
		}
	for (size_t i = 0; i < json_object_array_length(lines); i++) {
		json_object *o = json_object_array_get_idx(lines, i), *v;
		char name[512];

		if (!strcmp(tool, "stat")) {
			const char *ev = str_of(o, "event"), *unit = str_of(o, "metric-unit");

			if (!ev)
				continue;
			json_object_object_add(counts, ev, number(str_of(o, "counter-value")));
			if (unit && unit[0])
				json_object_object_add(metrics, unit, number(str_of(o, "metric-value")));
		} else {
			int node = json_object_object_get_ex(o, "node", &v) ? json_object_get_int(v) : 0;
			const char *set = str_of(o, "set_name"), *cn = str_of(o, "name");

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

/* Run the tool: its exit status (128+N for a signal), or -1 when it could
 * not be started (after one line). */
static int run_tool(const char *exe, char **argv, char **envp, const char *cwd, const char *input, const char *log,
		    const char *job)
{
	pid_t pid;
	int st;

	if ((pid = fork()) < 0) {
		fprintf(stderr, TOOL ": job %s: fork: %s\n", job, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int in = open(input ? input : "/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
		int err = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
			fprintf(stderr, TOOL ": job %s: %s: %s\n", job, in < 0 ? input : log, strerror(errno));
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
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
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

int sweep_run_job(const char *file)
{
	char real[PATH_MAX], dir[PATH_MAX], result[PATH_MAX + 96], tmp[PATH_MAX + 96] = "", log[PATH_MAX + 96];
	char job[1024], key_now[SWEEP_HEX], *canon = NULL, *slash;
	const char *argv[MAX_ARGS], *envp[MAX_ENV], *key, *exe, *cwd;
	json_object *spec = NULL, *dec, *res = NULL, *lines, *counts, *metrics, *tool_argv, *st_want;
	unsigned na = 0, ne = 0;
	struct timespec t0, t1;
	struct stat st;
	int status, rc = 1;

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
	    !(key = str_of(spec, "key")) || strlen(key) != SWEEP_HEX - 1 || strspn(key, "0123456789abcdef") != strlen(key) ||
	    !json_object_object_get_ex(spec, "decides", &dec) || !(exe = str_of(spec, "hvpmu")) ||
	    !(tool_argv = arr_of(spec, "argv")) || json_object_array_length(tool_argv) < 1 ||
	    !(cwd = str_of(dec, "cwd")) || !str_of(dec, "tool")) {
		fprintf(stderr, TOOL ": --job %s: not a job file of this hvpmu\n", file);
		goto out;
	}
	job_text(spec, job, sizeof job);
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
	snprintf(tmp, sizeof tmp, "%s/results/.%s.%ld.counts", dir, key, (long)getpid());
	snprintf(log, sizeof log, "%s/logs/%s.err", dir, key);
	argv[na++] = exe;
	argv[na++] = json_object_get_string(json_object_array_get_idx(tool_argv, 0));
	argv[na++] = "-o";
	argv[na++] = tmp;
	for (size_t i = 1; i < json_object_array_length(tool_argv) && na < MAX_ARGS - 1; i++)
		argv[na++] = json_object_get_string(json_object_array_get_idx(tool_argv, i));
	argv[na] = NULL;
	if (add_strings(arr_of(dec, "env"), envp, &ne, MAX_ENV - 1) ||
	    add_strings(arr_of(spec, "tool_env"), envp, &ne, MAX_ENV - 1)) {
		fprintf(stderr, TOOL ": job %s: a bad environment in %s\n", job, file);
		goto out;
	}
	envp[ne] = NULL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	status = run_tool(exe, (char **)argv, (char **)envp, cwd, str_of(spec, "input"), log, job);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (status < 0)
		goto out;
	if (!json_object_object_get_ex(dec, "status", &st_want) || status != json_object_get_int(st_want)) {
		fprintf(stderr, TOOL ": job %s: exit status %d (success is %d): see %s\n", job, status,
			json_object_get_int(st_want), log);
		goto out;
	}
	res = json_object_new_object();
	lines = json_object_new_array();
	counts = json_object_new_object();
	metrics = json_object_new_object();
	json_object_object_add(res, "format", json_object_new_int(SWEEP_FORMAT));
	json_object_object_add(res, "key", json_object_new_string(key));
	json_object_object_add(res, "program", json_object_get(json_object_object_get(spec, "program")));
	json_object_object_add(res, "repeat", json_object_get(json_object_object_get(spec, "repeat")));
	json_object_object_add(res, "axes", json_object_get(json_object_object_get(spec, "axes")));
	json_object_object_add(res, "tool", json_object_new_string(str_of(dec, "tool")));
	json_object_object_add(res, "counts", counts);
	json_object_object_add(res, "metrics", metrics);
	json_object_object_add(res, "lines", lines);
	json_object_object_add(res, "exit_status", json_object_new_int(status));
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
	if (read_counts(tmp, str_of(dec, "tool"), lines, counts, metrics, job))
		goto out;
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
	if (tmp[0])
		unlink(tmp);
	free(canon);
	json_object_put(res);
	json_object_put(spec);
	return rc;
}
