#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The SGI Origin's page migration and the poisoned directory state (issue
# 31), end to end under qemu-mips64 through `hvpmu mdperf`
# (docs/origin-directory.md "Migration"):
#   run_origin_migrate.sh HVPMU DIR
# DIR holds workloads/mips64/c/migrate.c's program (built by
# workloads/mips64/CMakeLists.txt), whose header derives its counts.
#
# As run_mdperf_micro.sh: runs of N and 2N pages side by side, one set
# live the whole run (-s), and at the nodes the pages leave (2) and reach
# (3), home of nothing else, every counter of sets 1-5 must differ by
# exactly the derived value (0 when not listed), set 0's mem_dir_busy and
# dir_busy too.  Node 0 (the program, its C library and the page table,
# whose tablewalk traffic grows with the pages) is not asserted.  With
# "migration_threshold": T the pages migrate; without it (the default)
# they stay where they were placed and nothing is poisoned.
set -euo pipefail
hv=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: origin migrate: $*" >&2; exit 1; }
. "$(dirname "$0")/lib_mdperf.sh"
[ -x "$dir/migrate" ] || fail "no $dir/migrate"
t=8
echo "{ \"platform\": \"origin\", \"placement\": \"spread\", \"migration_threshold\": $t }" > "$tmp/mig.json"
echo '{ "platform": "origin", "placement": "spread" }' > "$tmp/nomig.json"


n=16
pair mig "$tmp/mig.json" migrate "$n $t" "$((2 * n)) $t"
# node 2: per page, CPU 6's T + 2 reads before the page migrates, then
# CPU 6's and CPU 4's reads through their old translations (poisoned,
# an error reply each, 4 Hub cycles of the directory; CPU 4's is local)
check "migration" 2 "$tmp/mig1.csv" "$tmp/mig2.csv" \
	reads=$(((t + 4) * n)) unowned=$(((t + 2) * n)) poisoned=$((2 * n)) response=$(((t + 2) * n)) \
	other_reply=$((2 * n)) cpu0_reads=$n mem_dir_busy=$((16 * (t + 2) * n)) dir_busy=$((8 * n))
# node 3: per page, the two reads after the poisoned ones (CPU 6's local)
check "migration" 3 "$tmp/mig1.csv" "$tmp/mig2.csv" \
	reads=$((2 * n)) unowned=$((2 * n)) response=$((2 * n)) cpu0_reads=$n mem_dir_busy=$((32 * n)) dir_busy=0

# the default: no migration; every read of the pages at node 2, none
# poisoned (T + 3 of CPU 6, 1 of CPU 4, local)
pair nomig "$tmp/nomig.json" migrate "$n $t" "$((2 * n)) $t"
check "no migration" 2 "$tmp/nomig1.csv" "$tmp/nomig2.csv" \
	reads=$(((t + 4) * n)) unowned=$(((t + 4) * n)) response=$(((t + 4) * n)) cpu0_reads=$n \
	mem_dir_busy=$((16 * (t + 4) * n)) dir_busy=0
check "no migration" 3 "$tmp/nomig1.csv" "$tmp/nomig2.csv" mem_dir_busy=0 dir_busy=0
echo "origin migrate: ok"
