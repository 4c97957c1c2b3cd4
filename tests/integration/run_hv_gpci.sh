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
# and: the link requests' totals as Linux reads them (issue 30: named, and
# raw as Linux's sysfs string gives them, counter_info_version 8 at
# offset 0x10) are the elapsed timebase, the seed's layout (version 0)
# where the seed has it; a partition without the right to collect gets <not supported> and
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

# the link totals (docs/papr-gpci.md "Counter-info versions"): version 8
# answers Linux's layout, total_link_cycles @0x10 (WXYZ: X is connected,
# W is not); version 0 the seed's, W's idle @0x10 (0), X's total @0x28
WXYZ_TOTAL='hv_gpci/processor_bus_utilization_wxyz_links_total_link_cycles,hw_chip_id=0x10/'
WXYZ_TOTAL_LINUX='hv_gpci/request=0x60,hw_chip_id=0x10,counter_info_version=8,length=8,offset=16/'
ABC_TOTAL_LINUX='hv_gpci/request=0x50,hw_chip_id=0x11,counter_info_version=8,length=8,offset=16/'
SEED_W_IDLE='hv_gpci/request=0x60,hw_chip_id=0x10,length=8,offset=16/'
SEED_X_TOTAL='hv_gpci/request=0x60,hw_chip_id=0x10,length=8,offset=40/'
env -i "$hv" stat -p power -x';' -o "$tmp/links.csv" -e "$PURR,$WXYZ_TOTAL,$WXYZ_TOTAL_LINUX,$ABC_TOTAL_LINUX,$SEED_W_IDLE,$SEED_X_TOTAL" \
	-- "$loop" > /dev/null 2> "$tmp/links.err" || fail "links: stat exited $?: $(cat "$tmp/links.err")"
total=$(val links.csv "$SEED_X_TOTAL")
ns=$(ns_of links.csv "$PURR")
[[ $total =~ ^[0-9]+$ ]] && [ "$total" -gt 0 ] || { cat "$tmp/links.csv" >&2; fail "links: X's total '$total'"; }
awk -v v="$total" -v ns="$ns" -v tb="$tb_hz" 'BEGIN { exit !(v * 1e9 <= (ns + 1) * tb) }' ||
	fail "links: $total timebase cycles > elapsed ($ns ns at $tb_hz Hz)"
for e in "$WXYZ_TOTAL" "$WXYZ_TOTAL_LINUX" "$ABC_TOTAL_LINUX"; do
	[ "$(val links.csv "$e")" = "$total" ] || { cat "$tmp/links.csv" >&2; fail "links: $e is not the elapsed $total"; }
done
[ "$(val links.csv "$SEED_W_IDLE")" = 0 ] || { cat "$tmp/links.csv" >&2; fail "links: the seed's W idle is not 0"; }
echo "hv_gpci: links: total_link_cycles $total (named and Linux's raw, ABC and WXYZ) = X's total at version 0"

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
