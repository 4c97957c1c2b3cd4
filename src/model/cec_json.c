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
#include "json_bind.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define DEFAULT_PVR HVPMU_CEC_DEFAULT_PVR

/* ---- JSON (docs/machine-description.md "cec") ---- */

#define PATH_CUT 200 /* key paths in messages */

/* The integer keys of each object: where they go, their width and range;
 * -1 stands for UINT32_MAX in a key whose range ends there. */
#define IK(k, type, member, lo, hi) JB_FIELD(k, type, member, lo, hi, (hi) == UINT32_MAX ? JB_MINUS1 : 0, 0)

static const struct jb_field chip_keys[] = {
	IK("hw_id", struct hvpmu_cec_chip, hw_id, 0, UINT32_MAX - 1),
	IK("module", struct hvpmu_cec_chip, module, 0, UINT32_MAX),
};
static const struct jb_field proc_keys[] = {
	IK("hw_id", struct hvpmu_cec_proc, hw_id, 0, UINT32_MAX),
	IK("chip", struct hvpmu_cec_proc, chip, 0, HVPMU_CEC_MAX_CHIPS - 1),
	IK("primary_domain", struct hvpmu_cec_proc, primary_domain, 0, UINT32_MAX),
	IK("secondary_domain", struct hvpmu_cec_proc, secondary_domain, 0, UINT32_MAX),
	IK("version", struct hvpmu_cec_proc, version, 0, UINT32_MAX),
	IK("logical_index", struct hvpmu_cec_proc, logical_index, 0, UINT16_MAX),
	/* null: shared or unowned */
	JB_FIELD("owner", struct hvpmu_cec_proc, owner, 1, HVPMU_CEC_MAX_PARTITION_ID, JB_NULL, HVPMU_CEC_NO_OWNER),
};
static const struct jb_field partition_keys[] = {
	IK("id", struct hvpmu_cec_partition, id, 1, HVPMU_CEC_MAX_PARTITION_ID),
	IK("weight", struct hvpmu_cec_partition, weight, 0, HVPMU_CEC_MAX_WEIGHT),
	IK("vps", struct hvpmu_cec_partition, nvps, 1, HVPMU_CEC_MAX_PROCS),
};
static const struct jb_field cec_keys[] = {
	IK("timebase_hz", struct hvpmu_cec, timebase_hz, 1000, UINT64_C(100000000000)),
	IK("counter_info_version", struct hvpmu_cec, counter_info_version, 0, 255),
	IK("dispatch_window_us", struct hvpmu_cec, window_us, 1, 1000000),
};

/* A chip's "links": an object of link letter: chip index (null: none). */
static int chip_sub(void *ctx, const char *key, json_object *v, const char *p, char *err, size_t n)
{
	struct hvpmu_cec_chip *ch = ctx;

	if (strcmp(key, "links") != 0)
		return 0;
	if (!json_object_is_type(v, json_type_object))
		return jb_fail(err, n, p, "not an object of link letter: chip index");
	json_object_object_foreach(v, lk, lv) {
		char q[232];
		int l = hvpmu_cec_link_by_name(lk);
		uint64_t x;

		jb_key_path(q, sizeof q, p, lk);
		if (l < 0)
			return jb_fail(err, n, q, "unknown key (links are A, B, C, W, X, Y, Z)");
		if (!lv) {
			ch->link[l] = HVPMU_CEC_LINK_NONE;
			continue;
		}
		if (jb_uint(lv, 0, HVPMU_CEC_MAX_CHIPS - 1, 0, &x, q, err, n))
			return HVPMU_EINVAL;
		ch->link[l] = (int32_t)x;
	}
	return 1;
}

