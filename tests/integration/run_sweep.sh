#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu sweep` and `hvpmu merge` (docs/sweeps.md) with --engine local (GNU
# parallel) on the T4 memory micro-benchmarks:
#   - a plan of two programs x two L2 sizes x two events: the merged table
#     holds exactly the counts of the same `hvpmu stat` runs made by hand,
#     and the L2 size changes seq_l2's clean L2 evictions (its 64 KB fit
#     the 128 KB L2, not a 32 KB one) and its cycles;
#   - the per-(program, event) tables across the axis; repeats averaged;
#   - a rerun runs nothing and leaves every result as it was; a removed
#     result is the only job run again;
#   - a changed input file, or another hvpmu build, makes new points; a
#     job whose input changed after planning refuses to run;
#   - a job that fails fails the sweep, which names the missing point and
#     writes no table; results of different builds do not merge unless
#     --allow-mixed;
#   - bad plans and command lines: one line, exit 129;
#   - --engine print lists the jobs, --engine slurm --script-only writes
#     an sbatch array script (sh -n clean).
#   - with PPC64_DIR and CEC_JSON (scripts/power-cec.json): jobs that
#     start their own service: two guests' programs at once under stat -a
#     monitors, and hv_gpci asked after them over a dispatch-window axis;
#     each guest's instructions (and each partition's run-latch
#     instructions) are the program's own under hvpmu stat -p power, and
#     no service or socket is left behind.
#   - with MIPS64_DIR: an mdperf sweep over the Origin's node count
#     equals hvpmu mdperf by hand.
# usage: run_sweep.sh HVPMU MEM_DIR [PPC64_DIR CEC_JSON] [MIPS64_DIR]
set -euo pipefail
hvpmu=$1 mem=$2 ppc64=${3:-} cec=${4:-} mips64=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: sweep: $*" >&2; exit 1; }
command -v parallel > /dev/null || fail "GNU parallel (Debian package parallel) is not installed"
cd "$tmp"
# the services the jobs start put their sockets in directories of their
# own; anything else of hvpmu's goes here
export XDG_RUNTIME_DIR=$tmp/xdg
mkdir -m 0700 "$XDG_RUNTIME_DIR"

cat > plan.json <<J
{
  "events": ["cycles:u", "L2_clean_evict"],
  "axes": { "memory.l2.size": [32768, 131072] },
  "programs": [
    { "path": "$mem/seq_l2" },
    { "name": "small", "path": "$mem/seq_small" }
  ]
}
J
"$hvpmu" sweep -j2 plan.json 2> log || { cat log >&2; fail "the sweep failed"; }
grep -q '4 jobs (2 points x 2 programs x 1): 4 to run, 0 done already' log || { cat log >&2; fail "expansion"; }
out=plan.results
[ "$(head -1 $out/merged.csv)" = "program,repeat,memory.l2.size,cycles:u,L2_clean_evict,GHz,key" ] ||
	{ cat $out/merged.csv >&2; fail "merged.csv header"; }
[ "$(wc -l < $out/merged.csv)" -eq 5 ] || fail "merged.csv: not 4 rows"

