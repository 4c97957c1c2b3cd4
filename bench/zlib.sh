#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): zlib minigzip compressing a multi-megabyte text
# under bare qemu-sparc64, under `hvpmu stat` counting four
# instruction-class events, and under `hvpmu stat` counting four memory
# events (the full memory model: caches, TLBs, store buffer, request
# buffers, pipeline timing, DRAM), the last on the guest's thread (the
# default) and on a host thread of its own (HVPMU_MODEL_THREAD=1,
# docs/event-source.md "Model thread"); run side by side, alternating, N
# times each.  Prints the minimum wall time (the machine may be shared:
# other work only ever slows a run down), the median, the CPU time (user +
# system, all threads) of the fastest run, and the ratios of the minimum
# wall times to bare qemu.
# Usage: bench/zlib.sh [N] [TEXT]   (HVPMU_MINIGZIP=path skips the zlib build)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
n=${1:-5}
text=${2:-/usr/lib/llvm-14/lib/clang/14.0.6/include/riscv_vector.h}
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
gz=${HVPMU_MINIGZIP:-$("$HVPMU_ROOT/scripts/build-zlib.sh")}
hv=$HVPMU_WORK/release/src/hvpmu
insn_events=Instr_all,Instr_ld,Instr_st,Branches
mem_events=DC_miss_nospec,IC_miss_nospec,DTLB_miss_asynch,L2_dirty_evict
# t CMD...: "wall cpu" in seconds
t() {
	local TIMEFORMAT='%R %U %S' out
	out=$({ time "$@" < "$text" > /dev/null 2> /dev/null; } 2>&1)
	echo "$out" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}
declare -A runs
for ((i = 0; i < n; i++)); do
	runs[bare]+="$(t qemu-sparc64 -R 0x10000000000 -L /usr/sparc64-linux-gnu "$gz")"$'\n'
	runs[insn]+="$(t "$hv" stat -x, -o /dev/null -e "$insn_events" -- "$gz")"$'\n'
	runs[mem]+="$(t "$hv" stat -x, -o /dev/null -e "$mem_events" -- "$gz")"$'\n'
	runs[mem_thread]+="$(t env HVPMU_MODEL_THREAD=1 "$hv" stat -x, -o /dev/null -e "$mem_events" -- "$gz")"$'\n'
done
# stats KIND: "min median cpu_of_min"
stats() {
	printf '%s' "${runs[$1]}" | sort -g | awk '{ w[NR] = $1; c[NR] = $2 }
		END { m = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2; print w[1], m, c[1] }'
}
read -r mb db cb <<< "$(stats bare)"
printf 'input           %s (%s bytes), %d runs each, alternating\n' "$text" "$(stat -c %s "$text")" "$n"
printf '%-17s %-9s %-10s %-9s %s\n' "" "min wall" "median" "cpu" "ratio (min wall / bare)"
row() { # row LABEL KIND NOTE
	local m d c
	read -r m d c <<< "$(stats "$2")"
	printf '%-17s %-9s %-10s %-9s %5.2fx  %s\n' "$1" "${m}s" "${d}s" "${c}s" "$(echo "$m / $mb" | bc -l)" "$3"
}
row "bare qemu" bare ""
row "hvpmu insn" insn "$insn_events"
row "hvpmu memory" mem "$mem_events (issue 3 target: 6x)"
row "  model thread" mem_thread "HVPMU_MODEL_THREAD=1: the model on a host thread of its own"
