/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IBM POWER7 event table (data only): each event code of Linux's
 * arch/powerpc/perf/power7-events-list.h and of the generic and cache
 * events power7-pmu.c maps (power7_generic_events, power7_cache_events),
 * with what the model counts for it or why it does not.  The code layout
 * and the 4x-decode twins: power7-pmu.c (PM_PMC_SH ...,
 * find_alternative_decode); hvpmu/power7_pmu.h, docs/power7-pmu.md.
 */
#include <string.h>
#include <hvpmu/insn.h>
#include <hvpmu/power7_pmu.h>

#define MEV(e) (UINT64_C(1) << (e))
#define DC_MISS (MEV(HVPMU_MEV_DC_MISS_L2L3) | MEV(HVPMU_MEV_DC_MISS_MEM) | MEV(HVPMU_MEV_DC_MISS_REMOTE) | \
		 MEV(HVPMU_MEV_DC_MISS_SPECIAL))
#define IC_MISS (MEV(HVPMU_MEV_IC_MISS_L2L3) | MEV(HVPMU_MEV_IC_MISS_MEM) | MEV(HVPMU_MEV_IC_MISS_REMOTE))
#define DTLB_MISS (MEV(HVPMU_MEV_DTLB_FILL_8K) | MEV(HVPMU_MEV_DTLB_FILL_64K) | MEV(HVPMU_MEV_DTLB_FILL_4M) | \
		   MEV(HVPMU_MEV_DTLB_FILL_256M) | MEV(HVPMU_MEV_DTLB_FILL_2G) | MEV(HVPMU_MEV_DTLB_FILL_TRAP))

#define CYC(nm, c, d) { nm, c, HVPMU_P7_SRC_CYCLES, 0, 0, 0, d }
#define INSN(nm, c, any, d) { nm, c, HVPMU_P7_SRC_INSN, 0, any, 0, d }
#define MEMEV(nm, c, m, d) { nm, c, HVPMU_P7_SRC_MEV, HVPMU_P7_NEEDS_MEMORY, 0, m, d }
#define NOTM(nm, c, why) { nm, c, HVPMU_P7_SRC_NONE, 0, 0, 0, why }

/* Sorted by nothing: looked up by a linear search (a few hundred entries,
 * at an MMCR1 write or a parse). */
static const struct hvpmu_power7_event events[] = {
	/* the events the model produces */
	CYC("PM_CYC", 0x0001e, "processor cycles"),
	CYC("PM_RUN_CYC", 0x200f4, "cycles with the run latch set (always, in the model)"),
	CYC("PM_RUN_CYC", 0x600f4, "PMC6's fixed event: cycles with the run latch set"),
	INSN("PM_INST_CMPL", 0x00002, HVPMU_IC_GROUPS, "instructions completed"),
	INSN("PM_RUN_INST_CMPL", 0x400fa, HVPMU_IC_GROUPS, "instructions completed with the run latch set"),
	INSN("PM_RUN_INST_CMPL", 0x500fa, HVPMU_IC_GROUPS, "PMC5's fixed event: instructions completed"),
	INSN("PM_LD_REF_L1", 0x0c880, HVPMU_IC_LOAD, "L1 D-cache load references: load instructions"),
	INSN("PM_ST_FIN", 0x200f0, HVPMU_IC_STORE, "store instructions finished"),
	INSN("PM_BRU_FIN", 0x10068, HVPMU_IC_BRANCH, "branch instructions finished"),
	INSN("PM_FLOP", 0x100f4, HVPMU_IC_FP, "floating-point instructions (one each, an FMA too)"),
	INSN("PM_STCX_CMPL", 0x0c098, HVPMU_IC_STORE_COND, "stcx. instructions completed"),
	INSN("PM_LARX_LSU", 0x0c894, HVPMU_IC_LOAD_LINKED, "larx instructions"),
	{ "PM_BR_MPRED", 0x400f6, HVPMU_P7_SRC_MISPRED, HVPMU_P7_NEEDS_BRANCHES, 0, 0,
	  "mispredicted branches (the model's predictor, docs/branch-prediction.md)" },
	{ "PM_BR_TAKEN", 0x20004, HVPMU_P7_SRC_TAKEN, HVPMU_P7_NEEDS_BRANCHES, 0, 0,
	  "branches taken (conditional ones taken, unconditional ones)" },
	MEMEV("PM_LD_MISS_L1", 0x400f0, DC_MISS, "L1 D-cache load misses (the memory model)"),
	MEMEV("PM_L1_ICACHE_MISS", 0x200fc, IC_MISS, "L1 I-cache misses (the memory model)"),
	MEMEV("PM_DTLB_MISS", 0x300fc, DTLB_MISS, "data TLB misses (the TLB model's fills)"),
	MEMEV("PM_ITLB_MISS", 0x400fc, MEV(HVPMU_MEV_ITLB_MISS), "instruction TLB misses (the TLB model)"),
	/* the rest of power7-events-list.h: not modeled (why: prefix_why) */
#define P7EV(nm, c) { #nm, c, HVPMU_P7_SRC_NONE, 0, 0, 0, NULL },
#include "power7_events.def"
#undef P7EV
	/* the cache events' codes power7-events-list.h does not name (power7_cache_events) */
	NOTM("L1-dcache-prefetches", 0x0d8b8, "the L1D hardware prefetcher's requests are not counted by POWER7's rules"),
};

