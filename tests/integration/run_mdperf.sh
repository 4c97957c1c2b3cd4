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
# usage errors and platforms without Hub counters; the R10000 counters of
# `hvpmu stat -p origin` (exact counts on loop, overflow, refusals).
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
# node,set,set_name,counter,name,value,overflow,generation,live,periods;
# the generation is the system ENABLE's (1), read after the DISABLE too:
# irix-mdperf.2 lines 107-111 (docs/irix-mdperf.md)
awk -F, -v secs="$secs" '
	$2 == 0 && $1 >= 0 { n += $4 == 0; sum[$1] += $6; if ($8 != 1 || $9 != 1 || $10 != 1) bad = "generation/live " $0 }
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
grep -q '"node": 1, "set": 5, "set_name": "local_req", "counter": 0, "name": "cpu0_reads", "value": 0, "overflow": false, "generation": 1' "$tmp/j.json" ||
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

# the R10000's own counters (docs/r10k-counters.md): `hvpmu stat -p origin`
# with IRIX perfex names and numbers, exact on loop (its header: 31536
# instructions, 3002 loads + 1000 prefetches + 1000 syncs = 5002 R10000
# "loads" (load/prefetch/sync/cacheop), 2000 stores (SC included), 8006
# control transfers, 4003 FP, 1000 SC); one event per counter
r10k() { # r10k OUT ARGS...: hvpmu stat -p origin -x, into OUT
	local out=$1
	shift
	"$hv" stat -p origin -x, -o "$tmp/$out" "$@" -- "$loop" 2> "$tmp/$out.err" ||
		fail "stat -p origin $*: $(cat "$tmp/$out.err")"
}
val() { awk -F, -v e="$2" '$3 == e { print $1 }' "$tmp/$1"; }
want() { # want OUT EVENT VALUE
	[ "$(val "$1" "$2")" = "$3" ] || { cat "$tmp/$1" >&2; fail "stat -p origin: $2 = $(val "$1" "$2"), want $3"; }
}
r10k a -e Graduated_instructions,Graduated_loads
want a Graduated_instructions 31536
want a Graduated_loads 5002
r10k b -e 19,Decoded_branches
want b Graduated_stores 2000 # perfex -e 19: the row named by the event
want b Decoded_branches 8006
r10k c -e Graduated_floating_point_instructions,Issued_store_conditionals
want c Graduated_floating_point_instructions 4003
want c Issued_store_conditionals 1000
r10k d -e Graduated_store_conditionals,Issued_loads
want d Graduated_store_conditionals 1000
want d Issued_loads 5002
# modes: loop's one system call (exit) does not return, so no kernel path
r10k m -e Graduated_instructions:k,instructions:u
want m Graduated_instructions:k 0
want m instructions:u 31536
# not modeled: counted as not supported; the ECC event is exactly 0
r10k n -e TLB_misses,Correctable_scache_data_array_ECC_errors
want n TLB_misses "<not supported>"
want n Correctable_scache_data_array_ECC_errors 0
# IP[7] at bit 31: the driver extends the 32-bit counters (both start 256
# events below bit 31, or with bit 31 already set)
for init in $((0x7fffff00)) $((0xffffff00)); do
	r10k w --pic-init "$init" --overflow-log "$tmp/ovf" -e Graduated_instructions,Graduated_loads
	want w Graduated_instructions 31536
	want w Graduated_loads 5002
	grep -q 'pic=0 event=Graduated_instructions .*precise=0' "$tmp/ovf" &&
		grep -q 'pic=1 event=Graduated_loads .*precise=0' "$tmp/ovf" || { cat "$tmp/ovf" >&2; fail "overflow log $init"; }
