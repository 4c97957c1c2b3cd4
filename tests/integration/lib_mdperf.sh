# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the mdperf micro-benchmark tests (run_mdperf_micro.sh,
# run_origin_{io,fetchop,migrate,backoff}.sh): runs of N and 2N, one Hub
# counter set live the whole run (-s), and the differences of each
# node's counters checked against the values the programs' headers
# derive.  The sourcing script sets hv (hvpmu), dir (the programs), tmp
# (a scratch directory) and fail(); with mdperf_clean_env=1 each run gets
# only PATH (the environment's size moves a guest's stack, and with it
# its counts).

# run_sets NAME MD PROGRAM ARGS...: one run per set, rows (-x,) into $tmp/NAME.csv
run_sets() {
	local name=$1 md=$2 prog=$3 s
	local -a env_i=()
	shift 3
	[ -x "$dir/$prog" ] || fail "no $dir/$prog"
	[ "${mdperf_clean_env:-0}" = 1 ] && env_i=(env -i PATH=/usr/bin:/bin)
	: > "$tmp/$name.csv"
	for s in 0 1 2 3 4 5; do
		"${env_i[@]}" "$hv" mdperf ${md:+--md "$md"} -x, -s "$s" -- "$dir/$prog" "$@" 2>> "$tmp/$name.csv" ||
			fail "$name: set $s: $prog exited $?"
	done
}
# pair NAME MD PROGRAM "ARGS1" "ARGS2": the two sizes side by side (NAME1, NAME2)
pair() {
	local p1 p2
	# shellcheck disable=SC2086 # the sizes are words
	run_sets "${1}1" "$2" "$3" $4 & p1=$!
	# shellcheck disable=SC2086
	run_sets "${1}2" "$2" "$3" $5 & p2=$!
	wait "$p1" || exit 1
	wait "$p2" || exit 1
}

# check WHAT NODE A.csv B.csv NAME=DELTA...: at NODE, B - A is DELTA for
# each listed counter (set 0's by name: mem_cycles's counters only when
# listed), 0 for every other counter of sets 1-5; DELTA "any" skips one.
# Each set must have been live in every period of its run (mdperf's
# 11-column rows, docs/cli.md: node, set, ..., counter $5, value $6,
# periods live $9 of $10).
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
				if (c in exp_) { if (exp_[c] != "any" && d != exp_[c]) bad = bad " " c "=" d " (want " exp_[c] ")"; seen++ }
				else if (set[c] != 0 && d != 0) bad = bad " " c "=" d " (want 0)"
			}
			if (seen != n) bad = bad " (" n - seen " listed counters not printed)"
			if (bad) { print what ": node " node ":" bad; exit 1 }
		}' "$a" "$b" || fail "$what (see above)"
}
