#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_procmem.sh: a standing service keeps no state of its ended processes
# (issue 28; docs/service.md "Memory").
#
# usage: run_procmem.sh HVPMU DASH MICRO_DIR
#
# hvpmu serve (HVPMU_REMOTE_STATS=1: at its end the service says how many
# images it still keeps) runs one dash that starts 300 subshells (fork
# images) and 4 runs of a micro program (fork then execve: two images
# each), and, in another run, a dash whose subshell execs a program while
# dash goes on (the execve's image attaches after its parent's image has
# ended); then SIGTERM. Every image ended, so none is kept ("0 of N
# images kept", N the images attached, at least 1 + 300 + 8 + 3); before,
# every one was (about 5 KB each). The exit status of a run through the
# service still comes from its root program.
set -euo pipefail
hvpmu=$1
dash=$2
micro=$3
. "$(dirname "${BASH_SOURCE[0]}")/lib_service.sh"
service_test procmem
name=$tmp/procmem-$$ # (a socket in this 0700 directory: docs/service.md "Where the socket is")
env -i HVPMU_REMOTE_STATS=1 "$hvpmu" serve --name "$name" 2> "$tmp/serve.log" &
srv=$!
serve_started "$tmp/serve.log"

env -i "$hvpmu" run --service "$name" -- "$dash" -c \
	"i=0; while [ \$i -lt 300 ]; do (:); i=\$((i+1)); done; for k in 1 2 3 4; do $micro/loop_int; done" \
	2> "$tmp/run.err" || { cat "$tmp/run.err" >&2; fail "the run of 300 subshells"; }
set +e
env -i "$hvpmu" run --service "$name" -- "$dash" -c "(exec $micro/loop_int) & wait; exit 3" 2> "$tmp/run2.err"
rc=$?
set -e
[ "$rc" = 3 ] || { cat "$tmp/run2.err" >&2; fail "a root program's exit 3 came back as $rc"; }
sleep 0.2 # (the service reaps on its next loop: every 50 ms at most)
kill -TERM "$srv"
wait "$srv" || fail "the service ended with status $?"
srv=
line=$(grep -o '[0-9]* of [0-9]* images kept' "$tmp/serve.log") || { cat "$tmp/serve.log" >&2; fail "no tally"; }
kept=${line%% of *}
n=${line#* of }
n=${n%% *}
[ "$n" -ge 312 ] || fail "$n images attached, want at least 312 ($line)"
[ "$kept" = 0 ] || fail "the service keeps $kept images after they all ended ($line)"
echo "procmem: $line"
