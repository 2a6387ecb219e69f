#!/bin/sh
# The lock corpus (tests/locks/corpus, see its README) against herd7 7.57:
# each test's states, verdict and hash under litmusc's rc11 must be what
# herd7 printed under c11_simp.cat, the model of herd's that takes C11
# mutexes (its rc11.cat ignores them).  The two models differ apart from
# locks (RC11 forbids load buffering, c11_simp lets non-atomic reads see
# only visible writes), so a test whose lock-free original already differs
# between them is counted apart, not failed, and so is a test where RC11
# without its no-thin-air axiom (tests/locks/rc11-no-thin-air.cat) gives
# herd7's states exactly; every other test must agree.
# Then the lock events of a model that orders locks itself (one that names
# herd's lock sets): tests/locks/sc-lock-order.cat, SC over herd's lock
# events and a lock order, must give the built-in sc's states on every C lock
# test.  With HERD_LIBDIR naming herd's libdir, herd's own c11_simp.cat run by
# litmusc must print herd7's verdict files, Time aside, except where herd7
# leaves a cycle of values unsolved (see the end).
set -u
: "${LITMUSC:?set LITMUSC to the litmusc program}"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../corpora.sh"
dir=$root/tests/locks/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# The states of a herd-format block (one per line, sorted), then the
# verdict and the hash.
summary() {
    awk '
        /^States / { in_states = 1; next }
        in_states && /^(Ok|No|Undef|Yes)$/ { in_states = 0; verdict = $0; next }
        in_states && /^(Witnesses|Loop)/ { in_states = 0; next }
        in_states { print "S " $0 }
        /^Hash=/ { hash = $0 }
        END { print "V " verdict; print "H " hash }
    ' "$1" | sort
}

# summarize DEST SUFFIX FILE...: `summary` of each FILE into DEST/NAME
# (NAME its file name less SUFFIX), with one awk and one sort for all of
# them rather than two processes a file.
summarize() {
    dest=$1 suffix=$2
    shift 2
    mkdir -p "$dest"
    awk -v suffix="$suffix" '
        function flush() { if (name != "") { print name "\tV " verdict; print name "\tH " hash } }
        FNR == 1 {
            flush()
            name = FILENAME; sub(/.*\//, "", name)
            if (suffix != "" && substr(name, length(name) - length(suffix) + 1) == suffix)
                name = substr(name, 1, length(name) - length(suffix))
            in_states = 0; verdict = ""; hash = ""
        }
        /^States / { in_states = 1; next }
        in_states && /^(Ok|No|Undef|Yes)$/ { in_states = 0; verdict = $0; next }
        in_states && /^(Witnesses|Loop)/ { in_states = 0; next }
        in_states { print name "\tS " $0 }
        /^Hash=/ { hash = $0 }
        END { flush() }
    ' "$@" | LC_ALL=C sort | awk -v dest="$dest" -F '\t' '
        $1 != name { if (name != "") close(file); name = $1; file = dest "/" name; printf "" > file }
        { print substr($0, length($1) + 2) >> file }
    '
}

# litmusc on every test in one process, its output cut into one file per
# test, named by its Test line
"$LITMUSC" model --model rc11 "$dir"/*.litmus > "$tmp/all" 2> "$tmp/allerr"
rc=$?
[ "$rc" -le 1 ] || { echo "FAIL: litmusc model exited with status $rc: $(head -3 "$tmp/allerr")"; exit 1; }
mkdir "$tmp/ours.d"
awk -v dir="$tmp/ours.d" '
    /^Test / { file = dir "/" $2; printf "" > file }
    file != "" { print >> file }
    /^$/ { if (file != "") close(file); file = "" }
' "$tmp/all"

summarize "$tmp/ours.s" "" "$tmp/ours.d"/*
summarize "$tmp/herd.s" .c11_simp.herd "$dir"/*.c11_simp.herd
n=0 agree=0 thin=0 apart=0 fail=0 empty=0
for f in "$dir"/*.litmus; do
    name=${f##*/}
    name=${name%.litmus}
    herd=$dir/$name.c11_simp.herd
    [ -f "$herd" ] || { echo "FAIL $name: no verdict file"; fail=$((fail + 1)); continue; }
    n=$((n + 1))
    if [ ! -s "$herd" ]; then
        empty=$((empty + 1))     # herd7 failed or ran past its limit
        continue
    fi
    [ -f "$tmp/ours.d/$name" ] || { echo "FAIL $name: no block from litmusc"; fail=$((fail + 1)); continue; }
    if cmp -s "$tmp/ours.s/$name" "$tmp/herd.s/$name"; then
        agree=$((agree + 1))
        continue
    fi
    summary "$tmp/ours.d/$name" > "$tmp/a"
    summary "$herd" > "$tmp/b"
    # RC11 without no-thin-air: a lock's read of an unlock is an rf edge,
    # so a hand-off can close a po | rf cycle that c11_simp lets be
    "$LITMUSC" model --model "$root/tests/locks/rc11-no-thin-air.cat" "$f" > "$tmp/nota" 2>/dev/null
    summary "$tmp/nota" | grep -v '^H' > "$tmp/c"
    grep -v '^H' "$tmp/b" > "$tmp/bh"
    if cmp -s "$tmp/c" "$tmp/bh"; then
        thin=$((thin + 1))
        continue
    fi
    base=${name%+L*}
    orig=$(find "$root/tests/corpus/c11" -name "$base.litmus" | sort | head -1)
    bherd=$dir/base/$base.c11_simp.herd
    if [ -n "$orig" ] && [ -s "$bherd" ]; then
        "$LITMUSC" model --model rc11 "$orig" > "$tmp/bours" 2>/dev/null
        summary "$tmp/bours" | grep -v '^H' > "$tmp/ba"
        summary "$bherd" | grep -v '^H' > "$tmp/bb"
        if ! cmp -s "$tmp/ba" "$tmp/bb"; then
            apart=$((apart + 1))
            continue
        fi
    fi
    echo "FAIL $name: litmusc rc11 and herd7 c11_simp differ, and agree on $base without locks:"
    diff "$tmp/a" "$tmp/b" | sed 's/^/    /' | head -10
    fail=$((fail + 1))
