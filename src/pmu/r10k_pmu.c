/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MIPS R10000 performance counters: PerfControl0/1 and PerfCount0/1 of
 * CP0 register 25, the 32 events as data, and the map from the machine's
 * generic instruction classes and model events to them.
 * Sources (hvpmu/r10k_pmu.h, docs/r10k-counters.md): [UM] R10000 User's
 * Manual v2.0 §14.20 (32-bit counters, IP[7] when bit 31 becomes one with
 * IE, counting continues; Figure 14-22 EXL/K/S/U/IE/Event; Table 14-18),
 * §14.32 (MFPC/MTPC/MFPS/MTPS, registers 0 and 1 only); [BU] binutils
 * mips-opc.c (function bits); [LX] Linux mipsregs.h (CE0_, CE1_, CEB_ names) and
 * perf_event_mipsxx.c; [IR] IRIX r10k_counters(5) event names.
 * Semantics: hvpmu/r10k_pmu.h.
 */
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/r10k_pmu.h>

_Static_assert(HVPMU_R10K_PERFCTL_IMPL_MASK ==
		       (HVPMU_FMASK(R10K_PERFCTL, EXL) | HVPMU_FMASK(R10K_PERFCTL, K) | HVPMU_FMASK(R10K_PERFCTL, S) |
			HVPMU_FMASK(R10K_PERFCTL, U) | HVPMU_FMASK(R10K_PERFCTL, IE) |
			HVPMU_FMASK(R10K_PERFCTL, EVENT)),
	       "implemented control bits are exactly the named fields");
_Static_assert((1u << R10K_PERFCTL_EVENT_LEN) == HVPMU_R10K_EVENTS_PER_COUNTER, "4-bit event field");
_Static_assert(HVPMU_R10K_NCOUNTERS * HVPMU_R10K_EVENTS_PER_COUNTER == HVPMU_R10K_NEVENTS, "32 events");
_Static_assert(HVPMU_NMEV <= 64, "memory events fit a 64-bit mask");

#define MEV(e) (UINT64_C(1) << (e))
#define COUNT_WRAP (UINT64_C(1) << 32)

/* Where an event's count comes from. */
enum source {
	SRC_NONE = 0, /* the model does not produce it: counts 0, not supported */
	SRC_ZERO,     /* never happens in the model (no ECC errors): 0, supported */
	SRC_CYCLES,   /* cycles of the counted modes */
	SRC_INSN,     /* retired instructions of the classes with any of `iany` */
	SRC_MEV,      /* sum of the memory events `mevs`, times `mult` */
	SRC_MISPRED,  /* mispredicted control transfers */
	SRC_DIR,      /* the directory event `dir` (hvpmu/machine.h enum hvpmu_dir_event) */
};

struct r10k_event {
	const char *name; /* [IR], spaces as underscores */
	const char *desc; /* what the model counts (hvpmu list) */
	uint8_t src;
	uint8_t mult;
	uint8_t needs;    /* HVPMU_R10K_NEEDS_* */
	uint32_t iany;
	uint64_t mevs;
	uint8_t dir;
};

/* Loads in the R10000's sense: [LX] CE0_LPSC_ISSUED / CE1_LPSC_GRADUATED,
 * loads, prefetches, syncs and cache operations.  The MIPS64 decoder
 * marks SYNC, and only SYNC, HVPMU_IC_NTC (docs/mips64-isa.md); CACHE is
 * privileged and never runs in the program. */
#define LPSC (HVPMU_IC_LOAD | HVPMU_IC_PREFETCH | HVPMU_IC_NTC)
#define ICM_L1 (MEV(HVPMU_MEV_IC_MISS_L2L3) | MEV(HVPMU_MEV_IC_MISS_MEM) | MEV(HVPMU_MEV_IC_MISS_REMOTE))
#define ICM_L2 (MEV(HVPMU_MEV_IC_MISS_MEM) | MEV(HVPMU_MEV_IC_MISS_REMOTE))
#define DCM_L1 (MEV(HVPMU_MEV_DC_MISS_L2L3) | MEV(HVPMU_MEV_DC_MISS_MEM) | MEV(HVPMU_MEV_DC_MISS_REMOTE) | \
		MEV(HVPMU_MEV_DC_MISS_SPECIAL))
