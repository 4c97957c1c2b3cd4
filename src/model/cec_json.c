/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CEC's JSON form (hvpmu/cec.h): key "cec" of a machine-description
 * file (docs/machine-description.md), read by md_file.c through
 * cec_from_json().  Keys, ranges and defaults are tables below; the
 * result must pass hvpmu_cec_check().
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include <hvpmu/error.h>
#include <hvpmu/cec.h>
#include "cec_json.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define DEFAULT_PVR HVPMU_CEC_DEFAULT_PVR

/* ---- JSON (docs/machine-description.md "cec") ---- */

static int jfail(char *err, size_t n, const char *path, const char *what)
{
	if (err && n)
		snprintf(err, n, "%s: %s", path, what);
	return HVPMU_EINVAL;
}

/* An integer in [lo, hi]; -1 is accepted as UINT32_MAX when hi is. */
static int get_uint(json_object *v, uint64_t lo, uint64_t hi, uint64_t *out, const char *path, char *err, size_t n)
{
	int64_t sx;
	uint64_t x;
	char what[80];

	if (!json_object_is_type(v, json_type_int))
		return jfail(err, n, path, "not an integer");
	sx = json_object_get_int64(v);
	x = sx < 0 ? 0 : json_object_get_uint64(v);
	if (sx == -1 && hi == UINT32_MAX)
		x = UINT32_MAX;
	else if (sx < 0 || x < lo || x > hi)
		goto range;
	*out = x;
	return 0;
range:
	snprintf(what, sizeof what, "out of range %" PRIu64 "..%" PRIu64, lo, hi);
	return jfail(err, n, path, what);
}

static int get_bool(json_object *v, uint8_t *out, const char *path, char *err, size_t n)
{
	if (!json_object_is_type(v, json_type_boolean))
		return jfail(err, n, path, "not true or false");
	*out = (uint8_t)json_object_get_boolean(v);
	return 0;
}

