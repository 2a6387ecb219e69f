#!/bin/sh
# litmusc run: usage errors, bad input, a missing compiler, --filter,
# --json, --xml and the build cache, on examples/x86/SB.litmus.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
ex="$here/../../examples"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS PATTERN-ON-STDERR CMD...
expect() {
    want=$1 pat=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    [ "$got" -eq "$want" ] || fail "$* exited $got, want $want: $(head -3 "$tmp/err")"
    [ -z "$pat" ] || grep -q -- "$pat" "$tmp/err" || fail "$*: stderr lacks '$pat': $(head -3 "$tmp/err")"
}

SB="$ex/x86/SB.litmus"
expect 2 "no test files" "$L" run
expect 2 "unknown target 'arm'" "$L" run --target arm "$SB"
expect 2 "needs a count" "$L" run -s 10x "$SB"
expect 2 "needs a count" "$L" run -r -5 "$SB"
expect 2 "-r must be positive" "$L" run -r 0 "$SB"
expect 2 "-s must be positive" "$L" run -s 0 "$SB"
expect 2 "unknown mode 'fast'" "$L" run --sync fast "$SB"
expect 2 "unknown mode 'x'" "$L" run --layout x "$SB"
expect 2 "unknown mode 'all'" "$L" run --affinity all "$SB"
expect 2 "positive number of seconds" "$L" run --timeout 0 "$SB"
expect 2 "unknown option" "$L" run --frobnicate "$SB"
expect 2 "chunk needs a count" "$L" run --chunk x "$SB"
expect 2 "period needs a number of ticks or auto" "$L" run --period soon "$SB"
expect 2 "period must be positive" "$L" run --period 0 "$SB"
expect 2 "delay needs a number of ticks or auto" "$L" run --delay -3 "$SB"
# The Java target shares the parser: its values are checked the same way.
expect 2 "needs a count" "$L" run --target java -s 12x "$SB"
expect 2 "positive number of seconds" "$L" run --target java --timeout 0 "$SB"
expect 2 "no test files" "$L" run --target java
"$L" run --target java --layout packed --sync loose --chunk 9 "$tmp/none.litmus" >/dev/null 2>"$tmp/err"
grep -q -- "--layout does not apply" "$tmp/err" && grep -q -- "--chunk does not apply" "$tmp/err" &&
    ! grep -q -- "--sync does not apply" "$tmp/err" || fail "java target: native-only options: $(cat "$tmp/err")"
expect 0 "" "$L" run --help
grep -q "usage: litmusc run" "$tmp/out" || fail "--help prints no usage"
# A bad pattern is reported with its column.
expect 2 "--filter:1:4: error: bad pattern 'SB('" "$L" run --filter 'SB(' "$SB"
# A missing file and a malformed test: file:line:col, status 2, nothing on stdout.
expect 2 "nonexistent.litmus" "$L" run "$tmp/nonexistent.litmus"
printf 'X86 Bad\n{ x=0; }\n P0 ;\n FROB [x],$1 ;\nexists (x=1)\n' >"$tmp/bad.litmus"
expect 2 "bad.litmus:[0-9]*:[0-9]*: error:" "$L" run "$tmp/bad.litmus"
[ -s "$tmp/out" ] && fail "bad input printed on stdout: $(head -2 "$tmp/out")"
# No compiler: an environment failure (3), said plainly, no report left.
expect 3 "compiler 'litmusc-no-such-cc' not found" "$L" run --cc litmusc-no-such-cc --xml "$tmp/r.xml" "$SB"
# The filter selects by name; nothing matching is an error.
expect 2 "no test matches" "$L" run -s 100 -r 1 --filter '^MP$' "$SB"
expect 0 "" "$L" run -s 100 -r 1 --filter '^S' "$SB" "$ex/x86/MP.litmus"
grep -q "^Test SB Allowed" "$tmp/out" || fail "--filter '^S' dropped SB"
grep -q "^Test MP " "$tmp/out" && fail "--filter '^S' kept MP"

