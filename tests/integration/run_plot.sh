#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `hvpmu plot` (docs/cli.md "hvpmu plot", issue 33) end to end:
#   run_plot.sh HVPMU MINIGZIP TEXT [XZ_MIPS64]
# An `hvpmu stat -I` run of minigzip (sparc64) in CSV and JSON and an
# `hvpmu mdperf` interval run of xz (mips64; skipped, and said so, without
# it) are drawn; the SVG must have the axis labels, a legend entry naming
# each counter of the input and one path per counter, and the PNG pixels
# of more than one colour inside the plot area (python3's standard
# library decodes it).  Bad input - empty, truncated, output without
# intervals, not hvpmu's - gets one line and a non-zero exit, and no file.
set -euo pipefail
hv=$1 gz=$2 text=$3 xz=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: plot: $*" >&2; exit 1; }
command -v gnuplot > /dev/null || fail "no gnuplot (Debian's gnuplot-nox: scripts/common.sh)"
head -c 300000 "$text" > "$tmp/in.txt"

# check.py SVG PNG COUNTER...: the drawing of the counters
cat > "$tmp/check.py" <<'EOF'
import struct, sys, zlib
import xml.etree.ElementTree as ET
svg, png, want = sys.argv[1], sys.argv[2], sys.argv[3:]
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(svg).getroot()
texts = [t.text.strip() for t in root.iter(ns + 'text') if t.text]
for label in ('modeled time (s)', 'count per interval'):
    if label not in texts:
        sys.exit('%s: no axis label %r' % (svg, label))
groups = [g for g in root.iter(ns + 'g') if g.get('id', '').startswith('gnuplot_plot_')]
if len(groups) != len(want):
    sys.exit('%s: %d plotted lines for %d counters' % (svg, len(groups), len(want)))
seen = []
for g in groups:
    names = [t.text.strip() for t in g.iter(ns + 'text') if t.text]
    paths = list(g.iter(ns + 'path'))
    if len(names) != 1 or len(paths) != 1:
        sys.exit('%s: line %s has %d legend entries and %d paths (want 1 and 1)' % (svg, g.get('id'), len(names), len(paths)))
    seen.append(names[0])
if sorted(seen) != sorted(want):
    sys.exit('%s: legend %s, counters %s' % (svg, seen, want))

