#!/bin/sh
# SB on this machine: an installed litmus7 (LITMUS7=path, LITMUS7_LIBDIR=its
# libdir if it is not installed) against litmusc's native runner, in the same
# invocation.  Every configuration runs once per round, the tools taking
# turns, for BENCH_REPEAT rounds: a shared machine's speed drifts over
# minutes, and back-to-back blocks would hand one tool the quiet spell.
# Prints the median iterations/s and witnesses/s of each configuration,
# then litmusc's default against litmus7's best of each.
# Skips (exit 0) when LITMUS7 is not set.
#   LITMUSC=bin/litmusc LITMUS7=/path/litmus7 sh bench/litmus7_compare.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
[ -n "${LITMUS7:-}" ] || { echo "litmus7_compare: LITMUS7 not set, skipped"; exit 0; }
sb="$here/../examples/x86/SB.litmus"
S=${BENCH_S:-100000}
R=${BENCH_R:-100}
N=${BENCH_REPEAT:-3}
bench_tmp cache
libdir=${LITMUS7_LIBDIR:+-set-libdir $LITMUS7_LIBDIR}

# litmus7 generation options, one configuration per line: its barriers,
# and the memory, preload and stride settings that were best for each in
# sweeps of all 84 barrier x mem x preload x stride combinations on the
# machines measured (a stride of 16 or 32 puts consecutive iterations on
# different lines: on an AMD EPYC it gave userfence about 8 times the
# witnesses of no stride; on a Xeon, -barrier none with shuffled indirect
# memory and a stride of 16 had the best single runs).
cat >"$tmp/l7" <<'CFG'
-barrier userfence
-barrier userfence -mem direct -preload no
-barrier userfence -mem direct -preload no -st 16
-barrier userfence -mem direct -preload no -st 32
-barrier timebase
-barrier timebase -mem direct -preload random -st 32
-barrier user
-barrier none -mem direct -preload no
-barrier none -mem indirect -preload no -st 16
CFG
cat >"$tmp/lc" <<'CFG'
default
--chunk 32
--chunk 64
--chunk 0
--sync loose
--sync loose --chunk 0
--sync user
--sync user --layout line
CFG

i=0
while read -r cfg; do
    i=$((i + 1))
    mkdir -p "$tmp/l7_$i"
    # shellcheck disable=SC2086
    if ! { "$LITMUS7" $libdir -a 2 $cfg -o "$tmp/l7_$i" "$sb" >/dev/null 2>&1 &&
        make -s -C "$tmp/l7_$i" >/dev/null 2>&1; }; then
        echo "litmus7_compare: litmus7 $cfg: build failed" >&2
        rm -rf "$tmp/l7_$i"
    fi
done <"$tmp/l7"
"$LITMUSC" run -s 1000 -r 1 "$sb" >/dev/null 2>&1   # warm the build cache

# litmus7 prints Time with two decimals, and its fastest configurations
# finish S x R iterations in a twentieth of a second: their rate would be
# off by a tenth or more.  Each configuration gets as many runs as it
# needs to last half a second or more ($tmp/runs.K), from one trial run.
i=0
while read -r cfg; do
    i=$((i + 1))
    [ -d "$tmp/l7_$i" ] || continue
    "$tmp/l7_$i/SB.exe" -s "$S" -r "$R" >"$tmp/log" 2>&1
    awk -v r="$R" '/^Time / { t = $3 }
        END { k = (t > 0) ? int(0.5 / t) + 1 : 50; if (k < 1) k = 1; print r * k }' "$tmp/log" >"$tmp/runs.$i"
done <"$tmp/l7"

# One line per run into $tmp/rate.TOOL.K: iterations/s witnesses/s.
l7rate() {  # from a litmus7 log (Time has two decimals: runs are long enough)
    awk '/^Positive:/ { gsub(",", ""); p = $2; n = $4 } /^Time / { t = $3 }
         END { if (t > 0) printf "%.0f %.0f\n", (p + n) / t, p / t }' "$1"
}
. "$here/run_counts.sh"
lcrate() {  # from litmusc's JSON (bench/run_counts.sh)
    run_counts "$1" | awk '$2 > 0 { printf "%.0f %.0f\n", $1 / $2, $3 / $2 }'
}
round=0
while [ $round -lt "$N" ]; do
    round=$((round + 1))
    i=0
    while read -r cfg; do
        i=$((i + 1))
        [ -d "$tmp/l7_$i" ] || continue
        "$tmp/l7_$i/SB.exe" -s "$S" -r "$(cat "$tmp/runs.$i")" >"$tmp/log" 2>&1 && l7rate "$tmp/log" >>"$tmp/rate.l7.$i"
    done <"$tmp/l7"
    i=0
    while read -r cfg; do
        i=$((i + 1))
        opts=$cfg
        [ "$cfg" = default ] && opts=""
        # shellcheck disable=SC2086
        "$LITMUSC" run --json $opts -s "$S" -r "$R" "$sb" >"$tmp/j" 2>/dev/null && lcrate "$tmp/j" >>"$tmp/rate.lc.$i"
    done <"$tmp/lc"
