/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Binding JSON objects (json-c) to C structs by table, for the
 * machine-description reader (md_file.c) and the CEC's JSON form
 * (cec_json.c): each key names a field or a handler, and every error is
 * "PATH: what" with the key path of the value ("guests[1].mblock[0].size")
 * in err.  Not installed; hidden from the shared library.
 */
#ifndef HVPMU_JSON_BIND_H
#define HVPMU_JSON_BIND_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#define JB_HIDDEN __attribute__((visibility("hidden")))

/* flags of a field */
#define JB_NULL 1u   /* null is accepted and stores null_value */
#define JB_MINUS1 2u /* -1 is accepted as UINT32_MAX (an id whose range ends there) */

/* An integer key: where it goes in the struct (bytes 1, 2, 4 or 8, an
 * unsigned or, with JB_NULL and a negative null_value, a signed field) and
 * its range [lo, hi]. */
struct jb_field {
	const char *key;
	size_t off;
	unsigned bytes;
	uint64_t lo, hi;
	unsigned flags;
	int64_t null_value;
};
#define JB_FIELD(k, type, member, lo, hi, flags, null_value) \
	{ k, offsetof(type, member), sizeof(((type *)0)->member), lo, hi, flags, null_value }

/* A key the table does not hold, of the object at `path`'s parent: 1
 * taken, 0 unknown (an error), < 0 an error already in err. */
typedef int (*jb_sub_fn)(void *ctx, const char *key, json_object *v, const char *path, char *err, size_t n);

/* An object's keys: its integer fields, then sub (NULL: none); key paths
 * in messages are cut to path_max bytes ("..."). */
struct jb_object {
	const struct jb_field *fields;
	size_t nfields;
	jb_sub_fn sub;
	size_t path_max;
};

/* "PATH: what" in err (when err and n); returns HVPMU_EINVAL. */
JB_HIDDEN int jb_fail(char *err, size_t n, const char *path, const char *what);
/* Integer v in [lo, hi] (JB_MINUS1 in flags: -1 as UINT32_MAX) into *out;
 * 0, or HVPMU_EINVAL ("not an integer", "out of range LO..HI"). */
JB_HIDDEN int jb_uint(json_object *v, uint64_t lo, uint64_t hi, unsigned flags, uint64_t *out, const char *path,
		      char *err, size_t n);
/* true or false into *out; 0, or HVPMU_EINVAL ("not true or false"). */
JB_HIDDEN int jb_bool(json_object *v, uint8_t *out, const char *path, char *err, size_t n);
/* An array of min..max elements, its length in *len; 0, or HVPMU_EINVAL
 * with `what`. */
JB_HIDDEN int jb_array(json_object *v, size_t min, size_t max, const char *path, const char *what, size_t *len,
		       char *err, size_t n);
/* "PREFIX.KEY" (KEY alone when prefix is ""), control characters as '?'
 * (messages are one printable line), cut to sz bytes with "...". */
JB_HIDDEN void jb_key_path(char *out, size_t sz, const char *prefix, const char *key);
/* "PATH[I]", cut to sz bytes with "...". */
JB_HIDDEN void jb_index_path(char *out, size_t sz, const char *path, size_t i);
/* The fields of table `fields` in the struct at base are in their ranges
 * (a description that did not come from JSON, hvpmu_md_check): 0, or
 * HVPMU_EINVAL with "PREFIX.KEY: out of range LO..HI". */
JB_HIDDEN int jb_check(const void *base, const struct jb_field *fields, size_t nf, const char *prefix, char *err,
		       size_t n);
/* The keys of object o (at key path prefix, "" for the top) onto the
 * struct at base by table d, its sub called with ctx.  0, or an error with
 * "PATH: what" in err ("not an object", "unknown key", the field's). */
JB_HIDDEN int jb_apply(void *base, void *ctx, json_object *o, const struct jb_object *d, const char *prefix,
		       char *err, size_t n);

#endif
