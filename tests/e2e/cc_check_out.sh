#!/bin/sh
# cc-check --out keeps its files inside its folder: a test named
# "../../victim" becomes a file name only through the one sanitiser of test
# names; --out makes its folder; a write that fails says why.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
command -v cc >/dev/null 2>&1 || { echo "SKIP: no cc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
src="$here/../corpus/c11/classic/SB+poscscs.litmus"
mkdir "$tmp/w"
sed '1s/.*/C ..\/..\/victim/' "$src" > "$tmp/w/t.litmus"
mkdir -p "$tmp/w/a/b"
(cd "$tmp/w" && "$L" cc-check --cc cc --out a/b t.litmus) > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "cc-check --out a/b: exit $rc: $(cat "$tmp/err")"
outside=$(cd "$tmp" && find . -name '*victim*' ! -path './w/a/b/*')
[ -z "$outside" ] || fail "files written outside --out a/b: $outside"
n=$(find "$tmp/w/a/b" -name '*victim*.litmus' | wc -l)
[ "$n" -eq 1 ] || fail "want one lifted test in a/b, found $n: $(ls "$tmp/w/a/b" 2>&1)"
n=$(find "$tmp/w/a/b" -name '*victim*.c' | wc -l)
[ "$n" -eq 1 ] || fail "want one translation unit in a/b, found $n"

# --out makes its folder
"$L" cc-check --cc cc --out "$tmp/c/d" "$src" > /dev/null 2> "$tmp/err" || fail "--out c/d: exit $?: $(cat "$tmp/err")"
[ -f "$tmp/c/d/SB+poscscs.cc.-O2.litmus" ] || fail "--out did not make its folder: $(ls -R "$tmp/c" 2>&1)"

# --out under a file: cannot be made, and says why
: > "$tmp/file"
"$L" cc-check --cc cc --out "$tmp/file/sub" "$src" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "--out under a file: exit $rc, want 3"
grep -q "Not a directory" "$tmp/err" || fail "--out under a file: no reason: $(cat "$tmp/err")"
# a lifted test's name taken by a folder: "cannot write X: why"
mkdir -p "$tmp/o/SB+poscscs.cc.-O2.litmus"
"$L" cc-check --cc cc --out "$tmp/o" "$src" > /dev/null 2> "$tmp/err"
grep -q "cannot write .*SB+poscscs.cc.-O2.litmus: Is a directory" "$tmp/err" ||
    fail "a failed write without its reason: $(cat "$tmp/err")"

[ "$fails" -eq 0 ] || { echo "cc_check_out: $fails failure(s)"; exit 1; }
echo "cc_check_out: names stay inside --out, which is made; failed writes say why"
