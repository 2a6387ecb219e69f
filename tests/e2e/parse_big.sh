#!/bin/sh
# A test with 200000 initialised locations parses, prints back every one of
# them and is hashed; the same test with its first location initialised
# again at the end is refused at that spot.  (Quadratic duplicate checks,
# sorts and printer lookups took minutes here; bench/gen_big_init.sh
# times the parse, see bench/RESULTS.md.  The timeout only stops a hang.)
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
n=200000
sh "$here/../../bench/gen_big_init.sh" $n >"$tmp/big.litmus"
timeout 120 "$L" parse "$tmp/big.litmus" >"$tmp/out" 2>"$tmp/err" || fail "parse: exit $?: $(head -2 "$tmp/err")"
got=$(tr ';' '\n' <"$tmp/out" | grep -c 'x[0-9]*=')
[ "$got" -ge $n ] || fail "printed $got of $n locations"
grep -q "x$((n - 1))=" "$tmp/out" || fail "the last location is not printed"
timeout 120 "$L" parse --hash "$tmp/big.litmus" >"$tmp/hash" 2>"$tmp/err" || fail "parse --hash: exit $?: $(head -2 "$tmp/err")"
# the same locations and x0 again, last on the init line
sed '2s/}$/x0=1; }/' "$tmp/big.litmus" >"$tmp/dup.litmus"
col=$(sed -n 2p "$tmp/dup.litmus" | awk '{ print index($0, "x0=1; }") }')
timeout 120 "$L" parse "$tmp/dup.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "a location initialised twice: exit $rc"
grep -q "dup.litmus:2:$col: error: location x0 is initialised twice" "$tmp/err" ||
    fail "a location initialised twice: $(head -1 "$tmp/err") (expected 2:$col)"
[ "$fails" -eq 0 ] || exit 1
echo "parse_big: $n locations parsed, printed and hashed; a duplicate named at 2:$col"
