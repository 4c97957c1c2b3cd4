#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# hv_gpci events in `hvpmu stat -p power -e` (docs/cli.md, docs/papr-gpci.md
# "hv_gpci events"): the guest OS reads each event from the program's
# partition at the program's start and end, the in-process session runs
# the hypervisor's dispatcher.
#   run_hv_gpci.sh HVPMU LOOP [MINIGZIP TEXT]
# LOOP is workloads/ppc64/loop; MINIGZIP a ppc64 minigzip
# (scripts/build-zlib.sh ppc64).  Checks, for each program:
#   - the run-latch instructions of the program's partition (request 0x30
#     with index -1, named and raw) equal the instructions hvpmu stat
#     reports;
#   - the PURR (timebase) cycles of the processor the program runs on
#     (0x10) and the partition's run-latch cycles are > 0 and <= the
#     elapsed modeled time in timebase cycles;
#   - two runs give the same counts;
# and: a partition without the right to collect gets <not supported> and
# one H_AUTHORITY line for the CEC-wide event while its own still counts;
# only hv_gpci events requested: only they are printed; bad events: one
# line, status 129.
set -euo pipefail
hv=$1 loop=$2 gz=${3:-} text=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: hv_gpci: $*" >&2; exit 1; }
# CSV with ';' (the events' names hold commas): value;unit;event;runtime ns;...
val() { awk -F';' -v e="$2" '$3 == e { print $1 }' "$tmp/$1"; }
ns_of() { awk -F';' -v e="$2" '$3 == e { print $4 }' "$tmp/$1"; }

tb_hz=512000000 # the test's description sets it (the default's value too)
printf '{ "cec": { "timebase_hz": %s } }\n' "$tb_hz" > "$tmp/md.json"
# partition 1 without the right to see others' data (docs/papr-gpci.md:
# H_Authority for the CEC-wide requests)
printf '{ "cec": { "timebase_hz": %s, "partitions": [ { "id": 1, "mode": "dedicated", "entitlement": 4, "vps": 4, "donating": true, "collect_privileged": false } ] } }\n' \
	"$tb_hz" > "$tmp/noright.json"

RL_INSNS='hv_gpci/run_instructions_run_cycles_by_partition_instructions_completed,sibling_part_id=0xffffffff/'
RL_INSNS_RAW='hv_gpci/request=0x30,starting_index=0xffffffff,offset=8,length=8/'
RL_CYCLES='hv_gpci/run_instructions_run_cycles_by_partition_cycles,sibling_part_id=0xffffffff/'
PURR='hv_gpci/dispatch_timebase_by_processor_processor_time_in_timebase_cycles,phys_processor_idx=0/'
EVENTS="instructions:u,$RL_INSNS,$RL_INSNS_RAW,$RL_CYCLES,$PURR"

# check NAME PROGRAM [ARGS] < input
check() {
	local name=$1
	shift
	for r in a b; do
		env -i "$hv" stat -p power --md "$tmp/md.json" -x';' -o "$tmp/$name.$r.csv" -e "$EVENTS" -- "$@" \
			< "$tmp/in" > "$tmp/$name.$r.out" 2> "$tmp/$name.$r.err" ||
			fail "$name: stat exited $?: $(cat "$tmp/$name.$r.err")"
		[ ! -s "$tmp/$name.$r.err" ] || fail "$name: stderr: $(cat "$tmp/$name.$r.err")"
	done
	cmp -s "$tmp/$name.a.csv" "$tmp/$name.b.csv" ||
		{ diff "$tmp/$name.a.csv" "$tmp/$name.b.csv" >&2; fail "$name: two runs gave different counts"; }
	local insns rl rlraw cyc purr ns
	insns=$(val "$name.a.csv" instructions:u)
	rl=$(val "$name.a.csv" "$RL_INSNS")
	rlraw=$(val "$name.a.csv" "$RL_INSNS_RAW")
	cyc=$(val "$name.a.csv" "$RL_CYCLES")
	purr=$(val "$name.a.csv" "$PURR")
	ns=$(ns_of "$name.a.csv" "$PURR")
	for v in "$insns" "$rl" "$rlraw" "$cyc" "$purr" "$ns"; do
		[[ $v =~ ^[0-9]+$ ]] || { cat "$tmp/$name.a.csv" >&2; fail "$name: not a count: '$v'"; }
	done
	[ "$insns" -gt 0 ] || fail "$name: no instructions"
	[ "$rl" = "$insns" ] || fail "$name: run-latch instructions $rl, stat's instructions $insns"
	[ "$rlraw" = "$insns" ] || fail "$name: raw run-latch instructions $rlraw, stat's instructions $insns"
	# elapsed timebase: the modeled run time (ns, truncated: +1) x timebase
	for v in "$purr" "$cyc"; do
		[ "$v" -gt 0 ] || fail "$name: a timebase count is 0"
		awk -v v="$v" -v ns="$ns" -v tb="$tb_hz" 'BEGIN { exit !(v * 1e9 <= (ns + 1) * tb) }' ||
			fail "$name: $v timebase cycles > elapsed ($ns ns at $tb_hz Hz)"
	done
	echo "hv_gpci: $name: run-latch instructions $rl = instructions, PURR $purr, run-latch cycles $cyc <= elapsed ($ns ns)"
}

