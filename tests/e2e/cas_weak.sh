#!/bin/sh
# Weak and strong compare-exchange (tests/cas): the behaviour sets match
# the expected output exactly (herd7's for C), the native and Java runners
# stay inside them, and the x86 schemes compile them soundly (an x86 CAS
# never fails spuriously, so the compiled test has fewer behaviours).
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
dir="$here/../cas"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for expect in "$dir"/*.expect; do
    base=${expect%.expect}
    model=${base##*.}
    test=${base%.*}.litmus
    "$L" model --model "$model" "$test" 2>&1 | grep -v '^Time ' >"$tmp/out"
    diff -u "$expect" "$tmp/out" >"$tmp/diff" || fail "$(basename "$test") under $model: $(head -12 "$tmp/diff")"
done

# A weak CAS that fails spuriously shows up as a state of its own.
"$L" model "$dir/C-weak-cas-fails.litmus" | grep -q '^Observation C-weak-cas-fails Sometimes 1 1$' ||
    fail "C weak CAS: no spurious failure"
"$L" model "$dir/C-strong-cas.litmus" | grep -q '^Observation C-strong-cas Never 0 1$' ||
    fail "C strong CAS failed without a mismatch"

"$L" run -s 2000 -r 2 "$dir"/C-*.litmus >"$tmp/run" 2>&1 || fail "native run: $(grep -m3 -E 'FORBIDDEN|error' "$tmp/run")"
if command -v javac >/dev/null 2>&1; then
    "$L" run --target java -s 2000 -r 2 "$dir"/Java-*.litmus >"$tmp/jrun" 2>&1 ||
        fail "java run: $(grep -m3 -E 'FORBIDDEN|error' "$tmp/jrun")"
fi
"$L" check-scheme --scheme c11-x86-xchg "$dir"/C-*.litmus >"$tmp/cs" 2>&1 || fail "check-scheme C: $(tail -3 "$tmp/cs")"
"$L" check-scheme --scheme java-x86-hotspot "$dir"/Java-*.litmus >"$tmp/js" 2>&1 || fail "check-scheme Java: $(tail -3 "$tmp/js")"
"$L" emit --target c11 "$dir/C-weak-cas-fails.litmus" | grep -q 'v[0-9]* = (int64_t)atomic_compare_exchange_weak_explicit' ||
    fail "c11 target: the weak CAS's result is not its success"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "cas_weak: ok"
