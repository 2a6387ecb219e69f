#!/bin/sh
# One database under two names (its own and a symbolic link's): two
# campaigns started at once on the two names are workers of one campaign,
# so the second must see the first's claimed run as alive and not run it
# again (the workers' lock is named by the database file's identity, not
# by the name it was opened under).
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 to read the database with"; exit 77; }
ex="$here/../../examples/x86"
tmp=$(mktemp -d)
a=
cleanup() { [ -n "$a" ] && kill "$a" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
tests="$ex/SB.litmus"
opts="-s 10000000 -r 100 --time 3"
running() {
    python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from runs where status='running'\").fetchone()[0])" "$1" 2>/dev/null || echo 0
}
# build the runner first, so that the first campaign's run starts at once
"$L" run -s 10 $tests > /dev/null 2>&1 || fail "warm-up run"
ln -s sym.db "$tmp/link.db"
# shellcheck disable=SC2086
"$L" campaign run --db "$tmp/sym.db" $opts $tests > "$tmp/a.out" 2>&1 &
a=$!
i=0
while [ "$(running "$tmp/sym.db")" -lt 1 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ "$(running "$tmp/sym.db")" -ge 1 ] || fail "the first campaign's run never started: $(cat "$tmp/a.out")"
# shellcheck disable=SC2086
"$L" campaign run --db "$tmp/link.db" $opts $tests > "$tmp/b.out" 2>&1 || fail "second campaign: exit $?: $(tail -2 "$tmp/b.out")"
wait "$a" || fail "first campaign: exit $?: $(tail -2 "$tmp/a.out")"
a=
ran() { sed -n 's/.*: \([0-9]*\) runs this time.*/\1/p' "$1" | tail -1; }
na=$(ran "$tmp/a.out")
nb=$(ran "$tmp/b.out")
[ "$((${na:-0} + ${nb:-0}))" -eq 1 ] ||
    fail "1 run executed ${na:-?} + ${nb:-?} times through the two names: $(tail -1 "$tmp/b.out")"
[ "$nb" = 0 ] || fail "the campaign through the link ran the first one's claimed run again"
[ "$fails" -eq 0 ] || { echo "campaign_db_link: $fails failure(s)"; exit 1; }
echo "campaign_db_link: a database and a link to it share their workers' lock"
