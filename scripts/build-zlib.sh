#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds zlib's minigzip for sparc64 from Debian's zlib source package.
# `apt-get source` uses a deb-src list, package lists and cache private to
# $HVPMU_WORK/apt: the machine's own apt configuration is not touched.
# -mcpu=niagara2: qemu 7.2 cannot run T4-only instructions (anchors.md §1.6).
set -euo pipefail
. "$(dirname "$0")/common.sh"
out=$HVPMU_WORK/minigzip
[ -x "$out" ] && { echo "$out"; exit 0; }
apt=$HVPMU_WORK/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src"
echo 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main' \
	> "$apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
	-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)
if ! ls -d "$apt"/src/zlib-*/ >/dev/null 2>&1; then
	say "fetching Debian's zlib source"
	apt-get "${opts[@]}" -qq update
	(cd "$apt/src" && apt-get "${opts[@]}" -qq source zlib >/dev/null)
fi
src=$(ls -d "$apt"/src/zlib-*/ | head -n1)
b=$HVPMU_WORK/zlib-sparc64
rm -rf "$b" && cp -a "$src" "$b"
say "building minigzip for sparc64"
(cd "$b" && CHOST=sparc64-linux-gnu CC=sparc64-linux-gnu-gcc-12 CFLAGS="-O2 -mcpu=niagara2" \
	./configure --static >/dev/null && make -s minigzip >/dev/null)
cp "$b/minigzip" "$out"
echo "$out"
