#!/bin/sh
# Coverage of the C11 runner, per corpus folder of C tests: of the states
# rc11 allows, those the test's x86 compilation can show (c11-x86-xchg
# under x86tso: what any run on this x86 machine can show at all), and how
# many of those a run showed at one budget (1M iterations a test) with
#   default   run --target c11 -s 100000 -r 10;
#   cover     run --target c11 --until-covered --max-iterations 1M;
# then, for --until-covered, the iterations it took on the tests it
# covered (the `(covered after N iterations)` of each Coverage line).
# RUNNER=x86 runs the x86 runner instead (the tests' compilation through
# their arch's default scheme), on C or Java tests alike.  A test whose
# run fails prints no Coverage line; the folders with such tests are
# named after the table.
#   LITMUSC=bin/litmusc [RUNNER=c11|x86] sh bench/coverage_c11.sh [DIR]
# DIR: a folder of C (or Java) tests with subfolders (default tests/corpus/c11).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
dir=${1:-$here/../tests/corpus/c11}
runner=${RUNNER:-c11}
bench_tmp cache

# Only the tests with an x86= count take part: a test rc11 calls undefined
# (a data race) allows every state, so it has no set to cover.
# sums LOG: "tests allowed reachable seen complete" over its Coverage lines
sums() {
    awk '/^Coverage .* x86=/ {
            split($3, a, "/"); allowed += a[2]; n++
            for (i = 4; i <= NF; i++) if ($i ~ /^x86=/) { split(substr($i, 5), x, "/"); seen += x[1]; reach += x[2]; if (x[1] == x[2]) c++ }
        } END { printf "%d %d %d %d %d\n", n, allowed, reach, seen, c }' "$1"
}
# iters LOG: "median max (tests)" of the covered-after counts
iters() {
    sed -n 's/^Coverage .* x86=.*(covered after \([0-9]*\) iterations)$/\1/p' "$1" | sort -n | median_max
}

table_head folder "tests (defined)" "rc11 allows" "x86 can show" "default: seen (complete)" \
    "--until-covered: seen (complete)" "iterations to cover (median, max)"
tot="0 0 0 0 0 0 0"
for sub in "$dir"/*/; do
    name=$(basename "$sub")
    files=$(find "$sub" -name '*.litmus' | sort)
    [ -n "$files" ] || continue
    # shellcheck disable=SC2086
    "$LITMUSC" run --target "$runner" -s 100000 -r 10 $files > "$tmp/def.log" 2>"$tmp/def.err"
    # shellcheck disable=SC2086
    "$LITMUSC" run --target "$runner" -s 100000 -r 1 --until-covered --max-iterations 1M $files > "$tmp/cov.log" 2>"$tmp/cov.err"
    # a test whose run failed prints no Coverage line: say so, or the sums
    # would just leave it out
    for log in def cov; do
        n=$(echo "$files" | wc -l) got=$(grep -c '^Coverage ' "$tmp/$log.log")
        [ "$got" -lt "$n" ] && echo "$name ($log): $((n - got)) of $n tests printed no Coverage line: $(head -3 "$tmp/$log.err" | tr '\n' ' ')" >> "$tmp/missing"
    done
    set -- $(sums "$tmp/def.log")
    d_seen=$4 d_c=$5
    set -- $(sums "$tmp/cov.log")
    printf '| %s | %d | %d | %d | %d (%d) | %d (%d) | %s |\n' "$name" "$1" "$2" "$3" "$d_seen" "$d_c" "$4" "$5" "$(iters "$tmp/cov.log")"
    tot=$(echo "$tot $1 $2 $3 $d_seen $d_c $4 $5" | awk '{ for (i = 1; i <= 7; i++) printf "%d ", $i + $(i + 7) }')
done
echo "$tot" | awk '{ printf "| **all** | %d | %d | %d | %d (%d) | %d (%d) | |\n", $1, $2, $3, $4, $5, $6, $7 }'
if [ -s "$tmp/missing" ]; then
    echo
    cat "$tmp/missing"
fi
