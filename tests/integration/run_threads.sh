#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_threads.sh: a multi-threaded guest is counted on every strand.
#
# usage: run_threads.sh HVPMU THREADS_PROGRAM [RUNS]
#
# THREADS_PROGRAM is workloads/micro/threads (threads.S): the main thread
# (vCPU 0, strand 0) clones a second thread (vCPU 1, strand 1) that runs
# N = 30000 software prefetches and exits; the main thread runs M = 20000
# software count instructions (`sethi %hi(0xfc000), %g0`), waits on a futex
# for the child's exit and calls exit_group(0).  Neither thread runs the
# other's event, so by construction (derivation in threads.S), whatever
# the scheduling:
#   SW_prefetch   = N                          exactly   (child only)
#   Sw_count_intr = M                          exactly   (main only)
#   Instr_all     = 32 + 4(N + M) + 10k        k >= 0 futex wait passes
#                 + 300 (1 + k)                the kernel path of the clone
#                                              and of each futex call
#                                              (docs/kernel-model.md)
# i.e. Instr_all >= 200332 and Instr_all - 200332 is a multiple of 310.
# Normally k <= 2 (a futex wait returns only on the exit-time wake, on
# EAGAIN once tid is 0, or on a spurious wake-up); K_MAX bounds k
# generously, so that counting a thread's loop twice (+ 80000 or more)
# cannot pass.
#
# Each of RUNS runs (default 3) is
#   env -i [VARS] HVPMU stat -x, -o OUT -e SW_prefetch,Sw_count_intr,Instr_all[,DC_miss_nospec] -- PROGRAM
# (at most 4 events for 4 PICs: no multiplexing) and must exit 0 (the
# program's exit status passes through hvpmu stat).  The runs take turns:
# instruction events only; with DC_miss_nospec, so that the memory model
# runs and the plugin runs it in per-vCPU batches (docs/event-source.md
# "Batches"); the same with HVPMU_BATCH=0, the model at every callback
# under the lock.  CSV lines follow perf's field order
# VALUE,UNIT,EVENT,RUNTIME,PCNT_RUNNING,...

set -euo pipefail

N=30000
M=20000
KPATH=300                         # kernel path per returning system call (docs/kernel-model.md)
INSTR_MIN=$((32 + 4 * (N + M) + KPATH))  # k = 0: 200032 + the clone's kernel path
WAIT_PASS=$((10 + KPATH))         # instructions per futex wait pass, with the futex's kernel path
K_MAX=1000

[ $# -ge 2 ] || { echo "usage: $0 HVPMU THREADS_PROGRAM [RUNS]" >&2; exit 2; }
HVPMU=$1
PROG=$2
RUNS=${3:-3}

fail() {
	printf 'FAIL: threads: %s\n' "$*" >&2
	exit 1
}

[ -x "$HVPMU" ] || fail "hvpmu CLI not found or not executable: $HVPMU"
[ -x "$PROG" ] || fail "workload not built: $PROG (build target 'micro')"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || fail "RUNS must be a positive number, not '$RUNS'"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hvpmu-threads.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# value EVENT CSV: the VALUE field of EVENT's line (empty if none).
value() {
	awk -F, -v e="$1" '/^[[:space:]]*(#|$)/ { next } $3 == e { print $1; exit }' "$2"
}

# show: the current run's CSV and stderr, for a failure report.
show() {
	[ ! -f "$out" ] || sed 's/^/  | /' "$out" >&2
	[ ! -s "$tmp/stderr" ] || sed 's/^/  stderr| /' "$tmp/stderr" >&2
}

modes=("" ",DC_miss_nospec" ",DC_miss_nospec HVPMU_BATCH=0")
for ((run = 1; run <= RUNS; run++)); do
	out=$tmp/run$run.csv
	rc=0
	mode=${modes[$(((run - 1) % 3))]}
	read -r more vars <<< "$mode"
	env -i $vars "$HVPMU" stat -x, -o "$out" -e "SW_prefetch,Sw_count_intr,Instr_all$more" -- "$PROG" \
		>"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
	if [ "$rc" -ne 0 ]; then
		show
		fail "run $run: hvpmu stat exited with status $rc (program or hvpmu failed)"
	fi
	[ -s "$out" ] || fail "run $run: hvpmu stat wrote no output"
	pf=$(value SW_prefetch "$out")
	sw=$(value Sw_count_intr "$out")
	ia=$(value Instr_all "$out")
	errs=()
	[ "$pf" = "$N" ] || errs+=("SW_prefetch: expected $N (child thread), got '${pf:-<missing>}'")
	[ "$sw" = "$M" ] || errs+=("Sw_count_intr: expected $M (main thread), got '${sw:-<missing>}'")
	if ! [[ $ia =~ ^[0-9]+$ ]]; then
		errs+=("Instr_all: not a number: '${ia:-<missing>}'")
	elif [ "$ia" -lt "$INSTR_MIN" ]; then
		errs+=("Instr_all: expected >= $INSTR_MIN (32 + 4(N+M) + $KPATH), got $ia")
	elif [ $(((ia - INSTR_MIN) % WAIT_PASS)) -ne 0 ]; then
		errs+=("Instr_all: $ia is not $INSTR_MIN + $WAIT_PASS*k (off by $(((ia - INSTR_MIN) % WAIT_PASS)))")
	elif [ $(((ia - INSTR_MIN) / WAIT_PASS)) -gt "$K_MAX" ]; then
		errs+=("Instr_all: $ia means $(((ia - INSTR_MIN) / WAIT_PASS)) futex wait passes (> $K_MAX)")
	fi
	if [ ${#errs[@]} -gt 0 ]; then
		show
		printf '  %s\n' "${errs[@]}" >&2
		fail "run $run of $RUNS: ${#errs[@]} check(s) failed"
	fi
	printf 'threads run %d (%s): SW_prefetch %s, Sw_count_intr %s, Instr_all %s (k = %d)\n' \
		"$run" "${mode:-instructions}" "$pf" "$sw" "$ia" $(((ia - INSTR_MIN) / WAIT_PASS))
done
# a machine of one strand: the second thread runs uncounted, which the
# run reports and fails on (a count that could not be made)
tmp1=$(mktemp -d)
echo '{ "cores_per_chip": 1, "strands_per_core": 1 }' > "$tmp1/one.json"
rc=0
env -i "$HVPMU" stat --md "$tmp1/one.json" -x, -o "$tmp1/out" -e SW_prefetch -- "$PROG" 2> "$tmp1/err" || rc=$?
if [ "$rc" = 0 ] || ! grep -q 'ran uncounted.*the counts are incomplete' "$tmp1/err"; then
	cat "$tmp1/err" >&2
	rm -rf "$tmp1"
	fail "one strand for two threads: exit $rc, expected a failed run that says the counts are incomplete"
fi
rm -rf "$tmp1"
printf 'threads: %d runs, both strands counted exactly; a thread without a strand fails the run\n' "$RUNS"
