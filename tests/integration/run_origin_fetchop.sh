#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The SGI Origin Hub's fetch-and-op region (issue 31), end to end under
# qemu-mips64 through `hvpmu mdperf` (docs/origin-directory.md
# "Fetch-and-op"):
#   run_origin_fetchop.sh HVPMU DIR
# DIR holds workloads/mips64/c/fetchop.c's program (built by
# workloads/mips64/CMakeLists.txt), whose header derives its counts.
#
# As run_mdperf_micro.sh: runs of N and 2N, one set live the whole run
# (-s), and at node 0 (the program's) every counter of sets 1-5 must
# differ by exactly the derived value (0 when not listed), set 0's
# busy kinds too.  The program is single-threaded: node 0's other
# traffic (the program and its C library) is the same in both runs.
# With the region in the description ("fetchop_va", "fetchop_bytes") its
# loads and stores are fetch-and-ops at the Hub; without it (the default)
# they are the program's cached accesses.
set -euo pipefail
hv=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: origin fetchop: $*" >&2; exit 1; }
[ -x "$dir/fetchop" ] || fail "no $dir/fetchop"
# the region: 16 KB at 0x100000000, where fetchop.c maps it
echo '{ "platform": "origin", "fetchop_va": 4294967296, "fetchop_bytes": 16384 }' > "$tmp/fop.json"
echo '{ "platform": "origin" }' > "$tmp/nofop.json"

# run_sets NAME MD ARGS...: one run per set, rows (-x,) into $tmp/NAME.csv
run_sets() {
	local name=$1 md=$2 s
	shift 2
	: > "$tmp/$name.csv"
	for s in 0 1 2 3 4 5; do
		env -i PATH=/usr/bin:/bin "$hv" mdperf --md "$md" -x, -s "$s" -- "$dir/fetchop" "$@" 2>> "$tmp/$name.csv" ||
			fail "$name: set $s: fetchop exited $?"
	done
}
# check WHAT A.csv B.csv NAME=DELTA...: at node 0, B - A is DELTA for each
# listed counter, 0 for every other counter of sets 1-5
check() {
	local what=$1 a=$2 b=$3
	shift 3
	awk -F, -v want="$*" -v what="$what" '
		BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) { split(w[i], kv, "="); exp_[kv[1]] = kv[2] } }
		FNR == 1 { f++ }
		NF == 11 && $9 != "" && $1 == 0 { v[f, $5] = $6; set[$5] = $2; if ($9 != $10) bad = bad " set " $2 " live " $9 " of " $10 }
		END {
			for (c in set) {
				d = v[2, c] - v[1, c]
				if (c in exp_) { if (d != exp_[c]) bad = bad " " c "=" d " (want " exp_[c] ")"; seen++ }
				else if (set[c] != 0 && d != 0) bad = bad " " c "=" d " (want 0)"
			}
			if (seen != n) bad = bad " (" n - seen " listed counters not printed)"
			if (bad) { print what ": node 0:" bad; exit 1 }
		}' "$a" "$b" || fail "$what (see above)"
}

n=100
run_sets fop1 "$tmp/fop.json" "$n" & p1=$!
run_sets fop2 "$tmp/fop.json" "$((2 * n))" & p2=$!
wait "$p1" || exit 1
wait "$p2" || exit 1
check "fetchop region" "$tmp/fop1.csv" "$tmp/fop2.csv" \
	fop_hit=$((2 * n)) fop_miss=$((2 * n)) response=$((3 * n)) other_reply=$n cpu0_reads=$((4 * n)) \
	misc_busy=$((8 * n)) mem_dir_busy=$((32 * n)) dir_busy=0 blocked=0

# the default: no region; the variables are two cached lines of node 0,
# touched in both runs alike
run_sets nofop1 "$tmp/nofop.json" "$n" & p1=$!
run_sets nofop2 "$tmp/nofop.json" "$((2 * n))" & p2=$!
wait "$p1" || exit 1
wait "$p2" || exit 1
check "no region" "$tmp/nofop1.csv" "$tmp/nofop2.csv" misc_busy=0 mem_dir_busy=0 dir_busy=0
echo "origin fetchop: ok"
