#!/bin/sh
# Model speed on the AArch64 tests of tests/aarch64 (herdtools7's catalogue
# and instruction tests): litmusc's aarch64 model, herd's aarch64.cat run
# by litmusc through --model, and herd7 7.57 itself, each as one batch
# (one process for all tests: wall and CPU seconds) and per test (one
# process each: median and slowest CPU milliseconds).  Only the tests litmusc's parser
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

# cpu_ms KIND FILE...: one process of KIND over FILEs; prints its wall and
# CPU (user + system) milliseconds, output thrown away.  CPU time is the
# figure to compare on a loaded machine.
cpu_ms() {
    kind=$1
    shift
    case $kind in
    litmusc) set -- "$LITMUSC" model --model aarch64 "$@" ;;
    litmusc-herdcat) set -- "$LITMUSC" model --model "$HERD_LIBDIR/aarch64.cat" "$@" ;;
    herd7) set -- env HERDLIB="$HERD_LIBDIR" "$HERD7" -model aarch64.cat "$@" ;;
    esac
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" > /dev/null 2>&1
    awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' "$tmp/t"
}

table_head "model" "batch wall (s)" "batch CPU (s)" "per test CPU: median (ms)" "per test CPU: max (ms)"
for kind in litmusc litmusc-herdcat herd7; do
    # shellcheck disable=SC2046
    set -- $(cpu_ms "$kind" $(cat "$tmp/list"))
    bwall=$1 bcpu=$2
    : > "$tmp/per"
    while read -r f; do
        cpu_ms "$kind" "$f" | cut -d' ' -f2 >> "$tmp/per"
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
    printf '| %s | %s | %s | %s | %s |\n' "$label" "$(awk -v a="$bwall" 'BEGIN { printf "%.2f", a / 1000 }')" \
        "$(awk -v a="$bcpu" 'BEGIN { printf "%.2f", a / 1000 }')" "$med" "$max"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
