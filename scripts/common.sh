# SPDX-License-Identifier: GPL-2.0-or-later
# Shared settings for scripts/*.sh: paths and the Debian packages hvpmu needs
# (parallel, munge and Slurm: `hvpmu sweep`'s engines and their tests,
# docs/sweeps.md; gnuplot-nox: `hvpmu plot` draws with it).
HVPMU_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HVPMU_WORK=${HVPMU_WORK:-$HVPMU_ROOT/build}
HVPMU_PACKAGES=(build-essential cmake pkg-config libjson-c-dev libcmocka-dev
	clang libclang-rt-14-dev gcc-12-sparc64-linux-gnu libc6-dev-sparc64-cross
	binutils-sparc64-linux-gnu dpkg-dev xz-utils bzip2 bc procps util-linux coreutils
	gcc-12-mips64-linux-gnuabi64 binutils-mips64-linux-gnuabi64 libc6-dev-mips64-cross
	gcc-12-powerpc64-linux-gnu binutils-powerpc64-linux-gnu libc6-dev-ppc64-cross
	help2man scdoc bash-completion man-db debhelper lintian abigail-tools mmdebstrap
	autoconf automake libglib2.0-dev
	parallel munge slurmctld slurmd slurm-client
	gnuplot-nox)
# QEMU 10's user-mode emulators with plugins (scripts/build-qemu.sh; Debian's
# own qemu-user has no plugin support from 9.x on) come first on PATH for
# every script, the benches' bare runs included.
if [ -d "$HVPMU_WORK/qemu/bin" ]; then PATH="$(cd "$HVPMU_WORK/qemu/bin" && pwd -P):$PATH"; fi
# The demo's input: a real multi-megabyte text file every machine with the
# packages above has (clang's NEON intrinsics header, ~2.5 MB of C).
HVPMU_TEXT=${HVPMU_TEXT:-/usr/lib/llvm-14/lib/clang/14.0.6/include/arm_neon.h}

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Install what is missing: Debian packages, and QEMU 10 built from Debian's
# source (scripts/build-qemu.sh).
hvpmu_install() {
	local missing=() p sudo=()
	for p in "${HVPMU_PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		[ "$(id -u)" -eq 0 ] || sudo=(sudo)
		say "installing ${missing[*]}"
		"${sudo[@]}" apt-get update -qq
		DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	fi
	# QEMU 10 with plugins, built once per machine, first on PATH
	local q
	q=$("$HVPMU_ROOT/scripts/build-qemu.sh") || die "no QEMU 10 build (scripts/build-qemu.sh)"
	PATH="$q/bin:$PATH"
}

# Configure and build hvpmu in $1 with extra cmake arguments.
hvpmu_build() {
	local dir=$1; shift
	cmake -S "$HVPMU_ROOT" -B "$dir" -DHVPMU_QEMU_DIR="$HVPMU_WORK/qemu" "$@" >/dev/null
	cmake --build "$dir" -j"$(nproc)" >/dev/null
}

# hvpmu_debian_source PKG: Debian's source of PKG unpacked under
# $HVPMU_WORK/apt/src (fetched once); prints its directory.  `apt-get
# source` uses a deb-src list, package lists and cache private to
# $HVPMU_WORK/apt: the machine's own apt configuration is not touched.
hvpmu_debian_source() {
	local pkg=$1 apt=$HVPMU_WORK/apt
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src"
	echo 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main' \
		> "$apt/sources.list"
	local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)
	if ! ls -d "$apt/src/$pkg"-*/ > /dev/null 2>&1; then
		say "fetching Debian's $pkg source"
		apt-get "${opts[@]}" -qq update
		(cd "$apt/src" && apt-get "${opts[@]}" -qq source "$pkg" > /dev/null)
	fi
	ls -d "$apt/src/$pkg"-*/ | head -n1
}

# hvpmu_build_xz ARCH HOST CC: xz from Debian's xz-utils source for one
# guest ISA (scripts/build-xz-mips64.sh, build-xz-sparc64.sh), liblzma
# linked in, the C library from the cross sysroot; -z now: symbols bound
# at load time, not by whichever thread calls a function first
# (workloads/mips64/CMakeLists.txt, docs/origin-directory.md
# "Determinism").  Prints the path of $HVPMU_WORK/xz-ARCH.
hvpmu_build_xz() {
	local arch=$1 host=$2 cc=$3 out=$HVPMU_WORK/xz-$1 src b=$HVPMU_WORK/xz-utils-$1
	[ -x "$out" ] && { echo "$out"; return 0; }
	src=$(hvpmu_debian_source xz-utils)
	rm -rf "$b" && cp -a "$src" "$b"
	say "building xz for $arch"
	(cd "$b" && ./configure -q --host="$host" CC="$cc" CFLAGS=-O2 LDFLAGS=-Wl,-z,now \
		--disable-shared --enable-static --disable-nls --disable-doc \
		--disable-lzmadec --disable-lzmainfo --disable-xzdec --disable-scripts >/dev/null &&
		make -s -j2 >/dev/null 2>&1)
	cp "$b/src/xz/xz" "$out"
	echo "$out"
}
