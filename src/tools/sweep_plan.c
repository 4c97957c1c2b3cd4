/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan of `hvpmu sweep` (sweep.h, docs/sweeps.md "The plan"): a JSON
 * object read with json-c into struct sweep_plan, every key checked (an
 * unknown key is an error, as in a machine description), every error one
 * line naming the key.  Also the description-side helpers the expansion
 * uses: a key path set in a description object, and canonical JSON.
 * Nothing here touches the file system (tests/fuzz/fuzz_sweep_plan.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "sweep.h"

/* The tool options a plan may give, as "--name" or "--name=value", and how
 * the job's command line spells them (the rest of each tool's options are
 * the sweep's own: output, format, machine). */
static const struct sweep_opt {
	enum sweep_tool tool;
	const char *name;     /* in the plan */
	int has_value;
	const char *spelled;  /* on the tool's command line, the value after it */
} opts[] = {
	{ SWEEP_STAT, "--hw-prefetch", 1, "--hw-prefetch" },
	{ SWEEP_STAT, "--placement", 1, "--placement" },
	{ SWEEP_STAT, "--rotate-cycles", 1, "--rotate-cycles" },
	{ SWEEP_STAT, "--pic-init", 1, "--pic-init" },
	{ SWEEP_STAT, "--follow", 0, "--follow" },
	{ SWEEP_MDPERF, "--node", 1, "-n" },
	{ SWEEP_MDPERF, "--all", 0, "-a" },
	{ SWEEP_GPCI, "--partition", 1, "--partition" },
	{ SWEEP_GPCI, "--index", 1, "-s" },
};
#define NOPTS (sizeof opts / sizeof opts[0])

static const char *const tool_names[] = { [SWEEP_STAT] = "stat", [SWEEP_MDPERF] = "mdperf", [SWEEP_GPCI] = "gpci" };

const char *sweep_tool_name(enum sweep_tool t)
{
	return (unsigned)t < sizeof tool_names / sizeof tool_names[0] ? tool_names[t] : "?";
}

/* One line "NAME: KEY: what" in err; control characters as '?'. */
static int plan_fail(char *err, size_t n, const char *name, const char *key, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	int w;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	w = snprintf(err, n, "%s: %s%s%s", name, key ? key : "", key ? ": " : "", what);
	(void)w;
	for (char *p = err; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return -1;
}

/* A parse in progress: the plan, its name and dir, the error buffer. */
struct ctx {
	struct sweep_plan *plan;
	const char *name, *dir;
	char *err;
	size_t n;
	int oom;
};

static char *dup_str(struct ctx *c, const char *s)
{
	char *d = strdup(s);

	if (!d)
		c->oom = 1;
	return d;
}

/* A string value of at most SWEEP_MAX_STR bytes without NULs: 0, or -1. */
static int get_str(struct ctx *c, json_object *v, const char *key, const char **out)
{
	if (!json_object_is_type(v, json_type_string))
		return plan_fail(c->err, c->n, c->name, key, "not a string");
	if ((size_t)json_object_get_string_len(v) > SWEEP_MAX_STR)
		return plan_fail(c->err, c->n, c->name, key, "longer than %d bytes", SWEEP_MAX_STR);
	if (strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v))
		return plan_fail(c->err, c->n, c->name, key, "holds a NUL character");
	*out = json_object_get_string(v);
	return 0;
}

/* A path of the plan resolved against its directory (a new string). */
static int get_path(struct ctx *c, json_object *v, const char *key, char **out)
{
	const char *s = NULL;
	size_t need;

	if (get_str(c, v, key, &s))
		return -1;
	if (!*s)
		return plan_fail(c->err, c->n, c->name, key, "an empty path");
	if (s[0] == '/' || !c->dir || !*c->dir) {
		*out = dup_str(c, s);
		return *out ? 0 : -1;
	}
	need = strlen(c->dir) + 1 + strlen(s) + 1;
	if (!(*out = malloc(need))) {
		c->oom = 1;
		return -1;
	}
	snprintf(*out, need, "%s/%s", c->dir, s);
	return 0;
}

/* An array of strings (max elements, or resolved paths when paths) into
 * out[]: 0, or -1. */
static int get_strings(struct ctx *c, json_object *v, const char *key, size_t max, int paths, char **out,
		       unsigned *count)
{
	char k[128];
	size_t len;

	if (!json_object_is_type(v, json_type_array))
		return plan_fail(c->err, c->n, c->name, key, "not an array");
	if ((len = json_object_array_length(v)) > max)
		return plan_fail(c->err, c->n, c->name, key, "more than %zu elements", max);
	for (size_t i = 0; i < len; i++) {
		const char *s = NULL;

		snprintf(k, sizeof k, "%s[%zu]", key, i);
		if (paths) {
			if (get_path(c, json_object_array_get_idx(v, i), k, &out[i]))
				return -1;
		} else {
			if (get_str(c, json_object_array_get_idx(v, i), k, &s) || !(out[i] = dup_str(c, s)))
				return -1;
		}
		*count = (unsigned)(i + 1);
	}
	return 0;
}

/* An integer in [lo, hi]: 0, or -1. */
static int get_int(struct ctx *c, json_object *v, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return plan_fail(c->err, c->n, c->name, key, "not an integer");
	errno = 0;
	x = json_object_get_int64(v);
	if (errno || x < lo || x > hi || (x == INT64_MAX && json_object_get_uint64(v) != (uint64_t)INT64_MAX))
		return plan_fail(c->err, c->n, c->name, key, "out of range %lld..%lld", (long long)lo, (long long)hi);
	*out = x;
	return 0;
}

static int valid_name(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len > SWEEP_NAME_MAX || s[0] == '.' || s[0] == '-')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.+-", *s))
			return 0;
	return 1;
}

