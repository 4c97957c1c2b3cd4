#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_endings.sh HVPMU ENDS_DIR: every way a run can end keeps its counts
# (docs/cli.md "How a run ends"; workloads/ends/*.S derive the counts).
#   - the program dies of SIGSEGV (a fault) or SIGABRT (kill of itself),
#     exits from its second thread, or replaces itself (execve): exact
#     counts, the ending named, the exit status 128+N / N;
#   - a thread's counts are kept when the main thread exits under it, when
#     it dies of a fault, and when a later thread takes its CPU index,
#     with and without the memory model's batches;
#   - SIGINT to the whole process group (as ^C), SIGTERM to the tool:
#     the tool passes it on, prints the counts up to it, exits 128+N;
#   - SIGKILL to the emulator: the counts of the last OS tick, said to be
#     stale by at most one tick;
#   - SIGKILL to the tool: the emulator dies with it;
#   - cpustat / busstat after a fault: the partial last interval is marked;
# and after each run no emulator is left; runs use no file but the
# output (the request and the result are anonymous shared memory).
set -euo pipefail
hvpmu=$1
ends=$2
tmp=$(mktemp -d)
tools=
# a failed check leaves no run behind
trap 'for t in $tools; do kill -KILL "$t" 2> /dev/null || true; done; rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: endings: $*" >&2
	exit 1
}
ev=Instr_all:u,Branches:u,Instr_other:u
# count FILE EVENT: the value of EVENT in CSV output FILE
count() { awk -F, -v e="$2" '$3 == e { print $1 }' "$1"; }
# no emulator of this test is left
clean() {
	local q
	for q in "$@"; do
		! kill -0 "$q" 2> /dev/null || fail "$label: emulator $q still runs"
	done
}
# no_files TOOL EMULATOR: the run uses no file of its own (which could
# outlive it): the request comes from a descriptor, and the request and
# result are anonymous files (memfd)
no_files() {
	local f
	tr '\0' ' ' < "/proc/$2/cmdline" | grep -q 'cfg=/proc/self/fd/[0-9]* ' ||
		fail "$label: the emulator's request is not a descriptor: $(tr '\0' ' ' < "/proc/$2/cmdline")"
	for f in /proc/"$1"/fd/* /proc/"$2"/fd/*; do
		case $(readlink "$f") in
		/memfd:hvpmu-*) ;;
		*hvpmu.*|*request.json|*result.json) fail "$label: $(readlink "$f") is open" ;;
		esac
	done
}
# exact LABEL PROG WANT_RC WANT_MSG ALL BRANCHES OTHER
exact() {
	local rc=0
	label=$1
	env -i "$hvpmu" stat -x, -o "$tmp/$1.csv" -e "$ev" -- "$ends/$2" 2> "$tmp/$1.err" || rc=$?
	[ "$rc" -eq "$3" ] || { cat "$tmp/$1.err" >&2; fail "$1: exit status $rc, want $3"; }
	[ -z "$4" ] || grep -q "$4" "$tmp/$1.err" || { cat "$tmp/$1.err" >&2; fail "$1: no '$4'"; }
	[ "$(count "$tmp/$1.csv" Instr_all:u)" = "$5" ] && [ "$(count "$tmp/$1.csv" Branches:u)" = "$6" ] &&
		[ "$(count "$tmp/$1.csv" Instr_other:u)" = "$7" ] || { cat "$tmp/$1.csv" >&2; fail "$1: counts"; }
	clean
}
exact segv segv 139 'killed by signal 11' 3000002 1000000 2000002
exact abort abort 134 'killed by signal 6' 600007 200000 400007
# exit_group from the second thread: the child's work exactly (the main
# thread's last few instructions race with it: workloads/ends/thread_exit.S)
label=thread_exit
rc=0
env -i "$hvpmu" stat -x, -o "$tmp/te.csv" -e Instr_all:u,SW_prefetch:u -- "$ends/thread_exit" 2> "$tmp/te.err" || rc=$?
all=$(count "$tmp/te.csv" Instr_all:u)
[ "$rc" -eq 3 ] && [ "$(count "$tmp/te.csv" SW_prefetch:u)" = 100000 ] && [ "$all" -ge 400020 ] &&
	[ "$all" -le 400032 ] || { cat "$tmp/te.err" "$tmp/te.csv" >&2; fail "thread_exit: status $rc or counts"; }
exact exec exec 0 'replaced itself (execve)' 300009 100000 200009

# threads that end otherwise, SW_prefetch:u exact (workloads/ends/*.S):
# instruction events only; with the memory model (DC_miss_nospec), which
# runs in per-vCPU batches (docs/event-source.md "Batches"); the same with
# HVPMU_BATCH=0
# threads LABEL PROGRAM STATUS PREFETCHES
threads() {
	local mode more vars rc
	for mode in "" ",DC_miss_nospec" ",DC_miss_nospec HVPMU_BATCH=0"; do
		read -r more vars <<< "$mode"
		label="$1${more:+ with ${more#,}}${vars:+ $vars}"
		rc=0
		env -i $vars "$hvpmu" stat -x, -o "$tmp/$1.csv" -e "Instr_all:u,SW_prefetch:u$more" -- "$ends/$2" \
			2> "$tmp/$1.err" || rc=$?
		[ "$rc" -eq "$3" ] || { cat "$tmp/$1.err" >&2; fail "$label: exit status $rc, want $3"; }
		[ "$(count "$tmp/$1.csv" SW_prefetch:u)" = "$4" ] ||
			{ cat "$tmp/$1.csv" >&2; fail "$label: SW_prefetch:u is not $4"; }
	done
}
threads main_exit main_exit 0 1001      # exit_group while the child runs
threads thread_segv thread_segv 139 1001 # the child dies before its first full batch
threads thread_reuse thread_reuse 0 2000 # the second thread has the first one's CPU index

# tied LABEL CSV: spin's counts, Instr_all = 3n, Branches = n, Instr_other = 2n, n > 0
tied() {
	local all br oth
	all=$(count "$2" Instr_all:u)
	br=$(count "$2" Branches:u)
	oth=$(count "$2" Instr_other:u)
	[ -n "$br" ] && [ "$br" -gt 0 ] && [ "$all" -eq $((3 * br)) ] && [ "$oth" -eq $((2 * br)) ] ||
		{ cat "$2" >&2; fail "$1: spin's counts are not 3n, n, 2n"; }
}
# the emulator child of the tool `$1`, once it runs
emulator_of() {
	local q=
	for _ in $(seq 100); do
		q=$(pgrep -P "$1" || true)
		[ -n "$q" ] && break
		sleep 0.05
	done
	[ -n "$q" ] || fail "$label: no emulator under the tool"
	echo "$q"
}
# ran_for PID CS: wait until process PID has used CS centiseconds of CPU
# (the program runs, whatever the load of the machine)
ran_for() {
	local t
	for _ in $(seq 600); do
		t=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2> /dev/null || echo 0)
		[ "$t" -ge "$2" ] && return 0
		sleep 0.05
	done
	fail "$label: the emulator does not run"
}
# watchdog PID: a run that does not end within 60 s is killed (and fails)
watchdog() { (sleep 60; kill -KILL "$1") > /dev/null 2>&1 & echo $!; }

# started: the tool just put in the background ($!) is `tool`, watched
# (`dog`), killed on exit; `q` is its emulator
started() {
	tool=$!
	tools="$tools $tool"
	dog=$(watchdog "$tool")
	q=$(emulator_of "$tool")
}

# finished STATUS PATTERN: the tool started by `started` exits with STATUS
# and says PATTERN in $tmp/$label.err, its counts in $tmp/$label.csv are
# tied to the end, and nothing is left behind
finished() {
	rc=0; wait "$tool" || rc=$?
	kill "$dog" 2> /dev/null || true
	[ "$rc" -eq "$1" ] && grep -q "$2" "$tmp/$label.err" || { cat "$tmp/$label.err" >&2; fail "$label: status $rc"; }
	tied "$label" "$tmp/$label.csv"
	clean "$q"
}

# ^C: SIGINT to the whole process group (setsid: the tool leads a new one)
label=sigint
setsid env --default-signal=INT "$hvpmu" stat -x, -o "$tmp/$label.csv" -e "$ev" -- "$ends/spin" 2> "$tmp/$label.err" &
started
ran_for "$q" 20
no_files "$tool" "$q"
kill -INT -- "-$tool"
finished 130 'interrupted by signal 2'

# SIGTERM to the tool alone: passed on to the program
label=sigterm
"$hvpmu" stat -x, -o "$tmp/$label.csv" -e "$ev" -- "$ends/spin" 2> "$tmp/$label.err" &
started
ran_for "$q" 20
no_files "$tool" "$q"
kill -TERM "$tool"
finished 143 'killed by signal 15'

# SIGKILL to the emulator: no last word; the last OS tick's counts, said stale
label=kill_emulator
"$hvpmu" stat -x, -o "$tmp/$label.csv" -e "$ev" -- "$ends/spin" 2> "$tmp/$label.err" &
started
ran_for "$q" 50 # several OS ticks published
kill -KILL "$q"
# T4: one OS tick is 4 ms of 2.85 GHz (DEFAULT_ROTATE_MS, docs/cli.md)
finished 137 'counts as of the last OS tick.*up to 11400000 cycles more'

# SIGKILL to the tool: its emulator dies too (parent-death signal)
label=kill_tool
"$hvpmu" stat -e "$ev" -- "$ends/spin" 2> /dev/null &
tool=$!
tools="$tools $tool"
q=$(emulator_of "$tool")
ran_for "$q" 10
kill -KILL "$tool"
wait "$tool" 2> /dev/null || true
for _ in $(seq 100); do
	kill -0 "$q" 2> /dev/null || break
	sleep 0.05
done
clean "$q"

# cpustat and busstat after a fault: rows up to it, the last one marked
label=cpustat
rc=0
env -i "$hvpmu" cpustat -n -c Instr_all 0.0002 -- "$ends/segv" 2> "$tmp/cs" || rc=$?
[ "$rc" -eq 139 ] || { cat "$tmp/cs" >&2; fail "cpustat: status $rc"; }
[ "$(grep -c ' tick ' "$tmp/cs")" -ge 2 ] && [ "$(grep ' 0 ' "$tmp/cs" | tail -1 | awk '{ print $3 }')" = end ] ||
	{ cat "$tmp/cs" >&2; fail "cpustat: want tick rows, then the partial one marked 'end'"; }
[ "$(awk '$3 == "tick" || $3 == "end" { s += $4 } END { print s }' "$tmp/cs")" = 3000002 ] ||
	{ cat "$tmp/cs" >&2; fail "cpustat: the rows do not add up to the program's count"; }
clean
label=busstat
rc=0
env -i "$hvpmu" busstat -n -w mcu0,pic0=mem_reads 0.0002 -- "$ends/segv" 2> "$tmp/bs" || rc=$?
[ "$rc" -eq 139 ] && [ "$(grep -c 'mcu0' "$tmp/bs")" -ge 2 ] && tail -1 "$tmp/bs" | grep -q '# partial' ||
	{ cat "$tmp/bs" >&2; fail "busstat: status $rc or rows"; }
clean
echo "endings: ok"
