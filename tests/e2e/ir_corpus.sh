#!/bin/sh
# The IR on the whole corpus:
#  1. every corpus test lowers to IR that passes the verifier;
#  2. printing, reading the text back (litmusc ir --read) and printing again
#     gives the same bytes;
#  3. herd's normal form of each condition (ir_format_cond) equals the
#     `Condition` line of the test's herd7 verdict file, and the observables
#     in herd's order (ir_observables) are the items of its state lines.
# LITMUSC names the program under test.
set -u
: "${LITMUSC:?LITMUSC must name the litmusc program}"
. "$(dirname "$0")/../corpora.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0

check() {
    corpus=$1
    fail=0
    find "$corpus" -name '*.litmus' | sort > "$tmp/list"
    n=$(wc -l < "$tmp/list")
    if [ "$n" -lt "$(corpus_min "$corpus")" ]; then
        echo "FAIL: only $n corpus tests found in $corpus"
        return 1
    fi
    old_ifs=$IFS
    IFS='
    '
    set -- $(cat "$tmp/list")
    IFS=$old_ifs

    # 1. Lower everything (one process; it stops at the first bad file).
    if ! "$LITMUSC" ir "$@" > "$tmp/all.ir" 2> "$tmp/err"; then
        echo "FAIL: litmusc ir rejected a corpus test:"
        cat "$tmp/err"
        return 1
    fi
    got=$(grep -c '^test ' "$tmp/all.ir")
    if [ "$got" -ne "$n" ]; then
        echo "FAIL: $n tests lowered but $got printed"
        fail=1
    fi
    # Every printed test has at least one thread and ends with a condition.
    threads=$(grep -c '^thread ' "$tmp/all.ir")
    conds=$(grep -c '^cond ' "$tmp/all.ir")
    if [ "$conds" -ne "$n" ] || [ "$threads" -lt "$n" ]; then
        echo "FAIL: $conds conditions and $threads threads for $n tests"
        fail=1
    fi

    # 2. Round trip.
    if ! "$LITMUSC" ir --read "$tmp/all.ir" > "$tmp/again.ir" 2> "$tmp/err"; then
        echo "FAIL: litmusc ir --read rejected printed IR:"
        cat "$tmp/err"
        fail=1
    elif ! cmp -s "$tmp/all.ir" "$tmp/again.ir"; then
        echo "FAIL: print -> read -> print differs:"
        diff "$tmp/all.ir" "$tmp/again.ir" | head -20
        fail=1
    fi

    # 3. herd's condition and state items, against the verdict files.
    if ! "$LITMUSC" ir --cond --observables "$@" > "$tmp/forms" 2> "$tmp/err"; then
        echo "FAIL: litmusc ir --cond --observables:"
        cat "$tmp/err"
        return 1
    fi
    # Pair each test with its first non-empty verdict file (none: herd7 rejected it).
    while IFS= read -r f; do
        herd=""
        for h in "${f%.litmus}".*.herd; do
            if [ -s "$h" ]; then
                herd=$h
                break
            fi
        done
        printf '%s\t%s\n' "$f" "$herd"
    done < "$tmp/list" > "$tmp/pairs"
    awk -F '\t' -v forms="$tmp/forms" -v corpus="$corpus/" -v out="$tmp/checked" '
    {
        getline got_cond < forms
        getline got_obs < forms
        if ($2 == "") next
        want_cond = ""; want_obs = ""; after_states = 0
        while ((getline line < $2) > 0) {
            if (after_states) { want_obs = line; after_states = 0 }
            if (line ~ /^States /) after_states = 1
            if (line ~ /^Condition /) want_cond = line
        }
        close($2)
        gsub(/=[^;]*;/, "", want_obs)
        name = $1; sub(corpus, "", name)
        if (want_cond != got_cond)
            printf "FAIL: %s: condition\n  herd:    %s\n  litmusc: %s\n", name, want_cond, got_cond
        if (want_obs != got_obs)
            printf "FAIL: %s: state items\n  herd:    %s\n  litmusc: %s\n", name, want_obs, got_obs
        checked++
    }
    END { print checked + 0 > out }' "$tmp/pairs" > "$tmp/cmp"
    if [ -s "$tmp/cmp" ]; then
        cat "$tmp/cmp"
        fail=1
    fi
    checked=$(cat "$tmp/checked")
    if [ "$checked" -lt "$(corpus_min "$corpus")" ]; then
        echo "FAIL: only $checked tests had a verdict to compare with"
        fail=1
    fi
    echo "ir_corpus $(corpus_label "$corpus"): $n tests lowered and round-tripped, $checked conditions and state layouts compared with herd7"
    return $fail
}
for c in $(corpora); do
    check "$c" || status=1
done
exit $status