#define DCM_L2 (MEV(HVPMU_MEV_DC_MISS_MEM) | MEV(HVPMU_MEV_DC_MISS_REMOTE) | MEV(HVPMU_MEV_ST_MEM) | \
		MEV(HVPMU_MEV_ST_REMOTE) | MEV(HVPMU_MEV_ST_L2_LOCAL_C2C) | MEV(HVPMU_MEV_ST_L2_REMOTE_C2C))
/* [UM] 128-byte secondary-cache lines (the Origin's, md.c): 8 quadwords. */
#define QW_PER_L2_LINE 8

#define NOT_MODELED(nm, why) { nm, "not modeled: " why, SRC_NONE, 0, 0, 0, 0, 0 }
#define INSN(nm, d, any) { nm, d, SRC_INSN, 1, 0, any, 0, 0 }
#define MEMEV(nm, d, m, k) { nm, d, SRC_MEV, k, HVPMU_R10K_NEEDS_MEMORY, 0, m, 0 }
/* Requests the home Hub's directory sends to the CPU's secondary cache,
 * and what the CPU's stores find there (src/model/origin_dir.c,
 * docs/origin-directory.md "What each CPU sees"). */
#define DIREV(nm, d, e) { nm, d, SRC_DIR, 1, HVPMU_R10K_NEEDS_MEMORY, 0, 0, e }
#define CYCLES { "Cycles", "cycles of the counted modes (with the memory model's latencies)", SRC_CYCLES, 1, \
		 HVPMU_R10K_NEEDS_MEMORY, 0, 0, 0 }
#define GRAD_INSNS INSN("Graduated_instructions", "every retired instruction", HVPMU_IC_GROUPS)

