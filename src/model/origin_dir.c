/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SGI Origin's directory and Hub MD unit (origin_dir.h,
 * docs/origin-directory.md).  Sources: ../shared/reference/
 * hw-and-hypervisor.md §5.2 (what each MD counter counts), Laudon and
 * Lenoski, "The SGI Origin: a ccNUMA highly scalable server", ISCA 1997
 * (the protocol: a read of an unowned line gets it exclusive, a read of
 * an exclusive line is an intervention to the owner, which answers the
 * requester and sends a revision to the home; a write of a shared line
 * invalidates the sharers; a busy line NACKs, the requester backs off and
 * retries; writebacks are acknowledged).
 */
#include <stdlib.h>
#include <string.h>
#include "origin_dir.h"

enum od_state { OD_UNOWNED = 0, OD_SHARED = 1, OD_EXCL = 2 };

struct od_line {
	uint64_t key;         /* line number + 1; 0: empty slot */
	uint64_t sharers;     /* OD_SHARED: bit per CPU (CPU % 64 beyond 64 CPUs) */
	uint64_t busy_until;  /* Hub cycle until which a transaction holds the line */
	uint32_t owner;       /* OD_EXCL: the owner */
	uint8_t state;
};

struct od_page {
	uint64_t key;         /* page number + 1; 0: empty */
	uint64_t touched;     /* migration: CPUs that made a request to it (CPU % 64) */
	uint64_t stale;       /* ... that did so before it migrated and have not since */
	uint32_t node;        /* its home */
	uint32_t old_node;    /* the home it migrated from (its lines there are poisoned) */
};

/* Migration: a node's requests to a page since it was placed or migrated. */
struct od_refs {
	uint64_t key;         /* (page number << 7 | node) + 1; 0: empty */
	uint64_t n;
};
#define OD_NODE_BITS 7       /* nodes < 128 (hvpmu's limit: 64) */

#define INIT_CAP 4096

_Static_assert(OD_MOQ_RQ == 18 && OD_MOQ_RP == 50, "MMS_RESET_DEFAULTS (0x32 << 8 | 0x12)");
_Static_assert(OD_MOQ_RQ <= OD_MOQ_MAX && OD_MOQ_RP <= OD_MOQ_MAX, "the rings hold either queue");
_Static_assert(OD_FOP_SHIFT == 6, "64-byte fetch-and-op variables (FETCHOP_VAR_SIZE)");

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	return k;
}

int od_init(struct origin_dir *d, uint32_t nodes, uint32_t cpus_per_node, uint64_t cpu_hz, uint64_t hub_hz)
{
	memset(d, 0, sizeof *d);
	if (!nodes || !cpus_per_node || !cpu_hz || !hub_hz)
		return -1;
	d->nodes = nodes;
	d->cpus_per_node = cpus_per_node;
	d->cpu_hz = cpu_hz;
	d->hub_hz = hub_hz;
	d->pages = (struct od_table){ calloc(INIT_CAP, sizeof(struct od_page)), 0, INIT_CAP, sizeof(struct od_page) };
	d->refs = (struct od_table){ calloc(INIT_CAP, sizeof(struct od_refs)), 0, INIT_CAP, sizeof(struct od_refs) };
	d->lines = (struct od_table){ calloc(INIT_CAP, sizeof(struct od_line)), 0, INIT_CAP, sizeof(struct od_line) };
	d->md_free = calloc(nodes, sizeof *d->md_free);
	d->refreshed = calloc(nodes, sizeof *d->refreshed);
	d->fop_cached = calloc(nodes, sizeof *d->fop_cached);
	d->moq = calloc(2 * (size_t)nodes, sizeof *d->moq);
	if (!d->pages.slot || !d->lines.slot || !d->refs.slot || !d->md_free || !d->refreshed || !d->fop_cached ||
	    !d->moq) {
		od_fini(d);
		return -1;
	}
	return 0;
}

void od_fini(struct origin_dir *d)
{
	free(d->pages.slot);
	free(d->lines.slot);
	free(d->refs.slot);
	free(d->md_free);
	free(d->refreshed);
	free(d->fop_cached);
	free(d->moq);
	memset(d, 0, sizeof *d);
}

/* ---- open-addressing tables (linear probing, load <= 1/2) ---- */

