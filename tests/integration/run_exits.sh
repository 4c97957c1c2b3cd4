#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Failures exit non-zero with one line (issue 28, docs/cli.md "Exit
# status"): a write error of any tool's output (a -o file, stdout,
# stderr), a program that is not executable (126, before the emulator
# starts; 127 not found), the service of `stat -f` killed under the run
# (no counts), --per-process past its 256 rows, and cpustat past its sample limit (one line; the total row
# still the run's exact count; busstat: the line).
# usage: run_exits.sh HVPMU MICRO_DIR MINIGZIP DASH TEXT_INPUT [MIPS64_LOOP]
set -euo pipefail
hvpmu=$1 micro=$2 minigzip=$3 dash=$4 text=$5 mips_loop=${6:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: exits: $*" >&2; exit 1; }
# run NAME CMD...: $rc, $tmp/out, $tmp/err
run() {
	local name=$1; shift
	set +e; "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; set -e
	echo "$name: exit $rc" >&2
}
# one_line NAME REGEX: stderr is that one line
one_line() {
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; fail "$1: want a one-line error"; }
	grep -Eq "$2" "$tmp/err" || { cat "$tmp/err" >&2; fail "$1: want '$2'"; }
}

# ---- write errors: exit 1 and one line naming what could not be written
run "stat -o /dev/full" env -i "$hvpmu" stat -o /dev/full -- "$micro/loop_int"
[ "$rc" -eq 1 ] || fail "stat -o /dev/full: exit $rc, want 1"
one_line "stat -o /dev/full" '^hvpmu stat: writing /dev/full: No space left on device$'
set +e; env -i "$hvpmu" list > /dev/full 2> "$tmp/err"; rc=$?; set -e
[ "$rc" -eq 1 ] || fail "list > /dev/full: exit $rc, want 1"
one_line "list > /dev/full" '^hvpmu list: writing standard output: No space left on device$'
set +e; env -i "$hvpmu" gpci -r 0x10 > /dev/full 2> "$tmp/err"; rc=$?; set -e
[ "$rc" -ne 0 ] || fail "gpci > /dev/full: exit 0"
one_line "gpci > /dev/full" '^hvpmu gpci: writing standard output: No space left on device$'
if [ -x "$mips_loop" ]; then
	run "mdperf -o /dev/full" env -i "$hvpmu" mdperf -o /dev/full -- "$mips_loop"
	[ "$rc" -eq 1 ] || fail "mdperf -o /dev/full: exit $rc, want 1"
	one_line "mdperf -o /dev/full" '^hvpmu mdperf: writing /dev/full: No space left on device$'
fi
# output on stderr (stat's table, cpustat's and busstat's rows, mmustat):
# a failing stderr cannot be told on stderr, the status says it
for t in "stat -- $micro/loop_int" "cpustat -c Instr_all -- $micro/loop_int" \
	"busstat -w mcu0,pic0=mem_reads -- $micro/loop_int" "mmustat -p t1 -- $micro/loop_int"; do
	set +e; env -i "$hvpmu" $t 2> /dev/full; rc=$?; set -e
	[ "$rc" -ne 0 ] || fail "hvpmu $t 2> /dev/full: exit 0"
	set +e; env -i "$hvpmu" $t 2> /dev/null; rc=$?; set -e
	[ "$rc" -eq 0 ] || fail "hvpmu $t 2> /dev/null: exit $rc, want 0"
done
# -o on a full file system (a tmpfs of 4 KB, filled, in a mount namespace
# of its own: root only)
if [ "$(id -u)" -eq 0 ] && unshare -m true 2> /dev/null; then
	mkdir "$tmp/full"
	set +e
	unshare -m "$BASH" -c 'mount -t tmpfs -o size=4k none "$1" || exit 99
		dd if=/dev/zero of="$1/fill" bs=1k count=64 2> /dev/null
		env -i "$2" stat -o "$1/out" -- "$3/loop_int"' - "$tmp/full" "$hvpmu" "$micro" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	set -e
	if [ "$rc" -ne 99 ]; then
		[ "$rc" -eq 1 ] || { cat "$tmp/err" >&2; fail "-o on a full file system: exit $rc, want 1"; }
		one_line "-o on a full file system" "^hvpmu stat: writing $tmp/full/out: No space left on device\$"
	fi
fi
# a good -o file still exits 0
run "stat -o FILE" env -i "$hvpmu" stat -x, -o "$tmp/o" -e Instr_all -- "$micro/loop_int"
[ "$rc" -eq 0 ] || fail "stat -o FILE: exit $rc"
grep -q '^30006,,Instr_all,' "$tmp/o" || { cat "$tmp/o" >&2; fail "stat -o FILE counts"; }

# ---- a program that cannot be run: 126 (not executable), 127 (not found),
# before any emulator: one line, no table
cp "$micro/loop_int" "$tmp/noexec"
chmod a-x "$tmp/noexec"
run "not executable" env -i "$hvpmu" stat -- "$tmp/noexec"
[ "$rc" -eq 126 ] || fail "not executable: exit $rc, want 126"
one_line "not executable" "^hvpmu stat: $tmp/noexec: Permission denied$"
run "not executable on PATH" env -i PATH="$tmp" "$hvpmu" stat -- noexec
[ "$rc" -eq 126 ] || fail "not executable on PATH: exit $rc, want 126"
one_line "not executable on PATH" '^hvpmu stat: noexec: Permission denied$'
run "a directory" env -i "$hvpmu" cpustat -c Instr_all -- "$tmp"
[ "$rc" -eq 126 ] || fail "a directory: exit $rc, want 126"
one_line "a directory" '^hvpmu cpustat: .*: Permission denied$'
run "not found" env -i "$hvpmu" stat -- "$tmp/nonexistent"
[ "$rc" -eq 127 ] || fail "not found: exit $rc, want 127"
one_line "not found" 'No such file or directory$'
run "not found on PATH" env -i PATH="$tmp" "$hvpmu" stat -- nonexistent
[ "$rc" -eq 127 ] || fail "not found on PATH: exit $rc, want 127"