static int proc_sub(void *ctx, const char *key, json_object *v, const char *p, char *err, size_t n)
{
	struct hvpmu_cec_proc *pr = ctx;
	int s;

	if (strcmp(key, "state") != 0)
		return 0;
	s = json_object_is_type(v, json_type_string) ? hvpmu_cec_state_by_name(json_object_get_string(v)) : -1;
	if (s < 0)
		return jb_fail(err, n, p,
			       "not a state (not-installed, guarded-off, unlicensed, shared, borrowed, dedicated)");
	pr->state = (uint8_t)s;
	return 1;
}

static const struct jb_object chip_object = { chip_keys, N(chip_keys), chip_sub, PATH_CUT };
static const struct jb_object proc_object = { proc_keys, N(proc_keys), proc_sub, PATH_CUT };

/* "entitlement": processing units, a number with at most two decimals. */
static int get_entitlement(json_object *v, uint32_t *out, const char *path, char *err, size_t n)
{
	double d, h, r;

	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return jb_fail(err, n, path, "not a number of processing units");
	d = json_object_get_double(v);
	if (!(d >= 0.01 - 1e-9 && d <= HVPMU_CEC_MAX_PROCS)) /* (also NaN) before any conversion */
		return jb_fail(err, n, path, "not 0.01..128 processing units in steps of 0.01");
	h = d * HVPMU_CEC_PU;
	r = (double)(uint64_t)(h + 0.5); /* nearest hundredth (h > 0) */
	if (h - r > 1e-6 || r - h > 1e-6)
		return jb_fail(err, n, path, "not 0.01..128 processing units in steps of 0.01");
	*out = (uint32_t)r;
	return 0;
}

static int partition_sub(void *ctx, const char *key, json_object *v, const char *p, char *err, size_t n)
{
	struct hvpmu_cec_partition *pa = ctx;

	if (strcmp(key, "name") == 0) {
		if (!json_object_is_type(v, json_type_string) || json_object_get_string_len(v) == 0 ||
		    (size_t)json_object_get_string_len(v) >= sizeof pa->name)
			return jb_fail(err, n, p, "not a name of 1..31 characters");
		strcpy(pa->name, json_object_get_string(v));
	} else if (strcmp(key, "mode") == 0) {
		int m = json_object_is_type(v, json_type_string) ? hvpmu_cec_mode_by_name(json_object_get_string(v)) : -1;

		if (m < 0)
			return jb_fail(err, n, p, "not a mode (dedicated, capped, uncapped)");
		pa->mode = (uint8_t)m;
	} else if (strcmp(key, "entitlement") == 0) {
		if (get_entitlement(v, &pa->entitlement, p, err, n))
			return HVPMU_EINVAL;
	} else if (strcmp(key, "donating") == 0) {
		if (jb_bool(v, &pa->donating, p, err, n))
			return HVPMU_EINVAL;
	} else if (strcmp(key, "collect_privileged") == 0) {
		if (jb_bool(v, &pa->collect_privileged, p, err, n))
			return HVPMU_EINVAL;
	} else {
		return 0;
	}
	return 1;
}

static const struct jb_object partition_object = { partition_keys, N(partition_keys), partition_sub, PATH_CUT };

/* The arrays of "cec": each element starts from the defaults of one the
 * file gives, then takes its keys. */
static int chips_from_json(struct hvpmu_cec *c, json_object *v, const char *p, char *err, size_t n)
{
	size_t len;

	if (jb_array(v, 1, HVPMU_CEC_MAX_CHIPS, p, "not an array of 1..16 chips", &len, err, n))
		return HVPMU_EINVAL;
	c->nchips = (uint32_t)len;
	for (size_t i = 0; i < len; i++) {
		struct hvpmu_cec_chip *ch = &c->chips[i];
		char q[216];

		memset(ch, 0, sizeof *ch);
		ch->hw_id = (uint32_t)i;
		ch->module = (uint32_t)i;
		for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++)
			ch->link[l] = HVPMU_CEC_LINK_NONE;
		jb_index_path(q, sizeof q, p, i);
		if (jb_apply(ch, ch, json_object_array_get_idx(v, i), &chip_object, q, err, n))
			return HVPMU_EINVAL;
	}
	return 0;
}

