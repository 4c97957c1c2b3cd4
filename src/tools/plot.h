/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu plot: the interval output of stat -I, cpustat, busstat, mdperf
 * and gpci (CSV of any -x separator, or -j JSON lines; docs/cli.md) read
 * into time series (plot_parse.c, no drawing: fuzz_plot), drawn by
 * gnuplot (plot.c).
 */
#ifndef HVPMU_TOOLS_PLOT_H
#define HVPMU_TOOLS_PLOT_H

#include <stddef.h>

enum plot_kind { PLOT_STAT, PLOT_MDPERF, PLOT_CPUSTAT, PLOT_BUSSTAT, PLOT_GPCI };

/* One counter's increases over modeled time, in the rows' order. */
struct plot_series {
	char *name;
	size_t n, cap;
	double *t, *v;
};

#define PLOT_MAX_SERIES 512
#define PLOT_MD_SETS 6
#define PLOT_MD_NODES 1024

struct plot_data {
	enum plot_kind kind;
	int json;                  /* the input was JSON lines */
	size_t ns;
	struct plot_series *s;
	size_t uncounted;          /* rows whose count could not be made (<not counted>...): no point */
	size_t lower_bounds;       /* mdperf rows of a counter that pegged (overflow): a lower bound */
	/* mdperf: the node x set sums of the interval rows (nodes 0..nnodes-1) */
	int nnodes;
	char set_name[PLOT_MD_SETS][32];
	double *heat;              /* [node * PLOT_MD_SETS + set] */
	unsigned char set_seen[PLOT_MD_SETS];
};

/* Parse len bytes at buf (need not end in NUL) into *pd (freed with
 * plot_data_free, also after an error).  0, or -1 with one line in err
 * ("line N: ..." when a row is at fault). */
int plot_parse(const char *buf, size_t len, struct plot_data *pd, char *err, size_t n);
void plot_data_free(struct plot_data *pd);
/* "stat -I", "mdperf", ... */
const char *plot_kind_name(enum plot_kind k);

#endif
