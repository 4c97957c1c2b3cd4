#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds zlib's minigzip from Debian's zlib source package, for sparc64
# (the default; hvpmu's guest), for ppc64 (big-endian, ELFv1: the POWER
# platform's guest) or for x86-64 (the host: the program
# bench/vs-cachegrind.sh gives cachegrind), and prints its path.
# `apt-get source` uses a deb-src list, package lists and cache private to
# $HVPMU_WORK/apt: the machine's own apt configuration is not touched.
# Both are the same source, -O2, zlib linked in statically (the C
# library dynamically):
#   sparc64: -mcpu=niagara2 (qemu 7.2 cannot run T4-only instructions,
#            anchors.md §1.6), $HVPMU_WORK/minigzip;
#   ppc64:   -mcpu=power7 (the platform's processor), $HVPMU_WORK/minigzip-ppc64,
#            run with the sysroot /usr/powerpc64-linux-gnu (qemu-ppc64 -L);
#   x86_64:  the host's gcc with its defaults (x86-64 baseline), $HVPMU_WORK/minigzip-x86_64.
# Usage: scripts/build-zlib.sh [sparc64|ppc64|x86_64]
set -euo pipefail
. "$(dirname "$0")/common.sh"
arch=${1:-sparc64}
case $arch in
sparc64)
	out=$HVPMU_WORK/minigzip
	env=(CHOST=sparc64-linux-gnu CC=sparc64-linux-gnu-gcc-12 CFLAGS="-O2 -mcpu=niagara2") ;;
ppc64)
	out=$HVPMU_WORK/minigzip-ppc64
	env=(CHOST=powerpc64-linux-gnu CC=powerpc64-linux-gnu-gcc-12 CFLAGS="-O2 -mcpu=power7") ;;
x86_64)
	out=$HVPMU_WORK/minigzip-x86_64
	env=(CC=gcc CFLAGS="-O2") ;;
*) die "usage: build-zlib.sh [sparc64|ppc64|x86_64]" ;;
esac
[ -x "$out" ] && { echo "$out"; exit 0; }
src=$(hvpmu_debian_source zlib)
b=$HVPMU_WORK/zlib-$arch
rm -rf "$b" && cp -a "$src" "$b"
say "building minigzip for $arch"
(cd "$b" && env "${env[@]}" ./configure --static >/dev/null && make -s minigzip >/dev/null)
cp "$b/minigzip" "$out"
echo "$out"
