#!/bin/sh
# `litmusc parse` over every corpus (x86, c11, java): every test
# parses, and with --check the printed form parses back to an equal tree
# whose printing is the same text (parse -> print -> parse -> print).
# A sample also goes through the command line twice, file to file.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
. "$(dirname "$0")/../corpora.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
check() {
    corpus=$1
    fail=0
    find "$corpus" -name '*.litmus' | sort > "$tmp/list"
    total=$(wc -l < "$tmp/list")
    [ "$total" -ge "$(corpus_min "$corpus")" ] || { echo "FAIL: only $total tests found in $corpus"; return 1; }
    if ! xargs "$L" parse --check < "$tmp/list" > "$tmp/all.out" 2> "$tmp/all.err"; then
        echo "FAIL: parse --check over $(corpus_label "$corpus"):"; head -20 "$tmp/all.err"; fail=1
    fi
    [ -s "$tmp/all.err" ] && { echo "FAIL: messages on stderr:"; head -5 "$tmp/all.err"; fail=1; }
    printed=$(grep -c -E '^(X86|X86_64|C|Java|JAVA) ' "$tmp/all.out")
    [ "$printed" -eq "$total" ] || { echo "FAIL: $printed tests printed, $total in the corpus"; fail=1; }
    # every 15th test through the command line: file -> text -> file -> text
    bad=0
    awk 'NR % 15 == 1' "$tmp/list" > "$tmp/sample"
    while read -r f; do
        "$L" parse "$f" > "$tmp/p1.litmus" 2> "$tmp/e1" || { echo "FAIL: $f: $(cat "$tmp/e1")"; bad=$((bad + 1)); continue; }
        "$L" parse "$tmp/p1.litmus" > "$tmp/p2.litmus" 2> "$tmp/e2" || { echo "FAIL: $f: printed form rejected: $(cat "$tmp/e2")"; bad=$((bad + 1)); continue; }
        if ! cmp -s "$tmp/p1.litmus" "$tmp/p2.litmus"; then
            echo "FAIL: $f: printing is not a fixed point"; diff "$tmp/p1.litmus" "$tmp/p2.litmus" | head -10; bad=$((bad + 1))
        fi
    done < "$tmp/sample"
    [ "$bad" -eq 0 ] || fail=1
    if [ $fail -eq 0 ]; then
        echo "parse_corpus $(corpus_label "$corpus"): $total tests parsed and round-tripped; $(wc -l < "$tmp/sample") also file to file"
    else
        echo "parse_corpus $(corpus_label "$corpus"): FAILED ($printed of $total printed; $bad of $(wc -l < "$tmp/sample") file-to-file round trips failed)"
    fi
    return $fail
}
for c in $(corpora); do
    check "$c" || status=1
done
exit $status
