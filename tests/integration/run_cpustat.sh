#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu cpustat` (Solaris cpustat syntax and layout, docs/cli.md) on T4
# and T1 guests whose counts are known by construction
# (workloads/micro/expected.txt, threads.S):
#   - interval rows are per-strand deltas taken without stopping the PICs:
#     they add up exactly to the whole-program counts, and the `total` row
#     is their sum (cpu column = cpus shown);
#   - `count` bounds the rows per cpu; -n drops the header; -t adds %tick;
#   - several -c sets rotate per interval and are named after '#';
#   - each guest thread has its own cpu rows (threads: SW_prefetch only on
#     the child's strand, Sw_count_intr only on the main one's);
#   - T1: pic0 is PICL, pic1 is Instr_cnt;
#   - bad specs get one line and a non-zero exit.
#   - a real program (zlib minigzip) on the T1: the interval rows add up to
#     what `hvpmu stat -p t1` counts for the same deterministic run.
# usage: run_cpustat.sh HVPMU MICRO_DIR EXPECTED [MINIGZIP TEXT]
set -euo pipefail
hvpmu=$1 micro=$2 expected=$3 gz=${4:-} text=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: cpustat: $*" >&2; exit 1; }
exp() { awk -v p="$1" -v e="$2" '$1 == p && $2 == e { print $3 }' "$expected"; }
# sum of column $2 over the tick rows of cpu $3 (any cpu if empty)
tsum() { awk -v c="$2" -v cpu="${3:-}" '$3 == "tick" && (cpu == "" || $2 == cpu) { s += $c } END { print s + 0 }' "$1"; }
tcol() { awk -v c="$2" '$3 == "total" { print $c; exit }' "$1"; }

instr=$(exp loop_int Instr_all) taken=$(exp loop_int Br_taken)
[ -n "$instr" ] && [ -n "$taken" ] || fail "no expected counts for loop_int"

# one sample at exit (default 5 s interval): the whole program
env -i "$hvpmu" cpustat -c pic0=Instr_all,pic1=Br_taken -- "$micro/loop_int" 2> "$tmp/one"
head -n 1 "$tmp/one" | grep -Eq '^ +time cpu event +pic0 +pic1 *$' || { cat "$tmp/one" >&2; fail "header"; }
[ "$(grep -c ' tick ' "$tmp/one")" = 1 ] || { cat "$tmp/one" >&2; fail "want one tick row"; }
[ "$(tsum "$tmp/one" 4)" = "$instr" ] && [ "$(tsum "$tmp/one" 5)" = "$taken" ] || { cat "$tmp/one" >&2; fail "whole-run counts"; }

# many intervals: deltas are exact, the total is their sum
env -i "$hvpmu" cpustat -n -t -c Instr_all,Br_taken 0.000001 -- "$micro/loop_int" 2> "$tmp/many"
rows=$(grep -c ' tick ' "$tmp/many")
[ "$rows" -ge 5 ] || { cat "$tmp/many" >&2; fail "want several interval rows, got $rows"; }
grep -q 'time' "$tmp/many" && fail "-n printed a header"
[ "$(tsum "$tmp/many" 5)" = "$instr" ] || { cat "$tmp/many" >&2; fail "interval Instr_all deltas do not add up to $instr"; }
[ "$(tsum "$tmp/many" 6)" = "$taken" ] || { cat "$tmp/many" >&2; fail "interval Br_taken deltas do not add up to $taken"; }
[ "$(tcol "$tmp/many" 5)" = "$instr" ] && [ "$(tcol "$tmp/many" 2)" = 1 ] || { cat "$tmp/many" >&2; fail "total row"; }
[ "$(tcol "$tmp/many" 4)" = "$(tsum "$tmp/many" 4)" ] || fail "%tick total != sum of %tick deltas"
# every full interval is 0.000001 s of modeled %tick
clock_rows=$(awk '$3 == "tick" { print $4 }' "$tmp/many" | sed '$d' | sort -u | wc -l)
[ "$clock_rows" -le 2 ] || { cat "$tmp/many" >&2; fail "interval %tick deltas vary"; }

# count: at most 3 rows for the cpu; the total covers those rows
env -i "$hvpmu" cpustat -n -c Instr_all 0.000001 3 -- "$micro/loop_int" 2> "$tmp/cnt"
[ "$(grep -c ' tick ' "$tmp/cnt")" = 3 ] || { cat "$tmp/cnt" >&2; fail "count 3"; }
[ "$(tcol "$tmp/cnt" 4)" = "$(tsum "$tmp/cnt" 4)" ] || { cat "$tmp/cnt" >&2; fail "total of counted rows"; }

# sys adds privileged-mode counting to user mode: never fewer
env -i "$hvpmu" cpustat -n -c Instr_all,sys -- "$micro/loop_int" 2> "$tmp/sys"
[ "$(tsum "$tmp/sys" 4)" -ge "$instr" ] || { cat "$tmp/sys" >&2; fail "sys counted fewer than user mode"; }

