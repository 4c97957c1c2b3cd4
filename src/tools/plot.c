/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hvpmu plot: interval output (stat -I, cpustat, busstat, mdperf, gpci;
 * CSV or JSON, plot_parse.c) drawn as an SVG and a PNG by gnuplot, run
 * as a program on a data file and a script in a private temporary
 * directory: counters over modeled time, one line per counter; for
 * mdperf also a node-by-set heat map (PREFIX-heat.svg / .png).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools.h"
#include "plot.h"

#define TOOL "hvpmu plot"
#define PLOT_MAX_INPUT ((size_t)256 << 20)

static int usage(FILE *f)
{
	fprintf(f, "usage: hvpmu plot [-o PREFIX] [-t TITLE] FILE\n"
		   "  FILE: the -x or -j output of hvpmu stat -I, cpustat, busstat, mdperf or gpci with an\n"
		   "        interval ('-': standard input); writes PREFIX.svg and PREFIX.png (default PREFIX:\n"
		   "        FILE without its extension), for mdperf also PREFIX-heat.svg and PREFIX-heat.png\n");
	return f == stdout ? 0 : EXIT_USAGE;
}

/* The whole of file `path` ("-": stdin) into *buf, *len. */
static int read_all(const char *path, char **buf, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, n = 0;
	char *b = NULL;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", TOOL, path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t r;

		if (n == cap || !b) {
			char *nb;

			if (b)
				cap *= 2;
			if (cap > PLOT_MAX_INPUT || !(nb = realloc(b, cap))) {
				fprintf(stderr, "%s: %s: larger than %zu MB\n", TOOL, path, PLOT_MAX_INPUT >> 20);
				goto fail;
			}
			b = nb;
		}
		r = fread(b + n, 1, cap - n, f);
		n += r;
		if (r == 0) {
			if (ferror(f)) {
				fprintf(stderr, "%s: %s: %s\n", TOOL, path, strerror(errno));
				goto fail;
			}
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	*buf = b;
	*len = n;
	return 0;
fail:
	free(b);
	if (f != stdin)
		fclose(f);
	return -1;
}

/* s as a gnuplot single-quoted string: '' is a quote; control
 * characters are not kept. */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", f);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fputc('?', f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void gp_terminals(FILE *f, const char *out, const char *ext, int w, int h, int png)
{
	char path[PATH_MAX + 16];

	if (png)
		fprintf(f, "set terminal pngcairo noenhanced size %d,%d font 'sans,10' background '#ffffff'\n", w, h);
	else
		fprintf(f, "set terminal svg noenhanced size %d,%d font 'sans,11' background '#ffffff'\n", w, h);
	snprintf(path, sizeof path, "%s%s", out, ext);
	fputs("set output ", f);
	gp_str(f, path);
	fputc('\n', f);
}

/* The line plot's script and data (dir/lines.dat). */
static int write_lines(const char *dir, const struct plot_data *pd, const char *prefix, const char *title)
{
	char path[PATH_MAX + 32];
	FILE *d, *g;
	int h = 560 + (pd->ns > 28 ? (int)(pd->ns - 28) * 17 : 0);

	snprintf(path, sizeof path, "%s/lines.dat", dir);
	if (!(d = fopen(path, "w")))
		return -1;
	for (size_t i = 0; i < pd->ns; i++) {
		fprintf(d, "# %zu\n", i);
		for (size_t k = 0; k < pd->s[i].n; k++)
			fprintf(d, "%.17g %.17g\n", pd->s[i].t[k], pd->s[i].v[k]);
		fputs("\n\n", d);
	}
	if (fclose(d))
		return -1;
	snprintf(path, sizeof path, "%s/lines.gp", dir);
	if (!(g = fopen(path, "w")))
		return -1;
	for (int png = 0; png < 2; png++) {
		gp_terminals(g, prefix, png ? ".png" : ".svg", 1000, h, png);
		if (png) {
			fputs("replot\n", g);
			break;
		}
		fputs("set title ", g);
		gp_str(g, title);
		/* gpci samples a live service every interval of the host's time */
		fprintf(g, "\nset xlabel '%s'\n", pd->kind == PLOT_GPCI ? "time since the first sample (s, host clock)"
									: "modeled time (s)");
		fprintf(g, "set ylabel '%s'\n", pd->kind == PLOT_GPCI ? "value at the sample" : "count per interval");
		fputs("set key outside right top noautotitle\nset grid\nset format y '%.1s%c'\n"
		      "set xrange [0:*]\nset yrange [0:*]\nplot ",
		      g);
		snprintf(path, sizeof path, "%s/lines.dat", dir);
		for (size_t i = 0; i < pd->ns; i++) {
			fputs(i ? ", \\\n  " : "", g);
			gp_str(g, path);
			fprintf(g, " index %zu using 1:2 with linespoints lw 1.5 pt 7 ps 0.5 title ", i);
			gp_str(g, pd->s[i].name);
		}
		fputc('\n', g);
	}
	return fclose(g);
}

/* mdperf: the heat map of nodes x the sets that counted. */
static int write_heat(const char *dir, const struct plot_data *pd, const char *prefix, const char *title)
{
	char path[PATH_MAX + 32];
	FILE *d, *g;
	int col = 0, w = 800, h = 200 + 40 * (pd->nnodes < 4 ? 4 : pd->nnodes > 16 ? 16 : pd->nnodes);

	snprintf(path, sizeof path, "%s/heat.dat", dir);
	if (!(d = fopen(path, "w")))
		return -1;
	for (int s = 0; s < PLOT_MD_SETS; s++) {
		if (!pd->set_seen[s])
			continue;
		double sum = 0;

		for (int nd = 0; nd < pd->nnodes; nd++)
			sum += pd->heat[nd * PLOT_MD_SETS + s];
		/* the colour: the node's share of the set's events (the sets
		 * count in units of their own: Hub cycles, messages, states);
		 * the label: the count */
		for (int nd = 0; nd < pd->nnodes; nd++)
			fprintf(d, "%d %d %.17g %.17g\n", col, nd,
				sum > 0 ? 100.0 * pd->heat[nd * PLOT_MD_SETS + s] / sum : 0.0,
				pd->heat[nd * PLOT_MD_SETS + s]);
		col++;
	}
	if (fclose(d))
		return -1;
	snprintf(path, sizeof path, "%s/heat.gp", dir);
	if (!(g = fopen(path, "w")))
		return -1;
	for (int png = 0; png < 2; png++) {
		char out[PATH_MAX];

		snprintf(out, sizeof out, "%s-heat", prefix);
		gp_terminals(g, out, png ? ".png" : ".svg", w, h, png);
		if (png) {
			fputs("replot\n", g);
			break;
		}
		fputs("set title ", g);
		gp_str(g, title);
		fprintf(g, "\nset xlabel 'counter set'\nset ylabel 'node'\n"
			   "set cblabel 'the node''s share of the set (%%)'\n"
			   "set xrange [-0.5:%d.5]\nset yrange [-0.5:%d.5]\nset ytics 1\nset cbrange [0:100]\n"
			   "set palette defined (0 '#ffffff', 1 '#fdd49e', 2 '#fc8d59', 3 '#d7301f', 4 '#7f0000')\n"
			   "set style fill solid 1.0 noborder\nset xtics (",
			col - 1, pd->nnodes - 1);
		col = 0;
		for (int s = 0; s < PLOT_MD_SETS; s++)
			if (pd->set_seen[s]) {
				fputs(col ? ", " : "", g);
				gp_str(g, pd->set_name[s]);
				fprintf(g, " %d", col++);
			}
		snprintf(path, sizeof path, "%s/heat.dat", dir);
		fputs(")\nplot ", g);
		gp_str(g, path);
		fputs(" using 1:2:(0.5):(0.5):3 with boxxyerror fc palette notitle", g);
		if (pd->nnodes <= 16) { /* each cell's count, while they fit */
			fputs(", ''", g);
			fputs(" using 1:2:(sprintf('%.4g', $4)) with labels font ',9' notitle", g);
		}
		fputc('\n', g);
	}
	return fclose(g);
}

/* gnuplot on script dir/NAME: 0, or -1 after one line (its first error). */
static int run_gnuplot(const char *dir, const char *name, int *notfound)
{
	const char *gp = getenv("HVPMU_GNUPLOT") ? getenv("HVPMU_GNUPLOT") : "gnuplot";
	char script[PATH_MAX + 32], errpath[PATH_MAX + 32], line[512] = "";
	int status = 0, fd;
	pid_t pid;
	FILE *f;

	snprintf(script, sizeof script, "%s/%s", dir, name);
	snprintf(errpath, sizeof errpath, "%s/gnuplot.err", dir);
	if ((fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0) {
		fprintf(stderr, "%s: %s: %s\n", TOOL, errpath, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);
		}
		dup2(fd, 2);
		execlp(gp, gp, script, (char *)NULL);
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(fd);
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", TOOL, strerror(errno));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) >= 126) {
		*notfound = WEXITSTATUS(status) == 127;
		fprintf(stderr, "%s: cannot run %s (install gnuplot: Debian's gnuplot-nox)\n", TOOL, gp);
		return -1;
	}
	if ((f = fopen(errpath, "r"))) {
		while (fgets(line, sizeof line, f) && strspn(line, " \t\n^") == strlen(line))
			;
		fclose(f);
	}
	line[strcspn(line, "\n")] = 0;
	fprintf(stderr, "%s: gnuplot failed%s%s\n", TOOL, line[0] ? ": " : "", line);
	return -1;
}

static void rm_dir(const char *dir)
{
	static const char *const files[] = { "lines.dat", "lines.gp", "heat.dat", "heat.gp", "gnuplot.err" };
	char path[PATH_MAX + 32];

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

int cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = { { "output", required_argument, NULL, 'o' },
						  { "title", required_argument, NULL, 't' },
						  { "help", no_argument, NULL, 'h' },
						  { NULL, 0, NULL, 0 } };
	const char *prefix = NULL, *title = NULL, *file, *tmp = getenv("TMPDIR");
	char pfx[PATH_MAX], ttl[PATH_MAX + 64], dir[PATH_MAX], err[256], *buf = NULL;
	struct plot_data pd;
	size_t len = 0;
	int c, rc = EXIT_FAILURE, notfound = 0;

	while ((c = getopt_long(argc, argv, "+o:t:h", longopts, NULL)) != -1) {
		if (c == 'o')
			prefix = optarg;
		else if (c == 't')
			title = optarg;
		else if (c == 'h')
			return usage(stdout);
		else
			return EXIT_USAGE;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: %s (one input file)\n", TOOL, optind == argc ? "no input file" : "too many operands");
		return EXIT_USAGE;
	}
	file = argv[optind];
	if (!prefix) {
		const char *slash = strrchr(file, '/'), *dot = strrchr(file, '.');

		if (!strcmp(file, "-")) {
			fprintf(stderr, "%s: standard input needs -o PREFIX\n", TOOL);
			return EXIT_USAGE;
		}
		snprintf(pfx, sizeof pfx, "%.*s", (int)(dot && (!slash || dot > slash + 1) ? dot - file : (long)strlen(file)),
			 file);
		prefix = pfx;
	}
	if (!*prefix || strlen(prefix) > PATH_MAX - 32) {
		fprintf(stderr, "%s: bad output prefix\n", TOOL);
		return EXIT_USAGE;
	}
	if (read_all(file, &buf, &len))
		return EXIT_FAILURE;
	if (plot_parse(buf, len, &pd, err, sizeof err)) {
		fprintf(stderr, "%s: %s: %s\n", TOOL, strcmp(file, "-") ? file : "standard input", err);
		plot_data_free(&pd);
		free(buf);
		return EXIT_FAILURE;
	}
	free(buf);
	if (pd.uncounted) /* a count that could not be made is no point */
		fprintf(stderr, "%s: %zu row%s had no count (<not counted> or <not supported>): no point for %s\n", TOOL,
			pd.uncounted, pd.uncounted == 1 ? "" : "s", pd.uncounted == 1 ? "it" : "them");
	if (pd.lower_bounds) /* mdperf's '+': the 20-bit counter pegged at 0xFFFFF */
		fprintf(stderr, "%s: %zu row%s of a counter that pegged: %s a lower bound\n", TOOL, pd.lower_bounds,
			pd.lower_bounds == 1 ? "" : "s", pd.lower_bounds == 1 ? "its count is" : "their counts are");
	if (!title) {
		const char *base = strrchr(file, '/');

		snprintf(ttl, sizeof ttl, "hvpmu %s: %s", plot_kind_name(pd.kind), base ? base + 1 : file);
		title = ttl;
	}
	snprintf(dir, sizeof dir, "%s/hvpmu-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "%s: %s: %s\n", TOOL, dir, strerror(errno));
		plot_data_free(&pd);
		return EXIT_FAILURE;
	}
	if (write_lines(dir, &pd, prefix, title) ||
	    (pd.kind == PLOT_MDPERF && pd.nnodes && write_heat(dir, &pd, prefix, title))) {
		fprintf(stderr, "%s: writing the plot's files in %s: %s\n", TOOL, dir, strerror(errno));
		goto out;
	}
	if (run_gnuplot(dir, "lines.gp", &notfound) ||
	    (pd.kind == PLOT_MDPERF && pd.nnodes && run_gnuplot(dir, "heat.gp", &notfound)))
		goto out;
	printf("%s.svg\n%s.png\n", prefix, prefix);
	if (pd.kind == PLOT_MDPERF && pd.nnodes)
		printf("%s-heat.svg\n%s-heat.png\n", prefix, prefix);
	rc = 0;
out:
	rm_dir(dir);
	plot_data_free(&pd);
	return rc ? (notfound ? EXIT_NOTFOUND : rc) : 0;
}