static int procs_from_json(struct hvpmu_cec *c, json_object *v, const char *p, char *err, size_t n)
{
	size_t len;

	if (jb_array(v, 1, HVPMU_CEC_MAX_PROCS, p, "not an array of 1..128 processors", &len, err, n))
		return HVPMU_EINVAL;
	c->nprocs = (uint32_t)len;
	for (size_t i = 0; i < len; i++) {
		struct hvpmu_cec_proc *pr = &c->procs[i];
		char q[216];

		/* a processor given in the file: what it does not name
		 * is a licensed shared POWER7 in chip 0, index i */
		memset(pr, 0, sizeof *pr);
		pr->hw_id = (uint32_t)i;
		pr->logical_index = (uint16_t)i;
		pr->state = HVPMU_CEC_SHARED;
		pr->owner = HVPMU_CEC_NO_OWNER;
		pr->version = DEFAULT_PVR;
		jb_index_path(q, sizeof q, p, i);
		if (jb_apply(pr, pr, json_object_array_get_idx(v, i), &proc_object, q, err, n))
			return HVPMU_EINVAL;
	}
	return 0;
}

static int partitions_from_json(struct hvpmu_cec *c, json_object *v, const char *p, char *err, size_t n)
{
	size_t len;

	if (jb_array(v, 0, HVPMU_CEC_MAX_PARTITIONS, p, "not an array of 0..8 partitions", &len, err, n))
		return HVPMU_EINVAL;
	c->npartitions = (uint32_t)len;
	for (size_t i = 0; i < len; i++) {
		struct hvpmu_cec_partition *pa = &c->partitions[i];
		char q[216];

		memset(pa, 0, sizeof *pa);
		pa->id = (uint16_t)(i + 1);
		snprintf(pa->name, sizeof pa->name, "lpar%zu", i + 1);
		pa->mode = HVPMU_CEC_MODE_CAPPED;
		pa->nvps = 1;
		pa->entitlement = HVPMU_CEC_PU;
		jb_index_path(q, sizeof q, p, i);
		if (jb_apply(pa, pa, json_object_array_get_idx(v, i), &partition_object, q, err, n))
			return HVPMU_EINVAL;
		/* a dedicated partition is entitled to what it owns (hvpmu_cec_check) */
		if (pa->mode == HVPMU_CEC_MODE_DEDICATED)
			pa->entitlement = HVPMU_CEC_PU * pa->nvps;
	}
	return 0;
}

struct cec_ctx {
	struct hvpmu_cec *c;
	int procs_given;
};

static int cec_sub(void *ctx, const char *key, json_object *v, const char *p, char *err, size_t n)
{
	struct cec_ctx *cc = ctx;
	int rc;

	if (strcmp(key, "lab") == 0) {
		rc = jb_bool(v, &cc->c->lab, p, err, n);
	} else if (strcmp(key, "chips") == 0) {
		rc = chips_from_json(cc->c, v, p, err, n);
	} else if (strcmp(key, "procs") == 0) {
		rc = procs_from_json(cc->c, v, p, err, n);
		cc->procs_given = 1;
	} else if (strcmp(key, "partitions") == 0) {
		rc = partitions_from_json(cc->c, v, p, err, n);
	} else {
		return 0;
	}
	return rc ? rc : 1;
}

static const struct jb_object cec_object = { cec_keys, N(cec_keys), cec_sub, PATH_CUT };

int cec_from_json(struct hvpmu_cec *cec, json_object *o, const char *path, char *err, size_t n)
{
	struct hvpmu_cec c;
	struct cec_ctx cc = { &c, 0 };

	if (cec->nchips)
		c = *cec;
	else
		hvpmu_cec_default(&c);
	if (jb_apply(&c, &cc, o, &cec_object, path, err, n))
		return HVPMU_EINVAL;
	/* processors default their affinity domains to their module and chip */
	if (cc.procs_given)
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
