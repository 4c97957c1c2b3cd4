#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu stat` / `hvpmu list` behaviour a user relies on: the plugin loads
# into QEMU 10's qemu-sparc64 (API v4 version check), errors give one line and a
# non-zero exit, the program's exit status and stdio pass through, output
# formats (-x CSV field order, -j JSON keys), <not supported>.
# Issue 32: option errors of every tool are one line; list --help exits 0;
# --version is the CMake project's; -x '' is refused; CSV fields are quoted
# as RFC 4180 says; JSON numbers are shortest-exact; mdperf -x has one row
# shape.
# usage: run_cli.sh HVPMU MICRO_DIR PLUGIN [VERSION WORKLOADS_DIR]
set -euo pipefail
hvpmu=$1 micro=$2 plugin=$3 version=${4:-} workloads=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: cli: $*" >&2; exit 1; }
expect_err() { # expect_err NAME EXPECTED_RC_NONZERO CMD...
	local name=$1; shift
	set +e; "$@" > "$tmp/out" 2> "$tmp/err"; local rc=$?; set -e
	[ "$rc" -ne 0 ] || fail "$name: exit status 0"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; fail "$name: want a one-line error"; }
	grep -q '^hvpmu' "$tmp/err" || fail "$name: error line does not name hvpmu"
}
expect_err "unknown event" env -i "$hvpmu" stat -e No_such_event -- "$micro/loop_int"
expect_err "bad modifier" env -i "$hvpmu" stat -e Instr_ld:z -- "$micro/loop_int"
expect_err "raw sl out of range" env -i "$hvpmu" stat -e sl=32,mask=1 -- "$micro/loop_int"
expect_err "missing program" env -i "$hvpmu" stat -- "$tmp/nonexistent"
expect_err "not sparc64" env -i "$hvpmu" stat -- /bin/true
expect_err "no program" env -i "$hvpmu" stat -e Instr_ld
expect_err "unknown command" env -i "$hvpmu" frobnicate
expect_err "unknown platform" env -i "$hvpmu" stat -p t4-3 -- "$micro/loop_int"
expect_err "unknown placement" env -i "$hvpmu" stat --placement scatter -- "$micro/loop_int"

# getopt's errors are one line naming the command, for every tool
for cmd in stat list busstat mmustat cpustat serve run mdperf gpci; do
	expect_err "$cmd -Z" env -i "$hvpmu" "$cmd" -Z
	grep -q "^hvpmu $cmd: invalid option -- 'Z'$" "$tmp/err" || { cat "$tmp/err" >&2; fail "$cmd -Z message"; }
	expect_err "$cmd --bogus" env -i "$hvpmu" "$cmd" --bogus
	grep -q "^hvpmu $cmd: unrecognized option '--bogus'$" "$tmp/err" || { cat "$tmp/err" >&2; fail "$cmd --bogus"; }
done
expect_err "stat -e without argument" env -i "$hvpmu" stat -e
# --help of every command: usage on stdout, exit 0
for cmd in stat list busstat mmustat cpustat serve run mdperf gpci; do
	env -i "$hvpmu" "$cmd" --help > "$tmp/out" 2> "$tmp/err" || fail "$cmd --help exited $?"
	grep -q "usage" "$tmp/out" && [ ! -s "$tmp/err" ] || fail "$cmd --help: usage not on stdout"
done
# --version: the CMake project version, as perf --version
env -i "$hvpmu" --version > "$tmp/v" || fail "--version exited $?"
[ -z "$version" ] || [ "$(cat "$tmp/v")" = "hvpmu version $version" ] || fail "--version: $(cat "$tmp/v")"
grep -Eq '^hvpmu version [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/v" || fail "--version: $(cat "$tmp/v")"
# -x '' would run the fields together: refused
for cmd in "stat" "mdperf" "gpci" "mmustat"; do
	expect_err "$cmd -x ''" env -i "$hvpmu" $cmd -x '' -- "$micro/loop_int"
done

# multi-chip descriptions and placement run a single-threaded program alike
# (docs/coherence-model.md): thread 0 is on strand 0 either way
env -i "$hvpmu" stat -x, -o "$tmp/t42" -p t4-4 --placement spread -e Instr_all -- "$micro/loop_int" ||
	fail "-p t4-4 --placement spread failed"
grep -q '^30006,,Instr_all,' "$tmp/t42" || { cat "$tmp/t42" >&2; fail "t4-4 Instr_all"; }