done
echo "locks corpus: $n tests, $agree agree with herd7, $thin differ by RC11's no-thin-air alone, $apart differ as their lock-free originals do, $empty without a herd7 verdict, $fail failed"
[ "$n" -ge 150 ] || { echo "FAIL: only $n tests in $dir"; fail=$((fail + 1)); }
[ "$agree" -ge $((n * 3 / 4)) ] || { echo "FAIL: fewer than three quarters agree"; fail=$((fail + 1)); }

# Locks as herd's lock events, ordered by the model: the same states as sc.
find "$dir" "$root/tests/locks/c" "$root/examples/locks" -maxdepth 1 -name '*.litmus' | sort > "$tmp/clist"
: > "$tmp/clist.c"
while read -r f; do head -1 "$f" | grep -q '^C ' && echo "$f" >> "$tmp/clist.c"; done < "$tmp/clist"
# shellcheck disable=SC2046
"$LITMUSC" model --model sc $(cat "$tmp/clist.c") > "$tmp/sc" 2>&1
# shellcheck disable=SC2046
"$LITMUSC" model --model "$root/tests/locks/sc-lock-order.cat" $(cat "$tmp/clist.c") > "$tmp/lo" 2>&1
herd_split_blocks "$tmp/sc" "$tmp/sc.d"
herd_split_blocks "$tmp/lo" "$tmp/lo.d"
summarize "$tmp/sc.s" "" "$tmp/sc.d"/*
summarize "$tmp/lo.s" "" "$tmp/lo.d"/*
nlo=0
for b in "$tmp/sc.d"/*; do
    name=${b##*/}
    nlo=$((nlo + 1))
    # the states and verdict, not the hash line (the last, as H sorts after S and V)
    cmp -s "$tmp/sc.s/$name" "$tmp/lo.s/$name" ||
        [ "$(grep -v '^H' "$tmp/sc.s/$name")" = "$(grep -v '^H' "$tmp/lo.s/$name" 2>/dev/null)" ] ||
        { echo "FAIL $name: sc-lock-order.cat and sc give other states"; fail=$((fail + 1)); }
done
echo "lock events ordered by the model: $nlo C lock tests, sc-lock-order.cat gives sc's states on each"
[ "$nlo" -ge 200 ] || { echo "FAIL: only $nlo tests under sc-lock-order.cat"; fail=$((fail + 1)); }

# herd's own c11_simp.cat, when its libdir is given.  herd7 leaves a read
# whose value depends on itself through data (load buffering with data
# dependencies) unsolved, where litmusc solves it: those tests differ in
# their lock-free originals too, and are counted apart.
if [ -n "${HERD_LIBDIR:-}" ] && [ -f "$HERD_LIBDIR/c11_simp.cat" ]; then
    # shellcheck disable=SC2046
    "$LITMUSC" model --model "$HERD_LIBDIR/c11_simp.cat" "$dir"/*.litmus > "$tmp/simp" 2> "$tmp/simperr"
    herd_split_blocks "$tmp/simp" "$tmp/simp.d"
    same=0 cyc=0 nh=0
    for f in "$dir"/*.litmus; do
        name=$(basename "$f" .litmus)
        herd=$dir/$name.c11_simp.herd
        [ -s "$herd" ] || continue
        nh=$((nh + 1))
        if cmp -s "$tmp/simp.d/$name" "$herd"; then same=$((same + 1)); continue; fi
        case $(sed -n 2p "$f") in
        *DpData*Rfe*DpData*) cyc=$((cyc + 1)) ;;
        *) echo "FAIL $name: herd's c11_simp.cat under litmusc and herd7 differ:"
           diff "$tmp/simp.d/$name" "$herd" | sed 's/^/    /' | head -10
           fail=$((fail + 1)) ;;
        esac
    done
    echo "herd's c11_simp.cat: $same of $nh tests byte-identical to herd7, $cyc with a data cycle herd7 leaves unsolved"
else
    echo "SKIP: HERD_LIBDIR is not set (herd's libdir, for its c11_simp.cat): herd's own model was not run on the corpus"
fi
[ "$fail" = 0 ]
