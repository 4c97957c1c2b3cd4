#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The POWER7 core counters end to end (issue 29, docs/power7-pmu.md):
#   run_power7.sh HVPMU LOOP [MINIGZIP TEXT]
# LOOP is workloads/ppc64/loop; MINIGZIP a ppc64 minigzip.  Checks:
#   - loop's loads, stores and branches through the PMU (the guest driver
#     programs MMCR0/1/A as Linux's power7-pmu does) equal the model's
#     counts, by perf's generic names, raw codes (rXXXXX) and the names of
#     power7-events-list.h;
#   - the same exact across PMC overflows (--pic-init 0x7fffff00: the
#     Performance Monitor interrupt folds and rewrites the PMCs);
#   - excluded states: instructions:k count 0 (no kernel path on POWER),
#     instructions:u all of them;
#   - a not-modeled event is <not supported> with one line on why; a code
#     out of config:0-19 is a usage error in one line;
#   - minigzip: instructions:u through the PMU equals the model's count;
#     cycles,instructions,branches,branch-misses,L1-dcache-load-misses and
#     an hv_gpci event in one command; eight events on the six PMCs are
#     multiplexed (running < enabled) and scaled (the scaled instructions
#     within 10 % of the exact count);
#   - `hvpmu list` shows the POWER7 events;
#   - --per-process: fork2 (workloads/ppc64, beside LOOP) parent's and
#     child's rows exact by construction, their sum the model's -f count;
#     hv_gpci or the model's counts with it: one line, status 129;
#   - hvpmu cpustat --platform power: loop's per-interval rows of POWER7
#     events sum to their total, which is stat's count exactly; an event on
#     a PMC that cannot count it, or a model count: one line, status 129.
set -euo pipefail
hv=$1 loop=$2 gz=${3:-} text=${4:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hvpmu-power7.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: power7: $*" >&2; exit 1; }
# the CSV's count of event $2 in file $1
val() { awk -F';' -v e="$2" '$3 == e { print $1 }' "$tmp/$1"; }
stat() { local out=$1; shift; env -i "$hv" stat -p power -x';' -o "$tmp/$out" "$@" 2> "$tmp/$out.err" ||
	fail "stat $*: $(cat "$tmp/$out.err")"; }

# the model's counts (no -e)
stat model.csv -- "$loop"
loads=$(val model.csv loads:u) stores=$(val model.csv stores:u) br=$(val model.csv branch-instructions:u)
insns=$(val model.csv instructions:u)
[ -n "$loads" ] && [ "$loads" -gt 0 ] && [ "$stores" -gt 0 ] && [ "$br" -gt 0 ] || fail "model counts: $(cat "$tmp/model.csv")"
# through the PMU: generic, raw, named (each list one group: exact)
stat gen.csv -e L1-dcache-loads:u,branches:u,instructions:u -- "$loop"
stat k.csv -e instructions:k -- "$loop"
stat raw.csv -e rc880:u,r200f0:u,r10068:u -- "$loop"
stat named.csv -e PM_LD_REF_L1:u,PM_ST_FIN:u,PM_BRU_FIN:u -- "$loop"
[ "$(val gen.csv L1-dcache-loads:u)" = "$loads" ] && [ "$(val raw.csv rc880:u)" = "$loads" ] &&
	[ "$(val named.csv PM_LD_REF_L1:u)" = "$loads" ] || fail "loads != $loads"
[ "$(val raw.csv r200f0:u)" = "$stores" ] && [ "$(val named.csv PM_ST_FIN:u)" = "$stores" ] || fail "stores != $stores"
[ "$(val gen.csv branches:u)" = "$br" ] && [ "$(val raw.csv r10068:u)" = "$br" ] &&
	[ "$(val named.csv PM_BRU_FIN:u)" = "$br" ] || fail "branches != $br"
[ "$(val gen.csv instructions:u)" = "$insns" ] && [ "$(val k.csv instructions:k)" = 0 ] ||
	fail "instructions:u/:k: $(cat "$tmp/gen.csv" "$tmp/k.csv")"
# across overflows: the PMCs start 256 below bit 31; the interrupt
# (perf_event_interrupt) folds and rewrites them, the counts stay exact
stat ovf.csv --pic-init 0x7fffff00 --overflow-log "$tmp/ovf.log" -e instructions:u,cycles:u,PM_LD_REF_L1:u,r200f0:u,branches:u \
	-- "$loop"
[ "$(val ovf.csv instructions:u)" = "$insns" ] && [ "$(val ovf.csv PM_LD_REF_L1:u)" = "$loads" ] &&
	[ "$(val ovf.csv r200f0:u)" = "$stores" ] && [ "$(val ovf.csv branches:u)" = "$br" ] &&
	[ "$(grep -c 'event=instructions:u' "$tmp/ovf.log")" -ge 1 ] || fail "overflows: $(cat "$tmp/ovf.csv" "$tmp/ovf.log")"
# not modeled: <not supported> and why, in one line
stat nm.csv -e PM_MRK_BR_TAKEN,instructions:u -- "$loop"
grep -q '<not supported>;;PM_MRK_BR_TAKEN' "$tmp/nm.csv" && grep -q 'PM_MRK_BR_TAKEN.*not modeled' "$tmp/nm.csv.err" ||
	fail "not modeled: $(cat "$tmp/nm.csv" "$tmp/nm.csv.err")"
rc=0; "$hv" stat -p power -e r100000 -- "$loop" > /dev/null 2> "$tmp/bad" || rc=$?
[ "$rc" -eq 129 ] && [ "$(wc -l < "$tmp/bad")" -eq 1 ] || fail "-e r100000: status $rc, $(cat "$tmp/bad")"
# hvpmu list
"$hv" list > "$tmp/list" 2>&1
for e in PM_CYC PM_INST_CMPL PM_LD_REF_L1 PM_ST_FIN PM_BRU_FIN PM_BR_MPRED PM_MRK_BR_TAKEN PM_THRD_4_RUN_CYC; do
	grep -q "^  $e " "$tmp/list" || fail "hvpmu list has no $e"
done

# --per-process: one row per process, each exact (fork2.S's header)
fork2=$(dirname "$loop")/fork2
stat pp.csv --per-process -e instructions:u,branches:u -- "$fork2"
awk -F';' '$4 == "instructions:u" { n++; i[$2] = 1 } $4 == "branches:u" { b[$2] = 1 }
	END { exit !(n == 2 && i[4021] && i[2009] && b[2004] && b[1002]) }' "$tmp/pp.csv" ||
	fail "--per-process fork2: $(cat "$tmp/pp.csv")"
stat pf.csv -f -- "$fork2"
[ "$(val pf.csv instructions:u)" = 6030 ] || fail "-f fork2: instructions:u $(val pf.csv instructions:u), not 4021 + 2009"
for e in "instructions:u,syscalls:u" "instructions:u,hv_gpci/request=0x30,starting_index=0xffffffff,offset=8,length=8/"; do
	rc=0; env -i "$hv" stat -p power --per-process -e "$e" -- "$fork2" > /dev/null 2> "$tmp/bad" || rc=$?
	[ "$rc" -eq 129 ] && [ "$(wc -l < "$tmp/bad")" -eq 1 ] || fail "--per-process -e $e: status $rc, $(cat "$tmp/bad")"
done

# cpustat: per-strand interval rows, their total exact
stat cs.csv -e PM_INST_CMPL:u,PM_LD_REF_L1:u,PM_BRU_FIN:u -- "$loop"
env -i "$hv" cpustat --platform power -c PM_INST_CMPL,PM_LD_REF_L1,PM_BRU_FIN 0.000001 -- "$loop" 2> "$tmp/cpu.out" \
	> /dev/null || fail "cpustat: $(cat "$tmp/cpu.out")"
want="$(val cs.csv PM_INST_CMPL:u) $(val cs.csv PM_LD_REF_L1:u) $(val cs.csv PM_BRU_FIN:u)"
got=$(awk '$3 == "tick" { n++; for (i = 4; i <= 6; i++) s[i] += $i } $3 == "total" { t = $4 " " $5 " " $6 }
	END { if (n > 1 && s[4] " " s[5] " " s[6] == t) print t }' "$tmp/cpu.out")
[ "$got" = "$want" ] || fail "cpustat: rows/total '$got', stat '$want': $(cat "$tmp/cpu.out")"
for c in pic5=PM_LD_REF_L1 syscalls PM_INST_CMPL,hv_gpci/request=0x30,starting_index=0xffffffff,offset=8,length=8/; do
	rc=0; env -i "$hv" cpustat --platform power -c "$c" -- "$loop" > /dev/null 2> "$tmp/bad" || rc=$?
	[ "$rc" -eq 129 ] && [ "$(wc -l < "$tmp/bad")" -eq 1 ] || fail "cpustat -c $c: status $rc, $(cat "$tmp/bad")"
done

[ -n "$gz" ] || { echo "power7: no minigzip given, the real program is skipped"; exit 0; }
head -c 65536 "$text" > "$tmp/in"
gzrun() { local out=$1; shift; env -i "$hv" stat -p power -x';' -o "$tmp/$out" "$@" -- "$gz" < "$tmp/in" > /dev/null \
	2> "$tmp/$out.err" || fail "minigzip $*: $(cat "$tmp/$out.err")"; }
RL='hv_gpci/run_instructions_run_cycles_by_partition_instructions_completed,sibling_part_id=0xffffffff/'
gzrun gm.csv
gzrun gp.csv -e "instructions:u,$RL"
n=$(val gm.csv instructions:u)
[ -n "$n" ] && [ "$(val gp.csv instructions:u)" = "$n" ] && [ "$(val gp.csv "$RL")" = "$n" ] ||
	fail "minigzip instructions:u: model $n, PMU $(val gp.csv instructions:u), hv_gpci $(val gp.csv "$RL")"
gzrun g5.csv -e "cycles,instructions,branches,branch-misses,L1-dcache-load-misses,$RL" --rotate-cycles 100000
awk -F';' '$3 != "" && ($1 !~ /^[0-9]+$/ || $1 == 0) { bad = 1 } END { exit bad }' "$tmp/g5.csv" ||
	fail "five events: $(cat "$tmp/g5.csv")"
# eight events on six PMCs: multiplexed, scaled
gzrun g8.csv -e instructions,cycles,branches,branch-misses,L1-dcache-load-misses,L1-dcache-loads,PM_ST_FIN,PM_FLOP \
	--rotate-cycles 100000
awk -F';' -v n="$n" '
	$3 == "instructions" { seen = 1; if ($5 >= 99.99 || $5 <= 0) bad = "instructions ran " $5 " %"
			       else if ($1 < 0.9 * n || $1 > 1.1 * n) bad = "scaled instructions " $1 " vs " n }
	END { if (!seen) bad = "no instructions"; if (bad != "") { print bad > "/dev/stderr"; exit 1 } }' "$tmp/g8.csv" ||
	fail "eight events: $(cat "$tmp/g8.csv")"
echo "power7: ok (loop: $loads loads, $stores stores, $br branches; minigzip: $n instructions)"
