#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The main job of the SGI Origin platform (issue 13): build hvpmu and xz
# for mips64 from Debian's xz-utils source, and count `xz -T4` compressing
# a multi-megabyte text file in 512 KB blocks (so that its four worker
# threads all get work: with threads on CPUs 0-4, nodes 0, 1 and 2 run
# them) with the Hub MD counters of every node, system-wide, through
# IRIX's syssgi(SGI_EVENTCTR, MDPERF_*) (`hvpmu mdperf -a`).
# Extra arguments go to `hvpmu mdperf` (e.g. -x, or -s 0,dir_state or an
# interval: ./scripts/origin-demo.sh 0.1).
set -euo pipefail
. "$(dirname "$0")/common.sh"
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
xz=$("$(dirname "$0")/build-xz-mips64.sh")
[ -r "$HVPMU_TEXT" ] || die "input text $HVPMU_TEXT missing"
say "hvpmu mdperf -a -- xz -T4 < $HVPMU_TEXT ($(stat -c %s "$HVPMU_TEXT") bytes)"
"$HVPMU_WORK/release/src/hvpmu" mdperf -a "$@" -- "$xz" -T4 --block-size=512KiB -c < "$HVPMU_TEXT" > "$HVPMU_WORK/origin-demo.xz"
xz -dc "$HVPMU_WORK/origin-demo.xz" | cmp -s - "$HVPMU_TEXT" &&
	say "round trip ok: the compressed output decompresses to the input"
