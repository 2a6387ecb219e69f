#!/bin/sh
# check: long
# `litmusc hunt`: a deliberately broken compiler (tests/hunt/broken-cc:
# gcc whose assembly loses its fences and whose xchg stores become plain
# movs) is found from nothing and a bug folder is written, while real gcc
# -O2 over the same tests has no bug; the exit statuses of bad usage and a
# missing compiler; a second run of the same hunt repeats nothing.
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

# the broken compiler within a budget, from nothing (seed 1's first bug
# for it is test 39: three batches of 16, so --max-tests 48 ends the hunt
# there when the bug is found in time); the sanitized program (make
# SANITIZE=1, bin/litmusc-san) lifts and models each batch several times
# slower, so its budget is three times as long
case $L in *-san) budget=60 ;; *) budget=20 ;; esac
"$L" hunt --cc "$broken" --budget "${budget}s" --batch 16 --max-tests 48 --max-bugs 0 -o "$tmp/t" >"$tmp/t.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "broken compiler, --budget ${budget}s: exit $rc, not 1: $(tail -2 "$tmp/t.out")"

# the broken compiler: found, with a bug folder and report.json
"$L" hunt --cc "$broken" --cflags -O2 --max-tests 48 --max-bugs 1 --confirm-time 3s -o "$tmp/b" \
    >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
[ "$rc" = 1 ] || fail "broken compiler: exit $rc, not 1: $(tail -3 "$tmp/b.err")"
grep -q '^hunt: 48 tests, 48 configurations (48 compiled, 48 lifted' "$tmp/b.out" ||
    fail "broken compiler: summary: $(head -1 "$tmp/b.out")"
n=$(ls "$tmp/b/bugs" 2>/dev/null | wc -l)
[ "$n" = 1 ] || fail "broken compiler: $n bug folders, not 1 (--max-bugs 1)"
bug=$(ls "$tmp/b/bugs" | head -1)
for f in report.md test.litmus lifted.litmus; do
    [ -s "$tmp/b/bugs/$bug/$f" ] || fail "bug folder $bug has no $f"
done
grep -q '^- forbidden state (as found): `' "$tmp/b/bugs/$bug/report.md" || fail "report.md names no forbidden state"
grep -q '^- compiler: `.*broken-cc` (gcc' "$tmp/b/bugs/$bug/report.md" || fail "report.md has no compiler version"
grep -q '^```asm' "$tmp/b/bugs/$bug/report.md" || fail "report.md shows no machine code"
# the lifted test reads back as X86_64
"$L" parse "$tmp/b/bugs/$bug/lifted.litmus" >/dev/null 2>&1 || fail "lifted.litmus does not parse"
grep -q '"schema":"litmusc-hunt/1"' "$tmp/b/report.json" || fail "report.json: no schema"
grep -q "\"id\":\"$bug\"" "$tmp/b/report.json" || fail "report.json does not list bug $bug"
for f in minimal.litmus repro.c; do
    [ -s "$tmp/b/bugs/$bug/$f" ] || fail "bug folder $bug has no $f"
done
# the planted bug is in no pass of the compiler proper, and this machine shows it
grep -q '"culprit":"not a pass of the compiler proper"' "$tmp/b/report.json" ||
    fail "bisection does not say 'not a pass': $(grep -o '"bisect":{[^}]*}' "$tmp/b/report.json")"
grep -q '^- hardware, the object the hunt lifted (the test as found[^:]*: the forbidden state [1-9][0-9]* times in' \
    "$tmp/b/bugs/$bug/report.md" ||
    echo "note: the forbidden state was not seen on this machine in 3 s: $(grep '^- hardware' "$tmp/b/bugs/$bug/report.md")"
# every step's outcome is said, done or not
for step in reduce bisect confirm confirm_minimal; do
    grep -q "\"$step\":{\"ok\":" "$tmp/b/report.json" || fail "report.json: no $step outcome"
done

