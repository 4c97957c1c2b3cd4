#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The study of docs/sweeps.md: the T4's L2 size (64 KB .. 1 MB) against
# DC_miss_L2_L3_hit_nospec, DC_miss_local_hit_nospec, cycles and
# instructions on zlib's minigzip (compressing $HVPMU_TEXT) and Lua 5.4
# (bench/work.lua), both built for sparc64 from Debian's sources, run as a
# sweep on GNU parallel.  Extra arguments go to `hvpmu sweep` (e.g.
# `--engine slurm --partition batch`, `-j 8`).  The results, the merged
# table and the per-(program, event) tables go to $HVPMU_WORK/sweep-study.
# usage: sweep-study.sh [SWEEP OPTIONS]
set -euo pipefail
. "$(dirname "$0")/common.sh"
hvpmu_install
hvpmu_build "$HVPMU_WORK/release" -DCMAKE_BUILD_TYPE=Release
gz=$("$(dirname "$0")/build-zlib.sh")
lua=$("$(dirname "$0")/build-lua-sparc64.sh")
[ -r "$HVPMU_TEXT" ] || die "input text $HVPMU_TEXT missing"
out=$HVPMU_WORK/sweep-study
mkdir -p "$out"
cat > "$out/study.json" <<J
{
  "events": ["DC_miss_L2_L3_hit_nospec", "DC_miss_local_hit_nospec", "cycles:u", "instructions:u"],
  "axes": { "memory.l2.size": [65536, 131072, 262144, 524288, 1048576] },
  "programs": [
    { "name": "minigzip", "path": "$gz", "input": "$HVPMU_TEXT" },
    { "name": "lua", "path": "$lua", "args": ["$HVPMU_ROOT/bench/work.lua", "1"], "files": ["$HVPMU_ROOT/bench/work.lua"] }
  ],
  "output": "$out/results"
}
J
say "hvpmu sweep $* $out/study.json"
"$HVPMU_WORK/release/src/hvpmu" sweep "$@" "$out/study.json"
cat "$out/results/merged.csv"
