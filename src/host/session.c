/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session host (hvpmu/session.h): one measured run, with the guest OS
 * that carries it out.  It builds the machine, its platform services and
 * the guest driver from the tool's request, and is the guest operating
 * system of the program's threads (the machine's OS handler): it starts
 * and stops each strand's counters, runs the modeled kernel path of every
 * system call (docs/kernel-model.md), maps large pages (linux_mm.c), moves
 * T1 I/O over the JBUS (docs/t1-platform.md), gives each CPU an
 * MMU-statistics buffer (niagara-mmustat-api.txt), samples the counters on
 * the OS tick (cpustat per strand, busstat's devices) and publishes the
 * result in the tool's result area: at start, at every OS tick (the
 * strand's counts folded there), at execve, and when the program ends
 * (exit or a signal: the final counts).  Whatever ends the process, the
 * tool has the last publication (docs/cli.md "How a run ends").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/session.h>
#include "extension.h"
#include "linux_mm.h"

/* The run-host extensions (extension.h), in the order their hooks run,
 * from the one list of them (extensions.def). */
#define HOST_EXT_DEF(name) extern const struct host_ext host_ext_##name;
#include "extensions.def"
#undef HOST_EXT_DEF
static const struct host_ext *const extensions[] = {
#define HOST_EXT_DEF(name) &host_ext_##name,
#include "extensions.def"
#undef HOST_EXT_DEF
};
#define NEXT (sizeof extensions / sizeof extensions[0])

/* The guest OS's view of one strand. */
struct strand_os {
	int started;           /* a thread of the program has run on it */
	int running;           /* a thread runs on it now (a monitor starts its counters) */
	int sampled_final;     /* cpustat: its last, partial interval is sampled */
	uint64_t next_sample;  /* cpustat: %tick of its next sample */
	int64_t sc_num;        /* the system call in progress and its arguments */
	uint64_t sc_args[6];
	uint32_t process;      /* the guest process of its thread (hvpmu_os_call.process) */
};

/* --per-process: what a strand had folded when it was last accounted to
 * a process (its threads' starts and stops), and its %tick then; kept
 * across the threads that run on it. */
struct strand_base {
	uint64_t raw[HVPMU_SV_MAX_EVENTS], running[HVPMU_SV_MAX_EVENTS];
	uint64_t tick;
};


struct hvpmu_session {
	struct host_run run;   /* what the extensions see (extension.h) */
	struct stat_request rq;
	struct hvpmu_md md;
	const struct hvpmu_isa *isa;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	struct hvpmu_session *host; /* the session whose machine this guest's OS shares (NULL: its own) */
	unsigned guest;        /* the md guest this OS is (its driver's, its hypercalls') */
	uint32_t first, nown;  /* its strands: md guests[guest].first_strand, .nstrands */
	struct hvpmu_sv *sv;
	struct hvpmu_sv_config svc; /* the driver's configuration (a monitor builds it anew) */
	int monitor;           /* a monitor of a running service programs the counters now */
	uint64_t monitor_end;  /* the machine's time at which it ends (UINT64_MAX: when told) */
	FILE *ovf_log;
	uint32_t nstrands;
	struct strand_os *st;
	uint64_t next_sample;  /* busstat: strand 0's %tick of its next sample */
	struct stat_result rs; /* the samples accumulate here */
	struct stat_area *area; /* the tool's result area (NULL: none, e.g. a test) */
	/* --per-process (a service's run): the rows, and each image's row */
	struct stat_proc *procs;   /* STAT_MAX_PROCS */
	struct strand_base *base;  /* per strand */
	unsigned nprocs;
	int32_t *proc_row;        /* by image number: its row, or -1 */
	uint32_t nproc_row;
	/* busstat devices: entries naming the same device are its event sets,
	 * which rotate one per sample (busstat(8): repeating -w for a device
	 * multiplexes); bus_acc keeps each set's counts over its activations */
	unsigned bus_active[STAT_MAX_BUSDEV]; /* by first entry: the set counting now */
	uint64_t bus_acc[STAT_MAX_BUSDEV][2];
	int halted;
	int own_dispatch;               /* in-process: the session runs the PAPR dispatcher */
	struct pctx { uint32_t process, ctx; } *pctx; /* the live processes' MMU contexts (process_ctx) */
	uint32_t npctx, pctx_cap;
	/* the extensions the request uses (wanted), their state */
	unsigned next;
	const struct host_ext *ext[NEXT];
	void *ext_state[NEXT];
	unsigned mon_ext;      /* a monitor's own extensions are ext[mon_ext..next) */
};

/* ---- the extensions' view of the run (extension.h) ---- */

int host_strand_started(const struct host_run *r, uint32_t strand)
{
	return strand < r->session->nstrands && r->session->st[strand].started;
}

const struct host_run *host_run_of(const struct hvpmu_session *s) { return &s->run; }

void host_dispatch(const struct host_run *r)
{
	if (r->session->own_dispatch)
		hvpmu_machine_dispatch_catch_up(r->m, hvpmu_machine_now(r->m));
}

/* The extensions' view, as the session is now (its driver comes and
 * goes with a service's monitors). */
static void run_sync(struct hvpmu_session *s)
{
	s->run = (struct host_run){ .rq = &s->rq, .md = &s->md, .m = s->m, .hv = s->hv, .sv = s->sv, .rs = &s->rs,
				    .guest = s->guest, .first = s->first, .nown = s->nown,
				    .publishing = s->area != NULL, .session = s };
}

/* The extensions' hooks, in table order. */
#define EACH_EXT(s, hook, ...)                                                         \
	for (unsigned e_ = (run_sync(s), 0); e_ < (s)->next; e_++)                     \
		if ((s)->ext[e_]->hook)                                                \
			(s)->ext[e_]->hook((s)->ext_state[e_], &(s)->run, ##__VA_ARGS__)


static int failf(char *err, size_t n, const char *what, const char *arg)
{
	snprintf(err, n, "%s%s", what, arg);
	for (char *c = err; *c; c++) /* (arg is the client's: the message stays one line) */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -1;
}

/* ---- busstat devices ---- */

static int same_busdev(const struct hvpmu_session *s, unsigned a, unsigned b)
{
	return s->rq.busdev[a].dev == s->rq.busdev[b].dev;
}

/* 1 if entry d is the first naming its device. */
static int busdev_first(const struct hvpmu_session *s, unsigned d)
{
	for (unsigned e = 0; e < d; e++)
		if (same_busdev(s, e, d))
			return 0;
	return 1;
}

static void busdev_program(struct hvpmu_session *s, unsigned d)
{
	const struct stat_busdev *bd = &s->rq.busdev[d];

	if (hvpmu_sv_uncore_program(s->sv, s->first, bd->dev, bd->code) && !s->monitor)
		fprintf(stderr, "hvpmu: cannot program busstat device %u (hypervisor status %s)\n", d,
			hvpmu_sv_status_name(hvpmu_sv_last_status(s->sv)));
}

/* The samples go straight into the result area (a publication commits
 * how many are valid); without an area, into memory of their own. */
static int have_samples(struct hvpmu_session *s)
{
	if (!s->rs.samples)
		s->rs.samples = s->area ? stat_area_samples(s->area) : calloc(STAT_MAX_SAMPLES, sizeof *s->rs.samples);
	return s->rs.samples != NULL;
}

struct stat_sample *host_sample_slot(const struct host_run *r)
{
	struct hvpmu_session *s = r->session;

	if (!have_samples(s) || s->rs.nsamples >= STAT_MAX_SAMPLES)
		return NULL;
	return &s->rs.samples[s->rs.nsamples++];
}

/* The class flags of each enum stat_generic count (hvpmu/insn.h). */
static const uint32_t generic_flags[STAT_G_TAKEN_COND] = {
	[STAT_G_LOADS] = HVPMU_IC_LOAD, [STAT_G_STORES] = HVPMU_IC_STORE, [STAT_G_FP] = HVPMU_IC_FP,
	[STAT_G_BRANCHES] = HVPMU_IC_BRANCH, [STAT_G_SPR] = HVPMU_IC_SPR, [STAT_G_OTHER] = HVPMU_IC_OTHER,
	[STAT_G_SYSCALLS] = HVPMU_IC_SYSCALL,
};

/*
 * Publish the counts folded so far into the result area: each event's
 * total over the strands (each strand as of its last fold), the samples
 * taken, the MMU statistics as last read.  `end` says whether these are
 * the final counts; for STAT_END_NONE a strand may be up to one OS tick
 * past its counts.
 */
static void publish(struct hvpmu_session *s, enum stat_end end, int sig)
{
	struct stat_result *rs = &s->rs;

	if (!s->area)
		return;
	rs->end = end;
	rs->signal = end == STAT_END_SIGNAL ? sig : 0;
	rs->stale_cycles = end != STAT_END_NONE ? 0 : s->sv ? hvpmu_sv_tick_cycles(s->sv) : hvpmu_irix_tick_cycles(s->hv);
	rs->tick = 0;
	rs->retired = 0;
	memset(rs->generic, 0, sizeof rs->generic);
	for (uint32_t k = s->first; k < s->first + s->nown; k++)
		if (s->st[k].started) {
			uint64_t t = hvpmu_machine_tick(s->m, k);

			rs->tick = t > rs->tick ? t : rs->tick;
			rs->retired += hvpmu_machine_retired(s->m, k);
			for (unsigned g = 0; g < STAT_G_TAKEN_COND; g++)
				rs->generic[g] += hvpmu_machine_retired_class(s->m, k, generic_flags[g]);
			rs->generic[STAT_G_TAKEN_COND] += hvpmu_machine_taken_cond(s->m, k);
		}
	rs->nevents = s->sv ? hvpmu_sv_nevents(s->sv) : 0;
	for (unsigned i = 0; i < rs->nevents; i++)
		hvpmu_sv_read(s->sv, i, &rs->count[i]);
	rs->clock_hz = s->md.clock_hz;
	rs->hv_status = s->sv ? hvpmu_sv_last_status(s->sv) : 0;
	rs->proc = s->procs;
	rs->nproc = s->nprocs;
	EACH_EXT(s, publish, rs);
	stat_area_publish(s->area, rs);
	rs->mmu = NULL;
	rs->nmmu = 0;
	rs->proc = NULL;
	rs->nproc = 0;
}

/* busstat: read every device's two counters through the guest driver,
 * then switch a multiplexed device to its next set. */
static void take_sample(struct hvpmu_session *s, uint64_t tick)
{
	for (unsigned f = 0; have_samples(s) && f < s->rq.nbusdev && s->rs.nsamples < STAT_MAX_SAMPLES; f++) {
		struct stat_sample *smp = &s->rs.samples[s->rs.nsamples];
		unsigned d = s->bus_active[f], next = d;
		const struct stat_busdev *bd = &s->rq.busdev[d];
		uint64_t c[2];

		if (!busdev_first(s, f) || hvpmu_sv_uncore_read(s->sv, s->first, bd->dev, c))
			continue;
		smp->count[0] = s->bus_acc[d][0] + c[0];
		smp->count[1] = s->bus_acc[d][1] + c[1];
		smp->tick = tick;
		smp->dev = d;
		s->rs.nsamples++;
		do
			next = (next + 1) % s->rq.nbusdev;
		while (!same_busdev(s, next, f));
		if (next != d) {
			s->bus_acc[d][0] += c[0];
			s->bus_acc[d][1] += c[1];
			busdev_program(s, next);
			s->bus_active[f] = next;
		}
	}
}

/* cpustat: the guest driver folds the strand's PICs (without stopping
 * them) and reports its share of every event so far. */
static void cpustat_sample(struct hvpmu_session *s, uint32_t strand)
{
	uint64_t tick = hvpmu_machine_tick(s->m, strand);

	hvpmu_sv_fold(s->sv, strand);
	for (unsigned e = 0; have_samples(s) && e < s->rq.nevents && s->rs.nsamples < STAT_MAX_SAMPLES; e++) {
		struct stat_sample *smp = &s->rs.samples[s->rs.nsamples];

		if (hvpmu_sv_read_strand(s->sv, strand, e, &smp->count[0], &smp->count[1]))
			continue;
		smp->tick = tick;
		smp->dev = e;
		smp->cpu = strand;
		s->rs.nsamples++;
	}
}

/* The IRIX clock ticked on a platform without a guest driver (the
 * kernel's own clock, hvpmu/irix.h): the extensions' work (mdperf's), and
 * the counts as of this tick published for the tool.  With a driver (the
 * Origin's R10000 counters) the clock is the driver's OS tick and on_tick
 * does the same. */
static void on_clock(void *ctx, const struct hvpmu_guest_trap *t)
{
	struct hvpmu_session *s = ctx;
	uint64_t tick;

	if (t->tt != HVPMU_IRIX_TRAP_CLOCK || s->halted)
		return;
	tick = hvpmu_machine_tick(s->m, t->strand);
	EACH_EXT(s, tick, t->strand, tick);
	publish(s, STAT_END_NONE, 0);
}

/* OS tick of a strand (the guest driver's on_tick): busstat samples every
 * sample_cycles of strand 0, cpustat every sample_cycles of each strand. */
static void on_tick(void *ctx, uint32_t strand, uint64_t tick)
{
	struct hvpmu_session *s = ctx;
	struct strand_os *st = strand < s->nstrands ? &s->st[strand] : NULL;

	if (s->halted || !st)
		return;
	if (s->rq.sample_cycles && s->rq.cpustat && tick >= st->next_sample) {
		cpustat_sample(s, strand);
		while (st->next_sample <= tick)
			st->next_sample += s->rq.sample_cycles;
	}
	/* (a monitor's samples follow the machine's time instead:
	 * hvpmu_session_monitor_tick) */
	if (s->rq.sample_cycles && s->rq.nbusdev && !s->monitor && strand == s->first && tick >= s->next_sample) {
		take_sample(s, tick);
		while (s->next_sample <= tick)
			s->next_sample += s->rq.sample_cycles;
	}
	/* the extensions' (on origin the driver's tick is the IRIX clock's) */
	EACH_EXT(s, tick, strand, tick);
	/* the counts as of this tick (the driver folded the strand's at it),
	 * for the tool whatever happens next */
	if (s->area)
		publish(s, STAT_END_NONE, 0);
}

static void on_overflow(void *ctx, unsigned event, const struct hvpmu_guest_trap *t)
{
	struct hvpmu_session *s = ctx;

	if (!s->ovf_log)
		return;
	for (unsigned p = 0; p < HVPMU_PMU_MAX_PIC; p++)
		if (t->pic_mask & (1u << p))
			fprintf(s->ovf_log, "pic=%u event=%s tpc=0x%llx precise=%d\n", p, s->rq.ev[event].name,
				(unsigned long long)t->tpc, t->precise);
}

/* The MMU context of guest process `process` (hvpmu_os_call.process):
 * the one process of an in-process run has HVPMU_CTX_USER; a service's
 * process gets a free one from the machine at first use and gives it back
 * when it ends (process_exit; docs/service.md "Address spaces"). */
static uint32_t process_ctx(struct hvpmu_session *s, uint32_t process)
{
	uint32_t ctx;

	if (!process)
		return HVPMU_CTX_USER;
	/* (a table of the live processes only: a standing service's numbers
	 * grow without end, its memory must not) */
	for (uint32_t k = 0; k < s->npctx; k++)
		if (s->pctx[k].process == process)
			return s->pctx[k].ctx;
	if (s->npctx == s->pctx_cap) {
		uint32_t n = s->pctx_cap ? 2 * s->pctx_cap : 16;
		struct pctx *np = realloc(s->pctx, n * sizeof *np);

		if (!np)
			return HVPMU_CTX_USER; /* (out of host memory: it shares the first context) */
		s->pctx = np;
		s->pctx_cap = n;
	}
	if (hvpmu_machine_context_alloc(s->m, &ctx))
		return HVPMU_CTX_USER; /* (the service admits at most HVPMU_CTX_MAX live processes) */
	s->pctx[s->npctx++] = (struct pctx){ process, ctx };
	return ctx;
}

/* Process `process` is gone: its context (TLB entries, frames, TSBs) is free. */
static void process_exit(struct hvpmu_session *s, uint32_t process)
{
	for (uint32_t k = 0; process && k < s->npctx; k++)
		if (s->pctx[k].process == process) {
			hvpmu_machine_context_free(s->m, s->pctx[k].ctx);
			s->pctx[k] = s->pctx[--s->npctx];
			return;
		}
}

/* ---- the guest OS's side of the program's threads ---- */

/* --per-process: what the strand folded since its baseline goes to its
 * thread's process's row; the baseline moves up to now. */
static void account_process(struct hvpmu_session *s, uint32_t strand)
{
	struct strand_os *st = &s->st[strand];
	struct strand_base *b = &s->base[strand];
	struct stat_proc *row = NULL;
	uint64_t tick = hvpmu_machine_tick(s->m, strand);

	if (!s->procs) /* not a service's run */
		return;
	if (st->process < s->nproc_row && s->proc_row[st->process] >= 0)
		row = &s->procs[s->proc_row[st->process]];
	for (unsigned i = 0; i < hvpmu_sv_nevents(s->sv); i++) {
		uint64_t raw = 0, running = 0;

		hvpmu_sv_read_strand(s->sv, strand, i, &raw, &running);
		if (row) {
			row->raw[i] += raw - b->raw[i];
			row->running[i] += running - b->running[i];
		}
		b->raw[i] = raw;
		b->running[i] = running;
	}
	if (row)
		row->enabled += tick - b->tick;
	b->tick = tick;
}

/* A thread starts on the strand: the OS programs its counters, takes
 * cpustat's first sample, starts the extensions' work on it (an
 * MMU-statistics buffer, hv_gpci's start values), and, for the program's
 * first thread, programs busstat's devices. */
static void thread_start(struct hvpmu_session *s, uint32_t strand, uint32_t process)
{
	struct strand_os *st = &s->st[strand];
	uint64_t start_tick;

	memset(st, 0, sizeof *st);
	st->started = 1;
	st->running = 1;
	st->process = process;
	hvpmu_machine_set_user_context(s->m, strand, process_ctx(s, process));
	hvpmu_machine_resume(s->m, strand); /* a new thread starts at the machine's time */
	st->next_sample = hvpmu_machine_tick(s->m, strand) + s->rq.sample_cycles;
	if (strand == s->first && !s->monitor)
		s->next_sample = st->next_sample;
	start_tick = hvpmu_machine_tick(s->m, strand);
	if (!s->sv) { /* no CPU counter driver (power) */
		EACH_EXT(s, thread_start, strand, start_tick);
		return;
	}
	hvpmu_sv_start_strand(s->sv, strand);
	account_process(s, strand); /* the baseline: what earlier threads left on the strand */
	if (s->rq.cpustat) /* the strand's origin: its first interval starts here */
		cpustat_sample(s, strand);
	EACH_EXT(s, thread_start, strand, start_tick);
	if (strand == s->first && !s->monitor) /* busstat: the OS programs the device counters */
		for (unsigned d = 0; d < s->rq.nbusdev; d++)
			if (busdev_first(s, d)) {
				s->bus_active[d] = d;
				busdev_program(s, d);
			}
}

/* The thread on the strand ends: its counters stop; cpustat samples its
 * last, partial interval. */
static void thread_stop(struct hvpmu_session *s, uint32_t strand)
{
	struct strand_os *st = &s->st[strand];

	st->running = 0;
	if (!s->sv)
		return;
	hvpmu_sv_stop_strand(s->sv, strand);
	account_process(s, strand); /* (again after a stop: nothing more) */
	if (s->rq.cpustat && !st->sampled_final) {
		st->sampled_final = 1;
		cpustat_sample(s, strand);
	}
}

/* A system call: the kernel's path in context 0 for a call that returns
 * (docs/kernel-model.md); exit ends the thread, exit_group every thread. */
static void syscall_entry(struct hvpmu_session *s, const struct hvpmu_os_call *c)
{
	const struct hvpmu_isa_syscalls *sc = &s->isa->sc;
	struct strand_os *st = &s->st[c->strand];

	st->sc_num = c->num;
	memcpy(st->sc_args, c->args, sizeof st->sc_args);
	host_dispatch(&s->run); /* in-process PAPR: the hypervisor's dispatcher catches up */
	hvpmu_machine_syscall(s->m, c->strand, c->num, c->num != sc->exit_group && c->num != sc->exit);
	if (c->num == sc->exit_group) { /* every thread of the process */
		for (uint32_t k = 0; k < s->nstrands; k++)
			if (s->st[k].started && s->st[k].process == c->process)
				thread_stop(s, k);
	} else if (c->num == sc->exit) {
		thread_stop(s, c->strand);
	} else if (c->num == sc->execve || c->num == sc->execveat) {
		/* the emulator that counts is replaced if the call succeeds:
		 * publish the counts up to it (a failed call publishes again);
		 * a service's process (c->process) goes on as a new image */
		if (s->sv)
			hvpmu_sv_fold(s->sv, c->strand);
		EACH_EXT(s, exec);
		publish(s, c->process ? STAT_END_NONE : STAT_END_EXEC, 0);
	}
}

/* The call may have waited for another thread or process
 * (docs/kernel-model.md "Waiting"). */
static int may_wait(const struct hvpmu_isa_syscalls *sc, int64_t num, const uint64_t args[6])
{
	return hvpmu_isa_call_may_wait(sc, num, args);
}

/* A system call returns: a call that may have waited resumes its strand
 * at the machine's time; T1 I/O moves the bytes of a read()/write() by
 * DMA (docs/t1-platform.md), and so does the Origin's with io_dma
 * (docs/origin-directory.md "I/O"); mmap/madvise may ask for large pages. */
static void syscall_return(struct hvpmu_session *s, const struct hvpmu_os_call *c)
{
	const struct hvpmu_isa_syscalls *sc = &s->isa->sc;

	if (c->num == s->st[c->strand].sc_num && may_wait(sc, c->num, s->st[c->strand].sc_args))
		hvpmu_machine_resume(s->m, c->strand);

	if ((c->num == sc->read || c->num == sc->write) && c->ret > 0) /* the buffer: argument 1 */
		hvpmu_machine_io_at(s->m, c->strand, c->num == sc->read,
				    c->num == s->st[c->strand].sc_num ? s->st[c->strand].sc_args[1] : 0, (uint64_t)c->ret);
	/* a run in one emulator does not count the processes its program
	 * starts (clone without CLONE_VM 0x100: a process, not a thread) */
	if (!c->process && c->ret > 0 && c->num == s->st[c->strand].sc_num &&
	    (c->num == sc->fork || c->num == sc->vfork || (c->num == sc->clone && !(s->st[c->strand].sc_args[0] & 0x100))))
		s->rs.untracked++;
	if (c->num == s->st[c->strand].sc_num)
		linux_mm_syscall(s->m, process_ctx(s, s->st[c->strand].process), sc, c->num, s->st[c->strand].sc_args, c->ret);
	if ((c->num == sc->execve || c->num == sc->execveat) && !s->halted)
		publish(s, STAT_END_NONE, 0); /* execve failed: the program goes on */
}

/* The software prefetches whose address was not recovered, if any
 * (docs/prefetch-model.md): they were not modeled. */
static void report_prefetches(struct hvpmu_session *s)
{
	struct hvpmu_prefetch_stats ps, sum = { 0 };

	for (uint32_t k = s->first; k < s->first + s->nown; k++)
		if (s->st[k].started && !hvpmu_machine_prefetch_stats(s->m, k, &ps)) {
			sum.sw_issued += ps.sw_issued;
			sum.sw_unresolved += ps.sw_unresolved;
		}
	if (sum.sw_unresolved)
		fprintf(stderr, "hvpmu: %llu of %llu software prefetches had no recoverable address and were "
			"not modeled (docs/prefetch-model.md)\n", (unsigned long long)sum.sw_unresolved,
			(unsigned long long)(sum.sw_issued + sum.sw_unresolved));
}

/* The program ended (sig 0: it exited; else that signal ended it):
 * busstat's last sample, every strand stopped, the last instructions
 * accounted and the machine idle (work the PAPR dispatcher held back
 * dispatched), the extensions' last values (the MMU statistics, the Hub
 * counters, hv_gpci's counts), the final counts published for the tool. */
static void halt(struct hvpmu_session *s, int sig)
{
	if (s->halted)
		return;
	if (s->rq.nbusdev && s->nown && s->st[s->first].started) /* the final sample, at exit */
		take_sample(s, hvpmu_machine_tick(s->m, s->first));
	for (uint32_t k = s->first; k < s->first + s->nown; k++)
		if (s->st[k].started)
			thread_stop(s, k);
	report_prefetches(s);
	if (s->own_dispatch)
		hvpmu_machine_dispatch_catch_up(s->m, UINT64_MAX);
	EACH_EXT(s, end);
	publish(s, sig ? STAT_END_SIGNAL : STAT_END_EXIT, sig);
	s->halted = 1;
	if (s->ovf_log)
		fclose(s->ovf_log);
	s->ovf_log = NULL;
}

/* The machine's guest-OS handler (hvpmu_machine_os_event). */
static void os_event(void *ctx, const struct hvpmu_os_call *c)
{
	hvpmu_session_os_event(ctx, c);
}

void hvpmu_session_os_event(struct hvpmu_session *s, const struct hvpmu_os_call *c)
{
	switch (c->ev) {
	case HVPMU_OS_THREAD_START: thread_start(s, c->strand, c->process); break;
	case HVPMU_OS_SYSCALL: syscall_entry(s, c); break;
	case HVPMU_OS_SYSRET: syscall_return(s, c); break;
	case HVPMU_OS_THREAD_EXIT: thread_stop(s, c->strand); break;
	case HVPMU_OS_HALT: halt(s, (int)c->num); break;
	case HVPMU_OS_PROCESS_EXIT: process_exit(s, c->process); break;
	case HVPMU_OS_UNCOUNTED: /* published with the next counts; the tool fails the run */
		if (c->num > 0 && s->rs.uncounted < UINT32_MAX - (uint64_t)c->num)
			s->rs.uncounted += (uint32_t)c->num;
		else if (c->num > 0)
			s->rs.uncounted = UINT32_MAX;
		break;
	}
}

/* ---- building the run ---- */

/* The command line's overrides of the description: the L1D prefetcher,
 * the placement of threads on strands (docs/coherence-model.md). */
static int overrides(const struct stat_request *rq, struct hvpmu_md *md, char *err, size_t n)
{
	if (rq->hw_prefetch) /* hvpmu stat --hw-prefetch */
		md->mem.l1d_hw_prefetch = rq->hw_prefetch;
	if (rq->placement[0]) {
		int pl = hvpmu_placement_by_name(rq->placement);

		if (pl < 0)
			return failf(err, n, "unknown placement ", rq->placement);
		md->placement = (enum hvpmu_placement)pl;
	}
	return 0;
}

int hvpmu_session_describe(struct stat_request *rq, struct hvpmu_md *md, char *err, size_t n)
{
	if (overrides(rq, md, err, n))
		return -1;
	rq->md = *md;
	rq->have_md = 1;
	return 0;
}

/* The machine description of the request: the tool's finished one,
 * checked as a file's; else the named platform, the description file
 * over it, the command line's overrides. */
static int load_md(const struct stat_request *rq, struct hvpmu_md *md, char *err, size_t n)
{
	char why[256];

	if (rq->have_md) {
		if (hvpmu_md_check(&rq->md, why, sizeof why))
			return failf(err, n, "the request's machine description: ", why);
		*md = rq->md;
		return 0;
	}
	if (hvpmu_md_by_name(rq->platform[0] ? rq->platform : hvpmu_platform_name(hvpmu_platform_default()), md))
		return failf(err, n, "unknown platform ", rq->platform);
	if (rq->md_path[0]) { /* --md FILE over the named description */
		struct hvpmu_md base = *md;

		if (hvpmu_md_load(rq->md_path, &base, md, why, sizeof why)) {
			snprintf(err, n, "%s", why); /* FILE:LINE:COL: what */
			return -1;
		}
	}
	return overrides(rq, md, err, n);
}

/* The guest driver of the session's guest with the request's events:
 * 0, or -1 with a one-line reason. */
static int driver_start(struct hvpmu_session *s, char *err, size_t n)
{
	const struct stat_request *rq = &s->rq;

	s->svc = (struct hvpmu_sv_config){ 0 };
	s->svc.pic_init = rq->pic_init;
	s->svc.rotate_cycles = rq->rotate_cycles;
	s->svc.on_overflow = on_overflow;
	s->svc.on_tick = on_tick;
	s->svc.ctx = s;
	if (rq->sample_cycles && (!s->svc.rotate_cycles || s->svc.rotate_cycles > rq->sample_cycles))
		s->svc.rotate_cycles = rq->sample_cycles; /* the OS tick serves both */
	if (hvpmu_sv_create(s->hv, s->guest, &s->svc, &s->sv))
		return failf(err, n, "cannot start the guest driver", "");
	for (unsigned i = 0; i < rq->nevents; i++)
		if (hvpmu_sv_add_event(s->sv, &rq->ev[i]) < 0)
			return failf(err, n, "bad event ", rq->ev[i].name);
	return 0;
}

/* The features the request's events and tools need (HVPMU_FEAT_*). */
static unsigned request_features(const struct hvpmu_session *s, const struct stat_request *rq)
{
	unsigned features = rq->features;

	for (unsigned i = 0; s->sv && i < rq->nevents; i++) /* the guest driver exists: so does its back-end */
		features |= hvpmu_sv_event_features(hvpmu_sv_backend_of(s->md.platform), rq->ev[i].config);
	/* no CPU counter driver: hvpmu stat's model counts, taken conditional
	 * branches too */
	if (!hvpmu_sv_backend_driver(hvpmu_sv_backend_of(s->md.platform)))
		features |= HVPMU_FEAT_TAKEN;
	if (rq->nbusdev > 0) /* DRAM traffic */
		features |= HVPMU_FEAT_MEMORY;
	for (unsigned e = 0; e < s->next; e++)
		if (s->ext[e]->features)
			features |= s->ext[e]->features(rq);
	return features;
}

/* The result area of descriptor rq->result_fd, with the events' names. */
static int area_start(struct hvpmu_session *s, char *err, size_t n)
{
	char why[256];

	if (stat_area_attach(s->rq.result_fd, &s->area, why, sizeof why))
		return failf(err, n, why, "");
	for (unsigned i = 0; i < s->rq.nevents; i++) {
		size_t len = strnlen(s->rq.ev[i].name, sizeof s->rs.name[i] - 1);

		memcpy(s->rs.name[i], s->rq.ev[i].name, len);
		s->rs.name[i][len] = 0;
	}
	return 0;
}

/* The extensions the request asks for, each on a platform whose record's
 * firmware offers its service; a one-line refusal where it does not. */
static int exts_select(struct hvpmu_session *s, char *err, size_t n)
{
	unsigned fw = hvpmu_platform_info(s->md.platform)->firmware;

	for (unsigned e = 0; e < NEXT; e++) {
		int offered = (extensions[e]->firmware & fw) == extensions[e]->firmware;

		if (extensions[e]->wanted ? !extensions[e]->wanted(&s->rq) : !offered)
			continue;
		if (!offered)
			return failf(err, n, extensions[e]->refusal, hvpmu_platform_name(s->md.platform));
		s->ext[s->next++] = extensions[e];
	}
	return 0;
}

/* 1 if a monitor of a running service may have what the request asks. */
static int exts_monitor_ok(const struct stat_request *rq)
{
	for (unsigned e = 0; e < NEXT; e++)
		if (extensions[e]->wanted && extensions[e]->wanted(rq) && !extensions[e]->monitor_ok)
			return 0;
	return 1;
}

int hvpmu_session_create(const struct stat_request *rq, struct hvpmu_session **out, char *err, size_t n)
{
	if (hvpmu_session_create_guest(rq, NULL, 0, 0, out, err, n))
		return -1;
	hvpmu_machine_set_os_handler((*out)->m, os_event, *out);
	return 0;
}

int hvpmu_session_create_guest(const struct stat_request *rq, struct hvpmu_session *host, unsigned guest,
			       unsigned flags, struct hvpmu_session **out, char *err, size_t n)
{
	struct hvpmu_session *s;

	*out = NULL;
	if (!(s = calloc(1, sizeof *s)))
		return failf(err, n, "out of memory", "");
	s->rq = *rq;
	s->host = host;
	if (host) { /* another guest of the same machine */
		s->md = host->md;
		s->isa = host->isa;
		s->m = host->m;
		s->hv = host->hv;
	} else {
		if (load_md(rq, &s->md, err, n))
			goto fail;
		if (!(s->isa = hvpmu_isa_by_name(s->md.isa))) {
			failf(err, n, "unknown instruction set ", s->md.isa);
			goto fail;
		}
		if (hvpmu_machine_create(&s->md, &s->m) || hvpmu_hv_create(s->m, &s->hv)) {
			failf(err, n, "cannot build the machine", "");
			goto fail;
		}
	}
	if (guest >= s->md.nguests) {
		failf(err, n, "no such guest in the machine description", "");
		goto fail;
	}
	s->guest = guest;
	s->first = s->md.guests[guest].first_strand;
	s->nown = s->md.guests[guest].nstrands;
	if (!hvpmu_sv_backend_driver(hvpmu_sv_backend_of(s->md.platform)) &&
	    !(hvpmu_sv_backend_counters(hvpmu_sv_backend_of(s->md.platform)) && rq->nevents && !host)) {
		/* no CPU counter event for a driver (power's model counts,
		 * hv_gpci): only the firmware's services */
		if (rq->nevents || rq->nbusdev || rq->mmustat || rq->cpustat) {
			failf(err, n, "no CPU counter driver for platform ", hvpmu_platform_name(s->md.platform));
			goto fail;
		}
		hvpmu_hv_set_guest_trap_handler(s->hv, guest, on_clock, s);
	} else if (!(flags & HVPMU_SESSION_STANDING) && driver_start(s, err, n)) {
		goto fail;
	}
	if (exts_select(s, err, n))
		goto fail;
	/* busstat: the chip-wide devices of the platform's back-end */
	if (rq->nbusdev && !hvpmu_sv_uncore_count(hvpmu_sv_backend_of(s->md.platform), &s->md)) {
		failf(err, n, "no hypervisor counter services on platform ", hvpmu_platform_name(s->md.platform));
		goto fail;
	}
	if (!host)
		hvpmu_machine_set_features(s->m, request_features(s, rq));
	if (rq->overflow_log[0] && !(s->ovf_log = fopen(rq->overflow_log, "w"))) {
		failf(err, n, "cannot open ", rq->overflow_log);
		goto fail;
	}
	s->nstrands = hvpmu_machine_nstrands(s->m);
	if (!(s->st = calloc(s->nstrands, sizeof *s->st))) {
		failf(err, n, "out of memory", "");
		goto fail;
	}
	if (rq->result_fd >= 0 && area_start(s, err, n))
		goto fail;
	run_sync(s);
	for (unsigned e = 0; e < s->next; e++)
		if (s->ext[e]->start && s->ext[e]->start(&s->run, &s->ext_state[e], err, n))
			goto fail;
	if (s->area)
		publish(s, STAT_END_NONE, 0); /* the run has started: zero counts */
	*out = s;
	return 0;
fail:
	hvpmu_session_destroy(s);
	return -1;
}

/* ---- a monitor of a running service (hvpmu stat -a, cpustat, busstat) ---- */

/* The driver goes; the guest OS goes on without counters. */
static void monitor_clear(struct hvpmu_session *s)
{
	hvpmu_sv_destroy(s->sv);
	s->sv = NULL;
	/* no CPU counter driver between monitors (power): the firmware's
	 * clock is the session's again */
	if (!hvpmu_sv_backend_driver(hvpmu_sv_backend_of(s->md.platform)))
		hvpmu_hv_set_guest_trap_handler(s->hv, s->guest, on_clock, s);
	while (s->next > s->mon_ext) { /* the monitor's extensions (hv_gpci) */
		s->next--;
		if (s->ext[s->next]->destroy)
			s->ext[s->next]->destroy(s->ext_state[s->next]);
		s->ext_state[s->next] = NULL;
	}
	s->rq.ngpci = 0;
	s->rs.ngpci = 0;
	stat_area_detach(s->area);
	s->area = NULL;
	memset(&s->rs, 0, sizeof s->rs);
	s->monitor = 0;
	s->rq.nevents = 0;
	s->rq.nbusdev = 0;
	s->rq.cpustat = 0;
	s->rq.sample_cycles = 0;
	s->rq.result_fd = -1;
}

static void close_result(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* The extensions a monitor asks for that the standing session does not
 * run (hv_gpci events): started now, their first values as the guest
 * OS reads them at the monitor's start (a thread start on the guest's
 * first strand at `now`).  0, or -1 after one line in err. */
static int monitor_exts_start(struct hvpmu_session *s, uint64_t now, char *err, size_t n)
{
	unsigned fw = hvpmu_platform_info(s->md.platform)->firmware;

	for (unsigned e = 0; e < NEXT; e++) {
		unsigned k;

		if (!extensions[e]->wanted || !extensions[e]->wanted(&s->rq))
			continue;
		for (k = 0; k < s->next && s->ext[k] != extensions[e]; k++)
			;
		if (k < s->next) /* (the standing session runs it already) */
			continue;
		if ((extensions[e]->firmware & fw) != extensions[e]->firmware)
			return failf(err, n, extensions[e]->refusal, hvpmu_platform_name(s->md.platform));
		s->ext[s->next] = extensions[e];
		s->ext_state[s->next] = NULL;
		run_sync(s);
		if (extensions[e]->start && extensions[e]->start(&s->run, &s->ext_state[s->next], err, n))
			return -1;
		s->next++;
		if (extensions[e]->thread_start)
			extensions[e]->thread_start(s->ext_state[s->next - 1], &s->run, s->first, now);
	}
	return 0;
}

int hvpmu_session_monitor_start(struct hvpmu_session *s, const struct stat_request *rq, uint64_t now, char *err,
				size_t n)
{
	unsigned want;

	/* the result area's descriptor is ours whatever the outcome: a
	 * refused monitor's is closed too (a client refused again and again
	 * would otherwise use up the service's descriptors) */
	if (s->monitor || s->sv) {
		failf(err, n, "the guest's counters are in use (another monitor runs)", "");
		close_result(rq->result_fd);
		return EBUSY;
	}
	if (!hvpmu_sv_backend_counters(hvpmu_sv_backend_of(s->md.platform)) || !exts_monitor_ok(rq) ||
	    rq->overflow_log[0] || rq->ngpci > STAT_MAX_GPCI ||
	    (rq->nbusdev && !(hvpmu_platform_info(s->md.platform)->firmware & HVPMU_FW_SUN4V_CORE))) {
		failf(err, n, "a running service offers its guests stat -a, cpustat and busstat on platform ",
		      hvpmu_platform_name(s->md.platform));
		close_result(rq->result_fd);
		return EINVAL;
	}
	s->rq.nevents = rq->nevents;
	memcpy(s->rq.ev, rq->ev, sizeof rq->ev);
	s->rq.pic_init = rq->pic_init;
	s->rq.rotate_cycles = rq->rotate_cycles;
	s->rq.nbusdev = rq->nbusdev;
	memcpy(s->rq.busdev, rq->busdev, sizeof rq->busdev);
	s->rq.sample_cycles = rq->sample_cycles;
	s->rq.cpustat = rq->cpustat;
	s->rq.result_fd = rq->result_fd;
	s->rq.ngpci = rq->ngpci; /* hv_gpci events beside the counters (power) */
	memcpy(s->rq.gpci, rq->gpci, rq->ngpci * sizeof *rq->gpci);
	s->mon_ext = s->next;
	s->monitor = 1;
	s->monitor_end = rq->monitor_cycles && now <= UINT64_MAX - rq->monitor_cycles ? now + rq->monitor_cycles
										  : UINT64_MAX;
	memset(&s->rs, 0, sizeof s->rs);
	memset(s->bus_acc, 0, sizeof s->bus_acc);
	if (driver_start(s, err, n)) {
		close_result(s->rq.result_fd);
		monitor_clear(s);
		return EINVAL;
	}
	if (area_start(s, err, n)) { /* (stat_area_attach closed it) */
		monitor_clear(s);
		return EINVAL;
	}
	want = request_features(s, &s->rq);
	if (hvpmu_md_parts(&s->md, want) & ~hvpmu_machine_parts(s->m)) {
		monitor_clear(s);
		failf(err, n, "the service's machine does not model what these events need (hvpmu serve models "
			      "everything unless told otherwise)", "");
		return EINVAL;
	}
	/* busstat: the OS programs the device counters, as guest OS code on
	 * one of its strands; the hypervisor's refusal (perfctraccess) ends
	 * the monitor here */
	for (unsigned d = 0; d < s->rq.nbusdev; d++)
		if (busdev_first(s, d)) {
			s->bus_active[d] = d;
			int rc = hvpmu_sv_uncore_program(s->sv, s->first, s->rq.busdev[d].dev, s->rq.busdev[d].code);

			if (rc == HVPMU_EHV) {
				snprintf(err, n, "the hypervisor refused the device counters (%s)",
					 hvpmu_sv_status_name(hvpmu_sv_last_status(s->sv)));
				monitor_clear(s);
				return EACCES;
			}
			if (rc) { /* (no hypercall made: the machine has no such device) */
				snprintf(err, n, "the machine has no device %u", s->rq.busdev[d].dev);
				monitor_clear(s);
				return EINVAL;
			}
		}
	if (monitor_exts_start(s, now, err, n)) {
		monitor_clear(s);
		return EINVAL;
	}
	s->next_sample = rq->sample_cycles && now <= UINT64_MAX - rq->sample_cycles ? now + rq->sample_cycles
										 : UINT64_MAX;
	/* the guest's threads that run now: their strands' counters start */
	for (uint32_t k = s->first; k < s->first + s->nown; k++)
		if (s->st[k].running) {
			s->st[k].sampled_final = 0;
			s->st[k].next_sample = hvpmu_machine_tick(s->m, k) + s->rq.sample_cycles;
			hvpmu_sv_start_strand(s->sv, k);
			if (s->rq.cpustat)
				cpustat_sample(s, k);
		}
	publish(s, STAT_END_NONE, 0);
	return 0;
}

int hvpmu_session_monitor_tick(struct hvpmu_session *s, uint64_t now)
{
	if (!s->monitor)
		return 0;
	if (s->rq.nbusdev && now >= s->next_sample) {
		take_sample(s, now);
		while (s->next_sample <= now)
			s->next_sample += s->rq.sample_cycles;
		publish(s, STAT_END_NONE, 0);
	}
	return now >= s->monitor_end;
}

void hvpmu_session_monitor_end(struct hvpmu_session *s, uint64_t now)
{
	if (!s->monitor)
		return;
	if (s->rq.nbusdev) /* the last, partial interval */
		take_sample(s, now);
	for (uint32_t k = s->first; k < s->first + s->nown; k++)
		if (s->st[k].running) {
			hvpmu_sv_stop_strand(s->sv, k);
			if (s->rq.cpustat && !s->st[k].sampled_final) {
				s->st[k].sampled_final = 1;
				cpustat_sample(s, k);
			}
		}
	for (unsigned e = s->mon_ext; e < s->next; e++) /* hv_gpci's counts over the monitor */
		if (s->ext[e]->end)
			s->ext[e]->end(s->ext_state[e], (run_sync(s), &s->run));
	publish(s, STAT_END_EXIT, 0);
	monitor_clear(s);
}

int hvpmu_session_monitoring(const struct hvpmu_session *s) { return s->monitor; }

void hvpmu_session_destroy(struct hvpmu_session *s)
{
	if (!s)
		return;
	if (s->m && !s->host)
		hvpmu_machine_set_os_handler(s->m, NULL, NULL);
	if (s->ovf_log)
		fclose(s->ovf_log);
	for (unsigned e = 0; e < s->next; e++)
		if (s->ext[e]->destroy)
			s->ext[e]->destroy(s->ext_state[e]);
	hvpmu_sv_destroy(s->sv);
	if (!s->host) {
		hvpmu_hv_destroy(s->hv);
		hvpmu_machine_destroy(s->m);
	}
	if (!s->area)
		free(s->rs.samples);
	stat_area_detach(s->area);
	free(s->procs);
	free(s->base);
	free(s->proc_row);
	free(s->pctx);
	free(s->st);
	free(s);
}

int hvpmu_session_process(struct hvpmu_session *s, uint32_t process, uint32_t parent, int32_t pid,
			  const char *comm)
{
	int32_t row = -1;

	if (process >= s->nproc_row) {
		uint32_t n = process + 64;
		int32_t *pr = realloc(s->proc_row, n * sizeof *pr);

		if (!pr)
			return -1;
		for (uint32_t k = s->nproc_row; k < n; k++)
			pr[k] = -1;
		s->proc_row = pr;
		s->nproc_row = n;
	}
	if (!s->procs) {
		s->procs = calloc(STAT_MAX_PROCS, sizeof *s->procs);
		s->base = calloc(s->nstrands, sizeof *s->base);
		if (!s->procs || !s->base) {
			free(s->procs);
			free(s->base);
			s->procs = NULL;
			s->base = NULL;
			return -1;
		}
	}
	if (s->nprocs == STAT_MAX_PROCS) {
		s->rs.unlisted++; /* (the tools say so and fail: the table is incomplete) */
		return -1;
	}
	row = (int32_t)s->nprocs++;
	s->procs[row].pid = pid;
	s->procs[row].process = process;
	if (!comm && parent < s->nproc_row && s->proc_row[parent] >= 0) /* a fork child: its parent's program */
		comm = s->procs[s->proc_row[parent]].comm;
	if (comm && comm != s->procs[row].comm)
		snprintf(s->procs[row].comm, sizeof s->procs[row].comm, "%s", comm);
	s->proc_row[process] = row;
	return 0;
}

void hvpmu_session_own_dispatcher(struct hvpmu_session *s) { s->own_dispatch = 1; }

uint64_t hvpmu_session_totals_only(const struct hvpmu_session *s)
{
	const struct stat_request *rq = &s->rq;

	if (s->host || s->monitor || s->procs || s->next || (s->sv && hvpmu_sv_ngroups(s->sv) != 1) || rq->pic_init ||
	    rq->overflow_log[0] || rq->nbusdev || rq->sample_cycles || rq->cpustat || rq->follow ||
	    rq->monitor_cycles || rq->service[0])
		return 0;
	return s->sv ? hvpmu_sv_tick_cycles(s->sv) : UINT64_MAX;
}

struct hvpmu_machine *hvpmu_session_machine(struct hvpmu_session *s) { return s->m; }
const struct hvpmu_isa *hvpmu_session_isa(const struct hvpmu_session *s) { return s->isa; }
