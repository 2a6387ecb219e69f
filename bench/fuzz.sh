#!/bin/sh
# fuzz.sh [-n N] [--seed S] [--timeout SEC] [--kinds K,...] [--keep DIR]:
# bench/fuzz.py against $LITMUSC (for the figures in bench/RESULTS.md, the
# sanitized program: make SANITIZE=1, LITMUSC=bin/litmusc-san).  Prints
# the counts of inputs by kind and outcome; exits 1 when an input crashed
# the program, made a sanitizer report, ran past its time or failed
# without a message.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
command -v python3 > /dev/null 2>&1 || { echo "fuzz: python3 is needed" >&2; exit 2; }
exec python3 "$here/fuzz.py" --bin "$LITMUSC" "$@"
