#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test), issue 35: what a sweep adds to the runs it
# makes.  N jobs of a short program (workloads/mem/seq_l2, N repeats of
# one point) run three ways:
#   bare    N `hvpmu stat` runs one after the other;
#   sweep   `hvpmu sweep -j1` of the same N runs (expansion: hashes of
#           hvpmu, the plugin, QEMU and the program, N job files; each job
#           checks those hashes again, runs the tool, writes its result;
#           GNU parallel starts each job; the merge);
#   resume  the same sweep again: every point found, nothing run.
# Prints the wall time of each and the overhead per job, (sweep - bare) / N.
# Usage: bench/sweep.sh [N]   (HVPMU_BUILD=dir: an existing build tree)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
n=${1:-50}
if [ -n "${HVPMU_BUILD:-}" ]; then
	b=$HVPMU_BUILD
else
	hvpmu_install
	hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
	b=$HVPMU_WORK/release
fi
hv=$b/src/hvpmu prog=$b/workloads/mem/seq_l2
[ -x "$prog" ] || die "no $prog (the sparc64 workloads of $b)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/plan.json" <<J
{ "events": ["cycles:u", "L2_clean_evict"], "repeat": $n, "programs": [ { "path": "$prog" } ] }
J
now() { date +%s.%N; }
t0=$(now)
for _ in $(seq "$n"); do env -i "$hv" stat -x, -o /dev/null -e cycles:u,L2_clean_evict -- "$prog"; done
t1=$(now)
"$hv" sweep -j1 "$tmp/plan.json" 2> /dev/null
t2=$(now)
"$hv" sweep -j1 "$tmp/plan.json" 2> /dev/null
t3=$(now)
echo "$n $t0 $t1 $t2 $t3" | awk '{ n = $1; bare = $3 - $2; sweep = $4 - $3; resume = $5 - $4
	printf "bare %.2f s, sweep %.2f s, resume %.2f s: %.1f ms a job more than a bare run\n",
		bare, sweep, resume, 1000 * (sweep - bare) / n }'