static uint64_t key_at(const struct od_table *t, uint64_t i)
{
	uint64_t k;

	memcpy(&k, t->slot + i * t->size, sizeof k);
	return k;
}

/* The slot of `key` (key > 0), a new zeroed one holding the key if it had
 * none (*added = 1), or NULL when the table cannot grow. */
static void *table_slot(struct od_table *t, uint64_t key, int *added)
{
	uint64_t j;

	*added = 0;
	if (2 * (t->n + 1) > t->cap) { /* double, rehashing every key */
		struct od_table g = { calloc(t->cap * 2, t->size), t->n, t->cap * 2, t->size };

		if (!g.slot)
			return NULL;
		for (uint64_t i = 0; i < t->cap; i++) {
			uint64_t k = key_at(t, i);

			if (!k)
				continue;
			for (j = mix(k) & (g.cap - 1); key_at(&g, j); j = (j + 1) & (g.cap - 1))
				;
			memcpy(g.slot + j * g.size, t->slot + i * t->size, t->size);
		}
		free(t->slot);
		*t = g;
	}
	for (j = mix(key) & (t->cap - 1); key_at(t, j) && key_at(t, j) != key; j = (j + 1) & (t->cap - 1))
		;
	if (!key_at(t, j)) {
		memset(t->slot + j * t->size, 0, t->size);
		memcpy(t->slot + j * t->size, &key, sizeof key);
		t->n++;
		*added = 1;
	}
	return t->slot + j * t->size;
}

/* The page of pa, placed on the node of `cpu` if nobody touched it
 * (IRIX's default placement: first touch); NULL without memory. */
static struct od_page *page_of(struct origin_dir *d, uint64_t pa, uint32_t cpu)
{
	int added;
	struct od_page *p = table_slot(&d->pages, (pa >> OD_PAGE_SHIFT) + 1, &added);

	if (p && added)
		p->node = p->old_node = (cpu / d->cpus_per_node) % d->nodes;
	return p;
}

uint32_t od_home(struct origin_dir *d, uint64_t pa, uint32_t cpu)
{
	struct od_page *p = page_of(d, pa, cpu);

	return p ? p->node : (uint32_t)((pa >> OD_PAGE_SHIFT) % d->nodes); /* no memory: interleave */
}

/* The line's entry (unowned when new), or NULL without memory. */
static struct od_line *entry(struct origin_dir *d, uint64_t pa)
{
	int added;

	return table_slot(&d->lines, (pa >> OD_LINE_SHIFT) + 1, &added);
}

static uint64_t bit(uint32_t cpu) { return UINT64_C(1) << (cpu % 64); }

/* ---- the MD unit's time ---- */

static uint64_t to_hub(const struct origin_dir *d, uint64_t cpu_cycles)
{
	return (uint64_t)((unsigned __int128)cpu_cycles * d->hub_hz / d->cpu_hz);
}

/* The MD unit of node h serves an operation of `t` Hub cycles arriving at
 * `at`: it starts when the unit is free; its cycles are busy of `kind`
 * (set 0 counter). */
static void md_serve(struct origin_dir *d, struct hvpmu_origin_md_activity *a, uint32_t h, uint64_t at, unsigned t,
		     unsigned kind)
{
	uint64_t start = at > d->md_free[h] ? at : d->md_free[h];

	d->md_free[h] = start + t;
	a->ev[HVPMU_HUBMD_SET_MEM_CYCLES][kind] += t;
}

/* ---- the MD's outgoing queues (docs/origin-directory.md "Outgoing queues") ---- */

/* The request being served is at node h, arriving at Hub cycle at: its
 * messages enter h's queues then, or when the MD is next free. */
static void serving(struct origin_dir *d, uint32_t h, uint64_t at)
{
	d->cur_node = h;
	d->cur_at = at;
}

static uint64_t queue_time(const struct origin_dir *d)
{
	uint64_t f = d->md_free[d->cur_node];

	return d->cur_at > f ? d->cur_at : f;
}

/* The messages that have left queue q by Hub cycle e leave it. */
static void moq_drain(struct od_moq *q, uint64_t e)
{
	while (q->n && q->leave[q->head] <= e) {
		q->head = (q->head + 1) % OD_MOQ_MAX;
		q->n--;
	}
}

