#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_guests.sh: one standing machine with two guests (hvpmu serve,
# docs/service.md "Guests and monitors"): programs attach to a guest with
# hvpmu run, tools of a guest watch the machine with stat -a, cpustat and
# busstat --service.
#
# usage: run_guests.sh HVPMU MINIGZIP TEXT
#
# The machine: a T4 with guest alpha (strands 0-31, perfctraccess) and
# guest beta (strands 32-63, no perfctraccess).
#   1. beta's busstat is refused: ENOACCESS, one line, non-zero exit;
#      beta's cpustat reports the refusal;
#   2. alpha's stat -a while alpha and beta each run minigzip (beta's is
#      killed at a random point in two of three rounds) counts exactly what
#      minigzip counts alone: alpha sees its strands only, and beta's end
#      disturbs nothing;
#   3. alpha's busstat sees beta's DRAM traffic: with only beta running
#      minigzip, the DRAM reads of both MCUs are those of minigzip alone
#      (within 5 %: other frames, another core); with both running, twice;
#   4. errors get one line and a non-zero exit: no such guest, no such
#      service, a second monitor in one guest (EBUSY), -p with --service;
#   5. SIGTERM ends the service with exit 0, and a monitor still running
#      gets its final counts.
set -euo pipefail
hvpmu=$1
gz=$2
text=$3
. "$(dirname "${BASH_SOURCE[0]}")/lib_service.sh"
service_test guests
head -c 100000 "$text" > "$tmp/in"
two_guests_md "$tmp/two.json"
name=guests-$$
cd "$tmp"

start_service() {
	env -i "$hvpmu" serve --md "$tmp/two.json" --name "$name" 2> "$tmp/serve.log" &
	srv=$!
	for _ in $(seq 100); do
		grep -q "^hvpmu serve: service '$name'" "$tmp/serve.log" && return 0
		sleep 0.05
	done
	cat "$tmp/serve.log" >&2
	fail "the service did not start"
}
start_service
grep -q "alpha (strands 0-31, perfctraccess yes), beta (strands 32-63, perfctraccess no)" "$tmp/serve.log" ||
	{ cat "$tmp/serve.log" >&2; fail "serve's line does not name the guests"; }


# 1. policy
refused "beta's busstat" "refused the device counters (ENOACCESS)" \
	env -i "$hvpmu" busstat --service "$name" --guest beta -w mcu0,pic0=mem_reads 0.001
env -i "$hvpmu" cpustat --service "$name" --guest beta -c Instr_all 0.001 -- \
	"$hvpmu" run --service "$name" --guest beta -- "$gz" < "$tmp/in" > /dev/null 2> "$tmp/cpu.err" ||
	{ cat "$tmp/cpu.err" >&2; fail "beta's cpustat"; }
grep -q "hypervisor refused access (ENOACCESS)" "$tmp/cpu.err" || { cat "$tmp/cpu.err" >&2; fail "beta's cpustat: no ENOACCESS"; }
echo "guests: beta (no perfctraccess) gets ENOACCESS"

# 2. alpha's stat -a = minigzip alone, exactly, whatever beta does
ev=Instr_all,Instr_ld,Instr_st,Branches
env -i "$hvpmu" stat -x, -o "$tmp/alone.csv" -e $ev -- "$gz" < "$tmp/in" > "$tmp/alone.gz"
cut -d, -f1,3 "$tmp/alone.csv" | grep -v '^$' | sort > "$tmp/alone"
[ "$(wc -l < "$tmp/alone")" -eq 4 ] || { cat "$tmp/alone.csv" >&2; fail "minigzip alone: want 4 counts"; }
for round in 1 2 3; do
	cat > "$tmp/both.sh" << SH
env -i "$hvpmu" run --service "$name" --guest alpha -- "$gz" < "$tmp/in" > "$tmp/a.gz" &
a=\$!
"$hvpmu" run --service "$name" --guest beta -- "$gz" < "$tmp/in" > "$tmp/b.gz" &
b=\$!
if [ $round -lt 3 ]; then # beta's emulator, once it runs, at a random point
	for _ in \$(seq 300); do
		pgrep -f "attach=/[^,]*/$name,.*guest=beta" > /dev/null && break
		sleep 0.01
	done
	sleep 0.0\$((RANDOM % 10))
	pkill -KILL -f "attach=/[^,]*/$name,.*guest=beta" || true
fi
wait \$a
wait \$b || echo killed > "$tmp/killed.$round"
SH
	env -i "$hvpmu" stat --service "$name" --guest alpha -x, -o "$tmp/sys.csv" -e $ev -- sh "$tmp/both.sh" ||
		fail "round $round: stat -a failed"
	cut -d, -f1,3 "$tmp/sys.csv" | grep -v '^$' | sort > "$tmp/sys"
	diff "$tmp/alone" "$tmp/sys" > /dev/null ||
		{ paste -d' ' "$tmp/alone" "$tmp/sys" >&2; fail "round $round: alpha's stat -a is not minigzip alone"; }
	cmp -s "$tmp/a.gz" "$tmp/alone.gz" || fail "round $round: alpha's minigzip output differs from minigzip alone's"
