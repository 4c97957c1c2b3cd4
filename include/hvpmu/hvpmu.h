/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu/hvpmu.h - umbrella header and library-wide conventions.
 *
 * libhvpmu models performance-monitoring hardware and the hypervisor services
 * that expose it, in five layers (../shared/DESIGN.md):
 *   1. event sources   - hvpmu/isa.h (the instruction-set seam), hvpmu/insn.h,
 *                        hvpmu/sparc_decode.h, hvpmu/prefetch.h, hvpmu/trace.h
 *   2. machine model   - hvpmu/md.h, hvpmu/machine.h
 *   3. PMU devices     - hvpmu/pmu.h (their interface), hvpmu/t4_pmu.h, hvpmu/t4_events.h, hvpmu/t4_mcu.h, hvpmu/t1_pmu.h, hvpmu/r10k_pmu.h,
 *                        hvpmu/cec_stats.h (the PAPR CEC statistics)
 *   4. hypervisor      - hvpmu/sun4v.h, hvpmu/irix.h, hvpmu/papr.h (with hvpmu/cec.h)
 *   5. supervisor      - hvpmu/supervisor.h, hvpmu/gpci.h (the hv_gpci client)
 *
 * hvpmu/version.h gives the library's version (hvpmu_version()).
 *
 * Conventions for every public function:
 *   - Library calls return 0 or a negative enum hvpmu_err; they never print
 *     or exit.  Hypercall wrappers return the sun4v status code of the spec
 *     instead, or, for a trap that did not reach the hypervisor (made in
 *     user mode), the library error as uint64_t (hvpmu/sun4v.h).
 *   - No global state: everything hangs off a struct hvpmu_machine created
 *     by the caller.  Objects are not thread-safe unless a function says so;
 *     a caller that drives one machine from several threads serialises.
 *   - Units are stated per field: cycles (modeled processor cycles, also the
 *     unit of %tick), events, bytes.
 */
#ifndef HVPMU_HVPMU_H
#define HVPMU_HVPMU_H

#include <hvpmu/error.h>
#include <hvpmu/version.h>
#include <hvpmu/insn.h>
#include <hvpmu/sparc_decode.h>
#include <hvpmu/prefetch.h>
#include <hvpmu/md.h>
#include <hvpmu/platform.h>
#include <hvpmu/machine.h>
#include <hvpmu/isa.h>
#include <hvpmu/pmu.h>
#include <hvpmu/t4_pmu.h>
#include <hvpmu/t4_mcu.h>
#include <hvpmu/t1_pmu.h>
#include <hvpmu/t1_perfregs.h>
#include <hvpmu/r10k_pmu.h>
#include <hvpmu/origin_md.h>
#include <hvpmu/t4_events.h>
#include <hvpmu/sun4v.h>
#include <hvpmu/irix.h>
#include <hvpmu/guest_mem.h>
#include <hvpmu/mmustat.h>
#include <hvpmu/cec.h>
#include <hvpmu/cec_stats.h>
#include <hvpmu/papr.h>
#include <hvpmu/supervisor.h>
#include <hvpmu/gpci.h>

#endif
