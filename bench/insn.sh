#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test), issue 16 goal 1: `hvpmu stat` counting only
# instruction-class T4 events, without and with taken branches
# (Br_taken), against bare qemu-sparc64, on two real programs from Debian
# source packages:
#   - zlib's minigzip compressing a multi-megabyte text (scripts/build-zlib.sh);
#   - the Lua 5.4 interpreter running bench/work.lua (recursion, a sieve
#     over a table, string formatting, sorting and pattern matching;
#     scripts/build-lua-sparc64.sh).
# The instruction-only set also runs with HVPMU_QUIET=0, the exact
# per-block accounting that "totals only" leaves out (docs/event-source.md).
# Each command runs N times, alternating with the others.  Prints the
# minimum wall time (the machine may be shared: other work only ever slows
# a run down), the median, and the ratio of the minimum to bare qemu's.
# Usage: bench/insn.sh [N] [TEXT]
#   (HVPMU_MINIGZIP=path, HVPMU_LUA=path skip the builds)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
n=${1:-5}
text=${2:-/usr/lib/llvm-14/lib/clang/14.0.6/include/riscv_vector.h}
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
gz=${HVPMU_MINIGZIP:-$("$HVPMU_ROOT/scripts/build-zlib.sh")}
lua=${HVPMU_LUA:-$("$HVPMU_ROOT/scripts/build-lua-sparc64.sh")}
work=$HVPMU_ROOT/bench/work.lua
hv=$HVPMU_WORK/release/src/hvpmu
insn=Instr_all,Instr_ld,Instr_st,Branches
taken=Instr_all,Instr_ld,Br_taken,Branches
# t INPUT CMD...: wall seconds
t() {
	local in=$1 TIMEFORMAT='%R' out
	shift
	out=$({ time "$@" < "$in" > /dev/null 2> /dev/null; } 2>&1)
	echo "$out"
}
declare -A runs
for ((i = 0; i < n; i++)); do
	runs[gz.bare]+="$(t "$text" qemu-sparc64 -R 0x10000000000 -L /usr/sparc64-linux-gnu "$gz") "
	runs[gz.insn]+="$(t "$text" "$hv" stat -x, -o /dev/null -e "$insn" -- "$gz") "
	runs[gz.exact]+="$(t "$text" env HVPMU_QUIET=0 "$hv" stat -x, -o /dev/null -e "$insn" -- "$gz") "
	runs[gz.taken]+="$(t "$text" "$hv" stat -x, -o /dev/null -e "$taken" -- "$gz") "
	runs[lua.bare]+="$(t /dev/null qemu-sparc64 -R 0x10000000000 "$lua" "$work" 1) "
	runs[lua.insn]+="$(t /dev/null "$hv" stat -x, -o /dev/null -e "$insn" -- "$lua" "$work" 1) "
	runs[lua.exact]+="$(t /dev/null env HVPMU_QUIET=0 "$hv" stat -x, -o /dev/null -e "$insn" -- "$lua" "$work" 1) "
	runs[lua.taken]+="$(t /dev/null "$hv" stat -x, -o /dev/null -e "$taken" -- "$lua" "$work" 1) "
done
# stats KEY: "min median"
stats() {
	tr ' ' '\n' <<< "${runs[$1]}" | grep . | sort -g | awk '{ w[NR] = $1 }
		END { m = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2; print w[1], m }'
}
printf 'minigzip on %s (%s bytes); lua %s; %d runs each, alternating\n' "$text" "$(stat -c %s "$text")" \
	"bench/work.lua" "$n"
printf '%-22s %-9s %-9s %s\n' "" "min wall" "median" "ratio (min wall / bare; issue 16 goal: <= 1.5x)"
for prog in gz lua; do
	read -r mb db <<< "$(stats "$prog.bare")"
	for k in bare insn exact taken; do
		read -r m d <<< "$(stats "$prog.$k")"
		case $k in
		bare) what="bare qemu-sparc64" ;;
		insn) what="$insn (totals only)" ;;
		exact) what="$insn, HVPMU_QUIET=0 (exact per-block accounting)" ;;
		taken) what=$taken ;;
		esac
		printf '%-22s %-9s %-9s %5.2fx  %s\n' "$([ $prog = gz ] && echo minigzip || echo lua) $k" "${m}s" "${d}s" \
			"$(echo "$m / $mb" | bc -l)" "$what"
	done
done
