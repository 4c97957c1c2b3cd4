/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The IRIX kernel personality of the platform services (hvpmu/irix.h):
 * syssgi(SGI_EVENTCTR, MDPERF_*) over each node's Hub MD counters, and the
 * kernel clock whose tick path multiplexes the enabled sets.  Every
 * behaviour follows ../shared/reference/hw-and-hypervisor.md §5.4 (IRIX
 * md_perf.c) and ../shared/specs/irix-mdperf.2; choices where they are
 * silent are in docs/irix-mdperf.md.  The Hub registers are reached over
 * the machine's register bus only (hvpmu/origin_md.h).
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/irix.h>
#include "services_internal.h"

#define NSETS HVPMU_HUBMD_PERF_SETS
#define NCTRS HVPMU_HUBMD_PERF_COUNTERS
#define VALUE_MASK (HVPMU_MD_PERF_REG_OVERFLOW - 1) /* mpr_value: 63 bits */
#define DEFAULT_HZ 100

/* One node's monitoring state (md_perf.c's per-node data). */
struct md_node {
	int dev;                 /* its Hub on the register bus, -1 if none */
	int has_cpu;             /* a CPU of this kernel is on the node */
	int enabled;             /* monitoring on */
	int system;              /* ... as part of system-wide monitoring */
	uint32_t ctrl;           /* md_perf_control_t it was enabled with */
	unsigned cur;            /* the live set */
	uint64_t value[NSETS][NCTRS];
	uint8_t ovf[NSETS][NCTRS];
	int64_t ts[NSETS];       /* lbolt of each set's last collection */
	uint64_t live[NSETS];    /* ticks each set was live (hvpmu's addition) */
	int64_t gen;             /* node generation number */
	int64_t cgen;            /* the generation of the ENABLE that started the
				  * collection its values are from */
};

struct irix {
	unsigned nnodes;         /* maxnodes: the machine's nodes */
	struct md_node *node;
	int system;              /* system-wide monitoring active */
	uint32_t sys_ctrl;
	int64_t gen;             /* global generation number */
	int64_t sys_cgen;        /* the last system ENABLE's generation */
	int sys_held;            /* that collection's values are all still held:
				  * no node ENABLE since its DISABLE */
	int64_t last_ts[NSETS];  /* timestamps of the last node collected */
	uint64_t lbolt, period, deadline;
};

static struct irix *kernel_of(const struct hvpmu_hv *hv, uint32_t strand)
{
	int g;

	if (!hv || hv->ps != &svc_irix || (g = svc_guest_of(hv, strand)) < 0)
		return NULL;
	return hv->g[g].p;
}

/* ---- the Hub, over the register bus ---- */

static void hub_write(struct hvpmu_hv *hv, const struct md_node *nd, unsigned reg, uint64_t v)
{
	hvpmu_machine_bus_write(hv->m, (unsigned)nd->dev, reg, v);
}

static uint64_t hub_read(struct hvpmu_hv *hv, const struct md_node *nd, unsigned reg)
{
	uint64_t v = 0;

	hvpmu_machine_bus_read(hv->m, (unsigned)nd->dev, reg, &v);
	return v;
}

/* Clear the counters and make set `set` live. */
static void hub_start(struct hvpmu_hv *hv, const struct md_node *nd, unsigned set)
{
	for (unsigned i = 0; i < NCTRS; i++)
		hub_write(hv, nd, HVPMU_HUBMD_REG_CNT0 + i, 0);
	hub_write(hv, nd, HVPMU_HUBMD_REG_SEL,
		  HVPMU_FDP(HVPMU_FDP(0, MD_PERF_SEL, SEL, set), MD_PERF_SEL, EN, 1));
}

/* Stop the counters and add them to the live set (§5.4 tick path, first
 * half): overflow when a counter read its peg, the set stamped with lbolt. */
