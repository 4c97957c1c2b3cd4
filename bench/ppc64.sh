#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): the ppc64 event source's overhead.  zlib's
# minigzip for ppc64 (scripts/build-zlib.sh ppc64) compressing a
# multi-megabyte text under bare qemu-ppc64 and under `hvpmu stat -p power`
# (the plugin decoding every block with hvpmu_isa_ppc64 and counting every
# instruction by class and every conditional branch's outcome: the model's
# counts of a platform without a counter driver), run side by side,
# alternating, N times each.  Prints the minimum wall time (the machine may
# be shared: other work only ever slows a run down), the median, the CPU
# time (user + system) of the fastest run, and the ratio of the minimum
# wall times to bare qemu-ppc64.
# Usage: bench/ppc64.sh [N] [TEXT]   (HVPMU_MINIGZIP_PPC64=path skips the zlib build)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
n=${1:-5}
text=${2:-/usr/lib/llvm-14/lib/clang/14.0.6/include/riscv_vector.h}
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
gz=${HVPMU_MINIGZIP_PPC64:-$("$HVPMU_ROOT/scripts/build-zlib.sh" ppc64)}
hv=$HVPMU_WORK/release/src/hvpmu
# t CMD...: "wall cpu" in seconds
t() {
	local TIMEFORMAT='%R %U %S' out
	out=$({ time "$@" < "$text" > /dev/null 2> /dev/null; } 2>&1)
	echo "$out" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}
declare -A runs
for ((i = 0; i < n; i++)); do
	runs[bare]+="$(t qemu-ppc64 -R 0x10000000000 -L /usr/powerpc64-linux-gnu "$gz")"$'\n'
	runs[hvpmu]+="$(t "$hv" stat -p power -x, -o /dev/null -- "$gz")"$'\n'
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
row "bare qemu-ppc64" bare ""
row "hvpmu -p power" hvpmu "the model's counts by class, taken conditional branches"
