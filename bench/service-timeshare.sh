#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test; issue 28, docs/service.md "More threads than
# strands"): the issue's bigger cases of more processes than strands, on a
# T4 whose one guest has 2 strands (hvpmu stat -f --per-process, sparc64
# dash, zlib's minigzip on 30 KB of text):
#   - 50, then 500 minigzips at once: the run counts them all (it exits 0,
#     with nothing uncounted); of 50 each minigzip row equals minigzip
#     alone (Instr_all:u); of 500 (more images than the 256 rows a
#     --per-process table keeps) the total is at least 500 x alone;
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
# run NAME OPT CMD: one run of dash -c CMD (stat -f OPT: --per-process or
# -f again), timed
run() {
	local name=$1 opt=$2 cmd=$3 t0 t1
	t0=$(date +%s.%N)
	if ! env -i HVPMU_REMOTE_STATS=1 "$hv" stat -f "$opt" --md small.json -x, -o "$name.csv" -e Instr_all:u -- \
		"$dash" -c "$cmd" > /dev/null 2> "$name.err"; then
		echo "$name: FAILED ($(tail -1 "$name.err"))"
		status=1
		return
	fi
	t1=$(date +%s.%N)
	printf '%s: %.2f s, %s switches, ' "$name" "$(echo "$t1 - $t0" | bc)" \
		"$(sed -n 's/^hvpmu service: .* \([0-9]*\) switches;.*$/\1/p' "$name.err")"
}
# 50: a row per image (dash's forks and the minigzips), each minigzip's
# exactly as alone; 500: more images than the 256 rows a table keeps
# (docs/cli.md "Exit status"), so the totals: at least 500 x alone
run 50-processes --per-process "i=0; while [ \$i -lt 50 ]; do ./minigzip < text > /dev/null & i=\$((i+1)); done; wait"
if [ -s 50-processes.csv ]; then
	rows=$(awk -F, '$1 ~ /^minigzip-/ && $4 == "Instr_all:u"' 50-processes.csv | wc -l)
	exact=$(awk -F, -v w="$want" '$1 ~ /^minigzip-/ && $4 == "Instr_all:u" && $2 == w' 50-processes.csv | wc -l)
	echo "$exact of $rows minigzip rows exactly as alone ($want), the run counted whole (exit 0, nothing uncounted)"
	[ "$exact" = 50 ] && [ "$rows" = 50 ] || status=1
fi
run 500-processes -f "i=0; while [ \$i -lt 500 ]; do ./minigzip < text > /dev/null & i=\$((i+1)); done; wait"
if [ -s 500-processes.csv ]; then
	total=$(awk -F, '$3 == "Instr_all:u" { print $1 }' 500-processes.csv)
	echo "Instr_all:u $total, 500 minigzips alone $((500 * want)): the run counted whole (exit 0, nothing uncounted)"
	[ "$total" -ge $((500 * want)) ] || status=1
fi
pl='./minigzip < text'
for _ in $(seq 31); do pl="$pl | ./minigzip -d | ./minigzip"; done
run pipeline-64 --per-process "$pl | ./minigzip -d > out"
if cmp -s text out; then echo "the text came back"; else echo "the text did not come back"; status=1; fi
exit $status
