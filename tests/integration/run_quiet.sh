#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# "Totals only" (docs/event-source.md): a plain `hvpmu stat` of
# instruction events runs most blocks without a callback and syncs the
# machine at coarser points; what it prints must be byte for byte what
# the exact per-block accounting (HVPMU_QUIET=0) prints -- counts,
# enabled and running times -- with the OS tick every few thousand cycles
# (each tick then lands at a different block), on T4 and T1, through
# register-window spills and fills (restarts inside a block), system
# calls, a program whose code shares pages with data it writes (dash's
# writable PLT: self-modifying-code restarts), a run that leaves the
# mode part way (a counter near its wrap) and one past a real wrap (out
# of the mode before it, back after it).  With Br_taken too: taken
# conditional CTIs counted without a callback of their own, through the
# same runs and the branches to pc+8 decided from registers
# (workloads/micro/pc8, pc8_edge, annul).  HVPMU_QUIET_STATS=1 proves
# the mode ran (or did not, where the run shows more than its totals).
# On POWER (no CPU counter driver: the model's counts by class, taken
# conditional branches among them; conditional returns decided from CR
# and CTR) with minigzip for ppc64 and workloads/ppc64/loop, when given.
# With several guest threads (workloads/micro/threads, xz -T4): each
# count within a small tolerance (the interleaving is the host's).
# On the SGI Origin (R10000 counters) with xz for mips64 (-T1: one guest
# thread; -T4) and workloads/mips64/loop, whose branch-likely slots (their
# callbacks fire even when annulled) make the mode end for good at their
# first translation: the same counts either way.
# usage: run_quiet.sh HVPMU MICRO_DIR MINIGZIP DASH TEXT [MINIGZIP_PPC64 PPC64_LOOP [XZ_MIPS64 MIPS64_LOOP]]
set -euo pipefail
hvpmu=$1 micro=$2 gz=$3 dash=$4 text=$5 gz_ppc64=${6:-} loop_ppc64=${7:-} xz_mips64=${8:-} loop_mips64=${9:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: quiet: $*" >&2; exit 1; }
head -c 131072 "$text" > "$tmp/in"
n=0
# run NAME INPUT EXTRA_ENV... -- STAT_ARGS... -- PROGRAM...: both ways, same output;
# leaves the mode's tally in $tally.  With tol=PPM (several guest threads:
# the interleaving is the host's, a waiting thread's futex loop may run
# once more or less, issue 27) each count within PPM parts per million,
# and the tally through a file (xz closes its stderr)
run() {
	local name=$1 in=$2 envs=() args=() stats=1
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	rm -f "$tmp/$name.tally"
	[ -z "${tol:-}" ] || stats=$tmp/$name.tally
	env -i HVPMU_QUIET=0 "${envs[@]}" "$hvpmu" stat -x, -o "$tmp/$name.exact" "${args[@]}" -- "$@" \
		< "$in" > /dev/null 2> "$tmp/$name.err0" || fail "$name: exact run exited $?"
	env -i HVPMU_QUIET_STATS="$stats" "${envs[@]}" "$hvpmu" stat -x, -o "$tmp/$name.quiet" "${args[@]}" -- "$@" \
		< "$in" > /dev/null 2> "$tmp/$name.err1" || fail "$name: run exited $?"
	grep -q . "$tmp/$name.exact" || fail "$name: no counts"
	if [ -n "${tol:-}" ]; then
		paste -d, "$tmp/$name.exact" "$tmp/$name.quiet" | awk -F, -v tol="$tol" -v name="$name" '
			NF < 14 { next }
			$3 != $10 || $1 !~ /^[0-9]+$/ || $8 !~ /^[0-9]+$/ { print name ": rows differ: " $0; bad = 1; next }
			{ d = $1 - $8; if (d < 0) d = -d
			  if (d * 1e6 > tol * $1) { print name ": " $3 " " $1 " exact, " $8 " totals only"; bad = 1 } }
			END { exit bad }' >&2 || fail "$name: totals only and exact accounting differ beyond $tol ppm"
	elif ! cmp -s "$tmp/$name.exact" "$tmp/$name.quiet"; then
		diff "$tmp/$name.exact" "$tmp/$name.quiet" >&2
		fail "$name: totals only and exact accounting print different results"
	fi
	[ -n "${tol:-}" ] || stats=$tmp/$name.err1
	tally=$(grep '^hvpmu quiet:' "$stats" 2> /dev/null) ||
		[ "${no_tally:-0}" = 1 ] || fail "$name: no tally (HVPMU_QUIET_STATS)"
	n=$((n + 1))
}
# field NAME: the tally's numbers, "quiet check full syncs"
field() { sed -E 's/^hvpmu quiet: ([0-9]+) quiet, ([0-9]+) check, ([0-9]+) full blocks; ([0-9]+) budget syncs; entered ([0-9]+) times.*/\1 \2 \3 \4 \5/' <<< "$tally"; }
used() { # NAME MIN_SYNCS: the mode ran, on to the end, with at least MIN_SYNCS budget syncs
	read -r q c f s e <<< "$(field)"
	if [ "$q" = 0 ] || [ "$c" = 0 ] || [ "$f" = 0 ]; then fail "$1: the mode did not run ($tally)"; fi
	[ "$s" -ge "$2" ] || fail "$1: $s budget syncs, expected at least $2 ($tally)"
	grep -q 'on to the end$' <<< "$tally" || fail "$1: left the mode ($tally)"
}
insn=Instr_all,Instr_ld,Instr_st,Branches
taken=Instr_all,Instr_ld,Br_taken,Branches

run gz "$tmp/in" -- -e "$insn" -- "$gz"
used gz 0
run gz_taken "$tmp/in" -- -e "$taken" -- "$gz"
used gz_taken 0
for w in pc8 pc8_edge annul branches windows; do
	run "$w" /dev/null -- --rotate-cycles 3000 -e "$taken" -- "$micro/$w"
done
# the OS tick every 5 000 cycles: thousands of ticks, each found late
run gz_tick "$tmp/in" -- --rotate-cycles 5000 -e instructions:uk,Instr_ld:k,Branches,Instr_other -- "$gz"
used gz_tick 1000
run gz_t1 "$tmp/in" -- -p t1 --rotate-cycles 7000 -e Instr_cnt:uk -- "$gz"
used gz_t1 1000
# spills and fills restart SAVE / RESTORE inside blocks; system calls
run windows /dev/null -- --rotate-cycles 3000 -e "$insn" -- "$micro/windows"
read -r q c f s e <<< "$(field)"
[ "$f" -gt 0 ] || fail "windows: no full block ($tally)"
run syscalls /dev/null -- --rotate-cycles 3000 -e "$insn" -- "$micro/syscalls"
# two guest threads (clone, futex), running free (HVPMU_QUANTUM=off):
# each thread's own events exact; the main thread's futex wait loop runs
# a pass more or less (310 instructions of 200,642: within 0.5 %).  In
# turns (the default) the mode goes on, each block counting its turn:
# the same counts as the exact path, byte for byte
for ev in Instr_all,Br_taken,SW_prefetch,Branches Instr_all,Sw_count_intr,SW_prefetch; do
	run threads_turns /dev/null -- --rotate-cycles 3000 -e "$ev" -- "$micro/threads"
	grep -q 'on to the end$' <<< "$tally" || fail "threads_turns: the mode ended ($tally)"
	tol=5000 run threads /dev/null HVPMU_QUANTUM=off -- --rotate-cycles 3000 -e "$ev" -- "$micro/threads"
	used threads 1
	grep -q '^30000,,SW_prefetch' "$tmp/threads.quiet" || fail "threads: SW_prefetch not 30000"
	grep -q '^20000,,Sw_count_intr\|Br_taken' "$tmp/threads.quiet" || fail "threads: Sw_count_intr not 20000"
done
# a counter near its wrap: the mode ends part way, the rest is exact
for ev in "$insn" "$taken"; do
	run leave "$tmp/in" HVPMU_QUIET_WRAP=4292000000 -- -e "$ev" -- "$gz"
	grep -q ' off$' <<< "$tally" || fail "leave: the mode did not end ($tally)"
	read -r q c f s e <<< "$(field)"
	[ "$q" -gt 0 ] || fail "leave: the mode did not start ($tally)"
done
# past a real wrap (Instr_all beyond 2^32): out of the mode before it,
# back in after it
for ((i = 0; i < 20; i++)); do cat "$text"; done > "$tmp/big"
run wrap "$tmp/big" -- -e "$taken" -- "$gz"
read -r q c f s e <<< "$(field)"
all=$(awk -F, '$3 == "Instr_all" { print $1 }' "$tmp/wrap.quiet")
[ "$all" -gt 4400000000 ] || fail "wrap: Instr_all $all does not pass 2^32 by enough"
[ "$e" -ge 2 ] || fail "wrap: the mode did not come back after the wrap ($tally)"
rm -f "$tmp/big"
if [ -n "$dash" ] && [ -x "$dash" ]; then
	# writable code pages: their blocks keep the exact path
	# shellcheck disable=SC2016 # dash expands it
	run dash /dev/null -- -i -e "$insn" -- "$dash" -c 'i=0; while [ $i -lt 200 ]; do i=$((i + 1)); done; echo $i'
	read -r q c f s e <<< "$(field)"
	[ "$f" -gt 0 ] || fail "dash: no full block ($tally)"
fi
if [ -n "$gz_ppc64" ] && [ -x "$gz_ppc64" ]; then
	run power_gz "$tmp/in" -- -p power -- "$gz_ppc64"
	used power_gz 0
fi
if [ -n "$loop_ppc64" ] && [ -x "$loop_ppc64" ]; then
	run power_loop /dev/null -- -p power -- "$loop_ppc64"
	read -r q c f s e <<< "$(field)"
	[ "$q" -gt 0 ] || fail "power_loop: the mode did not run ($tally)"
fi
r10k=Graduated_instructions,Graduated_loads
if [ -n "$xz_mips64" ] && [ -x "$xz_mips64" ]; then
	# (xz closes its stderr before it exits: no tally, the counts compare)
	no_tally=1 run origin_xz "$tmp/in" -- -p origin -e "$r10k" -- "$xz_mips64" -T1 -c
fi
if [ -n "$xz_mips64" ] && [ -x "$xz_mips64" ]; then
	# four worker threads: the mode serves every vCPU (its counters and
	# budget are per vCPU) and lasts to the end; and one that leaves it
	# part way with the four running
	xz4=("$xz_mips64" -T4 --block-size=16KiB -c)
	tol=100 run origin_xz4 "$tmp/in" HVPMU_QUANTUM=off -- -p origin -e "$r10k" -- "${xz4[@]}"
	used origin_xz4 10
	tol=100 run origin_xz4_leave "$tmp/in" HVPMU_QUANTUM=off HVPMU_QUIET_WRAP=2127483648 -- -p origin -e "$r10k" -- "${xz4[@]}"
	grep -q ' off$' <<< "$tally" || fail "origin_xz4_leave: the mode did not end ($tally)"
fi
# four threads in turns taking a ticket lock (workloads/mips64/c/spinlock.c):
# the mode goes on with them, the same counts as the exact path
if [ -n "$loop_mips64" ] && [ -x "$(dirname "$loop_mips64")/spinlock" ]; then
	run origin_spinlock /dev/null -- -p origin -e "$r10k" -- "$(dirname "$loop_mips64")/spinlock" 50
	grep -q 'on to the end$' <<< "$tally" || fail "origin_spinlock: the mode ended ($tally)"
fi
if [ -n "$loop_mips64" ] && [ -x "$loop_mips64" ]; then
	run origin_loop /dev/null -- -p origin -e "$r10k" -- "$loop_mips64"
	grep -q ' off$' <<< "$tally" || fail "origin_loop: the mode did not end at the branch-likely ($tally)"
fi
# more than the totals shows: the exact path, and the same counts
for what in "--pic-init 4000000000 -e $insn" "-e $insn,Instr_other" "-e Instr_all,Br_mispred" "--overflow-log $tmp/ovf -e $insn"; do
	# shellcheck disable=SC2086 # the words are the options
	run other "$tmp/in" -- $what -- "$gz"
	read -r q c f s e <<< "$(field)"
	if [ "$q" != 0 ] || [ "$c" != 0 ] || [ "$f" != 0 ]; then fail "'$what': the mode ran ($tally)"; fi
done
echo "quiet: $n runs print the same both ways; the mode ran where the totals are all a run shows"