: > "$tmp/in"
check loop "$loop"

# only hv_gpci events: only they are printed
env -i "$hv" stat -p power -x';' -o "$tmp/only.csv" -e "$RL_INSNS" -- "$loop" > /dev/null 2> "$tmp/only.err" ||
	fail "only hv_gpci: $(cat "$tmp/only.err")"
[ "$(wc -l < "$tmp/only.csv")" -eq 1 ] && [ -n "$(val only.csv "$RL_INSNS")" ] ||
	{ cat "$tmp/only.csv" >&2; fail "only hv_gpci events: one line wanted"; }

# no right to collect: the CEC-wide event <not supported> and one line
# with the status; the partition's own event still counts
env -i "$hv" stat -p power --md "$tmp/noright.json" -x';' -o "$tmp/auth.csv" -e "instructions:u,$PURR,$RL_INSNS" \
	-- "$loop" > /dev/null 2> "$tmp/auth.err" || fail "no right: stat exited $?: $(cat "$tmp/auth.err")"
[ "$(val auth.csv "$PURR")" = "<not supported>" ] || { cat "$tmp/auth.csv" >&2; fail "no right: 0x10 counted"; }
[ "$(val auth.csv "$RL_INSNS")" = "$(val auth.csv instructions:u)" ] ||
	{ cat "$tmp/auth.csv" >&2; fail "no right: the partition's own run-latch instructions"; }
[ "$(wc -l < "$tmp/auth.err")" -eq 1 ] && grep -q "H_AUTHORITY" "$tmp/auth.err" ||
	fail "no right: want one H_AUTHORITY line, got: $(cat "$tmp/auth.err")"

# -f (the program in a service of the tool's own, the dispatcher per
# quantum): the same counts
env -i "$hv" stat -f -p power -x';' -o "$tmp/follow.csv" -e "instructions:u,$RL_INSNS" -- "$loop" > /dev/null 2> "$tmp/follow.err" ||
	fail "-f: $(cat "$tmp/follow.err")"
[ "$(val follow.csv "$RL_INSNS")" = "$(val follow.csv instructions:u)" ] && [ -n "$(val follow.csv "$RL_INSNS")" ] ||
	{ cat "$tmp/follow.csv" >&2; fail "-f: run-latch instructions != instructions:u"; }

# bad events: one line, status 129
for e in 'hv_gpci/no_such_event,phys_processor_idx=0/' \
	'hv_gpci/dispatch_timebase_by_processor_processor_time_in_timebase_cycles/' \
	'hv_gpci/request=0x10,length=9/' 'hv_gpci/request=0x10,length=8' 'no_such_event' 'r100000'; do
	rc=0
	"$hv" stat -p power -e "$e" -- "$loop" > /dev/null 2> "$tmp/bad" || rc=$?
	[ "$rc" -eq 129 ] && [ "$(wc -l < "$tmp/bad")" -eq 1 ] || fail "-e '$e': status $rc, $(cat "$tmp/bad")"
done

[ -n "$gz" ] || { echo "hv_gpci: no minigzip given, the real program is skipped"; exit 0; }
head -c 16384 "$text" > "$tmp/in"
check minigzip "$gz"
