/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/supervisor.h - the guest OS performance-counter driver (layer 5).
 *
 * Acts as Linux's sparc perf driver does on T4 (../shared/reference/
 * linux-clients.md §1.6-1.7), through layer 4 only:
 *   - negotiates API group HV_GRP_VT_CPU 0x20c major 1 before use;
 *   - programs PCRs only with HV_FAST_VT_SET_PERFREG / reads them with
 *     HV_FAST_VT_GET_PERFREG, and reads/writes PICs only through the PIC ASI
 *     path (ASI 0xB0) in privileged mode, subject to picnht/picnpt;
 *   - changes events with the §10.2 sequence: disable (sl=0, ut=st=ht=0),
 *     reset the PIC, enable;
 *   - sets toe and extends each 32-bit PIC to a 64-bit count: every overflow
 *     trap (interrupt_level_15 from the hypervisor) or poll that finds PCR.ov
 *     adds 2^32 and clears ov;
 *   - with more events than the 4 PICs, rotates groups of up to 4 events on
 *     the OS tick (every `rotate_cycles` of %tick) and scales counts by
 *     enabled/running time as perf stat does.
 * Each strand (guest thread) has its own PMU; counts are summed over strands
 * as perf stat sums an inherited counter.
 * Strands: every function taking a `strand` acts only on the strands of
 * the driver's guest (md guests[guest].first_strand .. + nstrands - 1),
 * the only strands its OS runs on; any other strand is HVPMU_ERANGE and no
 * hypercall is made on it (the hypervisor would take it as the other
 * guest's).  Each entry point runs as guest OS code: it puts the strand
 * in privileged mode for its hypercalls and PMU accesses, and returns it
 * to the mode it was in (user mode while the program runs).
 * Not thread-safe: the caller serialises (as the plugin does).
 */
#ifndef HVPMU_SUPERVISOR_H
#define HVPMU_SUPERVISOR_H

#include <stddef.h>
#include <stdint.h>
#include <hvpmu/error.h>
#include <hvpmu/sun4v.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HVPMU_SV_MAX_EVENTS 64
#define HVPMU_SV_NAME_MAX 256  /* an event's name as typed (hvpmu_sv_request_events) */

/* The modes an event counts in: perf's :u :k :h, the PCR's ut / st / ht;
 * the R10000's control register adds :s (its S bit: supervisor mode) and
 * :x (its EXL bit: exception level), hvpmu/r10k_pmu.h. */
#define HVPMU_SV_MODE_USER 0x1u
#define HVPMU_SV_MODE_KERNEL 0x2u
#define HVPMU_SV_MODE_HYPER 0x4u
#define HVPMU_SV_MODE_SUPERVISOR 0x8u
#define HVPMU_SV_MODE_EXL 0x10u

/*
 * An event request, as perf's attr: `config` is the chip driver's own
 * encoding of the event (hvpmu_sv_parse_events makes it from a name):
 *   t4: (sl << 6) | mask, the TABLE 10-2 pair as the Solaris PCBE and
 *       Linux encode it (reference/t4-events.md §0);
 *   t1: the PICL select (enum hvpmu_t1_picl_event, 0..7), or
 *       HVPMU_SV_T1_PICH for the PICH instruction count (Instr_cnt).  The
 *       T1 driver keeps PICH on the instruction event in every group and
 *       rotates the PICL events; the PCR's single UT/ST pair takes the
 *       union of the group's modes (Linux's niagara1 PMU requires them
 *       equal);
 *   origin: the IRIX event number 0-31 of the R10000 (perfex -e N):
 *       events 0-15 count on counter 0, 16-31 on counter 1
 *       (hvpmu/r10k_pmu.h); the parser gives Cycles and
 *       Graduated_instructions, which both counters have, the counter
 *       left free, and refuses two events of one counter.
 */
#define HVPMU_SV_T4_CONFIG(sl, mask) (((uint64_t)(sl) << 6) | (uint64_t)(mask))
#define HVPMU_SV_T1_PICH 0x100
struct hvpmu_sv_event {
	char name[64];     /* name as the user spelled it, for reports */
	uint64_t config;   /* the back-end's encoding (above) */
	uint8_t modes;     /* HVPMU_SV_MODE_* */
	uint8_t new_group; /* start a new group with this event, even if the
			    * last one has a free counter (cpustat's -c sets) */
};

struct hvpmu_sv_config {
	uint64_t rotate_cycles; /* OS tick for group rotation and overflow polling, cycles; 0 = default;
				   on origin the IRIX clock's period, whatever is given (hvpmu/irix.h) */
	uint32_t pic_init;      /* value each PIC starts from (default 0); excluded from counts */
	/* Called on every overflow the driver accounts (may be NULL). */
	void (*on_overflow)(void *ctx, unsigned event, const struct hvpmu_guest_trap *trap);
	/* Called at every OS tick of a running strand, after rotation, with the
	 * strand's %tick (may be NULL).  The driver's own work is done; the
	 * callback may use the MCU functions below. */
	void (*on_tick)(void *ctx, uint32_t strand, uint64_t tick);
	void *ctx;
};

/* Result for one event, summed over strands. */
struct hvpmu_sv_count {
	int supported;       /* 0: "<not supported>" (unmodeled or refused by the hypervisor) */
	uint64_t raw;        /* events counted while on a PIC (64-bit extended) */
	uint64_t enabled;    /* cycles the event was enabled */
	uint64_t running;    /* cycles the event was on a PIC */
	uint64_t overflows;  /* PIC wraps accounted */
	double scaled;       /* raw * enabled / running (== raw when always running) */
};

struct hvpmu_sv;

/* Create a driver for guest `guest` of hv; installs its trap handler
 * (which handles interrupt_level_15 and _14 and ignores other trap types).
 * cfg may be NULL for defaults.  Returns 0, HVPMU_EINVAL (also for a guest
 * the machine description does not have) or HVPMU_ENOMEM. */
int hvpmu_sv_create(struct hvpmu_hv *hv, unsigned guest, const struct hvpmu_sv_config *cfg,
		    struct hvpmu_sv **out);
void hvpmu_sv_destroy(struct hvpmu_sv *sv);

/* Add an event before the first hvpmu_sv_start_strand().  Returns its index
 * (>= 0), HVPMU_EFULL, or HVPMU_EINVAL (sl > 31, mask > 0x3f, no mode). An
 * event the model cannot count is accepted and reported unsupported. */
int hvpmu_sv_add_event(struct hvpmu_sv *sv, const struct hvpmu_sv_event *ev);
unsigned hvpmu_sv_nevents(const struct hvpmu_sv *sv);
/* The OS tick period in cycles (hvpmu_sv_config.rotate_cycles, or its
 * default of 4 ms of the machine's clock): the driver rotates groups and
 * calls on_tick every that many cycles of each running strand. */
uint64_t hvpmu_sv_tick_cycles(const struct hvpmu_sv *sv);
/* How many groups the events rotate in on the OS tick: 1 when every
 * event has a counter of its own (no multiplexing), 0 with no event. */
unsigned hvpmu_sv_ngroups(const struct hvpmu_sv *sv);

/* A strand starts running the measured program (thread creation): program
 * its PMU with the first group.  Negotiates the API group on first use.
 * Returns 0, HVPMU_EHV (negotiation failed) or HVPMU_ERANGE. */
int hvpmu_sv_start_strand(struct hvpmu_sv *sv, uint32_t strand);
/* The strand stops (thread exit / program end): fold its counts, disable. */
int hvpmu_sv_stop_strand(struct hvpmu_sv *sv, uint32_t strand);

/* Fold the counts of a running strand's current group into its events
 * without stopping it (the back-end's pcbe_sample: poll overflows, read
 * the PICs, fold their advance since the last fold), so that
 * hvpmu_sv_read() and hvpmu_sv_read_strand() include them: a sample, as
 * cpustat takes one each interval.  Counts are exact across folds; enabled
 * time advances too.  A strand not running: nothing to do.  Returns 0,
 * HVPMU_ERANGE. */
int hvpmu_sv_fold(struct hvpmu_sv *sv, uint32_t strand);

/* Strand `strand`'s share of event `idx` folded so far (by hvpmu_sv_fold,
 * group rotation or hvpmu_sv_stop_strand): *raw events (64-bit extended,
 * unscaled) and *running cycles on a PIC.  Returns 0 or HVPMU_ERANGE. */
int hvpmu_sv_read_strand(struct hvpmu_sv *sv, uint32_t strand, unsigned idx, uint64_t *raw, uint64_t *running);

/* Counts of event `idx`, summed over the strands stopped so far (call
 * hvpmu_sv_stop_strand() first for a running strand).  Returns 0 or
 * HVPMU_ERANGE. */
int hvpmu_sv_read(struct hvpmu_sv *sv, unsigned idx, struct hvpmu_sv_count *out);

/*
 * Chip-wide ("uncore") counter devices, each with two counters (busstat's
 * pic0 and pic1), numbered by the back-end (hvpmu_sv_uncore_parse):
 *   t4: mcuN, N = 0 .. nmcu-1, the memory controllers' DRAM counters
 *       (sparc-t4-performance-instrumentation.md §10.5), the OS's group:
 *       counters 0 and 1 (DRAM_PERF_COUNT01_REG) with selects sel0 / sel1
 *       of DRAM_PERF_CTL_REG (TABLE 10-7 codes), reached only through
 *       HV_FAST_VT_GET/SET_PERFREG ids HV_VT_PERFREG_MCU0 + 3 * mcu + k;
 *   t1: jbus0 (device 0) and dram0-3 (devices 1-4), the JBUS and DRAM
 *       PerfRegs (niagara-perf-api.txt), through NIAGARA_GET/SET_PERFREG
 *       only; pic0 / pic1 as Solaris busstat names them (pic0 = the upper
 *       half, hvpmu_t1_pic_counter); codes are the 4-bit codes of
 *       hvpmu/t1_perfregs.h (DRAM: stop << 3 | select).
 * program: set both counters' codes, clear the counters (and their sticky
 *          bits); negotiates the API group on first use.
 * read:    extend the 31-bit counters to 64 bits (a wrap, shown by the
 *          sticky bit and the value, adds 2^31; the sticky bit is then
 *          cleared) and return the counts since program.  Sample often
 *          enough that fewer than 2^31 events happen between reads.
 * Both run as guest OS code on `strand`.  Return 0, HVPMU_ERANGE (dev,
 * strand), or HVPMU_EHV (a hypercall failed: e.g. ENOACCESS when the
 * machine description gives the guest no DRAM group); hvpmu_sv_last_status()
 * tells which.
 */
#define HVPMU_SV_MAX_UNCORE 16
int hvpmu_sv_uncore_program(struct hvpmu_sv *sv, uint32_t strand, unsigned dev, const unsigned code[2]);
int hvpmu_sv_uncore_read(struct hvpmu_sv *sv, uint32_t strand, unsigned dev, uint64_t counts[2]);

/*
 * Niagara MMU statistics (niagara-mmustat-api.txt), as Linux's
 * arch/sparc/kernel/sysfs.c does it (linux-clients.md §1.4): negotiate
 * group 0x200 (pre-versioning fallback to 1.0 on EBADTRAP/ENOTSUPPORTED),
 * zero the 0x200-byte buffer at guest real address `ra` (64-byte aligned),
 * and NIAGARA_MMUSTAT_CONF it for `strand`.  read: the buffer's 64 words
 * (host order) after NIAGARA_MMUSTAT_INFO confirms the buffer; stop:
 * CONF with ra 0.  Return 0 or HVPMU_EHV (hvpmu_sv_last_status() says
 * which sun4v status), HVPMU_ERANGE.
 */
#define HVPMU_SV_MMUSTAT_WORDS 64
int hvpmu_sv_mmustat_start(struct hvpmu_sv *sv, uint32_t strand, uint64_t ra);
int hvpmu_sv_mmustat_read(struct hvpmu_sv *sv, uint32_t strand, uint64_t words[HVPMU_SV_MMUSTAT_WORDS]);
int hvpmu_sv_mmustat_stop(struct hvpmu_sv *sv, uint32_t strand);

/* Last hypervisor status that made an event unsupported or negotiation
 * fail (HV_EOK if none). */
uint64_t hvpmu_sv_last_status(const struct hvpmu_sv *sv);


/* ---- SGI Origin Hub MD counters (`hvpmu mdperf`, src/supervisor/mdperf_names.c) ----
 *
 * The six sets and their six counters each, in the order of
 * hw-and-hypervisor.md §5.2 (hwperftypes.h: set i is md_perf_control_t
 * bit i; counter j is mpv_count[i][j]), by the names the tool prints.
 * Constant data: thread-safe. */
#define HVPMU_SV_MD_SETS 6
#define HVPMU_SV_MD_COUNTERS 6
/* "mem_cycles", "outmsg_class", "inval_class", "inmsg_class", "dir_state",
 * "local_req"; NULL for set >= 6. */
const char *hvpmu_sv_mdperf_set_name(unsigned set);
/* Counter `counter` of set `set` ("idle", "nack", "unowned", ...); NULL
 * out of range. */
const char *hvpmu_sv_mdperf_counter_name(unsigned set, unsigned counter);
/* The set of that name (case-insensitive), or -1. */
int hvpmu_sv_mdperf_set_of(const char *name);

/* ---- the chip drivers as the tools see them (src/supervisor/backend*.c) ----
 *
 * Each platform's driver names its events and devices, parses the event
 * syntax users type and tells the tools what they need to know about an
 * event, so that no tool knows a chip (illumos pcbe_ops_t: list events,
 * event coverage; Linux perf: the PMU's events and aliases).  Constant
 * data and pure functions: thread-safe.
 */
struct hvpmu_sv_backend;

/* The back-ends, i = 0, 1, ... (NULL past the last), and the one that
 * drives platform `platform` (enum hvpmu_platform, hvpmu/md.h). */
const struct hvpmu_sv_backend *hvpmu_sv_backend_at(unsigned i);
const struct hvpmu_sv_backend *hvpmu_sv_backend_of(int platform);

/* Services of a platform's hypervisor or kernel that a tool is built on
 * (struct hvpmu_sv_backend_desc.services). */
enum hvpmu_sv_service {
	HVPMU_SV_SERVICE_MMUSTAT = 1u << 0, /* sun4v MMU statistics (niagara-mmustat-api.txt): hvpmu mmustat */
	HVPMU_SV_SERVICE_MDPERF = 1u << 1,  /* IRIX syssgi(SGI_EVENTCTR, MDPERF_*) (irix-mdperf.2): hvpmu mdperf */
};
/* The platform name of the first back-end (in hvpmu_sv_backend_at()
 * order) whose platform offers `service`: a tool's default platform.
 * NULL if none does. */
const char *hvpmu_sv_platform_with(enum hvpmu_sv_service service);

/* What a back-end shows a user. */
struct hvpmu_sv_backend_desc {
	const char *name;           /* "t4", "t1": the platform name that selects it (-p) */
	unsigned services;          /* enum hvpmu_sv_service: what its hypervisor or kernel offers the tools */
	const char *title;          /* heading of its events in `hvpmu list` */
	const char *alias_title;    /* heading of its generic aliases, NULL if it lists none */
	const char *raw_help;       /* the raw syntax and modifiers, NULL if none is listed */
	const char *cpustat_title;  /* heading in `cpustat -h` (NULL: no counters for cpustat) */
	const char *tick_name;      /* cpustat -t's column: the cycle counter's name ("%tick" on SPARC) */
	const char *default_events; /* `hvpmu stat` without -e */
	unsigned npic;              /* counters per strand */
	unsigned modes;             /* the modes a counter can select (HVPMU_SV_MODE_*) */
	uint64_t emask;             /* config bits cpustat's emask may set (0: no emask) */
	const char *mode_help;      /* the modifiers, for error messages: "(use :u, :k, :h)" */
};
const struct hvpmu_sv_backend_desc *hvpmu_sv_backend_desc(const struct hvpmu_sv_backend *be);
/* 1 if the back-end's events are all its guest driver's CPU counter events
 * (every platform's but power's).  Power's driver (POWER7, docs/power7-pmu.md)
 * counts the -e events that name counters, beside hv_gpci events and the
 * model's counts (hvpmu_sv_request_events): 0, and
 * hvpmu_sv_backend_counters() 1. */
int hvpmu_sv_backend_driver(const struct hvpmu_sv_backend *be);
/* 1 if the back-end has a guest driver for CPU counters at all (a run
 * whose request has counter events, rq->nevents, starts it). */
int hvpmu_sv_backend_counters(const struct hvpmu_sv_backend *be);
/* The back-end of the default platform (hvpmu/platform.h: a tool's
 * platform when none is given). */
const struct hvpmu_sv_backend *hvpmu_sv_backend_default(void);

/* One event of a back-end's list (native events, then aliases). */
struct hvpmu_sv_event_info {
	const char *name;
	uint64_t config;
	char text[160];   /* its encoding and description, as `hvpmu list` prints them after the name */
	int supported;    /* 1: the model counts it */
};
/* The i-th native event / generic alias; HVPMU_ERANGE past the last. */
int hvpmu_sv_backend_event(const struct hvpmu_sv_backend *be, unsigned i, struct hvpmu_sv_event_info *out);
int hvpmu_sv_backend_alias(const struct hvpmu_sv_backend *be, unsigned i, struct hvpmu_sv_event_info *out);

/*
 * Parse a comma-separated event list ("Instr_all,cycles:u,r0c4", t4's
 * "sl=N,mask=M" pairs) into ev[], appending to *n (at most cap).  Names:
 * the back-end's native events, its generic aliases, its raw syntax;
 * modifiers :u :k :h as perf, :s :x on the R10000 (without one: user and
 * kernel); only the modes the back-end's counters have.  A back-end may
 * place the list as a whole (the R10000: one event per counter, refused
 * otherwise).  Returns 0, or -1 with a one-line message in err (*n then
 * may count events of the refused list).
 */
int hvpmu_sv_parse_events(const struct hvpmu_sv_backend *be, const char *list, struct hvpmu_sv_event *ev,
			  unsigned *n, unsigned cap, char *err, size_t errlen);

/* Properties of an event `config` of the back-end: */
int hvpmu_sv_event_supported(const struct hvpmu_sv_backend *be, uint64_t config); /* the model counts it */
uint32_t hvpmu_sv_event_pics(const struct hvpmu_sv_backend *be, uint64_t config);  /* bit i: counter i may count it */
/* 1 if it stays on one counter in every group (T1 Instr_cnt on PICH) */
int hvpmu_sv_event_shared(const struct hvpmu_sv_backend *be, uint64_t config);
/* 1 if the counter events configs[0..n) count at once, in one group of
 * the driver (power: power_check_constraints, each event on the counter
 * of its PMC field or an alternative's); 0 if the driver would split them
 * into groups it multiplexes.  Back-ends whose counters take any event:
 * 1 (placing them on counters is hvpmu_sv_event_pics'). */
int hvpmu_sv_events_fit(const struct hvpmu_sv_backend *be, const uint64_t *configs, unsigned n);
/* config with cpustat's emask bits ORed in: 0, or -1 if emask has bits
 * outside desc->emask */
int hvpmu_sv_event_emask(const struct hvpmu_sv_backend *be, uint64_t config, uint64_t emask, uint64_t *out);
/* perf's generic meaning, for derived metrics (insn per cycle) */
enum { HVPMU_SV_GENERIC_NONE = 0, HVPMU_SV_GENERIC_INSTRUCTIONS, HVPMU_SV_GENERIC_CYCLES };
int hvpmu_sv_event_generic(const struct hvpmu_sv_backend *be, uint64_t config);
/*
 * What counting it reads of the model (enum hvpmu_feature, hvpmu/machine.h:
 * its memory events' outputs, cycles, outcomes), and what a run of it
 * needs: the same, and for an event the memory model serves the exact
 * modeled time, which the guest OS reports as every counter's running
 * time (the CSV's run-time, multiplexing, interval samples) -- as it has
 * since the memory model exists; the model runs only the parts these
 * need (hvpmu_machine_set_features, docs/memory-model.md "Model parts").
 */
unsigned hvpmu_sv_event_reads(const struct hvpmu_sv_backend *be, uint64_t config);
unsigned hvpmu_sv_event_features(const struct hvpmu_sv_backend *be, uint64_t config);

/*
 * Uncore devices by name (busstat -w, -e): the back-end that has a device
 * `name` ("mcu1", "dram0", "jbus0"), its number for
 * hvpmu_sv_uncore_program (*dev), and the events of its kind.  Devices
 * past what the default machine has are accepted up to
 * HVPMU_SV_MAX_UNCORE; the machine description says how many exist
 * (hvpmu_sv_uncore_count).  Returns the back-end or NULL.
 */
const struct hvpmu_sv_backend *hvpmu_sv_uncore_parse(const char *name, unsigned *dev);
/* The name of device `dev` of the back-end ("mcu1"), 0 or HVPMU_ERANGE. */
int hvpmu_sv_uncore_name(const struct hvpmu_sv_backend *be, unsigned dev, char *buf, size_t n);
/* How many devices the machine `md` (struct hvpmu_md, hvpmu/md.h) has. */
struct hvpmu_md;
unsigned hvpmu_sv_uncore_count(const struct hvpmu_sv_backend *be, const struct hvpmu_md *md);
/* The code of event `name` (a name or a number) of device `dev`'s kind:
 * 0 or -1.  "clear_pic" is the code that counts nothing. */
int hvpmu_sv_uncore_code(const struct hvpmu_sv_backend *be, unsigned dev, const char *name, unsigned *code);
/* The i-th named event of device `dev`'s kind (in code order): its name
 * and code; HVPMU_ERANGE past the last.  "clear_pic" comes last. */
int hvpmu_sv_uncore_event(const struct hvpmu_sv_backend *be, unsigned dev, unsigned i, const char **name,
			  unsigned *code);
/* The kinds of devices of a back-end, i = 0, 1, ...: the prefix of their
 * names ("mcu", "dram", "jbus") and the first device of that kind;
 * HVPMU_ERANGE past the last. */
int hvpmu_sv_uncore_kind(const struct hvpmu_sv_backend *be, unsigned i, const char **prefix, unsigned *first_dev);

/* Names the tools print: a status of the platform services (sun4v
 * "ENOACCESS", ...), an MMU-statistics field (Linux's struct
 * hv_mmu_statistics names; NULL for reserved words). */
const char *hvpmu_sv_status_name(uint64_t status);
const char *hvpmu_sv_mmustat_field_name(uint32_t offset);

/* A placement of guest threads on strands by name ("pack", "spread":
 * enum hvpmu_placement, hvpmu/md.h), or -1 if there is none of that name. */
int hvpmu_sv_placement_of(const char *name);

/* The built-in descriptions' names, i = 0, 1, ... (NULL past the last):
 * "t4", "t4-1", "t4-2", "t4-4", "t1" (hvpmu_md_name_at). */
const char *hvpmu_sv_machine_name_at(unsigned i);

/* The platform (enum hvpmu_platform) of a built-in description's name
 * ("t4", "t4-2", "t1", ...), or -1 if there is none of that name. */
int hvpmu_sv_platform_of(const char *name);
/*
 * The machine a command line names: platform `platform` (a built-in
 * description, NULL or "" = t4), then the description file `md_file`
 * (NULL: none) over it, which may not name another platform when
 * `platform_given`.  Fills *md, and platform_out
 * (HVPMU_SV_PLATFORM_NAME_MAX bytes) with the name the session starts
 * from (hvpmu/session.h stat_request.platform).  Returns 0, or -1 with a
 * one-line message in err.
 */
#define HVPMU_SV_PLATFORM_NAME_MAX 16
int hvpmu_sv_load_machine(const char *platform, const char *md_file, int platform_given, struct hvpmu_md *md,
			  char *platform_out, char *err, size_t errlen);

/* The program format and emulator of the machine's processors (its ISA,
 * hvpmu/isa.h): ELF class, data and machine; the qemu-user binary and
 * the default sysroot. */
struct hvpmu_sv_program_format {
	uint8_t elf_class, elf_data;
	uint16_t elf_machine;
	const char *qemu_user;
	const char *qemu_reserved_va; /* its -R: hvpmu_isa.qemu_reserved_va */
	const char *sysroot;
	const char *isa;
};
int hvpmu_sv_program_format(const struct hvpmu_md *md, struct hvpmu_sv_program_format *out);
/* Whether the file at `path` is a program of that format (its ELF
 * header: class, data and machine; hvpmu_isa_is_program, hvpmu/isa.h). */
int hvpmu_sv_program_of(const struct hvpmu_sv_program_format *pf, const char *path);

#ifdef __cplusplus
}
#endif
#endif
