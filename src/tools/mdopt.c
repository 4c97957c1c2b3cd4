/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `-p PLATFORM` and `--md FILE` of the hvpmu tools: tools.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/supervisor.h>
#include "tools.h"

int tool_load_md(const char *tool, const char *file, int platform_given, struct stat_request *rq,
		 struct hvpmu_md *md, const struct hvpmu_sv_backend **be)
{
	char err[512], abs[PATH_MAX], name[HVPMU_SV_PLATFORM_NAME_MAX];

	if (hvpmu_sv_load_machine(rq->platform, file, platform_given, md, name, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", tool, err);
		return -1;
	}
	if (file) {
		if (!realpath(file, abs) || strlen(abs) >= sizeof rq->md_path) {
			fprintf(stderr, "%s: --md %s: path too long\n", tool, file);
			return -1;
		}
		strcpy(rq->md_path, abs);
	}
	snprintf(rq->platform, sizeof rq->platform, "%s", name);
	if (be && !(*be = hvpmu_sv_backend_of(md->platform))) {
		fprintf(stderr, "%s: platform %s has no CPU counter driver\n", tool, name);
		return -1;
	}
	return 0;
}

int tool_set_platform(const char *tool, const char *name, struct stat_request *rq, int *platform)
{
	if ((*platform = hvpmu_sv_platform_of(name)) < 0 || strlen(name) >= sizeof rq->platform) {
		char names[256];

		fprintf(stderr, "%s: unknown platform '%s' (%s)\n", tool, name,
			tool_platform_names(names, sizeof names, ", "));
		return -1;
	}
	strcpy(rq->platform, name);
	return 0;
}

int tool_default_platform(const char *tool, enum hvpmu_sv_service service, const char *what, struct stat_request *rq)
{
	const char *name = hvpmu_sv_platform_with(service);

	if (!name || strlen(name) >= sizeof rq->platform) {
		fprintf(stderr, "%s: no platform offers the %s\n", tool, what);
		return -1;
	}
	strcpy(rq->platform, name);
	return 0;
}

const char *tool_platform_names(char *buf, size_t n, const char *sep)
{
	const char *name;
	size_t used = 0;

	buf[0] = 0;
	for (unsigned i = 0; (name = hvpmu_sv_machine_name_at(i)) && used < n; i++) {
		int w = snprintf(buf + used, n - used, "%s%s", i ? sep : "", name);

		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}
