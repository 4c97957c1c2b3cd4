/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's hv_gpci event syntax (hvpmu/gpci.h hvpmu_gpci_event_parse): the
 * named events Linux's sysfs publishes for the requests the seed
 * implements, and the raw form of the sysfs format/ fields
 * (../shared/reference/linux-clients.md §2.3 and §2.4 "Event encoding";
 * torvalds/linux arch/powerpc/perf/hv-gpci-requests.h, req-gen/perf.h:
 * an event is "request=R,<index kind>=?,counter_info_version=8,
 * length=L,offset=O", named <request>_<counter>).  A named event reads
 * the field of our request table (src/services/papr.c) that Linux's
 * counter names; docs/papr-gpci.md "hv_gpci events" gives the table and
 * the choices.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/gpci.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Linux's starting-index kinds (hv-gpci-requests.h REQUEST_IDX_KIND). */
#define IDX_PROC "phys_processor_idx"
#define IDX_SIBLING "sibling_part_id"
#define IDX_CHIP "hw_chip_id"

/*
 * Linux's __count entries of the requests the seed implements (0x10,
 * 0x20, 0x30, 0x50, 0x60; 0x40 and the LAB requests have no counters in
 * Linux's list).  Each reads the field its counter names in the layout
 * the firmware answers Linux's counter_info_version 8 in
 * (hvpmu_gpci_request_layout): the seed's for 0x10-0x30 (Linux's
 * offsets, the seed's names), Linux's version-3 layout for 0x50 and 0x60
 * (one total, then the idles from 0x18; Linux's names).
 */
static const struct hvpmu_gpci_named_event named[] = {
	{ "dispatch_timebase_by_processor_processor_time_in_timebase_cycles", 0x10, IDX_PROC, 0x00, 8,
	  "processor_time_in_purr_cycles" },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition_entitled_cycles", 0x20, IDX_SIBLING, 0x08, 8,
	  "entitled_cycles" },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition_consumed_capped_cycles", 0x20, IDX_SIBLING,
	  0x10, 8, "consumed_capped_cycles" },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition_consumed_uncapped_cycles", 0x20, IDX_SIBLING,
	  0x18, 8, "consumed_uncapped_cycles" },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition_cycles_donated", 0x20, IDX_SIBLING, 0x20, 8,
	  "cycles_donated" },
	{ "entitled_capped_uncapped_donated_idle_timebase_by_partition_purr_idle_cycles", 0x20, IDX_SIBLING, 0x28, 8,
	  "purr_idle_cycles" },
	{ "run_instructions_run_cycles_by_partition_instructions_completed", 0x30, IDX_SIBLING, 0x08, 8,
	  "instructions_completed" },
	{ "run_instructions_run_cycles_by_partition_cycles", 0x30, IDX_SIBLING, 0x10, 8, "cycles" },
	{ "processor_bus_utilization_abc_links_total_link_cycles", 0x50, IDX_CHIP, 0x10, 8, "total_link_cycles" },
	{ "processor_bus_utilization_abc_links_idle_cycles_for_a_link", 0x50, IDX_CHIP, 0x18, 8, "idle_cycles_for_a_link" },
	{ "processor_bus_utilization_abc_links_idle_cycles_for_b_link", 0x50, IDX_CHIP, 0x20, 8, "idle_cycles_for_b_link" },
	{ "processor_bus_utilization_abc_links_idle_cycles_for_c_link", 0x50, IDX_CHIP, 0x28, 8, "idle_cycles_for_c_link" },
	{ "processor_bus_utilization_wxyz_links_total_link_cycles", 0x60, IDX_CHIP, 0x10, 8, "total_link_cycles" },
	{ "processor_bus_utilization_wxyz_links_idle_cycles_for_w_link", 0x60, IDX_CHIP, 0x18, 8,
	  "idle_cycles_for_w_link" },
	{ "processor_bus_utilization_wxyz_links_idle_cycles_for_x_link", 0x60, IDX_CHIP, 0x20, 8,
	  "idle_cycles_for_x_link" },
	{ "processor_bus_utilization_wxyz_links_idle_cycles_for_y_link", 0x60, IDX_CHIP, 0x28, 8,
	  "idle_cycles_for_y_link" },
	{ "processor_bus_utilization_wxyz_links_idle_cycles_for_z_link", 0x60, IDX_CHIP, 0x30, 8,
	  "idle_cycles_for_z_link" },
};

