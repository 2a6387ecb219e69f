#!/bin/sh
# `make bench`: every benchmark script in bench/ in turn (not a test: they
# print figures and never fail on them).  LITMUSC names the program.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${LITMUSC:=$here/../bin/litmusc}"
export LITMUSC
status=0
for b in "$here"/*.sh; do
    [ "$(basename "$b")" = run.sh ] && continue
    echo "== $(basename "$b")"
    sh "$b" || { echo "bench: $(basename "$b") failed"; status=1; }
    echo
done
exit $status
