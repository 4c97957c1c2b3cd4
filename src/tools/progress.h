/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The heartbeat of a long run on a terminal: progress.c. */
#ifndef HVPMU_TOOLS_PROGRESS_H
#define HVPMU_TOOLS_PROGRESS_H

#include <sys/types.h>

/* Standard error is a terminal, HVPMU_PROGRESS is not 0 and the tool
 * did not call progress_off (its CSV or JSON goes to stderr). */
int progress_wanted(void);
void progress_off(void);
/* Wait for child pid (its wait status), showing the heartbeat of the
 * result area of descriptor area_fd on stderr once the run has lasted a
 * few seconds; the line is erased before it returns. */
int progress_wait(const char *tool, pid_t pid, int area_fd);

#endif
