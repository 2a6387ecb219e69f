#!/bin/sh
# Edges of the exit classes: a test with no locations (an X86 thread with
# no instructions) is modelled like any other (under `make check
# SANITIZE=1` this catches a VLA of size 0); `run --cpus 0` is bad usage
# (exit 2), not a failed runner (exit 3); `campaign merge` of a database
# into itself (by its name or a link) is bad input, exit 2 "the same
# database", not "database is locked".
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
sb="$here/../../examples/x86/SB.litmus"

printf 'X86 Z\n{ }\n P0 ;\nexists (true)\n' > "$tmp/z.litmus"
"$L" model "$tmp/z.litmus" > "$tmp/out" 2> "$tmp/err" || fail "model on a test without locations: exit $?: $(head -3 "$tmp/err")"
grep -q '^States 1$' "$tmp/out" || fail "model on a test without locations: $(head -3 "$tmp/out")"
grep -q 'runtime error' "$tmp/err" && fail "a sanitizer's complaint: $(grep 'runtime error' "$tmp/err" | head -1)"

"$L" run --cpus 0 -s 10 "$sb" > /dev/null 2> "$tmp/err"
st=$?
[ "$st" -eq 2 ] || fail "run --cpus 0: exit $st, want 2: $(head -1 "$tmp/err")"
grep -q -- "--cpus" "$tmp/err" || fail "run --cpus 0: no word of --cpus: $(head -1 "$tmp/err")"

if "$L" campaign run --db "$tmp/m.db" --quiet -s 10 -r 1 "$sb" > /dev/null 2>&1; then
    ln -s m.db "$tmp/l.db"
    for other in m.db l.db; do
        "$L" campaign merge "$tmp/m.db" "$tmp/$other" > /dev/null 2> "$tmp/err"
        st=$?
        [ "$st" -eq 2 ] || fail "campaign merge m.db $other: exit $st, want 2: $(head -1 "$tmp/err")"
        grep -q "the same database" "$tmp/err" || fail "campaign merge m.db $other: $(head -1 "$tmp/err")"
    done
else
    fail "campaign run for the merge"
fi
[ "$fails" -eq 0 ] || { echo "exit_edges: $fails failure(s)"; exit 1; }
echo "exit_edges: a test without locations, run --cpus 0, merge into itself"