/* Why an event of the list is not modeled, by its name's prefix (first
 * match); the model's parts: docs/memory-model.md, docs/tlb-model.md,
 * docs/branch-prediction.md. */
static const struct {
	const char *prefix, *why;
} prefix_why[] = {
	{ "PM_MRK_", "marked-instruction sampling (MMCRA SAMPLE_ENABLE) is not modeled" },
	{ "PM_GRP_MRK", "marked-instruction sampling (MMCRA SAMPLE_ENABLE) is not modeled" },
	{ "PM_VSU", "the vector-scalar unit's issue and flop counts are not modeled (PM_FLOP counts FP instructions)" },
	{ "PM_VMX", "the vector-scalar unit's issue and flop counts are not modeled" },
	{ "PM_PTEG_", "the TLB model has no POWER hashed page table (where a PTEG came from)" },
	{ "PM_INST_PTEG_", "the TLB model has no POWER hashed page table (where a PTEG came from)" },
	{ "PM_DATA_FROM_", "the memory model does not tell L2 from L3 hits, nor POWER7's L2.1/L3.1 and "
			   "remote-chip sources by line state" },
	{ "PM_INST_FROM_", "the memory model does not tell L2 from L3 hits, nor POWER7's L2.1/L3.1 and "
			   "remote-chip sources by line state" },
	{ "PM_L2_", "the L2's request, dispatch, castout and snoop machinery is not modeled" },
	{ "PM_L3_", "the L3's request, prefetch and castout machinery is not modeled" },
	{ "PM_CMPLU_STALL", "no model of POWER7's pipeline (completion stalls by cause)" },
	{ "PM_GCT_", "no model of POWER7's pipeline (the global completion table)" },
	{ "PM_DISP_", "no model of POWER7's pipeline (dispatch)" },
	{ "PM_FLUSH", "no model of POWER7's pipeline (flushes)" },
	{ "PM_GRP_", "no model of POWER7's pipeline (instruction groups)" },
	{ "PM_1PLUS_PPC_", "no model of POWER7's pipeline (per-cycle completion and dispatch)" },
	{ "PM_INST_DISP", "no model of POWER7's pipeline (dispatch)" },
	{ "PM_IOPS_", "no model of POWER7's internal operations" },
	{ "PM_THRD_", "SMT thread priorities and concurrency are not modeled" },
	{ "PM_1THRD_", "SMT thread concurrency is not modeled" },
	{ "PM_ANY_THRD_", "SMT thread concurrency is not modeled" },
	{ "PM_RUN_", "PURR and SPURR are not modeled" },
	{ "PM_HV_CYC", "the model runs nothing in hypervisor state on POWER" },
	{ "PM_LSU", "the load-store units' internals (LSU0/1 split, queues, rejects, prefetch streams) are "
		    "not modeled" },
	{ "PM_LD_REF_L1_LSU", "the load-store units' split (LSU0/1) is not modeled (PM_LD_REF_L1 is)" },
	{ "PM_LARX_LSU", "the load-store units' split (LSU0/1) is not modeled (PM_LARX_LSU is)" },
	{ "PM_PMC", "the PMCs' internal overflow, save and rewind events are not modeled" },
	{ "PM_NEST_", "nest events: the CEC's counters are hv_gpci's (docs/papr-gpci.md)" },
	{ "PM_MEM0_", "memory-controller events: the CEC's counters are hv_gpci's (docs/papr-gpci.md)" },
	{ "PM_PB_", "fabric events: the CEC's counters are hv_gpci's (docs/papr-gpci.md)" },
	{ "PM_IC_", "the instruction fetch unit's internals are not modeled (PM_L1_ICACHE_MISS is)" },
	{ "PM_IBUF_", "the instruction fetch unit's internals are not modeled" },
	{ "PM_BTAC_", "POWER7's branch target address cache is not modeled" },
	{ "PM_BR_", "the branch predictor's per-kind outcomes (CR, target, link stack) are not modeled "
		    "(PM_BR_MPRED is)" },
	{ "PM_BC_", "the branch predictor's internals are not modeled" },
	{ "PM_DERAT_", "the ERATs and SLBs are not modeled (the TLB model is a single TLB per kind)" },
	{ "PM_IERAT_", "the ERATs and SLBs are not modeled" },
	{ "PM_DSLB_", "the ERATs and SLBs are not modeled" },
	{ "PM_ISLB_", "the ERATs and SLBs are not modeled" },
	{ "PM_SLB_", "the ERATs and SLBs are not modeled" },
	{ "PM_DSEG", "segment faults are not modeled" },
	{ "PM_ISEG", "segment faults are not modeled" },
	{ "PM_SEG_", "segment faults are not modeled" },
	{ "PM_DTLB_MISS_", "TLB misses by page size: the TLB model's page sizes are not POWER7's" },
	{ "PM_TLB_MISS", "the TLB model counts data and instruction misses apart (PM_DTLB_MISS, PM_ITLB_MISS)" },
	{ "PM_TABLEWALK_", "table-walk cycles are not modeled" },
	{ "PM_DATA_TABLEWALK_", "table-walk cycles are not modeled" },
	{ "PM_POWER_", "power management is not modeled" },
	{ "PM_THERMAL_", "power management is not modeled" },
	{ "PM_FREQ_", "power management is not modeled" },
	{ "PM_DPU_HELD_", "power management is not modeled" },
	{ "PM_FXU", "the fixed-point units' busy and idle cycles are not modeled" },
	{ "PM_ST_MISS_L1", "the L1D writes through: the memory model does not look stores up in it" },
	{ "PM_L1_", "the L1 caches' reloads, prefetches and writes are not modeled" },
	{ "PM_STCX_FAIL", "the model does not see a stcx.'s outcome" },
};

