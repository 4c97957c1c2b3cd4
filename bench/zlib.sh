#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): zlib minigzip compressing a multi-megabyte text
# under bare qemu-sparc64 and under `hvpmu stat` counting four
# instruction-class events, run side by side, alternating, N times each;
# prints the medians and their ratio.  Usage: bench/zlib.sh [N] [TEXT]
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
n=${1:-5}
text=${2:-/usr/lib/llvm-14/lib/clang/14.0.6/include/riscv_vector.h}
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
gz=$("$HVPMU_ROOT/scripts/build-zlib.sh")
hv=$HVPMU_WORK/release/src/hvpmu
events=Instr_all,Instr_ld,Instr_st,Branches
t() { local s e; s=$(date +%s.%N); "$@" < "$text" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
bare=() inst=()
for ((i = 0; i < n; i++)); do
	bare+=("$(t qemu-sparc64 -L /usr/sparc64-linux-gnu "$gz")")
	inst+=("$(t "$hv" stat -x, -o /dev/null -e "$events" -- "$gz")")
done
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
mb=$(med "${bare[@]}") mi=$(med "${inst[@]}")
printf 'input        %s (%s bytes)\n' "$text" "$(stat -c %s "$text")"
printf 'bare qemu    median %.3f s over %d runs\n' "$mb" "$n"
printf 'hvpmu stat   median %.3f s (%s)\n' "$mi" "$events"
printf 'ratio        %.2fx\n' "$(echo "$mi / $mb" | bc -l)"
