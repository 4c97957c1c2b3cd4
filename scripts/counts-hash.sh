#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Proof that a change leaves the counts alone: runs a fixed set of hvpmu
# runs and prints one hash per run and one over all of them.  Compare the
# output of two builds under the same environment (a refactor must give
# the same hashes; a fidelity fix must change only the runs it explains):
#   scripts/counts-hash.sh BUILD_DIR OUT_DIR [MINIGZIP]
#   diff A/hashes B/hashes; diff -r A B
# BUILD_DIR holds src/hvpmu and workloads/ (a build of this tree or of
# another commit); OUT_DIR receives every run's output and `hashes`.
# The set: every named T4 event of `hvpmu list`, four per run, on zlib's
# minigzip compressing the first 256 KB of clang's arm_neon.h; the
# instruction-only sets with and without Br_taken; every T1 PICL event
# beside Instr_cnt; each micro-benchmark and memory workload with
# instruction, branch, cycle and memory events; threads on t4-2; and the
# cpustat, busstat and mmustat tools.  Every run is under `env -i` from
# the same directory, so the guest's stack is the same for both builds.
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=$(cd "${1:?usage: counts-hash.sh BUILD_DIR OUT_DIR [MINIGZIP]}" && pwd)
out=${2:?usage: counts-hash.sh BUILD_DIR OUT_DIR [MINIGZIP]}
gz=${3:-$HVPMU_ROOT/build/minigzip}
hv=$build/src/hvpmu
[ -x "$hv" ] || die "no $hv"
[ -x "$gz" ] || die "no minigzip at $gz (scripts/build-zlib.sh builds one)"
gz=$(readlink -f "$gz")
mkdir -p "$out"
out=$(cd "$out" && pwd)
text=$out/input.txt
head -c 262144 "$HVPMU_TEXT" > "$text"
cd /

# run LABEL ARGS...: one hvpmu run; its counts (CSV) to OUT/LABEL
run() {
	local label=$1
	shift
	local rc=0
	env -i PATH=/usr/bin:/bin "$hv" "$@" > "$out/$label.stdout" 2> "$out/$label.stderr" < "$text" || rc=$?
	echo "exit $rc" >> "$out/$label.stderr"
	if grep -q 'No such file\|usage:\|unknown' "$out/$label.stderr"; then
		die "$label: $(head -1 "$out/$label.stderr")"
	fi
}

# every named T4 event (TABLE 10-2), four per run
mapfile -t t4 < <("$hv" list | awk '/^Generic aliases/ { exit } / sl=[0-9]+ +mask=/ { print $1 }')
[ ${#t4[@]} -gt 100 ] || die "hvpmu list gave ${#t4[@]} T4 events"
for ((i = 0; i < ${#t4[@]}; i += 4)); do
	set=$(IFS=,; echo "${t4[*]:i:4}")
	run "t4.$((i / 4))" stat -x, -o "$out/t4.$((i / 4)).csv" -e "$set" -- "$gz"
done
run insn stat -x, -o "$out/insn.csv" -e Instr_all,Instr_ld,Instr_st,Branches -- "$gz"
run taken stat -x, -o "$out/taken.csv" -e Instr_all,Br_taken,Branches,Br_mispred -- "$gz"
run kmodes stat -x, -o "$out/kmodes.csv" -e Instr_all:u,Instr_all:k,cycles:u,cycles:k -- "$gz"
# T1: Instr_cnt and each PICL event
mapfile -t t1 < <("$hv" list | awk '/^UltraSPARC T1/ { on = 1; next } on && / PICL / { print $1 }')
[ ${#t1[@]} -gt 5 ] || die "hvpmu list gave ${#t1[@]} T1 events"
for e in "${t1[@]}"; do
	run "t1.$e" stat -p t1 -x, -o "$out/t1.$e.csv" -e "Instr_cnt,$e" -- "$gz"
done
# micro-benchmarks and memory workloads; those with several guest threads
# (mt.*) run in turns (docs/event-source.md "Turns"): the same on every
# run, but their counts follow the turns' rules (the quantum), so they are
# hashed apart, in hashes-mt
for w in "$build"/workloads/micro/* "$build"/workloads/mem/*; do
	[ -x "$w" ] && [ -f "$w" ] || continue
	b=$(basename "$w")
	case $b in fork|threads|l2_burst|remote_scan|share_*|spin_*) b=mt.$b ;; esac
	# -i: the program's own process (fork's parent), as before stat's
	# default counted the tree (issue 32); the others are one process
	run "w.$b.i" stat -i -x, -o "$out/w.$b.i.csv" -e Instr_all,Br_taken,Branches,Br_mispred -- "$w"
	run "w.$b.m" stat -i -x, -o "$out/w.$b.m.csv" -e DC_miss_nospec,L2_dirty_evict,DTLB_miss_asynch,cycles -- "$w"
done
if [ -x "$build/workloads/micro/threads" ]; then
	run w.mt.threads.t42 stat -p t4-2 --placement spread -x, -o "$out/w.mt.threads.t42.csv" \
		-e Instr_all,DC_miss_nospec,DC_snoop_invalid,cycles -- "$build/workloads/micro/threads"
fi
# the tools
run cpustat cpustat -c pic0=Instr_all,pic1=DC_miss_nospec,pic2=Br_taken,pic3=cycles 0.001 -- "$gz"
run busstat busstat -w mcu0,pic0=read_all_channels,pic1=mem_writes 0.001 -- "$gz"
run busstat.t1 busstat -w dram0,pic0=mem_reads,pic1=mem_writes -w jbus0,pic0=dma_writes 0.001 -- "$gz"
run mmustat mmustat -p t1 -x, -- "$gz"

cd "$out"
# stat's CSV has carried perf's derived metrics since issue 32 (GHz on
# cycles, "% of all branches", miss ratios): they are blanked here, so
# that the hash covers what it always did (the counts, run times and
# insn per cycle) and stays comparable across that change
norm() {
	case $1 in
	*.csv) sed -E 's/,[0-9.]+,(GHz|of all [^,]*)$/,,/' "$1" ;;
	*) cat "$1" ;;
	esac
}
for f in *.csv *.stdout *.stderr; do
	[ -s "$f" ] || continue
	printf '%s\t%s\n' "$f" "$(norm "$f" | sha256sum | cut -c1-16)"
done | sort > all
grep -v '^w\.mt\.' all > hashes || true
grep '^w\.mt\.' all > hashes-mt || true
rm all
printf 'runs: %s files, all: %s (threaded: %s files, %s)\n' "$(wc -l < hashes)" \
	"$(sha256sum < hashes | cut -c1-16)" "$(wc -l < hashes-mt)" "$(sha256sum < hashes-mt | cut -c1-16)"
