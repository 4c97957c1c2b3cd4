#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_power_service.sh: the PAPR hypervisor's dispatcher on real programs
# (docs/papr-dispatcher.md): a POWER CEC of three partitions
# (scripts/power-cec.json: dedicated donating, shared capped 0.5 units,
# shared uncapped 0.5 units; one shared processor; 100 us dispatch
# windows) in hvpmu serve, each
# running a ppc64 minigzip at once, while hvpmu gpci --service samples.
#
# usage: run_power_service.sh HVPMU MINIGZIP_PPC64 TEXT CEC_JSON
#
# Checks, on the counts H_GetPerformanceCounterInfo returns after the
# programs end (issue 15's invariants):
#   - per processor, PURR cycles <= the elapsed timebase;
#   - the capped partition: consumed capped <= entitled, no uncapped
#     cycles, and held to its entitlement: it runs through the others'
#     run, so the elapsed time is about its work at 0.5 units (run-latch
#     cycles <= entitled <= 1.2 x run-latch cycles);
#   - donated cycles only from the donating dedicated partition, and
#     they are the uncapped partition's cycles on its lent processor
#     (uncapped >= donated > 0: the pool alone is full);
#   - run-latch instructions of every partition = its program's retired
#     instructions under hvpmu stat -p power, exactly;
#   - links: idle <= total = the elapsed timebase, and the X link between
#     chips 0 and 1 carried lines (the uncapped partition runs on chip 1);
#   - the samples taken while the programs ran never go backwards;
#   - partition 2 (no right to see others) gets H_AUTHORITY for the
#     CEC-wide requests and its own list for the others;
#   - bad use: one line, non-zero exit;
#   - uncapped shares follow the weights (192:64: the heavy partition's
#     uncapped cycles about 1.5x its capped ones, a second CEC).
set -euo pipefail
hvpmu=$1
gz=$2
text=$3
cec=$4
. "$(dirname "${BASH_SOURCE[0]}")/lib_service.sh"
service_test power_service
head -c 60000 "$text" > "$tmp/in"
name=power-$$
cd "$tmp"

# the CEC with a dispatch window of 100 us instead of 10 ms: the run spans
# many windows, so a partition's entitlement unused before the programs
# start cannot carry it through the run (a burst within one window)
sed 's/"cec": {/"cec": { "dispatch_window_us": 100,/' "$cec" > "$tmp/cec.json"
grep -q dispatch_window_us "$tmp/cec.json" || fail "cannot set the window in $cec"
# start_service JSON LOG: hvpmu serve of that description as $name, in $srv
start_service() {
	env -i "$hvpmu" serve --md "$1" --name "$name" 2> "$2" &
	srv=$!
	for _ in $(seq 100); do
		grep -q "^hvpmu serve: service '$name'" "$2" && return 0
		sleep 0.05
	done
	cat "$2" >&2
	fail "the service of $1 did not start"
}
# release_together FD...: the programs in pids[] are blocked reading
# their FIFOs (open for writing on FD...): stop their emulators, write the
# input to each FD (it fits the pipe) and close it, then continue the
# emulators with one kill
release_together() {
	local emus=() e fd
	for p in "${pids[@]}"; do
		e=$(pgrep -P "$p" || true)
		[ -n "$e" ] || fail "no emulator under hvpmu run $p"
		emus+=($e)
	done
	kill -STOP "${emus[@]}"
	for e in "${emus[@]}"; do
		for _ in $(seq 200); do
			[ "$(awk '{ print $3 }' "/proc/$e/stat" 2> /dev/null)" = T ] && continue 2
			sleep 0.01
		done
		fail "emulator $e did not stop"
	done
	for fd in "$@"; do
		cat "$tmp/in" >&"$fd"
		eval "exec $fd>&-"
	done
	kill -CONT "${emus[@]}"
}
start_service "$tmp/cec.json" "$tmp/serve.log"

# before anything runs: every counter 0, the description's fields
env -i "$hvpmu" gpci --service "$name" -r 0x30 -x, > "$tmp/zero.csv"
awk -F, 'NR > 1 && ($4 != 0 || $5 != 0) { exit 1 }' "$tmp/zero.csv" || { cat "$tmp/zero.csv" >&2; fail "counts before any program"; }

