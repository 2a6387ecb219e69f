#!/bin/sh
# A full disk is a failure, never a silent exit 0: every output that cannot
# be written (stdout, -o, --xml, --html, --junit) is exit 3 with the
# system's reason.  /dev/full refuses every write with ENOSPC.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
[ -c /dev/full ] || { echo "SKIP: no /dev/full"; exit 77; }
ex="$here/../../examples"
sb="$ex/x86/SB.litmus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
# Output files go through a link to /dev/full: a program that renames a
# temporary file over its target (as root) then replaces the link, never
# the device itself.
ln -s /dev/full "$tmp/full"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect3 WHAT CMD...: exit 3 and "No space left on device" on stderr
# (stdout of CMD is /dev/full unless CMD redirects it itself)
expect3() {
    what=$1
    shift
    "$@" >/dev/full 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 3 ] || fail "$what: exit $rc, not 3: $(head -2 "$tmp/err")"
    grep -q "No space left on device" "$tmp/err" || fail "$what: no reason given: $(head -2 "$tmp/err")"
}

expect3 "parse >/dev/full" "$L" parse "$sb"
expect3 "--version >/dev/full" "$L" --version
expect3 "ir >/dev/full" "$L" ir "$sb"
expect3 "emit -o /dev/full" sh -c '"$1" emit --target x86-litmus "$2" -o "$3" >/dev/null' sh "$L" "$sb" "$tmp/full"
grep -q "writing <stdout>" "$tmp/err" && fail "emit -o /dev/full: blamed stdout"
expect3 "run --json >/dev/full" "$L" run --json -s 1000 -r 1 "$sb"
expect3 "run --xml /dev/full" sh -c '"$1" run --xml "$3" -s 1000 -r 1 "$2" >/dev/null' sh "$L" "$sb" "$tmp/full"

"$L" campaign run --db "$tmp/c.db" --quiet -s 1000 -r 1 "$sb" >/dev/null 2>&1 ||
    fail "campaign run: exit $?"
expect3 "campaign report --json >/dev/full" "$L" campaign report --db "$tmp/c.db" --json
expect3 "campaign report --junit /dev/full" sh -c '"$1" campaign report --db "$2" --junit "$3" >/dev/null' sh "$L" "$tmp/c.db" "$tmp/full"
expect3 "campaign report --html /dev/full" sh -c '"$1" campaign report --db "$2" --html "$3" >/dev/null' sh "$L" "$tmp/c.db" "$tmp/full"

[ -c /dev/full ] || fail "/dev/full is no longer a character device"

# a good write is still exit 0
"$L" parse "$sb" >"$tmp/ok" || fail "parse to a file: exit $?"
[ -s "$tmp/ok" ] || fail "parse to a file: nothing written"

[ "$fails" -eq 0 ] || exit 1
echo "write_errors: ok"
