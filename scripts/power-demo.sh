#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The main job on the POWER platform (issue 15): a CEC of four POWER7 chips
# (scripts/power-cec.json) whose three partitions each run zlib's minigzip,
# built for ppc64 from Debian's source, over a multi-megabyte text, at once:
#   1 "dedicated": 2 dedicated processors, donating its idle ones;
#   2 "capped":    shared capped, 0.5 processing units;
#   3 "uncapped":  shared uncapped, 0.5 units, weight 128;
# one shared processor in the pool, the rest unlicensed.  While they run,
# `hvpmu gpci --service` samples every request of H_GetPerformanceCounterInfo
# from partition 1 (the one allowed to see the others) every second; the last
# sample, after the three programs end, is checked against the accounting
# invariants (docs/papr-dispatcher.md) and the programs' own instruction
# counts.  usage: power-demo.sh [TEXT]   (default $HVPMU_TEXT)
set -euo pipefail
. "$(dirname "$0")/common.sh"
text=${1:-$HVPMU_TEXT}
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
gz=$("$(dirname "$0")/build-zlib.sh" ppc64)
[ -r "$text" ] || die "input text $text missing"
hv=$HVPMU_WORK/release/src/hvpmu
out=$HVPMU_WORK/power-demo
mkdir -p "$out"
name=power-demo-$$
srv=
trap '[ -z "$srv" ] || kill -TERM "$srv" 2> /dev/null || true' EXIT

"$hv" serve --md "$HVPMU_ROOT/scripts/power-cec.json" --name "$name" 2> "$out/serve.log" &
srv=$!
for _ in $(seq 100); do grep -q "^hvpmu serve: service" "$out/serve.log" && break; sleep 0.05; done
grep -q "^hvpmu serve: service" "$out/serve.log" || { cat "$out/serve.log" >&2; die "the service did not start"; }

say "three partitions: minigzip < $text ($(stat -c %s "$text") bytes) each; hvpmu gpci samples every second"
"$hv" gpci --service "$name" 1 > "$out/samples.txt" &
sampler=$!
run_one() { # run_one PARTITION: minigzip in the partition, timed (wall clock)
	local t0
	t0=$(date +%s.%N)
	"$hv" run --service "$name" --guest "$1" -- "$gz" < "$text" > "$out/$1.gz"
	echo "$1: $(echo "$(date +%s.%N) - $t0" | bc) s wall" > "$out/$1.time"
}
pids=()
for p in dedicated capped uncapped; do
	run_one "$p" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
kill -INT "$sampler" 2> /dev/null || true
wait "$sampler" || true
cat "$out"/*.time >&2
for p in dedicated capped uncapped; do
	gzip -dc "$out/$p.gz" | cmp -s - "$text" || die "$p: the output does not decompress to the input"
done
say "round trips ok; the last sample (after the programs ended):"
"$hv" gpci --service "$name" | tee "$out/final.txt"
"$hv" gpci --service "$name" -x, > "$out/final.csv"

say "the programs' own instruction counts (hvpmu stat -p power, one at a time)"
"$hv" stat -p power -x, -- "$gz" < "$text" 2> "$out/stat.csv" > /dev/null
insns=$(awk -F, '$3 == "instructions:u" { print $1 }' "$out/stat.csv")

say "accounting invariants (docs/papr-dispatcher.md)"
awk -F, -v insns="$insns" '
	$1 == "retrieve_hpmcx" && $2 == 0 { tb = $5 }
	$1 == "dispatch_purr_by_processor" { purr[$2] = $3 }
	$1 == "entitled_capped_uncapped_donated_idle_purr_by_partition" {
		ent[$3] = $4; cap[$3] = $5; unc[$3] = $6; don[$3] = $7 }
	$1 == "run_instructions_run_cycles_by_partition" { run[$3] = $4 }
	END {
		bad = 0
		for (p in purr) if (purr[p] + 0 > tb + 0) { print "processor " p ": PURR " purr[p] " > timebase " tb; bad = 1 }
		if (cap["0x2"] + 0 > ent["0x2"] + 0) { print "capped partition beyond its entitlement"; bad = 1 }
		if (unc["0x2"] + 0 != 0) { print "capped partition ran uncapped cycles"; bad = 1 }
		if (don["0x2"] + don["0x3"] != 0) { print "a shared partition donated"; bad = 1 }
		for (p in run) if (run[p] != insns) { print "partition " p ": run-latch instructions " run[p] " != " insns; bad = 1 }
		printf "elapsed timebase %d; capped partition %.3f of its entitlement used; uncapped %d cycles beyond entitlement, %d donated by partition 1\n",
			tb, cap["0x2"] / ent["0x2"], unc["0x3"], don["0x1"]
		exit bad
	}' "$out/final.csv"
say "ok: run-latch instructions = $insns per partition; samples in $out/samples.txt"