# the program's exit status passes through (windows exits 0; write a tiny exit 3 program? use
# the shell's `false` equivalent: overflow exits 0 too) - check 0 and a signal-free path
env -i "$hvpmu" stat -o "$tmp/o" -- "$micro/loop_int" > "$tmp/stdout" 2> "$tmp/stderr" || fail "loop_int failed"
[ ! -s "$tmp/stdout" ] || fail "hvpmu wrote to the program's stdout"
grep -q "Performance counter stats for '$micro/loop_int'" "$tmp/o" || fail "no perf stat header"
grep -Eq '^ +30006 +instructions' "$tmp/o" || { cat "$tmp/o" >&2; fail "default table lacks instructions 30006"; }

# perf's IPC metric when instructions and cycles are counted in the same modes
grep -Eq '^ +30006 +instructions +# +[0-9.]+ +insn per cycle' "$tmp/o" || { cat "$tmp/o" >&2; fail "no insn per cycle metric"; }
env -i "$hvpmu" stat -x, -o "$tmp/ipc" -e cycles:u,instructions:u -- "$micro/loop_int"
grep -Eq '^30006,,instructions:u,[0-9]+,100\.00,[0-9]\.[0-9][0-9],insn per cycle$' "$tmp/ipc" || { cat "$tmp/ipc" >&2; fail "CSV metric"; }

# CSV: value,unit,event,runtime,pcnt,metric,metric-unit; <not supported> (r301:
# sl=12, reserved in TABLE 10-2: every other event counts from the model)
env -i "$hvpmu" stat -x';' -o "$tmp/csv" -e Instr_all,r301 -- "$micro/loop_int"
grep -Eq '^30006;;Instr_all;[0-9]+;100\.00;;$' "$tmp/csv" || { cat "$tmp/csv" >&2; fail "CSV line"; }
grep -Eq '^<not supported>;;r301;0;100\.00;;$' "$tmp/csv" || { cat "$tmp/csv" >&2; fail "CSV not supported"; }
# event names: an exact-case match wins (T4's Branches sl 3, Linux's alias
# branches sl 4); any case only when unambiguous; "did you mean" by edit
# distance; perf's generic events the platform lacks are <not supported>
expect_err "ambiguous case" env -i "$hvpmu" stat -e BRANCHES -- "$micro/loop_int"
grep -q "'BRANCHES' is ambiguous: 'Branches' (sl=3 .*'branches' (sl=4 " "$tmp/err" || { cat "$tmp/err" >&2; fail "BRANCHES"; }
env -i "$hvpmu" stat -x, -o "$tmp/case" -e Branches,branches,instr_all,INSTR_ALL:u -- "$micro/loop_int"
awk -F, '{ v[$3] = $1 } END { exit !(v["instr_all"] == 30006 && v["INSTR_ALL:u"] == 30006 &&
	v["Branches"] != "" && v["branches"] != "") }' "$tmp/case" || { cat "$tmp/case" >&2; fail "case-insensitive names"; }
expect_err "typo" env -i "$hvpmu" stat -e cyles -- "$micro/loop_int"
grep -q "unknown event 'cyles'.*did you mean 'cycles'?" "$tmp/err" || { cat "$tmp/err" >&2; fail "did you mean cycles"; }
expect_err "typo 2" env -i "$hvpmu" stat -e Instr_lod -- "$micro/loop_int"
grep -q "did you mean 'Instr_ld'?" "$tmp/err" || { cat "$tmp/err" >&2; fail "did you mean Instr_ld"; }
expect_err "far from any name" env -i "$hvpmu" stat -e No_such_event -- "$micro/loop_int"
! grep -q "did you mean" "$tmp/err" || fail "a suggestion for a name far from every event"
env -i "$hvpmu" stat -x, -o "$tmp/ns" -e task-clock,cycles,LLC-load-misses -e instructions,page-faults -- "$micro/loop_int" ||
	fail "generic events the platform lacks stopped the run"
[ "$(cut -d, -f1,3 "$tmp/ns" | sed 's/^[0-9][0-9]*,/N,/' | tr '\n' ' ')" = "<not supported>,task-clock N,cycles <not supported>,LLC-load-misses N,instructions <not supported>,page-faults " ] ||
	{ cat "$tmp/ns" >&2; fail "<not supported> rows of generic events, in order"; }