/* A guest's name as a description gives it: 1..31 characters, no blanks
 * or commas (they go into the emulator's plugin arguments). */
static int valid_guest(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len > SWEEP_GUEST_MAX)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || *s == ',' || *s == '/' || *s == 0x7f)
			return 0;
	return 1;
}

static int parse_guests(struct ctx *c, json_object *v, const char *key, struct sweep_program *p);

/* A program (guest 0) or one of its guests' runs (guest 1). */
static int parse_program(struct ctx *c, json_object *o, const char *key, struct sweep_program *p, int guest)
{
	char k[192];
	unsigned nargs = 0, nfiles = 0;
	int64_t st;

	if (!json_object_is_type(o, json_type_object))
		return plan_fail(c->err, c->n, c->name, key, "not an object");
	json_object_object_foreach(o, name, v) {
		const char *s = NULL;

		snprintf(k, sizeof k, "%s.%.32s", key, name);
		if (!strcmp(name, "name") && !guest) {
			if (get_str(c, v, k, &s))
				return -1;
			if (!valid_name(s))
				return plan_fail(c->err, c->n, c->name, k, "'%.80s': 1..%d characters of A-Z a-z 0-9 _ . + - "
					    "(not starting with . or -)", s, SWEEP_NAME_MAX);
			if (!(p->name = dup_str(c, s)))
				return -1;
		} else if (!strcmp(name, "guest") && guest) {
			if (get_str(c, v, k, &s))
				return -1;
			if (!valid_guest(s))
				return plan_fail(c->err, c->n, c->name, k, "'%.80s' is not a guest's name (1..%d characters, "
					    "no blanks, ',' or '/')", s, SWEEP_GUEST_MAX);
			if (!(p->guest = dup_str(c, s)))
				return -1;
		} else if (!strcmp(name, "path")) {
			if (get_path(c, v, k, &p->path))
				return -1;
		} else if (!strcmp(name, "args")) {
			if (!json_object_is_type(v, json_type_array))
				return plan_fail(c->err, c->n, c->name, k, "not an array");
			if (!(p->args = calloc(SWEEP_MAX_ARGS, sizeof *p->args))) {
				c->oom = 1;
				return -1;
			}
			if (get_strings(c, v, k, SWEEP_MAX_ARGS, 0, p->args, &nargs))
				return -1;
			p->nargs = nargs;
		} else if (!strcmp(name, "input")) {
			if (!json_object_is_type(v, json_type_null) && get_path(c, v, k, &p->input))
				return -1;
		} else if (!strcmp(name, "files")) {
			if (!json_object_is_type(v, json_type_array))
				return plan_fail(c->err, c->n, c->name, k, "not an array");
			if (!(p->files = calloc(SWEEP_MAX_LIST, sizeof *p->files))) {
				c->oom = 1;
				return -1;
			}
			if (get_strings(c, v, k, SWEEP_MAX_LIST, 1, p->files, &nfiles))
				return -1;
			p->nfiles = nfiles;
		} else if (!strcmp(name, "status") && !guest) {
			if (get_int(c, v, k, 0, 255, &st))
				return -1;
			p->status = (int)st;
		} else if (!strcmp(name, "guests") && !guest) {
			if (parse_guests(c, v, k, p))
				return -1;
		} else {
			return plan_fail(c->err, c->n, c->name, k, guest ? "unknown key (guest, path, args, input, files)"
				    : "unknown key (name, path, args, input, files, status, guests)");
		}
	}
	if (p->guests) {
		if (p->path || p->args || p->input || p->files)
			return plan_fail(c->err, c->n, c->name, key, "a program with \"guests\" runs theirs: no path, args, "
				    "input or files of its own");
		if (!p->name)
			return plan_fail(c->err, c->n, c->name, key, "a program with \"guests\" needs a \"name\"");
		return 0;
	}
	if (!p->path)
		return plan_fail(c->err, c->n, c->name, key, "no \"path\"");
	if (guest && !p->guest)
		return plan_fail(c->err, c->n, c->name, key, "no \"guest\"");
	if (!p->name && !guest) { /* the file's name */
		const char *b = strrchr(p->path, '/');

		b = b ? b + 1 : p->path;
		if (!valid_name(b))
			return plan_fail(c->err, c->n, c->name, key, "no \"name\", and the file's name '%.80s' is not one", b);
		if (!(p->name = dup_str(c, b)))
			return -1;
	}
	return 0;
}

