#!/bin/sh
# litmusc gen against diyone7: for the same cycle, does herd7 judge the two
# tests alike (same Observation line, same number of states), and are they
# the same text?  Needs herdtools7 (not part of the project):
#
#   HERD7=herd7 DIYONE7=diyone7 JAM21=path/jam21.cat LITMUSC=bin/litmusc \
#       sh bench/gen_diy_compare.sh [PER_FAMILY]
#
# The cycles come from litmusc's own enumerations (the families of
# mk/corpus.sh), every k-th one so that each family gives about
# PER_FAMILY (default 40), each given rotated by one edge so that both
# tools have to find the normal form.  Java has no diy7: a Java cycle is
# mapped to the C cycle with the corresponding orders (Pl-Na, Op-Rlx,
# Acq, Rel, Vo-Sc, FenceFull-FenceSc), diyone7's C test is translated to
# Java the way shared/corpus/java/converted was made, and both run under
# jam21 (a Java cycle whose location is both plain and atomic has no C
# counterpart: diyone7 refuses to type it, and it is counted apart).  The
# text comparison ignores the Generator line and is made for X86 and C only.
# Prints one line per family and a total per arch.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
L=$LITMUSC
per=${1:-40}
for v in HERD7 DIYONE7 JAM21; do
    eval "x=\${$v:-}"
    [ -n "$x" ] || { echo "gen_diy_compare: set $v (skipped)"; exit 0; }
done
bench_tmp