/* A message entering q at e that takes `cycles` to leave, after the ones before it. */
static void moq_push(struct od_moq *q, uint64_t e, unsigned cycles)
{
	q->last = (q->last > e ? q->last : e) + cycles;
	q->leave[(q->head + q->n) % OD_MOQ_MAX] = q->last;
	q->n++;
}

/* A reply (set 1 counter `ctr`) of the request being served: counted and
 * queued; with the reply queue full the MD waits until the oldest leaves
 * (set 0 blocked cycles, "no output queue space"). */
static void reply(struct origin_dir *d, struct hvpmu_origin_md_activity *a, unsigned ctr, unsigned cycles)
{
	struct od_moq *q = &d->moq[2 * d->cur_node + 1];
	uint64_t e = queue_time(d);

	a->ev[HVPMU_HUBMD_SET_OUTMSG][ctr]++;
	moq_drain(q, e);
	if (q->n >= OD_MOQ_RP) {
		uint64_t w = q->leave[q->head] - e;

		a->ev[HVPMU_HUBMD_SET_MEM_CYCLES][HVPMU_HUBMD_MEM_BLOCKED] += w;
		e += w;
		d->md_free[d->cur_node] = e; /* the MD goes on when the message is queued */
		moq_drain(q, e);
	}
	moq_push(q, e, cycles);
}

/* k interventions or invalidations of the request being served: 1 when
 * the request queue has room for them all (queued, set 1 counter 0);
 * else 0 and a backoff reply instead (set 1 counter 1): the requester
 * sends them itself (the Origin's deadlock avoidance). */
static int requests(struct origin_dir *d, struct hvpmu_origin_md_activity *a, unsigned k)
{
	struct od_moq *q = &d->moq[2 * d->cur_node];
	uint64_t e = queue_time(d);

	moq_drain(q, e);
	if (q->n + k > OD_MOQ_RQ) {
		reply(d, a, HVPMU_HUBMD_OUT_BACKOFF, OD_MSG_HDR);
		return 0;
	}
	for (unsigned i = 0; i < k; i++)
		moq_push(q, e, OD_MSG_HDR);
	a->ev[HVPMU_HUBMD_SET_OUTMSG][HVPMU_HUBMD_OUT_INTERV_INVAL] += k;
	return 1;
}

void od_refresh(struct origin_dir *d, uint32_t n, uint64_t hub_now, struct hvpmu_origin_md_activity *act)
{
	uint64_t from = d->refreshed[n] / OD_REFRESH_PERIOD, to = hub_now / OD_REFRESH_PERIOD;

	if (n >= d->nodes || hub_now <= d->refreshed[n])
		return;
	act->ev[HVPMU_HUBMD_SET_MEM_CYCLES][HVPMU_HUBMD_MEM_REFRESH] += (to - from) * OD_REFRESH_CYCLES;
	d->refreshed[n] = hub_now;
}

/* ---- a request ---- */

/* A directory event of CPU `cpu`, and its hit twin when the CPU's
 * secondary cache held the line (`holders`, od_request()). */
static void cpu_event(struct origin_dir *d, uint32_t cpu, enum hvpmu_dir_event e, enum hvpmu_dir_event hit,
		      uint64_t holders)
{
	if (!d->cpu_event)
		return;
	d->cpu_event(d->cpu_event_ctx, cpu, e);
	if (hit != e && (holders & bit(cpu)))
		d->cpu_event(d->cpu_event_ctx, cpu, hit);
}

static void invalidate(struct origin_dir *d, struct hvpmu_origin_md_activity *a, uint64_t others, uint64_t holders);

/* Send invalidations to every sharer but `cpu`: one to each CPU the
 * sharer vector lists (CPU % 64 beyond 64 CPUs: the CPUs below 64 are
 * told, a coarse vector's choice). */
static void invalidate_sharers(struct origin_dir *d, struct hvpmu_origin_md_activity *a, const struct od_line *l,
			       uint32_t cpu, uint64_t holders)
{
	invalidate(d, a, l->sharers & ~bit(cpu), holders);
}