static int parse_guests(struct ctx *c, json_object *v, const char *key, struct sweep_program *p)
{
	char k[256];
	size_t len;

	if (p->guests || !json_object_is_type(v, json_type_array))
		return plan_fail(c->err, c->n, c->name, key, "not an array");
	len = json_object_array_length(v);
	if (len == 0 || len > SWEEP_MAX_GUESTS)
		return plan_fail(c->err, c->n, c->name, key, "needs 1..%d guests", SWEEP_MAX_GUESTS);
	if (!(p->guests = calloc(len, sizeof *p->guests))) {
		c->oom = 1;
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		snprintf(k, sizeof k, "%s[%zu]", key, i);
		p->nguests = (unsigned)(i + 1);
		if (parse_program(c, json_object_array_get_idx(v, i), k, &p->guests[i], 1))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(p->guests[j].guest, p->guests[i].guest))
				return plan_fail(c->err, c->n, c->name, k, "guest '%s' runs %s[%zu] already", p->guests[i].guest,
					    key, j);
	}
	return 0;
}

static int parse_programs(struct ctx *c, json_object *v)
{
	struct sweep_plan *pl = c->plan;
	size_t len;

	if (!json_object_is_type(v, json_type_array))
		return plan_fail(c->err, c->n, c->name, "programs", "not an array");
	len = json_object_array_length(v);
	if (len == 0 || len > SWEEP_MAX_PROGRAMS)
		return plan_fail(c->err, c->n, c->name, "programs", "needs 1..%d programs", SWEEP_MAX_PROGRAMS);
	if (!(pl->prog = calloc(len, sizeof *pl->prog))) {
		c->oom = 1;
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		char key[64];

		snprintf(key, sizeof key, "programs[%zu]", i);
		pl->nprog = (unsigned)(i + 1);
		if (parse_program(c, json_object_array_get_idx(v, i), key, &pl->prog[i], 0))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(pl->prog[j].name, pl->prog[i].name)) {
				snprintf(key, sizeof key, "programs[%zu].name", i);
				return plan_fail(c->err, c->n, c->name, key, "'%s' names programs[%zu] already (give each a "
					    "\"name\" of its own)", pl->prog[i].name, j);
			}
	}
	return 0;
}

/* A description key path: segments of [A-Za-z0-9_] separated by '.',
 * each optionally followed by [N]. */
static int valid_key(const char *s)
{
	int seg = 0;

	if (!*s)
		return 0;
	while (*s) {
		if (isalnum((unsigned char)*s) || *s == '_') {
			seg = 1;
			s++;
		} else if (*s == '[' && seg) {
			if (!isdigit((unsigned char)*++s))
				return 0;
			while (isdigit((unsigned char)*s))
				s++;
			if (*s++ != ']' || (*s && *s != '.' && *s != '['))
				return 0;
		} else if (*s == '.' && seg) {
			seg = 0;
			s++;
			if (!*s)
				return 0;
		} else {
			return 0;
		}
	}
	return 1;
}

