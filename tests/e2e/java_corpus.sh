#!/bin/sh
# Every Java test of the corpus on the standalone Java runner, in one JVM,
# with small iteration counts: no observed state may fall outside the
# test's behaviour set under jam21, every test must report a result, and
# every histogram must add up to the iterations run.  The C catalogue tests
# (shared corpus) and the classic C tests (tests/corpus) run alongside,
# under rc11 (their orders mapped to VarHandle modes must not show anything
# rc11 forbids), but for those with an address dependency, which Java
# cannot express.  Needs a JDK.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
. "$(dirname "$0")/../corpora.sh"
command -v javac >/dev/null 2>&1 && command -v java >/dev/null 2>&1 || { echo "SKIP: no JDK (javac and java) on PATH"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
for corpus in $(corpora); do
    find "$corpus/java" -name '*.litmus'
    find "$corpus/c11/catalogue" "$corpus/c11/classic" -name '*.litmus' 2>/dev/null |
        while read -r f; do grep -q '[a-z][0-9]* + (r[0-9]* & 128)' "$f" || echo "$f"; done
done | sort > "$tmp/all"
# leave out tests herd itself rejects (no verdict): litmusc refuses them too
: > "$tmp/files"
while read -r f; do
    case $f in */java/*) m=jam21 ;; *) m=rc11 ;; esac
    [ -s "${f%.litmus}.$m.herd" ] && echo "$f" >> "$tmp/files"
done < "$tmp/all"
n=$(wc -l < "$tmp/files")
[ "$n" -gt 100 ] || { echo "FAIL: only $n tests"; exit 1; }
S=${JAVA_CORPUS_S:-2000}
R=${JAVA_CORPUS_R:-4}
# shellcheck disable=SC2046
"$L" run --target java -s "$S" -r "$R" --timeout 60 $(cat "$tmp/files") \
    > "$tmp/log" 2> "$tmp/err"
st=$?
fail=0
if [ "$st" -ne 0 ]; then
    echo "FAIL: run --target java exited $st (1: a forbidden state was seen)"
    grep -B2 -A2 FORBIDDEN "$tmp/log" | head -40
    head -20 "$tmp/err"
    fail=1
fi
got=$(grep -c '^Observation ' "$tmp/log")
if [ "$got" -ne "$n" ]; then
    echo "FAIL: $got results for $n tests"
    fail=1
fi
bad=$(awk -v want=$((S * R)) '
    $1 == "Test" { if (name != "" && sum != want) print name, sum; name = $2; sum = 0 }
    /^[0-9]+ *[*:]>/ { sum += $1 }
    END { if (name != "" && sum != want) print name, sum }' "$tmp/log")
if [ -n "$bad" ]; then
    echo "FAIL: histograms that do not add up to $((S * R)):"
    echo "$bad" | head
    fail=1
fi
[ "$fail" -eq 0 ] && echo "java_corpus: $n tests (Java under jam21, C under rc11), none outside its behaviour set"
exit "$fail"
