#!/bin/sh
# Run every unit-test binary given as argument, then every end-to-end test
# (tests/e2e/*.sh).  Prints one line per test program and a closing
# "N passed, N failed, N skipped" line; exits non-zero if anything failed.
# A test that cannot run here (no JDK, no Slurm) exits 77 after a line
# "SKIP: reason"; a test that ran but left a part out prints such a line
# and passes.  Either way the reason is shown and counted as a skip.
# LITMUSC names the program under test.
set -u
cd "$(dirname "$0")/.."
pass=0
fail=0
skip=0
failed=""
skips=""
run_one() {
    name=$1
    shift
    log=$(mktemp)
    start=$(date +%s)
    "$@" >"$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    reasons=$(sed -n 's/^SKIP: *//p' "$log")
    if [ "$rc" -eq 77 ]; then
        skip=$((skip + 1))
        printf 'SKIP %-40s %s\n' "$name" "${reasons:-no reason given}"
        skips="$skips
  $name: ${reasons:-no reason given}"
    elif [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
        printf 'PASS %-40s %ss\n' "$name" "$secs"
        if [ -n "$reasons" ]; then
            echo "$reasons" | while IFS= read -r r; do
                printf '     %-40s (part skipped: %s)\n' "" "$r"
            done
            skip=$((skip + $(echo "$reasons" | wc -l)))
            skips="$skips
$(echo "$reasons" | sed "s|^|  $name (part): |")"
        fi
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
[ -n "$skips" ] && echo "skipped:$skips"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
