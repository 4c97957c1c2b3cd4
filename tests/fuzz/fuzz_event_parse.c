/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_event_parse.c - libFuzzer target for the `hvpmu stat -e` event-list
 * parser (src/tools/events.c, compiled in): T4 names and Linux aliases
 * (../shared/reference/t4-events.md §4, linux-clients.md §1.7), raw
 * `sl=N,mask=M` and `rHHH` = (sl << 6) | mask (t4-events.md §0), modifiers
 * :u :k :h.
 *
 * The first input byte is the capacity (0..HVPMU_SV_MAX_EVENTS), the rest
 * the list.  Invariants (abort on violation): the result is 0 or -1; -1
 * comes with a one-line message; 0 gives at most `cap` events, each with
 * sl <= 31 (TABLE 10-2 sl[4:0]), mask <= 0x3f (mask[5:0]), at least one of
 * ut/st/ht, and a NUL-terminated name.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/events.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ERRLEN 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hvpmu_sv_event ev[HVPMU_SV_MAX_EVENTS + 1];
	char err[ERRLEN];
	unsigned cap, n = 0;
	char *list;
	int rc;

	if (size == 0)
		return 0;
	cap = data[0] % (HVPMU_SV_MAX_EVENTS + 1);
	list = malloc(size);
	if (!list)
		return 0;
	memcpy(list, data + 1, size - 1);
	list[size - 1] = 0;
	memset(ev, 0xa5, sizeof ev);
	memset(err, 0, sizeof err);
	rc = parse_event_list(list, ev, &n, cap, err, sizeof err);
	if (rc != 0 && rc != -1)
		abort();
	if (rc == -1 && (err[0] == 0 || memchr(err, 0, sizeof err) == NULL))
		abort();
	if (n > cap)
		abort();
	/* sentinel past the capacity untouched */
	for (size_t b = 0; b < sizeof ev[cap]; b++)
		if (((const uint8_t *)&ev[cap])[b] != 0xa5)
			abort();
	for (unsigned i = 0; i < n; i++) {
		if (ev[i].sl > 31 || ev[i].mask > 0x3f || !(ev[i].ut || ev[i].st || ev[i].ht))
			abort();
		if (ev[i].ut > 1 || ev[i].st > 1 || ev[i].ht > 1)
			abort();
		if (!memchr(ev[i].name, 0, sizeof ev[i].name))
			abort();
	}
	free(list);
	return 0;
}
