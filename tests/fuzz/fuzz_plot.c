/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_plot.c - libFuzzer target for `hvpmu plot`'s reader
 * (src/tools/plot_parse.c, compiled in; no gnuplot runs): the interval
 * output of stat -I, mdperf, cpustat, busstat and gpci, CSV of any
 * separator or JSON lines, told apart by content.
 *
 * Input: the file.  Invariants (abort on violation): plot_parse returns 0
 * or -1; -1 comes with a one-line message; 0 with 1..PLOT_MAX_SERIES
 * series, each named (NUL-terminated, not empty), with 1 or more points
 * (n <= cap) of finite times and values, a kind of plot.h, and for mdperf
 * nodes within PLOT_MD_NODES and finite heat cells.
 *
 * Build: tests/fuzz/CMakeLists.txt (-DHVPMU_FUZZ=ON, CC=clang).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/plot_parse.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plot_data pd;
	char err[256];
	int rc = plot_parse((const char *)data, size, &pd, err, sizeof err);

	if (rc != 0 && rc != -1)
		abort();
	if (rc) {
		if (!err[0] || strchr(err, '\n') || strlen(err) >= sizeof err)
			abort();
	} else {
		if (pd.ns == 0 || pd.ns > PLOT_MAX_SERIES || (unsigned)pd.kind > PLOT_GPCI)
			abort();
		for (size_t i = 0; i < pd.ns; i++) {
			const struct plot_series *s = &pd.s[i];

			if (!s->name || !s->name[0] || s->n == 0 || s->n > s->cap)
				abort();
			for (size_t k = 0; k < s->n; k++)
				if (!isfinite(s->t[k]) || isnan(s->v[k]))
					abort();
		}
		if (pd.kind == PLOT_MDPERF) {
			if (pd.nnodes < 0 || pd.nnodes > PLOT_MD_NODES || (pd.nnodes && !pd.heat))
				abort();
			for (int k = 0; k < pd.nnodes * PLOT_MD_SETS; k++)
				if (isnan(pd.heat[k]))
					abort();
		}
	}
	plot_data_free(&pd);
	return 0;
}
