#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_identity.sh: a standing machine's clients are who the kernel says
# (docs/service.md "Who a client is", "Limits", issue 28).  As root, with
# guest uids this test picks (no /etc/passwd entries; setpriv):
#   - alpha is uid 59990, beta 59991; 59999 is no guest's.  The service's
#     socket directory is root's, mode 0711, the socket 0666;
#   - a client of beta's uid naming alpha is refused (EPERM, one line:
#     "uid 59991 is guest beta's: it may not attach to alpha"), naming
#     beta welcomed; busstat as beta's uid for alpha refused the same way;
#     uid 59999 is refused at once;
#   - FORK and EXEC hellos against the real process tree: a grandchild,
#     another pid's EXEC, a child of an ended image are refused; the
#     image's own child is welcomed (adversary parents);
#   - a second uid cannot squat the socket (root's 0711 directory);
#   - hvpmu run as root into alpha runs the program as uid 59990 (dash,
#     when given, reads its emulator's /proc/self/status);
#   - alpha's uid floods: 520 images (512 taken: "guest alpha has 512
#     connections"), 70 silent connections (64 held: "uid 59990 has 64
#     connections that have not said hello"), while beta's stat -a of
#     beta's minigzip (both tools started as root, run as 59991) equals
#     minigzip alone, exactly;
#   - two hvpmu serve of one name started at once, over a stale socket of
#     that name: exactly one runs (the lock beside the socket).
# Not root, or no setpriv: skipped (exit 77).
#
# usage: run_identity.sh HVPMU ADVERSARY QEMU_BINDIR MINIGZIP TEXT [DASH]
set -euo pipefail
hvpmu=$1
adv=$2
qemu_bin=$3
gz=$4
text=$5
dash=${6:-}
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv > /dev/null; then
	echo "identity: skipped: needs root and setpriv (util-linux) to run clients as guest uids"
	exit 77
