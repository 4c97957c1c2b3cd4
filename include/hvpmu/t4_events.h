/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/t4_events.h - the SPARC T4 event table as data.
 *
 * One row per named (sl, mask) event: names as Solaris `cpustat -h` gives
 * them (../shared/reference/t4-events.md §4, the T4 PCBE), groups and
 * precise flags from sparc-t4-performance-instrumentation.md TABLE 10-2.
 * A second table describes each sl group: which mask bits are valid, whether
 * it is precise, and what the model can count today.  Generic aliases map
 * as Linux maps them for T4 (linux-clients.md §1.7).
 * Everything here is read-only data: thread-safe.
 */
#ifndef HVPMU_T4_EVENTS_H
#define HVPMU_T4_EVENTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the model counts an sl group. */
enum hvpmu_t4_kind {
	HVPMU_T4_KIND_NONE = 0,     /* sl=0 (disabled) or reserved: counts nothing */
	HVPMU_T4_KIND_SL3,          /* instruction groups by mask (footnotes 5-9) */
	HVPMU_T4_KIND_SL4,          /* branches / taken / swcount / atomics / prefetch / block */
	HVPMU_T4_KIND_CYCLES,       /* sl=26: cycles in the modes selected by ut/st/ht */
	HVPMU_T4_KIND_MISPRED,      /* sl=25: branch mispredicts (the strand's predictor) */
	HVPMU_T4_KIND_MEM,          /* memory-hierarchy events (hvpmu_t4_mem_events) */
	HVPMU_T4_KIND_PIPE,         /* pipeline cycles by cause (hvpmu_t4_pipe_causes), plus the
	                               front-end counts of hvpmu_t4_mem_events (sl=8 0x08) */
	HVPMU_T4_KIND_UNMODELED,    /* needs the memory hierarchy / pipeline model: not supported yet */
};

struct hvpmu_t4_group {
	uint8_t sl;
	uint8_t valid_mask;   /* mask bits the group uses (others ignored) */
	uint8_t modeled_mask; /* mask bits the model counts today (KIND_MEM and KIND_PIPE groups) */
	uint8_t precise;      /* TABLE 10-2 "Precise Event" column */
	uint8_t strand_specific; /* TABLE 10-2 "Virtual processor-specific" */
	enum hvpmu_t4_kind kind;
	const char *title;
};

/* KIND_MEM and KIND_PIPE groups: which machine memory events (enum
 * hvpmu_mem_event bits) mask bit `bit` (0..5) of group `sl` counts; 0 if
 * none. */
uint64_t hvpmu_t4_mem_events(unsigned sl, unsigned bit);
/* KIND_PIPE groups (sl=1, 2, 8, 9, 28): which pipeline cycle causes (enum
 * hvpmu_pipe_cause bits) mask bit `bit` (0..5) of group `sl` counts; 0 if
 * none (docs/timing-model.md gives the table and its reasoning).  A
 * counter with several mask bits counts the union of their causes: each
 * cycle once ("the counter is only incremented once for each cycle",
 * TABLE 10-2 sl=9). */
uint32_t hvpmu_t4_pipe_causes(unsigned sl, unsigned bit);

/* Row for sl 0..31. */
const struct hvpmu_t4_group *hvpmu_t4_group(unsigned sl);

struct hvpmu_t4_event {
	const char *name;     /* e.g. "Instr_ld" */
	uint8_t sl;
	uint8_t mask;
	const char *desc;
};

/* The named events, in (sl, mask) order; *n receives the count. */
const struct hvpmu_t4_event *hvpmu_t4_events(unsigned *n);
/* Case-sensitive lookup by name; NULL if unknown. */
const struct hvpmu_t4_event *hvpmu_t4_event_by_name(const char *name);

/* Generic (perf) alias -> T4 encoding, as Linux perf_event.c niagara4. */
struct hvpmu_t4_alias {
	const char *alias;    /* "cycles", "instructions", ... */
	uint8_t sl;
	uint8_t mask;
	const char *native;   /* native event name it maps to, or NULL */
};
const struct hvpmu_t4_alias *hvpmu_t4_aliases(unsigned *n);
const struct hvpmu_t4_alias *hvpmu_t4_alias_by_name(const char *alias);

/* 1 if (sl, mask) counts taken conditional branches separately from the
 * static instruction groups (sl=4 mask bit 0x02 without 0x01): an event
 * source then has to resolve branch outcomes. */
int hvpmu_t4_event_needs_taken(unsigned sl, unsigned mask);
/* 1 if (sl, mask) counts branch mispredicts: an event source then has to
 * report every control transfer (hvpmu_machine_branch). */
int hvpmu_t4_event_needs_branches(unsigned sl, unsigned mask);
/* 1 if (sl, mask) needs the memory model running (memory events and
 * cycles, whose timing includes miss latencies). */
int hvpmu_t4_event_needs_memory(unsigned sl, unsigned mask);
/* What such an event reads of the model: the memory events it sums (bit e
 * = enum hvpmu_mem_event e; the front-end counts of a pipeline group
 * included), and 1 from _needs_cycles if it counts cycles (sl=26 and the
 * pipeline groups' causes).  0 for the other groups. */
uint64_t hvpmu_t4_event_mevs(unsigned sl, unsigned mask);
int hvpmu_t4_event_needs_cycles(unsigned sl, unsigned mask);

/* 1 if the model counts (sl, mask) today, 0 if it would be "not supported". */
int hvpmu_t4_event_supported(unsigned sl, unsigned mask);

#ifdef __cplusplus
}
#endif
#endif
