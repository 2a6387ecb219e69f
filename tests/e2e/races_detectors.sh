#!/bin/sh
# litmusc races --detector all on every C test of the corpora (and the Java
# ones): each test has its `Nested` line and its counts never shrink from
# exact to lockset; the pairs themselves nest (every pair a detector lists
# the next wider one lists too, checked here from the Race lines, apart from
# the program's own check); exact lists what plain `races` lists; every pair
# some detector misses has its `Why` line; the exit status is 0 or 1 (3
# would be a nesting the program found broken).  A single detector prints
# only its own lines, and an unknown one is a usage error.
set -u
: "${LITMUSC:?set LITMUSC to the litmusc program}"
. "$(dirname "$0")/../corpora.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for corpus in $(corpora); do
    label=$(corpus_label "$corpus")
    for lang in c11 java; do
        [ -d "$corpus/$lang" ] || continue
        find "$corpus/$lang" -name '*.litmus' | sort > "$tmp/list"
        n=$(wc -l < "$tmp/list")
        [ "$n" -gt 0 ] || continue
        # shellcheck disable=SC2046
        "$LITMUSC" races --detector all $(cat "$tmp/list") > "$tmp/out" 2> "$tmp/err"
        rc=$?
        [ "$rc" -le 1 ] || fail "$label/$lang: races --detector all exited $rc: $(head -3 "$tmp/err")"
        got=$(grep -c '^Nested ' "$tmp/out")
        [ "$got" -eq "$n" ] || fail "$label/$lang: $got Nested lines for $n tests"
        awk '/^Nested / { if (!($4 <= $7 && $7 <= $10 && $10 <= $13)) print "counts shrink: " $0 }' \
            "$tmp/out" > "$tmp/bad"
        [ -s "$tmp/bad" ] && fail "$label/$lang: $(head -3 "$tmp/bad")"
        # pairs: "NAME SIDE <-> SIDE" per detector, "in execution K" cut
        sed -n 's/^Race \([^ ]*\) \([a-z]*\) \(.*\) in execution [0-9]*.*/\2 \1 \3/p' "$tmp/out" > "$tmp/pairs"
        prev=""
        for d in exact hb hybrid lockset; do
            sed -n "s/^$d //p" "$tmp/pairs" | sort -u > "$tmp/$d"
            if [ -n "$prev" ]; then
                comm -23 "$tmp/$prev" "$tmp/$d" > "$tmp/lost"
                [ -s "$tmp/lost" ] && fail "$label/$lang: $prev reports what $d does not: $(head -2 "$tmp/lost")"
            fi
            prev=$d
        done
        # every pair lockset lists but exact does not has its Why line
        comm -13 "$tmp/exact" "$tmp/lockset" > "$tmp/partial"
        sed -n 's/^Why \([^ ]*\) \(.*\): missed by .*/\1 \2/p' "$tmp/out" | sort -u > "$tmp/why"
        comm -23 "$tmp/partial" "$tmp/why" > "$tmp/nowhy"
        [ -s "$tmp/nowhy" ] && fail "$label/$lang: pairs without a Why line: $(head -2 "$tmp/nowhy")"
        # shellcheck disable=SC2046
        "$LITMUSC" races $(cat "$tmp/list") 2> /dev/null |
            sed -n 's/^Race \([^ ]*\) \(.*\) in execution [0-9]*.*/\1 \2/p' | sort -u > "$tmp/plain"
        cmp -s "$tmp/plain" "$tmp/exact" || fail "$label/$lang: exact differs from plain races"
        echo "$label/$lang: $n tests, pairs exact $(wc -l < "$tmp/exact") hb $(wc -l < "$tmp/hb")" \
             "hybrid $(wc -l < "$tmp/hybrid") lockset $(wc -l < "$tmp/lockset")"
    done
done

own="$corpora_root/tests/corpus"
f=$(ls "$own"/c11/na2/MP+ponarel+poconna.litmus)
"$LITMUSC" races --detector hb "$f" > "$tmp/one"
grep -q '^Race [^ ]* hybrid ' "$tmp/one" && fail "--detector hb prints the hybrid's pairs"
grep -q '^Races [^ ]* hb [0-9]*$' "$tmp/one" || fail "--detector hb has no Races line"
grep -q '^Nested ' "$tmp/one" || fail "--detector hb has no Nested line"
"$LITMUSC" races --detector eraser "$f" > "$tmp/o" 2> "$tmp/e"
rc=$?
[ "$rc" -eq 2 ] || fail "an unknown detector exits $rc, not 2"
grep -q "unknown detector 'eraser'" "$tmp/e" || fail "an unknown detector is not named: $(cat "$tmp/e")"
[ -s "$tmp/o" ] && fail "an unknown detector printed output"

[ "$fails" -eq 0 ] || exit 1
echo "races_detectors: ok"
