#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The ppc64 event source on the POWER platform, end to end under
# qemu-ppc64 (docs/ppc64-isa.md, docs/power-platform.md):
#   run_ppc64.sh HVPMU QEMU_PPC64 LOOP [MINIGZIP TEXT]
# LOOP is workloads/ppc64/loop; MINIGZIP a ppc64 minigzip
# (scripts/build-zlib.sh ppc64).  Checks:
#   - `hvpmu stat -p power` (without -e: the model's counts) on
#     loop: every count its header derives by construction;
#   - the retired instructions equal QEMU's own count of executed
#     instructions, one per translation block (-one-insn-per-tb) with every
#     block execution logged (-d nochain,exec): loop, and minigzip over a
#     16 KB text with the dynamic loader and the C library;
#   - minigzip's classes partition its instruction stream, its output
#     decompresses to the input, two runs give identical counts;
#   - the same counts attached to a service (-f);
#   - an unknown event: one usage line (the POWER7 counters' events:
#     run_power7.sh).
set -euo pipefail
hv=$1 qemu=$2 loop=$3 gz=${4:-} text=${5:-}
sysroot=/usr/powerpc64-linux-gnu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: ppc64: $*" >&2; exit 1; }
val() { awk -F, -v e="$2" '$3 == e { print $1 }' "$tmp/$1"; }
want() { # want CSV EVENT VALUE
	[ "$(val "$1" "$2")" = "$3" ] || { cat "$tmp/$1" >&2; fail "$1: $2 = $(val "$1" "$2"), want $3"; }
}
# QEMU's count: one "Trace" line per executed instruction (env -i and -R, the
# guest address space hvpmu reserves (hvpmu_isa.qemu_reserved_va): the
# same environment as the counted run)
qemu_count() { # qemu_count LOG PROGRAM [ARGS...] < input
	local log=$1
	shift
	env -i "$qemu" -L "$sysroot" -R 0x10000000000 -one-insn-per-tb -d nochain,exec -D "$tmp/$log" "$@" > "$tmp/$log.out" ||
		fail "bare qemu-ppc64 $* exited $?"
	grep -c '^Trace' "$tmp/$log"
}

# loop: the counts of its header
env -i "$hv" stat -p power -x, -o "$tmp/loop.csv" -- "$loop" 2> "$tmp/loop.err" ||
	fail "stat -p power loop: $(cat "$tmp/loop.err")"
want loop.csv instructions:u 22374
want loop.csv loads:u 5001
want loop.csv stores:u 4000
want loop.csv fp-instructions:u 1000
want loop.csv branch-instructions:u 6105
want loop.csv spr-instructions:u 3
want loop.csv other-instructions:u 6265
want loop.csv syscalls:u 1
want loop.csv taken-cond-branches:u 2848
n=$(qemu_count loop.log "$loop")
want loop.csv instructions:u "$n"
# attached to a service (-f: the process tree on one machine) the counts
# are the same
env -i "$hv" stat -f -p power -x, -o "$tmp/loopf.csv" -- "$loop" 2> "$tmp/loopf.err" ||
	fail "stat -f -p power loop: $(cat "$tmp/loopf.err")"
cut -d, -f1,3 "$tmp/loop.csv" > "$tmp/l1"
cut -d, -f1,3 "$tmp/loopf.csv" > "$tmp/l2"
cmp -s "$tmp/l1" "$tmp/l2" || { diff "$tmp/l1" "$tmp/l2" >&2; fail "stat -f counts differ"; }
# the table layout names the counts too
env -i "$hv" stat -p power -- "$loop" 2> "$tmp/table" || fail "stat -p power (table)"
grep -Eq '^ +22,?374 +instructions:u' "$tmp/table" || { cat "$tmp/table" >&2; fail "table layout"; }

# an unknown event is a usage error, in one line
rc=0; "$hv" stat -p power -e no_such_event -- "$loop" 2> "$tmp/e" || rc=$?
[ "$rc" -eq 129 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] && grep -q "unknown POWER7 event" "$tmp/e" ||
	fail "stat -p power -e: $rc $(cat "$tmp/e")"

# pc4: branches to pc+4, decided from CR and CTR, both ways (totals only
# and the exact path)
pc4=$(dirname "$loop")/pc4
for q in 1 0; do
	env -i HVPMU_QUIET=$q "$hv" stat -p power -x, -o "$tmp/pc4.csv" -- "$pc4" 2> "$tmp/pc4.err" ||
		fail "stat -p power pc4: $(cat "$tmp/pc4.err")"
	want pc4.csv instructions:u 7006
	want pc4.csv branch-instructions:u 4000
	want pc4.csv taken-cond-branches:u 1999
done

[ -n "$gz" ] || { echo "ppc64: no minigzip given, the real program is skipped"; exit 0; }
head -c 16384 "$text" > "$tmp/in"
for r in a b; do
	env -i "$hv" stat -p power -x, -o "$tmp/$r.csv" -- "$gz" < "$tmp/in" > "$tmp/$r.gz" 2> "$tmp/$r.err" ||
		fail "stat -p power minigzip: $(cat "$tmp/$r.err")"
	gzip -dc "$tmp/$r.gz" | cmp -s - "$tmp/in" || fail "minigzip's output (run $r) does not decompress to the input"
done
cmp -s "$tmp/a.csv" "$tmp/b.csv" || { diff "$tmp/a.csv" "$tmp/b.csv" >&2; fail "two runs gave different counts"; }
all=$(val a.csv instructions:u)
[[ $all =~ ^[0-9]+$ ]] && [ "$all" -gt 1000000 ] || fail "implausible instruction count '$all'"
sum=0
for c in loads stores fp-instructions branch-instructions spr-instructions other-instructions; do
	sum=$((sum + $(val a.csv "$c:u")))
done
[ "$sum" = "$all" ] || fail "the classes sum to $sum, instructions $all"
[ "$(val a.csv syscalls:u)" -gt 0 ] || fail "no system call counted"
n=$(qemu_count gz.log "$gz" < "$tmp/in")
want a.csv instructions:u "$n"
echo "ppc64: loop 22374 and minigzip $all instructions, equal to QEMU's own count"
