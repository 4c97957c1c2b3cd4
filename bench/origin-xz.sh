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
# counters and the IRIX clock); the threads run in turns
# (docs/event-source.md "Turns"), and with four workers the same two again
# with the threads free (HVPMU_QUANTUM=off, as before issue 27: `_free`).
# The same three with one worker (-T1),
# against bare qemu-mips64 with one worker: the single-threaded ratios
# that bench/zlib.sh gives for SPARC.  Prints the minimum and median wall
# time and the ratio of the minima to bare qemu with as many workers (the
# machine may be shared: other work only slows a run down).
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
	for w in 4 1; do
		args=(-T$w --block-size=256KiB -c)
		runs[bare$w]+="$(t qemu-mips64 -R 0x10000000000 -L /usr/mips64-linux-gnuabi64 "$xz" "${args[@]}")"$'\n'
		runs[counters$w]+="$(t "$hv" stat -p origin -o /dev/null -e Graduated_instructions,Graduated_loads -- \
			"$xz" "${args[@]}")"$'\n'
		runs[mdperf$w]+="$(t "$hv" mdperf -s 0 -o /dev/null -- "$xz" "${args[@]}")"$'\n'
		if [ "$w" = 4 ]; then # the same with the threads free (as before issue 27)
			runs[counters_free$w]+="$(HVPMU_QUANTUM=off t "$hv" stat -p origin -o /dev/null \
				-e Graduated_instructions,Graduated_loads -- "$xz" "${args[@]}")"$'\n'
			runs[mdperf_free$w]+="$(HVPMU_QUANTUM=off t "$hv" mdperf -s 0 -o /dev/null -- "$xz" "${args[@]}")"$'\n'
		fi
	done
done
stats() { printf '%s' "${runs[$1]}" | sort -g | awk '{ w[NR] = $1 } END { m = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2; print w[1], m }'; }
printf 'input %s (%s bytes), xz --block-size=256KiB, %d runs each, alternating\n' "$text" "$(stat -c %s "$text")" "$n"
printf '%-22s %-9s %-9s %s\n' "" "min wall" "median" "ratio (min / bare)"
for w in 4 1; do
	read -r mb db <<< "$(stats bare$w)"
	for k in bare counters mdperf counters_free mdperf_free; do
		[ -n "${runs[$k$w]:-}" ] || continue
		read -r m d <<< "$(stats "$k$w")"
		printf '%-22s %-9s %-9s %5.2fx\n' "$k -T$w" "${m}s" "${d}s" "$(echo "$m / $mb" | bc -l)"
	done
done
