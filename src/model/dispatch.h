/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PAPR hypervisor's dispatcher (layer 2; docs/papr-dispatcher.md):
 * on a machine with a CEC (md.cec.nchips > 0) it schedules the
 * partitions' virtual processors onto the physical processors and feeds
 * the CEC statistics device (hvpmu/cec_stats.h) with what the real
 * programs running on the partitions' strands did: entitled, capped,
 * uncapped, donated and idle PURR cycles, run-latch instructions and
 * cycles, and the inter-chip links' idle and total cycles from the
 * memory model's transfers between chips.  A partition that wants more
 * than its entitlement allows (capped) or than the pool has (uncapped)
 * waits: its strands are held back (idle time), so a capped program
 * takes longer in modeled time, as on the real machine.
 *
 * Machine-internal; single-threaded like the rest of the machine.
 */
#ifndef HVPMU_MODEL_DISPATCH_H
#define HVPMU_MODEL_DISPATCH_H

#include <stdint.h>

struct hvpmu_machine;
struct dispatch;

/* Timebase cycles a 128-byte line occupies an inter-chip link: 16 bytes
 * per timebase cycle (8.2 GB/s at 512 MHz), hvpmu's choice. */
#define DISPATCH_LINE_TB 8u

/* The dispatcher of machine m (m->disp), when its description has a CEC
 * and the machine the CEC statistics device: 0, HVPMU_ENOMEM.  Nothing
 * (m->disp NULL) without a CEC. */
int dispatch_create(struct hvpmu_machine *m);
void dispatch_destroy(struct hvpmu_machine *m);
/* Account everything since the previous call, up to the machine's
 * time `now` (cycles): see hvpmu_machine_dispatch(); `quantum`: the step
 * since the previous call is the caller's time quantum (the strands then
 * sync at least once a quantum), else a catch-up
 * (hvpmu_machine_dispatch_catch_up). */
void dispatch_run(struct hvpmu_machine *m, uint64_t now, int quantum);
/* The machine time (cycles) of the last run (0: none yet): the time every
 * running strand has reached; a strand held back is ahead of it. */
uint64_t dispatch_time(const struct hvpmu_machine *m);

#endif
