#!/bin/sh
# check: long
# A bug only a --mix configuration shows is reduced with the mix (no
# thread dropped, each compiled by the configuration of its number),
# bisected once per compiler of the mix, and confirmed twice: the object
# the hunt lifted and the minimal test compiled alone, report.md naming
# each.  A clang bisection's BISECT: lines stay out of the terminal.
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
command -v objcopy >/dev/null 2>&1 || { echo "SKIP: no objcopy to link a mix's objects"; exit 77; }
# seq_cst SB only: the broken compiler's missing fence in one thread is enough
sb="PodWRScSc FreScSc"
"$L" hunt --cc "$broken" --cc gcc --cflags -O2 --mix --edges "$sb" --max-tests 1 --max-bugs 2 \
    --confirm-time 1s -o "$tmp/m" >"$tmp/m.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "mix hunt: exit $rc, not 1: $(tail -3 "$tmp/m.out")"
md=$(grep -l '^# Bug [0-9a-f]*: mix(' "$tmp"/m/bugs/*/report.md 2>/dev/null | head -1)
if [ -z "$md" ]; then
    fail "no bug of the mixed configuration: $(ls "$tmp/m/bugs" 2>&1)"
else
    dir=$(dirname "$md")
    grep -q '^Reduced in [0-9]* tries from 2 threads .* to 2 and .*no thread dropped' "$md" ||
        fail "the mix's bug is not reduced with its threads kept: $(grep -A1 '^## Minimal test' "$md" | tail -1)"
    [ -f "$dir/minimal.litmus" ] || fail "the mix's bug has no minimal.litmus"
    grep -q "^  - P[01], compiled by \`gcc -O2\`: " "$md" || fail "gcc's threads of the mix not bisected: $(grep culprit "$md")"
    grep -q "^  - P[01], compiled by \`$broken -O2\`: " "$md" ||
        fail "the broken compiler's threads of the mix not bisected: $(grep culprit "$md")"
    grep -q '^- hardware, the object the hunt lifted (the test as found' "$md" || fail "report.md: no count for the found object"
    grep -q '^- hardware, the minimal test compiled alone (its own state above): the forbidden state [0-9]* times' "$md" ||
        fail "report.md: the minimal test's object did not run: $(grep '^- hardware, the minimal' "$md")"
    grep -q '"mix":\[{"threads":"P' "$tmp/m/report.json" || fail "report.json: no bisection per compiler of the mix"
    grep -q '"confirm_minimal":{"ok":true' "$tmp/m/report.json" || fail "report.json: the minimal test not confirmed"
fi
if python3 -c 'import jsonschema' >/dev/null 2>&1; then
    python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
        "$here/../../hunt/hunt-report.schema.json" "$tmp/m/report.json" 2>"$tmp/schema.err" ||
        fail "report.json does not follow hunt/hunt-report.schema.json: $(tail -3 "$tmp/schema.err")"
fi

# clang's bisection: the pass found, and none of its listing on the terminal
if command -v clang >/dev/null 2>&1; then
    BROKEN_CC_BASE=clang BROKEN_CC_PASS=5 "$L" hunt --cc "$broken" --cflags -O2 --edges "$sb" --max-tests 1 \
        --max-bugs 1 --confirm-time 1s -o "$tmp/c" >"$tmp/c.out" 2>"$tmp/c.err"
    rc=$?
    [ "$rc" = 1 ] || fail "clang hunt: exit $rc, not 1: $(tail -3 "$tmp/c.err")"
    grep -q '"culprit":"pass ' "$tmp/c/report.json" || fail "clang's pass not found: $(grep -o '"culprit":"[^"]*"' "$tmp/c/report.json")"
    if grep -q 'BISECT:' "$tmp/c.out" "$tmp/c.err"; then
        fail "clang's BISECT: lines reached the terminal: $(grep -c 'BISECT:' "$tmp/c.err") on stderr"
    fi
else
    echo "SKIP: no clang: its bisection not checked"
fi
[ "$fails" = 0 ] && echo "ok: hunt mix bugs"
exit "$fails"
