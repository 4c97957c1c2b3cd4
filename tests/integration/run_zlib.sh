#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# zlib's minigzip (a real program built from Debian's source) under
# `hvpmu stat`: the six sl=3 groups of TABLE 10-2 partition the instruction
# stream, so their sum must equal Instr_all (mask 0x3f) exactly; two runs
# give the same counts (determinism); the program's output passes through
# untouched (it decompresses to the input).
# usage: run_zlib.sh HVPMU MINIGZIP INPUT_TEXT
set -euo pipefail
hvpmu=$1 gz=$2 text=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: zlib: $*" >&2; exit 1; }
head -c 65536 "$text" > "$tmp/in"
run() { # run OUT EVENTS
	env -i "$hvpmu" stat -x, -o "$tmp/$1.csv" -e "$2" -- "$gz" < "$tmp/in" > "$tmp/$1.gz" ||
		fail "hvpmu stat exited $?"
	gzip -dc "$tmp/$1.gz" | cmp -s - "$tmp/in" || fail "output of run $1 does not decompress to the input"
}
val() { awk -F, -v e="$2" '$3 == e { print $1 }' "$tmp/$1.csv"; }
run a Instr_all,Branches,Instr_FGU_crypto,Instr_ld
run b Instr_st,SPR_ring_ops,Instr_other,Instr_all
run c Instr_all,Branches,Instr_FGU_crypto,Instr_ld
all=$(val a Instr_all)
sum=$(( $(val a Branches) + $(val a Instr_FGU_crypto) + $(val a Instr_ld) + $(val b Instr_st) + $(val b SPR_ring_ops) + $(val b Instr_other) ))
[[ $all =~ ^[0-9]+$ ]] && [ "$all" -gt 100000 ] || fail "implausible Instr_all '$all'"
[ "$all" = "$(val b Instr_all)" ] || fail "Instr_all differs between runs: $all vs $(val b Instr_all)"
[ "$sum" = "$all" ] || fail "sum of the sl=3 groups $sum != Instr_all $all"
cmp -s "$tmp/a.csv" "$tmp/c.csv" || { diff "$tmp/a.csv" "$tmp/c.csv" >&2; fail "same run twice gave different counts"; }
# exit status and stderr pass through: minigzip -d fails on a truncated stream
head -c 2000 "$tmp/a.gz" > "$tmp/trunc.gz"
set +e
qemu-sparc64 -L "${HVPMU_SYSROOT:-/usr/sparc64-linux-gnu}" "$gz" -d < "$tmp/trunc.gz" > /dev/null 2> "$tmp/bare.err"
bare_rc=$?
env -i "$hvpmu" stat -o "$tmp/d.txt" -e Instr_all -- "$gz" -d < "$tmp/trunc.gz" > /dev/null 2> "$tmp/hv.err"
hv_rc=$?
set -e
[ "$bare_rc" -ne 0 ] || fail "minigzip -d on a truncated stream should fail"
[ "$hv_rc" = "$bare_rc" ] || fail "exit status $hv_rc under hvpmu, $bare_rc bare"
cmp -s "$tmp/bare.err" "$tmp/hv.err" || fail "the program's stderr differs under hvpmu"
grep -q Instr_all "$tmp/d.txt" || fail "no counts for a failing program"
echo "zlib: Instr_all $all = sum of groups; deterministic; exit status $hv_rc passes through"
