#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu gpci` (docs/cli.md, docs/papr-gpci.md): H_GetPerformanceCounterInfo
# asked as Linux's hv_gpci does, from one partition of the power CEC.
#   - the default platform is the first with a CEC (power); every request
#     that returns lists is decoded, one row per processor / partition / chip;
#   - the rows are the CEC's description (hardware ids, states, owners);
#   - -x and -j give one line per list;
#   - a partition without the right to see others gets H_AUTHORITY for the
#     CEC-wide requests and its own lists for the rest (exit 1);
#   - bad options and a machine without a CEC: one line, exit non-zero.
# usage: run_gpci.sh HVPMU
set -euo pipefail
hvpmu=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: gpci: $*" >&2; exit 1; }

env -i "$hvpmu" gpci > "$tmp/all"
for r in dispatch_purr_by_processor entitled_capped_uncapped_donated_idle_purr_by_partition \
	run_instructions_run_cycles_by_partition system_performance_capabilities \
	processor_bus_utilization_abc_links processor_bus_utilization_wxyz_links retrieve_hpmcx; do
	grep -q "^$r (0x" "$tmp/all" || { cat "$tmp/all" >&2; fail "no $r table"; }
done
grep -q '^dispatch_purr_by_processor (0x10): 32 lists from index 0x0$' "$tmp/all" || fail "not 32 processors"

# the default CEC: processors 0-3 dedicated to partition 1, 30-31 unlicensed
env -i "$hvpmu" gpci -r 0x10 -x, > "$tmp/p"
[ "$(wc -l < "$tmp/p")" = 33 ] || fail "CSV: not a header and 32 lines"
awk -F, 'NR > 1 && $2 < 4 && !($5 == "0x1" && $6 == "0x6") { exit 1 }' "$tmp/p" || fail "processors 0-3 not dedicated to 1"
awk -F, 'NR > 1 && $2 >= 30 && !($5 == "0xffff" && $6 == "0x3") { exit 1 }' "$tmp/p" || fail "processors 30-31 not unlicensed"
awk -F, 'NR > 1 && $4 != sprintf("0x%x", 256 + $2) { exit 1 }' "$tmp/p" || fail "hardware processor ids"
env -i "$hvpmu" gpci -r processor_bus_utilization_abc_links -s 0x12 -j > "$tmp/j"
[ "$(wc -l < "$tmp/j")" = 2 ] || fail "-s 0x12: not chips 0x12 and 0x13"
grep -q '^{"request":"processor_bus_utilization_abc_links","list":0,"hw_chip_id":18,' "$tmp/j" || fail "JSON"
env -i "$hvpmu" gpci -r 0x40 | grep -q '0x1 *0xa0$' || fail "capabilities: privileged, GA and LAB"

# partition 2 (shared capped, without the right), one guest per partition
cat > "$tmp/three.json" <<'J'
{ "platform": "power", "guests": [
  { "name": "dedicated", "first_strand": 0, "nstrands": 16, "mblock": [ { "base": 0, "size": 16777216 } ] },
  { "name": "capped", "first_strand": 16, "nstrands": 16, "mblock": [ { "base": 0, "size": 16777216 } ] },
  { "name": "uncapped", "first_strand": 32, "nstrands": 32, "mblock": [ { "base": 0, "size": 16777216 } ] } ] }
J
rc=0; env -i "$hvpmu" gpci --md "$tmp/three.json" --partition 2 > "$tmp/o" 2> "$tmp/e" || rc=$?
[ "$rc" = 1 ] || fail "partition 2: exit $rc"
grep -q 'dispatch_purr_by_processor (0x10): H_AUTHORITY' "$tmp/e" || { cat "$tmp/e" >&2; fail "no H_AUTHORITY"; }
grep -q '^entitled_capped_uncapped_donated_idle_purr_by_partition (0x20): 1 list from index 0x2$' "$tmp/o" ||
	{ cat "$tmp/o" >&2; fail "partition 2 does not get its own list"; }

# bad input: one line, non-zero
for args in "-r bogus" "-s x" "-s -2" "--partition 0" "-x, -j" "-p t4" "--partition 9" "-r set_mmcrh" "extra"; do
	rc=0; env -i "$hvpmu" gpci $args > /dev/null 2> "$tmp/e" || rc=$?
	[ "$rc" != 0 ] && [ "$(wc -l < "$tmp/e")" = 1 ] || { cat "$tmp/e" >&2; fail "'$args': exit $rc"; }
done
echo "gpci: ok"