expect_err "only absent events" env -i "$hvpmu" stat -e page-faults -- "$micro/loop_int"
if [ -n "$workloads" ] && [ -x "$workloads/mips64/loop" ]; then
	# perfex -e 0,18: rows named by the events
	env -i "$hvpmu" stat -p origin -x, -o "$tmp/px" -e 0,18:u -- "$workloads/mips64/loop"
	[ "$(cut -d, -f3 "$tmp/px" | tr '\n' ' ')" = "Cycles Graduated_loads:u " ] || { cat "$tmp/px" >&2; fail "perfex -e 0,18 names"; }
fi

# processes (perf's inherit): -i and -f exclude each other; a program
# whose symbols name no process-creating function runs in one emulator by
# default, and if it starts a process all the same (fork.S: a raw clone)
# the run says so and fails; -i asks for the first process only
expect_err "-i -f" env -i "$hvpmu" stat -i -f -- "$micro/loop_int"
set +e; env -i "$hvpmu" stat -x, -o "$tmp/fk" -e Instr_all:u -- "$micro/fork" > /dev/null 2> "$tmp/fkerr"; rc=$?; set -e
[ "$rc" = 1 ] && grep -q 'started 1 process, not counted' "$tmp/fkerr" || { cat "$tmp/fkerr" >&2; fail "fork.S default: rc $rc"; }
env -i "$hvpmu" stat -i -x, -o "$tmp/fki" -e Instr_all:u -- "$micro/fork" > /dev/null 2>&1 || fail "fork.S -i: exit $?"
cmp -s "$tmp/fk" "$tmp/fki" || fail "fork.S: default and -i counts differ"

# RFC 4180: a field holding the separator is quoted (a quote doubled),
# no other field is
env -i "$hvpmu" stat -x_ -o "$tmp/q" -e Instr_all -- "$micro/loop_int"
grep -Eq '^30006__"Instr_all"_[0-9]+_100\.00__$' "$tmp/q" || { cat "$tmp/q" >&2; fail "CSV quoting of a field with the separator"; }
env -i "$hvpmu" stat -x0 -o "$tmp/q0" -e Instr_all -- "$micro/loop_int"
grep -Eq '^"30006"0{2}Instr_all0"[0-9]+"0"100\.00"00$' "$tmp/q0" || { cat "$tmp/q0" >&2; fail "CSV quoting of numbers with the separator"; }
if [ -n "$workloads" ] && [ -x "$workloads/ppc64/loop" ]; then
	# hv_gpci names hold commas: one quoted field, so 7 fields in all
	g='hv_gpci/run_instructions_run_cycles_by_partition_instructions_completed,sibling_part_id=1/'
	env -i "$hvpmu" stat -p power -x, -o "$tmp/g" -e "$g,instructions:u" -- "$workloads/ppc64/loop" > /dev/null ||
		fail "stat -p power hv_gpci"
	python3 - "$tmp/g" "$g" <<'PY' || { cat "$tmp/g" >&2; fail "CSV of hv_gpci names does not parse as 7 fields"; }
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert len(rows) == 2 and all(len(r) == 7 for r in rows), rows
assert rows[0][2] == sys.argv[2] and rows[1][2] == "instructions:u", rows
PY
fi
if [ -n "$workloads" ] && [ -x "$workloads/mips64/loop" ]; then
	# mdperf -x: one row shape (11 fields; interval rows: run_mdperf.sh);
	# -j: the same keys on every row, times shortest-exact
	env -i "$hvpmu" mdperf -x, -s 0 -- "$workloads/mips64/loop" 2> "$tmp/md" || fail "mdperf -x run"
	awk -F, 'NF != 11 { bad = 1; print } END { exit bad || NR < 5 }' "$tmp/md" ||
		{ head "$tmp/md" >&2; fail "mdperf -x rows of other shapes"; }
	env -i "$hvpmu" mdperf -j -s 0 -- "$workloads/mips64/loop" 2> "$tmp/mdj" || fail "mdperf -j run"
	python3 - "$tmp/mdj" <<'PY' || fail "mdperf -j shape or number format"
import json, re, sys
keys = None
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert keys is None or list(o) == keys, (list(o), keys)
    keys = list(o)
    t = re.search(r'"time": ([^,}]+)', line).group(1).strip()
    assert repr(float(t)) == t or repr(float(t)) == t + ".0", t  # the shortest that reads back
PY
fi

