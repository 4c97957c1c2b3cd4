#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu mdperf` on the SGI Origin (docs/cli.md "hvpmu mdperf",
# docs/irix-mdperf.md), end to end under qemu-mips64:
#   run_mdperf.sh HVPMU LOOP [XZ TEXT]
# LOOP is workloads/mips64/loop; XZ a mips64 xz (scripts/build-xz-mips64.sh).
# Checks: set 0 accounts for every Hub cycle of the run on every node
# (idle, refresh, busy: the MD timing of docs/origin-directory.md), in the
# 100 MHz Hub clock; the sum column; generations; one node (-n); the
# multiplexing shares of a multi-threaded run over many ticks; interval
# rows of exactly two ticks each; the round trip of xz's output; the
# usage errors and platforms without Hub counters.
set -euo pipefail
hv=$1 loop=$2 xz=${3:-} text=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: mdperf: $*" >&2; exit 1; }

# loop: shorter than a tick; set 0 live the whole (single) period
"$hv" mdperf -s 0 -- "$loop" 2> "$tmp/t.txt" || fail "loop exited $?"
secs=$(sed -n 's/.*ticks, \([0-9.]*\) s modeled.*/\1/p' "$tmp/t.txt")
[ -n "$secs" ] || { cat "$tmp/t.txt" >&2; fail "no modeled time"; }
"$hv" mdperf -x, -s 0 -- "$loop" 2> "$tmp/l.csv" || fail "loop csv"
# node,set,set_name,counter,name,value,overflow,generation,live,periods
awk -F, -v secs="$secs" '
	$2 == 0 && $1 >= 0 { n += $4 == 0; sum[$1] += $6; if ($8 != 2 || $9 != 1 || $10 != 1) bad = "generation/live " $0 }
	$2 == 0 && $1 >= 0 && $4 == 2 && $6 == 0 { bad = "no refresh cycles: " $0 }
	$2 == 0 && $1 == 0 && $4 == 4 { memdir = $6 }
	$2 == 0 && $1 == -1 { all += $6 }
	END {
		if (bad) { print bad; exit 1 }
		if (n != 4) { print "nodes " n; exit 1 }
		want = secs * 1e8  # Hub cycles of the run; secs has 1 us = 100 cycles resolution
		for (i = 0; i < 4; i++)
			if (sum[i] < want - 100 || sum[i] > want + 100) { print "node " i " set 0 sums to " sum[i] " want " want; exit 1 }
		if (all != sum[0] + sum[1] + sum[2] + sum[3]) { print "sum " all; exit 1 }
		if (memdir == 0) { print "node 0 (home of the program) served no line"; exit 1 }
	}' "$tmp/l.csv" || fail "loop set 0 (see above)"
# one node
"$hv" mdperf -n 2 -x, -- "$loop" 2> "$tmp/n.csv" || fail "-n 2"
[ "$(cut -d, -f1 "$tmp/n.csv" | sort -u)" = 2 ] || fail "-n 2 printed other nodes"
[ "$(wc -l < "$tmp/n.csv")" -eq 36 ] || fail "-n 2: $(wc -l < "$tmp/n.csv") rows, want 36"
# JSON keys
"$hv" mdperf -j -s local_req -- "$loop" 2> "$tmp/j.json" || fail "-j"
# node 1 has no CPU running and holds no page: nothing local
grep -q '"node": 1, "set": 5, "set_name": "local_req", "counter": 0, "name": "cpu0_reads", "value": 0, "overflow": false, "generation": 2' "$tmp/j.json" ||
	{ head -2 "$tmp/j.json" >&2; fail "-j keys"; }
# node 0: the program's lines (first touched by CPU 0) are CPU 0's local reads
grep -q '"node": 0, "set": 5, "set_name": "local_req", "counter": 0, "name": "cpu0_reads", "value": [1-9]' "$tmp/j.json" ||
	{ head -2 "$tmp/j.json" >&2; fail "-j node 0 local reads"; }

# usage errors and platforms
rc=0; "$hv" mdperf -n 9 -- "$loop" 2> "$tmp/e" || rc=$?
[ "$rc" -eq 129 ] && grep -q "no node 9 (the machine has nodes 0-3)" "$tmp/e" || fail "-n 9: $rc $(cat "$tmp/e")"
rc=0; "$hv" mdperf -s bogus -- "$loop" 2> "$tmp/e" || rc=$?
[ "$rc" -eq 129 ] && grep -q "unknown set 'bogus'" "$tmp/e" || fail "-s bogus: $rc"
rc=0; "$hv" mdperf -n 1 -a -- "$loop" 2> "$tmp/e" || rc=$?
[ "$rc" -eq 129 ] || fail "-n -a: $rc"
rc=0; "$hv" stat -p origin -e Instr_all -- "$loop" 2> "$tmp/e" || rc=$?
[ "$rc" -eq 129 ] && grep -q "no CPU counter driver" "$tmp/e" || fail "stat -p origin: $rc $(cat "$tmp/e")"