# two sets rotate per interval
env -i "$hvpmu" cpustat -n -c Instr_all,Br_taken -c pic2=Instr_ld,Instr_st 0.000001 -- "$micro/loop_mem" 2> "$tmp/sets"
grep -q ' # Instr_all,Br_taken$' "$tmp/sets" && grep -q ' # pic2=Instr_ld,Instr_st$' "$tmp/sets" ||
	{ cat "$tmp/sets" >&2; fail "rows of both sets"; }
awk '$3 == "tick" { print $NF }' "$tmp/sets" | uniq -d | grep -q . && { cat "$tmp/sets" >&2; fail "sets did not alternate"; }
[ "$(grep -c ' total ' "$tmp/sets")" = 2 ] || { cat "$tmp/sets" >&2; fail "want a total per set"; }

# threads: each strand's own events on its own rows (threads.S)
env -i "$hvpmu" cpustat -n -c SW_prefetch,Sw_count_intr -- "$micro/threads" 2> "$tmp/thr"
[ "$(tsum "$tmp/thr" 4 1)" = 30000 ] && [ "$(tsum "$tmp/thr" 5 1)" = 0 ] || { cat "$tmp/thr" >&2; fail "child strand"; }
[ "$(tsum "$tmp/thr" 4 0)" = 0 ] && [ "$(tsum "$tmp/thr" 5 0)" = 20000 ] || { cat "$tmp/thr" >&2; fail "main strand"; }
[ "$(tcol "$tmp/thr" 2)" = 2 ] && [ "$(tcol "$tmp/thr" 4)" = 30000 ] || { cat "$tmp/thr" >&2; fail "threads total"; }

# T1: pic0 = PICL (FP_instr_cnt), pic1 = PICH (Instr_cnt)
env -i "$hvpmu" cpustat --platform t1 -n -c FP_instr_cnt,Instr_cnt 0.000001 -- "$micro/fgu" 2> "$tmp/t1"
[ "$(grep -c ' tick ' "$tmp/t1")" -ge 2 ] || { cat "$tmp/t1" >&2; fail "t1 interval rows"; }
[ "$(tsum "$tmp/t1" 4)" = "$(exp fgu Instr_FGU_crypto)" ] || { cat "$tmp/t1" >&2; fail "t1 FP_instr_cnt"; }
[ "$(tsum "$tmp/t1" 5)" = "$(exp fgu Instr_all)" ] || { cat "$tmp/t1" >&2; fail "t1 Instr_cnt"; }

# zlib on the T1: several intervals, exact against hvpmu stat
if [ -n "$gz" ] && [ -r "$text" ]; then
	head -c 200000 "$text" > "$tmp/in"
	env -i "$hvpmu" cpustat --platform t1 -n -c pic0=DC_miss,pic1=Instr_cnt 0.002 -- "$gz" < "$tmp/in" > /dev/null 2> "$tmp/gz"
	env -i "$hvpmu" stat -p t1 -x, -o "$tmp/gzs" -e DC_miss:u,Instr_cnt:u -- "$gz" < "$tmp/in" > /dev/null
	[ "$(grep -c ' tick ' "$tmp/gz")" -ge 3 ] || { cat "$tmp/gz" >&2; fail "zlib: want several intervals"; }
	[ "$(tsum "$tmp/gz" 4)" = "$(awk -F, '$3 == "DC_miss:u" { print $1 }' "$tmp/gzs")" ] &&
		[ "$(tsum "$tmp/gz" 5)" = "$(awk -F, '$3 == "Instr_cnt:u" { print $1 }' "$tmp/gzs")" ] ||
		{ cat "$tmp/gz" "$tmp/gzs" >&2; fail "zlib: cpustat intervals != hvpmu stat"; }
fi

# -h lists the events; bad input: one line, non-zero exit
env -i "$hvpmu" cpustat -h > "$tmp/h" && grep -q '^  Instr_all$' "$tmp/h" || fail "-h event list"
env -i "$hvpmu" cpustat --platform t1 -h > "$tmp/h1" && grep -q 'pic1: Instr_cnt' "$tmp/h1" || fail "-h t1"
p="$micro/loop_int"
for args in "-c no_such -- $p" "-c pic4=Instr_all -- $p" "-c Instr_all,nouser -- $p" \
	"-c pic0=Instr_all,pic0=Br_taken -- $p" "-c Instr_all,Br_taken,Instr_ld,Instr_st,Instr_other -- $p" \
	"--platform t1 -c pic1=DC_miss -- $p" "--platform t1 -c DC_miss,hpriv -- $p" "-c Instr_all:u -- $p" \
	"-c Instr_all,emask=0x40 -- $p" "-c Instr_all" "-- $p" "-c Instr_all 0 -- $p" "-c Instr_all 1 x -- $p" \
	"--platform t9 -c Instr_all -- $p" "-c Instr_all -c -- $p"; do
	set +e
	# shellcheck disable=SC2086
	env -i "$hvpmu" cpustat $args > /dev/null 2> "$tmp/err"; rc=$?
	set -e
	[ "$rc" -ne 0 ] || fail "accepted: cpustat $args"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; fail "want one error line for: cpustat $args"; }
done
echo "cpustat: ok"
