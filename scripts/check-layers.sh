#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The layering check (docs/architecture.md "Allowed edges"): reads the
# symbols every built object of src/ defines and references (gcc-nm, which
# also reads LTO objects) and the private headers every source file
# includes, and fails on an edge between layers that the table below does
# not allow.
#   scripts/check-layers.sh BUILD_DIR
# BUILD_DIR is a configured and built tree (e.g. build/test).  Prints one
# line per forbidden edge (FROM-file -> symbol defined in TO-folder) and
# exits 1 if there is any; exits 2 if the build has no objects.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: check-layers.sh BUILD_DIR}
objs=$(find "$build/src/CMakeFiles" -name '*.c.o' \( -path '*/hvpmu_obj.dir/*' -o -path '*/hvpmu_cli.dir/*' \
	-o -path '*/hvpmu_plugin.dir/source/*' -o -path '*/hvpmu_plugin.dir/supervisor/*' \
	-o -path '*/hvpmu_plugin.dir/host/*' \) | sort -u)
# only the objects of sources that exist (a build tree keeps stale ones)
objs=$(for o in $objs; do
	src=$(echo "$o" | sed -E 's#.*\.dir/(.*)\.o$#src/\1#')
	[ -f "$root/$src" ] && echo "$o"
done)
[ -n "$objs" ] || { echo "check-layers: no objects under $build/src" >&2; exit 2; }

# Allowed edges: FROM TO [SYMBOL-REGEX].  A folder may always use itself
# and src/common (library-wide helpers such as hvpmu_strerror).
# Without a regex every symbol of TO is allowed; with one, only those.
# (The layers: 1 source, 2 model, 3 pmu, 4 services, 5 supervisor (the
# guest's drivers), host (the run host: the composition root of a run)
# and tools.)
rules=$(cat <<'EOF'
source model
model pmu
services model
supervisor services
supervisor model ^hvpmu_(machine_(create|destroy|mev_features|ldxa|stxa|rdasr|wrasr|reg_read|reg_write|tick|resume|set_tick_compare|mode|set_mode|nstrands|md|nmcu|ndevices|device|now|add_cycles)|md_.*|platform_.*|placement_.*)$
supervisor pmu ^hvpmu_[a-z0-9]+_(.*(event|alias|name|picl|sel|needs|supported).*|count_get|ctl_code|ctl_set_code|pic_counter|perfreg_.*)$
supervisor source ^hvpmu_isa_.*$
host supervisor
host services
host model
host pmu ^hvpmu_[a-z0-9]+_(.*(event|alias|name|picl|sel|needs|supported).*|count_get|ctl_code|ctl_set_code|pic_counter|perfreg_.*|values_decode)$
host source
tools supervisor
tools host
EOF
)

# symbol -> folder that defines it
declare -A def
for o in $objs; do
	f=$(echo "$o" | sed -E 's#.*\.dir/([a-z_]+)/.*#\1#')
	while read -r sym; do def[$sym]=$f; done < <(gcc-nm --defined-only -g "$o" 2>/dev/null | awk '$2 ~ /[TDBRC]/ { print $3 }')
done

# symbols the C library defines: an interposer of one in src/ (the
# plugin's kill(), docs/cli.md "How a run ends") is the C library's to
# every other folder
libc=$(gcc -print-file-name=libc.so.6)
declare -A libc_sym
while read -r sym; do libc_sym[${sym%%@*}]=1; done < <(nm -D --defined-only "$libc" 2>/dev/null | awk '{ print $3 }')

bad=0
allowed() { # FROM TO SYM
	local from=$1 to=$2 sym=$3 f t re
	[ "$from" = "$to" ] || [ "$to" = common ] && return 0
	while read -r f t re; do
		[ "$f" = "$from" ] && [ "$t" = "$to" ] || continue
		[ -z "$re" ] && return 0
		[[ $sym =~ $re ]] && return 0
	done <<< "$rules"
	return 1
}
declare -A seen
for o in $objs; do
	from=$(echo "$o" | sed -E 's#.*\.dir/([a-z_]+)/.*#\1#')
	file=$(echo "$o" | sed -E 's#.*\.dir/(.*)\.o$#src/\1#')
	while read -r sym; do
		to=${def[$sym]:-}
		[ -n "$to" ] || continue # libc, json-c, QEMU
		[ -z "${libc_sym[$sym]:-}" ] || continue
		if ! allowed "$from" "$to" "$sym" && [ -z "${seen[$file:$sym]:-}" ]; then
			seen[$file:$sym]=1
			echo "forbidden: $file ($from) -> $sym ($to)"
			bad=1
		fi
	done < <(gcc-nm --undefined-only "$o" 2>/dev/null | awk '{ print $NF }')
done

# private headers: src/FOLDER/*.h only from FOLDER (src/common's from any)
while read -r src; do
	from=$(echo "$src" | sed -E 's#^src/([a-z_]+)/.*#\1#')
	while read -r inc; do
		to=${inc%%/*}
		[ "$to" = "$inc" ] && continue # same-folder include
		[ "$to" = "$from" ] || [ "$to" = common ] && continue
		[ -d "$root/src/$to" ] || continue
		echo "forbidden: $src ($from) includes the private header $inc"
		bad=1
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$root/$src")
done < <(cd "$root" && find src -name '*.[ch]' | sort)

# Platform knowledge lives in the platform records (src/model/platform*.c,
# docs/architecture.md "A platform is one record"): anywhere else, no
# comparison with, case on, bit of or table indexed by an
# HVPMU_PLATFORM_ constant, and no platform or personality name (as the
# records spell them) compared with strcmp or given as a default.
names=$(cd "$root" && sed -n 's/^[[:space:]]*\.\(name\|personality\) = "\([^"]*\)",.*/\2/p' src/model/platform_*.c | sort -u |
	paste -sd'|')
[ -n "$names" ] || { echo "check-layers: no platform record under src/model" >&2; exit 2; }
branch='(==|!=)[[:space:]]*HVPMU_PLATFORM_|HVPMU_PLATFORM_[A-Z0-9_]+[[:space:]]*(==|!=)|case[[:space:]]+HVPMU_PLATFORM_|<<[[:space:]]*HVPMU_PLATFORM_|\[HVPMU_PLATFORM_'
literal="strcmp\\([^;]*\"($names)\"|\\?[^:;]*:[[:space:]]*\"($names)\"[[:space:]]*[;,)]"
while IFS= read -r hit; do
	echo "forbidden: platform branch outside the records: $hit"
	bad=1
done < <(cd "$root" && grep -rnE "$branch|$literal" src --include='*.[ch]' | grep -v '^src/model/platform[a-z0-9_]*\.[ch]:' || true)

if [ "$bad" -ne 0 ]; then
	echo "check-layers: forbidden edges (docs/architecture.md \"Allowed edges\")" >&2
	exit 1
fi
echo "check-layers: $(echo "$objs" | wc -l) objects, no forbidden edge, no platform branch outside the records"
