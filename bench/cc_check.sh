#!/bin/sh
# cc-check over every C test of tests/corpus and examples/ under gcc and
# clang at -O0 -O1 -O2 -O3 -Os: the share lifted, the refusals by reason,
# the same/stronger/bug counts, and how many lifted files herd7 7.57 reads
# as written (their header says so and tests/cc/herd_x86_64.awk agrees),
# the others by what herd lacks; and the compilers alone on the same
# translation units, against the whole pipeline's time.
#   sh bench/cc_check.sh [LITMUSC]
set -u
L=${1:-${LITMUSC:-bin/litmusc}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=$(grep -l '^C ' $(find tests/corpus examples -name '*.litmus' | sort) 2>/dev/null)
mkdir "$tmp/lifted"
start=$(date +%s)
i=0
for f in $files; do
  i=$((i + 1))
  mkdir "$tmp/lifted/$i"          # one folder a test: names repeat across folders
  "$L" cc-check --cc gcc --cc clang --cflags -O0 --cflags -O1 --cflags -O2 --cflags -O3 --cflags -Os \
      --out "$tmp/lifted/$i" "$f" \
      >>"$tmp/out" 2>>"$tmp/err"
done
end=$(date +%s)
total=$(grep -c '^cc-check ' "$tmp/out")
for v in same stronger bug refused; do
  printf '%-9s %s\n' "$v" "$(grep -c ": $v" "$tmp/out")"
done
lifted=$(grep -c ': \(same\|stronger\|bug\)' "$tmp/out")
echo "configurations $total, lifted $lifted ($(( total ? 100 * lifted / total : 0 ))%), $(( end - start )) s"
# the compilers alone on the same translation units (cc-check --out's NAME.c)
# with the flags cc-check gives them: what the rest of the pipeline adds
cstart=$(date +%s)
for c in "$tmp/lifted"/*/*.c; do
  for cc in gcc clang; do
    for o in -O0 -O1 -O2 -O3 -Os; do
      "$cc" $o -c -fno-pic "$c" -o "$tmp/tu.o" 2>/dev/null
    done
  done
done
cend=$(date +%s)
echo "the compilers alone on the $(ls "$tmp/lifted"/*/*.c | wc -l) translation units: $(( cend - cstart )) s (the whole pipeline: $(( end - start )) s)"
echo "refusals by reason:"
# litmusc's own diagnostics only, one a refused configuration: the
# compiler's messages (its own `error:` lines) go to the same stream
grep 'error: cc-check: ' "$tmp/err" | sed -e 's/.*error: //' -e "s/P[0-9]*: //" -e "s/'[^']*'/'...'/" \
    -e 's/^cc-check: \(.*\) failed to compile.*/compile failure/' | sort | uniq -c | sort -rn | head -20
n=$(find "$tmp/lifted" -name '*.litmus' | wc -l)
herd=$(find "$tmp/lifted" -name '*.litmus' -exec grep -l "herd7 7.57 reads it as written" {} + | wc -l)
bad=$(find "$tmp/lifted" -name '*.litmus' -exec grep -l "herd7 7.57 reads it as written" {} + |
    xargs -r awk -f tests/cc/herd_x86_64.awk | wc -l)
echo "lifted files $n, in herd7 7.57's X86_64 grammar $herd ($(( n ? 100 * herd / n : 0 ))%), token check problems $bad"
echo "outside herd's grammar, by reason:"
sed -n "s/.*note: the lifted test is outside herd7 7.57's X86_64 (P[0-9]*: '[^']*': \(.*\))$/\1/p" "$tmp/err" |
    sort | uniq -c | sort -rn
