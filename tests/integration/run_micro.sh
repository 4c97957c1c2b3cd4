#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_micro.sh: check `hvpmu stat` against the counts that the sparc64
# micro-benchmarks have by construction (workloads/micro/expected.txt).
#
# usage: run_micro.sh MODE HVPMU WORKLOAD_DIR EXPECTED PROGRAM [NM]
#
#   MODE counts       Run PROGRAM once with every event EXPECTED lists for
#                     it and require each count to be exactly the expected
#                     one.
#   MODE determinism  Run PROGRAM twice with all of its events; the EVENT
#                     and VALUE columns of the two CSV outputs must be
#                     identical (and every value a number).
#   MODE overflow_pc  Precise overflow.  With K from `PROGRAM param:K`,
#                     every PIC starts at 0xffffffff - K (--pic-init), so
#                     the PIC counting Instr_ld wraps on the (K+1)-th load,
#                     which the program labels `ovf_insn`.  The first line
#                     of --overflow-log must give tpc = address of ovf_insn
#                     (from NM, sparc64-linux-gnu-nm) and precise=1.  The
#                     reported Instr_ld must still be the program's real
#                     load count: the supervisor extends the 32-bit PIC to
#                     64 bits across the overflow and reports the count
#                     with the --pic-init offset excluded.
#
# hvpmu runs as
#   env -i HVPMU stat -x, -o OUT [options] -e EV1,EV2,... -- PROGRAM
# (no environment, so that no QEMU_* or other variable of the caller
# changes the result).  CSV lines follow perf's field order
#   VALUE,UNIT,EVENT,RUNTIME,PCNT_RUNNING,METRIC_VALUE,METRIC_UNIT
# and lines that are empty or start with `#` are skipped.
#
# Optional environment: HVPMU_MICRO_STAT_OPTS, options every hvpmu stat
# run gets (-f: the program attached to a service of its own, whose
# remote source counts it; docs/service.md).
# HVPMU_MICRO_EVENTS_PER_RUN=N (N > 0) splits the
# event list into runs of at most N events each (e.g. 4, the number of T4
# PICs), for a CLI that would otherwise multiplex.  Default: one run.

set -euo pipefail

usage() {
	echo "usage: $0 counts|determinism|overflow_pc HVPMU WORKLOAD_DIR EXPECTED PROGRAM [NM]" >&2
	exit 2
}