fi
A=59990 B=59991 N=59999
as() { local u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
if ! as $A test -x "$hvpmu" || ! as $A test -x "$adv" || ! as $A test -r "$gz"; then
	echo "identity: skipped: the build tree ($hvpmu) is not reachable by other uids"
	exit 77
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib_service.sh"
service_test identity
chmod 0755 "$tmp"
cat > "$tmp/md.json" << JSON
{ "platform": "t4",
  "guests": [
    { "name": "alpha", "uid": $A, "perfctraccess": 1, "first_strand": 0, "nstrands": 32,
      "mblock": [ { "base": 0, "size": 268435456 } ] },
    { "name": "beta", "uid": $B, "perfctraccess": 1, "first_strand": 32, "nstrands": 32,
      "mblock": [ { "base": 268435456, "size": 268435456 } ] } ] }
JSON
chmod 0644 "$tmp/md.json"
head -c 100000 "$text" > "$tmp/in"
mkdir -m 1777 "$tmp/out"
# the emulator runs as the guest's uid: a copy where it can reach it
qemu=$qemu_bin/qemu-sparc64
if ! as $A test -x "$qemu"; then
	mkdir -m 0755 "$tmp/qemu"
	cp "$qemu" "$tmp/qemu/"
	qemu=$tmp/qemu/qemu-sparc64
fi
name=identity-$$

start_serve() { # NAME LOG
	: > "$2"
	env -i "$hvpmu" serve --md "$tmp/md.json" --name "$1" 2> "$2" &
	pids+=("$!")
}
started() { # LOG... (one of them)
	for _ in $(seq 200); do
		grep -qs "^hvpmu serve: service" "$@" && return 0
		sleep 0.05
	done
	return 1
}
start_serve "$name" "$tmp/serve.log"
srv=${pids[-1]}
started "$tmp/serve.log" || fail "the service did not start"
grep -q "guest alpha is uid $A, beta is uid $B" "$tmp/serve.log" || fail "serve does not name the guests' uids"
sock=/run/hvpmu-0/$name
[ -S "$sock" ] || sock=/tmp/hvpmu-0/$name
[ -S "$sock" ] || fail "no socket at /run/hvpmu-0/$name or /tmp/hvpmu-0/$name"
[ "$(stat -c '%u %a' "$(dirname "$sock")")" = "0 711" ] || fail "the socket's directory is not root's with mode 0711"
[ "$(stat -c '%u %a' "$sock")" = "0 666" ] || fail "the socket is not root's with mode 0666"
echo "identity: root's service at $sock, its directory 0711, the socket 0666"

# 1. who a client is: the kernel's uid, not the hello's guest
as $B "$adv" hello "$name" alpha > "$tmp/h.out" 2>&1 || fail "adversary hello as beta's uid"
grep -q "^adversary hello alpha: refused (errno 1): uid $B is guest beta's: it may not attach to alpha$" "$tmp/h.out" ||
	{ cat "$tmp/h.out" >&2; fail "beta's uid attached to alpha"; }
as $B "$adv" hello "$name" beta > "$tmp/h.out" 2>&1 || fail "adversary hello as beta's uid"
grep -q "^adversary hello beta: welcomed$" "$tmp/h.out" || { cat "$tmp/h.out" >&2; fail "beta's uid refused beta"; }
as $N "$adv" hello "$name" alpha > "$tmp/h.out" 2>&1 || fail "adversary hello as uid $N"
grep -q "^adversary hello alpha: refused (errno 1): uid $N is no guest's and not the service's$" "$tmp/h.out" ||
	{ cat "$tmp/h.out" >&2; fail "uid $N was not refused"; }
refused "busstat of alpha as beta's uid" "uid $B is guest beta's: it may not attach to alpha" \
	as $B "$hvpmu" busstat --service "$name" --guest alpha -w mcu0,pic0=mem_reads 0.01 1
echo "identity: beta's uid naming alpha refused (a hello, busstat), naming beta welcomed; uid $N refused"

# 2. FORK and EXEC hellos against the process tree
as $A "$adv" parents "$name" alpha > "$tmp/p.out" 2>&1 || { cat "$tmp/p.out" >&2; fail "adversary parents"; }
grep -q "^adversary parents alpha: ok$" "$tmp/p.out" || { cat "$tmp/p.out" >&2; fail "adversary parents did not finish"; }
cat "$tmp/p.out"

# 3. a second uid cannot squat root's socket, nor remove it
as $B "$adv" squat "$(dirname "$sock")/squat-$$" > "$tmp/squat.out" 2>&1 && fail "uid $B bound a socket in root's directory"
grep -q "bind: Permission denied" "$tmp/squat.out" || { cat "$tmp/squat.out" >&2; fail "the squatter's bind: want EACCES"; }
as $B rm -f "$sock" 2> /dev/null || true
[ -S "$sock" ] || fail "uid $B removed the service's socket"
echo "identity: uid $B can neither bind in root's 0711 directory nor remove the socket"

# 4. hvpmu run as root into alpha runs the program as alpha's uid
if [ -n "$dash" ] && [ -x "$dash" ] && as $A test -x "$dash"; then
	HVPMU_QEMU=$qemu "$hvpmu" run --service "$name" --guest alpha -- "$dash" -c \
		'while read -r k r e rest; do [ "$k" = Uid: ] && echo "$r $e"; done < /proc/self/status; :' \
		> "$tmp/uid.out" 2> "$tmp/uid.log" || fail "hvpmu run of dash in alpha failed"
	[ "$(cat "$tmp/uid.out")" = "$A $A" ] || { cat "$tmp/uid.out" >&2; fail "the program did not run as uid $A"; }
	echo "identity: hvpmu run as root into alpha: the program's real and effective uid are $A"
else
	echo "identity: no sparc64 dash: the program's uid is not read"
fi

# 5. alpha's uid floods; beta's run and stat -a go on, exact
ev=Instr_all,Instr_ld,Instr_st,Branches
env -i HVPMU_QEMU="$qemu" "$hvpmu" stat -x, -o "$tmp/alone.csv" -e $ev -- "$gz" < "$tmp/in" > "$tmp/alone.gz"
cut -d, -f1,3 "$tmp/alone.csv" | grep -v '^$' | sort > "$tmp/alone"
[ "$(wc -l < "$tmp/alone")" -eq 4 ] || { cat "$tmp/alone.csv" >&2; fail "minigzip alone: want 4 counts"; }
as $A "$adv" flood "$name" alpha 520 70 120 > "$tmp/flood.log" 2>&1 &
flood=$!
pids+=("$flood")
for _ in $(seq 600); do
	grep -q "flooding$" "$tmp/flood.log" && break
	kill -0 $flood 2> /dev/null || break
	sleep 0.05
done
grep -q "flooding$" "$tmp/flood.log" || fail "the flood did not start"
grep -q "^adversary flood alpha: 512 images welcomed, 8 refused: guest alpha has 512 connections$" "$tmp/flood.log" ||
	fail "alpha's images: want 512 taken, then 'guest alpha has 512 connections'"
grep -q "^adversary flood alpha: 70 silent connections, 6 refused at once: uid $A has 64 connections that have not said hello$" \
	"$tmp/flood.log" || fail "alpha's silent connections: want 64 held, then 'uid $A has 64 connections ...'"
env -i HVPMU_QEMU="$qemu" "$hvpmu" stat --service "$name" --guest beta -x, -o "$tmp/out/beta.csv" -e $ev -- \
	"$hvpmu" run --service "$name" --guest beta -- "$gz" < "$tmp/in" > "$tmp/out/b.gz" 2> "$tmp/beta.log" ||
	fail "beta's stat -a of beta's minigzip failed during alpha's flood"
kill -0 $flood 2> /dev/null || fail "the flood ended before beta's run did"
kill -TERM $flood
wait $flood 2> /dev/null || true
[ "$(stat -c %u "$tmp/out/beta.csv")" = $B ] || fail "beta's stat -a did not run as uid $B"
cut -d, -f1,3 "$tmp/out/beta.csv" | grep -v '^$' | sort > "$tmp/beta"
diff "$tmp/alone" "$tmp/beta" > /dev/null ||
	{ paste -d' ' "$tmp/alone" "$tmp/beta" >&2; fail "beta's stat -a during alpha's flood is not minigzip alone"; }
cmp -s "$tmp/out/b.gz" "$tmp/alone.gz" || fail "beta's minigzip output differs from minigzip alone's"
kill -0 "$srv" 2> /dev/null || fail "the service died"
echo "identity: alpha's flood (512 images, 64 silent connections held, the rest refused with why) left" \
	"beta's stat -a of minigzip exact, run as uid $B"

# 6. two services of one name started at once: exactly one runs
for round in 1 2 3; do
	two=identity2-$$-$round
	# a stale socket of that name (its server killed) that both find
	rm -f "$tmp/stale.out" # (a round's grep must not find the last round's line)
	"$adv" squat "$(dirname "$sock")/$two" > "$tmp/stale.out" 2>&1 &
	st=$!
	for _ in $(seq 400); do
		grep -qs "^squat: listening" "$tmp/stale.out" && break
		sleep 0.05
	done
	grep -q "^squat: listening" "$tmp/stale.out" || { cat "$tmp/stale.out" >&2; fail "round $round: the squatter did not listen"; }
	kill -KILL $st
	wait $st 2> /dev/null || true
	[ -S "$(dirname "$sock")/$two" ] || { ls -la "$(dirname "$sock")" >&2; fail "round $round: no stale socket"; }
	start_serve "$two" "$tmp/two-a.log"
	a=${pids[-1]}
	start_serve "$two" "$tmp/two-b.log"
	b=${pids[-1]}
	started "$tmp/two-a.log" "$tmp/two-b.log" || fail "round $round: neither service started"
	sleep 0.3
	alive=0
	for p in $a $b; do kill -0 "$p" 2> /dev/null && alive=$((alive + 1)); done
	[ $alive -eq 1 ] || fail "round $round: $alive services of one name run"
	grep -qh "one runs already" "$tmp/two-a.log" "$tmp/two-b.log" || fail "round $round: the other did not say why"
	kill -TERM $a $b 2> /dev/null || true
	wait $a $b 2> /dev/null || true
done
echo "identity: two hvpmu serve of one name started at once, three times: exactly one ran"

kill -TERM "$srv"
wait "$srv" || fail "serve exited with $?"
echo "identity: ok"