# a fifth event on four PICs waits for the group rotation, which this short
# program never reaches: <not counted>, running 0.00 % as perf prints it
# (never 100.00 over work it did not count)
env -i "$hvpmu" stat -x, -o "$tmp/nc" -e Instr_all,Instr_ld,Instr_st,Branches,Instr_FGU_crypto -- "$micro/loop_int"
grep -Eq '^<not counted>,,Instr_FGU_crypto,0,0\.00,,$' "$tmp/nc" || { cat "$tmp/nc" >&2; fail "CSV not counted"; }

# JSON keys of perf stat -j
env -i "$hvpmu" stat -j -o "$tmp/json" -e instructions:u -- "$micro/loop_int"
for k in counter-value unit event event-runtime pcnt-running metric-value metric-unit; do
	grep -q "\"$k\"" "$tmp/json" || fail "JSON lacks key $k"
done
grep -q '"counter-value": "30006.000000"' "$tmp/json" || { cat "$tmp/json" >&2; fail "JSON value"; }

# :k counts no user instructions; cycles:k sees the modeled syscall cycles
env -i "$hvpmu" stat -x, -o "$tmp/k" -e instructions:k,cycles:k,cycles:u -- "$micro/loop_int"
grep -q '^0,,instructions:k,' "$tmp/k" || { cat "$tmp/k" >&2; fail "instructions:k should be 0"; }
awk -F, '$3=="cycles:k" && $1>0 {ok=1} END {exit !ok}' "$tmp/k" || fail "cycles:k should count syscall cycles"

# more events than PICs: multiplexed, scaled, with running percentage < 100
env -i "$hvpmu" stat -x, -o "$tmp/mux" --rotate-cycles 2000 \
	-e Instr_all,Instr_other,Branches,Br_taken,Instr_ld,cycles -- "$micro/loop_int"
awk -F, '$5 < 100 {n++} END {exit !(n == 6)}' "$tmp/mux" || { cat "$tmp/mux" >&2; fail "multiplexing percentages"; }

# hvpmu list names every event with sl and mask
env -i "$hvpmu" list > "$tmp/list"
grep -Eq '^  Instr_ld +sl=3 +mask=0x04' "$tmp/list" || fail "list lacks Instr_ld"
grep -Eq '^  cycles +sl=26 +mask=0x00' "$tmp/list" || fail "list lacks the cycles alias"
# and the PAPR firmware's hv_gpci events, each with its parameter and request
grep -q '^  run_instructions_run_cycles_by_partition_instructions_completed,sibling_part_id=N ' "$tmp/list" &&
	grep -q ' request 0x30, 8 bytes: instructions_completed$' "$tmp/list" || fail "list lacks the hv_gpci events"
[ "$(grep -c '^  [a-z_]*,[a-z_]*=N ' "$tmp/list")" -ge 17 ] || fail "list: fewer than 17 hv_gpci events"
grep -q '^  taken-cond-branches:u ' "$tmp/list" || fail "list lacks the model's counts (power)"
# hvpmu list as perf list: a glob (a word matches anywhere, any case), -p,
# --details, -j (a JSON array), metricgroup; --help exits 0
env -i "$hvpmu" list 'dc_miss*' > "$tmp/lg"
[ "$(grep -c '^  ' "$tmp/lg")" -ge 4 ] && ! grep -q '^  [^D]' "$tmp/lg" || { cat "$tmp/lg" >&2; fail "list GLOB"; }
env -i "$hvpmu" list -p t1 > "$tmp/lp"
grep -q '^UltraSPARC T1 events' "$tmp/lp" && ! grep -q 'SPARC T4\|R10000\|POWER7' "$tmp/lp" || fail "list -p t1"
env -i "$hvpmu" list -p t4 --details Instr_ld > "$tmp/ld"
grep -q 'platform t4, config=0xc4, native' "$tmp/ld" || { cat "$tmp/ld" >&2; fail "list --details"; }
env -i "$hvpmu" list metricgroup | grep -q '^  IPC ' || fail "list metricgroup"
expect_err "list: nothing matches" env -i "$hvpmu" list no_such_event_anywhere
expect_err "list -p bad" env -i "$hvpmu" list -p t9
# every name hvpmu list -j gives is one -e accepts (T4: every native and
# alias; POWER: its core events and hv_gpci events, with the parameter 0)
env -i "$hvpmu" list -j > "$tmp/lj"
python3 - "$tmp/lj" "$tmp/names" <<'PY' || fail "list -j"
import json, sys
a = json.load(open(sys.argv[1]))
ev = {"Unit", "Topic", "EventName", "EventType", "BriefDescription", "Encoding", "Supported"}
mg = {"MetricGroup", "MetricExpr", "BriefDescription"}
assert a and all(set(o) in (ev, mg) for o in a) and any(set(o) == mg for o in a)
with open(sys.argv[2], "w") as f:
    for o in a:
        if "EventName" not in o:
            continue
        n = o["EventName"]
        if o["Unit"] == "power" and "," in n:
            n = "hv_gpci/%s/" % n.replace("=N", "=0")
        if o["Unit"] in ("t4", "power") and ":" not in n:
            f.write("%s %s\n" % (o["Unit"], n))
