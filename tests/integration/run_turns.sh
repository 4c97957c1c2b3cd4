#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Threads in turns (the default; HVPMU_QUANTUM sets the quantum,
# docs/event-source.md "Turns"): threads that synchronize through memory
# or system calls are counted as the machine would run them, and the same
# on every run.
#   - the same threads attached to a service (`stat -f`: the image's
#     threads in turns, each turn's records published with its ticket
#     before the next turn, docs/service.md "Time"): spin_handoff, spin
#     and spinlock, ten runs each, identical and equal to the runs in one
#     emulator;
#   - T4, the child on core 1: workloads/mem/spin_handoff (N = 500 turns
#     per thread) and spin_handoff2 (2N), ten runs each, identical, with
#     the default quantum and with N = 1,000; their difference is 2N = 1000
#     handoffs, each one DC_snoop_invalid and one L1D miss served from the
#     other core (DC_miss_L2_L3_hit_nospec); HVPMU_QUANTUM=off (threads
#     free) still runs;
#   - Origin, threads on nodes 0 and 1: workloads/mips64/spin 200 and 400,
#     ten runs each, identical; at node 0's Hub the difference is 400
#     invalidations and 400 read-shared interventions;
#   - Origin: spinlock (four threads take a ticket lock in turn, the main
#     thread joins the others: futex waits), ten runs identical; pipefill
#     (a thread blocks writing a full pipe its main thread reads) to its
#     end, ten runs identical;
#   - QEMU's exclusive sections while the other threads wait for their
#     turn outside the execution loop: an atomic step (ppc64 atomic_step:
#     store twins), a fork (forkspin, halfway through the handoffs: the
#     same handoff counts on every run), translation-cache flushes (xz -T4
#     under -tb-size 1), each to its end;
#   - guest time (docs/event-source.md "Guest time"): timedwait (a
#     condition variable waited on with 50 us deadlines, nanosleep, the
#     clocks read around it) ten runs identical, in one emulator and
#     attached to a service, and its own check (the monotonic clock moves
#     by at least each sleep) passes;
#   - xz -T4 on the Origin and, built for sparc64 from the same Debian
#     source (scripts/build-xz-sparc64.sh), on the T4 with each thread on
#     its own core: three runs identical, every counter.  Its main thread
#     reads its input (a regular file: the read keeps its turn) and waits
#     for output with a deadline
#     (FUTEX_WAIT_BITSET with a timeout), modeled time in turns.
# usage: run_turns.sh HVPMU BUILD_DIR QEMU_MIPS64 [XZ TEXT [XZ_SPARC64 QEMU_SPARC64]]
set -euo pipefail
hv=$1 build=$2 qemu_mips64=$3 xz=${4:-} text=${5:-} xz_sparc64=${6:-} qemu_sparc64=${7:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: turns: $*" >&2; exit 1; }
# a quantum that is not a positive number is refused in one line
rc=0; HVPMU_QUANTUM=abc "$hv" stat -e Instr_all -- "$build/workloads/micro/loop_int" > /dev/null 2> "$tmp/e" || rc=$?
[ "$rc" -ne 0 ] && grep -q "HVPMU_QUANTUM='abc': not a positive number of instructions" "$tmp/e" ||
	{ cat "$tmp/e" >&2; fail "HVPMU_QUANTUM=abc: exit $rc"; }
rc=0; HVPMU_QUANTUM=off "$hv" stat -x, --placement spread -e Instr_all -- "$build/workloads/mem/spin_handoff" \
	> /dev/null 2> "$tmp/e" || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/e" >&2; fail "HVPMU_QUANTUM=off: exit $rc"; }

# same LABEL CMD...: ten runs of CMD print the same; the output in $tmp/LABEL
same() {
	local label=$1
	shift
	for i in 1 2 3 4 5 6 7 8 9 10; do
		"$@" > "$tmp/$label.$i" 2>&1 || { cat "$tmp/$label.$i" >&2; fail "$label: run $i failed"; }
		cmp -s "$tmp/$label.1" "$tmp/$label.$i" || { diff "$tmp/$label.1" "$tmp/$label.$i" >&2 || true; fail "$label: run $i differs"; }
	done
	cp "$tmp/$label.1" "$tmp/$label"
}
within1() { # GOT WANT: |GOT - WANT| <= 1 % of WANT
	[ $(( ($1 - $2) * 100 )) -le "$2" ] && [ $(( ($2 - $1) * 100 )) -le "$2" ]
}
# spread LABEL EVENT FILE...: prints each counter's lowest and highest
# over the runs' `stat -x,` outputs; EVENT must agree within 0.1 %
spread() {
	local label=$1 event=$2
	shift 2
	awk -F, -v label="$label" -v event="$event" 'FNR == 1 { f++ } $1 ~ /^[0-9]+$/ { v[$3, f] = $1; e[$3] = 1 }
		END {
			if (!(event in e)) bad = 1
			for (k in e) {
				lo = hi = v[k, 1]
				for (i = 2; i <= f; i++) { if (v[k, i] < lo) lo = v[k, i]; if (v[k, i] > hi) hi = v[k, i] }
				printf "turns: %s %s: %s .. %s (%.3f %%)\n", label, k, lo, hi, hi ? 100 * (hi - lo) / hi : 0
				if (k == event && hi - lo > hi / 1000) bad = 1
			}
			exit bad
		}' "$@"
}

if [ -x "$build/workloads/mem/spin_handoff" ]; then
	t4() { "$hv" stat -x, --placement spread -e DC_snoop_invalid,DC_miss_L2_L3_hit_nospec,Instr_all -- \
		"$build/workloads/mem/$1"; }
	same n t4 spin_handoff # (the default quantum)
	export HVPMU_QUANTUM=1000
	same n t4 spin_handoff
	same n2 t4 spin_handoff2
	v() { awk -F, -v e="$2" '$3 == e { print $1 }' "$tmp/$1"; }
	for ev in DC_snoop_invalid DC_miss_L2_L3_hit_nospec; do
		d=$(( $(v n2 $ev) - $(v n $ev) ))
		within1 "$d" 1000 || { cat "$tmp/n" "$tmp/n2" >&2; fail "T4 $ev: 2N - N = $d, want 1000 (one per handoff)"; }
	done
	echo "turns: T4 handoffs: DC_snoop_invalid $(( $(v n2 DC_snoop_invalid) - $(v n DC_snoop_invalid) )) per 1000, ten runs each identical"
	# attached to a service: the same counts (HVPMU_QUANTUM=1000 still)
	t4f() { "$hv" stat -f -x, --placement spread \
		-e DC_snoop_invalid,DC_miss_L2_L3_hit_nospec,Instr_all -- "$build/workloads/mem/$1"; }
	same nf t4f spin_handoff
	cmp -s "$tmp/n" "$tmp/nf" || { diff "$tmp/n" "$tmp/nf" >&2 || true; fail "T4 spin_handoff attached differs from one emulator"; }
	echo "turns: T4 handoffs attached to a service: ten runs identical, = one emulator"
fi

# QEMU's atomic step (EXCP_ATOMIC: an exclusive section) while the other
# thread waits for its turn: workloads/ppc64/atomic_step, 2 x 2000 store
# twins (each one an atomic step in parallel mode); it runs to its end
# (a waiting thread inside the execution loop would hold every step up),
# its own check passes (exit 0), and five runs count the same:
# 12,053 instructions by construction, plus 9 per futex wait pass of the
# main thread (docs/event-source.md "Turns")
p=$build/workloads/ppc64/atomic_step
if [ -x "$p" ]; then
	atomic() { timeout 120 "$hv" stat -p power -x, -e instructions:u,syscalls:u -- "$p"; }
	for i in 1 2 3 4 5; do
		atomic > "$tmp/atomic.$i" 2>&1 || { cat "$tmp/atomic.$i" >&2; fail "atomic_step run $i failed"; }
		cmp -s "$tmp/atomic.1" "$tmp/atomic.$i" || { diff "$tmp/atomic.1" "$tmp/atomic.$i" >&2 || true; fail "atomic_step: run $i differs"; }
	done
	n=$(awk -F, '$3 == "instructions:u" { print $1 }' "$tmp/atomic.1")
	[ -n "$n" ] && [ "$n" -ge 12053 ] && [ $(( (n - 12053) % 9 )) -eq 0 ] ||
		{ cat "$tmp/atomic.1" >&2; fail "atomic_step: $n instructions, want 12053 + 9k"; }
	echo "turns: ppc64 atomic steps while a thread waits: $n instructions, five runs identical"
fi

m=$build/workloads/mips64
if [ -x "$m/spin" ]; then
	echo '{ "platform": "origin", "placement": "spread" }' > "$tmp/origin.json"
	origin() { "$hv" mdperf -a -x, -s inval_class --md "$tmp/origin.json" -- "$m/$1" "$2"; }
	same o1 origin spin 200
	same o2 origin spin 400
	c() { awk -F, -v c="$2" '$1 == 0 && $5 == c { print $6 }' "$tmp/$1"; }
	for k in inval interv_rdsh; do
		d=$(( $(c o2 $k) - $(c o1 $k) ))
		within1 "$d" 400 || fail "Origin node 0 $k: 2N - N = $d, want 400"
	done
	same lock origin spinlock 100
	# attached to a service (stat -f): the same counts as in one emulator
	# (docs/service.md "Time")
	r10k() { "$hv" stat ${3:-} --md "$tmp/origin.json" -x, -e Graduated_instructions,Cycles -- "$m/$1" "$2"; }
	for w in "spin 200" "spinlock 100"; do
		set -- $w
		r10k "$1" "$2" > "$tmp/one" 2>&1 || { cat "$tmp/one" >&2; fail "$w in one emulator"; }
		same "att-$1" r10k "$1" "$2" -f
		cmp -s "$tmp/one" "$tmp/att-$1" || { diff "$tmp/one" "$tmp/att-$1" >&2 || true; fail "$w attached differs from one emulator"; }
	done
	# a thread asleep in write() on a full pipe leaves the rotation: its
	# reader, the main thread, runs (pipefill: 1 MiB through 64 KiB)
	pf() { timeout 120 "$hv" stat -p origin -x, -e Graduated_instructions -- "$m/pipefill"; }
	[ -x "$m/pipefill" ] && same pipefill pf
	# deadlines and clocks in modeled time: the timeouts are the same
	tw() { timeout 120 "$hv" stat -p origin -x, -e Graduated_instructions,Cycles -- "$m/timedwait" 20; }
	[ -x "$m/timedwait" ] && same timedwait tw
	# and attached to a service (stat -f): its clocks and deadlines are the
	# service's machine time after its publications (docs/service.md
	# "Guest time"), the same on every run (with the host's clock the
	# instructions differ), at the default quantum and at 1,000 (many
	# turns, each starting with a read of the service's time)
	if [ -x "$m/timedwait" ]; then
		twf() { timeout 120 "$hv" stat -f -p origin -x, -e Graduated_instructions,Cycles -- "$m/timedwait" 20; }
		twfd() { env -u HVPMU_QUANTUM timeout 120 "$hv" stat -f -p origin -x, -e Graduated_instructions,Cycles -- \
			"$m/timedwait" 20; }
		same timedwait_f twf
		same timedwait_fd twfd
		echo "turns: timedwait attached: ten runs identical, at quanta of 1,000 and 10,000 instructions"
		# with the threads free the clone's return can run in the service
		# before the new thread's start, which is still due then (remote.c
		# start_due: the worker's ring was held for good, its thread
		# blocked on it, and the main thread waited for it forever)
		for i in 1 2 3 4 5; do
			HVPMU_QUANTUM=off timeout 60 "$hv" stat -f -p origin -x, -e Graduated_instructions,Cycles -- \
				"$m/timedwait" 20 > "$tmp/twoff.$i" 2>&1 ||
				{ cat "$tmp/twoff.$i" >&2; fail "timedwait attached, threads free: run $i failed or hung"; }
		done
		echo "turns: timedwait attached with the threads free: five runs end"
	fi
	# the fork's waitpid returns at the host's time, while the other
	# thread spins its turns: its instructions vary, its handoffs do not
	for i in 1 2 3; do
		origin forkspin 200 > "$tmp/fork.$i" 2>&1 || { cat "$tmp/fork.$i" >&2; fail "forkspin run $i"; }
		for k in inval interv_rdsh; do
			[ -n "$(c fork.$i $k)" ] && [ "$(c fork.$i $k)" = "$(c fork.1 $k)" ] ||
				fail "forkspin run $i: node 0 $k $(c fork.$i $k), run 1 $(c fork.1 $k)"
		done
	done
	echo "turns: Origin: 400 invalidations and 400 interventions per 400 handoffs; spinlock identical; forkspin's handoffs"
fi

if [ -n "$xz" ] && [ -x "$xz" ] && [ -r "$text" ]; then
	head -c 65536 "$text" > "$tmp/in"
	printf '#!/bin/sh\nexec %s -tb-size 1 "$@"\n' "$qemu_mips64" > "$tmp/qemu"
	chmod +x "$tmp/qemu"
	for i in 1 2 3; do
		HVPMU_QEMU=$tmp/qemu "$hv" stat -p origin -x, -o "$tmp/xz.$i" -- "$xz" -T4 --block-size=16KiB -c \
			< "$tmp/in" > /dev/null 2> "$tmp/xz.err" || { cat "$tmp/xz.err" >&2; fail "xz -T4 run $i"; }
	done
	# every counter the same (its deadlines are modeled time); the
	# spread is printed first, for a failure's diagnosis
	spread "xz -T4" Graduated_instructions "$tmp/xz.1" "$tmp/xz.2" "$tmp/xz.3" || true
	for i in 2 3; do
		cmp -s "$tmp/xz.1" "$tmp/xz.$i" || fail "xz -T4: run $i differs from run 1"
	done
	echo "turns: xz -T4 with translation-cache flushes: three runs identical"
fi

if [ -n "$xz_sparc64" ] && [ -x "$xz_sparc64" ] && [ -r "$text" ] && [ -n "$qemu_sparc64" ]; then
	head -c 65536 "$text" > "$tmp/in"
	printf '#!/bin/sh\nexec %s -tb-size 1 "$@"\n' "$qemu_sparc64" > "$tmp/qemu-sparc64"
	chmod +x "$tmp/qemu-sparc64"
	for i in 1 2 3; do
		HVPMU_QEMU=$tmp/qemu-sparc64 "$hv" stat -x, --placement spread -o "$tmp/xzs.$i" \
			-e Instr_all,DC_snoop_invalid,DC_miss_L2_L3_hit_nospec,Atomics -- \
			"$xz_sparc64" -T4 --block-size=16KiB -c < "$tmp/in" > /dev/null 2> "$tmp/xzs.err" ||
			{ cat "$tmp/xzs.err" >&2; fail "sparc64 xz -T4 run $i"; }
	done
	# every counter the same: a read of its input keeps its turn, and a
	# thread is asleep only in state S (docs/event-source.md "Guest time":
	# one run had DC_miss_L2_L3_hit_nospec 4e-5 apart before); the spread
	# is printed first, for a failure's diagnosis
	spread "sparc64 xz -T4" Instr_all "$tmp/xzs.1" "$tmp/xzs.2" "$tmp/xzs.3" || true
	for i in 2 3; do
		cmp -s "$tmp/xzs.1" "$tmp/xzs.$i" || fail "sparc64 xz -T4: run $i differs from run 1"
	done
	echo "turns: sparc64 xz -T4, a core per thread, with translation-cache flushes: three runs identical"
fi
