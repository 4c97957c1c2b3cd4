/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * version.c - hvpmu_version(): the CMake project version, passed in by
 * the build as HVPMU_PROJECT_VERSION (CMakeLists.txt).
 */
#include <hvpmu/version.h>

#ifndef HVPMU_PROJECT_VERSION
#error "HVPMU_PROJECT_VERSION is set by CMakeLists.txt"
#endif

const char *hvpmu_version(void)
{
	return HVPMU_PROJECT_VERSION;
}
