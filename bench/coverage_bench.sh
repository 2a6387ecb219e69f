#!/bin/sh
# Coverage of the behaviour set, per corpus folder: how many of the states
# the model allows a run shows, at one budget (1M iterations a test: -s
# 100000 -r 10), for
#   litmusc        the default run;
#   litmusc cover  --until-covered --max-iterations 1M (rounds of runs
#                  growing from one instance up to COVER_S, default 100k:
#                  schedules, gaps, then a free run);
#   litmus7        -barrier userfence -mem direct -preload no -st 32 (the
#                  settings with the most SB witnesses here), when LITMUS7
#                  names it;
# then, on the tests each covers fully, the iterations it took: litmusc's
# first-seen count (at the end of the run it was first seen in), litmus7's
# smallest budget of 10, 30, 100, 300, 1k, 3k, ... 300k, 1M (one run of
# that many, -s B -r 1, up to 100k) that covered, an upper bound within a
# factor of about 3; and on the tests both cover, litmus7's figure over
# litmusc's per test (median, and how many tests reach 10).
# The allowed states are litmusc model's (herd7's on the whole corpus).
#   LITMUSC=bin/litmusc LITMUS7=/path/litmus7 sh bench/coverage_bench.sh [DIR]
# DIR: a folder of X86 tests with subfolders (default tests/corpus/x86).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
dir=${1:-$here/../tests/corpus/x86}
bench_tmp cache
l7opts="-a 2 -barrier userfence -mem direct -preload no -st 32"

# allowed FILE...: "TEST|STATE" per allowed state (spaces dropped)
allowed() {
    "$LITMUSC" model "$@" 2>/dev/null | awk '/^Test / { name = $2; n = 0; next }
        /^States / { n = $2; next }
        n > 0 { s = $0; gsub(/ /, "", s); print name "|" s; n-- }'
}
# seen LOG: "TEST|STATE" per observed state of a litmus7 or litmusc log
seen() {
    awk '/^Test / { name = $2 } /^[0-9]+ *[*:]>/ { s = $0; sub(/^[0-9]+ *[*:]>/, "", s); gsub(/ /, "", s); print name "|" s }' "$1" | sort -u
}
# cover ALLOWED SEEN: "tests-complete tests seen-states allowed-states"
cover() {
    awk -F'|' 'NR == FNR { a[$0] = 1; t[$1]++; next } ($0 in a) { s[$1]++ }
        END { for (k in t) { n++; all += t[k]; got += s[k]; if (s[k] == t[k]) c++ }
              printf "%d %d %d %d\n", c, n, got, all }' "$1" "$2"
}

table_head folder tests "allowed states" "litmusc default" "litmusc --until-covered" litmus7 \
    "iterations to cover: litmusc (median, max)" "litmus7 (median, max)" \
    "litmus7 / litmusc on tests both cover (median; tests at 10 or more)"
