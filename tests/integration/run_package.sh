#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian packages in a clean root (docs/packaging.md "A clean root"):
# a bookworm chroot made by mmdebstrap with the four .debs of
# scripts/build-deb.sh installed by apt (so their Depends must be right),
# (with Recommends, as apt installs them by default) and in it:
#   - `hvpmu stat` runs PROGRAM (the demo's sparc64 minigzip: it needs the
#     hvpmu package's Recommends, libc6-sparc64-cross) with the packaged
#     plugin and qemu-sparc64, and counts it;
#   - `man hvpmu-stat` shows the page;
#   - the examples build against libhvpmu-dev through CMake and pkg-config
#     and run.
# Needs root (chroot, mount) and the network (Debian's mirror).  About
# 2-3 minutes; not a ctest test: run it after scripts/build-deb.sh,
#   sudo tests/integration/run_package.sh build/deb build/minigzip
# usage: run_package.sh DEB_DIR PROGRAM [INPUT]
set -euo pipefail
debs=$(cd "$1" && pwd) prog=$2 input=${3:-/etc/services}
tmp=$(mktemp -d)
root=$tmp/root
cleanup() {
	umount "$root/proc" 2> /dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: package: $*" >&2; exit 1; }
say() { printf '==> %s\n' "$*" >&2; }

ver=$(dpkg-deb -f "$(ls "$debs"/hvpmu_*.deb | head -1)" Version)
arch=$(dpkg --print-architecture)
mkdir "$tmp/debs"
for p in hvpmu hvpmu-qemu libhvpmu0 libhvpmu-dev; do
	[ -f "$debs/${p}_${ver}_$arch.deb" ] || fail "no ${p}_${ver}_$arch.deb in $debs"
	cp "$debs/${p}_${ver}_$arch.deb" "$tmp/debs/"
done
# the tools to try them with from the archive; the four packages by apt
# inside the root, which brings their Depends and Recommends
say "mmdebstrap bookworm, then apt-get install the four packages in it"
mmdebstrap --variant=apt --include="man-db,gcc,libc6-dev,cmake,make,pkg-config" \
	--customize-hook="copy-in $tmp/debs /tmp" \
	--customize-hook='chroot "$1" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -o APT::Install-Recommends=true /tmp/debs/*.deb"' \
	bookworm "$root" > "$tmp/mmdebstrap.log" 2>&1 || { tail -30 "$tmp/mmdebstrap.log" >&2; fail "mmdebstrap"; }
mount -t proc proc "$root/proc"
in_root() { chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

for p in hvpmu hvpmu-qemu libhvpmu0 libhvpmu-dev libc6-sparc64-cross; do
	in_root dpkg-query -W -f='${Status}\n' "$p" | grep -c 'install ok installed' > /dev/null || fail "$p not installed"
done

say "hvpmu stat in the clean root"
cp "$prog" "$root/tmp/prog"
cp "$input" "$root/tmp/input"
in_root sh -c 'hvpmu stat -x, -e Instr_all:u,Instr_ld:u -o /tmp/counts -- /tmp/prog < /tmp/input > /dev/null' 2> "$tmp/stat.err" ||
	{ cat "$tmp/stat.err" >&2; fail "hvpmu stat"; }
n=$(awk -F, '$3 == "Instr_all:u" { print $1 }' "$root/tmp/counts")
[ -n "$n" ] && [ "$n" -gt 1000 ] || { cat "$root/tmp/counts" >&2; fail "no Instr_all:u count"; }

say "man hvpmu-stat"
in_root sh -c 'MANWIDTH=80 man hvpmu-stat' > "$tmp/man" 2> "$tmp/man.err" || { cat "$tmp/man.err" >&2; fail "man hvpmu-stat"; }
sed -i 's/\xe2\x80\x90/-/g' "$tmp/man" # (groff's hyphens in UTF-8)
grep -Eq 'hvpmu-stat +- ' "$tmp/man" && grep -q -- '--repeat' "$tmp/man" || { head -20 "$tmp/man" >&2; fail "man hvpmu-stat: not the page"; }

say "the examples against libhvpmu-dev"
in_root sh -c 'cp -r /usr/share/doc/libhvpmu-dev/examples /tmp/ex && cd /tmp/ex &&
	cmake -S . -B b > /dev/null && cmake --build b > /dev/null && b/hypercalls > /dev/null && b/count_trace > /tmp/ct &&
	cc hypercalls.c $(pkg-config --cflags --libs hvpmu) -o hc && ./hc > /dev/null' 2> "$tmp/ex.err" ||
	{ cat "$tmp/ex.err" >&2; fail "the examples"; }
grep -qx 'dc_miss_mem 1024' "$root/tmp/ct" || fail "count_trace: $(cat "$root/tmp/ct")"
echo "package: ok (hvpmu stat counted $n instructions in a clean bookworm root; man; examples)"
