#!/bin/sh
# litmusc races on every C test of the corpora, under rc11: a test has a
# Race line exactly when herd7's rc11 verdict (NAME.rc11.herd beside it)
# is Undef with Flag *undef*.  Every Race line has the documented shape,
# its count is the closing `Races NAME N`, and the exit status is 1 for a
# folder with a race, 0 for one without.  One litmusc process per folder.
# Tests whose .herd file is empty (herd gave nothing) are listed, not compared.
set -u
: "${LITMUSC:?set LITMUSC to the litmusc program}"
. "$(dirname "$0")/../corpora.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for corpus in $(corpora); do
    label=$(corpus_label "$corpus")
    total=0 agree=0 racy=0 noverdict=0
    for dir in $(find "$corpus/c11" -name '*.litmus' | sed 's|/[^/]*$||' | sort -u); do
        rel=$label/${dir#"$corpus"/}
        : > "$tmp/list"
        : > "$tmp/want"
        for f in "$dir"/*.litmus; do
            h="${f%.litmus}.rc11.herd"
            if [ ! -s "$h" ]; then
                noverdict=$((noverdict + 1))
                continue
            fi
            echo "$f" >> "$tmp/list"
            # NAME undef|defined, as herd says
            awk '/^Test / { n = $2 } /^Undef$/ { u = 1 } /^Flag \*undef\*$/ { f = 1 }
                 END { print n, (u && f) ? "undef" : (u || f) ? "half" : "defined" }' "$h" >> "$tmp/want"
        done
        [ -s "$tmp/list" ] || continue
        # shellcheck disable=SC2046
        "$LITMUSC" races --model rc11 $(cat "$tmp/list") > "$tmp/out" 2> "$tmp/err"
        rc=$?
        if [ "$rc" -ge 2 ]; then
            fail "$rel: litmusc races exited with status $rc: $(head -3 "$tmp/err")"
            continue
        fi
        # every Race line has the documented shape
        bad=$(grep '^Race ' "$tmp/out" | grep -Ev '^Race [^ ]+ P[0-9]+:[0-9]+ \([^ ]+:[0-9]+:[0-9]+\) (R|W|RW) (na|rlx|con|acq|rel|acq_rel|sc) [^ ]+ <-> P[0-9]+:[0-9]+ \([^ ]+:[0-9]+:[0-9]+\) (R|W|RW) (na|rlx|con|acq|rel|acq_rel|sc) [^ ]+ in execution [1-9][0-9]*$' | head -2)
        [ -z "$bad" ] || fail "$rel: malformed Race line: $bad"
        # NAME LINES COUNT: the Race lines of a test and its closing count
        awk '/^Race / { lines[$2]++ } /^Races / { print $2, lines[$2] + 0, $3 }' "$tmp/out" > "$tmp/got"
        any=0
        while read -r name want; do
            total=$((total + 1))
            got=$(awk -v n="$name" '$1 == n { print $2, $3; exit }' "$tmp/got")
            if [ -z "$got" ]; then
                fail "$rel/$name: no Races line"
                continue
            fi
            set -- $got
            [ "$1" = "$2" ] || fail "$rel/$name: $1 Race lines but 'Races $name $2'"
            [ "$1" -gt 0 ] && { racy=$((racy + 1)); any=1; }
            case $want in
            undef) [ "$1" -gt 0 ] && agree=$((agree + 1)) || fail "$rel/$name: herd7 says Undef, litmusc races finds no race" ;;
            defined) [ "$1" -eq 0 ] && agree=$((agree + 1)) ||
                fail "$rel/$name: herd7 says defined, litmusc races finds $1: $(grep -m1 "^Race $name " "$tmp/out")" ;;
            *) fail "$rel/$name: the herd7 verdict has Undef or Flag *undef* but not both" ;;
            esac
        done < "$tmp/want"
        [ "$rc" -eq "$any" ] || fail "$rel: exit status $rc, expected $any"
    done
    echo "races_corpus: $label: $agree of $total C tests agree with herd7's rc11 verdict ($racy racy)"
    [ "$noverdict" -eq 0 ] || echo "note: $label: $noverdict C tests have no rc11 verdict from herd7 (not compared)"
    [ "$total" -gt 0 ] || fail "$label: no C test compared"
done
[ "$fails" -eq 0 ]
