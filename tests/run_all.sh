#!/bin/sh
# Run every unit-test binary given as argument, then every end-to-end test
# (tests/e2e/*.sh).  Prints one line per test program and a closing
# "N passed, N failed" line; exits non-zero if anything failed.
# LITMUSC names the program under test.
set -u
cd "$(dirname "$0")/.."
pass=0
fail=0
failed=""
run_one() {
    name=$1
    shift
    log=$(mktemp)
    start=$(date +%s)
    if "$@" >"$log" 2>&1; then
        pass=$((pass + 1))
        printf 'PASS %-40s %ss\n' "$name" "$(( $(date +%s) - start ))"
    else
        fail=$((fail + 1))
        failed="$failed $name"
        printf 'FAIL %-40s\n' "$name"
        tail -40 "$log" | sed 's/^/    /'
    fi
    rm -f "$log"
}
for t in "$@"; do
    run_one "unit/$(basename "$t")" "$t"
done
for t in tests/e2e/*.sh; do
    [ -f "$t" ] || continue
    run_one "e2e/$(basename "$t" .sh)" sh "$t"
done
echo
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
