#!/bin/sh
# herd's test hash: for every corpus test with a herd7 verdict, the hash
# `litmusc parse --hash` computes must equal the Hash= line herd printed
# (no corpus test carries a Hash= info line, so herd computed them all).
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
. "$(dirname "$0")/../corpora.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
check() {
    corpus=$1
    fail=0
    # "path/NAME.MODEL.herd:Hash=H" -> "path/NAME.litmus H", one per test
    find "$corpus" -name '*.herd' | sort | xargs grep -H '^Hash=' |
        sed 's/\.[^./]*\.herd:Hash=/.litmus /' | sort -u -k1,1 > "$tmp/want"
    n=$(wc -l < "$tmp/want")
    [ "$n" -ge "$(corpus_min "$corpus")" ] || { echo "FAIL: only $n tests with a herd hash in $corpus"; return 1; }
    cut -d' ' -f1 "$tmp/want" | xargs "$L" parse --hash > "$tmp/got" 2> "$tmp/err" ||
        { echo "FAIL: parse --hash:"; head "$tmp/err"; fail=1; }
    awk '{print $2}' "$tmp/got" > "$tmp/got_hash"
    paste -d' ' "$tmp/want" "$tmp/got_hash" |
        awk '$2 != $3 {print "FAIL: " $1 ": herd " $2 ", litmusc " $3; bad++} END {exit bad > 0}' || fail=1
    same=$(paste -d' ' "$tmp/want" "$tmp/got_hash" | awk '$2 == $3' | wc -l)
    echo "parse_hash $(corpus_label "$corpus"): $same of $n hashes equal herd's"
    return $fail
}
for c in $(corpora); do
    check "$c" || status=1
done
exit $status
