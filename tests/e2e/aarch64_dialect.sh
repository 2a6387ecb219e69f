#!/bin/sh
# herd's AArch64 dialect: the tests of tests/aarch64_dialect round-trip
# through `parse --check` and give herd7's states and verdict under the
# aarch64 model (their NAME.aarch64.herd); every test of tests/aarch64
# (herd's own) either parses and round-trips or is refused with one
# file:line:col: error line naming what is not supported, exit 2; and
# `run`, `run --target aarch64` and `emit --target c11` refuse AArch64
# tests by name; a mixed-size test is refused at its access.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fail=0

# The States lines, the Ok/No line and the Observation's name and verdict.
digest() {
    awk '/^States/ { on = 1 } on && !/^(Witnesses|Positive|Condition|Observation|Hash|Flag|Time)/ { print }
         /^(Ok|No)$/ { on = 0 } /^Observation/ { print $1, $2, $3 }' "$1"
}

n=0
for f in "$here"/aarch64_dialect/*.litmus; do
    name=$(basename "$f" .litmus)
    n=$((n + 1))
    "$L" parse --check "$f" > /dev/null 2> "$tmp/err" || { echo "FAIL: $name: parse --check: $(head -c 300 "$tmp/err")"; fail=1; }
    "$L" model "$f" > "$tmp/out" 2> "$tmp/err" || { echo "FAIL: $name: model: $(head -c 300 "$tmp/err")"; fail=1; continue; }
    digest "$tmp/out" > "$tmp/got"
    digest "$here/aarch64_dialect/$name.aarch64.herd" > "$tmp/want"
    if ! cmp -s "$tmp/want" "$tmp/got"; then
        echo "FAIL: $name: litmusc's states and verdict differ from herd7's"
        diff "$tmp/want" "$tmp/got" | head -10 | sed 's/^/    /'
        fail=1
    fi
done
[ "$n" -ge 9 ] || { echo "FAIL: only $n tests in tests/aarch64_dialect"; fail=1; }

# herd's own tests: parsed (and round-tripped) or refused at a position;
# every third of them unless CORPUS_ALL=1.
# Test F's IR appended to all.ir, a blank line between tests as `ir` prints them.
add_ir() {
    "$L" ir "$1" > "$tmp/one.ir" 2> "$tmp/err" || return 1
    [ -s "$tmp/all.ir" ] && echo >> "$tmp/all.ir"
    cat "$tmp/one.ir" >> "$tmp/all.ir"
}

parsed=0
refused=0
lowered=0
k=0
for f in "$here"/aarch64_dialect/*.litmus; do
    add_ir "$f" || { echo "FAIL: $(basename "$f"): ir: $(head -c 300 "$tmp/err")"; fail=1; }
done
for f in "$here"/aarch64/catalogue/*.litmus "$here"/aarch64/instructions/*.litmus; do
    [ -f "$f" ] || continue
    k=$((k + 1))
    [ "${CORPUS_ALL:-0}" = 1 ] || [ $((k % 3)) -eq 0 ] || continue
    "$L" parse --check "$f" > /dev/null 2> "$tmp/err"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        parsed=$((parsed + 1))
        # lowered to IR, or refused by the lowering at a position (arrays, loops)
        if add_ir "$f"; then
            lowered=$((lowered + 1))
        elif ! grep -Eq "^litmusc ir: .*:[0-9]+:[0-9]+: error: " "$tmp/err"; then
            echo "FAIL: $(basename "$f"): litmusc ir: $(head -c 300 "$tmp/err")"
            fail=1
        fi
        continue
    fi
    base=$(basename "$f")
    if [ "$rc" -ne 2 ] || [ "$(grep -c '' "$tmp/err")" -ne 1 ] ||
       ! grep -Eq "^litmusc parse: .*$base:[0-9]+:[0-9]+: error: " "$tmp/err"; then
        echo "FAIL: $base: neither parsed nor refused at a position (exit $rc): $(head -c 300 "$tmp/err")"
        fail=1
    fi
    refused=$((refused + 1))
done
echo "aarch64_dialect: herd's AArch64 tests: $parsed parsed ($lowered lowered), $refused refused by name"

# The IR of all of them reads back to the same text (excl, noret, select,
# the AArch64 modes and barriers).
if ! "$L" ir --read "$tmp/all.ir" > "$tmp/again.ir" 2> "$tmp/err"; then
    echo "FAIL: ir --read: $(head -c 300 "$tmp/err")"
    fail=1
elif ! cmp -s "$tmp/all.ir" "$tmp/again.ir"; then
    echo "FAIL: AArch64 IR: print -> read -> print differs"
    diff "$tmp/all.ir" "$tmp/again.ir" | head -10 | sed 's/^/    /'
    fail=1
fi

# One location accessed with two sizes (herd7 refuses it without
# -variant mixed): refused at the second access, exit 2, nothing written.
printf 'AArch64 mixed\n{ 0:X1=x; 1:X1=x; }\n P0 | P1 ;\n MOV W0,#1 | LDRB W0,[X1] ;\n STR W0,[X1] | ;\nexists (1:X0=1)\n' \
    > "$tmp/mixed.litmus"
(cd "$tmp" && "$L" model mixed.litmus > out 2> err)
rc=$?
want="litmusc model: mixed.litmus:4:14: error: mixed-size access to x (1 byte here, 4 at line 5): outside litmusc's AArch64 dialect"
[ "$rc" -eq 2 ] && [ "$(cat "$tmp/err")" = "$want" ] && ! [ -s "$tmp/out" ] ||
    { echo "FAIL: a mixed-size test: exit $rc: $(head -c 300 "$tmp/err")"; fail=1; }

# No native AArch64 runner here: refused by name, exit 2, nothing written.
t="$here/aarch64_dialect/MP+dmb+addr.litmus"
for args in "run" "run --target c11" "emit --target c11"; do
    # shellcheck disable=SC2086
    "$L" $args "$t" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] && grep -q "AArch64" "$tmp/err" && ! [ -s "$tmp/out" ] ||
        { echo "FAIL: $args on an AArch64 test: exit $rc: $(head -c 300 "$tmp/err")"; fail=1; }
done
"$L" run --target aarch64 "$t" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "no native AArch64 runner" "$tmp/err" ||
    { echo "FAIL: run --target aarch64: exit $rc: $(head -c 300 "$tmp/err")"; fail=1; }
exit $fail
