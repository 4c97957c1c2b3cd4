#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_timeshare.sh: more processes than strands (issue 28; docs/service.md
# "More threads than strands"): the guest OS time-shares its strands.
#
# usage: run_timeshare.sh HVPMU ADVERSARY MINIGZIP DASH TEXT MEM_DIR MICRO_DIR
#
# A T4 whose one guest has 2 strands:
#   1. dash starts 50 minigzips at once (hvpmu stat -f --per-process; 8
#      with the memory model):
#      the run succeeds, the service switched threads (HVPMU_REMOTE_STATS),
#      and each minigzip's row equals minigzip alone, exactly, for every
#      instruction class; once with instruction classes only (the guest
#      counts blocks under grants), once with the memory model (every block
#      recorded, the quantum barrier);
#   1b. on a guest of 1 strand, two programs that make no system call in
#      their loop (workloads/mem/seq_mem, 120 M cycles: about 10 OS ticks
#      each) share the strand by the OS tick; each counts its
#      instructions exactly as alone (the memory model on);
#   1a. 500 small programs at once: all attach and are counted (below);
#   2. a pipeline of 64 minigzips (compress, decompress, ... : 32 of each)
#      on the 2 strands ends, gives the text back, has 64 rows and is
#      counted whole (a stage's count depends on how its reads of a pipe
#      were cut, so it is not compared with a run alone);
#   3. what still cannot be counted fails loudly: a client of a standing
#      service whose records are garbage is detached (adversary garbage)
#      while a monitor (stat -a) of its guest runs: the monitor prints a
#      line and exits non-zero.
set -euo pipefail
hvpmu=$1
adversary=$2
gz=$3
dash=$4
text=$5
memdir=$6
microdir=$7
. "$(dirname "${BASH_SOURCE[0]}")/lib_service.sh"
service_test timeshare
cat > "$tmp/small.json" << 'JSON'
{ "platform": "t4",
  "guests": [
    { "name": "small", "perfctraccess": 1, "first_strand": 0, "nstrands": 2,
      "mblock": [ { "base": 0, "size": 268435456 } ] } ] }
JSON
sed 's/"small"/"one"/; s/"nstrands": 2/"nstrands": 1/' "$tmp/small.json" > "$tmp/one.json"
insn=Instr_all:u,Branches:u,Instr_ld:u,Instr_st:u
work=$tmp/w
mkdir "$work"
cp "$gz" "$work/minigzip"
head -c 30000 "$text" > "$work/text"
cd "$work"
# alone EVENTS OUT ARGS: minigzip ARGS alone (the environment dash gives
# its children: PWD), its counts "EVENT=VALUE ..." in OUT
alone() {
	local ev=$1 out=$2
	shift 2
	env -i PWD="$work" "$hvpmu" stat -x, -o "$out.csv" -e "$ev" -- ./minigzip "$@" < "$in" > "$out.data" ||
		fail "minigzip $* alone"
	awk -F, '!/^#/ && NF > 3 { printf "%s=%s ", $3, $1 }' "$out.csv" > "$out"
}
# rowcounts CSV: one line per minigzip row, "EVENT=VALUE ..." (in CSV order)
rowcounts() {
	awk -F, '!/^#/ && NF > 4 && $1 ~ /^minigzip-/ { c[$1] = c[$1] $4 "=" $2 " " } END { for (k in c) print c[k] }' "$1"
}
in=text
alone "$insn" "$tmp/c"
mem=Instr_all:u,Branches:u,Instr_ld:u # (with DC_miss_nospec: four events on the four PICs, none multiplexed)
alone "$mem" "$tmp/cm"

# 1. fifty, then eight at once on two strands
for ev in "$insn" "$mem,DC_miss_nospec"; do
	want=$tmp/c k=50
	[ "$ev" = "$insn" ] || want=$tmp/cm k=8
	env -i HVPMU_REMOTE_STATS=1 "$hvpmu" stat -f --per-process --md "$tmp/small.json" -x, -o "$tmp/e.csv" -e "$ev" -- \
		"$dash" -c "i=0; while [ \$i -lt $k ]; do ./minigzip < text > /dev/null & i=\$((i+1)); done; wait" \
		2> "$tmp/e.err" || { cat "$tmp/e.err" >&2; fail "$k minigzips ($ev): the run failed"; }
	sw=$(sed -n 's/^hvpmu service: .* \([0-9]*\) switches;.*$/\1/p' "$tmp/e.err")
	[ -n "$sw" ] && [ "$sw" -gt 0 ] || { cat "$tmp/e.err" >&2; fail "$k minigzips ($ev): no switches"; }
	rowcounts "$tmp/e.csv" | sed 's/DC_miss_nospec=[0-9]* //' > "$tmp/rows"
	[ "$(wc -l < "$tmp/rows")" = $k ] || { cat "$tmp/e.csv" >&2; fail "$k minigzips ($ev): not $k rows"; }
	n=$(grep -cxF "$(cat "$want")" "$tmp/rows" || true)
	[ "$n" = $k ] || { cat "$tmp/rows" "$want" >&2; fail "$k minigzips ($ev): $n of $k rows equal minigzip alone"; }
	echo "timeshare: $k minigzips on 2 strands ($ev): $sw switches, every row = minigzip alone"
done

