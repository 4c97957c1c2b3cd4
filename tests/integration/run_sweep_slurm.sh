#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu sweep --engine slurm` (docs/sweeps.md "Slurm") on a one-node Slurm
# cluster this test starts on the machine and stops at its end: Debian's
# munge (munged on a key and socket of the test's own) and slurm-wlm
# (slurmctld and slurmd on localhost, on two free ports, with a
# slurm.conf, state and spool in the test's directory).  The plan of
# run_sweep.sh (two programs x two L2 sizes x two events) runs as an
# sbatch array job; its merged table must equal the one GNU parallel
# makes (also when submitted with --no-wait and merged by hvpmu merge), a
# rerun submits nothing, and a failed task fails the sweep.
# Needs root (slurmd runs the tasks as the submitting user) and the
# packages of scripts/common.sh; HVPMU_SKIP_SLURM=1 alone skips it (exit 77).
# usage: run_sweep_slurm.sh HVPMU MEM_DIR
set -euo pipefail
hvpmu=$1 mem=$2
if [ "${HVPMU_SKIP_SLURM:-0}" = 1 ]; then
	echo "sweep slurm: skipped (HVPMU_SKIP_SLURM=1)"
	exit 77
fi
fail() { echo "FAIL: sweep slurm: $*" >&2; for f in "$tmp"/*.log; do [ ! -s "$f" ] || { echo "--- $f" >&2; tail -20 "$f" >&2; }; done; exit 1; }
tmp=$(mktemp -d /tmp/hvpmu-slurm.XXXXXX)
pids=()
stop() {
	for p in "${pids[@]}"; do kill -TERM "$p" 2> /dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2> /dev/null || true; done
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap stop EXIT
[ "$(id -u)" -eq 0 ] || fail "needs root to run slurmd (HVPMU_SKIP_SLURM=1 skips this test)"
for c in munged mungekey slurmctld slurmd sbatch sinfo parallel; do
	command -v "$c" > /dev/null || fail "$c is not installed (scripts/common.sh lists munge, slurmctld, slurmd, slurm-client, parallel)"
done
chmod 0755 "$tmp" # munged wants its socket's directory open to all
export XDG_RUNTIME_DIR=$tmp/xdg
mkdir -m 0700 "$XDG_RUNTIME_DIR"

# munge: a key and a socket of the test's own
mungekey -c -k "$tmp/munge.key" -b 1024
chmod 0400 "$tmp/munge.key"
munged -f -F --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
	--log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed" 2> "$tmp/munged-stderr.log" &
pids+=($!)
for _ in $(seq 100); do [ -S "$tmp/munge.sock" ] && break; sleep 0.05; done
[ -S "$tmp/munge.sock" ] || fail "munged did not start"

# two free TCP ports (asked of the kernel, then released)
read -r p1 p2 < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
h=$(hostname -s)
mkdir "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" <<EOF
ClusterName=hvpmutest
SlurmctldHost=$h(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CryptoType=crypto/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
NodeName=$h NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=hvpmu Nodes=$h Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i 2> "$tmp/slurmctld-stderr.log" &
pids+=($!)
slurmd -D 2> "$tmp/slurmd-stderr.log" &
pids+=($!)
for _ in $(seq 200); do sinfo -h -o '%t' 2> /dev/null | grep -q idle && break; sleep 0.1; done
sinfo -h -o '%t' 2> /dev/null | grep -q idle || fail "the node did not come up"

cd "$tmp"
cat > plan.json <<J
{
  "events": ["cycles:u", "L2_clean_evict"],
  "axes": { "memory.l2.size": [32768, 131072] },
  "programs": [
    { "path": "$mem/seq_l2" },
    { "name": "small", "path": "$mem/seq_small" }
  ]
}
J
"$hvpmu" sweep --engine slurm --partition hvpmu --time 5 -o slurm.results plan.json 2> sweep.log ||
	fail "the slurm sweep failed: $(cat sweep.log)"
[ "$(ls slurm.results/logs/slurm-*_*.out | wc -l)" -eq 4 ] || fail "not 4 array tasks"
"$hvpmu" sweep -j2 -o local.results plan.json 2> local.log || fail "the local sweep failed: $(cat local.log)"
cmp slurm.results/merged.csv local.results/merged.csv || fail "slurm and GNU parallel merged different tables"
[ "$(wc -l < slurm.results/merged.csv)" -eq 5 ] || fail "not 4 rows"
# submitted without waiting, merged when the array job has run
"$hvpmu" sweep --engine slurm --no-wait -o nowait.results plan.json 2> sweep.log || fail "--no-wait: $(cat sweep.log)"
grep -q 'submitted (job id in' sweep.log || fail "--no-wait: $(cat sweep.log)"
[ ! -e nowait.results/merged.csv ] || fail "--no-wait merged before the job ran"
id=$(cat nowait.results/logs/slurm-job)
for _ in $(seq 600); do [ -z "$(squeue -h -j "$id" 2> /dev/null)" ] && break; sleep 0.1; done
"$hvpmu" merge nowait.results 2> sweep.log || fail "merge after --no-wait: $(cat sweep.log)"
cmp slurm.results/merged.csv nowait.results/merged.csv || fail "--no-wait merged another table"
# a rerun has nothing to submit
"$hvpmu" sweep --engine slurm -o slurm.results plan.json 2> sweep.log || fail "the rerun failed"
grep -q '0 to run, 4 done already' sweep.log || fail "the rerun: $(cat sweep.log)"
[ "$(cat slurm.results/logs/slurm-job)" = 1 ] || fail "the rerun submitted a job"
# a job whose program fails: its task fails, the merge says which point
# (submitted without waiting: sbatch --wait polls every few seconds)
cat > failing.json <<J
{ "events": ["Instr_ld"], "programs": [ { "name": "wrong", "path": "$mem/seq_small", "status": 3 } ] }
J
"$hvpmu" sweep --engine slurm --no-wait failing.json 2> sweep.log || fail "failing.json: $(cat sweep.log)"
id=$(cat failing.results/logs/slurm-job)
for _ in $(seq 600); do [ -z "$(squeue -h -j "$id" 2> /dev/null)" ] && break; sleep 0.1; done
if "$hvpmu" merge failing.results 2> sweep.log; then fail "a failed task did not fail the merge"; fi
grep -q 'missing: wrong repeat 0' sweep.log || fail "the missing point: $(cat sweep.log)"
grep -q 'exit status 0 (success is 3)' failing.results/logs/slurm-"$id"_0.out || fail "the task's log"
echo "sweep slurm: ok"