tot="0 0 0 0 0 0 0 0"
for sub in "$dir"/*/; do
    name=$(basename "$sub")
    files=$(find "$sub" -name '*.litmus' | sort)
    [ -n "$files" ] || continue
    # shellcheck disable=SC2086
    allowed $files | sort -u > "$tmp/allowed"
    # shellcheck disable=SC2086
    "$LITMUSC" run -s 100000 -r 10 $files > "$tmp/def.log" 2>/dev/null
    # shellcheck disable=SC2086
    "$LITMUSC" run -s "${COVER_S:-100000}" -r 1 --until-covered --max-iterations 1M $files > "$tmp/cov.log" 2>/dev/null
    seen "$tmp/def.log" > "$tmp/def.seen"
    seen "$tmp/cov.log" > "$tmp/cov.seen"
    set -- $(cover "$tmp/allowed" "$tmp/def.seen")
    ntests=$2 nall=$4 dc=$1 ds=$3
    set -- $(cover "$tmp/allowed" "$tmp/cov.seen")
    cc=$1 cs=$3
    lcit=$(sed -n 's/^Coverage .* (covered after \([0-9]*\) iterations)$/\1/p' "$tmp/cov.log" | sort -n | median_max)
    # the test that took longest, for the list after the table
    sed -n 's/^Coverage \([^ ]*\) .* (covered after \([0-9]*\) iterations)$/\2 \1/p' "$tmp/cov.log" |
        sort -n | tail -1 | awk -v f="$name" '{ printf "  %-10s %-36s %8d\n", f, $2, $1 }' >> "$tmp/longest"
    # tests are matched by name: a name two files of the folder share
    # (../shared's catalogue has four SB+rfi-pos) is left out of the ratios
    awk '/^Coverage / { print $2 }' "$tmp/cov.log" | sort | uniq -d > "$tmp/dups"
    sed -n 's/^Coverage \([^ ]*\) .* (covered after \([0-9]*\) iterations)$/\1 \2/p' "$tmp/cov.log" |
        awk 'FILENAME == ARGV[1] { dup[$1] = 1; next } !($1 in dup)' "$tmp/dups" - | sort > "$tmp/lc.first"
    l7="-" l7it="-" ratio="-"
    if [ -n "${LITMUS7:-}" ]; then
        # shellcheck disable=SC2086
        mkdir -p "$tmp/l7"
        if "$LITMUS7" $l7opts -o "$tmp/l7" $files > /dev/null 2>&1 && make -s -j2 -C "$tmp/l7" > /dev/null 2>&1; then
            : > "$tmp/l7.first"
            for budget in "10 1" "30 1" "100 1" "300 1" "1000 1" "3000 1" "10000 1" "30000 1" "100000 1" "100000 3" "100000 10"; do
                set -- $budget
                (cd "$tmp/l7" && sh run.sh -s "$1" -r "$2") > "$tmp/l7.log" 2>/dev/null
                seen "$tmp/l7.log" > "$tmp/l7.seen"
                # tests fully covered at this budget, not at a smaller one
                awk -F'|' -v it=$(($1 * $2)) 'NR == FNR { a[$0] = 1; t[$1]++; next } FILENAME == ARGV[2] { if ($0 in a) s[$1]++; next }
                    { split($0, w, " "); done[w[1]] = 1 } END { for (k in t) if (s[k] == t[k] && !(k in done)) print k, it }' \
                    "$tmp/allowed" "$tmp/l7.seen" "$tmp/l7.first" > "$tmp/l7.new"
                cat "$tmp/l7.new" >> "$tmp/l7.first"
            done
            # litmus7 builds only the tests that fit the CPUs (-a 2): compare on those
            awk '/^Test / { print $2 }' "$tmp/l7.log" | sort -u > "$tmp/l7.tests"
            awk -F'|' 'NR == FNR { ok[$1] = 1; next } ($1 in ok)' "$tmp/l7.tests" "$tmp/allowed" > "$tmp/l7.allowed"
            set -- $(cover "$tmp/l7.allowed" "$tmp/l7.seen")
            n7=$2 s7=$3 c7=$1 a7=$4
            set -- $(cover "$tmp/l7.allowed" "$tmp/def.seen")
            l7="$s7 of $a7 ($c7 of $n7 tests complete; litmusc default on them: $3, $1 complete)"
            l7it=$(awk '{ print $2 }' "$tmp/l7.first" | sort -n | median_max)
            # per test: its allowed states, the fewest iterations that can show them all
            awk -F'|' '{ n[$1]++ } END { for (k in n) print k, n[k] }' "$tmp/allowed" | sort > "$tmp/nstates"
            sort "$tmp/l7.first" | join - "$tmp/lc.first" | join - "$tmp/nstates" |
                awk -v f="$name" '{ print f, $1, $2, $3, $2 / $3, $4 }' >> "$tmp/ratios.all"
            ratio=$(sort "$tmp/l7.first" | join - "$tmp/lc.first" | awk '{ print $2 / $3 }' | sort -g |
                awk '{ v[NR] = $1; if ($1 >= 10) ten++ } END { if (NR) printf "%.2f; %d of %d", v[int((NR + 1) / 2)], ten, NR; else printf "-" }')
        else
            l7="build failed"
        fi
        rm -rf "$tmp/l7"
    fi
    printf '| %s | %d | %d | %d (%d complete) | %d (%d complete) | %s | %s | %s | %s |\n' \
        "$name" "$ntests" "$nall" "$ds" "$dc" "$cs" "$cc" "$l7" "$lcit" "$l7it" "$ratio"
    tot=$(echo "$tot" | awk -v a="$ntests" -v b="$nall" -v c="$ds" -v d="$dc" -v e="$cs" -v f="$cc" \
        '{ printf "%d %d %d %d %d %d", $1 + a, $2 + b, $3 + c, $4 + d, $5 + e, $6 + f }')
done
set -- $tot
printf '| **all** | %d | %d | %d (%d complete) | %d (%d complete) | | | | |\n' "$1" "$2" "$3" "$4" "$5" "$6"
if [ -s "$tmp/longest" ]; then
    echo
    echo "longest to cover with --until-covered, per folder: folder, test, iterations"
    cat "$tmp/longest"
fi
if [ -s "$tmp/ratios.all" ]; then
    echo
    echo "tests both cover: folder, test, litmus7's budget, litmusc's first-seen, ratio, allowed states"
    sort -k5 -g "$tmp/ratios.all" | awk '{ printf "  %-10s %-28s %8d %8d %8.2f %4d\n", $1, $2, $3, $4, $5, $6 }'
    awk '{ print $5 }' "$tmp/ratios.all" | sort -g | awk '{ v[NR] = $1; if ($1 >= 10) ten++ }
        END { printf "all: median litmus7 / litmusc %.2f; %d of %d tests at 10 or more\n", v[int((NR + 1) / 2)], ten, NR }'
    # the corpus as a whole: what covering every test both cover took
    awk '{ l7 += $3; lc += $4 } END { printf "all: iterations to cover all %d tests both cover: litmus7 %d, litmusc %d (%.1fx)\n", NR, l7, lc, l7 / lc }' "$tmp/ratios.all"
    # A tenth of litmus7's iterations cannot be asked of a test litmus7
    # covers in 10 to 30 (its smallest budgets): no run shows N states in
    # fewer than N iterations.  Per test, litmusc's first-seen at most the
    # larger of its N states and a tenth of litmus7's budget:
    awk '{ bound = $3 / 10 > $6 ? $3 / 10 : $6; if ($4 <= bound) ok++; n++ }
        END { printf "all: %d of %d tests covered within max(states, litmus7 / 10) iterations\n", ok, n }' "$tmp/ratios.all"
fi
