#!/bin/sh
# check: long
# `litmusc hunt --target aarch64`: a cross compiler that drops dmb and
# turns ldar into ldr (tests/cc/a64-broken-cc.sh) is found from nothing
# in the first 32 tests of seed 1 (the first forbidden state is test 17);
# each bug's minimal test is forbidden under
# rc11-lb (the source model of the target), its report says plainly that
# no confirmation ran off an AArch64 machine and repro.c is written all
# the same; the hunt's database refuses a resume for another target; and
# Debian's aarch64-linux-gnu-gcc -O2 over the first 64 tests has no bug.
# The budgets are only a bound: the test counts end each hunt.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
broken="$here/../cc/a64-broken-cc.sh"
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
# cc-check's probe, as tests/e2e/cc_aarch64.sh decides: a build without
# LLVM cannot read AArch64 objects back
"$L" cc-check --target aarch64 --target-model sc "$here/../corpus/c11/classic/SB+poscscs.litmus" \
    >/dev/null 2>"$tmp/probe"
grep -q "built without LLVM" "$tmp/probe" && { echo "SKIP: litmusc was built without LLVM"; exit 77; }
"$L" models 2>/dev/null | grep -qw aarch64 || { echo "SKIP: litmusc has no aarch64 model"; exit 77; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# the sanitized program (bin/litmusc-san) lifts and models several times
# slower: its bound is three times as long
case $L in *-san) budget=180 ;; *) budget=60 ;; esac

# the broken compiler, from nothing
"$L" hunt --target aarch64 --cc "$broken" --budget "${budget}s" --max-tests 32 --max-bugs 2 -o "$tmp/b" >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
[ "$rc" = 1 ] || fail "broken compiler: exit $rc, not 1: $(tail -3 "$tmp/b.err")"
n=$(ls "$tmp/b/bugs" 2>/dev/null | wc -l)
[ "$n" -ge 1 ] || fail "broken compiler: no bug folder: $(head -1 "$tmp/b.out")"
grep -q '"target":"aarch64","source_model":"rc11-lb","lifted_model":"aarch64"' "$tmp/b/report.json" ||
    fail "report.json does not name the target and its models"
for bug in $(ls "$tmp/b/bugs" 2>/dev/null); do
    f="$tmp/b/bugs/$bug"
    for x in report.md minimal.litmus lifted.litmus repro.c; do
        [ -s "$f/$x" ] || fail "bug $bug has no $x"
    done
    head -1 "$f/lifted.litmus" | grep -q '^AArch64 ' || fail "bug $bug: lifted.litmus is not an AArch64 test"
    # the minimal test's condition is the forbidden state: never under rc11-lb
    "$L" model --model rc11-lb "$f/minimal.litmus" >"$tmp/m.out" 2>&1
    grep -q '^Observation .* Never ' "$tmp/m.out" ||
        fail "bug $bug: the minimal test is not forbidden under rc11-lb: $(grep '^Observation' "$tmp/m.out")"
    grep -q '^- target: aarch64 (the source judged under rc11-lb, the lifted test under aarch64)' "$f/report.md" ||
        fail "bug $bug: report.md does not name the target"
    if [ "$(uname -m)" != aarch64 ]; then
        [ "$(grep -c 'not run: no AArch64 machine here' "$f/report.md")" = 2 ] ||
            fail "bug $bug: report.md does not say the confirmations did not run"
    fi
done
if [ "$(uname -m)" != aarch64 ]; then
    grep -q '"confirm":{"ok":false,"error":"no AArch64 machine here"}' "$tmp/b/report.json" ||
        fail "report.json does not say the confirmation did not run"
fi

# a resume for another target is refused, as one with another --order is
"$L" hunt --cc "$broken" --budget 1s -o "$tmp/b" >/dev/null 2>"$tmp/r.err"
rc=$?
[ "$rc" = 2 ] && grep -q 'holds a hunt of other parameters' "$tmp/r.err" ||
    fail "resume with --target x86_64: exit $rc, not 2: $(cat "$tmp/r.err")"

# the real cross compiler (the target's default) over 64 tests: none
"$L" hunt --target aarch64 --cflags -O2 --budget "${budget}s" --max-tests 64 -o "$tmp/g" >"$tmp/g.out" 2>"$tmp/g.err"
rc=$?
[ "$rc" = 0 ] || fail "aarch64-linux-gnu-gcc -O2: exit $rc, not 0: $(head -1 "$tmp/g.out") $(tail -2 "$tmp/g.err")"
grep -q '"compiler":"aarch64-linux-gnu-gcc"' "$tmp/g/report.json" ||
    fail "the default compiler for aarch64 is not aarch64-linux-gnu-gcc"
grep -q '^hunt: [1-9][0-9]* tests, .* 0 showed a forbidden state, 0 bugs' "$tmp/g.out" ||
    fail "aarch64-linux-gnu-gcc -O2: $(head -1 "$tmp/g.out")"

[ "$fails" = 0 ] || exit 1
echo "ok"
