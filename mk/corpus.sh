#!/bin/sh
# Regenerate tests/corpus: the project's own litmus tests, made by
# `litmusc gen`, with herd7's verdicts beside them.  `make corpus` runs it.
#
#   LITMUSC=bin/litmusc HERD7=herd7 JAM21=path/to/jam21.cat sh mk/corpus.sh
#
# Each family is one `litmusc gen` enumeration (or a list of cycles), of
# which a fixed sample is kept: the tests are ordered by
# sha1("corpus:FAMILY:NAME") and the first QUOTA are taken, so the same
# litmusc gives the same corpus.  Verdicts: for every test and model,
# NAME.MODEL.herd is herd7's output without its Time line (empty when herd7
# failed or ran past 60 s), NAME.MODEL.stderr what herd7 wrote to stderr if
# anything; manifest.tsv sums them up.  JAM21 is the jam21.cat herd7 runs
# for Java (herd has no Java model of its own).  Both are required: tests
# and verdicts are always regenerated together.
set -eu
cd "$(dirname "$0")/.."
L=${LITMUSC:-bin/litmusc}
HERD7=${HERD7:-}
JAM21=${JAM21:-}
[ -n "$HERD7" ] && command -v "$HERD7" >/dev/null 2>&1 || { echo "corpus: set HERD7 to a herd7 (7.57) program" >&2; exit 1; }
[ -n "$JAM21" ] && [ -f "$JAM21" ] || { echo "corpus: set JAM21 to the jam21.cat herd7 runs for Java" >&2; exit 1; }
out=tests/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fences_c=$(for f in Sc Rel Acq AR; do for d in WW WR RW RR; do printf "Fence%sd%sRlxRlx," "$f" "$d"; done; done)
fences_j=$(for f in Full Acq Rel LL SS; do for d in WW WR RW RR; do printf "Fence%sd%sOpOp," "$f" "$d"; done; done)

# arch|family|quota|gen arguments
families() {
cat <<EOF
X86|safe|30|--nprocs 4 --size 6 --safe 'PosR* PodR* PodWW PosWW Rfe Wse Fre FencesWR FencedWR'
X86|rfi|20|--nprocs 4 --size 6 --safe 'PosR* PodR* PodWW PosWW Rfe Wse Fre FencesWR FencedWR' --relax Rfi --max-ins 3
X86|mfence|30|--nprocs 4 --size 6 --safe 'Rfe,Fre,Wse,Pod**,MFenced**' --mode critical
X86|four|15|--nprocs 4 --eprocs --size 8 --safe 'Rfe,Fre,PodWR,PodRR,MFencedWR,MFencedRR' --mode critical
X86|internal|12|--nprocs 4 --size 6 --safe 'Rfe,Fre,Wse,Pod**' --relax 'Rfi,Fri,Wsi,PosWR' --mode critical
X86|locked|20|--nprocs 4 --size 6 --safe 'Rfe,Fre,Wse,PodRR,PodRW,PodWW,PodWR' --relax 'PodWRANa,PodRWNaA,PodWWAA,RfeANa,FreNaA,WseAA' --mode critical
X86|rmw|15|--nprocs 4 --size 6 --safe 'Rfe,Fre,Wse,PodRR,PodRW,PodWW,PodWR' --relax Rmw --mode critical
C|mo2|30|--nprocs 2 --size 4 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom Rlx,Acq,Rel,Sc --mode critical
C|mo3|25|--nprocs 3 --eprocs --size 6 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom Rlx,Acq,Rel,Sc --mode critical
C|fence|25|--nprocs 3 --size 6 --safe 'RfeRlxRlx,FreRlxRlx,WseRlxRlx,PodWWRlxRlx,PodRRRlxRlx,PodWRRlxRlx,PodRWRlxRlx' --relax '$fences_c' --mix --max-relax 2 --mode critical
C|na2|20|--nprocs 2 --size 4 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom all --mode critical
C|dep|30|--nprocs 3 --size 5 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --relax 'DpAddrdR,DpAddrdW,DpDatadW,DpCtrldR,DpCtrldW' --varatom Rlx,Acq,Rel --mode critical
C|plaindep|12|--nprocs 2 --size 4 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --relax 'DpAddrdR,DpAddrdW,DpDatadW,DpCtrldR,DpCtrldW,DpAddrsR,DpAddrsW,DpDatasW,DpCtrlsR,DpCtrlsW'
Java|modes2|25|--nprocs 2 --size 4 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom Op,Acq,Rel,Vo --mode critical
Java|modes3|20|--nprocs 3 --eprocs --size 6 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom Op,Acq,Rel,Vo --mode critical
Java|fence|25|--nprocs 3 --size 6 --safe 'RfeOpOp,FreOpOp,WseOpOp,PodWWOpOp,PodRROpOp,PodWROpOp,PodRWOpOp' --relax '$fences_j' --mix --max-relax 2 --mode critical
Java|dep|20|--nprocs 3 --size 5 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --relax 'DpDatadW,DpCtrldR,DpCtrldW' --varatom Op,Acq,Rel --mode critical
Java|plain|15|--nprocs 2 --size 4 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom all --mode critical
EOF
}