static void collect(struct hvpmu_hv *hv, struct irix *k, struct md_node *nd)
{
	hub_write(hv, nd, HVPMU_HUBMD_REG_SEL, 0);
	for (unsigned i = 0; i < NCTRS; i++) {
		uint64_t v = hub_read(hv, nd, HVPMU_HUBMD_REG_CNT0 + i);

		nd->value[nd->cur][i] = (nd->value[nd->cur][i] + v) & VALUE_MASK;
		if (v == HVPMU_HUBMD_PERF_PEG)
			nd->ovf[nd->cur][i] = 1;
	}
	nd->ts[nd->cur] = (int64_t)k->lbolt;
	memcpy(k->last_ts, nd->ts, sizeof k->last_ts);
}

/* The selected set after `cur`, round robin (ctrl has one in 0..5). */
static unsigned next_set(uint32_t ctrl, unsigned cur)
{
	for (unsigned i = 1; i <= NSETS; i++)
		if (ctrl & (1u << ((cur + i) % NSETS)))
			return (cur + i) % NSETS;
	return cur;
}

static unsigned first_set(uint32_t ctrl)
{
	return (unsigned)__builtin_ctz(ctrl & HVPMU_MD_PERF_SEL_ALL);
}

/* MULTIPLEX_MDPERF_COUNTERS(): one node's tick. */
static void multiplex(struct hvpmu_hv *hv, struct irix *k, struct md_node *nd)
{
	collect(hv, k, nd);
	nd->live[nd->cur]++;
	nd->cur = next_set(nd->ctrl, nd->cur);
	hub_start(hv, nd, nd->cur);
}

/* ---- caller memory ---- */

/* The range's bytes for [ua, ua + n), or NULL. */
static uint8_t *in_range(const struct hvpmu_irix_range *r, uint64_t ua, size_t n)
{
	if (!r || ua < r->base || ua - r->base > r->len || n > r->len - (ua - r->base))
		return NULL;
	return r->mem + (ua - r->base);
}

int hvpmu_irix_range_copyin(void *range, uint64_t ua, void *dst, size_t n)
{
	const uint8_t *p = in_range(range, ua, n);

	if (!p)
		return -1;
	memcpy(dst, p, n);
	return 0;
}

int hvpmu_irix_range_copyout(void *range, uint64_t ua, const void *src, size_t n)
{
	uint8_t *p = in_range(range, ua, n);

	if (!p)
		return -1;
	memcpy(p, src, n);
	return 0;
}

static int get_ctrl(const struct hvpmu_irix_caller *c, uint64_t ptr, uint32_t *ctrl)
{
	uint8_t b[HVPMU_MD_PERF_CONTROL_BYTES];

	if (c->copyin(c->ctx, ptr, b, sizeof b))
		return -1;
	*ctrl = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return 0;
}

