#!/bin/sh
# Model speed over the whole corpus, per model: total CPU time of litmusc
# (one process per folder, as a user would batch tests), the slowest tests,
# peak memory per test (one process per test, /usr/bin/time), and herd7's
# total wall time for the same tests from the corpus times.tsv files.
# Also prints seconds against candidates examined, to show how cost grows.
#   LITMUSC=bin/litmusc [CORPUS=DIR] sh bench/model_bench.sh [FOLDER-REGEX]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# CORPUS: the corpus to time (default: the shared one beside the checkout).
corpus=${CORPUS:-"$here/../../shared/corpus"}
only=${1:-.}
bench_tmp
: > "$tmp/rows"
echo "machine: $(uname -m), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for dir in $(find "$corpus" -name '*.litmus' | sed 's|/[^/]*$||' | sort -u); do
    rel=${dir#"$corpus"/}
    echo "$rel" | grep -Eq "$only" || continue
    for m in $(ls "$dir" | sed -n 's/^.*\.\([a-z0-9]*\)\.herd$/\1/p' | sort -u); do
        files=$(for f in "$dir"/*.litmus; do [ -f "${f%.litmus}.$m.herd" ] && echo "$f"; done)
        [ -n "$files" ] || continue
        # shellcheck disable=SC2086
        /usr/bin/time -f "%e %M" -o "$tmp/t" timeout 600 "$LITMUSC" model --json --model "$m" $files > "$tmp/j" 2>/dev/null
        read -r wall rss < "$tmp/t" 2>/dev/null || { wall=0; rss=0; }
        echo "$m $rel $wall $rss" >> "$tmp/batches"
        # per test: seconds and candidates from the JSON
        { tr '\n' ' ' < "$tmp/j"; echo; } | sed 's/}, *{"test"/}\n{"test"/g' |
            sed -n 's/.*"file":"\([^"]*\)".*"events":\([0-9]*\),"candidates":\([0-9]*\),"seconds":\([0-9.eE+-]*\).*/\1 \3 \4 \2/p' |
            while read -r f c s ev; do echo "$m ${f#"$corpus"/} $c $s $ev" >> "$tmp/rows"; done
    done
done
echo
echo "per model: tests, litmusc CPU seconds (sum over tests), litmusc wall (batched), herd7 wall (sum, times.tsv)"
for m in $(cut -d' ' -f1 "$tmp/rows" | sort -u); do
    n=$(awk -v m="$m" '$1==m' "$tmp/rows" | wc -l)
    cpu=$(awk -v m="$m" '$1==m {s+=$4} END {printf "%.2f", s}' "$tmp/rows")
    wall=$(awk -v m="$m" '$1==m {s+=$3} END {printf "%.2f", s}' "$tmp/batches")
    herd=$(awk -v m="$m" '$1==m' "$tmp/rows" | while read -r _ f _ _; do
        arch=${f%%/*}; t=${f#*/}
        awk -F'\t' -v t="$t" -v m="$m" '$1==t && $2==m {print $3}' "$corpus/$arch/times.tsv"
    done | awk '{s+=$1} END {printf "%.2f", s}')
    echo "  $m: $n tests, litmusc cpu ${cpu}s, wall ${wall}s, herd7 ${herd}s"
done
echo
echo "slowest 10 tests (model, test, candidates, seconds, events):"
sort -k4 -g -r "$tmp/rows" | head -10 | sed 's/^/  /'
echo
echo "cost against candidates (buckets of candidates examined: tests, mean seconds, max seconds):"
awk '{c=$3; b=1; while (b*10 <= c) b*=10; n[b]++; s[b]+=$4; if ($4>mx[b]) mx[b]=$4}
     END {for (b in n) printf "  %8d+ %5d tests  mean %.5fs  max %.5fs\n", b, n[b], s[b]/n[b], mx[b]}' "$tmp/rows" | sort -g
echo
echo "cost against events per candidate (IW included): tests, mean candidates, mean seconds, max seconds"
awk '{n[$5]++; c[$5]+=$3; s[$5]+=$4; if ($4>mx[$5]) mx[$5]=$4}
     END {for (e in n) printf "  %3d events %5d tests  %9.1f candidates  mean %.5fs  max %.5fs\n", e, n[e], c[e]/n[e], s[e]/n[e], mx[e]}' "$tmp/rows" | sort -n
echo
echo "peak memory per test (one process each, KiB): max and median"
cut -d' ' -f1,2 "$tmp/rows" | while read -r m f; do
    /usr/bin/time -f "%M" -o "$tmp/m" timeout 600 "$LITMUSC" model --model "$m" "$corpus/$f" > /dev/null 2>&1
    echo "$(cat "$tmp/m" | tail -1) $m $f"
done | sort -g > "$tmp/mem"
echo "  max: $(tail -1 "$tmp/mem")"
echo "  median: $(awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}' "$tmp/mem") KiB"
