/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu plot's reader (plot.h): the interval rows of stat -I, cpustat,
 * busstat, mdperf and gpci, as docs/cli.md gives their shapes, into one
 * time series per counter.  Which tool and format wrote the input is
 * told from its content:
 *
 *   JSON lines     the first row starts with '{'; the keys name the tool
 *                  (stat: interval + counter-value; mdperf: node + set +
 *                  live_ticks; cpustat: cpu + picN; busstat: dev + event0;
 *                  gpci: request + list + time)
 *   CSV, header    "time SEP cpu" (cpustat), "time SEP dev" (busstat),
 *                  "time SEP request" (gpci): SEP is what lies between
 *   CSV, no header the first field is a number, SEP what follows it up to
 *                  the next field; 8 fields: stat -I, 11: mdperf, 7 with a
 *                  device name second: busstat -n, "tick"/"end" third:
 *                  cpustat -n
 *
 * A row whose count could not be made (stat's <not counted> and <not
 * supported>) gives no point; totals rows (mdperf, cpustat) are not
 * intervals and are skipped.  Every field is outside input: fuzz_plot.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "plot.h"

#define MAX_FIELDS 72

struct parser {
	struct plot_data *pd;
	char *err;
	size_t n;
	unsigned line;
	int kind_set;
	/* CSV */
	char sep[64];
	int header;                   /* a header names the columns */
	int nhdr;
	char hdr[MAX_FIELDS][32];
	/* gpci: a header per request, printed before its first sample's rows */
	int pending;                  /* the last header awaits its request's first row */
	unsigned ngh;
	struct gpci_header {
		char request[64];
		int n;
		char name[MAX_FIELDS][32];
	} gh[16];
	int intervals;                /* interval rows seen */
};

static int perr(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int k = 0;

	if (!p->err || !p->n)
		return -1;
	if (p->line)
		k = snprintf(p->err, p->n, "line %u: ", p->line);
	if (k < 0 || (size_t)k >= p->n)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + k, p->n - (size_t)k, fmt, ap);
	va_end(ap);
	for (char *c = p->err; *c; c++) /* one line, whatever the input's text held */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -1;
}

const char *plot_kind_name(enum plot_kind k)
{
	static const char *const names[] = { "stat -I", "mdperf", "cpustat", "busstat", "gpci" };

	return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

void plot_data_free(struct plot_data *pd)
{
	for (size_t i = 0; i < pd->ns; i++) {
		free(pd->s[i].name);
		free(pd->s[i].t);
		free(pd->s[i].v);
	}
	free(pd->s);
	free(pd->heat);
	memset(pd, 0, sizeof *pd);
}

/* A number that is the whole of s (finite). */
static int num(const char *s, double *v)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	*v = strtod(s, &end);
	return *end || !isfinite(*v) ? -1 : 0;
}

/* A decimal integer (no hex: gpci's identifiers are hex and not counts). */
static int inum(const char *s, long *v)
{
	double d;

	if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) || num(s, &d) || d != floor(d) || fabs(d) > 1e18)
		return -1;
	*v = (long)d;
	return 0;
}

/* Add (t, v) to the series `name`; a point at the series' last time adds
 * to it (mdperf: the nodes' rows of one interval). */
static int add_point(struct parser *p, const char *name, double t, double v, int merge)
{
	struct plot_data *pd = p->pd;
	struct plot_series *s = NULL;

	if (!isfinite(t) || !isfinite(v))
		return perr(p, "a value that is not a finite number");
	for (size_t i = pd->ns; i-- > 0;)
		if (strcmp(pd->s[i].name, name) == 0) {
			s = &pd->s[i];
			break;
		}
	if (!s) {
		if (pd->ns == PLOT_MAX_SERIES)
			return perr(p, "more than %d counters", PLOT_MAX_SERIES);
		if (!pd->s && !(pd->s = calloc(PLOT_MAX_SERIES, sizeof *pd->s)))
			return perr(p, "out of memory");
		s = &pd->s[pd->ns];
		if (!(s->name = strdup(name)))
			return perr(p, "out of memory");
		pd->ns++;
	}
	if (merge && s->n && s->t[s->n - 1] == t) {
		s->v[s->n - 1] += v;
		return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		double *nt = realloc(s->t, cap * sizeof *nt), *nv;

		if (!nt)
			return perr(p, "out of memory");
		s->t = nt;
		if (!(nv = realloc(s->v, cap * sizeof *nv)))
			return perr(p, "out of memory");
		s->v = nv;
		s->cap = cap;
	}
	s->t[s->n] = t;
	s->v[s->n] = v;
	s->n++;
	return 0;
}

