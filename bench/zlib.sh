#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): zlib minigzip compressing a multi-megabyte text
# under bare qemu-sparc64, under `hvpmu stat` counting four
# instruction-class events, and under `hvpmu stat` counting four memory
# events (the full memory model: caches, TLBs, DRAM), run side by side,
# alternating, N times each.  Prints the minimum (the machine may be shared:
# other work only ever slows a run down) and the median of each, and the
# ratios of the minimums to bare qemu.
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
t() { local s e; s=$(date +%s.%N); "$@" < "$text" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
bare=() insn=() mem=()
for ((i = 0; i < n; i++)); do
	bare+=("$(t qemu-sparc64 -L /usr/sparc64-linux-gnu "$gz")")
	insn+=("$(t "$hv" stat -x, -o /dev/null -e "$insn_events" -- "$gz")")
	mem+=("$(t "$hv" stat -x, -o /dev/null -e "$mem_events" -- "$gz")")
done
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
min() { printf '%s\n' "$@" | sort -g | head -n1; }
mb=$(min "${bare[@]}") mi=$(min "${insn[@]}") mm=$(min "${mem[@]}")
printf 'input          %s (%s bytes), %d runs each, alternating\n' "$text" "$(stat -c %s "$text")" "$n"
printf 'bare qemu      min %.3f s, median %.3f s\n' "$mb" "$(med "${bare[@]}")"
printf 'hvpmu (insn)   min %.3f s, median %.3f s (%s)\n' "$mi" "$(med "${insn[@]}")" "$insn_events"
printf 'hvpmu (memory) min %.3f s, median %.3f s (%s)\n' "$mm" "$(med "${mem[@]}")" "$mem_events"
printf 'ratio (insn)   %.2fx\n' "$(echo "$mi / $mb" | bc -l)"
printf 'ratio (memory) %.2fx (issue 3 target: 6x)\n' "$(echo "$mm / $mb" | bc -l)"