done
kills=$(ls "$tmp" | grep -c '^killed\.' || true)
[ "$kills" -ge 1 ] || fail "beta's minigzip was never killed (rounds 1 and 2)"
echo "guests: alpha's stat -a = minigzip alone, exactly (beta running; killed in $kills of 3 rounds)"

# 3. alpha's busstat sees beta's DRAM traffic
dram_total() { # busstat -n -a output: the last count of each device, summed
	awk '{ last[$2] = $4 } END { for (d in last) s += last[d]; print s + 0 }' "$1"
}
env -i "$hvpmu" busstat -n -a -w mcu0,pic0=mem_reads -w mcu1,pic0=mem_reads 0.01 -- "$gz" < "$tmp/in" \
	> /dev/null 2> "$tmp/bus.alone"
alone=$(dram_total "$tmp/bus.alone")
[ "$alone" -gt 100 ] || { cat "$tmp/bus.alone" >&2; fail "busstat of minigzip alone: $alone DRAM reads"; }
env -i "$hvpmu" busstat --service "$name" --guest alpha -n -a -w mcu0,pic0=mem_reads -w mcu1,pic0=mem_reads 0.01 -- \
	"$hvpmu" run --service "$name" --guest beta -- "$gz" < "$tmp/in" > /dev/null 2> "$tmp/bus.beta"
beta=$(dram_total "$tmp/bus.beta")
cat > "$tmp/two.sh" << SH
"$hvpmu" run --service "$name" --guest alpha -- "$gz" < "$tmp/in" > /dev/null &
"$hvpmu" run --service "$name" --guest beta -- "$gz" < "$tmp/in" > /dev/null
wait
SH
env -i "$hvpmu" busstat --service "$name" --guest alpha -n -a -w mcu0,pic0=mem_reads -w mcu1,pic0=mem_reads 0.01 -- \
	sh "$tmp/two.sh" 2> "$tmp/bus.both"
both=$(dram_total "$tmp/bus.both")
awk -v a="$alone" -v b="$beta" -v c="$both" 'BEGIN {
	if (b < 0.95 * a || b > 1.05 * a) exit 1
	if (c < 1.9 * a || c > 2.1 * a) exit 1
}' || fail "DRAM reads: minigzip alone $alone, beta's seen by alpha $beta (want within 5 %), both $both (want twice)"
echo "guests: alpha's busstat sees beta's DRAM traffic ($beta reads; alone $alone; both guests $both)"

# 4. errors
refused "no such guest" "has no guest 'gamma'" env -i "$hvpmu" stat -a --service "$name" --guest gamma -e Instr_all
refused "run in no such guest" "has no guest 'gamma'" env -i "$hvpmu" run --service "$name" --guest gamma -- "$gz"
refused "no such service" "no service at" env -i "$hvpmu" busstat --service "none-$$" -w mcu0,pic0=mem_reads
refused "-p with --service" "no -p or --md with it" env -i "$hvpmu" stat -p t4 --service "$name" -e Instr_all
start_first() {
	env -i "$hvpmu" stat --service "$name" --guest alpha -e Instr_all 2> "$tmp/first" &
	first=$!
	sleep 0.3
}
start_first
# until the first monitor runs: a second one is refused.  The probe counts
# for the time of `true` only: before the first monitor is there (a slow
# start, under ASan on a loaded host) it ends at once instead of running
# until SIGINT (it hung the test so once); and if it got the counters
# first, the first monitor was refused: it starts again.
in_use=
for _ in $(seq 300); do
	if ! kill -0 "$first" 2> /dev/null; then
		wait "$first" || true
		start_first
		continue
	fi
	set +e
	env -i "$hvpmu" stat --service "$name" --guest alpha -e Instr_all -- true > /dev/null 2> "$tmp/err"
	set -e
	grep -q "in use" "$tmp/err" && kill -0 "$first" 2> /dev/null && in_use=1 && break
	sleep 0.05
done
[ -n "$in_use" ] || fail "the first monitor did not start"
refused "a second monitor" "the guest's counters are in use" \
	timeout -s INT 60 env -i "$hvpmu" stat -a --service "$name" --guest alpha -e Instr_all
# the policy holds while another guest's counters run
refused "beta's busstat while alpha's monitor runs" "refused the device counters (ENOACCESS)" \
	env -i "$hvpmu" busstat --service "$name" --guest beta -w mcu0,pic0=mem_reads 0.001
echo "guests: errors get one line"

# 5. SIGTERM: the service ends, the monitor still running gets its counts
kill -TERM "$srv"
wait "$srv" || fail "serve exited with $?"
srv=
wait "$first" || fail "the monitor running at the service's end failed"
grep -q "Performance counter stats for 'system wide'" "$tmp/first" || { cat "$tmp/first" >&2; fail "no final counts"; }
echo "guests: SIGTERM ends the service; a running monitor gets its final counts; ok"
