#!/bin/sh
# Spin loops against herd7: litmusc model over tests/loops/corpus, per
# model (rc11, sc), in one process, beside herd7 on the same tests, one
# process each as herd7 runs, when HERD7 names it (a herd7 command line,
# e.g. "herd7" or "herd.exe -I LIBDIR"); and how the unrolling bound costs:
# litmusc's time and candidates at --unroll 1, 2, 4, 8 (every bound gives
# the same states: tests/e2e/loops.sh); and the loops of tests/loops/cut,
# dropped past the bound (--cut-loops) as herd7 drops them.
#   LITMUSC=bin/litmusc [HERD7="herd7"] sh bench/loops_bench.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
dir="$here/../tests/loops/corpus"
bench_tmp
n=$(ls "$dir"/*.litmus | wc -l)
echo "machine: $(uname -m), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "command: LITMUSC=$LITMUSC HERD7=${HERD7:-} sh bench/loops_bench.sh"
echo "tests: $n (tests/loops/corpus)"
echo
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
now() { date +%s.%N; }
# One row per model: litmusc over DIR's tests in one process (with the
# extra option LFLAG, or none), herd7 one process per test (with HFLAGS).
#   compare_models DIR LFLAG HFLAGS
compare_models() {
    for m in rc11 sc; do
        t0=$(now)
        # shellcheck disable=SC2086
        "$LITMUSC" model $2 --model $m "$1"/*.litmus > /dev/null 2>&1
        t1=$(now)
        ours=$(secs "$t0" "$t1")
        herd=- ratio=-
        if [ -n "${HERD7:-}" ]; then
            t0=$(now)
            for f in "$1"/*.litmus; do
                # shellcheck disable=SC2086
                $HERD7 -model $m.cat $3 "$f" > /dev/null 2>&1
            done
            t1=$(now)
            herd=$(secs "$t0" "$t1")
            ratio=$(awk -v h="$herd" -v o="$ours" 'BEGIN { if (o > 0) printf "%.0fx", h / o; else print "-" }')
        fi
        echo "| $m | $ours | $herd | $ratio |"
    done
}
table_head model "litmusc wall s" "herd7 wall s" "herd7 / litmusc"
compare_models "$dir" "" ""
echo
table_head "--unroll" "litmusc wall s (rc11)" "candidates (sum)"
for u in 1 2 4 8; do
    t0=$(now)
    "$LITMUSC" model --json --unroll $u "$dir"/*.litmus > "$tmp/j" 2>/dev/null
    t1=$(now)
    c=$(tr ',' '\n' < "$tmp/j" | sed -n 's/.*"candidates":\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
    echo "| $u | $(secs "$t0" "$t1") | $c |"
done
echo
# Loops that are no spin loops, dropped past the bound as herd7 drops them
# (--cut-loops; tests/loops/cut, each with Unroll=1, herd7 given -unroll 1).
cut="$here/../tests/loops/cut"
table_head "tests/loops/cut ($(ls "$cut"/*.litmus | wc -l) tests)" "litmusc wall s (--cut-loops)" "herd7 wall s (-unroll 1)" "herd7 / litmusc"
compare_models "$cut" --cut-loops "-unroll 1"
