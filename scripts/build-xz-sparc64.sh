#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds xz (multi-threaded LZMA2 compressor, `xz -T4`) for sparc64 from
# Debian's xz-utils source package, the same source as
# scripts/build-xz-mips64.sh: the real multi-threaded program of the T4
# (issue 27).  liblzma is linked in (--disable-shared); the C library
# comes from the sparc64 sysroot (qemu-sparc64 -L /usr/sparc64-linux-gnu).
# -mcpu=niagara2: qemu cannot run T4-only instructions (QEMU 10.0's
# qemu-sparc64 stops with SIGILL at the first compare-and-branch, cwbe or
# cxbge, that -mcpu=niagara4 emits); in CC, as
# scripts/build-dash-sparc64.sh, so that every compile and link of
# configure and libtool has it.
# `apt-get source` uses the private apt configuration of
# scripts/build-zlib.sh ($HVPMU_WORK/apt).
# Prints the path of the binary.
set -euo pipefail
. "$(dirname "$0")/common.sh"
hvpmu_build_xz sparc64 sparc64-linux-gnu "sparc64-linux-gnu-gcc-12 -mcpu=niagara2"