# The three start together in machine time: each reads its input from a
# FIFO and blocks there (waiting in the OS: no machine time passes for it)
# once its dynamic loader has run; the inputs are written when all three
# have attached and run.
pids=()
fd=3
for p in dedicated capped uncapped; do
	mkfifo "$tmp/$p.in"
	# (no program holds another's FIFO open for writing: 3-5 closed)
	env -i "$hvpmu" run --service "$name" --guest "$p" -- "$gz" < "$tmp/$p.in" > "$tmp/$p.gz" 3>&- 4>&- 5>&- &
	pids+=($!)
	eval "exec $fd> \"\$tmp/\$p.in\""
	fd=$((fd + 1))
done
for _ in $(seq 200); do
	env -i "$hvpmu" gpci --service "$name" -r 0x30 -x, > "$tmp/started.csv" 3>&- 4>&- 5>&-
	awk -F, 'NR > 1 && $4 > 0 { n++ } END { exit n != 3 }' "$tmp/started.csv" && break
	sleep 0.05
done
awk -F, 'NR > 1 && $4 > 0 { n++ } END { exit n != 3 }' "$tmp/started.csv" || { cat "$tmp/started.csv" >&2; fail "the programs did not start"; }
env -i "$hvpmu" gpci --service "$name" -r 0x20 -x, 0.1 > "$tmp/samples.csv" 3>&- 4>&- 5>&- &
sampler=$!
# samples: one taken before the programs go on, one after they end
for _ in $(seq 200); do
	[ "$(grep -c '^[0-9.]*,entitled' "$tmp/samples.csv")" -ge 3 ] && break
	sleep 0.05
done
# The inputs go in while the three emulators are stopped, and one kill
# continues them: a program woken by its input as the writer comes runs
# on the machine while the others still wait in the OS, and under load
# three writers can start tens of milliseconds apart (CI, 2026-11-29:
# the capped partition entitled to 1.2 x its run, the bound below).
# (each input fits a pipe's 64 KB: no program waits for its writer, and
# the stopped reader's read returns it whole; at half speed the capped
# partition runs through the others' whole run)
release_together 3 4 5
for p in "${pids[@]}"; do wait "$p" || fail "a program failed"; done
n=$(grep -c '^[0-9.]*,entitled' "$tmp/samples.csv" || true)
for _ in $(seq 200); do
	[ "$(grep -c '^[0-9.]*,entitled' "$tmp/samples.csv")" -ge $((n + 3)) ] && break
	sleep 0.05
done
kill -INT "$sampler"
wait "$sampler" || true
for p in dedicated capped uncapped; do
	gzip -dc "$tmp/$p.gz" | cmp -s - "$tmp/in" || fail "$p: output does not decompress to the input"
done
# the samples: a header, then per sample three lines stamped with its time; never backwards
[ "$(head -n1 "$tmp/samples.csv" | cut -d, -f1)" = time ] || fail "samples: no time column"
[ "$(grep -c entitled "$tmp/samples.csv")" -ge 6 ] || { cat "$tmp/samples.csv" >&2; fail "fewer than two samples"; }
awk -F, 'NR > 1 { k = $4; for (f = 5; f <= 10; f++) { if ($f + 0 < last[k, f] + 0) exit 1; last[k, f] = $f } }' "$tmp/samples.csv" ||
	{ cat "$tmp/samples.csv" >&2; fail "a sampled counter went backwards"; }

env -i "$hvpmu" gpci --service "$name" -x, > "$tmp/final.csv"
# -j samples: the time a JSON number printed shortest-exact (issue 32)
env -i "$hvpmu" gpci --service "$name" -r 0x20 -j 0.01 2 > "$tmp/sj.json" || fail "gpci -j sampling"
python3 - "$tmp/sj.json" <<'PY' || { cat "$tmp/sj.json" >&2; fail "gpci -j: times not shortest-exact"; }
import json, re, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    t = re.search(r'"time":([^,}]+)', line.replace(" ", "")).group(1)
    assert repr(float(t)) in (t, t + ".0"), t
    n += 1
