#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu mmustat` on platform t1 (niagara-mmustat-api.txt): the guest OS
# negotiates group 0x200, gives each CPU a zeroed buffer, and the
# hypervisor accounts every TSB hit its miss handler services.  Each page
# the program touches is one DTLB miss whose second walk (after the guest
# fills the TSB) hits it, so the D-MMU ctxnon0 8 KB hits equal the DTLB 8 KB
# fills `hvpmu stat` counts for the same program on t4 (same TLB model,
# a working set well inside both TLBs); ticks are positive; names are
# Linux's; t4 has no such service.
# usage: run_mmustat.sh HVPMU MICRO_DIR
set -euo pipefail
hvpmu=$1 micro=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: mmustat: $*" >&2; exit 1; }
prog=$micro/loop_mem

env -i "$hvpmu" mmustat -x, -- "$prog" 2> "$tmp/m"
get() { awk -F, -v n="$1" '$1 == 0 && $2 == n { print $3 }' "$tmp/m"; }
hits=$(get dmmu_tsb_hits_ctxnon0_8k_tte)
ticks=$(get dmmu_tsb_ticks_ctxnon0_8k_tte)
env -i "$hvpmu" stat -x, -o "$tmp/s" -e DTLB_fill_8KB,ITLB_fill_8KB -- "$prog"
fills=$(awk -F, '$3 == "DTLB_fill_8KB" { print $1 }' "$tmp/s")
ifills=$(awk -F, '$3 == "ITLB_fill_8KB" { print $1 }' "$tmp/s")
[ -n "$hits" ] && [ "$hits" -gt 0 ] || { cat "$tmp/m" >&2; fail "no D-MMU TSB hits"; }
[ "$hits" = "$fills" ] || fail "D-MMU TSB hits $hits != DTLB fills $fills"
[ "$(get immu_tsb_hits_ctxnon0_8k_tte)" = "$ifills" ] || fail "I-MMU TSB hits != ITLB fills $ifills"
[ "$ticks" -gt 0 ] || fail "no ticks"
[ "$(wc -l < "$tmp/m")" -eq 32 ] || fail "want the 32 named words of one CPU, got $(wc -l < "$tmp/m")"
grep -q '^0,immu_tsb_hits_ctx0_8k_tte,' "$tmp/m" || fail "Linux field names"
env -i "$hvpmu" mmustat -j -- "$prog" 2> "$tmp/j"
grep -q '"name": "dmmu_tsb_hits_ctxnon0_8k_tte", "value": '"$hits" "$tmp/j" || { head -3 "$tmp/j" >&2; fail "JSON"; }
set +e
env -i "$hvpmu" mmustat -p t4 -- "$prog" 2> "$tmp/e"; rc=$?
env -i "$hvpmu" mmustat -p nosuch -- "$prog" 2> "$tmp/e2"; rc2=$?
env -i "$hvpmu" mmustat -p t4-2 -- "$prog" 2> "$tmp/e3"; rc3=$?
set -e
[ "$rc" -ne 0 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] || { cat "$tmp/e" >&2; fail "t4 should refuse in one line"; }
# every built-in description is a platform here too (the T4-2 refuses as the T4)
[ "$rc3" -ne 0 ] && grep -q 'refused (EBADTRAP; platform t4-2)' "$tmp/e3" || { cat "$tmp/e3" >&2; fail "t4-2"; }
[ "$rc2" -ne 0 ] && [ "$(wc -l < "$tmp/e2")" -eq 1 ] || fail "unknown platform"
echo "mmustat: $hits D-MMU TSB hits = DTLB fills; ok"
