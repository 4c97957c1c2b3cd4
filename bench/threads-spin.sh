#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Measurement (not a test), issue 27: threads that synchronize through
# memory only, each program R times, and what the model counts of them.
#   - T4 (`--placement spread`: the threads on cores 0 and 1):
#     workloads/mem/spin_handoff (N = 500 turns per thread) and
#     spin_handoff2 (2N).  Expected of a model that runs the threads in
#     modeled time: their difference is 2N = 1000 handoffs, each one
#     DC_snoop_invalid and one L1D miss served from the other core
#     (DC_miss_L2_L3_hit_nospec).
#   - Origin (`placement: spread`: CPUs on nodes 0 and 1): workloads/
#     mips64/spin N and 2N (N = 200), `hvpmu mdperf -a -s inval_class`:
#     the difference at node 0 is 2N invalidations (inval) and 2N
#     read-shared interventions (interv_rdsh).
#   - Origin: workloads/mips64/spinlock (four threads take a ticket lock
#     in turn, K = 100 times each).
# For each count: the lowest and highest of the R runs and how many
# distinct values they gave (1: deterministic), then the N/2N difference
# against the expected one.
# Usage: bench/threads-spin.sh [R]
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
r=${1:-10}
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
hv=$HVPMU_WORK/release/src/hvpmu
w=$HVPMU_WORK/release/workloads
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '{ "platform": "origin", "placement": "spread" }' > "$tmp/origin.json"

# spread LABEL: "min max distinct" of the values in $tmp/LABEL
spread() { sort -g "$tmp/$1" | awk '{ v[NR] = $1; d[$1] = 1 } END { n = 0; for (k in d) n++; print v[1], v[NR], n }'; }
t4() { # t4 PROG EVENT: one run's count
	"$hv" stat -x, --placement spread -e DC_snoop_invalid,DC_miss_L2_L3_hit_nospec,Instr_all -- "$w/mem/$1" 2>&1 |
		awk -F, -v e="$2" '$3 == e { print $1 }'
}
origin() { # origin PROG ARG NAME: node 0's set-2 counter NAME
	"$hv" mdperf -a -x, -s inval_class --md "$tmp/origin.json" -- "$w/mips64/$1" "$2" 2>&1 |
		awk -F, -v c="$3" '$1 == 0 && $5 == c { print $6 }'
}
for ((i = 0; i < r; i++)); do
	for ev in DC_snoop_invalid DC_miss_L2_L3_hit_nospec Instr_all; do
		t4 spin_handoff "$ev" >> "$tmp/t4.n.$ev"
		t4 spin_handoff2 "$ev" >> "$tmp/t4.2n.$ev"
	done
	for c in inval interv_rdsh; do
		origin spin 200 "$c" >> "$tmp/o.n.$c"
		origin spin 400 "$c" >> "$tmp/o.2n.$c"
		origin spinlock 100 "$c" >> "$tmp/o.lock.$c"
	done
done
printf '%-40s %12s %12s %9s\n' "count ($r runs)" lowest highest distinct
for f in $(cd "$tmp" && ls t4.* o.*); do
	printf '%-40s %12s %12s %9s\n' "$f" $(spread "$f")
done
med() { sort -g "$tmp/$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '\nmedian 2N - N (expected 1000 on T4, 400 at the Origin'"'"'s node 0):\n'
for ev in DC_snoop_invalid DC_miss_L2_L3_hit_nospec; do
	echo "  T4 $ev: $(( $(med t4.2n.$ev) - $(med t4.n.$ev) ))"
done
for c in inval interv_rdsh; do
	echo "  Origin $c: $(( $(med o.2n.$c) - $(med o.n.$c) ))"
done
