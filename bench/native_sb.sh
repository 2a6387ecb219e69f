#!/bin/sh
# Native harness speed on SB: iterations per second and weak-outcome
# witnesses per second for every sync mode and memory layout, on the X86
# test (inline asm runner) and the C11 relaxed test (C11 runner).  Each
# figure comes from BENCH_REPEAT runs of S x R iterations (build cached).
#   LITMUSC=bin/litmusc sh bench/native_sb.sh [--write]
# --write replaces the native section of bench/RESULTS.md with the table.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${LITMUSC:=$here/../bin/litmusc}"
S=${BENCH_S:-100000}
R=${BENCH_R:-10}
N=${BENCH_REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
cores=$(nproc)
load=$(cut -d' ' -f1 /proc/loadavg)
cc=${CC:-cc}
ccv=$($cc --version | head -1)

# field NAME FILE: a number from the one-object JSON array `run --json` printed.
field() { tr ',' '\n' <"$2" | sed -n "s/^\"$1\":\([0-9.]*\)\$/\1/p" | head -1; }

{
    echo "| test | sync | layout | iterations/s | witnesses per 1M (min / median / max) | witnesses/s |"
    echo "|---|---|---|---:|---:|---:|"
} >"$tmp/table"
for test in x86/SB c/SB+rlx; do
    f="$here/../examples/$test.litmus"
    for sync in loose timebase user; do
        for layout in packed line shuffle; do
            : >"$tmp/runs"
            k=0
            while [ $k -lt "$N" ]; do
                k=$((k + 1))
                if ! "$LITMUSC" run --json -s "$S" -r "$R" --sync $sync --layout $layout --affinity incr \
                    --timeout 300 "$f" >"$tmp/j" 2>"$tmp/err"; then
                    echo "native_sb: $test $sync $layout failed: $(head -2 "$tmp/err")" >&2
                    continue
                fi
                echo "$(field iterations "$tmp/j") $(field elapsed "$tmp/j") $(field positive "$tmp/j")" >>"$tmp/runs"
            done
            [ -s "$tmp/runs" ] || continue
            # One line per run: iterations, seconds, witnesses; medians over the runs.
            awk -v t="$test" -v s=$sync -v l=$layout '
                { e = $2 > 0 ? $2 : 1e-9; ips[NR] = $1 / e; per[NR] = $1 ? $3 * 1e6 / $1 : 0; wps[NR] = $3 / e }
                function med(a, n,   i, j, x) {
                    for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
                    return a[int((n + 1) / 2)]
                }
                END {
                    n = NR; m = med(ips, n); w = med(wps, n); p = med(per, n)
                    printf "| %s | %s | %s | %.0f | %.0f / %.0f / %.0f | %.0f |\n", t, s, l, m, per[1], p, per[n], w
                }' "$tmp/runs" >>"$tmp/table"
        done
    done
done
cmd="LITMUSC=bin/litmusc BENCH_S=$S BENCH_R=$R BENCH_REPEAT=$N sh bench/native_sb.sh"
{
    echo "## Native harness: SB (bench/native_sb.sh)"
    echo
    echo "Machine: $cpu, $cores cores, load average $load at the start; compiler: $ccv."
    echo "Command: \`$cmd\` ($(date -u +%Y-%m-%d)); each row is $N runs of \`litmusc run --json -s $S -r $R"
    echo "--sync SYNC --layout LAYOUT --affinity incr\` ($((S * R)) iterations each; the build is cached, so"
    echo "only the runner's own measured part is timed). Witness rates of one configuration vary"
    echo "by orders of magnitude from run to run on a shared machine: read the min/max, not one figure."
    echo
    cat "$tmp/table"
    echo
    echo "litmus7 was not built here (it needs OCaml); for comparison, REFERENCE 5.6 reports for"
    echo "litmus7 7.57 on a 2-vCPU AMD EPYC VM: SB with \`-a 2\` shows 254-529 weak outcomes per 1M"
    echo "iterations at about 5M iterations/s (1M in 0.19-0.20 s), and 479 per 1M in 23.4 s without"
    echo "\`-a 2\`. Those figures are not measured by this script."
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
