/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CEC statistics device (hvpmu/cec_stats.h): the counters of
 * H_GetPerformanceCounterInfo (../shared/specs/papr-platform-hcalls.xml)
 * kept per processor, partition and chip since CEC boot, fed by the
 * hypervisor's dispatcher and checked against invariants I1-I8 at every
 * feed, read through a register file.  The LAB-only HPMC1-4 are derived
 * from the processor's cumulative counts and their values when MMCRH was
 * last set (docs/papr-gpci.md "MMCRH").
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/error.h>
#include <hvpmu/cec_stats.h>
#include <hvpmu/pmu.h>

struct proc_ctr {
	uint8_t state;
	uint16_t owner;
	uint64_t purr, run_insns, run_cycles;
	/* the cumulative counts when MMCRH was last set */
	uint64_t base_tb, base_purr, base_insns, base_cycles;
};

struct part_ctr {
	uint64_t v[HVPMU_CEC_NPARTITION_FIELDS];
};

struct hvpmu_cec_stats {
	struct hvpmu_cec cec;
	uint64_t tb;
	uint64_t mmcrh;
	struct proc_ctr proc[HVPMU_CEC_MAX_PROCS];
	struct part_ctr part[HVPMU_CEC_MAX_PARTITIONS];
	uint64_t link[HVPMU_CEC_MAX_CHIPS][HVPMU_CEC_NCHIP_FIELDS];
};

/* The HPMC1/2 events (cec_stats.h), as a table: which cumulative count
 * of a processor each one follows. */
enum source { SRC_ZERO, SRC_INSNS, SRC_PURR, SRC_CYCLES, SRC_IDLE };
static const struct {
	uint8_t code;
	enum source src;
} hpmc_events[] = {
	{ HVPMU_CEC_EV_NONE, SRC_ZERO },         { HVPMU_CEC_EV_RUN_INSNS, SRC_INSNS },
	{ HVPMU_CEC_EV_PURR, SRC_PURR },         { HVPMU_CEC_EV_RUN_CYCLES, SRC_CYCLES },
	{ HVPMU_CEC_EV_NOT_DISPATCHED, SRC_IDLE },
};
#define NEVENTS (sizeof hpmc_events / sizeof hpmc_events[0])

static int event_of(uint64_t sel)
{
	for (unsigned i = 0; i < NEVENTS; i++)
		if (hpmc_events[i].code == sel)
			return (int)i;
	return -1;
}

static void mmcrh_set(struct hvpmu_cec_stats *st, uint64_t v)
{
	st->mmcrh = v;
	for (uint32_t i = 0; i < st->cec.nprocs; i++) {
		struct proc_ctr *p = &st->proc[i];

		p->base_tb = st->tb;
		p->base_purr = p->purr;
		p->base_insns = p->run_insns;
		p->base_cycles = p->run_cycles;
	}
}

int hvpmu_cec_stats_configure(struct hvpmu_cec_stats *st, const struct hvpmu_cec *cec)
{
	if (!st || !cec || hvpmu_cec_check(cec, "", NULL, 0))
		return HVPMU_EINVAL;
	memset(st, 0, sizeof *st);
	st->cec = *cec;
	for (uint32_t i = 0; i < cec->nprocs; i++) {
		st->proc[i].state = cec->procs[i].state;
		st->proc[i].owner = cec->procs[i].owner;
	}
	mmcrh_set(st, HVPMU_CEC_MMCRH_BOOT);
	return HVPMU_OK;
}

int hvpmu_cec_stats_create(const struct hvpmu_cec *cec, struct hvpmu_cec_stats **out)
{
	struct hvpmu_cec_stats *st;

	if (!out)
		return HVPMU_EINVAL;
	*out = NULL;
	if (!cec || hvpmu_cec_check(cec, "", NULL, 0))
		return HVPMU_EINVAL;
	if (!(st = calloc(1, sizeof *st)))
		return HVPMU_ENOMEM;
	hvpmu_cec_stats_configure(st, cec);
	*out = st;
	return HVPMU_OK;
}