# ---- stat -f whose service is killed: one line, no counts, non-zero
if [ -x "$dash" ]; then
	mkfifo "$tmp/fifo"
	env -i "$hvpmu" stat -f -x, -o "$tmp/svc" -- "$dash" -c 'read x; echo got $x' \
		< "$tmp/fifo" > "$tmp/out" 2> "$tmp/err" &
	tool=$!
	exec 3> "$tmp/fifo"
	svc=
	for _ in $(seq 100); do # the service: the tool's child that is not the emulator
		for c in $(pgrep -P "$tool" || true); do
			[ "$(cat "/proc/$c/comm" 2>/dev/null)" = hvpmu ] && svc=$c
		done
		[ -n "$svc" ] && break
		sleep 0.1
	done
	[ -n "$svc" ] || { exec 3>&-; fail "service: no service process under the tool"; }
	sleep 0.5 # the program has attached
	kill -KILL "$svc"
	echo hello >&3
	exec 3>&-
	set +e; wait "$tool"; rc=$?; set -e
	echo "service killed: exit $rc" >&2
	[ "$rc" -ne 0 ] || fail "service killed: exit 0"
	one_line "service killed" '^hvpmu stat: the service counting the processes was killed by signal 9 \(.*\): no counts$'
	[ ! -s "$tmp/svc" ] || { cat "$tmp/svc" >&2; fail "service killed: counts printed"; }

	# --per-process past its rows (STAT_MAX_PROCS = 256 images): one line,
	# exit 1, the 256 rows; without --per-process the same run exits 0
	loop='i=0; while [ $i -lt 270 ]; do (:); i=$((i+1)); done'
	run "per-process rows" env -i "$hvpmu" stat --per-process -x, -o "$tmp/pp" -e Instr_all:u -- "$dash" -c "$loop"
	[ "$rc" = 1 ] || fail "per-process rows: exit $rc"
	one_line "per-process rows" '^hvpmu stat: 15 process images past the first 256 have no --per-process row \(their counts are in the totals\): the table is incomplete$'
	[ "$(grep -c ',Instr_all:u,' "$tmp/pp")" = 256 ] || fail "per-process rows: not 256 rows"
	run "per-process totals" env -i "$hvpmu" stat -f -x, -o "$tmp/pp" -e Instr_all:u -- "$dash" -c "$loop"
	[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] || { cat "$tmp/err" >&2; fail "stat -f of 271 images: exit $rc"; }
else
	echo "exits: no sparc64 dash: the service test is skipped" >&2
fi

# ---- cpustat's sample limit: one line when reached; the total row the run's
if [ -x "$minigzip" ] && [ -f "$text" ]; then
	head -c 100000 "$text" > "$tmp/in"
	(cd "$tmp" && env -i "$hvpmu" stat -x, -e Instr_all:u -- "$minigzip" -c in > /dev/null 2> "$tmp/stat")
	want=$(awk -F, '$3 == "Instr_all:u" {print $1}' "$tmp/stat")
	[ -n "$want" ] || { cat "$tmp/stat" >&2; fail "stat of minigzip"; }
	(cd "$tmp" && env -i "$hvpmu" cpustat -c Instr_all 1e-12 -- "$minigzip" -c in > /dev/null 2> "$tmp/cs") ||
		fail "cpustat 1e-12: exit $?"
	[ "$(grep -c 'sample limit' "$tmp/cs")" -eq 1 ] || { tail "$tmp/cs" >&2; fail "cpustat 1e-12: no limit line"; }
	grep -Eq '^hvpmu cpustat: the sample limit \(100000 samples\) was reached at [0-9.]+ s of modeled time: no rows after it; the totals are the whole run.s$' "$tmp/cs" ||
		{ tail "$tmp/cs" >&2; fail "cpustat 1e-12: limit line"; }
	got=$(awk '$3 == "total" {print $4}' "$tmp/cs")
	[ "$got" = "$want" ] || { tail -3 "$tmp/cs" >&2; fail "cpustat 1e-12: total $got, stat counted $want"; }
	# busstat keeps the same samples: the line, then nothing more
	(cd "$tmp" && env -i "$hvpmu" busstat -w mcu0,pic0=mem_reads 1e-12 -- "$minigzip" -c in > /dev/null 2> "$tmp/bs") ||
		fail "busstat 1e-12: exit $?"
	tail -1 "$tmp/bs" | grep -Eq '^hvpmu busstat: the sample limit \(100000 samples\) was reached at [0-9.]+ s of modeled time: no rows after it$' ||
		{ tail -3 "$tmp/bs" >&2; fail "busstat 1e-12: no limit line"; }
	# below the limit: no line, and the total is the rows' sum as before
	env -i "$hvpmu" cpustat -c Instr_all 1e-9 -- "$micro/loop_int" 2> "$tmp/cs2" || fail "cpustat 1e-9"
	! grep -q 'sample limit' "$tmp/cs2" || fail "cpustat 1e-9: a limit line below the limit"
	awk '$3 == "tick" {s += $4} $3 == "total" {t = $4} END {exit !(s == t && t == 30006)}' "$tmp/cs2" ||
		{ tail -3 "$tmp/cs2" >&2; fail "cpustat 1e-9: total is not the rows' sum 30006"; }
else
	echo "exits: no minigzip: the sample-limit test is skipped" >&2
fi
echo "exits: ok"
