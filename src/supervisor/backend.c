/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The chip drivers as the tools see them (hvpmu/supervisor.h): the table
 * of back-ends, the event-list syntax common to all of them (perf's
 * comma-separated NAME[:MODS], with the back-end's names, aliases and raw
 * syntax), the properties of an event, the chip-wide devices by name, and
 * the machine a command line names.  No tool knows a chip; each back-end
 * (backend_t4.c, backend_t1.c, backend_origin.c, backend_power.c) is data
 * and a few pure functions.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sv_internal.h"

/* The back-ends, one per platform (each names its platform), from the
 * one list of them (backends.def). */
#define SV_BACKEND_DEF(name) SV_HIDDEN extern const struct hvpmu_sv_backend sv_backend_##name;
#include "backends.def"
#undef SV_BACKEND_DEF
static const struct hvpmu_sv_backend *const backends[] = {
#define SV_BACKEND_DEF(name) &sv_backend_##name,
#include "backends.def"
#undef SV_BACKEND_DEF
};
#define NBACKENDS (sizeof backends / sizeof backends[0])

const struct hvpmu_sv_backend *hvpmu_sv_backend_at(unsigned i)
{
	return i < NBACKENDS ? backends[i] : NULL;
}

const struct hvpmu_sv_backend *hvpmu_sv_backend_of(int platform)
{
	for (unsigned i = 0; i < NBACKENDS; i++)
		if (backends[i]->platform == platform)
			return backends[i];
	return NULL;
}

const char *hvpmu_sv_platform_with(enum hvpmu_sv_service service)
{
	for (unsigned i = 0; i < NBACKENDS; i++)
		if (backends[i]->desc.services & service)
			return backends[i]->desc.name;
	return NULL;
}

const struct hvpmu_sv_backend_desc *hvpmu_sv_backend_desc(const struct hvpmu_sv_backend *be)
{
	return &be->desc;
}

int hvpmu_sv_backend_event(const struct hvpmu_sv_backend *be, unsigned i, struct hvpmu_sv_event_info *out)
{
	return be->event(i, out);
}

int hvpmu_sv_backend_alias(const struct hvpmu_sv_backend *be, unsigned i, struct hvpmu_sv_event_info *out)
{
	return be->alias ? be->alias(i, out) : HVPMU_ERANGE;
}

/* ---- the event-list syntax ---- */

/* perf's modifiers: `:u` user (PCR ut), `:k` kernel (st), `:h`
 * hypervisor (ht), and the R10000's `:s` supervisor and `:x` exception
 * level, combinable (`:uk`); at least one.  The back-end's modes say
 * which it has. */
static int parse_modes(const char *mods, uint8_t *modes)
{
	*modes = 0;
	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u': *modes |= HVPMU_SV_MODE_USER; break;
		case 'k': *modes |= HVPMU_SV_MODE_KERNEL; break;
		case 'h': *modes |= HVPMU_SV_MODE_HYPER; break;
		case 's': *modes |= HVPMU_SV_MODE_SUPERVISOR; break;
		case 'x': *modes |= HVPMU_SV_MODE_EXL; break;
		default: return -1;
		}
	}
	return *modes ? 0 : -1;
}

/* ---- event names: exact case first, then unambiguous any case, then a
 * suggestion (docs/cli.md "Event names") ---- */

/* Visit the back-end's listed names (native events, then aliases): fn
 * returns nonzero to stop. */
static void each_name(const struct hvpmu_sv_backend *be, int (*fn)(void *ctx, const struct hvpmu_sv_event_info *e),
		      void *ctx)
{
	struct hvpmu_sv_event_info e;

	for (unsigned i = 0; be->event(i, &e) == HVPMU_OK; i++)
		if (fn(ctx, &e))
			return;
	for (unsigned i = 0; be->alias && be->alias(i, &e) == HVPMU_OK; i++)
		if (fn(ctx, &e))
			return;
}

struct name_match {
	const char *base;
	int exact;
	const char *ci[2];    /* the distinct names equal to base in any case (two: ambiguous) */
	unsigned nci;
	const char *best;     /* the nearest name by edit distance */
	unsigned best_d;
	uint64_t config;      /* number_name: the config looked for */
	const char *numbered; /* ... and the listed name that has it */
};

