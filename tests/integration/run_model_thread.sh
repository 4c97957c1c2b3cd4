#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The model thread (docs/event-source.md "Model thread") changes where the
# model runs, never what it computes: every tool gives byte-identical
# counts with it (HVPMU_MODEL_THREAD=1) and without it (the default), on a
# real program with the full memory model (the model thread runs only
# with it: caches, TLBs, store buffer, pipeline timing, precise overflow
# traps, the kernel path), with interval samples (cpustat, busstat), MMU
# statistics, the T1, a guest that starts a second thread (the model
# thread hands over to the guest's threads mid-run) and one that forks.
# The model thread runs twice: with the plugin's ring and with the
# smallest one (2048 slots: the guest thread finds it full all the time,
# at translations and system calls too).
# usage: run_model_thread.sh HVPMU MICRO_DIR MINIGZIP TEXT
set -euo pipefail
hvpmu=$1 micro=$2 gz=$3 text=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: model_thread: $*" >&2; exit 1; }
head -c 200000 "$text" > "$tmp/in"
n=0
# both NAME TOOL ARGS...: run a tool both ways on the zlib input; its
# counts (file of -o, else stderr) must be identical
both() {
	local name=$1 out; shift
	n=$((n + 1))
	for mt in 1 0 small; do
		out=$tmp/$name.$mt
		case $mt in
		small) vars=(HVPMU_MODEL_THREAD=1 HVPMU_MODEL_THREAD_RING=11) ;;
		*) vars=(HVPMU_MODEL_THREAD=$mt) ;;
		esac
		env -i "${vars[@]}" "$hvpmu" "$@" < "$tmp/in" > "$out.stdout" 2> "$out.stderr" ||
			{ cat "$out.stderr" >&2; fail "$name: hvpmu exited $? ($mt)"; }
	done
	for mt in 1 small; do
		cmp -s "$tmp/$name.$mt.stdout" "$tmp/$name.0.stdout" || fail "$name: the program's output differs ($mt)"
		cmp -s "$tmp/$name.$mt.stderr" "$tmp/$name.0.stderr" ||
			{ diff "$tmp/$name.$mt.stderr" "$tmp/$name.0.stderr" >&2 || true; fail "$name: counts differ ($mt)"; }
	done
	[ -s "$tmp/$name.1.stderr" ] || fail "$name: no counts"
}
both mem stat -x, -e DC_miss_nospec,IC_miss_nospec,DTLB_miss_asynch,L2_dirty_evict -- "$gz"
both timing stat -x, -e cycles,RAW_hit_st_buf,L2_pipe_stall,Br_mispred -- "$gz"
# more events than PICs: multiplexed by the OS tick, overflow traps
both mux stat -x, -e instructions,DC_miss_nospec,ITLB_miss,St_local,SB_tag_wait,Instr_st -- "$gz"
both cpustat cpustat -n -t -c pic0=Instr_all,pic1=DC_miss_nospec,pic2=St_local 0.0005 -- "$gz"
both busstat busstat -n -w mcu0,pic0=mem_reads,pic1=bank_busy_stalls 0.0005 -- "$gz"
both mmustat mmustat -x, -- "$gz"
both t1 stat -p t1 -x, -e Instr_cnt,DC_miss,SB_full,ITLB_miss -- "$gz"
# a second guest thread (with a memory event, so that the model thread
# runs): handed over to the guest threads; the counts the threads program
# has by construction (run_threads.sh) are the same both ways
for mt in 1 0; do
	env -i HVPMU_MODEL_THREAD=$mt "$hvpmu" stat -x, -e SW_prefetch,Sw_count_intr,Instr_all,DC_miss_nospec -- "$micro/threads" \
		> /dev/null 2> "$tmp/threads.$mt" || fail "threads: hvpmu exited $?"
done
grep -q SW_prefetch "$tmp/threads.1" || fail "threads: no counts"
awk -F, '$3 == "SW_prefetch" || $3 == "Sw_count_intr" { print $1, $3 }' "$tmp/threads.1" > "$tmp/t1"
awk -F, '$3 == "SW_prefetch" || $3 == "Sw_count_intr" { print $1, $3 }' "$tmp/threads.0" > "$tmp/t0"
cmp -s "$tmp/t1" "$tmp/t0" || { diff "$tmp/t1" "$tmp/t0" >&2; fail "threads: counts differ"; }
# a fork (workloads/micro/fork.S) ends the model thread first; the parent's
# user loads after it are exactly M = 20000 both ways
for mt in 1 0; do
	env -i HVPMU_MODEL_THREAD=$mt timeout 60 "$hvpmu" stat -i -x, -e Instr_ld:u,DC_miss_nospec,Instr_all -- "$micro/fork" \
		> /dev/null 2> "$tmp/fork.$mt" || fail "fork: hvpmu exited $? (HVPMU_MODEL_THREAD=$mt)"
done
[ "$(awk -F, '$3 == "Instr_ld:u" { print $1 }' "$tmp/fork.1")" = 20000 ] || { cat "$tmp/fork.1" >&2; fail "fork: Instr_ld:u != 20000"; }
cmp -s "$tmp/fork.1" "$tmp/fork.0" || { diff "$tmp/fork.1" "$tmp/fork.0" >&2 || true; fail "fork: counts differ"; }
echo "model_thread: $n tool runs (model thread with two ring sizes, and without), a two-thread guest and a fork: identical"
