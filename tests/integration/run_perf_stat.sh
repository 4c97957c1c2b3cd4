#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# perf stat's habits (issue 32): command lines in the forms perf-stat(1)
# of perf 6.1 documents (tools/perf/Documentation/perf-stat.txt: -e lists
# with modifiers and groups, -r, -I, -x, -j, -d, --per-thread as hvpmu's
# --per-process, -M), each run against hvpmu stat and its output checked
# for perf stat 6.1's shape: the table's header, rows and footer; CSV's
# fields (value, unit, event, run time, running %, [variance with -r],
# metric value, metric unit; the time first with -I; the thread first
# per process) parsed as RFC 4180; JSON's keys, exactly perf's
# (counter-value, unit, event, event-runtime, pcnt-running, metric-value,
# metric-unit; interval with -I, variance with -r, thread per process).
# The counts and metrics are checked against each other, not hard-coded:
# -r's means equal one run's (the model repeats exactly), -I's rows add up
# to the run's counts, the derived metrics are their events' ratios.
# usage: run_perf_stat.sh HVPMU MICRO_DIR [MINIGZIP TEXT]
set -euo pipefail
hvpmu=$1 micro=$2 gz=${3:-} text=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: perf_stat: $*" >&2; exit 1; }
prog=$micro/loop_int
# st NAME ARGS...: hvpmu stat ARGS -- PROGRAM, output in $tmp/NAME
st() {
	local name=$1
	shift
	env -i "$hvpmu" stat -o "$tmp/$name" "$@" -- "$prog" > /dev/null 2> "$tmp/$name.err" ||
		{ cat "$tmp/$name.err" >&2; fail "$name: hvpmu stat $* exited $?"; }
}
# check FORMAT FILE [csv fields | json keys...]: the output's shape
check() {
	python3 - "$@" <<'PY' || fail "$2: not perf stat 6.1's shape (see above)"
import csv, json, re, sys
fmt, path, *want = sys.argv[1:]
text = open(path).read()
if fmt == "table":
    lines = text.split("\n")
    head = [l for l in lines if l.startswith(" Performance counter stats for '")]
    assert len(head) == 1 and re.match(r" Performance counter stats for '.*'( \(\d+ runs\))?:$", head[0]), head
    rows = [l for l in lines if re.match(r"^ +([0-9,.]+|<not supported>|<not counted>) +\S", l)
            and "seconds" not in l]
    assert rows, "no counter rows"
    for r in rows:
        assert re.match(r"^ {0,17}([0-9,]+|<not supported>|<not counted>) {6}\S+( +# +[0-9.]+%? .+?)?"
                        r"( +\( \+- *[0-9.]+% \))?( +\([0-9.]+%\))? *$", r), "row: " + r
    assert any(re.match(r"^ +[0-9.]+( \+- [0-9.]+)? seconds time elapsed", l) for l in lines), "no elapsed"
    assert any(re.match(r"^ +[0-9.]+ seconds user$", l) for l in lines), "no user"
    assert any(re.match(r"^ +[0-9.]+ seconds sys$", l) for l in lines), "no sys"
elif fmt == "csv":
    n = int(want[0])
    rows = list(csv.reader(open(path)))
    assert rows, "no rows"
    for r in rows:
        assert len(r) == n, "%d fields, want %d: %s" % (len(r), n, r)
elif fmt == "json":
    rows = [json.loads(l) for l in text.split("\n") if l.strip()]
    assert rows, "no rows"
    for o in rows:
        assert sorted(o) == sorted(want), "keys %s, want %s" % (sorted(o), sorted(want))
        assert isinstance(o["counter-value"], str) and isinstance(o["event-runtime"], int)
        assert isinstance(o["pcnt-running"], float) and isinstance(o["metric-value"], str)
PY
}
keys="counter-value unit event event-runtime pcnt-running metric-value metric-unit"

# 1. "perf stat -- make": the default events, the table
st default
check table "$tmp/default"
grep -q 'seconds modeled time (.* GHz machine)' "$tmp/default" || fail "default: no modeled time beside the host's"
grep -Eq ' cycles +# +[0-9.]+ GHz$' "$tmp/default" || { cat "$tmp/default" >&2; fail "default: no GHz on cycles"; }
grep -Eq ' instructions +# +[0-9.]+  insn per cycle$' "$tmp/default" || fail "default: no insn per cycle"

