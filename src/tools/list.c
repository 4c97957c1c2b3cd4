/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `hvpmu list [-p PLATFORM] [--details] [-j] [GLOB...]`: the events every
 * back-end's -e takes (native names, generic aliases, POWER's hv_gpci
 * events and model counts), as perf list: a GLOB filters by name (a
 * pattern without * ? [ matches anywhere in the name, as perf list's
 * "cache"; case-insensitive), -p keeps one platform, --details adds each
 * event's encoding and platform, -j prints a JSON array (perf list -j's
 * keys).  docs/cli.md "hvpmu list".
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include <hvpmu/supervisor.h>
#include "tools.h"

struct list_cli {
	int platform; /* -1: every back-end */
	int details, json;
	char **globs;
	int nglobs;
	json_object *arr;
	unsigned shown;
};

/* 1 when the name matches the command line's globs (or there are none). */
static int list_match(const struct list_cli *cl, const char *name)
{
	if (!cl->nglobs)
		return 1;
	for (int i = 0; i < cl->nglobs; i++) {
		const char *g = cl->globs[i];
		char any[160];

		if (!strpbrk(g, "*?[")) { /* a word: anywhere in the name */
			snprintf(any, sizeof any, "*%s*", g);
			g = any;
		}
		if (fnmatch(g, name, FNM_CASEFOLD) == 0)
			return 1;
	}
	return 0;
}

static void list_event(struct list_cli *cl, const struct hvpmu_sv_backend_desc *d, const char *topic,
		       const struct hvpmu_sv_event_info *e, int *heading, const char *title)
{
	if (!list_match(cl, e->name))
		return;
	cl->shown++;
	if (cl->json) {
		json_object *o = json_object_new_object();
		char enc[32];

		snprintf(enc, sizeof enc, "config=0x%llx", (unsigned long long)e->config);
		json_object_object_add(o, "Unit", json_object_new_string(d->name));
		json_object_object_add(o, "Topic", json_object_new_string(topic));
		json_object_object_add(o, "EventName", json_object_new_string(e->name));
		json_object_object_add(o, "EventType", json_object_new_string("Kernel PMU event"));
		json_object_object_add(o, "BriefDescription", json_object_new_string(e->text));
		json_object_object_add(o, "Encoding", json_object_new_string(enc));
		json_object_object_add(o, "Supported", json_object_new_boolean(e->supported));
		json_object_array_add(cl->arr, o);
		return;
	}
	if (!*heading) {
		printf("%s%s\n", cl->shown > 1 ? "\n" : "", title);
		*heading = 1;
	}
	printf("  %-36s %s%s\n", e->name, e->text, e->supported ? "" : " [not supported by the model yet]");
	if (cl->details)
		printf("  %-36s   platform %s, config=0x%llx, %s\n", "", d->name, (unsigned long long)e->config, topic);
}

/* perf list metricgroup: stat's -M groups (only: 1, then the end). */
static int list_metric_groups(struct list_cli *cl, int only)
{
	const char *events, *desc, *name;

	if (only && cl->json)
		cl->arr = json_object_new_array();
	if (!cl->json)
		printf("%sMetric groups (hvpmu stat -M NAME; perf's generic events, each platform's own; metrics as perf "
		       "prints them):\n", only ? "" : "\n");
	for (unsigned i = 0; (name = tool_metric_group(i, &events, &desc)); i++) {
		if (cl->json) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "MetricGroup", json_object_new_string(name));
			json_object_object_add(o, "MetricExpr", json_object_new_string(events));
			json_object_object_add(o, "BriefDescription", json_object_new_string(desc));
			json_object_array_add(cl->arr, o);
		} else {
			printf("  %-36s %s: %s\n", name, events, desc);
		}
	}
	if (only && cl->json) {
		printf("%s\n", json_object_to_json_string_ext(cl->arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
		json_object_put(cl->arr);
	}
	return 0;
}

static int list_usage(FILE *f)
{
	char names[256];

	fprintf(f, "usage: hvpmu list [-p PLATFORM] [--details] [-j] [GLOB... | metricgroup]\n"
		   "  GLOB              event names to list (case-insensitive; a word without * ? [ matches\n"
		   "                    anywhere in the name)\n"
		   "  -p, --platform P  one platform's events: %s\n"
		   "  -d, --details     each event's platform and encoding (config) too\n"
		   "  -j, --json        a JSON array, one object per event (perf list -j's keys)\n",
		tool_platform_names(names, sizeof names, ", "));
	return f == stdout ? 0 : EXIT_USAGE;
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "platform", required_argument, NULL, 'p' },
					      { "details", no_argument, NULL, 'd' },
					      { "json", no_argument, NULL, 'j' },
					      { NULL, 0, NULL, 0 } };
	struct list_cli cl = { .platform = -1 };
	const struct hvpmu_sv_backend *be;
	struct hvpmu_sv_event_info e;
	struct stat_request rq;
	int c;

	optind = 0; /* glibc: a full reset, also of a previous call's half-parsed option group */
	while ((c = getopt_long(argc, argv, "+p:djh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (tool_set_platform("hvpmu list", optarg, &rq, &cl.platform))
				return EXIT_USAGE;
			break;
		case 'd': cl.details = 1; break;
		case 'j': cl.json = 1; break;
		case 'h': return list_usage(stdout);
		default: return EXIT_USAGE; /* getopt's one line */
		}
	}
	cl.globs = argv + optind;
	cl.nglobs = argc - optind;
	if (cl.nglobs == 1 && (strcmp(cl.globs[0], "metricgroup") == 0 || strcmp(cl.globs[0], "metric") == 0))
		return list_metric_groups(&cl, 1);
	if (cl.json)
		cl.arr = json_object_new_array();
	for (unsigned b = 0; (be = hvpmu_sv_backend_at(b)); b++) {
		const struct hvpmu_sv_backend_desc *d = hvpmu_sv_backend_desc(be);
		int heading = 0, aheading = 0;

		if (cl.platform >= 0 && be != hvpmu_sv_backend_of(cl.platform))
			continue;
		for (unsigned i = 0; hvpmu_sv_backend_event(be, i, &e) == HVPMU_OK; i++)
			list_event(&cl, d, "native", &e, &heading, d->title);
		if (d->alias_title)
			for (unsigned i = 0; hvpmu_sv_backend_alias(be, i, &e) == HVPMU_OK; i++)
				list_event(&cl, d, "alias", &e, &aheading, d->alias_title);
		if (d->raw_help && !cl.nglobs && !cl.json)
			printf("\n%s\n", d->raw_help);
	}
	if (!cl.nglobs && cl.platform < 0)
		list_metric_groups(&cl, 0);
	if (cl.json) {
		printf("%s\n", json_object_to_json_string_ext(cl.arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
		json_object_put(cl.arr);
	}
	if (cl.nglobs && !cl.shown) { /* as a failed grep: nothing matched */
		fprintf(stderr, "hvpmu list: no event matches '%s'%s\n", cl.globs[0], cl.nglobs > 1 ? " (or the others)" : "");
		return 1;
	}
	return 0;
}
