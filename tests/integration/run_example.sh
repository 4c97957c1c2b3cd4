#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The example platform (docs/architecture.md "Adding a platform",
# hvpmu/example.h), added as new files and one line in each list:
#   - `hvpmu list` has its section (its two events and their aliases);
#   - `hvpmu stat -p example` counts with its PMU through its guest
#     driver: Instructions:u and Loads:u equal T4's Instr_all:u and
#     Instr_ld:u on the same program (the same SPARC decoder's classes),
#     also when both counters wrap (--pic-init) and the driver extends them;
#   - its firmware's census extension prints the threads, cpus and OS ticks;
#   - cpustat takes its counters.
# usage: run_example.sh HVPMU MICRO_DIR
set -euo pipefail
hv=$1 micro=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: example: $*" >&2; exit 1; }

env -i "$hv" list > "$tmp/list"
grep -q '^Example platform events (hvpmu stat -p example' "$tmp/list" || fail "list: no example section"
grep -Eq '^  Instructions +r0, counter 0' "$tmp/list" && grep -Eq '^  Loads +r1, counter 1' "$tmp/list" &&
	grep -Eq '^  loads +[=] Loads' "$tmp/list" || fail "list: the example events"

prog=$micro/loop_mem
val() { awk -F, -v e="$2" '$3 == e { print $1 }' "$tmp/$1"; }
env -i "$hv" stat -x, -o "$tmp/t4" -e Instr_all:u,Instr_ld:u -- "$prog" 2> /dev/null || fail "stat -p t4"
env -i "$hv" stat -p example -x, -o "$tmp/ex" -e Instructions:u,Loads:u --rotate-cycles 1000 -- "$prog" \
	2> "$tmp/ex.err" || fail "stat -p example: $(cat "$tmp/ex.err")"
[ -n "$(val t4 Instr_all:u)" ] && [ "$(val ex Instructions:u)" = "$(val t4 Instr_all:u)" ] ||
	fail "Instructions:u $(val ex Instructions:u) != Instr_all:u $(val t4 Instr_all:u)"
[ "$(val ex Loads:u)" -gt 0 ] && [ "$(val ex Loads:u)" = "$(val t4 Instr_ld:u)" ] ||
	fail "Loads:u $(val ex Loads:u) != Instr_ld:u $(val t4 Instr_ld:u)"
ticks=$(sed -n 's/^hvpmu: example census: 1 threads on 1 cpus, \([0-9]*\) OS ticks$/\1/p' "$tmp/ex.err")
[ -n "$ticks" ] && [ "$ticks" -ge 10 ] || { cat "$tmp/ex.err" >&2; fail "census: $ticks OS ticks"; }

# both counters wrap: the sticky OV bits, the level-15 interrupt, the driver's 64-bit counts
env -i "$hv" stat -p example -x, -o "$tmp/w" -e Instructions:u,Loads:u --pic-init $((0xffffffff - 100)) \
	--overflow-log "$tmp/log" -- "$prog" 2> /dev/null || fail "stat --pic-init"
[ "$(val w Instructions:u)" = "$(val ex Instructions:u)" ] && [ "$(val w Loads:u)" = "$(val ex Loads:u)" ] ||
	fail "counts after a wrap: $(cat "$tmp/w")"
grep -q '^pic=0 event=Instructions:u ' "$tmp/log" && grep -q '^pic=1 event=Loads:u ' "$tmp/log" ||
	fail "no overflow trap on both counters: $(cat "$tmp/log")"

# two threads, two cpus
env -i "$hv" stat -p example -x, -- "$micro/threads" 2> "$tmp/th.err" > /dev/null || fail "threads"
grep -q '^hvpmu: example census: 2 threads on 2 cpus, ' "$tmp/th.err" || { cat "$tmp/th.err" >&2; fail "census of threads"; }

# cpustat: its counters by name, the per-cpu total the same count
env -i "$hv" cpustat --platform example -c pic0=Instructions,pic1=Loads -- "$prog" 2> "$tmp/c" > /dev/null ||
	fail "cpustat"
awk '$3 == "total" { print $4, $5 }' "$tmp/c" | grep -qx "$(val ex Instructions:u) $(val ex Loads:u)" ||
	{ cat "$tmp/c" >&2; fail "cpustat totals"; }
echo "example: Instructions:u $(val ex Instructions:u), Loads:u $(val ex Loads:u), $ticks OS ticks; ok"
