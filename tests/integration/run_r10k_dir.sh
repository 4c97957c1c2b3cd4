#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The R10000's directory events (issue 31: events 12, 13, 28-31), end to
# end under qemu-mips64 through `hvpmu stat -p origin`
# (docs/r10k-counters.md, docs/origin-directory.md "What each CPU sees"):
#   run_r10k_dir.sh HVPMU DIR
# DIR holds the mips64 programs workloads/mips64/c/{sharew,cleanst}.c
# (built by workloads/mips64/CMakeLists.txt); each header derives its
# counts.
#
# Every program runs twice, with N and 2N units of work (sizes of as many
# digits, so that the stack is laid out alike), so that what the C
# library and the threads' start do cancels; the counts are the sum over
# the CPUs (hvpmu stat), and the two runs must differ by exactly the
# derived value.  The runs of N and 2N go side by side.
set -euo pipefail
hv=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: r10k dir: $*" >&2; exit 1; }
echo '{ "platform": "origin", "placement": "spread" }' > "$tmp/spread.json"

# Two events a run, one per counter (events 12-13 on counter 0, 28-31 on counter 1).
pairs=(External_interventions,External_intervention_hits_in_scache
	External_invalidations,External_invalidation_hits_in_scache
	External_interventions,Store/prefetch_exclusive_to_clean_block_in_scache
	External_invalidations,Store/prefetch_exclusive_to_shared_block_in_scache)

# runs NAME MD PROGRAM ARGS...: one run per pair, rows "count,event" into $tmp/NAME
runs() {
	local name=$1 md=$2 prog=$3 p
	shift 3
	[ -x "$dir/$prog" ] || fail "no $dir/$prog"
	: > "$tmp/$name"
	for p in "${pairs[@]}"; do
		env -i PATH=/usr/bin:/bin "$hv" stat -p origin ${md:+--md "$md"} -x, -e "$p" -o "$tmp/$name.out" \
			-- "$dir/$prog" "$@" 2> "$tmp/$name.err" || { cat "$tmp/$name.err" >&2; fail "$name: $p: $prog exited"; }
		grep -v '^#' "$tmp/$name.out" | awk -F, 'NF > 2 { print $3 "," $1 }' >> "$tmp/$name"
	done
}
# check NAME PROGRAM MD "ARGS1" "ARGS2" EVENT=DELTA...: every event of the
# pairs differs by exactly DELTA between the runs (each listed once)
check() {
	local name=$1 prog=$2 md=$3 a1=$4 a2=$5 p1 p2
	shift 5
	# shellcheck disable=SC2086 # the sizes are words
	runs "${name}1" "$md" "$prog" $a1 & p1=$!
	# shellcheck disable=SC2086
	runs "${name}2" "$md" "$prog" $a2 & p2=$!
	wait "$p1" || exit 1
	wait "$p2" || exit 1
	awk -F, -v want="$*" -v what="$name" '
		BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) { split(w[i], kv, "="); exp_[kv[1]] = kv[2] } }
		FNR == 1 { f++ }
		{ if ($2 !~ /^[0-9]+$/) bad = bad " " $1 "=" $2; v[f, $1] = $2; ev[$1] = 1 }
		END {
			for (e in exp_) {
				if (!(e in ev)) { bad = bad " " e " not counted"; continue }
				d = v[2, e] - v[1, e]
				if (d != exp_[e]) bad = bad " " e "=" d " (want " exp_[e] ")"
			}
			if (bad) { print what ":" bad; exit 1 }
		}' "$tmp/${name}1" "$tmp/${name}2" || fail "$name (see above)"
}

# 1. sharew N (workloads/mips64/c/sharew.c, placement spread): per line,
# CPU 2's load is an intervention read-shared to CPU 0, which holds the
# line (event 12 and its hit, 28, on CPU 0); CPU 0's store finds the line
# shared (event 31: an upgrade) and the Hub invalidates CPUs 2 and 4,
# which hold it (events 13 and 29, one on each).  No store finds a
# clean-exclusive line (event 30).
n=126
check sharew sharew "$tmp/spread.json" "$n" "$((2 * n))" \
	External_interventions=$n External_intervention_hits_in_scache=$n \
	External_invalidations=$((2 * n)) External_invalidation_hits_in_scache=$((2 * n)) \
	Store/prefetch_exclusive_to_clean_block_in_scache=0 Store/prefetch_exclusive_to_shared_block_in_scache=$n

# 2. cleanst N (workloads/mips64/c/cleanst.c, one CPU): per line, a load
# of an unowned line (held clean exclusive), then a store to it: event 30;
# no other CPU, so no intervention or invalidation, no shared line.
n=1000
check cleanst cleanst "" "$n" "$((2 * n))" \
	External_interventions=0 External_invalidations=0 \
	Store/prefetch_exclusive_to_clean_block_in_scache=$n Store/prefetch_exclusive_to_shared_block_in_scache=0
# 3. event 14 (Virtual_coherency_conditions) is exactly 0 on any program:
# 16 KB pages never give a line two virtual indexes (docs/r10k-counters.md)
for prog in "sharew 126" "cleanst 1000"; do
	env -i PATH=/usr/bin:/bin "$hv" stat -p origin --md "$tmp/spread.json" -x, -e Virtual_coherency_conditions \
		-o "$tmp/vcc" -- "$dir/${prog% *}" "${prog#* }" 2> /dev/null || fail "event 14: $prog exited"
	awk -F, 'NF > 2 && $1 !~ /^#/ { n++; if ($1 != "0") { print "event 14 = " $1 " (want 0)"; bad = 1 } }
		END { exit bad || n != 1 }' "$tmp/vcc" || fail "event 14: $prog (see above)"
done
echo "r10k dir: ok"
