/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `[interval [count]] -- PROGRAM` of busstat and cpustat: tools.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools.h"

static int positive(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || !*s || *end || !(*v > 0) ? -1 : 0;
}

int interval_cycles(const char *tool, double interval, uint64_t clock_hz, uint64_t *cycles)
{
	double c = interval * (double)clock_hz;

	if (!(c < 0x1p63)) { /* beyond 2^63 cycles: centuries of modeled time */
		fprintf(stderr, "%s: interval %g s is too long\n", tool, interval);
		return -1;
	}
	*cycles = c < 1 ? 1 : (uint64_t)c;
	return 0;
}

int parse_interval_count(const char *tool, int argc, char **argv, int *next, double *interval,
			 unsigned long *count)
{
	int i = *next, dashdash = i > 1 && strcmp(argv[i - 1], "--") == 0;
	double c;

	/* getopt consumed a "--" that directly follows the options */
	for (int k = 0; !dashdash && i < argc && strcmp(argv[i], "--") != 0; k++, i++) {
		if (k == 0 && positive(argv[i], interval) == 0)
			continue;
		/* (double)ULONG_MAX is 2^64: below it the conversion is defined */
		if (k == 1 && positive(argv[i], &c) == 0 && c < (double)ULONG_MAX && c == (double)(unsigned long)c) {
			*count = (unsigned long)c;
			continue;
		}
		fprintf(stderr, "%s: bad argument '%s' (interval and count are positive numbers)\n", tool, argv[i]);
		return -1;
	}
	if (!dashdash && i < argc && strcmp(argv[i], "--") == 0) {
		i++;
		dashdash = 1;
	}
	*next = dashdash ? i : argc;
	return 0;
}