# C test (diyone7) -> Java test, as shared/corpus/java/converted was made.
c_to_java() {
    awk '
    function handle(l) { return toupper(l) }
    function mode(mo) {
        if (mo == "memory_order_relaxed") return "Opaque"
        if (mo == "memory_order_acquire") return "Acquire"
        if (mo == "memory_order_release") return "Release"
        return "Volatile"
    }
    NR == 1 { sub(/^C /, "Java "); print; next }
    /^\{\}$/ { init = 1; next }
    /^P[0-9]+ \(/ {
        p = substr($1, 2); line = $0
        sub(/^[^(]*\(/, "", line); sub(/\).*/, "", line)
        n = split(line, args, ",")
        for (i = 1; i <= n; i++) { a = args[i]; sub(/.* /, "", a); sub(/^\*/, "", a); locs[a] = 1; th[p] = th[p] " " a }
        body = body "\nThread" p " {\n"; next
    }
    /^exists/ { cond = $0; next }
    /atomic_store_explicit\(/ {
        s = $0; sub(/^ */, "", s); ind = $0; sub(/[^ ].*/, "", ind)
        match(s, /\(.*\)/); inner = substr(s, RSTART + 1, RLENGTH - 2)
        split(inner, f, ","); v = f[2]; gsub(/&/, "\\&\\&", v)
        body = body ind handle(f[1]) ".set" mode(f[3]) "(" v ");\n"; next
    }
    /atomic_load_explicit\(/ {
        s = $0; ind = $0; sub(/[^ ].*/, "", ind)
        match(s, /int r[0-9]+/); reg = substr(s, RSTART, RLENGTH)
        match(s, /explicit\([^)]*\)/); inner = substr(s, RSTART + 9, RLENGTH - 10)
        split(inner, f, ","); body = body ind reg " = " handle(f[1]) ".get" mode(f[2]) "();\n"; next
    }
    /atomic_thread_fence\(/ {
        ind = $0; sub(/[^ ].*/, "", ind)
        fn = "fullFence"
        if ($0 ~ /acquire/) fn = "acquireFence"
        if ($0 ~ /release/) fn = "releaseFence"
        body = body ind fn "();\n"; next
    }
    /^ *int r[0-9]+ = \*[a-z0-9]+;/ {
        ind = $0; sub(/[^ ].*/, "", ind); s = $0; sub(/^ */, "", s)
        split(s, w, " "); l = w[4]; sub(/^\*/, "", l); sub(/;$/, "", l)
        body = body ind "int " w[2] " = " handle(l) ".get();\n"; next
    }
    /^ *\*[a-z0-9]+ = / {
        ind = $0; sub(/[^ ].*/, "", ind); s = $0; sub(/^ *\*/, "", s)
        l = s; sub(/ .*/, "", l); v = s; sub(/^[^=]*= /, "", v); sub(/;$/, "", v)
        gsub(/&/, "\\&\\&", v)
        body = body ind handle(l) ".set(" v ");\n"; next
    }
    /atomic_store_explicit|atomic_load_explicit/ { next }
    /^ *(if|\}|int r)/ && !/^\}$/ { gsub(/&/, "\\&\\&"); body = body $0 "\n"; next }
    /^\}$/ { body = body "}\n"; next }
    init == 0 { print; next }
    END {
        printf "{\n"
        first = 1
        for (l in locs) { printf "%s%s = 0;", (first ? "" : " "), l; first = 0 }
        printf "\n"
        for (p = 0; p in th; p++) {
            n = split(th[p], ls, " ")
            for (i = 1; i <= n; i++) printf "%s%d:%s=%s;", (i > 1 ? " " : ""), p, handle(ls[i]), ls[i]
            printf "\n"
        }
        printf "}\n%s\n%s\n", body, cond
    }'
}

java_to_c_cycle() {
    echo "$1" | sed -e 's/FenceFull/FenceSc/g' -e 's/Vo/Sc/g' -e 's/Op/Rlx/g' -e 's/Pl/Na/g'
}

verdict() {  # model-args file -> "Observation-word positives negatives / states"
    # shellcheck disable=SC2086
    (cd "$(dirname "$2")" && timeout 60 "$HERD7" $1 "$(basename "$2")" 2>/dev/null) |
        awk '/^States /{s=$2} /^Observation /{o=$3 " " $4 " " $5} END {print o " / " s}'
}

families() {
    fc=$(for f in Sc Rel Acq AR; do for d in WW WR RW RR; do printf "Fence%sd%sRlxRlx," "$f" "$d"; done; done)
    fj=$(for f in Full Acq Rel; do for d in WW WR RW RR; do printf "Fence%sd%sOpOp," "$f" "$d"; done; done)
    cat <<EOF
X86|safe|--nprocs 4 --size 6 --safe 'PosR* PodR* PodWW PosWW Rfe Wse Fre FencesWR FencedWR'
X86|rfi|--nprocs 4 --size 6 --safe 'PosR* PodR* PodWW PosWW Rfe Wse Fre FencesWR FencedWR' --relax Rfi --max-ins 3
X86|mfence|--nprocs 4 --size 6 --safe 'Rfe,Fre,Wse,Pod**,MFenced**' --mode critical
X86|locked|--nprocs 4 --size 6 --safe 'Rfe,Fre,Wse,PodRR,PodRW,PodWW,PodWR' --relax 'PodWRANa,PodRWNaA,PodWWAA,RfeANa,FreNaA,WseAA' --mode critical
X86|rmw|--nprocs 4 --size 6 --safe 'Rfe,Fre,Wse,PodRR,PodRW,PodWW,PodWR' --relax Rmw --mode critical
X86|internal|--nprocs 4 --size 6 --safe 'Rfe,Fre,Wse,PodRR,PodRW,PodWW,PodWR,MFencedWR' --relax 'Rfi,PosRR,PosWR,Fri,Wsi' --mix --mode critical
C|mo3|--nprocs 3 --eprocs --size 6 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom Rlx,Acq,Rel,Sc --mode critical
C|fence|--nprocs 3 --size 6 --safe 'RfeRlxRlx,FreRlxRlx,WseRlxRlx,PodWWRlxRlx,PodRRRlxRlx,PodWRRlxRlx,PodRWRlxRlx' --relax '$fc' --mix --max-relax 2 --mode critical
C|na2|--nprocs 2 --size 4 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom all --mode critical
C|dep|--nprocs 3 --size 5 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --relax 'DpAddrdR,DpAddrdW,DpDatadW,DpCtrldR,DpCtrldW' --varatom Rlx,Acq,Rel --mode critical
Java|modes3|--nprocs 3 --eprocs --size 6 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom Op,Acq,Rel,Vo --mode critical
Java|fence|--nprocs 3 --size 6 --safe 'RfeOpOp,FreOpOp,WseOpOp,PodWWOpOp,PodRROpOp,PodWROpOp,PodRWOpOp' --relax '$fj' --mix --max-relax 2 --mode critical
Java|dep|--nprocs 3 --size 5 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --relax 'DpDatadW,DpCtrldR,DpCtrldW' --varatom Op,Acq,Rel --mode critical
Java|plain|--nprocs 2 --size 4 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom all --mode critical
EOF
}

: > "$tmp/totals"
families > "$tmp/families"
while IFS='|' read -r arch fam args; do
    rm -rf "$tmp/gen"
    eval "\"$L\" gen --arch $arch $args -o \"$tmp/gen\"" 2>/dev/null
    total=$(grep -c . "$tmp/gen/@all")
    k=$(( (total + per - 1) / per ))
    n=0 same_verdict=0 same_text=0 diy_refused=0
    for f in $(awk -v k="$k" '(NR - 1) % k == 0' "$tmp/gen/@all"); do
        cycle=$(sed -n 's/^Orig=//p' "$tmp/gen/$f")
        # rotate by one edge: both tools must find the normal form
        rot=$(echo "$cycle" | awk '{ for (i = 2; i <= NF; i++) printf "%s ", $i; print $1 }')
        mkdir -p "$tmp/d" "$tmp/l"
        rm -f "$tmp/d"/* "$tmp/l"/*
        case $arch in
        Java)
            ccycle=$(java_to_c_cycle "$rot")
            # shellcheck disable=SC2086
            (cd "$tmp/d" && "$DIYONE7" -norm -arch C $ccycle > /dev/null 2>&1)
            ;;
        *)
            # shellcheck disable=SC2086
            (cd "$tmp/d" && "$DIYONE7" -norm -arch "$arch" $rot > /dev/null 2>&1)
            ;;
        esac
        d=$(ls "$tmp/d"/*.litmus 2>/dev/null | head -1)
        n=$((n + 1))
        # diyone7 refuses a C cycle whose location is both plain and atomic
        # (C cannot type it); a Java cycle may have one
        [ -n "$d" ] || { diy_refused=$((diy_refused + 1)); continue; }
        # shellcheck disable=SC2086
        "$L" gen --arch "$arch" $rot > "$tmp/l/mine.litmus" || continue
        case $arch in
        X86) m="-model x86tso.cat" ;;
        C) m="-model rc11.cat" ;;
        Java) m="-model $JAM21"; c_to_java < "$d" > "$tmp/d/java.litmus"; d="$tmp/d/java.litmus" ;;
        esac
        vd=$(verdict "$m" "$d")
        vl=$(verdict "$m" "$tmp/l/mine.litmus")
        if [ "$vd" = "$vl" ] && [ "$vd" != " / " ]; then
            same_verdict=$((same_verdict + 1))
        else
            echo "  differs: $arch $rot: diyone7 '$vd', litmusc '$vl'"
        fi
        if [ "$arch" != Java ]; then
            grep -v '^Generator=' "$d" > "$tmp/a"
            grep -v '^Generator=' "$tmp/l/mine.litmus" > "$tmp/b"
            cmp -s "$tmp/a" "$tmp/b" && same_text=$((same_text + 1))
        fi
    done
    printf '%-5s %-9s %3d cycles: %3d same herd7 verdict and state count, %3d same text, %d not made by diyone7\n' \
        "$arch" "$fam" "$n" "$same_verdict" "$same_text" "$diy_refused"
    printf '%s %d %d %d %d\n' "$arch" "$n" "$same_verdict" "$same_text" "$diy_refused" >> "$tmp/totals"
done < "$tmp/families"
awk '{ n[$1] += $2; v[$1] += $3; t[$1] += $4; r[$1] += $5 }
     END { for (a in n) printf "total %-5s %d cycles: %d same verdict, %d same text, %d not made by diyone7\n", a, n[a], v[a], t[a], r[a] }' \
    "$tmp/totals" | sort
