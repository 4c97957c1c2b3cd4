/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu sweep` and `hvpmu merge` (docs/sweeps.md): a plan of programs x
 * machine-description points x repeats, expanded into one job per run,
 * each a self-contained command line that writes one JSON result named by
 * the hash of everything that decides it; the jobs run on an engine the
 * user already has (GNU parallel, Slurm, or any that takes a list of
 * command lines), and the results merge into tables.
 *
 * The plan (a JSON object; docs/sweeps.md "The plan"):
 *   "tool"        "stat" (default), "mdperf" or "gpci"
 *   "events"      array of strings: stat's -e events / mdperf's -s sets /
 *                 gpci's -r request (at most one)
 *   "options"     array of "--name[=value]" strings from the tool's allowed
 *                 list (sweep_plan.c opts[]): stat --hw-prefetch=N,
 *                 --placement=P, --rotate-cycles=N, --pic-init=N, --follow;
 *                 mdperf --node=N (-n), --all (-a); gpci --partition=ID,
 *                 --index=N (-s)
 *   "repeat"      1..1000 runs of every point (default 1)
 *   "platform"    a built-in description name (default: the description's,
 *                 else the tool's: mdperf's Origin, gpci's first with a
 *                 CEC, stat's t4)
 *   "description" a description file (path) or an inline description
 *                 object (docs/machine-description.md): the base every
 *                 point overrides
 *   "axes"        object: description key ("memory.l2.size",
 *                 "guests[0].nstrands") -> non-empty array of values; the
 *                 points are their cross product, first axis slowest
 *   "programs"    non-empty array of { "name", "path", "args" [strings],
 *                 "input" (stdin file), "files" [other files it reads],
 *                 "status" (the exit status that is success, default 0) }
 *                 or { "name", "status", "guests": [ { "guest", "path",
 *                 "args", "input", "files" }, ... ] }: runs at once in the
 *                 named guests of a service of the job's own (stat: each
 *                 guest counted by a monitor, stat -a; gpci: asked after
 *                 the runs).  A gpci program without guests runs in the
 *                 description's first guest.
 *   "env"         object NAME -> string: the programs' environment
 *                 (default none at all, as `env -i`)
 *   "cwd"         the programs' working directory (default the plan's)
 *   "output"      the results directory (default PLAN.results beside it)
 * Paths are relative to the plan file's directory.
 *
 * Limits: SWEEP_MAX_* below; the product of the axes' lengths x programs
 * x repeat at most SWEEP_MAX_JOBS.
 */
#ifndef HVPMU_TOOLS_SWEEP_H
#define HVPMU_TOOLS_SWEEP_H

#include <stddef.h>
#include <json-c/json.h>

#define SWEEP_MAX_PLAN_BYTES (1u << 20) /* a plan is a page or two */
#define SWEEP_MAX_PROGRAMS 256
#define SWEEP_MAX_AXES 8
#define SWEEP_MAX_VALUES 256   /* values of one axis */
#define SWEEP_MAX_ARGS 256     /* arguments of one program */
#define SWEEP_MAX_LIST 64      /* events, options, files, env entries */
#define SWEEP_MAX_REPEAT 1000
#define SWEEP_MAX_JOBS 1000000
#define SWEEP_MAX_STR 4096     /* any one string of the plan */
#define SWEEP_NAME_MAX 64      /* a program's name: [A-Za-z0-9_.+-], 1..64 */

enum sweep_tool { SWEEP_STAT, SWEEP_MDPERF, SWEEP_GPCI };

#define SWEEP_MAX_GUESTS 8     /* a description's guests (hvpmu/md.h) */
#define SWEEP_GUEST_MAX 31     /* a guest's name */

/* A program of the plan: one run (path, args, input, files), or with
 * guests[] several runs at once, one in each named guest of a service
 * the job starts (the guests' own name, status and guests unused). */
struct sweep_program {
	char *name;           /* unique in the plan */
	char *guest;          /* a run in guests[]: its guest (NULL: the description's first) */
	char *path;           /* absolute or relative to the plan's dir, as resolved */
	char **args;          /* argv[1..] */
	unsigned nargs;
	char *input;          /* stdin, resolved; NULL: /dev/null */
	char **files;         /* other files it reads, resolved (hashed) */
	unsigned nfiles;
	int status;           /* the exit status that is success (of every run) */
	struct sweep_program *guests; /* NULL: the program is one run */
	unsigned nguests;
};

struct sweep_axis {
	char *key;            /* description key path, "memory.l2.size" */
	json_object *values;  /* the plan's array (owned by plan->root) */
	size_t nvalues;
};

struct sweep_plan {
	json_object *root;    /* the parsed plan */
	char *dir;            /* the plan file's directory */
	enum sweep_tool tool;
	char *platform;       /* NULL: the description's, else t4 */
	char *md_file;        /* base description file, resolved, or NULL */
	json_object *md_inline; /* inline base description (owned by root), or NULL */
	char *events[SWEEP_MAX_LIST];
	unsigned nevents;
	char *options[SWEEP_MAX_LIST]; /* "--name" or "--name=value", checked */
	unsigned noptions;
	char *env[SWEEP_MAX_LIST];     /* "NAME=VALUE", sorted by name */
	unsigned nenv;
	unsigned repeat;
	char *cwd;            /* resolved */
	char *output;         /* resolved, or NULL */
	struct sweep_program *prog;
	unsigned nprog;
	struct sweep_axis axis[SWEEP_MAX_AXES];
	unsigned naxes;
	size_t npoints;       /* product of the axes' lengths (1 without axes) */
};

/*
 * Parse plan text (len bytes, not NUL-terminated) into *plan; paths are
 * resolved against `dir` (string operations only: nothing is read or
 * checked on disk).  `name` is the plan's name in messages.  0, or -1
 * with one line "NAME: KEY: what" in err (n bytes) and *plan empty.
 * sweep_plan_free releases a parsed plan (and is harmless on an empty one).
 */
int sweep_plan_parse(const char *text, size_t len, const char *dir, const char *name, struct sweep_plan *plan,
		     char *err, size_t n);
void sweep_plan_free(struct sweep_plan *plan);

/* The tool's name as the command line spells it ("stat", "mdperf"). */
const char *sweep_tool_name(enum sweep_tool t);

/*
 * Set key path `key` ("memory.l2.size", "guests[0].nstrands") of
 * description object md to a deep copy of v, creating the objects on the
 * way (not array elements: an index must exist).  0, or -1 with "what" in
 * err.
 */
int sweep_set_key(json_object *md, const char *key, json_object *v, char *err, size_t n);

/* o in canonical JSON: object keys sorted (bytewise), no blanks; a new
 * string (NULL: out of memory). */
char *sweep_canonical_json(json_object *o);

/* SHA-256 (GLib's GChecksum) in lowercase hex (65 bytes with the NUL).
 * sweep_sha256_file: of a file's contents; 0, or -1 with errno set. */
#define SWEEP_HEX 65
void sweep_sha256(const void *data, size_t len, char hex[SWEEP_HEX]);
int sweep_sha256_file(const char *path, char hex[SWEEP_HEX]);

/* `hvpmu sweep --job FILE`: run one job of a results directory
 * (sweep_job.c).  Returns 0 when the result exists or was written, else
 * 1 after one line. */
int sweep_run_job(const char *file);

/*
 * Merge the results of directory dir's manifest (sweep.json) into
 * merged.csv, merged.json and tables/ (sweep_merge.c).  allow_mixed: merge
 * results of different hvpmu or QEMU builds.  0, or 1 after one line per
 * problem (the missing points are named; nothing is written then).
 */
int sweep_merge(const char *dir, int allow_mixed);

/* The layout of jobs, results and the manifest (in each of them as
 * "format"); the most array tasks an sbatch script asks (Slurm's default
 * MaxArraySize is 1001). */
#define SWEEP_FORMAT 1
#define SWEEP_SLURM_TASKS 1000

/* The tool's spelling of plan option i (checked by sweep_plan_parse):
 * *opt, and *value (NULL: none).  0, or -1 for an unknown option. */
int sweep_plan_option_argv(const struct sweep_plan *pl, unsigned i, const char **opt, const char **value);

/* Files (sweep.c): a file's contents NUL-terminated (at most max bytes,
 * else EFBIG), *len its length; NULL with errno.  sweep_write_file: text
 * to path through a temporary file and rename(), so that a reader sees
 * the whole file or none: 0, or -1 with errno.  sweep_mkdir: 0 when the
 * directory exists or was made.  sweep_quote: s single-quoted for sh. */
char *sweep_read_file(const char *path, size_t max, size_t *len);
int sweep_write_file(const char *path, const char *text, size_t len);
int sweep_mkdir(const char *path);
void sweep_quote(char *out, size_t n, const char *s);

/* Job specs (sweep.c): a string member of o, or NULL; and what a job is
 * about, for messages: "PROGRAM KEY=V ... repeat R" into out (n bytes,
 * cut short where it would not fit). */
const char *sweep_str_of(json_object *o, const char *key);
void sweep_job_text(json_object *spec, char *out, size_t n);

int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