/* [UM] Table 14-18, [LX] CE0_* (0-15) and CE1_* (16-31), [IR] names. */
static const struct r10k_event events[HVPMU_R10K_NEVENTS] = {
	/* counter 0 */
	[0] = CYCLES,
	[1] = NOT_MODELED("Issued_instructions", "issue slots by functional unit ([UM] rules)"),
	[2] = INSN("Issued_loads", "loads, prefetches, syncs (no wrong path or re-issue: as graduated)", LPSC),
	[3] = INSN("Issued_stores", "stores, SC included (no wrong path: as graduated)", HVPMU_IC_STORE),
	[4] = INSN("Issued_store_conditionals", "SC/SCD (as graduated)", HVPMU_IC_STORE_COND),
	[5] = NOT_MODELED("Failed_store_conditionals", "the model does not see an SC's outcome"),
	[6] = INSN("Decoded_branches", "every retired control transfer (no wrong path)", HVPMU_IC_BRANCH),
	[7] = MEMEV("Quadwords_written_back_from_scache", "8 per dirty L2 line evicted", MEV(HVPMU_MEV_L2_DIRTY_EVICT),
		    QW_PER_L2_LINE),
	[8] = { "Correctable_scache_data_array_ECC_errors", "the model has no ECC errors: 0", SRC_ZERO, 0, 0, 0, 0, 0 },
	[9] = MEMEV("Primary_instruction_cache_misses", "L1I misses", ICM_L1, 1),
	[10] = MEMEV("Secondary_instruction_cache_misses", "L1I misses that miss L2", ICM_L2, 1),
	[11] = NOT_MODELED("Instruction_misprediction_from_scache_way_prediction_table", "no way predictor"),
	[12] = DIREV("External_interventions", "interventions the home Hub sent to this CPU (directory model)",
		     HVPMU_DIREV_EXT_INTERV),
	[13] = DIREV("External_invalidations", "invalidations the home Hub sent to this CPU (directory model)",
		     HVPMU_DIREV_EXT_INVAL),
	/* [UM]: a primary-cache index uses VA bits 13:12, beyond a 4 KB page; the
	 * Origin's pages are 16 KB (IRIX's; the model's frame groups keep PA bits
	 * 13:0 = VA bits 13:0, docs/tlb-model.md): no alias, exactly 0 */
	[14] = { "Virtual_coherency_conditions", "16 KB pages: the L1 index never differs from the physical one: 0",
		 SRC_ZERO, 0, 0, 0, 0, 0 },
	[15] = GRAD_INSNS,
	/* counter 1 */
	[16] = CYCLES,
	[17] = GRAD_INSNS,
	[18] = INSN("Graduated_loads", "loads, prefetches, syncs ([LX] LPSC)", LPSC),
	[19] = INSN("Graduated_stores", "stores, SC included", HVPMU_IC_STORE),
	[20] = INSN("Graduated_store_conditionals", "SC/SCD", HVPMU_IC_STORE_COND),
	[21] = INSN("Graduated_floating_point_instructions", "floating-point instructions", HVPMU_IC_FP),
	[22] = NOT_MODELED("Quadwords_written_back_from_primary_data_cache", "the L1D model writes through"),
	[23] = NOT_MODELED("TLB_misses", "no MIPS software-refilled TLB in the model"),
	[24] = { "Mispredicted_branches", "mispredicts of the model's predictor (docs/branch-prediction.md)",
		 SRC_MISPRED, 1, HVPMU_R10K_NEEDS_BRANCHES, 0, 0, 0 },
	[25] = MEMEV("Primary_data_cache_misses", "L1D misses of loads and prefetches", DCM_L1, 1),
	[26] = MEMEV("Secondary_data_cache_misses", "L2 misses of loads and stores", DCM_L2, 1),
	[27] = NOT_MODELED("Data_misprediction_from_scache_way_prediction_table", "no way predictor"),
	[28] = DIREV("External_intervention_hits_in_scache", "interventions to this CPU that found the line in its L2",
		     HVPMU_DIREV_EXT_INTERV_HIT),
	[29] = DIREV("External_invalidation_hits_in_scache", "invalidations to this CPU that found the line in its L2",
		     HVPMU_DIREV_EXT_INVAL_HIT),
	[30] = DIREV("Store/prefetch_exclusive_to_clean_block_in_scache",
		     "stores to a line this CPU's L2 holds clean exclusive (no message)", HVPMU_DIREV_ST_CLEAN_EXCL),
	[31] = DIREV("Store/prefetch_exclusive_to_shared_block_in_scache",
		     "stores to a line this CPU's L2 holds shared (an upgrade request)", HVPMU_DIREV_ST_SHARED),
};

const char *hvpmu_r10k_event_name(unsigned ev) { return ev < HVPMU_R10K_NEVENTS ? events[ev].name : NULL; }
const char *hvpmu_r10k_event_desc(unsigned ev) { return ev < HVPMU_R10K_NEVENTS ? events[ev].desc : NULL; }
int hvpmu_r10k_event_supported(unsigned ev) { return ev < HVPMU_R10K_NEVENTS && events[ev].src != SRC_NONE; }
unsigned hvpmu_r10k_event_needs(unsigned ev) { return ev < HVPMU_R10K_NEVENTS ? events[ev].needs : 0; }

int hvpmu_r10k_event_twin(unsigned ev)
{
	switch (ev) {
	case HVPMU_R10K_EV_CYCLES0: return HVPMU_R10K_EV_CYCLES1;
	case HVPMU_R10K_EV_CYCLES1: return HVPMU_R10K_EV_CYCLES0;
	case HVPMU_R10K_EV_GRAD_INSNS0: return HVPMU_R10K_EV_GRAD_INSNS1;
	case HVPMU_R10K_EV_GRAD_INSNS1: return HVPMU_R10K_EV_GRAD_INSNS0;
	default: return -1;
	}
}

struct hvpmu_r10k_pmu {
	const uint32_t *class_flags;
	uint32_t ctl[HVPMU_R10K_NCOUNTERS];   /* implemented bits only */
	uint32_t count[HVPMU_R10K_NCOUNTERS];
};

struct hvpmu_r10k_pmu *hvpmu_r10k_pmu_create(const uint32_t *class_flags)
{
	struct hvpmu_r10k_pmu *pmu;

