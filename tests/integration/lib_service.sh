# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the service tests (run_guests.sh, run_adversary.sh,
# run_sockdir.sh, run_identity.sh, run_power_service.sh, run_procmem.sh,
# run_timeshare.sh), sourced first; then `service_test NAME`.

# service_test NAME: the test's temporary directory $tmp (removed at exit
# unless KEEP is set), the service to stop at exit ($srv) and other
# processes to stop (pids[]); fail MESSAGE says "FAIL: NAME: MESSAGE",
# then every non-empty log in $tmp, on stderr, and exits 1.
service_test() {
	test_name=$1
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/hvpmu-$1.XXXXXX")
	srv=
	pids=()
	trap service_test_end EXIT
}
service_test_end() {
	[ -z "$srv" ] || kill -TERM "$srv" 2> /dev/null || true
	for p in "${pids[@]}"; do kill -TERM "$p" 2> /dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2> /dev/null || true; done
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
fail() {
	echo "FAIL: $test_name: $*" >&2
	for f in "$tmp"/*.log; do [ ! -s "$f" ] || { echo "--- $f:" >&2; cat "$f" >&2; }; done
	exit 1
}

# serve_started LOG: wait (5 s at most) until the service whose stderr is
# LOG says it runs, or fail
serve_started() {
	for _ in $(seq 100); do
		grep -q "^hvpmu serve: service" "$1" && return 0
		sleep 0.05
	done
	fail "the service did not start"
}

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
