#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `--md FILE` (docs/machine-description.md): the tools and the plugin run
# the machine a description file gives.
#   - perfctraccess 0: the perf-register hypercalls answer ENOACCESS, so
#     every event is <not supported> and the refusal is reported;
#   - clock_hz: cpustat's interval is that many cycles (-t %tick column);
#   - chips 2: the machine has mcu0..mcu3 for busstat;
#   - a guest whose real memory ends at 1 MB cannot place the MMU-statistics
#     buffer there: ENORADDR (niagara-mmustat-api.txt);
#   - bad files and a platform the command line contradicts: one line, exit
#     non-zero.
# usage: run_md.sh HVPMU MICRO_DIR
set -euo pipefail
hvpmu=$1 micro=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: md: $*" >&2; exit 1; }
p=$micro/loop_int

cat > "$tmp/deny.json" <<'J'
{ "guests": [ { "name": "noperf", "perfctraccess": 0, "nstrands": 64,
                "mblock": [ { "base": 0, "size": 268435456 } ] } ] }
J
env -i "$hvpmu" stat -x, -o "$tmp/o" --md "$tmp/deny.json" -e Instr_all -- "$p" 2> "$tmp/e"
grep -q '^<not supported>,,Instr_all,' "$tmp/o" || { cat "$tmp/o" >&2; fail "perfctraccess 0 still counted"; }
grep -q 'ENOACCESS' "$tmp/e" || { cat "$tmp/e" >&2; fail "refusal not reported"; }
env -i "$hvpmu" stat -x, -o "$tmp/o" -e Instr_all -- "$p"
grep -q '^[0-9][0-9]*,,Instr_all,' "$tmp/o" || fail "the default description does not count"

# half the T4-1 clock: a 2 us interval is 2850 cycles, not 5700 (the
# mean %tick of the full intervals, within the OS tick's granularity)
echo '{ "clock_hz": 1425000000 }' > "$tmp/clock.json"
env -i "$hvpmu" cpustat --md "$tmp/clock.json" -n -t -c Instr_all 0.000002 -- "$p" 2> "$tmp/c"
env -i "$hvpmu" cpustat -n -t -c Instr_all 0.000002 -- "$p" 2> "$tmp/c2"
mean() { awk '$3 == "tick" { print $4 }' "$1" | sed '$d' | awk '{ s += $1; n++ } END { printf "%d", s / n }'; }
m1=$(mean "$tmp/c") m2=$(mean "$tmp/c2")
[ "$m1" -ge 2800 ] && [ "$m1" -le 2950 ] && [ "$m2" -ge 5650 ] && [ "$m2" -le 5800 ] ||
	{ cat "$tmp/c" "$tmp/c2" >&2; fail "clock_hz: mean intervals $m1 and $m2 cycles"; }

# two chips: four MCUs
echo '{ "chips": 2 }' > "$tmp/chips.json"
env -i "$hvpmu" busstat --md "$tmp/chips.json" -n -w mcu3,pic0=mem_reads -- "$p" 2> "$tmp/b"
grep -q ' mcu3 ' "$tmp/b" || { cat "$tmp/b" >&2; fail "mcu3 on two chips"; }
set +e
env -i "$hvpmu" busstat -n -w mcu3,pic0=mem_reads -- "$p" > /dev/null 2> "$tmp/b"; rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q 'mcu0..mcu1' "$tmp/b" || { cat "$tmp/b" >&2; fail "mcu3 on one chip"; }

# the MMU-statistics buffer (RA 0x100000 + 0x200 * cpu) outside real memory
cat > "$tmp/small.json" <<'J'
{ "platform": "t1",
  "guests": [ { "perfctraccess": 1, "nstrands": 32, "mblock": [ { "base": 0, "size": 1048576 } ] } ] }
J
set +e
env -i "$hvpmu" mmustat --md "$tmp/small.json" -- "$p" > /dev/null 2> "$tmp/m"
set -e
grep -q 'ENORADDR' "$tmp/m" || { cat "$tmp/m" >&2; fail "mmustat buffer outside the guest's memory"; }

# bad files, contradicting platform
echo '{ "chips": 9 }' > "$tmp/bad1.json"
echo '{ "chip": 1 }' > "$tmp/bad2.json"
echo '{ "chips": ' > "$tmp/bad3.json"
for args in "stat --md $tmp/bad1.json -- $p" "stat --md $tmp/bad2.json -- $p" "cpustat --md $tmp/bad3.json -c Instr_all -- $p" \
	"stat --md $tmp/none.json -- $p" "stat -p t4 --md $tmp/small.json -- $p" "mmustat --md $tmp/bad2.json -- $p" \
	"busstat --md $tmp/bad1.json -w mcu0 -- $p"; do
	set +e
	# shellcheck disable=SC2086
	env -i "$hvpmu" $args > /dev/null 2> "$tmp/err"; rc=$?
	set -e
	[ "$rc" -ne 0 ] || fail "accepted: $args"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; fail "want one error line for: $args"; }
done
echo "md: ok"
