#!/bin/sh
# Run the cmocka unit-test binaries given as arguments.
set -u
status=0
for t in "$@"; do
    "$t" || status=1
done
exit $status