const char *hvpmu_power7_event_desc(const struct hvpmu_power7_event *e)
{
	if (!e)
		return NULL;
	if (e->desc)
		return e->desc;
	for (unsigned i = 0; i < sizeof prefix_why / sizeof prefix_why[0]; i++)
		if (strncmp(e->name, prefix_why[i].prefix, strlen(prefix_why[i].prefix)) == 0)
			return prefix_why[i].why;
	return "not produced by the machine model";
}

#define NEVENTS (sizeof events / sizeof events[0])

unsigned hvpmu_power7_nevents(void) { return (unsigned)NEVENTS; }

const struct hvpmu_power7_event *hvpmu_power7_event_at(unsigned i) { return i < NEVENTS ? &events[i] : NULL; }

const struct hvpmu_power7_event *hvpmu_power7_event_named(const char *name)
{
	for (unsigned i = 0; name && i < NEVENTS; i++)
		if (strcmp(events[i].name, name) == 0)
			return &events[i];
	return NULL;
}

const struct hvpmu_power7_event *hvpmu_power7_event_of(uint64_t code)
{
	for (unsigned i = 0; i < NEVENTS; i++)
		if (events[i].code == code)
			return &events[i];
	return NULL;
}

/* power7-pmu.c find_alternative_decode: PMCSEL 0x40-0x47 on PMC2/4 is
 * PMCSEL 0x48-0x4f on PMC1/3. */
