/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_cpustat_parse.c - libFuzzer target for `hvpmu cpustat -c` event
 * sets (src/tools/cpustat.c parse_set, compiled in): cpc_strtoset's
 * `[picN=]EVENT[,attr[N][=val]]...` with sys, nouser, hpriv, emask.
 *
 * Input: byte 0 bit 0 picks the platform (1 = t1); the rest is one or more
 * sets separated by '\n' (one -c each).  Invariants (abort on violation):
 * parse_set returns 0 or -1; -1 comes with a one-line message; on 0 the set
 * has 1..npic requests on distinct counters below npic (T4 4, T1 2), each
 * naming an event of the request with sl <= 31, mask <= 0x3f, a mode,
 * modes shared by the set, a T4 event the model supports, and on the T1
 * Instr_cnt only on pic1 and PICL events only on pic0.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/events.c"
#include "tools/cpustat.c"
#include "tools/interval.c"
#include "tools/mdopt.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* cpustat.c runs programs through stat.c's run_guest(); parsing never does. */
int run_guest(const char *tool, struct stat_request *rq, int argc, char **argv, struct stat_result *rs,
	      struct run_times *t, int *ok)
{
	(void)tool; (void)rq; (void)argc; (void)argv; (void)rs; (void)t;
	*ok = 0;
	abort();
}

static void check_set(const struct opts *o, const struct stat_request *rq, const struct set *st)
{
	unsigned npic = o->t1 ? T1_NPIC : HVPMU_T4_NPIC, used = 0;
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
		if (e->sl > 31 || e->mask > 0x3f || !(e->ut || e->st || e->ht) || !memchr(e->name, 0, sizeof e->name))
			abort();
		if (e->ut != e0->ut || e->st != e0->st || e->ht != e0->ht)
			abort();
		if (o->t1) {
			int pich = e->mask == HVPMU_SV_T1_PICH;

			if (e->ht || st->req[r].pic != (pich ? 1u : 0u) || (!pich && hvpmu_t1_picl_modeled(e->sl) != 0))
				abort();
		} else if (!hvpmu_t4_event_supported(e->sl, e->mask)) {
			abort();
		}
	}
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
	o.t1 = data[0] & 1;
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
	free(buf);
	return 0;
}