	if (!class_flags)
		return NULL;
	pmu = calloc(1, sizeof *pmu);
	if (pmu)
		pmu->class_flags = class_flags;
	return pmu;
}

void hvpmu_r10k_pmu_destroy(struct hvpmu_r10k_pmu *pmu) { free(pmu); }

/* MFC0/MTC0: privileged; registers 0 and 1 only [UM §14.32]. */
static int access_ok(enum hvpmu_mode mode, uint64_t sel, unsigned *num)
{
	if (mode != HVPMU_MODE_USER && mode != HVPMU_MODE_PRIV && mode != HVPMU_MODE_HYPER)
		return HVPMU_EINVAL;
	if (mode == HVPMU_MODE_USER)
		return HVPMU_ETRAP;
	if (sel >> (R10K_PERFSEL_NUM_SHIFT + R10K_PERFSEL_NUM_LEN) ||
	    (*num = (unsigned)HVPMU_FEX(sel, R10K_PERFSEL, NUM)) >= HVPMU_R10K_NCOUNTERS)
		return HVPMU_ERANGE;
	return HVPMU_OK;
}

int hvpmu_r10k_read(const struct hvpmu_r10k_pmu *pmu, enum hvpmu_mode mode, uint64_t sel, uint64_t *val)
{
	unsigned n = 0;
	int rc = access_ok(mode, sel, &n);

	if (rc == HVPMU_OK)
		*val = HVPMU_FEX(sel, R10K_PERFSEL, COUNTER) ? pmu->count[n] : pmu->ctl[n];
	return rc;
}

int hvpmu_r10k_write(struct hvpmu_r10k_pmu *pmu, enum hvpmu_mode mode, uint64_t sel, uint64_t val)
{
	unsigned n = 0;
	int rc = access_ok(mode, sel, &n);

	if (rc != HVPMU_OK)
		return rc;
	if (HVPMU_FEX(sel, R10K_PERFSEL, COUNTER))
		pmu->count[n] = (uint32_t)(val & HVPMU_R10K_COUNT_MASK);
	else
		pmu->ctl[n] = (uint32_t)(val & HVPMU_R10K_PERFCTL_IMPL_MASK);
	return HVPMU_OK;
}

static const struct r10k_event *event_of(const struct hvpmu_r10k_pmu *pmu, unsigned n)
{
	return &events[n * HVPMU_R10K_EVENTS_PER_COUNTER + HVPMU_FEX(pmu->ctl[n], R10K_PERFCTL, EVENT)];
}

/* Does counter n count activity of machine mode `mode`?  U counts the
 * program (user mode), K the kernel path (privileged); nothing runs in
 * supervisor mode or at exception level, nothing is counted in
 * hyperprivileged mode (hvpmu/r10k_pmu.h "Modes"). */
static int counts_mode(uint32_t ctl, enum hvpmu_mode mode)
{
	return mode == HVPMU_MODE_USER ? HVPMU_FEX(ctl, R10K_PERFCTL, U) != 0 :
	       mode == HVPMU_MODE_PRIV ? HVPMU_FEX(ctl, R10K_PERFCTL, K) != 0 : 0;
}

/* Events of the feed for counter n. */
static uint64_t feed_events(const struct hvpmu_r10k_pmu *pmu, unsigned n, const struct hvpmu_pmu_feed *f)
{
	const struct r10k_event *e = event_of(pmu, n);
	uint32_t ctl = pmu->ctl[n];
	uint64_t sum = 0;

	if (e->src == SRC_CYCLES) { /* cycles are per mode */
		for (int md = 0; md < HVPMU_NMODES; md++)
			if (counts_mode(ctl, (enum hvpmu_mode)md))
				sum += f->dcycles[md];
		return sum;
	}
	if (!counts_mode(ctl, f->mode))
		return 0;
	switch (e->src) {
	case SRC_INSN:
		for (uint64_t bits = f->dclass ? f->dclass_nonzero : 0; bits; bits &= bits - 1) {
			unsigned k = (unsigned)__builtin_ctzll(bits);

			if (pmu->class_flags[k] & e->iany)
				sum += f->dclass[k];
		}
		return sum;
	case SRC_MEV:
		for (uint64_t bits = e->mevs; bits; bits &= bits - 1)
			sum += f->dmev[__builtin_ctzll(bits)];
		return sum * e->mult;
	case SRC_MISPRED:
		for (int k = 0; k < HVPMU_NMISPRED; k++)
			sum += f->dmispred[k];
		return sum;
	case SRC_DIR:
		return f->ddir[e->dir];
	default:
		return 0;
	}
}