void hvpmu_cec_stats_destroy(struct hvpmu_cec_stats *st) { free(st); }

/* The machine's chip-wide device (hvpmu/pmu.h): created empty (no CEC:
 * nchips 0, every register out of range), configured by the machine. */
static void *ops_create(void) { return calloc(1, sizeof(struct hvpmu_cec_stats)); }
static void ops_destroy(void *dev) { free(dev); }
const struct hvpmu_uncore_ops hvpmu_cec_stats_ops = {
	.kind = HVPMU_DEV_CEC_STATS,
	.name = "cec-stats",
	.nregs = (unsigned)HVPMU_CEC_NGROUPS << 24, /* sparse: HVPMU_CEC_REG numbers */
	.create = ops_create,
	.destroy = ops_destroy,
	.read = hvpmu_cec_stats_read,
	.write = hvpmu_cec_stats_write,
};

/* A processor's cumulative count that an HPMC event follows. */
static uint64_t source_now(const struct hvpmu_cec_stats *st, const struct proc_ctr *p, enum source s, int base)
{
	switch (s) {
	case SRC_INSNS: return base ? p->base_insns : p->run_insns;
	case SRC_PURR: return base ? p->base_purr : p->purr;
	case SRC_CYCLES: return base ? p->base_cycles : p->run_cycles;
	case SRC_IDLE: return base ? p->base_tb - p->base_purr : st->tb - p->purr;
	case SRC_ZERO: break;
	}
	return 0;
}

static uint64_t since_set(const struct hvpmu_cec_stats *st, const struct proc_ctr *p, enum source s)
{
	if (st->mmcrh == HVPMU_CEC_MMCRH_DISABLED)
		return 0;
	return source_now(st, p, s, 0) - source_now(st, p, s, 1);
}

static uint64_t hpmc_sel(const struct hvpmu_cec_stats *st, const struct proc_ctr *p, uint64_t sel)
{
	int e = event_of(sel);

	return e < 0 ? 0 : since_set(st, p, hpmc_events[e].src);
}

static int read_proc(const struct hvpmu_cec_stats *st, unsigned i, unsigned f, uint64_t *val)
{
	const struct proc_ctr *p = &st->proc[i];

	switch (f) {
	case HVPMU_CEC_P_PURR: *val = p->purr; break;
	case HVPMU_CEC_P_STATE: *val = p->state; break;
	case HVPMU_CEC_P_OWNER: *val = p->owner; break;
	case HVPMU_CEC_P_RUN_INSNS: *val = p->run_insns; break;
	case HVPMU_CEC_P_RUN_CYCLES: *val = p->run_cycles; break;
	case HVPMU_CEC_P_MMCRH: *val = st->mmcrh; break;
	case HVPMU_CEC_P_MMCRH_TB: *val = st->tb - p->base_tb; break;
	case HVPMU_CEC_P_HPMC1: *val = hpmc_sel(st, p, HVPMU_FEX(st->mmcrh, CEC_MMCRH, HPMC1SEL)); break;
	case HVPMU_CEC_P_HPMC2: *val = hpmc_sel(st, p, HVPMU_FEX(st->mmcrh, CEC_MMCRH, HPMC2SEL)); break;
	case HVPMU_CEC_P_HPMC3_SET: *val = since_set(st, p, SRC_INSNS); break;
	case HVPMU_CEC_P_HPMC3: *val = p->run_insns; break;
	case HVPMU_CEC_P_HPMC4_SET: *val = since_set(st, p, SRC_CYCLES); break;
	case HVPMU_CEC_P_HPMC4: *val = p->run_cycles; break;
	default: return HVPMU_ERANGE;
	}
	return HVPMU_OK;
}

