/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The field formats every tool's machine-readable output shares: CSV
 * fields quoted as RFC 4180 says (only a field that holds the separator,
 * a double quote or a line break; a quote inside doubled), the check of a
 * -x separator, and JSON numbers written as the shortest decimal that
 * reads back as the same double ("0.05", not 0.050000000000000003).
 */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output.h"

int tool_separator(const char *tool, const char *sep)
{
	if (!sep || !*sep) {
		fprintf(stderr, "%s: -x wants a separator (e.g. -x, or -x';'), not an empty string\n", tool);
		return -1;
	}
	for (const char *c = sep; *c; c++)
		if (*c == '"' || *c == '\n' || *c == '\r') {
			fprintf(stderr, "%s: -x: a separator cannot hold a double quote or a line break\n", tool);
			return -1;
		}
	return 0;
}

int csv_needs_quotes(const char *s, const char *sep)
{
	return strpbrk(s, "\"\n\r") || (sep && *sep && strstr(s, sep));
}

void csv_field(FILE *f, const char *sep, int first, const char *s)
{
	if (!first)
		fputs(sep, f);
	if (!csv_needs_quotes(s, sep)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void csv_fieldf(FILE *f, const char *sep, int first, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	csv_field(f, sep, first, buf);
}

const char *shortest_double(char *buf, size_t n, double v)
{
	const char *dp = localeconv()->decimal_point;
	char *p;

	for (int prec = 1; prec <= 17; prec++) { /* 17 digits always read back exactly */
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* JSON's decimal point whatever LC_NUMERIC says (stat sets the
	 * user's locale for its table's digit grouping) */
	if (dp && dp[0] && strcmp(dp, ".") && (p = strstr(buf, dp))) {
		size_t dl = strlen(dp);

		*p = '.';
		memmove(p + 1, p + dl, strlen(p + dl) + 1);
	}
	return buf;
}

json_object *json_double_shortest(double v)
{
	char buf[48];

	if (!isfinite(v)) /* JSON has no NaN or infinity */
		return NULL;  /* json-c's null */
	return json_object_new_double_s(v, shortest_double(buf, sizeof buf, v));
}