static int match_fn(void *ctx, const struct hvpmu_sv_event_info *e)
{
	struct name_match *m = ctx;

	if (strcmp(e->name, m->base) == 0) {
		m->exact = 1;
		return 1;
	}
	if (strcasecmp(e->name, m->base) == 0) {
		for (unsigned i = 0; i < m->nci; i++)
			if (strcmp(m->ci[i], e->name) == 0)
				return 0;
		if (m->nci < 2)
			m->ci[m->nci] = e->name;
		m->nci++;
	}
	return 0;
}

static int near_fn(void *ctx, const struct hvpmu_sv_event_info *e)
{
	struct name_match *m = ctx;
	unsigned d = sv_edit_distance(m->base, e->name);

	if (d < m->best_d) {
		m->best_d = d;
		m->best = e->name;
	}
	return 0;
}

static int number_fn(void *ctx, const struct hvpmu_sv_event_info *e)
{
	struct name_match *m = ctx;

	if (e->config == m->config) {
		m->numbered = e->name;
		return 1;
	}
	return 0;
}

unsigned sv_edit_distance(const char *a, const char *b)
{
	/* Levenshtein (insert, delete, substitute: 1 each), case-insensitive,
	 * over two rows; names are at most BASE_MAX bytes */
	unsigned prev[129], cur[129];
	size_t la = strlen(a), lb = strlen(b);

	if (la > 128 || lb > 128)
		return UINT32_MAX;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
			unsigned del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
	}
	return prev[lb];
}

int sv_resolve_name(const struct hvpmu_sv_backend *be, const char *base, char *out, size_t n, char *err,
		    size_t errlen)
{
	struct name_match m = { .base = base };
	char one[2][40];

	each_name(be, match_fn, &m);
	if (m.exact || !m.nci)
		return 0;
	if (m.nci == 1) {
		snprintf(out, n, "%s", m.ci[0]);
		return 1;
	}
	for (unsigned i = 0; i < 2; i++) { /* each with its encoding, as hvpmu list shows it */
		struct hvpmu_sv_event_info e;
		const char *what = "";

		for (unsigned k = 0; be->event(k, &e) == HVPMU_OK; k++)
			if (strcmp(e.name, m.ci[i]) == 0) {
				what = e.text;
				break;
			}
		if (!*what)
			for (unsigned k = 0; be->alias && be->alias(k, &e) == HVPMU_OK; k++)
				if (strcmp(e.name, m.ci[i]) == 0) {
					what = e.text;
					break;
				}
		/* the text's spaces collapsed, cut after its first words */
		size_t k = 0;

		for (const char *c = what; *c && k < sizeof one[i] - 4; c++)
			if (*c != ' ' || (k && one[i][k - 1] != ' '))
				one[i][k++] = *c;
		one[i][k] = 0;
		if (*what && strlen(what) > k)
			strcpy(one[i] + k, "...");
	}
	snprintf(err, errlen, "event '%s' is ambiguous: '%s' (%s) and '%s' (%s) differ only in case%s; write one "
		 "exactly", base, m.ci[0], one[0], m.ci[1], one[1], m.nci > 2 ? ", among others" : "");
	return -1;
}

void sv_suggest_name(const struct hvpmu_sv_backend *be, const char *base, char *err, size_t errlen)
{
	struct name_match m = { .base = base, .best_d = UINT32_MAX };
	size_t len = strlen(base), used = strlen(err);
	unsigned limit = len < 4 ? 1 : len < 12 ? 2 : 3; /* a typo or two, not a different name */

	each_name(be, near_fn, &m);
	if (m.best && m.best_d <= limit && used < errlen)
		snprintf(err + used, errlen - used, "; did you mean '%s'?", m.best);
}

/* perfex -e 0,18: an event given by its number is named by the event
 * (the listed name of its config), modifiers kept. */
static void number_name(const struct hvpmu_sv_backend *be, const char *base, const char *colon,
			struct hvpmu_sv_event *e)
{
	struct name_match m = { .config = e->config };

	if (strspn(base, "0123456789") != strlen(base))
		return;
	each_name(be, number_fn, &m);
	if (m.numbered)
		snprintf(e->name, sizeof e->name, "%s%s", m.numbered, colon ? colon : "");
}

/*
 * One event token NAME[:MODS] into e: without modifiers an event counts
 * user and kernel, not hypervisor, as Linux on T4 never sets PCR.ht
 * (linux-clients.md §1.7; docs/cli.md).
 */
