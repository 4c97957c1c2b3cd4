/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu merge DIR` and the end of `hvpmu sweep` (sweep.h, docs/sweeps.md
 * "Merged tables"): the results of every job of the manifest DIR/sweep.json
 * into
 *   DIR/merged.csv, DIR/merged.json  one row per job: program, repeat,
 *                                    the axes' values, each event's
 *                                    count, the tool's derived metrics;
 *   DIR/tables/PROGRAM/EVENT.csv     one table per program and event
 *                                    across the axes, for plotting: the
 *                                    axes' values, the mean over the
 *                                    repeats, min, max, runs;
 *   DIR/tables/index.csv             which file holds which table.
 * A missing result fails the merge (each missing point named, nothing
 * written, the old tables removed); so do results of different hvpmu or
 * QEMU builds unless allow_mixed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include "sweep.h"
#include "tools.h"

#define TOOL "hvpmu merge"
#define MAX_MISSING_SHOWN 20

/* Growing text of one output file. */
struct text {
	char *s;
	size_t len, cap;
	int oom;
};

static void add(struct text *t, const char *s)
{
	size_t l = strlen(s);

	if (t->oom)
		return;
	if (t->len + l + 1 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		char *n;

		while (cap < t->len + l + 1)
			cap *= 2;
		if (!(n = realloc(t->s, cap))) {
			t->oom = 1;
			return;
		}
		t->s = n;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, l + 1);
	t->len += l;
}

/* A CSV field (RFC 4180: quoted when it holds a comma, quote or newline). */
static void add_field(struct text *t, const char *s, int first)
{
	if (!first)
		add(t, ",");
	if (!strpbrk(s, ",\"\n\r")) {
		add(t, s);
		return;
	}
	add(t, "\"");
	for (const char *p = s; *p; p++) {
		char c[2] = { *p, 0 };

		add(t, *p == '"' ? "\"\"" : c);
	}
	add(t, "\"");
}

/* The shortest of %.15g, %.16g, %.17g that reads back as d. */
static void fmt_double(char *buf, size_t n, double d)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

/* A JSON value as a CSV field's text: strings bare, null empty. */
static const char *value_text(json_object *v, char *buf, size_t n)
{
	if (!v || json_object_is_type(v, json_type_null))
		return "";
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	if (json_object_is_type(v, json_type_double)) {
		fmt_double(buf, n, json_object_get_double(v));
		return buf;
	}
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/* Append the names of object o's keys to array names (once each). */
static void union_keys(json_object *names, json_object *o)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, k, v) {
		size_t i, n = json_object_array_length(names);

		(void)v;
		for (i = 0; i < n; i++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(names, i)), k))
				break;
		if (i == n)
			json_object_array_add(names, json_object_new_string(k));
	}
}

/* An event's name as a file name: [A-Za-z0-9_.+-] kept, the rest '_'. */
static void file_name(const char *ev, char *out, size_t n)
{
	size_t i;

	for (i = 0; ev[i] && i + 1 < n; i++)
		out[i] = (ev[i] >= 'a' && ev[i] <= 'z') || (ev[i] >= 'A' && ev[i] <= 'Z') ||
				 (ev[i] >= '0' && ev[i] <= '9') || strchr("_.+-", ev[i]) ? ev[i] : '_';
	out[i] = 0;
	if (out[0] == '.' || !out[0])
		out[0] = '_';
}

static int write_text(const char *path, struct text *t)
{
	if (t->oom) {
		fprintf(stderr, TOOL ": out of memory\n");
		return -1;
	}
	if (sweep_write_file(path, t->s ? t->s : "", t->len)) {
		fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The point of job `key` in words, from its job file. */
static void point_of(const char *dir, const char *key, char *out, size_t n)
{
	char path[PATH_MAX + 96];
	json_object *spec;

	snprintf(path, sizeof path, "%s/jobs/%s.json", dir, key);
	if (!(spec = json_object_from_file(path))) {
		snprintf(out, n, "job %s", key);
		return;
	}
	sweep_job_text(spec, out, n);
	json_object_put(spec);
}

/* The old merged outputs go when a merge fails: no table over missing results. */
static void remove_outputs(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof path, "%s/merged.csv", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/merged.json", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/tables/index.csv", dir);
	unlink(path);
}

/* The results of the manifest's jobs into results[] (in its order): 0, or
 * -1 after a line per missing point and one in all. */
static int load_results(const char *dir, json_object *jobs, json_object **results)
{
	size_t n = json_object_array_length(jobs), missing = 0;

	for (size_t i = 0; i < n; i++) {
		const char *key = json_object_get_string(json_object_array_get_idx(jobs, i));
		char path[PATH_MAX + 96], pt[1024];

		snprintf(path, sizeof path, "%s/results/%s.json", dir, key ? key : "");
		if (key && strlen(key) == SWEEP_HEX - 1 && strspn(key, "0123456789abcdef") == SWEEP_HEX - 1 &&
		    (results[i] = json_object_from_file(path)) && json_object_is_type(results[i], json_type_object) &&
		    sweep_str_of(results[i], "key") && !strcmp(sweep_str_of(results[i], "key"), key))
			continue;
		if (results[i] && access(path, F_OK) == 0) {
			fprintf(stderr, TOOL ": %s: not a result of this sweep\n", path);
			json_object_put(results[i]);
			results[i] = NULL;
		}
		if (missing++ < MAX_MISSING_SHOWN) {
			point_of(dir, key ? key : "?", pt, sizeof pt);
			fprintf(stderr, TOOL ": missing: %s (job %s/jobs/%s.json, its log %s/logs/%s.err)\n", pt, dir,
				key, dir, key);
		}
	}
	if (!missing)
		return 0;
	if (missing > MAX_MISSING_SHOWN)
		fprintf(stderr, TOOL ": ... and %zu more\n", missing - MAX_MISSING_SHOWN);
	fprintf(stderr, TOOL ": %zu of %zu results missing: no merged table (run the sweep again to run them)\n",
		missing, n);
	return -1;
}

/* All results of one build, unless allowed: 0, or -1 after one line. */
static int check_versions(json_object **results, size_t n, int allow_mixed, json_object *versions)
{
	char *first = NULL;
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		json_object *dec, *ver = NULL;
		char *c;

		if (json_object_object_get_ex(results[i], "decides", &dec))
			json_object_object_get_ex(dec, "versions", &ver);
		if (!(c = sweep_canonical_json(ver)))
			return -1;
		if (!first) {
			first = c;
			json_object_array_add(versions, json_object_get(ver));
			continue;
		}
		if (strcmp(first, c)) {
			if (!allow_mixed) {
				fprintf(stderr, TOOL ": results %s and %s come from different hvpmu or QEMU builds (%s, "
						"%s): --allow-mixed merges them\n",
					sweep_str_of(results[0], "key"), sweep_str_of(results[i], "key"), first, c);
				rc = -1;
			} else {
				json_object_array_add(versions, json_object_get(ver));
			}
		}
		free(c);
	}
	free(first);
	return rc;
}

/* merged.csv and merged.json */
static int write_merged(const char *dir, json_object **results, size_t n, json_object *axes, json_object *events,
			json_object *metrics, json_object *versions)
{
	struct text csv = { 0 };
	json_object *m = json_object_new_object(), *rows = json_object_new_array();
	char path[PATH_MAX + 32], num[64];
	const char *js;
	int rc;

	add_field(&csv, "program", 1);
	add_field(&csv, "repeat", 0);
	for (size_t a = 0; a < json_object_array_length(axes); a++)
		add_field(&csv, json_object_get_string(json_object_array_get_idx(axes, a)), 0);
	for (size_t e = 0; e < json_object_array_length(events); e++)
		add_field(&csv, json_object_get_string(json_object_array_get_idx(events, e)), 0);
	for (size_t e = 0; e < json_object_array_length(metrics); e++)
		add_field(&csv, json_object_get_string(json_object_array_get_idx(metrics, e)), 0);
	add_field(&csv, "key", 0);
	add(&csv, "\n");
	for (size_t i = 0; i < n; i++) {
		json_object *r = results[i], *ax = json_object_object_get(r, "axes"),
			    *counts = json_object_object_get(r, "counts"), *met = json_object_object_get(r, "metrics");
		json_object *row = json_object_new_object(), *rc_counts = json_object_new_object(),
			    *rc_metrics = json_object_new_object(), *rc_axes = json_object_new_object(), *v;

		add_field(&csv, sweep_str_of(r, "program") ? sweep_str_of(r, "program") : "", 1);
		add_field(&csv, value_text(json_object_object_get(r, "repeat"), num, sizeof num), 0);
		for (size_t a = 0; a < json_object_array_length(axes); a++) {
			const char *k = json_object_get_string(json_object_array_get_idx(axes, a));

			v = ax ? json_object_object_get(ax, k) : NULL;
			add_field(&csv, value_text(v, num, sizeof num), 0);
			json_object_object_add(rc_axes, k, json_object_get(v));
		}
		for (size_t e = 0; e < json_object_array_length(events); e++) {
			const char *k = json_object_get_string(json_object_array_get_idx(events, e));

			v = counts ? json_object_object_get(counts, k) : NULL;
			add_field(&csv, value_text(v, num, sizeof num), 0);
			json_object_object_add(rc_counts, k, json_object_get(v));
		}
		for (size_t e = 0; e < json_object_array_length(metrics); e++) {
			const char *k = json_object_get_string(json_object_array_get_idx(metrics, e));

			v = met ? json_object_object_get(met, k) : NULL;
			add_field(&csv, value_text(v, num, sizeof num), 0);
			json_object_object_add(rc_metrics, k, json_object_get(v));
		}
		add_field(&csv, sweep_str_of(r, "key") ? sweep_str_of(r, "key") : "", 0);
		add(&csv, "\n");
		json_object_object_add(row, "program", json_object_get(json_object_object_get(r, "program")));
		json_object_object_add(row, "repeat", json_object_get(json_object_object_get(r, "repeat")));
		json_object_object_add(row, "axes", rc_axes);
		json_object_object_add(row, "counts", rc_counts);
		json_object_object_add(row, "metrics", rc_metrics);
		json_object_object_add(row, "key", json_object_get(json_object_object_get(r, "key")));
		json_object_array_add(rows, row);
	}
	json_object_object_add(m, "format", json_object_new_int(SWEEP_FORMAT));
	json_object_object_add(m, "axes", json_object_get(axes));
	json_object_object_add(m, "events", json_object_get(events));
	json_object_object_add(m, "metrics", json_object_get(metrics));
	json_object_object_add(m, "versions", json_object_get(versions));
	json_object_object_add(m, "rows", rows);
	snprintf(path, sizeof path, "%s/merged.csv", dir);
	rc = write_text(path, &csv);
	free(csv.s);
	if (rc == 0) {
		snprintf(path, sizeof path, "%s/merged.json", dir);
		js = json_object_to_json_string_ext(m, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
		if (sweep_write_file(path, js, strlen(js))) {
			fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
			rc = -1;
		}
	}
	json_object_put(m);
	return rc;
}

/* Whether results a and b are the same point (equal axes). */
static int same_point(json_object *a, json_object *b)
{
	return json_object_equal(json_object_object_get(a, "axes"), json_object_object_get(b, "axes"));
}

/* tables/PROGRAM/EVENT.csv for every program and event, and the index. */
static int write_tables(const char *dir, json_object **results, size_t n, json_object *axes, json_object *programs,
			json_object *events)
{
	struct text index = { 0 };
	char path[PATH_MAX + 512], fname[256], num[64];
	int rc = 0;

	snprintf(path, sizeof path, "%s/tables", dir);
	if (sweep_mkdir(path)) {
		fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	add(&index, "program,event,file\n");
	for (size_t p = 0; p < json_object_array_length(programs) && rc == 0; p++) {
		const char *prog = json_object_get_string(json_object_array_get_idx(programs, p));
		json_object *used = json_object_new_object();

		snprintf(path, sizeof path, "%s/tables/%s", dir, prog);
		if (sweep_mkdir(path)) {
			fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
			json_object_put(used);
			return -1;
		}
		for (size_t e = 0; e < json_object_array_length(events) && rc == 0; e++) {
			const char *ev = json_object_get_string(json_object_array_get_idx(events, e));
			struct text t = { 0 };
			char rel[512];

			file_name(ev, fname, sizeof fname - 8);
			for (int k = 2; json_object_object_get_ex(used, fname, NULL); k++) { /* two names, one file name */
				size_t l = strcspn(fname, "~");

				snprintf(fname + l, sizeof fname - l, "~%d", k);
			}
			json_object_object_add(used, fname, NULL);
			for (size_t a = 0; a < json_object_array_length(axes); a++)
				add_field(&t, json_object_get_string(json_object_array_get_idx(axes, a)), a == 0);
			add(&t, json_object_array_length(axes) ? "," : "");
			add(&t, "value,min,max,runs\n");
			/* one row per point, in the manifest's order; the repeats of a point averaged */
			for (size_t i = 0; i < n; i++) {
				double sum = 0, lo = 0, hi = 0;
				unsigned runs = 0, first_seen = 0;

				if (!sweep_str_of(results[i], "program") || strcmp(sweep_str_of(results[i], "program"), prog))
					continue;
				for (size_t j = 0; j < i && !first_seen; j++)
					first_seen = sweep_str_of(results[j], "program") &&
						     !strcmp(sweep_str_of(results[j], "program"), prog) &&
						     same_point(results[j], results[i]);
				if (first_seen)
					continue;
				for (size_t j = i; j < n; j++) {
					json_object *c, *v;
					double d;

					if (strcmp(sweep_str_of(results[j], "program") ? sweep_str_of(results[j], "program") : "", prog) ||
					    !same_point(results[j], results[i]))
						continue;
					c = json_object_object_get(results[j], "counts");
					if (!c || !json_object_object_get_ex(c, ev, &v) || !v ||
					    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
						continue;
					d = json_object_get_double(v);
					lo = runs && lo < d ? lo : d;
					hi = runs && hi > d ? hi : d;
					sum += d;
					runs++;
				}
				for (size_t a = 0; a < json_object_array_length(axes); a++) {
					json_object *ax = json_object_object_get(results[i], "axes");
					const char *k = json_object_get_string(json_object_array_get_idx(axes, a));

					add_field(&t, value_text(ax ? json_object_object_get(ax, k) : NULL, num, sizeof num),
						  a == 0);
				}
				add(&t, json_object_array_length(axes) ? "," : "");
				if (runs) {
					fmt_double(num, sizeof num, sum / runs);
					add(&t, num);
					add(&t, ",");
					fmt_double(num, sizeof num, lo);
					add(&t, num);
					add(&t, ",");
					fmt_double(num, sizeof num, hi);
					add(&t, num);
					snprintf(num, sizeof num, ",%u\n", runs);
					add(&t, num);
				} else {
					add(&t, ",,,0\n");
				}
			}
			snprintf(rel, sizeof rel, "tables/%s/%s.csv", prog, fname);
			snprintf(path, sizeof path, "%s/%s", dir, rel);
			rc = write_text(path, &t);
			free(t.s);
			add_field(&index, prog, 1);
			add_field(&index, ev, 0);
			add_field(&index, rel, 0);
			add(&index, "\n");
		}
		json_object_put(used);
	}
	if (rc == 0) {
		snprintf(path, sizeof path, "%s/tables/index.csv", dir);
		rc = write_text(path, &index);
	}
	free(index.s);
	return rc;
}

int sweep_merge(const char *dir, int allow_mixed)
{
	char path[PATH_MAX + 32];
	json_object *man, *jobs, *axes, *programs, **results = NULL;
	json_object *events = json_object_new_array(), *metrics = json_object_new_array();
	json_object *versions = json_object_new_array();
	size_t n = 0;
	int rc = 1;

	snprintf(path, sizeof path, "%s/sweep.json", dir);
	if (!(man = json_object_from_file(path)) || !json_object_object_get_ex(man, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array) || !json_object_object_get_ex(man, "axes", &axes) ||
	    !json_object_is_type(axes, json_type_array) || !json_object_object_get_ex(man, "programs", &programs) ||
	    !json_object_is_type(programs, json_type_array)) {
		fprintf(stderr, TOOL ": %s: %s\n", path, access(path, F_OK) ? strerror(errno)
				: "not the manifest of a sweep (hvpmu sweep -o DIR writes it)");
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(axes) + json_object_array_length(programs); i++) {
		size_t na = json_object_array_length(axes);
		json_object *v = i < na ? json_object_array_get_idx(axes, i) : json_object_array_get_idx(programs, i - na);

		if (!json_object_is_type(v, json_type_string)) {
			fprintf(stderr, TOOL ": %s: not the manifest of a sweep (its axes and programs are names)\n", path);
			goto out;
		}
	}
	n = json_object_array_length(jobs);
	if (!(results = calloc(n ? n : 1, sizeof *results)))
		goto out;
	if (load_results(dir, jobs, results) || check_versions(results, n, allow_mixed, versions)) {
		remove_outputs(dir);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		union_keys(events, json_object_object_get(results[i], "counts"));
		union_keys(metrics, json_object_object_get(results[i], "metrics"));
	}
	if (write_merged(dir, results, n, axes, events, metrics, versions) ||
	    write_tables(dir, results, n, axes, programs, events))
		goto out;
	fprintf(stderr, TOOL ": %zu results: %s/merged.csv, %s/merged.json, %s/tables/\n", n, dir, dir, dir);
	rc = 0;
out:
	for (size_t i = 0; results && i < n; i++)
		json_object_put(results[i]);
	free(results);
	json_object_put(man);
	json_object_put(events);
	json_object_put(metrics);
	json_object_put(versions);
	return rc;
}