PY
for plat in t4 power; do
	prog=$micro/loop_int
	if [ "$plat" = power ]; then
		[ -n "$workloads" ] && [ -x "$workloads/ppc64/loop" ] || continue
		prog=$workloads/ppc64/loop
	fi
	awk -v p="$plat" '$1 == p { print $2 }' "$tmp/names" | xargs -n "$([ "$plat" = power ] && echo 16 || echo 48)" echo > "$tmp/chunks" # 64 events, 16 hv_gpci a run
	n=0
	while read -r chunk; do
		list=$(echo $chunk | tr ' ' ',')
		env -i "$hvpmu" stat -p "$plat" -x';' -o "$tmp/all" -e "$list" -- "$prog" > /dev/null 2> "$tmp/allerr" ||
			{ cat "$tmp/allerr" >&2; fail "list -p $plat: a listed name -e refuses"; }
		n=$((n + $(wc -l < "$tmp/all")))
	done < "$tmp/chunks"
	[ "$n" = "$(awk -v p="$plat" '$1 == p' "$tmp/names" | wc -l)" ] || fail "list -p $plat: $n rows"
done

# cpustat and busstat: -x (one row shape, a header) and -j
env -i "$hvpmu" cpustat -x, -t -c pic0=Instr_all,pic1=Instr_ld 0.001 -- "$micro/loop_int" 2> "$tmp/cs" > /dev/null
[ "$(head -1 "$tmp/cs")" = "time,cpu,event,%tick,pic0,pic1,pic2,pic3,set" ] || { cat "$tmp/cs" >&2; fail "cpustat -x header"; }
awk -F, 'NR > 1 && NF != 10 { exit 1 } END { exit NR < 3 }' "$tmp/cs" || fail "cpustat -x rows (the set quoted: 10 fields)"
grep -q '^[0-9.]*,1,total,[0-9]*,30006,0,,,"pic0=Instr_all,pic1=Instr_ld"$' "$tmp/cs" || { cat "$tmp/cs" >&2; fail "cpustat -x total"; }
env -i "$hvpmu" cpustat -j -c pic0=Instr_all 0.001 -- "$micro/loop_int" 2> "$tmp/csj" > /dev/null
python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert r[-1]["event"] == "total" and r[-1]["pic0"] == 30006' "$tmp/csj" ||
	fail "cpustat -j"
env -i "$hvpmu" busstat -x';' -w mcu0,pic0=read_all_channels,pic1=mem_writes 0.001 -- "$micro/loop_int" 2> "$tmp/bs" > /dev/null
[ "$(head -1 "$tmp/bs")" = "time;dev;event0;pic0;event1;pic1;partial" ] && awk -F';' 'NF != 7 { exit 1 }' "$tmp/bs" ||
	{ cat "$tmp/bs" >&2; fail "busstat -x"; }
env -i "$hvpmu" busstat -j -w mcu0,pic0=read_all_channels 0.001 -- "$micro/loop_int" 2> "$tmp/bsj" > /dev/null
python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert r and all(o["dev"] == "mcu0" for o in r)' "$tmp/bsj" ||
	fail "busstat -j"
for cmd in cpustat busstat; do
	expect_err "$cmd -x ''" env -i "$hvpmu" $cmd -x '' -c pic0=Instr_all -- "$micro/loop_int"
done

# the plugin loads into QEMU 10's qemu-sparc64 (API v4) and refuses to run without
# its request file, with a message, rather than count nothing silently
set +e
env -i "$(command -v qemu-sparc64)" -plugin "$plugin" "$micro/loop_int" > /dev/null 2> "$tmp/perr"; prc=$?
set -e
[ "$prc" -ne 0 ] || fail "plugin without cfg= was accepted"
grep -q "missing argument cfg=FILE" "$tmp/perr" || { cat "$tmp/perr" >&2; fail "plugin refusal message"; }
echo "cli: ok"
