#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The SGI Origin's I/O through the directory (issue 31), end to end under
# qemu-mips64 through `hvpmu mdperf` and `hvpmu stat -p origin`
# (docs/origin-directory.md "I/O"):
#   run_origin_io.sh HVPMU DIR
# DIR holds workloads/mips64/c/dmaio.c's program (built by
# workloads/mips64/CMakeLists.txt), whose header derives its counts.
#
# As run_mdperf_micro.sh: runs of N and 2N lines, one set live the whole
# run (-s), and at node 0 (the program's, and the I/O interface's) every
# counter of sets 1-5 must differ by exactly the derived value (0 when
# not listed), set 0's mem_dir_busy and dir_busy too.  The program is
# single-threaded: node 0's other traffic (the program and its C library)
# is the same in both runs.  With "io_dma": 1 in the description every
# read() and write() moves its bytes by DMA through node 0's Hub; without
# it (the default) none reaches the directory.
set -euo pipefail
hv=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: origin io: $*" >&2; exit 1; }
mdperf_clean_env=1
. "$(dirname "$0")/lib_mdperf.sh"
[ -x "$dir/dmaio" ] || fail "no $dir/dmaio"
echo '{ "platform": "origin", "io_dma": 1 }' > "$tmp/io.json"
echo '{ "platform": "origin" }' > "$tmp/noio.json"


n=100
pair io "$tmp/io.json" dmaio "$n" "$((2 * n))"
check "io_dma" 0 "$tmp/io1.csv" "$tmp/io2.csv" \
	interv_inval=$((3 * n)) wb_ack=$n response=$((4 * n)) other_reply=$n \
	inval=$n interv_rdex_uncached=$n interv_rdsh_uncached=$n \
	reads=$((4 * n)) write_replies=$((2 * n)) revision_replies=$((2 * n)) \
	unowned=$((2 * n)) excl_other=$((2 * n)) \
	cpu0_reads=$((2 * n)) io_reads=$((2 * n)) io_wrinv=$n \
	mem_dir_busy=$((64 * n)) dir_busy=$((8 * n))

# the default: no I/O reaches the directory; only step 1's stores (a
# read-exclusive of an unowned line each) do, steps 2-5 hit CPU 0's caches
pair noio "$tmp/noio.json" dmaio "$n" "$((2 * n))"
check "no io_dma" 0 "$tmp/noio1.csv" "$tmp/noio2.csv" \
	reads=$n unowned=$n response=$n cpu0_reads=$n mem_dir_busy=$((16 * n)) dir_busy=0

# what CPU 0's R10000 counters see: per line, interventions (steps 2, 3)
# and an invalidation (step 5), all finding the line in its L2
for e in External_interventions,External_intervention_hits_in_scache \
	External_invalidations,External_invalidation_hits_in_scache; do
	for k in 1 2; do
		env -i PATH=/usr/bin:/bin "$hv" stat -p origin --md "$tmp/io.json" -x, -e "$e" -o "$tmp/stat$k" \
			-- "$dir/dmaio" "$((k * n))" 2> /dev/null || fail "stat $e: dmaio exited $?"
	done
	awk -F, -v n="$n" 'FNR == 1 { f++ }
		NF > 2 && $1 !~ /^#/ { v[f, $3] = $1; if (!($3 in ev)) nev++; ev[$3] = 1 }
		END {
			for (e in ev) {
				want = e ~ /intervention/ ? 2 * n : n
				if (v[2, e] - v[1, e] != want) { print e "=" v[2, e] - v[1, e] " (want " want ")"; bad = 1 }
			}
			exit bad || nev != 2
		}' "$tmp/stat1" "$tmp/stat2" || fail "CPU events $e (see above)"
done
echo "origin io: ok"
