#!/bin/sh
# check: long
# No x86 corpus test ever shows a state outside its x86-TSO behaviour set:
# neither the one litmusc computes (run's exit status) nor the one herd7
# printed (NAME.x86tso.herd beside the test).  Small S and R keep it short.
#
# By default a fixed representative subset runs (below); CORPUS_ALL=1 runs
# all of them.
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

# every test of tests/corpus/x86/classic and every 24th of the rest; in the
# shared corpus every 2nd catalogue test and every 24th of the diy tests
every_own=24 every_cat=2 every_diy=24
[ "${CORPUS_ALL:-0}" = 1 ] && every_own=1 every_cat=1 every_diy=1
: >"$tmp/list"
for c in $(corpora); do
    if [ "$(corpus_label "$c")" = tests/corpus ]; then
        find "$c/x86/classic" -name '*.litmus' | sort >>"$tmp/list"
        find "$c/x86" -name '*.litmus' ! -path '*/classic/*' | sort | awk -v n=$every_own 'NR % n == 1 || n == 1' >>"$tmp/list"
    else
        find "$c/x86/catalogue" -name '*.litmus' | sort | awk -v n=$every_cat 'NR % n == 1 || n == 1' >>"$tmp/list"
        find "$c/x86/diy" -name '*.litmus' | sort | awk -v n=$every_diy 'NR % n == 1 || n == 1' >>"$tmp/list"
    fi
done

total=0 ran=0 unsupported=0 forbidden_herd=0
while read -r f; do
    total=$((total + 1))
    rel=${f#"$corpora_root/"}
    # Every sync mode and layout gets its share of the tests.
    set -- loose user timebase
    shift $((total % 3))
    sync=$1
    set -- line packed shuffle
    shift $((total / 3 % 3))
    layout=$1
    "$L" run -s "$S" -r "$R" --sync "$sync" --layout "$layout" --timeout 60 "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    case $rc in
    0) ;;
    1) fail "$rel (--sync $sync --layout $layout): a state outside litmusc's x86-TSO set: $(grep -E '^State [^ ]* FORBIDDEN' "$tmp/out" | head -3)" ;;
    2) unsupported=$((unsupported + 1))
       echo "not runnable: $rel: $(head -1 "$tmp/err")"
       continue ;;
    *) fail "$rel: exit $rc: $(head -2 "$tmp/err")"
       continue ;;
    esac
    ran=$((ran + 1))
    # herd7's own states for the test (empty file: herd failed on it).
    herd="${f%.litmus}.x86tso.herd"
    [ -s "$herd" ] || continue
    awk '/^States /{on=1; next} /^(Ok|No|Undef|Loop)/{on=0} on' "$herd" >"$tmp/herd"
    sed -n 's/^State [^ ]* [A-Za-z]* *[0-9]* *//p' "$tmp/out" >"$tmp/seen"
    [ -s "$tmp/seen" ] || fail "$rel: the run printed no states"
    while IFS= read -r st; do
        if ! grep -qxF -- "$st" "$tmp/herd"; then
            forbidden_herd=$((forbidden_herd + 1))
            fail "$rel: observed '$st', which herd7's x86-TSO set lacks"
        fi
    done <"$tmp/seen"
done <"$tmp/list"

echo "corpus x86: $ran of $total tests ran (S=$S R=$R), $unsupported not runnable, $forbidden_herd states outside herd7's sets"
# A frontend or backend regression must not make this pass by running nothing.
[ $((ran * 10)) -ge $((total * 8)) ] || fail "only $ran of $total corpus tests could run"
[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "run_corpus_x86: ok"
