#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_mem.sh: check the memory-hierarchy counts of a sparc64 program of
# workloads/mem against the analytic figures of workloads/mem/expected.txt
# (derivations: docs/memory-validation.md).
#
# usage: run_mem.sh HVPMU WORKLOAD_DIR EXPECTED PROGRAM
#
# EXPECTED lines: `PROGRAM EVENT EXPECTED TOLERANCE [PLATFORM]` (tolerance
# absolute, platform t4 when absent); a line `PROGRAM @stat OPTION...` adds
# hvpmu stat options for PROGRAM (machine description, thread placement:
# docs/coherence-model.md), `{dir}` in them standing for EXPECTED's
# directory (e.g. --md {dir}/FILE.json).  Every event listed for PROGRAM is
# measured, on t4 at most 4 per run (the four T4 PICs, so nothing is
# multiplexed or scaled), on t1 one per run (the one PICL), with
#   env -i HVPMU stat [-p t1] [@stat options] -x, -o OUT -e EV1,..,EV4 -- WORKLOAD_DIR/PROGRAM
# (no environment, so that no QEMU_* variable of the caller changes the
# result).  CSV fields follow perf: VALUE,UNIT,EVENT,RUNTIME,PCNT,...
# A count passes when |observed - expected| <= tolerance and the event was
# counted 100% of the run.  The script prints one table row per count and
# exits 1 if any count fails (or 2 on a usage error).

set -euo pipefail

EVENTS_PER_RUN=4

usage() {
	echo "usage: $0 HVPMU WORKLOAD_DIR EXPECTED PROGRAM" >&2
	exit 2
}

[ $# -eq 4 ] || usage
HVPMU=$1
WORKLOAD_DIR=$2
EXPECTED=$3
NAME=$4
PROG=$WORKLOAD_DIR/$NAME

fail() {
	printf 'FAIL: mem/%s: %s\n' "$NAME" "$*" >&2
	exit 1
}

[ -x "$HVPMU" ] || fail "hvpmu CLI not found or not executable: $HVPMU"
[ -f "$EXPECTED" ] || fail "expected-counts file not found: $EXPECTED"
[ -x "$PROG" ] || fail "workload not built: $PROG (build target 'mem_workloads')"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hvpmu-mem.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Expected rows of $NAME.
# Keys are PLATFORM/EVENT.
declare -a events=() stat_opts=()
declare -A want=() tol=()
while read -r prog ev exp tl pl extra; do
	[ "$prog" = "$NAME" ] || continue
	if [ "$ev" = "@stat" ]; then
		read -r -a more <<<"$exp $tl $pl $extra"
		stat_opts+=("${more[@]//\{dir\}/$(dirname "$EXPECTED")}")
		continue
	fi
	pl=${pl:-t4}
	[[ $exp =~ ^[0-9]+$ && $tl =~ ^[0-9]+$ && $pl =~ ^(t1|t4)$ && -z $extra ]] ||
		fail "malformed line in $EXPECTED: '$prog $ev $exp $tl $pl $extra'"
	[ -z "${want[$pl/$ev]+x}" ] || fail "event $ev listed twice for $NAME ($pl) in $EXPECTED"
	events+=("$pl/$ev")
	want[$pl/$ev]=$exp
	tol[$pl/$ev]=$tl
done < <(grep -v '^[[:space:]]*#' "$EXPECTED")
[ ${#events[@]} -gt 0 ] || fail "no expected counts for '$NAME' in $EXPECTED"

# Measure each platform's events in groups of EVENTS_PER_RUN (t4) or 1
# (t1); CSV output in $tmp/all.csv, the event field prefixed PLATFORM/.
: >"$tmp/all.csv"
for pl in t4 t1; do
	declare -a evs=()
	for key in "${events[@]}"; do
		[ "${key%%/*}" = "$pl" ] && evs+=("${key#*/}")
	done
	per=$EVENTS_PER_RUN popt=()
	[ "$pl" = t1 ] && per=1 popt=(-p t1)
	for ((i = 0; i < ${#evs[@]}; i += per)); do
		group=$(IFS=,; echo "${evs[*]:i:per}")
		rc=0
		env -i "$HVPMU" stat ${popt[@]+"${popt[@]}"} ${stat_opts[@]+"${stat_opts[@]}"} -x, -o "$tmp/run.csv" \
			-e "$group" -- "$PROG" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
		if [ "$rc" -ne 0 ] || [ ! -f "$tmp/run.csv" ]; then
			sed 's/^/  | /' "$tmp/stderr" >&2
			fail "hvpmu stat exited with status $rc ($pl events $group)"
		fi
		awk -F, -v OFS=, -v pl="$pl" '/^[[:space:]]*(#|$)/ { next } NF >= 5 { $3 = pl "/" $3; print }' \
			"$tmp/run.csv" >>"$tmp/all.csv"
	done
	unset evs
done

declare -A got=() pct=()
while IFS=$'\t' read -r ev val p; do
	got[$ev]=$val
	pct[$ev]=$p
done < <(awk -F, 'NF >= 5 { print $3 "\t" $1 "\t" $5 }' "$tmp/all.csv")

bad=0
table=$(printf '%-26s %12s %6s %12s %10s  %s' EVENT EXPECTED TOL OBSERVED DIFF RESULT)
for ev in "${events[@]}"; do
	w=${want[$ev]}
	t=${tol[$ev]}
	g=${got[$ev]-<missing>}
	p=${pct[$ev]-?}
	if [[ $g =~ ^[0-9]+$ ]]; then
		d=$((g - w))
		ad=${d#-}
		if [ "$ad" -le "$t" ] && [ "$p" = "100.00" ]; then
			res=ok
		elif [ "$ad" -le "$t" ]; then
			res="FAIL (counted $p% of the run)"
			bad=$((bad + 1))
		else
			res="FAIL (|diff| > $t)"
			bad=$((bad + 1))
		fi
		d=$(printf '%+d' "$d")
	else
		d=-
		res="FAIL (not counted)"
		bad=$((bad + 1))
	fi
	table+=$'\n'$(printf '%-26s %12s %6s %12s %10s  %s' "$ev" "$w" "$t" "$g" "$d" "$res")
done

if [ "$bad" -gt 0 ]; then
	{
		printf 'mem/%s (%s) against %s:\n' "$NAME" "$PROG" "$EXPECTED"
		printf '%s\n' "$table" | sed 's/^/  /'
		printf 'hvpmu output:\n'
		sed 's/^/  | /' "$tmp/all.csv"
	} >&2
	fail "$bad of ${#events[@]} counts outside their bounds (table above; derivations in docs/memory-validation.md)"
fi
printf 'mem/%s:\n' "$NAME"
printf '%s\n' "$table" | sed 's/^/  /'
printf 'mem/%s: all %d counts within their bounds\n' "$NAME" "${#events[@]}"
