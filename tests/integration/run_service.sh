#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_service.sh: a program's process tree counted on one machine through
# the service (hvpmu stat -f / --per-process, docs/service.md).
#
# usage: run_service.sh HVPMU MICRO_DIR ENDS_DIR [MINIGZIP DASH TEXT]
#
#   1. every micro-benchmark gives the same counts attached to the service
#      as in its own emulator (instruction classes, and with the memory
#      model's DC_miss_nospec);
#   2. threads that end otherwise (workloads/ends main_exit, thread_segv,
#      thread_reuse) keep their exact SW_prefetch, with and without the
#      memory model, and the exit status passes through;
#   3. fork.S: one row per process; the child's loads are exactly its N,
#      the parent's what its own emulator counts; the rows add up to the
#      totals; an execve of a host program (exec.S) ends the counts at
#      the call with the program's status;
#   4. with MINIGZIP, DASH (Debian's dash for sparc64) and TEXT: dash runs
#      minigzip to compress TEXT into a file and to decompress it; each
#      minigzip's row equals the same program run alone with the same
#      environment and input, exactly, for every instruction class; then
#      the pipeline `minigzip | minigzip -d` gives TEXT back, with a row
#      for each minigzip; 5. three minigzips at once, one of whose
#      emulators is killed (SIGKILL) at a random point: the others count
#      exactly what one alone counts; 6. block counts give the same output
#      as recording every block.  (dash's own counts vary with when SIGCHLD
#      interrupts its wait4: not compared across runs.)  Without -f the
#      pipeline runs too, dash alone counted, with a note on stderr.
set -euo pipefail
hvpmu=$1
micro=$2
ends=$3
gz=${4:-}
dash=${5:-}
text=${6:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hvpmu-service.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: service: $*" >&2
	exit 1
}
insn=Instr_all:u,Branches:u,Instr_ld:u,Instr_st:u
# counts FILE: "EVENT=VALUE ..." of a CSV file (the totals)
counts() { awk -F, '!/^#/ && NF > 3 { printf "%s=%s ", $3, $1 }' "$1"; }
# rows FILE: "COMM-PID EVENT VALUE" lines of a --per-process CSV file
rows() { awk -F, '!/^#/ && NF > 4 { print $1, $4, $2 }' "$1"; }
# row_value FILE COMM N EVENT: the value of EVENT in the Nth row block of COMM
row_value() {
	awk -F, -v c="$2" -v n="$3" -v e="$4" '!/^#/ && NF > 4 {
		split($1, a, "-"); who = $1; sub(/-[0-9]+$/, "", who)
		if (who == c && !(($1) in seen)) { seen[$1] = ++k }
		if (who == c && seen[$1] == n && $4 == e) { print $2; exit } }' "$1"
}
# sums_match FILE_ROWS FILE_TOTALS EVENTS: every event's rows add up to its total
sums_match() {
	local ev r t
	for ev in ${3//,/ }; do
		r=$(awk -F, -v e="$ev" '!/^#/ && NF > 4 && $4 == e { s += $2 } END { print s + 0 }' "$1")
		t=$(awk -F, -v e="$ev" '!/^#/ && NF > 3 && $3 == e { print $1 }' "$2")
		[ "$r" = "$t" ] || fail "$4: $ev: the rows add up to $r, the total is $t"
	done
}

# 1. attached = in its own emulator
for p in loop_int branches syscalls mixed windows atomics fgu overflow annul; do
	[ -x "$micro/$p" ] || continue
	for ev in "$insn" "Instr_all:u,Instr_ld:u,DC_miss_nospec"; do
		env -i "$hvpmu" stat -x, -o "$tmp/a.csv" -e "$ev" -- "$micro/$p" > /dev/null 2>&1 || fail "$p: in-process run"
		env -i "$hvpmu" stat -f -x, -o "$tmp/b.csv" -e "$ev" -- "$micro/$p" > /dev/null 2>&1 ||
			fail "$p: attached run"
		[ "$(counts "$tmp/a.csv")" = "$(counts "$tmp/b.csv")" ] ||
			fail "$p ($ev): in-process $(counts "$tmp/a.csv") attached $(counts "$tmp/b.csv")"
	done
done
echo "service: micro-benchmarks attached = in-process"

# 2. threads' ends
for t in "main_exit 0 1001" "thread_segv 139 1001" "thread_reuse 0 2000"; do
	read -r prog status pf <<< "$t"
	for more in "" ",DC_miss_nospec"; do
		rc=0
		env -i "$hvpmu" stat -f -x, -o "$tmp/t.csv" -e "SW_prefetch:u$more" -- "$ends/$prog" 2> "$tmp/t.err" || rc=$?
		[ "$rc" = "$status" ] || { cat "$tmp/t.err" >&2; fail "$prog$more: exit status $rc, want $status"; }
		got=$(awk -F, '$3 == "SW_prefetch:u" { print $1 }' "$tmp/t.csv")
		[ "$got" = "$pf" ] || fail "$prog$more: SW_prefetch:u $got, want $pf"
	done
done
echo "service: threads' ends exact"

# 2b. two threads of one process handing a line to each other (share_pingpong,
# N = 500 turns each: 999 cache-to-cache transfers, workloads/mem/expected.txt)
# attached: the image's threads run in turns (docs/event-source.md "Turns"),
# each turn's records published with its ticket before the next turn, and
# the service runs them in ticket order, to the image's end (docs/service.md
# "Time"), so the counts are exactly those of one emulator, on every run
if [ -x "$micro/../mem/share_pingpong" ]; then
	md=$(dirname "$0")/../../workloads/mem/nokernel.json
	for f in "" -f -f -f; do
		env -i "$hvpmu" stat $f --placement spread --md "$md" -x, -o "$tmp/sp$f.csv" \
			-e St_L2_local_C2C,DC_snoop_invalid,DC_miss -- "$micro/../mem/share_pingpong" > /dev/null 2>&1 ||
			fail "share_pingpong $f"
		c2c=$(awk -F, '$3 == "St_L2_local_C2C" { print $1 }' "$tmp/sp$f.csv")
		[ "$c2c" = 999 ] || fail "share_pingpong $f: St_L2_local_C2C $c2c, want 999"
		cmp -s "$tmp/sp.csv" "$tmp/sp$f.csv" || { diff "$tmp/sp.csv" "$tmp/sp$f.csv" >&2 || true; fail "share_pingpong attached differs from one emulator"; }
	done
	echo "service: two threads' ping-pong attached: 999 of 999 transfers, = one emulator, three runs"
fi

# 3. fork: rows per process; exec of a host program
env -i "$hvpmu" stat -i -x, -o "$tmp/f1.csv" -e "$insn" -- "$micro/fork" > /dev/null 2>&1 || fail "fork: in-process run"
env -i "$hvpmu" stat --per-process -x, -o "$tmp/f2.csv" -e "$insn" -- "$micro/fork" > /dev/null 2>&1 ||
	fail "fork: per-process run"
env -i "$hvpmu" stat -f -x, -o "$tmp/f3.csv" -e "$insn" -- "$micro/fork" > /dev/null 2>&1 || fail "fork: -f run"
[ "$(rows "$tmp/f2.csv" | awk '{ print $1 }' | sort -u | wc -l)" = 2 ] || fail "fork: not two rows: $(rows "$tmp/f2.csv")"
parent=$(row_value "$tmp/f2.csv" fork 1 Instr_ld:u)
child=$(row_value "$tmp/f2.csv" fork 2 Instr_ld:u)
[ "$child" = 30000 ] || fail "fork: the child's Instr_ld:u is $child, want N = 30000"
[ "$parent" = "$(awk -F, '$3 == "Instr_ld:u" { print $1 }' "$tmp/f1.csv")" ] ||
	fail "fork: the parent's Instr_ld:u $parent differs from its own emulator's"
sums_match "$tmp/f2.csv" "$tmp/f3.csv" "$insn" fork
rc=0
env -i "$hvpmu" stat -f -x, -o "$tmp/e.csv" -e Instr_all:u,Branches:u -- "$ends/exec" > /dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] && [ "$(counts "$tmp/e.csv")" = "Instr_all:u=300009 Branches:u=100000 " ] ||
	fail "exec of a host program: status $rc, counts $(counts "$tmp/e.csv")"
