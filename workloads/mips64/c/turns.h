/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * turns.h: up to four threads of a mips64 C workload take turns through
 * pipes, never by spinning (pingpong.c explains why): thread k (0: the
 * main thread) waits for its turn with wait_turn(k), a read() of pipe
 * to[k] that returns after some thread's pass_turn(k), a write() to it.
 * The program creates the pipes.  Exit status 3: a pipe failed.
 */
#ifndef HVPMU_WORKLOAD_TURNS_H
#define HVPMU_WORKLOAD_TURNS_H

#include <stdlib.h>
#include <unistd.h>

static int to[4][2]; /* to[k]: the turn of thread k */

static void wait_turn(int k)
{
	char b;

	if (read(to[k][0], &b, 1) != 1)
		exit(3);
}

static void pass_turn(int k)
{
	char b = 0;

	if (write(to[k][1], &b, 1) != 1)
		exit(3);
}

#endif
