#!/bin/sh
# check: long
# C and Java corpus tests run natively, on the C11 runner and on the x86
# runner (their compilation through the arch's default scheme), never
# show a state outside their behaviour set: neither litmusc's (run's exit
# status, rc11 for C, jam21 for Java) nor herd7's (NAME.MODEL.herd beside
# the test).  A test herd flags Undef (a data race under rc11) allows
# every state, so only litmusc's verdict is checked there.  A runner that
# dies (exit 3) fails the test.
#
# A fixed subset runs by default (every 60th test of each corpus's C and
# Java tests, and on the x86 runner every 8th C test with a dependency
# too: a compiled address dependency copies and adds to a pointer in
# registers); CORPUS_ALL=1 (make check-all) runs them all.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
. "$here/../corpora.sh"
S=${CORPUS_S:-2000}
R=${CORPUS_R:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

every=60 every_dep=8
[ "${CORPUS_ALL:-0}" = 1 ] && every=1 every_dep=1
for corpus in $(corpora); do
    find "$corpus/c11" -name '*.litmus' | sort |
        awk -v n=$every -v d=$every_dep 'NR % n == 1 || n == 1 { print "c11 rc11 " $0; print "x86 rc11 " $0; next }
                         /(addr|data|ctrl)[^\/]*$/ && ++deps % d == 1 % d { print "x86 rc11 " $0 }'
    find "$corpus/java" -name '*.litmus' | sort |
        awk -v n=$every 'NR % n == 1 || n == 1 { print "c11 jam21 " $0; print "x86 jam21 " $0 }'
done >"$tmp/list"

total=0 ran=0 unsupported=0 undef=0
while read -r target model f; do
    total=$((total + 1))
    rel="$target: ${f#"$corpora_root/"}"
    set -- loose user timebase
    shift $((total % 3))
    sync=$1
    "$L" run --target "$target" -s "$S" -r "$R" --sync "$sync" --timeout 60 "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    case $rc in
    0) ;;
    1) fail "$rel (--sync $sync): a state outside litmusc's $model set: $(grep -E '^State [^ ]* FORBIDDEN' "$tmp/out" | head -3)" ;;
    2) unsupported=$((unsupported + 1))
       echo "not runnable: $rel: $(head -1 "$tmp/err")"
       continue ;;
    *) fail "$rel: exit $rc: $(head -2 "$tmp/err")"
       continue ;;
    esac
    ran=$((ran + 1))
    herd="${f%.litmus}.$model.herd"
    [ -s "$herd" ] || continue
    if grep -q '^Undef' "$herd"; then
        undef=$((undef + 1))
        continue
    fi
    awk '/^States /{on=1; next} /^(Ok|No|Undef|Loop)/{on=0} on' "$herd" >"$tmp/herd"
    sed -n 's/^State [^ ]* [A-Za-z]* *[0-9]* *//p' "$tmp/out" >"$tmp/seen"
    [ -s "$tmp/seen" ] || fail "$rel: the run printed no states"
    while IFS= read -r st; do
        grep -qxF -- "$st" "$tmp/herd" || fail "$rel: observed '$st', which herd7's $model set lacks"
    done <"$tmp/seen"
done <"$tmp/list"

echo "corpus C/Java (C11 and x86 runners): $ran of $total runs ran (S=$S R=$R), $unsupported not runnable, $undef undefined under herd"
[ $((ran * 10)) -ge $((total * 8)) ] || fail "only $ran of $total corpus tests could run"
[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "run_corpus_native: ok"
