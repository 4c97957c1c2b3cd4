/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_cpustat_parse.c - libFuzzer target for `hvpmu cpustat -c` event
 * sets (src/tools/cpustat.c parse_set and check_sets, compiled in):
 * cpc_strtoset's `[picN=]EVENT[,attr[N][=val]]...` with sys, nouser,
 * hpriv, emask.
 *
 * Input: byte 0 bit 0 picks the chip driver (0 t4, 1 t1); the rest is
 * one or more sets separated by '\n' (one -c each).  Invariants (abort
 * on violation): parse_set returns 0 or -1; -1 comes with a one-line
 * message; on 0 the set has 1..npic requests on distinct counters below
 * npic (T4 4, T1 2), each naming an event of the request that the model
 * supports, on a counter that counts it (T1: Instr_cnt only on pic1,
 * PICL events only on pic0; niagara-perf-api.txt §2.1), with modes the
 * chip has (no hpriv on the T1), the same modes across the set, and a
 * NUL-terminated name; a shared event (T1 Instr_cnt) appears once in the
 * request however many sets name it.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cpustat.c"
#include "tools/interval.c"
#include "tools/mdopt.c"
#include "tools/fmt.c"
#include "tools/progress.c" /* (the tools turn the heartbeat off for CSV and JSON on stderr) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "fuzz_tool_stubs.h"

static void check_set(const struct opts *o, const struct stat_request *rq, const struct set *st)
{
	const struct hvpmu_sv_backend_desc *d = hvpmu_sv_backend_desc(o->be);
	unsigned npic = d->npic, used = 0;
	const struct hvpmu_sv_event *e0;

	if (st->nreq == 0 || st->nreq > npic)
		abort();
	e0 = &rq->ev[st->req[0].event];
	for (unsigned r = 0; r < st->nreq; r++) {
		const struct hvpmu_sv_event *e;

		if (st->req[r].pic >= npic || (used & (1u << st->req[r].pic)) || st->req[r].event >= rq->nevents)
			abort();
		used |= 1u << st->req[r].pic;
		e = &rq->ev[st->req[r].event];
		if (!e->modes || (e->modes & ~d->modes) || e->modes != e0->modes || !memchr(e->name, 0, sizeof e->name))
			abort();
		if (!hvpmu_sv_event_supported(o->be, e->config) ||
		    !(hvpmu_sv_event_pics(o->be, e->config) & (1u << st->req[r].pic)))
			abort();
		if (o->be == hvpmu_sv_backend_of(HVPMU_PLATFORM_T1) &&
		    st->req[r].pic != (e->config == HVPMU_SV_T1_PICH ? 1u : 0u))
			abort();
	}
}

/* A shared event is in the request once. */
static void check_shared(const struct opts *o, const struct stat_request *rq)
{
	for (unsigned i = 0; i < rq->nevents; i++)
		for (unsigned j = i + 1; j < rq->nevents; j++)
			if (hvpmu_sv_event_shared(o->be, rq->ev[i].config) && rq->ev[j].config == rq->ev[i].config)
				abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct opts o;
	static struct stat_request rq;
	char err[256], *buf, *save = NULL, *spec;

	if (size == 0)
		return 0;
	memset(&o, 0, sizeof o);
	memset(&rq, 0, sizeof rq);
	o.be = hvpmu_sv_backend_of(data[0] & 1 ? HVPMU_PLATFORM_T1 : HVPMU_PLATFORM_T4);
	if (!o.be)
		abort();
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = 0;
	for (spec = strtok_r(buf, "\n", &save); spec && o.nsets < MAX_SETS; spec = strtok_r(NULL, "\n", &save)) {
		int rc;

		memset(err, 0, sizeof err);
		rc = parse_set(&o, spec, &rq, &o.set[o.nsets], err, sizeof err);
		if (rc == -1) {
			if (!err[0] || !memchr(err, 0, sizeof err) || strchr(err, '\n'))
				abort();
			break;
		}
		if (rc != 0)
			abort();
		check_set(&o, &rq, &o.set[o.nsets]);
		o.nsets++;
	}
	if (rq.nevents > HVPMU_SV_MAX_EVENTS)
		abort();
	check_shared(&o, &rq);
	free(buf);
	return 0;
}
