#!/bin/sh
# Frontend speed: parse every corpus test (x86, c11, java) in one
# `litmusc parse --hash` process, ROUNDS times over (default 5), and print
# tests per second per architecture and overall.  --hash keeps printing
# cheap, so the figure is parsing plus herd's hash.  Not a test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${LITMUSC:=$here/../bin/litmusc}"
rounds=${ROUNDS:-5}
corpus="$here/../../shared/corpus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
for arch in x86 c11 java all; do
    if [ "$arch" = all ]; then dir=$corpus; else dir=$corpus/$arch; fi
    find "$dir" -name '*.litmus' | sort > "$tmp/one"
    : > "$tmp/list"
    i=0
    while [ "$i" -lt "$rounds" ]; do cat "$tmp/one" >> "$tmp/list"; i=$((i + 1)); done
    n=$(wc -l < "$tmp/list")
    t0=$(now)
    xargs "$LITMUSC" parse --hash < "$tmp/list" > /dev/null || { echo "parse failed"; exit 1; }
    t1=$(now)
    echo "$arch $n $t0 $t1" | awk '{ s = $4 - $3; printf "parse %-5s %6d tests in %6.3f s: %8.0f tests/s\n", $1, $2, s, (s > 0 ? $2 / s : 0) }'
done
