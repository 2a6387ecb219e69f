#!/bin/sh
# emit --target x86-litmus on the examples: the register map (comment and
# --map file), one file or a folder, and the compiled program's behaviour
# under litmusc's own x86tso model read back through its frontend.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ex="$here/../../examples"
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# One test to a file, with its map.
if ! "$L" emit --target x86-litmus --scheme c11-x86-mfence "$ex/c/SB+sc.litmus" -o "$tmp/sb.litmus" --map "$tmp/sb.map"; then
    fail "emit SB+sc"
fi
grep -q '^X86 SB+sc$' "$tmp/sb.litmus" || fail "no X86 header"
grep -q '^(\* register map: 0:r0=0:[A-Z]* 1:r0=1:[A-Z]* \*)$' "$tmp/sb.litmus" || fail "no register map comment"
grep -q '^0:r0 0:E[A-Z]X$' "$tmp/sb.map" || fail "map file lacks 0:r0: $(cat "$tmp/sb.map")"
grep -q 'MFENCE' "$tmp/sb.litmus" || fail "c11-x86-mfence emitted no MFENCE"
# The map file and the condition agree: 0:r0 is the register the condition names.
r0=$(awk '$1 == "0:r0" { print $2 }' "$tmp/sb.map")
grep -q "^exists (${r0}=0 /\\\\ 1:" "$tmp/sb.litmus" || fail "condition not on $r0: $(tail -1 "$tmp/sb.litmus")"

# Read back through the X86 frontend, the compiled program behaves as the
# in-process one (--reparse), and the inclusion verdicts follow.
for f in "$ex"/c/*.litmus; do
    for s in c11-x86-xchg c11-x86-mfence; do
        "$L" check-scheme -q --reparse --scheme "$s" "$f" >"$tmp/c.out" 2>&1 || fail "check-scheme --reparse $s $(basename "$f"): $(head -3 "$tmp/c.out")"
    done
    "$L" check-scheme -q --reparse --scheme broken-c11-x86-plainsc "$f" >"$tmp/c.out" 2>&1
    [ $? -le 1 ] || fail "check-scheme --reparse broken $(basename "$f"): $(head -3 "$tmp/c.out")"
done
for f in "$ex"/java/*.litmus; do
    for s in java-x86-hotspot java-x86-leading; do
        "$L" check-scheme -q --reparse --scheme "$s" "$f" >"$tmp/c.out" 2>&1 || fail "check-scheme --reparse $s $(basename "$f"): $(head -3 "$tmp/c.out")"
    done
done
"$L" emit --target x86-litmus --scheme java-x86-hotspot "$ex/java/SB+volatile.litmus" -o "$tmp/jv.litmus" || fail "emit Java SB"
grep -q 'LOCK ADD \[scratch0\],\$0' "$tmp/jv.litmus" || fail "HotSpot barrier missing"
grep -q 'LOCK ADD \[scratch1\],\$0' "$tmp/jv.litmus" || fail "thread 1 does not have its own scratch location"

# X86 tests compile to themselves: the identity compilation passes against
# x86tso, and reads back through the frontend with the same behaviour.
"$L" check-scheme -q --reparse --scheme x86-identity --source-model x86tso "$ex"/x86/*.litmus >"$tmp/c.out" 2>&1 ||
    fail "identity compilation of the x86 examples: $(cat "$tmp/c.out")"
"$L" emit --target x86-litmus "$ex/x86/SB.litmus" -o "$tmp/id.litmus" || fail "identity emit"
grep -q '^exists (0:EAX=0 /\\ 1:EAX=0)$' "$tmp/id.litmus" || fail "identity compilation renamed SB's registers: $(tail -1 "$tmp/id.litmus")"

# Several tests into a folder, one .map beside each with --map.
mkdir "$tmp/dir"
"$L" emit --target x86-litmus --scheme java-x86-leading "$ex"/java/*.litmus -o "$tmp/dir" --map x || fail "emit to folder"
n=$(ls "$ex"/java/*.litmus | wc -l)
[ "$(ls "$tmp/dir"/*.litmus | wc -l)" -eq "$n" ] || fail "folder has $(ls "$tmp/dir" | wc -l) files for $n tests"
[ "$(ls "$tmp/dir"/*.map | wc -l)" -eq "$n" ] || fail "folder lacks .map files"
# stdout when no -o is given
"$L" emit --target x86-litmus --scheme c11-x86-xchg "$ex/c/MP+rel+acq.litmus" | grep -q '^X86 MP+rel+acq$' || fail "emit to stdout"

[ "$fails" -eq 0 ] && echo "x86litmus_roundtrip: all checks passed"
[ "$fails" -eq 0 ]
