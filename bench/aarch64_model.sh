#!/bin/sh
# Model speed on the AArch64 tests of tests/aarch64 (herdtools7's catalogue
# and instruction tests): litmusc's aarch64 model, herd's aarch64.cat run
# by litmusc through --model, and herd7 7.57 itself, each as one batch
# (one process for all tests) and per test (one process each: median and
# slowest, milliseconds of wall time).  Only the tests litmusc's parser
# accepts are timed, the same ones for all three.
#   LITMUSC=bin/litmusc HERD7=herd7 HERD_LIBDIR=.../herdtools7/herd sh bench/aarch64_model.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${HERD7:?set HERD7 to herd7}"
: "${HERD_LIBDIR:?set HERD_LIBDIR to herd's library (aarch64.cat)}"
bench_tmp
echo "machine: $(uname -m), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
: > "$tmp/list"
for f in "$here"/../tests/aarch64/*/*.litmus; do
    "$LITMUSC" ir --check "$f" > /dev/null 2>&1 && echo "$f" >> "$tmp/list"
done
n=$(wc -l < "$tmp/list")
echo "tests: $n of $(ls "$here"/../tests/aarch64/*/*.litmus | wc -l) (those litmusc parses)"
[ "$n" -gt 0 ] || exit 0

# now_ms: wall clock in milliseconds.
now_ms() { date +%s%N | cut -c1-13; }

# run_one KIND FILE...: one process of KIND over FILEs, output thrown away.
run_one() {
    kind=$1
    shift
    case $kind in
    litmusc) "$LITMUSC" model --model aarch64 "$@" ;;
    litmusc-herdcat) "$LITMUSC" model --model "$HERD_LIBDIR/aarch64.cat" "$@" ;;
    herd7) HERDLIB=$HERD_LIBDIR "$HERD7" -model aarch64.cat "$@" ;;
    esac > /dev/null 2>&1
}

table_head "model" "batch (s)" "per test: median (ms)" "per test: max (ms)"
for kind in litmusc litmusc-herdcat herd7; do
    t0=$(now_ms)
    # shellcheck disable=SC2046
    run_one "$kind" $(cat "$tmp/list")
    t1=$(now_ms)
    : > "$tmp/per"
    while read -r f; do
        a=$(now_ms)
        run_one "$kind" "$f"
        b=$(now_ms)
        echo $((b - a)) >> "$tmp/per"
    done < "$tmp/list"
    sort -n "$tmp/per" > "$tmp/sorted"
    med=$(awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }' "$tmp/sorted")
    max=$(tail -1 "$tmp/sorted")
    label=$kind
    case $kind in
    litmusc) label="litmusc, aarch64" ;;
    litmusc-herdcat) label="litmusc, herd's aarch64.cat" ;;
    herd7) label="herd7 7.57, aarch64.cat" ;;
    esac
    printf '| %s | %s | %s | %s |\n' "$label" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1000 }')" "$med" "$max"
done
