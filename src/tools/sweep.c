/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu sweep [-o DIR] [--engine local|slurm|print] [-j N] PLAN`
 * (docs/sweeps.md): the plan (sweep_plan.c) expanded into one job per
 * program x description point x repeat.  Each point's description is the
 * plan's base with the axes' values set, written to DIR/md/ and loaded
 * with the tools' description loader (a bad key or value is its one-line
 * error); each job is a file DIR/jobs/KEY.json and one command line
 * `hvpmu sweep --job DIR/jobs/KEY.json` that writes DIR/results/KEY.json,
 * KEY the SHA-256 of everything that decides the result.  Jobs whose
 * result exists are not run again.  The engine runs the rest; then the
 * results merge (sweep_merge.c).  Nothing here schedules, retries or
 * moves files: the engine does.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <json-c/json.h>
#include <hvpmu/session.h>
#include <hvpmu/supervisor.h>
#include "sweep.h"
#include "tools.h"

#define TOOL "hvpmu sweep"

extern char **environ;

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu sweep [-o DIR] [--engine local|slurm|print] [-j N] [--partition P] [--time T]\n"
		   "                   [--no-wait] [--script-only] [--allow-mixed] PLAN\n"
		   "       hvpmu sweep --job DIR/jobs/KEY.json\n"
		   "  -o, --output DIR   results directory (default: the plan's \"output\", else PLAN.results)\n"
		   "      --engine E     local: GNU parallel on this host (default); slurm: an sbatch array job;\n"
		   "                     print: the job lines on stdout, for any other engine\n"
		   "  -j, --jobs N       local: jobs at a time (default: the host's processors)\n"
		   "      --partition P, --time T   slurm: passed to sbatch\n"
		   "      --no-wait      slurm: submit and return (then: hvpmu merge DIR)\n"
		   "      --script-only  slurm: write DIR/sweep.sbatch, submit nothing\n"
		   "      --allow-mixed  merge results of different hvpmu or QEMU builds\n"
		   "docs/sweeps.md describes the plan.\n");
	return f == stdout ? 0 : EXIT_USAGE;
}

/* ---- small helpers ---- */

char *sweep_read_file(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	if (!(buf = malloc(max + 1))) {
		fclose(f);
		errno = ENOMEM;
		return NULL;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f) || n > max) {
		int e = ferror(f) ? errno : EFBIG;

		fclose(f);
		free(buf);
		errno = e;
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

int sweep_write_file(const char *path, const char *text, size_t len)
{
	char tmp[PATH_MAX + 32];
	int fd, e;

	if ((size_t)snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()) >= sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		return -1;
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail;
		off += (size_t)w;
	}
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path) == 0)
		return 0;
	fd = -1;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = e;
	return -1;
}

int sweep_mkdir(const char *path)
{
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

const char *sweep_str_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v) : NULL;
}

void sweep_job_text(json_object *spec, char *out, size_t n)
{
	json_object *axes, *r;
	size_t used;

	used = (size_t)snprintf(out, n, "%s", sweep_str_of(spec, "program") ? sweep_str_of(spec, "program") : "?");
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

void sweep_quote(char *out, size_t n, const char *s)
{
	size_t used = 0;

	if (n == 0)
		return;
	out[used++] = '\'';
	for (; *s && used + 5 < n; s++) {
		if (*s == '\'') {
			memcpy(out + used, "'\\''", 4);
			used += 4;
		} else {
			out[used++] = *s;
		}
	}
	out[used++] = '\'';
	out[used] = 0;
}

/* The first line a program prints on stdout ("qemu-sparc64 version
 * 10.0.13"), or "" when it cannot be run. */
static void first_line_of(const char *prog, const char *arg, char *out, size_t n)
{
	int p[2];
	pid_t pid;
	FILE *f;

	out[0] = 0;
	if (pipe(p))
		return;
	if ((pid = fork()) == 0) {
		int dn = open("/dev/null", O_RDWR);

		dup2(p[1], 1);
		if (dn >= 0) {
			dup2(dn, 0);
			dup2(dn, 2);
		}
		close(p[0]);
		execlp(prog, prog, arg, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return;
	}
	if ((f = fdopen(p[0], "r"))) {
		if (fgets(out, (int)n, f))
			out[strcspn(out, "\n")] = 0;
		else
			out[0] = 0;
		while (fgetc(f) != EOF)
			;
		fclose(f);
	} else {
		close(p[0]);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* A path as an absolute one (the directory part resolved; the file need
 * not exist): 0, or -1. */
static int absolute(const char *path, char *out, size_t n)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base;

	if (realpath(path, real)) {
		if (strlen(real) >= n)
			return -1;
		strcpy(out, real);
		return 0;
	}
	if (slash) {
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
		if (!dir[0])
			strcpy(dir, "/");
		base = slash + 1;
	} else {
		strcpy(dir, ".");
		base = path;
	}
	if (!realpath(dir, real) || (size_t)snprintf(out, n, "%s/%s", strcmp(real, "/") ? real : "", base) >= n)
		return -1;
	return 0;
}

/* ---- the builds a run uses ---- */

/* The emulator of one ISA: path, `--version` line, hash. */
struct emulator {
	char qemu_user[64];
	char path[PATH_MAX];
	char version[128];
	char sha[SWEEP_HEX];
};

struct builds {
	char exe[PATH_MAX], exe_sha[SWEEP_HEX];
	char plugin[PATH_MAX], plugin_sha[SWEEP_HEX];
	struct emulator emu[8];
	unsigned nemu;
};

static int builds_init(struct builds *b)
{
	ssize_t len = readlink("/proc/self/exe", b->exe, sizeof b->exe - 1);

	if (len <= 0) {
		fprintf(stderr, TOOL ": cannot find hvpmu's own executable: %s\n", strerror(errno));
		return -1;
	}
	b->exe[len] = 0;
	if (strpbrk(b->exe, "\n\r")) { /* jobs.txt has a job a line */
		fprintf(stderr, TOOL ": hvpmu's path may not hold a line break\n");
		return -1;
	}
	if (sweep_sha256_file(b->exe, b->exe_sha)) {
		fprintf(stderr, TOOL ": %s: %s\n", b->exe, strerror(errno));
		return -1;
	}
	if (tool_find_plugin(b->plugin, sizeof b->plugin) || sweep_sha256_file(b->plugin, b->plugin_sha)) {
		fprintf(stderr, TOOL ": cannot read the plugin libhvpmu_plugin.so (set HVPMU_PLUGIN)\n");
		return -1;
	}
	return 0;
}

/* The emulator of qemu-user `name`, looked up once. */
static const struct emulator *emulator_of(struct builds *b, const char *name)
{
	struct emulator *e;
	const char *path;
	char found[PATH_MAX];

	for (unsigned i = 0; i < b->nemu; i++)
		if (!strcmp(b->emu[i].qemu_user, name))
			return &b->emu[i];
	if (b->nemu == sizeof b->emu / sizeof b->emu[0])
		return NULL;
	e = &b->emu[b->nemu];
	snprintf(e->qemu_user, sizeof e->qemu_user, "%s", name);
	path = tool_qemu_path(name);
	if (!strchr(path, '/')) { /* on PATH */
		const char *p = getenv("PATH");

		found[0] = 0;
		while (p && *p) {
			size_t l = strcspn(p, ":");

			snprintf(found, sizeof found, "%.*s/%s", (int)l, p, path);
			if (access(found, X_OK) == 0)
				break;
			found[0] = 0;
			p += l + (p[l] == ':');
		}
		path = found;
	}
	if (!path[0] || absolute(path, e->path, sizeof e->path) || sweep_sha256_file(e->path, e->sha)) {
		fprintf(stderr, TOOL ": cannot find or read the emulator %s (set HVPMU_QEMU)\n", name);
		return NULL;
	}
	first_line_of(e->path, "--version", e->version, sizeof e->version);
	if (!e->version[0]) {
		fprintf(stderr, TOOL ": %s --version says nothing: not an emulator?\n", e->path);
		return NULL;
	}
	b->nemu++;
	return e;
}

/* ---- expansion ---- */

struct expand {
	const struct sweep_plan *plan;
	const char *plan_name;  /* in messages */
	char dir[PATH_MAX];     /* the results directory */
	struct builds builds;
	json_object *base;      /* the base description */
	json_object *keys;      /* the manifest's job keys, in order */
	FILE *lines;            /* DIR/jobs.txt */
	unsigned long njobs, pending;
	char **hvpmu_env;       /* HVPMU_* of the environment the runs get (not QEMU, PLUGIN) */
	unsigned nhvpmu_env;
};

/* The first built-in description with a PAPR CEC (gpci's default, as
 * hvpmu gpci picks it), or NULL. */
static const char *cec_platform(void)
{
	const char *name;
	struct hvpmu_md md;

	for (unsigned i = 0; (name = hvpmu_sv_machine_name_at(i)); i++) {
		char err[256], got[HVPMU_SV_PLATFORM_NAME_MAX];

		if (!hvpmu_sv_load_machine(name, NULL, 1, &md, got, err, sizeof err) && md.cec.nchips)
			return name;
	}
	return NULL;
}

/* The base description: the plan's file or object, or {}; with the plan's
 * platform (or the tool's default: mdperf's, gpci's) when it names none. */
static int load_base(struct expand *x)
{
	const struct sweep_plan *pl = x->plan;
	const char *platform = pl->platform;
	json_object *p;

	if (pl->md_file) {
		char err[512], name[HVPMU_SV_PLATFORM_NAME_MAX];
		struct hvpmu_md md;

		/* the loader's own check of the file, with its messages */
		if (hvpmu_sv_load_machine(pl->platform, pl->md_file, pl->platform != NULL, &md, name, err, sizeof err)) {
			fprintf(stderr, TOOL ": %s: description: %s\n", x->plan_name, err);
			return -1;
		}
		if (!(x->base = json_object_from_file(pl->md_file))) {
			fprintf(stderr, TOOL ": %s: description %s: %s\n", x->plan_name, pl->md_file,
				json_util_get_last_err() ? json_util_get_last_err() : "not JSON");
			return -1;
		}
	} else if (pl->md_inline) {
		if (json_object_deep_copy(pl->md_inline, &x->base, NULL))
			return -1;
	} else if (!(x->base = json_object_new_object())) {
		return -1;
	}
	if (!json_object_is_type(x->base, json_type_object)) {
		fprintf(stderr, TOOL ": %s: description: not a JSON object\n", x->plan_name);
		return -1;
	}
	if (!platform && pl->tool == SWEEP_MDPERF)
		platform = hvpmu_sv_platform_with(HVPMU_SV_SERVICE_MDPERF);
	if (!platform && pl->tool == SWEEP_GPCI)
		platform = cec_platform();
	if (!platform) /* stat's default (its usage names it): the description says which */
		platform = hvpmu_sv_machine_name_at(0);
	if (json_object_object_get_ex(x->base, "platform", &p)) {
		if (pl->platform && (!json_object_is_type(p, json_type_string) ||
				     strcmp(json_object_get_string(p), pl->platform))) {
			fprintf(stderr, TOOL ": %s: the description names platform %s, the plan %s\n", x->plan_name,
				json_object_get_string(p), pl->platform);
			return -1;
		}
	} else if (platform) {
		json_object_object_add(x->base, "platform", json_object_new_string(platform));
	}
	return 0;
}

/* "memory.l2.size=262144 chips=2": the point's axes, for messages. */
static void point_text(const struct sweep_plan *pl, const size_t *idx, char *out, size_t n)
{
	size_t used = 0;

	out[0] = 0;
	for (unsigned a = 0; a < pl->naxes && used < n; a++) {
		json_object *v = json_object_array_get_idx(pl->axis[a].values, idx[a]);
		int w = snprintf(out + used, n - used, "%s%s=%s", a ? " " : "", pl->axis[a].key,
				 json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));

		if (w < 0)
			break;
		used += (size_t)w;
	}
	if (!pl->naxes)
		snprintf(out, n, "(the base description)");
}

/* A list of strings as a JSON array. */
static json_object *strings(char *const *v, unsigned n)
{
	json_object *a = json_object_new_array();

	for (unsigned i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

/* The point's description (base + axes), written to DIR/md/SHA.json and
 * loaded as a job will load it; *md_obj, md_path, md_sha, *emu filled. */
static int point_description(struct expand *x, const size_t *idx, json_object **md_obj, char *md_path, size_t n,
			     char md_sha[SWEEP_HEX], struct hvpmu_md *md, const struct emulator **emu)
{
	const struct sweep_plan *pl = x->plan;
	char err[512], pt[1024], name[HVPMU_SV_PLATFORM_NAME_MAX], *text;
	struct hvpmu_sv_program_format pf;
	json_object *o = NULL;
	struct stat st;

	point_text(pl, idx, pt, sizeof pt);
	if (json_object_deep_copy(x->base, &o, NULL))
		goto oom;
	for (unsigned a = 0; a < pl->naxes; a++)
		if (sweep_set_key(o, pl->axis[a].key, json_object_array_get_idx(pl->axis[a].values, idx[a]), err,
				  sizeof err)) {
			fprintf(stderr, TOOL ": %s: axes.%s: %s\n", x->plan_name, pl->axis[a].key, err);
			json_object_put(o);
			return -1;
		}
	if (!(text = sweep_canonical_json(o)))
		goto oom;
	sweep_sha256(text, strlen(text), md_sha);
	if ((size_t)snprintf(md_path, n, "%s/md/%s.json", x->dir, md_sha) >= n) {
		free(text);
		json_object_put(o);
		return -1;
	}
	if (stat(md_path, &st) != 0) {
		size_t len = strlen(text);

		text[len] = '\n'; /* (the NUL's place: the buffer has it) */
		if (sweep_write_file(md_path, text, len + 1)) {
			fprintf(stderr, TOOL ": %s: %s\n", md_path, strerror(errno));
			free(text);
			json_object_put(o);
			return -1;
		}
	}
	free(text);
	/* the job's loader, on the job's file: its error is the point's */
	if (hvpmu_sv_load_machine(NULL, md_path, 0, md, name, err, sizeof err)) {
		fprintf(stderr, TOOL ": %s: point %s: %s\n", x->plan_name, pt, err);
		json_object_put(o);
		return -1;
	}
	if (hvpmu_sv_program_format(md, &pf) || !(*emu = emulator_of(&x->builds, pf.qemu_user))) {
		json_object_put(o);
		return -1;
	}
	*md_obj = o;
	return 0;
oom:
	json_object_put(o);
	fprintf(stderr, TOOL ": out of memory\n");
	return -1;
}

/* The events a stat job will ask, checked now as hvpmu stat will check
 * them on this point's machine: 0, or -1 after one line. */
static int check_events(struct expand *x, const struct hvpmu_md *md, const char *list, const char *pt)
{
	static struct stat_request rq;
	static struct hvpmu_sv_event ev[HVPMU_SV_MAX_EVENTS];
	static char names[HVPMU_SV_MAX_EVENTS][HVPMU_SV_NAME_MAX];
	const struct hvpmu_sv_backend *be = hvpmu_sv_backend_of(md->platform);
	unsigned nev = 0;
	char err[512];

	if (!list[0])
		return 0;
	memset(&rq, 0, sizeof rq);
	if (!be) {
		fprintf(stderr, TOOL ": %s: point %s: the platform has no back-end\n", x->plan_name, pt);
		return -1;
	}
	if (hvpmu_sv_request_events(be, md, list, 1, &rq, ev, names, &nev, err, sizeof err)) {
		fprintf(stderr, TOOL ": %s: events on point %s: %s\n", x->plan_name, pt, err);
		return -1;
	}
	return 0;
}

/* The hashes of one run's files (expand_all, once a plan). */
struct run_hash {
	char prog[SWEEP_HEX], input[SWEEP_HEX];
	char files[SWEEP_MAX_LIST][SWEEP_HEX];
};

/* The runs of program p: its guests', or itself. */
static const struct sweep_program *runs_of(const struct sweep_program *p, unsigned *n)
{
	*n = p->guests ? p->nguests : 1;
	return p->guests ? p->guests : p;
}

/* A job runs in a service of its own: gpci asks one after the runs, and
 * several guests run at once in one. */
static int in_service(const struct sweep_plan *pl, const struct sweep_program *p)
{
	return pl->tool == SWEEP_GPCI || p->guests;
}

static void add_str(json_object *a, const char *s)
{
	json_object_array_add(a, json_object_new_string(s));
}

/* "--service @SERVICE@" and the run's guest, if it names one. */
static void add_service(json_object *a, const char *guest)
{
	add_str(a, "--service");
	add_str(a, "@SERVICE@");
	if (guest) {
		add_str(a, "--guest");
		add_str(a, guest);
	}
}

/* The job's runs and tool command lines (docs/sweeps.md "A job"): argv of
 * the tool for each run, "@OUTPUT@" and "@SERVICE@" standing for the
 * counts file and the service's socket, which the job picks. */
static void job_commands(struct expand *x, const struct sweep_program *p, json_object *options, const char *md_path,
			 json_object *spec)
{
	const struct sweep_plan *pl = x->plan;
	unsigned nr;
	const struct sweep_program *r = runs_of(p, &nr);
	int service = in_service(pl, p);
	json_object *runs = json_object_new_array();

	for (unsigned i = 0; i < nr; i++) {
		json_object *run = json_object_new_object(), *argv = json_object_new_array();

		if (!service || pl->tool == SWEEP_STAT) { /* the tool counts the run */
			add_str(argv, sweep_tool_name(pl->tool));
			add_str(argv, "-j");
			add_str(argv, "-o");
			add_str(argv, "@OUTPUT@");
			if (service) {
				add_str(argv, "-a");
				add_service(argv, r[i].guest);
			} else {
				add_str(argv, "--md");
				add_str(argv, md_path);
			}
			for (size_t k = 0; k < json_object_array_length(options); k++)
				json_object_array_add(argv, json_object_get(json_object_array_get_idx(options, k)));
			add_str(argv, "--");
		}
		if (service) { /* the program runs in its guest (stat -a: a command of the monitor's) */
			if (json_object_array_length(argv))
				add_str(argv, x->builds.exe);
			add_str(argv, "run");
			add_service(argv, r[i].guest);
			add_str(argv, "--");
		}
		json_object_object_add(run, "program_at", json_object_new_int((int)json_object_array_length(argv)));
		add_str(argv, r[i].path);
		for (unsigned k = 0; k < r[i].nargs; k++)
			add_str(argv, r[i].args[k]);
		json_object_object_add(run, "guest", r[i].guest ? json_object_new_string(r[i].guest) : NULL);
		json_object_object_add(run, "input", r[i].input ? json_object_new_string(r[i].input) : NULL);
		json_object_object_add(run, "argv", argv);
		json_object_array_add(runs, run);
	}
	json_object_object_add(spec, "runs", runs);
	if (service) {
		json_object *serve = json_object_new_array();

		add_str(serve, "serve");
		add_str(serve, "--md");
		add_str(serve, md_path);
		add_str(serve, "--name");
		add_str(serve, "@SERVICE@");
		json_object_object_add(spec, "serve_argv", serve);
	}
	if (service && pl->tool == SWEEP_GPCI) { /* asked when the runs have ended */
		json_object *after = json_object_new_array();

		add_str(after, "gpci");
		add_str(after, "--service");
		add_str(after, "@SERVICE@");
		add_str(after, "-j");
		for (size_t k = 0; k < json_object_array_length(options); k++)
			json_object_array_add(after, json_object_get(json_object_array_get_idx(options, k)));
		json_object_object_add(spec, "after_argv", after);
	}
}

/* One job: its spec in DIR/jobs/KEY.json, its line in jobs.txt unless its
 * result exists. */
static int add_job(struct expand *x, const struct sweep_program *p, const size_t *idx, unsigned repeat,
		   json_object *md_obj, const char *md_path, const char *md_sha, const struct emulator *emu,
		   const char *events, const struct run_hash *rh)
{
	const struct sweep_plan *pl = x->plan;
	json_object *decides = json_object_new_object(), *spec = json_object_new_object(), *a, *axes, *runs;
	char key[SWEEP_HEX], path[PATH_MAX + 128], line[6 * PATH_MAX], q1[PATH_MAX + 16], q2[2 * PATH_MAX];
	char *text, envbuf[PATH_MAX + 32];
	const struct sweep_program *r;
	json_object *tenv;
	unsigned nr;
	struct stat st;
	int rc = -1;

	/* what decides the result */
	json_object_object_add(decides, "format", json_object_new_int(SWEEP_FORMAT));
	json_object_object_add(decides, "tool", json_object_new_string(sweep_tool_name(pl->tool)));
	a = json_object_new_array();
	if (events[0]) {
		add_str(a, pl->tool == SWEEP_STAT ? "-e" : pl->tool == SWEEP_MDPERF ? "-s" : "-r");
		add_str(a, events);
	}
	for (unsigned i = 0; i < pl->noptions; i++) {
		const char *opt, *val;

		sweep_plan_option_argv(pl, i, &opt, &val);
		add_str(a, opt);
		if (val)
			add_str(a, val);
	}
	json_object_object_add(decides, "options", a);
	json_object_object_add(decides, "service", json_object_new_boolean(in_service(pl, p)));
	runs = json_object_new_array();
	r = runs_of(p, &nr);
	for (unsigned i = 0; i < nr; i++) {
		json_object *run = json_object_new_object(), *files = json_object_new_array();

		json_object_object_add(run, "guest", r[i].guest ? json_object_new_string(r[i].guest) : NULL);
		a = json_object_new_array();
		add_str(a, r[i].path);
		for (unsigned k = 0; k < r[i].nargs; k++)
			add_str(a, r[i].args[k]);
		json_object_object_add(run, "argv", a);
		json_object_object_add(run, "program_sha256", json_object_new_string(rh[i].prog));
		json_object_object_add(run, "input_sha256", r[i].input ? json_object_new_string(rh[i].input) : NULL);
		for (unsigned k = 0; k < r[i].nfiles; k++) {
			json_object *f = json_object_new_array();

			add_str(f, r[i].files[k]);
			add_str(f, rh[i].files[k]);
			json_object_array_add(files, f);
		}
		json_object_object_add(run, "files", files);
		json_object_array_add(runs, run);
	}
	json_object_object_add(decides, "runs", runs);
	json_object_object_add(decides, "env", strings(pl->env, pl->nenv));
	json_object_object_add(decides, "cwd", json_object_new_string(pl->cwd));
	json_object_object_add(decides, "status", json_object_new_int(p->status));
	json_object_object_add(decides, "description_sha256", json_object_new_string(md_sha));
	a = json_object_new_object();
	json_object_object_add(a, "hvpmu", json_object_new_string(HVPMU_VERSION));
	json_object_object_add(a, "hvpmu_sha256", json_object_new_string(x->builds.exe_sha));
	json_object_object_add(a, "plugin_sha256", json_object_new_string(x->builds.plugin_sha));
	json_object_object_add(a, "qemu", json_object_new_string(emu->version));
	json_object_object_add(a, "qemu_sha256", json_object_new_string(emu->sha));
	json_object_object_add(decides, "versions", a);
	json_object_object_add(decides, "hvpmu_env", strings(x->hvpmu_env, x->nhvpmu_env));
	json_object_object_add(decides, "repeat", json_object_new_int((int)repeat));
	if (!(text = sweep_canonical_json(decides)))
		goto out;
	sweep_sha256(text, strlen(text), key);
	free(text);

	/* the job: what the runner needs besides */
	json_object_object_add(spec, "key", json_object_new_string(key));
	json_object_object_add(spec, "program", json_object_new_string(p->name));
	json_object_object_add(spec, "repeat", json_object_new_int((int)repeat));
	axes = json_object_new_object();
	for (unsigned i = 0; i < pl->naxes; i++) {
		json_object *v = NULL;

		json_object_deep_copy(json_object_array_get_idx(pl->axis[i].values, idx[i]), &v, NULL);
		json_object_object_add(axes, pl->axis[i].key, v);
	}
	json_object_object_add(spec, "axes", axes);
	json_object_object_add(spec, "hvpmu", json_object_new_string(x->builds.exe));
	job_commands(x, p, json_object_object_get(decides, "options"), md_path, spec);
	tenv = strings(x->hvpmu_env, x->nhvpmu_env);
	snprintf(envbuf, sizeof envbuf, "HVPMU_QEMU=%s", emu->path);
	add_str(tenv, envbuf);
	snprintf(envbuf, sizeof envbuf, "HVPMU_PLUGIN=%s", x->builds.plugin);
	add_str(tenv, envbuf);
	json_object_object_add(spec, "tool_env", tenv);
	json_object_object_add(spec, "plugin", json_object_new_string(x->builds.plugin));
	json_object_object_add(spec, "qemu", json_object_new_string(emu->path));
	json_object_object_add(spec, "description", json_object_get(md_obj));
	json_object_object_add(spec, "decides", json_object_get(decides));

	snprintf(path, sizeof path, "%s/jobs/%s.json", x->dir, key);
	if (!(text = sweep_canonical_json(spec)))
		goto out;
	{
		size_t len = strlen(text), old_len;
		char *old = sweep_read_file(path, SWEEP_MAX_PLAN_BYTES * 4, &old_len);
		int same = old && old_len == len + 1 && !memcmp(old, text, len);

		free(old);
		text[len] = '\n';
		if (!same && sweep_write_file(path, text, len + 1)) {
			fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
			free(text);
			goto out;
		}
	}
	free(text);
	json_object_array_add(x->keys, json_object_new_string(key));
	x->njobs++;
	snprintf(path, sizeof path, "%s/results/%s.json", x->dir, key);
	if (stat(path, &st) != 0) { /* to run */
		snprintf(path, sizeof path, "%s/jobs/%s.json", x->dir, key);
		sweep_quote(q1, sizeof q1, x->builds.exe);
		sweep_quote(q2, sizeof q2, path);
		snprintf(line, sizeof line, "%s sweep --job %s\n", q1, q2);
		if (fputs(line, x->lines) == EOF) {
			fprintf(stderr, TOOL ": %s/jobs.txt: %s\n", x->dir, strerror(errno));
			goto out;
		}
		x->pending++;
	}
	rc = 0;
out:
	json_object_put(decides);
	json_object_put(spec);
	return rc;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The HVPMU_* settings of the environment the runs get (they change what
 * a run does: HVPMU_SYSROOT, HVPMU_QUANTUM, ...), sorted. */
static int collect_hvpmu_env(struct expand *x)
{
	unsigned n = 0;

	for (char **e = environ; *e; e++)
		n += !strncmp(*e, "HVPMU_", 6);
	if (!(x->hvpmu_env = calloc(n + 1, sizeof *x->hvpmu_env)))
		return -1;
	for (char **e = environ; *e; e++)
		if (!strncmp(*e, "HVPMU_", 6) && strncmp(*e, "HVPMU_QEMU=", 11) && strncmp(*e, "HVPMU_PLUGIN=", 13))
			x->hvpmu_env[x->nhvpmu_env++] = *e;
	qsort(x->hvpmu_env, x->nhvpmu_env, sizeof *x->hvpmu_env, cmp_strp);
	return 0;
}

/* Hash run r's files into *h: 0, or -1 after one line. */
static int hash_run(const struct expand *x, const struct sweep_program *p, const struct sweep_program *r,
		    struct run_hash *h)
{
	if (access(r->path, X_OK) || sweep_sha256_file(r->path, h->prog)) {
		fprintf(stderr, TOOL ": %s: program %s: %s: %s\n", x->plan_name, p->name, r->path, strerror(errno));
		return -1;
	}
	if (r->input && sweep_sha256_file(r->input, h->input)) {
		fprintf(stderr, TOOL ": %s: program %s: input %s: %s\n", x->plan_name, p->name, r->input,
			strerror(errno));
		return -1;
	}
	for (unsigned f = 0; f < r->nfiles; f++)
		if (sweep_sha256_file(r->files[f], h->files[f])) {
			fprintf(stderr, TOOL ": %s: program %s: file %s: %s\n", x->plan_name, p->name, r->files[f],
				strerror(errno));
			return -1;
		}
	return 0;
}

/* Program p fits the point's machine: its runs' programs of its ISA, its
 * guests the description's, a CEC for gpci.  0, or -1 after one line. */
static int check_program(const struct expand *x, const struct sweep_program *p, const struct hvpmu_md *md,
			 const char *ptxt)
{
	struct hvpmu_sv_program_format pf;
	const struct sweep_program *r;
	unsigned nr;

	if (hvpmu_sv_program_format(md, &pf))
		return -1;
	if (x->plan->tool == SWEEP_GPCI && md->cec.nchips == 0) {
		fprintf(stderr, TOOL ": %s: point %s: gpci asks a PAPR hypervisor: the description has no CEC (\"cec\", "
				"platform power)\n", x->plan_name, ptxt);
		return -1;
	}
	r = runs_of(p, &nr);
	for (unsigned i = 0; i < nr; i++) {
		unsigned g;

		if (!hvpmu_sv_program_of(&pf, r[i].path)) {
			fprintf(stderr, TOOL ": %s: program %s: %s is not a %s program (point %s)\n", x->plan_name, p->name,
				r[i].path, pf.isa, ptxt);
			return -1;
		}
		for (g = 0; r[i].guest && g < md->nguests && strcmp(md->guests[g].name, r[i].guest); g++)
			;
		if (r[i].guest && g == md->nguests) {
			fprintf(stderr, TOOL ": %s: program %s: point %s has no guest '%s' (guests:", x->plan_name, p->name,
				ptxt, r[i].guest);
			for (g = 0; g < md->nguests; g++)
				fprintf(stderr, " %s", md->guests[g].name);
			fprintf(stderr, ")\n");
			return -1;
		}
	}
	return 0;
}

/* Every job of the plan. */
static int expand_all(struct expand *x)
{
	const struct sweep_plan *pl = x->plan;
	size_t idx[SWEEP_MAX_AXES] = { 0 };
	struct run_hash **rh = calloc(pl->nprog, sizeof *rh);
	static char events[SWEEP_MAX_LIST * (SWEEP_MAX_STR + 1)];
	size_t used = 0;
	int rc = -1;

	if (!rh) {
		fprintf(stderr, TOOL ": out of memory\n");
		return -1;
	}
	events[0] = 0;
	for (unsigned i = 0; i < pl->nevents; i++)
		used += (size_t)snprintf(events + used, sizeof events - used, "%s%s", i ? "," : "", pl->events[i]);
	/* the programs and their inputs, hashed once */
	for (unsigned i = 0; i < pl->nprog; i++) {
		unsigned nr;
		const struct sweep_program *r = runs_of(&pl->prog[i], &nr);

		if (!(rh[i] = calloc(nr, sizeof *rh[i]))) {
			fprintf(stderr, TOOL ": out of memory\n");
			goto out;
		}
		for (unsigned k = 0; k < nr; k++)
			if (hash_run(x, &pl->prog[i], &r[k], &rh[i][k]))
				goto out;
	}
	for (size_t pt = 0; pt < pl->npoints; pt++) {
		json_object *md_obj = NULL;
		char md_path[PATH_MAX + 128], md_sha[SWEEP_HEX], ptxt[1024];
		const struct emulator *emu;
		struct hvpmu_md md;

		/* the odometer: the last axis fastest */
		for (size_t rest = pt, a = pl->naxes; a-- > 0;) {
			idx[a] = rest % pl->axis[a].nvalues;
			rest /= pl->axis[a].nvalues;
		}
		point_text(pl, idx, ptxt, sizeof ptxt);
		if (point_description(x, idx, &md_obj, md_path, sizeof md_path, md_sha, &md, &emu))
			goto out;
		if (pl->tool == SWEEP_STAT && check_events(x, &md, events, ptxt)) {
			json_object_put(md_obj);
			goto out;
		}
		for (unsigned i = 0; i < pl->nprog; i++) {
			if (check_program(x, &pl->prog[i], &md, ptxt)) {
				json_object_put(md_obj);
				goto out;
			}
			for (unsigned r = 0; r < pl->repeat; r++)
				if (add_job(x, &pl->prog[i], idx, r, md_obj, md_path, md_sha, emu, events, rh[i])) {
					json_object_put(md_obj);
					goto out;
				}
		}
		json_object_put(md_obj);
	}
	rc = 0;
out:
	for (unsigned i = 0; i < pl->nprog; i++)
		free(rh[i]);
	free(rh);
	return rc;
}

/* DIR/sweep.json: what merge needs to know of the plan. */
static int write_manifest(struct expand *x, const char *plan_path)
{
	const struct sweep_plan *pl = x->plan;
	json_object *m = json_object_new_object(), *a = json_object_new_array(), *p = json_object_new_array();
	char path[PATH_MAX + 32];
	const char *text;
	int rc;

	for (unsigned i = 0; i < pl->naxes; i++)
		json_object_array_add(a, json_object_new_string(pl->axis[i].key));
	for (unsigned i = 0; i < pl->nprog; i++)
		json_object_array_add(p, json_object_new_string(pl->prog[i].name));
	json_object_object_add(m, "format", json_object_new_int(SWEEP_FORMAT));
	json_object_object_add(m, "plan", json_object_new_string(plan_path));
	json_object_object_add(m, "tool", json_object_new_string(sweep_tool_name(pl->tool)));
	json_object_object_add(m, "axes", a);
	json_object_object_add(m, "programs", p);
	json_object_object_add(m, "repeat", json_object_new_int((int)pl->repeat));
	json_object_object_add(m, "jobs", json_object_get(x->keys));
	snprintf(path, sizeof path, "%s/sweep.json", x->dir);
	text = json_object_to_json_string_ext(m, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	rc = sweep_write_file(path, text, strlen(text));
	if (rc)
		fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
	json_object_put(m);
	return rc;
}

/* ---- engines ---- */

/* Run argv, waiting: its exit status (128+N for a signal), or -1 when it
 * could not be started (errno). */
static int run_wait(char *const *argv, const char *stdout_file)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (stdout_file) {
			int fd = open(stdout_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(127);
		}
		execvp(argv[0], argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int on_path(const char *prog)
{
	const char *p = getenv("PATH");
	char f[PATH_MAX];

	while (p && *p) {
		size_t l = strcspn(p, ":");

		snprintf(f, sizeof f, "%.*s/%s", (int)l, p, prog);
		if (access(f, X_OK) == 0)
			return 1;
		p += l + (p[l] == ':');
	}
	return 0;
}

struct engine_opts {
	const char *engine, *partition, *time;
	long jobs;
	int no_wait, script_only, allow_mixed;
};

static int engine_local(const struct expand *x, const struct engine_opts *eo)
{
	char jobs[32], joblog[PATH_MAX + 32], list[PATH_MAX + 32];
	/* the progress bar on a terminal (without one it would print every redraw) */
	char *argv[] = { "parallel", "--will-cite", "--halt", "never", "-j", jobs, "--joblog", joblog, "::::", list,
			 isatty(2) ? "--bar" : NULL, NULL };
	int rc;

	if (!on_path("parallel")) {
		fprintf(stderr, TOOL ": --engine local runs GNU parallel (Debian package 'parallel'): not on PATH\n");
		return EXIT_NOTFOUND;
	}
	snprintf(jobs, sizeof jobs, "%ld", eo->jobs > 0 ? eo->jobs : sysconf(_SC_NPROCESSORS_ONLN));
	snprintf(joblog, sizeof joblog, "%s/logs/parallel.log", x->dir);
	snprintf(list, sizeof list, "%s/jobs.txt", x->dir);
	rc = run_wait(argv, NULL);
	if (rc < 0) {
		fprintf(stderr, TOOL ": cannot run parallel: %s\n", strerror(errno));
		return 1;
	}
	if (rc)
		fprintf(stderr, TOOL ": %d job%s failed (GNU parallel's log: %s; each job's: %s/logs/KEY.err)\n",
			rc, rc == 1 ? "" : "s", joblog, x->dir);
	return 0; /* the merge says what is missing */
}

/* DIR/sweep.sbatch: an array job whose task i runs jobs.txt's lines i,
 * i + T, i + 2T, ... (T tasks, at most SWEEP_SLURM_TASKS). */
static int write_sbatch(const struct expand *x, const struct engine_opts *eo, char *path, size_t n)
{
	unsigned long tasks = x->pending < SWEEP_SLURM_TASKS ? x->pending : SWEEP_SLURM_TASKS;
	char q[PATH_MAX + 64], out[PATH_MAX + 64], lines[PATH_MAX + 32];
	char buf[8192];
	int len;

	snprintf(path, n, "%s/sweep.sbatch", x->dir);
	snprintf(out, sizeof out, "%s/logs/slurm-%%A_%%a.out", x->dir);
	snprintf(lines, sizeof lines, "%s/jobs.txt", x->dir);
	sweep_quote(q, sizeof q, lines);
	if (strpbrk(out, " \t\n") || (eo->partition && strpbrk(eo->partition, " \t\n")) ||
	    (eo->time && strpbrk(eo->time, " \t\n"))) {
		fprintf(stderr, TOOL ": --engine slurm: the results directory, --partition and --time may not hold "
				"blanks (#SBATCH lines)\n");
		return -1;
	}
	len = snprintf(buf, sizeof buf,
		       "#!/bin/sh\n"
		       "# hvpmu sweep: %lu jobs of %s in %lu array tasks; task i runs the lines\n"
		       "# i+1, i+1+%lu, ... of jobs.txt (each writes one result; docs/sweeps.md).\n"
		       "#SBATCH --job-name=hvpmu-sweep\n"
		       "#SBATCH --array=0-%lu\n"
		       "#SBATCH --ntasks=1\n"
		       "#SBATCH --output=%s\n"
		       "%s%s%s"
		       "%s%s%s"
		       "n=0\nrc=0\n"
		       "while IFS= read -r line; do\n"
		       "\tif [ $((n %% %lu)) -eq \"$SLURM_ARRAY_TASK_ID\" ]; then\n"
		       "\t\tsh -c \"$line\" </dev/null || rc=1\n"
		       "\tfi\n"
		       "\tn=$((n + 1))\n"
		       "done < %s\n"
		       "exit $rc\n",
		       x->pending, x->dir, tasks, tasks, tasks - 1, out,
		       eo->partition ? "#SBATCH --partition=" : "", eo->partition ? eo->partition : "",
		       eo->partition ? "\n" : "", eo->time ? "#SBATCH --time=" : "", eo->time ? eo->time : "",
		       eo->time ? "\n" : "", tasks, q);
	if (len < 0 || (size_t)len >= sizeof buf) {
		fprintf(stderr, TOOL ": the sbatch script does not fit\n");
		return -1;
	}
	if (sweep_write_file(path, buf, (size_t)len) || chmod(path, 0755)) {
		fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int engine_slurm(const struct expand *x, const struct engine_opts *eo, int *merge)
{
	char script[PATH_MAX + 32], idfile[PATH_MAX + 32];
	char *argv[] = { "sbatch", "--parsable", eo->no_wait ? NULL : "--wait", NULL, NULL };
	int rc;

	*merge = 0;
	if (write_sbatch(x, eo, script, sizeof script))
		return 1;
	if (eo->script_only) {
		printf("%s\n", script);
		return 0;
	}
	if (!on_path("sbatch")) {
		fprintf(stderr, TOOL ": --engine slurm runs sbatch (Debian package 'slurm-client'): not on PATH\n");
		return EXIT_NOTFOUND;
	}
	argv[eo->no_wait ? 2 : 3] = script;
	snprintf(idfile, sizeof idfile, "%s/logs/slurm-job", x->dir);
	rc = run_wait(argv, idfile);
	if (rc < 0 || rc == 127 || (eo->no_wait && rc)) {
		fprintf(stderr, TOOL ": sbatch %s failed (status %d)\n", script, rc);
		return 1;
	}
	if (eo->no_wait) {
		fprintf(stderr, TOOL ": submitted (job id in %s); when it has run: hvpmu merge %s\n", idfile, x->dir);
		return 0;
	}
	if (rc)
		fprintf(stderr, TOOL ": the array job ended with status %d (its tasks' logs: %s/logs/slurm-*.out)\n",
			rc, x->dir);
	*merge = 1;
	return 0;
}

/* ---- the command ---- */

static int parse_cli(int argc, char **argv, struct engine_opts *eo, const char **outdir, const char **job)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "engine", required_argument, NULL, 'E' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "partition", required_argument, NULL, 'P' },
		{ "time", required_argument, NULL, 'T' },
		{ "no-wait", no_argument, NULL, 'W' },
		{ "script-only", no_argument, NULL, 'S' },
		{ "allow-mixed", no_argument, NULL, 'A' },
		{ "job", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+o:j:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o': *outdir = optarg; break;
		case 'E':
			if (strcmp(optarg, "local") && strcmp(optarg, "slurm") && strcmp(optarg, "print")) {
				fprintf(stderr, TOOL ": unknown engine '%s' (local, slurm, print)\n", optarg);
				return EXIT_USAGE;
			}
			eo->engine = optarg;
			break;
		case 'j':
			errno = 0;
			eo->jobs = strtol(optarg, &end, 10);
			if (errno || *end || eo->jobs < 1 || eo->jobs > 4096) {
				fprintf(stderr, TOOL ": -j wants 1..4096, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'P': eo->partition = optarg; break;
		case 'T': eo->time = optarg; break;
		case 'W': eo->no_wait = 1; break;
		case 'S': eo->script_only = 1; break;
		case 'A': eo->allow_mixed = 1; break;
		case 'J': *job = optarg; break;
		case 'h': return usage(stdout);
		default: return usage(stderr);
		}
	}
	if ((eo->partition || eo->time || eo->no_wait || eo->script_only) && strcmp(eo->engine, "slurm")) {
		fprintf(stderr, TOOL ": --partition, --time, --no-wait and --script-only are --engine slurm's\n");
		return EXIT_USAGE;
	}
	if (*job ? optind != argc : optind != argc - 1) {
		if (*job)
			fprintf(stderr, TOOL ": --job takes no plan\n");
		else
			fprintf(stderr, TOOL ": %s (hvpmu sweep [OPTIONS] PLAN)\n",
				optind >= argc ? "no plan given" : "one plan only");
		return EXIT_USAGE;
	}
	return -1;
}

/* The plan file: read, parsed; x->dir chosen and made. */
static int open_plan(const char *file, const char *outdir, struct sweep_plan *pl, struct expand *x)
{
	char dir[PATH_MAX], abs[PATH_MAX], err[1024], *text;
	const char *slash;
	size_t len;

	if (absolute(file, abs, sizeof abs) || !(text = sweep_read_file(file, SWEEP_MAX_PLAN_BYTES, &len))) {
		fprintf(stderr, TOOL ": %s: %s\n", file, errno == EFBIG ? "larger than 1 MB" : strerror(errno));
		return -1;
	}
	slash = strrchr(abs, '/');
	snprintf(dir, sizeof dir, "%.*s", slash == abs ? 1 : (int)(slash - abs), abs);
	if (sweep_plan_parse(text, len, dir, file, pl, err, sizeof err)) {
		fprintf(stderr, TOOL ": %s\n", err);
		free(text);
		return -1;
	}
	free(text);
	if (outdir) {
		snprintf(x->dir, sizeof x->dir, "%s", outdir);
	} else if (pl->output) {
		snprintf(x->dir, sizeof x->dir, "%s", pl->output);
	} else {
		len = strlen(abs);
		if (len > 5 && !strcmp(abs + len - 5, ".json"))
			len -= 5;
		snprintf(x->dir, sizeof x->dir, "%.*s.results", (int)len, abs);
	}
	if (sweep_mkdir(x->dir) || absolute(x->dir, dir, sizeof dir)) {
		fprintf(stderr, TOOL ": %s: %s\n", x->dir, strerror(errno));
		return -1;
	}
	snprintf(x->dir, sizeof x->dir, "%s", dir);
	if (strlen(x->dir) > PATH_MAX - 128) {
		fprintf(stderr, TOOL ": %s: path too long\n", x->dir);
		return -1;
	}
	if (strpbrk(x->dir, "\n\r")) { /* jobs.txt has a job a line */
		fprintf(stderr, TOOL ": the results directory's path may not hold a line break\n");
		return -1;
	}
	for (unsigned i = 0; i < 4; i++) {
		static const char *const sub[] = { "md", "jobs", "results", "logs" };
		char path[PATH_MAX + 16];

		snprintf(path, sizeof path, "%s/%s", x->dir, sub[i]);
		if (sweep_mkdir(path)) {
			fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	struct engine_opts eo = { .engine = "local" };
	const char *outdir = NULL, *job = NULL;
	struct sweep_plan pl;
	struct expand x;
	char path[PATH_MAX + 32], abs[PATH_MAX];
	int rc, merge = 1;

	memset(&pl, 0, sizeof pl);
	memset(&x, 0, sizeof x);
	if ((rc = parse_cli(argc, argv, &eo, &outdir, &job)) >= 0)
		return rc;
	if (job)
		return sweep_run_job(job);
	x.plan = &pl;
	x.plan_name = argv[optind];
	rc = 1;
	if (open_plan(argv[optind], outdir, &pl, &x))
		goto usage;
	if (builds_init(&x.builds) || collect_hvpmu_env(&x) || !(x.keys = json_object_new_array()))
		goto out;
	if (load_base(&x))
		goto usage;
	snprintf(path, sizeof path, "%s/jobs.txt", x.dir);
	if (!(x.lines = fopen(path, "w"))) {
		fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
		goto out;
	}
	if (expand_all(&x))
		goto usage;
	if (fclose(x.lines)) {
		x.lines = NULL;
		fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
		goto out;
	}
	x.lines = NULL;
	absolute(argv[optind], abs, sizeof abs);
	if (write_manifest(&x, abs))
		goto out;
	fprintf(stderr, TOOL ": %lu job%s (%zu point%s x %u program%s x %u): %lu to run, %lu done already; "
			"results in %s\n", x.njobs, x.njobs == 1 ? "" : "s", pl.npoints, pl.npoints == 1 ? "" : "s",
		pl.nprog, pl.nprog == 1 ? "" : "s", pl.repeat, x.pending, x.njobs - x.pending, x.dir);
	if (!strcmp(eo.engine, "print")) {
		char buf[1 << 14];
		size_t len;
		FILE *f;

		snprintf(path, sizeof path, "%s/jobs.txt", x.dir);
		if (!(f = fopen(path, "r"))) {
			fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
			goto out;
		}
		while ((len = fread(buf, 1, sizeof buf, f)) > 0)
			fwrite(buf, 1, len, stdout);
		fclose(f);
		rc = 0;
		goto out;
	}
	if (x.pending) {
		rc = !strcmp(eo.engine, "local") ? engine_local(&x, &eo) : engine_slurm(&x, &eo, &merge);
		if (rc || !merge)
			goto out;
	}
	rc = sweep_merge(x.dir, eo.allow_mixed);
	goto out;
usage:
	rc = EXIT_USAGE;
out:
	if (x.lines)
		fclose(x.lines);
	json_object_put(x.keys);
	json_object_put(x.base);
	free(x.hvpmu_env);
	sweep_plan_free(&pl);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "allow-mixed", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, mixed = 0;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
		if (c == 'A') {
			mixed = 1;
		} else {
			fprintf(c == 'h' ? stdout : stderr, "usage: hvpmu merge [--allow-mixed] DIR\n"
				"  the results of a sweep (hvpmu sweep -o DIR) into DIR/merged.csv, merged.json and "
				"tables/\n");
			return c == 'h' ? 0 : EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "hvpmu merge: %s (hvpmu merge [--allow-mixed] DIR)\n",
			optind >= argc ? "no directory given" : "one directory only");
		return EXIT_USAGE;
	}
	return sweep_merge(argv[optind], mixed);
}
