#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The whole test suite: installs what is needed (Debian packages; QEMU 10
# built once per machine from Debian's source, scripts/build-qemu.sh), then
#   1. the default build (gcc, -Werror): unit + integration tests (ctest),
#      and the layer check (scripts/check-layers.sh: no call or private
#      include crosses the layers other than docs/architecture.md allows);
#      then the Debian packages (scripts/build-deb.sh, about 1 min) and
#      their install into a clean root (run_package.sh, about 2 min);
#   2. the release build (-O3) of scripts/demo.sh and bench/, compiled only;
#   3. the ASan+UBSan build: the same tests;
#   4. the libFuzzer targets (clang), each run briefly.
set -euo pipefail
. "$(dirname "$0")/common.sh"
hvpmu_install
gz=$("$(dirname "$0")/build-zlib.sh")
xz=$("$(dirname "$0")/build-xz-mips64.sh")
xz_sparc64=$("$(dirname "$0")/build-xz-sparc64.sh")
dash=$("$(dirname "$0")/build-dash-sparc64.sh")
gz_ppc64=$("$(dirname "$0")/build-zlib.sh" ppc64)
jobs=$(nproc)

say "default build"
hvpmu_build "$HVPMU_WORK/test" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHVPMU_MINIGZIP="$gz" -DHVPMU_XZ_MIPS64="$xz" \
	-DHVPMU_DASH_SPARC64="$dash" -DHVPMU_MINIGZIP_PPC64="$gz_ppc64" -DHVPMU_XZ_SPARC64="$xz_sparc64"
ctest --test-dir "$HVPMU_WORK/test" -j"$jobs" --output-on-failure
"$(dirname "$0")/check-layers.sh" "$HVPMU_WORK/test"

say "Debian packages (scripts/build-deb.sh: dpkg-buildpackage, their file lists, lintian)"
"$(dirname "$0")/build-deb.sh" "$HVPMU_WORK/deb"
say "the packages in a clean bookworm root (tests/integration/run_package.sh: mmdebstrap, hvpmu stat, man, examples)"
sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
"${sudo[@]}" "$(dirname "$0")/../tests/integration/run_package.sh" "$HVPMU_WORK/deb" "$gz" "$HVPMU_TEXT"

say "release build (what scripts/demo.sh and bench/ use; -O3 warnings, compile only)"
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release -DHVPMU_MINIGZIP="$gz"

say "sanitizer build (ASan+UBSan)"
hvpmu_build "$HVPMU_WORK/asan" -DCMAKE_BUILD_TYPE=Debug -DHVPMU_SANITIZE=ON -DHVPMU_MINIGZIP="$gz" -DHVPMU_XZ_MIPS64="$xz" \
	-DHVPMU_DASH_SPARC64="$dash" -DHVPMU_MINIGZIP_PPC64="$gz_ppc64" -DHVPMU_XZ_SPARC64="$xz_sparc64"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --test-dir "$HVPMU_WORK/asan" -j"$jobs" --output-on-failure

say "fuzz targets (libFuzzer, clang)"
CC=clang hvpmu_build "$HVPMU_WORK/fuzz" -DCMAKE_BUILD_TYPE=Debug -DHVPMU_FUZZ=ON
ctest --test-dir "$HVPMU_WORK/fuzz" -R '^fuzz\.' -j"$jobs" --output-on-failure
