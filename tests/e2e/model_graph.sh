#!/bin/sh
# litmusc model --graph: one picture per witness execution (one in which
# the condition's proposition holds), as many files as herd's Observation
# line counts such executions, with herd's block on stdout unchanged; the
# events, po, rf, co and fr of SB's witness checked edge by edge (x86 and
# C); --show adds the model's relation (ghb worked out by hand); a C race
# is a red dashed edge; bad input (an unknown or non-relation --show name,
# a folder that cannot be made, --format png) is exit 2 with nothing
# written; a missing dot is exit 3.  With Graphviz and Chromium: SB's
# witness as SVG, rendered and screenshot, both kept in
# build/test-output/model_graph.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
L=${LITMUSC:?LITMUSC must name the program under test}
case $L in
/*) ;;
*/*) L=$(pwd)/$L ;;
*) L=$(command -v "$L") ;;
esac
root=$corpora_root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
sb=$root/examples/x86/SB.litmus
csb=$root/examples/c/SB+rlx.litmus

# has FILE LINE: FILE has LINE exactly
has() { grep -qxF -- "$2" "$1" || fail "$(basename "$1") lacks: $2"; }
# count FILE PATTERN: how many lines match the fixed string
count() { grep -cF -- "$2" "$1"; }
# executions in which P holds: the first count of herd's Observation line
# (the Positive line swaps its counts for ~exists)
holds() { sed -n 's/^Observation [^ ]* [A-Za-z]* \([0-9]*\) [0-9]*$/\1/p' "$1"; }