/* The sysfs format/ fields (linux-clients.md §2.4): config:0-31 request,
 * config:32-63 starting_index and its aliases, config1:0-15
 * secondary_index, config1:16-23 counter_info_version, config1:24-31
 * length, config1:32-63 offset. */
enum rawf { F_REQUEST, F_INDEX, F_SECONDARY, F_VERSION, F_OFFSET, F_LENGTH, F_N };
static const struct {
	const char *key;
	enum rawf f;
	uint64_t max;
} keys[] = {
	{ "request", F_REQUEST, UINT32_MAX },
	{ "starting_index", F_INDEX, UINT32_MAX },
	{ IDX_PROC, F_INDEX, UINT32_MAX },
	{ IDX_SIBLING, F_INDEX, UINT32_MAX },
	{ IDX_CHIP, F_INDEX, UINT32_MAX },
	{ "partition_id", F_INDEX, UINT32_MAX },
	{ "secondary_index", F_SECONDARY, UINT16_MAX },
	{ "counter_info_version", F_VERSION, UINT8_MAX },
	{ "offset", F_OFFSET, UINT32_MAX },
	{ "length", F_LENGTH, UINT32_MAX }, /* 1..8: checked with its own message */
};

#define LEN_MAX 8u

const struct hvpmu_gpci_named_event *hvpmu_gpci_named_event_at(unsigned i)
{
	return i < N(named) ? &named[i] : NULL;
}

const struct hvpmu_gpci_field *hvpmu_gpci_named_event_field(const struct hvpmu_gpci_named_event *ne)
{
	const struct hvpmu_gpci_request *rq =
		ne ? hvpmu_gpci_request_layout(ne->request, HVPMU_GPCI_COUNTER_INFO_VERSION_CURRENT) : NULL;

	for (unsigned f = 0; rq && f < rq->nfields; f++)
		if (strcmp(rq->fields[f].name, ne->field) == 0)
			return rq->fields[f].width == ne->length ? &rq->fields[f] : NULL;
	return NULL;
}

