/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CEC's JSON form (cec_json.c), for the machine-description reader
 * (md_file.c): key "cec" of a description file, docs/machine-description.md.
 * Not installed.
 */
#ifndef HVPMU_CEC_JSON_H
#define HVPMU_CEC_JSON_H

#include <stddef.h>
#include <json-c/json.h>
#include <hvpmu/cec.h>

/*
 * Override *cec with the keys of JSON object `o` (found at key path
 * `path`, e.g. "cec"), starting from *cec when it has chips, else from
 * hvpmu_cec_default(); the result must pass hvpmu_cec_check().  0, or
 * HVPMU_EINVAL with "PATH.KEY: what" in err[n] and *cec untouched.
 */
__attribute__((visibility("hidden"))) int cec_from_json(struct hvpmu_cec *cec, json_object *o, const char *path,
							 char *err, size_t n);

#endif
