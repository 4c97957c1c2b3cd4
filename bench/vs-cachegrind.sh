#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): hvpmu's memory model against the tool a user
# would pick instead for cache-miss counts, cachegrind (issue 16, goal 2).
# The same zlib minigzip source from the same Debian package
# (scripts/build-zlib.sh), compressing the same multi-megabyte text:
#   cachegrind  valgrind --tool=cachegrind --branch-sim=yes on the x86-64
#               build, with the T4's cache geometry (I1 and D1 16 KB 4-way
#               32-byte lines, LL the 4 MB 16-way L3 with 64-byte lines;
#               cachegrind has no middle level);
#   hvpmu       `hvpmu stat` on the sparc64 build under qemu-sparc64 with
#               the events a cachegrind user asks for: L1 I and D misses,
#               last-level (data) misses, branch mispredicts
#               (IC_miss_nospec, DC_miss_nospec, DC_miss_local_hit_nospec:
#               L1D misses of loads served by memory, Br_mispred; the
#               instruction side's last-level misses would need a fifth
#               PIC);
#   hvpmu all   every part of the model on: cycles (the timing model),
#               store-buffer RAW hits, request buffers
#               (Instr_all,cycles,RAW_hit_st_buf,L2_miss_buf_full);
#   bare qemu   for scale.
# Run side by side, alternating, N times each.  Prints the minimum wall
# time of each (the machine may be shared: other work only slows a run
# down), its CPU time, the instructions it simulated (cachegrind's I refs;
# hvpmu's Instr_all, user and kernel path) and the simulated instructions
# per second, and each hvpmu row's rate as a ratio of cachegrind's
# (>= 1: as fast as cachegrind or faster).  The programs differ in
# instruction set, so they simulate different instruction counts for the
# same work; the rate is what compares.
# Usage: bench/vs-cachegrind.sh [N] [TEXT]
#   (HVPMU_MINIGZIP / HVPMU_MINIGZIP_X86=path skip the zlib builds;
#   HVPMU_BENCH_BASE=BUILD_DIR adds the two hvpmu rows of another build,
#   e.g. of the commit before a change, alternating with the others)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
n=${1:-5}
text=${2:-/usr/lib/llvm-14/lib/clang/14.0.6/include/riscv_vector.h}
HVPMU_PACKAGES+=(valgrind)
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
gz=${HVPMU_MINIGZIP:-$("$HVPMU_ROOT/scripts/build-zlib.sh")}
gzx=${HVPMU_MINIGZIP_X86:-$("$HVPMU_ROOT/scripts/build-zlib.sh" x86_64)}
hv=$HVPMU_WORK/release/src/hvpmu
base=${HVPMU_BENCH_BASE:+$(cd "$HVPMU_BENCH_BASE" && pwd)/src/hvpmu}
[ -z "$base" ] || [ -x "$base" ] || die "no $base"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cg_events=IC_miss_nospec,DC_miss_nospec,DC_miss_local_hit_nospec,Br_mispred
all_events=Instr_all,cycles,RAW_hit_st_buf,L2_miss_buf_full
cg=(valgrind --tool=cachegrind --branch-sim=yes --cache-sim=yes --I1=16384,4,32 --D1=16384,4,32
	--LL=4194304,16,64 --cachegrind-out-file=/dev/null)
# t LOG CMD...: "wall cpu" in seconds; the command's stderr to LOG
t() {
	local log=$1 TIMEFORMAT='%R %U %S' out
	shift
	out=$({ time "$@" < "$text" > /dev/null 2> "$log"; } 2>&1)
	echo "$out" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}
declare -A runs
for ((i = 0; i < n; i++)); do
	runs[bare]+="$(t "$tmp/bare.err" qemu-sparc64 -R 0x10000000000 -L /usr/sparc64-linux-gnu "$gz")"$'\n'
	runs[cachegrind]+="$(t "$tmp/cg.err" "${cg[@]}" "$gzx")"$'\n'
	runs[hvpmu]+="$(t "$tmp/hv.err" "$hv" stat -x, -o "$tmp/hv.csv" -e "$cg_events" -- "$gz")"$'\n'
	runs[all]+="$(t "$tmp/all.err" "$hv" stat -x, -o "$tmp/all.csv" -e "$all_events" -- "$gz")"$'\n'
	if [ -n "$base" ]; then
		runs[base]+="$(t "$tmp/bhv.err" "$base" stat -x, -o "$tmp/bhv.csv" -e "$cg_events" -- "$gz")"$'\n'
		runs[base_all]+="$(t "$tmp/ball.err" "$base" stat -x, -o "$tmp/ball.csv" -e "$all_events" -- "$gz")"$'\n'
	fi
done
# the simulated instructions: cachegrind's I refs; the sparc64 run's Instr_all
cg_insns=$(awk '/I +refs:/ { gsub(/,/, "", $4); print $4 }' "$tmp/cg.err")
hv_insns=$(awk -F, '$3 == "Instr_all" { print $1 }' "$tmp/all.csv")
[ -n "$cg_insns" ] && [ -n "$hv_insns" ] || die "no instruction counts (cachegrind: '$cg_insns', hvpmu: '$hv_insns')"
# stats KIND: "min median cpu_of_min"
stats() {
	printf '%s' "${runs[$1]}" | sort -g | awk '{ w[NR] = $1; c[NR] = $2 }
		END { m = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2; print w[1], m, c[1] }'
}
read -r cgm _ _ <<< "$(stats cachegrind)"
cg_rate=$(echo "$cg_insns / $cgm / 1000000" | bc -l)
printf 'input           %s (%s bytes), %d runs each, alternating\n' "$text" "$(stat -c %s "$text")" "$n"
printf '%-12s %-9s %-9s %-8s %-12s %-10s %s\n' "" "min wall" "median" "cpu" "insns" "M insn/s" "vs cachegrind"
row() { # row LABEL KIND INSNS
	local m d c rate
	read -r m d c <<< "$(stats "$2")"
	rate=$(echo "$3 / $m / 1000000" | bc -l)
	printf '%-12s %-9s %-9s %-8s %-12s %-10.1f %.2fx\n' "$1" "${m}s" "${d}s" "${c}s" "$3" "$rate" \
		"$(echo "$rate / $cg_rate" | bc -l)"
}
row "bare qemu" bare "$hv_insns"
row "cachegrind" cachegrind "$cg_insns"
row "hvpmu" hvpmu "$hv_insns"
row "hvpmu all" all "$hv_insns"
if [ -n "$base" ]; then
	row "base hvpmu" base "$hv_insns"
	row "base all" base_all "$hv_insns"
fi
echo "cachegrind: $(grep -E 'I1  misses|D1  misses|LL misses|Mispredicts' "$tmp/cg.err" | sed 's/==[0-9]*== //' | tr -s ' ' | paste -sd ';' | sed 's/;/; /g')"
counts() { awk -F, '{ s = s (NR > 1 ? "; " : "") $3 " " $1 } END { print s }' "$1"; }
echo "hvpmu:      $(counts "$tmp/hv.csv")"
echo "hvpmu all:  $(counts "$tmp/all.csv")"