# A normal run: the log, then the verdict; the build is cached the second time.
expect 0 "" "$L" run --cache-dir "$tmp/c1" -s 1000 -r 2 --sync loose --layout packed --affinity none --xml "$tmp/r.xml" "$SB"
for pat in "^Test SB Allowed$" "^Histogram ([1-4] states\?)$" "^Witnesses$" "^Positive: [0-9]*, Negative: [0-9]*$" \
    "^Condition exists (0:EAX=0 /\\\\ 1:EAX=0) is \(NOT \)\?validated$" "^Hash=" "^Observation SB \(Never\|Sometimes\|Always\) [0-9]* [0-9]*$" \
    "^Time SB [0-9]*\.[0-9][0-9]$" "^Model SB x86tso 4 states, observation Sometimes 1 3$" "^Config SB target=x86 S=1000 R=2 .*sync=loose" \
    "layout=packed" "affinity=none" "iterations=2000" "^Machine SB cpu=.* cores=[0-9]* compiler=" 'build="built in' \
    "^Verdict SB Ok: every observed state is allowed by x86tso"; do
    grep -q -- "$pat" "$tmp/out" || fail "run log lacks '$pat'"
done
# Counts add up in the log itself.
sum=$(awk '/^[0-9]+ *[:*]>/ { sub(/[:*]>.*/, ""); s += $1 } END { print s }' "$tmp/out")
[ "$sum" = 2000 ] || fail "histogram counts sum to $sum, not 2000"
grep -q '<testcase classname="litmusc.x86.x86tso" name="SB"' "$tmp/r.xml" || fail "XML report lacks the SB testcase"
grep -q 'failures="0"' "$tmp/r.xml" || fail "XML report counts failures"
[ -n "$(ls "$tmp/c1")" ] || fail "--cache-dir left its folder empty"
# Run options are not part of the build: other S/R/sync reuse the runner.
expect 0 "" "$L" run --cache-dir "$tmp/c1" -s 100 -r 1 --sync user "$SB"
grep -q 'build="cached"' "$tmp/out" || fail "second run of the same test was not served from the cache"
grep -q "^Config SB .*sync=user" "$tmp/out" || fail "--sync user did not reach the runner"
# The default sync is timebase with an adaptive period; fixed values reach the runner.
expect 0 "" "$L" run --cache-dir "$tmp/c1" -s 1000 -r 3 "$SB"
grep -q "^Config SB .*sync=timebase .*chunk=96 period=auto [1-9][0-9]* delay=auto aligned=[01]\.[0-9]* " "$tmp/out" ||
    fail "default run: no timebase configuration: $(grep '^Config' "$tmp/out")"
expect 0 "" "$L" run --cache-dir "$tmp/c1" -s 1000 -r 2 --chunk 8 --period 5000 --delay 7 "$SB"
grep -q "^Config SB .*chunk=8 period=5000 delay=7 " "$tmp/out" ||
    fail "--chunk/--period/--delay did not reach the runner: $(grep '^Config' "$tmp/out")"

# --json: one object (schema litmusc/1), one result per test.
expect 0 "" "$L" run --json -s 500 -r 1 "$SB" "$ex/x86/MP.litmus"
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/out" <<'PY' || fail "--json output is not the expected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "litmusc/1" and d["command"] == "run", d
r = d["results"]
assert [t["test"] for t in r] == ["SB", "MP"], r
for t in r:
    run = t["run"]
    assert run["iterations"] == sum(s["count"] for s in run["histogram"]) == 500, t
    assert run["forbidden_states"] == 0 and t["verdict"] == "ok" and run["status"] == "done", t
    assert t["model"]["name"] == "x86tso" and run["target"] == "x86", t
    assert run["config"]["size"] == 500 and run["config"]["runs"] == 1, run["config"]
PY
else
    grep -q '"schema":"litmusc/1"' "$tmp/out" && grep -q '"test":"MP"' "$tmp/out" || fail "--json output"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "run_cli: ok"
