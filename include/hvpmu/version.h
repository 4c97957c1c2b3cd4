/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/version.h - the library's version, as built.
 *
 * The shared library's ABI policy (docs/packaging.md "ABI"): it exports
 * only the names starting with hvpmu_ (src/hvpmu.map); its SONAME is
 * libhvpmu.so.0, and the 0 changes (with the Debian package's name,
 * libhvpmu0) when a public symbol is removed or its shape changes.
 */
#ifndef HVPMU_VERSION_H
#define HVPMU_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The version of the library actually loaded, "MAJOR.MINOR.PATCH" (the
 * CMake project version it was built from, e.g. "0.1.0").  A program
 * built against one release can compare it with the version pkg-config or
 * find_package(hvpmu) reported at build time.  Never NULL, static storage;
 * thread-safe.
 */
const char *hvpmu_version(void);

#ifdef __cplusplus
}
#endif

#endif
