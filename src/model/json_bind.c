/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Binding JSON objects to C structs by table: json_bind.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <hvpmu/error.h>
#include "json_bind.h"

#define JB_PATH_MAX 256 /* the longest path_max */

int jb_fail(char *err, size_t n, const char *path, const char *what)
{
	if (err && n)
		snprintf(err, n, "%s: %s", path, what);
	return HVPMU_EINVAL;
}

int jb_uint(json_object *v, uint64_t lo, uint64_t hi, unsigned flags, uint64_t *out, const char *path, char *err,
	    size_t n)
{
	char range[80];
	int64_t sx;
	uint64_t x;

	if (!json_object_is_type(v, json_type_int))
		return jb_fail(err, n, path, "not an integer");
	/* json-c keeps integers above INT64_MAX as uint64 and clamps
	 * json_object_get_int64 there: read the sign, then the magnitude */
	sx = json_object_get_int64(v);
	x = sx < 0 ? 0 : json_object_get_uint64(v);
	if ((flags & JB_MINUS1) && sx == -1) {
		*out = UINT32_MAX;
		return 0;
	}
	if (sx < 0 || x < lo || x > hi) {
		snprintf(range, sizeof range, "out of range %" PRIu64 "..%" PRIu64, lo, hi);
		return jb_fail(err, n, path, range);
	}
	*out = x;
	return 0;
}

int jb_bool(json_object *v, uint8_t *out, const char *path, char *err, size_t n)
{
	if (!json_object_is_type(v, json_type_boolean))
		return jb_fail(err, n, path, "not true or false");
	*out = (uint8_t)json_object_get_boolean(v);
	return 0;
}

int jb_array(json_object *v, size_t min, size_t max, const char *path, const char *what, size_t *len, char *err,
	     size_t n)
{
	if (!json_object_is_type(v, json_type_array) || (*len = json_object_array_length(v)) < min || *len > max)
		return jb_fail(err, n, path, what);
	return 0;
}

void jb_key_path(char *out, size_t sz, const char *prefix, const char *key)
{
	if (snprintf(out, sz, "%s%s%s", prefix, prefix[0] ? "." : "", key) >= (int)sz)
		strcpy(out + sz - 4, "..."); /* a key path too long for a message: cut */
	for (char *c = out; *c; c++) /* messages are one printable line */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

void jb_index_path(char *out, size_t sz, const char *path, size_t i)
{
	if (snprintf(out, sz, "%s[%zu]", path, i) >= (int)sz)
		strcpy(out + sz - 4, "...");
}

/* Field f of base from v (an integer, or null with JB_NULL). */
static int set_field(void *base, const struct jb_field *f, json_object *v, const char *path, char *err, size_t n)
{
	char *p = (char *)base + f->off;
	uint64_t x;

	if ((f->flags & JB_NULL) && !v)
		x = (uint64_t)f->null_value;
	else if (jb_uint(v, f->lo, f->hi, f->flags, &x, path, err, n))
		return HVPMU_EINVAL;
	switch (f->bytes) {
	case 1: *(uint8_t *)p = (uint8_t)x; break;
	case 2: *(uint16_t *)(void *)p = (uint16_t)x; break;
	case 4: *(uint32_t *)(void *)p = (uint32_t)x; break;
	default: *(uint64_t *)(void *)p = x; break;
	}
	return 0;
}

int jb_check(const void *base, const struct jb_field *fields, size_t nf, const char *prefix, char *err, size_t n)
{
	for (size_t i = 0; i < nf; i++) {
		const struct jb_field *f = &fields[i];
		const char *p = (const char *)base + f->off;
		char path[JB_PATH_MAX], range[80];
		uint64_t x;

		switch (f->bytes) {
		case 1: x = *(const uint8_t *)p; break;
		case 2: x = *(const uint16_t *)(const void *)p; break;
		case 4: x = *(const uint32_t *)(const void *)p; break;
		default: x = *(const uint64_t *)(const void *)p; break;
		}
		if ((f->flags & JB_NULL) && f->bytes == 8 && (int64_t)x == f->null_value)
			continue; /* absent */
		if ((f->flags & JB_MINUS1) && x == UINT32_MAX)
			continue;
		if (x < f->lo || x > f->hi) {
			jb_key_path(path, sizeof path, prefix, f->key);
			snprintf(range, sizeof range, "out of range %" PRIu64 "..%" PRIu64, f->lo, f->hi);
			return jb_fail(err, n, path, range);
		}
	}
	return 0;
}

int jb_apply(void *base, void *ctx, json_object *o, const struct jb_object *d, const char *prefix, char *err,
	     size_t n)
{
	size_t cut = d->path_max < JB_PATH_MAX ? d->path_max : JB_PATH_MAX;

	if (!json_object_is_type(o, json_type_object))
		return jb_fail(err, n, prefix[0] ? prefix : "(top)", "not an object");
	json_object_object_foreach(o, key, v) {
		char path[JB_PATH_MAX];
		size_t i;
		int rc;

		jb_key_path(path, cut, prefix, key);
		for (i = 0; i < d->nfields && strcmp(d->fields[i].key, key) != 0; i++)
			;
		if (i < d->nfields) {
			if ((rc = set_field(base, &d->fields[i], v, path, err, n)))
				return rc;
			continue;
		}
		rc = d->sub ? d->sub(ctx, key, v, path, err, n) : 0;
		if (rc < 0 || rc > 1)
			return rc;
		if (rc == 0)
			return jb_fail(err, n, path, "unknown key");
	}
	return 0;
}
