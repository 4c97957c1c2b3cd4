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
hvpmu_build_xz mips64 mips64-linux-gnuabi64 "mips64-linux-gnuabi64-gcc-12"