# the PNG: 8-bit RGB or RGBA, not interlaced (pngcairo's)
data = open(png, 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    sys.exit('%s: not a PNG' % png)
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
if depth != 8 or ctype not in (2, 6) or interlace:
    sys.exit('%s: PNG of depth %d, colour type %d, interlace %d' % (png, depth, ctype, interlace))
bpp = 3 if ctype == 2 else 4
raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
# inside the plot area (left of the legend, within the axes)
colours, coloured = set(), 0
for y in range(int(h * 0.15), int(h * 0.85)):
    for x in range(int(w * 0.15), int(w * 0.6)):
        px = tuple(rows[y][x * bpp:x * bpp + 3])
        colours.add(px)
        coloured += max(px) - min(px) > 60
if len(colours) < 2 or coloured < 20:
    sys.exit('%s: blank plot area (%d colours, %d coloured pixels)' % (png, len(colours), coloured))
EOF

# stat -I: CSV and JSON of one run, the same counters
env -i PATH="$PATH" "$hv" stat -I 2 -x, -o "$tmp/s.csv" -- "$gz" < "$tmp/in.txt" > /dev/null || fail "stat -I -x"
env -i PATH="$PATH" "$hv" stat -I 2 -j -o "$tmp/s.json" -- "$gz" < "$tmp/in.txt" > /dev/null || fail "stat -I -j"
[ "$(wc -l < "$tmp/s.csv")" -ge 16 ] || fail "stat -I: fewer than 4 intervals of 4 events"
mapfile -t events < <(cut -d, -f4 "$tmp/s.csv" | awk '!seen[$0]++')
[ ${#events[@]} -eq 4 ] || fail "stat -I: ${#events[@]} events"
for f in s.csv s.json; do
	out=$("$hv" plot -o "$tmp/${f%.*}-${f#*.}" "$tmp/$f") || fail "plot $f exited $?"
	[ "$out" = "$tmp/${f%.*}-${f#*.}.svg"$'\n'"$tmp/${f%.*}-${f#*.}.png" ] || fail "plot $f said: $out"
	python3 "$tmp/check.py" "$tmp/${f%.*}-${f#*.}.svg" "$tmp/${f%.*}-${f#*.}.png" "${events[@]}" || fail "$f"
done
# the default prefix is the input's name without its extension; -t titles it
"$hv" plot -t 'gzip: 300 KB' "$tmp/s.csv" > /dev/null || fail "plot without -o"
[ -s "$tmp/s.svg" ] && [ -s "$tmp/s.png" ] || fail "no s.svg / s.png"
grep -q '<text>gzip: 300 KB</text>' "$tmp/s.svg" || fail "no title"

# mdperf with an interval: a line per counter (summed over the nodes), the heat map
if [ -n "$xz" ] && [ -x "$xz" ]; then
	head -c 100000 "$text" > "$tmp/in100k"
	env -i PATH="$PATH" "$hv" mdperf -s 1,3 -x, -o "$tmp/md.csv" 0.01 -- "$xz" -c -1 "$tmp/in100k" > /dev/null \
		|| fail "mdperf exited $?"
	mapfile -t counters < <(awk -F, '$9 == "" && $1 >= 0 { print $3 "/" $5 }' "$tmp/md.csv" | awk '!seen[$0]++')
	[ ${#counters[@]} -eq 12 ] || fail "mdperf -s 1,3: ${#counters[@]} counters"
	"$hv" plot -o "$tmp/md" "$tmp/md.csv" > /dev/null || fail "plot md.csv"
	python3 "$tmp/check.py" "$tmp/md.svg" "$tmp/md.png" "${counters[@]}" || fail "md.csv"
	for label in 'counter set' node outmsg_class inmsg_class; do
		grep -q "<text>$label</text>" "$tmp/md-heat.svg" || fail "heat map: no '$label'"
	done
	[ -s "$tmp/md-heat.png" ] || fail "no heat map PNG"
	# a value summed over the nodes and intervals: the heat map's input
	env -i PATH="$PATH" "$hv" mdperf -s 1,3 -j -o "$tmp/md.json" 0.01 -- "$xz" -c -1 "$tmp/in100k" > /dev/null \
		|| fail "mdperf -j exited $?"
	"$hv" plot -o "$tmp/mdj" "$tmp/md.json" > /dev/null || fail "plot md.json"
	python3 "$tmp/check.py" "$tmp/mdj.svg" "$tmp/mdj.png" "${counters[@]}" || fail "md.json"
	# a pegged counter's rows (mdperf's '+') are lower bounds, and said to be
	awk -F, 'BEGIN { OFS = "," } $9 == "" && $1 >= 0 && n < 2 { $7 = 1; n++ } { print }' "$tmp/md.csv" > "$tmp/peg.csv"
	"$hv" plot -o "$tmp/peg" "$tmp/peg.csv" 2> "$tmp/err" > /dev/null || fail "plot peg.csv"
	grep -qx 'hvpmu plot: 2 rows of a counter that pegged: their counts are a lower bound' "$tmp/err" \
		|| fail "no word on the pegged rows: $(cat "$tmp/err")"
else
	echo "plot: no mips64 xz (-DHVPMU_XZ_MIPS64): the mdperf part is skipped"
fi

# bad input: one line, non-zero, no picture
bad() { # NAME EXPECTED-TEXT
	local rc=0
	"$hv" plot -o "$tmp/bad" "$tmp/$1" > "$tmp/out" 2> "$tmp/err" || rc=$?
	[ $rc -ne 0 ] || fail "$1 accepted"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; fail "$1: not one line"; }
	grep -q "$2" "$tmp/err" || { cat "$tmp/err" >&2; fail "$1: no '$2'"; }
	[ ! -e "$tmp/bad.svg" ] && [ ! -e "$tmp/bad.png" ] && [ ! -s "$tmp/out" ] || fail "$1: a picture"
}
: > "$tmp/empty"
bad empty 'empty input'
head -c $(( $(wc -c < "$tmp/s.csv") - 20 )) "$tmp/s.csv" > "$tmp/trunc.csv"
bad trunc.csv 'line [0-9]*: a row of'
head -c $(( $(wc -c < "$tmp/s.json") - 20 )) "$tmp/s.json" > "$tmp/trunc.json"
bad trunc.json 'truncated'
env -i PATH="$PATH" "$hv" stat -x, -o "$tmp/whole.csv" -- "$gz" < "$tmp/in.txt" > /dev/null
bad whole.csv 'without -I'
env -i PATH="$PATH" "$hv" stat -j -o "$tmp/whole.json" -- "$gz" < "$tmp/in.txt" > /dev/null
bad whole.json 'without -I'
printf 'hello, world\n' > "$tmp/text"
bad text 'not interval output'
printf '{ "a": 1 }\n' > "$tmp/other.json"
bad other.json 'no interval output'
{ head -4 "$tmp/s.csv"; printf '0.1,<not counted>,,cycles,0,0.00,,\n'; } > "$tmp/ok.csv"
"$hv" plot -o "$tmp/ok" "$tmp/ok.csv" > /dev/null 2> "$tmp/err" || fail "a <not counted> row refused"
grep -q '1 row had no count' "$tmp/err" || fail "no word on the <not counted> row"
rc=0; "$hv" plot > /dev/null 2>&1 || rc=$?
[ $rc -eq 129 ] || fail "no operand: exit $rc"
rc=0; HVPMU_GNUPLOT=/nonexistent "$hv" plot -o "$tmp/g" "$tmp/s.csv" > /dev/null 2> "$tmp/err" || rc=$?
[ $rc -eq 127 ] && grep -q gnuplot-nox "$tmp/err" || fail "without gnuplot: exit $rc"
echo "plot: ok"