/* Send an invalidation to each CPU of `others` (bit per CPU). */
static void invalidate(struct origin_dir *d, struct hvpmu_origin_md_activity *a, uint64_t others, uint64_t holders)
{
	unsigned n = (unsigned)__builtin_popcountll(others);

	if (n && requests(d, a, n)) /* else the requester sends them (backoff): the CPUs get them all the same */
		a->ev[HVPMU_HUBMD_SET_INVAL][HVPMU_HUBMD_INV_INVAL] += n;
	for (; others; others &= others - 1)
		cpu_event(d, (uint32_t)__builtin_ctzll(others), HVPMU_DIREV_EXT_INVAL, HVPMU_DIREV_EXT_INVAL_HIT,
			  holders);
}

/* An intervention to the owner (read-shared or read-exclusive): the
 * owner answers the requester and sends a revision to the home; the line
 * is busy meanwhile. */
static void intervene(struct origin_dir *d, struct hvpmu_origin_md_activity *a, struct od_line *l, int exclusive,
		      uint64_t at, uint64_t holders)
{
	if (requests(d, a, 1))
		a->ev[HVPMU_HUBMD_SET_INVAL][exclusive ? HVPMU_HUBMD_INV_INTERV_RDEX : HVPMU_HUBMD_INV_INTERV_RDSH]++;
	a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_REVISION]++;
	cpu_event(d, l->owner, HVPMU_DIREV_EXT_INTERV, HVPMU_DIREV_EXT_INTERV_HIT, holders);
	l->busy_until = at + OD_T_INTERV;
}

/* ---- page migration (docs/origin-directory.md "Migration") ---- */

/* The requests of node n to page p since it was placed or migrated; NULL
 * without memory. */
static uint64_t *refs(struct origin_dir *d, const struct od_page *p, uint32_t n)
{
	int added;
	struct od_refs *r = table_slot(&d->refs, (((p->key - 1) << OD_NODE_BITS) | n) + 1, &added);

	return r ? &r->n : NULL;
}

/* A request of CPU `cpu` through a translation of page p made before the
 * page migrated: the old home's directory entry is poisoned.  The read
 * finds the poisoned state and gets an error reply (IRIX then gives the
 * CPU the new translation: lazy TLB shootdown); the request is then made
 * at the new home. */
static void poisoned(struct origin_dir *d, struct hvpmu_origin_md_activity *act, struct od_page *p, uint32_t cpu,
		     uint64_t at)
{
	struct hvpmu_origin_md_activity *a = &act[p->old_node];

	if (cpu / d->cpus_per_node == p->old_node)
		a->ev[HVPMU_HUBMD_SET_LOCAL_REQ][cpu % 2 ? HVPMU_HUBMD_LOCAL_CPU1_READS : HVPMU_HUBMD_LOCAL_CPU0_READS]++;
	a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_READS]++;
	a->ev[HVPMU_HUBMD_SET_DIR_STATE][HVPMU_HUBMD_DIR_POISONED]++;
	serving(d, p->old_node, at);
	reply(d, a, HVPMU_HUBMD_OUT_OTHER, OD_MSG_HDR); /* the error reply */
	md_serve(d, a, p->old_node, at, OD_T_DIR, HVPMU_HUBMD_MEM_DIR_BUSY);
	p->stale &= ~bit(cpu);
}

/* Count a request of CPU `cpu` to page p at its home; when the requests
 * of the CPU's node exceed the home node's by more than the threshold,
 * the page migrates there: every CPU that made a request to it holds a
 * translation of the old page (stale), its node counts start again. */
static void migration_count(struct origin_dir *d, struct od_page *p, uint32_t cpu)
{
	uint32_t n = (cpu / d->cpus_per_node) % d->nodes;
	uint64_t *c = refs(d, p, n), mine;

	p->touched |= bit(cpu);
	if (!c)
		return;
	mine = ++*c;
	/* (each refs() may grow the table: no pointer is kept across one) */
	if (n == p->node || !(c = refs(d, p, p->node)) || mine <= *c + d->mig_threshold)
		return;
	for (uint32_t k = 0; k < d->nodes && k < (1u << OD_NODE_BITS); k++)
		if ((c = refs(d, p, k)))
			*c = 0;
	p->old_node = p->node;
	p->node = n;
	p->stale = p->touched;
}