/* A number of the syntax: decimal or 0x hex, at most max.  0 or -1. */
static int number(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (n == 0 || n >= sizeof buf || s[0] < '0' || s[0] > '9')
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* The event text for messages, bounded. */
#define SHOW 96

static int bad(char *err, size_t n, const char *ev, size_t evlen, const char *why, const char *what, size_t wlen)
{
	if (err && n)
		snprintf(err, n, "hv_gpci event '%.*s%s': %s%s%.*s%s", (int)(evlen > SHOW ? SHOW : evlen), ev,
			 evlen > SHOW ? "..." : "", why, wlen ? "'" : "", (int)(wlen > SHOW ? SHOW : wlen), what,
			 wlen ? "'" : "");
	for (char *c = err; err && n && *c; c++) /* the text quoted may hold anything: one line */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return HVPMU_EINVAL;
}

int hvpmu_gpci_event_parse(const char *s, struct hvpmu_gpci_event *ev, size_t *used, char *err, size_t errlen)
{
	const size_t pl = strlen(HVPMU_GPCI_EVENT_PMU);
	const struct hvpmu_gpci_named_event *ne = NULL;
	uint64_t val[F_N] = { 0 };
	const char *given[F_N] = { NULL }; /* each field's key as written */
	const char *body, *close, *t;
	size_t tl, evlen;

	if (!s || !ev || !used)
		return HVPMU_EINVAL;
	if (strncmp(s, HVPMU_GPCI_EVENT_PMU, pl) != 0)
		return bad(err, errlen, s, strcspn(s, ","), "not an hv_gpci event", "", 0);
	body = s + pl;
	if (!(close = strchr(body, '/')))
		return bad(err, errlen, s, strlen(s), "no closing '/'", "", 0);
	evlen = (size_t)(close - s) + 1;
	if (close == body)
		return bad(err, errlen, s, evlen, "no event name or request=", "", 0);
	for (t = body; t <= close; t += tl + 1) {
		const char *eq;
		unsigned k;

		tl = strcspn(t, ",/");
		if (t + tl > close)
			tl = (size_t)(close - t);
		if (tl == 0)
			return bad(err, errlen, s, evlen, "empty term", "", 0);
		eq = memchr(t, '=', tl);
		if (!eq) { /* an event name */
			unsigned i;

			if (ne)
				return bad(err, errlen, s, evlen, "a second event name: ", t, tl);
			for (i = 0; i < N(named); i++)
				if (strlen(named[i].name) == tl && strncmp(named[i].name, t, tl) == 0)
					break;
			if (i == N(named))
				return bad(err, errlen, s, evlen, "unknown event ", t, tl);
			ne = &named[i];
			continue;
		}
		for (k = 0; k < N(keys); k++)
			if (strlen(keys[k].key) == (size_t)(eq - t) && strncmp(keys[k].key, t, (size_t)(eq - t)) == 0)
				break;
		if (k == N(keys))
			return bad(err, errlen, s, evlen, "unknown parameter ", t, (size_t)(eq - t));
		if (given[keys[k].f])
			return bad(err, errlen, s, evlen, "a field given twice: ", t, (size_t)(eq - t));
		if (number(eq + 1, tl - (size_t)(eq + 1 - t), keys[k].max, &val[keys[k].f]))
			return bad(err, errlen, s, evlen, "bad value of ", t, tl);
		given[keys[k].f] = keys[k].key;
	}
	if (ne) { /* named: its index parameter, and nothing else */
		for (unsigned f = 0; f < F_N; f++)
			if (given[f] && (f != F_INDEX || strcmp(given[f], ne->index_param) != 0))
				return bad(err, errlen, s, evlen, "the named event takes only ", ne->index_param,
					   strlen(ne->index_param));
		if (!given[F_INDEX])
			return bad(err, errlen, s, evlen, "missing required parameter ", ne->index_param,
				   strlen(ne->index_param));
		{
			const struct hvpmu_gpci_field *fd = hvpmu_gpci_named_event_field(ne);

			if (!fd) /* the tables disagree */
				return bad(err, errlen, s, evlen, "no field of the request table for ", ne->name,
					   strlen(ne->name));
			val[F_REQUEST] = ne->request;
			val[F_OFFSET] = fd->offset;
			val[F_LENGTH] = fd->width;
			val[F_VERSION] = HVPMU_GPCI_COUNTER_INFO_VERSION_CURRENT;
		}
	} else {
		if (!given[F_REQUEST])
			return bad(err, errlen, s, evlen, "missing request= (or an event name)", "", 0);
		if (!given[F_LENGTH])
			return bad(err, errlen, s, evlen, "missing length=", "", 0);
	}
	if (val[F_LENGTH] < 1 || val[F_LENGTH] > LEN_MAX)
		return bad(err, errlen, s, evlen, "length must be 1..8", "", 0);
	if (val[F_OFFSET] > HVPMU_GPCI_MAX_DATA_BYTES - val[F_LENGTH])
		return bad(err, errlen, s, evlen, "offset + length past the 4064 bytes of counter_value", "", 0);
	ev->request = (uint32_t)val[F_REQUEST];
	ev->starting_index = (uint32_t)val[F_INDEX];
	ev->secondary_index = (uint16_t)val[F_SECONDARY];
	ev->version_in = (uint8_t)val[F_VERSION];
	ev->offset = (uint32_t)val[F_OFFSET];
	ev->length = (uint32_t)val[F_LENGTH];
	*used = evlen;
	return HVPMU_OK;
}
