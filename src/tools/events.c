/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Event names for `hvpmu stat`: native T4 names (hvpmu/t4_events.h), perf
 * generic aliases mapped as Linux maps them for T4, raw `sl=N,mask=M` and
 * `rHHH`.  Modifiers as perf: `:u` user (PCR.ut), `:k` kernel (PCR.st),
 * `:h` hypervisor (PCR.ht), combinable (`:uk`).  Without a modifier an
 * event counts user and kernel, not hypervisor: Linux never sets PCR.ht on
 * T4 (linux-clients.md §1.7); docs/cli.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/t4_events.h>
#include <hvpmu/t1_pmu.h>
#include <hvpmu/supervisor.h>
#include "events.h"

#define RAW_SL_SHIFT 6   /* encoding = (sl << 6) | mask (t4-events.md §0) */
#define RAW_MASK_BITS 0x3f
#define MAX_SL 31

static int parse_num(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	if (!*s)
		return -1;
	*out = strtoul(s, &end, 0);
	return (errno || *end || *out > max || *s == '-') ? -1 : 0;
}

#define RAW_MAX ((MAX_SL << RAW_SL_SHIFT) | RAW_MASK_BITS)

/* rHHH: hexadecimal digits only, as perf's raw syntax. */
static int parse_raw(const char *s, unsigned long *out)
{
	char buf[32];

	if (!*s || strlen(s) + 3 > sizeof buf || strspn(s, "0123456789abcdefABCDEF") != strlen(s))
		return -1;
	snprintf(buf, sizeof buf, "0x%s", s);
	return parse_num(buf, RAW_MAX, out);
}

static int apply_mods(const char *mods, struct hvpmu_sv_event *e)
{
	e->ut = e->st = e->ht = 0;
	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u': e->ut = 1; break;
		case 'k': e->st = 1; break;
		case 'h': e->ht = 1; break;
		default: return -1;
		}
	}
	return (e->ut || e->st || e->ht) ? 0 : -1;
}

/* UltraSPARC T1 (docs/cli.md): PICH "Instr_cnt", the eight PICL names,
 * and the generic aliases as Linux's niagara1 PMU maps them (there is no
 * cycle event: cycles count instructions, linux-clients.md §1.7). */
#define T1_PICH_NAME "Instr_cnt"
static const struct {
	const char *alias;
	int picl;           /* PICL event, or -1 for PICH */
} t1_aliases[] = {
	{ "instructions", -1 }, { "cycles", -1 }, { "cpu-cycles", -1 },
	{ "cache-misses", HVPMU_T1_SL_DC_MISS }, { "L1-dcache-load-misses", HVPMU_T1_SL_DC_MISS },
	{ "L1-icache-load-misses", HVPMU_T1_SL_IC_MISS }, { "LLC-load-misses", HVPMU_T1_SL_L2_DMISS_LD },
	{ "dTLB-load-misses", HVPMU_T1_SL_DTLB_MISS }, { "iTLB-load-misses", HVPMU_T1_SL_ITLB_MISS },
};

static int t1_lookup(const char *base, struct hvpmu_sv_event *e)
{
	unsigned long raw;
	char *end;

	if (strcmp(base, T1_PICH_NAME) == 0) {
		e->mask = HVPMU_SV_T1_PICH;
		return 0;
	}
	for (unsigned k = 0; k < HVPMU_T1_NSL; k++)
		if (hvpmu_t1_picl_name(k) && strcmp(base, hvpmu_t1_picl_name(k)) == 0) {
			e->sl = (uint8_t)k;
			return 0;
		}
	for (unsigned i = 0; i < sizeof t1_aliases / sizeof t1_aliases[0]; i++)
		if (strcmp(base, t1_aliases[i].alias) == 0) {
			if (t1_aliases[i].picl < 0)
				e->mask = HVPMU_SV_T1_PICH;
			else
				e->sl = (uint8_t)t1_aliases[i].picl;
			return 0;
		}
	if (base[0] == 'r' && base[1]) { /* rN: the PICL select code */
		raw = strtoul(base + 1, &end, 16);
		if (!*end && raw < HVPMU_T1_NSL) {
			e->sl = (uint8_t)raw;
			return 0;
		}
	}
	return -1;
}

