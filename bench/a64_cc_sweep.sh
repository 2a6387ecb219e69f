#!/bin/sh
# cc-check --target aarch64 over C tests, each built by the AArch64
# compilers at each optimisation level and -march: how many lift, the
# refusals by reason, and each lifted test's states under herd7 7.57
# (`herd7 FILE`: its aarch64.cat) against the source's (`herd7 -model
# rc11.cat`), a state the source forbids being a bug.  Runs where a cut
# exclusive loop failed (cc_unroll=1) are left out, as cc-check does.
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
bench_tmp
if [ $# -eq 0 ]; then
  set -- $(grep -rl '^C ' "$here/../tests/corpus" "$here/../examples" --include='*.litmus' | sort |
           awk -v s="$STEP" '(NR - 1) % s == 0')
fi
# a model cc-check can load for the lifted test (its verdicts are not used here)
tm=aarch64
"$LITMUSC" models 2>/dev/null | grep -qw aarch64 || tm=sc
cc_args=""
for c in $CCS; do cc_args="$cc_args --cc $c"; done
# states: herd's "States" block as tests/cc/herd_states.awk writes it
states() {
  HERDLIB="$HERD_LIBDIR" "$HERD7" "$@" 2>/dev/null | awk -f "$here/../tests/cc/herd_states.awk" | sort -u
}
mkdir -p "$tmp/out"
total=0 lifted=0 same=0 stronger=0 bugs=0 herd_bad=0
: >"$tmp/refusals"
for t in "$@"; do
  name=$(sed -n '1s/^C //p' "$t")
  states -model rc11.cat "$t" >"$tmp/src"
  for m in $MARCHES; do
    for o in $OPTS; do
      rm -f "$tmp/out"/*
      "$LITMUSC" cc-check --target aarch64 --target-model $tm $cc_args --cflags "$o -march=$m" --out "$tmp/out" "$t" \
          >/dev/null 2>"$tmp/err"
      for c in $CCS; do
        total=$((total + 1))
        f=$(ls "$tmp/out"/*."$c".*.litmus 2>/dev/null | head -1)
        if [ -z "$f" ]; then
          why=$(grep -m1 "$name $c \|cannot lift\|error" "$tmp/err" | sed -n "s/.*cannot lift '\([a-z.0-9]*\).*(\(.*\))\$/\2 (\1)/p")
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
        elif [ -n "$(comm -23 "$tmp/lift" "$tmp/src")" ]; then
          bugs=$((bugs + 1))
          echo "bug: $name $c $o $m: $(comm -23 "$tmp/lift" "$tmp/src" | tr '\n' ' ')" >>"$tmp/log"
        elif cmp -s "$tmp/lift" "$tmp/src"; then
          same=$((same + 1))
        else
          stronger=$((stronger + 1))
        fi
      done
    done
  done
done
echo "tests: $#; configurations: $total; lifted: $lifted; herd7 reads no states: $herd_bad"
echo "of the lifted: same $same, stronger $stronger, bug $bugs"
echo "refusals by reason:"
sort "$tmp/refusals" | uniq -c | sort -rn
grep -v '^refused' "$tmp/log" 2>/dev/null
[ -n "${KEEP:-}" ] && cp -r "$tmp" "$KEEP"
exit 0