uint64_t od_request(struct origin_dir *d, struct hvpmu_origin_md_activity *act, uint32_t cpu, uint64_t pa,
		    enum od_req r, uint64_t now, uint64_t holders)
{
	struct od_page *p = d->mig_threshold && !d->kernel_ref ? page_of(d, pa, cpu) : NULL;
	uint64_t at = to_hub(d, now), waited = 0;
	uint32_t h, local;
	struct hvpmu_origin_md_activity *a;
	struct od_line *l;
	unsigned lc = cpu % 2 ? HVPMU_HUBMD_LOCAL_CPU1_READS : HVPMU_HUBMD_LOCAL_CPU0_READS;

	/* migration: a translation from before the page moved (not a
	 * writeback: it names the line by its physical address) */
	if (p && r != OD_WB && (p->stale & bit(cpu)))
		poisoned(d, act, p, cpu, at);
	h = od_home(d, pa, cpu);
	local = cpu / d->cpus_per_node == h;
	a = &act[h];
	if (!(l = entry(d, pa)))
		return 0;
	if (p && r != OD_WB)
		migration_count(d, p, cpu);
	serving(d, h, at);
	if (r == OD_WB) {
		/* the data and the directory written; acknowledged */
		a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_WRITE_REPLIES]++;
		reply(d, a, HVPMU_HUBMD_OUT_WB_ACK, OD_MSG_HDR);
		if (local)
			a->ev[HVPMU_HUBMD_SET_LOCAL_REQ][lc + 1]++; /* cpuN_wb follows cpuN_reads */
		md_serve(d, a, h, at, OD_T_MEMDIR, HVPMU_HUBMD_MEM_MEMDIR_BUSY);
		if (l->state == OD_EXCL && l->owner == cpu)
			l->state = OD_UNOWNED;
		return 0;
	}
	if (r == OD_UPGRADE && l->state == OD_EXCL && l->owner == cpu) {
		/* clean-exclusive to dirty in the R10000: no message */
		cpu_event(d, cpu, HVPMU_DIREV_ST_CLEAN_EXCL, HVPMU_DIREV_ST_CLEAN_EXCL, 0);
		return 0;
	}
	if (r == OD_UPGRADE) /* the CPU holds it shared: it asks the home */
		cpu_event(d, cpu, HVPMU_DIREV_ST_SHARED, HVPMU_DIREV_ST_SHARED, 0);
	/* a transaction holds the line: NACK, back off, retry when it is done */
	if (at < l->busy_until) {
		reply(d, a, HVPMU_HUBMD_OUT_NACK, OD_MSG_HDR);
		a->ev[HVPMU_HUBMD_SET_DIR_STATE][HVPMU_HUBMD_DIR_BUSY]++;
		md_serve(d, a, h, at, OD_T_DIR, HVPMU_HUBMD_MEM_DIR_BUSY);
		waited = (uint64_t)((unsigned __int128)(l->busy_until - at) * d->cpu_hz / d->hub_hz);
		at = l->busy_until;
		serving(d, h, at);
	}
	if (local)
		a->ev[HVPMU_HUBMD_SET_LOCAL_REQ][lc]++;
	if (r == OD_UPGRADE && l->state == OD_SHARED) {
		a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_MISC]++;
		invalidate_sharers(d, a, l, cpu, holders);
		reply(d, a, HVPMU_HUBMD_OUT_RESPONSE, OD_MSG_HDR); /* the upgrade's ack */
		md_serve(d, a, h, at, OD_T_DIR, HVPMU_HUBMD_MEM_DIR_BUSY);
		l->state = OD_EXCL;
		l->owner = cpu;
		return waited;
	}
	/* a read or read-exclusive (an upgrade of a line the directory no
	 * longer lists for the CPU is one) */
	a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_READS]++;
	reply(d, a, HVPMU_HUBMD_OUT_RESPONSE, OD_MSG_DATA); /* the line (speculative when owned) */
	switch (l->state) {
	case OD_UNOWNED:
		a->ev[HVPMU_HUBMD_SET_DIR_STATE][HVPMU_HUBMD_DIR_UNOWNED]++;
		md_serve(d, a, h, at, OD_T_MEMDIR, HVPMU_HUBMD_MEM_MEMDIR_BUSY);
		l->state = OD_EXCL; /* a read of an unowned line gets it exclusive */
		l->owner = cpu;
		break;
	case OD_SHARED:
		a->ev[HVPMU_HUBMD_SET_DIR_STATE][HVPMU_HUBMD_DIR_SHARED]++;
		md_serve(d, a, h, at, OD_T_MEMDIR, HVPMU_HUBMD_MEM_MEMDIR_BUSY);
		if (r == OD_READ) {
			l->sharers |= bit(cpu);
		} else {
			invalidate_sharers(d, a, l, cpu, holders);
			l->state = OD_EXCL;
			l->owner = cpu;
		}
		break;
	default: /* OD_EXCL */
		if (l->owner == cpu) { /* it dropped the line clean, silently */
			a->ev[HVPMU_HUBMD_SET_DIR_STATE][HVPMU_HUBMD_DIR_EXCL_REQUESTER]++;
			md_serve(d, a, h, at, OD_T_MEMDIR, HVPMU_HUBMD_MEM_MEMDIR_BUSY);
			break;
		}
		a->ev[HVPMU_HUBMD_SET_DIR_STATE][HVPMU_HUBMD_DIR_EXCL_OTHER]++;
		md_serve(d, a, h, at, OD_T_DIR, HVPMU_HUBMD_MEM_DIR_BUSY);
		intervene(d, a, l, r != OD_READ, at, holders);
		if (r == OD_READ) {
			l->state = OD_SHARED;
			l->sharers = bit(l->owner) | bit(cpu);
		} else {
			l->owner = cpu;
		}
		break;
	}
	return waited;
}