int hvpmu_cec_stats_read(const void *dev, unsigned reg, uint64_t *val)
{
	const struct hvpmu_cec_stats *st = dev;
	unsigned g = HVPMU_CEC_REG_GROUP(reg), i = HVPMU_CEC_REG_INDEX(reg), f = HVPMU_CEC_REG_FIELD(reg);

	if (!st || !val)
		return HVPMU_EINVAL;
	switch (g) {
	case HVPMU_CEC_GRP_GLOBAL:
		if (i || f >= HVPMU_CEC_NGLOBAL)
			return HVPMU_ERANGE;
		*val = f == HVPMU_CEC_G_TIMEBASE ? st->tb : st->mmcrh;
		return HVPMU_OK;
	case HVPMU_CEC_GRP_PROC:
		return i < st->cec.nprocs ? read_proc(st, i, f, val) : HVPMU_ERANGE;
	case HVPMU_CEC_GRP_PARTITION:
		if (i >= st->cec.npartitions || f >= HVPMU_CEC_NPARTITION_FIELDS)
			return HVPMU_ERANGE;
		*val = st->part[i].v[f];
		return HVPMU_OK;
	case HVPMU_CEC_GRP_CHIP:
		if (i >= st->cec.nchips || f >= HVPMU_CEC_NCHIP_FIELDS)
			return HVPMU_ERANGE;
		*val = st->link[i][f];
		return HVPMU_OK;
	default:
		return HVPMU_ERANGE;
	}
}

int hvpmu_cec_stats_write(void *dev, unsigned reg, uint64_t val)
{
	struct hvpmu_cec_stats *st = dev;

	if (!st)
		return HVPMU_EINVAL;
	if (reg != HVPMU_CEC_REG(HVPMU_CEC_GRP_GLOBAL, 0, HVPMU_CEC_G_MMCRH))
		return HVPMU_ERANGE;
	if (!hvpmu_cec_mmcrh_valid(val))
		return HVPMU_EINVAL;
	mmcrh_set(st, val);
	return HVPMU_OK;
}

/* ---- the feeder ---- */

int hvpmu_cec_stats_advance(struct hvpmu_cec_stats *st, uint64_t timebase)
{
	if (!st || timebase < st->tb)
		return HVPMU_EINVAL; /* I1 */
	st->tb = timebase;
	return HVPMU_OK;
}

/* The most PURR cycles partition `part` may be entitled to by now (I3):
 * elapsed timebase x entitlement / HVPMU_CEC_PU. */
static unsigned __int128 entitled_max(const struct hvpmu_cec_stats *st, const struct hvpmu_cec_partition *p)
{
	return (unsigned __int128)st->tb * p->entitlement / HVPMU_CEC_PU;
}

int hvpmu_cec_stats_entitle(struct hvpmu_cec_stats *st, unsigned part, uint64_t cycles)
{
	uint64_t *e;

	if (!st)
		return HVPMU_EINVAL;
	if (part >= st->cec.npartitions)
		return HVPMU_ERANGE;
	e = &st->part[part].v[HVPMU_CEC_L_ENTITLED];
	if ((unsigned __int128)*e + cycles > entitled_max(st, &st->cec.partitions[part]))
		return HVPMU_EINVAL; /* I3 */
	*e += cycles;
	return HVPMU_OK;
}

/* 1 if processor state `state` (owner `owner`) may run partition p: I5. */
static int may_run(const struct proc_ctr *pc, const struct hvpmu_cec_partition *p, const struct hvpmu_cec_dispatch *d)
{
	switch (pc->state) {
	case HVPMU_CEC_DEDICATED: /* only its owner, within its entitlement */
		return p->id == pc->owner && d->uncapped == 0;
	case HVPMU_CEC_SHARED: /* shared partitions; uncapped cycles only for uncapped ones */
		return p->mode != HVPMU_CEC_MODE_DEDICATED && (d->uncapped == 0 || p->mode == HVPMU_CEC_MODE_UNCAPPED);
	case HVPMU_CEC_BORROWED: /* lent to uncapped partitions: all its cycles are donated (I6) */
		return p->mode == HVPMU_CEC_MODE_UNCAPPED && d->capped == 0;
	default: /* not installed, guarded off, unlicensed: runs nothing */
		return 0;
	}
}

