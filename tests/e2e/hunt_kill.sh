#!/bin/sh
# A hunt killed with SIGKILL (its whole process group) at five moments from
# a fixed seed, then resumed: every (test, configuration) of the stream is
# recorded once, and the resumed run checks exactly those the killed one
# had not recorded (nothing repeated, nothing lost).  The last two rounds
# enumerate (--order enum): there test k after the resume is the test k of
# a hunt never killed.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v gcc >/dev/null 2>&1 || { echo "SKIP: no gcc"; exit 77; }
command -v setsid >/dev/null 2>&1 || { echo "SKIP: no setsid"; exit 77; }
command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: no sqlite3 to read the database between kill and resume"; exit 77; }
N=96
moments=$(awk 'BEGIN { srand(41); for (i = 0; i < 5; i++) printf "%d ", 7 + int(rand() * 16) }')
# the enumeration's tests, k by k, from a hunt never killed
"$L" hunt --cc gcc --cflags -O0 --order enum --max-tests $N --batch 32 -o "$tmp/ref" >/dev/null 2>&1
sqlite3 "$tmp/ref/hunt.db" "SELECT k, test FROM hunt_runs ORDER BY k" >"$tmp/ref.tests"
[ "$(wc -l <"$tmp/ref.tests")" = $N ] || fail "the enumeration's reference hunt: $(wc -l <"$tmp/ref.tests") tests"
round=0
for m in $moments; do
    round=$((round + 1))
    d="$tmp/r$round"
    order=random
    [ "$round" -ge 4 ] && order=enum
    setsid "$L" hunt --cc gcc --cflags -O0 --cflags -O2 --order $order --max-tests $N --batch 8 -o "$d" \
        >"$d.out1" 2>&1 &
    leader=$!
    sleep "$(awk -v m="$m" 'BEGIN { printf "%.1f", m / 10 }')"
    kill -KILL "-$leader" 2>/dev/null
    wait "$leader" 2>/dev/null
    before=$(sqlite3 "$d/hunt.db" "SELECT count(*) FROM hunt_runs" 2>/dev/null || echo 0)
    [ -n "$before" ] || before=0
    echo "round $round ($order): killed at $m/10 s with $before of $((2 * N)) recorded"
    "$L" hunt --cc gcc --cflags -O0 --cflags -O2 --order $order --max-tests $N --batch 8 -o "$d" >"$d.out2" 2>&1
    rc=$?
    [ "$rc" = 0 ] || fail "round $round (kill at $m/10 s): resume exit $rc: $(tail -2 "$d.out2")"
    grep -q "^hunt: $N tests, $((2 * N)) configurations" "$d.out2" ||
        fail "round $round: after the resume: $(head -1 "$d.out2")"
    grep -q "\"this_run\":{\"configurations\":$((2 * N - before))," "$d/report.json" ||
        fail "round $round: $before recorded before the kill, the resume checked $(grep -o '"this_run":{"configurations":[0-9]*' "$d/report.json")"
    dups=$(sqlite3 "$d/hunt.db" "SELECT count(*) FROM (SELECT k, config FROM hunt_runs GROUP BY k, config HAVING count(*) > 1)")
    [ "$dups" = 0 ] || fail "round $round: $dups configurations recorded twice"
    if [ "$order" = enum ]; then
        sqlite3 "$d/hunt.db" "SELECT k, test FROM hunt_runs WHERE config = 0 ORDER BY k" >"$d.tests"
        cmp -s "$d.tests" "$tmp/ref.tests" || fail "round $round: the resumed enumeration's tests differ: $(diff "$d.tests" "$tmp/ref.tests" | head -3)"
    fi
done
[ "$fails" = 0 ] && echo "ok: hunt killed $round times and resumed"
exit "$fails"