[ $# -ge 5 ] || usage
MODE=$1
HVPMU=$2
WORKLOAD_DIR=$3
EXPECTED=$4
NAME=$5
NM=${6:-}
PROG=$WORKLOAD_DIR/$NAME
PER_RUN=${HVPMU_MICRO_EVENTS_PER_RUN:-0}

fail() {
	printf 'FAIL: micro/%s: %s\n' "$NAME" "$*" >&2
	exit 1
}

[ -x "$HVPMU" ] || fail "hvpmu CLI not found or not executable: $HVPMU"
[ -f "$EXPECTED" ] || fail "expected-counts file not found: $EXPECTED"
[ -x "$PROG" ] || fail "workload not built: $PROG (build target 'micro')"
[[ $PER_RUN =~ ^[0-9]+$ ]] || fail "HVPMU_MICRO_EVENTS_PER_RUN must be a number, not '$PER_RUN'"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hvpmu-micro.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Expected "EVENT COUNT" lines of $NAME (parameters excluded).
expected_events() {
	awk -v p="$NAME" '$1 == p && $2 !~ /^param:/ { print $2, $3 }' "$EXPECTED"
}

# Value of `$NAME param:$1`.
expected_param() {
	awk -v p="$NAME" -v k="param:$1" '$1 == p && $2 == k { print $3 }' "$EXPECTED"
}

# run_stat OUT EVENTS [OPTIONS...]: one hvpmu run, CSV to OUT.
run_stat() {
	local out=$1 events=$2 rc=0
	shift 2
	# shellcheck disable=SC2086 # HVPMU_MICRO_STAT_OPTS: words of options
	env -i "$HVPMU" stat -x, -o "$out" ${HVPMU_MICRO_STAT_OPTS:-} "$@" -e "$events" -- "$PROG" || rc=$?
	[ "$rc" -eq 0 ] || fail "hvpmu stat exited with status $rc (events $events)"
	[ -f "$out" ] || fail "hvpmu stat wrote no output file (events $events)"
}

# parse_csv FILE: "EVENT<TAB>VALUE<TAB>PCNT_RUNNING" per counted event.
parse_csv() {
	awk -F, '/^[[:space:]]*(#|$)/ { next } NF >= 3 { print $3 "\t" $1 "\t" $5 }' "$1"
}

# measure TAG EVENT...: run hvpmu (in groups of PER_RUN events if set);
# raw CSV of all runs in $tmp/TAG.csv, parsed lines in $tmp/TAG.tsv.
measure() {
	local tag=$1 i group
	local -a groups=()
	shift
	if [ "$PER_RUN" -gt 0 ]; then
		for ((i = 1; i <= $#; i += PER_RUN)); do
			groups+=("$(IFS=,; echo "${*:i:PER_RUN}")")
		done
	else
		groups=("$(IFS=,; echo "$*")")
	fi
	: >"$tmp/$tag.csv"
	for group in "${groups[@]}"; do
		run_stat "$tmp/$tag.part" "$group"
		cat "$tmp/$tag.part" >>"$tmp/$tag.csv"
	done
	parse_csv "$tmp/$tag.csv" >"$tmp/$tag.tsv"
}

load_events() {
	local ev cnt
	events=()
	declare -gA want=()
	while read -r ev cnt; do
		[[ $cnt =~ ^[0-9]+$ ]] || fail "bad count '$cnt' for $ev in $EXPECTED"
		events+=("$ev")
		want[$ev]=$cnt
	done < <(expected_events)
	[ ${#events[@]} -gt 0 ] || fail "no expected counts for '$NAME' in $EXPECTED"
}

load_results() {
	local ev val pct
	declare -gA got=() running=()
	while IFS=$'\t' read -r ev val pct; do
		got[$ev]=$val
		running[$ev]=$pct
	done <"$tmp/$1.tsv"
}

mode_counts() {
	local ev w g bad=0 report=""
	load_events
	measure run "${events[@]}"
	load_results run
	for ev in "${events[@]}"; do
		w=${want[$ev]}
		g=${got[$ev]-<missing>}
		if [ "$g" != "$w" ]; then
			bad=$((bad + 1))
			report+=$(printf '\n  %-18s expected %10s   got %-16s running %s' \
				"$ev" "$w" "$g" "${running[$ev]-?}")
		fi
	done
	if [ "$bad" -gt 0 ]; then
		{
			printf 'hvpmu output (%s):\n' "$PROG"
			sed 's/^/  | /' "$tmp/run.csv"
			printf 'differences from %s:%s\n' "$EXPECTED" "$report"
		} >&2
		fail "$bad of ${#events[@]} counts differ from expected.txt (see above)"
	fi
	printf 'micro/%s: all %d counts exact\n' "$NAME" "${#events[@]}"
}

mode_determinism() {
	local ev
	load_events
	measure first "${events[@]}"
	measure second "${events[@]}"
	cut -f1,2 "$tmp/first.tsv" >"$tmp/first.cmp"
	cut -f1,2 "$tmp/second.tsv" >"$tmp/second.cmp"
	[ -s "$tmp/first.cmp" ] || fail "hvpmu printed no counts"
	if ! diff -u "$tmp/first.cmp" "$tmp/second.cmp" >"$tmp/diff"; then
		sed 's/^/  | /' "$tmp/diff" >&2
		fail "two runs gave different counts (diff of EVENT/VALUE above)"
	fi
	load_results first
	for ev in "${events[@]}"; do
		[[ ${got[$ev]-} =~ ^[0-9]+$ ]] || fail "event $ev not counted (value '${got[$ev]-<missing>}')"
	done
	printf 'micro/%s: two runs gave identical counts for %d events\n' "$NAME" "${#events[@]}"
}

mode_overflow_pc() {
	local k pic_init addr first f tpc="" precise="" want_ld
	[ -n "$NM" ] || usage
	k=$(expected_param K)
	[[ $k =~ ^[0-9]+$ ]] || fail "no '$NAME param:K' line in $EXPECTED"
	load_events
	want_ld=${want[Instr_ld]-}
	[ -n "$want_ld" ] || fail "no '$NAME Instr_ld' line in $EXPECTED"
	addr=$("$NM" "$PROG" | awk '$3 == "ovf_insn" { print $1; exit }')
	[[ $addr =~ ^[0-9a-fA-F]+$ ]] || fail "symbol ovf_insn not found in $PROG"
	addr=$(printf '0x%x' "$((16#$addr))")
	pic_init=$((0xffffffff - k))

	run_stat "$tmp/ovf.csv" Instr_ld --pic-init="$pic_init" --overflow-log="$tmp/ovf.log"
	[ -s "$tmp/ovf.log" ] || fail "no overflow trap logged (--pic-init=$pic_init, K=$k)"
	first=$(head -n 1 "$tmp/ovf.log")
	for f in $first; do
		case $f in
		tpc=*) tpc=${f#tpc=} ;;
		precise=*) precise=${f#precise=} ;;
		esac
	done
	[[ $tpc =~ ^0[xX][0-9a-fA-F]+$ ]] || fail "first overflow-log line has no tpc=0xHEX: '$first'"
	if [ $((tpc)) -ne $((addr)) ]; then
		fail "overflow tpc $tpc is not ovf_insn $addr (load number $((k + 1))); log line: '$first'"
	fi
	[ "$precise" = 1 ] || fail "overflow at ovf_insn not reported precise: '$first'"

	parse_csv "$tmp/ovf.csv" >"$tmp/ovf.tsv"
	load_results ovf
	if [ "${got[Instr_ld]-<missing>}" != "$want_ld" ]; then
		sed 's/^/  | /' "$tmp/ovf.csv" >&2
		fail "Instr_ld across the overflow: expected $want_ld (real load count, --pic-init offset excluded), got ${got[Instr_ld]-<missing>}"
	fi
	printf 'micro/%s: overflow trapped precisely at ovf_insn (%s), Instr_ld %s\n' "$NAME" "$addr" "$want_ld"
}

case $MODE in
counts) mode_counts ;;
determinism) mode_determinism ;;
overflow_pc) mode_overflow_pc ;;
*) usage ;;
esac
