#!/bin/sh
# check: long
# Fault injection: `campaign run` is killed with SIGKILL (its whole process
# group, as a terminal's ^\ or an OOM kill of a job would) at moments
# drawn from a fixed seed, during builds and during runs (the first five in
# `make check`, where each round's builds from an empty cache made this the
# suite's slowest test; all ten under CORPUS_ALL=1, make check-all); each time one
# resume must finish every run (none left `running` by the dead worker),
# and afterwards no runner of it is alive and no build folder is left in
# its cache.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
ex="$here/../../examples/x86"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v setsid >/dev/null 2>&1 || { echo "SKIP: no setsid to start a campaign in its own process group"; exit 77; }
tests="$ex/SB.litmus $ex/MP.litmus $ex/LB.litmus $ex/IRIW.litmus"

# moments in tenths of a second, from a fixed seed (awk's rand is portable
# enough for that: the same moments on every run of this test); the first
# five have both kinds of kill, and kills in builds and in runs
kills=5
[ "${CORPUS_ALL:-0}" = 1 ] && kills=10
moments=$(awk -v n="$kills" 'BEGIN { srand(36); for (i = 0; i < n; i++) printf "%d ", 1 + int(rand() * 25) }')
round=0
for m in $moments; do
    round=$((round + 1))
    d="$tmp/r$round"
    mkdir -p "$d"
    # a fresh cache each round, so that early moments fall in builds
    if [ $((round % 2)) = 1 ]; then
        # odd rounds: the campaign's whole process group
        LITMUSC_CACHE="$d/cache" setsid "$L" campaign run --db "$d/c.db" -s 10000 -r 5 $tests >"$d/out1" 2>&1 &
        leader=$!
        sleep "$(awk -v m="$m" 'BEGIN { printf "%.1f", m / 10 }')"
        kill -KILL "-$leader" || fail "round $round: could not kill process group $leader"
    else
        # even rounds: the campaign alone, under a parent that never reaps
        # it (as a container's PID 1 that reaps late): it stays a zombie,
        # its pid still answers kill(pid, 0), so only what the kernel
        # released at its death can tell that it is gone
        LITMUSC_CACHE="$d/cache" sh -c '"$0" campaign run --db "$1" -s 10000 -r 5 $2 >"$3" 2>&1 & echo $! >"$4"; exec sleep 120' \
            "$L" "$d/c.db" "$tests" "$d/out1" "$d/pid" &
        leader=$!
        sleep "$(awk -v m="$m" 'BEGIN { printf "%.1f", m / 10 }')"
        kill -KILL "$(cat "$d/pid")" || fail "round $round: could not kill the campaign"
    fi
    # resume at once
    LITMUSC_CACHE="$d/cache" "$L" campaign run --db "$d/c.db" -s 10000 -r 5 $tests >"$d/out2" 2>&1 ||
        fail "round $round (kill at ${m}/10 s): resume exit $?: $(tail -2 "$d/out2")"
    kill -KILL "$leader" 2>/dev/null
    wait "$leader" 2>/dev/null
    grep -q "4 of 4 finished" "$d/out2" ||
        fail "round $round (kill at ${m}/10 s): not every run finished after one resume: $(tail -1 "$d/out2")"
    "$L" campaign report --db "$d/c.db" >"$d/rep" 2>&1
    grep -q "4 runs: 4 finished, 0 failed, 0 not run" "$d/rep" || fail "round $round: report: $(head -1 "$d/rep")"
    left=$(find "$d/cache" -maxdepth 1 -name 'build-*' 2>/dev/null | wc -l)
    [ "$left" -eq 0 ] || fail "round $round: $left build folders left in the cache"
    # a runner is started through the cache folder's descriptor, so its
    # executable link (not its command line) names the cache
    alive=$(find /proc/[0-9]*/exe -maxdepth 0 -lname "$d/cache/*" 2>/dev/null | sed 's|^/proc/\([0-9]*\)/exe$|\1|')
    if [ -n "$alive" ]; then
        fail "round $round: a runner of the killed campaign is still alive: pids $alive"
        for p in $alive; do kill -KILL "$p" 2>/dev/null; done
    fi
done
[ "$fails" -eq 0 ] || exit 1
echo "campaign_kill: $kills kills (at $(echo $moments | tr ' ' ',') tenths of a second), every run finished after one resume"
