#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): the service (docs/service.md) against one
# program in its own emulator, side by side, alternating, N times each:
#   - bare qemu-sparc64 running zlib's minigzip on TEXT;
#   - hvpmu stat (one emulator), instruction-class events;
#   - hvpmu stat -f: the same minigzip attached to a service;
#   - two minigzips at once under one emulator each, in parallel (the
#     reference for two guests: what each would take alone, side by side);
#   - two minigzips at once attached to one service (dash -c 'A & B &
#     wait': one machine, two processes).
# Prints the minimum wall time (the machine may be shared: other work
# only slows a run down), the median, the CPU time of the fastest run,
# and the ratios: attached / one emulator, and two attached / two
# emulators side by side.  Then each guest's own wall time (its emulator's,
# from the plugin's start to its exit: HVPMU_PLUGIN_WALL), the slower of
# the two per run, minimum over the runs: issue 14's goal is each guest
# of two attached within 1.3x of one running alone in its own emulator
# (the whole run's wall time also has dash's: its emulator, its forks).
# Usage: bench/service.sh [N] [TEXT]  (HVPMU_MINIGZIP, HVPMU_DASH: paths
# that skip the builds)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
n=${1:-3}
text=${2:-/usr/lib/llvm-14/lib/clang/14.0.6/include/riscv_vector.h}
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
gz=${HVPMU_MINIGZIP:-$("$HVPMU_ROOT/scripts/build-zlib.sh")}
dash=${HVPMU_DASH:-$("$HVPMU_ROOT/scripts/build-dash-sparc64.sh")}
hv=$HVPMU_WORK/release/src/hvpmu
ev=Instr_all,Instr_ld,Instr_st,Branches
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$gz" "$work/minigzip"
cp "$text" "$work/text"
cd "$work"
# t KIND CMD...: "wall cpu" in seconds; the guests' own wall times go
# to guest.KIND (the slower minigzip's of the run)
t() {
	local TIMEFORMAT='%R %U %S' out kind=$1
	shift
	rm -f wall
	out=$({ time env HVPMU_PLUGIN_WALL="$work/wall" "$@" > /dev/null 2> /dev/null; } 2>&1)
	[ ! -s wall ] || awk '$1 == "-" || $1 == "minigzip" { if ($2 > m) m = $2 } END { if (m) print m }' wall \
		>> "guest.$kind"
	echo "$out" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}
declare -A runs
for ((i = 0; i < n; i++)); do
	runs[bare]+="$(t bare sh -c "qemu-sparc64 -R 0x10000000000 -L /usr/sparc64-linux-gnu ./minigzip < text")"$'\n'
	runs[one]+="$(t one sh -c "'$hv' stat -x, -o /dev/null -e $ev -- ./minigzip < text")"$'\n'
	runs[attached]+="$(t attached sh -c "'$hv' stat -f -x, -o /dev/null -e $ev -- ./minigzip < text")"$'\n'
	runs[two_one]+="$(t two_one sh -c "'$hv' stat -x, -o /dev/null -e $ev -- ./minigzip < text > /dev/null &
		'$hv' stat -x, -o /dev/null -e $ev -- ./minigzip < text > /dev/null & wait")"$'\n'
	runs[two_attached]+="$(t two_attached "$hv" stat -f -x, -o /dev/null -e "$ev" -- "$dash" -c \
		'./minigzip < text > /dev/null & ./minigzip < text > /dev/null & wait')"$'\n'
done
stats() { # KIND: "min median cpu_of_min"
	printf '%s' "${runs[$1]}" | sort -g | awk '{ w[NR] = $1; c[NR] = $2 }
		END { m = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2; print w[1], m, c[1] }'
}
min() { stats "$1" | awk '{ print $1 }'; }
printf 'input %s (%s bytes), %d runs each, alternating; events %s; %s CPUs\n' "$text" "$(stat -c %s text)" "$n" \
	"$ev" "$(nproc)"
printf '%-32s %-9s %-9s %s\n' "" "min wall" "median" "cpu"
for k in bare one attached two_one two_attached; do
	read -r m d c <<< "$(stats "$k")"
	printf '%-32s %-9s %-9s %s\n' "$k" "${m}s" "${d}s" "${c}s"
done
printf 'attached / one emulator:                  %.2fx\n' "$(echo "$(min attached) / $(min one)" | bc -l)"
printf 'two attached / two emulators side by side: %.2fx\n' "$(echo "$(min two_attached) / $(min two_one)" | bc -l)"
# each guest's own wall time (the slower of a run's guests), minimum over the runs
g() { sort -g "guest.$1" | head -1; }
printf '%-32s %-9s\n' "each guest's own time:" "min"
for k in one attached two_one two_attached; do
	printf '%-32s %-9s\n' "$k" "$(printf '%.3f' "$(g "$k")")s"
done
printf 'each guest, two attached / one alone in its emulator: %.2fx  (goal: 1.3x)\n' \
	"$(echo "$(g two_attached) / $(g one)" | bc -l)"
printf 'each guest, two attached / two emulators side by side: %.2fx\n' "$(echo "$(g two_attached) / $(g two_one)" | bc -l)"
