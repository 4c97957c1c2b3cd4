#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_pipeline.sh: check the pipeline-timing invariants of
# docs/timing-model.md ("Invariants") on one sparc64 program, measured
# through `hvpmu stat` (TABLE 10-2 sl=1, 2, 8, 9, 25, 26, 28):
#
#   Sel_0_wait + Sel_1 = Pick_0 + Pick_any = Commit_0 + Commit_1_or_2 = cycles:u
#   Sel_0_wait:u + Sel_1:uk = cycles:uk        (%tick: user and OS modes;
#                                              the guest may not count :h)
# (all user mode unless marked)
#   Sel_2 = Sel_0_ready = 0,  Fetch_0_all = Fetch_0,  Commit_0_all = Commit_0
#   DTLB_miss_tag_wait <= Instr_buffer_full <= Fetch_0 <= Sel_0_wait <= cycles:u
#   Sel_pipe_drain_cycles = 21 * Br_mispred
#   IC_mtag_miss - IC_mtag_miss_ptag_hit + IC_mtag_miss_ptag_miss = IC_miss
#     (sl=7 0x01 - 0x02 + 0x04: the PCBE's name for 0x04 is misleading)
#   Sel_0_wait - Fetch_0 = 24 * Br_mispred   (refetch + drain: the penalty)
# and, when DATA is given, the load-miss wait
#   Instr_buffer_full - DTLB_miss_tag_wait = DATA.
#
# usage: run_pipeline.sh HVPMU PROGRAM [DATA] [-- ARGS...]
# Runs of at most 4 events (the four PICs: nothing multiplexed); the model
# is deterministic, so the runs see the same execution.  Program input is
# read from stdin when INPUT is set in the environment.

set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 HVPMU PROGRAM [DATA] [-- ARGS...]" >&2; exit 2; }
HVPMU=$1
PROG=$2
shift 2
DATA=
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
	DATA=$1
	shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
MISPREDICT=24
DRAIN=21

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A V

measure() {
	local out=$tmp/out
	if [ -n "${INPUT:-}" ]; then
		env -i "$HVPMU" stat -x, -o "$out" -e "$1" -- "$PROG" "${@:2}" <"$INPUT" >/dev/null
	else
		env -i "$HVPMU" stat -x, -o "$out" -e "$1" -- "$PROG" "${@:2}" >/dev/null
	fi
	while IFS=, read -r val _ ev _ pcnt _; do
		[ -n "$ev" ] || continue
		[ "$pcnt" = "100.00" ] || { echo "FAIL: $ev not counted the whole run ($pcnt%)" >&2; exit 1; }
		V[$ev]=$val
	done < <(grep -v '^#' "$out")
}

args=("$@")
measure cycles:u,Sel_0_wait:u,Sel_1:u,Sel_pipe_drain_cycles:u "${args[@]}"
measure Pick_0:u,Pick_any:u,Commit_0:u,Commit_1_or_2:u "${args[@]}"
measure Fetch_0:u,Fetch_0_all:u,Instr_buffer_full:u,DTLB_miss_tag_wait:u "${args[@]}"
measure Br_mispred:u,Sel_2:uk,Sel_0_ready:uk,Commit_0_all:u "${args[@]}"
measure cycles:uk,Sel_1:uk "${args[@]}"
measure IC_mtag_miss:u,IC_mtag_miss_ptag_hit:u,IC_mtag_miss_ptag_miss:u,IC_miss:u "${args[@]}"

fails=0
check() { # NAME LEFT RIGHT
	if [ "$2" -eq "$3" ]; then
		printf '  ok    %-55s %s\n' "$1" "$2"
	else
		printf '  FAIL  %-55s %s != %s\n' "$1" "$2" "$3"
		fails=$((fails + 1))
	fi
}
le() { # NAME A B: A <= B
	if [ "$2" -le "$3" ]; then
		printf '  ok    %-55s %s <= %s\n' "$1" "$2" "$3"
	else
		printf '  FAIL  %-55s %s > %s\n' "$1" "$2" "$3"
		fails=$((fails + 1))
	fi
}
c=${V[cycles:u]}
echo "pipeline invariants of $PROG:"
check "Sel_0_wait + Sel_1 = cycles:u" $((V[Sel_0_wait:u] + V[Sel_1:u])) "$c"
check "Pick_0 + Pick_any = cycles:u" $((V[Pick_0:u] + V[Pick_any:u])) "$c"
check "Commit_0 + Commit_1_or_2 = cycles:u" $((V[Commit_0:u] + V[Commit_1_or_2:u])) "$c"
check "Sel_0_wait:u + Sel_1:uk = cycles:uk (%tick)" $((V[Sel_0_wait:u] + V[Sel_1:uk])) "${V[cycles:uk]}"
check "Sel_2 = 0" "${V[Sel_2:uk]}" 0
check "Sel_0_ready = 0" "${V[Sel_0_ready:uk]}" 0
check "Fetch_0_all = Fetch_0" "${V[Fetch_0_all:u]}" "${V[Fetch_0:u]}"
check "Commit_0_all = Commit_0" "${V[Commit_0_all:u]}" "${V[Commit_0:u]}"
le "DTLB_miss_tag_wait <= Instr_buffer_full" "${V[DTLB_miss_tag_wait:u]}" "${V[Instr_buffer_full:u]}"
le "Instr_buffer_full <= Fetch_0" "${V[Instr_buffer_full:u]}" "${V[Fetch_0:u]}"
le "Fetch_0 <= Sel_0_wait" "${V[Fetch_0:u]}" "${V[Sel_0_wait:u]}"
le "Sel_pipe_drain_cycles <= Sel_0_wait" "${V[Sel_pipe_drain_cycles:u]}" "${V[Sel_0_wait:u]}"
check "Sel_pipe_drain_cycles = $DRAIN * Br_mispred" "${V[Sel_pipe_drain_cycles:u]}" $((DRAIN * V[Br_mispred:u]))
check "Sel_0_wait - Fetch_0 = $MISPREDICT * Br_mispred" $((V[Sel_0_wait:u] - V[Fetch_0:u])) $((MISPREDICT * V[Br_mispred:u]))
# sl=7: 0x01 - 0x02 (microtag and ptag miss) + 0x04 (microtag hit, ptag
# miss) are exactly the I-cache misses
check "IC_mtag_miss - IC_mtag_miss_ptag_hit + 0x04 = IC_miss" \
	$((V[IC_mtag_miss:u] - V[IC_mtag_miss_ptag_hit:u] + V[IC_mtag_miss_ptag_miss:u])) "${V[IC_miss:u]}"
if [ -n "$DATA" ]; then
	check "Instr_buffer_full - DTLB_miss_tag_wait = load-miss wait" \
		$((V[Instr_buffer_full:u] - V[DTLB_miss_tag_wait:u])) "$DATA"
fi
[ "$fails" -eq 0 ] || { echo "FAIL: $fails pipeline invariants of $PROG do not hold" >&2; exit 1; }
