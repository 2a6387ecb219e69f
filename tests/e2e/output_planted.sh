#!/bin/sh
# Output files in a sticky folder that others may write (/tmp): a link
# another user planted under the output's name is not followed (exit 3,
# the file it points at untouched); a file replaced keeps its mode (a 0600
# file does not become 0644); and another process's temporary file beside
# the output (NAME.tmp.PID) is left alone.  The planted link needs root and
# the user nobody; the rest runs as anyone.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
gen() { "$L" gen --arch X86 PodWW Rfe PodRR Fre -o "$1" > /dev/null 2> "$tmp/err"; }

# a file replaced keeps its mode
printf 'secret\n' > "$tmp/private.litmus"
chmod 600 "$tmp/private.litmus"
gen "$tmp/private.litmus" || fail "gen -o FILE: exit $?: $(cat "$tmp/err")"
grep -q '^X86' "$tmp/private.litmus" || fail "gen -o FILE: not written"
mode=$(stat -c %a "$tmp/private.litmus")
[ "$mode" = 600 ] || fail "a 0600 file replaced by -o became $mode"

# another process's temporary file is not removed: the shell's pid is the
# pid litmusc runs under after exec
sh -c 'echo theirs > "$1.tmp.$$"; echo "$$" > "$2"; exec "$3" gen --arch X86 PodWW Rfe PodRR Fre -o "$1"' \
    sh "$tmp/mine.litmus" "$tmp/pid" "$L" > /dev/null 2> "$tmp/err" || fail "gen beside a .tmp.PID: exit $?: $(cat "$tmp/err")"
pid=$(cat "$tmp/pid")
[ -f "$tmp/mine.litmus.tmp.$pid" ] || fail "another process's $tmp/mine.litmus.tmp.$pid was removed"
grep -q '^X86' "$tmp/mine.litmus" || fail "gen -o beside a .tmp.PID: not written"

if [ "$(id -u)" -ne 0 ] || ! id nobody > /dev/null 2>&1 || ! command -v setpriv > /dev/null 2>&1; then
    echo "SKIP: a link planted by another user needs root, the user nobody and setpriv"
else
    as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
    chmod 755 "$tmp"
    mkdir "$tmp/root" "$tmp/shared"
    chmod 700 "$tmp/root"
    chmod 1777 "$tmp/shared"
    printf 'root only\n' > "$tmp/root/victim"
    chmod 600 "$tmp/root/victim"
    as_nobody ln -s "$tmp/root/victim" "$tmp/shared/report.html"
    gen "$tmp/shared/report.html"
    st=$?
    [ "$st" -ne 0 ] || fail "gen -o a link nobody planted in a sticky folder: exit 0"
    grep -q 'report.html' "$tmp/err" || fail "no word of the refused output: $(cat "$tmp/err")"
    [ "$(cat "$tmp/root/victim")" = "root only" ] || fail "root's file was overwritten through nobody's link"
    mode=$(stat -c %a "$tmp/root/victim")
    [ "$mode" = 600 ] || fail "root's file went from 0600 to $mode"
    [ -L "$tmp/shared/report.html" ] || fail "nobody's link was replaced"
    # root's own link there is still followed
    ln -s "$tmp/root/mine" "$tmp/shared/own.litmus"
    gen "$tmp/shared/own.litmus" || fail "gen -o root's own link in a sticky folder: exit $?: $(cat "$tmp/err")"
    grep -q '^X86' "$tmp/root/mine" || fail "root's own link was not written through"
fi

[ "$fails" -eq 0 ] || { echo "output_planted: $fails failure(s)"; exit 1; }
echo "output_planted: a planted link refused, modes kept, others' temporary files left"
