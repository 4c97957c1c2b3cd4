#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): the memory model core fed a recorded reference
# stream (issue 3: "at least 100 M references per second on one core",
# "memory use bounded by the modeled structures").
# Headline: a recorded stream of a real program -- zlib minigzip
# compressing clang's riscv_vector.h, its first N references recorded by
# bench/tracerec.c (the references hvpmu's plugin feeds the model, in
# order) -- fed to the model core alone (records decoded in memory).
# Secondary: the synthetic miss-heavy mix of bench/memcore.c (35 % L1D
# misses, 12 % DTLB misses), written as binary traces of N and 5N
# references and as din text:
#   - replay throughput (hvpmu_trace_replay from the file, and from memory),
#   - the model core alone (records in an array, no reader),
#   - peak RSS of a process replaying N versus 5N references,
#   - the binary and din readers alone,
#   - the model core per access pattern and working set.
# Rates are the best of RUNS runs: the machine may be shared, and other
# work only ever slows a run down.
# Usage: bench/memcore.sh [N (default 10000000)] [RUNS (default 5)]
#   (HVPMU_MINIGZIP=path skips the zlib build)
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
gz=${HVPMU_MINIGZIP:-$("$HVPMU_ROOT/scripts/build-zlib.sh")}
text=/usr/lib/llvm-14/lib/clang/14.0.6/include/riscv_vector.h
qemu-sparc64 -R 0x10000000000 -L /usr/sparc64-linux-gnu -plugin "$HVPMU_WORK/release/bench/libtracerec.so,out=$tmp/minigzip.bin,max=$((4 * n))" \
	"$gz" < "$text" > /dev/null
say "headline: the model core fed minigzip's recorded stream ($((4 * n)) references)"
"$mc" core-trace "$tmp/minigzip.bin" "$runs"
"$mc" replay "$tmp/minigzip.bin" "$runs"
say "the synthetic miss-heavy mix"
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