int hvpmu_cec_stats_dispatch(struct hvpmu_cec_stats *st, const struct hvpmu_cec_dispatch *d)
{
	struct proc_ctr *pc;
	struct part_ctr *ctr;
	const struct hvpmu_cec_partition *p;
	unsigned __int128 used;

	if (!st || !d)
		return HVPMU_EINVAL;
	if (d->proc >= st->cec.nprocs || d->part >= st->cec.npartitions)
		return HVPMU_ERANGE;
	pc = &st->proc[d->proc];
	p = &st->cec.partitions[d->part];
	ctr = &st->part[d->part];
	used = (unsigned __int128)d->capped + d->uncapped;
	if (!may_run(pc, p, d) ||                                                   /* I5, I6 */
	    (unsigned __int128)pc->purr + used > st->tb ||                           /* I2 */
	    (unsigned __int128)ctr->v[HVPMU_CEC_L_CAPPED] + d->capped > ctr->v[HVPMU_CEC_L_ENTITLED] || /* I4 */
	    d->idle > used || d->run_cycles > used)                                  /* I7 */
		return HVPMU_EINVAL;
	/* I2 bounds every sum below by the timebase: none wraps (run
	 * instructions: a processor completes at most a few per cycle) */
	pc->purr += (uint64_t)used;
	pc->run_insns += d->run_insns;
	pc->run_cycles += d->run_cycles;
	ctr->v[HVPMU_CEC_L_CAPPED] += d->capped;
	ctr->v[HVPMU_CEC_L_UNCAPPED] += d->uncapped;
	ctr->v[HVPMU_CEC_L_IDLE] += d->idle;
	ctr->v[HVPMU_CEC_L_RUN_INSNS] += d->run_insns;
	ctr->v[HVPMU_CEC_L_RUN_CYCLES] += d->run_cycles;
	if (pc->state == HVPMU_CEC_BORROWED)
		st->part[hvpmu_cec_partition_index(&st->cec, pc->owner)].v[HVPMU_CEC_L_DONATED] += d->uncapped;
	return HVPMU_OK;
}

int hvpmu_cec_stats_lend(struct hvpmu_cec_stats *st, unsigned proc, int lend)
{
	struct proc_ctr *pc;
	int owner;

	if (!st)
		return HVPMU_EINVAL;
	if (proc >= st->cec.nprocs)
		return HVPMU_ERANGE;
	pc = &st->proc[proc];
	owner = hvpmu_cec_partition_index(&st->cec, pc->owner);
	if (pc->state != (lend ? HVPMU_CEC_DEDICATED : HVPMU_CEC_BORROWED) || owner < 0 ||
	    !st->cec.partitions[owner].donating)
		return HVPMU_EINVAL;
	pc->state = lend ? HVPMU_CEC_BORROWED : HVPMU_CEC_DEDICATED;
	return HVPMU_OK;
}

int hvpmu_cec_stats_link(struct hvpmu_cec_stats *st, unsigned chip, unsigned link, uint64_t idle, uint64_t total)
{
	uint64_t *c;

	if (!st)
		return HVPMU_EINVAL;
	if (chip >= st->cec.nchips || link >= HVPMU_CEC_NLINKS || st->cec.chips[chip].link[link] == HVPMU_CEC_LINK_NONE)
		return HVPMU_ERANGE;
	c = st->link[chip];
	if (idle > total || (unsigned __int128)c[HVPMU_CEC_C_LINK_TOTAL(link)] + total > st->tb)
		return HVPMU_EINVAL; /* I8 */
	c[HVPMU_CEC_C_LINK_IDLE(link)] += idle;
	c[HVPMU_CEC_C_LINK_TOTAL(link)] += total;
	return HVPMU_OK;
}
