#!/bin/sh
# The step line: on a terminal, a first compilation (and javac) shows what
# it does while it runs and erases itself after; with a warm cache there is
# no such step, and with stderr in a file nothing of it is written.  A
# terminal comes from script(1).
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
ex="$here/../../examples"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
if ! command -v script >/dev/null 2>&1; then
    echo "SKIP: no script(1) to give the command a terminal (util-linux)"
    exit 77
fi
SB="$ex/x86/SB.litmus"
on_tty() { script -qec "$1" /dev/null > "$2" 2>&1 < /dev/null; }

on_tty "'$L' run -s 1000 -r 1 '$SB'" "$tmp/cold"
grep -q 'litmusc run: compiling the SB runner with cc \.\.\.' "$tmp/cold" ||
    fail "no step line on a terminal for the first build: $(head -c 300 "$tmp/cold")"
# the line is erased (carriage return, erase to end of line) before the log
grep -q "$(printf '\r\033\\[KTest SB')" "$tmp/cold" || fail "the step line is not erased before the log"
on_tty "'$L' run -s 1000 -r 1 '$SB'" "$tmp/warm"
grep -q 'compiling' "$tmp/warm" && fail "a step line with the runner in the cache"
grep -q '^Test SB' "$tmp/warm" || grep -q 'Test SB' "$tmp/warm" || fail "warm run printed no log"

rm -rf "$LITMUSC_CACHE"
"$L" run -s 1000 -r 1 "$SB" > "$tmp/out" 2> "$tmp/err" || fail "run to a file: exit $?"
grep -q 'compiling' "$tmp/err" && fail "a step line written to a file: $(cat "$tmp/err")"
grep -q "$(printf '\033')" "$tmp/out" "$tmp/err" && fail "terminal escapes written to a file"

if command -v javac >/dev/null 2>&1 && command -v java >/dev/null 2>&1; then
    on_tty "'$L' run --target java -s 100 -r 1 '$ex/java/SB+plain.litmus'" "$tmp/java"
    grep -q 'litmusc run: javac: the runner library \.\.\.' "$tmp/java" ||
        fail "no javac step line: $(head -c 300 "$tmp/java")"
    grep -q 'litmusc run: javac: 1 test class \.\.\.' "$tmp/java" ||
        fail "no javac step line for the test class: $(head -c 300 "$tmp/java")"
else
    echo "SKIP: no javac, the Java step lines are not checked"
fi
[ "$fails" -eq 0 ] || exit 1
echo "step_line: all checks passed"
