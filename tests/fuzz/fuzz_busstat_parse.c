/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_busstat_parse.c - libFuzzer target for `hvpmu busstat -w` device
 * specifications (src/tools/busstat.c parse_w, compiled in):
 * `DEV[,pic0=EVENT][,pic1=EVENT]` with DEV a chip driver's device (mcuN
 * on the T4, dram0-3 / jbus0 on the T1: hvpmu_sv_uncore_parse), events
 * by name or code.
 *
 * Input: the specification.  Invariants (abort on violation): parse_w
 * returns 0 or -1; on 0 a back-end owns the device, the device is below
 * HVPMU_SV_MAX_UNCORE and has a name, the selects are TABLE 10-7 codes
 * 0..0xc or 0xf (clear_pic) for a T4 MCU and 4-bit codes for a T1 unit
 * (niagara-perf-api.txt §1.2-1.3), and the three names are NUL-terminated.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/busstat.c"
#include "tools/interval.c"
#include "tools/mdopt.c"
#include "tools/fmt.c"
#include "tools/progress.c" /* (the tools turn the heartbeat off for CSV and JSON on stderr) */
#include <hvpmu/hvpmu.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "fuzz_tool_stubs.h"

#define T4_MAX_SEL 0xc   /* TABLE 10-7 */
#define T4_CLEAR_PIC 0xf

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stat_busdev d;
	struct busdev_names nm;
	char *spec, dev[32];
	int rc;

	spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = 0;
	memset(&nm, 0x5a, sizeof nm);
	rc = parse_w(spec, &d, &nm);
	if (rc != 0 && rc != -1)
		abort();
	if (rc == 0) {
		int t1 = nm.be == hvpmu_sv_backend_of(HVPMU_PLATFORM_T1);

		if (!nm.be || d.dev >= HVPMU_SV_MAX_UNCORE || hvpmu_sv_uncore_name(nm.be, d.dev, dev, sizeof dev))
			abort();
		if (t1 ? d.dev > HVPMU_T1_DRAM_CHANNELS : nm.be != hvpmu_sv_backend_of(HVPMU_PLATFORM_T4))
			abort();
		for (int k = 0; k < 2; k++)
			if (t1 ? d.code[k] >= HVPMU_T1_NCODES : (d.code[k] > T4_MAX_SEL && d.code[k] != T4_CLEAR_PIC))
				abort();
		if (!memchr(nm.dev, 0, sizeof nm.dev) || !memchr(nm.ev[0], 0, sizeof nm.ev[0]) ||
		    !memchr(nm.ev[1], 0, sizeof nm.ev[1]))
			abort();
	}
	free(spec);
	return 0;
}
