#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the Lua 5.4 interpreter for sparc64 from Debian's lua5.4 source
# package (Debian's patches applied by `apt-get source`) and prints its
# path: a real program that is no compression, for bench/insn.sh.
# Lua's own sources, compiled directly (Debian's build goes through
# libtool and a shared liblua; the interpreter is the same code): the
# library and lua.c, not luac; LUA_USE_POSIX as Lua's `make posix`
# (no readline); luai_makeseed 0, so that string hashes do not depend
# on the time and the addresses (Lua seeds them from both: lstate.c),
# and two runs of a script count the same; the header debian/rules writes
# (lua5.4-deb-multiarch.h); -O2, linked statically so that no
# writable PLT shares pages with code (a data write to such a page makes
# qemu 7.2 re-translate the page's blocks: dash, whose PLT does, runs a
# builtin loop 100 times slower under qemu for that alone).
# -mcpu=niagara2: qemu 7.2 cannot run T4-only instructions (anchors.md §1.6).
# `apt-get source` uses the private apt configuration of
# scripts/build-zlib.sh ($HVPMU_WORK/apt).
set -euo pipefail
. "$(dirname "$0")/common.sh"
out=$HVPMU_WORK/lua-sparc64
[ -x "$out" ] && { echo "$out"; exit 0; }
src=$(hvpmu_debian_source lua5.4)
b=$HVPMU_WORK/lua-sparc64-build
rm -rf "$b" && cp -a "$src" "$b"
say "building lua for sparc64"
printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "%s"\n#endif\n' \
	sparc64-linux-gnu > "$b/src/lua5.4-deb-multiarch.h"
(cd "$b/src" && sparc64-linux-gnu-gcc-12 -mcpu=niagara2 -O2 -std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_POSIX \
	'-Dluai_makeseed(L)=0' -static -o lua $(ls *.c | grep -v -e '^luac\.c$' -e '^onelua\.c$') -lm 2>/dev/null)
cp "$b/src/lua" "$out"
echo "$out"
