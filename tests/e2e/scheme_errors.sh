#!/bin/sh
# Bad scheme files and bad inputs: file:line:col errors, exit status 2, and
# no output file left behind.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ex="$here/../../examples"
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect STATUS PATTERN CMD...: exit status and a stderr line matching PATTERN
expect() {
    want=$1 pat=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$st" -ne "$want" ] || ! grep -q -- "$pat" "$tmp/err"; then
        echo "FAIL: $*: exit $st (want $want), stderr:"
        sed 's/^/    /' "$tmp/err"
        echo "    (wanted a line matching: $pat)"
        fails=$((fails + 1))
    fi
}

printf 'scheme bad\nsource c\nload * = MOV\nstore rlx,sq = MOV\n' >"$tmp/bad.scheme"
expect 2 "^litmusc [a-z-]*: $tmp/bad.scheme:4:11: error: unknown access mode 'sq'" \
    "$L" check-scheme --scheme "$tmp/bad.scheme" "$ex/c/SB+sc.litmus"
printf 'scheme bad\nsource c\nstore sc = MOV; MFENSE\n' >"$tmp/bad2.scheme"
expect 2 "^litmusc [a-z-]*: $tmp/bad2.scheme:3:17: error: unknown instruction 'MFENSE'" \
    "$L" emit --target x86-litmus --scheme "$tmp/bad2.scheme" "$ex/c/SB+sc.litmus" -o "$tmp/o.litmus"
[ -e "$tmp/o.litmus" ] && { echo "FAIL: output left behind after a scheme error"; fails=$((fails + 1)); }
expect 2 "unknown scheme 'nope'" "$L" check-scheme --scheme nope "$ex/c/SB+sc.litmus"
expect 2 "cannot open scheme file" "$L" check-scheme --scheme "$tmp/missing.scheme" "$ex/c/SB+sc.litmus"

# A scheme with no rule for an access names the source instruction.
printf 'scheme partial\nsource c\nload * = MOV\nstore rlx = MOV\n' >"$tmp/partial.scheme"
expect 2 "SB+sc.litmus:4:3: error: scheme 'partial' has no rule for store sc" \
    "$L" emit --target x86-litmus --scheme "$tmp/partial.scheme" "$ex/c/SB+sc.litmus" -o "$tmp/p.litmus"
[ -e "$tmp/p.litmus" ] && { echo "FAIL: output left behind after a compile error"; fails=$((fails + 1)); }

# Wrong source language for the scheme.
expect 2 "scheme 'java-x86-hotspot' compiles Java tests, not C" \
    "$L" check-scheme --scheme java-x86-hotspot "$ex/c/SB+sc.litmus"
expect 2 "needs a compilation scheme" "$L" emit --target x86-litmus "$ex/c/SB+sc.litmus"

# A broken litmus file among good ones: nothing is written into the folder.
printf 'C broken\n{ }\nP0 (atomic_int* x) { atomic_store_explicit(x, 1, memory_order_seq_cst) }\nexists (0:r0=0)\n' >"$tmp/broken.litmus"
mkdir "$tmp/outdir"
expect 2 "^litmusc [a-z-]*: $tmp/broken.litmus:[0-9]*:[0-9]*: error: " \
    "$L" emit --target x86-litmus --scheme c11-x86-xchg "$ex/c/SB+sc.litmus" "$tmp/broken.litmus" -o "$tmp/outdir"
if [ -n "$(ls "$tmp/outdir")" ]; then
    echo "FAIL: partial output in the folder: $(ls "$tmp/outdir")"
    fails=$((fails + 1))
fi
expect 2 "^litmusc [a-z-]*: $tmp/broken.litmus:[0-9]*:[0-9]*: error: " \
    "$L" check-scheme --scheme c11-x86-xchg "$tmp/broken.litmus"

# Usage errors.
expect 2 "--scheme is required" "$L" check-scheme "$ex/c/SB+sc.litmus"
expect 2 "several tests need -o FOLDER" "$L" emit --target x86-litmus --scheme c11-x86-xchg "$ex/c/SB+sc.litmus" "$ex/c/SB+rlx.litmus"
expect 2 "unknown option" "$L" check-scheme --scheme c11-x86-xchg --bogus "$ex/c/SB+sc.litmus"

[ "$fails" -eq 0 ] && echo "scheme_errors: all checks passed"
[ "$fails" -eq 0 ]