/* Rises of bit 31 (0 -> 1) while a 32-bit counter at `c` counts `n` more. */
static uint64_t msb_rises(uint32_t c, uint64_t n)
{
	uint64_t from = (uint64_t)c + HVPMU_R10K_COUNT_MSB;

	return (from + n) / COUNT_WRAP - from / COUNT_WRAP;
}

static int irq_level(const struct hvpmu_r10k_pmu *pmu, unsigned n)
{
	return (pmu->count[n] & HVPMU_R10K_COUNT_MSB) && HVPMU_FEX(pmu->ctl[n], R10K_PERFCTL, IE);
}

void hvpmu_r10k_pmu_feed(struct hvpmu_r10k_pmu *pmu, const struct hvpmu_pmu_feed *f,
			 struct hvpmu_r10k_feed_result *res)
{
	memset(res, 0, sizeof *res);
	for (unsigned n = 0; n < HVPMU_R10K_NCOUNTERS; n++) {
		uint64_t d = feed_events(pmu, n, f);

		if (!d)
			continue;
		if (msb_rises(pmu->count[n], d)) {
			res->rise_mask |= 1u << n;
			if (HVPMU_FEX(pmu->ctl[n], R10K_PERFCTL, IE))
				res->irq_mask |= 1u << n;
		}
		pmu->count[n] = (uint32_t)(pmu->count[n] + d); /* counting continues past bit 31 */
	}
	for (unsigned n = 0; n < HVPMU_R10K_NCOUNTERS; n++)
		if (irq_level(pmu, n))
			res->irq_mask |= 1u << n;
	if (res->irq_mask)
		res->tpc = f->next_pc;
}

/* Events until bit 31 of counter n next becomes 1. */
static uint64_t to_rise(const struct hvpmu_r10k_pmu *pmu, unsigned n)
{
	uint64_t c = pmu->count[n];

	return c < HVPMU_R10K_COUNT_MSB ? HVPMU_R10K_COUNT_MSB - c : COUNT_WRAP - c + HVPMU_R10K_COUNT_MSB;
}

uint64_t hvpmu_r10k_pmu_headroom(const struct hvpmu_r10k_pmu *pmu, uint64_t max_cycles_per_insn)
{
	uint64_t best = UINT64_MAX;

	for (unsigned n = 0; n < HVPMU_R10K_NCOUNTERS; n++) {
		const struct r10k_event *e = event_of(pmu, n);
		uint64_t h = UINT64_MAX;

		if (irq_level(pmu, n))
			return 1; /* a request is up: deliver it at the next instruction */
		if (!HVPMU_FEX(pmu->ctl[n], R10K_PERFCTL, IE) || !HVPMU_FEX(pmu->ctl[n], R10K_PERFCTL, U))
			continue;
		if (e->src == SRC_INSN || e->src == SRC_MISPRED) /* at most one per instruction */
			h = to_rise(pmu, n);
		else if (e->src == SRC_CYCLES)
			h = (to_rise(pmu, n) + max_cycles_per_insn - 1) / (max_cycles_per_insn ? max_cycles_per_insn : 1);
		if (h < best)
			best = h;
	}
	return best;
}

uint64_t hvpmu_r10k_pmu_mem_headroom(const struct hvpmu_r10k_pmu *pmu)
{
	uint64_t best = UINT64_MAX;

	for (unsigned n = 0; n < HVPMU_R10K_NCOUNTERS; n++) {
		const struct r10k_event *e = event_of(pmu, n);
		uint64_t h;

		if (e->src != SRC_MEV || !HVPMU_FEX(pmu->ctl[n], R10K_PERFCTL, IE))
			continue;
		h = (to_rise(pmu, n) + e->mult - 1) / e->mult; /* each access adds at most `mult` */
		if (h < best)
			best = h;
	}
	return best;
}

