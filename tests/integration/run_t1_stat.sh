#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu stat -p t1` (niagara-perf-api.txt §2.1): the guest driver programs
# the UltraSPARC T1 %pcr/%pic with WRASR/RDASR; PICH counts every
# instruction, PICL one selected event, rotated when several are asked.
# Counts known by construction (workloads/micro/expected.txt): Instr_cnt ==
# Instr_all, FP_instr_cnt == Instr_FGU_crypto; PIC wraps (forced with
# --pic-init) raise interrupt_level_15 and are extended to 64 bits.
# usage: run_t1_stat.sh HVPMU MICRO_DIR EXPECTED
set -euo pipefail
hvpmu=$1 micro=$2 expected=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: t1 stat: $*" >&2; exit 1; }
exp() { awk -v p="$1" -v e="$2" '$1 == p && $2 == e { print $3 }' "$expected"; }
val() { awk -F, -v e="$2" '$3 == e { print $1 }' "$1"; }

for prog in loop_int fgu mixed; do
	env -i "$hvpmu" stat -p t1 -x, -o "$tmp/o" -e Instr_cnt,FP_instr_cnt -- "$micro/$prog"
	[ "$(val "$tmp/o" Instr_cnt)" = "$(exp "$prog" Instr_all)" ] || { cat "$tmp/o" >&2; fail "$prog Instr_cnt"; }
	[ "$(val "$tmp/o" FP_instr_cnt)" = "$(exp "$prog" Instr_FGU_crypto)" ] || { cat "$tmp/o" >&2; fail "$prog FP_instr_cnt"; }
done
# both halves wrap: the driver's level-15 handler extends them
env -i "$hvpmu" stat -p t1 -x, -o "$tmp/w" --pic-init $((0xffffffff - 100)) --overflow-log "$tmp/log" \
	-e Instr_cnt,FP_instr_cnt -- "$micro/fgu"
[ "$(val "$tmp/w" Instr_cnt)" = "$(exp fgu Instr_all)" ] || { cat "$tmp/w" >&2; fail "wrapped Instr_cnt"; }
[ "$(val "$tmp/w" FP_instr_cnt)" = "$(exp fgu Instr_FGU_crypto)" ] || { cat "$tmp/w" >&2; fail "wrapped FP_instr_cnt"; }
grep -q 'event=Instr_cnt .*precise=0' "$tmp/log" && grep -q 'event=FP_instr_cnt' "$tmp/log" || { cat "$tmp/log" >&2; fail "overflow log"; }
# cache events on t1's own caches (8 KB L1D, 16-byte lines): loop_mem misses
env -i "$hvpmu" stat -p t1 -x, -o "$tmp/c" -e DC_miss -- "$micro/loop_mem"
[ "$(val "$tmp/c" DC_miss)" -gt 0 ] || fail "no DC_miss on t1"
# SB_full counts store-buffer-full cycles (exact figures: workloads/mem
# sb_burst, integration.mem.sb_burst); loop_int has no stores: 0
env -i "$hvpmu" stat -p t1 -x, -o "$tmp/s" -e SB_full -- "$micro/loop_int"
grep -q '^0,,SB_full,' "$tmp/s" || { cat "$tmp/s" >&2; fail "SB_full on loop_int"; }
# T4 names are not T1 events; :h has no T1 meaning
for ev in Instr_ld Instr_cnt:h sl=3,mask=1; do
	set +e
	env -i "$hvpmu" stat -p t1 -e "$ev" -- "$micro/loop_int" > /dev/null 2> "$tmp/e"; rc=$?
	set -e
	[ "$rc" -ne 0 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] || { cat "$tmp/e" >&2; fail "accepted '$ev'"; }
done
echo "t1 stat: ok"