# report.json against its schema (python's jsonschema, when there)
if python3 -c 'import jsonschema' >/dev/null 2>&1; then
    python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
        "$here/../../hunt/hunt-report.schema.json" "$tmp/b/report.json" 2>"$tmp/schema.err" ||
        fail "report.json does not follow hunt/hunt-report.schema.json: $(tail -3 "$tmp/schema.err")"
else
    echo "SKIP: no python3 jsonschema: report.json not validated"
fi

# --mix: each test once more with its threads from the two configurations
"$L" hunt --cc gcc --cc "$broken" --cflags -O2 --mix --max-tests 40 --max-bugs 0 -o "$tmp/x" >"$tmp/x.out" 2>&1
grep -q '^hunt: 40 tests, 120 configurations (120 compiled' "$tmp/x.out" || fail "--mix: $(head -1 "$tmp/x.out")"

# real gcc over the same stream: no bug
"$L" hunt --cc gcc --cflags -O2 --max-tests 48 -o "$tmp/g" >"$tmp/g.out" 2>"$tmp/g.err"
rc=$?
[ "$rc" = 0 ] || fail "gcc -O2: exit $rc, not 0: $(cat "$tmp/g.out") $(ls "$tmp/g/bugs")"
# the same again repeats nothing: no compiler call, the same totals
"$L" hunt --cc gcc --cflags -O2 --max-tests 48 -o "$tmp/g" >"$tmp/g2.out" 2>&1
grep -q '^hunt: 48 tests, 48 configurations' "$tmp/g2.out" || fail "resume: $(head -1 "$tmp/g2.out")"
grep -q ', 0 compiler calls' "$tmp/g2.out" || fail "resume compiled again: $(sed -n 2p "$tmp/g2.out")"
# another seed in the same folder is refused
"$L" hunt --cc gcc --cflags -O2 --seed 2 --max-tests 4 -o "$tmp/g" >/dev/null 2>"$tmp/seed.err"
rc=$?
[ "$rc" = 2 ] || fail "another seed in the same folder: exit $rc, not 2"
# and another order: test k would be another test
"$L" hunt --cc gcc --cflags -O2 --order enum --max-tests 4 -o "$tmp/g" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] || fail "--order enum in a drawn hunt's folder: exit $rc, not 2"
"$L" hunt --cc gcc --order sorted -o "$tmp/o" >/dev/null 2>&1
[ $? = 2 ] || fail "--order sorted: not exit 2"

# bad usage and a missing compiler
"$L" hunt --cc gcc --budget 10x -o "$tmp/u" >/dev/null 2>&1
[ $? = 2 ] || fail "--budget 10x: not exit 2"
"$L" hunt --cc gcc >/dev/null 2>&1
[ $? = 2 ] || fail "no -o: not exit 2"
# a 33rd flag set is refused, not dropped (hunt and cc-check share the walk)
many=""
for i in $(seq 33); do many="$many --cflags -O$((i % 4))"; done
for cmd in "hunt -o $tmp/many" "cc-check $tmp/none.litmus"; do
    # shellcheck disable=SC2086
    "$L" $cmd $many >/dev/null 2>"$tmp/many.err"
    rc=$?
    [ "$rc" = 2 ] || fail "${cmd%% *} with 33 --cflags: exit $rc, not 2"
    grep -q "more than 32 --cflags" "$tmp/many.err" || fail "${cmd%% *} with 33 --cflags: $(head -1 "$tmp/many.err")"
done
[ -e "$tmp/many" ] && fail "hunt with 33 --cflags made its folder"
"$L" hunt --cc "$tmp/no-such-cc" --max-tests 2 -o "$tmp/m" >/dev/null 2>"$tmp/m.err"
rc=$?
[ "$rc" = 3 ] || fail "missing compiler: exit $rc, not 3"
grep -q "no-such-cc" "$tmp/m.err" || fail "missing compiler: not named: $(cat "$tmp/m.err")"

[ "$fails" = 0 ] && echo "ok: hunt"
exit "$fails"
