/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of platform records (platform.h, hvpmu/platform.h), in enum
 * hvpmu_platform order: the only place that lists the platforms.  The
 * first is the default platform of every tool.
 */
#include <stddef.h>
#include "platform.h"

static const struct platform_rec *const platforms[HVPMU_NPLATFORMS] = {
	[HVPMU_PLATFORM_T4] = &platform_t4,
	[HVPMU_PLATFORM_T1] = &platform_t1,
	[HVPMU_PLATFORM_ORIGIN] = &platform_origin,
	[HVPMU_PLATFORM_POWER] = &platform_power,
};

const struct platform_rec *platform_rec(enum hvpmu_platform p)
{
	return (unsigned)p < HVPMU_NPLATFORMS ? platforms[p] : NULL;
}

const struct platform_rec *platform_of(const struct hvpmu_md *md)
{
	return platform_rec(md->platform);
}

const struct hvpmu_platform_info *hvpmu_platform_info(enum hvpmu_platform p)
{
	const struct platform_rec *r = platform_rec(p);

	return r ? &r->info : NULL;
}

enum hvpmu_platform hvpmu_platform_default(void) { return (enum hvpmu_platform)0; }