#define BASE_MAX 128
static int parse_one(const struct hvpmu_sv_backend *be, const char *tok, struct hvpmu_sv_event *e, char *err,
		     size_t errlen)
{
	const char *colon = strchr(tok, ':');
	size_t blen = colon ? (size_t)(colon - tok) : strlen(tok);
	char base[BASE_MAX];

	memset(e, 0, sizeof *e);
	if (blen == 0 || blen >= BASE_MAX || strlen(tok) >= sizeof e->name) {
		snprintf(err, errlen, "invalid event '%s'", tok);
		return -1;
	}
	memcpy(base, tok, blen);
	base[blen] = 0;
	snprintf(e->name, sizeof e->name, "%s", tok);
	if (sv_resolve_name(be, base, base, sizeof base, err, errlen) < 0)
		return -1;
	if (be->lookup(tok, base, &e->config, err, errlen)) {
		sv_suggest_name(be, base, err, errlen);
		return -1;
	}
	number_name(be, base, colon, e);
	if (parse_modes(colon ? colon + 1 : "uk", &e->modes) || (e->modes & ~be->desc.modes)) {
		snprintf(err, errlen, "invalid modifier in '%s' (%s)", tok, be->desc.mode_help);
		return -1;
	}
	return 0;
}

int hvpmu_sv_parse_events(const struct hvpmu_sv_backend *be, const char *list, struct hvpmu_sv_event *ev,
			  unsigned *n, unsigned cap, char *err, size_t errlen)
{
	char *copy, *save = NULL, *tok;
	int rc = 0, any = 0;

	/* names are printable ASCII: a control character (a newline) would
	 * also break the one-line message that quotes the token */
	for (const char *c = list; c && *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e) {
			snprintf(err, errlen, "invalid character 0x%02x in the event list", (unsigned char)*c);
			return -1;
		}
	copy = strdup(list ? list : "");
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char joined[160];

		/* a raw "sl=N,mask=M[:mods]" spans two comma-separated tokens */
		if (strncmp(tok, "sl=", 3) == 0) {
			char *m = strtok_r(NULL, ",", &save);

			if (!m || strncmp(m, "mask=", 5) != 0) {
				snprintf(err, errlen, "invalid raw event '%s' (want sl=N,mask=M)", tok);
				rc = -1;
				break;
			}
			snprintf(joined, sizeof joined, "%s/%s", tok, m);
			tok = joined;
		}
		if (*n == cap) {
			snprintf(err, errlen, "too many events (at most %u)", cap);
			rc = -1;
			break;
		}
		any = 1;
		if (parse_one(be, tok, &ev[*n], err, errlen)) {
			rc = -1;
			break;
		}
		if (tok == joined) /* report raw events as the user wrote them */
			for (char *c = strchr(ev[*n].name, '/'); c; c = NULL)
				*c = ',';
		(*n)++;
	}
	if (rc == 0 && !any) {
		snprintf(err, errlen, "empty event list");
		rc = -1;
	}
	if (rc == 0 && be->check && be->check(ev, *n, err, errlen))
		rc = -1;
	free(copy);
	return rc;
}

/* ---- a run's events (hvpmu/session.h) ---- */

int hvpmu_sv_request_events(const struct hvpmu_sv_backend *be, const struct hvpmu_md *md, const char *list,
			    int given, struct stat_request *rq, struct hvpmu_sv_event *ev,
			    char (*names)[HVPMU_SV_NAME_MAX], unsigned *nev, char *err, size_t errlen)
{
	unsigned first = rq->nevents;

	if (be->request)
		return be->request(md, list, rq, ev, names, nev, err, errlen, given);
	if (hvpmu_sv_parse_events(be, list, rq->ev, &rq->nevents, HVPMU_SV_MAX_EVENTS, err, errlen))
		return -1;
	for (unsigned i = first; i < rq->nevents && *nev < HVPMU_SV_MAX_EVENTS; i++, ++*nev) {
		ev[*nev] = rq->ev[i];
		snprintf(names[*nev], HVPMU_SV_NAME_MAX, "%s", rq->ev[i].name);
	}
	return 0;
}

void hvpmu_sv_result_counts(const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, unsigned nev,
			    struct stat_result *rs)
{
	if (be->result)
		be->result(ev, nev, rs);
}

