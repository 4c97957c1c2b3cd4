/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine options of the hvpmu tools - `-p PLATFORM`, `--md FILE`,
 * `--placement P`, `--service NAME [--guest GUEST]` - and the machine
 * description they give: tools.h. */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hvpmu/remote.h>
#include <hvpmu/session.h>
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
	/* the run host builds the machine from this finished description */
	if (hvpmu_session_describe(rq, md, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", tool, err);
		return -1;
	}
	if (be && !hvpmu_sv_backend_driver(*be = hvpmu_sv_backend_of(md->platform))) {
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

int tool_md_option(struct tool_md_opts *m, int c, const char *arg, struct stat_request *rq)
{
	switch (c) {
	case TOOL_OPT_PLATFORM:
		if (tool_set_platform(m->tool, arg, rq, &m->platform))
			return -1;
		m->platform_given = 1;
		return 1;
	case TOOL_OPT_MD: m->md_file = arg; return 1;
	case TOOL_OPT_PLACEMENT:
		if (hvpmu_sv_placement_of(arg) < 0) {
			fprintf(stderr, "%s: unknown placement '%s' (pack, spread)\n", m->tool, arg);
			return -1;
		}
		strcpy(rq->placement, arg);
		return 1;
	case TOOL_OPT_SERVICE: m->service = arg; return 1;
	case TOOL_OPT_GUEST: m->guest = arg; return 1;
	case '?': /* getopt said what is wrong, in one line ("hvpmu stat: invalid option -- 'Z'") */
	case ':': return -1;
	default: return 0;
	}
}

int tool_md_load(const struct tool_md_opts *m, struct stat_request *rq, struct hvpmu_md *md,
		 const struct hvpmu_sv_backend **be)
{
	if (m->service)
		return tool_service_md(m->tool, m->service, m->guest, m->platform_given || m->md_file, rq, md, be);
	return tool_load_md(m->tool, m->md_file, m->platform_given, rq, md, be);
}

/* Run as uid (and gid = uid, no supplementary groups) from here on, for
 * good: 0, or -1 with one line on stderr. */
static int drop_to(const char *tool, uid_t uid)
{
	uid_t r, e, s;

	if (setgroups(0, NULL) || setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) || setresuid(uid, uid, uid)) {
		fprintf(stderr, "%s: cannot become the guest's uid %u: %s\n", tool, (unsigned)uid, strerror(errno));
		return -1;
	}
	if (getresuid(&r, &e, &s) || r != uid || e != uid || s != uid || !setuid(0)) {
		fprintf(stderr, "%s: uid %u: the old privileges were not given up\n", tool, (unsigned)uid);
		return -1;
	}
	return 0;
}

/* A tool started as root for a guest with a uid (docs/service.md "Who a
 * client is") becomes that uid before it talks to the service, and the
 * program it runs runs as it.  The socket's path is found first, as root
 * (rq->service becomes it): root's directories are not the guest's. */
static int become_guest(const char *tool, const char *service, const struct hvpmu_md_guest *g,
			struct stat_request *rq)
{
	char addr[128];

	if (geteuid() != 0 || g->uid == HVPMU_MD_PROP_ABSENT)
		return 0;
	if (hvpmu_service_address(service, addr, sizeof addr) || strlen(addr) >= sizeof rq->service) {
		fprintf(stderr, "%s: bad service name '%s'\n", tool, service);
		return -1;
	}
	memcpy(rq->service, addr, strlen(addr) + 1);
	return drop_to(tool, (uid_t)g->uid);
}

int tool_service_md(const char *tool, const char *service, const char *guest, int md_given, struct stat_request *rq,
		    struct hvpmu_md *md, const struct hvpmu_sv_backend **be)
{
	struct hvpmu_remote_machine_info *mi = malloc(sizeof *mi);
	char err[512];
	unsigned g = 0;
	int rc = -1;

	if (!mi) {
		fprintf(stderr, "%s: out of memory\n", tool);
		return -1;
	}
	if (md_given) {
		fprintf(stderr, "%s: --service runs on the service's machine: no -p or --md with it\n", tool);
		goto out;
	}
	if (hvpmu_service_describe(service, mi, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", tool, err);
		goto out;
	}
	if (guest && guest[0])
		for (g = 0; g < mi->nguests && strcmp(mi->guest[g], guest) != 0; g++)
			;
	if (g >= mi->nguests) {
		fprintf(stderr, "%s: service '%s' has no guest '%s' (guests:", tool, service, guest);
		for (unsigned k = 0; k < mi->nguests; k++)
			fprintf(stderr, " %s", mi->guest[k]);
		fprintf(stderr, ")\n");
		goto out;
	}
	snprintf(rq->platform, sizeof rq->platform, "%s", mi->platform);
	if (tool_load_md(tool, mi->md_path[0] ? mi->md_path : NULL, 1, rq, md, be))
		goto out;
	snprintf(rq->service, sizeof rq->service, "%s", service);
	snprintf(rq->guest, sizeof rq->guest, "%s", guest ? guest : "");
	if (g >= md->nguests || strcmp(md->guests[g].name, mi->guest[g]) != 0) {
		fprintf(stderr, "%s: service '%s': its description %s no longer names guest %s\n", tool, service,
			mi->md_path, mi->guest[g]);
		goto out;
	}
	if (become_guest(tool, service, &md->guests[g], rq))
		goto out;
	rc = 0;
out:
	free(mi);
	return rc;
}