# 2. -e lists with modifiers, several -e, a group with the group's
# modifier (perf-stat.txt: -e, "{cycles,instructions}:u")
st mods -x, -e cycles:u,instructions:k -e branches -e '{cycles,instructions}:u'
check csv "$tmp/mods" 7
[ "$(cut -d, -f3 "$tmp/mods" | tr '\n' ' ')" = "cycles:u instructions:k branches cycles:u instructions:u " ] ||
	{ cat "$tmp/mods" >&2; fail "modifiers and groups: events"; }

# 3. -x, and -j: perf's fields and keys; metrics as their events' ratios
st csv -x, -e cycles,instructions,branches,branch-misses
check csv "$tmp/csv" 7
awk -F, '{ v[$3] = $1; m[$3] = $6; u[$3] = $7 }
	END {
		ipc = sprintf("%.2f", v["instructions"] / v["cycles"])
		br = sprintf("%.2f", 100 * v["branch-misses"] / v["branches"])
		if (m["instructions"] != ipc || u["instructions"] != "insn per cycle") { print "ipc " m["instructions"] " want " ipc; exit 1 }
		if (m["branch-misses"] != br || u["branch-misses"] != "of all branches") { print "branch-misses " m["branch-misses"] " want " br; exit 1 }
		if (u["cycles"] != "GHz") { print "cycles unit " u["cycles"]; exit 1 }
	}' "$tmp/csv" || fail "CSV metrics"
st csvsemi -x';' -e instructions:u,branches:u
awk -F';' 'NF != 7 { exit 1 }' "$tmp/csvsemi" || fail "-x';': not 7 fields"
st json -j -e cycles,instructions,branches,branch-misses
check json "$tmp/json" $keys
grep -q '"metric-unit": "of all branches"' "$tmp/json" || fail "JSON: no branch-miss ratio"
st table -e cycles,instructions,branches,branch-misses
check table "$tmp/table"
grep -Eq ' branch-misses +# +[0-9.]+% of all branches$' "$tmp/table" || { cat "$tmp/table" >&2; fail "table: % of all branches"; }

# 4. -r 5 (perf-stat.txt: "perf stat -r 5 ..."): mean and +- noise; the
# model repeats exactly, so the means are one run's and the noise 0.00 %,
# which perf's table leaves out (print_noise_pct) and its CSV prints
st r5 -r 5 -e cycles,instructions
check table "$tmp/r5"
grep -q "(5 runs):" "$tmp/r5" || fail "-r 5: no (5 runs)"
! grep -E 'cycles|instructions' "$tmp/r5" | grep -q '( +-' || { cat "$tmp/r5" >&2; fail "-r 5: a 0 noise printed"; }
grep -Eq '^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed  \( \+- *[0-9.]+% \)$' "$tmp/r5" || fail "-r 5: elapsed +-"
st r3csv -r 3 -x, -e cycles,instructions
check csv "$tmp/r3csv" 8
awk -F, '$6 != "0.00%" { exit 1 }' "$tmp/r3csv" || fail "-r 3 -x,: variance field"
st one -x, -e cycles,instructions
[ "$(cut -d, -f1,3 "$tmp/r3csv")" = "$(cut -d, -f1,3 "$tmp/one")" ] || fail "-r 3: the means are not one run's counts"
st r3json -r 3 -j -e cycles
check json "$tmp/r3json" $keys variance

# 5. -d, -dd, -ddd: perf's detailed events, <not supported> where the
# platform has none, <not counted> where the short run never reached them
st d -d
check table "$tmp/d"
for e in L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses; do
	grep -q " $e" "$tmp/d" || fail "-d: no $e row"
done
st ddd -ddd -x,
check csv "$tmp/ddd" 7
[ "$(wc -l < "$tmp/ddd")" = 16 ] || { cat "$tmp/ddd" >&2; fail "-ddd: want 4 + 4 + 6 + 2 rows"; }
grep -q '^<not supported>,,L1-dcache-prefetch-misses,' "$tmp/ddd" || fail "-ddd: L1-dcache-prefetch-misses"

# 6. -M: a metric group's events and metric
st m -x, -M Branch_Mispredict
[ "$(cut -d, -f3,7 "$tmp/m" | tr '\n' ' ')" = "branches, branch-misses,of all branches " ] || { cat "$tmp/m" >&2; fail "-M"; }