static int set_kind(struct parser *p, enum plot_kind k)
{
	if (p->kind_set && p->pd->kind != k)
		return perr(p, "a row of %s among rows of %s", plot_kind_name(k), plot_kind_name(p->pd->kind));
	p->pd->kind = k;
	p->kind_set = 1;
	return 0;
}

/* stat -I: one interval row. */
static int row_stat(struct parser *p, const char *time, const char *value, const char *event)
{
	double t, v;

	if (set_kind(p, PLOT_STAT))
		return -1;
	if (num(time, &t))
		return perr(p, "bad interval time '%.40s'", time);
	if (!*event)
		return perr(p, "an empty event name");
	p->intervals++;
	if (value[0] == '<') { /* <not counted>, <not supported>: no count, no point */
		p->pd->uncounted++;
		return 0;
	}
	if (num(value, &v))
		return perr(p, "bad count '%.40s'", value);
	return add_point(p, event, t, v, 0);
}

/* mdperf: a row; interval rows have no live/ticks fields. */
static int row_mdperf(struct parser *p, long node, long set, const char *set_name, const char *name, double value,
		      int overflow, int interval, double t)
{
	struct plot_data *pd = p->pd;
	char label[160];

	if (set_kind(p, PLOT_MDPERF))
		return -1;
	if (node < -1 || node >= PLOT_MD_NODES || set < 0 || set >= PLOT_MD_SETS)
		return perr(p, "node %ld or set %ld out of range", node, set);
	if (!interval || node < 0) /* totals, and the nodes' sum (the nodes' rows make it) */
		return 0;
	p->intervals++;
	pd->lower_bounds += overflow != 0;
	if (!pd->heat && !(pd->heat = calloc((size_t)PLOT_MD_NODES * PLOT_MD_SETS, sizeof *pd->heat)))
		return perr(p, "out of memory");
	pd->heat[node * PLOT_MD_SETS + set] += value;
	if (node + 1 > pd->nnodes)
		pd->nnodes = (int)node + 1;
	snprintf(pd->set_name[set], sizeof pd->set_name[set], "%s", set_name);
	pd->set_seen[set] = 1;
	snprintf(label, sizeof label, "%.40s/%.100s", set_name, name);
	return add_point(p, label, t, value, 1);
}

/* The event a cpustat set spec puts on counter k ("pic0=EV,..." or the
 * events in order on the lowest free counters, cpc_strtoset). */
static void cpustat_event(const char *set, int k, char *out, size_t n)
{
	char buf[512], *tok, *save = NULL;
	char byk[16][64];
	int used[16] = { 0 };

	memset(byk, 0, sizeof byk);
	snprintf(buf, sizeof buf, "%s", set);
	/* pinned events first, then the rest on the lowest free counters */
	for (int pass = 0; pass < 2; pass++) {
		snprintf(buf, sizeof buf, "%s", set);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			int pic;
			char *eq = strchr(tok, '=');

			if (pass == 0 && strncmp(tok, "pic", 3) == 0 && eq && sscanf(tok, "pic%d", &pic) == 1 &&
			    pic >= 0 && pic < 16) {
				snprintf(byk[pic], sizeof byk[pic], "%s", eq + 1);
				used[pic] = 1;
			} else if (pass == 1 && !eq && strcmp(tok, "sys") && strcmp(tok, "nouser") &&
				   strcmp(tok, "hpriv")) {
				int f = 0;

				while (f < 16 && used[f])
					f++;
				if (f < 16) {
					snprintf(byk[f], sizeof byk[f], "%s", tok);
					used[f] = 1;
				}
			}
		}
	}
	if (k >= 0 && k < 16 && byk[k][0])
		snprintf(out, n, "%s (pic%d)", byk[k], k);
	else
		snprintf(out, n, "pic%d (%.60s)", k, set);
}

static int row_cpustat_pic(struct parser *p, double t, long cpu, const char *set, int k, double v)
{
	char ev[160], label[200];

	cpustat_event(set, k, ev, sizeof ev);
	snprintf(label, sizeof label, "cpu%ld %s", cpu, ev);
	return add_point(p, label, t, v, 0);
}

