# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the service tests (run_guests.sh, run_adversary.sh,
# run_sockdir.sh), sourced after they define `tmp` and `fail`.

# two_guests_md FILE: the machine description of a T4 with two guests,
# alpha (strands 0-31, perfctraccess, DRAM counter group 1) and beta
# (strands 32-63, no perfctraccess), 256 MB each.
two_guests_md() {
	cat > "$1" << 'JSON'
{ "platform": "t4",
  "guests": [
    { "name": "alpha", "perfctraccess": 1, "dram_counter_group": 1, "first_strand": 0, "nstrands": 32,
      "mblock": [ { "base": 0, "size": 268435456 } ] },
    { "name": "beta", "perfctraccess": 0, "first_strand": 32, "nstrands": 32,
      "mblock": [ { "base": 268435456, "size": 268435456 } ] } ] }
JSON
}

# refused WHAT WANT CMD...: CMD exits non-zero with one error line that
# contains WANT
refused() {
	local what=$1 want=$2
	shift 2
	set +e
	"$@" > /dev/null 2> "$tmp/err"
	local rc=$?
	set -e
	[ "$rc" -ne 0 ] || fail "$what: accepted"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; fail "$what: want one error line"; }
	grep -q -- "$want" "$tmp/err" || { cat "$tmp/err" >&2; fail "$what: want '$want'"; }
}