echo "service: fork rows exact, rows add up; exec of a host program"

# 4. dash and minigzip
if [ -n "$gz" ] && [ -x "$gz" ] && [ -n "$dash" ] && [ -x "$dash" ] && [ -r "$text" ]; then
	work=$tmp/w
	mkdir "$work"
	cp "$gz" "$work/minigzip"
	head -c 200000 "$text" > "$work/text"
	cd "$work"
	# dash exports PWD to its children: the standalone runs get the same
	env -i "$hvpmu" stat --per-process -x, -o "$tmp/d1.csv" -e "$insn" -- "$dash" -c \
		'./minigzip < text > t.gz; ./minigzip -d < t.gz > out' || fail "dash: per-process run"
	cmp -s text out || fail "dash: minigzip -d did not give the text back"
	env -i PWD="$work" "$hvpmu" stat -x, -o "$tmp/c.csv" -e "$insn" -- ./minigzip < text > t2.gz ||
		fail "minigzip alone"
	env -i PWD="$work" "$hvpmu" stat -x, -o "$tmp/u.csv" -e "$insn" -- ./minigzip -d < t.gz > out2 ||
		fail "minigzip -d alone"
	for ev in ${insn//,/ }; do
		a=$(row_value "$tmp/d1.csv" minigzip 1 "$ev")
		b=$(awk -F, -v e="$ev" '$3 == e { print $1 }' "$tmp/c.csv")
		[ -n "$a" ] && [ "$a" = "$b" ] || fail "dash: minigzip's $ev in the tree $a, alone $b"
		a=$(row_value "$tmp/d1.csv" minigzip 2 "$ev")
		b=$(awk -F, -v e="$ev" '$3 == e { print $1 }' "$tmp/u.csv")
		[ -n "$a" ] && [ "$a" = "$b" ] || fail "dash: minigzip -d's $ev in the tree $a, alone $b"
	done
	env -i "$hvpmu" stat --per-process -x, -o "$tmp/p1.csv" -e "$insn" -- "$dash" -c \
		'./minigzip < text | ./minigzip -d > out3' || fail "dash: pipeline"
	cmp -s text out3 || fail "dash: the pipeline did not give the text back"
	[ "$(rows "$tmp/p1.csv" | awk '$1 ~ /^minigzip-/ { print $1 }' | sort -u | wc -l)" = 2 ] ||
		fail "dash: the pipeline has not two minigzip rows: $(rows "$tmp/p1.csv" | awk '{ print $1 }' | sort -u)"
	# stat's default counts the tree as perf's inherit does (issue 32):
	# dash imports fork, so the default run is -f's, count for count.
	# The commands run one after the other: a pipeline's two processes end
	# in the host's order, and how dash reaps them follows it (processes
	# are not in turns: docs/event-source.md "What is left of issue 27")
	env -i "$hvpmu" stat -x, -o "$tmp/d0.csv" -e "$insn" -- "$dash" -c \
		'./minigzip < text > t5.gz; ./minigzip -d < t5.gz > out5' || fail "dash: default run"
	env -i "$hvpmu" stat -f -x, -o "$tmp/d1.csv" -e "$insn" -- "$dash" -c \
		'./minigzip < text > t6.gz; ./minigzip -d < t6.gz > out6' || fail "dash: -f run"
	cmp -s text out5 && cmp -s text out6 || fail "dash: default and -f runs did not give the text back"
	[ -n "$(counts "$tmp/d0.csv")" ] && [ "$(counts "$tmp/d0.csv")" = "$(counts "$tmp/d1.csv")" ] ||
		fail "dash: default counts $(counts "$tmp/d0.csv") differ from -f's $(counts "$tmp/d1.csv")"
	# minigzip imports no fork: the default run is in one emulator, and
	# its counts are -f's all the same
	env -i "$hvpmu" stat -x, -o "$tmp/m0.csv" -e "$insn" -- ./minigzip < text > /dev/null || fail "minigzip: default run"
	env -i "$hvpmu" stat -f -x, -o "$tmp/m1.csv" -e "$insn" -- ./minigzip < text > /dev/null || fail "minigzip: -f run"
	[ -n "$(counts "$tmp/m0.csv")" ] && [ "$(counts "$tmp/m0.csv")" = "$(counts "$tmp/m1.csv")" ] ||
		fail "minigzip: default counts $(counts "$tmp/m0.csv") differ from -f's $(counts "$tmp/m1.csv")"
	# -i (perf's --no-inherit), in one emulator: dash is counted, the
	# processes it starts run uncounted (their execve follows under the
	# emulator), and the tool says so
	env -i "$hvpmu" stat -i -x, -o "$tmp/q.csv" -e "$insn" -- "$dash" -c './minigzip < text | ./minigzip -d > out4' \
		2> "$tmp/q.err" || { cat "$tmp/q.err" >&2; fail "dash in one emulator"; }
	cmp -s text out4 || fail "dash in one emulator: the pipeline did not give the text back"
	grep -q 'started 2 processes, not counted' "$tmp/q.err" || { cat "$tmp/q.err" >&2; fail "dash in one emulator: no note"; }
	echo "service: dash + minigzip: rows = runs alone, exactly; the pipeline, also in one emulator"

	# 5. kills: three minigzips at once; one's emulator gets SIGKILL at a
	# random point (the first to start, found by the service's name,
	# which holds the tool's pid); the run ends, and the other two count
	# exactly what a minigzip alone counts (bounded: 3 rounds)
	want=$(awk -F, '$3 == "Instr_all:u" { print $1 }' "$tmp/c.csv")
	for round in 1 2 3; do
		rm -f a.gz b.gz c.gz
		env -i "$hvpmu" stat --per-process -x, -o "$tmp/k.csv" -e Instr_all:u -- "$dash" -c \
			'./minigzip < text > a.gz & ./minigzip < text > b.gz & ./minigzip < text > c.gz & wait' &
		tool=$!
		victim=
		i=0
		while [ -z "$victim" ] && [ $i -lt 300 ]; do
			victim=$(pgrep -f "attach=hvpmu-$tool-.*comm=minigzip" | head -1 || true)
			[ -n "$victim" ] || sleep 0.01
			i=$((i + 1))
		done
		sleep "0.$((RANDOM % 30))"
		[ -z "$victim" ] || kill -KILL "$victim" 2> /dev/null || true
		wait "$tool" || fail "kill round $round: the tool failed"
		[ -n "$victim" ] || fail "kill round $round: no minigzip emulator found to kill"
		n=$(awk -F, -v w="$want" '$1 ~ /^minigzip-/ && $4 == "Instr_all:u" && $2 == w' "$tmp/k.csv" | wc -l)
		[ "$n" -ge 2 ] || { cat "$tmp/k.csv" >&2; fail "kill round $round: $n minigzips counted $want, want 2 or 3"; }
	done
	echo "service: a process killed at random points; the others exact"
fi

# 6. block counts (docs/service.md "Block counts"): with instruction
# classes only the guest counts blocks under the service's grants;
# recording every block instead (HVPMU_REMOTE_COUNTS=0) gives the same
# output byte for byte, with the PICs started 4096 below the wrap (every
# overflow trap's tpc in the log) and seven events on four PICs
# (multiplexed at the OS tick, every 100,000 cycles; for minigzip also at
# the default period, where the guest counts most blocks itself); and with
# Br_taken, whose outcomes the guest decides.  The service's own tally
# (HVPMU_REMOTE_STATS) says which way each run went.
bc_ev=Instr_all,Instr_ld,Instr_st,Branches,Instr_FGU_crypto,Instr_other,Instr_all:u
# bc_run MODE OUT INPUT PROGRAM [ARGS]: OUT.csv, OUT.log, and the executions
# the guest counted itself in OUT.n
bc_run() {
	local mode=$1 out=$2 in=$3
	shift 3
	env -i PWD="$PWD" HVPMU_REMOTE_COUNTS="$mode" HVPMU_REMOTE_STATS=1 "$hvpmu" stat -f -x, -o "$out.csv" \
		--overflow-log "$out.log" $bc_opts -e "$bc_ev" -- "$@" \
		< "$in" > /dev/null 2> "$out.err" || { cat "$out.err" >&2; fail "block counts: run of $* (counts $mode)"; }
	sed -n 's/^hvpmu service: .* recorded, \([0-9]*\) executions counted;.*$/\1/p' "$out.err" > "$out.n"
	[ -s "$out.n" ] || { cat "$out.err" >&2; fail "block counts: no tally from the service ($*)"; }
}
# bc_same NAME INPUT PROGRAM [ARGS]: both ways, the same output (with
# bc_counts_only set: the same counts, the times aside)
bc_counts_only=
bc_same() {
	local name=$1
	shift
	bc_run 1 "$tmp/bc1" "$@"
	bc_run 0 "$tmp/bc0" "$@"
	if [ -n "$bc_counts_only" ]; then
		cut -d, -f1,3 "$tmp/bc1.csv" > "$tmp/bc1.c"
		cut -d, -f1,3 "$tmp/bc0.csv" > "$tmp/bc0.c"
		cmp -s "$tmp/bc1.c" "$tmp/bc0.c" || { diff "$tmp/bc1.c" "$tmp/bc0.c" >&2; fail "block counts: $name: counts differ"; }
	else
		cmp -s "$tmp/bc1.csv" "$tmp/bc0.csv" ||
			{ diff "$tmp/bc1.csv" "$tmp/bc0.csv" >&2; fail "block counts: $name: counts differ"; }
	fi
	cmp -s "$tmp/bc1.log" "$tmp/bc0.log" || fail "block counts: $name: overflow logs differ"
	[ "$(cat "$tmp/bc0.n")" = 0 ] || fail "block counts: $name: counted $(cat "$tmp/bc0.n") with HVPMU_REMOTE_COUNTS=0"
	bc_traps=$((bc_traps + $(wc -l < "$tmp/bc1.log")))
}
bc_traps=0
bc_opts="--pic-init 0xfffff000 --rotate-cycles 100000"
for p in loop_int syscalls mixed windows annul branches; do
	[ -x "$micro/$p" ] || continue
	bc_same "$p" /dev/null "$micro/$p" # (short: mostly recorded before the first grant comes)
	bc_ev=Br_taken,Instr_all,Branches,Instr_ld
	bc_same "$p, Br_taken" /dev/null "$micro/$p"
	bc_ev=Instr_all,Instr_ld,Instr_st,Branches,Instr_FGU_crypto,Instr_other,Instr_all:u
done
# fork: the parent's wait4 returns at the machine's time, which is how far
# the service has run the child then (docs/service.md "Time"): the host's
# timing moves the ticks and the enabled time, so no multiplexing here
# (four events, four PICs) and the counts alone compared
bc_ev=Instr_all,Instr_ld,Instr_st,Instr_all:u
bc_counts_only=1
[ ! -x "$micro/fork" ] || bc_same fork /dev/null "$micro/fork"
bc_counts_only=
bc_ev=Instr_all,Instr_ld,Instr_st,Branches,Instr_FGU_crypto,Instr_other,Instr_all:u
if [ -n "$gz" ] && [ -x "$gz" ] && [ -r "$text" ]; then
	head -c 200000 "$text" > "$tmp/bc.text"
	bc_same minigzip "$tmp/bc.text" "$gz"
	# (the OS tick's default period: most blocks counted by the guest)
	bc_opts=
	bc_same "minigzip, default rotation" "$tmp/bc.text" "$gz"
	[ "$(cat "$tmp/bc1.n")" -gt 1000000 ] || fail "block counts: minigzip counted only $(cat "$tmp/bc1.n") itself"
	# taken branches: the guest decides the conditional CTIs' outcomes
	bc_ev=Instr_all,Instr_ld,Br_taken,Branches,Instr_st,Instr_other,Br_taken:u
	bc_same "minigzip, Br_taken" "$tmp/bc.text" "$gz"
	[ "$(cat "$tmp/bc1.n")" -gt 1000000 ] || fail "block counts: minigzip (Br_taken) counted only $(cat "$tmp/bc1.n")"
	bc_opts="--pic-init 0xfffff000 --rotate-cycles 100000"
	bc_same "minigzip, Br_taken near the wrap" "$tmp/bc.text" "$gz"
fi
[ "$bc_traps" -gt 0 ] || fail "block counts: no overflow trap to compare"
echo "service: block counts = every block recorded ($bc_traps overflow traps compared)"
echo "service: passed"
