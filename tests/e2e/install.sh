#!/bin/sh
# make install PREFIX=... DESTDIR=... puts the program, litmusc(1) and the
# bash completion in place; the installed program works from another
# folder (its models, runtime and schemes are inside it); make uninstall
# takes all three away again.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
dest="$tmp/dest"
prefix=/opt/litmusc-test
make -C "$root" --no-print-directory -s install PREFIX="$prefix" DESTDIR="$dest" BIN="$L" -o "$L" > "$tmp/make.out" 2>&1 ||
    fail "make install: $(tail -5 "$tmp/make.out")"
bin="$dest$prefix/bin/litmusc"
man="$dest$prefix/share/man/man1/litmusc.1"
comp="$dest$prefix/share/bash-completion/completions/litmusc"
for f in "$bin" "$man" "$comp"; do
    [ -f "$f" ] || fail "not installed: $f"
done
[ -x "$bin" ] || fail "the installed program is not executable"
# from a folder with nothing of the project in it
mkdir -p "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
"$bin" gen --arch X86 PodWR Fre PodWR Fre > SB.litmus || fail "installed gen"
"$bin" model SB.litmus | grep -q '^Observation SB Sometimes 1 3$' || fail "installed model"
"$bin" models --print rc11 | grep -q '"RC11"' || fail "installed models --print"
export LITMUSC_CACHE="$tmp/cache"
. "$here/../seed_cache.sh"
"$bin" run -s 1000 -r 2 SB.litmus > run.out 2>&1 || fail "installed run: $(tail -3 run.out)"
grep -q '^Verdict SB Ok' run.out || fail "installed run: no verdict"
cd "$root" || exit 1
# the man page: every command is in it, and groff reads it without a warning
for c in gen parse ir model models emit run 'check\\-scheme' campaign; do
    grep -q "^\.B $c\( \|$\)" "$man" || fail "litmusc(1) does not describe $c"
done
if command -v groff > /dev/null 2>&1; then
    groff -man -ww -z "$man" > "$tmp/groff.err" 2>&1 || fail "groff: $(cat "$tmp/groff.err")"
    [ -s "$tmp/groff.err" ] && fail "groff warns: $(head -3 "$tmp/groff.err")"
else
    echo "SKIP: no groff: the man page was not formatted"
fi
# the completion loads and completes
if command -v bash > /dev/null 2>&1; then
    out=$(bash -c ". '$comp'; COMP_WORDS=(litmusc ca); COMP_CWORD=1; _litmusc; echo \${COMPREPLY[*]}; COMP_WORDS=(litmusc run --sync t); COMP_CWORD=3; _litmusc; echo \${COMPREPLY[*]}")
    echo "$out" | head -1 | grep -qx 'campaign' || fail "completion of 'ca': $out"
    echo "$out" | tail -1 | grep -qx 'timebase' || fail "completion of --sync t: $out"
fi
make -C "$root" --no-print-directory -s uninstall PREFIX="$prefix" DESTDIR="$dest" > "$tmp/make.out" 2>&1 || fail "make uninstall"
for f in "$bin" "$man" "$comp"; do
    [ -e "$f" ] && fail "still there after uninstall: $f"
done
[ "$fails" -eq 0 ] || { echo "install: $fails failure(s)"; exit 1; }
echo "install: program, man page and completion installed under DESTDIR$prefix, run from elsewhere, uninstalled"