folder() {
    case $1 in X86) echo x86 ;; C) echo c11 ;; Java) echo java ;; esac
}

# The classic shapes, one test per cycle (tests/corpus/cycles.txt).
make_classic() {
    for arch in X86 C Java; do
        d="$out/$(folder $arch)/classic"
        rm -rf "$d"
        mkdir -p "$d"
        grep "^$arch|" tests/corpus/cycles.txt | while IFS='|' read -r _ cycle; do
            # shellcheck disable=SC2086
            "$L" gen --arch "$arch" $cycle > "$tmp/one.litmus"
            name=$(head -1 "$tmp/one.litmus" | cut -d' ' -f2)
            mv "$tmp/one.litmus" "$d/$name.litmus"
        done
        echo "corpus: $(ls "$d" | wc -l) $arch tests in $d"
    done
}

make_family() {
    arch=$1 family=$2 quota=$3 args=$4
    d="$out/$(folder "$arch")/$family"
    rm -rf "$tmp/gen" "$d"
    eval "\"$L\" gen --arch $arch $args -o \"$tmp/gen\"" 2>/dev/null
    for f in "$tmp/gen"/*.litmus; do
        n=$(basename "$f" .litmus)
        printf '%s %s\n' "$(printf 'corpus:%s:%s' "$family" "$n" | sha1sum | cut -c1-40)" "$n"
    done | sort | head -n "$quota" | while read -r _ n; do
        mkdir -p "$d"
        cp "$tmp/gen/$n.litmus" "$d/"
    done
    echo "corpus: $(ls "$d" | wc -l) of $(ls "$tmp/gen" | grep -c '\.litmus$') $arch $family tests"
}

models() {
    case $1 in
    x86) echo "x86tso sc" ;;
    c11) echo "rc11 sc" ;;
    java) echo "jam21 sc" ;;
    esac
}

herd_one() {
    dir=$1 name=$2 arch=$3 model=$4
    case $arch/$model in
    java/jam21) margs="-model $JAM21" ;;
    c11/*) margs="-c11 -model $model.cat" ;;
    *) margs="-model $model.cat" ;;
    esac
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    (cd "$dir" && timeout 60 "$HERD7" $margs "$name.litmus" > "$tmp/herd.out" 2> "$tmp/herd.err") || true
    end=$(date +%s.%N)
    grep -v '^Time ' "$tmp/herd.out" > "$dir/$name.$model.herd" || true
    if [ -s "$tmp/herd.err" ]; then cp "$tmp/herd.err" "$dir/$name.$model.stderr"; else rm -f "$dir/$name.$model.stderr"; fi
    obs=$(sed -n "s/^Observation [^ ]* \([A-Za-z]*\) .*/\1/p" "$tmp/herd.out")
    states=$(sed -n 's/^States \([0-9]*\)/\1/p' "$tmp/herd.out")
    [ -n "$obs" ] || { obs=error; states=NA; }
    printf '%s\t%s\t%s\t%s\n' "$model" "$obs" "${states:-NA}" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')"
}

verdicts() {
    printf 'relpath\tarch\tfamily\tthreads\tinstructions\tmodel\tobservation\tstates\therd_seconds\n' > "$tmp/manifest"
    for f in $(find "$out" -name '*.litmus' | sort); do
        rel=${f#"$out"/}
        arch=${rel%%/*}
        family=$(echo "$rel" | cut -d/ -f2)
        dir=$(dirname "$f")
        name=$(basename "$f" .litmus)
        threads=$(grep -c -E '^ *(P[0-9]+ *\(|Thread[0-9]+ *\{)' "$f" || true)
        [ "$arch" = x86 ] && threads=$(grep -m1 '^ P0 ' "$f" | tr '|' '\n' | wc -l)
        cycle=$(sed -n 's/^Orig=//p' "$f")
        # one instruction per event and per fence; an exchange is one
        instr=$(echo "$cycle" | awk '{ n = 0; for (i = 1; i <= NF; i++) { if ($i !~ /^(Exch|Rmw)/) n++; if ($i ~ /^(MFence|Fence)/) n++ } print n }')
        for m in $(models "$arch"); do
            herd_one "$dir" "$name" "$arch" "$m" | sed "s|^|$rel\t$arch\t$family\t$threads\t$instr\t|" >> "$tmp/manifest"
        done
    done
    cp "$tmp/manifest" "$out/manifest.tsv"
}

make_classic
families | while IFS='|' read -r arch family quota args; do
    make_family "$arch" "$family" "$quota" "$args"
done
verdicts
echo "corpus: verdicts in $out (manifest.tsv)"