const char *hvpmu_sv_count_refusal(const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev,
				   const struct stat_result *rs, char *buf, size_t n)
{
	return be->refusal ? be->refusal(ev, rs, buf, n) : NULL;
}

int hvpmu_sv_backend_driver(const struct hvpmu_sv_backend *be) { return be && be->ops && !be->request; }
int hvpmu_sv_backend_counters(const struct hvpmu_sv_backend *be) { return be && be->ops; }

const struct hvpmu_sv_backend *hvpmu_sv_backend_default(void)
{
	return hvpmu_sv_backend_of(hvpmu_platform_default());
}

/* ---- properties of an event ---- */

int hvpmu_sv_event_supported(const struct hvpmu_sv_backend *be, uint64_t config) { return be->supported(config); }
uint32_t hvpmu_sv_event_pics(const struct hvpmu_sv_backend *be, uint64_t config)
{
	return be->pics ? be->pics(config) : 0;
}
int hvpmu_sv_event_shared(const struct hvpmu_sv_backend *be, uint64_t config)
{
	return be->shared ? be->shared(config) : 0;
}
int hvpmu_sv_events_fit(const struct hvpmu_sv_backend *be, const uint64_t *configs, unsigned n)
{
	return be->fit ? be->fit(configs, n) : 1;
}
int hvpmu_sv_event_generic(const struct hvpmu_sv_backend *be, uint64_t config)
{
	return be->generic ? be->generic(config) : HVPMU_SV_GENERIC_NONE;
}
unsigned hvpmu_sv_event_reads(const struct hvpmu_sv_backend *be, uint64_t config)
{
	return be->reads ? be->reads(config) : 0;
}
unsigned hvpmu_sv_event_features(const struct hvpmu_sv_backend *be, uint64_t config)
{
	return be->features ? be->features(config) : 0;
}

int hvpmu_sv_event_emask(const struct hvpmu_sv_backend *be, uint64_t config, uint64_t emask, uint64_t *out)
{
	if (emask & ~be->desc.emask)
		return -1;
	*out = config | emask;
	return 0;
}

/* ---- chip-wide devices by name ---- */

/* The kind of device `dev`, or NULL. */
static const struct sv_uncore_kind *kind_of(const struct hvpmu_sv_backend *be, unsigned dev)
{
	for (unsigned k = 0; k < be->nkinds; k++)
		if (dev >= be->kinds[k].first && dev - be->kinds[k].first < be->kinds[k].max)
			return &be->kinds[k];
	return NULL;
}

const struct hvpmu_sv_backend *hvpmu_sv_uncore_parse(const char *name, unsigned *dev)
{
	for (unsigned b = 0; name && b < NBACKENDS; b++)
		for (unsigned k = 0; k < backends[b]->nkinds; k++) {
			const struct sv_uncore_kind *kd = &backends[b]->kinds[k];
			size_t len = strlen(kd->prefix);
			unsigned long num;
			char *end;

			if (strncmp(name, kd->prefix, len) != 0 || name[len] < '0' || name[len] > '9')
				continue;
			num = strtoul(name + len, &end, 10);
			if (*end || num >= kd->max || kd->first + num >= HVPMU_SV_MAX_UNCORE)
				continue;
			*dev = kd->first + (unsigned)num;
			return backends[b];
		}
	return NULL;
}

int hvpmu_sv_uncore_name(const struct hvpmu_sv_backend *be, unsigned dev, char *buf, size_t n)
{
	const struct sv_uncore_kind *kd = kind_of(be, dev);

	if (!kd)
		return HVPMU_ERANGE;
	snprintf(buf, n, "%s%u", kd->prefix, dev - kd->first);
	return HVPMU_OK;
}

unsigned hvpmu_sv_uncore_count(const struct hvpmu_sv_backend *be, const struct hvpmu_md *md)
{
	return be->uncore_count ? be->uncore_count(md) : 0;
}

int hvpmu_sv_uncore_code(const struct hvpmu_sv_backend *be, unsigned dev, const char *name, unsigned *code)
{
	const struct sv_uncore_kind *kd = kind_of(be, dev);
	unsigned long v;
	char *end;
	int byname;

	if (!kd || !name || !*name)
		return -1;
	if ((byname = kd->code_by_name(name)) >= 0) {
		*code = (unsigned)byname;
		return 0;
	}
	if (strcmp(name, "clear_pic") == 0) {
		*code = kd->clear_code;
		return 0;
	}
	v = strtoul(name, &end, 0);
	if (*end || name[0] == '-' || v >= kd->ncodes)
		return -1;
	*code = (unsigned)v;
	return 0;
}

