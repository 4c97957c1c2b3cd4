/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run-host extension (extension.h) of the example platform
 * (hvpmu/example.h, docs/architecture.md "Adding a platform"): its
 * firmware's census service.  Every run on a platform whose record offers
 * HVPMU_FW_EXAMPLE_CENSUS uses it (no request field asks): the guest OS
 * counts the threads it starts, the cpus they run on and the OS ticks it
 * takes, and prints one line when the program ends:
 *   hvpmu: example census: T threads on C cpus, K OS ticks
 */
#include <stdio.h>
#include <stdlib.h>
#include "extension.h"
#include <hvpmu/example.h>

struct census {
	uint64_t threads, ticks;
	uint8_t ran[STAT_MAX_CPUS];  /* a thread ran on the cpu */
};

static int start(const struct host_run *r, void **x, char *err, size_t n)
{
	(void)r;
	if (!(*x = calloc(1, sizeof(struct census)))) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	return 0;
}

static void thread_start(void *x, const struct host_run *r, uint32_t strand, uint64_t start_tick)
{
	struct census *c = x;

	(void)r; (void)start_tick;
	c->threads++;
	if (strand < STAT_MAX_CPUS)
		c->ran[strand] = 1;
}

static void tick(void *x, const struct host_run *r, uint32_t strand, uint64_t t)
{
	(void)r; (void)strand; (void)t;
	((struct census *)x)->ticks++;
}

static void end(void *x, const struct host_run *r)
{
	const struct census *c = x;
	unsigned cpus = 0;

	(void)r;
	for (unsigned k = 0; k < STAT_MAX_CPUS; k++)
		cpus += c->ran[k];
	fprintf(stderr, "hvpmu: example census: %llu threads on %u cpus, %llu OS ticks\n",
		(unsigned long long)c->threads, cpus, (unsigned long long)c->ticks);
}

const struct host_ext host_ext_example = {
	.name = "example",
	.firmware = HVPMU_FW_EXAMPLE_CENSUS,
	.refusal = "no census service on platform ",
	.monitor_ok = 1,
	.wanted = NULL, /* every run where the firmware offers it */
	.start = start,
	.thread_start = thread_start,
	.tick = tick,
	.end = end,
	.destroy = free,
};