assert n >= 2, n
PY
env -i "$hvpmu" stat -p power -x, -- "$gz" < "$tmp/in" 2> "$tmp/stat.csv" > /dev/null
insns=$(awk -F, '$3 == "instructions:u" { print $1 }' "$tmp/stat.csv")
[ -n "$insns" ] && [ "$insns" -gt 1000000 ] || { cat "$tmp/stat.csv" >&2; fail "no instruction count from hvpmu stat"; }
awk -F, -v insns="$insns" '
	function bad(why) { print "FAIL: power_service: " why > "/dev/stderr"; failed = 1 }
	$1 == "retrieve_hpmcx" && $2 == 0 { tb = $5 }
	$1 == "dispatch_purr_by_processor" { purr[$2] = $3 }
	$1 == "entitled_capped_uncapped_donated_idle_purr_by_partition" {
		ent[$3] = $4; cap[$3] = $5; unc[$3] = $6; don[$3] = $7 }
	$1 == "run_instructions_run_cycles_by_partition" { ins[$3] = $4; cyc[$3] = $5 }
	$1 == "processor_bus_utilization_wxyz_links" { xi[$3] = $6; xt[$3] = $7 }
	$1 == "processor_bus_utilization_abc_links" { ai[$3] = $4; at[$3] = $5 }
	END {
		if (!(tb > 0)) bad("no elapsed timebase")
		for (p in purr) if (purr[p] + 0 > tb + 0) bad("processor " p ": PURR " purr[p] " > timebase " tb)
		if (cap["0x2"] + 0 > ent["0x2"] + 0) bad("capped partition beyond its entitlement")
		if (unc["0x2"] + 0 != 0) bad("capped partition ran uncapped cycles")
		if (ent["0x2"] + 0 < cyc["0x2"] * 0.98) bad("capped partition not held to its entitlement: entitled " ent["0x2"] " < run " cyc["0x2"])
		# ... and no longer than that: it runs through, so the elapsed time is its
		# work at its entitlement (0.5) plus the start of the programs
		if (ent["0x2"] + 0 > cyc["0x2"] * 1.2) bad("capped partition held too long: entitled " ent["0x2"] " > 1.2 x run " cyc["0x2"])
		if (don["0x2"] + don["0x3"] != 0) bad("a shared partition donated")
		if (!(don["0x1"] > 0) || unc["0x3"] + 0 < don["0x1"] + 0) bad("donation: " don["0x1"] ", uncapped " unc["0x3"])
		n = 0
		for (p in ins) { n++; if (ins[p] != insns) bad("partition " p ": run-latch instructions " ins[p] " != " insns) }
		if (n != 3) bad(n " partitions")
		for (c in xt) if (xi[c] + 0 > xt[c] + 0 || xt[c] != tb) bad("chip " c ": X link idle " xi[c] " total " xt[c])
		for (c in at) if (ai[c] + 0 > at[c] + 0 || at[c] != tb) bad("chip " c ": A link idle " ai[c] " total " at[c])
		if (!(xi["0x10"] < xt["0x10"])) bad("no line crossed the X link of chips 0 and 1")
		printf "timebase %d; capped: entitled %d capped %d run %d; uncapped %d; donated %d; X link busy %d\n",
			tb, ent["0x2"], cap["0x2"], cyc["0x2"], unc["0x3"], don["0x1"], xt["0x10"] - xi["0x10"]
		exit failed
	}' "$tmp/final.csv" || { cat "$tmp/final.csv" >&2; exit 1; }

# partition 2 may not see the others
rc=0
env -i "$hvpmu" gpci --service "$name" --partition 2 -x, > "$tmp/p2.csv" 2> "$tmp/p2.err" || rc=$?
[ "$rc" = 1 ] || fail "partition 2: exit $rc"
grep -q 'dispatch_purr_by_processor (0x10): H_AUTHORITY' "$tmp/p2.err" || { cat "$tmp/p2.err" >&2; fail "no H_AUTHORITY"; }
[ "$(grep -c '^entitled_capped_uncapped_donated_idle_purr_by_partition,' "$tmp/p2.csv")" = 1 ] ||
	{ cat "$tmp/p2.csv" >&2; fail "partition 2 does not get its own list only"; }

