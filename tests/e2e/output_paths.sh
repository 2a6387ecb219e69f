#!/bin/sh
# Output files (emit -o, run --xml, campaign report --html/--junit): a
# symlink is written through (the link stays a link, its target gets the
# text), a FIFO or device is written to in place (never replaced by a
# regular file), and a regular file is still replaced whole.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
sb="$here/../../examples/x86/SB.litmus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# emit_to PATH: emit SB as x86-litmus to PATH
emit_to() { "$L" emit --target x86-litmus "$sb" -o "$1" >/dev/null 2>"$tmp/err"; }

# a symlink to a regular file: the link stays, the target gets the text
echo old >"$tmp/target.litmus"
ln -s target.litmus "$tmp/link.litmus"
emit_to "$tmp/link.litmus" || fail "emit -o LINK: exit $?: $(head -2 "$tmp/err")"
[ -L "$tmp/link.litmus" ] || fail "emit -o LINK: the link was replaced"
grep -q "^X86" "$tmp/target.litmus" || fail "emit -o LINK: the target was not written"

# a dangling link: its target is created through it
ln -s made.litmus "$tmp/dangling.litmus"
emit_to "$tmp/dangling.litmus" || fail "emit -o DANGLING: exit $?: $(head -2 "$tmp/err")"
[ -L "$tmp/dangling.litmus" ] || fail "emit -o DANGLING: the link was replaced"
grep -q "^X86" "$tmp/made.litmus" || fail "emit -o DANGLING: the target was not created"

# a FIFO: written to in place, read at the other end
if mkfifo "$tmp/fifo" 2>/dev/null; then
    for what in emit xml junit html; do
        # the reader waits as long as the writer may take (a sanitizer
        # build on a loaded machine builds the harness for a while): a
        # reader gone first would leave the writer blocked in open()
        timeout 300 cat "$tmp/fifo" >"$tmp/fifo.out" &
        reader=$!
        case $what in
        emit) emit_to "$tmp/fifo" ;;
        xml) "$L" run -s 200 -r 1 --xml "$tmp/fifo" "$sb" >/dev/null 2>"$tmp/err" ;;
        junit) [ -f "$tmp/c.db" ] || "$L" campaign run --db "$tmp/c.db" --quiet -s 200 -r 1 "$sb" >/dev/null 2>&1
               "$L" campaign report --db "$tmp/c.db" --junit "$tmp/fifo" >/dev/null 2>"$tmp/err" ;;
        html) "$L" campaign report --db "$tmp/c.db" --html "$tmp/fifo" >/dev/null 2>"$tmp/err" ;;
        esac
        rc=$?
        [ "$rc" -eq 0 ] || { fail "$what to a FIFO: exit $rc: $(head -2 "$tmp/err")"; }
        # a writer that closed the FIFO ends the reader at once; one that
        # never opened it leaves the reader waiting: stop it
        i=0
        while kill -0 "$reader" 2>/dev/null && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill "$reader" 2>/dev/null
        wait "$reader"
        [ -p "$tmp/fifo" ] || { fail "$what to a FIFO: the FIFO was replaced"; rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"; }
        [ -s "$tmp/fifo.out" ] || fail "$what to a FIFO: nothing came through"
    done
    ls "$tmp" | grep -q 'fifo.*tmp' && fail "a temporary file was left beside the FIFO"
fi

# a regular file is replaced whole, and no temporary file stays
echo old >"$tmp/plain.litmus"
emit_to "$tmp/plain.litmus" || fail "emit -o FILE: exit $?"
grep -q "^X86" "$tmp/plain.litmus" || fail "emit -o FILE: not written"
ls "$tmp" | grep -q '\.tmp' && fail "a temporary file was left: $(ls "$tmp")"

# /dev/null itself, only where a program that renamed over it could not
# (not root): it must still be a character device afterwards
if [ "$(id -u)" -ne 0 ] && [ -c /dev/null ]; then
    emit_to /dev/null || fail "emit -o /dev/null: exit $?: $(head -2 "$tmp/err")"
    [ -c /dev/null ] || fail "/dev/null is no longer a character device"
fi
# the same through a link, safe as root too (an old program replaces the link)
ln -s /dev/null "$tmp/null"
emit_to "$tmp/null" || fail "emit -o LINK-TO-/dev/null: exit $?: $(head -2 "$tmp/err")"
[ -L "$tmp/null" ] || fail "emit -o LINK-TO-/dev/null: the link was replaced"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"

[ "$fails" -eq 0 ] || exit 1
echo "output_paths: ok"
