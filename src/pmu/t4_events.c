/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SPARC T4 event tables (data only).
 *  - Groups: sparc-t4-performance-instrumentation.md TABLE 10-2 (sl, valid
 *    mask bits, "Precise Event", "Virtual processor-specific"); sl 28 and
 *    the reserved sl 29-31 from ../shared/reference/t4-events.md §1.
 *  - Names and encodings: the Solaris T4 PCBE as listed in t4-events.md §4
 *    (`cpustat -h` names).  Deviation: Atomics uses mask 0x08, the TABLE
 *    10-2 bit, not the PCBE's 0x18 (t4-events.md §4 notes the PCBE typo).
 *    sl=4 mask 0x01 has no PCBE name: it is reached through the generic
 *    alias "branches" / "branch-instructions" (Linux's mapping) or raw.
 *  - Aliases: Linux arch/sparc/kernel/perf_event.c niagara4 map
 *    (linux-clients.md §1.7).
 */
#include <string.h>
#include <hvpmu/machine.h>
#include <hvpmu/t4_events.h>

#define N(x) (sizeof(x) / sizeof((x)[0]))

/* kind of each group today; modeled_mask: the mask bits the model counts
 * (memory groups: docs/memory-model.md; snoops, C2C and "remote" outcomes:
 * docs/coherence-model.md) */
static const struct hvpmu_t4_group groups[32] = {
	{ 0, 0x00, 0x00, 0, 1, HVPMU_T4_KIND_NONE, "Disabled" },
	{ 1, 0x1f, 0x1f, 0, 1, HVPMU_T4_KIND_PIPE, "Select cycles" },
	{ 2, 0x0f, 0x0f, 0, 1, HVPMU_T4_KIND_PIPE, "Pick cycles" },
	{ 3, 0x3f, 0x3f, 1, 1, HVPMU_T4_KIND_SL3, "Instruction groups" },
	{ 4, 0x3f, 0x3f, 1, 1, HVPMU_T4_KIND_SL4, "Branches, taken branches, sw count, atomics, prefetch, block ld/st" },
	{ 5, 0x1f, 0x1f, 1, 1, HVPMU_T4_KIND_MEM, "Icache miss, BTC miss, ITLB miss" },
	{ 6, 0x3f, 0x3f, 0, 1, HVPMU_T4_KIND_MEM, "ITLB fills" },
	{ 7, 0x0f, 0x0f, 0, 1, HVPMU_T4_KIND_MEM, "Icache microtag" },
	{ 8, 0x0f, 0x0f, 0, 1, HVPMU_T4_KIND_PIPE, "Fetch cycles" },
	{ 9, 0x1f, 0x1f, 0, 0, HVPMU_T4_KIND_PIPE, "Tag wait cycles" },
	{ 10, 0x3f, 0x3f, 0, 1, HVPMU_T4_KIND_MEM, "Hardware tablewalk references" },
	{ 11, 0x03, 0x03, 0, 1, HVPMU_T4_KIND_MEM, "Icache misses (speculative)" },
	{ 12, 0x00, 0x00, 0, 0, HVPMU_T4_KIND_NONE, "Reserved" },
	{ 13, 0x00, 0x00, 0, 0, HVPMU_T4_KIND_NONE, "Reserved" },
	{ 14, 0x00, 0x00, 0, 0, HVPMU_T4_KIND_NONE, "Reserved" },
	{ 15, 0x00, 0x00, 0, 0, HVPMU_T4_KIND_NONE, "Reserved" },
	{ 16, 0x07, 0x07, 1, 1, HVPMU_T4_KIND_MEM, "L1 data cache misses" },
	{ 17, 0x3f, 0x3f, 0, 1, HVPMU_T4_KIND_MEM, "DTLB fills" },
	{ 18, 0x07, 0x07, 0, 0, HVPMU_T4_KIND_MEM, "Dropped prefetches" }, /* 0x04: src/model/l2buf.h */
	{ 19, 0x0f, 0x0f, 0, 1, HVPMU_T4_KIND_MEM, "RAW hits in store buffer/queue" }, /* src/model/stbuf.h */
	{ 20, 0x1f, 0x1f, 0, 0, HVPMU_T4_KIND_MEM, "L1 invalidations" },
	{ 21, 0x3f, 0x3f, 0, 1, HVPMU_T4_KIND_MEM, "Data prefetch outcomes" }, /* 0x02, 0x20: src/model/l2buf.h */
	{ 22, 0x3f, 0x3f, 0, 1, HVPMU_T4_KIND_MEM, "Store outcomes" },
	{ 23, 0x07, 0x07, 0, 1, HVPMU_T4_KIND_MEM, "L1 data cache misses (speculative)" },
	{ 24, 0x3f, 0x3f, 0, 0, HVPMU_T4_KIND_MEM, "L2 evictions and buffer full" }, /* 0x04..0x20: src/model/l2buf.h */
	{ 25, 0x0f, 0x0f, 1, 1, HVPMU_T4_KIND_MISPRED, "Branch mispredicts" },
	{ 26, 0x00, 0x00, 0, 1, HVPMU_T4_KIND_CYCLES, "Cycles in selected modes" },
	{ 27, 0x00, 0x00, 0, 0, HVPMU_T4_KIND_NONE, "Reserved" },
	{ 28, 0x0f, 0x0f, 0, 1, HVPMU_T4_KIND_PIPE, "Commit micro-ops" },
	{ 29, 0x00, 0x00, 0, 0, HVPMU_T4_KIND_NONE, "Reserved" },
	{ 30, 0x00, 0x00, 0, 0, HVPMU_T4_KIND_NONE, "Reserved" },
	{ 31, 0x00, 0x00, 0, 0, HVPMU_T4_KIND_NONE, "Reserved" },
};

const struct hvpmu_t4_group *hvpmu_t4_group(unsigned sl)
{
	return sl < N(groups) ? &groups[sl] : NULL;
}

static const struct hvpmu_t4_event events[] = {
	{ "Sel_pipe_drain_cycles", 1, 0x01, "Cycles waiting at Select after a mispredicted branch" },
	{ "Sel_0_wait", 1, 0x02, "Cycles waiting at Select for a condition to resolve" },
	{ "Sel_0_ready", 1, 0x04, "Cycles ready but another strand was selected" },
	{ "Sel_1", 1, 0x08, "Cycles one instruction or micro-op was selected" },
	{ "Sel_2", 1, 0x10, "Cycles two instructions or micro-ops were selected" },
	{ "Pick_0", 2, 0x01, "Cycles no instruction is picked" },
	{ "Pick_1", 2, 0x02, "Cycles one instruction or micro-op is picked" },
	{ "Pick_2", 2, 0x04, "Cycles two instructions or micro-ops are picked" },
	{ "Pick_3", 2, 0x08, "Cycles three instructions or micro-ops are picked" },
	{ "Pick_any", 2, 0x0e, "Cycles at least one instruction or micro-op is picked" },
	{ "Branches", 3, 0x01, "Branch instructions (Bicc, BPcc, BPr, CALL, FBfcc, JMPL, RETURN, ...)" },
	{ "Instr_FGU_crypto", 3, 0x02, "FGU and crypto arithmetic instructions" },
	{ "Instr_ld", 3, 0x04, "Load instructions" },
	{ "Instr_st", 3, 0x08, "Store instructions" },
	{ "SPR_ring_ops", 3, 0x10, "SPR ring operations" },
	{ "Instr_other", 3, 0x20, "All other instructions" },
	{ "Instr_all", 3, 0x3f, "All instructions" },
	{ "Br_taken", 4, 0x02, "Taken branches (annulled conditional: its delay slot ran)" },
	{ "Sw_count_intr", 4, 0x04, "Software count instructions: sethi %hi(0xfc000),%g0" },
	{ "Atomics", 4, 0x08, "Atomic instructions: LDSTUB/A, CASA/CASXA, SWAP/A" },
	{ "SW_prefetch", 4, 0x10, "Software prefetch instructions" },
	{ "Block_ld_st", 4, 0x20, "Block loads and stores" },
	{ "IC_miss_L2_L3_hit_nospec", 5, 0x01, "Icache miss, L2 / local L2 cache-to-cache / local L3 hit" },
	{ "IC_miss_local_hit_nospec", 5, 0x02, "Icache miss, local memory hit" },
	{ "IC_miss_remote_hit_nospec", 5, 0x04, "Icache miss, remote L3 or remote memory hit" },
	{ "IC_miss_nospec", 5, 0x07, "Icache misses of all types" },
	{ "BTC_miss", 5, 0x08, "Branch target cache misses" },
	{ "ITLB_miss", 5, 0x10, "ITLB misses (synchronous)" },
	{ "ITLB_fill_8KB", 6, 0x01, "ITLB fills, 8 KB pages" },
	{ "ITLB_fill_64KB", 6, 0x02, "ITLB fills, 64 KB pages" },
	{ "ITLB_fill_4MB", 6, 0x04, "ITLB fills, 4 MB pages" },
	{ "ITLB_fill_256MB", 6, 0x08, "ITLB fills, 256 MB pages" },
	{ "ITLB_fill_2GB", 6, 0x10, "ITLB fills, 2 GB pages" },
	{ "ITLB_fill_trap", 6, 0x20, "Unsuccessful ITLB hardware tablewalks" },
	{ "ITLB_miss_asynch", 6, 0x3f, "All ITLB misses (asynchronous)" },
	{ "IC_mtag_miss", 7, 0x01, "Icache microtag misses" },
	{ "IC_mtag_miss_ptag_hit", 7, 0x02, "Icache microtag miss, ptag hit" },
	{ "IC_mtag_miss_ptag_miss", 7, 0x04, "Icache microtag hit, ptag miss" },
	{ "IC_mtag_miss_ptag_hit_way_mismatch", 7, 0x08, "Icache microtag hit, ptag hit, way mismatch" },
	{ "Fetch_0", 8, 0x01, "Cycles no valid instruction is fetched for this strand" },
	{ "Fetch_0_all", 8, 0x02, "Cycles no valid instruction is fetched for any strand" },
	{ "Instr_buffer_full", 8, 0x04, "Cycles the instruction buffer is full" },
	{ "BTC_targ_incorrect", 8, 0x08, "Branch target cache target incorrect" },
	{ "PQ_tag_wait", 9, 0x01, "Cycles Rename waits for a pick queue tag" },
	{ "ROB_tag_wait", 9, 0x02, "Cycles Select waits for a ROB tag" },
	{ "LB_tag_wait", 9, 0x04, "Cycles Select waits for a load buffer tag" },
	{ "ROB_LB_tag_wait", 9, 0x06, "Cycles Select waits for a ROB or LB tag" },
	{ "SB_tag_wait", 9, 0x08, "Cycles Select waits for a store buffer tag" },
	{ "ROB_SB_tag_wait", 9, 0x0a, "Cycles Select waits for a ROB or SB tag" },
	{ "LB_SB_tag_wait", 9, 0x0c, "Cycles Select waits for an LB or SB tag" },
	{ "RB_LB_SB_tag_wait", 9, 0x0e, "Cycles Select waits for a ROB, LB or SB tag" },
	{ "DTLB_miss_tag_wait", 9, 0x10, "Cycles loads/stores wait at Pick for a DTLB miss tag" },
	{ "ITLB_HWTW_L2_hit", 10, 0x01, "ITLB tablewalk references hitting L2" },
	{ "ITLB_HWTW_L3_hit", 10, 0x02, "ITLB tablewalk references hitting L3" },
	{ "ITLB_HWTW_L3_miss", 10, 0x04, "ITLB tablewalk references missing L3" },
	{ "ITLB_HWTW_all", 10, 0x07, "All ITLB tablewalk references" },
	{ "DTLB_HWTW_L2_hit", 10, 0x08, "DTLB tablewalk references hitting L2" },
	{ "DTLB_HWTW_L3_hit", 10, 0x10, "DTLB tablewalk references hitting L3" },
	{ "DTLB_HWTW_L3_miss", 10, 0x20, "DTLB tablewalk references missing L3" },
	{ "DTLB_HWTW_all", 10, 0x38, "All DTLB tablewalk references" },
	{ "IC_miss_L2_L3_hit", 11, 0x01, "Icache miss, local L2/L3 hit" },
	{ "IC_miss_local_remote_remL3_hit", 11, 0x02, "Icache miss, local memory or remote L3/memory hit" },
	{ "IC_miss", 11, 0x03, "Icache misses" },
	{ "DC_miss_L2_L3_hit_nospec", 16, 0x01, "L1 D-cache miss, local L2/L3 hit" },
	{ "DC_miss_local_hit_nospec", 16, 0x02, "L1 D-cache miss, local memory hit" },
	{ "DC_miss_remote_L3_hit_nospec", 16, 0x04, "L1 D-cache miss, remote L3 or memory hit" },
	{ "DC_miss_nospec", 16, 0x07, "L1 D-cache misses" },
	{ "DTLB_fill_8KB", 17, 0x01, "DTLB fills, 8 KB pages" },
	{ "DTLB_fill_64KB", 17, 0x02, "DTLB fills, 64 KB pages" },
	{ "DTLB_fill_4MB", 17, 0x04, "DTLB fills, 4 MB pages" },
	{ "DTLB_fill_256MB", 17, 0x08, "DTLB fills, 256 MB pages" },
	{ "DTLB_fill_2GB", 17, 0x10, "DTLB fills, 2 GB pages" },
	{ "DTLB_fill_trap", 17, 0x20, "Unsuccessful DTLB hardware tablewalks" },
	{ "DTLB_miss_asynch", 17, 0x3f, "All DTLB misses (asynchronous)" },
	{ "DC_pref_drop_DC_hit", 18, 0x01, "Hardware prefetches dropped on a D-cache hit" },
	{ "SW_pref_drop_DC_hit", 18, 0x02, "Software prefetches dropped on a D-cache hit" },
	{ "SW_pref_drop_buffer_full", 18, 0x04, "Software prefetches dropped, miss buffer full" },
	{ "SW_pref_drop", 18, 0x06, "Software prefetches dropped" },
	{ "Full_RAW_hit_st_buf", 19, 0x01, "Full RAW hits in the store buffer" },
	{ "Partial_RAW_hit_st_buf", 19, 0x02, "Partial RAW hits in the store buffer" },
	{ "RAW_hit_st_buf", 19, 0x03, "RAW hits in the store buffer" },
	{ "Full_RAW_hit_st_q", 19, 0x04, "Full RAW hits in the store queue" },
	{ "Partial_RAW_hit_st_q", 19, 0x08, "Partial RAW hits in the store queue" },
	{ "RAW_hit_st_q", 19, 0x0c, "RAW hits in the store queue" },
	{ "IC_evict_invalid", 20, 0x01, "I-cache eviction invalidations" },
	{ "IC_snoop_invalid", 20, 0x02, "I-cache snoop invalidations" },
	{ "IC_invalid_all", 20, 0x03, "I-cache invalidations" },
	{ "DC_evict_invalid", 20, 0x04, "D-cache eviction invalidations" },
	{ "DC_snoop_invalid", 20, 0x08, "D-cache snoop invalidations" },
	{ "L1_snoop_invalid", 20, 0x0a, "L1 snoop invalidations" },
	{ "DC_invalid_all", 20, 0x0c, "D-cache invalidations" },
	{ "L1_invalid_all", 20, 0x0f, "All L1 invalidations" },
	{ "St_q_tag_wait", 20, 0x10, "Store queue tag wait cycles" },
	{ "Data_pref_hit_L2", 21, 0x01, "Data prefetches hitting L2" },
	{ "Data_pref_drop_L2", 21, 0x02, "Data prefetches dropped by L2" },
	{ "Data_pref_hit_L3", 21, 0x04, "Data prefetches hitting L3" },
	{ "Data_pref_hit_local", 21, 0x08, "Data prefetches hitting local memory" },
	{ "Data_pref_hit_remote", 21, 0x10, "Data prefetches hitting remote memory" },
	{ "Data_pref_drop_L3", 21, 0x20, "Data prefetches dropped by L3" },
	{ "St_hit_L2", 22, 0x01, "Stores hitting L2" },
	{ "St_hit_L3", 22, 0x02, "Stores missing L2, hitting L3" },
	{ "St_L2_local_C2C", 22, 0x04, "Stores taking a line from another L2 on the die" },
	{ "St_L2_remote_C2C", 22, 0x08, "Stores taking a line from an L2 on another die" },
	{ "St_local", 22, 0x10, "Stores to local memory" },
	{ "St_remote", 22, 0x20, "Stores to remote memory" },
	{ "DC_miss_L2_L3_hit", 23, 0x01, "L1 D-cache miss, local L2/L3 hit (speculative)" },
	{ "DC_miss_local_hit", 23, 0x02, "L1 D-cache miss, local memory hit (speculative)" },
	{ "DC_miss_remote_L3_hit", 23, 0x04, "L1 D-cache miss, remote L3/memory hit (speculative)" },
	{ "DC_miss", 23, 0x07, "L1 D-cache misses (speculative)" },
	{ "L2_clean_evict", 24, 0x01, "Clean L2 evictions" },
	{ "L2_dirty_evict", 24, 0x02, "Dirty L2 evictions" },
	{ "L2_fill_buf_full", 24, 0x04, "L2 fill buffer full" },
	{ "L2_wb_buf_full", 24, 0x08, "L2 writeback buffer full" },
	{ "L2_miss_buf_full", 24, 0x10, "L2 miss buffer full" },
	{ "L2_pipe_stall", 24, 0x20, "L2 pipeline stalls" },
	{ "Br_dir_mispred", 25, 0x01, "Branch direction mispredicts" },
	{ "Br_trg_mispred_far_tbl", 25, 0x02, "Branch target mispredicts, far table or return stack" },
	{ "Br_trg_mispred_indir_tbl", 25, 0x04, "Branch target mispredicts, indirect table" },
	{ "Br_trg_mispred_ret_stk", 25, 0x08, "Branch target mispredicts, return stack" },
	{ "Br_trg_mispred", 25, 0x0e, "Branch target mispredicts" },
	{ "Br_mispred", 25, 0x0f, "Branch mispredicts" },
	{ "Cycles_user", 26, 0x00, "Cycles in the modes selected by ut/st/ht" },
	{ "Commit_0", 28, 0x01, "Cycles no micro-op commits from this strand" },
	{ "Commit_0_all", 28, 0x02, "Cycles no micro-op commits from any strand of the core" },
	{ "Commit_1", 28, 0x04, "Cycles one micro-op commits" },
	{ "Commit_2", 28, 0x08, "Cycles two micro-ops commit" },
	{ "Commit_1_or_2", 28, 0x0c, "Cycles one or two micro-ops commit" },
};

const struct hvpmu_t4_event *hvpmu_t4_events(unsigned *n)
{
	if (n)
		*n = N(events);
	return events;
}

const struct hvpmu_t4_event *hvpmu_t4_event_by_name(const char *name)
{
	for (unsigned i = 0; name && i < N(events); i++)
		if (strcmp(events[i].name, name) == 0)
			return &events[i];
	return NULL;
}

static const struct hvpmu_t4_alias aliases[] = {
	{ "cycles", 26, 0x00, "Cycles_user" },
	{ "cpu-cycles", 26, 0x00, "Cycles_user" },
	{ "instructions", 3, 0x3f, "Instr_all" },
	{ "cache-references", 3, 0x04, "Instr_ld" },
	{ "cache-misses", 16, 0x07, "DC_miss_nospec" },
	{ "branches", 4, 0x01, NULL },
	{ "branch-instructions", 4, 0x01, NULL },
	{ "branch-misses", 25, 0x0f, "Br_mispred" },
	{ "L1-dcache-loads", 3, 0x04, "Instr_ld" },
	{ "L1-dcache-load-misses", 16, 0x07, "DC_miss_nospec" },
	{ "L1-dcache-stores", 3, 0x08, "Instr_st" },
	{ "L1-dcache-store-misses", 16, 0x07, "DC_miss_nospec" },
	{ "L1-icache-loads", 3, 0x3f, "Instr_all" },
	{ "L1-icache-load-misses", 11, 0x03, "IC_miss" },
	{ "LLC-loads", 3, 0x04, "Instr_ld" },
	{ "LLC-stores", 3, 0x08, "Instr_st" },
	{ "dTLB-load-misses", 17, 0x3f, "DTLB_miss_asynch" },
	{ "iTLB-load-misses", 6, 0x3f, "ITLB_miss_asynch" },
};

const struct hvpmu_t4_alias *hvpmu_t4_aliases(unsigned *n)
{
	if (n)
		*n = N(aliases);
	return aliases;
}

const struct hvpmu_t4_alias *hvpmu_t4_alias_by_name(const char *alias)
{
	for (unsigned i = 0; alias && i < N(aliases); i++)
		if (strcmp(aliases[i].alias, alias) == 0)
			return &aliases[i];
	return NULL;
}

int hvpmu_t4_event_supported(unsigned sl, unsigned mask)
{
	const struct hvpmu_t4_group *g = hvpmu_t4_group(sl);
	if (!g || mask > 0x3f)
		return 0;
	switch (g->kind) {
	case HVPMU_T4_KIND_SL3:
	case HVPMU_T4_KIND_SL4:
	case HVPMU_T4_KIND_CYCLES:
	case HVPMU_T4_KIND_MISPRED:
		return 1;
	case HVPMU_T4_KIND_MEM:
	case HVPMU_T4_KIND_PIPE:
		return (mask & g->valid_mask) != 0 && (mask & g->valid_mask & ~g->modeled_mask) == 0;
	default:
		return 0;
	}
}

/* TABLE 10-2 sl=4 mask bits */
#define SL4_MASK_BRANCHES 0x01
#define SL4_MASK_TAKEN 0x02
#define SL_BRANCH_GROUP 4
#define SL_MISPRED_GROUP 25

int hvpmu_t4_event_needs_taken(unsigned sl, unsigned mask)
{
	return sl == SL_BRANCH_GROUP && (mask & SL4_MASK_TAKEN) && !(mask & SL4_MASK_BRANCHES);
}

int hvpmu_t4_event_needs_branches(unsigned sl, unsigned mask)
{
	(void)mask;
	return sl == SL_MISPRED_GROUP;
}

/* KIND_MEM groups: mask bit -> machine memory events (docs/memory-model.md) */
#define MEV(e) (UINT64_C(1) << HVPMU_MEV_##e)
_Static_assert(HVPMU_NMEV <= 64, "memory events fit a 64-bit mask");
static const struct {
	uint8_t sl;
	uint64_t bit_events[6];
} mem_groups[] = {
	{ 5, { MEV(IC_MISS_L2L3), MEV(IC_MISS_MEM), MEV(IC_MISS_REMOTE), MEV(BTC_MISS), MEV(ITLB_MISS) } },
	/* sl=7: "mask[0] and mask[1] events are not mutually exclusive": 0x01
	 * is every microtag miss, 0x02 those whose ptag hit */
	{ 7, { MEV(MTAG_MISS_PTAG_MISS) | MEV(MTAG_MISS_PTAG_HIT), MEV(MTAG_MISS_PTAG_HIT), MEV(MTAG_HIT_PTAG_MISS),
	       MEV(MTAG_WAY_MISMATCH) } },
	{ 8, { 0, 0, 0, MEV(BTC_TARG_INCORRECT) } },
	{ 6, { MEV(ITLB_FILL_8K), MEV(ITLB_FILL_64K), MEV(ITLB_FILL_4M), MEV(ITLB_FILL_256M), MEV(ITLB_FILL_2G),
	       MEV(ITLB_FILL_TRAP) } },
	{ 10, { MEV(HWTW_I_L2), MEV(HWTW_I_L3), MEV(HWTW_I_MEM), MEV(HWTW_D_L2), MEV(HWTW_D_L3), MEV(HWTW_D_MEM) } },
	{ 17, { MEV(DTLB_FILL_8K), MEV(DTLB_FILL_64K), MEV(DTLB_FILL_4M), MEV(DTLB_FILL_256M), MEV(DTLB_FILL_2G),
		MEV(DTLB_FILL_TRAP) } },
	/* sl=11 0x02: "local memory hit, remote L3 hit, or remote memory hit" */
	{ 11, { MEV(IC_MISS_L2L3), MEV(IC_MISS_MEM) | MEV(IC_MISS_REMOTE) } },
	/* sl=16 / 23 "Does not count block loads, twin loads, prefetches, or
	 * atomics" (TABLE 10-2): the ordinary loads' misses, not
	 * DC_MISS_SPECIAL (twin loads are still counted: docs/memory-model.md) */
	{ 16, { MEV(DC_MISS_L2L3), MEV(DC_MISS_MEM), MEV(DC_MISS_REMOTE) } },
	/* store buffer (src/model/stbuf.h); a load counts once, in the buffer
	 * or the queue: "Store buffer RAW hits supercede store queue RAW hits" */
	{ 19, { MEV(RAW_SB_FULL), MEV(RAW_SB_PARTIAL), MEV(RAW_SQ_FULL), MEV(RAW_SQ_PARTIAL) } },
	/* sl=20 0x10: store-queue tag waits (src/model/stbuf.h: one ring) */
	{ 20, { MEV(IC_EVICT_INVAL), MEV(IC_SNOOP_INVAL), MEV(DC_EVICT_INVAL), MEV(DC_SNOOP_INVAL), MEV(SQ_TAG_WAIT) } },
	{ 22, { MEV(ST_HIT_L2), MEV(ST_HIT_L3), MEV(ST_L2_LOCAL_C2C), MEV(ST_L2_REMOTE_C2C), MEV(ST_MEM),
		MEV(ST_REMOTE) } },
	{ 23, { MEV(DC_MISS_L2L3), MEV(DC_MISS_MEM), MEV(DC_MISS_REMOTE) } },
	/* sl=24 0x04..0x20: occurrences of a full buffer (docs/memory-model.md "L2 buffers") */
	{ 24, { MEV(L2_CLEAN_EVICT), MEV(L2_DIRTY_EVICT), MEV(L2_FB_FULL), MEV(L2_WB_FULL), MEV(L2_MB_FULL),
		MEV(L2_PIPE_STALL) } },
	/* prefetch (docs/prefetch-model.md): miss-buffer-full drops (sl=18 0x04)
	 * need more than one running strand on the core (TABLE 10-2 note);
	 * remote memory (sl=21 0x10): multi-chip only; L2 / L3 drops (sl=21
	 * 0x02 / 0x20): the L2 / L3 miss buffer is full (src/model/l2buf.h) */
	{ 18, { MEV(HWPF_DROP_DC_HIT), MEV(SWPF_DROP_DC_HIT), MEV(SWPF_DROP_MB_FULL) } },
	{ 21, { MEV(PF_HIT_L2), MEV(PF_DROP_L2), MEV(PF_HIT_L3), MEV(PF_HIT_MEM), MEV(PF_HIT_REMOTE),
		MEV(PF_DROP_L3) } },
};

uint64_t hvpmu_t4_mem_events(unsigned sl, unsigned bit)
{
	for (unsigned i = 0; bit < 6 && i < N(mem_groups); i++)
		if (mem_groups[i].sl == sl)
			return mem_groups[i].bit_events[bit];
	return 0;
}

#define SL_CYCLES_GROUP 26

int hvpmu_t4_event_needs_memory(unsigned sl, unsigned mask)
{
	const struct hvpmu_t4_group *g = hvpmu_t4_group(sl);

	(void)mask;
	return g && (g->kind == HVPMU_T4_KIND_MEM || g->kind == HVPMU_T4_KIND_PIPE || sl == SL_CYCLES_GROUP);
}

uint64_t hvpmu_t4_event_mevs(unsigned sl, unsigned mask)
{
	uint64_t mevs = 0;

	for (unsigned b = 0; b < 6; b++)
		if (mask & (1u << b))
			mevs |= hvpmu_t4_mem_events(sl, b);
	return mevs;
}

int hvpmu_t4_event_needs_cycles(unsigned sl, unsigned mask)
{
	const struct hvpmu_t4_group *g = hvpmu_t4_group(sl);
	uint32_t causes = 0;

	if (!g || g->kind == HVPMU_T4_KIND_CYCLES)
		return g != NULL;
	for (unsigned b = 0; g->kind == HVPMU_T4_KIND_PIPE && b < 6; b++)
		if (mask & (1u << b))
			causes |= hvpmu_t4_pipe_causes(sl, b);
	return causes != 0;
}

/*
 * KIND_PIPE groups: mask bit -> pipeline cycle causes (docs/timing-model.md
 * §"Events").  TABLE 10-2 sl=1: Sel-0-wait holds the drain cycles and every
 * other cycle in which nothing is selected (the four of 0x02..0x10 "form a
 * disjoint set whose union encompasses all cycles"); one strand per core, so
 * Sel-0-ready is 0; single issue, so Sel-2 (and Pick-2/3, Commit-2) is 0.
 * sl=8 Fetch-0 counts cycles the front end delivers nothing, including
 * those in which a full instruction buffer stops fetch (data and DTLB
 * waits, also mask 0x04).  sl=9: ROB / LB / PQ are not modeled as
 * finite, so their tag waits are 0; a store finding the store buffer full
 * waits for an SB tag (0x08, src/model/stbuf.h); a DTLB miss waits at
 * Pick (0x10).
 * sl=28 mirrors sl=2: a micro-op commits in the cycle that stands for it.
 */
#define PC(c) (1u << HVPMU_PIPE_##c)
#define PIPE_STALLS (PC(FETCH) | PC(REFETCH) | PC(DRAIN) | PC(DATA) | PC(DTLB) | PC(SBFULL))
#define PIPE_BACKUP (PC(DATA) | PC(DTLB) | PC(SBFULL)) /* a full instruction buffer stops fetch */
static const struct {
	uint8_t sl;
	uint32_t bit_causes[6];
} pipe_groups[] = {
	{ 1, { PC(DRAIN), PIPE_STALLS, 0, PC(ISSUE), 0 } },
	{ 2, { PIPE_STALLS, PC(ISSUE), 0, 0 } },
	{ 8, { PC(FETCH) | PIPE_BACKUP, PC(FETCH) | PIPE_BACKUP, PIPE_BACKUP, 0 } },
	{ 9, { 0, 0, 0, PC(SBFULL), PC(DTLB) } },
	{ 28, { PIPE_STALLS, PIPE_STALLS, PC(ISSUE), 0 } },
};

uint32_t hvpmu_t4_pipe_causes(unsigned sl, unsigned bit)
{
	for (unsigned i = 0; bit < 6 && i < N(pipe_groups); i++)
		if (pipe_groups[i].sl == sl)
			return pipe_groups[i].bit_causes[bit];
	return 0;
}
