#!/bin/sh
# jls04 against sc on every Java test it accepts (tests/jls04, tests/corpus,
# ../shared/corpus when present): every sequentially consistent execution is
# a legal JLS04 execution (each read sees the write just before it, which
# happens before it or is committed first), so sc's states are a subset of
# jls04's; and a test whose shared accesses are all volatile is correctly
# synchronized, so there jls04's states are exactly sc's (JLS 17.4.5).
# Tests jls04 refuses (VarHandle modes: status 2) are counted, not failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${LITMUSC:?set LITMUSC to the litmusc program}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0 checked=0 equal=0 refused=0
# states MODEL FILE: the States lines of the herd block, sorted
states() {
    "$LITMUSC" model --model "$1" "$2" > "$tmp/block" 2> "$tmp/err"
    st=$?
    awk '/^States /{ n = $2; for (i = 0; i < n; i++) { getline; print } }' "$tmp/block" | sort
    return $st
}
dirs="$here/../jls04 $here/../corpus/java"
[ -d "$here/../../../shared/corpus/java" ] && dirs="$dirs $here/../../../shared/corpus/java"
for f in $(find $dirs -name '*.litmus' | sort); do
    states jls04 "$f" > "$tmp/j"
    st=$?
    if [ "$st" -eq 2 ]; then
        refused=$((refused + 1))
        continue
    fi
    if [ "$st" -ne 0 ]; then
        echo "FAIL: $f: jls04 status $st: $(cat "$tmp/err")"
        fails=$((fails + 1))
        continue
    fi
    states sc "$f" > "$tmp/s" || { echo "FAIL: $f: sc: $(cat "$tmp/err")"; fails=$((fails + 1)); continue; }
    checked=$((checked + 1))
    missing=$(comm -23 "$tmp/s" "$tmp/j")
    if [ -n "$missing" ]; then
        echo "FAIL: $f: sc allows states jls04 does not: $missing"
        fails=$((fails + 1))
    fi
    # All shared accesses volatile: no plain get/set left in the threads.
    if ! grep -Eq '\.(get|set)\(' "$f"; then
        equal=$((equal + 1))
        cmp -s "$tmp/s" "$tmp/j" || { echo "FAIL: $f: all volatile, yet jls04's states are not sc's"; fails=$((fails + 1)); }
    fi
done
[ "$checked" -ge 29 ] || { echo "FAIL: only $checked tests checked"; fails=$((fails + 1)); }
[ "$equal" -ge 3 ] || { echo "FAIL: only $equal all-volatile tests"; fails=$((fails + 1)); }
if [ "$fails" -ne 0 ]; then
    echo "jls04_sc: $fails failure(s)"
    exit 1
fi
echo "jls04_sc: ok ($checked tests: sc within jls04; $equal all volatile: equal; $refused refused as VarHandle tests)"