# bad use: one line, non-zero
for args in "--service nosuch-$$" "--service $name -p power" "0.5" "--service $name 0" "--service $name 1 2 3" \
	"--service $name --partition 9"; do
	rc=0
	env -i "$hvpmu" gpci $args > /dev/null 2> "$tmp/e" || rc=$?
	[ "$rc" != 0 ] && [ "$(wc -l < "$tmp/e")" = 1 ] || { cat "$tmp/e" >&2; fail "'$args': exit $rc"; }
done
echo "power_service: invariants ok ($insns instructions per partition)"

# Uncapped shares follow the weights: two uncapped partitions of 0.25
# units, weights 192 and 64, on a pool of one processor (no lending: the
# dedicated partition does not donate).  Each window the shares go first
# (0.25 each), the spare half by weight 3:1: the heavy one's uncapped
# cycles are about 1.5 times its capped ones (1.44 with the shares taken
# at the window's start: docs/papr-dispatcher.md), 1.0 with equal
# weights, 3.0 if it took all the spare.
kill -TERM "$srv"
wait "$srv" || fail "serve exited with $?"
procs=
for p in $(seq 0 31); do
	case $p in
	0) st='"state": "dedicated", "owner": 1' ;;
	1) st='"state": "shared"' ;;
	*) st='"state": "unlicensed"' ;;
	esac
	procs="$procs${procs:+, }{ \"chip\": $((p / 8)), $st }"
done
cat > "$tmp/weights.json" << JSON
{ "platform": "power",
  "cec": { "dispatch_window_us": 100, "procs": [ $procs ],
    "partitions": [
      { "id": 1, "mode": "dedicated", "vps": 1, "collect_privileged": true },
      { "id": 2, "mode": "uncapped", "entitlement": 0.25, "weight": 192 },
      { "id": 3, "mode": "uncapped", "entitlement": 0.25, "weight": 64 } ] },
  "guests": [
    { "name": "d", "first_strand": 0, "nstrands": 4, "mblock": [ { "base": 0, "size": 67108864 } ] },
    { "name": "heavy", "first_strand": 4, "nstrands": 4, "mblock": [ { "base": 0, "size": 67108864 } ] },
    { "name": "light", "first_strand": 8, "nstrands": 4, "mblock": [ { "base": 0, "size": 67108864 } ] } ] }
JSON
start_service "$tmp/weights.json" "$tmp/serve2.log"
# both start together through FIFOs, as above; at its lower rate the
# light one runs through the heavy one's whole life
pids=()
for p in heavy light; do
	mkfifo "$tmp/$p.in"
	env -i "$hvpmu" run --service "$name" --guest "$p" -- "$gz" < "$tmp/$p.in" > "$tmp/$p.gz" 6>&- 7>&- &
	pids+=($!)
	if [ "$p" = heavy ]; then exec 6> "$tmp/$p.in"; else exec 7> "$tmp/$p.in"; fi
done
for _ in $(seq 400); do
	env -i "$hvpmu" gpci --service "$name" -r 0x30 -x, > "$tmp/started2.csv" 6>&- 7>&-
	awk -F, 'NR > 1 && $4 > 0 { n++ } END { exit n != 2 }' "$tmp/started2.csv" && break
	sleep 0.05
done
awk -F, 'NR > 1 && $4 > 0 { n++ } END { exit n != 2 }' "$tmp/started2.csv" || { cat "$tmp/started2.csv" >&2; fail "weights: the programs did not start"; }
release_together 6 7
for p in "${pids[@]}"; do wait "$p" || fail "weights: a program failed"; done
env -i "$hvpmu" gpci --service "$name" -r 0x20 -x, > "$tmp/weights.csv"
awk -F, '
	$1 ~ /^entitled/ { cap[$3] = $5; unc[$3] = $6; don[$3] = $7 }
	END {
		r = cap["0x2"] > 0 ? unc["0x2"] / cap["0x2"] : 0
		printf "weights: the heavy partition: uncapped / capped %.3f (want about 1.5)\n", r
		if (r < 1.2 || r > 1.8) { print "FAIL: power_service: weights: heavy uncapped / capped " r > "/dev/stderr"; exit 1 }
		if (don["0x1"] + don["0x2"] + don["0x3"] != 0) { print "FAIL: power_service: weights: a donation" > "/dev/stderr"; exit 1 }
	}' "$tmp/weights.csv" || { cat "$tmp/weights.csv" >&2; exit 1; }
echo "power_service: ok"