# pingpong (workloads/mips64/c/pingpong.c): a line between CPU 0 (node 0)
# and CPU 2 (node 1, placement spread) through pipes; runs of N and 2N turns
# per thread differ at node 0 by 2N invalidations and 2N read-shared
# interventions, nothing at nodes 1-3.  The programs are bound at load
# time (-z now), so the threads' start and end are the only accesses the
# pipes do not order: observed within 1 (invalidations) and 4
# (interventions: 196 to 204 per 200 turns over two sessions) of 2N, under
# host loads of 5 to 6 on 2 cores; bounds 4 and 8 (docs/origin-directory.md
# "Determinism").
pp=$(dirname "$loop")/pingpong
if [ -x "$pp" ]; then
	echo '{ "platform": "origin", "placement": "spread" }' > "$tmp/spread.json"
	for n in 100 200; do
		"$hv" mdperf --md "$tmp/spread.json" -x, -s inval_class -- "$pp" "$n" 2> "$tmp/pp$n.csv" ||
			fail "pingpong $n exited $?"
	done
	awk -F, '
		FNR == 1 { f++ }
		$1 >= 0 { v[f, $1, $5] = $6 }
		END {
			di = v[2, 0, "inval"] - v[1, 0, "inval"]
			if (di < 196 || di > 204) { print "inval delta " di ", want 200 +- 4"; exit 1 }
			ds = v[2, 0, "interv_rdsh"] - v[1, 0, "interv_rdsh"]
			if (ds < 192 || ds > 208) { print "interv_rdsh delta " ds ", want 200 +- 8"; exit 1 }
			for (n = 1; n < 4; n++) if (v[2, n, "inval"] || v[2, n, "interv_rdex"]) { print "node " n " busy"; exit 1 }
		}' "$tmp/pp100.csv" "$tmp/pp200.csv" || fail "pingpong (see above)"
fi

[ -n "$xz" ] && [ -x "$xz" ] || { echo "mdperf: no mips64 xz, multi-threaded part skipped"; exit 0; }
head -c 65536 "$text" > "$tmp/in"
# xz -T4, every set multiplexed: shares differ by at most one period
"$hv" mdperf -x, -- "$xz" -T4 -c < "$tmp/in" > "$tmp/out.xz" 2> "$tmp/x.csv" || fail "xz exited $?"
xz -dc "$tmp/out.xz" | cmp -s - "$tmp/in" || fail "xz round trip"
awk -F, '
	$1 >= 0 && $4 == 0 { live[$1, $2] = $9; per[$1] = $10 }
	$1 == 0 && $2 == 0 && $4 == 0 { idle = $6 }
	END {
		if (per[0] < 12) { print "only " per[0] " periods"; exit 1 }
		for (n = 0; n < 4; n++) {
			if (per[n] != per[0]) { print "periods differ"; exit 1 }
			lo = 1e18; hi = 0; sum = 0
			for (s = 0; s < 6; s++) { v = live[n, s]; sum += v; if (v < lo) lo = v; if (v > hi) hi = v }
			if (sum != per[n] || hi - lo > 1) { print "node " n " shares " lo ".." hi " of " sum; exit 1 }
		}
		# set 0 live in live[0,0] periods of 1,000,000 Hub cycles, the last partial
		if (idle > live[0, 0] * 1000000 * 1.01 || idle < (live[0, 0] - 1) * 1000000 * 0.99) {
			print "idle " idle " over " live[0, 0] " periods"; exit 1 }
	}' "$tmp/x.csv" || fail "xz multiplexing (see above)"
# interval rows of 0.02 s: two ticks, 2,000,000 Hub cycles of set 0 per
# node (idle + refresh + busy; the tick is taken at the first sync past its
# deadline: within 0.1 %)
"$hv" mdperf -x, -s 0 0.02 -- "$xz" -T4 -c < "$tmp/in" > /dev/null 2> "$tmp/i.csv" || fail "interval run"
awk -F, 'NF == 9 { sum[$1 "/" $2] += $7 }
	END {
		for (k in sum) { n++; if (sum[k] < 1998000 || sum[k] > 2002000) { print "interval " k ": " sum[k]; bad = 1 } }
		if (bad) exit 1
		if (n < 8) { print "only " n " interval rows"; exit 1 }
	}' "$tmp/i.csv" || fail "interval rows (see above)"
echo "mdperf: ok"
