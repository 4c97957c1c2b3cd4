#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run_sockdir.sh: where a standing service's socket lives, and who its
# clients talk to (issue 28; docs/service.md "Where the socket is").
#
# usage: run_sockdir.sh HVPMU ADVERSARY
#
#   1. hvpmu serve makes $XDG_RUNTIME_DIR/hvpmu, mode 0700 and the user's,
#      listens on the file NAME in it, and a client reaches it; SIGTERM
#      removes the file (the directory stays);
#   2. a pre-existing directory of the wrong mode (0755), or a symbolic
#      link to a 0700 directory, is refused with one line and a non-zero
#      exit; a stale socket file (nobody answers) is replaced;
#   3. as root: a server of another uid (65534, via setpriv) at an explicit
#      path is refused by the client before it sends anything: one line,
#      non-zero exit, and the squatter received 0 bytes.
set -euo pipefail
hvpmu=$1
adversary=$2
. "$(dirname "${BASH_SOURCE[0]}")/lib_service.sh"
service_test sockdir
name=sockdir-$$
uid=$(id -u)


# 1. the directory it makes, the file, a client, the end
mkdir -m 0700 "$tmp/xdg"
XDG_RUNTIME_DIR=$tmp/xdg "$hvpmu" serve --name "$name" 2> "$tmp/serve.log" &
srv=$!
pids+=("$srv")
for _ in $(seq 100); do
	grep -q "^hvpmu serve: service '$name'" "$tmp/serve.log" && break
	sleep 0.05
done
grep -q "^hvpmu serve: service '$name'" "$tmp/serve.log" || { cat "$tmp/serve.log" >&2; fail "the service did not start"; }
[ "$(stat -c '%a %u %F' "$tmp/xdg/hvpmu")" = "700 $uid directory" ] ||
	fail "the directory is $(stat -c '%a %u %F' "$tmp/xdg/hvpmu"), not '700 $uid directory'"
[ -S "$tmp/xdg/hvpmu/$name" ] || fail "no socket file $tmp/xdg/hvpmu/$name"
XDG_RUNTIME_DIR=$tmp/xdg "$hvpmu" stat --service "$name" -x, -o "$tmp/stat.csv" -e Instr_all -- true ||
	fail "a client of the same uid was not served"
"$hvpmu" stat --service "$tmp/xdg/hvpmu/$name" -x, -o "$tmp/stat.csv" -e Instr_all -- true ||
	fail "a client naming the socket's path was not served"
refused "a second service of the name" "one runs already" \
	env XDG_RUNTIME_DIR="$tmp/xdg" "$hvpmu" serve --name "$name"
kill -TERM "$srv"
wait "$srv" || fail "SIGTERM: the service's exit is not 0"
[ ! -e "$tmp/xdg/hvpmu/$name" ] || fail "the socket file outlived the service"
echo "sockdir: \$XDG_RUNTIME_DIR/hvpmu made 0700, the socket file served and removed at the end"

# 2. directories it refuses; a stale socket it replaces
mkdir -m 0700 "$tmp/wide" && mkdir -m 0755 "$tmp/wide/hvpmu"
refused "a 0755 directory" "is not a directory of uid $uid with mode 0700 or 0711 (it is a directory of uid $uid, mode 0755)" \
	env XDG_RUNTIME_DIR="$tmp/wide" "$hvpmu" serve --name "$name"
mkdir -m 0700 "$tmp/link" "$tmp/real"
ln -s "$tmp/real" "$tmp/link/hvpmu"
refused "a symbolic link" "is not a directory of uid $uid with mode 0700 or 0711 (it is a symbolic link" \
	env XDG_RUNTIME_DIR="$tmp/link" "$hvpmu" serve --name "$name"
[ -z "$(ls -A "$tmp/real")" ] || fail "the service wrote through the symbolic link"
echo "sockdir: a 0755 directory and a symbolic link refused, one line each"

# 3. a server of another uid: refused before the client sends
if [ "$uid" -eq 0 ] && command -v setpriv > /dev/null; then
	nob=$(mktemp -d "${TMPDIR:-/tmp}/hvpmu-sockdir-nobody.XXXXXX")
	chown 65534:65534 "$nob"
	chmod 0700 "$nob"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$adversary" squat "$nob/s" > "$tmp/squat.log" 2>&1 &
	pids+=("$!")
	for _ in $(seq 100); do
		grep -q "^squat: listening" "$tmp/squat.log" && break
		sleep 0.05
	done
	grep -q "^squat: listening" "$tmp/squat.log" || { cat "$tmp/squat.log" >&2; rm -rf "$nob"; fail "the squatter did not start"; }
	refused "root's stat at uid 65534's socket" "the service at $nob/s runs as uid 65534, not yours: not sending" \
		"$hvpmu" stat --service "$nob/s" -e Instr_all -- true
	refused "root's busstat at uid 65534's socket" "runs as uid 65534, not yours: not sending" \
		"$hvpmu" busstat --service "$nob/s" -w mcu0,pic0=mem_reads 0.001
	for _ in $(seq 100); do
		[ "$(grep -c '^squat: .* bytes' "$tmp/squat.log")" -ge 2 ] && break
		sleep 0.05
	done
	rm -rf "$nob"
	[ "$(grep -c '^squat: 0 bytes' "$tmp/squat.log")" -eq 2 ] ||
		{ cat "$tmp/squat.log" >&2; fail "the squatter was sent something (or saw no connection)"; }
	echo "sockdir: a server of uid 65534 refused by root's clients before they sent anything"
else
	echo "sockdir: not root (or no setpriv): the second-uid check is skipped"
fi
