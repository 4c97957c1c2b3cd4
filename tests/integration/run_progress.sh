#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The heartbeat of a long run (docs/cli.md "Progress", issue 33):
#   run_progress.sh HVPMU MINIGZIP TEXT SHORT
# minigzip (sparc64) of 1.2 MB of TEXT, half a second, under a pseudo-
# terminal (python3's pty) with HVPMU_PROGRESS_DELAY=0.2: the heartbeat is on
# stderr, refreshed in place (\r), its instruction counts growing, and
# erased before the table; with stderr to a file, with HVPMU_PROGRESS=0,
# and for SHORT (a program shorter than the default delay) there is none.
# The -o outputs (CSV, JSON) are byte-identical with and without a
# terminal, and JSON on stderr has no heartbeat mixed in.
set -euo pipefail
hv=$1 gz=$2 text=$3 short=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: progress: $*" >&2; exit 1; }

# onpty.py OUT STDIN CMD...: CMD with stderr on a pseudo-terminal (stdout
# to /dev/null), what the terminal got into OUT; exits with CMD's status
cat > "$tmp/onpty.py" <<'EOF'
import os, pty, subprocess, sys
out, stdin, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
m, s = pty.openpty()
with open(stdin, 'rb') as f:
    p = subprocess.Popen(argv, stdin=f, stdout=subprocess.DEVNULL, stderr=s)
os.close(s)
got = b''
while True:
    try:
        d = os.read(m, 65536)
    except OSError:  # EIO: the last writer closed the terminal
        break
    if not d:
        break
    got += d
open(out, 'wb').write(got)
sys.exit(p.wait())
EOF
head -c 1200000 "$text" > "$tmp/in.txt"
text=$tmp/in.txt
run_env=(env -i PATH="$PATH" HVPMU_PROGRESS_DELAY=0.2)
tty() { python3 "$tmp/onpty.py" "$@"; }

# on a terminal: the heartbeat, then the table
tty "$tmp/t.err" "$text" "${run_env[@]}" "$hv" stat -- "$gz" || fail "stat on a terminal exited $?"
python3 - "$tmp/t.err" <<'EOF' || fail "heartbeat"
import re, sys
b = open(sys.argv[1], 'rb').read()
beats = re.findall(rb'\rhvpmu stat: ([0-9]+\.[0-9]{3}) s modeled, ([0-9]+) instructions, ([0-9.]+) M instructions/s\x1b\[K', b)
if not beats:
    sys.exit('no heartbeat in %r' % b[:300])
ins = [int(i) for _, i, _ in beats]
secs = [float(s) for s, _, _ in beats]
if ins != sorted(ins) or secs != sorted(secs) or ins[-1] <= 0:
    sys.exit('heartbeat not growing: %s %s' % (secs, ins))
table = b.find(b'Performance counter stats')
erase = b.rfind(b'\r\x1b[K', 0, table)
if table < 0 or erase < 0 or b.rfind(b'instructions/s', 0, table) > erase:
    sys.exit('the heartbeat is not erased before the table')
if b.count(b'instructions/s') != len(beats):
    sys.exit('a heartbeat after the table')
EOF

# stderr to a file: none
"${run_env[@]}" "$hv" stat -- "$gz" < "$text" > /dev/null 2> "$tmp/f.err" || fail "stat to a file exited $?"
! grep -q 'modeled,' "$tmp/f.err" && ! grep -q $'\r' "$tmp/f.err" || fail "a heartbeat in a file"
grep -q 'Performance counter stats' "$tmp/f.err" || fail "no table in the file"
# HVPMU_PROGRESS=0, and a run shorter than the default delay: none
tty "$tmp/off.err" "$text" "${run_env[@]}" HVPMU_PROGRESS=0 "$hv" stat -- "$gz" || fail "HVPMU_PROGRESS=0 exited $?"
! grep -q 'modeled,' "$tmp/off.err" || fail "a heartbeat with HVPMU_PROGRESS=0"
tty "$tmp/short.err" /dev/null env -i PATH="$PATH" "$hv" stat -- "$short" || fail "$short exited $?"
! grep -q 'modeled,' "$tmp/short.err" || fail "a heartbeat on a short run"

# -o CSV and JSON: the same bytes with and without a terminal (the
# terminal run shows the heartbeat all the same)
for fmt in -x, -j; do
	tty "$tmp/o.err" "$text" "${run_env[@]}" "$hv" stat $fmt -o "$tmp/tty$fmt" -- "$gz" || fail "$fmt -o on a terminal"
	grep -q 'modeled,' "$tmp/o.err" || fail "$fmt -o: no heartbeat on the terminal"
	"${run_env[@]}" "$hv" stat $fmt -o "$tmp/file$fmt" -- "$gz" < "$text" > /dev/null 2> /dev/null || fail "$fmt -o"
	cmp "$tmp/tty$fmt" "$tmp/file$fmt" || fail "$fmt -o differs with a terminal"
	[ -s "$tmp/file$fmt" ] || fail "$fmt -o: empty"
done
# JSON on stderr: no heartbeat mixed in (the terminal's \r\n aside)
for fmt in -j; do
	tty "$tmp/j.tty" "$text" "${run_env[@]}" "$hv" stat $fmt -- "$gz" || fail "$fmt on a terminal"
	"${run_env[@]}" "$hv" stat $fmt -- "$gz" < "$text" > /dev/null 2> "$tmp/j.file" || fail "$fmt"
	tr -d '\r' < "$tmp/j.tty" | cmp - "$tmp/j.file" || fail "$fmt on stderr differs with a terminal"
done
echo "progress: ok"
