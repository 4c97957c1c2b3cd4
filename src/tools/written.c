/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a tool's output was written (tools.h tool_output_done,
 * tool_streams_done): a write error - /dev/full, a full file system, a
 * closed pipe - fails the command with one line, as perf and the GNU
 * tools do (close_stdout), instead of an exit status 0 over lost output.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "tools.h"

/* Flush f (close it unless it is a standard stream) and say whether every
 * write to it went through: 0, or the errno of the failure (EIO when the
 * stream only remembers that an earlier write failed). */
static int finish(FILE *f)
{
	int err = 0, bad;

	errno = 0;
	if (fflush(f))
		err = errno;
	bad = ferror(f);
	if (f != stdout && f != stderr) {
		errno = 0;
		if (fclose(f) && !err)
			err = errno;
	}
	return err ? err : bad ? EIO : 0;
}

int tool_output_done(const char *tool, FILE *f, const char *name, int rc)
{
	int err = finish(f);

	if (!err)
		return rc;
	fprintf(stderr, "%s: writing %s: %s\n", tool, name, strerror(err));
	return rc ? rc : EXIT_FAILURE;
}

int tool_streams_done(const char *tool, int rc)
{
	rc = tool_output_done(tool, stdout, "standard output", rc);
	/* stderr itself failing cannot be told on stderr: the status says it */
	return finish(stderr) && !rc ? EXIT_FAILURE : rc;
}
