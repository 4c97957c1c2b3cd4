/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/error.h - the library's error codes (the conventions of
 * hvpmu/hvpmu.h: library calls return 0 or a negative enum hvpmu_err).
 */
#ifndef HVPMU_ERROR_H
#define HVPMU_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* Library error codes (negative return values). */
enum hvpmu_err {
	HVPMU_OK = 0,
	HVPMU_EINVAL = -1,   /* invalid argument */
	HVPMU_ENOMEM = -2,   /* allocation failed */
	HVPMU_ERANGE = -3,   /* index out of range (strand, counter, class) */
	HVPMU_ENOTSUP = -4,  /* event or feature not supported by the model */
	HVPMU_EHV = -5,      /* a hypercall returned a non-EOK status */
	HVPMU_EFULL = -6,    /* a fixed-size table is full */
	HVPMU_ETRAP = -7,    /* the access trapped (e.g. privileged_action) */
};

/* Short English text for an enum hvpmu_err; never NULL.  Thread-safe. */
const char *hvpmu_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif
