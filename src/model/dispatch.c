/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PAPR hypervisor's dispatcher (src/model/dispatch.h,
 * docs/papr-dispatcher.md): virtual processors onto physical processors,
 * PURR and timebase accounting into the CEC statistics device
 * (hvpmu/cec_stats.h: every feed is checked against its invariants
 * I1-I8), links from the memory model's inter-chip transfers.
 *
 * Units: timebase cycles (cec.timebase_hz) throughout; a strand's modeled
 * cycles convert as cycles x timebase_hz / clock_hz, cumulatively (no
 * rounding drift).
 *
 * Virtual processors: partition i is guest i of the description; its
 * strands, grouped by the core they sit on, are its virtual processors
 * (a virtual processor is dispatched whole onto a physical processor, its
 * SMT threads with it), the k-th core's strands VP k mod nvps.  A VP's
 * busy time in an interval is the most busy time of its strands (they run
 * side by side on one core); busy = modeled time not spent waiting in the
 * OS or held back by the dispatcher.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/cec_stats.h>
#include "dispatch.h"
#include "machine_internal.h"

#define NO_PROC UINT32_MAX

struct vp {
	uint32_t part;        /* partition index */
	uint32_t home;        /* the processor its first core is (CEC processor i = core i) */
	uint32_t proc;        /* a dedicated partition's VP k: the k-th processor it owns (NO_PROC: none) */
	uint64_t demand;      /* busy timebase cycles this call, backlog included */
	uint64_t backlog;     /* busy cycles not yet dispatched (held back: see hold()) */
	uint64_t insns;       /* run-latch instructions this call */
	uint64_t capped, uncapped; /* granted this call */
};

struct dstrand {
	uint64_t busy_tb;  /* cumulative busy timebase cycles accounted */
	uint64_t retired;  /* retired instructions accounted */
	uint32_t vp;       /* index into vps, or NO_PROC (no partition) */
};

struct dispatch {
	struct hvpmu_cec_stats *st;
	const struct hvpmu_cec *cec;
	uint64_t tb_hz, clock_hz;
	uint64_t tb;          /* timebase accounted up to */
	uint64_t now;         /* the machine time (cycles) of the last run */
	uint64_t win_end, win_len;
	uint32_t nvps;
	struct vp *vps;
	uint64_t *most;       /* [ncores]: a VP's busiest strand this call */
	struct dstrand *ds;   /* [nstrands] */
	uint64_t *purr;       /* [nprocs]: mirror of the device's, for slack */
	uint64_t *slack;      /* [nprocs]: this call's free timebase per processor */
	uint8_t *state;       /* [nprocs]: current state (lend) */
	uint64_t fed_ent[HVPMU_CEC_MAX_PARTITIONS];   /* entitled cycles fed */
	uint64_t capped[HVPMU_CEC_MAX_PARTITIONS];    /* capped cycles fed */
	uint64_t used_win[HVPMU_CEC_MAX_PARTITIONS];  /* capped cycles in the current window */
	uint64_t *xfer;       /* [chips][chips] lines moved from chip a to chip b since the last call */
	uint64_t *busy;       /* [chips][NLINKS] link busy timebase not yet reported */
};

static uint64_t to_tb(const struct dispatch *d, uint64_t cycles)
{
	return (uint64_t)((unsigned __int128)cycles * d->tb_hz / d->clock_hz);
}
static uint64_t to_cycles(const struct dispatch *d, uint64_t tb)
{
	return (uint64_t)(((unsigned __int128)tb * d->clock_hz + d->tb_hz - 1) / d->tb_hz);
}
static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