static int row_busstat(struct parser *p, double t, const char *dev, const char *ev0, double v0, int has0,
		       const char *ev1, double v1, int has1)
{
	char label[200];

	if (set_kind(p, PLOT_BUSSTAT))
		return -1;
	p->intervals++;
	snprintf(label, sizeof label, "%.60s %.100s", dev, ev0);
	if (has0 && add_point(p, label, t, v0, 0))
		return -1;
	snprintf(label, sizeof label, "%.60s %.100s", dev, ev1);
	return has1 ? add_point(p, label, t, v1, 0) : 0;
}

/* ---- JSON lines ---- */

static struct json_object *key(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* A key present, its value null or not. */
static int has(struct json_object *o, const char *k)
{
	return json_object_object_get_ex(o, k, NULL);
}

static int jnum(struct json_object *v, double *d)
{
	if (!v || !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return -1;
	*d = json_object_get_double(v);
	return isfinite(*d) ? 0 : -1;
}

static int jint(struct json_object *v, long *l)
{
	if (!v || !json_object_is_type(v, json_type_int))
		return -1;
	*l = (long)json_object_get_int64(v);
	return 0;
}

static const char *jstr(struct json_object *v)
{
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static int json_row(struct parser *p, struct json_object *o)
{
	double t, v;
	long a, b;
	const char *s1, *s2, *s3;

	if (key(o, "counter-value")) { /* stat */
		if (!key(o, "interval"))
			return perr(p, "stat output without -I: no intervals");
		if (jnum(key(o, "interval"), &t) || !(s1 = jstr(key(o, "counter-value"))) ||
		    !(s2 = jstr(key(o, "event"))))
			return perr(p, "a stat -I row without a numeric interval, counter-value or event");
		char tb[64];

		snprintf(tb, sizeof tb, "%.17g", t);
		return row_stat(p, tb, s1, s2);
	}
	if (has(o, "node") && has(o, "live_ticks")) { /* mdperf */
		struct json_object *lt = key(o, "live_ticks");

		if (jint(key(o, "node"), &a) || jint(key(o, "set"), &b) || !(s1 = jstr(key(o, "set_name"))) ||
		    !(s2 = jstr(key(o, "name"))) || jnum(key(o, "value"), &v) || jnum(key(o, "time"), &t))
			return perr(p, "an mdperf row without node, set, set_name, name, value or time");
		return row_mdperf(p, a, b, s1, s2, v, json_object_get_boolean(key(o, "overflow")),
				  lt == NULL || json_object_is_type(lt, json_type_null), t);
	}
	if (key(o, "cpu") && key(o, "set")) { /* cpustat */
		if (set_kind(p, PLOT_CPUSTAT))
			return -1;
		if (jnum(key(o, "time"), &t) || jint(key(o, "cpu"), &a) || !(s1 = jstr(key(o, "event"))) ||
		    !(s2 = jstr(key(o, "set"))))
			return perr(p, "a cpustat row without time, cpu, event or set");
		if (strcmp(s1, "tick") && strcmp(s1, "end")) /* the totals */
			return 0;
		p->intervals++;
		for (int k = 0; k < 16; k++) {
			char kn[8];

			snprintf(kn, sizeof kn, "pic%d", k);
			if (!key(o, kn))
				continue;
			if (jnum(key(o, kn), &v))
				return perr(p, "%s is not a number", kn);
			if (row_cpustat_pic(p, t, a, s2, k, v))
				return -1;
		}
		return 0;
	}
	if (key(o, "dev") && key(o, "event0")) { /* busstat */
		double v0, v1;

		if (jnum(key(o, "time"), &t) || !(s1 = jstr(key(o, "dev"))) || !(s2 = jstr(key(o, "event0"))) ||
		    !(s3 = jstr(key(o, "event1"))) || jnum(key(o, "pic0"), &v0) || jnum(key(o, "pic1"), &v1))
			return perr(p, "a busstat row without time, dev, event0, pic0, event1 or pic1");
		return row_busstat(p, t, s1, s2, v0, 1, s3, v1, 1);
	}
	if (key(o, "request") && key(o, "list")) { /* gpci */
		if (set_kind(p, PLOT_GPCI))
			return -1;
		if (!key(o, "time"))
			return perr(p, "gpci output without an interval (no \"time\"): no intervals");
		if (jnum(key(o, "time"), &t) || !(s1 = jstr(key(o, "request"))) || jint(key(o, "list"), &a))
			return perr(p, "a gpci row without time, request or list");
		p->intervals++;
		json_object_object_foreach(o, k, val)
		{
			char label[200];

			if (!strcmp(k, "time") || !strcmp(k, "request") || !strcmp(k, "list") ||
			    !json_object_is_type(val, json_type_int))
				continue;
			snprintf(label, sizeof label, "%.80s[%ld] %.80s", s1, a, k);
			if (add_point(p, label, t, json_object_get_double(val), 0))
				return -1;
		}
		return 0;
	}
	return perr(p, "a JSON row of no interval output hvpmu prints (stat -I, mdperf, cpustat, busstat, gpci)");
}

/* ---- CSV ---- */

/* Split line at p->sep, RFC 4180 quotes; fields point into buf. */
static int split(struct parser *p, const char *line, char *buf, char **f, int *nf)
{
	size_t sl = strlen(p->sep);
	const char *s = line;
	char *o = buf;

	*nf = 0;
	for (;;) {
		if (*nf == MAX_FIELDS)
			return perr(p, "more than %d fields", MAX_FIELDS);
		f[(*nf)++] = o;
		if (*s == '"') {
			for (s++;; s++) {
				if (!*s)
					return perr(p, "a quoted field without its closing quote");
				if (*s == '"') {
					if (s[1] != '"')
						break;
					s++;
				}
				*o++ = *s;
			}
			s++;
			if (*s && strncmp(s, p->sep, sl))
				return perr(p, "text after a quoted field");
		} else {
			const char *e = strstr(s, p->sep);
			size_t k = e ? (size_t)(e - s) : strlen(s);

			memcpy(o, s, k);
			o += k;
			s += k;
		}
		*o++ = 0;
		if (!*s)
			return 0;
		s += sl;
	}
}

/* The separator and header of the first row. */
static int csv_start(struct parser *p, const char *line)
{
	const char *s;
	size_t k;

	if (strncmp(line, "time", 4) == 0 && line[4] && !isalnum((unsigned char)line[4])) {
		static const char *const second[] = { "cpu", "dev", "request" };
		const char *best = NULL;

		for (unsigned i = 0; i < 3; i++) {
			const char *h = strstr(line + 4, second[i]);

			if (h && (!best || h < best))
				best = h;
		}
		if (!best || best == line + 4 || (size_t)(best - line - 4) >= sizeof p->sep)
			return perr(p, "a header of no interval output hvpmu prints");
		memcpy(p->sep, line + 4, (size_t)(best - line - 4));
		p->sep[best - line - 4] = 0;
		return 0;
	}
	s = line;
	if (*s == '-' || *s == '+')
		s++;
	while (isdigit((unsigned char)*s) || *s == '.')
		s++;
	if (s == line || !isdigit((unsigned char)s[-1]))
		return perr(p, "not interval output of hvpmu (stat -I, mdperf, cpustat, busstat or gpci, -x or -j)");
	for (k = 0; s[k] && !isalnum((unsigned char)s[k]) && !strchr("+-.<\"", s[k]); k++)
		;
	if (!k || k >= sizeof p->sep)
		return perr(p, "not interval output of hvpmu (no separator after the first field)");
	/* an empty field after the first repeats the separator (",," of
	 * stat without -I: its unit): the run's shortest period, unless the
	 * whole run splits the row into a shape hvpmu prints */
	for (size_t per = 1; per < k; per++)
		if (k % per == 0 && !memcmp(s, s + per, k - per)) {
			char *buf = malloc(strlen(line) + MAX_FIELDS + 1), *f[MAX_FIELDS];
			int nf = 0;

			if (!buf)
				return perr(p, "out of memory");
			memcpy(p->sep, s, k);
			p->sep[k] = 0;
			if (split(p, line, buf, f, &nf) || (nf != 7 && nf != 8 && nf != 11))
				k = per;
			free(buf);
			break;
		}
	memcpy(p->sep, s, k);
	p->sep[k] = 0;
	return 0;
}

static int hdr_col(const struct parser *p, const char *name)
{
	for (int i = 0; i < p->nhdr; i++)
		if (strcmp(p->hdr[i], name) == 0)
			return i;
	return -1;
}

static int csv_header(struct parser *p, char **f, int nf)
{
	p->header = 1;
	p->pending = 1;
	p->nhdr = nf;
	for (int i = 0; i < nf; i++)
		snprintf(p->hdr[i], sizeof p->hdr[i], "%s", f[i]);
	if (nf < 2)
		return perr(p, "a header of one column");
	if (!strcmp(f[1], "cpu"))
		return set_kind(p, PLOT_CPUSTAT);
	if (!strcmp(f[1], "dev"))
		return set_kind(p, PLOT_BUSSTAT);
	if (!strcmp(f[1], "request"))
		return set_kind(p, PLOT_GPCI);
	return perr(p, "a header of no interval output hvpmu prints");
}

static int csv_cpustat(struct parser *p, char **f, int nf)
{
	int setc = p->header ? hdr_col(p, "set") : nf - 1;
	double t, v;
	long cpu;

	if (set_kind(p, PLOT_CPUSTAT))
		return -1;
	if (setc < 0 || nf < 5 || (p->header && nf != p->nhdr))
		return perr(p, "a cpustat row of %d fields", nf);
	if (num(f[0], &t) || inum(f[1], &cpu))
		return perr(p, "a cpustat row without a time and cpu");
	if (strcmp(f[2], "tick") && strcmp(f[2], "end"))
		return strcmp(f[2], "total") ? perr(p, "a cpustat row of event '%.20s'", f[2]) : 0;
	p->intervals++;
	for (int i = 4; i < nf && i < setc; i++) {
		int k = i - 4;

		if (p->header && sscanf(p->hdr[i], "pic%d", &k) != 1)
			continue;
		if (!*f[i]) /* a counter the row's set does not use */
			continue;
		if (num(f[i], &v))
			return perr(p, "bad count '%.40s'", f[i]);
		if (row_cpustat_pic(p, t, cpu, f[setc], k, v))
			return -1;
	}
	return 0;
}

static int csv_gpci(struct parser *p, char **f, int nf)
{
	struct gpci_header *h = NULL;
	double t;
	long list;

	if (nf < 3)
		return perr(p, "a gpci row of %d fields", nf);
	for (unsigned i = 0; i < p->ngh && !h; i++)
		if (!strcmp(p->gh[i].request, f[1]))
			h = &p->gh[i];
	if (!h && p->pending) { /* the first row under a request's header names it */
		if (p->ngh == sizeof p->gh / sizeof p->gh[0])
			return perr(p, "more than %zu gpci requests", sizeof p->gh / sizeof p->gh[0]);
		h = &p->gh[p->ngh++];
		snprintf(h->request, sizeof h->request, "%s", f[1]);
		h->n = p->nhdr;
		memcpy(h->name, p->hdr, sizeof h->name);
	}
	p->pending = 0;
	if (!h)
		return perr(p, "a gpci row of request '%.40s', whose header was not given", f[1]);
	if (nf != h->n || strcmp(h->name[0], "time"))
		return perr(p, "a gpci row of %d fields under a header of %d", nf, h->n);
	if (num(f[0], &t) || inum(f[2], &list))
		return perr(p, "a gpci row without a time and list");
	p->intervals++;
	for (int i = 3; i < nf; i++) {
		char label[200];
		long v;

		if (inum(f[i], &v)) /* identifiers and states (hex) are not counts */
			continue;
		snprintf(label, sizeof label, "%.80s[%ld] %.80s", f[1], list, h->name[i]);
		if (add_point(p, label, t, (double)v, 0))
			return -1;
	}
	return 0;
}

static int csv_row(struct parser *p, const char *line)
{
	char *buf = malloc(strlen(line) + MAX_FIELDS + 1), *f[MAX_FIELDS];
	int nf, rc = -1;
	double t, v, d;
	long a, b;

	if (!buf)
		return perr(p, "out of memory");
	if (split(p, line, buf, f, &nf))
		goto out;
	if (!strcmp(f[0], "time")) { /* a header (gpci: one per request) */
		rc = csv_header(p, f, nf);
		goto out;
	}
	if (p->header && p->pd->kind == PLOT_CPUSTAT) {
		rc = csv_cpustat(p, f, nf);
	} else if (p->header && p->pd->kind == PLOT_BUSSTAT) {
		if (nf != 7 || num(f[0], &t) || num(f[3], &v) || (num(f[5], &d) && *f[5]))
			rc = perr(p, "a busstat row of %d fields, or without time and counts", nf);
		else
			rc = row_busstat(p, t, f[1], f[2], v, 1, f[4], *f[5] ? d : 0, *f[5] != 0);
	} else if (p->header && p->pd->kind == PLOT_GPCI) {
		rc = csv_gpci(p, f, nf);
	} else if (nf == 8 && !num(f[0], &t) && num(f[3], &d)) { /* (stat -r: the 4th is the run time) */
		rc = row_stat(p, f[0], f[1], f[3]);
	} else if (nf == 11 && !inum(f[0], &a) && !inum(f[1], &b)) {
		int interval = !*f[8] && !*f[9];

		if (num(f[5], &v) || num(f[10], &t))
			rc = perr(p, "an mdperf row without a numeric value and time");
		else
			rc = row_mdperf(p, a, b, f[2], f[4], v, strcmp(f[6], "0") != 0, interval, t);
	} else if (nf == 7 && !num(f[0], &t) && *f[1] && num(f[1], &d) &&
		   (!strcmp(f[6], "0") || !strcmp(f[6], "1"))) { /* busstat -n */
		if (num(f[3], &v) || (num(f[5], &d) && *f[5]))
			rc = perr(p, "a busstat row without counts");
		else
			rc = row_busstat(p, t, f[1], f[2], v, 1, f[4], *f[5] ? d : 0, *f[5] != 0);
	} else if (nf >= 6 && !num(f[0], &t) && (!strcmp(f[2], "tick") || !strcmp(f[2], "end") ||
						  !strcmp(f[2], "total"))) { /* cpustat -n */
		rc = csv_cpustat(p, f, nf);
	} else if ((nf == 7 || nf == 8) && !p->kind_set) {
		rc = perr(p, "stat output without -I: no intervals");
	} else {
		rc = perr(p, "a row of %d fields, of no interval output hvpmu prints (stat -I: 8, mdperf: 11)", nf);
	}
out:
	free(buf);
	return rc;
}

int plot_parse(const char *buf, size_t len, struct plot_data *pd, char *err, size_t n)
{
	struct parser p = { .pd = pd, .err = err, .n = n };
	int json = -1, rc = 0;
	size_t i = 0;
	char *line = NULL;

	memset(pd, 0, sizeof *pd);
	if (err && n)
		err[0] = 0;
	while (i < len && rc == 0) {
		const char *e = memchr(buf + i, '\n', len - i);
		size_t k = e ? (size_t)(e - (buf + i)) : len - i, j = 0;
		char *nl;

		p.line++;
		if (k && buf[i + k - 1] == '\r')
			k--;
		if (!(nl = realloc(line, k + 1))) {
			rc = perr(&p, "out of memory");
			break;
		}
		line = nl;
		memcpy(line, buf + i, k);
		line[k] = 0;
		i += (e ? (size_t)(e - (buf + i)) + 1 : len - i);
		if (memchr(line, 0, k)) {
			rc = perr(&p, "a NUL byte: not text");
			break;
		}
		while (line[j] == ' ' || line[j] == '\t')
			j++;
		if (!line[j] || line[j] == '#') /* blank lines; perf's "# started on" */
			continue;
		if (json < 0) {
			json = line[j] == '{';
			pd->json = json;
			if (!json && (rc = csv_start(&p, line + j)))
				break;
		}
		if (json) {
			struct json_tokener *tok = json_tokener_new();
			struct json_object *o;

			if (!tok) {
				rc = perr(&p, "out of memory");
				break;
			}
			o = json_tokener_parse_ex(tok, line + j, (int)(k - j > 1u << 30 ? 1u << 30 : k - j));
			if (!o || json_tokener_get_error(tok) != json_tokener_success)
				rc = perr(&p, "not a JSON object (the file may be truncated)");
			else if (!json_object_is_type(o, json_type_object))
				rc = perr(&p, "a JSON value that is not an object");
			else if (line[j + strspn(line + j + json_tokener_get_parse_end(tok), " \t") +
				      json_tokener_get_parse_end(tok)])
				rc = perr(&p, "text after the JSON object");
			else
				rc = json_row(&p, o);
			json_object_put(o);
			json_tokener_free(tok);
		} else {
			rc = csv_row(&p, line + j);
		}
	}
	free(line);
	if (rc)
		return -1;
	p.line = 0;
	if (json < 0)
		return perr(&p, "empty input: no interval rows");
	if (!p.intervals)
		return perr(&p, "no interval rows (%s output of the whole run only: give the tool an interval)",
			    p.kind_set ? plot_kind_name(pd->kind) : "the tool's");
	if (!pd->ns)
		return perr(&p, "no counts to draw: every row's count could not be made");
	return 0;
}