# ---- SB (x86): herd's block unchanged, one file, every edge of it --------
"$L" model "$sb" | grep -v '^Time ' > "$tmp/plain"
"$L" model --graph "$tmp/sb" "$sb" > "$tmp/out" 2> "$tmp/err" || fail "SB --graph: exit $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "SB --graph wrote to stderr: $(head -2 "$tmp/err")"
grep -v '^Time ' "$tmp/out" | cmp -s - "$tmp/plain" || fail "--graph changed herd's block on stdout"
[ "$(holds "$tmp/out")" = 1 ] || fail "SB under x86tso: P holds in $(holds "$tmp/out") executions, not 1"
files=$(ls "$tmp/sb")
[ "$(echo "$files" | wc -w)" -eq 1 ] || fail "SB: files $files, expected one"
f="$tmp/sb/$files"
case $files in SB-[0-9]*.dot) ;; *) fail "SB's picture is named $files, not SB-K.dot" ;; esac
# the witness by hand: a: W x=1 po b: R y=0 | c: W y=1 po d: R x=0, both
# reads from the initial writes, each read fr-before the other thread's write
has "$f" '    "init x" [label="W x=0"];'
has "$f" '    "init y" [label="W y=0"];'
has "$f" '    "a" [label="a: W x=1"];'
has "$f" '    "b" [label="b: R y=0"];'
has "$f" '    "c" [label="c: W y=1"];'
has "$f" '    "d" [label="d: R x=0"];'
has "$f" '    label="P0";'
has "$f" '    label="P1";'
has "$f" '  "a" -> "b" [label="po", color=black];'
has "$f" '  "c" -> "d" [label="po", color=black];'
has "$f" '  "init y" -> "b" [label="rf", color=red, fontcolor=red, constraint=false];'
has "$f" '  "init x" -> "d" [label="rf", color=red, fontcolor=red, constraint=false];'
has "$f" '  "init x" -> "a" [label="co", color=blue, fontcolor=blue, constraint=false];'
has "$f" '  "init y" -> "c" [label="co", color=blue, fontcolor=blue, constraint=false];'
has "$f" '  "b" -> "c" [label="fr", color=darkorange, fontcolor=darkorange, constraint=false];'
has "$f" '  "d" -> "a" [label="fr", color=darkorange, fontcolor=darkorange, constraint=false];'
for r in po rf co fr; do
    [ "$(count "$f" "[label=\"$r\"")" -eq 2 ] || fail "SB: $(count "$f" "[label=\"$r\"") $r edges, expected 2"
done
drawn=$(grep -c ' -> .* \[label=' "$f")
[ "$drawn" -eq 8 ] || fail "SB: $drawn edges drawn, expected 8"
[ "$(grep -c ' -> ' "$f")" -eq "$((drawn + $(grep -c ' -> .*style=invis' "$f")))" ] ||
    fail "SB: an edge that is neither drawn nor for the layout"
grep -q 'label="race"' "$f" && fail "SB on x86 has a racing edge"
grep -q '^  graph \[label="SB: execution [0-9]* under x86tso\\n0:EAX=0; 1:EAX=0;"' "$f" ||
    fail "SB: the title does not name the execution, model and state"

# --show ghb: x86tso's global happens-before on the witness, by hand: rfe
# (init y->b, init x->d), fr (b->c, d->a), co (init x->a, init y->c); no
# preserved po (both are write->read)
"$L" model --graph "$tmp/ghb" --show ghb "$sb" > /dev/null 2> "$tmp/err" || fail "--show ghb: $(cat "$tmp/err")"
g=$(ls "$tmp/ghb"/*.dot)
[ "$(count "$g" '[label="ghb"')" -eq 6 ] || fail "--show ghb: $(count "$g" '[label="ghb"') ghb edges, expected 6"
for e in '"init y" -> "b"' '"init x" -> "d"' '"b" -> "c"' '"d" -> "a"' '"init x" -> "a"' '"init y" -> "c"'; do
    grep -qF "  $e [label=\"ghb\"" "$g" || fail "--show ghb: no ghb edge $e"
done

# ---- the C test: modes in the labels, hb of rc11 is po here ----------------
"$L" model --graph "$tmp/c" --show hb "$csb" > "$tmp/out" 2> "$tmp/err" || fail "C SB: $(cat "$tmp/err")"
[ "$(ls "$tmp/c" | wc -l)" -eq "$(holds "$tmp/out")" ] || fail "C SB: $(ls "$tmp/c" | wc -l) files for $(holds "$tmp/out") witnesses"
f=$(ls "$tmp/c"/*.dot | head -1)
has "$f" '    "a" [label="a: W[rlx] x=1"];'
has "$f" '    "b" [label="b: R[rlx] y=0"];'
has "$f" '    "c" [label="c: W[rlx] y=1"];'
has "$f" '    "d" [label="d: R[rlx] x=0"];'
has "$f" '  "init y" -> "b" [label="rf", color=red, fontcolor=red, constraint=false];'
has "$f" '  "init x" -> "d" [label="rf", color=red, fontcolor=red, constraint=false];'
has "$f" '  "b" -> "c" [label="fr", color=darkorange, fontcolor=darkorange, constraint=false];'
has "$f" '  "d" -> "a" [label="fr", color=darkorange, fontcolor=darkorange, constraint=false];'
has "$f" '  "a" -> "b" [label="hb", color=darkgreen, fontcolor=darkgreen, constraint=false];'
has "$f" '  "c" -> "d" [label="hb", color=darkgreen, fontcolor=darkgreen, constraint=false];'
[ "$(count "$f" '[label="hb"')" -eq 2 ] || fail "C SB: $(count "$f" '[label="hb"') hb edges, expected 2 (po)"
grep -q 'label="race"' "$f" && fail "C SB with relaxed atomics has a racing edge"

# release/acquire: rc11's sync is the one rel->acq edge; two names at once
sed 's/1:r1=0/1:r1=1/' "$root/examples/c/MP+rel+acq.litmus" > "$tmp/mp.litmus"
"$L" model --graph "$tmp/mp" --show sync,hb "$tmp/mp.litmus" > /dev/null 2> "$tmp/err" || fail "MP --show sync,hb: $(cat "$tmp/err")"
f=$(ls "$tmp/mp"/*.dot | head -1)
[ "$(count "$f" '[label="sync"')" -eq 1 ] && grep -qF '  "b" -> "c" [label="sync", color=darkgreen' "$f" ||
    fail "MP+rel+acq: sync is not the one edge b -> c"
[ "$(count "$f" '[label="hb"')" -eq 6 ] || fail "MP+rel+acq: $(count "$f" '[label="hb"') hb edges, expected 6 (a<b<c<d)"

# a racing C test: the plain write and the plain read, red, dashed, no arrow
cat > "$tmp/race.litmus" <<'LIT'
C MP+na
{ [x]=0; [y]=0; }
P0 (int* x, atomic_int* y) {
  *x = 1;
  atomic_store_explicit(y, 1, memory_order_relaxed);
}
P1 (int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
  int r1 = *x;
}
exists (1:r0=1 /\ 1:r1=0)
LIT
"$L" model --graph "$tmp/race" "$tmp/race.litmus" > /dev/null 2> "$tmp/err" || fail "racy MP: $(cat "$tmp/err")"
f=$(ls "$tmp/race"/*.dot | head -1)
has "$f" '    "a" [label="a: W[na] x=1"];'
has "$f" '    "d" [label="d: R[na] x=0"];'
has "$f" '  "a" -> "d" [label="race", color=red, fontcolor=red, style=dashed, dir=none, penwidth=1.5, constraint=false];'
[ "$(count "$f" '[label="race"')" -eq 1 ] || fail "racy MP: $(count "$f" '[label="race"') racing edges, expected 1"
grep -q '(undefined)' "$f" || fail "racy MP: the title does not say the execution is undefined"

# ---- how many files: one per execution in which P holds --------------------
# ~exists: the Positive line counts where P fails, the files where it holds
sed 's/^exists/~exists/' "$sb" > "$tmp/nsb.litmus"
"$L" model --graph "$tmp/nsb" "$tmp/nsb.litmus" > "$tmp/out"
grep -q '^Positive: 3 Negative: 1$' "$tmp/out" || fail "~exists SB: herd's Positive line is not 3/1"
[ "$(ls "$tmp/nsb" | wc -l)" -eq 1 ] || fail "~exists SB: $(ls "$tmp/nsb" | wc -l) files, expected 1 (P holds once)"
# no witness: the folder is made and stays empty
"$L" model --model sc --graph "$tmp/none" "$sb" > /dev/null 2>&1 || fail "SB under sc: exit $?"
[ -d "$tmp/none" ] && [ -z "$(ls -A "$tmp/none")" ] || fail "SB under sc (no witness): the folder is not there and empty"
# the classic shapes: every test's files against its Observation count
for d in x86/classic c11/classic java/classic x86/locked; do
    out="$tmp/all-$(echo "$d" | tr / -)"
    "$L" model --graph "$out" "$root/tests/corpus/$d"/*.litmus > "$out.log" 2>&1 || fail "$d: exit $?: $(tail -2 "$out.log")"
    sed -n 's/^Observation \([^ ]*\) [A-Za-z]* \([0-9]*\) [0-9]*$/\1 \2/p' "$out.log" | while read -r name n; do
        got=$(ls "$out" | awk -v n="$name" 'index($0, n "-") == 1 && substr($0, length(n) + 2) ~ /^[0-9]+\.dot$/' |
            wc -l)
        [ "$got" -eq "$n" ] || echo "FAIL: $d/$name: $got pictures for $n executions where P holds"
    done > "$out.fails"
    [ -s "$out.fails" ] && { cat "$out.fails"; fails=$((fails + 1)); }
    # K is the execution's number: distinct, positive
    ls "$out" | sed -n 's/.*-\([0-9]*\)\.dot$/\1/p' | grep -qx '0' && fail "$d: an execution numbered 0"
done

# ---- bad input: exit 2, the reason, nothing written ------------------------
expect() {  # expect STATUS MESSAGE ARGS...
    want=$1 msg=$2
    shift 2
    "$L" model "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq "$want" ] || fail "model $*: exit $rc, expected $want"
    grep -qF -- "$msg" "$tmp/err" || fail "model $*: stderr lacks '$msg': $(head -2 "$tmp/err")"
    [ -s "$tmp/out" ] && fail "model $*: printed on stdout: $(head -2 "$tmp/out")"
}
expect 2 "litmusc model: error: cannot show 'nosuch': model x86tso defines no such name" \
    --graph "$tmp/bad1" --show nosuch "$sb" "$sb"
[ "$(grep -c error "$tmp/err")" -eq 1 ] || fail "--show nosuch is reported $(grep -c error "$tmp/err") times for two tests"
[ -z "$(ls -A "$tmp/bad1" 2>/dev/null)" ] || fail "--show nosuch left files: $(ls "$tmp/bad1")"
expect 2 "litmusc model: error: cannot show 'R': in model x86tso it is a set of events, not a relation" \
    --graph "$tmp/bad2" --show ghb,R "$sb"
expect 2 "litmusc model: error: cannot show 'fencerel': in model rc11 it is a function, not a relation" \
    --graph "$tmp/bad3" --show fencerel "$csb"
expect 2 "litmusc model: error: --format takes 'dot' or 'svg', not 'png'" --graph "$tmp/bad4" --format png "$sb"
[ -e "$tmp/bad4" ] && fail "--format png made the folder"
expect 2 "litmusc model: error: --format and --show go with --graph DIR" --show ghb "$sb"
expect 2 "litmusc model: error: --show takes relation names" --graph "$tmp/bad5" --show ghb,,po "$sb"
: > "$tmp/plainfile"
expect 2 "litmusc model: error: cannot create the folder $tmp/plainfile/pics: Not a directory" \
    --graph "$tmp/plainfile/pics" "$sb"
if [ "$(id -u)" -ne 0 ]; then
    mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
    expect 2 "litmusc model: error: cannot write into the folder $tmp/ro: Permission denied" --graph "$tmp/ro" "$sb"
    [ -z "$(ls -A "$tmp/ro")" ] || fail "a read-only folder got files"
    expect 2 "litmusc model: error: cannot create the folder $tmp/ro/sub: Permission denied" --graph "$tmp/ro/sub" "$sb"
else
    echo "SKIP: a read-only folder (root writes anywhere; the not-a-folder case ran)"
fi
# two tests of one name: the second would replace the first's pictures
"$L" model --graph "$tmp/twice" "$sb" "$sb" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "the same test twice: exit $rc, expected 2"
grep -qF "a second test named SB" "$tmp/err" || fail "the same test twice: $(head -2 "$tmp/err")"
[ "$(grep -c '^Test SB' "$tmp/out")" -eq 1 ] || fail "the same test twice: not one herd block"
[ "$(ls "$tmp/twice" | wc -l)" -eq 1 ] || fail "the same test twice: $(ls "$tmp/twice" | wc -l) files, expected the first's 1"
# a name that is no file name stays in the folder
sed '1s|.*|X86 ../up|' "$sb" > "$tmp/up.litmus"
"$L" model --graph "$tmp/esc" "$tmp/up.litmus" > /dev/null 2>&1 || fail "a test named ../up: exit $?"
[ "$(ls "$tmp/esc")" = "_._up-1.dot" ] || fail "a test named ../up wrote $(ls "$tmp/esc")"
ls "$tmp" | grep -q '^up-' && fail "a test named ../up wrote outside the folder"
# svg without dot: exit 3, says to install graphviz, makes no folder
mkdir "$tmp/nodot"
PATH="$tmp/nodot" "$L" model --graph "$tmp/bad6" --format svg "$sb" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "svg without dot: exit $rc, expected 3"
grep -qF "install graphviz" "$tmp/err" || fail "svg without dot: $(head -2 "$tmp/err")"
[ -s "$tmp/out" ] && fail "svg without dot printed on stdout"
[ -e "$tmp/bad6" ] && fail "svg without dot made the folder"

# the README's picture is the tool's: SB's witness, its events and edges
pic="$root/doc/SB-witness.svg"
grep -q '(doc/SB-witness.svg)' "$root/README.md" || fail "the README does not show doc/SB-witness.svg"
for t in 'SB: execution 1 under x86tso' 'a: W x=1' 'b: R y=0' 'c: W y=1' 'd: R x=0' '>rf<' '>fr<' '>co<' '>po<'; do
    grep -qF "$t" "$pic" || fail "doc/SB-witness.svg has no text '$t'"
done

# ---- SVG through Graphviz, screenshot through Chromium ---------------------
out="$root/build/test-output/model_graph"
if ! command -v dot > /dev/null 2>&1; then
    echo "SKIP: SVG pictures (no Graphviz dot: apt-get install graphviz)"
else
    rm -rf "$out"
    mkdir -p "$out"
    "$L" model --graph "$out" --format svg --show ghb "$sb" > /dev/null 2> "$tmp/err" || fail "--format svg: $(cat "$tmp/err")"
    svg=$(ls "$out"/SB-*.svg 2>/dev/null | head -1)
    if [ -z "$svg" ]; then
        fail "--format svg wrote no SB-K.svg"
    else
        [ "$(ls "$out" | wc -l)" -eq 1 ] || fail "--format svg: $(ls "$out")"
        grep -q '<svg' "$svg" || fail "$svg is no SVG"
        for t in 'a: W x=1' 'b: R y=0' 'c: W y=1' 'd: R x=0' '>rf<' '>fr<' '>co<' '>po<' '>ghb<'; do
            grep -qF "$t" "$svg" || fail "the SVG has no text '$t'"
        done
        grep -q '\.dot$' "$out"/* 2> /dev/null && fail "--format svg also wrote dot files"
        browser=""
        for b in chromium chromium-browser google-chrome; do
            command -v "$b" > /dev/null 2>&1 && { browser=$b; break; }
        done
        if [ -z "$browser" ]; then
            echo "SKIP: the screenshot of the SVG (no Chromium: apt-get install chromium)"
        else
            timeout 90 "$browser" --headless=new --no-sandbox --disable-gpu --no-first-run --disable-extensions \
                --user-data-dir="$tmp/profile" --screenshot="$out/SB.png" --window-size=600,500 "file://$svg" \
                > /dev/null 2> "$tmp/chrome.err" || fail "no screenshot: $(tail -3 "$tmp/chrome.err")"
            [ -s "$out/SB.png" ] || fail "the screenshot is empty"
            head -c 8 "$out/SB.png" | od -An -c | grep -q 'P   N   G' || fail "the screenshot is no PNG"
        fi
    fi
fi

[ "$fails" -eq 0 ] || { echo "model_graph: $fails failure(s)"; exit 1; }
echo "model_graph: pictures of SB (x86, C), MP, a race and the classic shapes checked; SVG and screenshot in build/test-output/model_graph"