int dispatch_create(struct hvpmu_machine *m)
{
	const struct hvpmu_cec *cec = &m->md.cec;
	struct dispatch *d;
	int dev;

	m->disp = NULL;
	if (!cec->nchips || (dev = hvpmu_machine_device_find(m, HVPMU_DEV_CEC_STATS, 0)) < 0)
		return HVPMU_OK;
	if (!(d = calloc(1, sizeof *d)))
		return HVPMU_ENOMEM;
	m->disp = d;
	d->st = m->dev[dev].dev;
	d->cec = cec;
	d->tb_hz = cec->timebase_hz;
	d->clock_hz = m->md.clock_hz ? m->md.clock_hz : cec->timebase_hz;
	d->win_len = (uint64_t)((unsigned __int128)d->tb_hz * (cec->window_us ? cec->window_us : HVPMU_CEC_WINDOW_US_DEFAULT) /
				1000000u);
	if (!d->win_len)
		d->win_len = 1;
	d->win_end = d->win_len;
	d->ds = calloc(m->nstrands, sizeof *d->ds);
	d->vps = calloc(m->ncores ? m->ncores : 1, sizeof *d->vps);
	d->most = calloc(m->ncores ? m->ncores : 1, sizeof *d->most);
	d->purr = calloc(cec->nprocs, sizeof *d->purr);
	d->slack = calloc(cec->nprocs, sizeof *d->slack);
	d->state = calloc(cec->nprocs, 1);
	d->xfer = calloc((size_t)cec->nchips * cec->nchips, sizeof *d->xfer);
	d->busy = calloc((size_t)cec->nchips * HVPMU_CEC_NLINKS, sizeof *d->busy);
	if (!d->ds || !d->vps || !d->most || !d->purr || !d->slack || !d->state || !d->xfer || !d->busy) {
		dispatch_destroy(m);
		return HVPMU_ENOMEM;
	}
	for (uint32_t p = 0; p < cec->nprocs; p++)
		d->state[p] = cec->procs[p].state;
	/* virtual processors: each partition's strands by core */
	for (uint32_t i = 0; i < m->nstrands; i++)
		d->ds[i].vp = NO_PROC;
	for (uint32_t g = 0; g < m->md.nguests && g < cec->npartitions; g++) {
		const struct hvpmu_md_guest *gu = &m->md.guests[g];
		uint32_t first_vp = d->nvps, ncores = 0, last_core = UINT32_MAX;
		uint32_t nvps = cec->partitions[g].nvps ? cec->partitions[g].nvps : 1;

		for (uint32_t s = gu->first_strand; s < gu->first_strand + gu->nstrands && s < m->nstrands; s++) {
			uint32_t core = m->s[s].core->idx;

			if (core != last_core) {
				last_core = core;
				if (ncores < nvps) { /* a new VP, its home this core */
					struct vp *v = &d->vps[d->nvps++];
					uint32_t k = ncores, p;

					v->part = g;
					v->home = core < cec->nprocs ? core : NO_PROC;
					for (p = 0; p < cec->nprocs; p++) /* (dedicated: its k-th processor) */
						if (cec->procs[p].owner == cec->partitions[g].id && k-- == 0)
							break;
					v->proc = p < cec->nprocs ? p : NO_PROC;
				}
				ncores++;
			}
			d->ds[s].vp = first_vp + (ncores - 1) % nvps;
		}
	}
	if (cec->nchips > 1)
		m->xfer = d->xfer;
	return HVPMU_OK;
}

void dispatch_destroy(struct hvpmu_machine *m)
{
	struct dispatch *d = m->disp;

	if (!d)
		return;
	free(d->ds);
	free(d->vps);
	free(d->most);
	free(d->purr);
	free(d->slack);
	free(d->state);
	free(d->xfer);
	free(d->busy);
	free(d);
	m->disp = NULL;
	m->xfer = NULL;
}

/* One dispatch into the device and the mirror (it cannot be refused: the
 * dispatcher keeps I2, I4-I7 itself; a refusal is a bug, left visible in
 * the counts rather than hidden). */
static void feed(struct dispatch *d, uint32_t proc, const struct vp *v, uint64_t capped, uint64_t uncapped,
		 uint64_t idle, uint64_t insns, uint64_t run)
{
	struct hvpmu_cec_dispatch x = { proc, v->part, capped, uncapped, idle, insns, run };

	if (!capped && !uncapped && !insns)
		return;
	if (hvpmu_cec_stats_dispatch(d->st, &x) == HVPMU_OK)
		d->purr[proc] += capped + uncapped;
}

