#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): the mips64 event source and the SGI Origin model
# against bare qemu-mips64, side by side and alternating, N times each, on
# the platform's real program: xz -T4 --block-size=256KiB
# (scripts/build-xz-mips64.sh: four worker threads with work) compressing
# a text.  Rows: bare qemu-mips64; `hvpmu stat -p origin -e
# Graduated_instructions,Graduated_loads` (counters only: the R10000's two
# counters on instruction classes, no memory model; docs/r10k-counters.md);
# `hvpmu mdperf -s 0` (the Origin machine with its memory model, the Hub
# counters and the IRIX clock).  Prints the minimum and median wall time
# and the ratio of the minima to bare qemu (the machine may be shared:
# other work only slows a run down).
# Usage: bench/origin-xz.sh [N] [TEXT]
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
n=${1:-5}
text=${2:-$HVPMU_TEXT}
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
xz=$("$HVPMU_ROOT/scripts/build-xz-mips64.sh")
hv=$HVPMU_WORK/release/src/hvpmu
t() {
	local TIMEFORMAT='%R'
	{ time "$@" < "$text" > /dev/null 2> /dev/null; } 2>&1
}
declare -A runs
for ((i = 0; i < n; i++)); do
	runs[bare]+="$(t qemu-mips64 -L /usr/mips64-linux-gnuabi64 "$xz" -T4 --block-size=256KiB -c)"$'\n'
	runs[counters]+="$(t "$hv" stat -p origin -o /dev/null -e Graduated_instructions,Graduated_loads -- \
		"$xz" -T4 --block-size=256KiB -c)"$'\n'
	runs[mdperf]+="$(t "$hv" mdperf -s 0 -o /dev/null -- "$xz" -T4 --block-size=256KiB -c)"$'\n'
done
stats() { printf '%s' "${runs[$1]}" | sort -g | awk '{ w[NR] = $1 } END { m = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2; print w[1], m }'; }
read -r mb db <<< "$(stats bare)"
printf 'input %s (%s bytes), xz -T4 --block-size=256KiB, %d runs each, alternating\n' "$text" "$(stat -c %s "$text")" "$n"
printf '%-22s %-9s %-9s %s\n' "" "min wall" "median" "ratio (min / bare)"
for k in bare counters mdperf; do
	read -r m d <<< "$(stats "$k")"
	printf '%-22s %-9s %-9s %5.2fx\n' "$k" "${m}s" "${d}s" "$(echo "$m / $mb" | bc -l)"
done
