#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test; issue 28, docs/service.md "More threads than
# strands"): the issue's bigger cases of more processes than strands, on a
# T4 whose one guest has 2 strands (hvpmu stat -f --per-process, sparc64
# dash, zlib's minigzip on 30 KB of text):
#   - 50, then 500 minigzips at once: the run counts them all (it exits 0,
#     with nothing uncounted), each minigzip row equal to minigzip alone
#     (Instr_all:u; rows are kept for the first 256 images, STAT_MAX_PROCS,
#     dash's forks among them);
#   - a pipeline of 64 minigzips (compress and decompress in turn): it
#     ends and gives the text back.
# Prints the wall time of each, the switches the service made and whether
# the rows are exact; exits 1 if any case fails.
# Usage: bench/service-timeshare.sh  (HVPMU_BIN, HVPMU_DASH, HVPMU_MINIGZIP:
# paths that skip the builds)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
if [ -z "${HVPMU_BIN:-}" ]; then
	hvpmu_install
	hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
fi
hv=${HVPMU_BIN:-$HVPMU_WORK/release/src/hvpmu}
dash=${HVPMU_DASH:-$("$HVPMU_ROOT/scripts/build-dash-sparc64.sh")}
gz=${HVPMU_MINIGZIP:-$("$HVPMU_ROOT/scripts/build-zlib.sh")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$gz" minigzip
head -c 30000 "$HVPMU_TEXT" > text
cat > small.json << 'JSON'
{ "platform": "t4",
  "guests": [
    { "name": "small", "perfctraccess": 1, "first_strand": 0, "nstrands": 2,
      "mblock": [ { "base": 0, "size": 268435456 } ] } ] }
JSON
env -i PWD="$work" "$hv" stat -x, -o alone.csv -e Instr_all:u -- ./minigzip < text > /dev/null
want=$(awk -F, '$3 == "Instr_all:u" { print $1 }' alone.csv)
status=0
# run NAME CMD: one run of dash -c CMD, timed
run() {
	local name=$1 cmd=$2 t0 t1
	t0=$(date +%s.%N)
	if ! env -i HVPMU_REMOTE_STATS=1 "$hv" stat -f --per-process --md small.json -x, -o "$name.csv" -e Instr_all:u -- \
		"$dash" -c "$cmd" > /dev/null 2> "$name.err"; then
		echo "$name: FAILED ($(tail -1 "$name.err"))"
		status=1
		return
	fi
	t1=$(date +%s.%N)
	printf '%s: %.2f s, %s switches, ' "$name" "$(echo "$t1 - $t0" | bc)" \
		"$(sed -n 's/^hvpmu service: .* \([0-9]*\) switches;.*$/\1/p' "$name.err")"
}
for n in 50 500; do
	run "$n-processes" "i=0; while [ \$i -lt $n ]; do ./minigzip < text > /dev/null & i=\$((i+1)); done; wait"
	[ -s "$n-processes.csv" ] || continue
	# (rows: the first STAT_MAX_PROCS = 256 images, dash's forks among them)
	rows=$(awk -F, '$1 ~ /^minigzip-/ && $4 == "Instr_all:u"' "$n-processes.csv" | wc -l)
	exact=$(awk -F, -v w="$want" '$1 ~ /^minigzip-/ && $4 == "Instr_all:u" && $2 == w' "$n-processes.csv" | wc -l)
	echo "$exact of $rows minigzip rows exactly as alone ($want), the run counted whole (exit 0, nothing uncounted)"
	[ "$exact" = "$rows" ] && [ "$rows" -gt 0 ] || status=1
done
pl='./minigzip < text'
for _ in $(seq 31); do pl="$pl | ./minigzip -d | ./minigzip"; done
run pipeline-64 "$pl | ./minigzip -d > out"
if cmp -s text out; then echo "the text came back"; else echo "the text did not come back"; status=1; fi
exit $status