uint64_t hvpmu_r10k_pmu_mem_watch(const struct hvpmu_r10k_pmu *pmu)
{
	uint64_t w = 0;

	for (unsigned n = 0; n < HVPMU_R10K_NCOUNTERS; n++) {
		const struct r10k_event *e = event_of(pmu, n);

		if (e->src == SRC_MEV && HVPMU_FEX(pmu->ctl[n], R10K_PERFCTL, IE))
			w |= e->mevs;
	}
	return w;
}

uint32_t hvpmu_r10k_pmu_peek_control(const struct hvpmu_r10k_pmu *pmu, unsigned n)
{
	return n < HVPMU_R10K_NCOUNTERS ? pmu->ctl[n] : 0;
}

uint32_t hvpmu_r10k_pmu_peek_count(const struct hvpmu_r10k_pmu *pmu, unsigned n)
{
	return n < HVPMU_R10K_NCOUNTERS ? pmu->count[n] : 0;
}

/* ---- the machine's interface (hvpmu/pmu.h) ---- */

static int ops_reg_read(void *p, enum hvpmu_reg_space sp, unsigned reg, uint64_t sel, enum hvpmu_mode mode,
			uint64_t *val)
{
	if (sp != HVPMU_REG_CP0 || reg != HVPMU_R10K_CP0_PERF)
		return HVPMU_ERANGE;
	return hvpmu_r10k_read(p, mode, sel, val);
}

static int ops_reg_write(void *p, enum hvpmu_reg_space sp, unsigned reg, uint64_t sel, enum hvpmu_mode mode,
			 uint64_t val)
{
	if (sp != HVPMU_REG_CP0 || reg != HVPMU_R10K_CP0_PERF)
		return HVPMU_ERANGE;
	return hvpmu_r10k_write(p, mode, sel, val);
}

static void *ops_create(const uint32_t *class_flags) { return hvpmu_r10k_pmu_create(class_flags); }
static void ops_destroy(void *p) { hvpmu_r10k_pmu_destroy(p); }
static void ops_classes_changed(void *p) { (void)p; } /* the table is read at each feed */

/* IP[7] is a level: the machine sees it as a disrupting trap request for
 * as long as it is up; taking the trap does not lower it (the handler
 * does, by writing the counter). */
static void ops_feed(void *p, const struct hvpmu_pmu_feed *f, struct hvpmu_pmu_feed_result *r)
{
	struct hvpmu_r10k_feed_result rr;

	hvpmu_r10k_pmu_feed(p, f, &rr);
	memset(r, 0, sizeof *r);
	r->ovf_mask = rr.rise_mask;
	r->disrupt_mask = rr.irq_mask;
}

static void ops_trap_taken(void *p) { (void)p; }
static uint64_t ops_headroom(const void *p, uint64_t c) { return hvpmu_r10k_pmu_headroom(p, c); }
static uint64_t ops_mem_headroom(const void *p) { return hvpmu_r10k_pmu_mem_headroom(p); }
static uint64_t ops_mem_watch(const void *p) { return hvpmu_r10k_pmu_mem_watch(p); }

_Static_assert(HVPMU_R10K_NCOUNTERS <= HVPMU_PMU_MAX_PIC, "counters fit the feed result");

const struct hvpmu_pmu_ops hvpmu_r10k_pmu_ops = {
	.name = "r10k",
	.npic = HVPMU_R10K_NCOUNTERS,
	.create = ops_create,
	.destroy = ops_destroy,
	.classes_changed = ops_classes_changed,
	.feed = ops_feed,
	.trap_taken = ops_trap_taken,
	.headroom = ops_headroom,
	.mem_headroom = ops_mem_headroom,
	.mem_watch = ops_mem_watch,
	.reg_read = ops_reg_read,
	.reg_write = ops_reg_write,
};