/* ---- I/O (docs/origin-directory.md "I/O") ---- */

/* The directory state a read found (set 4); memory serves it unless a
 * CPU owns the line. */
static void read_state(struct origin_dir *d, struct hvpmu_origin_md_activity *a, const struct od_line *l, uint32_t h,
		       uint64_t at)
{
	static const unsigned state_ev[] = { [OD_UNOWNED] = HVPMU_HUBMD_DIR_UNOWNED,
					     [OD_SHARED] = HVPMU_HUBMD_DIR_SHARED,
					     [OD_EXCL] = HVPMU_HUBMD_DIR_EXCL_OTHER };

	a->ev[HVPMU_HUBMD_SET_DIR_STATE][state_ev[l->state]]++;
	if (l->state != OD_EXCL)
		md_serve(d, a, h, at, OD_T_MEMDIR, HVPMU_HUBMD_MEM_MEMDIR_BUSY);
}

/* An uncached intervention to the owner for the I/O (read-shared or
 * read-exclusive uncached): the owner answers and sends a revision; the
 * line is busy meanwhile. */
static void intervene_uncached(struct origin_dir *d, struct hvpmu_origin_md_activity *a, struct od_line *l, uint32_t h,
			       int exclusive, uint64_t at, uint64_t holders)
{
	if (requests(d, a, 1))
		a->ev[HVPMU_HUBMD_SET_INVAL][exclusive ? HVPMU_HUBMD_INV_INTERV_RDEX_UNC
							: HVPMU_HUBMD_INV_INTERV_RDSH_UNC]++;
	a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_REVISION]++;
	md_serve(d, a, h, at, OD_T_DIR, HVPMU_HUBMD_MEM_DIR_BUSY);
	cpu_event(d, l->owner, HVPMU_DIREV_EXT_INTERV, HVPMU_DIREV_EXT_INTERV_HIT, holders);
	l->busy_until = at + OD_T_INTERV;
}

uint64_t od_io_request(struct origin_dir *d, struct hvpmu_origin_md_activity *act, uint32_t io, uint64_t pa,
		       enum od_io r, uint64_t now, uint64_t holders)
{
	uint32_t h = od_home(d, pa, io * d->cpus_per_node); /* a page the device touches first: its node's */
	struct hvpmu_origin_md_activity *a = &act[h];
	struct od_line *l = entry(d, pa);
	uint64_t at = to_hub(d, now), drop = 0;

