#!/bin/sh
# The build cache runs what it holds, so it trusts only what is private:
# a damaged entry (truncated, overwritten) is rebuilt, never run; a folder
# of someone else's is refused (exit 3, saying why); a build folder left
# by a kill -9 during a build is removed by the next build.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
sb="$here/../../examples/x86/SB.litmus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cache="$tmp/cache"
export LITMUSC_CACHE="$cache"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() { "$L" run -s 1000 -r 1 "$sb" >"$tmp/out" 2>"$tmp/err"; }

run || fail "first run: exit $?: $(head -2 "$tmp/err")"
[ "$(stat -c %a "$cache")" = 700 ] || fail "the cache folder is mode $(stat -c %a "$cache"), not 700"

# a damaged runner: every later run used to crash on it
for exe in "$cache"/*.exe; do printf '\177ELF' >"$exe"; done
run || fail "run after the runner was truncated: exit $?: $(head -2 "$tmp/err")"
grep -q 'build="built' "$tmp/out" || fail "a truncated runner was not rebuilt: $(grep -o 'build="[^"]*"' "$tmp/out")"
run || fail "run after the rebuild: exit $?"
grep -q 'build="cached"' "$tmp/out" || fail "the rebuilt runner is not reused"

# an entry others may write is not trusted
for exe in "$cache"/*.exe; do chmod 777 "$exe"; done
run || fail "run after chmod 777: exit $?"
grep -q 'build="built' "$tmp/out" || fail "a world-writable runner was run"

# a build folder whose builder was killed (its lock free) goes on the next build
mkdir "$cache/build-Killed" && : >"$cache/build-Killed/.lock"
"$L" run -s 1000 -r 1 "$here/../../examples/x86/MP.litmus" >/dev/null 2>"$tmp/err" || fail "MP run: exit $?: $(head -2 "$tmp/err")"
[ -e "$cache/build-Killed" ] && fail "a stale build folder was left"

# someone else's folder: refused with a reason (as root, make one; else /)
if [ "$(id -u)" -eq 0 ]; then
    mkdir -m 700 "$tmp/foreign" && chown 65534 "$tmp/foreign"
    LITMUSC_CACHE="$tmp/foreign" "$L" run -s 1000 -r 1 "$sb" >/dev/null 2>"$tmp/err"
else
    LITMUSC_CACHE=/ "$L" run -s 1000 -r 1 "$sb" >/dev/null 2>"$tmp/err"
fi
rc=$?
[ "$rc" -eq 3 ] || fail "a foreign cache folder: exit $rc, not 3"
grep -q "refusing the build cache" "$tmp/err" || fail "a foreign cache folder: no reason: $(head -2 "$tmp/err")"

[ "$fails" -eq 0 ] || exit 1
echo "cache_security: ok"
