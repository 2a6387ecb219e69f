#!/bin/sh
# `litmusc run` stops at once on SIGTERM and SIGINT while it computes a
# behaviour set (seconds of CPU for a test of four threads and fifteen
# accesses): exit 3, "interrupted", and the tests it printed before kept.
# (A signal while a runner runs stops the runner and keeps its partial
# histogram: run_faulty_runners.sh.)
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
sb="$here/../../examples/x86/SB.litmus"
tmp=$(mktemp -d)
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# four threads, twelve relaxed stores and loads on three locations
big="$tmp/big.litmus"
{
    echo "C big"
    echo "{}"
    for p in 0 1 2; do
        v=$((p + 1))
        echo "P$p(atomic_int* x, atomic_int* y, atomic_int* z) {"
        for l in x y z; do echo "  atomic_store_explicit($l, $v, memory_order_relaxed);"; done
        echo "  int r0 = atomic_load_explicit(x, memory_order_relaxed);"
        echo "}"
    done
    echo "P3(atomic_int* x, atomic_int* y, atomic_int* z) {"
    i=0
    for l in x y z x y z; do echo "  int r$i = atomic_load_explicit($l, memory_order_relaxed);"; i=$((i + 1)); done
    echo "}"
    echo "exists (0:r0=0)"
} >"$big"

# try SIG: run SB then the big test; once SB's log is out, SIG; litmusc
# must be gone within 2 s
try() {
    sig=$1
    "$L" run -s 1000 -r 1 "$sb" "$big" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    i=0
    while ! grep -q "^Verdict SB" "$tmp/out" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    sleep 0.5   # into the big test's behaviour set
    kill -"$sig" $pid
    i=0
    while kill -0 $pid 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 $pid 2>/dev/null; then
        fail "SIG$sig: litmusc run still runs 2 s later"
        kill -KILL $pid
    fi
    wait $pid
    rc=$?
    [ $rc = 3 ] || fail "SIG$sig: exit $rc, not 3: $(cat "$tmp/err")"
    grep -q "interrupted" "$tmp/err" || fail "SIG$sig: no 'interrupted' on stderr: $(cat "$tmp/err")"
    grep -q "^Verdict SB" "$tmp/out" || fail "SIG$sig: SB's log, printed before, was lost"
}
try TERM
try INT

[ "$fails" -eq 0 ] || exit 1
echo "run_interrupt: ok"
