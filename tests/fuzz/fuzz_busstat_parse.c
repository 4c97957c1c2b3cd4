/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_busstat_parse.c - libFuzzer target for `hvpmu busstat -w` device
 * specifications (src/tools/busstat.c parse_w, compiled in):
 * `DEV[,pic0=EVENT][,pic1=EVENT]` with DEV mcuN (T4) or dram0-3 / jbus0
 * (T1), events by name or code.
 *
 * Input: byte 0 = the number of MCUs (1..16), the rest the specification.
 * Invariants (abort on violation): parse_w returns 0 or -1; on 0 the
 * device is an MCU below the count (T4) or a T1 unit 0..4, the selects
 * are TABLE 10-7 codes 0..0xc or 0xf (clear_pic) for an MCU and 4-bit
 * codes for a T1 unit, and the three names are NUL-terminated.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* busstat.c runs programs through stat.c's run_guest(); parsing never does. */
int run_guest(const char *tool, struct stat_request *rq, int argc, char **argv, struct stat_result *rs,
	      struct run_times *t, int *ok)
{
	(void)tool; (void)rq; (void)argc; (void)argv; (void)rs; (void)t;
	*ok = 0;
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stat_busdev d;
	char names[3][32], *spec;
	unsigned nmcu;
	int rc;

	if (size == 0)
		return 0;
	nmcu = data[0] % 16 + 1;
	spec = malloc(size);
	if (!spec)
		return 0;
	memcpy(spec, data + 1, size - 1);
	spec[size - 1] = 0;
	memset(names, 0x5a, sizeof names);
	rc = parse_w(spec, &d, names, nmcu);
	if (rc != 0 && rc != -1)
		abort();
	if (rc == 0) {
		if (d.t1 ? d.mcu > T1_DRAM_CHANNELS : d.mcu >= nmcu)
			abort();
		for (int k = 0; k < 2; k++)
			if (d.t1 ? d.sel[k] >= HVPMU_T1_NCODES : (d.sel[k] > MAX_SEL && d.sel[k] != CLEAR_PIC_SEL))
				abort();
		for (int k = 0; k < 3; k++)
			if (!memchr(names[k], 0, sizeof names[k]))
				abort();
	}
	free(spec);
	return 0;
}
