/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hvpmu CLI subcommands. */
#ifndef HVPMU_TOOLS_TOOLS_H
#define HVPMU_TOOLS_TOOLS_H

#include <stddef.h>

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
/* Locate libhvpmu_plugin.so: $HVPMU_PLUGIN, beside the executable, or the
 * install directory.  Returns 0 or -1. */
int find_plugin(char *out, size_t n);

#endif