static void lend(struct dispatch *d, uint32_t proc, int on)
{
	if (hvpmu_cec_stats_lend(d->st, proc, on) == HVPMU_OK)
		d->state[proc] = on ? HVPMU_CEC_BORROWED : HVPMU_CEC_DEDICATED;
}

/* Hold a VP's strands back until timebase `until`: they wait for the
 * dispatcher (no mode's cycles move, as a thread waiting in the OS).  A
 * target, not an amount: a backlog still waiting at the next run holds
 * them no further than its new target. */
static void hold(struct hvpmu_machine *m, struct dispatch *d, uint32_t vp, uint64_t until)
{
	uint64_t target = to_cycles(d, until);

	for (uint32_t i = 0; i < m->nstrands; i++) {
		uint64_t t;

		if (d->ds[i].vp != vp || !(t = time_of(&m->s[i])) || t >= target)
			continue;
		machine_hold(m, &m->s[i], target - t);
	}
}

/* Place `want` cycles of VP v on processors of state `state` (its home
 * first), as capped or uncapped cycles; the run-latch cycles go with
 * them.  Returns the cycles placed. */
static uint64_t place(struct dispatch *d, struct vp *v, uint8_t state, uint64_t want, int uncapped)
{
	uint64_t placed = 0;
	uint32_t n = d->cec->nprocs;

	for (uint32_t k = 0; k <= n && placed < want; k++) {
		uint32_t p = k == 0 ? v->home : k - 1;
		uint64_t c;

		if (p == NO_PROC || p >= n || (k && p == v->home) || d->state[p] != state || !d->slack[p])
			continue;
		c = min64(want - placed, d->slack[p]);
		d->slack[p] -= c;
		feed(d, p, v, uncapped ? 0 : c, uncapped ? c : 0, 0, v->insns, c);
		v->insns = 0;
		placed += c;
	}
	return placed;
}

/* The dedicated partitions: VP k on the k-th processor the partition owns. */
static void run_dedicated(struct dispatch *d)
{
	for (uint32_t i = 0; i < d->nvps; i++) {
		struct vp *v = &d->vps[i];
		const struct hvpmu_cec_partition *pa = &d->cec->partitions[v->part];
		uint32_t p = v->proc;

		if (pa->mode != HVPMU_CEC_MODE_DEDICATED)
			continue;
		if (p == NO_PROC) { /* more VPs than processors: check() forbids */
			v->backlog = 0;
			continue;
		}
		if (v->demand && d->state[p] == HVPMU_CEC_BORROWED)
			lend(d, p, 0); /* it has work: the owner takes its processor back */
		if (pa->donating) {
			uint64_t run = min64(v->demand, d->slack[p]);

			feed(d, p, v, run, 0, 0, v->insns, run);
			d->slack[p] -= run;
			v->backlog = v->demand - run;
			if (!v->demand && d->state[p] == HVPMU_CEC_DEDICATED)
				lend(d, p, 1); /* idle: its cycles go to the pool */
		} else { /* dispatched the whole time; the OS idles in what it does not use */
			uint64_t used = d->slack[p], run = min64(v->demand, used);

			feed(d, p, v, used, 0, used - run, v->insns, run);
			d->slack[p] = 0;
			v->backlog = v->demand - run;
		}
		v->insns = 0;
	}
}

/* The shared partitions: capped cycles within the entitlement on shared
 * processors; then the uncapped partitions' excess on what the pool and
 * the lent processors have left, by weight; what is left waits. */
