/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `--md FILE` of the hvpmu tools: tools.h tool_load_md. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include "tools.h"

int tool_load_md(const char *tool, const char *file, int platform_given, struct stat_request *rq,
		 struct hvpmu_md *md)
{
	char err[512], abs[PATH_MAX];
	struct hvpmu_md base;

	if (hvpmu_md_by_name(rq->platform[0] ? rq->platform : "t4", &base)) {
		fprintf(stderr, "%s: unknown platform '%s'\n", tool, rq->platform);
		return -1;
	}
	if (!file) {
		*md = base;
		return 0;
	}
	if (hvpmu_md_load(file, &base, md, err, sizeof err)) {
		fprintf(stderr, "%s: --md %s: %s\n", tool, file, err);
		return -1;
	}
	if (platform_given && md->platform != base.platform) {
		fprintf(stderr, "%s: --md %s describes platform %s, the command line asks for %s\n", tool, file,
			hvpmu_platform_name(md->platform), hvpmu_platform_name(base.platform));
		return -1;
	}
	if (!realpath(file, abs) || strlen(abs) >= sizeof rq->md_path) {
		fprintf(stderr, "%s: --md %s: path too long\n", tool, file);
		return -1;
	}
	strcpy(rq->md_path, abs);
	if (!platform_given) /* the plugin starts from the same base: the file names the rest */
		snprintf(rq->platform, sizeof rq->platform, "%s", hvpmu_platform_name(md->platform));
	return 0;
}

int tool_set_platform(const char *tool, const char *name, struct stat_request *rq, struct hvpmu_md *named)
{
	if (hvpmu_md_by_name(name, named) || strlen(name) >= sizeof rq->platform) {
		fprintf(stderr, "%s: unknown platform '%s' (t4, t4-2, t4-4, t1)\n", tool, name);
		return -1;
	}
	strcpy(rq->platform, name);
	return 0;
}
