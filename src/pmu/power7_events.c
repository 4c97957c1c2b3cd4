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
#define NOTM(nm, c, why) { nm, c, HVPMU_P7_SRC_NONE, 0, 0, 0, "not modeled: " why }

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
};

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
