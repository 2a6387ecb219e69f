#!/bin/sh
# Run every unit-test binary given as argument and every end-to-end test
# (tests/e2e/*.sh), JOBS at a time (default: the number of processors),
# each test's output kept apart and shown only if it fails.  Prints one
# line per test as it finishes and a closing "N passed, N failed,
# N skipped" line; exits non-zero if anything failed.
#
# A test that cannot run here (no JDK, no Slurm) exits 77 after a line
# "SKIP: reason"; a test that ran but left a part out prints such a line
# and passes.  Either way the reason is shown and counted as a skip.
#
# An e2e test's header may say
#   # check: long    start it first (the pool ends sooner)
#   # check: alone   run it on its own after the pool: it measures what
#                    the hardware shows, which other tests' load disturbs
# LITMUSC names the program under test; CORPUS_ALL=1 (make check-all)
# makes the corpus-wide tests sweep every test instead of a fixed sample.
set -u
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
case $jobs in '' | *[!0-9]* | 0) echo "run_all.sh: JOBS must be a positive number, not '$jobs'" >&2; exit 2 ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
suite_start=$(date +%s)

# add ID NAME CMD...: one test, its command written one argument a line.
add() {
    id=$1
    shift
    printf '%s\n' "$@" >"$dir/$id.cmd"
}
marked() { sed -n '2,30p' "$1" | grep -q "^# check: $2\$"; }

n=0
: >"$dir/long" ; : >"$dir/pool" ; : >"$dir/alone"
for t in "$@"; do
    n=$((n + 1)); id=$(printf '%04d' $n)
    add "$id" "unit/$(basename "$t")" "$t"
    echo "$id" >>"$dir/pool"
done
for t in tests/e2e/*.sh; do
    [ -f "$t" ] || continue
    n=$((n + 1)); id=$(printf '%04d' $n)
    add "$id" "e2e/$(basename "$t" .sh)" sh "$t"
    if marked "$t" alone; then echo "$id" >>"$dir/alone"
    elif marked "$t" long; then echo "$id" >>"$dir/long"
    else echo "$id" >>"$dir/pool"
    fi
done

# The runtime's objects, built once for the suite: a test that keeps its own
# build cache (LITMUSC_CACHE in its scratch folder) starts from a copy of
# them (tests/seed_cache.sh), so the dozen runtime files are not compiled
# again by each of the thirty tests that build a harness.  A test of the
# cache itself makes its own and starts empty.
if [ -n "${LITMUSC:-}" ] && [ -x "$LITMUSC" ] &&
   LITMUSC_CACHE="$dir/seed-cache" "$LITMUSC" run -s 10 -r 1 tests/corpus/x86/classic/SB.litmus >/dev/null 2>&1; then
    rm -f "$dir/seed-cache"/*.exe "$dir/seed-cache"/*.exe.md5
    export LITMUSC_SEED_CACHE="$dir/seed-cache"
fi

echo "running $n tests, $jobs at a time$( [ -s "$dir/alone" ] && echo ", then $(wc -l <"$dir/alone") on their own")"
cat "$dir/long" "$dir/pool" | xargs -r -P "$jobs" -n 1 sh tests/run_one.sh "$dir"
xargs -r -n 1 sh tests/run_one.sh "$dir" <"$dir/alone"

pass=0 fail=0 skip=0 failed="" skips=""
for cmd in "$dir"/*.cmd; do
    id=$(basename "$cmd" .cmd)
    name=$(sed -n 1p "$cmd")
    rc=$(cut -d' ' -f1 "$dir/$id.rc" 2>/dev/null || echo 125)
    reasons=$(sed -n 's/^SKIP: *//p' "$dir/$id.log" 2>/dev/null)
    case $rc in
    77) skip=$((skip + 1))
        skips="$skips
  $name: ${reasons:-no reason given}" ;;
    0) pass=$((pass + 1))
       if [ -n "$reasons" ]; then
           skip=$((skip + $(echo "$reasons" | wc -l)))
           skips="$skips
$(echo "$reasons" | sed "s|^|  $name (part): |")"
       fi ;;
    *) fail=$((fail + 1))
       failed="$failed $name"
       echo
       echo "FAIL $name (exit $rc), the end of its output:"
       tail -40 "$dir/$id.log" 2>/dev/null | sed 's/^/    /' ;;
    esac
done
echo
[ -n "$failed" ] && echo "failed:$failed"
[ -n "$skips" ] && echo "skipped:$skips"
echo "$pass passed, $fail failed, $skip skipped in $(( $(date +%s) - suite_start ))s ($jobs at a time)"
[ "$fail" -eq 0 ]
