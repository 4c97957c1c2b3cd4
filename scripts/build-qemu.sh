#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds QEMU's three user-mode emulators hvpmu runs programs under
# (qemu-sparc64, qemu-mips64, qemu-ppc64), with TCG plugins enabled, from
# Debian's source package `qemu` of the trixie suite (Debian 13), plus the
# small patches in scripts/qemu-patches/ (each says why, in its header).
# Prints the directory that holds bin/ and include/qemu-plugin.h.
#
# Why build: Debian's own qemu-user from 9.x on is linked statically and
# has no plugin support (docs/event-source.md "QEMU").
#
# Where: the build is cached outside the clone, keyed by the source
# package's version and the patches' hash, under
#   ${HVPMU_QEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hvpmu}/qemu-<version>-<patches>
# so a second clone, or CI on the same machine, does not build it again;
# $HVPMU_WORK/qemu is a link to it.  The machine's own apt configuration
# is not touched: the source comes through a deb-src list private to the
# cache, and the build tools Debian 12 lacks (meson >= 1.5, pycotap) are
# bookworm-backports' packages unpacked into the cache (dpkg -x), never
# installed.  On Debian 13 the same steps take trixie's own.
#
# Version: HVPMU_QEMU_DEB_VERSION below is the one the project was tested
# with.  Debian replaces point releases in its archive; when that version
# is gone, the script says so and builds the suite's current 1:10.0.x
# (the cache key follows it), or fails with HVPMU_QEMU_STRICT=1.
set -euo pipefail
. "$(dirname "$0")/common.sh"

HVPMU_QEMU_DEB_VERSION=${HVPMU_QEMU_DEB_VERSION:-1:10.0.13+ds-0+deb13u1}
targets=sparc64-linux-user,mips64-linux-user,ppc64-linux-user
cache=${HVPMU_QEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hvpmu}
patches=("$HVPMU_ROOT"/scripts/qemu-patches/*.patch)
[ -e "${patches[0]}" ] || patches=()
phash=$( { [ ${#patches[@]} -eq 0 ] || cat "${patches[@]}"; echo "$targets"; } | sha256sum | cut -c1-12)

# The private apt: deb-src of trixie (the source), deb of bookworm-backports
# (meson and pycotap for Debian 12).
apt=$cache/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/deb"
cat > "$apt/sources.list" <<-EOF
	deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main
	deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main
EOF
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
	-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)

link() { mkdir -p "$HVPMU_WORK" && ln -sfn "$1" "$HVPMU_WORK/qemu"; echo "$1"; }

# A build of the recorded version (or, with it gone, of the last one
# built) is reused without asking the archive anything.
out=$cache/qemu-${HVPMU_QEMU_DEB_VERSION//[:~]/_}-$phash
[ -x "$out/bin/qemu-sparc64" ] && { link "$out"; exit 0; }

apt_update() { apt-get "${opts[@]}" -qq update; }
apt_update || die "cannot read Debian's package lists (trixie deb-src, bookworm-backports)"
ver=$HVPMU_QEMU_DEB_VERSION
srcs=$(apt-cache "${opts[@]}" showsrc qemu) || srcs=
if ! grep -qxF "Version: $ver" <<< "$srcs"; then
	cur=$(sed -n 's/^Version: \(1:10\.0\.[^ ]*\)$/\1/p' <<< "$srcs" | sort -V | tail -n1)
	[ -n "$cur" ] || die "Debian's archive has no qemu 1:10.0.x source any more; set HVPMU_QEMU_DEB_VERSION"
	[ "${HVPMU_QEMU_STRICT:-0}" = 1 ] && die "qemu $ver is gone from Debian's archive (it has $cur)"
	say "qemu $ver is gone from Debian's archive: building $cur (counts may move; docs/event-source.md \"QEMU\")"
	ver=$cur
	out=$cache/qemu-${ver//[:~]/_}-$phash
	[ -x "$out/bin/qemu-sparc64" ] && { link "$out"; exit 0; }
fi

# Build tools: Debian's packages where the release has them new enough.
need=(build-essential pkg-config libglib2.0-dev zlib1g-dev ninja-build flex bison python3-venv dpkg-dev patch)
# meson >= 1.5 and pycotap from the release itself where it has them (Debian 13)
cand=$(apt-cache policy meson 2>/dev/null | sed -n 's/^ *Candidate: //p')
if [ -n "$cand" ] && [ "$cand" != "(none)" ] && dpkg --compare-versions "$cand" ge 1.5; then
	need+=(meson python3-pycotap)
fi
missing=()
for p in "${need[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
	say "installing ${missing[*]}"
	"${sudo[@]}" apt-get update -qq
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# meson >= 1.5 and pycotap: the system's if new enough (Debian 13), else
# bookworm-backports' unpacked into the cache.
pypath=
if ! python3 -c 'import mesonbuild.coredata as c, sys; v=tuple(map(int, c.version.split(".")[:2])); sys.exit(v < (1, 5))' 2>/dev/null \
	|| ! python3 -c 'import pycotap' 2>/dev/null; then
	tools=$apt/tools
	if [ ! -d "$tools/usr/lib/python3/dist-packages/mesonbuild" ]; then
		say "unpacking bookworm-backports' meson and pycotap into $tools"
		(cd "$apt/deb" && apt-get "${opts[@]}" -qq download meson python3-pycotap)
		for d in "$apt"/deb/*.deb; do dpkg -x "$d" "$tools"; done
	fi
	pypath=$tools/usr/lib/python3/dist-packages
	export PATH="$tools/usr/bin:$PATH"
fi

src=$cache/src-${ver//[:~]/_}
if [ ! -x "$src/configure" ]; then
	say "fetching Debian's qemu $ver source"
	rm -rf "$src.tmp" && mkdir -p "$src.tmp"
	(cd "$src.tmp" && apt-get "${opts[@]}" -qq source --download-only "qemu=$ver" >/dev/null \
		&& dpkg-source -q -x ./*.dsc tree >/dev/null 2>&1)
	rm -rf "$src" && mv "$src.tmp/tree" "$src" && rm -rf "$src.tmp"
fi

b=$cache/build-${ver//[:~]/_}-$phash
rm -rf "$b" && cp -a "$src" "$b"
for p in "${patches[@]}"; do
	say "patch: $(basename "$p")"
	patch -d "$b" -p1 -s < "$p"
done
say "building qemu $ver ($targets; a few minutes, once per machine)"
start=$SECONDS
(cd "$b" && mkdir -p obj && cd obj \
	&& PYTHONPATH=$pypath ../configure --prefix="$out" --target-list="$targets" --enable-plugins \
		--disable-system --disable-tools --disable-docs --disable-install-blobs --disable-download \
		--disable-werror >configure.log 2>&1 \
	&& PYTHONPATH=$pypath make -j"$(nproc)" >make.log 2>&1) \
	|| die "qemu build failed: see $b/obj/configure.log and make.log"
rm -rf "$out" && mkdir -p "$out/bin" "$out/include"
for t in sparc64 mips64 ppc64; do cp "$b/obj/qemu-$t" "$out/bin/"; done
cp "$b/include/qemu/qemu-plugin.h" "$out/include/"
printf 'qemu %s (Debian source package qemu %s), patches %s, built %s in %d s\n' \
	"$("$out/bin/qemu-sparc64" --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')" "$ver" \
	"$(cd "$HVPMU_ROOT/scripts/qemu-patches" 2>/dev/null && ls -- *.patch 2>/dev/null | tr '\n' ' ')" \
	"$(date -u +%F)" $((SECONDS - start)) > "$out/VERSION"
rm -rf "$b"
link "$out"
