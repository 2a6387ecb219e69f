#!/bin/sh
# Two litmusc builds side by side on one test's default native run (-s
# 100000 -r 10 --affinity incr): iterations and weak-outcome witnesses per
# second, rounds alternating between the two so that a shared machine's
# drift favours neither.  For "no regression" checks of the runtime.
# RUNS sets -r: the default run lasts milliseconds, a campaign's runs
# last seconds, and how the runtime adapts over a long run shows only there.
#   OLD=path/to/old/litmusc NEW=bin/litmusc [ROUNDS=15] [RUNS=10] sh bench/native_ab.sh [TEST]
# TEST: default examples/x86/SB.litmus.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${OLD:?set OLD to the litmusc to compare against}"
: "${NEW:=$here/../bin/litmusc}"
test=${1:-$here/../examples/x86/SB.litmus}
bench_tmp
. "$here/run_counts.sh"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cpus, load $(cut -d' ' -f1 /proc/loadavg)"
echo "test: $test, -s 100000 -r ${RUNS:-10}"
for r in $(seq 1 "${ROUNDS:-15}"); do
    for v in OLD NEW; do
        eval L=\$$v
        LITMUSC_CACHE="$tmp/cache.$v" "$L" run --json -s 100000 -r "${RUNS:-10}" --affinity incr "$test" > "$tmp/j" 2>/dev/null || continue
        echo "$v $(run_counts "$tmp/j")"
    done
done | awk '{ it[$1] += $2; el[$1] += $3; pos[$1] += $4; n[$1]++; r = $2 / $3; w = $4 / $3
              ir[$1] = ir[$1] sprintf(" %.0f", r / 1e6); wr[$1] = wr[$1] sprintf(" %.0f", w / 1e6) }
    END { for (v in n) {
            printf "%s: iterations/s %.0f, witnesses/s %.0f over %d rounds\n", v, it[v] / el[v], pos[v] / el[v], n[v]
            printf "  per round, M iterations/s:%s\n  per round, M witnesses/s:%s\n", ir[v], wr[v] } }'