done
[ "$(wc -l < "$tmp/ovf")" -eq 4 ] || { cat "$tmp/ovf" >&2; fail "0xffffff00: want two interrupts per counter"; }
# two events of one counter, SPARC names, :h: one line, usage status
for ev in Graduated_loads,Graduated_stores Instr_all Cycles:h 32; do
	rc=0; "$hv" stat -p origin -e "$ev" -- "$loop" 2> "$tmp/e" || rc=$?
	[ "$rc" -eq 129 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] || fail "stat -p origin -e $ev: $rc $(cat "$tmp/e")"
done
"$hv" stat -p origin -e Graduated_loads,Graduated_stores -- "$loop" 2> "$tmp/e" || true
grep -q "both count on R10000 counter 1 (events 16-31)" "$tmp/e" || fail "same-counter message: $(cat "$tmp/e")"
# cpustat samples the same counters (at the IRIX clock; loop is shorter
# than a tick: its total row)
"$hv" cpustat --platform origin -c pic0=Graduated_instructions,pic1=Graduated_loads 0.01 -- "$loop" 2> "$tmp/cs" ||
	fail "cpustat --platform origin"
grep -q ' total  *31536  *5002 *$' "$tmp/cs" || { cat "$tmp/cs" >&2; fail "cpustat --platform origin total"; }
"$hv" list > "$tmp/list" || fail "hvpmu list"
grep -q '^  Graduated_loads  *18  counter 1 ' "$tmp/list" || fail "hvpmu list: no R10000 events"

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
awk -F, '$9 == "" { sum[$11 "/" $1] += $6 }
	END {
		for (k in sum) { n++; if (sum[k] < 1998000 || sum[k] > 2002000) { print "interval " k ": " sum[k]; bad = 1 } }
		if (bad) exit 1
		if (n < 8) { print "only " n " interval rows"; exit 1 }
	}' "$tmp/i.csv" || fail "interval rows (see above)"
# one row shape (docs/cli.md "hvpmu mdperf"): interval rows and total rows
# have the same 11 columns; -j the same keys, each time shortest-exact
awk -F, 'NF != 11 { print "a row of " NF " fields: " $0; exit 1 }' "$tmp/i.csv" || fail "mdperf -x row shape"
"$hv" mdperf -j -s 0 0.02 -- "$xz" -T4 -c < "$tmp/in" > /dev/null 2> "$tmp/i.json" || fail "interval run -j"
python3 - "$tmp/i.json" <<'PY' || fail "mdperf -j interval rows"
import json, re, sys
keys, iv = None, 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert keys is None or list(o) == keys, (list(o), keys)
    keys = list(o)
    iv += o["ticks"] is None
    t = re.search(r'"time": ([^,}]+)', line).group(1).strip()
    assert repr(float(t)) in (t, t + ".0"), t  # the shortest decimal that reads back
assert iv >= 8, iv
PY
# the R10000 counters of four threads on four CPUs (each its own counters,
# summed), extended through IP[7] on every CPU: the same totals from
# 256 events below bit 31 (xz's work does not depend on the interleaving)
for init in 0 $((0x7fffff00)); do
	"$hv" stat -p origin -x, -o "$tmp/xs$init" --pic-init "$init" -e Graduated_instructions,Graduated_loads -- \
		"$xz" -T4 -c < "$tmp/in" > "$tmp/out2.xz" || fail "stat -p origin xz exited $?"
	xz -dc "$tmp/out2.xz" | cmp -s - "$tmp/in" || fail "stat -p origin xz round trip"
done
awk -F, 'FNR == 1 { f++ } { v[f, $3] = $1 }
	END {
		i = v[1, "Graduated_instructions"]; l = v[1, "Graduated_loads"]
		if (!(i > 100000000 && l > i / 10 && l < i)) { print "xz: " i " instructions, " l " loads"; exit 1 }
		d = v[2, "Graduated_instructions"] - i; if (d < 0) d = -d
		if (d > i / 1000) { print "xz with --pic-init: " v[2, "Graduated_instructions"] " vs " i; exit 1 }
	}' "$tmp/xs0" "$tmp/xs$((0x7fffff00))" || fail "stat -p origin xz (see above)"
echo "mdperf: ok"
