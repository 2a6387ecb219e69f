#!/bin/sh
# A runner dies with its parent: the runner leads its own process group
# (so a timeout kills all it started), which keeps it out of a kill of
# litmusc's group; kill -9 of litmusc itself must still end it at once
# (PR_SET_PDEATHSIG), for `run` and for `campaign run`.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
command -v setsid >/dev/null 2>&1 || { echo "SKIP: no setsid"; exit 77; }
sb="$here/../../examples/x86/SB.litmus"
tmp=$(mktemp -d)
cache="$tmp/orphan-cache-$$"
export LITMUSC_CACHE="$cache"
# runner_pids: the processes whose executable is in this test's cache (a
# runner is started through the cache folder's descriptor, /proc/PID/fd/N,
# so its command line does not name the cache; its exe link does)
runner_pids() {
    find /proc/[0-9]*/exe -maxdepth 0 -lname "$cache/*" 2>/dev/null | sed 's|^/proc/\([0-9]*\)/exe$|\1|'
}
# kill_runners: end, by pid, whatever still runs from this test's cache
kill_runners() { for p in $(runner_pids); do kill -KILL "$p" 2>/dev/null; done; }
cleanup() {
    kill_runners
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# build the runner first, so the kill below lands while it runs
"$L" run -s 100 -r 1 "$sb" >/dev/null 2>"$tmp/err" || { fail "warm-up run: exit $?: $(head -2 "$tmp/err")"; exit 1; }

# runner_alive: a process runs an executable from this test's cache
runner_alive() { [ -n "$(runner_pids)" ]; }

# try NAME CMD...: start CMD (a 30 s run) in a session of its own, wait
# for its runner, kill -9 litmusc alone, and expect no runner 2 s later
try() {
    name=$1
    shift
    setsid "$@" >/dev/null 2>&1 &
    pid=$!
    i=0
    while ! runner_alive && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    runner_alive || { fail "$name: no runner started"; kill -KILL "$pid" 2>/dev/null; return; }
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    i=0
    while runner_alive && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
    if runner_alive; then
        fail "$name: the runner outlived litmusc: $(runner_pids | head -2)"
        kill_runners
    fi
}

try run "$L" run -s 100000 -r 100000 --time 30 --timeout 60 "$sb"
try "campaign run" "$L" campaign run --db "$tmp/c.db" --quiet -s 100000 -r 100000 --time 30 --timeout 60 "$sb"

# kill -9 during a build: the build folder it leaves goes on the next start
export LITMUSC_CACHE="$tmp/fresh-cache"
setsid "$L" run -s 1000 -r 1 "$sb" >/dev/null 2>&1 &
pid=$!
i=0
while ! ls -d "$LITMUSC_CACHE"/build-* >/dev/null 2>&1 && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
if ls -d "$LITMUSC_CACHE"/build-* >/dev/null 2>&1; then
    sleep 0.5   # the compiler, killed with litmusc, lets go of its files
    "$L" run -s 1000 -r 1 "$sb" >/dev/null 2>"$tmp/err" || fail "run after a killed build: exit $?: $(head -2 "$tmp/err")"
    ls -d "$LITMUSC_CACHE"/build-* >/dev/null 2>&1 && fail "a killed build's folder was left: $(ls "$LITMUSC_CACHE")"
else
    echo "note: the build ended before the kill; nothing left to clean"
fi

[ "$fails" -eq 0 ] || exit 1
echo "orphan_runner: ok"
