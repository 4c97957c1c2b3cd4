#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The installed tree (docs/packaging.md): `cmake --install` into a fresh
# prefix, then
#   - libhvpmu.so exports only hvpmu_ names (src/hvpmu.map), and only those
#     an installed header declares: any other defined dynamic symbol fails
#     the test;
#   - SONAME libhvpmu.so.0; the internal headers (session.h, remote.h,
#     qemu_source.h) are not installed; hvpmuConfig.cmake and hvpmu.pc are;
#   - examples/ builds against the prefix through find_package(hvpmu) and
#     through pkg-config, and both programs run with their known results;
#   - with PROGRAM (a sparc64 program): the prefix is moved elsewhere and
#     `hvpmu stat` from there runs PROGRAM with the moved plugin and the
#     moved qemu-sparc64 (a wrapper in its place proves which one ran).
# usage: run_install.sh BUILD_DIR SOURCE_DIR [PROGRAM]
set -euo pipefail
build=$1 src=$2 prog=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: install: $*" >&2; exit 1; }

p=$tmp/prefix
cmake --install "$build" --prefix "$p" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; fail "cmake --install"; }
lib=$(find "$p" -name 'libhvpmu.so.0' | head -1)
[ -n "$lib" ] || fail "no libhvpmu.so.0 under the prefix"
libdir=$(dirname "$lib")

# the ABI: defined dynamic symbols are hvpmu_* (and the version node HVPMU_0)
nm -D --defined-only "$lib" | awk '$3 !~ /^hvpmu_/ && !($2 == "A" && $3 ~ /^HVPMU_[0-9]+$/) { print $3 }' > "$tmp/leaks"
[ ! -s "$tmp/leaks" ] || fail "libhvpmu exports $(wc -l < "$tmp/leaks") names without hvpmu_: $(head -5 "$tmp/leaks" | tr '\n' ' ')"
n=$(nm -D --defined-only "$lib" | grep -c ' T hvpmu_') || true
[ "$n" -gt 100 ] || fail "only $n hvpmu_ functions exported"
# ... and each of them is declared by an installed header (hvpmu.map
# hides the ones of session.h and remote.h by name)
nm -D --defined-only "$lib" | awk '$3 ~ /^hvpmu_/ { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp/exported"
cat "$p"/include/hvpmu/*.h "$p"/include/hvpmu/*.def | grep -oE '\bhvpmu_[A-Za-z0-9_]+' | sort -u > "$tmp/declared"
comm -23 "$tmp/exported" "$tmp/declared" > "$tmp/undeclared"
[ ! -s "$tmp/undeclared" ] || fail "libhvpmu exports $(wc -l < "$tmp/undeclared") hvpmu_ names no installed header declares" \
	"(add them to src/hvpmu.map's local list): $(head -5 "$tmp/undeclared" | tr '\n' ' ')"
readelf -d "$lib" | grep -c 'SONAME.*\[libhvpmu\.so\.0\]' > /dev/null || fail "SONAME is not libhvpmu.so.0"
for h in session.h remote.h qemu_source.h; do
	[ ! -e "$p/include/hvpmu/$h" ] || fail "internal header $h installed"
done
for f in include/hvpmu/hvpmu.h include/hvpmu/version.h include/hvpmu/trace.h; do
	[ -f "$p/$f" ] || fail "$f not installed"
done
[ -f "$libdir/cmake/hvpmu/hvpmuConfig.cmake" ] && [ -f "$libdir/cmake/hvpmu/hvpmuConfigVersion.cmake" ] ||
	fail "no hvpmuConfig.cmake"
# every installed public header compiles on its own
for h in "$p"/include/hvpmu/*.h; do
	echo "#include <hvpmu/$(basename "$h")>" | cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$p/include" -x c - ||
		fail "$(basename "$h") does not compile alone"
done

check_examples() { # DIR: the two examples built there
	"$1/hypercalls" > "$tmp/hc" || { cat "$tmp/hc" >&2; fail "$1/hypercalls failed"; }
	grep -q "^libhvpmu [0-9]" "$tmp/hc" || fail "hypercalls: no version line"
	"$1/count_trace" > "$tmp/ct" || fail "$1/count_trace failed"
	grep -qx 'refs 16384' "$tmp/ct" && grep -qx 'dc_miss_mem 1024' "$tmp/ct" && grep -qx 'dc_miss_l2l3 3072' "$tmp/ct" ||
		{ cat "$tmp/ct" >&2; fail "count_trace: counts"; }
	ldd "$1/count_trace" > "$tmp/ldd"
	grep -q "$libdir/libhvpmu.so.0" "$tmp/ldd" || fail "$1/count_trace does not load the installed libhvpmu: $(grep hvpmu "$tmp/ldd")"
}
# through CMake
cmake -S "$src/examples" -B "$tmp/ex-cmake" -DCMAKE_PREFIX_PATH="$p" -DCMAKE_BUILD_RPATH="$libdir" > "$tmp/ex.log" 2>&1 &&
	cmake --build "$tmp/ex-cmake" >> "$tmp/ex.log" 2>&1 || { cat "$tmp/ex.log" >&2; fail "examples through find_package(hvpmu)"; }
check_examples "$tmp/ex-cmake"
# through pkg-config
mkdir -p "$tmp/ex-pc"
for e in hypercalls count_trace; do
	# shellcheck disable=SC2046
	cc -std=c11 -Wall -Wextra -Werror "$src/examples/$e.c" -o "$tmp/ex-pc/$e" \
		$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --define-prefix --cflags --libs hvpmu) -Wl,-rpath,"$libdir" ||
		fail "$e through pkg-config"
done
check_examples "$tmp/ex-pc"

[ -n "$prog" ] || exit 0
# relocation: move the tree, run from there
moved=$tmp/elsewhere/hvpmu
mkdir -p "$tmp/elsewhere"
mv "$p" "$moved"
q=$moved/libexec/hvpmu
[ -x "$q/qemu-sparc64" ] || fail "qemu-sparc64 not installed in libexec/hvpmu"
mv "$q/qemu-sparc64" "$q/qemu-sparc64.real"
printf '#!/bin/sh\ntouch "%s"\nexec "%s" "$@"\n' "$tmp/moved-qemu-ran" "$q/qemu-sparc64.real" > "$q/qemu-sparc64"
chmod +x "$q/qemu-sparc64"
env -i PATH=/usr/bin:/bin "$moved/bin/hvpmu" stat -x, -e Instr_all:u -o "$tmp/stat" -- "$prog" > /dev/null 2> "$tmp/stat.err" ||
	{ cat "$tmp/stat.err" >&2; fail "hvpmu stat from the moved prefix"; }
[ -e "$tmp/moved-qemu-ran" ] || fail "hvpmu stat did not run the moved prefix's qemu-sparc64"
v=$(awk -F, '$3 == "Instr_all:u" { print $1 }' "$tmp/stat")
[ -n "$v" ] && [ "$v" -gt 0 ] || { cat "$tmp/stat" >&2; fail "no Instr_all:u count from the moved prefix"; }
echo "install: ok (moved prefix counted $v instructions)"