done

# median FILE COLUMN
median() { sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
echo "| tool | configuration | iterations/s (median of $N) | witnesses/s (median of $N) |"
echo "|---|---|---:|---:|"
: >"$tmp/best"
for tool in l7 lc; do
    i=0
    while read -r cfg; do
        i=$((i + 1))
        f="$tmp/rate.$tool.$i"
        [ -s "$f" ] || continue
        it=$(median "$f" 1) w=$(median "$f" 2)
        name=litmus7
        [ $tool = lc ] && name=litmusc
        [ $tool = l7 ] && cfg="-a 2 $cfg"
        echo "| $name | $cfg | $it | $w |"
        echo "$tool $it $w $cfg" >>"$tmp/best"
    done <"$tmp/$tool"
done
# litmus7's fastest configuration may show no weak outcome at all (-barrier
# none on SB): its iterations are also compared with the fastest one that
# shows some.
awk '$1 == "l7" { if ($2 > bi) { bi = $2; bic = $0 } if ($3 > bw) { bw = $3; bwc = $0 }
                  if ($3 > 0 && $2 > bs) { bs = $2; bsc = $0 } }
     $1 == "lc" { n++; it[n] = $2; w[n] = $3; c = $0; sub(/^lc [0-9]+ [0-9]+ /, "", c); name[n] = c }
     END {
        if (bi > 0 && bw > 0) {
            sub(/^l7 [0-9]+ [0-9]+ /, "", bic); sub(/^l7 [0-9]+ [0-9]+ /, "", bwc); sub(/^l7 [0-9]+ [0-9]+ /, "", bsc)
            printf "\nlitmus7 best: witnesses/s %.0f (%s), iterations/s %.0f (%s)\n", bw, bwc, bi, bic
            printf "litmus7 fastest with witnesses: iterations/s %.0f (%s)\n", bs, bsc
            for (k = 1; k <= n; k++)
                printf "litmusc %s against them: witnesses/s %.1fx, iterations/s %.1fx (%.1fx the fastest with witnesses)\n",
                    name[k], w[k] / bw, it[k] / bi, it[k] / bs
        }
     }' "$tmp/best"

# The host's speed can change between rounds (a shared VM moves its
# vCPUs), so medians of each configuration may come from different
# spells.  Round by round instead: litmusc's default against the best of
# litmus7's configurations in the same round, and litmusc's fastest
# configuration against litmus7's fastest.
: >"$tmp/rounds"
for f in "$tmp"/rate.l7.*; do
    [ -s "$f" ] && awk '{ print NR, "l7", $1, $2 }' "$f" >>"$tmp/rounds"
done
# rate.lc.1 is litmusc's default: the first line of $tmp/lc
for f in "$tmp"/rate.lc.*; do
    [ -s "$f" ] || continue
    k=${f##*.}
    awk -v k="$k" '{ print NR, (k == 1 ? "def" : "lc"), $1, $2 }' "$f" >>"$tmp/rounds"
done
awk '{ r = $1 }
     $2 == "l7" { if ($3 > l7i[r]) l7i[r] = $3; if ($4 > l7w[r]) l7w[r] = $4 }
     $2 != "l7" { if ($3 > lci[r]) lci[r] = $3 }
     $2 == "def" { di[r] = $3; dw[r] = $4 }
     END {
        for (r in di) if (l7i[r] > 0 && l7w[r] > 0) {
            n++; wr[n] = dw[r] / l7w[r]; ir[n] = di[r] / l7i[r]; fr[n] = lci[r] / l7i[r]
            w10 += wr[n] >= 10; i2 += ir[n] >= 2; f2 += fr[n] >= 2
        }
        if (!n) exit
        printf "\nround by round (%d rounds):\n", n
        printf "  litmusc default witnesses/s over litmus7 best of the round: %s; 10x or more in %d\n", spread(wr, n), w10
        printf "  litmusc default iterations/s over litmus7 fastest of the round: %s; 2x or more in %d\n", spread(ir, n), i2
        printf "  litmusc fastest over litmus7 fastest, iterations/s: %s; 2x or more in %d\n", spread(fr, n), f2
     }
     function spread(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return sprintf("median %.1fx, range %.1fx-%.1fx", a[int((n + 1) / 2)], a[1], a[n])
     }' "$tmp/rounds"
