/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event-list parsing for the hvpmu CLI: T4 names, generic aliases, raw
 * sl=N,mask=M and rNNN ((sl << 6) | mask, the PCBE / Linux encoding,
 * ../shared/reference/t4-events.md §0), with :u :k :h modifiers. */
#ifndef HVPMU_TOOLS_EVENTS_H
#define HVPMU_TOOLS_EVENTS_H

#include <stddef.h>
#include <hvpmu/supervisor.h>

/* Parse a comma-separated list into ev[], appending to *n (max cap).
 * Returns 0, or -1 with a one-line message in err. */
int parse_event_list(const char *list, struct hvpmu_sv_event *ev, unsigned *n, unsigned cap,
		     char *err, size_t errlen);
/* The same for a platform: t1 != 0 parses UltraSPARC T1 events (Instr_cnt,
 * the PICL names, Linux's niagara1 aliases, rN, :u :k). */
int parse_event_list_for(int t1, const char *list, struct hvpmu_sv_event *ev, unsigned *n, unsigned cap,
			 char *err, size_t errlen);

#endif