# 1a. five hundred at once on two strands (a small program: loop_int,
# 30,006 instructions): every one attaches (the service's tally of
# images: 500 forks, 500 execs and dash), the run exits 0 with nothing
# uncounted, and the total holds at least 500 x loop_int alone
cp "$microdir/loop_int" li
env -i "$hvpmu" stat -x, -o "$tmp/li.csv" -e Instr_all:u -- ./li || fail "loop_int alone"
li=$(awk -F, '$3 == "Instr_all:u" { print $1 }' "$tmp/li.csv")
env -i HVPMU_REMOTE_STATS=1 "$hvpmu" stat -f --md "$tmp/small.json" -x, -o "$tmp/h.csv" -e Instr_all:u -- \
	"$dash" -c 'i=0; while [ $i -lt 500 ]; do ./li & i=$((i+1)); done; wait' 2> "$tmp/h.err" ||
	{ cat "$tmp/h.err" >&2; fail "500 processes: the run failed"; }
! grep -q uncounted "$tmp/h.err" || { cat "$tmp/h.err" >&2; fail "500 processes: uncounted"; }
images=$(sed -n 's/^hvpmu service: .* of \([0-9]*\) images kept;.*$/\1/p' "$tmp/h.err")
[ "${images:-0}" -ge 1001 ] || { cat "$tmp/h.err" >&2; fail "500 processes: $images images attached, want 1001"; }
total=$(awk -F, '$3 == "Instr_all:u" { print $1 }' "$tmp/h.csv")
[ "$total" -ge $((500 * li)) ] || fail "500 processes: Instr_all:u $total < 500 x $li"
echo "timeshare: 500 processes on 2 strands: $images images, Instr_all:u $total (>= 500 x $li), nothing uncounted"

# 1b. the OS tick: two seq_mem on one strand
env -i "$hvpmu" stat -x, -o "$tmp/s1.csv" -e Instr_all:u,cycles -- "$memdir/seq_mem" || fail "seq_mem alone"
want=$(awk -F, '$3 == "Instr_all:u" { print $1 }' "$tmp/s1.csv")
env -i HVPMU_REMOTE_STATS=1 "$hvpmu" stat -f --per-process --md "$tmp/one.json" -x, -o "$tmp/s2.csv" \
	-e Instr_all:u,cycles -- "$dash" -c "$memdir/seq_mem & $memdir/seq_mem & wait" 2> "$tmp/s2.err" ||
	{ cat "$tmp/s2.err" >&2; fail "two seq_mem on one strand"; }
n=$(awk -F, -v w="$want" '$1 ~ /^seq_mem-/ && $4 == "Instr_all:u" && $2 == w' "$tmp/s2.csv" | wc -l)
[ "$n" = 2 ] || { cat "$tmp/s2.csv" >&2; fail "two seq_mem on one strand: $n of 2 count $want as alone"; }
echo "timeshare: two seq_mem on 1 strand: both exact, $(sed -n 's/^hvpmu service: .* \([0-9]*\) switches;.*$/\1/p' "$tmp/s2.err") switches"

# 2. a pipeline of 64 stages on two strands (3 KB of text)
head -c 3000 text > small
pl='./minigzip < small'
for k in $(seq 31); do pl="$pl | ./minigzip -d | ./minigzip"; done
pl="$pl | ./minigzip -d > out"
timeout 120 env -i "$hvpmu" stat -f --per-process --md "$tmp/small.json" -x, -o "$tmp/p.csv" -e "$insn" -- \
	"$dash" -c "$pl" 2> "$tmp/p.err" || { cat "$tmp/p.err" >&2; fail "the 64-stage pipeline failed or hung"; }
cmp -s small out || fail "the 64-stage pipeline did not give the text back"
rowcounts "$tmp/p.csv" > "$tmp/rows"
[ "$(wc -l < "$tmp/rows")" = 64 ] || { cat "$tmp/p.csv" >&2; fail "the pipeline: not 64 rows"; }
! grep -q uncounted "$tmp/p.err" || { cat "$tmp/p.err" >&2; fail "the pipeline: uncounted"; }
echo "timeshare: a 64-stage pipeline on 2 strands ends, counted whole"

# 3. a process that cannot be counted: the monitor fails loudly
name=$tmp/timeshare-$$ # (a socket in this 0700 directory: docs/service.md "Where the socket is")
env -i "$hvpmu" serve --md "$tmp/small.json" --name "$name" 2> "$tmp/serve.log" &
srv=$!
serve_started "$tmp/serve.log"
set +e
env -i "$hvpmu" stat -a --service "$name" -x, -o "$tmp/a.csv" -e Instr_all -- "$adversary" garbage "$name" small \
	> "$tmp/a.out" 2> "$tmp/a.err"
rc=$?
set -e
grep -q "detached, service alive" "$tmp/a.out" || { cat "$tmp/a.out" "$tmp/a.err" >&2; fail "garbage: not detached"; }
[ "$rc" != 0 ] || { cat "$tmp/a.err" >&2; fail "stat -a over a detached process exited 0"; }
grep -q "ran uncounted .*the counts are incomplete" "$tmp/a.err" || { cat "$tmp/a.err" >&2; fail "stat -a: no line"; }
echo "timeshare: a process detached under stat -a: one line, exit $rc"
