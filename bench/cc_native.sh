#!/bin/sh
# The native cross-check of cc-check: for each C test of the SB, MP and IRIW
# families (tests/corpus/c11/classic), under gcc and clang at -O0 -O1 -O2
# -O3 -Os, the states of the lifted test under x86tso (cc-check --out, then
# litmusc model) against the states the C11 stress harness shows when the
# same compiler builds it with the same flags (litmusc run --target c11
# --cc CC --cflags FLAGS).  Every state seen must be one the lifted test
# allows: a state outside is a lifter (or model) bug.  One row per
# configuration, then the totals.
#   sh bench/cc_native.sh [LITMUSC]     (S=instances per run, R=runs, TESTS=files,
#                                        LEVELS=flag sets, CCS=compilers)
#   sh bench/cc_native.sh --compare LIFTED SEEN: the states of SEEN (one a
#                                        line, as below) outside LIFTED's
set -u
# outside LIFTED SEEN: each state of SEEN that no state of LIFTED shows once
# projected onto SEEN's observables (the harness prints the condition's).
outside() {
  while read -r st; do
    keys=$(printf '%s' "$st" | tr ';' '\n' | sed 's/=.*//' | tr '\n' ' ')
    awk -v keys="$keys" -v want="$st" 'BEGIN { n=split(keys, k, " ") }
      { s=""; m=split($0, a, ";"); for (j=1;j<=n;j++) for (i=1;i<=m;i++) if (a[i] ~ "^" k[j] "=") s=s a[i] ";"
        if (s == want) found=1 }
      END { exit found ? 0 : 1 }' "$1" || printf '%s\n' "$st"
  done <"$2"
}
if [ "${1:-}" = --compare ]; then
  outside "$2" "$3"
  exit 0
fi
L=${1:-${LITMUSC:-bin/litmusc}}
S=${S:-20000}
R=${R:-5}
TESTS=${TESTS:-$(ls tests/corpus/c11/classic/SB*.litmus tests/corpus/c11/classic/MP*.litmus \
  tests/corpus/c11/classic/IRIW*.litmus)}
LEVELS=${LEVELS:--O0 -O1 -O2 -O3 -Os}
CCS=${CCS:-gcc clang}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
# STATES FILE: one state a line, atoms sorted, registers as P<n>_<reg>
# (the lifted test's globals), locations bare: "P0_r0=1;P1_r0=0;".
lifted_states() {
  "$L" model --model x86tso "$1" | awk '/^States /{n=$2; next} n>0 {n--; gsub(/[][]/, ""); print}' |
    awk '{ s=""; k=split($0, a, "; *"); m=0; for (i=1;i<=k;i++) if (a[i] != "") { sub(/;$/, "", a[i]); b[++m]=a[i] }
           for (i=1;i<=m;i++) for (j=i+1;j<=m;j++) if (b[j] < b[i]) { t=b[i]; b[i]=b[j]; b[j]=t }
           for (i=1;i<=m;i++) s=s b[i] ";"; print s }'
}
native_states() {
  awk '/^Histogram /{h=1; next} h && !/^[0-9]/ {h=0} h { sub(/^[0-9]+ +[:*]>/, ""); print }' "$1" |
    awk '{ s=""; k=split($0, a, "; *"); m=0
           for (i=1;i<=k;i++) if (a[i] != "") { sub(/;$/, "", a[i]); x=a[i]; gsub(/[][]/, "", x)
             if (x ~ /^[0-9]+:/) { p=substr(x, 1, index(x, ":")-1); x="P" p "_" substr(x, index(x, ":")+1) }
             b[++m]=x }
           for (i=1;i<=m;i++) for (j=i+1;j<=m;j++) if (b[j] < b[i]) { t=b[i]; b[i]=b[j]; b[j]=t }
           for (i=1;i<=m;i++) s=s b[i] ";"; print s }'
}
printf '%-28s %-5s %-4s %7s %7s %8s %8s\n' test cc flags lifted seen outside seconds
total=0 checked=0 refused=0 outside=0
start=$(date +%s)
for f in $TESTS; do
  name=$(sed -n '1s/^C //p' "$f")
  for cc in $CCS; do
    for o in $LEVELS; do
      total=$((total + 1))
      t0=$(date +%s)
      "$L" cc-check --cc "$cc" --cflags "$o" --out "$tmp" "$f" >"$tmp/v" 2>"$tmp/e"
      lf="$tmp/$name.$cc.$o.litmus"
      if [ ! -s "$lf" ]; then
        refused=$((refused + 1))
        printf '%-28s %-5s %-4s %7s\n' "$name" "$cc" "$o" refused
        continue
      fi
      lifted_states "$lf" | sort -u >"$tmp/lifted"
      "$L" run --target c11 --cc "$cc" --cflags "$o" -s "$S" -r "$R" "$f" >"$tmp/run" 2>"$tmp/rerr"
      native_states "$tmp/run" | sort -u >"$tmp/seen"
      outside "$tmp/lifted" "$tmp/seen" | sed "s/^/  outside: $name $cc $o: /" >"$tmp/out1"
      out=$(wc -l <"$tmp/out1")
      cat "$tmp/out1" >>"$tmp/outside"
      [ -s "$tmp/seen" ] || out=-1        # no histogram: the run failed
      checked=$((checked + 1))
      [ "$out" -gt 0 ] && outside=$((outside + out))
      printf '%-28s %-5s %-4s %7d %7d %8d %8d\n' "$name" "$cc" "$o" "$(wc -l <"$tmp/lifted")" \
        "$(wc -l <"$tmp/seen")" "$out" $(( $(date +%s) - t0 ))
    done
  done
done
end=$(date +%s)
echo "configurations $total, checked $checked, refused by cc-check $refused, states outside the lifted set $outside, $((end - start)) s (-s $S -r $R)"
[ -s "$tmp/outside" ] && cat "$tmp/outside"
[ "$outside" = 0 ]
