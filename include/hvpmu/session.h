/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/session.h - one measured run, hosted by the guest OS (layer 5).
 *
 * A session is what a `hvpmu stat` / `cpustat` / `busstat` / `mmustat`
 * run asks for (struct stat_request, written by the tool), carried out by
 * the guest OS inside the process that runs the program: it builds the
 * machine of the request's description, the machine's platform services
 * and the guest driver (hvpmu/supervisor.h), programs the events, and
 * acts as the guest operating system for the program's threads
 * (hvpmu_machine_os_event: thread start and exit, system calls and their
 * modeled kernel path, large pages, I/O), samples counters on the OS tick
 * (cpustat per strand, busstat's uncore devices), reads the MMU statistics
 * at the end and writes the result (struct stat_result) for the tool.
 * The event source (the QEMU plugin) only feeds the machine; it learns
 * what to report from hvpmu_machine_features().
 *
 * The request travels as JSON (json-c) in an anonymous file (memfd) the
 * tool hands the process at start; the result comes back in a shared
 * memory area the tool owns (the result area, below), which the session
 * republishes as the run goes, so that whatever ends the run the tool
 * has the counts of its last publication (docs/cli.md "How a run ends").
 * No file outlives the run.
 *
 * Not thread-safe: the caller serialises every call and every machine
 * call of the run, as the QEMU plugin does.
 */
#ifndef HVPMU_SESSION_H
#define HVPMU_SESSION_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <hvpmu/gpci.h>
#include <hvpmu/supervisor.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STAT_MAX_BUSDEV 8      /* busstat device entries per run */
#define STAT_MAX_SAMPLES 100000 /* busstat and cpustat samples kept per run */
#define STAT_MAX_GPCI 16       /* hv_gpci events per run (hvpmu stat -e hv_gpci/.../) */

/* A busstat device of the platform's driver (hvpmu_sv_uncore_program:
 * T4 mcuN, T1 jbus0 / dram0-3) and the codes of its two pics. */
struct stat_busdev {
	unsigned dev;
	unsigned code[2];
};

/* busstat: device `dev`'s two counts since it was programmed, at strand
 * 0's %tick.  cpustat: event `dev` on strand `cpu` at that strand's %tick,
 * count[0] its raw events and count[1] its running cycles so far
 * (hvpmu_sv_read_strand). */
struct stat_sample {
	uint64_t tick;          /* the strand's %tick (cycles) when sampled */
	unsigned dev;           /* busstat: index into busdev[]; cpustat: event index */
	unsigned cpu;           /* cpustat: the strand */
	uint64_t count[2];
};

#define STAT_MMU_WORDS 64 /* the 0x200-byte MMU-statistics buffer */

/* One CPU's MMU statistics buffer (niagara-mmustat-api.txt §2.3). */
struct stat_mmu {
	unsigned cpu;
	uint64_t words[STAT_MMU_WORDS];
};

/* `hvpmu mdperf` (SGI Origin Hub MD counters through the IRIX service,
 * hvpmu/irix.h): one node's counters as MDPERF_NODE_GET_COUNT returns
 * them (hw-and-hypervisor.md §5.2 md_perf_values_t), its generation
 * number, and how many OS clock ticks each set was the live one. */
#define STAT_MAX_MDNODES 64
#define STAT_MD_SETS 6
#define STAT_MD_COUNTERS 6
struct stat_mdnode {
	int32_t node;               /* cnodeid */
	int32_t pad;
	int64_t generation;         /* GET_COUNT's rval: the collection's generation number */
	uint64_t value[STAT_MD_SETS][STAT_MD_COUNTERS];   /* mpr_value: 63-bit accumulated counts */
	uint64_t overflow;          /* bit set * 6 + counter: mpr_overflow seen since the last read */
	int64_t timestamp[STAT_MD_SETS];  /* mpv_timestamp: lbolt of each set's last collection */
	uint64_t live_ticks[STAT_MD_SETS]; /* OS ticks each set was live (the multiplexing share) */
};

struct stat_request {
	unsigned nevents;
	struct hvpmu_sv_event ev[HVPMU_SV_MAX_EVENTS];
	uint32_t pic_init;
	uint64_t rotate_cycles;
	char overflow_log[4096]; /* "" = none */
	int result_fd;           /* the result area's file descriptor in the session's process */
	unsigned nbusdev;
	struct stat_busdev busdev[STAT_MAX_BUSDEV];
	uint64_t sample_cycles;  /* busstat interval in cycles (0: no sampling) */
	char platform[16];       /* "t4" (default), "t4-2", "t4-4" or "t1" (hvpmu_md_by_name) */
	char placement[8];       /* "" / "pack" or "spread" (hvpmu_sv_placement_of) */
	int mmustat;             /* collect Niagara MMU statistics per CPU */
	int cpustat;             /* sample every strand's events every sample_cycles (cpustat) */
	char md_path[4096];      /* machine-description file ("" = the platform's built-in one) */
	uint32_t hw_prefetch;    /* L1D hardware prefetcher degree (md mem.l1d_hw_prefetch), 0 = off */
	int mdperf;              /* enable the Hub MD counters (hvpmu mdperf) */
	int32_t mdperf_node;     /* the node, or -1 (CNODEID_NONE): the whole system */
	uint32_t mdperf_sets;    /* md_perf_control_t ctrl_bits: bit i = set i (0x3f: all) */
	int follow;              /* the tool's: count the program's process tree through a service
				    (docs/service.md); not part of the request file */
	uint64_t monitor_cycles; /* a monitor of a running service (hvpmu_session_monitor_start): it
				    ends after this many cycles of the machine's time (0: when its
				    tool says so) */
	uint32_t features;       /* HVPMU_FEAT_* the machine models beyond what the events need (a
				    standing service's: every part, for the monitors to come);
				    not part of the request file */
	char service[100];       /* the tool's: a running service's name (hvpmu serve --name) to
				    attach to or monitor ("" = none); not part of the request file */
	char guest[32];          /* the tool's: the service's guest (md guests[].name; "" = the
				    first); not part of the request file */
	unsigned ngpci;          /* hv_gpci events (hvpmu/gpci.h): the guest OS reads each from the
				    program's partition at the program's start and end */
	struct hvpmu_gpci_event gpci[STAT_MAX_GPCI];
	/* The finished machine description the run host builds the machine
	 * from (hvpmu_session_describe: the tool's, with its command line's
	 * overrides); have_md 0: the host builds it from platform, md_path,
	 * placement and hw_prefetch (a request a library caller made).  In
	 * the request file as the struct's bytes (this build's layout); the
	 * host checks it as a file's (hvpmu_md_check). */
	int have_md;
	struct hvpmu_md md;
};

/* `hvpmu stat --per-process` (a service's run, docs/service.md): one
 * guest process image's share of every event, summed over its threads
 * and the strands they ran on, from each thread's start to its end (the
 * counts each strand folded meanwhile, hvpmu_sv_read_strand).  An image
 * is a program a process runs: a fork child until it calls execve (its
 * parent's program), then the new program, in a row of its own with the
 * same pid. */
#define STAT_MAX_PROCS 256
struct stat_proc {
	int32_t pid;            /* the process's host pid (its emulator's) */
	uint32_t process;       /* the service's number of the image (hvpmu_os_call.process) */
	char comm[16];          /* its program's file name, NUL-terminated */
	uint64_t enabled;       /* cycles its threads ran with their strand's counters on */
	uint64_t raw[HVPMU_SV_MAX_EVENTS];     /* events counted while on a PIC */
	uint64_t running[HVPMU_SV_MAX_EVENTS]; /* cycles each event was on a PIC for it */
};

/* How the run ended, as the last publication of the result area says. */
enum stat_end {
	STAT_END_NONE = 0, /* no last word: the process died without one (SIGKILL, a crash of the
			    * emulator); the counts are those of the last OS tick's publication */
	STAT_END_EXIT,     /* the program exited (exit_group, or the exit of its last thread) */
	STAT_END_SIGNAL,   /* a signal ended the program (signal): counts up to its delivery */
	STAT_END_EXEC,     /* the program called execve: counts up to the call; the new image
			    * is not counted (the emulator that counted is gone) */
};

/* The model's own counts of a run, by the generic classes of hvpmu/insn.h:
 * what `hvpmu stat` reports on a platform without a CPU counter driver
 * (docs/cli.md).  User-mode instructions of every strand. */
enum stat_generic {
	STAT_G_LOADS = 0, STAT_G_STORES, STAT_G_FP, STAT_G_BRANCHES, STAT_G_SPR, STAT_G_OTHER,
	STAT_G_SYSCALLS,   /* instructions that trap to the OS (HVPMU_IC_SYSCALL) */
	STAT_G_TAKEN_COND, /* taken conditional branches */
	STAT_NGENERIC
};

/* An hv_gpci event's count: its value at the program's end minus at its
 * start (hvpmu_gpci_event_read), or, when the hypervisor refused either
 * read, supported 0 and the first refusal's status (HVPMU_H_*). */
struct stat_gpci {
	uint64_t value;
	int64_t status;
	uint32_t supported;
	uint32_t pad;
};

struct stat_result {
	unsigned nevents;
	char name[HVPMU_SV_MAX_EVENTS][64];
	struct hvpmu_sv_count count[HVPMU_SV_MAX_EVENTS];
	uint64_t clock_hz;
	uint64_t retired;        /* user-mode instructions retired, all strands */
	uint64_t generic[STAT_NGENERIC]; /* the same by generic class (enum stat_generic) */
	uint64_t hv_status;      /* last non-EOK hypervisor status, 0 if none */
	unsigned nsamples;
	struct stat_sample *samples; /* malloc()ed by stat_result_read; free with stat_result_free */
	unsigned nmmu;
	struct stat_mmu *mmu;        /* likewise */
	enum stat_end end;       /* how the run ended */
	int signal;              /* STAT_END_SIGNAL: the signal (host number, as the exit status) */
	uint64_t gen;            /* publications so far (1: the one at start) */
	uint64_t tick;           /* the highest strand %tick at the publication (cycles) */
	uint64_t stale_cycles;   /* STAT_END_NONE: how far past its counts a strand may have run
				  * (one OS tick, cycles); 0 when the counts are final */
	/* mdperf: the status of the enable (0, or the errno syssgi gave), the
	 * ticks so far, each node's counters; interval samples are in
	 * samples[] (tick, dev = set * 6 + counter, cpu = node, count[0] =
	 * value, count[1] = overflow) */
	int32_t md_errno;
	uint64_t md_ticks;
	unsigned nmdnodes;
	struct stat_mdnode md[STAT_MAX_MDNODES];
	uint32_t untracked;          /* processes the program started that were not counted (a run
				      in one emulator: its fork children and what they execve) */
	uint32_t uncounted;          /* blocks or threads the event source ran uncounted
				      (HVPMU_OS_UNCOUNTED): the counts are incomplete */
	unsigned nproc;              /* --per-process rows, in the order the processes started */
	uint32_t unlisted;           /* process images past the first STAT_MAX_PROCS: no row (their
				      counts are in the totals); the per-process table is incomplete */
	struct stat_proc *proc;      /* (at most STAT_MAX_PROCS; malloc()ed as samples) */
	unsigned ngpci;              /* the request's hv_gpci events, final at the program's end */
	struct stat_gpci gpci[STAT_MAX_GPCI];
};

/*
 * The events of a run, as hvpmu stat takes them (-e lists, or the
 * back-end's default_events with given = 0), parsed with the platform's
 * back-end into the request `rq` and the tool's own list ev[0..*nev)
 * (names[i]: event i as typed, for reports).  A back-end with counters
 * parses as hvpmu_sv_parse_events and its events are rq->ev's; the POWER
 * back-end (no counter driver) takes hv_gpci events into rq->gpci and the
 * model's counts by name (docs/papr-gpci.md, docs/cli.md).  0, or -1 with
 * a one-line message in err.  `md` is the run's machine description.
 */
int hvpmu_sv_request_events(const struct hvpmu_sv_backend *be, const struct hvpmu_md *md, const char *list,
			    int given, struct stat_request *rq, struct hvpmu_sv_event *ev,
			    char (*names)[HVPMU_SV_NAME_MAX], unsigned *nev, char *err, size_t errlen);
/* After the run: the counts of ev[0..nev) that no counter made (the
 * model's counts, hv_gpci values) into rs->count and rs->name
 * (rs->nevents = nev); nothing for a back-end whose events are its
 * counters' (the session filled rs). */
void hvpmu_sv_result_counts(const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev, unsigned nev,
			    struct stat_result *rs);
/* Why event ev's count could not be made, beyond perf's <not supported>
 * (into buf), or NULL when there is no more to say. */
const char *hvpmu_sv_count_refusal(const struct hvpmu_sv_backend *be, const struct hvpmu_sv_event *ev,
				   const struct stat_result *rs, char *buf, size_t n);

void stat_result_free(struct stat_result *rs);

/* The request file.  Return 0 or -1 with a one-line reason in err[errlen]. */
int stat_request_write(const char *path, const struct stat_request *rq, char *err, size_t errlen);
int stat_request_read(const char *path, struct stat_request *rq, char *err, size_t errlen);
/* The largest request a standing service reads from a monitor's request
 * descriptor (docs/service.md "What the service checks"): 1 MiB, several
 * times the largest a tool writes (stat_protocol.c checks the bound at
 * compile time), and little for the service to hold for a moment. */
#define STAT_REQUEST_MAX ((size_t)1 << 20)
/* The request of descriptor fd, as a service reads a client's: only a
 * memory file (a memfd: fstat, tmpfs), at most STAT_REQUEST_MAX bytes,
 * read without waiting; anything else is refused with the reason. */
int stat_request_read_fd(int fd, struct stat_request *rq, char *err, size_t errlen);

/*
 * The result area: a shared-memory file (memfd) the tool creates and the
 * session's process inherits.  The session publishes into one of two
 * count slots and then switches the slot index with one store, so the
 * area holds a complete publication at every instant, whenever the
 * process dies; samples (busstat, cpustat) are appended in place and a
 * publication commits how many are valid.  Layout and checks:
 * src/supervisor/stat_area.c.  Same build on both sides (the version
 * word says so); the reader still checks every bound.
 */
#define STAT_MAX_CPUS 256       /* MMU-statistics buffers kept (the t4-4 has 256 strands) */
/* The tool: a new area, sized, stamped and sealed (F_SEAL_SHRINK,
 * F_SEAL_GROW, F_SEAL_SEAL: no one can change its size from then on); its
 * file descriptor (not close-on-exec, for the emulator), or -1 with a
 * one-line reason. */
int stat_area_create(char *err, size_t errlen);
/* The tool, after the run: the area's last publication into *rs (free
 * with stat_result_free).  0, or -1 with a one-line reason (nothing was
 * published: the session never started). */
int stat_area_read(int fd, struct stat_result *rs, char *err, size_t errlen);
/* The checks and copy of stat_area_read over `len` bytes at `p`. */
int stat_area_parse(const void *p, size_t len, struct stat_result *rs, char *err, size_t errlen);
/* The tool, during the run (the heartbeat, src/tools/progress.c): of the
 * area mapped at p (len bytes), the last publication's generation, %tick
 * (the highest strand's cycles), clock and user instructions retired,
 * read without a copy of the rest and checked against a publication that
 * overtakes the read.  0, or -1 when nothing (consistent) is published. */
int stat_area_progress(const void *p, size_t len, uint64_t *gen, uint64_t *tick, uint64_t *clock_hz,
		       uint64_t *retired);

/* The session: map the area of descriptor fd and close fd (the program
 * never sees it; closed on failure too).  Only a memfd of the area's size
 * sealed against shrinking and growing is mapped (common/shm_seal.h).
 * 0, or -1 with a one-line reason. */
struct stat_area;
int stat_area_attach(int fd, struct stat_area **out, char *err, size_t errlen);
void stat_area_detach(struct stat_area *a);
/* Where the session appends its samples (STAT_MAX_SAMPLES of them). */
struct stat_sample *stat_area_samples(struct stat_area *a);
/* Publish rs (its nsamples first samples of stat_area_samples, its
 * counts, MMU statistics, end and staleness); gen is set here.  Costs a
 * copy of the counts: cheap enough for every OS tick. */
void stat_area_publish(struct stat_area *a, struct stat_result *rs);

struct hvpmu_session;
struct hvpmu_machine;
struct hvpmu_isa;

/*
 * Build the run of request *rq (copied): the machine description (the
 * platform's built-in one, then md_path over it, then the placement and
 * hardware-prefetch options), the machine, its platform services, the
 * guest driver with the request's events, the features the event source
 * must report, and the guest OS's handler on the machine.  Returns 0, or
 * -1 with a one-line reason in err (unknown platform or instruction set,
 * a bad description file, an event the driver refuses, an overflow log
 * that cannot be opened, no memory).
 */
int hvpmu_session_create(const struct stat_request *rq, struct hvpmu_session **out, char *err, size_t errlen);

/* The tool's finished description for the run: `md` (the machine the tool
 * loaded) with the request's command-line overrides (hw_prefetch,
 * placement) applied, into md and rq->md (rq->have_md = 1).  0, or -1
 * with a one-line reason (an unknown placement).  Not thread-safe on rq. */
int hvpmu_session_describe(struct stat_request *rq, struct hvpmu_md *md, char *err, size_t errlen);
/*
 * The guest OS of guest `guest` (md guests[], 0..nguests-1) of a machine
 * with several guests (a standing service, hvpmu serve): as
 * hvpmu_session_create, with the guest's driver (its strands, its
 * hypercalls under its policy); host NULL builds the machine from the
 * request's description, otherwise the guest shares host's machine and
 * platform services (host outlives it).  The machine's OS handler is the
 * caller's: it passes each event to the guest owning the event's strand
 * (hvpmu_session_os_event).  flags: HVPMU_SESSION_STANDING, the guest OS
 * of a standing service, starts without a counter driver (each monitor
 * brings one: hvpmu_session_monitor_start).  Same returns as
 * hvpmu_session_create, also -1 for a guest the description does not have.
 */
#define HVPMU_SESSION_STANDING 1u
int hvpmu_session_create_guest(const struct stat_request *rq, struct hvpmu_session *host, unsigned guest,
			       unsigned flags, struct hvpmu_session **out, char *errbuf, size_t errlen);
struct hvpmu_os_call;
/* The guest OS's part of a machine OS event (hvpmu_machine_os_event). */
void hvpmu_session_os_event(struct hvpmu_session *s, const struct hvpmu_os_call *c);

/*
 * A monitor (docs/service.md "Guests and monitors"): a tool of the guest
 * (hvpmu stat -a, cpustat, busstat against a running service) has the
 * guest OS program request *rq's events on every strand of the guest
 * (started now on those that run a thread, later on the others as
 * threads start) and its busstat devices, sampled every sample_cycles of
 * the machine's time `now` (the service's clock: cycles), for
 * rq->monitor_cycles (0: until hvpmu_session_monitor_end), publishing
 * into the result area of descriptor rq->result_fd (which the session
 * maps and closes; closed too when the monitor is refused).  One
 * monitor per guest at a time.  Returns 0, or an errno with a one-line
 * reason in err: EBUSY (a monitor runs), EINVAL (a
 * request the service cannot serve: mmustat, mdperf, an overflow log, a
 * platform without a driver, events needing parts the machine does not
 * model), EACCES (the hypervisor refused the device counters: the
 * guest's perfctraccess, sun4v-hypervisor.md).
 */
int hvpmu_session_monitor_start(struct hvpmu_session *s, const struct stat_request *rq, uint64_t now, char *errbuf,
				size_t errlen);
/* The machine's time is `now` (cycles): busstat samples that are due.
 * Returns 1 when the monitor's duration is over (end it), else 0. */
int hvpmu_session_monitor_tick(struct hvpmu_session *s, uint64_t now);
/* End the monitor at the machine's time `now`: the last, partial
 * interval sampled, the counters stopped, the final publication; the
 * guest OS goes on without counters. */
void hvpmu_session_monitor_end(struct hvpmu_session *s, uint64_t now);
/* 1 while a monitor runs. */
int hvpmu_session_monitoring(const struct hvpmu_session *s);

/*
 * The guest OS makes H_GetPerformanceCounterInfo (hcall 0xF080) for a
 * tool in its partition, as Linux's hv_gpci does (hvpmu/gpci.h
 * hvpmu_gpci_call): args[0] the request, args[1] the starting index,
 * args[2] secondary index << 8 | counter_info_version_in; the reply in
 * *r (its status the hcall's).  The counts are the CEC statistics as the
 * hypervisor's dispatcher last accounted them (hvpmu_machine_dispatch).
 * Returns 0, or an errno with a one-line reason in err: ENOTSUP (the
 * guest is not a partition of a PAPR CEC), EINVAL (its real memory holds
 * no request buffer).
 */
struct hvpmu_gpci_reply;
int hvpmu_session_gpci(struct hvpmu_session *s, const uint32_t args[3], struct hvpmu_gpci_reply *r, char *errbuf,
		       size_t errlen);

/*
 * The session runs the PAPR hypervisor's dispatcher itself
 * (hvpmu_machine_dispatch): the in-process run (one emulator, no
 * service's time quanta) calls it at each system call and at the
 * program's end with the machine's time, the furthest strand's %tick, so
 * that the CEC statistics (hv_gpci events) count what the program ran.
 * A service's sessions do not: the service dispatches once per quantum.
 * Nothing on a machine without a CEC.
 */
void hvpmu_session_own_dispatcher(struct hvpmu_session *s);

/*
 * What the run reports is its totals alone: the counts, enabled and
 * running times at the program's end, as `hvpmu stat` prints them --
 * one group of CPU events (no multiplexing), no PIC preset and no
 * overflow log, no samples (cpustat, busstat), no MMU statistics, no
 * mdperf, no hv_gpci events, not a service's run or monitor.  Such a run
 * does not show where between two system calls the OS tick or a counter
 * fold fell, so the event source may take them at coarser points
 * (docs/event-source.md "Totals only").  Returns the OS tick's period in
 * cycles (> 0) if so, else 0; UINT64_MAX on a platform without a CPU
 * counter driver (POWER: the model's counts by class, read at the end;
 * no OS tick to place).
 */
uint64_t hvpmu_session_totals_only(const struct hvpmu_session *s);

/* Free the session and everything it built. */
void hvpmu_session_destroy(struct hvpmu_session *s);
/* The machine the program runs on, and the instruction set of its
 * processors (hvpmu/isa.h), for the event source. */
struct hvpmu_machine *hvpmu_session_machine(struct hvpmu_session *s);
const struct hvpmu_isa *hvpmu_session_isa(const struct hvpmu_session *s);

/* A service's guest process image `process` (hvpmu_os_call.process)
 * belongs to host process `pid`, running the program `comm` (a file
 * name; NULL: image `parent`'s, which it was forked from).  For the per-process rows:
 * the service calls it when the image attaches, before its threads run.
 * Returns 0, or -1 (out of memory or more than STAT_MAX_PROCS processes:
 * its counts are in the totals only). */
int hvpmu_session_process(struct hvpmu_session *s, uint32_t process, uint32_t parent, int32_t pid,
			  const char *comm);

/*
 * Host the run of request *rq as a service (src/supervisor/service.c,
 * docs/service.md): build it as hvpmu_session_create does, accept guest
 * processes on listen_fd (a listening Unix-domain SOCK_SEQPACKET socket;
 * the guests' plugin is started with attach=NAME), run their execution
 * through the machine, and return once every image has ended (with no
 * fork child or execve'd program still to attach) after one attached or
 * root_fd (the read end of a pipe whose writer closes it when the first
 * program's process is gone) reads end of file; the guest OS's last publication (HVPMU_OS_HALT, with the root
 * program's fatal signal if it had one) is in the request's result area.
 * Returns 0, or -1 with a one-line reason in err.  Blocks; one per process.
 */
int hvpmu_service_run(const struct stat_request *rq, int listen_fd, int root_fd, char *err, size_t errlen);

/*
 * A standing service (hvpmu serve, docs/service.md "Guests and
 * monitors"): the machine of the request's description (platform,
 * md_path, placement) with a guest OS for each of its guests, each under
 * its own policy (perfctraccess, strands).  Programs attach to a guest
 * (hello's guest name, hvpmu run --guest), tools monitor a guest's
 * counters (hvpmu stat -a, cpustat, busstat --service), describe
 * requests name the machine.  The machine models every part (a monitor
 * may come at any time).  Returns once *stop is set (a signal handler's
 * flag; the loop looks at it at least every 50 ms): the guests' programs
 * are stopped where they are and every monitor gets its final
 * publication.  Returns 0, or -1 with a one-line reason in err.  Blocks.
 */
int hvpmu_service_serve(const struct stat_request *rq, int listen_fd, const volatile sig_atomic_t *stop,
			char *errbuf, size_t errlen);

/*
 * The tools' side of a standing service named `name` (hvpmu serve --name;
 * 1..HVPMU_SERVICE_NAME_MAX characters without '/', ',' or blanks, or an
 * absolute path of the socket itself).  Its socket is a file in a 0700
 * directory of the user (docs/service.md "Where the socket is"):
 * hvpmu_service_address gives its path (out[n], at least 128 bytes), or
 * -1 for a bad name.  hvpmu_service_listen: the listening socket for hvpmu
 * serve (-1 with a reason: one runs already, the directory is not the
 * user's 0700 one); hvpmu_service_unlisten closes it and removes its file.
 * The clients check the server's uid (theirs or root's) before they send
 * anything.  hvpmu_service_describe: the machine
 * the service runs (hvpmu/remote.h).  hvpmu_service_monitor: start a
 * monitor (hvpmu_remote_monitor).  Errors: -1 with a one-line reason.
 */
#define HVPMU_SERVICE_NAME_MAX 64
struct hvpmu_remote_machine_info;
int hvpmu_service_address(const char *name, char *out, size_t n);
int hvpmu_service_listen(const char *name, char *errbuf, size_t errlen);
void hvpmu_service_unlisten(const char *name, int fd);
/* hvpmu_service_share: open listening service `name`'s socket to
 * other uids, the guests' of its description (docs/service.md "Where the
 * socket is"): its directory becomes mode 0711, the socket file 0666;
 * the service checks each peer's uid against the guests' (SO_PEERCRED).
 * 0, or -1 with a one-line reason (a directory above closed to others). */
int hvpmu_service_share(const char *name, char *errbuf, size_t errlen);
int hvpmu_service_describe(const char *name, struct hvpmu_remote_machine_info *out, char *errbuf, size_t errlen);
/* hvpmu_service_gpci: a tool in guest `guest` ("" = the first) of service
 * `name` has its OS make hvpmu_session_gpci(args) and gets the reply in
 * *r (r->rq from the request tables).  0, or -1 with a one-line reason
 * (no service; the OS's refusal) in err. */
int hvpmu_service_gpci(const char *name, const char *guest, const uint32_t args[3], struct hvpmu_gpci_reply *r,
		       char *errbuf, size_t errlen);
int hvpmu_service_monitor(const char *name, const char *guest, int req_fd, int area_fd, int *status, char *errbuf,
			  size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
