#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): the memory model core fed a recorded reference
# stream (issue 3: "at least 100 M references per second on one core",
# "memory use bounded by the modeled structures").  Writes the synthetic
# mix of bench/memcore.c once as a binary trace of N and 5N references and
# as din text, then reports:
#   - replay throughput (hvpmu_trace_replay from the file, and from memory),
#   - the model core alone (records in an array, no reader),
#   - peak RSS of a process replaying N versus 5N references,
#   - the binary and din readers alone,
#   - the model core per access pattern and working set.
# Usage: bench/memcore.sh [N (default 10000000)] [RUNS (default 5)]
# Traces go to $HVPMU_BENCH_TMP (default: a temporary directory, removed).
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
n=${1:-10000000}
runs=${2:-5}
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
mc=$HVPMU_WORK/release/bench/memcore
tmp=${HVPMU_BENCH_TMP:-}
if [ -z "$tmp" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi
say "writing traces to $tmp"
"$mc" gen "$tmp/mix-1x.bin" "$n" bin
"$mc" gen "$tmp/mix-5x.bin" $((5 * n)) bin
"$mc" gen "$tmp/mix-1x.din" "$n" din
ls -l "$tmp"
say "replay (hvpmu_trace_replay), streamed from the file"
"$mc" replay "$tmp/mix-1x.bin" "$runs"
"$mc" replay "$tmp/mix-5x.bin" 3
say "replay from the trace's bytes in memory"
"$mc" replay-mem "$tmp/mix-1x.bin" "$runs"
say "model core alone"
"$mc" core "$n" "$runs"
say "readers alone"
"$mc" read "$tmp/mix-1x.bin" "$runs"
"$mc" read "$tmp/mix-1x.din" "$runs"
say "model core per cell"
"$mc" sweep 4000000