	if (!l)
		return 0;
	serving(d, h, at);
	if (h == io) /* set 5: the node's own I/O */
		a->ev[HVPMU_HUBMD_SET_LOCAL_REQ][r == OD_IO_WINV ? HVPMU_HUBMD_LOCAL_IO_WRINV : HVPMU_HUBMD_LOCAL_IO_READS]++;
	if (at < l->busy_until) { /* NACK, retry when the transaction is done */
		reply(d, a, HVPMU_HUBMD_OUT_NACK, OD_MSG_HDR);
		a->ev[HVPMU_HUBMD_SET_DIR_STATE][HVPMU_HUBMD_DIR_BUSY]++;
		md_serve(d, a, h, at, OD_T_DIR, HVPMU_HUBMD_MEM_DIR_BUSY);
		at = l->busy_until;
		serving(d, h, at);
	}
	if (r == OD_IO_WINV) { /* a whole line written: every copy invalidated */
		uint64_t copies = l->state == OD_EXCL ? bit(l->owner) : l->state == OD_SHARED ? l->sharers : 0;

		a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_WRITE_REPLIES]++;
		reply(d, a, HVPMU_HUBMD_OUT_OTHER, OD_MSG_HDR); /* the write-invalidate's ack */
		invalidate(d, a, copies, holders);
		md_serve(d, a, h, at, OD_T_MEMDIR, HVPMU_HUBMD_MEM_MEMDIR_BUSY);
		l->state = OD_UNOWNED;
		l->sharers = 0;
		return copies;
	}
	/* a read shared or exclusive uncached: the I/O keeps no copy */
	a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_READS]++;
	reply(d, a, HVPMU_HUBMD_OUT_RESPONSE, OD_MSG_DATA); /* an uncached response: the line */
	read_state(d, a, l, h, at);
	if (l->state == OD_EXCL)
		intervene_uncached(d, a, l, h, r == OD_IO_RDEX, at, holders);
	if (r == OD_IO_READ)
		return 0; /* the owner keeps its line, the sharers theirs */
	/* read-exclusive uncached: every copy goes; the device merges its
	 * bytes and writes the line back */
	if (l->state == OD_EXCL) {
		drop = bit(l->owner);
	} else if (l->state == OD_SHARED) {
		invalidate(d, a, l->sharers, holders);
		drop = l->sharers;
	}
	a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_WRITE_REPLIES]++;
	reply(d, a, HVPMU_HUBMD_OUT_WB_ACK, OD_MSG_HDR);
	md_serve(d, a, h, at, OD_T_MEMDIR, HVPMU_HUBMD_MEM_MEMDIR_BUSY);
	l->state = OD_UNOWNED;
	l->sharers = 0;
	return drop;
}

/* ---- fetch-and-op (docs/origin-directory.md "Fetch-and-op") ---- */

void od_fetchop(struct origin_dir *d, struct hvpmu_origin_md_activity *act, uint32_t cpu, uint64_t pa, int store,
		uint64_t now)
{
	uint32_t h = od_home(d, pa, cpu);
	struct hvpmu_origin_md_activity *a = &act[h];
	uint64_t var = (pa >> OD_FOP_SHIFT) + 1;

	if (cpu / d->cpus_per_node == h) /* a request of the node's own CPU */
		a->ev[HVPMU_HUBMD_SET_LOCAL_REQ][cpu % 2 ? HVPMU_HUBMD_LOCAL_CPU1_READS : HVPMU_HUBMD_LOCAL_CPU0_READS]++;
	/* a load returns the variable (an uncached response), a store is acknowledged */
	serving(d, h, to_hub(d, now));
	reply(d, a, store ? HVPMU_HUBMD_OUT_OTHER : HVPMU_HUBMD_OUT_RESPONSE, OD_MSG_HDR);
	if (d->fop_cached[h] == var) {
		a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_FOP_HIT]++;
		md_serve(d, a, h, to_hub(d, now), OD_T_FOP_HIT, HVPMU_HUBMD_MEM_MISC_BUSY);
		return;
	}
	/* the variable comes from memory into the cache (the one it held is
	 * written back with it: one memory operation) */
	a->ev[HVPMU_HUBMD_SET_INMSG][HVPMU_HUBMD_IN_FOP_MISS]++;
	md_serve(d, a, h, to_hub(d, now), OD_T_MEMDIR, HVPMU_HUBMD_MEM_MEMDIR_BUSY);
	d->fop_cached[h] = var;
}
