/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files `hvpmu stat` and the QEMU plugin exchange (JSON, via json-c):
 * a request (events to program, options) written by the CLI and read by the
 * plugin, and a result written by the plugin at guest exit.
 */
#ifndef HVPMU_STAT_PROTOCOL_H
#define HVPMU_STAT_PROTOCOL_H

#include <stdint.h>
#include <hvpmu/supervisor.h>

#define STAT_MAX_BUSDEV 8      /* busstat devices (MCUs) per run */
#define STAT_MAX_SAMPLES 100000 /* busstat samples kept per run */

/* A busstat device and the codes of its two pics: a T4 MCU (`mcu`, its
 * two OS counters' selects) or a T1 unit (`t1`: JBUS 0, DRAM channel
 * 1..4 in `mcu`; 4-bit codes of hvpmu/t1_perfregs.h). */
struct stat_busdev {
	unsigned mcu;
	unsigned sel[2];
	unsigned t1;
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

struct stat_request {
	unsigned nevents;
	struct hvpmu_sv_event ev[HVPMU_SV_MAX_EVENTS];
	uint32_t pic_init;
	uint64_t rotate_cycles;
	char overflow_log[4096]; /* "" = none */
	char out[4096];          /* result file */
	unsigned nbusdev;
	struct stat_busdev busdev[STAT_MAX_BUSDEV];
	uint64_t sample_cycles;  /* busstat interval in cycles (0: no sampling) */
	char platform[16];       /* "t4" (default), "t4-2", "t4-4" or "t1" (hvpmu_md_by_name) */
	char placement[8];       /* "" / "pack" or "spread" (hvpmu_placement_by_name) */
	int mmustat;             /* collect Niagara MMU statistics per CPU */
	int cpustat;             /* sample every strand's events every sample_cycles (cpustat) */
	char md_path[4096];      /* machine-description file ("" = the platform's built-in one) */
	uint32_t hw_prefetch;    /* L1D hardware prefetcher degree (md mem.l1d_hw_prefetch), 0 = off */
};

struct stat_result {
	unsigned nevents;
	char name[HVPMU_SV_MAX_EVENTS][64];
	struct hvpmu_sv_count count[HVPMU_SV_MAX_EVENTS];
	uint64_t clock_hz;
	uint64_t retired;        /* user-mode instructions retired, all strands */
	uint64_t hv_status;      /* last non-EOK hypervisor status, 0 if none */
	unsigned nsamples;
	struct stat_sample *samples; /* malloc()ed by stat_result_read; free with stat_result_free */
	unsigned nmmu;
	struct stat_mmu *mmu;        /* likewise */
};

void stat_result_free(struct stat_result *rs);

/* Return 0 or -1 with a one-line reason in err[errlen]. */
int stat_request_write(const char *path, const struct stat_request *rq, char *err, size_t errlen);
int stat_request_read(const char *path, struct stat_request *rq, char *err, size_t errlen);
int stat_result_write(const char *path, const struct stat_result *rs, char *err, size_t errlen);
int stat_result_read(const char *path, struct stat_result *rs, char *err, size_t errlen);

#endif