# 7. generic events the platform lacks (perf-stat.txt's default list has
# task-clock, page-faults...): <not supported>, the run goes on
st ns -x, -e task-clock,context-switches,page-faults,instructions
check csv "$tmp/ns" 7
[ "$(grep -c '^<not supported>,,' "$tmp/ns")" = 3 ] || fail "<not supported> generic events"

# 8. --per-thread as --per-process: perf's per-thread shape (the thread
# first; "thread" in JSON)
if [ -x "$micro/fork" ]; then
	prog=$micro/fork
	st pp -x, --per-process -e instructions:u,Instr_ld:u
	check csv "$tmp/pp" 8
	awk -F, '$1 !~ /^fork-[0-9]+$/ { exit 1 }' "$tmp/pp" || fail "--per-process: the first field is COMM-PID"
	st ppj -j --per-process -e instructions:u
	check json "$tmp/ppj" thread $keys
	# the derived metrics per process: each row's insn per cycle is its
	# own counts' ratio
	st ppm -x, --per-process -e cycles:u,instructions:u
	awk -F, '$4 == "cycles:u" { c[$1] = $2 } $4 == "instructions:u" { i[$1] = $2; m[$1] = $7; u[$1] = $8 }
		END { for (p in i) { n++; if (u[p] != "insn per cycle" || m[p] != sprintf("%.2f", i[p] / c[p])) exit 1 }
		      exit n != 2 }' "$tmp/ppm" || { cat "$tmp/ppm" >&2; fail "--per-process metrics"; }
	prog=$micro/loop_int
fi

# 9. -I (perf-stat.txt: "perf stat -I 1000 -e cycles -a sleep 5"), in
# modeled milliseconds: rows stamped with the interval's end; the rows of
# each event add up to the run's count
if [ -n "$gz" ] && [ -x "$gz" ] && [ -f "$text" ]; then
	head -c 200000 "$text" > "$tmp/in"
	ig() { env -i "$hvpmu" stat "$@" -- "$gz" < "$tmp/in" > /dev/null; }
	ig -I 2 -o "$tmp/i" -e instructions:u,cycles:u
	grep -q '^#   modeled time  *counts unit events .*milliseconds of the machine.s time' "$tmp/i" ||
		fail "-I: the header does not say modeled time"
	grep -Eq '^ +[0-9]+\.[0-9]{9} +[0-9,]+ +instructions:u +# +[0-9.]+  insn per cycle$' "$tmp/i" ||
		{ head "$tmp/i" >&2; fail "-I: table rows"; }
	ig -I 2 -x, -o "$tmp/ic" -e instructions:u,cycles:u
	check csv "$tmp/ic" 8
	ig -x, -o "$tmp/whole" -e instructions:u,cycles:u
	for e in instructions:u cycles:u; do
		s=$(awk -F, -v e="$e" '$4 == e { s += $2 } END { printf "%d", s }' "$tmp/ic")
		w=$(awk -F, -v e="$e" '$3 == e { print $1 }' "$tmp/whole")
		[ "$s" = "$w" ] || fail "-I: $e rows add up to $s, the run counts $w"
	done
	[ "$(awk -F, '$4 == "cycles:u"' "$tmp/ic" | wc -l)" -ge 3 ] || fail "-I 2: fewer than 3 intervals"
	ig -I 2 -j -o "$tmp/ij" -e instructions:u
	check json "$tmp/ij" interval $keys
fi

# 10. bad input: one line, non-zero
for bad in "-r 0" "-r x" "-I 0" "-I -5" "-M nosuch" "-e {cycles" "-ddd -d" "-I 10 -r 2" "-i -f" "--topdown"; do
	set +e
	# shellcheck disable=SC2086 # the words are options
	env -i "$hvpmu" stat $bad -- "$prog" > /dev/null 2> "$tmp/bad"; rc=$?
	set -e
	[ "$rc" -ne 0 ] && [ "$(wc -l < "$tmp/bad")" -eq 1 ] && grep -q '^hvpmu stat: ' "$tmp/bad" ||
		{ cat "$tmp/bad" >&2; fail "'$bad': want one line and a non-zero exit (got $rc)"; }
done
echo "perf_stat: perf 6.1 shapes of -e lists, groups, -x, -j, -r, -d, -M, -I, --per-process"
