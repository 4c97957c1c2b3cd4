#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The manual pages of the tools, generated from their --help (help2man) so
# that they never drift from it: hvpmu(1) and one hvpmu-COMMAND(1) per
# command `hvpmu --help` lists, with SEE ALSO, ENVIRONMENT and FILES from
# man/hvpmu.h2m and man/command.h2m.
# usage: gen-man.sh HVPMU OUTDIR VERSION SOURCE_DIR
set -euo pipefail
hv=$1 out=$2 ver=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/man1"
rm -f "$out"/man1/hvpmu*.1

# help2man runs PROGRAM --help; a wrapper per command, its usage line
# capitalised so that help2man makes it the SYNOPSIS.
wrap() { # NAME ARGS...
	local name=$1
	shift
	printf '#!/bin/sh\n"%s" %s "$@" | sed "1s/^usage:/Usage:/"\n' "$hv" "$*" > "$tmp/$name"
	chmod +x "$tmp/$name"
}
cmds=$("$hv" --help | awk '/^  [a-z][a-z0-9-]* / { print $1 }')
[ -n "$cmds" ] || { echo "gen-man.sh: no commands in hvpmu --help" >&2; exit 1; }

see=""
for c in $cmds; do see="$see.BR hvpmu-$c (1),"$'\n'; done
{
	cat "$src/man/hvpmu.h2m"
	printf '[SEE ALSO]\n%s.BR hvpmu-md (5)\n.PP\nThe full documentation: /usr/share/doc/hvpmu/ (README.md, docs/).\n' "$see"
} > "$tmp/hvpmu.h2m"
wrap hvpmu
help2man --no-info --no-discard-stderr --version-string="$ver" -s 1 -S "hvpmu $ver" -m "hvpmu manual" \
	-n "software model of rare hardware performance counters" -i "$tmp/hvpmu.h2m" -o "$out/man1/hvpmu.1" "$tmp/hvpmu"

for c in $cmds; do
	desc=$("$hv" --help | awk -v c="$c" '$1 == c { $1 = ""; sub(/^ +/, ""); print }')
	wrap "hvpmu-$c" "$c"
	help2man --no-info --no-discard-stderr --version-string="$ver" -s 1 -S "hvpmu $ver" -m "hvpmu manual" -n "$desc" \
		-i "$src/man/command.h2m" -o "$out/man1/hvpmu-$c.1" "$tmp/hvpmu-$c"
done
# Long option syntax (EVENTSPEC: [picN=]EVENT[,sys]...) may break after a
# ',' or '|' in the text lines (\: is troff's optional break).
sed -i '/^[^.]/ { s/,\([^ ]\)/,\\:\1/g; s/|/|\\:/g }' "$out"/man1/*.1
