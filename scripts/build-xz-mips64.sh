#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds xz (multi-threaded LZMA2 compressor, `xz -T4`) for mips64 (n64,
# big-endian) from Debian's xz-utils source package: the real program of
# the SGI Origin platform (issue 13).  liblzma is linked in
# (--disable-shared); the C library comes from the mips64 sysroot
# (qemu-mips64 -L /usr/mips64-linux-gnuabi64, as the ISA descriptor says).
# `apt-get source` uses the private apt configuration of
# scripts/build-zlib.sh ($HVPMU_WORK/apt).
# Prints the path of the binary.
set -euo pipefail
. "$(dirname "$0")/common.sh"
out=$HVPMU_WORK/xz-mips64
[ -x "$out" ] && { echo "$out"; exit 0; }
src=$(hvpmu_debian_source xz-utils)
b=$HVPMU_WORK/xz-utils-mips64
rm -rf "$b" && cp -a "$src" "$b"
say "building xz for mips64"
# -z now: symbols bound at load time, not by whichever thread calls a
# function first (workloads/mips64/CMakeLists.txt, docs/origin-directory.md
# "Determinism")
(cd "$b" && ./configure -q --host=mips64-linux-gnuabi64 CC=mips64-linux-gnuabi64-gcc-12 CFLAGS=-O2 \
	LDFLAGS=-Wl,-z,now \
	--disable-shared --enable-static --disable-nls --disable-doc \
	--disable-lzmadec --disable-lzmainfo --disable-xzdec --disable-scripts >/dev/null &&
	make -s -j2 >/dev/null 2>&1)
cp "$b/src/xz/xz" "$out"
echo "$out"
