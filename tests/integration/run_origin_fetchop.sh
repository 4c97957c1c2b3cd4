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
mdperf_clean_env=1
. "$(dirname "$0")/lib_mdperf.sh"
[ -x "$dir/fetchop" ] || fail "no $dir/fetchop"
# the region: 16 KB at 0x100000000, where fetchop.c maps it
echo '{ "platform": "origin", "fetchop_va": 4294967296, "fetchop_bytes": 16384 }' > "$tmp/fop.json"
echo '{ "platform": "origin" }' > "$tmp/nofop.json"


n=100
pair fop "$tmp/fop.json" fetchop "$n" "$((2 * n))"
check "fetchop region" 0 "$tmp/fop1.csv" "$tmp/fop2.csv" \
	fop_hit=$((2 * n)) fop_miss=$((2 * n)) response=$((3 * n)) other_reply=$n cpu0_reads=$((4 * n)) \
	misc_busy=$((8 * n)) mem_dir_busy=$((32 * n)) dir_busy=0 blocked=0

# the default: no region; the variables are two cached lines of node 0,
# touched in both runs alike
pair nofop "$tmp/nofop.json" fetchop "$n" "$((2 * n))"
check "no region" 0 "$tmp/nofop1.csv" "$tmp/nofop2.csv" misc_busy=0 mem_dir_busy=0 dir_busy=0
echo "origin fetchop: ok"