static uint64_t decode_twin(uint64_t code)
{
	uint64_t pmc = HVPMU_FEX(code, P7_EV, PMC), psel = HVPMU_FEX(code, P7_EV, PMCSEL);

	if ((pmc == 2 || pmc == 4) && (psel & ~UINT64_C(7)) == 0x40)
		return code - (UINT64_C(1) << P7_EV_PMC_SHIFT) + 8;
	if ((pmc == 1 || pmc == 3) && (psel & ~UINT64_C(7)) == 0x48)
		return code + (UINT64_C(1) << P7_EV_PMC_SHIFT) - 8;
	return 0;
}

const struct hvpmu_power7_event *hvpmu_power7_event_on_pmc(uint64_t code, unsigned n)
{
	const struct hvpmu_power7_event *e;
	uint64_t twin;

	if (n < 1 || n > HVPMU_P7_NPMC || (code & ~HVPMU_P7_EV_MASK))
		return NULL;
	if (n > HVPMU_P7_NPROG) /* PMC5/6: their fixed events only */
		return code == (n == 5 ? HVPMU_P7_PM_RUN_INST_CMPL5 : HVPMU_P7_PM_RUN_CYC6) ? hvpmu_power7_event_of(code)
											     : NULL;
	code = HVPMU_FDP(code, P7_EV, PMC, n);
	if ((e = hvpmu_power7_event_of(code)) || (e = hvpmu_power7_event_of(HVPMU_FDP(code, P7_EV, PMC, 0))))
		return e->src ? e : NULL;
	if ((twin = decode_twin(code)) && (e = hvpmu_power7_event_of(twin)))
		return e->src ? e : NULL;
	return NULL;
}

/* ---- what Linux's driver compiles in: the generic events, the
 * alternatives, the constraints and the MMCR computation [P7] ---- */

/* power7_generic_events and power7_cache_events (the entries that name an
 * event: 0, "not supported", and -1, "nonsensical", are left out), by
 * perf's names. */
static const struct hvpmu_power7_generic generics[] = {
	{ "cycles", 0x1e }, { "cpu-cycles", 0x1e },
	{ "stalled-cycles-frontend", 0x100f8 }, { "stalled-cycles-backend", 0x4000a },
	{ "instructions", 0x02 },
	{ "cache-references", 0xc880 }, { "cache-misses", 0x400f0 },
	{ "branch-instructions", 0x10068 }, { "branches", 0x10068 }, { "branch-misses", 0x400f6 },
	{ "L1-dcache-loads", 0xc880 }, { "L1-dcache-load-misses", 0x400f0 },
	{ "L1-dcache-store-misses", 0x300f0 }, { "L1-dcache-prefetches", 0xd8b8 },
	{ "L1-icache-load-misses", 0x200fc }, { "L1-icache-prefetches", 0x408a },
	{ "LLC-loads", 0x16080 }, { "LLC-load-misses", 0x26080 },
	{ "LLC-stores", 0x16082 }, { "LLC-store-misses", 0x26082 },
	{ "dTLB-load-misses", 0x300fc }, { "iTLB-load-misses", 0x400fc },
	{ "branch-loads", 0x10068 }, { "branch-load-misses", 0x400f6 },
};

const struct hvpmu_power7_generic *hvpmu_power7_event_generic_at(unsigned i)
{
	return i < sizeof generics / sizeof generics[0] ? &generics[i] : NULL;
}

/* power7_get_constraint: the constraint layout
 *   bits 0-11: two bits per PMC1-6, the number of events needing it (11: P6 error)
 *   bits 12-14: events needing one of PMC1-4, bit 15 its error
 *   bits 16-18: the L2SEL unit-6 events must share. */
