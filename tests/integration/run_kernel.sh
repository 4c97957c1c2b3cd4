#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest kernel's system-call path (docs/kernel-model.md) on a real
# program, workloads/micro/syscalls (K = 50 passes over P = 128 pages of
# 8 KB, one getpid per pass, then exit):
#  - `hvpmu mmustat` on t1: the path's text and the system-call table
#    lie in one 4 MB kernel page, its stack in another.  The ITLB keeps
#    its kernel entry (64 entries, a handful of user pages): one ctx0
#    I-MMU 4 MB TSB hit, on the first call (after the guest's TSB fill).
#    The 128 user pages of each pass evict both kernel DTLB entries (64
#    entries, LRU): every call walks twice and hits the TSB twice:
#    2K = 100 ctx0 D-MMU 4 MB hits.  No other ctx0 page size is used.
#    Each user page misses the DTLB in every pass: P*K = 6400 ctxnon0
#    D-MMU 8 KB hits, all after the first pass's fills.
#  - `hvpmu stat` (t4 and t1): privileged instructions are the 300 of
#    each of the K returning calls (the exit runs no path); user ones are
#    the program's own 25957 (syscalls.S); cycles:k at least K * 1500
#    (syscall_cycles, docs/timing-model.md).
#  - a program whose only system call is exit has no ctx0 hits.
# usage: run_kernel.sh HVPMU MICRO_DIR
set -euo pipefail
hvpmu=$1 micro=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: kernel: $*" >&2; exit 1; }
prog=$micro/syscalls
K=50 P=128 KPATH=300 USER=25957 SYSCALL_CYCLES=1500

env -i "$hvpmu" mmustat -x, -- "$prog" 2> "$tmp/m"
get() { awk -F, -v n="$1" '$1 == 0 && $2 == n { print $3 }' "$tmp/m"; }
want() { [ "$(get "$1")" = "$2" ] || { cat "$tmp/m" >&2; fail "$1 = '$(get "$1")', want $2"; }; }
want immu_tsb_hits_ctx0_4mb_tte 1
want dmmu_tsb_hits_ctx0_4mb_tte $((2 * K))
want dmmu_tsb_hits_ctxnon0_8k_tte $((P * K))
for side in immu dmmu; do
	for sz in 8k 64k 256mb; do want ${side}_tsb_hits_ctx0_${sz}_tte 0; done
done
[ "$(get dmmu_tsb_ticks_ctx0_4mb_tte)" -gt 0 ] && [ "$(get immu_tsb_ticks_ctx0_4mb_tte)" -gt 0 ] ||
	fail "no ctx0 ticks"

env -i "$hvpmu" stat -x, -o "$tmp/s" -e instructions:k,instructions:u,cycles:k,Instr_st:k -- "$prog"
val() { awk -F, -v e="$2" '$3 == e { print $1 }' "$1"; }
[ "$(val "$tmp/s" instructions:k)" = $((KPATH * K)) ] || { cat "$tmp/s" >&2; fail "t4 instructions:k"; }
[ "$(val "$tmp/s" instructions:u)" = $USER ] || { cat "$tmp/s" >&2; fail "t4 instructions:u"; }
[ "$(val "$tmp/s" Instr_st:k)" = $((20 * K)) ] || { cat "$tmp/s" >&2; fail "t4 Instr_st:k"; }
[ "$(val "$tmp/s" cycles:k)" -ge $((SYSCALL_CYCLES * K)) ] || { cat "$tmp/s" >&2; fail "t4 cycles:k"; }

env -i "$hvpmu" stat -p t1 -x, -o "$tmp/t" -e Instr_cnt:k -- "$prog"
[ "$(val "$tmp/t" Instr_cnt:k)" = $((KPATH * K)) ] || { cat "$tmp/t" >&2; fail "t1 Instr_cnt:k"; }

env -i "$hvpmu" mmustat -x, -- "$micro/loop_mem" 2> "$tmp/m"
for side in immu dmmu; do
	for sz in 8k 64k 4mb 256mb; do want ${side}_tsb_hits_ctx0_${sz}_tte 0; done
done
echo "kernel: $((2 * K)) ctx0 D-MMU and 1 I-MMU 4 MB TSB hits, $((KPATH * K)) privileged instructions; ok"
