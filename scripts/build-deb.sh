#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian packages (docs/packaging.md): builds hvpmu, hvpmu-qemu,
# libhvpmu0 and libhvpmu-dev with `dpkg-buildpackage -us -uc -b` from a
# copy of the tree (so the .debs and the build stay out of it), runs
# lintian on them, and checks each package's file list.  OUTDIR gets the
# .debs, build.log and lintian.txt.
#   scripts/build-deb.sh [OUTDIR]      (default build/deb)
# The emulators come from the QEMU build scripts/build-qemu.sh caches
# ($HVPMU_QEMU_DIR if set).  DEB_BUILD_OPTIONS is passed on (default
# "nocheck": scripts/test.sh runs the tests; unset it to run the unit
# tests in the package build too).
set -euo pipefail
. "$(dirname "$0")/common.sh"
out=${1:-$HVPMU_WORK/deb}
export DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS-nocheck parallel=$(nproc)}
HVPMU_QEMU_DIR=${HVPMU_QEMU_DIR:-$("$HVPMU_ROOT/scripts/build-qemu.sh")}
export HVPMU_QEMU_DIR
ver=$(dpkg-parsechangelog -l "$HVPMU_ROOT/debian/changelog" -S Version)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "build-deb: $*" >&2; exit 1; }

# the tree as git sees it (tracked and new files, not the ignored ones)
mkdir -p "$tmp/hvpmu-$ver"
git -C "$HVPMU_ROOT" ls-files -z --cached --others --exclude-standard |
	(cd "$HVPMU_ROOT" && xargs -0 tar cf - --ignore-failed-read 2>/dev/null) | tar xf - -C "$tmp/hvpmu-$ver"
say "dpkg-buildpackage -us -uc -b (DEB_BUILD_OPTIONS=$DEB_BUILD_OPTIONS)"
(cd "$tmp/hvpmu-$ver" && dpkg-buildpackage -us -uc -b > "$tmp/build.log" 2>&1) ||
	{ tail -40 "$tmp/build.log" >&2; fail "dpkg-buildpackage failed (log above)"; }
mkdir -p "$out"
cp "$tmp/build.log" "$out/build.log"
arch=$(dpkg --print-architecture)
for p in hvpmu hvpmu-qemu libhvpmu0 libhvpmu-dev; do
	[ -f "$tmp/${p}_${ver}_$arch.deb" ] || fail "no ${p}_${ver}_$arch.deb"
	cp "$tmp/${p}_${ver}_$arch.deb" "$out/"
done

# what each package must hold (and must not)
has() { # PACKAGE REGEX: some path of PACKAGE matches
	dpkg-deb -c "$out/${1}_${ver}_$arch.deb" | awk '{ print $6 }' | grep -Ec "$2" > /dev/null || fail "$1 lacks $2"
}
hasnt() {
	! dpkg-deb -c "$out/${1}_${ver}_$arch.deb" | awk '{ print $6 }' | grep -Ec "$2" > /dev/null || fail "$1 has $2"
}
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
has hvpmu '^\./usr/bin/hvpmu$'
has hvpmu "^\./usr/lib/$ma/hvpmu/libhvpmu_plugin\.so$"
has hvpmu '^\./usr/share/man/man1/hvpmu\.1\.gz$'
has hvpmu '^\./usr/share/man/man1/hvpmu-stat\.1\.gz$'
has hvpmu '^\./usr/share/man/man5/hvpmu-md\.5\.gz$'
has hvpmu '^\./usr/share/bash-completion/completions/hvpmu$'
has hvpmu '^\./usr/share/doc/hvpmu/docs/cli\.md'
has hvpmu '^\./usr/share/doc/hvpmu/copyright$'
for q in sparc64 mips64 ppc64; do has hvpmu-qemu "^\./usr/libexec/hvpmu/qemu-$q$"; done
has libhvpmu0 "^\./usr/lib/$ma/libhvpmu\.so\.0\.[0-9.]+$"
hasnt libhvpmu0 '/include/'
has libhvpmu-dev '^\./usr/include/hvpmu/hvpmu\.h$'
has libhvpmu-dev "^\./usr/lib/$ma/pkgconfig/hvpmu\.pc$"
has libhvpmu-dev "^\./usr/lib/$ma/cmake/hvpmu/hvpmuConfig\.cmake$"
has libhvpmu-dev '^\./usr/share/doc/libhvpmu-dev/examples/hypercalls\.c$'
hasnt libhvpmu-dev '/include/hvpmu/(session|remote|qemu_source)\.h$'
dpkg-deb -f "$out/libhvpmu0_${ver}_$arch.deb" Depends | grep -c 'libc6' > /dev/null || fail "libhvpmu0: no shlibs Depends"
dpkg-deb -f "$out/libhvpmu0_${ver}_$arch.deb" Depends | grep -c 'libjson-c' > /dev/null || fail "libhvpmu0 does not depend on libjson-c"
dpkg-deb -f "$out/hvpmu_${ver}_$arch.deb" Depends | grep -c 'hvpmu-qemu (= ' > /dev/null || fail "hvpmu does not depend on hvpmu-qemu"

# lintian: every tag it prints is explained in docs/packaging.md "Lintian"
if command -v lintian > /dev/null; then
	say "lintian"
	(cd "$out" && lintian --tag-display-limit 0 -I ./*_"${ver}"_"$arch".deb 2>&1 | grep -v '^running with root privileges') \
		> "$out/lintian.txt" || true
	cat "$out/lintian.txt" >&2
	while read -r _ _ tag _; do
		grep -qF "\`$tag\`" "$HVPMU_ROOT/docs/packaging.md" || fail "lintian tag $tag is not explained in docs/packaging.md"
	done < <(grep -E '^[EWIP]: ' "$out/lintian.txt")
fi
say "packages in $out: $(cd "$out" && ls ./*.deb | tr '\n' ' ')"
