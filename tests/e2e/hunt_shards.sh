#!/bin/sh
# A hunt in two shards (each its own database, as on two machines), merged
# with `campaign merge`: the merged hunt has every test once and resumes
# with nothing left to do; `campaign report --html` shows its bugs.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
broken="$here/../hunt/broken-cc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v gcc >/dev/null 2>&1 || { echo "SKIP: no gcc"; exit 77; }
opts="--cc $broken --cflags -O2 --max-tests 60 --max-bugs 1 --confirm-time 1s"
for s in 1 2; do
    # shellcheck disable=SC2086
    "$L" hunt $opts --shard "$s/2" --db "$tmp/s$s.db" -o "$tmp/s$s" >"$tmp/s$s.out" 2>&1
    rc=$?
    [ "$rc" -le 1 ] || fail "shard $s: exit $rc: $(tail -2 "$tmp/s$s.out")"
    grep -q "^hunt: 30 tests, 30 configurations" "$tmp/s$s.out" || fail "shard $s: $(head -1 "$tmp/s$s.out")"
done
"$L" campaign merge "$tmp/m.db" "$tmp/s1.db" "$tmp/s2.db" >"$tmp/merge.out" 2>&1 ||
    fail "campaign merge: exit $?: $(cat "$tmp/merge.out")"
# the merged hunt: all 60 tests, nothing to compile again
# shellcheck disable=SC2086
"$L" hunt $opts --db "$tmp/m.db" -o "$tmp/m" >"$tmp/m.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "merged: exit $rc, not 1 (the broken compiler's bugs)"
grep -q "^hunt: 60 tests, 60 configurations" "$tmp/m.out" || fail "merged: $(head -1 "$tmp/m.out")"
grep -q ", 0 compiler calls" "$tmp/m.out" || fail "merged hunt compiled again: $(sed -n 2p "$tmp/m.out")"
# merging a shard again adds nothing
"$L" campaign merge "$tmp/m.db" "$tmp/s1.db" >/dev/null 2>&1
# shellcheck disable=SC2086
"$L" hunt $opts --db "$tmp/m.db" -o "$tmp/m" >"$tmp/m2.out" 2>&1
grep -q "^hunt: 60 tests, 60 configurations" "$tmp/m2.out" || fail "merged twice: $(head -1 "$tmp/m2.out")"
"$L" campaign report --db "$tmp/m.db" --html "$tmp/r.html" >/dev/null 2>&1 || fail "campaign report --html: exit $?"
grep -q '<section id="bugs"><h2>Bugs</h2><p>A compiler bug hunt: 60 tests' "$tmp/r.html" ||
    fail "the HTML report has no bugs section over the 60 tests"
grep -q '<table id="hunt-bugs">.*<tbody>' "$tmp/r.html" || fail "the HTML report has no bug table"
n=$(grep -c 'broken-cc -O2</td>' "$tmp/r.html")
[ "$n" -ge 1 ] || fail "the HTML bug table has no bug of the broken compiler"
# the enumeration in three shards: test k of each shard is test k of one process
if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "SKIP: no sqlite3 to read the shards' tests"
else
    eopts="--cc gcc --cflags -O2 --order enum --max-tests 45 --max-bugs 0"
    # shellcheck disable=SC2086
    "$L" hunt $eopts -o "$tmp/e" >"$tmp/e.out" 2>&1 || fail "enumerated hunt: exit $?: $(tail -2 "$tmp/e.out")"
    grep -q "^hunt: enumeration at size 4, slice 1 of " "$tmp/e.out" || fail "enumerated hunt: no progress line: $(cat "$tmp/e.out")"
    : >"$tmp/eshards.raw"
    for s in 1 2 3; do
        # shellcheck disable=SC2086
        "$L" hunt $eopts --shard "$s/3" -o "$tmp/e$s" >"$tmp/e$s.out" 2>&1 || fail "enumerated shard $s: exit $?"
        sqlite3 "$tmp/e$s/hunt.db" "SELECT k, test FROM hunt_runs" >>"$tmp/eshards.raw" 2>/dev/null
    done
    sort -n "$tmp/eshards.raw" >"$tmp/eshards.tests"
    sqlite3 "$tmp/e/hunt.db" "SELECT k, test FROM hunt_runs" 2>/dev/null | sort -n >"$tmp/e.tests"
    [ "$(wc -l <"$tmp/e.tests")" = 45 ] || fail "enumerated hunt: $(wc -l <"$tmp/e.tests") tests, not 45"
    cmp -s "$tmp/e.tests" "$tmp/eshards.tests" ||
        fail "the enumeration's shards made other tests: $(diff "$tmp/e.tests" "$tmp/eshards.tests" | head -3)"
fi
[ "$fails" = 0 ] && echo "ok: hunt shards merged"
exit "$fails"
