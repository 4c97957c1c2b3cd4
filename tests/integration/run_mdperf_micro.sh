#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The SGI Origin's micro-benchmarks with outcomes known by construction
# (issue 13), end to end under qemu-mips64 through `hvpmu mdperf`
# (docs/cli.md "hvpmu mdperf", docs/origin-directory.md):
#   run_mdperf_micro.sh HVPMU DIR
# DIR holds the mips64 programs workloads/mips64/c/{remote,localwb,sharew}.c
# (built by workloads/mips64/CMakeLists.txt); each header derives what it
# makes the home Hub count.  (pingpong is run_mdperf.sh's.)
#
# Every program runs twice, with N and 2N units of work, so that what the
# C library and the threads' start do cancels, and once per set (-s): one
# set live the whole run, so its counts are the whole run's (no
# multiplexing share).  The work is placed on a node that is home of
# nothing else (first touch by a thread of that node): node 0, home of
# the program and its C library, sees their traffic vary with the host's
# timing of the threads (a few requests between runs of the same program,
# up to 5 observed) and is not asserted.  The runs of N and 2N go side by
# side (two host threads; the counts do not depend on it).  At the benchmark's home node
# every counter of sets 1-5 must differ by exactly the value derived here
# (0 when not listed), and set 0's mem_dir_busy by 16 Hub cycles per
# memory operation (docs/origin-directory.md "The MD unit's time"); set
# 0's idle and refresh follow the run's length and are not checked here
# (run_mdperf.sh checks set 0's sum).
set -euo pipefail
hv=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: mdperf micro: $*" >&2; exit 1; }
echo '{ "platform": "origin", "placement": "spread" }' > "$tmp/spread.json"
. "$(dirname "$0")/lib_mdperf.sh"



# 1. remote N (workloads/mips64/c/remote.c): CPU 2 (node 1, placement
# spread) first-touches N + 2 pages of 16 KB with a store to the first
# line of each 8 KB; CPU 0 (node 0) reads the other 126 lines of the N
# inner pages, then the 2 touched lines of every page.  Per page at node
# 1: 126 remote reads of unowned lines, 2 local read-exclusives of
# unowned lines (CPU 2 is node 1's CPU 0), 2 remote reads of lines CPU 2
# holds exclusive (interventions read-shared to CPU 2, its revisions);
# memory serves the 128 unowned ones (16 Hub cycles each), the
# interventions are directory-only (4 each; no NACK: nobody else asks for
# those lines).
n=8
pair remote "$tmp/spread.json" remote "$n" "$((2 * n))"
check remote 1 "$tmp/remote1.csv" "$tmp/remote2.csv" \
	reads=$((130 * n)) unowned=$((128 * n)) excl_other=$((2 * n)) response=$((130 * n)) \
	interv_rdsh=$((2 * n)) interv_inval=$((2 * n)) revision_replies=$((2 * n)) cpu0_reads=$((2 * n)) \
	mem_dir_busy=$((16 * 128 * n)) dir_busy=$((4 * 2 * n))

# 2. localwb A B (workloads/mips64/c/localwb.c, placement pack: CPUs 2
# and 3 are node 1's CPU 0 and CPU 1): each stores to its K lines (A for
# CPU 2, B for CPU 3), loads the lines 2 MB and 4 MB above them (one set
# of the 4 MB 2-way secondary cache: the stored line is evicted dirty),
# then loads its lines again.  Per line, at node 1, from its CPU: 4 local
# requests of unowned lines (a read-exclusive, 3 reads), each served by
# memory, and one writeback (16 Hub cycles too).
a=32 b=48
pair localwb "" localwb "$a $b" "$((2 * a)) $((2 * b))"
check localwb 1 "$tmp/localwb1.csv" "$tmp/localwb2.csv" \
	cpu0_reads=$((4 * a)) cpu0_wb=$a cpu1_reads=$((4 * b)) cpu1_wb=$b \
	reads=$((4 * (a + b))) write_replies=$((a + b)) unowned=$((4 * (a + b))) \
	response=$((4 * (a + b))) wb_ack=$((a + b)) mem_dir_busy=$((16 * 5 * (a + b))) dir_busy=0
# the other nodes of the run see nothing of it (node 0: see the top)
for node in 2 3; do check localwb $node "$tmp/localwb1.csv" "$tmp/localwb2.csv" mem_dir_busy=0 dir_busy=0; done

# 3. sharew N (workloads/mips64/c/sharew.c, placement spread): N lines
# homed on node 3 (first touch by CPU 6) are loaded by CPU 0 (unowned ->
# exclusive), CPU 2 (exclusive -> shared {0, 2}: an intervention
# read-shared and its revision) and CPU 4 (shared), then stored by CPU 0
# (an upgrade: shared -> exclusive, invalidations to CPUs 2 and 4, the
# ack).  Per line at node 3: 3 reads, a misc request, a revision; states
# unowned, excl_other, shared one each; 4 responses, 3
# intervention/invalidate messages (1 intervention + 2 invalidations);
# memory serves 2 of the reads (16 Hub cycles each).  No local request:
# the lines' CPUs are on nodes 0-2.
# A line is busy for 40 Hub cycles after CPU 2's intervention; the next
# request (CPU 4's load) comes a pipe hand-over later, two system calls
# of 1500 cycles and more, with CPU 4 resumed at the machine's time
# (docs/kernel-model.md "Waiting"): no NACK, no busy state; dir_busy is 4
# Hub cycles per intervention and per upgrade, 8 per line.  (Before
# threads resumed at the machine's time, a request of a CPU behind the
# furthest one took no Hub time and about one request per line was
# NACKed: docs/origin-directory.md "Micro-benchmarks".)
n=63
pair sharew "$tmp/spread.json" sharew "$n" "$((2 * n))"
check sharew 3 "$tmp/sharew1.csv" "$tmp/sharew2.csv" \
	reads=$((3 * n)) misc_req=$n revision_replies=$n unowned=$n excl_other=$n shared=$n \
	response=$((4 * n)) interv_inval=$((3 * n)) inval=$((2 * n)) interv_rdsh=$n \
	mem_dir_busy=$((2 * 16 * n)) nack=0 busy=0 dir_busy=$((8 * n))
echo "mdperf micro: ok"
