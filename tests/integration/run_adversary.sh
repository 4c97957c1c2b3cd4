#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_adversary.sh: a standing machine (hvpmu serve) against hostile
# clients (docs/service.md "What the service checks", issue 28), while
# another guest's counts must stay exact.
#
# usage: run_adversary.sh HVPMU ADVERSARY MINIGZIP TEXT
#
# The machine: a T4 with guests alpha (strands 0-31, perfctraccess) and
# beta (32-63).  Alpha's stat -a counts alpha's minigzip while, in guest
# beta, at the same time (tests/integration/adversary.c):
#   - a guest image truncates and grows the shared area it was given and
#     rings the doorbell (an unsealed area killed the service: SIGBUS);
#   - a monitor passes a pipe (its writer held open), /dev/zero, a socket,
#     a file on disk and an oversized memfd as its request descriptor, and
#     an unsealed result area: each refused at once with its reason (the
#     pipe stalled every guest, /dev/zero grew the service to 1.46 GB);
#   - a monitor truncates its own result area mid-run (SIGBUS at the next
#     publication): EPERM; and writes a slot index far out of the area
#     into it (the next publication went there: SIGSEGV).
# The service stays up, answers, and alpha's counts are minigzip's alone,
# exactly, during the attacks and after them; the service holds no more
# descriptors than before them; SIGTERM then ends it with exit 0.
set -euo pipefail
hvpmu=$1
adv=$2
gz=$3
text=$4
. "$(dirname "${BASH_SOURCE[0]}")/lib_service.sh"
service_test adversary
head -c 100000 "$text" > "$tmp/in"
two_guests_md "$tmp/two.json"
name=adversary-$$
cd "$tmp"
# a file on a disk for the request (in the build tree if $tmp is on tmpfs)
disk="$tmp/disk-request.json"
[ "$(stat -f -c %T "$tmp")" != tmpfs ] || disk="$OLDPWD/hvpmu-adversary-disk-$$.json"
trap 'service_test_end; rm -f "$disk"' EXIT

: > "$tmp/serve.log"
env -i "$hvpmu" serve --md "$tmp/two.json" --name "$name" 2> "$tmp/serve.log" &
srv=$!
for _ in $(seq 200); do
	grep -q "^hvpmu serve: service '$name'" "$tmp/serve.log" && break
	sleep 0.05
done
grep -q "^hvpmu serve: service '$name'" "$tmp/serve.log" || fail "the service did not start"

nfd() { find "/proc/$srv/fd" -mindepth 1 -maxdepth 1 | wc -l; }
fds0=$(nfd)
ev=Instr_all,Instr_ld,Instr_st,Branches
env -i "$hvpmu" stat -x, -o "$tmp/alone.csv" -e $ev -- "$gz" < "$tmp/in" > "$tmp/alone.gz"
cut -d, -f1,3 "$tmp/alone.csv" | grep -v '^$' | sort > "$tmp/alone"
[ "$(wc -l < "$tmp/alone")" -eq 4 ] || { cat "$tmp/alone.csv" >&2; fail "minigzip alone: want 4 counts"; }

# alpha's minigzip, counted by alpha's stat -a, while beta's adversaries run
cat > "$tmp/both.sh" << SH
"$adv" guest "$name" beta > "$tmp/guest.out" 2>&1 &
g=\$!
"$adv" monitor "$name" beta "$disk" > "$tmp/monitor.out" 2>&1 &
m=\$!
env -i "$hvpmu" run --service "$name" --guest alpha -- "$gz" < "$tmp/in" > "$tmp/a.gz"
rc=0
wait \$g || rc=1
wait \$m || rc=1
exit \$rc
SH
set +e
env -i "$hvpmu" stat --service "$name" --guest alpha -x, -o "$tmp/sys.csv" -e $ev -- sh "$tmp/both.sh"
rc=$?
set -e
cat "$tmp/guest.out" "$tmp/monitor.out"
kill -0 "$srv" 2> /dev/null || fail "the service died"
[ "$rc" -eq 0 ] || fail "an adversary's check failed, or alpha's stat -a did (exit $rc)"
grep -q "^adversary guest beta: " "$tmp/guest.out" || fail "the guest adversary did not finish"
grep -q "^adversary monitor beta: " "$tmp/monitor.out" || fail "the monitor adversary did not finish"
cut -d, -f1,3 "$tmp/sys.csv" | grep -v '^$' | sort > "$tmp/sys"
diff "$tmp/alone" "$tmp/sys" > /dev/null ||
	{ paste -d' ' "$tmp/alone" "$tmp/sys" >&2; fail "alpha's stat -a is not minigzip alone"; }
cmp -s "$tmp/a.gz" "$tmp/alone.gz" || fail "alpha's minigzip output differs from minigzip alone's"
echo "adversary: alpha's stat -a = minigzip alone, exactly, while beta's clients attacked"

# after the attacks: the service still serves both guests exactly
env -i "$hvpmu" stat --service "$name" --guest beta -x, -o "$tmp/beta.csv" -e $ev -- \
	"$hvpmu" run --service "$name" --guest beta -- "$gz" < "$tmp/in" > /dev/null 2> "$tmp/beta.err" ||
	true # beta has no perfctraccess: its PCRs are refused; the run itself must go on
env -i "$hvpmu" stat --service "$name" --guest alpha -x, -o "$tmp/sys2.csv" -e $ev -- \
	env -i "$hvpmu" run --service "$name" --guest alpha -- "$gz" < "$tmp/in" > /dev/null ||
	fail "alpha's stat -a after the attacks failed"
cut -d, -f1,3 "$tmp/sys2.csv" | grep -v '^$' | sort > "$tmp/sys2"
diff "$tmp/alone" "$tmp/sys2" > /dev/null ||
	{ paste -d' ' "$tmp/alone" "$tmp/sys2" >&2; fail "alpha's stat -a after the attacks is not minigzip alone"; }
echo "adversary: after the attacks, alpha's stat -a = minigzip alone, exactly"

# every refused client's descriptors were closed (a refused monitor's
# result area used to stay open in the service)
fds1=$(nfd)
[ "$fds1" -le "$fds0" ] || { ls -l "/proc/$srv/fd" >&2; fail "the service holds $fds1 descriptors, $fds0 before the attacks"; }
echo "adversary: the service holds $fds1 descriptors, as before the attacks ($fds0)"

kill -TERM "$srv"
wait "$srv" || fail "serve exited with $?"
srv=
echo "adversary: the service survived every attack and ends on SIGTERM with 0; ok"
