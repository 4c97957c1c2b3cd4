#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The main job: install what is needed, build hvpmu and zlib's minigzip for
# sparc64, and count minigzip compressing a multi-megabyte text file on the
# modeled SPARC T4, through the hypervisor's PCR/PIC interface.
set -euo pipefail
. "$(dirname "$0")/common.sh"
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
gz=$("$(dirname "$0")/build-zlib.sh")
[ -r "$HVPMU_TEXT" ] || die "input text $HVPMU_TEXT missing"
say "hvpmu stat -- minigzip < $HVPMU_TEXT ($(stat -c %s "$HVPMU_TEXT") bytes)"
"$HVPMU_WORK/release/src/hvpmu" stat "$@" -- "$gz" < "$HVPMU_TEXT" > "$HVPMU_WORK/demo.gz"
gzip -dc "$HVPMU_WORK/demo.gz" | cmp -s - "$HVPMU_TEXT" && say "round trip ok: the compressed output decompresses to the input"