int hvpmu_power7_event_constraint(uint64_t code, uint64_t *maskp, uint64_t *valp)
{
	uint64_t mask = 0, value = 0;
	unsigned pmc = (unsigned)HVPMU_FEX(code, P7_EV, PMC), sh;

	if (pmc) {
		if (pmc > HVPMU_P7_NPMC)
			return -1;
		sh = (pmc - 1) * 2;
		mask |= UINT64_C(2) << sh;
		value |= UINT64_C(1) << sh;
		if (pmc >= 5 && code != HVPMU_P7_PM_RUN_INST_CMPL5 && code != HVPMU_P7_PM_RUN_CYC6)
			return -1;
	}
	if (pmc < 5) { /* one of PMC1-4 */
		mask |= 0x8000;
		value |= 0x1000;
	}
	if (HVPMU_FEX(code, P7_EV, UNIT) == HVPMU_P7_UNIT_L2) { /* L2SEL shared */
		mask |= UINT64_C(7) << 16;
		value |= HVPMU_FEX(code, P7_EV, L2SEL) << 16;
	}
	*maskp = mask;
	*valp = value;
	return 0;
}

/* power7-pmu.c event_alternatives: the same event on other PMCs. */
static const uint32_t alternatives[][2] = {
	{ 0x200f2, 0x300f2 }, /* PM_INST_DISP */
	{ 0x200f4, 0x600f4 }, /* PM_RUN_CYC */
	{ 0x400fa, 0x500fa }, /* PM_RUN_INST_CMPL */
};

unsigned hvpmu_power7_event_alternatives(uint64_t code, int only_count_run, uint64_t alt[HVPMU_P7_MAX_ALT])
{
	unsigned nalt = 1, i, j, k;
	uint64_t twin;

	alt[0] = code;
	for (i = 0; i < sizeof alternatives / sizeof alternatives[0]; i++)
		if (alternatives[i][0] == code || alternatives[i][1] == code)
			break;
	if (i < sizeof alternatives / sizeof alternatives[0]) {
		for (j = 0; j < 2; j++)
			if (alternatives[i][j] != code)
				alt[nalt++] = alternatives[i][j];
	} else if ((twin = decode_twin(code)))
		alt[nalt++] = twin;
	if (only_count_run) { /* a per-task event: PM_RUN_* and their plain twins are one */
		for (k = 0, j = nalt; k < nalt; k++) {
			switch (alt[k]) {
			case 0x1e: alt[j++] = HVPMU_P7_PM_RUN_CYC6; break;
			case 0x600f4: alt[j++] = 0x1e; break;
			case 0x2: alt[j++] = HVPMU_P7_PM_RUN_INST_CMPL5; break;
			case 0x500fa: alt[j++] = 0x2; break;
			default: break;
			}
		}
		nalt = j;
	}
	return nalt;
}

/* power_check_constraints' arithmetic (core-book3s.c) with POWER7's
 * add_fields 0x1555 and test_adder 0x3000. */
#define ADD_FIELDS UINT64_C(0x1555)
#define TEST_ADDER UINT64_C(0x3000)

static int fits(uint64_t *value, uint64_t *mask, uint64_t m, uint64_t v)
{
	uint64_t nv = (*value | v) + (*value & v & ADD_FIELDS);

	if ((((nv + TEST_ADDER) ^ *value) & *mask) || (((nv + TEST_ADDER) ^ v) & m))
		return 0;
	*value = nv;
	*mask |= m;
	return 1;
}

static int search(unsigned i, unsigned n, uint64_t alt[][HVPMU_P7_MAX_ALT], const unsigned *nalt, unsigned *choice,
		  uint64_t value, uint64_t mask)
{
	if (i == n)
		return 1;
	for (unsigned j = 0; j < nalt[i]; j++) {
		uint64_t m, v, nv = value, nm = mask;

		if (hvpmu_power7_event_constraint(alt[i][j], &m, &v) || !fits(&nv, &nm, m, v))
			continue;
		choice[i] = j;
		if (search(i + 1, n, alt, nalt, choice, nv, nm))
			return 1;
	}
	return 0;
}

