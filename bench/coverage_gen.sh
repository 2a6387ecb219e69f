#!/bin/sh
# Coverage on generated tests with more threads than CPUs: how many
# iterations `run --until-covered` takes to show every allowed state of
# each test, on three families `litmusc gen` writes (X86 critical cycles
# with at most 3 events a thread, one relaxation of PodWR, Rfi or PosWR,
# completed with Rfe, Fre, Wse, Pod** (not WR), MFencedWR and PosRR):
#   three  --size 6, exactly 3 threads
#   four   --size 8, exactly 4 threads
#   five   --size 10, exactly 5 threads
# ARCH=C: the same families of C tests, relaxed orders (PodWR of
# relaxed accesses, completed with relaxed Rfe, Fre, Wse, PodWW, PodRR,
# PodRW and PosRR), on the C11 runner.
# PASSES runs of each test (default 2), each up to 1M iterations.  Given
# LITMUSC_BEFORE too, the two programs take turns pass by pass (the host's
# speed drifts) and both are reported.  Per family: tests, runs, runs not
# covered within 1M, mean, median, 99th percentile and largest
# covered-after (a run not covered counts 1M), then the slowest tests.
#   LITMUSC=bin/litmusc [LITMUSC_BEFORE=old/litmusc] [PASSES=2] [ARCH=X86|C] sh bench/coverage_gen.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bench_tmp
P=${PASSES:-2}
arch=${ARCH:-X86}
case $arch in
X86) relax="PodWR,Rfi,PosWR" safe="Rfe,Fre,Wse,PodWW,PodRR,PodRW,MFencedWR,PosRR" target=x86 ;;
C) relax="PodWRRlxRlx" target=c11
   safe="RfeRlxRlx,FreRlxRlx,WseRlxRlx,PodWWRlxRlx,PodRRRlxRlx,PodRWRlxRlx,PosRRRlxRlx" ;;
*) echo "coverage_gen: ARCH is X86 or C" >&2; exit 2 ;;
esac
for fam in "three 6 3" "four 8 4" "five 10 5"; do
    # shellcheck disable=SC2086
    set -- $fam
    "$LITMUSC" gen --arch "$arch" --size "$2" --nprocs "$3" --eprocs --max-ins 3 --relax "$relax" \
        --safe "$safe" --mode critical -o "$tmp/$1" >/dev/null || exit 3
done

# pass PROGRAM TAG FAMILY: "TAG FAMILY COVERED-AFTER TEST" per test
pass() {
    "$1" run --target $target -s 100000 -r 1 --until-covered --max-iterations 1M "$tmp/$3"/*.litmus 2>/dev/null |
        sed -n 's/^Coverage \([^ ]*\) .*(covered after \([0-9]*\) iterations)$/\2 \1/p
                s/^Coverage \([^ ]*\) .*not covered.*/1000000 \1/p' |
        awk -v tag="$2" -v fam="$3" '{ print tag, fam, $1, $2 }'
}
: >"$tmp/runs"
p=0
while [ $p -lt "$P" ]; do
    p=$((p + 1))
    for fam in three four five; do
        [ -n "${LITMUSC_BEFORE:-}" ] && pass "$LITMUSC_BEFORE" before $fam >>"$tmp/runs"
        pass "$LITMUSC" after $fam >>"$tmp/runs"
    done
done

echo "$arch tests, $P passes, 1M iterations a run at most, --target $target -s 100000 -r 1 --until-covered"
table_head program family tests runs "not covered" mean median "99th percentile" largest
for tag in before after; do
    for fam in three four five; do
        awk -v tag=$tag -v fam=$fam '$1 == tag && $2 == fam { print $3, $4 }' "$tmp/runs" | sort -n >"$tmp/sel"
        [ -s "$tmp/sel" ] || continue
        name=$LITMUSC
        [ $tag = before ] && name=$LITMUSC_BEFORE
        tests=$(awk '{ print $2 }' "$tmp/sel" | sort -u | wc -l)
        awk -v name="$name" -v fam=$fam -v tests="$tests" '{ v[NR] = $1; s += $1; u += $1 >= 1000000 }
            END { k = int(NR * 0.99); if (k < 1) k = 1
                  printf "| %s | %s | %d | %d | %d | %.0f | %d | %d | %d |\n", name, fam, tests, NR, u, s / NR,
                  v[int((NR + 1) / 2)], v[k], v[NR] }' "$tmp/sel"
    done
done
echo
echo "slowest tests (largest covered-after of their runs):"
for tag in before after; do
    awk -v tag=$tag '$1 == tag { if ($3 > m[$4]) m[$4] = $3; f[$4] = $2 } END { for (t in m) print m[t], f[t], t }' \
        "$tmp/runs" | sort -rn | head -5 | awk -v tag=$tag '{ printf "  %-6s %-6s %-45s %d\n", tag, $2, $3, $1 }'
done
