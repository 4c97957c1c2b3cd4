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
src=$(hvpmu_debian_source zlib)
b=$HVPMU_WORK/zlib-sparc64
rm -rf "$b" && cp -a "$src" "$b"
say "building minigzip for sparc64"
(cd "$b" && CHOST=sparc64-linux-gnu CC=sparc64-linux-gnu-gcc-12 CFLAGS="-O2 -mcpu=niagara2" \
	./configure --static >/dev/null && make -s minigzip >/dev/null)
cp "$b/minigzip" "$out"
echo "$out"