static void run_shared(struct hvpmu_machine *m, struct dispatch *d)
{
	const struct hvpmu_cec *cec = d->cec;
	uint64_t excess[HVPMU_CEC_MAX_PARTITIONS] = { 0 }, spare = 0, nbusy[HVPMU_CEC_MAX_PARTITIONS] = { 0 };
	uint64_t share_w[HVPMU_CEC_MAX_PARTITIONS] = { 0 }; /* a partition's capped share of a window */

	for (uint32_t i = 0; i < d->nvps; i++) {
		struct vp *v = &d->vps[i];
		const struct hvpmu_cec_partition *pa = &cec->partitions[v->part];
		uint32_t q = v->part;
		uint64_t allow_e, allow_w, allow, c;

		v->capped = v->uncapped = 0;
		if (pa->mode == HVPMU_CEC_MODE_DEDICATED)
			continue;
		nbusy[q] += v->demand != 0;
		/* the entitlement earned so far, and this window's share of it */
		allow_e = d->fed_ent[q] - d->capped[q];
		share_w[q] = (uint64_t)((unsigned __int128)d->win_len * pa->entitlement / HVPMU_CEC_PU);
		allow_w = share_w[q] > d->used_win[q] ? share_w[q] - d->used_win[q] : 0;
		allow = min64(allow_e, allow_w);
		c = place(d, v, HVPMU_CEC_SHARED, min64(v->demand, allow), 0);
		v->capped = c;
		d->capped[q] += c;
		d->used_win[q] += c;
		if (pa->mode == HVPMU_CEC_MODE_UNCAPPED)
			excess[q] += v->demand - c;
	}
	for (uint32_t p = 0; p < cec->nprocs; p++)
		if (d->state[p] == HVPMU_CEC_SHARED || d->state[p] == HVPMU_CEC_BORROWED)
			spare += d->slack[p];
	/* the pool's spare cycles to the uncapped partitions by weight (weight
	 * 0: only what the others leave; all 0: in partition order), in
	 * rounds until the spare or the demand runs out */
	for (int round = 0; round < 4 && spare; round++) {
		uint64_t wsum = 0, grant[HVPMU_CEC_MAX_PARTITIONS] = { 0 }, placed = 0;

		for (uint32_t q = 0; q < cec->npartitions; q++)
			if (excess[q])
				wsum += cec->partitions[q].weight;
		for (uint32_t q = 0; q < cec->npartitions; q++)
			if (excess[q])
				grant[q] = min64(excess[q], wsum && round < 3 ? (uint64_t)((unsigned __int128)spare *
											cec->partitions[q].weight / wsum)
									  : spare);
		for (uint32_t i = 0; i < d->nvps; i++) {
			struct vp *v = &d->vps[i];
			uint32_t q = v->part;
			uint64_t want, got;

			if (!grant[q] || !spare)
				continue;
			want = min64(min64(grant[q], spare), v->demand - v->capped - v->uncapped);
			got = place(d, v, HVPMU_CEC_SHARED, want, 1);
			got += place(d, v, HVPMU_CEC_BORROWED, want - got, 1);
			v->uncapped += got;
			grant[q] -= got;
			excess[q] -= got;
			spare -= got;
			placed += got;
		}
		if (!placed && wsum == 0)
			break;
	}
	/* what did not run waits: the VP is held back until its backlog can
	 * run at the rate it gets (capped: entitlement / busy VPs, so
	 * backlog x (1 - rate) / rate from now, and not before the next window
	 * when this one's share is used up; uncapped, the pool full now: its
	 * backlog's own length, as the spare may come back within the window),
	 * and is dispatched first next time */
	for (uint32_t i = 0; i < d->nvps; i++) {
		struct vp *v = &d->vps[i];
		const struct hvpmu_cec_partition *pa = &cec->partitions[v->part];
		uint64_t got = v->capped + v->uncapped, wait;

		if (pa->mode == HVPMU_CEC_MODE_DEDICATED)
			continue;
		if (v->insns) { /* instructions count when they retire, even if their cycles wait */
			uint32_t p = v->home < cec->nprocs && d->state[v->home] == HVPMU_CEC_SHARED ? v->home : NO_PROC;

			for (uint32_t k = 0; p == NO_PROC && k < cec->nprocs; k++)
				if (d->state[k] == HVPMU_CEC_SHARED)
					p = k;
			if (p != NO_PROC)
				feed(d, p, v, 0, 0, 0, v->insns, 0);
			v->insns = 0;
		}
		v->backlog = v->demand - got;
		if (!v->backlog)
			continue;
		if (pa->mode == HVPMU_CEC_MODE_CAPPED) {
			uint64_t rate = nbusy[v->part] ? (uint64_t)pa->entitlement / nbusy[v->part] : pa->entitlement;

			wait = rate >= HVPMU_CEC_PU || !rate
				       ? v->backlog
				       : (uint64_t)((unsigned __int128)v->backlog * (HVPMU_CEC_PU - rate) / rate);
			if (d->used_win[v->part] >= share_w[v->part] && d->win_end - d->tb > wait)
				wait = d->win_end - d->tb;
		} else {
			wait = v->backlog;
		}
		hold(m, d, i, d->tb + wait);
	}
}

