#!/bin/sh
# How fast `litmusc gen` enumerates, side by side with diy7 on the same
# options (DIY7=path/to/diy7; without it only litmusc runs).  Each
# configuration runs ROUNDS times (default 5) into a fresh folder; the
# figures are the best wall time of the rounds and the tests written.
#
#   DIY7=diy7 LITMUSC=bin/litmusc sh bench/gen_bench.sh [ROUNDS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
L=$LITMUSC
DIY7=${DIY7:-}
rounds=${1:-5}
bench_tmp

now() { date +%s.%N; }
best() {  # label command...: best wall time over the rounds, in ms
    label=$1
    shift
    b=""
    for _ in $(seq "$rounds"); do
        rm -rf "$tmp/out"
        mkdir -p "$tmp/out"
        s=$(now)
        (cd "$tmp/out" && eval "$@") > /dev/null 2>&1
        e=$(now)
        t=$(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.1f", (b - a) * 1000 }')
        b=$(awk -v x="$t" -v y="$b" 'BEGIN { print (y == "" || x < y) ? x : y }')
    done
    n=$(find "$tmp/out" -name '*.litmus' | wc -l)
    printf '%-8s %7s ms %6d tests\n' "$label" "$b" "$n"
}

config() {  # title litmusc-args diy7-args
    echo "$1"
    best litmusc "\"$L\" gen -o . $2"
    [ -n "$DIY7" ] && [ -n "$3" ] && best diy7 "\"$DIY7\" -num false $3"
    return 0
}

config "X86 --size 6 over {PodWR, Rfe, Fre, Coe, MFencedWR}" \
    "--arch X86 --size 6 --safe 'PodWR,Rfe,Fre,Coe,MFencedWR'" \
    "-arch X86 -size 6 -safe 'PodWR,Rfe,Fre,Coe,MFencedWR'"
config "X86 --size 6 relax {PodWR, MFencedWR}, safe {Rfe, Fre, Coe}" \
    "--arch X86 --size 6 --relax 'PodWR,MFencedWR' --safe 'Rfe,Fre,Coe'" \
    "-arch X86 -size 6 -relax 'PodWR,MFencedWR' -safe 'Rfe,Fre,Coe'"
config "X86 critical, 4 threads, {Rfe,Fre,Wse,Pod**,MFenced**} (the corpus's mfence family)" \
    "--arch X86 --nprocs 4 --size 6 --safe 'Rfe,Fre,Wse,Pod**,MFenced**' --mode critical" \
    "-arch X86 -nprocs 4 -size 6 -safe 'Rfe,Fre,Wse,Pod**,MFenced**' -mode critical"
config "C critical, 3 threads exactly, 4 orders on 7 edges (the corpus's mo3 family)" \
    "--arch C --nprocs 3 --eprocs --size 6 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom Rlx,Acq,Rel,Sc --mode critical" \
    "-arch C -nprocs 3 -eprocs -size 6 -safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' -varatom Rlx,Acq,Rel,Sc -mode critical"
# diy7 7.57 prints no C test with an Rmw: litmusc alone
for size in 4 5 6; do
    config "C critical, 3 threads, size $size, 4 orders, Rmw edges and access fences" \
        "--arch C --nprocs 3 --size $size --safe 'Rfe,Fre,Coe,PodWW,PodRR,PodWR,PodRW' --relax 'Rmw,RmwAdd,RmwCas,RmwOrIg,FenceAddIgScShdWR,FenceXchgIdRlxdWR,FenceLdAcqdRR' --varatom Rlx,Acq,Rel,Sc --mode critical" ""
done
