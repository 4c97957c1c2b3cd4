#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu busstat` on the T4 memory controllers (sparc-t4-performance-
# instrumentation.md §10.5): every line that misses L3 is one DRAM read, so
# the MCUs' read_all_channels counts (TABLE 10-7 code 8) summed over both
# MCUs equal the memory-served events `hvpmu stat` counts for the same
# deterministic program; interval rows are deltas whose sum is the absolute
# count; Solaris-style errors and -l.
# usage: run_busstat.sh HVPMU MICRO_DIR MINIGZIP TEXT
set -euo pipefail
hvpmu=$1 micro=$2 gz=${3:-} text=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: busstat: $*" >&2; exit 1; }
prog=$micro/loop_mem

env -i "$hvpmu" busstat -n -a -w mcu0,pic0=read_all_channels -w mcu1,pic0=read_all_channels -- "$prog" 2> "$tmp/bus"
dram=$(awk '{ last[$2] = $4 } END { s = 0; for (d in last) s += last[d]; print s }' "$tmp/bus")
env -i "$hvpmu" stat -x, -o "$tmp/s1" -e DC_miss_local_hit_nospec,IC_miss_local_remote_remL3_hit,St_local,ITLB_HWTW_L3_miss -- "$prog"
env -i "$hvpmu" stat -x, -o "$tmp/s2" -e DTLB_HWTW_L3_miss -- "$prog"
events=$(cat "$tmp/s1" "$tmp/s2" | awk -F, '{ s += $1 } END { print s }')
[ "$dram" -gt 0 ] || fail "no DRAM reads counted"
[ "$dram" = "$events" ] || { cat "$tmp/bus" "$tmp/s1" "$tmp/s2" >&2; fail "DRAM reads $dram != memory-served events $events"; }

# interval deltas add up to the absolute count (real program, several rows)
if [ -n "$gz" ] && [ -r "$text" ]; then
	head -c 300000 "$text" > "$tmp/in"
	env -i "$hvpmu" busstat -n -w mcu0,pic0=mem_reads,pic1=bank_busy_stalls 0.005 -- "$gz" < "$tmp/in" > /dev/null 2> "$tmp/d"
	env -i "$hvpmu" busstat -n -a -w mcu0,pic0=mem_reads,pic1=bank_busy_stalls 0.005 -- "$gz" < "$tmp/in" > /dev/null 2> "$tmp/a"
	rows=$(wc -l < "$tmp/d")
	[ "$rows" -ge 3 ] || { cat "$tmp/d" >&2; fail "expected several interval rows, got $rows"; }
	sum=$(awk '{ s += $4 } END { print s }' "$tmp/d")
	abs=$(tail -n 1 "$tmp/a" | awk '{ print $4 }')
	[ "$sum" = "$abs" ] || fail "deltas sum $sum != absolute $abs"
	[ "$(wc -l < "$tmp/a")" = "$rows" ] || fail "-a and delta runs differ in rows"
fi

# repeating -w for a device rotates its sets, one per interval (busstat(8));
# -a counts of each set accumulate over its activations: never decrease
env -i "$hvpmu" busstat -n -a -w mcu0,pic0=mem_reads -w mcu0,pic0=read_all_channels 0.000002 -- "$prog" 2> "$tmp/mx"
[ "$(awk '$3 == "mem_reads"' "$tmp/mx" | wc -l)" -ge 2 ] && [ "$(awk '$3 == "read_all_channels"' "$tmp/mx" | wc -l)" -ge 2 ] ||
	{ cat "$tmp/mx" >&2; fail "multiplexed sets"; }
awk '{ print $3 }' "$tmp/mx" | uniq -d | grep -q . && { cat "$tmp/mx" >&2; fail "sets did not alternate"; }
awk '{ if ($4 < last[$3]) bad = 1; last[$3] = $4 } END { exit bad }' "$tmp/mx" || { cat "$tmp/mx" >&2; fail "-a count decreased"; }
[ "$(awk '$3 == "read_all_channels" { v = $4 } END { print v }' "$tmp/mx")" -gt 0 ] || fail "second set counted nothing"
# -e lists one device's events
env -i "$hvpmu" busstat -e mcu1 > "$tmp/e" && grep -q '^mem_reads .*read_write_channel1 clear_pic$' "$tmp/e" || fail "-e mcu1"
env -i "$hvpmu" busstat -e jbus0 > "$tmp/e" && grep -q '^jbus_cycles dma_reads' "$tmp/e" || fail "-e jbus0"

# -l lists devices and events; bad input gets one line and a non-zero exit
env -i "$hvpmu" busstat -l > "$tmp/l"
grep -q 'mcu0 mcu1' "$tmp/l" && grep -q 'read_all_channels' "$tmp/l" || fail "-l output"
for args in "-w mcu9,pic0=mem_reads -- $prog" "-w mcu0,pic0=no_such -- $prog" "-w dram7 -- $prog" \
	"-w mcu0,pic0=mem_reads -w dram0 -- $prog" "-w jbus0,pic0=mem_reads -- $prog" \
	"-w mcu0,pic0=mem_reads" "-w mcu0,pic0=mem_reads x -- $prog" "-- $prog" "-e mcu7" "-e dram0,pic0=mem_reads"; do
	set +e
	# shellcheck disable=SC2086
	env -i "$hvpmu" busstat $args > /dev/null 2> "$tmp/err"; rc=$?
	set -e
	[ "$rc" -ne 0 ] || fail "accepted: busstat $args"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; fail "want one error line for: busstat $args"; }
done
# platform t1 (niagara-perf-api.txt): a read() of n bytes is ceil(n/64) JBUS
# DMA writes (docs/t1-platform.md), so the input's size bounds them; every
# read/write system call is one PIO read; DRAM channel 0 sees reads
if [ -n "$gz" ] && [ -r "$text" ]; then
	env -i "$hvpmu" busstat -n -a -w jbus0,pic0=dma_writes,pic1=pio_reads -w dram0,pic0=mem_reads -- \
		"$gz" < "$tmp/in" > /dev/null 2> "$tmp/t1"
	dma=$(awk '$2 == "jbus0" { v = $4 } END { print v }' "$tmp/t1")
	pio=$(awk '$2 == "jbus0" { v = $6 } END { print v }' "$tmp/t1")
	d0=$(awk '$2 == "dram0" { v = $4 } END { print v }' "$tmp/t1")
	size=$(stat -c %s "$tmp/in")
	[ $((dma * 64)) -ge "$size" ] && [ $((dma * 64)) -lt $((size + 64 * pio)) ] || { cat "$tmp/t1" >&2; fail "JBUS DMA writes $dma for $size bytes"; }
	[ "$pio" -gt 0 ] && [ "$d0" -gt 0 ] || { cat "$tmp/t1" >&2; fail "no PIO reads or DRAM reads on t1"; }
fi
echo "busstat: DRAM reads $dram = memory-served events; ok"