/* The link of chip a that leads to chip b, or -1. */
static int link_to(const struct hvpmu_cec *cec, uint32_t a, uint32_t b)
{
	for (int l = 0; l < HVPMU_CEC_NLINKS; l++)
		if (cec->chips[a].link[l] == (int32_t)b)
			return l;
	return -1;
}

/* The links: each line moved between two chips occupies the links of its
 * route (direct, else through a chip linked to both) for DISPATCH_LINE_TB;
 * a link's total cycles are the elapsed timebase, idle the rest. */
static void run_links(struct dispatch *d, uint64_t seg)
{
	const struct hvpmu_cec *cec = d->cec;
	uint32_t n = cec->nchips;

	for (uint32_t a = 0; a < n; a++)
		for (uint32_t b = 0; b < n; b++) {
			uint64_t lines = d->xfer[a * n + b], tb;
			int la, lb;

			if (!lines || a == b)
				continue;
			d->xfer[a * n + b] = 0;
			tb = lines * DISPATCH_LINE_TB;
			la = link_to(cec, a, b);
			lb = link_to(cec, b, a); /* (links are symmetric: hvpmu_cec_check) */
			if (la >= 0 && lb >= 0) {
				d->busy[a * HVPMU_CEC_NLINKS + la] += tb;
				d->busy[b * HVPMU_CEC_NLINKS + lb] += tb;
				continue;
			}
			for (uint32_t k = 0; k < n; k++) { /* two hops: a - k - b */
				int ak = link_to(cec, a, k), ka = link_to(cec, k, a);
				int kb = link_to(cec, k, b), bk = link_to(cec, b, k);

				if (ak < 0 || ka < 0 || kb < 0 || bk < 0)
					continue;
				d->busy[a * HVPMU_CEC_NLINKS + ak] += tb;
				d->busy[k * HVPMU_CEC_NLINKS + ka] += tb;
				d->busy[k * HVPMU_CEC_NLINKS + kb] += tb;
				d->busy[b * HVPMU_CEC_NLINKS + bk] += tb;
				break;
			}
		}
	if (!seg)
		return;
	for (uint32_t c = 0; c < n; c++)
		for (unsigned l = 0; l < HVPMU_CEC_NLINKS; l++) {
			uint64_t *busy = &d->busy[c * HVPMU_CEC_NLINKS + l], used;

			if (cec->chips[c].link[l] == HVPMU_CEC_LINK_NONE)
				continue;
			used = min64(*busy, seg);
			if (hvpmu_cec_stats_link(d->st, c, l, seg - used, seg) == HVPMU_OK)
				*busy -= used; /* a burst beyond the interval shows in the next */
		}
}

static void run_once(struct hvpmu_machine *m, struct dispatch *d, uint64_t now, int quantum);

uint64_t dispatch_time(const struct hvpmu_machine *m)
{
	return m->disp ? m->disp->now : 0;
}