int hvpmu_sv_uncore_event(const struct hvpmu_sv_backend *be, unsigned dev, unsigned i, const char **name,
			  unsigned *code)
{
	const struct sv_uncore_kind *kd = kind_of(be, dev);

	if (!kd)
		return HVPMU_ERANGE;
	for (unsigned c = 0; c < kd->ncodes; c++) {
		const char *nm = kd->code_name(c);

		if (!nm || c == kd->clear_code || strcmp(nm, "clear_pic") == 0)
			continue;
		if (i-- == 0) {
			*name = nm;
			*code = c;
			return HVPMU_OK;
		}
	}
	if (i == 0) { /* the code that counts nothing comes last */
		*name = "clear_pic";
		*code = kd->clear_code;
		return HVPMU_OK;
	}
	return HVPMU_ERANGE;
}

int hvpmu_sv_uncore_kind(const struct hvpmu_sv_backend *be, unsigned i, const char **prefix, unsigned *first_dev)
{
	if (i >= be->nkinds)
		return HVPMU_ERANGE;
	*prefix = be->kinds[i].prefix;
	*first_dev = be->kinds[i].first;
	return HVPMU_OK;
}

/* ---- names and the machine of a command line ---- */

const char *hvpmu_sv_status_name(uint64_t status) { return hvpmu_hv_status_name(status); }
const char *hvpmu_sv_mmustat_field_name(uint32_t offset) { return hvpmu_mmustat_field_name(offset); }

const char *hvpmu_sv_machine_name_at(unsigned i) { return hvpmu_md_name_at(i); }

int hvpmu_sv_placement_of(const char *name) { return hvpmu_placement_by_name(name); }

int hvpmu_sv_platform_of(const char *name)
{
	struct hvpmu_md md;

	return name && hvpmu_md_by_name(name, &md) == 0 ? (int)md.platform : -1;
}

int hvpmu_sv_load_machine(const char *platform, const char *md_file, int platform_given, struct hvpmu_md *md,
			  char *platform_out, char *err, size_t errlen)
{
	struct hvpmu_md named;
	char why[256];
	const char *name = platform && *platform ? platform : hvpmu_platform_name(hvpmu_platform_default());

	if (hvpmu_md_by_name(name, &named)) {
		snprintf(err, errlen, "unknown platform '%s'", name);
		return -1;
	}
	*md = named;
	if (md_file) {
		if (hvpmu_md_load(md_file, &named, md, why, sizeof why)) {
			snprintf(err, errlen, "--md %s", why); /* FILE:LINE:COL: what */
			return -1;
		}
		if (platform_given && md->platform != named.platform) {
			snprintf(err, errlen, "--md %s describes platform %s, the command line asks for %s", md_file,
				 hvpmu_platform_name(md->platform), hvpmu_platform_name(named.platform));
			return -1;
		}
	}
	/* the session starts from the same base: the file names the rest */
	snprintf(platform_out, HVPMU_SV_PLATFORM_NAME_MAX, "%s",
		 md_file && !platform_given ? hvpmu_platform_name(md->platform) : name);
	return 0;
}

int hvpmu_sv_program_format(const struct hvpmu_md *md, struct hvpmu_sv_program_format *out)
{
	const struct hvpmu_isa *isa = hvpmu_isa_by_name(md->isa);

	if (!isa)
		return HVPMU_EINVAL;
	out->elf_class = isa->elf_class;
	out->elf_data = isa->elf_data;
	out->elf_machine = isa->elf_machine;
	out->qemu_user = isa->qemu_user;
	out->qemu_reserved_va = isa->qemu_reserved_va;
	out->sysroot = isa->sysroot;
	out->isa = isa->name;
	return HVPMU_OK;
}

int hvpmu_sv_program_of(const struct hvpmu_sv_program_format *pf, const char *path)
{
	const struct hvpmu_isa *isa = hvpmu_isa_by_name(pf->isa);

	return isa && hvpmu_isa_is_program(isa, path);
}
