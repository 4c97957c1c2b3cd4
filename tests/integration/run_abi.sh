#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The library's ABI against its committed baseline abi/libhvpmu.abi
# (libabigail's abidw dump of libhvpmu.so.0 with the installed headers;
# docs/packaging.md "The library's ABI"): abidiff fails the test on an
# incompatible change (a removed or changed public function or variable,
# a public type reached from one that changed shape); an addition (a new
# function) is reported and passes.
#   run_abi.sh BUILD_DIR SOURCE_DIR            check
#   run_abi.sh BUILD_DIR SOURCE_DIR --update   write a new baseline
# (with a SONAME raised for an intended break: docs/packaging.md).
set -euo pipefail
build=$1 src=$2 mode=${3:-check}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: abi: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/p" --component dev > /dev/null
cmake --install "$build" --prefix "$tmp/p" --component lib > /dev/null
lib=$(find "$tmp/p" -name 'libhvpmu.so.0.*' | head -1)
[ -n "$lib" ] || fail "no libhvpmu.so.0.* installed"
readelf -S "$lib" | grep -c '\.debug_info' > /dev/null || fail "$lib has no debug information (a RelWithDebInfo or Debug build)"
abidw --headers-dir "$tmp/p/include/hvpmu" --drop-private-types --no-corpus-path --no-show-locs \
	--out-file "$tmp/current.abi" "$lib" || fail "abidw failed"
if [ "$mode" = --update ]; then
	cp "$tmp/current.abi" "$src/abi/libhvpmu.abi"
	echo "abi: baseline written to $src/abi/libhvpmu.abi"
	exit 0
fi
rc=0
abidiff --no-show-locs "$src/abi/libhvpmu.abi" "$tmp/current.abi" > "$tmp/diff" 2>&1 || rc=$?
# abidiff's status: bit 0 error, 1 usage, 2 an ABI change, 3 an incompatible one
if [ $((rc & 3)) -ne 0 ]; then
	cat "$tmp/diff" >&2
	fail "abidiff failed (status $rc)"
fi
# incompatible: a removed symbol (status bit 3), or any changed function
# or variable (a type it reaches changed shape: status bit 2 with a
# "Changed" count); only additions pass
if [ $((rc & 8)) -ne 0 ] || grep -Eq 'changes summary: ([1-9][0-9]* Removed|[0-9]+ Removed, [1-9][0-9]* Changed)' "$tmp/diff"; then
	cat "$tmp/diff" >&2
	fail "incompatible ABI change against abi/libhvpmu.abi (raise HVPMU_SOVERSION and run run_abi.sh --update: docs/packaging.md)"
fi
if [ $((rc & 4)) -ne 0 ]; then
	cat "$tmp/diff"
	echo "abi: compatible changes against the baseline (refresh it with run_abi.sh BUILD SRC --update)"
fi
echo "abi: ok ($(grep -c '<elf-symbol name=.hvpmu_' "$src/abi/libhvpmu.abi") symbols in the baseline)"