int hvpmu_power7_event_check_constraints(uint64_t *codes, unsigned n, int only_count_run)
{
	uint64_t alt[HVPMU_P7_NPMC][HVPMU_P7_MAX_ALT];
	unsigned nalt[HVPMU_P7_NPMC] = { 0 }, choice[HVPMU_P7_NPMC] = { 0 };

	if (n > HVPMU_P7_NPMC)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		uint64_t m, v;

		if (hvpmu_power7_event_constraint(codes[i], &m, &v))
			return -1; /* Linux: an event without a constraint is refused outright */
		nalt[i] = hvpmu_power7_event_alternatives(codes[i], only_count_run, alt[i]);
	}
	if (!search(0, n, alt, nalt, choice, 0, 0))
		return -1;
	for (unsigned i = 0; i < n; i++)
		codes[i] = alt[i][choice[i]];
	return 0;
}

/* power7_marked_instr_event: the event needs MMCRA SAMPLE_ENABLE. */
static int marked(uint64_t code)
{
	unsigned pmc = (unsigned)HVPMU_FEX(code, P7_EV, PMC), unit = (unsigned)HVPMU_FEX(code, P7_EV, UNIT);
	unsigned psel = (unsigned)HVPMU_FEX(code, P7_EV, PMCSEL) & ~1u;

	if (pmc >= 5)
		return 0;
	switch (psel >> 4) {
	case 2: return pmc == 2 || pmc == 4;
	case 3: return psel == 0x3c ? pmc == 1 : psel == 0x3e ? pmc != 2 : 1;
	case 4: case 5: case 8: return unit == 0xd;
	case 6: return psel == 0x64 && pmc >= 3;
	default: return 0;
	}
}

int hvpmu_power7_event_compute_mmcr(const uint64_t *codes, unsigned n, unsigned *hwc, uint64_t mmcr[3])
{
	uint64_t mmcr1 = 0, mmcra = HVPMU_FMASK(P7_MMCRA, SDAR_DCACHE_MISS) | HVPMU_FMASK(P7_MMCRA, SDAR_ERAT_MISS);
	unsigned inuse = 0, i, pmc;

	for (i = 0; i < n; i++) { /* first pass: the PMCs the events name */
		pmc = (unsigned)HVPMU_FEX(codes[i], P7_EV, PMC);
		if (pmc) {
			if (pmc > HVPMU_P7_NPMC || (inuse & (1u << (pmc - 1))))
				return -1;
			inuse |= 1u << (pmc - 1);
		}
	}
	for (i = 0; i < n; i++) { /* second pass: any-PMC events on the first free of PMC1-4 */
		uint64_t c = codes[i], unit = HVPMU_FEX(c, P7_EV, UNIT);

		pmc = (unsigned)HVPMU_FEX(c, P7_EV, PMC);
		if (!pmc) {
			for (pmc = 0; pmc < HVPMU_P7_NPROG && (inuse & (1u << pmc)); pmc++)
				;
			if (pmc >= HVPMU_P7_NPROG)
				return -1;
			inuse |= 1u << pmc;
		} else {
			pmc--;
		}
		if (pmc < HVPMU_P7_NPROG) {
			mmcr1 |= unit << HVPMU_P7_MMCR1_TTMSEL_SHIFT(pmc + 1);
			mmcr1 |= HVPMU_FEX(c, P7_EV, COMBINE) << HVPMU_P7_MMCR1_COMBINE_SHIFT(pmc + 1);
			mmcr1 |= HVPMU_FEX(c, P7_EV, PMCSEL) << HVPMU_P7_MMCR1_PMCSEL_SHIFT(pmc + 1);
			if (unit == HVPMU_P7_UNIT_L2)
				mmcr1 |= HVPMU_FEX(c, P7_EV, L2SEL) << P7_MMCR1_L2SEL_SHIFT;
		}
		if (marked(c))
			mmcra |= HVPMU_FMASK(P7_MMCRA, SAMPLE_ENABLE);
		hwc[i] = pmc; /* 0-based, as Linux's hwc[] */
	}
	mmcr[0] = 0;
	if (inuse & 1)
		mmcr[0] = HVPMU_FMASK(P7_MMCR0, PMC1CE);
	if (inuse & 0x3e)
		mmcr[0] |= HVPMU_FMASK(P7_MMCR0, PMCJCE);
	mmcr[1] = mmcr1;
	mmcr[2] = mmcra;
	return 0;
}