/*
 * Split "NAME[:MODS]": the event's name (all of tok) into e (zeroed
 * first), NAME into base[BASE_MAX], and *colon at the ':' (NULL without).
 * Returns 0, or -1 with err set if tok is empty or too long.
 */
#define BASE_MAX 128
static int split_event(const char *tok, struct hvpmu_sv_event *e, char *base, const char **colon, char *err,
		       size_t errlen)
{
	size_t blen;

	*colon = strchr(tok, ':');
	blen = *colon ? (size_t)(*colon - tok) : strlen(tok);
	memset(e, 0, sizeof *e);
	if (blen == 0 || blen >= BASE_MAX || strlen(tok) >= sizeof e->name) {
		snprintf(err, errlen, "invalid event '%s'", tok);
		return -1;
	}
	memcpy(base, tok, blen);
	base[blen] = 0;
	snprintf(e->name, sizeof e->name, "%s", tok);
	return 0;
}

static int parse_one_t1(const char *tok, struct hvpmu_sv_event *e, char *err, size_t errlen)
{
	char base[BASE_MAX];
	const char *colon;

	if (split_event(tok, e, base, &colon, err, errlen))
		return -1;
	if (t1_lookup(base, e)) {
		snprintf(err, errlen, "event syntax error: unknown T1 event '%s' (see 'hvpmu list')", base);
		return -1;
	}
	if (apply_mods(colon ? colon + 1 : "uk", e) || e->ht) {
		snprintf(err, errlen, "invalid modifier in '%s' (T1: :u, :k)", tok);
		return -1;
	}
	return 0;
}

static int parse_one(const char *tok, struct hvpmu_sv_event *e, char *err, size_t errlen)
{
	char base[BASE_MAX];
	const char *colon;
	const struct hvpmu_t4_event *nat;
	const struct hvpmu_t4_alias *al;
	unsigned long sl, mask, raw;

	if (split_event(tok, e, base, &colon, err, errlen))
		return -1;
	if ((nat = hvpmu_t4_event_by_name(base))) {
		e->sl = nat->sl;
		e->mask = nat->mask;
	} else if ((al = hvpmu_t4_alias_by_name(base))) {
		e->sl = al->sl;
		e->mask = al->mask;
	} else if (strncmp(base, "sl=", 3) == 0) {
		char *m = strstr(base, "/mask=");

		if (!m || (*m = 0, parse_num(base + 3, MAX_SL, &sl)) || parse_num(m + 6, RAW_MASK_BITS, &mask)) {
			snprintf(err, errlen, "invalid raw event '%s' (want sl=0..31,mask=0..0x3f)", tok);
			return -1;
		}
		e->sl = (uint8_t)sl;
		e->mask = (uint8_t)mask;
	} else if (base[0] == 'r' && base[1] && parse_raw(base + 1, &raw) == 0) {
		e->sl = (uint8_t)(raw >> RAW_SL_SHIFT);
		e->mask = (uint8_t)(raw & RAW_MASK_BITS);
	} else {
		snprintf(err, errlen, "event syntax error: unknown event '%s' (see 'hvpmu list')", base);
		return -1;
	}
	if (apply_mods(colon ? colon + 1 : "uk", e)) {
		snprintf(err, errlen, "invalid modifier in '%s' (use :u, :k, :h)", tok);
		return -1;
	}
	return 0;
}

int parse_event_list(const char *list, struct hvpmu_sv_event *ev, unsigned *n, unsigned cap,
		     char *err, size_t errlen)
{
	return parse_event_list_for(0, list, ev, n, cap, err, errlen);
}

int parse_event_list_for(int t1, const char *list, struct hvpmu_sv_event *ev, unsigned *n, unsigned cap,
			 char *err, size_t errlen)
{
	char *copy = strdup(list ? list : ""), *save = NULL, *tok;
	int rc = 0, any = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!*copy) {
		snprintf(err, errlen, "empty event list");
		free(copy);
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char joined[160];

		/* raw "sl=N,mask=M[:mods]" spans two comma-separated tokens */
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
		if (t1 && tok == joined) {
			snprintf(err, errlen, "raw sl=N,mask=M events are T4 events (T1: rN)");
			rc = -1;
			break;
		}
		if (t1 ? parse_one_t1(tok, &ev[*n], err, errlen) : parse_one(tok, &ev[*n], err, errlen)) {
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
	free(copy);
	return rc;
}
