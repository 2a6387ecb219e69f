#!/bin/sh
# `litmusc emit --target c11|x86` on the command line: the three output
# forms (stdout, one file, a folder with the runtime), generated programs
# that build and run and print the histogram protocol with counts adding
# up, --plain relaxed, --scheme, and bad input: exit status 2, a
# file:line:col: error, and no output left behind -- not even for the good
# inputs of a batch that has a bad one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
corpus="$corpora_root/tests/corpus"
: "${LITMUSC:?set LITMUSC to the litmusc program}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
sb=$corpus_sb
mp=$corpus_mp
[ -f "$sb" ] && [ -f "$mp" ] || { echo "native_emit_cli: corpus tests missing under $corpus"; exit 1; }
cc=cc
command -v gcc > /dev/null 2>&1 && cc=gcc

# check_histogram FILE N: the protocol, in order, with counts summing to N.
check_histogram() {
    awk -v want="$2" '
        NR == 1 { if ($0 != "litmusc-histogram 1") bad = "first line " $0; next }
        /^config [a-z-]+ / { if (phase > 0) bad = "config after outcomes"; next }
        /^outcome [0-9]+( -?[0-9]+)*$/ { phase = 1; sum += $2; k = $0; sub(/^outcome [0-9]+/, "", k); seen[k] = 1; nout++; next }
        /^first [1-9][0-9]*( -?[0-9]+)*$/ {
            k = $0; sub(/^first [0-9]+/, "", k)
            if (!(k in seen)) bad = "first line for an outcome not listed: " $0
            if ($2 > want) bad = "first seen after the iterations: " $0
            firsts++; next }
        /^iterations [0-9]+$/ { it = $2; phase = 2; next }
        /^elapsed [0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ { next }
        /^interrupted [01]$/ { next }
        /^end$/ { ended = 1; next }
        { bad = "unexpected line: " $0 }
        END {
            if (!bad && !ended) bad = "no end line"
            if (!bad && sum != it) bad = "counts sum to " sum ", iterations " it
            if (!bad && it != want) bad = "iterations " it ", wanted " want
            if (!bad && firsts != nout) bad = firsts " first-seen lines for " nout " outcomes"
            if (bad) { print bad; exit 1 }
        }' "$1"
}

# 1. stdout, and -o FILE, give the same program.
"$LITMUSC" emit --target c11 "$sb" > "$tmp/a.c" || fail "emit to stdout failed"
"$LITMUSC" emit --target c11 "$sb" -o "$tmp/b.c" || fail "emit -o FILE failed"
cmp -s "$tmp/a.c" "$tmp/b.c" || fail "stdout and -o FILE differ"
grep -q 'memory_order_release' "$tmp/a.c" || fail "X86 stores are not release stores in c11"
ls "$tmp" | grep -q '\.tmp\.' && fail "temporary file left behind"

# 2. A folder: programs plus runtime, which build and run.
for target in c11 x86; do
    out="$tmp/$target"
    "$LITMUSC" emit --target "$target" "$sb" "$mp" -o "$out" || { fail "emit --target $target folder failed"; continue; }
    for f in SB.c MP.c lrt.h lrt_main.c; do
        [ -f "$out/$f" ] || fail "$target: folder lacks $f"
    done
    for t in SB MP; do
        if $cc -O2 -std=c11 -pthread -Wall -Wextra -Werror -o "$out/$t" "$out/$t.c" "$out"/lrt_*.c 2> "$tmp/cc.err"; then
            "$out/$t" -s 2000 -r 3 > "$out/$t.hist" 2> "$tmp/run.err" || fail "$target $t: exit $?: $(head -2 "$tmp/run.err")"
            msg=$(check_histogram "$out/$t.hist" 6000) || fail "$target $t: $msg"
            "$out/$t" -s 500 -r 2 --sync user --layout shuffle --affinity random > "$out/$t.hist2" ||
                fail "$target $t: user/shuffle/random run failed"
            msg=$(check_histogram "$out/$t.hist2" 1000) || fail "$target $t (user): $msg"
            grep -q '^config sync user$' "$out/$t.hist2" || fail "$target $t: config sync not reported"
        else
            fail "$target $t does not compile: $(head -5 "$tmp/cc.err")"
        fi
    done
    # MP under x86-TSO: reading the flag but not the data never happens.
    if [ -f "$out/MP.hist" ]; then
        "$out/MP" -s 20000 -r 5 --sync timebase > "$out/MP.hist3" || fail "$target MP timebase run failed"
        grep -q '^outcome [0-9]* 1 0$' "$out/MP.hist3" && fail "$target MP shows the TSO-forbidden outcome 1 0"
    fi
    # SIGTERM mid-way: the runs finished so far, flagged, adding up.
    if [ -x "$out/SB" ]; then
        "$out/SB" -s 1000 -r 100000000 > "$out/SB.term" 2> /dev/null &
        pid=$!
        sleep 1
        kill -TERM "$pid"
        wait "$pid" || fail "$target SB: exit $? after SIGTERM"
        grep -q '^interrupted 1$' "$out/SB.term" || fail "$target SB: SIGTERM not reported as interrupted"
        n=$(sed -n 's/^iterations //p' "$out/SB.term")
        if [ -z "$n" ] || [ $((n % 1000)) -ne 0 ] || [ "$n" -eq 0 ]; then
            fail "$target SB: after SIGTERM iterations '$n' is not a positive multiple of 1000"
        else
            msg=$(check_histogram "$out/SB.term" "$n") || fail "$target SB after SIGTERM: $msg"
        fi
    fi
    # A bad harness command line: exit 2, nothing on stdout.
    if [ -x "$out/SB" ]; then
        "$out/SB" --sync sideways > "$tmp/bad.out" 2> "$tmp/bad.err"
        [ $? -eq 2 ] || fail "$target: bad --sync did not exit 2"
        [ -s "$tmp/bad.out" ] && fail "$target: bad --sync printed on stdout"
    fi
done
[ -f "$tmp/x86/SB.c" ] && { grep -q '#START _litmus_P0' "$tmp/x86/SB.c" || fail "x86 source lacks markers"; }

# 3. Options.
na=$(grep -l 'volatile int\*\|^ *\*[a-z]* = ' "$corpus"/c11/na2/*.litmus 2>/dev/null | head -1)
[ -n "$na" ] || fail "no C test with plain accesses in $corpus/c11/na2"
if [ -n "$na" ]; then
    "$LITMUSC" emit --target c11 "$na" > "$tmp/na_v.c" || fail "emit $na failed"
    "$LITMUSC" emit --target c11 --plain relaxed "$na" > "$tmp/na_r.c" || fail "emit --plain relaxed failed"
    grep -q '(volatile ' "$tmp/na_v.c" || fail "plain accesses are not volatile by default"
    grep -q '(volatile ' "$tmp/na_r.c" && fail "--plain relaxed still has volatile accesses"
fi
"$LITMUSC" emit --target c11 --plain sideways "$sb" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--plain sideways is not a usage error"
csb=$(ls "$corpus"/c11/classic/SB*.litmus 2>/dev/null | head -1)
[ -n "$csb" ] || fail "no C SB test in $corpus/c11/classic"
if [ -n "$csb" ]; then
    "$LITMUSC" emit --target x86 "$csb" > "$tmp/c_x86.c" || fail "C test through the default scheme failed"
    grep -q 'scheme c11-x86-xchg' "$tmp/c_x86.c" || fail "default C scheme not c11-x86-xchg"
    "$LITMUSC" emit --target x86 --scheme c11-x86-mfence "$csb" > "$tmp/c_x86m.c" || fail "--scheme c11-x86-mfence failed"
    "$LITMUSC" emit --target x86 --scheme no-such-scheme "$csb" > /dev/null 2> "$tmp/err"
    [ $? -eq 2 ] || fail "an unknown scheme is not exit 2"
fi

# 4. Bad input: exit 2, a positioned error, no file written.
printf 'X86 BAD\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\n FROB EAX ;\nexists (0:EAX=0)\n' > "$tmp/bad.litmus"
"$LITMUSC" emit --target c11 "$tmp/bad.litmus" -o "$tmp/bad.c" 2> "$tmp/err"
[ $? -eq 2 ] || fail "bad input: exit status is not 2"
grep -Eq 'bad.litmus:[0-9]+:[0-9]+: error: ' "$tmp/err" || fail "bad input: no file:line:col: error: $(head -2 "$tmp/err")"
[ -e "$tmp/bad.c" ] && fail "bad input left an output file"
"$LITMUSC" emit --target x86 "$sb" "$tmp/bad.litmus" -o "$tmp/batch" 2> /dev/null
[ $? -eq 2 ] || fail "batch with a bad input: exit status is not 2"
[ -e "$tmp/batch/SB.c" ] && fail "batch with a bad input still wrote SB.c"
"$LITMUSC" emit --target c11 "$tmp/no-such.litmus" > /dev/null 2>&1
[ $? -eq 2 ] || fail "missing file: exit status is not 2"
"$LITMUSC" emit --target c11 "$sb" "$mp" > /dev/null 2>&1
[ $? -eq 2 ] || fail "two inputs without -o is not a usage error"
cp "$sb" "$tmp/SB-copy.litmus"
"$LITMUSC" emit --target c11 "$sb" "$tmp/SB-copy.litmus" -o "$tmp/twice" 2> "$tmp/err"
[ $? -eq 2 ] || fail "two tests named SB into one folder is not exit 2"
grep -q "^litmusc emit: $tmp/SB-copy.litmus: error: test name 'SB' is also used by " "$tmp/err" ||
    fail "two tests named SB: $(cat "$tmp/err")"
[ -e "$tmp/twice/SB.c" ] && fail "two tests named SB: a file was written"
"$LITMUSC" emit --target c11 --frobnicate "$sb" > /dev/null 2>&1
[ $? -eq 2 ] || fail "unknown option is not a usage error"
"$LITMUSC" emit --target c11 --help | grep -q -- '--plain' || fail "--help does not describe --plain"

# 5. A test name that is not a safe file name becomes one.
sed 's/^X86 SB/X86 ..\/..\/evil:name/' "$sb" > "$tmp/evil.litmus"
mkdir -p "$tmp/evil"
if "$LITMUSC" emit --target c11 "$tmp/evil.litmus" "$mp" -o "$tmp/evil" 2> "$tmp/err"; then
    ls "$tmp/evil" | grep -q '^_._.._evil_name\.c$' || fail "unsafe test name not sanitised: $(ls "$tmp/evil")"
    [ -e "$tmp/evil.c" ] && fail "test name escaped the output folder"
else
    grep -q 'error' "$tmp/err" || fail "evil name: failed without an error"
fi

if [ "$fails" -ne 0 ]; then
    echo "native_emit_cli: $fails failures"
    exit 1
fi
echo "native_emit_cli: ok"
