#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_power7_service.sh: hvpmu stat -a on a standing POWER service (issue
# 29): the partition's Linux programs the POWER7 PMCs of its strands for
# the monitor as for one program (docs/power7-pmu.md), hv_gpci events in
# the same command.  The CEC of scripts/power-cec.json in hvpmu serve; a
# ppc64 minigzip in partition 'capped' while stat -a --guest capped counts.
#
# usage: run_power7_service.sh HVPMU MINIGZIP_PPC64 TEXT CEC_JSON
#
# Checks:
#   - instructions:u of stat -a = minigzip's alone (hvpmu stat -p power
#     -e instructions:u of the same description), exactly, and the
#     partition's run-latch instructions (hv_gpci) in the same command
#     are that count too; its output is minigzip's alone;
#   - cycles,instructions,branches: counted, instructions again exact;
#     a second monitor after the first counts the same;
#   - hvpmu gpci --service still answers between monitors;
#   - cpustat --service: the partition's strands' rows of PM_INST_CMPL,
#     their total minigzip's count alone;
#   - bad use (the model's counts, no -e): one line, non-zero exit.
set -euo pipefail
hvpmu=$1
gz=$2
text=$3
cec=$4
. "$(dirname "${BASH_SOURCE[0]}")/lib_service.sh"
service_test power7_service
head -c 60000 "$text" > "$tmp/in"
name=p7svc-$$
RL='hv_gpci/run_instructions_run_cycles_by_partition_instructions_completed,sibling_part_id=0xffffffff/'
val() { awk -F';' -v e="$2" '$3 == e { print $1 }' "$tmp/$1"; }

env -i "$hvpmu" stat -p power --md "$cec" -x';' -o "$tmp/alone.csv" -e instructions:u -- "$gz" < "$tmp/in" \
	> "$tmp/alone.gz" 2> "$tmp/alone.log" || fail "minigzip alone"
n=$(val alone.csv instructions:u)
[ -n "$n" ] && [ "$n" -gt 1000000 ] || fail "minigzip alone: instructions:u '$n'"

env -i "$hvpmu" serve --md "$cec" --name "$name" 2> "$tmp/serve.log" &
srv=$!
serve_started "$tmp/serve.log"

# monitor OUT EVENTS: stat -a of partition capped while minigzip runs there
monitor() {
	local out=$1
	env -i "$hvpmu" stat --service "$name" --guest capped -x';' -o "$tmp/$out" -e "$2" -- \
		"$hvpmu" run --service "$name" --guest capped -- "$gz" < "$tmp/in" > "$tmp/$out.gz" 2> "$tmp/$out.err" ||
		fail "stat -a -e $2: $(cat "$tmp/$out.err")"
	cmp -s "$tmp/$out.gz" "$tmp/alone.gz" || fail "stat -a -e $2: minigzip's output differs from its run alone"
}
monitor m1.csv "instructions:u,$RL"
[ "$(val m1.csv instructions:u)" = "$n" ] || fail "stat -a instructions:u $(val m1.csv instructions:u), alone $n"
[ "$(val m1.csv "$RL")" = "$n" ] || fail "stat -a run-latch instructions $(val m1.csv "$RL"), alone $n"

env -i "$hvpmu" gpci --service "$name" --partition 2 -r 0x30 -x, > "$tmp/gpci.csv" 2> "$tmp/gpci.err" ||
	fail "hvpmu gpci between monitors: $(cat "$tmp/gpci.err")"

monitor m2.csv "cycles,instructions,branches"
[ "$(val m2.csv instructions)" = "$n" ] || fail "stat -a instructions $(val m2.csv instructions), alone $n"
for e in cycles branches; do
	v=$(val m2.csv $e)
	[[ "$v" =~ ^[0-9]+$ ]] && [ "$v" -gt 0 ] || fail "stat -a $e: '$v'"
done
[ "$(val m2.csv cycles)" -gt "$(val m2.csv branches)" ] || fail "stat -a: fewer cycles than branches"

env -i "$hvpmu" cpustat --service "$name" --guest capped -c PM_INST_CMPL,PM_BRU_FIN 0.001 -- \
	"$hvpmu" run --service "$name" --guest capped -- "$gz" < "$tmp/in" 2> "$tmp/cpu.out" > /dev/null ||
	fail "cpustat --service: $(tail -3 "$tmp/cpu.out")"
t=$(awk '$3 == "total" { print $4 }' "$tmp/cpu.out")
[ "$t" = "$n" ] && [ "$(grep -c ' tick ' "$tmp/cpu.out")" -gt 1 ] ||
	fail "cpustat --service: total '$t', alone $n: $(cat "$tmp/cpu.out")"

# bad use: one line, non-zero exit
refused() {
	local rc=0
	env -i "$hvpmu" stat --service "$name" --guest capped "$@" -- true > /dev/null 2> "$tmp/bad" || rc=$?
	[ "$rc" -ne 0 ] && [ "$(wc -l < "$tmp/bad")" -eq 1 ] || fail "stat -a $*: status $rc, $(cat "$tmp/bad")"
}
refused -e instructions:u,syscalls:u
refused
echo "power7_service: ok (stat -a: minigzip's $n instructions:u exact, hv_gpci alongside)"
