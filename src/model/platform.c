/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of platform records (platform.h, hvpmu/platform.h), in enum
 * hvpmu_platform order, from the one list of the platforms
 * (hvpmu/platforms.def).  The first is the default platform of every tool.
 */
#include <stddef.h>
#include "platform.h"

#define HVPMU_PLATFORM_DEF(ID, name) extern const struct platform_rec platform_##name;
#include <hvpmu/platforms.def>
#undef HVPMU_PLATFORM_DEF

static const struct platform_rec *const platforms[HVPMU_NPLATFORMS] = {
#define HVPMU_PLATFORM_DEF(ID, name) [HVPMU_PLATFORM_##ID] = &platform_##name,
#include <hvpmu/platforms.def>
#undef HVPMU_PLATFORM_DEF
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
