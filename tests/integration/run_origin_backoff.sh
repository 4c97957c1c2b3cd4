#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The SGI Origin Hub's outgoing request queue and the backoff reply
# (issue 31), end to end under qemu-mips64 through `hvpmu mdperf`
# (docs/origin-directory.md "Outgoing queues"):
#   run_origin_backoff.sh HVPMU DIR
# DIR holds workloads/mips64/c/wideinv.c's program (built by
# workloads/mips64/CMakeLists.txt), whose header derives its counts.
#
# On an Origin of 32 nodes (64 CPUs), 20 CPUs read N lines and the first
# writes them: 19 invalidations per line, one more than the request
# queue holds.  As run_mdperf_micro.sh: runs of N and 2N lines side by
# side, one set live the whole run (-s), and at the lines' home (node 20,
# home of nothing else) every counter of sets 1-5 must differ by exactly
# the derived value (0 when not listed), set 0's mem_dir_busy and
# dir_busy too.
set -euo pipefail
hv=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: origin backoff: $*" >&2; exit 1; }
[ -x "$dir/wideinv" ] || fail "no $dir/wideinv"
echo '{ "platform": "origin", "chips": 32, "placement": "spread" }' > "$tmp/wide.json"

# run_sets NAME MD ARGS...: one run per set, rows (-x,) into $tmp/NAME.csv
run_sets() {
	local name=$1 md=$2 s
	shift 2
	: > "$tmp/$name.csv"
	for s in 0 1 2 3 4 5; do
		"$hv" mdperf --md "$md" -x, -s "$s" -- "$dir/wideinv" "$@" 2>> "$tmp/$name.csv" ||
			fail "$name: set $s: wideinv exited $?"
	done
}
# check WHAT NODE A.csv B.csv NAME=DELTA...: at NODE, B - A is DELTA for
# each listed counter, 0 for every other counter of sets 1-5
check() {
	local what=$1 node=$2 a=$3 b=$4
	shift 4
	awk -F, -v node="$node" -v want="$*" -v what="$what" '
		BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) { split(w[i], kv, "="); exp_[kv[1]] = kv[2] } }
		FNR == 1 { f++ }
		NF == 11 && $9 != "" && $1 == node { v[f, $5] = $6; set[$5] = $2; if ($9 != $10) bad = bad " set " $2 " live " $9 " of " $10 }
		END {
			for (c in set) {
				d = v[2, c] - v[1, c]
				if (c in exp_) { if (d != exp_[c]) bad = bad " " c "=" d " (want " exp_[c] ")"; seen++ }
				else if (set[c] != 0 && d != 0) bad = bad " " c "=" d " (want 0)"
			}
			if (seen != n) bad = bad " (" n - seen " listed counters not printed)"
			if (bad) { print what ": node " node ":" bad; exit 1 }
		}' "$a" "$b" || fail "$what (see above)"
}

n=63
run_sets wide1 "$tmp/wide.json" "$n" & p1=$!
run_sets wide2 "$tmp/wide.json" "$((2 * n))" & p2=$!
wait "$p1" || exit 1
wait "$p2" || exit 1
# per line: 20 reads (1 unowned, 1 exclusive by CPU 0: an intervention,
# 18 shared), the upgrade (a miscellaneous request, a backoff instead of
# 19 invalidations, the ack); memory serves 19 reads
check "backoff" 20 "$tmp/wide1.csv" "$tmp/wide2.csv" \
	reads=$((20 * n)) misc_req=$n revision_replies=$n unowned=$n excl_other=$n shared=$((18 * n)) \
	response=$((21 * n)) interv_inval=$n backoff_interv_inval=$n interv_rdsh=$n inval=0 \
	mem_dir_busy=$((19 * 16 * n)) dir_busy=$((8 * n))
echo "origin backoff: ok"
