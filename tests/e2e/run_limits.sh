#!/bin/sh
# Time limits and interrupts with the real runtime: a run far longer than
# --timeout is stopped, its partial histogram printed (counts still adding
# up) and the next test run; SIGINT to litmusc does the same and stops;
# --time lets the runner stop by itself without an error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
ex="$here/../../examples"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# sum_ok FILE TEST: the histogram lines of TEST's block sum to its iterations.
sum_ok() {
    awk -v t="$2" '
        $1 == "Test" { on = ($2 == t) }
        on && /^[0-9]+ *[:*]>/ { sub(/[:*]>.*/, ""); s += $1 }
        $1 == "Config" && $2 == t { for (i = 3; i <= NF; i++) if ($i ~ /^iterations=/) { sub("iterations=", "", $i); it = $i } }
        END { exit !(it != "" && s == it && it > 0) }' "$1"
}

SB="$ex/x86/SB.litmus"
SBF="$ex/x86/SB+mfences.litmus"
# Warm the cache so that the limits below time the runs, not the builds.
"$L" run -s 10 -r 1 "$SB" "$SBF" >/dev/null 2>&1

# 1G iterations cannot finish in 2 s: stopped, partial, next test runs.
start=$(date +%s)
"$L" run -s 1000000 -r 1000 --timeout 2 "$SB" "$SBF" >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(( $(date +%s) - start ))
[ "$rc" -eq 3 ] || fail "time limit: exit $rc, want 3: $(cat "$tmp/err")"
[ "$took" -lt 20 ] || fail "two 2 s limits took $took s"
grep -q "^Status SB timed out after 2 s: partial histogram" "$tmp/out" || fail "SB not marked as timed out"
grep -q "^Verdict SB Partial: every state observed in the [0-9]* iterations run before it stopped" "$tmp/out" ||
    grep -q "^Verdict SB FORBIDDEN" "$tmp/out" || fail "a timed-out run's verdict does not say it is partial"
grep -q "^Status SB+mfences timed out after 2 s" "$tmp/out" || fail "the next test did not run to its own limit"
sum_ok "$tmp/out" SB || fail "partial histogram of SB does not add up"
grep -q "SB: timed out after 2 s" "$tmp/err" || fail "time-out not reported on stderr"

# SIGINT: the runner stops, its histogram is printed, no further test starts.
"$L" run -s 1000000 -r 1000 --timeout 60 "$SB" "$SBF" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 3 ] || fail "SIGINT: exit $rc, want 3"
grep -q "^Status SB interrupted: partial histogram" "$tmp/out" || fail "SIGINT: no partial histogram: $(cat "$tmp/err")"
grep -q "^Verdict SB Partial: " "$tmp/out" || fail "SIGINT: the verdict does not say it is partial"
sum_ok "$tmp/out" SB || fail "SIGINT: partial histogram does not add up"
grep -q "^Test SB+mfences" "$tmp/out" && fail "SIGINT: the next test started"

# --time: the runner stops at a run boundary by itself; that is no error.
"$L" run -s 100000 -r 100000 --time 1 --timeout 60 "$SB" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "--time: exit $rc, want 0: $(cat "$tmp/err")"
sum_ok "$tmp/out" SB || fail "--time: histogram does not add up"
grep -q "^Verdict SB Ok" "$tmp/out" || fail "--time: no verdict"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "run_limits: ok"