static void join(char *out, size_t sz, const char *path, const char *key)
{
	if (snprintf(out, sz, "%s.%s", path, key) >= (int)sz)
		strcpy(out + sz - 4, "...");
	for (char *c = out; *c; c++) /* messages are one printable line */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

static void index_path(char *out, size_t sz, const char *path, size_t i)
{
	if (snprintf(out, sz, "%s[%zu]", path, i) >= (int)sz)
		strcpy(out + sz - 4, "...");
}

/* The integer keys of each object: where they go, their width and range. */
struct ikey {
	const char *key;
	size_t off;
	unsigned bytes;
	uint64_t lo, hi;
};
#define IK(k, type, member, lo, hi) { k, offsetof(type, member), sizeof(((type *)0)->member), lo, hi }

static const struct ikey chip_keys[] = {
	IK("hw_id", struct hvpmu_cec_chip, hw_id, 0, UINT32_MAX - 1),
	IK("module", struct hvpmu_cec_chip, module, 0, UINT32_MAX),
};
static const struct ikey proc_keys[] = {
	IK("hw_id", struct hvpmu_cec_proc, hw_id, 0, UINT32_MAX),
	IK("chip", struct hvpmu_cec_proc, chip, 0, HVPMU_CEC_MAX_CHIPS - 1),
	IK("primary_domain", struct hvpmu_cec_proc, primary_domain, 0, UINT32_MAX),
	IK("secondary_domain", struct hvpmu_cec_proc, secondary_domain, 0, UINT32_MAX),
	IK("version", struct hvpmu_cec_proc, version, 0, UINT32_MAX),
	IK("logical_index", struct hvpmu_cec_proc, logical_index, 0, UINT16_MAX),
};
static const struct ikey partition_keys[] = {
	IK("id", struct hvpmu_cec_partition, id, 1, HVPMU_CEC_MAX_PARTITION_ID),
	IK("weight", struct hvpmu_cec_partition, weight, 0, HVPMU_CEC_MAX_WEIGHT),
	IK("vps", struct hvpmu_cec_partition, nvps, 1, HVPMU_CEC_MAX_PROCS),
};
static const struct ikey cec_keys[] = {
	IK("timebase_hz", struct hvpmu_cec, timebase_hz, 1000, UINT64_C(100000000000)),
	IK("counter_info_version", struct hvpmu_cec, counter_info_version, 0, 255),
	IK("dispatch_window_us", struct hvpmu_cec, window_us, 1, 1000000),
};

/* Key `key` of table t set from v: 1 handled, 0 not in t, <0 error. */
static int set_ikey(void *base, const struct ikey *t, size_t nt, const char *key, json_object *v, const char *path,
		    char *err, size_t n)
{
	for (size_t i = 0; i < nt; i++) {
		uint64_t x;
		char *p = (char *)base + t[i].off;

		if (strcmp(t[i].key, key) != 0)
			continue;
		if (get_uint(v, t[i].lo, t[i].hi, &x, path, err, n))
			return HVPMU_EINVAL;
		switch (t[i].bytes) {
		case 2: *(uint16_t *)(void *)p = (uint16_t)x; break;
		case 4: *(uint32_t *)(void *)p = (uint32_t)x; break;
		case 1: *(uint8_t *)p = (uint8_t)x; break;
		default: *(uint64_t *)(void *)p = x; break;
		}
		return 1;
	}
	return 0;
}

static int array_of(json_object *v, size_t max, const char *path, const char *what, char *err, size_t n, size_t *len)
{
	if (!json_object_is_type(v, json_type_array) || (*len = json_object_array_length(v)) == 0 || *len > max)
		return jfail(err, n, path, what);
	return 0;
}

static int chip_from_json(struct hvpmu_cec_chip *ch, json_object *o, const char *path, char *err, size_t n)
{
	if (!json_object_is_type(o, json_type_object))
		return jfail(err, n, path, "not an object");
	json_object_object_foreach(o, key, v) {
		char p[200];
		int rc;

		join(p, sizeof p, path, key);
		if ((rc = set_ikey(ch, chip_keys, N(chip_keys), key, v, p, err, n)) < 0)
			return rc;
		if (rc)
			continue;
		if (strcmp(key, "links") != 0)
			return jfail(err, n, p, "unknown key");
		if (!json_object_is_type(v, json_type_object))
			return jfail(err, n, p, "not an object of link letter: chip index");
		json_object_object_foreach(v, lk, lv) {
			char q[232];
			int l = hvpmu_cec_link_by_name(lk);
			uint64_t x;

			join(q, sizeof q, p, lk);
			if (l < 0)
				return jfail(err, n, q, "unknown key (links are A, B, C, W, X, Y, Z)");
			if (!lv) {
				ch->link[l] = HVPMU_CEC_LINK_NONE;
				continue;
			}
			if (get_uint(lv, 0, HVPMU_CEC_MAX_CHIPS - 1, &x, q, err, n))
				return HVPMU_EINVAL;
			ch->link[l] = (int32_t)x;
		}
	}
	return 0;
}

static int proc_from_json(struct hvpmu_cec_proc *pr, json_object *o, const char *path, char *err, size_t n)
{
	if (!json_object_is_type(o, json_type_object))
		return jfail(err, n, path, "not an object");
	json_object_object_foreach(o, key, v) {
		char p[200];
		int rc;
		uint64_t x;

		join(p, sizeof p, path, key);
		if ((rc = set_ikey(pr, proc_keys, N(proc_keys), key, v, p, err, n)) < 0)
			return rc;
		if (rc)
			continue;
		if (strcmp(key, "state") == 0) {
			int s = json_object_is_type(v, json_type_string) ? hvpmu_cec_state_by_name(json_object_get_string(v)) : -1;

			if (s < 0)
				return jfail(err, n, p,
					     "not a state (not-installed, guarded-off, unlicensed, shared, borrowed, dedicated)");
			pr->state = (uint8_t)s;
		} else if (strcmp(key, "owner") == 0) {
			if (!v) {
				pr->owner = HVPMU_CEC_NO_OWNER;
				continue;
			}
			if (get_uint(v, 1, HVPMU_CEC_MAX_PARTITION_ID, &x, p, err, n))
				return HVPMU_EINVAL;
			pr->owner = (uint16_t)x;
		} else {
			return jfail(err, n, p, "unknown key");
		}
	}
	return 0;
}

/* "entitlement": processing units, a number with at most two decimals. */
static int get_entitlement(json_object *v, uint32_t *out, const char *path, char *err, size_t n)
{
	double d, h, r;

	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return jfail(err, n, path, "not a number of processing units");
	d = json_object_get_double(v);
	if (!(d >= 0.01 - 1e-9 && d <= HVPMU_CEC_MAX_PROCS)) /* (also NaN) before any conversion */
		return jfail(err, n, path, "not 0.01..128 processing units in steps of 0.01");
	h = d * HVPMU_CEC_PU;
	r = (double)(uint64_t)(h + 0.5); /* nearest hundredth (h > 0) */
	if (h - r > 1e-6 || r - h > 1e-6)
		return jfail(err, n, path, "not 0.01..128 processing units in steps of 0.01");
	*out = (uint32_t)r;
	return 0;
}

static int partition_from_json(struct hvpmu_cec_partition *pa, json_object *o, const char *path, char *err, size_t n)
{
	if (!json_object_is_type(o, json_type_object))
		return jfail(err, n, path, "not an object");
	json_object_object_foreach(o, key, v) {
		char p[200];
		int rc;

		join(p, sizeof p, path, key);
		if ((rc = set_ikey(pa, partition_keys, N(partition_keys), key, v, p, err, n)) < 0)
			return rc;
		if (rc)
			continue;
		if (strcmp(key, "name") == 0) {
			if (!json_object_is_type(v, json_type_string) || json_object_get_string_len(v) == 0 ||
			    (size_t)json_object_get_string_len(v) >= sizeof pa->name)
				return jfail(err, n, p, "not a name of 1..31 characters");
			strcpy(pa->name, json_object_get_string(v));
		} else if (strcmp(key, "mode") == 0) {
			int m = json_object_is_type(v, json_type_string) ? hvpmu_cec_mode_by_name(json_object_get_string(v)) : -1;

			if (m < 0)
				return jfail(err, n, p, "not a mode (dedicated, capped, uncapped)");
			pa->mode = (uint8_t)m;
		} else if (strcmp(key, "entitlement") == 0) {
			if (get_entitlement(v, &pa->entitlement, p, err, n))
				return HVPMU_EINVAL;
		} else if (strcmp(key, "donating") == 0) {
			if (get_bool(v, &pa->donating, p, err, n))
				return HVPMU_EINVAL;
		} else if (strcmp(key, "collect_privileged") == 0) {
			if (get_bool(v, &pa->collect_privileged, p, err, n))
				return HVPMU_EINVAL;
		} else {
			return jfail(err, n, p, "unknown key");
		}
	}
	return 0;
}

int cec_from_json(struct hvpmu_cec *cec, json_object *o, const char *path, char *err, size_t n)
{
	struct hvpmu_cec c;
	int procs_given = 0;

	if (!json_object_is_type(o, json_type_object))
		return jfail(err, n, path, "not an object");
	if (cec->nchips)
		c = *cec;
	else
		hvpmu_cec_default(&c);
	json_object_object_foreach(o, key, v) {
		char p[200];
		size_t len;
		int rc;

		join(p, sizeof p, path, key);
		if ((rc = set_ikey(&c, cec_keys, N(cec_keys), key, v, p, err, n)) < 0)
			return rc;
		if (rc)
			continue;
		if (strcmp(key, "lab") == 0) {
			if (get_bool(v, &c.lab, p, err, n))
				return HVPMU_EINVAL;
		} else if (strcmp(key, "chips") == 0) {
			if (array_of(v, HVPMU_CEC_MAX_CHIPS, p, "not an array of 1..16 chips", err, n, &len))
				return HVPMU_EINVAL;
			c.nchips = (uint32_t)len;
			for (size_t i = 0; i < len; i++) {
				struct hvpmu_cec_chip *ch = &c.chips[i];
				char q[216];

				memset(ch, 0, sizeof *ch);
				ch->hw_id = (uint32_t)i;
				ch->module = (uint32_t)i;
				for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++)
					ch->link[l] = HVPMU_CEC_LINK_NONE;
				index_path(q, sizeof q, p, i);
				if (chip_from_json(ch, json_object_array_get_idx(v, i), q, err, n))
					return HVPMU_EINVAL;
			}
		} else if (strcmp(key, "procs") == 0) {
			if (array_of(v, HVPMU_CEC_MAX_PROCS, p, "not an array of 1..128 processors", err, n, &len))
				return HVPMU_EINVAL;
			c.nprocs = (uint32_t)len;
			procs_given = 1;
			for (size_t i = 0; i < len; i++) {
				struct hvpmu_cec_proc *pr = &c.procs[i];
				char q[216];

				/* a processor given in the file: what it does not name
				 * is a licensed shared POWER7 in chip 0, index i */
				memset(pr, 0, sizeof *pr);
				pr->hw_id = (uint32_t)i;
				pr->logical_index = (uint16_t)i;
				pr->state = HVPMU_CEC_SHARED;
				pr->owner = HVPMU_CEC_NO_OWNER;
				pr->version = DEFAULT_PVR;
				index_path(q, sizeof q, p, i);
				if (proc_from_json(pr, json_object_array_get_idx(v, i), q, err, n))
					return HVPMU_EINVAL;
			}
		} else if (strcmp(key, "partitions") == 0) {
			if (!json_object_is_type(v, json_type_array) ||
			    (len = json_object_array_length(v)) > HVPMU_CEC_MAX_PARTITIONS)
				return jfail(err, n, p, "not an array of 0..8 partitions");
			c.npartitions = (uint32_t)len;
			for (size_t i = 0; i < len; i++) {
				struct hvpmu_cec_partition *pa = &c.partitions[i];
				char q[216];

				memset(pa, 0, sizeof *pa);
				pa->id = (uint16_t)(i + 1);
				snprintf(pa->name, sizeof pa->name, "lpar%zu", i + 1);
				pa->mode = HVPMU_CEC_MODE_CAPPED;
				pa->nvps = 1;
				pa->entitlement = HVPMU_CEC_PU;
				index_path(q, sizeof q, p, i);
				if (partition_from_json(pa, json_object_array_get_idx(v, i), q, err, n))
					return HVPMU_EINVAL;
				/* a dedicated partition is entitled to what it owns (hvpmu_cec_check) */
				if (pa->mode == HVPMU_CEC_MODE_DEDICATED)
					pa->entitlement = HVPMU_CEC_PU * pa->nvps;
			}
		} else {
			return jfail(err, n, p, "unknown key");
		}
	}
	/* processors default their affinity domains to their module and chip */
	if (procs_given)
		for (size_t i = 0; i < c.nprocs; i++) {
			json_object *arr, *po, *x;

			json_object_object_get_ex(o, "procs", &arr);
			po = json_object_array_get_idx(arr, i);
			if (c.procs[i].chip < c.nchips && !json_object_object_get_ex(po, "primary_domain", &x))
				c.procs[i].primary_domain = c.chips[c.procs[i].chip].module;
			if (!json_object_object_get_ex(po, "secondary_domain", &x))
				c.procs[i].secondary_domain = c.procs[i].chip;
			if (c.procs[i].state == HVPMU_CEC_NOT_INSTALLED && !json_object_object_get_ex(po, "version", &x))
				c.procs[i].version = UINT32_MAX;
		}
	if (hvpmu_cec_check(&c, path, err, n))
		return HVPMU_EINVAL;
	*cec = c;
	return 0;
}