static int put_ctrl(const struct hvpmu_irix_caller *c, uint64_t ptr, uint32_t ctrl)
{
	uint8_t b[HVPMU_MD_PERF_CONTROL_BYTES] = { (uint8_t)(ctrl >> 24), (uint8_t)(ctrl >> 16), (uint8_t)(ctrl >> 8),
						   (uint8_t)ctrl };

	return c->copyout(c->ctx, ptr, b, sizeof b);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* md_perf_values_t in the caller's byte order (big-endian MIPS, §5.2). */
static int put_values(const struct hvpmu_irix_caller *c, uint64_t ptr, const uint64_t value[NSETS][NCTRS],
		      const uint8_t ovf[NSETS][NCTRS], const int64_t ts[NSETS])
{
	uint8_t b[HVPMU_MD_PERF_VALUES_BYTES];

	for (unsigned s = 0; s < NSETS; s++)
		for (unsigned i = 0; i < NCTRS; i++)
			put_be64(b + 8 * (s * NCTRS + i),
				 (value[s][i] & VALUE_MASK) | (ovf[s][i] ? HVPMU_MD_PERF_REG_OVERFLOW : 0));
	for (unsigned s = 0; s < NSETS; s++)
		put_be64(b + 8 * (NSETS * NCTRS + s), (uint64_t)ts[s]);
	return c->copyout(c->ctx, ptr, b, sizeof b);
}

void hvpmu_md_perf_values_decode(const uint8_t *buf, struct hvpmu_md_perf_values *out)
{
	for (unsigned s = 0; s < NSETS; s++)
		for (unsigned i = 0; i < NCTRS; i++) {
			uint64_t r = get_be64(buf + 8 * (s * NCTRS + i));

			out->value[s][i] = r & VALUE_MASK;
			out->overflow[s][i] = (r & HVPMU_MD_PERF_REG_OVERFLOW) != 0;
		}
	for (unsigned s = 0; s < NSETS; s++)
		out->timestamp[s] = (int64_t)get_be64(buf + 8 * (NSETS * NCTRS + s));
}

/* ---- the commands ---- */

/* CAP_DEVICE_MGT: held, or the superuser (IRIX's default capability
 * policy grants root every capability: cap_able()). */
static int cap_device_mgt(const struct hvpmu_irix_caller *c)
{
	return (c->caps & HVPMU_IRIX_CAP_DEVICE_MGT) || c->uid == 0;
}

static int fail(struct hvpmu_irix_ret *r, int err)
{
	r->ret = -1;
	r->err = err;
	return HVPMU_OK;
}

static int ok(struct hvpmu_irix_ret *r, int64_t rval)
{
	r->ret = 0;
	r->err = 0;
	r->rval = rval;
	return HVPMU_OK;
}

/* Stop a node's monitoring: last collection, generation up. */
static void node_stop(struct hvpmu_hv *hv, struct irix *k, struct md_node *nd)
{
	collect(hv, k, nd);
	nd->live[nd->cur]++; /* the last, partial period */
	nd->enabled = 0;
	nd->system = 0;
	nd->gen++;
}

/* md_perf node enable's checks, in md_perf.c's order of its errors
 * (§5.4), all before any state changes: a failed ENABLE enables nothing
 * and so clears nothing (irix-mdperf.2 lines 48-50; md_perf.c zeroes the
 * values before its last two checks: docs/irix-mdperf.md).  `system`: a
 * step of the system-wide enable, which checks the system state itself.
 * 0 or an errno. */
static int node_check(const struct irix *k, int node, uint32_t ctrl, int system)
{
	if (node < 0 || (unsigned)node >= k->nnodes || !k->node[node].has_cpu || k->node[node].dev < 0)
		return HVPMU_IRIX_EINVAL;
	if (k->node[node].enabled)
		return HVPMU_IRIX_EBUSY;
	if (!(ctrl & HVPMU_MD_PERF_SEL_ALL))
		return HVPMU_IRIX_EINVAL;
	if (!system && k->system)
		return HVPMU_IRIX_EBUSY;
	return 0;
}

/* Start a node's collection (its checks passed): enabling clears the
 * values (irix-mdperf.2 line 48), the first selected set goes live.  The
 * node's generation increments (a system enable steps every node's, as
 * md_perf.c's node by node enable does); the collection's generation is
 * the one the ENABLE returns: the node's, or `sys_gen` for a system
 * collection (lines 107-111: every collect command returns that number
 * until the counters are enabled again). */
static void node_start(struct hvpmu_hv *hv, struct md_node *nd, uint32_t ctrl, int system, int64_t sys_gen)
{
	memset(nd->value, 0, sizeof nd->value);
	memset(nd->ovf, 0, sizeof nd->ovf);
	memset(nd->live, 0, sizeof nd->live);
	nd->ctrl = ctrl;
	nd->cur = first_set(ctrl);
	nd->enabled = 1;
	nd->system = system;
	nd->gen++;
	nd->cgen = system ? sys_gen : nd->gen;
	hub_start(hv, nd, nd->cur);
}

static int enable(struct hvpmu_hv *hv, struct irix *k, const struct hvpmu_irix_caller *c, int node, uint64_t ptr,
		  struct hvpmu_irix_ret *r)
{
	uint32_t ctrl;
	int err;

	if (node != HVPMU_IRIX_CNODEID_NONE) {
		if (get_ctrl(c, ptr, &ctrl))
			return fail(r, HVPMU_IRIX_EFAULT);
		if ((err = node_check(k, node, ctrl, 0)))
			return fail(r, err);
		node_start(hv, &k->node[node], ctrl, 0, 0);
		k->sys_held = 0; /* the node's part of a system collection is gone */
		return ok(r, k->node[node].gen);
	}
	if (!cap_device_mgt(c))
		return fail(r, HVPMU_IRIX_EPERM);
	if (k->system)
		return fail(r, HVPMU_IRIX_EBUSY);
	for (unsigned n = 0; n < k->nnodes; n++)
		if (k->node[n].enabled)
			return fail(r, HVPMU_IRIX_EBUSY);
	/* every node's checks first (md_perf.c enables node by node and
	 * disables them all on a failure): then nothing can fail */
	if (get_ctrl(c, ptr, &ctrl))
		return fail(r, HVPMU_IRIX_EFAULT);
	for (unsigned n = 0; n < k->nnodes; n++)
		if (k->node[n].has_cpu && (err = node_check(k, (int)n, ctrl, 1)))
			return fail(r, err);
	k->gen++;
	for (unsigned n = 0; n < k->nnodes; n++)
		if (k->node[n].has_cpu) /* nodes without: not of this kernel's system */
			node_start(hv, &k->node[n], ctrl, 1, k->gen);
	k->sys_ctrl = ctrl; /* the same word on every node */
	k->system = 1;
	k->sys_cgen = k->gen;
	k->sys_held = 1;
	return ok(r, k->gen);
}

static int disable(struct hvpmu_hv *hv, struct irix *k, const struct hvpmu_irix_caller *c, int node,
		   struct hvpmu_irix_ret *r)
{
	if (node != HVPMU_IRIX_CNODEID_NONE) {
		struct md_node *nd;

		if (node < 0 || (unsigned)node >= k->nnodes || !k->node[node].enabled)
			return fail(r, -1); /* md_perf.c: a raw -1, not an errno */
		nd = &k->node[node];
		if (nd->system)
			return fail(r, HVPMU_IRIX_EINVAL);
		node_stop(hv, k, nd);
		/* irix-mdperf.2 lines 57-58: "The generation number (that it has
		 * incremented again)"; md_perf.c returns 0 (docs/irix-mdperf.md) */
		return ok(r, nd->gen);
	}
	if (!cap_device_mgt(c))
		return fail(r, HVPMU_IRIX_EPERM);
	if (!k->system)
		return fail(r, HVPMU_IRIX_EINVAL);
	for (unsigned n = 0; n < k->nnodes; n++)
		if (k->node[n].enabled)
			node_stop(hv, k, &k->node[n]);
	k->system = 0; /* its values stay collectable (lines 54-56): sys_held */
	k->gen++;
	return ok(r, k->gen); /* lines 57-58, as for a node */
}

static int get_ctrl_cmd(struct irix *k, const struct hvpmu_irix_caller *c, int node, uint64_t ptr,
			struct hvpmu_irix_ret *r)
{
	const struct md_node *nd;

	if (node == HVPMU_IRIX_CNODEID_NONE) {
		if (!k->system)
			return fail(r, HVPMU_IRIX_EINVAL);
		if (put_ctrl(c, ptr, k->sys_ctrl))
			return fail(r, HVPMU_IRIX_EFAULT);
		return ok(r, k->sys_cgen);
	}
	if (node < 0 || (unsigned)node >= k->nnodes || !k->node[node].enabled)
		return fail(r, HVPMU_IRIX_EINVAL);
	nd = &k->node[node];
	if (put_ctrl(c, ptr, nd->ctrl))
		return fail(r, HVPMU_IRIX_EFAULT);
	return ok(r, nd->cgen); /* line 66: the collection's (lines 107-111) */
}

static int get_count(struct irix *k, const struct hvpmu_irix_caller *c, int node, uint64_t ptr,
		     struct hvpmu_irix_ret *r)
{
	uint64_t value[NSETS][NCTRS];
	uint8_t ovf[NSETS][NCTRS];

	if (node == HVPMU_IRIX_CNODEID_NONE) {
		/* during the system collection and after its DISABLE (lines
		 * 54-56: "so the user may collect them after disabling"), until
		 * an ENABLE clears a node's part of it (line 48) */
		if (!k->system && !k->sys_held) {
			r->rval = -1;
			return fail(r, -1); /* md_perf.c: raw -1, rval -1 */
		}
		memset(value, 0, sizeof value);
		memset(ovf, 0, sizeof ovf);
		for (unsigned n = 0; n < k->nnodes; n++) {
			struct md_node *nd = &k->node[n];

			for (unsigned s = 0; s < NSETS; s++)
				for (unsigned i = 0; i < NCTRS; i++) {
					value[s][i] = (value[s][i] + nd->value[s][i]) & VALUE_MASK;
					ovf[s][i] |= nd->ovf[s][i];
				}
			memset(nd->ovf, 0, sizeof nd->ovf); /* read to clear */
		}
		/* the timestamps are those of the last node collected: "clobbered
		 * for each node's collection" (irix-mdperf.2) */
		if (put_values(c, ptr, (const uint64_t(*)[NCTRS])value, (const uint8_t(*)[NCTRS])ovf, k->last_ts))
			return fail(r, HVPMU_IRIX_EFAULT);
		return ok(r, k->sys_cgen); /* line 75: the collection's (lines 107-111) */
	}
	if (node < 0 || (unsigned)node >= k->nnodes)
		return fail(r, HVPMU_IRIX_EINVAL);
	{
		struct md_node *nd = &k->node[node];

		memcpy(ovf, nd->ovf, sizeof ovf);
		memset(nd->ovf, 0, sizeof nd->ovf); /* read to clear (§5.4) */
		if (put_values(c, ptr, (const uint64_t(*)[NCTRS])nd->value, (const uint8_t(*)[NCTRS])ovf, nd->ts))
			return fail(r, HVPMU_IRIX_EFAULT);
		return ok(r, nd->cgen); /* line 75: the collection's (lines 107-111) */
	}
}

int hvpmu_irix_eventctr(struct hvpmu_hv *hv, uint32_t strand, const struct hvpmu_irix_caller *caller, int64_t cmd,
			int64_t node64, uint64_t ptr, struct hvpmu_irix_ret *r)
{
	struct irix *k = kernel_of(hv, strand);
	int node = (int16_t)(uint16_t)node64; /* cnodeid_t: signed short */

	if (!k || !caller || !caller->copyin || !caller->copyout || !r)
		return HVPMU_EINVAL;
	memset(r, 0, sizeof *r);
	switch (cmd) {
	case HVPMU_MDPERF_NODE_ENABLE: return enable(hv, k, caller, node, ptr, r);
	case HVPMU_MDPERF_NODE_DISABLE: return disable(hv, k, caller, node, r);
	case HVPMU_MDPERF_NODE_GET_CTRL: return get_ctrl_cmd(k, caller, node, ptr, r);
	case HVPMU_MDPERF_NODE_GET_COUNT: return get_count(k, caller, node, ptr, r);
	default: return fail(r, HVPMU_IRIX_EINVAL); /* 259-263 "obsolete", and the rest */
	}
}

/* ---- the clock ---- */

/* The kernel of guest 0 (the one hvpmu/irix.h's queries report), or NULL. */
static const struct irix *kernel0(const struct hvpmu_hv *hv)
{
	return hv && hv->ps == &svc_irix ? hv->g[0].p : NULL;
}

uint64_t hvpmu_irix_lbolt(const struct hvpmu_hv *hv)
{
	const struct irix *k = kernel0(hv);

	return k ? k->lbolt : 0;
}

uint64_t hvpmu_irix_tick_cycles(const struct hvpmu_hv *hv)
{
	const struct irix *k = kernel0(hv);

	return k ? k->period : 0;
}

uint64_t hvpmu_irix_live_ticks(const struct hvpmu_hv *hv, int node, unsigned set)
{
	const struct irix *k = kernel0(hv);

	if (!k || node < 0 || (unsigned)node >= k->nnodes || set >= NSETS)
		return 0;
	return k->node[node].live[set];
}

/* The tick compare of a CPU matched: the system's ticks up to its time
 * (lbolt, the tick path on every monitored node), the next deadline, and
 * the guest's clock trap.  A counter interrupt of the CPU's R10000 goes
 * to the guest as HVPMU_IRIX_TRAP_PERF. */
static void machine_trap(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_trap *t)
{
	struct irix *k = hv->g[guest].p;
	uint64_t now = hvpmu_machine_tick(hv->m, t->strand);
	int ticked = 0;
	struct hvpmu_guest_trap gt = { 0 };

	if (t->tt == HVPMU_TT_DISRUPTING_PERF) { /* IP[7]: the CPU's R10000 counters */
		gt.strand = t->strand;
		gt.tt = HVPMU_IRIX_TRAP_PERF;
		gt.pic_mask = t->pic_mask;
		gt.tpc = t->tpc;
		svc_to_guest_os(hv, guest, &gt);
		return;
	}
	if (t->tt != HVPMU_TT_TIMER)
		return; /* the R10000's counter interrupt is never precise */
	while (now >= k->deadline) {
		k->lbolt++;
		for (unsigned n = 0; n < k->nnodes; n++)
			if (k->node[n].enabled)
				multiplex(hv, k, &k->node[n]);
		k->deadline += k->period;
		ticked = 1;
	}
	hvpmu_machine_set_tick_compare(hv->m, t->strand, k->deadline);
	if (!ticked)
		return;
	gt.strand = t->strand;
	gt.tt = HVPMU_IRIX_TRAP_CLOCK;
	gt.tpc = t->tpc;
	svc_to_guest_os(hv, guest, &gt);
}

static void *guest_create(struct hvpmu_hv *hv, unsigned guest)
{
	const struct hvpmu_md_guest *g = &hv->md->guests[guest];
	uint32_t per_node = hv->md->cores_per_chip * hv->md->strands_per_core;
	struct irix *k = calloc(1, sizeof *k);

	if (!k || !(k->node = calloc(hv->md->chips ? hv->md->chips : 1, sizeof *k->node))) {
		free(k);
		return NULL;
	}
	k->nnodes = hv->md->chips;
	for (unsigned n = 0; n < k->nnodes; n++) {
		struct md_node *nd = &k->node[n];
		uint32_t first = n * per_node;

		nd->dev = hvpmu_machine_device_find(hv->m, HVPMU_DEV_ORIGIN_MD, n);
		nd->has_cpu = first < g->first_strand + g->nstrands && g->first_strand < first + per_node;
	}
	k->period = hv->md->clock_hz / (hv->md->os_hz ? hv->md->os_hz : DEFAULT_HZ);
	if (!k->period)
		k->period = 1;
	k->deadline = k->period;
	for (uint32_t s = g->first_strand; s < g->first_strand + g->nstrands; s++)
		hvpmu_machine_set_tick_compare(hv->m, s, k->deadline);
	return k;
}

static void guest_destroy(void *p)
{
	struct irix *k = p;

	if (k)
		free(k->node);
	free(k);
}

const struct svc_personality svc_irix = {
	.name = "irix",
	.guest_create = guest_create,
	.guest_destroy = guest_destroy,
	.machine_trap = machine_trap,
	.tsb_hit = NULL,
};
