#!/bin/sh
# Optional cross-check against an installed herd7 and diy7 (HERD=path,
# DIY=path; skipped when either is unset): generate families of X86 and C
# cycles with diy7 (po to other and to the same location, internal and
# external communication, fences, C memory orders), run herd7 and `litmusc model` on every test under two
# models each (x86tso and sc for X86, rc11 and sc for C; X86_64 under
# herd7's default for it), and compare the
# whole output, Time lines aside.  Prints counts, the tests that differ, and
# each tool's total wall time.  HERD may be a wrapper that adds -set-libdir.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
L=$LITMUSC
if [ -z "${HERD:-}" ] || [ -z "${DIY:-}" ]; then
    echo "herd_diy_compare: HERD or DIY is not set; skipped"
    exit 0
fi
limit=${TIMEOUT:-60}
bench_tmp

# family NAME ARCH SIZE NPROCS SAFE [RELAX]
family() {
    mkdir -p "$tmp/$1"
    "$DIY" -arch "$2" -size "$3" -nprocs "$4" -num false -safe "$5" ${6:+-relax "$6"} -o "$tmp/$1" \
        >/dev/null 2>&1 || echo "herd_diy_compare: diy7 failed for $1"
}
family x86-a X86 6 4 "Rfe Fre Wse PodRR PodRW PodWW PodWR MFencedWR MFencedWW Rfi Fri Wsi"
family x86-b X86 8 5 "Rfe Fre Wse PodRR PodRW PodWW MFencedWR" "PodWR Rfi"
family x86_64 X86_64 6 4 "Rfe Fre Wse PodRR PodRW PodWW PodWR MFencedWR Rfi Fri"
family c-a C 6 4 "RfeRlxRlx FreRlxRlx WseRlxRlx PodRRRlxRlx PodRWRlxRlx PodWWRlxRlx PodWRRlxRlx RfeRelAcq PodWWRlxRel PodRRAcqRlx FreScSc PodWRScSc WseScSc RfeScSc"
family c-b C 5 3 "Rfe Fre Wse PodRR PodRW PodWW PodWR"
family x86-pos X86 6 3 "Rfe Fre Wse PosRR PosWR PosRW PosWW PodWR PodRW Rfi Fri Wsi MFencedWR"
family c-pos C 6 3 "RfeRlxRlx FreRlxRlx WseRlxRlx PosRRRlxRlx PosWRRlxRlx PosWWRlxRlx PodWRRlxRlx PodRWRlxRlx RfiRlxRlx FriRlxRlx WsiRlxRlx"
family c-fence C 6 4 "RfeRlxRlx FreRlxRlx WseRlxRlx PodWRRlxRlx PodRWRlxRlx PodRRRlxRlx PodWWRlxRlx FenceScdWRRlxRlx FenceAcqdRRRlxRlx FenceReldWWRlxRlx FenceScdRWRlxRlx RfeRelAcq"

same=0 differ=0 failed=0 tests=0 herd_s=0 lc_s=0
now_ms() { date +%s%3N; }
for fam in x86-a x86-b x86-pos x86_64 c-a c-b c-pos c-fence; do
    # herd7 runs X86_64 tests only under its default model for them.
    case $fam in x86_64) models=default ;; x86*) models="x86tso sc" ;; *) models="rc11 sc" ;; esac
    for f in "$tmp/$fam"/*.litmus; do
        [ -f "$f" ] || continue
        tests=$((tests + 1))
        for m in $models; do
            t0=$(now_ms)
            if [ "$m" = default ]; then hm="" lm=""; else hm="-model $m.cat" lm="--model $m"; fi
            # shellcheck disable=SC2086
            if ! timeout "$limit" "$HERD" $hm "$f" >"$tmp/h" 2>"$tmp/e" || [ ! -s "$tmp/h" ]; then
                failed=$((failed + 1))
                echo "herd7 failed or timed out: $fam/$(basename "$f") $m $(head -1 "$tmp/e")"
                continue
            fi
            t1=$(now_ms)
            # shellcheck disable=SC2086
            "$L" model $lm "$f" >"$tmp/l" 2>&1
            t2=$(now_ms)
            herd_s=$((herd_s + t1 - t0))
            lc_s=$((lc_s + t2 - t1))
            grep -v '^Time ' "$tmp/h" >"$tmp/a"
            grep -v '^Time ' "$tmp/l" >"$tmp/b"
            tally "$tmp/a" "$tmp/b" "$fam/$(basename "$f") under $m"
        done
    done
done
echo "diy7 tests: $tests; test/model pairs: $same identical to herd7, $differ differ, $failed herd7 failures/timeouts"
echo "wall time, one process per test and model: herd7 $((herd_s / 1000)).$(printf '%03d' $((herd_s % 1000))) s, litmusc $((lc_s / 1000)).$(printf '%03d' $((lc_s % 1000))) s"
