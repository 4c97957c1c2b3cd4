#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The SGI Origin Hub's outgoing request queue and the backoff reply
# (issue 31), end to end under qemu-mips64 through `hvpmu mdperf`
# (docs/origin-directory.md "Outgoing queues"):
#   run_origin_backoff.sh HVPMU DIR
# DIR holds workloads/mips64/c/wideinv.c's program (built by
# workloads/mips64/CMakeLists.txt), whose header derives its counts.
#
# On an Origin of 32 nodes (64 CPUs), 20 CPUs read N lines and the first
# writes them: 19 invalidations per line, one more than the request
# queue holds.  As run_mdperf_micro.sh: runs of N and 2N lines side by
# side, one set live the whole run (-s), and at the lines' home (node 20,
# home of nothing else) every counter of sets 1-5 must differ by exactly
# the derived value (0 when not listed), set 0's mem_dir_busy and
# dir_busy too.
set -euo pipefail
hv=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: origin backoff: $*" >&2; exit 1; }
. "$(dirname "$0")/lib_mdperf.sh"
[ -x "$dir/wideinv" ] || fail "no $dir/wideinv"
echo '{ "platform": "origin", "chips": 32, "placement": "spread" }' > "$tmp/wide.json"


n=63
pair wide "$tmp/wide.json" wideinv "$n" "$((2 * n))"
# per line: 20 reads (1 unowned, 1 exclusive by CPU 0: an intervention,
# 18 shared), the upgrade (a miscellaneous request, a backoff instead of
# 19 invalidations, the ack); memory serves 19 reads
check "backoff" 20 "$tmp/wide1.csv" "$tmp/wide2.csv" \
	reads=$((20 * n)) misc_req=$n revision_replies=$n unowned=$n excl_other=$n shared=$((18 * n)) \
	response=$((21 * n)) interv_inval=$n backoff_interv_inval=$n interv_rdsh=$n inval=0 \
	mem_dir_busy=$((19 * 16 * n)) dir_busy=$((8 * n))
echo "origin backoff: ok"
