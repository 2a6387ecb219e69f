#!/bin/sh
# cc-check over every C test of tests/corpus and examples/ under gcc and
# clang at -O0 -O1 -O2 -O3 -Os: the share lifted, the refusals by reason,
# and the same/stronger/bug counts.
#   sh bench/cc_check.sh [LITMUSC]
set -u
L=${1:-${LITMUSC:-bin/litmusc}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=$(grep -l '^C ' $(find tests/corpus examples -name '*.litmus' | sort) 2>/dev/null)
start=$(date +%s)
for f in $files; do
  "$L" cc-check --cc gcc --cc clang --cflags -O0 --cflags -O1 --cflags -O2 --cflags -O3 --cflags -Os "$f" \
      >>"$tmp/out" 2>>"$tmp/err"
done
end=$(date +%s)
total=$(grep -c '^cc-check ' "$tmp/out")
for v in same stronger bug refused; do
  printf '%-9s %s\n' "$v" "$(grep -c ": $v" "$tmp/out")"
done
lifted=$(grep -c ': \(same\|stronger\|bug\)' "$tmp/out")
echo "configurations $total, lifted $lifted ($(( total ? 100 * lifted / total : 0 ))%), $(( end - start )) s"
echo "refusals by reason:"
# litmusc's own diagnostics only, one a refused configuration: the
# compiler's messages (its own `error:` lines) go to the same stream
grep 'error: cc-check: ' "$tmp/err" | sed -e 's/.*error: //' -e "s/P[0-9]*: //" -e "s/'[^']*'/'...'/" \
    -e 's/^cc-check: \(.*\) failed to compile.*/compile failure/' | sort | uniq -c | sort -rn | head -20
