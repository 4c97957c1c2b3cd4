#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The manual pages and the bash completion (docs/packaging.md):
#   - a page hvpmu-COMMAND(1) for every command `hvpmu --help` lists, plus
#     hvpmu(1) and hvpmu-md(5); each renders without a warning
#     (MANWIDTH=80 man --warnings -l);
#   - every option a command's --help shows is in its page;
#   - every key of docs/machine-description.md's tables is in hvpmu-md(5);
#   - completions/hvpmu completes a command, an option, an event name (after
#     -e, in a comma list, per platform) and a platform.
# usage: run_man.sh HVPMU MAN_DIR SOURCE_DIR
set -euo pipefail
hv=$1 man=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: man: $*" >&2; exit 1; }

render() { # PAGE: its text, no warnings, lines never broken
	local w
	w=$(MANWIDTH=80 man --warnings -l "$1" 2>&1 > /dev/null) || fail "$1: man failed"
	[ -z "$w" ] || fail "$(basename "$1"): $w"
	MANWIDTH=2000 man -l "$1" 2> /dev/null | sed 's/\xe2\x80\x90/-/g'
}
cmds=$("$hv" --help | awk '/^  [a-z][a-z0-9-]* / { print $1 }')
[ -n "$cmds" ] || fail "no commands in hvpmu --help"
render "$man/man1/hvpmu.1" > "$tmp/hvpmu.txt"
for c in $cmds; do
	grep -q "hvpmu-$c(1)" "$tmp/hvpmu.txt" || fail "hvpmu(1) does not name hvpmu-$c(1)"
	page=$man/man1/hvpmu-$c.1
	[ -f "$page" ] || fail "no page for $c"
	render "$page" > "$tmp/$c.txt"
	for o in $("$hv" "$c" --help | grep -oE '(^|[ ,\[])--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[ ,\[]//' | sort -u); do
		grep -qF -- "$o" "$tmp/$c.txt" || fail "hvpmu-$c(1) lacks $o of its --help"
	done
done
render "$man/man5/hvpmu-md.5" > "$tmp/md.txt"
for k in $(grep -E '^\| `' "$src/docs/machine-description.md" | awk -F'|' '{ print $2 }' | grep -oE '`[^`]+`' | tr -d '`'); do
	grep -qF -- "$k" "$tmp/md.txt" || fail "hvpmu-md(5) lacks the key $k of docs/machine-description.md"
done

# bash completion
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || { echo "man: ok (bash-completion not installed: completion not tested)"; exit 0; }
cat > "$tmp/comp.bash" <<EOS
. $bc
. "$src/completions/hvpmu"
PATH="$(dirname "$hv"):\$PATH"
comp() { COMP_WORDS=("\$@"); COMP_CWORD=\$(( \${#COMP_WORDS[@]} - 1 )); COMP_LINE="\${COMP_WORDS[*]}"
	COMP_POINT=\${#COMP_LINE}; COMPREPLY=(); _hvpmu hvpmu "\${COMP_WORDS[-1]}" "\${COMP_WORDS[-2]}"; echo "\${COMPREPLY[*]}"; }
EOS
expect() { # WANT WORDS...: the completion of WORDS is exactly WANT
	local want=$1 got
	shift
	got=$(bash -c ". '$tmp/comp.bash'; comp $*")
	[ "$got" = "$want" ] || fail "completing '$*': '$got', expected '$want'"
}
expect stat hvpmu st
expect mdperf hvpmu mdp
expect --repeat hvpmu stat --rep
expect Instr_ld hvpmu stat -e Instr_l
expect Instr_all,Br_taken hvpmu stat -e Instr_all,Br_ta
expect PM_INST_CMPL hvpmu stat -p power -e PM_INST_C
expect --platform hvpmu cpustat --plat
expect origin hvpmu stat -p or
echo "man: ok ($(echo $cmds | wc -w) commands)"
