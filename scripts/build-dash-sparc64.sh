#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds dash (Debian's /bin/sh) for sparc64 from Debian's dash source
# package: Debian's patches, configure regenerated as dh_autoreconf does
# (the privmode patches add src/priv.c to src/Makefile.am), Debian's
# configure options (debian/rules).  The C library comes from the sparc64
# sysroot (qemu-sparc64 -L /usr/sparc64-linux-gnu).
# -mcpu=niagara2: qemu 7.2 cannot run T4-only instructions (anchors.md §1.6);
# it goes in CC, not CFLAGS, because Debian's patch 0013 passes CFLAGS to
# the build machine's compiler for dash's helpers (mknodes, mksyntax, ...).
# `apt-get source` uses the private apt configuration of
# scripts/build-zlib.sh ($HVPMU_WORK/apt).
# Prints the path of the binary.
set -euo pipefail
. "$(dirname "$0")/common.sh"
out=$HVPMU_WORK/dash-sparc64
[ -x "$out" ] && { echo "$out"; exit 0; }
src=$(hvpmu_debian_source dash)
b=$HVPMU_WORK/dash-sparc64-build
rm -rf "$b" && cp -a "$src" "$b"
say "building dash for sparc64"
# -z now: symbols bound at load time, as the other workloads
# (workloads/mips64/CMakeLists.txt, scripts/build-xz-mips64.sh)
(cd "$b" && autoreconf -fi >/dev/null 2>&1 &&
	./configure -q --host=sparc64-linux-gnu CC="sparc64-linux-gnu-gcc-12 -mcpu=niagara2" CFLAGS=-O2 \
	LDFLAGS=-Wl,-z,now \
	--disable-fnmatch --disable-lineno --disable-glob >/dev/null &&
	make -s -j2 >/dev/null 2>&1)
cp "$b/src/dash" "$out"
echo "$out"
