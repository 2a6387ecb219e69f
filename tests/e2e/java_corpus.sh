#!/bin/sh
# Every Java test of the corpus on the standalone Java runner, in one JVM,
# with small iteration counts: no observed state may fall outside the
# test's behaviour set under jam21, every test must report a result, and
# every histogram must add up to the iterations run.  The C catalogue tests
# run alongside, under rc11 (their orders mapped to VarHandle modes must
# not show anything rc11 forbids).  Needs a JDK.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
corpus="$(cd "$(dirname "$0")/../../../shared/corpus" && pwd)" || { echo "FAIL: no corpus"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
{ find "$corpus/java" -name '*.litmus'; find "$corpus/c11/catalogue" -name '*.litmus'; } | sort > "$tmp/all"
# leave out tests herd itself rejects (no verdict): litmusc refuses them too
: > "$tmp/files"
while read -r f; do
    case $f in */java/*) m=jam21 ;; *) m=rc11 ;; esac
    [ -s "${f%.litmus}.$m.herd" ] && echo "$f" >> "$tmp/files"
done < "$tmp/all"
n=$(wc -l < "$tmp/files")
[ "$n" -gt 0 ] || { echo "FAIL: no tests under $corpus"; exit 1; }
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
[ "$fail" -eq 0 ] && echo "java_corpus: $n tests (Java under jam21, C catalogue under rc11), none outside its behaviour set"
exit "$fail"