# the same runs by hand: the job's environment is the plan's (none) and
# its working directory the plan's
for size in 32768 131072; do
	echo "{ \"memory\": { \"l2\": { \"size\": $size } } }" > "hand-$size.json"
	for p in seq_l2:seq_l2 small:seq_small; do
		name=${p%%:*} prog=$mem/${p#*:}
		env -i "$hvpmu" stat -x, -o hand.csv --md "hand-$size.json" -e cycles:u,L2_clean_evict -- "$prog"
		want="$name,0,$size,$(awk -F, '$3 == "cycles:u" { c = $1 } $3 == "L2_clean_evict" { e = $1 } END { print c "," e }' hand.csv)"
		grep -q "^$want," $out/merged.csv || { cat $out/merged.csv hand.csv >&2; fail "no row $want"; }
	done
done
small_ev=$(awk -F, '$1 == "seq_l2" && $3 == 32768 { print $5 }' $out/merged.csv)
big_ev=$(awk -F, '$1 == "seq_l2" && $3 == 131072 { print $5 }' $out/merged.csv)
[ "$big_ev" -eq 0 ] && [ "$small_ev" -gt 0 ] || fail "seq_l2's L2 evictions: $small_ev (32 KB L2), $big_ev (128 KB)"
json_rows=$(grep -c '"program":' $out/merged.json)
[ "$json_rows" -eq 4 ] || fail "merged.json: $json_rows rows"

# the plotting tables: one per program and event, a row per L2 size
t=$out/tables/seq_l2/L2_clean_evict.csv
[ "$(cat $t)" = "memory.l2.size,value,min,max,runs
32768,$small_ev,$small_ev,$small_ev,1
131072,0,0,0,1" ] || { cat $t >&2; fail "table $t"; }
[ -f $out/tables/small/cycles_u.csv ] || fail "no table small/cycles_u.csv"
grep -q '^small,cycles:u,tables/small/cycles_u.csv$' $out/tables/index.csv || fail "tables/index.csv"

# a rerun runs nothing: every result file as it was (inode and mtime)
stamp() { stat -c '%n %i %Y.%y' $out/results/*.json; }
stamp > before
sleep 1
"$hvpmu" sweep -j2 plan.json 2> log || { cat log >&2; fail "the rerun failed"; }
grep -q '0 to run, 4 done already' log || { cat log >&2; fail "the rerun ran jobs"; }
stamp > after
cmp -s before after || fail "the rerun touched results"
# a job line of a done point does nothing either
line=$("$hvpmu" sweep --engine print plan.json 2> /dev/null | wc -l)
[ "$line" -eq 0 ] || fail "--engine print lists $line jobs of a finished sweep"
# one result removed: that job alone runs again
victim=$(ls $out/results/*.json | head -1)
rm "$victim"
"$hvpmu" sweep -j2 plan.json 2> log || { cat log >&2; fail "the resumed sweep failed"; }
grep -q '1 to run, 3 done already' log || { cat log >&2; fail "resume: not one job"; }
stamp > again
[ "$(diff before again | grep -c '^[<>]')" -eq 2 ] || { diff before again >&2; fail "resume reran other points"; }

# an upgrade makes new points: another hvpmu build (a byte more) finds
# none of the results of this one
mkdir upgraded
cp "$hvpmu" upgraded/hvpmu
printf '\0' >> upgraded/hvpmu
HVPMU_PLUGIN=$(dirname "$hvpmu")/libhvpmu_plugin.so upgraded/hvpmu sweep --engine print plan.json 2> log > /dev/null ||
	{ cat log >&2; fail "upgraded hvpmu"; }
grep -q '4 to run, 0 done already' log || { cat log >&2; fail "an upgrade did not make new points"; }
"$hvpmu" sweep --engine print plan.json 2> log > /dev/null
grep -q '0 to run, 4 done already' log || { cat log >&2; fail "the old build's points are gone"; }

# the input is part of the key: a changed input file makes a new point
echo one > in.txt
cat > input.json <<J
{ "events": ["Instr_ld"], "programs": [ { "path": "$mem/seq_small", "input": "in.txt" } ] }
J
"$hvpmu" sweep input.json 2> log || { cat log >&2; fail "input sweep"; }
k1=$(ls input.results/results)
echo two > in.txt
"$hvpmu" sweep input.json 2> log || { cat log >&2; fail "input sweep 2"; }
grep -q '1 to run, 0 done already' log || { cat log >&2; fail "a changed input is not a new point"; }
[ "$(ls input.results/results | wc -l)" -eq 2 ] || fail "no second result for the changed input"
# planned, then changed: the job refuses
echo three > in.txt
job=$("$hvpmu" sweep --engine print input.json 2> /dev/null)
echo four > in.txt
if sh -c "$job" 2> err; then fail "a job ran on an input changed after planning"; fi
grep -q 'changed since the sweep was planned' err || { cat err >&2; fail "changed input: message"; }
[ "$(wc -l < err)" -eq 1 ] || { cat err >&2; fail "changed input: not one line"; }

# repeats: one row each, the same counts (runs are deterministic), and the
# plotting table's mean over them
cat > rep.json <<J
{ "events": ["Instr_ld"], "repeat": 2, "axes": { "memory.l2.size": [65536] },
  "programs": [ { "path": "$mem/seq_small" } ] }
J
"$hvpmu" sweep rep.json 2> log || { cat log >&2; fail "repeat sweep"; }
[ "$(cut -d, -f1-4 rep.results/merged.csv)" = "program,repeat,memory.l2.size,Instr_ld
seq_small,0,65536,8192
seq_small,1,65536,8192" ] || { cat rep.results/merged.csv >&2; fail "repeat rows"; }
[ "$(sed -n 2p rep.results/tables/seq_small/Instr_ld.csv)" = "65536,8192,8192,8192,2" ] ||
	{ cat rep.results/tables/seq_small/Instr_ld.csv >&2; fail "repeat table"; }

# a failing job fails the sweep, names the point, writes no table
cat > failing.json <<J
{ "events": ["Instr_ld"], "axes": { "memory.l2.size": [65536] },
  "programs": [ { "name": "wrong", "path": "$mem/seq_small", "status": 3 } ] }
J
if "$hvpmu" sweep failing.json 2> log; then fail "a failed job did not fail the sweep"; fi
grep -q 'job wrong memory.l2.size=65536 repeat 0: exit status 0 (success is 3)' log ||
	{ cat log >&2; fail "the failed job is not reported"; }
grep -q 'missing: wrong memory.l2.size=65536 repeat 0' log || { cat log >&2; fail "the missing point is not named"; }
[ ! -e failing.results/merged.csv ] || fail "a merged table over a missing result"

# results of another build do not merge unless told
r=$(ls $out/results/*.json | head -1)
sed -i 's/"qemu":"qemu-sparc64 version [^"]*"/"qemu":"qemu-sparc64 version 0.0.0"/' "$r"
if "$hvpmu" merge $out 2> log; then fail "merge mixed two builds"; fi
grep -q 'different hvpmu or QEMU builds' log || { cat log >&2; fail "mixed builds: message"; }
"$hvpmu" merge --allow-mixed $out 2> log || { cat log >&2; fail "merge --allow-mixed"; }

# bad plans and command lines: one line each, status 129
bad() { # FILE-CONTENT EXPECTED-TEXT [SWEEP OPTIONS]
	printf '%s\n' "$1" > bad.json
	local st=0
	"$hvpmu" sweep "${@:3}" bad.json 2> err > /dev/null || st=$?
	[ "$st" -eq 129 ] || { cat err >&2; fail "bad plan '$1': status $st"; }
	[ "$(wc -l < err)" -eq 1 ] || { cat err >&2; fail "bad plan '$1': not one line"; }
	grep -qF -- "$2" err || { cat err >&2; fail "bad plan '$1': no '$2'"; }
}
p="\"programs\": [ { \"path\": \"$mem/seq_small\" } ]"
bad '{ "programs": [' 'bad.json: 2:1: JSON: the text ends inside the JSON'
bad '[]' 'not a JSON object'
bad '{ "events": ["cycles"] }' 'no "programs"'
bad "{ $p, \"colour\": 1 }" 'colour: unknown key'
bad "{ $p, \"axes\": { \"memory.l2.size\": [1000] } }" 'memory.l2'
bad "{ $p, \"axes\": { \"memory.l9.size\": [1] } }" 'memory.l9'
bad "{ $p, \"axes\": { \"memory.l2.size\": [] } }" 'axes.memory.l2.size: needs 1..256 values'
bad "{ $p, \"axes\": { \"memory..size\": [1] } }" 'not a description key'
bad "{ $p, \"events\": [\"no_such_event\"] }" 'no_such_event'
bad "{ $p, \"options\": [\"-o\"] }" "options[0]: '-o' is not an option a stat sweep takes"
bad "{ $p, \"repeat\": 0 }" 'repeat: out of range 1..1000'
bad "{ \"programs\": [ { \"path\": \"$mem/seq_small\" }, { \"path\": \"$mem/seq_small\" } ] }" "names programs[0] already"
bad "{ \"programs\": [ { \"path\": \"nonexistent\" } ] }" 'nonexistent: No such file or directory'
bad "{ $p, \"description\": \"nonexistent.json\" }" 'nonexistent.json'
bad "{ $p }" "unknown engine 'lsf'" --engine lsf
st=0; "$hvpmu" sweep 2> err || st=$?
[ "$st" -eq 129 ] && [ "$(wc -l < err)" -eq 1 ] || fail "no plan: status $st"
st=0; "$hvpmu" merge "$tmp/nothing" 2> err || st=$?
[ "$st" -eq 1 ] && [ "$(wc -l < err)" -eq 1 ] || { cat err >&2; fail "merge of no sweep: status $st"; }

# damaged files of a results directory: one line, no crash
cp -r $out damaged && rm -f damaged/results/*.json
sed -i 's/"axes":\[/"axes":[null,/; s/"axes": \[/"axes": [null, /' damaged/sweep.json
st=0; "$hvpmu" merge damaged 2> err || st=$?
[ "$st" -eq 1 ] && [ "$(wc -l < err)" -eq 1 ] && grep -q 'not the manifest of a sweep' err ||
	{ cat err damaged/sweep.json >&2; fail "a damaged manifest: status $st"; }
j=$(ls damaged/jobs/*.json | head -1)
for garbage in '[]' '{ "key": 1 }' '{' "$(sed 's/"runs":\[/"runs":[7,/' "$j")"; do
	printf '%s\n' "$garbage" > "$j"
	st=0; "$hvpmu" sweep --job "$j" 2> err || st=$?
	[ "$st" -eq 1 ] && [ "$(wc -l < err)" -eq 1 ] || { cat err >&2; fail "a damaged job file: status $st"; }
done
st=0; "$hvpmu" sweep --job /nonexistent/jobs/x.json 2> err || st=$?
[ "$st" -eq 1 ] && [ "$(wc -l < err)" -eq 1 ] || { cat err >&2; fail "no job file: status $st"; }

# engines: the job list, and an sbatch array script
rm -rf "$out/results"/*.json
n=$("$hvpmu" sweep --engine print plan.json 2> /dev/null | grep -c " sweep --job '$tmp/plan.results/jobs/[0-9a-f]\{64\}.json'$")
[ "$n" -eq 4 ] || fail "--engine print: $n job lines"
s=$("$hvpmu" sweep --engine slurm --script-only --partition debug --time 10:00 plan.json 2> /dev/null)
[ "$s" = "$tmp/plan.results/sweep.sbatch" ] || fail "--script-only printed '$s'"
grep -qx '#SBATCH --array=0-3' "$s" && grep -qx '#SBATCH --partition=debug' "$s" &&
	grep -qx '#SBATCH --time=10:00' "$s" || { cat "$s" >&2; fail "sbatch script"; }
sh -n "$s" || fail "the sbatch script is not sh"
# past Slurm's default MaxArraySize: 1000 tasks share 1200 jobs
sed 's/"events"/"repeat": 300, "events"/' plan.json > big.json
"$hvpmu" sweep --engine slurm --script-only big.json > /dev/null 2>&1 || fail "1200 jobs: no script"
grep -qx '#SBATCH --array=0-999' big.results/sweep.sbatch && [ "$(wc -l < big.results/jobs.txt)" -eq 1200 ] ||
	fail "1200 jobs: not 1000 tasks"
# the script runs its share of the lines: task 2 of 4 runs the third job
SLURM_ARRAY_TASK_ID=2 sh "$s" || fail "task 2 failed"
[ "$(ls $out/results/*.json | wc -l)" -eq 1 ] || fail "task 2 did not run one job"
# jobs with a service of their own (POWER CEC: partitions dedicated, capped, uncapped)
if [ -n "$ppc64" ]; then
	before_dirs=$(find /tmp -maxdepth 1 -name 'hvpmu-sweep-*' | wc -l)
	cat > svc.json <<J
{ "events": ["instructions:u"], "description": "$cec",
  "programs": [ { "name": "pair", "guests": [
      { "guest": "dedicated", "path": "$ppc64/loop" },
      { "guest": "capped", "path": "$ppc64/pc4" } ] } ] }
J
	"$hvpmu" sweep -j2 svc.json 2> log || { cat log >&2; fail "the stat -a sweep failed"; }
	l=$(env -i "$hvpmu" stat -p power -x, -e instructions:u -- "$ppc64/loop" 2>&1 | awk -F, '{ print $1 }')
	p=$(env -i "$hvpmu" stat -p power -x, -e instructions:u -- "$ppc64/pc4" 2>&1 | awk -F, '{ print $1 }')
	[ "$(sed -n 2p svc.results/merged.csv | cut -d, -f1-4)" = "pair,0,$l,$p" ] &&
		[ "$(head -1 svc.results/merged.csv)" = "program,repeat,dedicated/instructions:u,capped/instructions:u,key" ] ||
		{ cat svc.results/merged.csv >&2; fail "stat -a per guest: not $l and $p"; }
	cat > gpci.json <<J
{ "tool": "gpci", "events": ["run_instructions_run_cycles_by_partition"], "description": "$cec",
  "axes": { "cec.dispatch_window_us": [100, 10000] },
  "programs": [ { "name": "pair", "guests": [
      { "guest": "dedicated", "path": "$ppc64/loop" },
      { "guest": "capped", "path": "$ppc64/pc4" } ] } ] }
J
	"$hvpmu" sweep -j2 gpci.json 2> log || { cat log >&2; fail "the gpci sweep failed"; }
	m=gpci.results/merged.csv
	[ "$(wc -l < $m)" -eq 3 ] || { cat $m >&2; fail "gpci: not 2 rows"; }
	for w in 100 10000; do
		got=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["cec.dispatch_window_us"] == sys.argv[2]:
        k = "run_instructions_run_cycles_by_partition[%d].instructions_completed"
        print(r[k % 0], r[k % 1], r[k % 2])' $m $w)
		[ "$got" = "$l $p 0" ] || { cat $m >&2; fail "gpci window $w: run-latch instructions $got, not $l $p 0"; }
	done
	[ "$(find /tmp -maxdepth 1 -name 'hvpmu-sweep-*' | wc -l)" -eq "$before_dirs" ] || fail "a job left its service's directory"
	[ -z "$(ls -A "$XDG_RUNTIME_DIR")" ] || fail "a job used XDG_RUNTIME_DIR"
	# a guest the description does not have: one line at expansion
	sed 's/"capped"/"nosuch"/' gpci.json > bad.json
	st=0; "$hvpmu" sweep bad.json 2> err || st=$?
	[ "$st" -eq 129 ] && [ "$(wc -l < err)" -eq 1 ] && grep -q "has no guest 'nosuch'" err ||
		{ cat err >&2; fail "unknown guest: status $st"; }
fi
# mdperf: the Hub MD counters of node 0 (the sets' counters by name)
if [ -n "$mips64" ]; then
	cat > md.json <<J
{ "tool": "mdperf", "events": ["inmsg_class"], "options": ["--node=0"], "axes": { "chips": [2, 4] },
  "programs": [ { "path": "$mips64/loop" } ] }
J
	"$hvpmu" sweep -j2 md.json 2> log || { cat log >&2; fail "the mdperf sweep failed"; }
	for n in 2 4; do
		echo "{ \"platform\": \"origin\", \"chips\": $n }" > "origin-$n.json"
		want=$(env -i "$hvpmu" mdperf -n 0 -s inmsg_class -x, --md "origin-$n.json" -- "$mips64/loop" 2>&1 |
			awk -F, '$1 == 0 { printf ",%s", $6 }')
		grep -q "^loop,0,$n$want,[0-9a-f]*$" md.results/merged.csv ||
			{ cat md.results/merged.csv >&2; fail "mdperf $n nodes: not$want"; }
	done
	head -1 md.results/merged.csv | grep -q '^program,repeat,chips,inmsg_class.misc_req,inmsg_class.reads,' ||
		fail "mdperf: header"
fi
echo "sweep: ok"