static int parse_axes(struct ctx *c, json_object *v)
{
	struct sweep_plan *pl = c->plan;

	if (!json_object_is_type(v, json_type_object))
		return plan_fail(c->err, c->n, c->name, "axes", "not an object");
	json_object_object_foreach(v, key, vals) {
		struct sweep_axis *a;
		char k[SWEEP_MAX_STR + 16];
		size_t len;

		snprintf(k, sizeof k, "axes.%.200s", key);
		if (pl->naxes == SWEEP_MAX_AXES)
			return plan_fail(c->err, c->n, c->name, "axes", "more than %d axes", SWEEP_MAX_AXES);
		if (strlen(key) > 200 || !valid_key(key))
			return plan_fail(c->err, c->n, c->name, k, "not a description key (as \"memory.l2.size\" or "
				    "\"guests[0].nstrands\": docs/machine-description.md)");
		if (!json_object_is_type(vals, json_type_array))
			return plan_fail(c->err, c->n, c->name, k, "not an array of values");
		len = json_object_array_length(vals);
		if (len == 0 || len > SWEEP_MAX_VALUES)
			return plan_fail(c->err, c->n, c->name, k, "needs 1..%d values", SWEEP_MAX_VALUES);
		for (size_t i = 0; i < len; i++) {
			json_object *x = json_object_array_get_idx(vals, i);

			for (size_t j = 0; j < i; j++)
				if (json_object_equal(x, json_object_array_get_idx(vals, j)))
					return plan_fail(c->err, c->n, c->name, k, "value %zu repeats value %zu", i, j);
		}
		a = &pl->axis[pl->naxes++];
		if (!(a->key = dup_str(c, key)))
			return -1;
		a->values = vals;
		a->nvalues = len;
		if (pl->npoints > SWEEP_MAX_JOBS / len)
			return plan_fail(c->err, c->n, c->name, "axes", "more than %d points", SWEEP_MAX_JOBS);
		pl->npoints *= len;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int parse_env(struct ctx *c, json_object *v)
{
	struct sweep_plan *pl = c->plan;

	if (!json_object_is_type(v, json_type_object))
		return plan_fail(c->err, c->n, c->name, "env", "not an object");
	json_object_object_foreach(v, key, val) {
		char k[96];
		const char *s = NULL;
		size_t need;

		snprintf(k, sizeof k, "env.%.64s", key);
		if (pl->nenv == SWEEP_MAX_LIST)
			return plan_fail(c->err, c->n, c->name, "env", "more than %d variables", SWEEP_MAX_LIST);
		if (!*key || strlen(key) > 64 || strchr(key, '=') || !strncmp(key, "HVPMU_", 6))
			return plan_fail(c->err, c->n, c->name, k, "not a variable name (1..64 characters, no '=', not "
				    "HVPMU_*: those are the tool's)");
		if (get_str(c, val, k, &s))
			return -1;
		need = strlen(key) + 1 + strlen(s) + 1;
		if (!(pl->env[pl->nenv] = malloc(need))) {
			c->oom = 1;
			return -1;
		}
		snprintf(pl->env[pl->nenv++], need, "%s=%s", key, s);
	}
	qsort(pl->env, pl->nenv, sizeof pl->env[0], cmp_str);
	return 0;
}

/* The options, checked against opts[] once the tool is known. */
static int check_options(struct ctx *c)
{
	struct sweep_plan *pl = c->plan;

	for (unsigned i = 0; i < pl->noptions; i++) {
		const char *o = pl->options[i], *eq = strchr(o, '=');
		size_t nl = eq ? (size_t)(eq - o) : strlen(o);
		size_t j;
		char k[32];

		snprintf(k, sizeof k, "options[%u]", i);
		for (j = 0; j < NOPTS; j++)
			if (opts[j].tool == pl->tool && strlen(opts[j].name) == nl && !strncmp(opts[j].name, o, nl))
				break;
		if (j == NOPTS) {
			char names[256];
			size_t used = 0;

			names[0] = 0;
			for (size_t m = 0; m < NOPTS; m++)
				if (opts[m].tool == pl->tool)
					used += (size_t)snprintf(names + used, sizeof names - used, "%s%s%s",
								 used ? ", " : "", opts[m].name,
								 opts[m].has_value ? "=V" : "");
			return plan_fail(c->err, c->n, c->name, k, "'%.80s' is not an option a %s sweep takes (%s; the "
				    "machine goes in \"description\" and \"axes\")", o, sweep_tool_name(pl->tool), names);
		}
		if (opts[j].has_value && (!eq || !eq[1]))
			return plan_fail(c->err, c->n, c->name, k, "%s needs a value (%s=V)", opts[j].name, opts[j].name);
		if (!opts[j].has_value && eq)
			return plan_fail(c->err, c->n, c->name, k, "%s takes no value", opts[j].name);
	}
	return 0;
}

int sweep_plan_option_argv(const struct sweep_plan *pl, unsigned i, const char **opt, const char **value)
{
	const char *o = pl->options[i], *eq = strchr(o, '=');
	size_t nl = eq ? (size_t)(eq - o) : strlen(o);

	for (size_t j = 0; j < NOPTS; j++)
		if (opts[j].tool == pl->tool && strlen(opts[j].name) == nl && !strncmp(opts[j].name, o, nl)) {
			*opt = opts[j].spelled;
			*value = eq ? eq + 1 : NULL;
			return 0;
		}
	return -1;
}

static int parse_top(struct ctx *c, json_object *root)
{
	struct sweep_plan *pl = c->plan;
	int have_programs = 0;
	int64_t x;

	json_object_object_foreach(root, key, v) {
		const char *s = NULL;

		if (!strcmp(key, "tool")) {
			if (get_str(c, v, "tool", &s))
				return -1;
			if (!strcmp(s, "stat"))
				pl->tool = SWEEP_STAT;
			else if (!strcmp(s, "mdperf"))
				pl->tool = SWEEP_MDPERF;
			else if (!strcmp(s, "gpci"))
				pl->tool = SWEEP_GPCI;
			else
				return plan_fail(c->err, c->n, c->name, "tool", "'%.80s': stat, mdperf or gpci", s);
		} else if (!strcmp(key, "events")) {
			if (get_strings(c, v, "events", SWEEP_MAX_LIST, 0, pl->events, &pl->nevents))
				return -1;
			for (unsigned i = 0; i < pl->nevents; i++)
				if (!pl->events[i][0] || strpbrk(pl->events[i], " \t\n"))
					return plan_fail(c->err, c->n, c->name, "events", "'%.80s' is not an event",
						    pl->events[i]);
		} else if (!strcmp(key, "options")) {
			if (get_strings(c, v, "options", SWEEP_MAX_LIST, 0, pl->options, &pl->noptions))
				return -1;
		} else if (!strcmp(key, "repeat")) {
			if (get_int(c, v, "repeat", 1, SWEEP_MAX_REPEAT, &x))
				return -1;
			pl->repeat = (unsigned)x;
		} else if (!strcmp(key, "platform")) {
			if (get_str(c, v, "platform", &s))
				return -1;
			if (!*s || strlen(s) > 15)
				return plan_fail(c->err, c->n, c->name, "platform", "'%.80s' is not a platform name", s);
			if (!(pl->platform = dup_str(c, s)))
				return -1;
		} else if (!strcmp(key, "description")) {
			if (json_object_is_type(v, json_type_object))
				pl->md_inline = v;
			else if (get_path(c, v, "description", &pl->md_file))
				return -1;
		} else if (!strcmp(key, "axes")) {
			if (parse_axes(c, v))
				return -1;
		} else if (!strcmp(key, "programs")) {
			if (parse_programs(c, v))
				return -1;
			have_programs = 1;
		} else if (!strcmp(key, "env")) {
			if (parse_env(c, v))
				return -1;
		} else if (!strcmp(key, "cwd")) {
			free(pl->cwd);
			pl->cwd = NULL;
			if (get_path(c, v, "cwd", &pl->cwd))
				return -1;
		} else if (!strcmp(key, "output")) {
			if (get_path(c, v, "output", &pl->output))
				return -1;
		} else {
			return plan_fail(c->err, c->n, c->name, key, "unknown key (tool, events, options, repeat, platform, "
				    "description, axes, programs, env, cwd, output)");
		}
	}
	if (!have_programs)
		return plan_fail(c->err, c->n, c->name, NULL, "no \"programs\"");
	if (pl->tool == SWEEP_GPCI && pl->nevents > 1)
		return plan_fail(c->err, c->n, c->name, "events", "a gpci sweep asks one request (-r) or, without "
			    "\"events\", all of them");
	for (unsigned i = 0; pl->tool == SWEEP_STAT && i < pl->nprog; i++)
		for (unsigned k = 0; pl->prog[i].guests && k < pl->noptions; k++)
			if (strncmp(pl->options[k], "--rotate-cycles", 15) && strncmp(pl->options[k], "--pic-init", 10))
				return plan_fail(c->err, c->n, c->name, "options", "'%.80s': programs[%u] runs in guests, "
					    "counted by stat -a, which counts the service's machine as it is (--rotate-cycles "
					    "and --pic-init only)", pl->options[k], i);
	if (pl->tool == SWEEP_MDPERF)
		for (unsigned i = 0; i < pl->nprog; i++)
			if (pl->prog[i].guests)
				return plan_fail(c->err, c->n, c->name, "programs", "an mdperf sweep runs one program a job "
					    "(no \"guests\")");
	if (check_options(c))
		return -1;
	if (pl->npoints * pl->nprog > SWEEP_MAX_JOBS / pl->repeat)
		return plan_fail(c->err, c->n, c->name, NULL, "more than %d jobs (points x programs x repeat)",
			    SWEEP_MAX_JOBS);
	return 0;
}

int sweep_plan_parse(const char *text, size_t len, const char *dir, const char *name, struct sweep_plan *plan,
		     char *err, size_t n)
{
	struct ctx c = { .plan = plan, .name = name, .dir = dir, .err = err, .n = n };
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	json_object *root;
	int rc;

	memset(plan, 0, sizeof *plan);
	if (len > SWEEP_MAX_PLAN_BYTES)
		return plan_fail(err, n, name, NULL, "larger than %u bytes", SWEEP_MAX_PLAN_BYTES);
	if (memchr(text, 0, len))
		return plan_fail(err, n, name, NULL, "holds a NUL byte: not a JSON text");
	if (!(tok = json_tokener_new())) {
		return plan_fail(err, n, name, NULL, "out of memory");
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (!root || jerr != json_tokener_success || tok->char_offset < (int)len) {
		size_t off = (size_t)tok->char_offset, line = 1, col = 1;
		int trailing = root && jerr == json_tokener_success;

		for (size_t i = 0; i < off && i < len; i++) {
			if (text[i] == '\n')
				line++, col = 1;
			else
				col++;
		}
		if (trailing) { /* only blanks may follow the object */
			size_t i = off;

			while (i < len && isspace((unsigned char)text[i]))
				i++;
			if (i == len)
				goto parsed;
		}
		json_tokener_free(tok);
		json_object_put(root);
		return plan_fail(err, n, name, NULL, "%zu:%zu: JSON: %s", line, col,
			    jerr == json_tokener_continue ? "the text ends inside the JSON"
			    : trailing ? "text after the plan's object" : json_tokener_error_desc(jerr));
	}
parsed:
	json_tokener_free(tok);
	if (!json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return plan_fail(err, n, name, NULL, "not a JSON object");
	}
	plan->root = root;
	plan->repeat = 1;
	plan->npoints = 1;
	plan->tool = SWEEP_STAT;
	if (!(plan->dir = strdup(dir ? dir : ".")) || !(plan->cwd = strdup(dir ? dir : ".")))
		c.oom = 1;
	rc = c.oom ? -1 : parse_top(&c, root);
	if (c.oom)
		rc = plan_fail(err, n, name, NULL, "out of memory");
	if (rc)
		sweep_plan_free(plan);
	return rc;
}

static void free_list(char **v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		free(v[i]);
}

static void free_program(struct sweep_program *p)
{
	for (unsigned i = 0; p->guests && i < p->nguests; i++)
		free_program(&p->guests[i]);
	free(p->guests);
	free(p->name);
	free(p->guest);
	free(p->path);
	free(p->input);
	if (p->args)
		free_list(p->args, p->nargs);
	free(p->args);
	if (p->files)
		free_list(p->files, p->nfiles);
	free(p->files);
}

void sweep_plan_free(struct sweep_plan *pl)
{
	for (unsigned i = 0; i < pl->nprog; i++)
		free_program(&pl->prog[i]);
	free(pl->prog);
	for (unsigned i = 0; i < pl->naxes; i++)
		free(pl->axis[i].key);
	free_list(pl->events, pl->nevents);
	free_list(pl->options, pl->noptions);
	free_list(pl->env, pl->nenv);
	free(pl->dir);
	free(pl->platform);
	free(pl->md_file);
	free(pl->cwd);
	free(pl->output);
	json_object_put(pl->root);
	memset(pl, 0, sizeof *pl);
}

int sweep_set_key(json_object *md, const char *key, json_object *v, char *err, size_t n)
{
	json_object *cur = md, *copy = NULL;
	char seg[256];
	const char *p = key;

	while (*p) {
		size_t len = strcspn(p, ".[");
		json_object *next;

		if (len == 0 || len >= sizeof seg) {
			snprintf(err, n, "'%s' is not a description key", key);
			return -1;
		}
		memcpy(seg, p, len);
		seg[len] = 0;
		p += len;
		if (!json_object_is_type(cur, json_type_object)) {
			snprintf(err, n, "%.*s: not an object in the description", (int)(p - key - len - 1), key);
			return -1;
		}
		if (!*p) { /* the last segment: the value */
			if (json_object_deep_copy(v, &copy, NULL) || json_object_object_add(cur, seg, copy)) {
				json_object_put(copy);
				snprintf(err, n, "out of memory");
				return -1;
			}
			return 0;
		}
		if (!json_object_object_get_ex(cur, seg, &next) || !next) {
			if (*p == '[') {
				snprintf(err, n, "%.*s: the description has no such array", (int)(p - key), key);
				return -1;
			}
			if (!(next = json_object_new_object()) || json_object_object_add(cur, seg, next)) {
				json_object_put(next);
				snprintf(err, n, "out of memory");
				return -1;
			}
		}
		cur = next;
		while (*p == '[') { /* indexes into existing arrays */
			char *end;
			unsigned long idx = strtoul(p + 1, &end, 10);

			if (*end != ']' || !json_object_is_type(cur, json_type_array) ||
			    idx >= json_object_array_length(cur)) {
				snprintf(err, n, "%.*s: the description has no such element", (int)(strchr(p, ']') ?
					 strchr(p, ']') - key + 1 : (long)strlen(key)), key);
				return -1;
			}
			cur = json_object_array_get_idx(cur, idx);
			p = end + 1;
			if (!*p) { /* a whole element: the axes set keys */
				snprintf(err, n, "%s: name a key inside the element", key);
				return -1;
			}
		}
		if (*p == '.')
			p++;
	}
	snprintf(err, n, "'%s' is not a description key", key);
	return -1;
}

/* Growing text for the canonical form. */
struct buf {
	char *s;
	size_t len, cap;
	int oom;
};

static void put(struct buf *b, const char *s, size_t len)
{
	if (b->oom)
		return;
	if (b->len + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *ns;

		while (cap < b->len + len + 1)
			cap *= 2;
		if (!(ns = realloc(b->s, cap))) {
			b->oom = 1;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = 0;
}

static void put_str(struct buf *b, const char *s) { put(b, s, strlen(s)); }

static void canon(struct buf *b, json_object *o, int depth)
{
	if (depth > 64) { /* json-c's own nesting limit is 32 */
		b->oom = 1;
		return;
	}
	switch (json_object_get_type(o)) {
	case json_type_object: {
		size_t nk = (size_t)json_object_object_length(o), i = 0;
		const char **keys = calloc(nk ? nk : 1, sizeof *keys);

		if (!keys) {
			b->oom = 1;
			return;
		}
		json_object_object_foreach(o, k, unused) {
			(void)unused;
			keys[i++] = k;
		}
		qsort(keys, nk, sizeof *keys, cmp_str);
		put_str(b, "{");
		for (i = 0; i < nk; i++) {
			json_object *ks = json_object_new_string(keys[i]), *v = json_object_object_get(o, keys[i]);

			if (!ks) {
				b->oom = 1;
				break;
			}
			put_str(b, i ? "," : "");
			put_str(b, json_object_to_json_string_ext(ks, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(ks);
			put_str(b, ":");
			canon(b, v, depth + 1);
		}
		put_str(b, "}");
		free(keys);
		break;
	}
	case json_type_array:
		put_str(b, "[");
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			put_str(b, i ? "," : "");
			canon(b, json_object_array_get_idx(o, i), depth + 1);
		}
		put_str(b, "]");
		break;
	case json_type_null: put_str(b, "null"); break;
	default:
		put_str(b, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		break;
	}
}

char *sweep_canonical_json(json_object *o)
{
	struct buf b = { 0 };

	canon(&b, o, 0);
	if (b.oom || !b.s) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
