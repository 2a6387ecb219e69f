#!/bin/sh
# SB on this machine: an installed litmus7 (LITMUS7=path, LITMUS7_LIBDIR=its
# libdir if it is not installed) against litmusc's native runner, one after
# the other in the same run.  Prints iterations/s and witnesses/s for each.
# Skips (exit 0) when LITMUS7 is not set.
#   LITMUSC=bin/litmusc LITMUS7=/path/litmus7 sh bench/litmus7_compare.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${LITMUSC:=$here/../bin/litmusc}"
[ -n "${LITMUS7:-}" ] || { echo "litmus7_compare: LITMUS7 not set, skipped"; exit 0; }
sb="$here/../examples/x86/SB.litmus"
S=${BENCH_S:-100000}
R=${BENCH_R:-10}
N=${BENCH_REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libdir=${LITMUS7_LIBDIR:+-set-libdir $LITMUS7_LIBDIR}

# rate LOG -> "iterations/s witnesses/s" from a litmus7-format log
rate() {
    awk '/^Positive:/ { gsub(",", ""); p = $2; n = $4 } /^Time / { t = $3 }
         END { if (t > 0) printf "%.0f %.0f\n", (p + n) / t, p / t; else print "0 0" }' "$1"
}
row() {  # row TOOL CONFIG LOG...
    tool=$1 cfg=$2
    shift 2
    for f in "$@"; do rate "$f"; done | sort -n | awk -v tool="$tool" -v cfg="$cfg" \
        '{ it[NR] = $1; w[NR] = $2 } END { m = int((NR + 1) / 2);
           printf "| %s | %s | %d | %d |\n", tool, cfg, it[m], w[m] }'
}
echo "| tool | configuration | iterations/s (median of $N) | witnesses/s |"
echo "|---|---|---:|---:|"
for b in timebase userfence user; do
    mkdir -p "$tmp/l7_$b"
    "$LITMUS7" $libdir -a 2 -barrier "$b" -o "$tmp/l7_$b" "$sb" >/dev/null 2>&1 &&
        make -s -C "$tmp/l7_$b" >/dev/null 2>&1 || { echo "| litmus7 | -barrier $b | build failed | |"; continue; }
    logs=""
    for i in $(seq "$N"); do
        "$tmp/l7_$b/SB.exe" -s "$S" -r "$R" > "$tmp/l7_$b/$i.log" 2>&1
        logs="$logs $tmp/l7_$b/$i.log"
    done
    row litmus7 "-a 2 -barrier $b" $logs
done
export LITMUSC_CACHE="$tmp/cache"
for cfg in "default" "--sync timebase --layout line" "--sync user --layout line"; do
    opts=$cfg
    [ "$cfg" = default ] && opts=""
    logs=""
    for i in $(seq "$N"); do
        "$LITMUSC" run $opts -s "$S" -r "$R" "$sb" > "$tmp/lc_$i.log" 2>&1
        logs="$logs $tmp/lc_$i.log"
    done
    row litmusc "$cfg" $logs
done
