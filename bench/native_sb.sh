#!/bin/sh
# Native harness speed on SB: iterations per second and weak-outcome
# witnesses per second for every sync mode and memory layout, and for
# several timebase and loose chunk sizes, on the X86 test (inline asm runner) and the
# C11 relaxed test (C11 runner).  Each figure is the median of BENCH_REPEAT
# runs of S x R iterations (build cached).  The configurations take turns
# (round after round) rather than running back to back, because a shared
# machine's speed drifts over minutes and would otherwise favour whichever
# configuration ran in a quiet spell.
#   LITMUSC=bin/litmusc sh bench/native_sb.sh [--write]
# --write replaces the native section of bench/RESULTS.md with the table.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
S=${BENCH_S:-100000}
R=${BENCH_R:-10}
N=${BENCH_REPEAT:-3}
bench_tmp
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
cores=$(nproc)
load=$(cut -d' ' -f1 /proc/loadavg)
cc=${CC:-cc}
ccv=$($cc --version | head -1)

. "$here/run_counts.sh"

# One configuration per line: test, then the run options.
: >"$tmp/configs"
for test in x86/SB c/SB+rlx; do
    for sync in timebase loose user; do
        for layout in array packed line shuffle; do
            echo "$test --sync $sync --layout $layout" >>"$tmp/configs"
        done
    done
    for chunk in 1 8 16 32 128; do
        echo "$test --sync timebase --layout array --chunk $chunk" >>"$tmp/configs"
    done
    for chunk in 0 64 1024; do
        echo "$test --sync loose --layout array --chunk $chunk" >>"$tmp/configs"
    done
    echo "$test --sync loose --layout packed --chunk 1024" >>"$tmp/configs"
done

k=0
while [ $k -lt "$N" ]; do
    k=$((k + 1))
    c=0
    while read -r test opts; do
        c=$((c + 1))
        # shellcheck disable=SC2086
        if "$LITMUSC" run --json -s "$S" -r "$R" $opts --affinity incr --timeout 300 \
            "$here/../examples/$test.litmus" >"$tmp/j" 2>"$tmp/err"; then
            run_counts "$tmp/j" >>"$tmp/runs.$c"
        else
            echo "native_sb: $test $opts failed: $(head -2 "$tmp/err")" >&2
        fi
    done <"$tmp/configs"
done

{
    echo "| test | options | iterations/s | witnesses per 1M (min / median / max) | witnesses/s |"
    echo "|---|---|---:|---:|---:|"
} >"$tmp/table"
c=0
while read -r test opts; do
    c=$((c + 1))
    [ -s "$tmp/runs.$c" ] || continue
    # One line per run: iterations, seconds, witnesses; medians over the runs.
    awk -v t="$test" -v o="$opts" '
        { e = $2 > 0 ? $2 : 1e-9; ips[NR] = $1 / e; per[NR] = $1 ? $3 * 1e6 / $1 : 0; wps[NR] = $3 / e }
        function sort(a, n,   i, j, x) {
            for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
        }
        END {
            n = NR; sort(ips, n); sort(wps, n); sort(per, n); m = int((n + 1) / 2)
            printf "| %s | %s | %.0f | %.0f / %.0f / %.0f | %.0f |\n", t, o, ips[m], per[1], per[m], per[n], wps[m]
        }' "$tmp/runs.$c" >>"$tmp/table"
done <"$tmp/configs"

cmd="LITMUSC=bin/litmusc BENCH_S=$S BENCH_R=$R BENCH_REPEAT=$N sh bench/native_sb.sh"
{
    echo "## Native harness: SB (bench/native_sb.sh)"
    echo
    echo "Machine: $cpu, $cores cores, load average $load at the start; compiler: $ccv."
    echo "Command: \`$cmd\` ($(date -u +%Y-%m-%d)); each row is the median of $N runs of \`litmusc run --json"
    echo "-s $S -r $R OPTIONS --affinity incr\` ($((S * R)) iterations each; the build is cached, so only"
    echo "the runner's own measured part is timed, counting and resetting included).  The rows take"
    echo "turns, round after round.  Witness rates of one configuration still vary by an order of"
    echo "magnitude from run to run on a shared machine: read the min/max, not one figure.  The"
    echo "default is \`--sync timebase --layout array --chunk 64\` with an adaptive period (the first"
    echo "row of each test)."
    echo
    cat "$tmp/table"
    echo
    echo "For litmus7 on the same machine in the same run, see litmus7_compare below."
} >"$tmp/section"
cat "$tmp/section"
if [ "${1:-}" = --write ]; then
    res="$here/RESULTS.md"
    # Replace our section (up to the next "## " heading) or append it.
    awk -v sec="$tmp/section" '
        /^## Native harness: SB/ { while ((getline line < sec) > 0) print line; skip = 1; done = 1; next }
        /^## / && skip { skip = 0; print ""; }
        !skip { print }
        END { if (!done) { print ""; while ((getline line < sec) > 0) print line } }
    ' "$res" >"$tmp/res" && cp "$tmp/res" "$res"
    echo "native_sb: wrote $res"
fi
