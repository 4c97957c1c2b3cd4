/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run-host extensions (private to src/host/): a platform service that a
 * run uses beside the CPU counters -- the sun4v MMU statistics (mmustat),
 * the IRIX Hub MD counters (mdperf), the PAPR hv_gpci events -- behind
 * one interface, so that the session host (session.c) calls none of them
 * by name.  Each is the guest OS's side of its service, as the real
 * kernel's is (Solaris's mmustat buffers, IRIX's syssgi caller, Linux's
 * hv_gpci client); the tool that asks for it and prints it is its own
 * command in src/tools/.  The list is extensions.def;
 * docs/architecture.md "Run host" walks through one.
 *
 * Every hook runs in the run's OS thread (the session's), never
 * concurrently with another hook of the same run.  A hook may be NULL.
 */
#ifndef HVPMU_HOST_EXTENSION_H
#define HVPMU_HOST_EXTENSION_H

#include <stddef.h>
#include <stdint.h>
#include <hvpmu/hvpmu.h>
#include <hvpmu/session.h>

/* What an extension sees of the run (the session's, read-only but rs). */
struct host_run {
	const struct stat_request *rq;
	const struct hvpmu_md *md;
	struct hvpmu_machine *m;
	struct hvpmu_hv *hv;
	struct hvpmu_sv *sv;       /* the guest driver (NULL: none on this platform) */
	struct stat_result *rs;    /* the result the session publishes */
	unsigned guest;            /* the md guest whose OS the run is */
	uint32_t first, nown;      /* its strands */
	int publishing;            /* the run has a result area (not a test's session) */
	struct hvpmu_session *session; /* (the host's: session.c's helpers take it) */
};

/* 1 if a thread of the program has run on `strand`. */
int host_strand_started(const struct host_run *r, uint32_t strand);
/* One more interval row of r->rs->samples, counted (NULL: no room). */
struct stat_sample *host_sample_slot(const struct host_run *r);
/* In-process: the PAPR hypervisor's dispatcher accounts what the strands
 * ran up to the machine's time (a no-op without a CEC, or in a service,
 * whose quanta do it). */
void host_dispatch(const struct host_run *r);
/* The run of a session (hvpmu_session_gpci, ext_gpci.c). */
const struct host_run *host_run_of(const struct hvpmu_session *s);

struct host_ext {
	const char *name;
	/* enum hvpmu_firmware bits the platform's record must have, and the
	 * one-line refusal where it has not (the platform name follows) */
	unsigned firmware;
	const char *refusal;
	int monitor_ok;            /* a monitor of a running service may ask for it */
	/* the request asks for it; NULL: every run uses it where the
	 * platform's firmware offers it (no request field asks) */
	int (*wanted)(const struct stat_request *rq);
	unsigned (*features)(const struct stat_request *rq); /* HVPMU_FEAT_* the run needs for it */
	/* The run is built (machine, services, driver, result area): the
	 * extension's state into *x.  0, or -1 with a one-line reason. */
	int (*start)(const struct host_run *r, void **x, char *err, size_t n);
	/* a thread starts on `strand`, whose %tick was `start_tick` then */
	void (*thread_start)(void *x, const struct host_run *r, uint32_t strand, uint64_t start_tick);
	/* the OS tick of `strand` at its %tick `tick` (the driver's, or the kernel's clock) */
	void (*tick)(void *x, const struct host_run *r, uint32_t strand, uint64_t tick);
	void (*exec)(void *x, const struct host_run *r);  /* execve: the counts are published up to it */
	void (*end)(void *x, const struct host_run *r);   /* the program ended: the last values */
	/* before every publication: the extension's part of the result (the
	 * session clears rs->mmu and friends after it) */
	void (*publish)(void *x, const struct host_run *r, struct stat_result *rs);
	void (*destroy)(void *x);
};

/* The extensions are host_ext_<name> of ext_<name>.c (extensions.def). */

#endif
