#!/bin/sh
# cc-check --target aarch64 over C tests, each built by the AArch64
# compilers at each optimisation level and -march: how many lift, the
# refusals by reason, and each lifted test's states under herd7 7.57
# (`herd7 FILE`: its aarch64.cat) against the source's (`herd7 -model
# model/cat/rc11-lb.cat`, the source model cc-check gives AArch64: SRC_CAT
# overrides it), a state the source forbids being a bug, beside litmusc's
# own verdict (its AArch64 reader and aarch64 model).  Runs that take a
# cut loop's retry (cc_unroll=1) are left out, as cc-check does.  herd7
# gets HERD_TIMEOUT seconds a run (default 300: clang -O0's JobServer at
# armv8-a takes longer), cc-check no candidate budget (JobServer's source
# under rc11-lb passes the default one).
#
#   HERD7=herd7 HERD_LIBDIR=.../herd sh bench/a64_cc_sweep.sh [TEST...]
#   (default: every C test of tests/corpus and examples; STEP=N takes
#   every Nth; CCS, OPTS and MARCHES override the configurations)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${HERD7:?HERD7 must name herd7 7.57}" "${HERD_LIBDIR:?HERD_LIBDIR must name herd's .cat folder}"
CCS=${CCS:-aarch64-linux-gnu-gcc clang}
OPTS=${OPTS:--O0 -O1 -O2 -O3 -Os}
MARCHES=${MARCHES:-armv8-a armv8.1-a}
STEP=${STEP:-1}
SRC_CAT=${SRC_CAT:-$here/../model/cat/rc11-lb.cat}
bench_tmp
if [ $# -eq 0 ]; then
  set -- $(grep -rl '^C ' "$here/../tests/corpus" "$here/../examples" --include='*.litmus' | sort |
           awk -v s="$STEP" '(NR - 1) % s == 0')
fi
# a model cc-check can load for the lifted test (its verdicts are not used here)
tm=aarch64
"$LITMUSC" models 2>/dev/null | grep -qw aarch64 || tm=sc
# states: herd's "States" block as tests/cc/herd_states.awk writes it
states() {
  HERDLIB="$HERD_LIBDIR" timeout "${HERD_TIMEOUT:-300}" "$HERD7" "$@" 2>/dev/null | awk -f "$here/../tests/cc/herd_states.awk" | sort -u
}
mkdir -p "$tmp/out"
total=0 lifted=0 same=0 stronger=0 bugs=0 herd_bad=0 own_agree=0 own_none=0 own_states=0
: >"$tmp/refusals"
for t in "$@"; do
  name=$(sed -n '1s/^C //p' "$t")
  states -model "$SRC_CAT" "$t" >"$tmp/src"
  if [ ! -s "$tmp/src" ]; then
    echo "skipped: $name: herd7 -model $SRC_CAT reads no states from it" >>"$tmp/log"
    continue
  fi
  for m in $MARCHES; do
    for o in $OPTS; do
      for c in $CCS; do
        rm -f "$tmp/out"/*
        "$LITMUSC" cc-check --target aarch64 --target-model $tm --max-candidates 0 --cc $c --cflags "$o -march=$m" --out "$tmp/out" "$t" \
            >"$tmp/verdict" 2>"$tmp/err"
        own=$(sed -n 's/^cc-check .*: \(same\|stronger\|bug\) (.*/\1/p' "$tmp/verdict" | head -1)
        total=$((total + 1))
        f=$(ls "$tmp/out"/*.litmus 2>/dev/null | head -1)
        if [ -z "$f" ]; then
          why=$(sed -n "s/.*cannot lift '\([a-z.0-9]*\).*(\(.*\))\$/\2 (\1)/p" "$tmp/err" | head -1)
          [ -n "$why" ] || ! grep -q "failed to compile" "$tmp/err" || why="the compiler fails on the test"
          [ -n "$why" ] || why=$(grep -m1 "error" "$tmp/err" | sed 's/.*error: //' | cut -c1-80)
          echo "$why" >>"$tmp/refusals"
          echo "refused: $name $c $o $m: $why" >>"$tmp/log"
          continue
        fi
        lifted=$((lifted + 1))
        states "$f" >"$tmp/lift"
        if [ ! -s "$tmp/lift" ]; then
          herd_bad=$((herd_bad + 1))
          echo "herd7 reads no states: $name $c $o $m" >>"$tmp/log"
          cp "$f" "$tmp/herdbad.$herd_bad.litmus"
        else
          if [ -n "$(comm -23 "$tmp/lift" "$tmp/src")" ]; then
            v=bug bugs=$((bugs + 1))
            echo "bug: $name $c $o $m: $(comm -23 "$tmp/lift" "$tmp/src" | tr '\n' ' ')" >>"$tmp/log"
          elif cmp -s "$tmp/lift" "$tmp/src"; then
            v=same same=$((same + 1))
          else
            v=stronger stronger=$((stronger + 1))
          fi
          # litmusc's own verdict (its AArch64 reader, the aarch64 model) beside herd7's
          if [ -z "$own" ]; then
            own_none=$((own_none + 1))
            echo "litmusc gives no verdict: $name $c $o $m: $(grep -m1 error "$tmp/err" | cut -c1-160)" >>"$tmp/log"
          elif [ "$own" = "$v" ]; then
            own_agree=$((own_agree + 1))
            # and as many states as herd7 has for the lifted file
            n=$(sed -n 's/.*(\([0-9]*\) states compiled.*/\1/p' "$tmp/verdict" | head -1)
            if [ "$n" = "$(wc -l <"$tmp/lift" | tr -d ' ')" ]; then
              own_states=$((own_states + 1))
            else
              echo "litmusc has $n states, herd7 $(wc -l <"$tmp/lift" | tr -d ' '): $name $c $o $m" >>"$tmp/log"
            fi
          else
            echo "litmusc says $own, herd7 $v: $name $c $o $m" >>"$tmp/log"
          fi
        fi
      done
    done
  done
done
echo "tests: $#; configurations: $total; lifted: $lifted; herd7 reads no states: $herd_bad"
echo "of the lifted, by herd7: same $same, stronger $stronger, bug $bugs"
echo "litmusc's verdict agrees with herd7's on $own_agree (the same number of states on $own_states); gives none on $own_none"
echo "refusals by reason:"
sort "$tmp/refusals" | uniq -c | sort -rn
grep -v '^refused' "$tmp/log" 2>/dev/null
[ -n "${KEEP:-}" ] && cp -r "$tmp" "$KEEP"
exit 0
