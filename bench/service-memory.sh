#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test; issue 28, docs/service.md "Memory"): a standing
# service's memory does not grow with the processes it has run.  One
# `hvpmu serve`; guest dash runs short processes through it (`hvpmu run
# --service`: subshells, each a fork image that attaches, runs a builtin
# and ends), 1,000, then 9,000 more (10,000 in all), in runs of 1,000
# (one dash each); the service's resident size (/proc/PID/status VmRSS)
# after the first 1,000 and after all 10,000.  Fails (exit 1) unless the
# second is within 10 % of the first.  (The first runs also warm the
# machine's model: its caches' and memory's tables fill on first use, so
# the RSS after 1,000 processes, not before any, is the reference.)
# Usage: bench/service-memory.sh  (HVPMU_BIN, HVPMU_DASH: paths that skip
# the builds)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
if [ -z "${HVPMU_BIN:-}" ]; then
	hvpmu_install
	hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
fi
hv=${HVPMU_BIN:-$HVPMU_WORK/release/src/hvpmu}
dash=${HVPMU_DASH:-$("$HVPMU_ROOT/scripts/build-dash-sparc64.sh")}
work=$(mktemp -d)
name=$work/bench-mem # (a socket in this 0700 directory)
srv=
cleanup() {
	[ -z "$srv" ] || kill -TERM "$srv" 2> /dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
env -i HVPMU_REMOTE_STATS=1 "$hv" serve --name "$name" 2> "$work/serve.log" &
srv=$!
for _ in $(seq 100); do
	grep -q "^hvpmu serve: service" "$work/serve.log" && break
	sleep 0.05
done
grep -q "^hvpmu serve: service" "$work/serve.log" || { cat "$work/serve.log" >&2; die "the service did not start"; }
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$srv/status"; }
# thousand: one dash, 1,000 subshells
thousand() {
	env -i "$hv" run --service "$name" -- "$dash" -c \
		'i=0; while [ $i -lt 1000 ]; do (:); i=$((i+1)); done' || die "a run of 1,000 processes failed"
}
start=$(rss)
t0=$(date +%s.%N)
thousand
sleep 0.2 # (the service frees ended images on its next loop)
r1=$(rss)
t1=$(date +%s.%N)
for _ in $(seq 9); do thousand; done
sleep 0.2
r10=$(rss)
t2=$(date +%s.%N)
kill -TERM "$srv"
wait "$srv" || true
srv=
printf 'service RSS: %d kB at start, %d kB after 1,000 processes (%.1f s), %d kB after 10,000 (%.1f s more): %+.2f %%\n' \
	"$start" "$r1" "$(echo "$t1 - $t0" | bc)" "$r10" "$(echo "$t2 - $t1" | bc)" "$(echo "($r10 - $r1) * 100 / $r1" | bc -l)"
grep -o '[0-9]* of [0-9]* images kept' "$work/serve.log" || true
[ "$((r10 * 10))" -le "$((r1 * 11))" ] || { echo "more than 10 % of growth" >&2; exit 1; }