void dispatch_run(struct hvpmu_machine *m, uint64_t now, int quantum)
{
	struct dispatch *d = m->disp;

	if (!d)
		return;
	if (now != UINT64_MAX) {
		run_once(m, d, now, quantum);
		return;
	}
	/* the machine is idle: time runs on to the furthest strand (held
	 * ones included) until no backlog waits (each run serves what the
	 * entitlement earned by then allows; a few runs at most) */
	for (int k = 0; k < 64; k++) {
		uint64_t left = 0, far = 0;

		for (uint32_t i = 0; i < m->nstrands; i++)
			if (time_of(&m->s[i]) > far)
				far = time_of(&m->s[i]);
		run_once(m, d, far, quantum);
		for (uint32_t i = 0; i < d->nvps; i++)
			left += d->vps[i].backlog;
		if (!left)
			break;
	}
}

static void run_once(struct hvpmu_machine *m, struct dispatch *d, uint64_t now, int quantum)
{
	const struct hvpmu_cec *cec = d->cec;
	uint64_t tb, seg;

	/* the strands sync by the next run (a quantum on) and every quantum
	 * after: their %tick, by which the caller's quanta stop them, is fresh */
	if (now > d->now && quantum) { /* (the period: the shortest step seen, the caller's quantum) */
		if (!m->sync_period || now - d->now < m->sync_period)
			m->sync_period = now - d->now;
		m->sync_at = now + m->sync_period;
		d->now = now;
		for (uint32_t i = 0; i < m->nstrands; i++) /* (their next check by the new deadline) */
			if (d->ds[i].vp != NO_PROC && time_of(&m->s[i]))
				machine_schedule(m, &m->s[i]);
	} else if (now > d->now) {
		d->now = now;
	}

	tb = to_tb(d, now);
	if (tb < d->tb)
		tb = d->tb;
	seg = tb - d->tb;
	if (hvpmu_cec_stats_advance(d->st, tb) != HVPMU_OK)
		return;
	d->tb = tb;
	if (tb >= d->win_end) { /* a new dispatch window: the shared partitions' shares start again */
		d->win_end = (tb / d->win_len + 1) * d->win_len;
		memset(d->used_win, 0, sizeof d->used_win);
	}
	/* entitlement earned: elapsed x entitlement (dedicated: its processors) */
	for (uint32_t q = 0; q < cec->npartitions; q++) {
		uint64_t e = (uint64_t)((unsigned __int128)tb * cec->partitions[q].entitlement / HVPMU_CEC_PU);

		if (e > d->fed_ent[q] && hvpmu_cec_stats_entitle(d->st, q, e - d->fed_ent[q]) == HVPMU_OK)
			d->fed_ent[q] = e;
	}
	/* demand: each VP's busy time (its busiest strand) and instructions */
	for (uint32_t i = 0; i < d->nvps; i++) {
		d->vps[i].demand = d->vps[i].backlog;
		d->vps[i].insns = 0;
	}
	{
		uint64_t *most = d->most;

		memset(most, 0, d->nvps * sizeof *most);
		for (uint32_t i = 0; i < m->nstrands; i++) {
			struct dstrand *s = &d->ds[i];
			uint64_t busy, r;

			if (s->vp == NO_PROC)
				continue;
			busy = to_tb(d, time_of(&m->s[i]) - m->s[i].idle);
			r = hvpmu_machine_retired(m, i);
			if (busy > s->busy_tb && busy - s->busy_tb > most[s->vp])
				most[s->vp] = busy - s->busy_tb;
			s->busy_tb = busy > s->busy_tb ? busy : s->busy_tb;
			d->vps[s->vp].insns += r - s->retired;
			s->retired = r;
		}
		for (uint32_t i = 0; i < d->nvps; i++)
			d->vps[i].demand += most[i];
	}
	for (uint32_t p = 0; p < cec->nprocs; p++)
		d->slack[p] = tb - d->purr[p];
	run_dedicated(d);
	run_shared(m, d);
	run_links(d, seg);
}
