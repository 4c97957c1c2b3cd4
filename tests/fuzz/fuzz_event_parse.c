/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_event_parse.c - libFuzzer target for the event-list parser of
 * `hvpmu stat -e` (hvpmu_sv_parse_events, src/supervisor/backend.c) with
 * every chip driver: T4 names and Linux aliases (../shared/reference/
 * t4-events.md §4, linux-clients.md §1.7), raw `sl=N,mask=M` and `rHHH` =
 * (sl << 6) | mask (t4-events.md §0); T1 names (niagara-perf-api.txt
 * §2.1) and `rN`; the R10000's IRIX numbers and names, `rN`, and its
 * one-event-per-counter placement (docs/r10k-counters.md); modifiers
 * :u :k :h (:s :x on the R10000).
 *
 * Byte 0: bit 7 clear: t4, bits 0-6 modulo HVPMU_SV_MAX_EVENTS + 1 the
 * capacity; bit 7 set: bit 6 picks t1 (0) or origin (1), bits 0-5 the
 * capacity; the rest is the list.  Invariants
 * (abort on violation): the result is 0 or -1; -1 comes with a one-line
 * message; ev[cap] is never written; 0 gives at most `cap` events and
 * leaves the rest of ev[] untouched; each has modes, only modes the chip's counters have, a
 * config some counter counts (hvpmu_sv_event_pics) and for the T4 within
 * sl[4:0] / mask[5:0] (TABLE 10-1), for the R10000 an event 0-31 and no
 * two events on one counter, and a NUL-terminated name.
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
#define T4_CONFIG_MAX 0x7ff /* (sl << 6) | mask, sl 5 bits, mask 6 bits */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hvpmu_sv_event ev[HVPMU_SV_MAX_EVENTS + 1];
	const struct hvpmu_sv_backend *be;
	char err[ERRLEN];
	unsigned cap, n = 0, t1, r10k;
	uint32_t used = 0;
	char *list;
	int rc;

	if (size == 0)
		return 0;
	r10k = (data[0] >> 6) == 3;
	t1 = (data[0] >> 6) == 2;
	be = hvpmu_sv_backend_of(r10k ? HVPMU_PLATFORM_ORIGIN : t1 ? HVPMU_PLATFORM_T1 : HVPMU_PLATFORM_T4);
	if (!be)
		abort();
	cap = (data[0] & (data[0] >> 7 ? 0x3f : 0x7f)) % (HVPMU_SV_MAX_EVENTS + 1);
	list = malloc(size);
	if (!list)
		return 0;
	memcpy(list, data + 1, size - 1);
	list[size - 1] = 0;
	memset(ev, 0xa5, sizeof ev);
	memset(err, 0, sizeof err);
	rc = hvpmu_sv_parse_events(be, list, ev, &n, cap, err, sizeof err);
	if (rc != 0 && rc != -1)
		abort();
	if (rc == -1 && (err[0] == 0 || memchr(err, 0, sizeof err) == NULL || strchr(err, '\n')))
		abort();
	if (n > cap)
		abort();
	/* ev[cap] never written; on success nothing past the events parsed */
	for (unsigned i = rc == 0 ? n : cap; i <= cap; i++)
		for (size_t b = 0; b < sizeof ev[i]; b++)
			if (((const uint8_t *)&ev[i])[b] != 0xa5)
				abort();
	for (unsigned i = 0; i < n; i++) {
		if (!ev[i].modes || (ev[i].modes & ~hvpmu_sv_backend_desc(be)->modes))
			abort();
		if (!hvpmu_sv_event_pics(be, ev[i].config) || (!t1 && !r10k && ev[i].config > T4_CONFIG_MAX))
			abort();
		if (r10k && (ev[i].config >= HVPMU_R10K_NEVENTS ||
			     (rc == 0 && (used & hvpmu_sv_event_pics(be, ev[i].config)))))
			abort();
		used |= r10k ? hvpmu_sv_event_pics(be, ev[i].config) : 0;
		if (t1 && ev[i].config != HVPMU_SV_T1_PICH && ev[i].config >= HVPMU_T1_NSL)
			abort();
		if (!memchr(ev[i].name, 0, sizeof ev[i].name))
			abort();
	}
	free(list);
	return 0;
}
