/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_gpci_event_parse.c - libFuzzer target for perf's hv_gpci event
 * syntax of `hvpmu stat -p power -e` (hvpmu_gpci_event_parse,
 * src/supervisor/gpci_events.c; ../shared/reference/linux-clients.md
 * §2.3, §2.4 "Event encoding").
 *
 * The input is the text (NUL-terminated copy).  Invariants (abort on
 * violation): the result is HVPMU_OK or HVPMU_EINVAL; HVPMU_EINVAL comes
 * with a one-line message and leaves *ev and *used untouched; HVPMU_OK
 * gives *used within the text, the text starting with "hv_gpci/" and
 * its used part ending with '/', length 1..8, offset + length <= 4064
 * (Linux's event init), and for a named event (a term that is one of
 * hvpmu_gpci_named_event_at's names) its request, counter_info_version 8
 * and the offset and length of its field of our request table; parsing
 * the used part alone gives the same event.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hvpmu/hvpmu.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ERRLEN 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hvpmu_gpci_event ev, before, again;
	size_t used = (size_t)-1, used2 = 0;
	char err[ERRLEN], *s, *prefix;
	int rc;

	if (!(s = malloc(size + 1)))
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	memset(&ev, 0xa5, sizeof ev);
	before = ev;
	memset(err, 0, sizeof err);
	rc = hvpmu_gpci_event_parse(s, &ev, &used, err, sizeof err);
	if (rc != HVPMU_OK && rc != HVPMU_EINVAL)
		abort();
	if (rc == HVPMU_EINVAL) {
		if (!err[0] || !memchr(err, 0, sizeof err) || strchr(err, '\n'))
			abort();
		if (memcmp(&ev, &before, sizeof ev) || used != (size_t)-1)
			abort();
		free(s);
		return 0;
	}
	if (used > strlen(s) || used < strlen(HVPMU_GPCI_EVENT_PMU) + 2 ||
	    strncmp(s, HVPMU_GPCI_EVENT_PMU, strlen(HVPMU_GPCI_EVENT_PMU)) || s[used - 1] != '/')
		abort();
	if (ev.length < 1 || ev.length > 8 || ev.offset > HVPMU_GPCI_MAX_DATA_BYTES - ev.length)
		abort();
	/* a named event reads a field of our request table */
	for (unsigned i = 0; hvpmu_gpci_named_event_at(i); i++) {
		const struct hvpmu_gpci_named_event *ne = hvpmu_gpci_named_event_at(i);
		size_t nl = strlen(ne->name);

		for (size_t k = 1; k + nl <= used; k++) { /* a term that is its name (s[0] is 'h') */
			const char *t = s + k;
			const struct hvpmu_gpci_field *f;

			if ((t[-1] != '/' && t[-1] != ',') || strncmp(t, ne->name, nl) || (t[nl] != '/' && t[nl] != ','))
				continue;
			f = hvpmu_gpci_named_event_field(ne);
			if (!f || ev.request != ne->request || ev.offset != f->offset || ev.length != f->width ||
			    ev.version_in != HVPMU_GPCI_COUNTER_INFO_VERSION_CURRENT)
				abort();
		}
	}
	/* the used part alone: the same event */
	if (!(prefix = malloc(used + 1)))
		abort();
	memcpy(prefix, s, used);
	prefix[used] = 0;
	if (hvpmu_gpci_event_parse(prefix, &again, &used2, err, sizeof err) != HVPMU_OK || used2 != used ||
	    memcmp(&again.request, &ev.request, sizeof ev.request) || again.starting_index != ev.starting_index ||
	    again.secondary_index != ev.secondary_index || again.version_in != ev.version_in ||
	    again.offset != ev.offset || again.length != ev.length)
		abort();
	free(prefix);
	free(s);
	return 0;
}
